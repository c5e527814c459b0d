//! Exact counting of knight's tours by dynamic programming over a row-major frontier (a
//! transfer-matrix method), for boards whose shorter side is at most [`MAX_WIDTH`].
//!
//! Where the backtracking engine ([`super::bitboard`]) visits every tour one by one, this counter
//! visits every *partial edge set* of the knight graph restricted to the squares seen so far, merged by
//! what the rest of the board can still observe of it: the degree of each square near the frontier and
//! which path ends are joined to which. The number of such states grows with the width of the board,
//! not with the number of tours, so 7x7 (82,787,609,160 undirected open tours) becomes feasible.
//!
//! Sources:
//! - the method is the classical transfer-matrix / "frontier" counting of Hamiltonian paths and cycles
//!   in grid-like graphs; D. E. Knuth applied it to knight's tours on long, narrow boards ("long and
//!   skinny knight's tours", and the `SIMPATH`-style frontier programs on his web page);
//! - the values it reproduces (tested in `tests/count_frontier.rs`; 7x7 in an ignored test, too long
//!   and too large for CI: figures in `benches/README.md`): OEIS A165134 (directed open tours on n x n: 1728 on 5x5, 6,637,920 on 6x6,
//!   165,575,218,320 on 7x7), A001230 (closed tours on 2n x 2n: 9,862 on 6x6), A118067 (directed
//!   Hamiltonian paths of 3 x n), A079137 (undirected Hamiltonian paths of 4 x n), A169764 /
//!   A070030 (closed tours of 3 x n).
//!
//! The code: this file holds the public API and the row-by-row driver; `step.rs` one step (a square
//! added to every state, in parallel parts); `cells.rs` the state's cells
//! and their packing, `packed.rs` the transitions, `plan.rs` the geometry of each step, `gather.rs`
//! the sorted lists that hold each step's states, `checkpoint.rs` the file a count resumes from,
//! and `reference.rs` the transitions' slow twin.
//!
//! # The method
//! The board is first transposed if needed so that it has `cols <= rows`; squares are then added one
//! by one in row-major order, index `i = row * cols + col`. A knight edge joins squares at most
//! `2 * cols + 1` indexes apart, so each edge is decided exactly once: when the later of its two
//! squares is added, for each of the (at most four) earlier neighbours `(r-1, c-2)`, `(r-1, c+2)`,
//! `(r-2, c-1)`, `(r-2, c+1)`. The new square takes 0, 1 or 2 of those edges (never more: it is a
//! square of a path). When every edge of a square has been decided (its last forward neighbour has
//! been added) the square is *finalized*: it must have degree 2, or degree 1 if it is one of the two
//! ends of an open tour ("terminal"); degree 0 is fatal (on boards of more than one square).
//!
//! A partial edge set is a set of vertex-disjoint paths ("pieces"). The state keeps, for each of the
//! last `W = 2 * cols + 1` squares added (the window), a 4-bit cell:
//! - `EMPTY` (0): degree 0 so far;
//! - `DONE` (1): degree 2, or finalized (including the virtual squares before the board);
//! - `TAIL` (2): degree 1, the end of a piece whose other end is a finalized terminal;
//! - a label `>= 3`: degree 1, the end of a piece whose other end is the other cell with the same label.
//!
//! A piece whose both ends are in the window has a label; knight edges cross, so the pairing of ends is
//! a general matching (not a non-crossing one as for rook paths), made canonical by numbering the labels
//! 3, 4, 5, ... in order of first appearance from the newest square of the window back. Joining the
//! two ends of one piece (a cycle) is forbidden except when it completes a closed tour at the last
//! square; joining two `TAIL`s (a path with both terminals fixed) likewise completes an open tour
//! only at the last square. The number of terminals fixed so far is the number of `TAIL` cells, so
//! it needs no field of its own. At the last square the whole state is judged at once: one piece
//! left (two cells of one label, or a single `TAIL`, everything else `DONE`) is an open tour. On a
//! board with an odd number of squares both ends of an open tour lie on the corners' colour (every
//! move changes colour), so squares of the other colour are held to degree 2 as in a closed tour.
//!
//! At the end of each row the window holds the last two rows whole (and a finalized square), and the
//! rest of the board is symmetric left to right: a state and its mirror image have the same
//! completions, so each is folded onto the smaller of the two keys with the ways of both. That holds
//! about half the states at a row's end, and a quarter to a third fewer inside the next row (7x7 open:
//! 157 M at the peak, not 214 M).
//!
//! States with their multiplicities (`u64` state, `u64` ways) live in a sorted list per step, held
//! as consecutive key ranges; a step splits the current list into parts of about equal size, a few
//! per thread, and each part gathers the states it reaches in batches that are sorted, summed and
//! merged (`Gather`): 16 bytes a state, where a hash map took 40 to 80 and ran out of memory on
//! 7x7. Each part owns its share of the current states and frees it once expanded; the parts' lists
//! are then merged range by range, a wave of ranges in parallel, from the top keys down, the lists
//! truncated after each wave (`merge_lists`): a step holds about one and a half lists at its peak,
//! not two and a merged copy. Every sum is exact, so the counts, the states and the errors do not
//! depend on the number of threads (tested).
//! On 8-wide boards the 68-bit state and 60-bit ways share one `u128`, 16 bytes too. A sum that
//! passes those bits starts the count over with `u128` ways (24 or 32 bytes a state): every board up
//! to 8x8 closed fits in the first, long narrow boards do not.
//! Open tours are counted undirected (a path and its reverse once; directed = 2x), closed tours as
//! undirected cycles, as OEIS counts them.
//!
//! The transitions run on the packed key, a cell-wise mask at a time (`packed.rs`); `reference.rs`
//! has them on one byte a cell, as the method states them, and a test holds the two equal on every
//! state of several boards.
//!
//! # ADVICE FOR HACKERS
//! - Cell `k` (bits `4k..4k+4`) of a state holds square `i - W + k` while square `i` is being added;
//!   during the step the new square sits at position `W`, and afterwards position 0 (square `i - W`,
//!   whose last neighbour is `i`) must be finalized, so the state is shifted down by one cell.
//!   `W + 1 <= 16` cells fit in a `u64` (boards at most 7 wide); an 8-wide board's 18 take a `u128`
//!   key (`cells::Key`), hence [`MAX_WIDTH`] = 8. The same code runs both (tests compare them).
//! - Labels are canonical (3, 4, ... by first appearance from the newest square back) after every
//!   step, so that the edges a step decides near the old end of the window, and the squares it
//!   drops there, leave the labels of the rest alone: states that lead to the same next states then
//!   sit together in the sorted list, and the parts of a step share fewer (about 1.15 times the
//!   distinct next states in all, where numbering from the oldest square gave 1.4). `FRESH`
//!   (15) is a temporary label for a new piece and never survives `normalize`. At most 8 pieces fit
//!   in 16 cells, so real labels stay below 11.
//! - A cell is `DONE` exactly when it can take no more edges. Finalizing a square changes only its own
//!   cell and, for a degree-1 square becoming a terminal, its partner's (label -> `TAIL`). Anything that
//!   changes the meaning of a cell must keep the "number of terminals = number of `TAIL` cells"
//!   invariant, or store the terminal count explicitly.
//! - The slow twins: of the transitions, `reference.rs` (byte cells), compared state by state; of
//!   the whole count, the backtracking engine, compared on every board up to 6x6 and on long 3 x n
//!   and 4 x n boards. Folding is checked against counting without it (same counts, fewer states).

