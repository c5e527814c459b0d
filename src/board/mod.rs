//! Board geometry: sizes, squares, knight moves, the padded layout used by the search engine and the
//! bitboards of the engines for boards of at most 64 squares.
//!
//! Conventions follow `docs/REFERENCE.md` (Squirrel & Cull 1996, Fig. 1): a square is `(row, col)`, 0-based,
//! row 0 printed at the top, and the eight knight moves carry the labels 1..8 clockwise from "up two,
//! right one".

mod bitboard;
mod layout;
mod shape;
mod square;
mod symmetry;

pub use bitboard::{Attacks, BitBoard, Squares, MAX_BITBOARD_SQUARES};
pub use layout::{Layout, BORDER};
pub use shape::{Leaper, Shape, ShapeError, MAX_LEAP};
pub use square::Square;
pub use symmetry::{symmetries, Symmetry};

use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest supported side length. A [`Square`] stores each coordinate in a `u16`.
pub const MAX_SIDE: u32 = u16::MAX as u32;

/// The eight knight moves as `(drow, dcol)`, indexed by `label - 1` (Squirrel & Cull 1996, Fig. 1).
pub const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
];

/// Whether two squares are one knight move apart.
pub fn is_knight_move(a: Square, b: Square) -> bool {
    let dr = (a.row() as i32 - b.row() as i32).abs();
    let dc = (a.col() as i32 - b.col() as i32).abs();
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

/// Open tours (Hamiltonian paths) or closed tours (Hamiltonian cycles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Closure {
    /// Open tours: any last square.
    #[default]
    Open,
    /// Closed tours: the last square is a knight move from the first.
    Closed,
}

impl Closure {
    /// `Closed` when `closed` (a command line's `--closed`, a spec's `closed = true`), else `Open`.
    pub fn of(closed: bool) -> Closure {
        if closed {
            Closure::Closed
        } else {
            Closure::Open
        }
    }

    /// Whether the tour must close.
    #[inline(always)]
    pub fn is_closed(self) -> bool {
        self == Closure::Closed
    }

    /// `open` or `closed`, as printed.
    pub fn name(self) -> &'static str {
        match self {
            Closure::Open => "open",
            Closure::Closed => "closed",
        }
    }
}

impl std::fmt::Display for Closure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a path of more than two squares has its ends a knight move apart: a tour that closes.
/// The one definition of "closed" for a given tour (verifier, records, pictures, reference searches).
pub fn is_closed_tour(squares: &[Square]) -> bool {
    match squares {
        [first, .., last] if squares.len() > 2 => is_knight_move(*first, *last),
        _ => false,
    }
}

/// Why a board size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A side of length zero.
    #[error("board sides must be at least 1 (got {rows}x{cols})")]
    Empty {
        /// Requested rows.
        rows: u64,
        /// Requested columns.
        cols: u64,
    },
    /// A side longer than [`MAX_SIDE`].
    #[error("board sides must be at most {MAX_SIDE} (got {rows}x{cols})")]
    TooLarge {
        /// Requested rows.
        rows: u64,
        /// Requested columns.
        cols: u64,
    },
}

/// A `rows x cols` board, validated once at construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "(u64, u64)", into = "(u32, u32)")]
pub struct Board {
    rows: u32,
    cols: u32,
}

