//! Tour files, one format a file: the JSON record that `solve` writes and `verify` reads (`json.rs`),
//! the `r,c` lines format (`lines.rs`), the compact binary format for huge boards (`bin.rs`) and the
//! numbered text grid (`grid.rs`). This file holds what they share: the error, the tour as loaded,
//! and [`parse_tour`], which tells the formats apart by their first bytes; [`TourStream`]
//! (`stream.rs`) checks a file of any of them as it streams. The JSON field names are a contract with
//! tests, plots and later tools.

mod bin;
mod grid;
mod json;
mod lines;
mod stream;

pub use bin::{parse_bin, write_bin, BinHeader, BinStream, BIN_HEADER_LEN, BIN_MAGIC, BIN_VERSION};
pub use grid::{format_grid, format_grid_with_holes, MAX_GRID_WIDTH};
pub use json::{is_json, parse_record, StatsRecord, TourRecord};
pub use lines::{format_moves, parse_moves};
pub use stream::TourStream;

use crate::board::{Board, Square};

/// A tour file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TourFileError {
    /// Not valid JSON, or not the expected fields.
    #[error("malformed tour JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The record's board, holes or leaper do not make a shape.
    #[error("the record's board: {0}")]
    Shape(String),
    /// A line of the `r,c` format that is not two non-negative integers.
    #[error("line {line}: expected `row,col` (two non-negative integers), got {text:?}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line as read.
        text: String,
    },
    /// The `r,c` format carries no board size.
    #[error("a tour given as `r,c` lines needs the board size: pass --rows and --cols")]
    MissingBoard,
    /// An invalid board size in the file.
    #[error("invalid board in tour file: {0}")]
    Board(#[from] crate::board::BoardError),
    /// Fields that contradict each other.
    #[error("inconsistent tour file: {0}")]
    Inconsistent(String),
    /// A binary tour file that is truncated or corrupt.
    #[error("corrupt binary tour file: {0}")]
    Binary(String),
    /// Neither text nor a known binary header.
    #[error("not a tour file: {0}")]
    Unrecognised(String),
}

/// A tour as read from a file, with what the file claims about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedTour {
    /// The board.
    pub board: Board,
    /// The squares in order.
    pub squares: Vec<Square>,
    /// What the file says about closedness, if anything.
    pub claims_closed: Option<bool>,
    /// What the file says about having found a tour, if anything.
    pub claims_found: Option<bool>,
    /// The shape a JSON record names (its holes and leaper); `None` for formats that carry none.
    pub shape: Option<crate::board::Shape>,
}

/// Read a tour in any supported format: binary (starts with [`BIN_MAGIC`]), JSON (starts with `{`) or
/// `r,c` lines. `board` gives the size
/// for formats that do not carry it; when both are present they must agree.
pub fn parse_tour(bytes: &[u8], board: Option<Board>) -> Result<LoadedTour, TourFileError> {
    if bytes.starts_with(BIN_MAGIC) {
        return parse_bin(bytes, board);
    }
    let bytes = without_bom(bytes);
    if bytes.trim_ascii_start().starts_with(b"[") {
        return Err(TourFileError::Unrecognised(
            "a JSON array; a tour record is an object, as `solve --format json` writes it".into(),
        ));
    }
    if is_json(bytes) {
        let rec = parse_record(bytes)?;
        let file_board = Board::new(rec.rows as u64, rec.cols as u64)?;
        if let Some(b) = board {
            if b != file_board {
                return Err(TourFileError::Inconsistent(format!(
                    "the file is for a {file_board} board but {b} was given"
                )));
            }
        }
        let shape = (rec.leaper.is_some() || !rec.holes.is_empty())
            .then(|| rec.shape())
            .transpose()?;
        return Ok(LoadedTour {
            board: file_board,
            squares: rec.squares,
            claims_closed: Some(rec.closed),
            claims_found: Some(rec.found),
            shape,
        });
    }
    let text = utf8(bytes)?;
    let board = board.ok_or(TourFileError::MissingBoard)?;
    Ok(LoadedTour {
        board,
        squares: parse_moves(text)?,
        claims_closed: None,
        claims_found: None,
        shape: None,
    })
}

/// `bytes` without a leading UTF-8 byte-order mark (some Windows editors write one).
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// `bytes` as text, or the error of a file that is not UTF-8.
fn utf8(bytes: &[u8]) -> Result<&str, TourFileError> {
    std::str::from_utf8(bytes)
        .map_err(|e| TourFileError::Unrecognised(format!("not UTF-8 text ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_skipped_and_a_json_array_is_named() {
        let board = Board::new(5, 5).unwrap();
        let json = br#"{"rows":5,"cols":5,"squares":[[0,0],[1,2]]}"#;
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), json].concat();
        assert_eq!(
            parse_tour(&with_bom, None).unwrap(),
            parse_tour(json, None).unwrap()
        );
        let lines = parse_tour(b"\xEF\xBB\xBF0,0\n1,2\n", Some(board)).unwrap();
        assert_eq!(lines.squares, [Square::new(0, 0), Square::new(1, 2)]);
        let err = parse_tour(b" [1,2,3]", Some(board))
            .unwrap_err()
            .to_string();
        assert!(err.contains("a JSON array"), "{err}");
    }
}
