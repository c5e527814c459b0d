#![no_main]
//! Any bytes as a tour file (binary, JSON or `r,c` lines; with and without a board given), then the
//! verifier and the printers on what parses: never a panic. And the check of a streamed tour file
//! (a pipe, a device), fed the bytes in blocks: never a panic, and never a refusal of a file that
//! parses (with no more squares than its board, and no NUL byte, which a stream may not hold). And
//! a binary tour checked as it streams agrees with it parsed whole and verified.
use ktour::board::Board;
use ktour::input::StreamCheck;
use ktour::tour::{format_grid, format_moves, parse_tour, BinStream, TourStream};
use ktour::verify::{verify_bin_stream, verify_closed_tour, verify_path, verify_tour, VerifyError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for given in [None, Some(Board::new(5, 5).unwrap())] {
        let parsed = parse_tour(data, given);
        if let Ok(t) = &parsed {
            let _ = verify_tour(t.board, &t.squares);
            let _ = verify_closed_tour(t.board, &t.squares);
            // the printers take verified paths (as `solve` gives them); a grid has a cell a square
            if verify_path(t.board, &t.squares).is_ok() && t.board.len() < 1_000_000 {
                let _ = format_grid(t.board, &t.squares);
                let _ = format_moves(&t.squares);
            }
        }
        let mut check = TourStream::new(given);
        let cuts = [data.len() / 3, data.len() / 2, data.len() * 3 / 4];
        let streamed = cuts
            .iter()
            .try_for_each(|&cut| check.check(&data[..cut], false))
            .and_then(|()| check.check(data, true));
        if let (Ok(t), Err(why)) = (&parsed, &streamed) {
            assert!(
                t.squares.len() as u64 > t.board.len() as u64 || data.contains(&0),
                "a tour file that parses was refused as a stream: {why}"
            );
        }
        if data.starts_with(b"KTOURBIN") {
            let held = parsed.map(|t| {
                verify_tour(t.board, &t.squares).map_err(VerifyError::without_first_visit)
            });
            let streamed = BinStream::open(data, given, Some(data.len() as u64));
            let streamed = streamed.and_then(verify_bin_stream).map(|t| t.verdict);
            assert_eq!(
                held.as_ref().map_err(|e| e.to_string()),
                streamed.as_ref().map_err(|e| e.to_string())
            );
            let piped = BinStream::open(data, given, None);
            let piped = piped.and_then(verify_bin_stream).map(|t| t.verdict);
            if let (Ok(a), Ok(b)) = (&held, &piped) {
                assert_eq!(a, b);
            }
            assert_eq!(held.is_ok(), piped.is_ok(), "{held:?} {piped:?}");
        }
    }
});
