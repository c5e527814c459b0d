//! The check of a tour file that may never end (a pipe, a device), block by block as it is read
//! ([`crate::input::StreamCheck`]), for every format of [`super`]: what the whole file would be
//! refused for, it is refused for as soon as the bytes show it.

use super::bin::{BinHeader, BIN_HEADER_LEN, BIN_MAGIC};
use super::lines::parse_move_line;
use super::{without_bom, TourFileError};
use crate::board::Board;

/// Checks a tour file that may never end (a pipe, a device) as it is read, block by block
/// ([`crate::input::StreamCheck`]): the format shows in the first bytes; `r,c` lines are parsed as
/// they arrive, so a bad line gets the error the whole file would get, and more lines than the
/// board has squares end the stream; a binary file ends where its header says.
#[derive(Clone, Debug)]
pub struct TourStream {
    board: Option<Board>,
    text: crate::input::Text,
    /// Bytes of whole `r,c` lines parsed so far (after any byte-order mark), and their lines.
    parsed: usize,
    lines: usize,
    squares: u64,
    json_checked: bool,
}

impl TourStream {
    /// A check for a tour file read with `board` given (`--rows`/`--cols`), or none.
    pub fn new(board: Option<Board>) -> Self {
        TourStream {
            board,
            text: crate::input::Text::default(),
            parsed: 0,
            lines: 0,
            squares: 0,
            json_checked: false,
        }
    }
}

impl crate::input::StreamCheck for TourStream {
    fn check(&mut self, bytes: &[u8], ended: bool) -> Result<(), String> {
        if bytes.starts_with(BIN_MAGIC) {
            if bytes.len() >= BIN_HEADER_LEN {
                let header = BinHeader::parse(bytes).map_err(|e| e.to_string())?;
                if (bytes.len() - BIN_HEADER_LEN) as u64 > header.count.saturating_mul(4) {
                    return Err(header.trailing_bytes().to_string());
                }
            }
            return Ok(());
        }
        if !bytes.is_empty() && BIN_MAGIC.starts_with(bytes) {
            return Ok(()); // a truncated binary header: the parser says so
        }
        self.text.check(bytes, ended).map_err(|why| {
            let magic = String::from_utf8_lossy(BIN_MAGIC);
            TourFileError::Unrecognised(format!(
                "{why} (nor a binary tour, which starts {magic:?})"
            ))
            .to_string()
        })?;
        let text = without_bom(bytes);
        let first = text.trim_ascii_start().first();
        if !ended && (first.is_none() || b"\xEF\xBB\xBF".starts_with(bytes)) {
            return Ok(()); // nothing yet tells the format
        }
        if first == Some(&b'{') || first == Some(&b'[') {
            // JSON: its first block is checked, so that a stream of garbage after a brace ends
            // there; a document that stays well formed is bounded by the caller's limit (checking
            // every block would parse the stream again at each)
            if !std::mem::replace(&mut self.json_checked, true) {
                match serde_json::from_slice::<serde::de::IgnoredAny>(text) {
                    Err(e) if !e.is_eof() => return Err(TourFileError::Json(e).to_string()),
                    _ => {}
                }
            }
            return Ok(());
        }
        let board = self.board.ok_or(TourFileError::MissingBoard.to_string())?;
        let end = match text[self.parsed..].iter().rposition(|&b| b == b'\n') {
            _ if ended => text.len(),
            Some(i) => self.parsed + i + 1,
            None if text.len() - self.parsed > crate::input::START_BYTES => {
                let why = format!(
                    "line {} is longer than {} bytes",
                    self.lines + 1,
                    crate::input::START_BYTES
                );
                return Err(TourFileError::Unrecognised(why).to_string());
            }
            None => return Ok(()),
        };
        // whole lines of checked UTF-8 (the cut is after a newline, never inside a character)
        let lines = std::str::from_utf8(&text[self.parsed..end]).map_err(|e| e.to_string())?;
        for (i, raw) in lines.lines().enumerate() {
            let line = self.lines + i + 1;
            if parse_move_line(raw, line)
                .map_err(|e| e.to_string())?
                .is_some()
            {
                self.squares += 1;
                if self.squares > board.len() as u64 {
                    let why = format!(
                        "more squares than the {} of a {board} board (line {line})",
                        board.len()
                    );
                    return Err(TourFileError::Inconsistent(why).to_string());
                }
            }
        }
        self.lines += lines.lines().count();
        self.parsed = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_tour, write_bin, StatsRecord, TourRecord};
    use super::*;
    use crate::board::Square;

    /// `check` fed the prefixes of `bytes` ending at `cuts` (in order), then all of it, ended.
    fn check_in_blocks(check: &mut TourStream, bytes: &[u8], cuts: &[usize]) -> Result<(), String> {
        use crate::input::StreamCheck;
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        for cut in cuts {
            check.check(&bytes[..cut], false)?;
        }
        check.check(bytes, true)
    }

