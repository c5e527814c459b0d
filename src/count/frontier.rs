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
//! States with their multiplicities (`u64` state, `u128` count) live in a sorted list per step; a step
//! reads the current list in order and gathers the next one in batches that are sorted, summed and
//! merged (`Gather`): 24 bytes a state, where a hash map took 40 to 80 and ran out of memory on
//! 7x7. Open tours are counted undirected (a path and its reverse once; directed = 2x), closed tours
//! as undirected cycles, as OEIS counts them.
//!
//! # ADVICE FOR HACKERS
//! - Cell `k` (bits `4k..4k+4`) of a state holds square `i - W + k` while square `i` is being added;
//!   during the step the new square sits at position `W`, and afterwards position 0 (square `i - W`,
//!   whose last neighbour is `i`) must be finalized, so the state is shifted down by one cell.
//!   `W + 1 <= 16` cells fit in a `u64`, hence [`MAX_WIDTH`] = 7.
//! - Labels are canonical (3, 4, ... by first appearance over the window) after every step; `FRESH`
//!   (15) is a temporary label for a new piece and never survives `normalize`. At most 8 pieces fit
//!   in 16 cells, so real labels stay below 11.
//! - A cell is `DONE` exactly when it can take no more edges. Finalizing a square changes only its own
//!   cell and, for a degree-1 square becoming a terminal, its partner's (label -> `TAIL`). Anything that
//!   changes the meaning of a cell must keep the "number of terminals = number of `TAIL` cells"
//!   invariant, or store the terminal count explicitly.
//! - The slow twin is the backtracking engine: the tests compare the two on every board up to 6x6 and
//!   on long 3 x n and 4 x n boards.

use super::{CountError, Counted, Orientation, Wrapped};
use crate::board::Board;
use crate::board::Closure;
use rayon::slice::ParallelSliceMut;
use std::time::{Duration, Instant};

/// The widest board (shorter side) the frontier counter handles: `2 * 7 + 2 = 16` cells of 4 bits
/// fill a `u64`.
pub const MAX_WIDTH: u32 = 7;

const EMPTY: u8 = 0;
const DONE: u8 = 1;
const TAIL: u8 = 2;
const FIRST_LABEL: u8 = 3;
const FRESH: u8 = 15;

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

