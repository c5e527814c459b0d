//! The solvers, behind one request/outcome interface.
//!
//! | method | file | what it is |
//! |---|---|---|
//! | `warnsdorff` | [`warnsdorff`] | pure greedy Warnsdorff (1823): minimum degree, rule on ties, stop at a dead end |
//! | `backtrack` | [`backtrack`] | depth-first search, candidates ordered by degree then rule, pruned, node budget |
//! | `naive` | [`naive`] | depth-first search in the rule's fixed label order, the brute force of the seeds |
//!
//! All three share [`crate::state::SearchState`] and, for the two searches, one explicit-stack DFS
//! (`dfs/`): a run on 1000x1000 never grows the thread's call stack. A [`Solver`] owns the scratch
//! state and reuses it across runs, so a sweep allocates nothing per run.
//!
//! Pure Warnsdorff runs through a fast kernel (`walk/`): a fused decrement-and-choose pass per step
//! and, in [`Solver::run_batch`], several independent walks interleaved in one thread; on boards of
//! at most 64 squares, fixed orderings share their walks through a tree of ties (`walk/tie_tree.rs`),
//! so that a sweep of many orderings walks each distinct walk once. The plain
//! incremental loop (`warnsdorff::run` with [`warnsdorff::next_move`]) stays as its twin: it serves
//! traces, [`Solver::solve_plain`], rules without a fast path, and the equality tests of
//! `tests/fast_paths.rs`. The tie-break rules are one table (`rules/table.rs`); slow, obviously
//! correct twins of the fast solvers are in [`reference`](mod@reference).
//!
//! This file is the interface: the request, the outcome and its counters, and the [`Solver`]. The
//! batch driver behind [`Solver::run_batch`] is in `walk/batch.rs`.

pub mod backtrack;
mod dfs;
mod memory;
pub mod naive;
pub mod posa;
pub mod reference;
pub mod restart;
pub mod rotate;
pub mod rules;
pub mod shaped;
mod trace;
mod walk;
pub mod warnsdorff;

pub use memory::{estimate_bytes, MemoryError};
pub use restart::{attempt_seed, Attempted, RuleSeq};
pub use rules::{Rule, RuleError, TieBreaker};
pub use trace::{trace, trace_on, Trace, TraceEvent};
pub use walk::tie_tree::TieTrees;

use crate::board::Closure;
use crate::board::{Board, Layout, Leaper, Shape, Square};
use crate::exists::{self, NoTour};
use crate::state::SearchState;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

/// Which solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// Pure Warnsdorff.
    Warnsdorff,
    /// Warnsdorff-ordered backtracking.
    Backtrack,
    /// Label-order backtracking.
    Naive,
    /// Pure Warnsdorff, then Pósa rotations to close the path (closed tours).
    Rotate,
}

impl Method {
    /// Every method, for listings.
    pub const ALL: [Method; 4] = [
        Method::Warnsdorff,
        Method::Backtrack,
        Method::Naive,
        Method::Rotate,
    ];

    /// The closure a run of this method seeks when `asked` is asked: `rotate` always closes its
    /// path; every other method seeks what was asked. The one place that says "rotate means closed".
    pub fn seeks(self, asked: Closure) -> Closure {
        match self {
            Method::Rotate => Closure::Closed,
            _ => asked,
        }
    }

    /// The name used on the command line and in CSV files.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Warnsdorff => "warnsdorff",
            Method::Backtrack => "backtrack",
            Method::Naive => "naive",
            Method::Rotate => "rotate",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown method {s:?}; known: warnsdorff, backtrack, naive, rotate")
            })
    }
}

/// How a closed pure-Warnsdorff walk closes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Closing {
    /// Walk as for an open tour, then see whether the ends are a knight move apart.
    #[default]
    Check,
    /// HaskellWiki's heuristic: the start stays counted in its neighbours' degrees during the walk
    /// and is entered only when nothing else is free, so the walk is a closed tour when it has
    /// visited every other square next to the start (`docs/REFERENCE.md`).
    StartLast,
}