mod cells;
mod checkpoint;
pub use checkpoint::CheckpointProblem;
mod gather;
mod packed;
mod plan;
#[cfg(test)]
mod reference;
mod step;

use super::{CountError, Counted, Orientation};
use crate::board::Board;
use crate::board::Closure;
use cells::{Key, DONE};
use gather::{Entry, Packed68, Pair, Ways, BATCH};
use plan::{Plan, CELLS};
use std::path::Path;
use std::time::{Duration, Instant};
use step::Stepping;

/// The widest board (shorter side) the frontier counter handles: its window and new square are
/// `2 * 8 + 2 = 18` cells of 4 bits, held in a `u128` (boards at most 7 wide fill a `u64`).
pub const MAX_WIDTH: u32 = 8;

/// Whether a board `width` wide (its shorter side) keeps its states in a `u128`: its window of
/// `2 x width + 1` cells passes the 16 of a `u64` with the new square.
fn wide(width: u32) -> bool {
    2 * width as usize + 1 >= u64::CELLS
}

/// Bytes a state takes in a step's list: 16, a `u64` key and `u64` ways on boards at most 7 wide,
/// a 68-bit key and 60-bit ways in a `u128` on 8-wide ones (24 or 32 if its ways pass those bits
/// and the count starts over with `u128` ways).
pub fn state_bytes(width: u32) -> usize {
    if wide(width) {
        std::mem::size_of::<Packed68>()
    } else {
        std::mem::size_of::<Pair<u64, u64>>()
    }
}

