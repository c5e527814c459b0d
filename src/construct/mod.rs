//! Knight's tours on boards of any size by divide-and-conquer construction, in O(rows x cols) time and
//! with no memory beyond the output.
//!
//! Sources: I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete Applied
//! Mathematics 73 (1997) (structured base tours with fixed corner moves, joined by swapping two edges);
//! S.-S. Lin and C.-L. Wei, "Optimal algorithms for constructing knight's tours on arbitrary n x m
//! chessboards", Discrete Applied Mathematics 146 (2005) (every board with a tour, open tours on odd
//! boards by joining cycles into a path); A. Conrad et al., Discrete Applied Mathematics 50 (1994);
//! A. J. Schwenk (1991) for which boards have closed tours. The path closer follows L. Posa (1976),
//! "Hamiltonian circuits in random graphs" (rotations).
//!
//! How boards are covered (see [`construct`]):
//! - closed tours on every board with one: a side of at least 5 and an even area are cut into bands of
//!   height 6, 8 or 10 and blocks of width 5..10 ([`build`]); `3 x n` (n even, n >= 12) is a 3-row
//!   strip of blocks joined by virtual edges; `3 x 10` is found by search;
//! - open tours: a closed one where one exists; on odd x odd boards with both sides >= 5, one odd
//!   block holds a Hamiltonian path and every other block a cycle; `3 x n` (odd n >= 13) and `4 x n`
//!   (n >= 8) are strips with a path block; the remaining boards (at most 3 x 11 and 4 x 7) are
//!   solved by the search in [`search`].
//!
//! Open tours from a given start: the block around the start becomes the path block, its path found
//! at run time by the same search (a few thousand nodes); on strips the blocks left of it are mirror
//! images ([`build::BlockTiling::mirror_below`]). See [`construct`] for which starts are covered.
//!
//! The code: this file holds the entry points, their errors, the choice of a plan by board shape and
//! the search of small boards; `grid.rs` the tilings of boards with both sides at least 5, `strip.rs`
//! those of 3- and 4-row strips, and `transform.rs` the transposing and mirroring of tours.

pub mod bases;
pub mod build;
mod grid;
pub mod search;
mod strip;
mod transform;

use crate::board::Closure;
use crate::board::{Board, Square};
use crate::exists::{self, NoTour};
use grid::{closed_grid, odd_grid};
use search::{Goal, Graph, SearchOutcome};
use strip::{
    four_row_outer, strip3_closed, strip3_open, strip4_open, strip_open_from, FOUR_ROW_PROOF,
};
use transform::{corner_flips, reflect, with_transpose};

/// Why [`construct`] returned no tour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConstructError {
    /// The board has no tour of the requested kind (or none from the requested square, by colour).
    #[error(transparent)]
    NoTour(#[from] NoTour),
    /// The requested start is not on the board.
    #[error("start {start} is off the {board} board")]
    StartOffBoard {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
    },
    /// No open tour of this board starts there (proved, not a limitation of the construction).
    #[error("no open tour of {board} starts at {start}: {why}")]
    StartImpossible {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
        /// The proof: an exhaustive search, or the outer-rows argument for `4 x n`.
        why: &'static str,
    },
    /// The construction cannot start an open tour of this board there (one may exist): on `4 x n`
    /// strips of more than 64 squares, outer-row starts more than 8 columns from both ends; or the
    /// run-time search for the start block gave up (not seen in the tests).
    #[error("construction cannot start an open tour of {board} at {start}: {why}")]
    StartUnsupported {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
        /// Which starts are supported.
        why: &'static str,
    },
    /// The small-board search ran out of budget (a bug: every small board is known to finish).
    #[error("search budget exhausted on {board}")]
    Budget {
        /// The board.
        board: Board,
    },
    /// The tour itself would not fit in memory.
    #[error("a tour of the {board} board needs about {needed_mib} MiB but only {available_mib} MiB is available; use a smaller board")]
    TooLarge {
        /// The board.
        board: Board,
        /// Estimated need.
        needed_mib: u64,
        /// Available memory.
        available_mib: u64,
    },
    /// The allocator refused the tour's memory (a limit such as `ulimit -v` below what is free).
    #[error("a tour of the {board} board needs about {needed_mib} MiB, which the allocator refused (a memory limit?); use a smaller board")]
    AllocationRefused {
        /// The board.
        board: Board,
        /// Estimated need.
        needed_mib: u64,
    },
    /// An internal inconsistency (a missing base); please report it.
    #[error("internal construction error on {board}: {msg}")]
    Internal {
        /// The board.
        board: Board,
        /// What went wrong.
        msg: String,
    },
}