impl Closing {
    /// Every closing, for listings.
    pub const ALL: [Closing; 2] = [Closing::Check, Closing::StartLast];

    /// The name used on the command line and in spec and CSV files.
    pub const fn name(self) -> &'static str {
        match self {
            Closing::Check => "check",
            Closing::StartLast => "start-last",
        }
    }
}

impl fmt::Display for Closing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Closing {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Closing::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown closing {s:?}; known: check, start-last"))
    }
}

/// One run to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The board.
    pub board: Board,
    /// First square.
    pub start: Square,
    /// Whether the tour must be closed (see [`Request::closure_sought`] for `rotate`).
    pub closure: Closure,
    /// Which solver.
    pub method: Method,
    /// Tie-break rule.
    pub rule: Rule,
    /// Node budget for the searches (squares entered); 0 = unlimited. Ignored by `warnsdorff`.
    pub budget: u64,
    /// Seed of the run's PRNG (used by the random finals).
    pub seed: u64,
    /// How a closed pure-Warnsdorff walk closes (`warnsdorff` with `closure` closed only).
    pub closing: Closing,
    /// Whether `backtrack` cuts a branch as soon as a free square is stranded (the default); off
    /// only to compare node counts with published programs that do not prune.
    pub prune: bool,
}

impl Request {
    /// The closure the run seeks ([`Method::seeks`]).
    pub fn closure_sought(&self) -> Closure {
        self.method.seeks(self.closure)
    }

    /// Pure Warnsdorff with `rule` from `start`, open tour.
    pub fn warnsdorff(board: Board, start: Square, rule: Rule) -> Self {
        Request {
            board,
            start,
            closure: Closure::Open,
            method: Method::Warnsdorff,
            rule,
            budget: 0,
            seed: 0,
            closing: Closing::Check,
            prune: true,
        }
    }

    /// Whether the request means what it says: `naive` has no degrees, so a rule with keys or
    /// random parts means nothing to it; the start-last closing is an option of closed pure
    /// Warnsdorff; only `backtrack` prunes.
    pub fn check(&self) -> Result<(), RequestError> {
        let refuse = |why| {
            Err(RequestError {
                method: self.method,
                rule: self.rule,
                why,
            })
        };
        if self.method == Method::Naive && self.rule.needs_degrees() {
            return refuse("naive has no degrees: it honours a fixed order (first, order:) only");
        }
        if self.closing == Closing::StartLast
            && (self.method != Method::Warnsdorff || !self.closure.is_closed())
        {
            return refuse("the start-last closing is an option of closed pure-Warnsdorff runs");
        }
        if !self.prune && self.method != Method::Backtrack {
            return refuse("only backtrack prunes: turning pruning off is an option of backtrack");
        }
        Ok(())
    }
}

/// A request whose parts do not go together ([`Request::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{method} with rule {rule}: {why}")]
pub struct RequestError {
    /// The method.
    pub method: Method,
    /// The rule.
    pub rule: Rule,
    /// Why not.
    pub why: &'static str,
}

/// Why a run proved that no tour exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impossibility {
    /// A theorem says so; no search was done.
    Theorem(NoTour),
    /// The search space was exhausted.
    Exhausted,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A tour (closed if asked).
    Found,
    /// Pure Warnsdorff reached a square with no free neighbour.
    DeadEnd,
    /// Pure Warnsdorff visited every square but the ends are not a knight move apart (closed asked).
    NotClosed,
    /// The node budget ran out.
    BudgetExhausted,
    /// No tour exists.
    Impossible(Impossibility),
}

impl Outcome {
    /// Short name for tables and CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Found => "found",
            Outcome::DeadEnd => "dead-end",
            Outcome::NotClosed => "not-closed",
            Outcome::BudgetExhausted => "budget",
            Outcome::Impossible(Impossibility::Theorem(_)) => "no-tour-theorem",
            Outcome::Impossible(Impossibility::Exhausted) => "no-tour-exhausted",
        }
    }
}