/// The answer of [`count_frontier`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontierCount {
    /// The board as given (not transposed).
    pub board: Board,
    /// Open or closed tours were counted.
    pub closure: Closure,
    /// Undirected tours: open paths (a path and its reverse once), or closed cycles.
    pub undirected: u128,
    /// The largest number of distinct frontier states held after any step.
    pub peak_states: usize,
    /// State transitions generated (work done), over all steps.
    pub transitions: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl FrontierCount {
    /// Directed tours over all starts: 2 per open path (1 on the 1x1 board), `2 x squares` per cycle;
    /// [`CountError::Overflow`] when that passes `u128::MAX` (3 x 74 open already does).
    pub fn directed(&self) -> Result<u128, CountError> {
        let per_tour = if self.closure.is_closed() {
            2 * self.board.len() as u128
        } else if self.board.len() == 1 {
            1
        } else {
            2
        };
        self.undirected
            .checked_mul(per_tour)
            .ok_or(CountError::Overflow {
                board: self.board,
                what: Counted::Tours {
                    closure: self.closure,
                    orientation: Orientation::Directed,
                },
                bits: 128,
            })
    }
}

/// Progress after each square added, for [`count_frontier_with`].
#[derive(Clone, Copy, Debug)]
pub struct FrontierProgress {
    /// Squares added (row-major on the board turned so that its shorter side is across).
    pub squares_done: u32,
    /// Squares in all.
    pub squares: u32,
    /// Rows done (whole rows: `squares_done / width`).
    pub rows_done: u32,
    /// Rows in all.
    pub rows: u32,
    /// Whether this square ends a row.
    pub row_end: bool,
    /// Frontier states now held.
    pub states: usize,
    /// Time since the count began.
    pub elapsed: Duration,
    /// Bits of the states' ways: 64, or 128 once a sum passed `u64::MAX` and the count started over.
    pub ways_bits: u32,
    /// Whether mirror images are folded together at the ends of rows: the count starts over without
    /// once a sum of `u128` ways passes `u128::MAX`.
    pub folded: bool,
    /// Squares whose states came from a checkpoint ([`count_frontier_resumable`]), 0 if none.
    pub resumed_from: u32,
}

/// Count undirected open tours (Hamiltonian paths) or closed tours (cycles) on `board`. See the module
/// documentation for the method.
pub fn count_frontier(board: Board, closure: Closure) -> Result<FrontierCount, CountError> {
    count_frontier_with(board, closure, usize::MAX, &mut |_| {})
}

