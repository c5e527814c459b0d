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
//! The code: this file holds the public API and the row-by-row driver; `cells.rs` the state's cells
//! and their transitions, `plan.rs` the geometry of each step, and `gather.rs` the sorted lists that
//! hold each step's states.
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
//! 3, 4, 5, ... in order of first appearance in the window. Joining the two ends of one piece (a cycle)
//! is forbidden except when it completes a closed tour at the last square; joining two `TAIL`s (a
//! path with both terminals fixed) likewise completes an open tour only at the last square. The number
//! of terminals fixed so far is the number of `TAIL` cells, so it needs no field of its own. At the
//! last square the whole state is judged at once: one piece left (two cells of one label, or a single
//! `TAIL`, everything else `DONE`) is an open tour. On a board with an odd number of squares both ends
//! of an open tour lie on the corners' colour (every move changes colour), so squares of the other
//! colour are held to degree 2 as in a closed tour.
//!
//! States with their multiplicities (`u64` state, `u128` count) live in a sorted list per step, held
//! as consecutive key ranges; a step splits the current list into parts of about equal size, a few
//! per thread, and each part gathers the states it reaches in batches that are sorted, summed and
//! merged (`Gather`): 24 bytes a state, where a hash map took 40 to 80 and ran out of memory on
//! 7x7. The parts' lists are then merged range by range, in parallel (`merge_lists`). Every sum is
//! exact, so the counts, the states and the errors do not depend on the number of threads (tested).
//! Open tours are counted undirected (a path and its reverse once; directed = 2x), closed tours as
//! undirected cycles, as OEIS counts them.
//!
//! # ADVICE FOR HACKERS
//! - Cell `k` (bits `4k..4k+4`) of a state holds square `i - W + k` while square `i` is being added;
//!   during the step the new square sits at position `W`, and afterwards position 0 (square `i - W`,
//!   whose last neighbour is `i`) must be finalized, so the state is shifted down by one cell.
//!   `W + 1 <= 16` cells fit in a `u64` (boards at most 7 wide); an 8-wide board's 18 take a `u128`
//!   key ([`cells::Key`]), hence [`MAX_WIDTH`] = 8. The same code runs both (tests compare them).
//! - Labels are canonical (3, 4, ... by first appearance over the window) after every step; `FRESH`
//!   (15) is a temporary label for a new piece and never survives `normalize`. At most 8 pieces fit
//!   in 16 cells, so real labels stay below 11.
//! - A cell is `DONE` exactly when it can take no more edges. Finalizing a square changes only its own
//!   cell and, for a degree-1 square becoming a terminal, its partner's (label -> `TAIL`). Anything that
//!   changes the meaning of a cell must keep the "number of terminals = number of `TAIL` cells"
//!   invariant, or store the terminal count explicitly.
//! - The slow twin is the backtracking engine: the tests compare the two on every board up to 6x6 and
//!   on long 3 x n and 4 x n boards.

mod cells;
mod gather;
mod plan;

use super::{CountError, Counted, Orientation, Wrapped};
use crate::board::Board;
use crate::board::Closure;
use cells::{feasible, final_is_path, finalize, normalize, one_edge, two_edges, Key, Outcome};
use cells::{DONE, EMPTY};
use gather::{merge_lists, Entry, Gather, BATCH};
use plan::{Plan, Step, CELLS};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The widest board (shorter side) the frontier counter handles: its window and new square are
/// `2 * 8 + 2 = 18` cells of 4 bits, held in a `u128` (boards at most 7 wide fill a `u64`).
pub const MAX_WIDTH: u32 = 8;

/// Whether a board `width` wide (its shorter side) keeps its states in a `u128`: its window of
/// `2 x width + 1` cells passes the 16 of a `u64` with the new square.
fn wide(width: u32) -> bool {
    2 * width as usize + 1 >= u64::CELLS
}

