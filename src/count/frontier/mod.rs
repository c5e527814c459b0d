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
//! `modular.rs` the residues, primes, bound and recombination of counts past the ways' bits,
//! `passes.rs` the passes they take, `widen.rs` the exact pass's ways widened in flight,
//! `spill.rs` the states on disk under a bound on memory, `halves.rs` closed tours counted from
//! both ends and joined at the middle, and `reference.rs` the transitions' slow twin.
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
//! On 8-wide boards the 68-bit state and 60-bit ways share one `u128`, 16 bytes too.
//!
//! Counts of any size keep that entry (`modular.rs`, `passes.rs`): a first pass sums the ways
//! exactly in their 64 (60) bits, and once its largest ways near those bits converts its states
//! to 128-bit ways and goes on (`widen.rs`); it is the count unless a sum passed its bits. It
//! then goes on wrapping (the count modulo 2^127, or 2^64 or 2^60 where it did not widen), and
//! one more pass a prime below 2^60 sums the ways modulo the prime, until the moduli's product
//! passes Bregman's bound on the count; the Chinese remainder theorem gives the exact count
//! (3 x 74 open, 5 x 36 closed and longer: tested under two sets of primes). Every count up to
//! 8x8 closed fits the first pass's 16-byte entries.
//!
//! Under a bound on memory ([`FrontierOptions::spill`], `spill.rs`) a step is an external
//! sort-reduce instead: its successors fill a buffer of what the bound leaves, sorted and summed
//! when it fills and written to disk as a sorted run when still half full, and the runs are merged
//! into the next states, which stay in memory up to half the bound or are read back from a file by
//! the next step. Sums are the same whatever the order, so the count, the states and the
//! transitions are those of the count in memory, its twin in the tests.
//!
//! A whole sequence comes from one run ([`count_lengths`]): at the end of row `n` the same states
//! are also finished as if the board ended there (the last square's transitions), which counts
//! the tours of the board `n` rows long. The run's states are a superset of the short board's
//! (its squares near the cut have edges left in the long board, so fewer states are pruned), and
//! the extra ones complete no tour, every square being checked done at the last square; open
//! tours are counted without the colour rule on their ends (it holds on odd boards only).
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

pub(crate) mod cells;
mod checkpoint;
pub use checkpoint::{checkpoint_status, CheckpointProblem, CheckpointStatus, Settled};
mod gather;
mod halves;
pub use halves::{count_closed_halves, HalvesCount, HalvesProgress};
mod modular;
pub use modular::{bound_bits, PrimeSet, Residues};
pub(crate) mod packed;
mod passes;
pub(crate) mod plan;
#[cfg(test)]
mod reference;
mod spill;
pub use spill::{Spill, SpillProblem, MIN_MEMORY};
pub mod shard;
mod step;
mod widen;

use super::CountError;
use crate::board::Board;
use crate::board::Closure;
use cells::{Key, DONE};
use checkpoint::{Carried, Done};
use gather::{Entry, Packed68, Pair, Ways, BATCH};
use modular::Modulus;
use num_bigint::BigUint;
use plan::{Plan, CELLS};
use spill::{Sink, SpillDir, States};
use std::path::Path;
use std::time::{Duration, Instant};
use step::Stepping;
use widen::{can_widen, Widens};

/// The widest board (shorter side) the frontier counter handles: its window and new square are
/// `2 * 8 + 2 = 18` cells of 4 bits, held in a `u128` (boards at most 7 wide fill a `u64`).
pub const MAX_WIDTH: u32 = 8;

/// Whether a board `width` wide (its shorter side) keeps its states in a `u128`: its window of
/// `2 x width + 1` cells passes the 16 of a `u64` with the new square.
fn wide(width: u32) -> bool {
    2 * width as usize + 1 >= u64::CELLS
}