/// [`count_frontier`], calling `progress` after every square, and giving up with
/// [`CountError::TooManyStates`] as soon as one step holds more than `max_states` states (each costs
/// [`state_bytes`], in the list of the current step and those of the next, plus sorting batches of
/// 256 MiB at most in all: the parts' lists of the next step, which overlap a little, and then their
/// merge; a part that alone passes the limit stops the count at once), or with
/// [`CountError::Overflow`] when a sum of ways passes `u128::MAX` (3 x 75 open, 5 x 36 closed).
/// The work of a step is spread over the threads of the current rayon pool.
pub fn count_frontier_with(
    board: Board,
    closure: Closure,
    max_states: usize,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    count_frontier_resumable(board, closure, max_states, None, progress)
}

/// [`count_frontier_with`], writing the states at the end of every row to `checkpoint` (when given)
/// and resuming from the states there if the file holds this count's: an interrupted count goes on
/// from its last whole row. The file is removed when the count ends. A file of another count, or a
/// damaged one, is refused with [`CountError::FrontierCheckpoint`] (nothing is overwritten); one
/// of this count that it started over past (with wider ways) is counted over.
pub fn count_frontier_resumable(
    board: Board,
    closure: Closure,
    max_states: usize,
    checkpoint: Option<&Path>,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    let (rows, cols) = if board.cols() <= board.rows() {
        (board.rows(), board.cols())
    } else {
        (board.cols(), board.rows())
    };
    if cols > MAX_WIDTH {
        return Err(CountError::TooWide {
            board,
            width: cols,
            max: MAX_WIDTH,
        });
    }
    // What the limit allows must fit: a step's parts gather its states, with the few that two parts
    // share (about 1.15 times the distinct states), while the current states are freed part by
    // part, then merge them a wave of ranges at a time; half as much again as one list at the
    // limit, and the sorting batches.
    if max_states != usize::MAX {
        let each = state_bytes(cols);
        let needed = (max_states as u64)
            .saturating_mul(3 * each as u64 / 2)
            .saturating_add((BATCH * each) as u64);
        let available = crate::memory::available_bytes();
        if !crate::memory::fits_in(needed, available) {
            return Err(CountError::StatesTooMany {
                board,
                max_states,
                state_bytes: each,
                needed_mib: needed >> 20,
                available_mib: available >> 20,
            });
        }
    }
    let plan = Plan::new(rows, cols);
    let run = Run {
        max_states,
        fold: true,
        began: Instant::now(),
        checkpoint,
    };
    if wide(cols) {
        count_with_ways::<Packed68, Pair<u128, u128>>(&plan, board, closure, run, progress)
    } else {
        count_with_ways::<Pair<u64, u64>, Pair<u64, u128>>(&plan, board, closure, run, progress)
    }
}

/// How a count runs, besides what it counts.
#[derive(Clone, Copy)]
struct Run<'a> {
    max_states: usize,
    /// Fold the states at the end of each row onto their mirror images (`packed::Transitions`).
    fold: bool,
    /// When the count began: its times are counted from here, across restarts.
    began: Instant,
    checkpoint: Option<&'a Path>,
}

/// [`count_rows`] with 16-byte entries (`Narrow`: 64-bit ways, or 60 on 8-wide boards), again with
/// `u128` ways (`Wide`) if a sum passes those bits, and a third time without folding mirror images
/// if a sum passes `u128::MAX` (a fold adds two states' ways, so it takes a bit of the headroom:
/// 3 x 74 open needs the unfolded count). Every count up to 8x8 closed fits in the first, at two
/// thirds of the memory a state of the second (half on boards at most 7 wide).
fn count_with_ways<Narrow: Entry, Wide: Entry<Key = Narrow::Key, Ways = u128>>(
    plan: &Plan,
    board: Board,
    closure: Closure,
    run: Run,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    // a checkpoint of a later attempt (an interrupted count that had started over) resumes there
    let later = run.checkpoint.and_then(checkpoint::entries_of);
    let (skip_narrow, skip_folded) = match later {
        Some((bits, fold)) if bits == Wide::WAYS_BITS => (true, !fold),
        _ => (false, false),
    };
    if !skip_narrow {
        let narrow = count_rows::<Narrow>(plan, board, closure, run, progress);
        if !partial_past(&narrow, Narrow::WAYS_BITS) {
            return narrow;
        }
    }
    if !skip_folded {
        let wide = count_rows::<Wide>(plan, board, closure, run, progress);
        if !partial_past(&wide, 128) {
            return wide;
        }
    }
    let unfolded = Run { fold: false, ..run };
    count_rows::<Wide>(plan, board, closure, unfolded, progress)
}

