//! The `r,c` lines format: one square a line, its 0-based row and column, as a person writes a tour
//! by hand; blank lines and `#` comments are skipped. It carries no board size (the reader gives it).

use super::TourFileError;
use crate::board::Square;
use std::fmt::Write as _;

/// Parse `r,c` lines; blank lines and `#` comments are skipped.
pub fn parse_moves(text: &str) -> Result<Vec<Square>, TourFileError> {
    let mut squares = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        squares.extend(parse_move_line(raw, i + 1)?);
    }
    Ok(squares)
}

/// The square of line number `line` of the `r,c` format, `raw`; `None` for a blank or comment line.
pub(super) fn parse_move_line(raw: &str, line: usize) -> Result<Option<Square>, TourFileError> {
    let content = raw.split('#').next().unwrap_or("").trim();
    if content.is_empty() {
        return Ok(None);
    }
    let bad = || TourFileError::BadLine {
        line,
        text: raw.to_string(),
    };
    let (r, c) = content.split_once(',').ok_or_else(bad)?;
    let r: u16 = r.trim().parse().map_err(|_| bad())?;
    let c: u16 = c.trim().parse().map_err(|_| bad())?;
    Ok(Some(Square::new(r, c)))
}

/// One `r,c` line per square.
pub fn format_moves(squares: &[Square]) -> String {
    let mut s = String::with_capacity(squares.len() * 8);
    for sq in squares {
        let _ = writeln!(s, "{},{}", sq.row(), sq.col());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_and_errors_name_the_line() {
        let sq = vec![Square::new(0, 0), Square::new(2, 1), Square::new(4, 2)];
        assert_eq!(parse_moves(&format_moves(&sq)).unwrap(), sq);
        let err = parse_moves("0,0\n1,x\n").unwrap_err().to_string();
        assert!(err.starts_with("line 2:"), "{err}");
        assert!(parse_moves("0,0\n-1,2\n").is_err());
        assert!(parse_moves("0 0\n").is_err());
    }
}