/// Node budget of the small-board search.
pub const SMALL_BUDGET: u64 = 50_000_000;
/// Boards with at most this many squares are solved by search when the construction has no fixed
/// start for them (open tours on strips from a non-corner square).
pub const SMALL_SEARCH_SQUARES: u32 = 64;
/// Node budget of the run-time search for the start block of an open tour on an odd board.
pub const START_BLOCK_BUDGET: u64 = 2_000_000;

/// A knight's tour of `board`: closed if `closed`, otherwise open or closed (a closed tour is also an
/// open one; a closed one is returned wherever the board has one). Starts at `start` when given.
///
/// Which starts work:
/// - closed tours, and open tours on boards that have a closed tour: every square;
/// - odd x odd boards with both sides >= 5: every corner-coloured square (the others have no tour:
///   [`NoTour::WrongColourStart`]);
/// - `3 x n`, n odd: every corner-coloured square (tested to 3 x 45; a run-time search that gives up
///   would return [`ConstructError::StartUnsupported`]);
/// - `4 x n`: squares on the two outer rows within 8 columns of either end, and every outer square
///   when the board has at most [`SMALL_SEARCH_SQUARES`] squares; inner-row squares have no tour
///   ([`ConstructError::StartImpossible`], with the proof); other outer squares of longer strips
///   give [`ConstructError::StartUnsupported`];
/// - boards solved by search (at most 3 x 11 and 4 x 7): every start, by exhaustive search.
///
/// Time O(rows x cols); memory: the returned vector (4 bytes per square) plus a few kilobytes.
pub fn construct(
    board: Board,
    closure: Closure,
    start: Option<Square>,
) -> Result<Vec<Square>, ConstructError> {
    let mut out = Vec::new();
    construct_into(board, closure, start, &mut out)?;
    Ok(out)
}

/// Bytes of the tour of `board`: the construction writes its squares in place, so the tour is nearly
/// all the memory it takes, whatever the output format (figures in `benches/README.md`).
fn tour_bytes(board: Board) -> u64 {
    board.len() as u64 * std::mem::size_of::<Square>() as u64
}