/// Bytes a state takes in a step's list: 24 with the `u64` key of boards at most 7 wide, 32 with
/// the `u128` key of 8-wide ones.
pub fn state_bytes(width: u32) -> usize {
    if wide(width) {
        std::mem::size_of::<gather::Entry<u128>>()
    } else {
        std::mem::size_of::<gather::Entry<u64>>()
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
}

/// Count undirected open tours (Hamiltonian paths) or closed tours (cycles) on `board`. See the module
/// documentation for the method.
pub fn count_frontier(board: Board, closure: Closure) -> Result<FrontierCount, CountError> {
    count_frontier_with(board, closure, usize::MAX, &mut |_| {})
}

/// [`count_frontier`], calling `progress` after every square, and giving up with
/// [`CountError::TooManyStates`] as soon as one step holds more than `max_states` states (each costs
/// 24 bytes, in the list of the current step and those of the next, plus sorting batches of 384
/// MiB at most in all: the parts' lists of the next step, which overlap a little, and then their
/// merge; a part that alone passes the limit stops the count at once), or with
/// [`CountError::Overflow`] when a sum of ways passes `u128::MAX` (3 x 75 open, 5 x 42 closed).
/// The work of a step is spread over the threads of the current rayon pool.
pub fn count_frontier_with(
    board: Board,
    closure: Closure,
    max_states: usize,
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
    // what the limit allows must fit: two steps' lists at the limit, and the sorting batches
    if max_states != usize::MAX {
        let each = state_bytes(cols);
        let needed = (max_states as u64)
            .saturating_mul(2 * each as u64)
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
    if wide(cols) {
        count_rows::<u128>(&plan, board, closure, max_states, progress)
    } else {
        count_rows::<u64>(&plan, board, closure, max_states, progress)
    }
}

/// The row-by-row count of [`count_frontier_with`] of `board` (as `plan` turns it) with states
/// packed in `K`.
fn count_rows<K: Key>(
    plan: &Plan,
    board: Board,
    closure: Closure,
    max_states: usize,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    let began = Instant::now();
    // the transitions below test it at every cell: one flag, read once
    let closed = closure.is_closed();
    let (rows, cols) = (plan.rows, plan.cols);
    let mut result = FrontierCount {
        board,
        closure,
        undirected: 0,
        peak_states: 1,
        transitions: 0,
        elapsed: Duration::ZERO,
    };
    if board.len() == 1 {
        result.undirected = u128::from(!closed);
        result.elapsed = began.elapsed();
        return Ok(result);
    }
    let w = plan.w;
    debug_assert!(w < K::CELLS && w < CELLS);
    // Every cell of the window starts DONE: virtual squares before the board.
    let mut current = vec![vec![Entry::new(K::pack(&[DONE; CELLS], 0, w), 1)]];
    let n = plan.n;
    let threads = rayon::current_num_threads().max(1);
    let entry_bytes = std::mem::size_of::<Entry<K>>();
    let batch_bytes = (BATCH * entry_bytes) as u64;
    for i in 0..n {
        let held_by_parts = AtomicUsize::new(0);
        let available = crate::memory::available_bytes();
        let usable = crate::memory::usable_share(available).saturating_sub(batch_bytes);
        let step = Expansion {
            step: &plan.steps[i],
            w,
            closed,
            last: i + 1 == n,
            max_states,
            batch: BATCH / threads,
            held: &held_by_parts,
            budget: (usable / 2 / entry_bytes as u64) as usize,
        };
        // Parts of about equal size, a few per thread so that a slow one does not hold up the
        // others; small steps and single threads in one part, whose list then needs no merge.
        let held: usize = current.iter().map(Vec::len).sum();
        let parts = if threads == 1 || held < 1 << 12 {
            1
        } else {
            4 * threads
        };
        let size = held.div_ceil(parts).max(1);
        let chunks: Vec<&[Entry<K>]> = current.iter().flat_map(|l| l.chunks(size)).collect();
        let give_up = AtomicBool::new(false);
        let done: Vec<Expanded<K>> = chunks
            .par_iter()
            .map(|chunk| step.expand(chunk, &give_up))
            .collect();
        // the states of this step are no longer needed while the next ones are merged
        drop(chunks);
        drop(current);
        let (mut tours_wrapped, mut partial_wrapped) = (false, false);
        if done.iter().any(|p| p.out_of_memory) {
            return Err(CountError::FrontierMemory {
                board,
                square: i as u32,
                held: held_by_parts.load(Ordering::Relaxed),
                state_bytes: entry_bytes,
                available_mib: available >> 20,
            });
        }
        let mut lists = Vec::with_capacity(done.len());
        for part in done {
            result.transitions += part.transitions;
            add_wrapping(&mut result.undirected, part.tours, &mut tours_wrapped);
            tours_wrapped |= part.tours_wrapped;
            match part.states {
                Ok(list) => lists.push(list),
                Err(Wrapped) => partial_wrapped = true,
            }
        }
        let too_many = || CountError::TooManyStates {
            board,
            max_states,
            square: i as u32,
        };
        // A part past the limit held a step's worth of states alone: the step holds more. The
        // errors are checked in an order that does not depend on how the step was split.
        if give_up.load(Ordering::Relaxed) {
            return Err(too_many());
        }
        current = match merge_lists(lists, parts) {
            Ok(lists) => lists,
            Err(Wrapped) => {
                partial_wrapped = true;
                Vec::new()
            }
        };
        let held: usize = current.iter().map(Vec::len).sum();
        if held > max_states {
            return Err(too_many());
        }
        if tours_wrapped {
            return Err(CountError::Overflow {
                board,
                what: Counted::Tours {
                    closure,
                    orientation: Orientation::Undirected,
                },
                bits: 128,
            });
        }
        if partial_wrapped {
            return Err(CountError::Overflow {
                board,
                what: Counted::Partial { square: i as u32 },
                bits: 128,
            });
        }
        result.peak_states = result.peak_states.max(held);
        progress(&FrontierProgress {
            squares_done: i as u32 + 1,
            squares: n as u32,
            rows_done: ((i + 1) / cols as usize) as u32,
            rows,
            row_end: (i + 1) % cols as usize == 0,
            states: held,
            elapsed: began.elapsed(),
        });
    }
    result.elapsed = began.elapsed();
    Ok(result)
}

/// One step (adding square `i`) to apply to a part of the current states.
struct Expansion<'a> {
    step: &'a Step,
    w: usize,
    closed: bool,
    /// The last square: complete tours are counted instead of states kept.
    last: bool,
    max_states: usize,
    /// Entries of a gathering batch of one part.
    batch: usize,
    /// Entries the parts' lists hold together, and the most that memory allows them (half of what
    /// is usable when the step begins, less the batches: the merge copies them once more).
    held: &'a AtomicUsize,
    budget: usize,
}

/// What a part of a step's states gave.
struct Expanded<K> {
    /// The next states it reached, sorted, with their ways, or [`Wrapped`].
    states: Result<Vec<Entry<K>>, Wrapped>,
    /// Tours completed (undirected), wrapping; `tours_wrapped` if they did.
    tours: u128,
    tours_wrapped: bool,
    transitions: u64,
    /// It stopped because the parts' lists together passed what memory holds.
    out_of_memory: bool,
}

impl Expansion<'_> {
    /// Every transition of the states of `part`: each state with no edge, one edge or two edges to
    /// the new square. Stops early, setting `give_up`, when this part's next states pass the limit
    /// (the step's do then too), or when another part set it.
    fn expand<K: Key>(&self, part: &[Entry<K>], give_up: &AtomicBool) -> Expanded<K> {
        let (step, w, closed, last) = (self.step, self.w, self.closed, self.last);
        let mut next = Gather::new(part.len(), self.batch);
        let mut out = Expanded {
            states: Ok(Vec::new()),
            tours: 0,
            tours_wrapped: false,
            transitions: 0,
            out_of_memory: false,
        };
        let mut reported = 0;
        for entry in part {
            let (state, ways) = (entry.state, entry.ways());
            let distinct = next.distinct();
            if distinct > self.max_states {
                give_up.store(true, Ordering::Relaxed);
            }
            if distinct > reported {
                let more = distinct - reported;
                reported = distinct;
                if self.held.fetch_add(more, Ordering::Relaxed) + more > self.budget {
                    out.out_of_memory = true;
                    give_up.store(true, Ordering::Relaxed);
                }
            }
            if give_up.load(Ordering::Relaxed) {
                return out;
            }
            let mut cells = [DONE; CELLS];
            for (k, cell) in cells.iter_mut().take(w).enumerate() {
                *cell = state.cell(k);
            }
            cells[w] = EMPTY;
            // Earlier neighbours that can still take an edge.
            let mut open = [0usize; 4];
            let mut m = 0;
            for &p in &step.back {
                if cells[p] != DONE {
                    open[m] = p;
                    m += 1;
                }
            }
            let open = &open[..m];
            let mut emit = |c: &mut [u8; CELLS], outcome: Outcome| {
                out.transitions += 1;
                match outcome {
                    Outcome::Dead => {}
                    Outcome::Complete => add_wrapping(&mut out.tours, ways, &mut out.tours_wrapped),
                    Outcome::Continue if last => {
                        if !closed && final_is_path(&c[..=w], &step.terminal_ok) {
                            add_wrapping(&mut out.tours, ways, &mut out.tours_wrapped);
                        }
                    }
                    Outcome::Continue => {
                        for &p in &step.finalize {
                            if !finalize(c, p, w, closed, step.terminal_ok[p]) {
                                return;
                            }
                        }
                        if !feasible(c, step, w, closed) {
                            return;
                        }
                        debug_assert_eq!(c[0], DONE, "the square leaving the window is finalized");
                        normalize(&mut c[1..=w]);
                        next.add(K::pack(c, 1, w), ways);
                    }
                }
            };
            // No edge.
            let mut c = cells;
            emit(&mut c, Outcome::Continue);
            // One edge.
            for &j in open {
                let mut c = cells;
                one_edge(&mut c, j, w);
                emit(&mut c, Outcome::Continue);
            }
            // Two edges.
            for (a, &j) in open.iter().enumerate() {
                for &k in &open[a + 1..] {
                    let mut c = cells;
                    let outcome = two_edges(&mut c, j, k, w, closed, last);
                    emit(&mut c, outcome);
                }
            }
        }
        out.states = next.finish();
        out
    }
}

/// `*sum += more`, wrapping, and remembering in `wrapped` that it did: a branch-free flag the caller
/// checks once a step keeps the hot loops as fast as unchecked sums.
#[inline(always)]
fn add_wrapping(sum: &mut u128, more: u128, wrapped: &mut bool) {
    let (total, carry) = sum.overflowing_add(more);
    *sum = total;
    *wrapped |= carry;
}

#[cfg(test)]
mod tests {
    use super::*;

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
                count_rows::<u128>(&plan, board, closure, usize::MAX, &mut progress)
            } else {
                count_rows::<u64>(&plan, board, closure, usize::MAX, &mut progress)
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

    /// An 8-wide board is counted with the wide key, and refused cleanly past its state limit.
    #[test]
    fn eight_wide_boards_are_counted_within_their_limit() {
        let b = Board::square(8).unwrap();
        match count_frontier_with(b, Closure::Closed, 10_000, &mut |_| {}) {
            Err(CountError::TooManyStates { max_states, .. }) => assert_eq!(max_states, 10_000),
            other => panic!("{other:?}"),
        }
        assert_eq!(state_bytes(8), 32);
        assert_eq!(state_bytes(7), 24);
    }
}