/// Counters of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Squares entered (make calls), the start included.
    pub nodes: u64,
    /// Squares left again (unmake calls).
    pub backtracks: u64,
    /// Moves at which the minimum degree was shared, so the rule decided.
    pub ties: u64,
    /// Pósa rotations made to close the path (`rotate` only; 0 otherwise).
    pub rotations: u64,
    /// Wall-clock nanoseconds.
    pub elapsed_ns: u64,
}

/// What a run returns without allocating: the path stays in the [`Solver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// How it ended.
    pub outcome: Outcome,
    /// Whether the final path is a closed tour: it covers the board and its ends are a knight move
    /// apart (asked for or not).
    pub closes: bool,
    /// Squares on the final path.
    pub visited: u32,
    /// Counters.
    pub stats: Stats,
    /// Attempts made: 1, or more for a run with restarts ([`Solver::run_attempts`]).
    pub attempts: u32,
}

/// A finished run with its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The request.
    pub request: Request,
    /// How it ended.
    pub outcome: Outcome,
    /// The tour, or the partial path (empty when impossible by theorem).
    pub squares: Vec<Square>,
    /// Counters.
    pub stats: Stats,
    /// For `squirrel`: the orderings in force, in order.
    pub orderings: Option<Vec<String>>,
}

/// A run could not start.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The start square is off the board.
    #[error("start {start} is off the {board} board")]
    StartOffBoard {
        /// The board.
        board: Board,
        /// The start.
        start: Square,
    },
    /// A request on another board than the mask's.
    #[error("the mask is {mask}, the run asks for {board}")]
    BoardNotMask {
        /// The run's board.
        board: Board,
        /// The mask's.
        mask: Board,
    },
    /// The start square is a hole, or off the board.
    #[error("start {start} is not a square of {shape}")]
    StartOffShape {
        /// The shape, as printed.
        shape: String,
        /// The start.
        start: Square,
    },
    /// The rule does not apply here.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The request's parts do not go together.
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The search state would not fit in memory.
    #[error(transparent)]
    Memory(#[from] MemoryError),
}

/// Most runs [`Solver::run_batch`] walks side by side in one thread (the window step's eight; the
/// byte step takes four): a batch needs this many requests of one board and rule, or of one board
/// and any fixed orderings, to interleave fully.
pub const MAX_INTERLEAVED_RUNS: usize = walk::MAX_WALKS;

/// Whether `rule` walks one ordering a run: a fixed one, or the one `shuffle` draws.
fn walks_an_ordering(rule: Rule) -> bool {
    matches!(rule.kind(), rules::Kind::Fixed(_)) || rule.is_shuffle()
}

/// Bytes after each interleaved walk's degree array in a batch's buffer (the window step's 8-byte
/// rows reach past the array's end).
pub const LANE_SLACK: usize = walk::window::SLACK;

/// Default of [`Solver::set_lane_memory`]: the degree arrays of interleaved walks on a large board
/// take at most 2 bytes per square of the board (one walk at a time on 1000x1000).
pub const DEFAULT_LANE_MEMORY: f64 = 2.0;

/// How many walks [`Solver::run_batch`] interleaves on `board` when the memory its interleaved
/// walks may take ("lane memory", the name the command line and result files use) is
/// `bytes_per_square` ([`Solver::set_lane_memory`]).
pub fn interleaved_lanes(board: Board, bytes_per_square: f64) -> usize {
    walk::walks_for(&Layout::new(board), bytes_per_square)
}

/// Most bytes a solver's tie tree takes on `board` (the walks of fixed orderings shared by batches,
/// on boards of at most 64 squares; none on others).
pub fn tie_tree_bytes(board: Board) -> u64 {
    if walk::small::fits(board) {
        walk::tie_tree::MAX_BYTES
    } else {
        0
    }
}