/// Whether `count` stopped because a state's ways passed `bits` bits.
fn partial_past(count: &Result<FrontierCount, CountError>, bits: u32) -> bool {
    matches!(
        count,
        Err(CountError::Overflow {
            what: Counted::Partial { .. },
            bits: b,
            ..
        }) if *b == bits
    )
}

/// The row-by-row count of [`count_frontier_resumable`] of `board` (as `plan` turns it) with states
/// and their ways held as `E` (folding is off only in the test that checks it): the first states
/// (or those of a checkpoint), then one [`Stepping::add_square`] a square, each row's end saved to
/// the checkpoint, and progress told after every square.
fn count_rows<E: Entry>(
    plan: &Plan,
    board: Board,
    closure: Closure,
    run: Run,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    let mut count = FrontierCount {
        board,
        closure,
        undirected: 0,
        peak_states: 1,
        transitions: 0,
        elapsed: Duration::ZERO,
    };
    if board.len() == 1 {
        count.undirected = u128::from(!closure.is_closed());
        count.elapsed = run.began.elapsed();
        return Ok(count);
    }
    let id = checkpoint::Identity {
        rows: plan.rows,
        cols: plan.cols,
        closed: closure.is_closed(),
        ways_bits: E::WAYS_BITS,
        fold: run.fold,
    };
    let (start, mut current) = first_states::<E>(plan, run.checkpoint, id, &mut count)?;
    let stepping = Stepping {
        plan,
        board,
        closure,
        max_states: run.max_states,
        fold: run.fold,
        threads: rayon::current_num_threads().max(1),
    };
    for i in start..plan.n {
        let (next, held) = stepping.add_square(i, current, &mut count)?;
        current = next;
        count.peak_states = count.peak_states.max(held);
        if let Some(path) = run.checkpoint.filter(|_| plan.steps[i].row_end) {
            checkpoint::write(
                path,
                id,
                i + 1,
                count.transitions,
                count.peak_states,
                &current,
            )
            .map_err(|e| CountError::FrontierCheckpoint {
                problem: CheckpointProblem::Io(e.kind()),
            })?;
        }
        progress(&FrontierProgress::after(
            plan,
            i,
            held,
            &run,
            start,
            E::WAYS_BITS,
        ));
    }
    if let Some(path) = run.checkpoint {
        // what is counted needs no resuming; a file that is already gone is no error
        let _ = std::fs::remove_file(path);
    }
    count.elapsed = run.began.elapsed();
    Ok(count)
}

/// The states a count starts from, and the square they stand before: the empty board's one state
/// (every cell of the window `DONE`: virtual squares before the board), or the states of
/// `checkpoint` when it holds this count's (`count` then takes what it had reached).
fn first_states<E: Entry>(
    plan: &Plan,
    checkpoint: Option<&Path>,
    id: checkpoint::Identity,
    count: &mut FrontierCount,
) -> Result<(usize, Vec<Vec<E>>), CountError> {
    let w = plan.w;
    debug_assert!(w < E::Key::CELLS && w < CELLS);
    let empty = vec![vec![E::new(
        E::Key::pack(&[DONE; CELLS], 0, w),
        E::Ways::ONE,
    )]];
    let Some(path) = checkpoint.filter(|p| p.exists()) else {
        return Ok((0, empty));
    };
    match checkpoint::read::<E>(path, id) {
        Ok(reached) => {
            count.transitions = reached.transitions;
            count.peak_states = reached.peak_states;
            Ok((reached.squares, vec![reached.states]))
        }
        // a checkpoint of an earlier attempt, with narrower ways: counted over
        Err(checkpoint::Unreadable::OtherEntries) => Ok((0, empty)),
        Err(checkpoint::Unreadable::Refused(problem)) => {
            Err(CountError::FrontierCheckpoint { problem })
        }
    }
}

