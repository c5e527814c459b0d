#![no_main]
//! Any bytes as a tour file (binary, JSON or `r,c` lines; with and without a board given), then the
//! verifier and the printers on what parses: never a panic.
use ktour::board::Board;
use ktour::tour::{format_grid, format_moves, parse_tour};
use ktour::verify::{verify_closed_tour, verify_path, verify_tour};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for given in [None, Some(Board::new(5, 5).unwrap())] {
        if let Ok(t) = parse_tour(data, given) {
            let _ = verify_tour(t.board, &t.squares);
            let _ = verify_closed_tour(t.board, &t.squares);
            // the printers take verified paths (as `solve` gives them); a grid has a cell a square
            if verify_path(t.board, &t.squares).is_ok() && t.board.len() < 1_000_000 {
                let _ = format_grid(t.board, &t.squares);
                let _ = format_moves(&t.squares);
            }
        }
    }
});