/// Scratch state for runs, reused across runs: allocate once per worker thread.
#[derive(Clone, Debug)]
pub struct Solver {
    state: SearchState,
    frames: dfs::Stack,
    orderings: Option<Vec<String>>,
    /// Use the plain Warnsdorff loop instead of the kernel ([`Solver::solve_plain`]).
    plain: bool,
    /// The last (board, method) whose memory need was checked: reading `/proc/meminfo` costs more
    /// than a whole 8x8 run, so it is read once per board, not once per run.
    memory_ok: Option<(Board, Method)>,
    /// The kernel choosers' tables of the last rules used.
    tables: walk::dispatch::ChooserTables,
    /// Row templates of the empty board, for the interleaved walks of a batch.
    empty: walk::EmptyBoard,
    /// Tables of the small-board kernel for the last board and slot order.
    small: Box<walk::small::SmallBoard>,
    /// Whether batches take the small-board kernel where it applies ([`Solver::set_small_kernel`]).
    small_kernel: bool,
    /// The fixed orderings' walks of small boards, shared by batch groups and by the solvers
    /// given the same trees ([`Solver::share_tie_trees`]).
    tie_trees: Arc<TieTrees>,
    /// The tree of the last small board walked, and the slots claimed there.
    tie_tree: walk::tie_tree::Held,
    /// Whether batches of fixed orderings go through it ([`Solver::set_tie_tree`]).
    use_tie_tree: bool,
    /// Whether batches of fixed orderings on larger boards take the window step
    /// ([`Solver::set_window_step`]).
    window_step: bool,
    /// The window step's tables of a batch group's orderings, and each run's ordering.
    orders: Vec<walk::window::Ranked>,
    order_of: Vec<u32>,
    /// Degree arrays of the interleaved walks of a batch.
    walks: Vec<u8>,
    /// Indexes (within the group) of a batch group's runs that can start.
    startable: Vec<u32>,
    /// Bytes per square that a batch's interleaved walks may take on a large board.
    walk_memory: f64,
    /// Rotations a `rotate` run may make (0 = no limit).
    rotations: u64,
    /// Told after every rotation of a `rotate` run.
    rotate_progress: Option<rotate::RotateProgress>,
    /// The leaper and the mask runs are on ([`Solver::set_shape`]).
    leaper: Leaper,
    mask: Option<Shape>,
    /// The search on any board, and whether it made the last run.
    shaped: shaped::Engine,
    last_shaped: bool,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// Empty scratch state (grows to the largest board it meets).
    pub fn new() -> Self {
        Solver {
            state: SearchState::new(Board::new(1, 1).expect("1x1 is a board")),
            frames: dfs::Stack::default(),
            orderings: None,
            plain: false,
            memory_ok: None,
            tables: Default::default(),
            empty: walk::EmptyBoard::default(),
            small: Box::default(),
            small_kernel: true,
            tie_trees: Arc::default(),
            tie_tree: Default::default(),
            use_tie_tree: true,
            window_step: true,
            orders: Vec::new(),
            order_of: Vec::new(),
            walks: Vec::new(),
            startable: Vec::new(),
            walk_memory: DEFAULT_LANE_MEMORY,
            rotations: rotate::DEFAULT_ROTATIONS,
            rotate_progress: None,
            leaper: Leaper::KNIGHT,
            mask: None,
            shaped: shaped::Engine::default(),
            last_shaped: false,
        }
    }

    /// Run on boards walked by `leaper` and, with a `mask`, on its squares only (requests must then
    /// name its board). Runs that are not on a whole board walked by the knight take the search on
    /// any board ([`shaped`]); the default is the knight on whole boards.
    pub fn set_shape(&mut self, leaper: Leaper, mask: Option<Shape>) {
        self.leaper = leaper;
        self.mask = mask.map(|m| m.with_leaper(leaper));
    }

    /// The shape a run on `board` is on, when it is not the whole board walked by the knight.
    fn shape_for(&self, board: Board) -> Result<Option<Shape>, SolveError> {
        match &self.mask {
            Some(m) if m.board() != board => Err(SolveError::BoardNotMask {
                board,
                mask: m.board(),
            }),
            Some(m) => Ok((!m.is_full_knight()).then(|| m.clone())),
            None if self.leaper != Leaper::KNIGHT => {
                Ok(Some(Shape::full(board).with_leaper(self.leaper)))
            }
            None => Ok(None),
        }
    }