impl FrontierProgress {
    /// Progress after square `i` of `plan`, `held` states now, in a count of `ways_bits`-bit ways
    /// that `run` runs and that resumed before square `start` (0: from the beginning).
    fn after(plan: &Plan, i: usize, held: usize, run: &Run, start: usize, ways_bits: u32) -> Self {
        let cols = plan.cols as usize;
        FrontierProgress {
            squares_done: i as u32 + 1,
            squares: plan.n as u32,
            rows_done: ((i + 1) / cols) as u32,
            rows: plan.rows,
            row_end: (i + 1) % cols == 0,
            states: held,
            elapsed: run.began.elapsed(),
            ways_bits,
            folded: run.fold,
            resumed_from: start as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count with no limit on states and no checkpoint.
    fn unlimited(fold: bool) -> Run<'static> {
        Run {
            max_states: usize::MAX,
            fold,
            began: Instant::now(),
            checkpoint: None,
        }
    }

    #[test]
    fn small_known_counts() {
        let b = |r, c| Board::new(r, c).unwrap();
        assert_eq!(
            count_frontier(b(1, 1), Closure::Open).unwrap().undirected,
            1
        );
        assert_eq!(
            count_frontier(b(1, 1), Closure::Closed).unwrap().undirected,
            0
        );
        assert_eq!(
            count_frontier(b(3, 4), Closure::Open).unwrap().directed(),
            Ok(16)
        );
        assert_eq!(
            count_frontier(b(5, 5), Closure::Open).unwrap().directed(),
            Ok(1728)
        );
    }

    /// The `u128` key of 8-wide boards counts what the `u64` key counts, on boards both can hold,
    /// with the same states after every row.
    #[test]
    fn wide_keys_count_what_narrow_keys_count() {
        let run = |rows: u32, cols: u32, closure: Closure, wide: bool| {
            let board = Board::new(rows as u64, cols as u64).unwrap();
            let plan = Plan::new(rows, cols);
            let mut states = Vec::new();
            let mut progress = |p: &FrontierProgress| states.push(p.states);
            let r = if wide {
                count_rows::<Packed68>(&plan, board, closure, unlimited(true), &mut progress)
            } else {
                count_rows::<Pair<u64, u64>>(&plan, board, closure, unlimited(true), &mut progress)
            }
            .unwrap();
            (r.undirected, r.peak_states, r.transitions, states)
        };
        for (rows, cols) in [(5, 5), (6, 6), (9, 4), (10, 3), (7, 5)] {
            for closure in [Closure::Open, Closure::Closed] {
                assert_eq!(
                    run(rows, cols, closure, true),
                    run(rows, cols, closure, false),
                    "{rows}x{cols} {closure:?}"
                );
            }
        }
    }

    /// Folding the states at the end of each row onto their mirror images changes no count, and
    /// holds fewer states at every row's end (about half on boards of three rows or more); `u128`
    /// ways count what `u64` ways count, with the same states.
    #[test]
    fn folded_counts_equal_unfolded_counts_with_fewer_states() {
        let run = |rows: u32, cols: u32, closure: Closure, fold: bool, wide_ways: bool| {
            let board = Board::new(rows as u64, cols as u64).unwrap();
            let plan = Plan::new(rows, cols);
            let mut ends = Vec::new();
            let mut progress = |p: &FrontierProgress| {
                if p.row_end {
                    ends.push(p.states)
                }
            };
            let r = if wide_ways {
                count_rows::<Pair<u64, u128>>(&plan, board, closure, unlimited(fold), &mut progress)
            } else {
                count_rows::<Pair<u64, u64>>(&plan, board, closure, unlimited(fold), &mut progress)
            }
            .unwrap();
            (r.undirected, ends)
        };
        for (rows, cols) in [(5, 5), (6, 6), (9, 4), (10, 3), (7, 5), (6, 5), (8, 2)] {
            for closure in [Closure::Open, Closure::Closed] {
                let (count, folded) = run(rows, cols, closure, true, false);
                let (unfolded_count, unfolded) = run(rows, cols, closure, false, false);
                assert_eq!(count, unfolded_count, "{rows}x{cols} {closure:?}");
                assert_eq!(
                    run(rows, cols, closure, true, true),
                    (count, folded.clone())
                );
                for (row, (f, u)) in folded.iter().zip(&unfolded).enumerate() {
                    assert!(f <= u, "{rows}x{cols} {closure:?} row {row}: {f} > {u}");
                    // a state and its mirror image are distinct but for the symmetric ones
                    assert!(
                        2 * f >= *u,
                        "{rows}x{cols} {closure:?} row {row}: {f} of {u}"
                    );
                }
                let (f, u): (usize, usize) = (folded.iter().sum(), unfolded.iter().sum());
                assert!(
                    cols < 3 || u <= 1000 || 10 * f < 6 * u,
                    "{rows}x{cols} {closure:?}: {f} of {u} states at the rows' ends"
                );
            }
        }
    }

    /// A sum of ways past `u64::MAX` starts the count over with `u128` ways, which give the count
    /// (3 x 40 open tours pass 2^64 undirected; 5 x 20 closed tours' partial ways do).
    #[test]
    fn ways_past_64_bits_count_again_in_128() {
        let mut bits = Vec::new();
        let board = Board::new(3, 40).unwrap();
        let r = count_frontier_with(board, Closure::Open, usize::MAX, &mut |p| {
            bits.push(p.ways_bits)
        })
        .unwrap();
        assert!(r.undirected > u128::from(u64::MAX));
        assert_eq!(bits.first(), Some(&64));
        assert_eq!(bits.last(), Some(&128));
        let plan = Plan::new(40, 3);
        assert!(matches!(
            count_rows::<Pair<u64, u64>>(&plan, board, Closure::Open, unlimited(true), &mut |_| {}),
            Err(CountError::Overflow {
                what: Counted::Partial { .. },
                bits: 64,
                ..
            })
        ));
        let wide = count_rows::<Pair<u64, u128>>(
            &plan,
            board,
            Closure::Open,
            unlimited(true),
            &mut |_| {},
        );
        assert_eq!(wide.unwrap().undirected, r.undirected);
        // the 8-wide boards' entries (60-bit ways) start over the same way
        let mut bits = Vec::new();
        let packed = count_with_ways::<Packed68, Pair<u128, u128>>(
            &plan,
            board,
            Closure::Open,
            unlimited(true),
            &mut |p| bits.push(p.ways_bits),
        );
        assert_eq!(packed.unwrap().undirected, r.undirected);
        assert_eq!((bits[0], bits[bits.len() - 1]), (60, 128));
    }

    /// A count stopped after some rows resumes from its checkpoint to the count from scratch, with
    /// the same transitions and peak; the file is gone at the end. Another count's file, a damaged
    /// one and one that is no checkpoint are refused and left as they were; one of this count with
    /// other entries is counted over.
    #[test]
    fn counts_resume_from_their_checkpoints() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count.ckpt");
        for (rows, cols, closure, limit) in [
            (6, 5, Closure::Open, 30_000),
            (8, 5, Closure::Closed, 10_000),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let fresh = count_frontier(board, closure).unwrap();
            // stopped by a limit on states, after a few rows were written
            let stopped = count_frontier_resumable(board, closure, limit, Some(&path), &mut |_| {});
            assert!(matches!(stopped, Err(CountError::TooManyStates { .. })));
            assert!(path.exists());
            let mut first = None;
            let resumed =
                count_frontier_resumable(board, closure, usize::MAX, Some(&path), &mut |p| {
                    first.get_or_insert(p.resumed_from);
                })
                .unwrap();
            assert!(first.unwrap() > 0, "{board}: resumed from square {first:?}");
            assert_eq!(
                (resumed.undirected, resumed.transitions, resumed.peak_states),
                (fresh.undirected, fresh.transitions, fresh.peak_states),
                "{board}"
            );
            assert!(!path.exists());
        }
        // a checkpoint of 6x5 open, to refuse or pass over
        let six = Board::new(6, 5).unwrap();
        let _ = count_frontier_resumable(six, Closure::Open, 30_000, Some(&path), &mut |_| {});
        let good = std::fs::read(&path).unwrap();
        let refused = |board: Board, closure: Closure| match count_frontier_resumable(
            board,
            closure,
            usize::MAX,
            Some(&path),
            &mut |_| {},
        ) {
            Err(CountError::FrontierCheckpoint { problem }) => problem,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            refused(Board::new(5, 5).unwrap(), Closure::Open),
            CheckpointProblem::OtherCount {
                rows: 6,
                cols: 5,
                closed: false
            }
        );
        assert!(matches!(
            refused(six, Closure::Closed),
            CheckpointProblem::OtherCount { closed: false, .. }
        ));
        let mut damaged = good.clone();
        let last = damaged.len() - 40;
        damaged[last] ^= 1;
        for bytes in [damaged, good[..good.len() - 1].to_vec()] {
            std::fs::write(&path, &bytes).unwrap();
            assert_eq!(refused(six, Closure::Open), CheckpointProblem::Damaged);
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "left as it was");
        }
        std::fs::write(&path, b"rows,cols\n6,6\n").unwrap();
        assert_eq!(
            refused(six, Closure::Open),
            CheckpointProblem::NotACheckpoint
        );
        // the same count with u128 ways does not resume from 64-bit entries: it counts over
        std::fs::write(&path, &good).unwrap();
        let plan = Plan::new(6, 5);
        let run = Run {
            checkpoint: Some(&path),
            ..unlimited(true)
        };
        let mut first = None;
        let wide = count_rows::<Pair<u64, u128>>(&plan, six, Closure::Open, run, &mut |p| {
            first.get_or_insert(p.resumed_from);
        });
        assert_eq!(first, Some(0));
        assert_eq!(wide.unwrap().directed(), Ok(37_568));
        // a checkpoint of the u128 attempt, stopped: the count resumes it, not the u64 attempt
        let run = Run {
            max_states: 30_000,
            ..run
        };
        let stopped = count_rows::<Pair<u64, u128>>(&plan, six, Closure::Open, run, &mut |_| {});
        assert!(matches!(stopped, Err(CountError::TooManyStates { .. })));
        let mut first = None;
        let resumed =
            count_frontier_resumable(six, Closure::Open, usize::MAX, Some(&path), &mut |p| {
                first.get_or_insert((p.resumed_from, p.ways_bits));
            });
        assert!(matches!(first, Some((from, 128)) if from > 0), "{first:?}");
        assert_eq!(resumed.unwrap().directed(), Ok(37_568));
    }

    /// An 8-wide board is counted with the wide key, and refused cleanly past its state limit.
    #[test]
    fn eight_wide_boards_are_counted_within_their_limit() {
        let b = Board::square(8).unwrap();
        match count_frontier_with(b, Closure::Closed, 10_000, &mut |_| {}) {
            Err(CountError::TooManyStates { max_states, .. }) => assert_eq!(max_states, 10_000),
            other => panic!("{other:?}"),
        }
        assert_eq!(state_bytes(8), 16);
        assert_eq!(state_bytes(7), 16);
    }
}
