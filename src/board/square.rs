use super::Board;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A square `(row, col)`, 0-based, row 0 on top. Four bytes, so a tour of 10^8 squares fits in 400 MB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[u16; 2]", into = "[u16; 2]")]
pub struct Square {
    row: u16,
    col: u16,
}

impl Square {
    /// The square at `(row, col)`. Whether it lies on a given board is checked by [`Board::try_square`].
    pub const fn new(row: u16, col: u16) -> Self {
        Square { row, col }
    }

    /// 0-based row, 0 at the top.
    pub const fn row(self) -> u16 {
        self.row
    }

    /// 0-based column.
    pub const fn col(self) -> u16 {
        self.col
    }

    /// The square `(row + dr, col + dc)` if it lies on `board`. See [`Square::offset`] for the
    /// panicking form.
    pub fn try_offset(self, dr: i32, dc: i32, board: Board) -> Option<Square> {
        board.try_square(self.row as i64 + dr as i64, self.col as i64 + dc as i64)
    }

    /// The square `(row + dr, col + dc)`; panics if it is off `board` (use [`Square::try_offset`]
    /// when that can happen).
    pub fn offset(self, dr: i32, dc: i32, board: Board) -> Square {
        self.try_offset(dr, dc, board)
            .unwrap_or_else(|| panic!("{self} + ({dr},{dc}) is off the {board} board"))
    }
}

impl From<[u16; 2]> for Square {
    fn from([row, col]: [u16; 2]) -> Self {
        Square { row, col }
    }
}

impl From<Square> for [u16; 2] {
    fn from(sq: Square) -> Self {
        [sq.row, sq.col]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}