    /// Whether batches of pure Warnsdorff on boards of at most 64 squares take the small-board
    /// kernel (register bitboards; on by default), or the byte kernel that larger boards take. Both
    /// give the same summaries; off is for benchmarks and twin tests.
    pub fn set_small_kernel(&mut self, on: bool) {
        self.small_kernel = on;
    }

    /// Whether batches of fixed orderings (`first`, `order:*`) in the small-board kernel share
    /// their walks through a tie tree kept across batches of one board (on by default): runs from
    /// one start under different orderings are then walked only where their tie-breaks differ.
    /// Both give the same summaries; off is for benchmarks and twin tests.
    pub fn set_tie_tree(&mut self, on: bool) {
        self.use_tie_tree = on;
    }

    /// Grow the tie trees of `trees`, which other solvers may share (the workers of a sweep do),
    /// instead of this solver's own: threads walking one board then walk each distinct walk once
    /// between them, not once each.
    pub fn share_tie_trees(&mut self, trees: &Arc<TieTrees>) {
        self.tie_trees = Arc::clone(trees);
        self.tie_tree = Default::default();
    }

    /// Whether batches of fixed orderings (`first`, `order:*`) on boards too large for the
    /// small-board kernel take the window step (four 8-byte row windows a step; on by default, on
    /// x86-64 with AVX), or the byte kernel's step that other rules take. Both give the same
    /// summaries; off is for benchmarks and twin tests.
    pub fn set_window_step(&mut self, on: bool) {
        self.window_step = on;
    }

    /// Let a `rotate` run make at most `rotations` Pósa rotations to close its path (0 = no limit;
    /// default [`rotate::DEFAULT_ROTATIONS`]): its budget, as the node budget of a request is the
    /// searches'. A rotation reverses part of the path, up to all of it, so on large boards the
    /// default alone can take minutes.
    pub fn set_rotations(&mut self, rotations: u64) {
        self.rotations = rotations;
    }

    /// Call `progress` after every rotation of a `rotate` run (the command line prints a line now
    /// and then on long runs).
    pub fn set_rotate_progress(&mut self, progress: rotate::RotateProgress) {
        self.rotate_progress = Some(progress);
    }

    /// Let [`Solver::run_batch`] interleave as many walks on a large board (one where four walks'
    /// degree arrays would pass 1 MiB) as fit in `bytes_per_square` of it, each taking its padded
    /// degree array (about 1.008 bytes per square on 1000x1000). The default, 2, walks one at a time
    /// there; 2.1 allows two, which is faster (`benches/README.md`). Results do not depend on it,
    /// only speed and memory. Values below one walk's need still walk one at a time.
    pub fn set_lane_memory(&mut self, bytes_per_square: f64) {
        self.walk_memory = bytes_per_square;
    }

    /// Run `req`, keeping the path in the solver ([`Solver::path`]); no allocation once warm.
    pub fn run(&mut self, req: &Request) -> Result<RunSummary, SolveError> {
        self.run_observed(req, &mut NoObserver, Oracle::Consult)
    }

    /// Like [`Solver::solve`] but without consulting the existence theorems first, so that the search
    /// itself must prove impossibility by exhausting its space (tests of the oracle, proofs).
    pub fn solve_by_search_alone(&mut self, req: &Request) -> Result<Solution, SolveError> {
        let summary = self.run_observed(req, &mut NoObserver, Oracle::Skip)?;
        Ok(self.solution(req, summary))
    }

    /// Like [`Solver::solve`], but pure Warnsdorff takes the plain incremental loop
    /// ([`warnsdorff::next_move`] on the [`SearchState`]) instead of the fast kernel: the
    /// straightforward twin the kernel is tested against. Other methods are unaffected.
    pub fn solve_plain(&mut self, req: &Request) -> Result<Solution, SolveError> {
        self.plain = true;
        let summary = self.run_observed(req, &mut NoObserver, Oracle::Consult);
        self.plain = false;
        Ok(self.solution(req, summary?))
    }