/// Whether the tour of `board` fits within 80% of `available` bytes (as searches are checked).
fn fits(board: Board, available: u64) -> Result<(), ConstructError> {
    let needed = tour_bytes(board);
    if !crate::memory::fits_in(needed, available) {
        return Err(ConstructError::TooLarge {
            board,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}

/// [`construct`] writing into `out` (cleared; its allocation is reused).
pub fn construct_into(
    board: Board,
    closure: Closure,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    out.clear();
    let closure = prepare(board, closure, start, out)?;
    if board.len() == 1 {
        out.push(Square::new(0, 0));
        return Ok(());
    }
    if closure.is_closed() {
        construct_closed(board, start, out)
    } else {
        construct_open(board, start, out)
    }
}

/// Refuse what has no tour or does not fit, and reserve `out`: the closure to build, closed
/// wherever the board has a closed tour (it is an open tour too).
fn prepare(
    board: Board,
    closure: Closure,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<Closure, ConstructError> {
    exists::tour(board, closure)?;
    if let Some(s) = start {
        if !board.contains(s.row() as i64, s.col() as i64) {
            return Err(ConstructError::StartOffBoard { board, start: s });
        }
        exists::tour_from(board, s, closure)?;
    }
    fits(board, crate::memory::available_bytes())?;
    // fallible: under an address-space limit the allocator refuses rather than aborting the process
    out.try_reserve_exact(board.len() as usize)
        .map_err(|_| ConstructError::AllocationRefused {
            board,
            needed_mib: tour_bytes(board).div_ceil(1 << 20),
        })?;
    // a board that has a closed tour gets one even when an open tour was asked: it is one
    Ok(match exists::closed_tour(board) {
        Ok(()) => Closure::Closed,
        Err(_) => closure,
    })
}

/// The shorter and the longer side of `board`.
fn sides(board: Board) -> (u32, u32) {
    (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
    )
}

/// A closed tour: the grid of closed blocks when both sides are at least 5, the 3-row strip when
/// the long side is at least 12, else a search of the small board.
fn construct_closed(
    board: Board,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    let (m, n) = sides(board);
    let internal = |msg: String| ConstructError::Internal { board, msg };
    if m >= 5 {
        // Rows even: every band then holds closed blocks.
        let t = board.rows() % 2 == 1;
        return with_transpose(board, t, start, out, |b, s, out| {
            closed_grid(b, s).build(out).map_err(internal)
        });
    }
    if n >= 12 {
        let t = board.rows() != 3;
        return with_transpose(board, t, start, out, |b, s, out| {
            strip3_closed(b, s).build(out).map_err(internal)
        });
    }
    small_search(board, Closure::Closed, start, out)
}

/// An open tour on a board without a closed one: the odd grid when both sides are at least 5,
/// else a 3- or 4-row strip (from a corner, reflected to the start; or with a path block around
/// the start), else a search of the small board.
fn construct_open(
    board: Board,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    let (m, n) = sides(board);
    if m >= 5 {
        return odd_grid(board, start, out);
    }
    if let Some(s) = start {
        if !four_row_outer(board, s) {
            return Err(ConstructError::StartImpossible {
                board,
                start: s,
                why: FOUR_ROW_PROOF,
            });
        }
    }
    let strip = (m == 3 && n >= 13) || (m == 4 && n >= 8);
    if !strip {
        return small_search(board, Closure::Open, start, out);
    }
    let internal = |msg: String| ConstructError::Internal { board, msg };
    let Some((flip_r, flip_c)) = corner_flips(board, start) else {
        let s = start.expect("no corner to reflect to means a start was given");
        return open_strip_from(board, s, out);
    };
    let t = board.rows() != m;
    with_transpose(board, t, None, out, |b, _, out| {
        let layout = if m == 3 {
            strip3_open(b)
        } else {
            strip4_open(b)
        };
        layout.build(out).map_err(internal)
    })?;
    reflect(board, flip_r, flip_c, out);
    Ok(())
}

/// An open tour of a 3- or 4-row strip from a start no corner reflects to: a strip whose path
/// block holds the start, else a search of a small board.
fn open_strip_from(board: Board, s: Square, out: &mut Vec<Square>) -> Result<(), ConstructError> {
    let (m, _) = sides(board);
    let internal = |msg: String| ConstructError::Internal { board, msg };
    let t = board.rows() != m;
    let tr = |s: Square| Square::new(s.col(), s.row());
    let (b, st) = if t {
        (board.transposed(), tr(s))
    } else {
        (board, s)
    };
    if let Some(layout) = strip_open_from(b, st) {
        return with_transpose(board, t, None, out, |_, _, out| {
            layout.build(out).map_err(internal)
        });
    }
    if board.len() <= SMALL_SEARCH_SQUARES {
        return small_search(board, Closure::Open, Some(s), out);
    }
    Err(ConstructError::StartUnsupported {
        board,
        start: s,
        why: "on 4-row strips the construction starts open tours only within 8 columns of either \
              end (its path block must be an end block); on 3-row strips no path block around \
              the start had a path from there",
    })
}

/// Search the whole (small) board.
fn small_search(
    board: Board,
    closure: Closure,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let g = Graph::knight(rows, cols);
    let goal = if closure.is_closed() {
        Goal::Cycle
    } else {
        Goal::Path
    };
    let starts: Vec<usize> = match start {
        Some(s) => vec![s.row() as usize * cols + s.col() as usize],
        None => (0..rows * cols).collect(),
    };
    let mut budget_hit = false;
    for s in starts {
        match g.search(s, goal, SMALL_BUDGET) {
            Ok(p) => {
                out.extend(
                    p.iter().map(|&k| {
                        Square::new((k as usize / cols) as u16, (k as usize % cols) as u16)
                    }),
                );
                return Ok(());
            }
            Err(SearchOutcome::Budget) => budget_hit = true,
            Err(SearchOutcome::Exhausted) => {}
        }
    }
    match (start, budget_hit) {
        (_, true) => Err(ConstructError::Budget { board }),
        (Some(s), false) => Err(ConstructError::StartImpossible {
            board,
            start: s,
            why: "exhaustive search",
        }),
        (None, false) => Err(ConstructError::Internal {
            board,
            msg: "exhaustive search found no tour although the theorem says one exists".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tour_that_does_not_fit_is_refused_before_it_is_built() {
        let board = Board::new(20_000, 20_000).unwrap(); // 1.6 GB of squares
        assert!(matches!(
            fits(board, 1 << 30),
            Err(ConstructError::TooLarge {
                needed_mib: 1526,
                available_mib: 1024,
                ..
            })
        ));
        assert!(fits(board, 4 << 30).is_ok());
        let err = fits(board, 1 << 30).unwrap_err().to_string();
        assert!(
            err.contains("20000x20000") && err.contains("1526 MiB"),
            "{err}"
        );
    }
}