impl Board {
    /// A board of `rows x cols`; both sides in `1..=MAX_SIDE`.
    pub fn new(rows: u64, cols: u64) -> Result<Self, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::Empty { rows, cols });
        }
        if rows > MAX_SIDE as u64 || cols > MAX_SIDE as u64 {
            return Err(BoardError::TooLarge { rows, cols });
        }
        Ok(Board {
            rows: rows as u32,
            cols: cols as u32,
        })
    }

    /// The square board `n x n`.
    pub fn square(n: u64) -> Result<Self, BoardError> {
        Board::new(n, n)
    }

    /// Number of rows.
    pub const fn rows(self) -> u32 {
        self.rows
    }

    /// Number of columns.
    pub const fn cols(self) -> u32 {
        self.cols
    }

    /// Number of squares (fits in `u32`: at most 65,535^2).
    pub const fn len(self) -> u32 {
        self.rows * self.cols
    }

    /// Never true: a board has at least one square. Present for API symmetry with [`Board::len`].
    pub const fn is_empty(self) -> bool {
        false
    }

    /// Whether `(row, col)` lies on the board.
    pub fn contains(self, row: i64, col: i64) -> bool {
        row >= 0 && col >= 0 && row < self.rows as i64 && col < self.cols as i64
    }

    /// The square at `(row, col)`, if it is on the board.
    pub fn try_square(self, row: i64, col: i64) -> Option<Square> {
        self.contains(row, col)
            .then(|| Square::new(row as u16, col as u16))
    }

    /// Row-major index of a square, `row * cols + col`.
    pub fn index(self, sq: Square) -> u32 {
        sq.row() as u32 * self.cols + sq.col() as u32
    }

    /// The square with row-major index `index`; `None` past the end.
    pub fn square_at(self, index: u32) -> Option<Square> {
        (index < self.len())
            .then(|| Square::new((index / self.cols) as u16, (index % self.cols) as u16))
    }

    /// Every square, row by row.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        let cols = self.cols;
        (0..self.rows).flat_map(move |r| (0..cols).map(move |c| Square::new(r as u16, c as u16)))
    }

    /// The on-board knight neighbours of `sq`, in label order.
    pub fn neighbours(self, sq: Square) -> impl Iterator<Item = Square> {
        KNIGHT_DELTAS
            .iter()
            .filter_map(move |&(dr, dc)| sq.try_offset(dr, dc, self))
    }

    /// Whether a square has the corners' colour. Every knight move changes colour, so on a board with an
    /// odd number of squares an open tour must start and end on this (majority) colour.
    pub const fn is_corner_colour(sq: Square) -> bool {
        (sq.row() as u32 + sq.col() as u32) % 2 == 0
    }

    /// The board with rows and columns swapped.
    pub const fn transposed(self) -> Board {
        Board {
            rows: self.cols,
            cols: self.rows,
        }
    }
}

impl TryFrom<(u64, u64)> for Board {
    type Error = BoardError;
    fn try_from((rows, cols): (u64, u64)) -> Result<Self, Self::Error> {
        Board::new(rows, cols)
    }
}

impl From<Board> for (u32, u32) {
    fn from(b: Board) -> Self {
        (b.rows, b.cols)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_are_the_eight_knight_moves_clockwise_from_up_two_right_one() {
        assert_eq!(KNIGHT_DELTAS[0], (-2, 1));
        let mut seen = KNIGHT_DELTAS.to_vec();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 8);
        for (dr, dc) in KNIGHT_DELTAS {
            assert_eq!(dr.abs() + dc.abs(), 3);
            assert!(dr != 0 && dc != 0);
        }
        // Clockwise: the angle atan2(dc, -dr) increases strictly from label 1 to label 8.
        let angle = |(dr, dc): (i32, i32)| {
            let a = (dc as f64).atan2(-dr as f64);
            if a < 0.0 {
                a + std::f64::consts::TAU
            } else {
                a
            }
        };
        for w in KNIGHT_DELTAS.windows(2) {
            assert!(angle(w[0]) < angle(w[1]));
        }
    }

    #[test]
    fn knight_graph_edge_count_matches_formula() {
        // Edges of the n x n knight graph: 4n^2 - 12n + 8 (docs/REFERENCE.md).
        for n in 3..=12u64 {
            let b = Board::square(n).unwrap();
            let twice: usize = b.squares().map(|s| b.neighbours(s).count()).sum();
            assert_eq!(twice as u64 / 2, 4 * n * n - 12 * n + 8, "n = {n}");
        }
    }

    #[test]
    fn sizes_are_validated() {
        assert!(matches!(Board::new(0, 5), Err(BoardError::Empty { .. })));
        assert!(matches!(
            Board::new(65_536, 5),
            Err(BoardError::TooLarge { .. })
        ));
        let b = Board::new(65_535, 65_535).unwrap();
        assert_eq!(b.len(), 4_294_836_225);
    }

    #[test]
    fn index_round_trips() {
        let b = Board::new(3, 7).unwrap();
        for (i, sq) in b.squares().enumerate() {
            assert_eq!(b.index(sq), i as u32);
            assert_eq!(b.square_at(i as u32), Some(sq));
        }
        assert_eq!(b.square_at(21), None);
    }
}