/// Bytes a state takes in a step's list: 16, a `u64` key and `u64` ways on boards at most 7 wide,
/// a 68-bit key and 60-bit ways in a `u128` on 8-wide ones, until an exact pass's ways near
/// those bits and widen to 128 (24 and 32 bytes: [`FrontierOptions::widen`]).
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
    pub undirected: BigUint,
    /// The largest number of distinct frontier states held after any step.
    pub peak_states: usize,
    /// State transitions generated (work done), over all steps and passes.
    pub transitions: u64,
    /// Passes over the board: 1 when the count fits its states' ways (widened or not), else one
    /// more a prime.
    pub passes: u32,
    /// Runs of states written to disk under a bound on memory ([`FrontierOptions::spill`]), over
    /// all steps and passes: 0 when every step fitted.
    pub spilled_runs: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Directed tours per undirected one on a board of `squares`: 2 per open path (1 on the 1x1
/// board), `2 x squares` per cycle.
fn per_tour(closure: Closure, squares: u64) -> u64 {
    if closure.is_closed() {
        2 * squares
    } else if squares == 1 {
        1
    } else {
        2
    }
}

impl FrontierCount {
    /// Directed tours over all starts: 2 per open path (1 on the 1x1 board), `2 x squares` per cycle.
    pub fn directed(&self) -> BigUint {
        &self.undirected * per_tour(self.closure, u64::from(self.board.len()))
    }
}

/// The answer of [`count_lengths`]: the tours of every board `width x n`, `n = 1..=length`,
/// from one run (`width` the rows of the board given, `length` its columns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontierSequence {
    /// The fixed side.
    pub width: u32,
    /// Open or closed tours were counted.
    pub closure: Closure,
    /// Undirected tours of `width x n` at index `n - 1`.
    pub undirected: Vec<BigUint>,
    /// The largest number of distinct frontier states held after any step.
    pub peak_states: usize,
    /// State transitions generated, over all steps and passes.
    pub transitions: u64,
    /// Passes over the board (see [`FrontierCount::passes`]).
    pub passes: u32,
    /// Runs of states written to disk (see [`FrontierCount::spilled_runs`]).
    pub spilled_runs: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl FrontierSequence {
    /// Directed tours of `width x n` over all starts (see [`FrontierCount::directed`]).
    pub fn directed(&self, n: u32) -> BigUint {
        let squares = u64::from(self.width) * u64::from(n);
        &self.undirected[n as usize - 1] * per_tour(self.closure, squares)
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
    /// Bits of the states' ways: 64, or 60 beside an 8-wide board's state; 128 once an exact
    /// pass's largest ways neared those bits and its states widened ([`FrontierOptions::widen`]).
    pub ways_bits: u32,
    /// The pass: 0 counts exactly in `ways_bits`; pass `k > 0` counts modulo the `k`-th prime of
    /// the [`PrimeSet`] (a sum passed `ways_bits` in pass 0).
    pub pass: u32,
    /// The pass's modulus: 0 for the exact pass, else its prime.
    pub modulus: u64,
    /// Squares whose states came from a checkpoint ([`count_frontier_resumable`]), 0 if none.
    pub resumed_from: u32,
    /// The states came from the count's base, the exact pass's last checkpoint before its ways
    /// wrapped (a pass modulo a prime), not from the pass's own checkpoint.
    pub from_base: bool,
    /// Runs of states this square wrote to disk under a bound on memory (sorted buffers, and
    /// merges of many runs into fewer), 0 when it fitted.
    pub spilled_runs: u64,
}

/// How a frontier count runs, besides what it counts.
#[derive(Clone, Copy, Debug)]
pub struct FrontierOptions<'a> {
    /// Give up with [`CountError::TooManyStates`] as soon as one step holds more states (see
    /// [`count_frontier_with`]).
    pub max_states: usize,
    /// The file the count saves its states to at the end of every row, and resumes from.
    pub checkpoint: Option<&'a Path>,
    /// The primes of the passes a count past its ways' bits takes.
    pub primes: PrimeSet,
    /// Where the exact pass's largest ways near the top of their bits (64, or 60 on an 8-wide
    /// board), convert its states to 128-bit ways (24-byte entries, 32 on an 8-wide board) and
    /// go on from that square: the count itself in one pass if it is below 2^128, else its
    /// residue modulo 2^127 before the primes' passes (on by default; off, the exact pass wraps
    /// and the primes' passes follow, the second method the tests compare it with). A count that
    /// holds its states in memory widens only if the wider states fit in the memory available.
    pub widen: bool,
    /// A bound on the memory the states take, and the folder they spill to past it (`None`: the
    /// states stay in memory, as much as the count needs).
    pub spill: Option<Spill<'a>>,
}

impl Default for FrontierOptions<'_> {
    fn default() -> Self {
        FrontierOptions {
            max_states: usize::MAX,
            checkpoint: None,
            primes: PrimeSet::default(),
            widen: true,
            spill: None,
        }
    }
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
/// merge; a part that alone passes the limit stops the count at once). A count whose states' ways
/// pass their bits runs again modulo primes, as many as [`bound_bits`] needs, and the Chinese
/// remainder theorem gives its exact value. The work of a step is spread over the threads of the
/// current rayon pool.
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
/// from its last whole row (in the pass it was in, with the residues of the passes before). The
/// file is removed when the count ends. A file of another count, or a damaged one, is refused with
/// [`CountError::FrontierCheckpoint`] (nothing is overwritten).
pub fn count_frontier_resumable(
    board: Board,
    closure: Closure,
    max_states: usize,
    checkpoint: Option<&Path>,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    let options = FrontierOptions {
        max_states,
        checkpoint,
        ..FrontierOptions::default()
    };
    count_frontier_opts(board, closure, &options, progress)
}

/// [`count_frontier_resumable`] with every option.
pub fn count_frontier_opts(
    board: Board,
    closure: Closure,
    options: &FrontierOptions,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    let (rows, cols) = turned(board);
    admit(board, cols, options)?;
    let began = Instant::now();
    let plan = Plan::new(rows, cols);
    let counted = passes::count(&plan, board, closure, options, false, progress)?;
    Ok(FrontierCount {
        board,
        closure,
        undirected: counted.values.into_iter().next_back().unwrap_or_default(),
        peak_states: counted.peak_states,
        transitions: counted.transitions,
        passes: counted.passes,
        spilled_runs: counted.spilled_runs,
        elapsed: began.elapsed(),
    })
}

/// The tours of every board `width x n` for `n = 1..=length`, where `width` is `board`'s rows and
/// `length` its columns, from one run over the longest: the tours of `width x n` are those the step that ends row `n` completes from its states as the last
/// square of a board that ends there (the states of the boards cut after each row are the longer
/// board's, less some it would prune: those complete nothing). Open tours are counted without the
/// colour rule on their ends, which holds on odd boards only.
pub fn count_lengths(
    board: Board,
    closure: Closure,
    options: &FrontierOptions,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierSequence, CountError> {
    let (width, length) = (board.rows(), board.cols());
    admit(board, width, options)?;
    let began = Instant::now();
    let plan = Plan::every_length(length, width);
    let counted = passes::count(&plan, board, closure, options, true, progress)?;
    let mut undirected = counted.values;
    if width == 1 && !closure.is_closed() {
        // the 1x1 board's single square is an open tour that no step completes
        undirected[0] = BigUint::from(1u32);
    }
    Ok(FrontierSequence {
        width,
        closure,
        undirected,
        peak_states: counted.peak_states,
        transitions: counted.transitions,
        passes: counted.passes,
        spilled_runs: counted.spilled_runs,
        elapsed: began.elapsed(),
    })
}

/// The board's rows and columns turned so that the shorter side is across (`cols <= rows`), as
/// the frontier sweeps it.
fn turned(board: Board) -> (u32, u32) {
    if board.cols() <= board.rows() {
        (board.rows(), board.cols())
    } else {
        (board.cols(), board.rows())
    }
}

/// Refuse a board wider than [`MAX_WIDTH`], and a limit on states that memory cannot hold (a bound
/// on memory that it cannot hold, when the states spill to disk past it).
fn admit(board: Board, cols: u32, options: &FrontierOptions) -> Result<(), CountError> {
    if cols > MAX_WIDTH {
        return Err(CountError::TooWide {
            board,
            width: cols,
            max: MAX_WIDTH,
        });
    }
    if let Some(spill) = &options.spill {
        return spill::check_memory(spill.memory)
            .map_err(|problem| CountError::FrontierSpill { problem });
    }
    let max_states = options.max_states;
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
    Ok(())
}

/// How a pass of a count runs, besides what it counts.
#[derive(Clone, Copy)]
struct Run<'a> {
    max_states: usize,
    /// Fold the states at the end of each row onto their mirror images (`packed::Transitions`).
    fold: bool,
    /// When the count began: its times are counted from here, across passes.
    began: Instant,
    checkpoint: Option<&'a Path>,
    /// What the ways are summed modulo, and the pass (0: exact).
    modulus: Modulus,
    pass: u32,
    /// Count the tours of the boards cut after each row too.
    every_length: bool,
    /// The passes done before this one, for the checkpoint.
    done: &'a [Done],
    /// Where the states spill past a bound on memory (`None`: they stay in memory).
    spill: Option<&'a SpillDir>,
    /// In an exact pass, widen the states' ways once the largest pass 2^(bits - this)
    /// (`widen.rs`); `None`: never.
    widen: Option<u32>,
}

#[cfg(test)]
impl Run<'static> {
    /// A pass with no limit on states and no checkpoint, counting exactly, from now.
    fn unlimited(fold: bool) -> Self {
        Run {
            max_states: usize::MAX,
            fold,
            began: Instant::now(),
            checkpoint: None,
            modulus: Modulus::EXACT,
            pass: 0,
            every_length: false,
            done: &[],
            spill: None,
            widen: None,
        }
    }
}

