//! Closed knight's tours invariant under a rotation of the board (`ktour count --closed
//! --symmetric 180|90`), counted by a frontier sweep over the quotient of the knight graph by the
//! rotation.
//!
//! What is counted: closed tours as undirected cycles (edge sets, as OEIS counts closed tours, see
//! [`crate::count`]) that the half-turn `rho(r, c) = (rows-1-r, cols-1-c)`, or the quarter-turn
//! `sigma(r, c) = (c, n-1-r)` of an `n x n` board, maps onto themselves. Tours, not classes: a tour
//! and its mirror image are two tours. How these relate to classes under the board's symmetries is
//! in `docs/counting.md` (section "Symmetric closed tours").
//!
//! # The method
//! On a board whose sides are both even, no square is fixed by `rho` and none is a knight's move
//! from its image (`rho` moves a square by `(rows-1-2r, cols-1-2c)`, two odd numbers, and a knight
//! move has one even coordinate). A rotation that maps a cycle of `N` squares onto itself acts on
//! it as a rotation or a reflection of the cycle; `rho` has order 2 and fixes no square and no
//! edge, so it acts as the shift by `N/2`: `s[i + N/2] = rho(s[i])`. Likewise `sigma` acts as the
//! shift by `N/4` or `3N/4`. `sigma` changes a square's colour (`(c + n-1-r)` and `r + c` differ in
//! parity) and so does every move, so `N/4` must be odd: quarter-turn tours exist only when
//! `n = 2 (mod 4)`; on `n = 0 (mod 4)`, 8x8 among them, there are none (the sweep finds 0; tested).
//!
//! Identify each square with its images: the quotient graph ([`Quotient`]) has one vertex per orbit
//! (the squares of the top half for `rho`, of the top-left quarter for `sigma`) and one edge per
//! orbit of moves, with its *twist* `j` when it joins a square to the rotation^j image of the other
//! end's square. A symmetric tour projects onto a Hamiltonian cycle of the quotient, and a
//! Hamiltonian cycle of the quotient lifts to `gcd(T, k)` disjoint cycles, `T` its net twist in
//! `Z/k` (`k` the rotation's order): one tour exactly when `T` generates `Z/k` (odd for the
//! half-turn, 1 or 3 for the quarter-turn). The lift of a cycle's edges is the orbit of a tour's
//! edges, so the correspondence is one to one: the symmetric tours are the quotient's Hamiltonian
//! cycles with a generating twist, which [`sweep`](sweep::sweep) counts by a frontier carrying
//! each path piece's twist.
//!
//! For the half-turn, folding along the middle row, the twisted edges join squares of the half
//! board's last two rows to each other, so a row-major sweep holds the same window as on the
//! whole board (`2 * cols + 1` cells) over half as many squares; a board wider than long is
//! transposed first, so that the sweep runs across its shorter side. Boards with an odd side are
//! refused: odd x odd boards have no closed tours, and on an odd x even board the half-turn can
//! map a square to a neighbour and reverse a tour (a reflection of the cycle), a case this
//! counter does not take.
//!
//! Sources: the covering-graph construction (Gross and Tucker, *Topological Graph Theory*, 1987);
//! the frontier method as in [`crate::count::frontier`]; the counts it is held to (tests in
//! `tests/count_symmetric.rs`): an enumeration of all 9,862 closed 6x6 tours (OEIS A001230), and on
//! the whole knight graph ([`Rotation::Identity`]) the closed counts of `count::frontier`'s tests.
//!
//! The code: this file holds the request, result and errors; `quotient.rs` the quotient graph and
//! its sweep order; `cells.rs` a frontier state; `sweep.rs` the sweep.

mod cells;
pub mod quotient;
pub mod sweep;

pub use quotient::{Quotient, Rotation};
pub use sweep::SweepResult;

use crate::board::Board;
use std::time::{Duration, Instant};

/// Why a symmetric count was refused or stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SymmetricError {
    /// A rotation other than 180 or 90 degrees.
    #[error("--symmetric takes 180 (a half-turn) or 90 (a quarter-turn), not {degrees}")]
    Degrees {
        /// What was asked.
        degrees: u32,
    },
    /// Open tours asked for.
    #[error("--symmetric counts closed tours only: add --closed (an open tour invariant under a rotation would be its own reverse, a different count)")]
    Open,
    /// A board with an odd side.
    #[error("--symmetric counts closed tours on boards whose sides are both even; {board} has an odd side (odd x odd boards have no closed tours, and on odd x even boards a half-turn can map a square to a knight's neighbour, which this counter does not take)")]
    OddSide {
        /// The board.
        board: Board,
    },
    /// A quarter-turn of a board that is not square.
    #[error("--symmetric 90 needs a square board; {board} is not (use --symmetric 180)")]
    NotSquare {
        /// The board.
        board: Board,
    },
    /// The frontier does not fit the packed state.
    #[error("{board}'s quotient sweeps a frontier of {cells} squares, more than a state of 128 bits holds for this rotation: too wide for --symmetric")]
    TooWide {
        /// The board.
        board: Board,
        /// Frontier squares.
        cells: usize,
    },
    /// A step passed the limit on states.
    #[error("the symmetric count of {board} passed {max_states} states at vertex {vertex} of {vertices} of the quotient: raise --max-states if memory allows (60 to 84 bytes a state of the two steps held: 8x8 held 33 million in 2.6 GiB)")]
    TooManyStates {
        /// The board.
        board: Board,
        /// The limit.
        max_states: usize,
        /// The vertex being added, counted from 1.
        vertex: usize,
        /// The quotient's vertices.
        vertices: usize,
    },
    /// A count passed 2^128 - 1.
    #[error("a symmetric count on {board} passed 2^128 - 1 ways")]
    Overflow {
        /// The board.
        board: Board,
    },
}