/// Progress after each board row (of the transposed board), for [`count_frontier_with`].
#[derive(Clone, Copy, Debug)]
pub struct FrontierProgress {
    /// Rows done.
    pub rows_done: u32,
    /// Rows in all.
    pub rows: u32,
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

/// [`count_frontier`], calling `progress` after every row, and giving up with
/// [`CountError::TooManyStates`] as soon as one step holds more than `max_states` states (each costs
/// 24 bytes, in the lists of two consecutive steps, plus a sorting batch of 384 MiB at most), or with
/// [`CountError::Overflow`] when a sum of ways passes `u128::MAX` (3 x 75 open, 5 x 42 closed).
pub fn count_frontier_with(
    board: Board,
    closure: Closure,
    max_states: usize,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<FrontierCount, CountError> {
    let began = Instant::now();
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
    // the transitions below test it at every cell: one flag, read once
    let closed = closure.is_closed();
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
    let plan = Plan::new(rows, cols);
    let w = plan.w;
    // Every cell of the window starts DONE: virtual squares before the board.
    let mut current = vec![Entry::new(pack(&[DONE; 16], 0, w), 1)];
    let n = plan.n;
    // Set when the tours completed so far wrapped; checked once a step, off the hot loop.
    let mut tours_wrapped = false;
    for i in 0..n {
        let last = i + 1 == n;
        let mut next = Gather::new(current.len());
        let step = &plan.steps[i];
        for entry in &current {
            let (state, ways) = (entry.state, entry.ways());
            if next.distinct() > max_states {
                return Err(CountError::TooManyStates {
                    board,
                    max_states,
                    square: i as u32,
                });
            }
            let mut cells = [DONE; 17];
            for (k, cell) in cells.iter_mut().take(w).enumerate() {
                *cell = ((state >> (4 * k)) & 0xF) as u8;
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
            let mut emit = |c: &mut [u8; 17], outcome: Outcome| {
                result.transitions += 1;
                match outcome {
                    Outcome::Dead => {}
                    Outcome::Complete => {
                        add_wrapping(&mut result.undirected, ways, &mut tours_wrapped)
                    }
                    Outcome::Continue if last => {
                        if !closed && final_is_path(&c[..=w], &step.terminal_ok) {
                            add_wrapping(&mut result.undirected, ways, &mut tours_wrapped);
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
                        next.add(pack(c, 1, w), ways);
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
        // the states of this step are no longer needed while the next ones are sorted
        drop(current);
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
        current = next.finish().map_err(|Wrapped| CountError::Overflow {
            board,
            what: Counted::Partial { square: i as u32 },
            bits: 128,
        })?;
        if current.len() > max_states {
            return Err(CountError::TooManyStates {
                board,
                max_states,
                square: i as u32,
            });
        }
        result.peak_states = result.peak_states.max(current.len());
        if (i + 1) % cols as usize == 0 {
            progress(&FrontierProgress {
                rows_done: ((i + 1) / cols as usize) as u32,
                rows,
                states: current.len(),
                elapsed: began.elapsed(),
            });
        }
    }
    result.elapsed = began.elapsed();
    Ok(result)
}

/// `*sum += more`, wrapping, and remembering in `wrapped` that it did: a branch-free flag the caller
/// checks once a step keeps the hot loops as fast as unchecked sums.
#[inline(always)]
fn add_wrapping(sum: &mut u128, more: u128, wrapped: &mut bool) {
    let (total, carry) = sum.overflowing_add(more);
    *sum = total;
    *wrapped |= carry;
}

/// What adding a square's edges did to a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// An impossible partial tour.
    Dead,
    /// A complete tour (a cycle closed, or two terminals joined, at the last square).
    Complete,
    /// A partial tour to carry on.
    Continue,
}

/// The precomputed geometry of every step.
struct Plan {
    n: usize,
    w: usize,
    steps: Vec<Step>,
}

/// Positions (in the window of the step, new square at `w`) of one step's earlier neighbours and of
/// the squares finalized after it, and for every position the number of its square's edges still
/// undecided after the step.
struct Step {
    back: Vec<usize>,
    finalize: Vec<usize>,
    undecided: [u8; 17],
    /// Whether the square at each position may be an end of an open tour: on a board with an odd
    /// number of squares both ends are on the corners' colour (every move changes colour).
    terminal_ok: [bool; 17],
}

impl Plan {
    fn new(rows: u32, cols: u32) -> Self {
        let (rows, cols) = (rows as i64, cols as i64);
        let n = (rows * cols) as usize;
        let w = (2 * cols + 1) as usize;
        let on_board = |r: i64, c: i64| (0..rows).contains(&r) && (0..cols).contains(&c);
        // last[j]: the index after whose step square j has all its edges decided.
        let mut last: Vec<usize> = (0..n).collect();
        let mut steps: Vec<Step> = (0..n)
            .map(|_| Step {
                back: Vec::new(),
                finalize: Vec::new(),
                undecided: [0; 17],
                terminal_ok: [true; 17],
            })
            .collect();
        for (i, step) in steps.iter_mut().enumerate() {
            let (r, c) = (i as i64 / cols, i as i64 % cols);
            for (dr, dc) in [(-1, -2), (-1, 2), (-2, -1), (-2, 1)] {
                let (jr, jc) = (r + dr, c + dc);
                if on_board(jr, jc) {
                    let j = (jr * cols + jc) as usize;
                    step.back.push(w - (i - j));
                    last[j] = last[j].max(i);
                }
            }
        }
        for (j, &l) in last.iter().enumerate() {
            // Square j sits at position w - (l - j) during step l (l - j <= w by the geometry).
            steps[l].finalize.push(w - (l - j));
        }
        if n % 2 == 1 {
            for (i, step) in steps.iter_mut().enumerate() {
                for (p, ok) in step.terminal_ok.iter_mut().enumerate().take(w + 1) {
                    // Position p holds square i + p - w during step i.
                    if let Some(j) = (i + p).checked_sub(w) {
                        let (r, c) = (j as i64 / cols, j as i64 % cols);
                        *ok = (r + c) % 2 == 0;
                    }
                }
            }
        }
        // Edge j-i (j < i) is undecided for square j after steps j..i-1, during which square j sits
        // at position w - (s - j).
        let backs: Vec<Vec<usize>> = steps.iter().map(|s| s.back.clone()).collect();
        for (i, back) in backs.iter().enumerate() {
            for &p in back {
                let j = i - (w - p);
                for (s, step) in steps.iter_mut().enumerate().take(i).skip(j) {
                    step.undecided[w - (s - j)] += 1;
                }
            }
        }
        Plan { n, w, steps }
    }
}

/// The new square (at `w`) takes one edge to the cell at `j`.
fn one_edge(c: &mut [u8; 17], j: usize, w: usize) {
    match c[j] {
        EMPTY => {
            c[j] = FRESH;
            c[w] = FRESH;
        }
        end => {
            // TAIL or a label: the new square becomes that end.
            c[j] = DONE;
            c[w] = end;
        }
    }
}

/// The new square (at `w`) takes edges to the cells at `j` and `k`, becoming an interior square.
fn two_edges(c: &mut [u8; 17], j: usize, k: usize, w: usize, closed: bool, last: bool) -> Outcome {
    c[w] = DONE;
    let (a, b) = (c[j], c[k]);
    match (a, b) {
        (EMPTY, EMPTY) => {
            c[j] = FRESH;
            c[k] = FRESH;
        }
        (EMPTY, end) | (end, EMPTY) => {
            // The empty one becomes the other's end; the other is now interior.
            let (e, x) = if a == EMPTY { (j, k) } else { (k, j) };
            c[e] = end;
            c[x] = DONE;
        }
        (TAIL, TAIL) => {
            c[j] = DONE;
            c[k] = DONE;
            return complete_if(!closed && last && c.iter().all(|&x| x == DONE));
        }
        (TAIL, label) | (label, TAIL) => {
            c[j] = DONE;
            c[k] = DONE;
            relabel(c, label, TAIL);
        }
        (x, y) if x == y => {
            c[j] = DONE;
            c[k] = DONE;
            return complete_if(closed && last && c.iter().all(|&x| x == DONE));
        }
        (x, y) => {
            c[j] = DONE;
            c[k] = DONE;
            relabel(c, y, x);
        }
    }
    Outcome::Continue
}

fn complete_if(ok: bool) -> Outcome {
    if ok {
        Outcome::Complete
    } else {
        Outcome::Dead
    }
}

/// Change the (one remaining) cell holding `from` to `to`.
fn relabel(c: &mut [u8; 17], from: u8, to: u8) {
    for x in c.iter_mut() {
        if *x == from {
            *x = to;
            return;
        }
    }
    debug_assert!(false, "a label's partner is in the window");
}

/// Finalize the square at `p`: all its edges are decided. Returns whether the state survives.
fn finalize(c: &mut [u8; 17], p: usize, w: usize, closed: bool, terminal_ok: bool) -> bool {
    match c[p] {
        DONE => true,
        // Degree 0, or a terminal whose piece's other end is a terminal too, before the last square.
        EMPTY | TAIL => false,
        _ if closed || !terminal_ok => false,
        label => {
            // The square becomes a terminal; at most two terminals in all.
            if c[..=w].iter().filter(|&&x| x == TAIL).count() >= 2 {
                return false;
            }
            c[p] = DONE;
            relabel(c, label, TAIL);
            true
        }
    }
}

/// Whether every cell can still reach its degree: 2 for closed tours; for open tours 1, with at most
/// two terminals in all (the `TAIL` cells plus the empty cells with a single undecided edge left), and
/// 2 on squares that cannot be terminals.
fn feasible(c: &[u8; 17], step: &Step, w: usize, closed: bool) -> bool {
    let mut terminals = 0;
    for (p, &cell) in c.iter().enumerate().take(w + 1).skip(1) {
        let more = step.undecided[p];
        let have = match cell {
            DONE => continue,
            EMPTY => 0,
            TAIL => {
                terminals += 1;
                1
            }
            _ => 1,
        };
        if closed || !step.terminal_ok[p] {
            if have + more < 2 {
                return false;
            }
        } else if have + more < 1 {
            return false;
        } else if have == 0 && more == 1 {
            terminals += 1;
        }
    }
    terminals <= 2
}

/// After the last square: whether the cells form the end of a single open path, whose remaining
/// degree-1 squares may be terminals.
fn final_is_path(c: &[u8], terminal_ok: &[bool; 17]) -> bool {
    let mut ends = c.iter().enumerate().filter(|&(_, &x)| x != DONE);
    match (ends.next(), ends.next(), ends.next()) {
        (Some((p, &TAIL)), None, None) => terminal_ok[p],
        (Some((p, &x)), Some((q, &y)), None) => {
            x == y && x >= FIRST_LABEL && terminal_ok[p] && terminal_ok[q]
        }
        _ => false,
    }
}

/// Renumber labels 3, 4, ... in order of first appearance.
fn normalize(c: &mut [u8]) {
    let mut map = [0u8; 16];
    let mut next = FIRST_LABEL;
    for x in c.iter_mut() {
        if *x >= FIRST_LABEL {
            let slot = &mut map[*x as usize];
            if *slot == 0 {
                *slot = next;
                next += 1;
            }
            *x = *slot;
        }
    }
}

/// Pack `w` cells from `c[from..]`.
fn pack(c: &[u8], from: usize, w: usize) -> u64 {
    c[from..from + w]
        .iter()
        .enumerate()
        .fold(0, |s, (k, &x)| s | (x as u64) << (4 * k))
}

/// One frontier state and its number of partial tours, in 24 bytes (a `u128` field would align the
/// pair to 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    state: u64,
    ways: [u64; 2],
}

impl Entry {
    fn new(state: u64, ways: u128) -> Self {
        Entry {
            state,
            ways: [ways as u64, (ways >> 64) as u64],
        }
    }

    fn ways(&self) -> u128 {
        u128::from(self.ways[0]) | u128::from(self.ways[1]) << 64
    }

    /// Add `more` ways, wrapping; `wrapped` is set if the sum passed `u128::MAX`.
    fn add_ways(&mut self, more: u128, wrapped: &mut bool) {
        let mut ways = self.ways();
        add_wrapping(&mut ways, more, wrapped);
        *self = Entry::new(self.state, ways);
    }
}

/// The next step's states as they are emitted: appended to a batch that, whenever it fills, is
/// sorted (on all threads), summed by state and merged into the sorted list. A state costs 24 bytes
/// (a hash map of `u64 -> u128` took 40 to 80 with its growth), states are read back in order, and
/// the peak is the two lists of consecutive steps plus one batch.
struct Gather {
    sorted: Vec<Entry>,
    batch: Vec<Entry>,
    /// A sum of ways wrapped (checked by [`Gather::finish`]).
    wrapped: bool,
}

impl Gather {
    /// Entries per batch: 384 MiB.
    const BATCH: usize = 1 << 24;

    fn new(expected: usize) -> Self {
        Gather {
            sorted: Vec::new(),
            batch: Vec::with_capacity(expected.saturating_mul(2).clamp(16, Self::BATCH)),
            wrapped: false,
        }
    }

    fn add(&mut self, state: u64, ways: u128) {
        self.batch.push(Entry::new(state, ways));
        if self.batch.len() >= Self::BATCH {
            self.compact();
        }
    }

    /// Distinct states gathered so far, not counting the unsorted batch.
    fn distinct(&self) -> usize {
        self.sorted.len()
    }

    fn compact(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        self.batch.par_sort_unstable_by_key(|e| e.state);
        sum_runs(&mut self.batch, &mut self.wrapped);
        if self.sorted.is_empty() {
            std::mem::swap(&mut self.sorted, &mut self.batch);
            self.batch.clear();
            return;
        }
        merge_into(&mut self.sorted, &self.batch, &mut self.wrapped);
        self.batch.clear();
    }

    /// The sorted, distinct states, or [`Wrapped`] if a sum of ways passed `u128::MAX`.
    fn finish(mut self) -> Result<Vec<Entry>, Wrapped> {
        self.compact();
        if self.wrapped {
            return Err(Wrapped);
        }
        Ok(self.sorted)
    }
}

/// Merge the sorted, distinct `more` into the sorted, distinct `into`, summing the ways of equal
/// states. In place, from the back: the list grows by `more.len()` (a reallocation, not a second
/// list), so the peak is one list, not two. Sets `wrapped` if a sum passes `u128::MAX`.
fn merge_into(into: &mut Vec<Entry>, more: &[Entry], wrapped: &mut bool) {
    let (na, nb) = (into.len(), more.len());
    into.resize(na + nb, Entry::new(0, 0));
    // `into[..i]` and `more[..j]` are still to merge; the merged tail is `into[k..]`, and
    // `k - i >= j` throughout, so writing at `k - 1` never overwrites an unread entry.
    let (mut i, mut j, mut k) = (na, nb, na + nb);
    while j > 0 {
        k -= 1;
        let b = more[j - 1];
        if i > 0 && into[i - 1].state > b.state {
            into[k] = into[i - 1];
            i -= 1;
        } else if i > 0 && into[i - 1].state == b.state {
            let mut e = into[i - 1];
            e.add_ways(b.ways(), wrapped);
            into[k] = e;
            i -= 1;
            j -= 1;
        } else {
            into[k] = b;
            j -= 1;
        }
    }
    // equal states left a gap `into[i..k]`: close it
    into.copy_within(k.., i);
    into.truncate(i + (na + nb - k));
}

/// Sum the ways of equal consecutive states of the sorted `v` into one entry each. Sets `wrapped` if a
/// sum passes `u128::MAX`.
fn sum_runs(v: &mut Vec<Entry>, wrapped: &mut bool) {
    let mut out = 0;
    for i in 0..v.len() {
        if out > 0 && v[out - 1].state == v[i].state {
            let more = v[i].ways();
            v[out - 1].add_ways(more, wrapped);
        } else {
            v[out] = v[i];
            out += 1;
        }
    }
    v.truncate(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_numbers_by_first_appearance() {
        let mut c = [1, 7, 15, 2, 7, 15, 0];
        normalize(&mut c);
        assert_eq!(c, [1, 3, 4, 2, 3, 4, 0]);
    }

    #[test]
    fn gathering_sums_equal_states_whatever_the_batches() {
        // states emitted in a scrambled order with repeats, gathered with tiny batches and at once
        let emitted: Vec<(u64, u128)> = (0..5000u64)
            .map(|i| ((i * 7919) % 613, u128::from(i % 5) << (i % 70)))
            .collect();
        let mut want = std::collections::BTreeMap::new();
        for &(s, w) in &emitted {
            *want.entry(s).or_insert(0u128) += w;
        }
        let want: Vec<Entry> = want.into_iter().map(|(s, w)| Entry::new(s, w)).collect();
        for batch in [1, 2, 3, 64, 1000, 10_000] {
            let mut g = Gather {
                sorted: Vec::new(),
                batch: Vec::new(),
                wrapped: false,
            };
            for chunk in emitted.chunks(batch) {
                for &(s, w) in chunk {
                    g.batch.push(Entry::new(s, w));
                }
                g.compact();
            }
            assert_eq!(g.finish().as_ref(), Ok(&want), "batches of {batch}");
        }
    }

    #[test]
    fn gathering_reports_sums_past_u128_max() {
        let half = u128::MAX / 2 + 1;
        // within one batch (summed runs) and across batches (merged lists)
        for batch in [1, 3] {
            let mut g = Gather::new(4);
            for ways in [half, 1, half] {
                g.add(5, ways);
                if batch == 1 {
                    g.compact();
                }
            }
            assert_eq!(g.finish(), Err(Wrapped), "batches of {batch}");
        }
        // u128::MAX itself is still a count
        let mut g = Gather::new(4);
        g.add(5, half);
        g.add(5, half - 1);
        assert_eq!(g.finish(), Ok(vec![Entry::new(5, u128::MAX)]));
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
}