    /// Run a batch of independent requests, appending one summary per request to `out` in order.
    /// Sweeps call this: batching is where independent runs can be interleaved to hide latency.
    ///
    /// Consecutive pure-Warnsdorff requests on the same board with the same rule are walked by the
    /// kernel several at a time, each in its own degree array (about one byte per square and walk;
    /// see [`interleaved_lanes`]), and keep no path: after a batch, [`Solver::path`] and
    /// [`Solver::state`] describe the last non-batched run, not the batch. Their `elapsed_ns` is the
    /// group's wall time shared in proportion to squares visited, since interleaved runs overlap.
    /// Summaries are otherwise identical to [`Solver::run`]'s. On an error, `out` holds the summaries
    /// of the requests before the failing one.
    pub fn run_batch(
        &mut self,
        reqs: &[Request],
        out: &mut Vec<RunSummary>,
    ) -> Result<(), SolveError> {
        let mut i = 0;
        while i < reqs.len() {
            let r = reqs[i];
            let other_shape = self.leaper != Leaper::KNIGHT || self.mask.is_some();
            if r.method != Method::Warnsdorff
                || self.plain
                || r.closing != Closing::Check
                || other_shape
            {
                out.push(self.run(&r)?);
                i += 1;
                continue;
            }
            let orderings = walks_an_ordering(r.rule) && self.mixes_orderings(r.board);
            let len = reqs[i..]
                .iter()
                .take_while(|q| {
                    q.method == Method::Warnsdorff
                        && q.closing == Closing::Check
                        && q.board == r.board
                        && (q.rule == r.rule || orderings && walks_an_ordering(q.rule))
                        && q.closure == r.closure
                })
                .count();
            self.warnsdorff_group(&reqs[i..i + len], out)?;
            i += len;
        }
        Ok(())
    }

    /// Whether runs of `board` under different orderings (fixed ones, and `shuffle`'s drawn ones)
    /// walk side by side in the window step: where it is on and enough walks fit for it to pay
    /// (else group by group, finished in the byte step; `shuffle` in the plain loop).
    pub(in crate::solve) fn mixes_orderings(&self, board: Board) -> bool {
        !walk::small::fits(board) && self.shuffles_in_window(board)
    }

    /// Whether a group of `shuffle` runs on `board` walks in the window step, each run with its
    /// drawn ordering: where orderings mix, and also on boards of at most 64 squares, where it
    /// takes a third of the small-board kernel's time (groups there hold one rule, so this mixes
    /// nothing else: the tie tree takes fixed orderings).
    pub(in crate::solve) fn shuffles_in_window(&self, board: Board) -> bool {
        self.window_step
            && walk::window::available()
            && interleaved_lanes(board, self.walk_memory) >= walk::window::MIN_LANES
    }

    pub(in crate::solve) fn check_memory(
        &mut self,
        board: Board,
        method: Method,
    ) -> Result<(), MemoryError> {
        if self.memory_ok != Some((board, method)) {
            memory::check(board, method)?;
            self.memory_ok = Some((board, method));
        }
        Ok(())
    }

    /// Run `req` and return the path too.
    pub fn solve(&mut self, req: &Request) -> Result<Solution, SolveError> {
        let summary = self.run(req)?;
        Ok(self.solution(req, summary))
    }

    /// The path of the last run.
    pub fn path(&self) -> Vec<Square> {
        if self.last_shaped {
            return self.shaped.path();
        }
        self.state.path_squares()
    }

    /// The search state of the last run (its path, degrees).
    pub fn state(&self) -> &SearchState {
        &self.state
    }

    fn solution(&self, req: &Request, summary: RunSummary) -> Solution {
        let squares = match summary.outcome {
            Outcome::Impossible(Impossibility::Theorem(_)) => Vec::new(),
            _ => self.path(),
        };
        Solution {
            request: *req,
            outcome: summary.outcome,
            squares,
            stats: summary.stats,
            orderings: self.orderings.clone(),
        }
    }