impl SymmetricError {
    /// The error as of `board` (the board asked for, not its transpose that was swept).
    fn on(mut self, asked: Board) -> Self {
        match &mut self {
            SymmetricError::OddSide { board }
            | SymmetricError::NotSquare { board }
            | SymmetricError::TooWide { board, .. }
            | SymmetricError::TooManyStates { board, .. }
            | SymmetricError::Overflow { board } => *board = asked,
            SymmetricError::Degrees { .. } | SymmetricError::Open => {}
        }
        self
    }
}

impl Rotation {
    /// The rotation of `degrees` (180 or 90).
    pub fn from_degrees(degrees: u32) -> Result<Rotation, SymmetricError> {
        match degrees {
            180 => Ok(Rotation::Half),
            90 => Ok(Rotation::Quarter),
            _ => Err(SymmetricError::Degrees { degrees }),
        }
    }
}

/// The rotation of a request for the tours of `board` (closed or not) invariant under a turn of
/// `degrees`, or why it is refused (before any work).
pub fn rotation_of(board: Board, closed: bool, degrees: u32) -> Result<Rotation, SymmetricError> {
    if !closed {
        return Err(SymmetricError::Open);
    }
    let rotation = Rotation::from_degrees(degrees)?;
    check(board, rotation)?;
    Ok(rotation)
}

/// Whether `board` can be counted under `rotation` (before any work).
pub fn check(board: Board, rotation: Rotation) -> Result<(), SymmetricError> {
    if rotation == Rotation::Identity {
        return Ok(());
    }
    if board.rows() % 2 == 1 || board.cols() % 2 == 1 {
        return Err(SymmetricError::OddSide { board });
    }
    if rotation == Rotation::Quarter && board.rows() != board.cols() {
        return Err(SymmetricError::NotSquare { board });
    }
    Ok(())
}

/// A symmetric count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetricCount {
    /// The board.
    pub board: Board,
    /// The rotation.
    pub rotation: Rotation,
    /// Closed tours (undirected cycles) invariant under the rotation.
    pub tours: u128,
    /// Vertices of the quotient.
    pub vertices: usize,
    /// The widest frontier of its sweep, in squares.
    pub frontier: usize,
    /// States after each vertex.
    pub states: Vec<usize>,
    /// State transitions, over all steps.
    pub transitions: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl SymmetricCount {
    /// The most states held after a step.
    pub fn peak_states(&self) -> usize {
        self.states.iter().copied().max().unwrap_or(0)
    }
}

/// Count the closed tours of `board` invariant under `rotation` (all closed tours for
/// [`Rotation::Identity`]), giving up past `max_states` states in a step; `report(vertex, states)`
/// after each vertex of the quotient.
pub fn count_symmetric(
    board: Board,
    rotation: Rotation,
    max_states: usize,
    report: impl FnMut(usize, usize),
) -> Result<SymmetricCount, SymmetricError> {
    check(board, rotation)?;
    let timer = Instant::now();
    // transposing maps tours invariant under a rotation onto such tours, and the half board of
    // the longer side is swept across the shorter
    let swept = if board.cols() > board.rows() {
        board.transposed()
    } else {
        board
    };
    let q = Quotient::new(swept, rotation);
    // one square has no cycle through it; one orbit (2x2 under the half-turn) has no move
    if q.len() < 2 {
        return Ok(SymmetricCount {
            board,
            rotation,
            tours: 0,
            vertices: q.len(),
            frontier: q.max_frontier(),
            states: vec![],
            transitions: 0,
            elapsed: timer.elapsed(),
        });
    }
    let result = sweep::sweep(&q, max_states, report).map_err(|e| e.on(board))?;
    Ok(SymmetricCount {
        board,
        rotation,
        tours: result.cycles,
        vertices: q.len(),
        frontier: q.max_frontier(),
        states: result.states,
        transitions: result.transitions,
        elapsed: timer.elapsed(),
    })
}
