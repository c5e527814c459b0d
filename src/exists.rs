//! Existence of knight's tours, answered from the theorems instead of by search.
//!
//! Open tours: the classical characterisation (Conrad, Hindrichs, Morsy & Wegener 1994): on `m x n`,
//! `m <= n`, an open tour exists unless `m in {1,2}` (1x1 is the trivial tour), or `m = 3` and
//! `n in {3,5,6}`, or `m = n = 4`. Closed tours: Schwenk (1991), "Which rectangular chessboards have a
//! knight's tour?": a closed tour exists unless `m` and `n` are both odd, or `m in {1,2,4}`, or `m = 3`
//! and `n in {4,6,8}`. Start squares: every move changes colour, so on a board with an odd number of
//! squares an open tour starts on the corners' colour. See `docs/REFERENCE.md`.

use crate::board::{Board, Closure, Square};

/// Why no tour exists. The message cites the theorem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoTour {
    /// A 1 x n or 2 x n board with more than one square.
    #[error("no open tour on {0}: boards with a side of 1 or 2 have none (only 1x1 has the trivial tour)")]
    ThinBoard(Board),
    /// 3x3, 3x5, 3x6 or 4x4.
    #[error("no open tour on {0}: 3x3, 3x5, 3x6 and 4x4 are the exceptions (Conrad et al. 1994)")]
    SmallException(Board),
    /// Both sides odd: a closed tour alternates colours, so needs an even number of squares.
    #[error("no closed tour on {0}: both sides are odd, so the board has an odd number of squares (Schwenk 1991)")]
    ClosedOddBoard(Board),
    /// A side of 1, 2 or 4.
    #[error("no closed tour on {0}: a side of 1, 2 or 4 admits none (Schwenk 1991)")]
    ClosedThinBoard(Board),
    /// 3x4, 3x6, 3x8.
    #[error("no closed tour on {0}: 3x4, 3x6 and 3x8 are the exceptions (Schwenk 1991)")]
    ClosedThreeRowException(Board),
    /// An open tour on an odd board must start on the corners' colour.
    #[error("no tour of {board} starts at {start}: the board has an odd number of squares, so a tour must start on the corners' colour (row + col even)")]
    WrongColourStart {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
    },
}

fn sorted_sides(board: Board) -> (u32, u32) {
    let (r, c) = (board.rows(), board.cols());
    (r.min(c), r.max(c))
}

/// Whether `board` has an open knight's tour (a Hamiltonian path), and if not, why.
pub fn open_tour(board: Board) -> Result<(), NoTour> {
    let (m, n) = sorted_sides(board);
    if m == 1 && n == 1 {
        return Ok(());
    }
    if m <= 2 {
        return Err(NoTour::ThinBoard(board));
    }
    if (m == 3 && matches!(n, 3 | 5 | 6)) || (m == 4 && n == 4) {
        return Err(NoTour::SmallException(board));
    }
    Ok(())
}

/// Whether `board` has a closed knight's tour (Schwenk 1991), and if not, why.
pub fn closed_tour(board: Board) -> Result<(), NoTour> {
    let (m, n) = sorted_sides(board);
    if m % 2 == 1 && n % 2 == 1 {
        return Err(NoTour::ClosedOddBoard(board));
    }
    if matches!(m, 1 | 2 | 4) {
        return Err(NoTour::ClosedThinBoard(board));
    }
    if m == 3 && matches!(n, 4 | 6 | 8) {
        return Err(NoTour::ClosedThreeRowException(board));
    }
    Ok(())
}

/// [`open_tour`] or [`closed_tour`].
pub fn tour(board: Board, closure: Closure) -> Result<(), NoTour> {
    if closure.is_closed() {
        closed_tour(board)
    } else {
        open_tour(board)
    }
}

/// Necessary conditions for a tour from `start`: the board must have one, and on a board with an odd
/// number of squares an open tour starts on the corners' colour. Passing this check does not promise a
/// tour from `start` (3x4 from (1,1), say): search settles that.
pub fn tour_from(board: Board, start: Square, closure: Closure) -> Result<(), NoTour> {
    tour(board, closure)?;
    start_colour(board, start, closure)
}

/// The colour half of [`tour_from`], for a board already known to have a tour: on a board with an
/// odd number of squares an open tour starts on the corners' colour.
pub fn start_colour(board: Board, start: Square, closure: Closure) -> Result<(), NoTour> {
    if parity_allows(board, start, closure) {
        Ok(())
    } else {
        Err(NoTour::WrongColourStart { board, start })
    }
}

/// Whether colour parity allows an open tour from `start` (the `feasible_runs` of a sweep).
pub fn parity_allows(board: Board, start: Square, closure: Closure) -> bool {
    closure.is_closed() || board.len() % 2 == 0 || Board::is_corner_colour(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(r: u64, c: u64) -> Board {
        Board::new(r, c).unwrap()
    }

    #[test]
    fn open_exceptions() {
        assert!(open_tour(b(1, 1)).is_ok());
        assert!(open_tour(b(1, 2)).is_err());
        assert!(open_tour(b(2, 9)).is_err());
        for n in [3, 5, 6] {
            assert!(open_tour(b(3, n)).is_err());
            assert!(open_tour(b(n, 3)).is_err());
        }
        assert!(open_tour(b(3, 4)).is_ok());
        assert!(open_tour(b(3, 7)).is_ok());
        assert!(open_tour(b(4, 4)).is_err());
        assert!(open_tour(b(4, 5)).is_ok());
        assert!(open_tour(b(5, 5)).is_ok());
    }

    #[test]
    fn closed_exceptions() {
        assert!(closed_tour(b(5, 5)).is_err());
        assert!(closed_tour(b(4, 10)).is_err());
        assert!(closed_tour(b(3, 8)).is_err());
        assert!(closed_tour(b(3, 10)).is_ok());
        assert!(closed_tour(b(5, 6)).is_ok());
        assert!(closed_tour(b(6, 6)).is_ok());
        assert!(closed_tour(b(1, 1)).is_err());
    }

    #[test]
    fn parity_of_start() {
        let five = b(5, 5);
        assert!(tour_from(five, Square::new(0, 0), Closure::Open).is_ok());
        assert!(matches!(
            tour_from(five, Square::new(0, 1), Closure::Open),
            Err(NoTour::WrongColourStart { .. })
        ));
        assert!(tour_from(b(6, 6), Square::new(0, 1), Closure::Open).is_ok());
    }
}