/// What one pass counted: the tours (sums of ways, wrapping at 2^128, so modulo the pass's
/// modulus once reduced), the tours of the boards cut at each row's end before the last (with
/// `every_length`), and whether a sum passed the ways' bits (an exact pass is then right modulo
/// 2^bits only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    tours: u128,
    lengths: Vec<u128>,
    wrapped: bool,
    transitions: u64,
    peak_states: usize,
    /// Runs written to disk (a spilling count's).
    runs: u64,
    /// Bits of the ways the pass ended with (128 once it widened).
    ways_bits: u32,
    /// The pass began from the count's exact base (`checkpoint::base_path`).
    from_base: bool,
}

impl Tally {
    /// The tours of every length counted (the cut boards', then the whole board's).
    fn values(&self) -> Vec<u128> {
        self.lengths
            .iter()
            .copied()
            .chain(std::iter::once(self.tours))
            .collect()
    }
}

/// One pass of a count of `board` (as `plan` turns it) with states and their ways held as `E`,
/// summed as `run` says: the first states (or those of a checkpoint), then one
/// [`Stepping::add_square`] a square, each row's end saved to the checkpoint, and progress told
/// after every square. An exact pass whose largest ways near their bits goes on in `E::Wide`
/// ([`FrontierOptions::widen`]), and resumes in it from a checkpoint written after it widened.
fn count_rows<E: Widens>(
    plan: &Plan,
    board: Board,
    closure: Closure,
    run: Run,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<Tally, CountError> {
    let mut count = Tally {
        peak_states: 1,
        ways_bits: E::WAYS_BITS,
        ..Tally::default()
    };
    if plan.n == 1 {
        count.tours = u128::from(!closure.is_closed());
        return Ok(count);
    }
    let stepping = Stepping {
        plan,
        board,
        closure,
        max_states: run.max_states,
        fold: run.fold,
        threads: rayon::current_num_threads().max(1),
        modulus: run.modulus,
        every_length: run.every_length,
    };
    let widens = can_widen::<E>() && run.modulus == Modulus::EXACT;
    let wide_id = identity::<E::Wide>(plan, closure, &run);
    let resumed_wide = widens
        && run
            .checkpoint
            .and_then(|path| checkpoint::status_of_pass(path, wide_id))
            .map(|s| s.ways_bits)
            == Some(E::Wide::WAYS_BITS);
    let wide = if resumed_wide {
        count.ways_bits = E::Wide::WAYS_BITS;
        let (square, states) = first_states::<E::Wide>(plan, &run, wide_id, &mut count)?;
        At::new(square, states, count)
    } else {
        let id = identity::<E>(plan, closure, &run);
        let (square, states) = first_states::<E>(plan, &run, id, &mut count)?;
        match rows_from(&stepping, &run, At::new(square, states, count), progress)? {
            Ended::Counted(count) => return Ok(count),
            Ended::Widen(at) => At {
                square: at.square,
                resumed_from: at.resumed_from,
                states: widen::widen(at.states, run.spill)
                    .map_err(|problem| CountError::FrontierSpill { problem })?,
                count: Tally {
                    ways_bits: E::Wide::WAYS_BITS,
                    ..at.count
                },
            },
        }
    };
    rows_from(&stepping, &run, wide, progress).map(Ended::counted)
}

/// What identifies the checkpoint of a pass that `run` runs with entries `E`.
fn identity<E: Entry>(plan: &Plan, closure: Closure, run: &Run) -> checkpoint::Identity {
    checkpoint::Identity {
        rows: plan.rows,
        cols: plan.cols,
        closed: closure.is_closed(),
        ways_bits: E::WAYS_BITS,
        fold: run.fold,
        every_length: run.every_length,
        modulus: run.modulus.0,
    }
}

/// Where a pass stands: before `square`, with its `states` and what it has counted, having
/// resumed before square `resumed_from` (0: from the beginning).
struct At<E> {
    square: usize,
    resumed_from: usize,
    states: States<E>,
    count: Tally,
}

impl<E> At<E> {
    fn new(square: usize, states: States<E>, count: Tally) -> Self {
        At {
            square,
            resumed_from: square,
            states,
            count,
        }
    }
}

/// How [`rows_from`] ended: every square added, or stopped before one to widen the ways.
enum Ended<E> {
    Counted(Tally),
    Widen(At<E>),
}

impl<E> Ended<E> {
    /// The tally of a pass that cannot widen again.
    fn counted(self) -> Tally {
        match self {
            Ended::Counted(count) => count,
            Ended::Widen(_) => unreachable!("the widest entries do not widen"),
        }
    }
}

/// The squares of a pass from `at` on, with entries `E`; stopped before a square whose states'
/// largest ways near their bits when `run` widens (and the wider states can be held).
fn rows_from<E: Widens>(
    stepping: &Stepping,
    run: &Run,
    at: At<E>,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<Ended<E>, CountError> {
    let plan = stepping.plan;
    let id = identity::<E>(plan, stepping.closure, run);
    let spilled = |problem| CountError::FrontierSpill { problem };
    let At {
        square,
        resumed_from,
        states: mut current,
        mut count,
    } = at;
    let mut headroom = run
        .widen
        .filter(|_| can_widen::<E>() && run.modulus == Modulus::EXACT);
    for i in square..plan.n {
        if let Some(bits) = headroom.filter(|_| !count.wrapped) {
            if widen::near_the_bits(&current, run.spill, bits).map_err(spilled)? {
                let needed = widen::widened_bytes(&current);
                if crate::memory::fits_in(needed, crate::memory::available_bytes()) {
                    let states = current;
                    let at = At {
                        square: i,
                        resumed_from,
                        states,
                        count,
                    };
                    return Ok(Ended::Widen(at));
                }
                // the wider states would not fit: the pass wraps, and primes' passes follow
                headroom = None;
            }
        }
        let (next, held, runs) = match (run.spill, current) {
            (Some(dir), current) => stepping.add_square_spilled(i, current, dir, &mut count)?,
            (None, States::Memory(lists)) => {
                let (next, held) = stepping.add_square(i, lists, &mut count)?;
                (States::Memory(next), held, 0)
            }
            (None, States::Disk(_)) => unreachable!("states are written to disk only by a spill"),
        };
        current = next;
        count.peak_states = count.peak_states.max(held);
        count.runs += runs;
        if let Some(path) = run.checkpoint.filter(|_| plan.steps[i].row_end) {
            if count.wrapped && run.modulus == Modulus::EXACT {
                // the last checkpoint that has not wrapped is where the primes' passes begin
                checkpoint::keep_base(path, id)?;
            }
            let carried = Carried {
                done: run.done.to_vec(),
                lengths: count.lengths.clone(),
                wrapped: count.wrapped,
            };
            let (transitions, peak) = (count.transitions, count.peak_states);
            let reached = (i + 1, transitions, peak);
            checkpoint::write(path, id, reached, &current, run.spill, &carried)?;
        }
        let mut told = FrontierProgress::after(plan, i, held, run, resumed_from, E::WAYS_BITS);
        told.spilled_runs = runs;
        told.from_base = count.from_base;
        progress(&told);
    }
    Ok(Ended::Counted(count))
}

/// The states a pass starts from, and the square they stand before: the empty board's one state
/// (every cell of the window `DONE`: virtual squares before the board), or the states of
/// `run`'s checkpoint when it holds this pass's (`count` then takes what it had reached), read
/// into memory, or as they come into a file past half the bound when the count spills.
fn first_states<E: Entry>(
    plan: &Plan,
    run: &Run,
    id: checkpoint::Identity,
    count: &mut Tally,
) -> Result<(usize, States<E>), CountError> {
    let w = plan.w;
    debug_assert!(w < E::Key::CELLS && w < CELLS);
    let empty = States::Memory(vec![vec![E::new(
        E::Key::pack(&[DONE; CELLS], 0, w),
        E::Ways::ONE,
    )]]);
    let Some(path) = run.checkpoint else {
        return Ok((0, empty));
    };
    // a pass modulo a prime starts from the exact pass's base (its states before a sum wrapped)
    // where that stands further on than the pass's own checkpoint
    let from_base = run.modulus != Modulus::EXACT
        && checkpoint::base_squares(path, id).is_some_and(|base| {
            checkpoint::status_of_pass(path, id).map_or(0, |own| own.squares) < base
        });
    if !from_base && !path.exists() {
        return Ok((0, empty));
    }
    let read = |expect: &mut dyn FnMut(usize), push: &mut dyn FnMut(E) -> _| {
        if from_base {
            checkpoint::read_base::<E>(path, id, run.modulus.0, expect, push)
        } else {
            checkpoint::read::<E>(path, id, expect, push)
        }
    };
    let (read, states) = match run.spill {
        None => {
            let list = std::cell::RefCell::new(Vec::new());
            let mut reserve = |n| list.borrow_mut().reserve_exact(n);
            let read = read(&mut reserve, &mut |e| {
                list.borrow_mut().push(e);
                Ok(())
            });
            (read, Ok(States::Memory(vec![list.into_inner()])))
        }
        Some(dir) => {
            let mut sink = Sink::new(dir, dir.entries(std::mem::size_of::<E>()) / 2);
            let read = read(&mut |_| {}, &mut |e| sink.push(e));
            (read, sink.finish())
        }
    };
    match read {
        Ok(reached) => {
            count.transitions = reached.transitions;
            count.peak_states = reached.peak_states;
            count.lengths = reached.carried.lengths;
            count.wrapped = reached.carried.wrapped;
            count.from_base = from_base;
            let states = states.map_err(|problem| CountError::FrontierSpill { problem })?;
            Ok((reached.squares, states))
        }
        // a checkpoint of another pass or other entries: this pass counts from the start
        Err(checkpoint::Unreadable::OtherEntries) => Ok((0, empty)),
        Err(checkpoint::Unreadable::Refused(problem)) => {
            Err(CountError::FrontierCheckpoint { problem })
        }
        Err(checkpoint::Unreadable::Spill(problem)) => Err(CountError::FrontierSpill { problem }),
    }
}

impl FrontierProgress {
    /// Progress after square `i` of `plan`, `held` states now, in a pass of `ways_bits`-bit ways
    /// that `run` runs and that resumed before square `start` (0: from the beginning).
    fn after(plan: &Plan, i: usize, held: usize, run: &Run, start: usize, ways_bits: u32) -> Self {
        FrontierProgress {
            elapsed: run.began.elapsed(),
            ..Self::at(plan, i, held, run.pass, run.modulus, start, ways_bits)
        }
    }

    /// Progress after square `i` of `plan`, `held` states now, in pass `pass` (modulo `modulus`) of
    /// `ways_bits`-bit ways that resumed before square `start`; no time elapsed yet.
    fn at(
        plan: &Plan,
        i: usize,
        held: usize,
        pass: u32,
        modulus: Modulus,
        start: usize,
        ways_bits: u32,
    ) -> Self {
        let cols = plan.cols as usize;
        FrontierProgress {
            squares_done: i as u32 + 1,
            squares: plan.n as u32,
            rows_done: ((i + 1) / cols) as u32,
            rows: plan.rows,
            row_end: (i + 1) % cols == 0,
            states: held,
            elapsed: Duration::ZERO,
            ways_bits,
            pass,
            modulus: modulus.0,
            resumed_from: start as u32,
            from_base: false,
            spilled_runs: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unlimited(fold: bool) -> Run<'static> {
        Run::unlimited(fold)
    }

    fn big(x: u128) -> BigUint {
        BigUint::from(x)
    }

    #[test]
    fn small_known_counts() {
        let b = |r, c| Board::new(r, c).unwrap();
        let count = |board, closure| count_frontier(board, closure).unwrap();
        assert_eq!(count(b(1, 1), Closure::Open).undirected, big(1));
        assert_eq!(count(b(1, 1), Closure::Closed).undirected, big(0));
        assert_eq!(count(b(3, 4), Closure::Open).directed(), big(16));
        let five = count(b(5, 5), Closure::Open);
        assert_eq!((five.directed(), five.passes), (big(1728), 1));
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
            (r.tours, r.peak_states, r.transitions, states)
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
            (r.tours, ends)
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

    /// The count of a board whose ways pass their bits: `u128` ways (a pass that fits them), and
    /// the exact pass gone on wrapping then passes modulo primes, recombined.
    fn past_the_ways(board: Board, closure: Closure, primes: PrimeSet) -> (u128, FrontierCount) {
        let (rows, cols) = (board.rows(), board.cols());
        let plan = Plan::new(rows.max(cols), rows.min(cols));
        let wide =
            count_rows::<Pair<u64, u128>>(&plan, board, closure, unlimited(true), &mut |_| {});
        let wide = wide.unwrap();
        assert!(!wide.wrapped, "{board}");
        // the primes' passes follow the exact one that wraps, not one that widens first
        let options = FrontierOptions {
            primes,
            widen: false,
            ..FrontierOptions::default()
        };
        let passes = count_frontier_opts(board, closure, &options, &mut |_| {}).unwrap();
        (wide.tours, passes)
    }

    /// A count past the states' 64 (or 60) bits of ways runs again modulo primes, as many as the
    /// bound needs, and the residues give the count the `u128` ways give (3 x 40 open tours pass
    /// 2^64 undirected; 5 x 20 closed tours' partial ways do); two sets of primes give the same.
    #[test]
    fn counts_past_the_ways_bits_equal_the_u128_count_under_any_primes() {
        let b = |r, c| Board::new(r, c).unwrap();
        for (board, closure) in [(b(3, 40), Closure::Open), (b(5, 20), Closure::Closed)] {
            let (wide, first) = past_the_ways(board, closure, PrimeSet::default());
            let (_, second) = past_the_ways(board, closure, PrimeSet { bits: 59, skip: 3 });
            assert!(
                wide > u128::from(u64::MAX) || closure.is_closed(),
                "{board}"
            );
            assert!(first.passes > 1, "{board}: {} passes", first.passes);
            assert_eq!(first.undirected, big(wide), "{board}");
            assert_eq!(second.undirected, big(wide), "{board}");
        }
        // the 8-wide boards' entries (60-bit ways) do the same: 8 x 12 open passes 2^60 at once
        let plan = Plan::new(40, 3);
        let packed =
            count_rows::<Packed68>(&plan, b(3, 40), Closure::Open, unlimited(true), &mut |_| {});
        assert!(packed.unwrap().wrapped);
    }

    /// Small primes make many passes on boards of a second, each prime far below the count: the
    /// residues recombine to the exact count, whichever primes.
    #[test]
    fn many_small_primes_recombine_to_the_exact_count() {
        let b = |r, c| Board::new(r, c).unwrap();
        for (board, closure) in [(b(6, 5), Closure::Open), (b(8, 5), Closure::Closed)] {
            let exact = count_frontier(board, closure).unwrap();
            assert_eq!(exact.passes, 1);
            for primes in [
                PrimeSet { bits: 12, skip: 0 },
                PrimeSet { bits: 9, skip: 7 },
            ] {
                let options = FrontierOptions {
                    primes,
                    ..FrontierOptions::default()
                };
                // the exact pass skipped: a checkpoint-free count modulo primes only
                let plan = Plan::new(
                    board.rows().max(board.cols()),
                    board.rows().min(board.cols()),
                );
                let modular = passes::modular_only(&plan, board, closure, &options);
                assert!(modular.1 > 3, "{board} {primes:?}: {} passes", modular.1);
                assert_eq!(modular.0, exact.undirected, "{board} {primes:?}");
            }
        }
    }
    /// A count stopped after some rows resumes from its checkpoint to the count from scratch, with
    /// the same transitions and peak; the file is gone at the end. Another count's file, a damaged
    /// one and one that is no checkpoint are refused and left as they were; a count of several
    /// passes resumes in the pass it stopped in.
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
        // a count of several passes, stopped in its second prime's, resumes there with the
        // residues of the passes before (the primes' passes at once, the ways not widened)
        std::fs::remove_file(&path).unwrap();
        let long = Board::new(3, 40).unwrap();
        let saved = dir.path().join("saved.ckpt");
        let mut save = |p: &FrontierProgress| {
            if (p.pass, p.rows_done, p.row_end) == (2, 39, true) {
                std::fs::copy(&path, &saved).unwrap();
            }
        };
        let primes = FrontierOptions {
            checkpoint: Some(&path),
            widen: false,
            ..FrontierOptions::default()
        };
        let full = count_frontier_opts(long, Closure::Open, &primes, &mut save).unwrap();
        assert!(full.passes >= 3 && !path.exists());
        std::fs::copy(&saved, &path).unwrap();
        let mut first = None;
        let resumed = count_frontier_opts(long, Closure::Open, &primes, &mut |p| {
            first.get_or_insert((p.pass, p.resumed_from));
        })
        .unwrap();
        assert_eq!(first, Some((2, 117)));
        assert_eq!(
            (resumed.undirected, resumed.passes),
            (full.undirected, full.passes)
        );
    }

    /// With a checkpoint, the primes' passes start from the exact pass's last checkpoint before a
    /// sum wrapped (its base), reduced, and give the count the passes from the empty board give
    /// (no checkpoint): 3 x 40 open in 64-bit ways, and 3 x 1..=100 open, whose ways widen to 128
    /// bits and wrap there (the lengths before the base carried, reduced). Each prime's pass
    /// starts at the same square, past the first row, and generates fewer transitions; the base is
    /// gone at the end. A count stopped in a prime's pass past the base resumes from that pass's
    /// own checkpoint, and a pass whose own checkpoint stands before the base starts at the base.
    #[test]
    fn the_primes_passes_start_from_the_exact_base() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count.ckpt");
        let base = checkpoint::base_path(&path);
        let starts = |options: &FrontierOptions, lengths: bool| {
            let board = Board::new(3, if lengths { 100 } else { 40 }).unwrap();
            let mut starts = Vec::new();
            let mut tell = |p: &FrontierProgress| {
                if p.pass > 0 && starts.len() < p.pass as usize {
                    assert_eq!(p.from_base, p.resumed_from > 0);
                    starts.push(p.resumed_from);
                }
            };
            let count = if lengths {
                let s = count_lengths(board, Closure::Open, options, &mut tell).unwrap();
                (s.undirected, s.passes, s.transitions)
            } else {
                let c = count_frontier_opts(board, Closure::Open, options, &mut tell).unwrap();
                (vec![c.undirected], c.passes, c.transitions)
            };
            (count, starts)
        };
        for (widen, lengths) in [(false, false), (true, true)] {
            let scratch = FrontierOptions {
                widen,
                ..FrontierOptions::default()
            };
            let saved = FrontierOptions {
                checkpoint: Some(&path),
                ..scratch
            };
            let ((want, passes, all), from_scratch) = starts(&scratch, lengths);
            let ((got, passes_saved, fewer), from_base) = starts(&saved, lengths);
            assert!(passes > 1 && from_scratch.iter().all(|&s| s == 0));
            assert_eq!((&got, passes_saved), (&want, passes), "widen {widen}");
            assert_eq!(from_base.len() as u32, passes - 1);
            assert!(from_base[0] > 3 && from_base.iter().all(|&s| s == from_base[0]));
            assert!(fewer < all, "{fewer} transitions against {all}");
            assert!(!path.exists() && !base.exists());
        }
        // stopped in the first prime's pass, a row past the base, and resumed
        let long = Board::new(3, 40).unwrap();
        let narrow = FrontierOptions {
            checkpoint: Some(&path),
            widen: false,
            ..FrontierOptions::default()
        };
        let full = count_frontier_opts(long, Closure::Open, &narrow, &mut |_| {}).unwrap();
        let mut stop_at = None;
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            count_frontier_opts(long, Closure::Open, &narrow, &mut |p| {
                if p.pass == 1 && p.row_end {
                    let at = *stop_at.get_or_insert(p.squares_done + 3);
                    assert!(p.squares_done < at, "stopped");
                }
            })
        }));
        assert!(stopped.is_err() && path.exists() && base.exists());
        let own = checkpoint_status(&path).unwrap();
        assert_eq!(
            (own.modulus > 0, own.squares),
            (true, stop_at.unwrap() as usize)
        );
        let mut first = None;
        let resumed = count_frontier_opts(long, Closure::Open, &narrow, &mut |p| {
            first.get_or_insert((p.pass, p.resumed_from, p.from_base));
        })
        .unwrap();
        assert_eq!(first, Some((1, own.squares as u32, false)));
        assert_eq!(resumed.undirected, full.undirected);
        assert!(!path.exists() && !base.exists());
        // a prime's pass whose own checkpoint stands before the base (the base was away as the
        // pass began, so it began from the empty board) starts at the base once it is back
        let away = dir.path().join("away.exact");
        let early = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            count_frontier_opts(long, Closure::Open, &narrow, &mut |p| {
                if p.pass == 0 && p.squares_done == p.squares {
                    std::fs::rename(&base, &away).unwrap();
                }
                assert!(!(p.pass == 1 && p.row_end && p.rows_done == 2), "stopped");
            })
        }));
        assert!(early.is_err());
        std::fs::rename(&away, &base).unwrap();
        let status = checkpoint_status(&path).unwrap();
        let at_base = status.base_squares.unwrap();
        assert_eq!((status.modulus > 0, status.squares), (true, 6));
        assert!(status.squares < at_base);
        let mut first = None;
        let resumed = count_frontier_opts(long, Closure::Open, &narrow, &mut |p| {
            first.get_or_insert((p.pass, p.resumed_from, p.from_base));
        })
        .unwrap();
        assert_eq!(first, Some((1, at_base as u32, true)));
        assert_eq!(resumed.undirected, full.undirected);
        assert!(!path.exists() && !base.exists());
    }

    /// An exact pass whose ways wrapped before its checkpoint still knows it when resumed: from
    /// every row's checkpoint of 3 x 40 open's exact pass (its ways pass 64 bits), the resumed
    /// count goes on modulo primes and gives the count from scratch. A checkpoint written without
    /// the flag (older files) is taken as wrapped: the resumed count takes the primes' passes and
    /// still gives the exact count, where one that did not wrap needs none (4 x 12 open, whose
    /// bound, 70 bits, passes the ways' 64 and asks for a prime once the exact pass wrapped).
    #[test]
    fn a_resumed_exact_pass_remembers_that_it_wrapped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count.ckpt");
        let long = Board::new(3, 40).unwrap();
        // the exact pass wraps where it does not widen its ways first
        let narrow = FrontierOptions {
            checkpoint: Some(&path),
            widen: false,
            ..FrontierOptions::default()
        };
        let full = count_frontier_opts(long, Closure::Open, &narrow, &mut |_| {}).unwrap();
        assert!(full.passes > 1);
        let mut saved = Vec::new();
        let mut save = |p: &FrontierProgress| {
            if (p.pass, p.ways_bits) == (0, 64) && p.row_end && p.rows_done < p.rows {
                let copy = dir.path().join(format!("row{}.ckpt", p.rows_done));
                std::fs::copy(&path, &copy).unwrap();
                saved.push(copy);
            }
        };
        count_frontier_opts(long, Closure::Open, &narrow, &mut save).unwrap();
        assert_eq!(saved.len(), 39);
        for copy in &saved {
            std::fs::copy(copy, &path).unwrap();
            let resumed = count_frontier_opts(long, Closure::Open, &narrow, &mut |_| {}).unwrap();
            assert_eq!(resumed.undirected, full.undirected, "from {copy:?}");
        }
        // a header without the flag: the last row's checkpoint of a count that never wraps
        let board = Board::new(4, 12).unwrap();
        let exact = count_frontier(board, Closure::Open).unwrap();
        assert_eq!(exact.passes, 1);
        let mut last = None;
        let mut keep = |p: &FrontierProgress| {
            if p.row_end && p.rows_done + 1 == p.rows {
                std::fs::copy(&path, dir.path().join("last-row.ckpt")).unwrap();
                last = Some(p.rows_done);
            }
        };
        count_frontier_resumable(board, Closure::Open, usize::MAX, Some(&path), &mut keep).unwrap();
        assert!(last.is_some());
        let bytes = std::fs::read(dir.path().join("last-row.ckpt")).unwrap();
        let newline = bytes.iter().position(|&b| b == b'\n').unwrap();
        let header = String::from_utf8(bytes[..newline].to_vec()).unwrap();
        for (flag, wraps) in [(" wrapped=0", false), (" wrapped=1", true), ("", true)] {
            let header = header.replace(" wrapped=0", flag);
            let mut edited = header.into_bytes();
            edited.extend_from_slice(&bytes[newline..]);
            std::fs::write(&path, &edited).unwrap();
            let resumed = count_frontier_resumable(
                board,
                Closure::Open,
                usize::MAX,
                Some(&path),
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(resumed.undirected, exact.undirected, "{flag:?}");
            assert_eq!(
                resumed.passes > 1,
                wraps,
                "{flag:?}: {} passes",
                resumed.passes
            );
        }
    }

    /// What a checkpoint settles is what the count gives: from every row's checkpoint of every
    /// pass of 3 x 1..40 open (its ways pass 64 bits, so primes' passes follow), each length
    /// `--status` calls settled equals the sequence's term: every length so far while the exact
    /// pass has not wrapped; once it has, only the short lengths (bounds below 64 bits, so their
    /// residues are their counts); the long ones with a prime's residues, settled lengths never
    /// shrinking from one of the primes' checkpoints to the next.
    #[test]
    fn a_checkpoint_settles_the_lengths_its_moduli_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count.ckpt");
        let board = Board::new(3, 40).unwrap();
        let mut saved = Vec::new();
        let mut save = |p: &FrontierProgress| {
            if p.row_end && p.rows_done < p.rows {
                let copy = dir.path().join(format!("{}-{}.ckpt", p.pass, p.rows_done));
                std::fs::copy(&path, &copy).unwrap();
                saved.push((p.pass, copy));
            }
        };
        // the primes' passes at once (widening is `a_count_that_widens_in_flight_...`'s)
        let options = FrontierOptions {
            checkpoint: Some(&path),
            widen: false,
            ..FrontierOptions::default()
        };
        let sequence = count_lengths(board, Closure::Open, &options, &mut save).unwrap();
        assert!(sequence.passes > 1);
        let past_64 = (1..=40).find(|&n| bound_bits(n, 3, false) > 64.0).unwrap();
        let (mut before, mut wrapped_exact, mut in_primes) = (0, 0, 0);
        for (pass, copy) in &saved {
            let status = checkpoint_status(copy).unwrap();
            let settled = status.settled();
            for s in &settled {
                assert_eq!(
                    s.value,
                    sequence.undirected[s.rows as usize - 1],
                    "{copy:?}"
                );
                assert!(s.bits > s.bound);
            }
            let longest = settled.iter().map(|s| s.rows).max().unwrap_or(0);
            if *pass == 0 && !status.wrapped {
                assert_eq!(longest as usize, status.lengths.len(), "{copy:?}");
            } else if *pass == 0 {
                wrapped_exact = longest;
            } else {
                assert!(longest >= before, "{copy:?}: {longest} after {before}");
                before = longest;
                in_primes = longest;
            }
        }
        assert_eq!(wrapped_exact + 1, past_64);
        assert!(in_primes >= 39, "{in_primes}");
    }

    /// Residues that disagree are refused, not recombined into a wrong count: a checkpoint of 3 x
    /// 1..40 open in its first prime's pass, whose header's exact-pass residue of one length is
    /// changed by one, resumes to [`CountError::ResiduesPastBound`] for that length; unchanged, it
    /// resumes to the sequence.
    #[test]
    fn residues_that_disagree_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count.ckpt");
        let copy = dir.path().join("prime.ckpt");
        let board = Board::new(3, 40).unwrap();
        let mut kept = false;
        let mut keep = |p: &FrontierProgress| {
            if p.pass == 1 && p.row_end && p.rows_done == 39 {
                std::fs::copy(&path, &copy).unwrap();
                kept = true;
            }
        };
        // the primes' passes at once (widening is `a_count_that_widens_in_flight_...`'s)
        let options = FrontierOptions {
            checkpoint: Some(&path),
            widen: false,
            ..FrontierOptions::default()
        };
        let sequence = count_lengths(board, Closure::Open, &options, &mut keep).unwrap();
        assert!(kept);
        let bytes = std::fs::read(&copy).unwrap();
        let newline = bytes.iter().position(|&b| b == b'\n').unwrap();
        let header = String::from_utf8(bytes[..newline].to_vec()).unwrap();
        // the exact pass's residues, `done=M:R/R/..`, the 20th of which is 3 x 20's count
        let done = header.split(' ').find(|f| f.starts_with("done=")).unwrap();
        let (modulus, residues) = done["done=".len()..].split_once(':').unwrap();
        let mut residues: Vec<u128> = residues
            .split(',')
            .next()
            .unwrap()
            .split('/')
            .map(|r| r.parse().unwrap())
            .collect();
        assert_eq!(BigUint::from(residues[19]), sequence.undirected[19]);
        for (change, refused) in [(0, false), (1, true)] {
            residues[19] += change;
            let text: Vec<String> = residues.iter().map(u128::to_string).collect();
            let edited = header.replace(done, &format!("done={modulus}:{}", text.join("/")));
            let mut file = edited.into_bytes();
            file.extend_from_slice(&bytes[newline..]);
            std::fs::write(&path, &file).unwrap();
            let resumed = count_lengths(board, Closure::Open, &options, &mut |_| {});
            match resumed {
                Ok(again) => {
                    assert!(!refused);
                    assert_eq!(again.undirected, sequence.undirected);
                }
                Err(CountError::ResiduesPastBound { length, .. }) => {
                    assert!(refused);
                    assert_eq!(length, 20);
                }
                Err(other) => panic!("{other}"),
            }
        }
    }

    /// An exact pass whose largest ways near 2^64 widens them in flight: 3 x 40 open (its count
    /// between 2^64 and 2^128) takes one pass where the primes take three, and every length of
    /// 3 x 1..100 open (past 2^128 from 3 x 74: the widened pass wraps, then the primes) is what
    /// the primes alone give, in one pass fewer. From every 7th row's checkpoint after the
    /// widening, of the exact pass and of the primes' after it, the count resumes (in 128-bit
    /// ways where it widened) to the same sequence, and each length `--status` settles there is
    /// the sequence's.
    #[test]
    fn a_count_that_widens_in_flight_counts_what_the_primes_count() {
        let options = |widen| FrontierOptions {
            widen,
            ..FrontierOptions::default()
        };
        let b = |r, c| Board::new(r, c).unwrap();
        let mut widened_at = None;
        let mut note = |p: &FrontierProgress| {
            if p.ways_bits == 128 {
                widened_at.get_or_insert(p.squares_done);
            }
        };
        let wider = count_frontier_opts(b(3, 40), Closure::Open, &options(true), &mut note);
        let primes = count_frontier_opts(b(3, 40), Closure::Open, &options(false), &mut |_| {});
        let (wider, primes) = (wider.unwrap(), primes.unwrap());
        assert_eq!(wider.undirected, primes.undirected);
        assert_eq!((wider.passes, primes.passes), (1, 3));
        assert!(wider.undirected.bits() > 64 && wider.undirected.bits() <= 128);
        assert!(widened_at.is_some_and(|square| square > 3 && square < 120));

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count.ckpt");
        let long = b(3, 100);
        let mut saved = Vec::new();
        let mut save = |p: &FrontierProgress| {
            if p.row_end && p.rows_done < p.rows && (p.ways_bits == 128 || p.pass > 0) {
                let copy = dir
                    .path()
                    .join(format!("{}-{}-{}.ckpt", p.ways_bits, p.pass, p.rows_done));
                std::fs::copy(&path, &copy).unwrap();
                saved.push(copy);
            }
        };
        let with_path = FrontierOptions {
            checkpoint: Some(&path),
            ..options(true)
        };
        let sequence = count_lengths(long, Closure::Open, &with_path, &mut save).unwrap();
        let alone = count_lengths(long, Closure::Open, &options(false), &mut |_| {}).unwrap();
        assert_eq!(sequence.undirected, alone.undirected);
        assert_eq!(sequence.passes + 1, alone.passes);
        assert!(sequence.undirected[99].bits() > 128);
        assert!(saved.len() > 99, "{} checkpoints", saved.len());
        for copy in saved.iter().step_by(7) {
            for s in checkpoint_status(copy).unwrap().settled() {
                assert_eq!(
                    s.value,
                    sequence.undirected[s.rows as usize - 1],
                    "{copy:?}"
                );
                assert!(s.agrees);
            }
            std::fs::copy(copy, &path).unwrap();
            let resumed = count_lengths(long, Closure::Open, &with_path, &mut |_| {}).unwrap();
            assert_eq!(resumed.undirected, sequence.undirected, "from {copy:?}");
            assert_eq!(resumed.passes, sequence.passes, "from {copy:?}");
        }
    }

    /// Widening as early as it can (once any ways reach 2) changes no count, no transitions and
    /// no states: on an 8-wide board (60-bit ways to 128-bit ones beside a 68-bit key, 16-byte
    /// entries to 32) and a narrow one (64 to 128 bits), in memory and spilled to disk under a
    /// bound of 2 MiB, and resumed from every row's checkpoint after the widening.
    #[test]
    fn widening_early_changes_no_count() {
        fn counted<E: Widens>(
            board: Board,
            closure: Closure,
            early: bool,
            spill: Option<&SpillDir>,
            checkpoint: Option<&Path>,
            rows_ended: &mut Vec<(u32, u32, usize)>,
        ) -> (u128, u64, usize) {
            let plan = Plan::new(board.rows(), board.cols());
            let run = Run {
                widen: early.then_some(E::WAYS_BITS - 1),
                spill,
                checkpoint,
                ..Run::unlimited(true)
            };
            let mut note = |p: &FrontierProgress| {
                if p.row_end {
                    rows_ended.push((p.rows_done, p.ways_bits, p.states));
                }
            };
            let t = count_rows::<E>(&plan, board, closure, run, &mut note).unwrap();
            assert!(!t.wrapped);
            (t.tours, t.transitions, t.peak_states)
        }
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("count.ckpt");
        let b = |r, c| Board::new(r, c).unwrap();
        for (board, closure, wide) in [
            (b(8, 4), Closure::Open, true),
            (b(8, 4), Closure::Closed, true),
            (b(7, 5), Closure::Open, false),
        ] {
            let run = |early, spill: Option<&SpillDir>, checkpoint, ends: &mut Vec<_>| {
                if wide {
                    counted::<Packed68>(board, closure, early, spill, checkpoint, ends)
                } else {
                    counted::<Pair<u64, u64>>(board, closure, early, spill, checkpoint, ends)
                }
            };
            let mut plain_ends = Vec::new();
            let plain = run(false, None, None, &mut plain_ends);
            let memory = 2 << 20;
            let dir = SpillDir::create(
                &Spill {
                    memory,
                    temp: temp.path(),
                },
                32,
                32,
            )
            .unwrap();
            for spill in [None, Some(&dir)] {
                let mut ends = Vec::new();
                let widened = run(true, spill, Some(&path), &mut ends);
                assert_eq!(
                    widened,
                    plain,
                    "{board} {closure:?} spilled {}",
                    spill.is_some()
                );
                // the same states after every row, the first rows' in narrow ways
                let states = |e: &Vec<(u32, u32, usize)>| -> Vec<usize> {
                    e.iter().map(|&(_, _, n)| n).collect()
                };
                assert_eq!(states(&ends), states(&plain_ends));
                assert!(ends.iter().any(|&(_, bits, _)| bits == 128));
                assert!(ends[0].1 < 128);
                // `count_rows` leaves its last checkpoint: the next count must not resume it
                std::fs::remove_file(&path).unwrap();
            }
            // resumed from each row's checkpoint after the widening
            let mut rows = Vec::new();
            let mut keep = |p: &FrontierProgress| {
                if p.row_end && p.ways_bits == 128 && p.rows_done < p.rows {
                    let copy = temp.path().join(format!("row{}.ckpt", p.rows_done));
                    std::fs::copy(&path, &copy).unwrap();
                    rows.push(copy);
                }
            };
            let plan = Plan::new(board.rows(), board.cols());
            let run_with = Run {
                widen: Some(if wide { 59 } else { 63 }),
                checkpoint: Some(&path),
                ..Run::unlimited(true)
            };
            let plain_again = if wide {
                count_rows::<Packed68>(&plan, board, closure, run_with, &mut keep)
            } else {
                count_rows::<Pair<u64, u64>>(&plan, board, closure, run_with, &mut keep)
            };
            assert_eq!(plain_again.unwrap().tours, plain.0);
            assert!(!rows.is_empty());
            for copy in &rows {
                for spill in [None, Some(&dir)] {
                    std::fs::copy(copy, &path).unwrap();
                    let mut ends = Vec::new();
                    let resumed = run(true, spill, Some(&path), &mut ends);
                    assert_eq!(resumed.0, plain.0, "{board} from {copy:?}");
                    assert!(ends.iter().all(|&(_, bits, _)| bits == 128));
                }
            }
            std::fs::remove_file(&path).unwrap();
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
        assert_eq!(state_bytes(8), 16);
        assert_eq!(state_bytes(7), 16);
    }
}
