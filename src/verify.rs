//! The independent tour verifier: checks a sequence of squares against the definition of a knight's tour
//! and nothing else. It shares no code with the search engine on purpose; every tour that any solver
//! returns in the tests goes through here.

use crate::board::{is_knight_move, Board, Square};

/// What a valid tour turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourKind {
    /// Visits every square once; the last square is not a knight move from the first.
    Open,
    /// Visits every square once and the last square is a knight move from the first.
    Closed,
}

impl std::fmt::Display for TourKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TourKind::Open => "open tour",
            TourKind::Closed => "closed tour",
        })
    }
}

/// The first thing wrong with a claimed tour. Steps are 0-based positions in the sequence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// No squares at all.
    #[error("the tour is empty")]
    Empty,
    /// A square outside the board.
    #[error("step {step}: square {square} is off the {board} board")]
    OffBoard {
        /// Position in the sequence.
        step: usize,
        /// The offending square.
        square: Square,
        /// The board.
        board: Board,
    },
    /// A square visited twice.
    #[error("step {step}: square {square} was already visited at step {first}")]
    Repeat {
        /// Position of the repeat.
        step: usize,
        /// The repeated square.
        square: Square,
        /// Position of its first visit.
        first: usize,
    },
    /// Two consecutive squares that are not a knight move apart.
    #[error("step {step}: {from} -> {to} is not a knight move")]
    NotKnightMove {
        /// Position of `to`.
        step: usize,
        /// Previous square.
        from: Square,
        /// This square.
        to: Square,
    },
    /// A valid path that does not cover the board.
    #[error("short: the path visits {visited} of {total} squares")]
    Short {
        /// Squares visited.
        visited: usize,
        /// Squares on the board.
        total: u64,
    },
    /// A closed tour was claimed but the ends are not a knight move apart.
    #[error(
        "claimed closed, but the last square {last} is not a knight move from the first {first}"
    )]
    NotClosed {
        /// First square.
        first: Square,
        /// Last square.
        last: Square,
    },
}

/// Check that `squares` is a knight path on `board`: on the board, no repeats, knight moves between
/// consecutive squares. A partial path (not covering the board) is fine here.
pub fn verify_path(board: Board, squares: &[Square]) -> Result<(), VerifyError> {
    if squares.is_empty() {
        return Err(VerifyError::Empty);
    }
    // One bit per square (an eighth of a byte, so that 10^8-square tours check in seconds); the step
    // of a first visit is only needed for the error message, so it is searched for then.
    let mut seen = bitvec::bitvec![0; board.len() as usize];
    for (step, &square) in squares.iter().enumerate() {
        if !board.contains(square.row() as i64, square.col() as i64) {
            return Err(VerifyError::OffBoard {
                step,
                square,
                board,
            });
        }
        if seen.replace(board.index(square) as usize, true) {
            let first = squares.iter().position(|&s| s == square).unwrap_or(0);
            return Err(VerifyError::Repeat {
                step,
                square,
                first,
            });
        }
        if step > 0 && !is_knight_move(squares[step - 1], square) {
            return Err(VerifyError::NotKnightMove {
                step,
                from: squares[step - 1],
                to: square,
            });
        }
    }
    Ok(())
}

/// Check that `squares` is a knight's tour of `board` and say whether it is open or closed.
pub fn verify_tour(board: Board, squares: &[Square]) -> Result<TourKind, VerifyError> {
    verify_path(board, squares)?;
    if squares.len() as u64 != board.len() as u64 {
        return Err(VerifyError::Short {
            visited: squares.len(),
            total: board.len() as u64,
        });
    }
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    Ok(if squares.len() > 2 && is_knight_move(first, last) {
        TourKind::Closed
    } else {
        TourKind::Open
    })
}

/// Check a tour that claims to be closed.
pub fn verify_closed_tour(board: Board, squares: &[Square]) -> Result<(), VerifyError> {
    match verify_tour(board, squares)? {
        TourKind::Closed => Ok(()),
        TourKind::Open => Err(VerifyError::NotClosed {
            first: squares[0],
            last: squares[squares.len() - 1],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(r: u16, c: u16) -> Square {
        Square::new(r, c)
    }

    /// A closed tour of 3x4? None exists; use the classic open 3x4 tour instead.
    fn open_3x4() -> Vec<Square> {
        // 1 4 7 10 / 12 9 2 5 / 3 6 11 8  (visit numbers) -> squares in order
        let grid = [[1, 4, 7, 10], [12, 9, 2, 5], [3, 6, 11, 8]];
        let mut v = vec![sq(0, 0); 12];
        for (r, row) in grid.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                v[n - 1] = sq(r as u16, c as u16);
            }
        }
        v
    }

    #[test]
    fn accepts_an_open_tour() {
        let b = Board::new(3, 4).unwrap();
        assert_eq!(verify_tour(b, &open_3x4()), Ok(TourKind::Open));
        assert!(verify_closed_tour(b, &open_3x4()).is_err());
    }

    #[test]
    fn rejects_each_kind_of_fault() {
        let b = Board::new(3, 4).unwrap();
        let good = open_3x4();
        assert_eq!(verify_tour(b, &[]), Err(VerifyError::Empty));

        let mut repeat = good.clone();
        repeat[5] = repeat[1];
        assert!(matches!(
            verify_tour(b, &repeat),
            Err(VerifyError::Repeat {
                step: 5,
                first: 1,
                ..
            }) | Err(VerifyError::NotKnightMove { .. })
        ));

        let mut off = good.clone();
        off[3] = sq(3, 0);
        assert!(matches!(
            verify_tour(b, &off),
            Err(VerifyError::OffBoard { step: 3, .. })
        ));

        let mut jump = good.clone();
        jump.swap(4, 7);
        assert!(matches!(
            verify_tour(b, &jump),
            Err(VerifyError::NotKnightMove { .. })
        ));

        assert!(matches!(
            verify_tour(b, &good[..11]),
            Err(VerifyError::Short {
                visited: 11,
                total: 12
            })
        ));
        assert_eq!(verify_path(b, &good[..11]), Ok(()));
    }

    #[test]
    fn repeat_is_reported_even_when_moves_are_knight_moves() {
        let b = Board::new(5, 5).unwrap();
        let path = [sq(0, 0), sq(1, 2), sq(0, 0)];
        assert_eq!(
            verify_path(b, &path),
            Err(VerifyError::Repeat {
                step: 2,
                square: sq(0, 0),
                first: 0
            })
        );
    }

    #[test]
    fn closedness_is_checked() {
        // A closed tour of 5x6 would do, but a tiny hand-checkable cycle on a path suffices for the
        // closing test: 3x4 open tour ends (0,0) and (2,2) are not a knight move apart.
        let b = Board::new(3, 4).unwrap();
        let t = open_3x4();
        assert!(!is_knight_move(t[0], t[11]));
        assert!(matches!(
            verify_closed_tour(b, &t),
            Err(VerifyError::NotClosed { .. })
        ));
    }

    #[test]
    fn single_square_board_has_the_trivial_tour() {
        let b = Board::new(1, 1).unwrap();
        assert_eq!(verify_tour(b, &[sq(0, 0)]), Ok(TourKind::Open));
    }
}