    #[test]
    fn a_streamed_file_is_refused_where_it_stops_being_a_tour_file() {
        let eight = Board::new(8, 8).unwrap();
        let board = Some(eight);
        let mut lines = "0,0\n".repeat(100);
        lines.push_str("1;2\n");
        let large = Some(Board::new(12, 12).unwrap());
        let err = check_in_blocks(
            &mut TourStream::new(large),
            lines.as_bytes(),
            &[50, 203, 399],
        )
        .unwrap_err();
        assert_eq!(
            err,
            "line 101: expected `row,col` (two non-negative integers), got \"1;2\""
        );
        let err = check_in_blocks(
            &mut TourStream::new(board),
            &lines.as_bytes()[..400],
            &[130],
        )
        .unwrap_err();
        assert_eq!(
            err,
            "inconsistent tour file: more squares than the 64 of a 8x8 board (line 65)"
        );
        let err = check_in_blocks(&mut TourStream::new(None), b"0,0\n", &[]).unwrap_err();
        assert!(err.contains("needs the board size"), "{err}");
        // a line that does not end within the first block is no `r,c` line
        let long = vec![b'7'; crate::input::START_BYTES + 1];
        let err = check_in_blocks(&mut TourStream::new(board), &long, &[long.len()]).unwrap_err();
        assert!(err.contains("line 1 is longer than"), "{err}");
        // binary: the header's count bounds the stream
        let mut bin = Vec::new();
        write_bin(&mut bin, eight, &[Square::new(0, 0)], false).unwrap();
        assert!(check_in_blocks(&mut TourStream::new(None), &bin, &[3, 31, 33]).is_ok());
        bin.push(0);
        let err = check_in_blocks(&mut TourStream::new(None), &bin, &[]).unwrap_err();
        assert!(
            err.contains("announces 1 squares (4 bytes) but more bytes follow (trailing bytes?)"),
            "{err}"
        );
        // JSON: garbage after the brace ends the first block
        let err = check_in_blocks(&mut TourStream::new(None), b"{\n{\n{\n", &[]).unwrap_err();
        assert!(err.starts_with("malformed tour JSON"), "{err}");
        let err = check_in_blocks(&mut TourStream::new(None), b"\xEF\xBB\xBF\0", &[]).unwrap_err();
        assert!(err.contains("NUL byte at offset 3"), "{err}");
    }

    proptest::proptest! {
        /// No false refusal: a tour file that parses (in any format, with comments, blank lines,
        /// CRLF and a byte-order mark) passes the stream check at every block, wherever the blocks
        /// are cut.
        #[test]
        fn a_tour_file_that_parses_passes_the_stream_check_in_any_blocks(
            rows in 1u16..12,
            cols in 1u16..12,
            picks in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..150),
            noise in proptest::collection::vec(0u8..4, 150),
            format in 0u8..4,
            cuts in proptest::collection::vec(proptest::prelude::any::<usize>(), 0..6),
            bom: bool,
            give_board: bool,
        ) {
            let board = Board::new(rows.into(), cols.into()).unwrap();
            let n = board.len();
            let squares: Vec<Square> = picks
                .iter()
                .take(n as usize)
                .map(|&p| board.square_at(u32::from(p) % n).unwrap())
                .collect();
            let record = TourRecord {
                rows: rows.into(),
                cols: cols.into(),
                closed: false,
                start: squares.first().copied(),
                squares: squares.clone(),
                found: false,
                method: "warnsdorff".into(),
                rule: "first".into(),
                stats: StatsRecord::default(),
                leaper: None,
                holes: Vec::new(),
            };
            let mut bytes = if bom && format != 3 { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
            match format {
                0 => {
                    for (s, how) in squares.iter().zip(&noise) {
                        let (r, c) = (s.row(), s.col());
                        bytes.extend_from_slice(match how {
                            0 => format!("{r},{c}\n"),
                            1 => format!(" {r} , {c} \r\n"),
                            2 => format!("# a comment, with 1,2\n{r},{c}\n"),
                            _ => format!("\n{r},{c} # note\n"),
                        }.as_bytes());
                    }
                }
                1 => bytes.extend(serde_json::to_vec(&record).unwrap()),
                2 => bytes.extend(serde_json::to_vec_pretty(&record).unwrap()),
                _ => write_bin(&mut bytes, board, &squares, false).unwrap(),
            }
            let given = (format == 0 || give_board).then_some(board);
            proptest::prop_assert!(parse_tour(&bytes, given).is_ok());
            let checked = check_in_blocks(&mut TourStream::new(given), &bytes, &cuts);
            proptest::prop_assert!(checked.is_ok(), "{:?}", checked);
        }
    }
}