    pub(crate) fn run_observed<O: Observer>(
        &mut self,
        req: &Request,
        obs: &mut O,
        oracle: Oracle,
    ) -> Result<RunSummary, SolveError> {
        let board = req.board;
        if !board.contains(req.start.row() as i64, req.start.col() as i64) {
            return Err(SolveError::StartOffBoard {
                board,
                start: req.start,
            });
        }
        self.last_shaped = false;
        if let Some(shape) = self.shape_for(board)? {
            // checked once per (board, method), as the fast engine's need is
            if self.memory_ok != Some((board, req.method)) {
                memory::check_shaped(board, req.method)?;
                self.memory_ok = Some((board, req.method));
            }
            self.shaped.set_shape(&shape);
            self.orderings = None;
            self.last_shaped = true;
            return self.shaped.run(req);
        }
        req.check()?;
        self.check_memory(board, req.method)?;
        let timer = Instant::now();
        self.state.reset(board);
        let mut rule = TieBreaker::new(req.rule, self.state.layout(), req.start, req.seed)?;
        let verdict = match oracle {
            // rotate always closes its path
            Oracle::Consult => exists::tour_from(board, req.start, req.closure_sought()),
            Oracle::Skip => Ok(()),
        };
        if let Err(reason) = verdict {
            self.orderings = None;
            return Ok(RunSummary {
                outcome: Outcome::Impossible(Impossibility::Theorem(reason)),
                closes: false,
                visited: 0,
                stats: Stats::default(),
                attempts: 1,
            });
        }
        let start = self.state.layout().pad(req.start);
        let (outcome, mut stats) = match req.method {
            Method::Warnsdorff if !O::WATCHES && !self.plain && req.closing == Closing::Check => {
                self.warnsdorff_fast(&mut rule, req, start)
            }
            Method::Warnsdorff => warnsdorff::run(
                &mut self.state,
                &mut rule,
                start,
                req.closure,
                req.closing,
                obs,
            ),
            Method::Backtrack | Method::Naive => {
                let cfg = if req.method == Method::Backtrack {
                    backtrack::config(req.closure, req.budget, req.prune)
                } else {
                    naive::config(req.closure, req.budget)
                };
                backtrack::finish(
                    &mut self.state,
                    &mut self.frames,
                    &mut rule,
                    start,
                    cfg,
                    obs,
                )
            }
            Method::Rotate => rotate::run(
                &mut self.state,
                &mut rule,
                start,
                obs,
                self.rotations,
                self.rotate_progress.as_ref(),
            ),
        };
        stats.elapsed_ns = timer.elapsed().as_nanos() as u64;
        self.orderings = rule.orderings_used();
        let squares = board.len() as usize;
        let closes = squares > 2
            && self.state.depth() == squares
            && self
                .state
                .layout()
                .knight_apart(self.state.head(), self.state.first());
        Ok(RunSummary {
            outcome,
            closes,
            visited: self.state.depth() as u32,
            stats,
            attempts: 1,
        })
    }
}

/// Whether a run asks the existence theorems before searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Oracle {
    /// Answer "impossible" from the theorems without searching when they say so.
    Consult,
    /// Search regardless.
    Skip,
}

/// Watches a run move by move (the animation's trace); the default methods do nothing and compile away.
pub trait Observer {
    /// Whether the observer looks at anything. Runs watched by an observer that does not take the
    /// plain loops (the fast Warnsdorff kernel has no per-move hooks).
    const WATCHES: bool = true;
    /// The knight is about to move from padded square `from` to `to` (degrees not yet updated).
    #[inline(always)]
    fn on_move(&mut self, _state: &SearchState, _from: usize, _to: usize) {}
    /// The search just left padded square `square` again.
    #[inline(always)]
    fn on_undo(&mut self, _state: &SearchState, _square: usize) {}
}

/// An observer that does nothing.
pub struct NoObserver;

impl Observer for NoObserver {
    const WATCHES: bool = false;
}

/// Convenience: solve one request with a fresh solver.
pub fn solve(req: &Request) -> Result<Solution, SolveError> {
    Solver::new().solve(req)
}
