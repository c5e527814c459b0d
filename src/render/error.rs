//! Why a tour record cannot be drawn, and the on-board check that both the tour picture
//! ([`super::svg`]) and the failed-run analysis ([`super::failed`]) apply first.
//!
//! It lives in its own module so that the analysis depends on nothing in the picture and the picture
//! depends on the analysis alone, with no import going both ways.

use crate::board::{Board, BoardError, Square};

/// A tour record that cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No squares at all.
    #[error("the tour has no squares")]
    Empty,
    /// A square outside the board.
    #[error("square {step} of the path, {square}, is off the {board} board")]
    OffBoard {
        /// 1-based position in the path.
        step: usize,
        /// The square.
        square: Square,
        /// The board.
        board: Board,
    },
    /// The board is too large for the requested picture.
    #[error("the {board} board is too large to draw this way (at most {limit} squares)")]
    TooLarge {
        /// The board.
        board: Board,
        /// The limit, in squares.
        limit: u32,
    },
    /// The record's size is not a valid board.
    #[error("invalid board: {0}")]
    Board(#[from] BoardError),
}

/// An error for the first square of `squares` that is off `board`.
pub(crate) fn check_on_board(board: Board, squares: &[Square]) -> Result<(), RenderError> {
    match squares
        .iter()
        .position(|s| !board.contains(s.row() as i64, s.col() as i64))
    {
        Some(i) => Err(RenderError::OffBoard {
            step: i + 1,
            square: squares[i],
            board,
        }),
        None => Ok(()),
    }
}
