//! The solvers, behind one request/outcome interface.
//!
//! | method | file | what it is |
//! |---|---|---|
//! | `warnsdorff` | [`warnsdorff`] | pure greedy Warnsdorff (1823): minimum degree, rule on ties, stop at a dead end |
//! | `backtrack` | [`backtrack`] | depth-first search, candidates ordered by degree then rule, pruned, node budget |
//! | `naive` | [`naive`] | depth-first search in the rule's fixed label order, the brute force of the seeds |
//! | `rotate` | [`rotate`] | pure Warnsdorff, then Pósa rotations to close the path |
//!
//! All of them share [`crate::state::SearchState`] and, for the two searches, one explicit-stack DFS
//! (`dfs/`): a run on 1000x1000 never grows the thread's call stack.
//!
//! Pure Warnsdorff runs through a fast kernel (`walk/`): a fused decrement-and-choose pass per step
//! and, in [`Solver::run_batch`], several independent walks interleaved in one thread, each in its
//! own *lane* (its degree array in one buffer; "lane" is the one word for an interleaved walk, from
//! the command line's `--lane-memory` to the kernel); on boards of at most 64 squares, fixed
//! orderings share their walks through a tree of ties (`walk/tie_tree.rs`), so that a sweep of many
//! orderings walks each distinct walk once. The plain incremental loop (`warnsdorff::run` with
//! [`warnsdorff::next_move`]) stays as its twin: it serves traces, [`Solver::solve_plain`], rules
//! without a fast path, and the equality tests of `tests/fast_paths.rs`. The tie-break rules are one
//! table (`rules/table.rs`); slow, obviously correct twins of the fast solvers are in
//! [`reference`](mod@reference).
//!
//! This file is the interface: the request, the outcome and its counters, the [`SolverOptions`].
//! The [`Solver`] (`solver.rs`) dispatches each request to the engine that serves it; each engine
//! keeps its own scratch state: the kernel (`walk/batch.rs`), the search state's loops
//! (`plain.rs`) and the search on any board ([`shaped`]).

pub mod backtrack;
mod dfs;
mod memory;
pub mod naive;
mod plain;
pub mod posa;
pub mod reference;
pub mod restart;
pub mod rotate;
pub mod rules;
pub mod shaped;
mod solver;
mod trace;
mod walk;
pub mod warnsdorff;

pub use memory::{estimate_bytes, MemoryError};
pub use restart::{attempt_seed, Attempted, RuleSeq};
pub use rules::{Rule, RuleError, TieBreaker};
pub use solver::Solver;
pub use trace::{trace, trace_on, Trace, TraceEvent};
pub use walk::tie_tree::TieTrees;

use crate::board::Closure;
use crate::board::{Board, Layout, Leaper, Shape, Square};
use crate::exists::NoTour;
use crate::state::SearchState;
use rotate::RotateProgress;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

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

/// Most runs [`Solver::run_batch`] walks side by side in one thread, one a lane (the window step's
/// eight; the byte step takes four): a batch needs this many requests of one board and rule, or of
/// one board and any fixed orderings, to fill every lane.
pub const MAX_INTERLEAVED_RUNS: usize = walk::MAX_LANES;

/// Bytes after each lane's degree array in a batch's buffer (the window step's 8-byte rows reach
/// past the array's end).
pub const LANE_SLACK: usize = walk::window::SLACK;

/// Default of [`SolverOptions::lane_memory`]: the lanes on a large board take at most 2 bytes per
/// square of the board (one lane on 1000x1000).
pub const DEFAULT_LANE_MEMORY: f64 = 2.0;

/// How many lanes [`Solver::run_batch`] walks side by side on `board` when its lanes may take
/// `bytes_per_square` of it ([`SolverOptions::lane_memory`]).
pub fn interleaved_lanes(board: Board, bytes_per_square: f64) -> usize {
    walk::lanes_for(&Layout::new(board), bytes_per_square)
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

/// How a [`Solver`] runs: one value, given when the solver is made ([`Solver::with_options`]), e.g.
/// `Solver::with_options(SolverOptions::new().lane_memory(2.1))`. The defaults are the command
/// line's; the kernel's switches (`small_kernel`, `tie_tree`, `window_step`) change speed only,
/// never a summary, and are there for benchmarks and twin tests.
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// The leaper runs are on.
    leaper: Leaper,
    /// The mask runs are on (its leaper the one above), if any.
    mask: Option<Shape>,
    /// Bytes per square that a batch's lanes may take on a large board.
    lane_memory: f64,
    /// Whether batches on boards of at most 64 squares take the small-board kernel.
    small_kernel: bool,
    /// Whether batches of fixed orderings there share their walks through a tie tree.
    tie_tree: bool,
    /// The tie trees to grow, shared with other solvers; `None`: the solver's own.
    tie_trees: Option<Arc<TieTrees>>,
    /// Whether batches of fixed orderings on larger boards take the window step.
    window_step: bool,
    /// Rotations a `rotate` run may make (0 = no limit).
    rotations: u64,
    /// Told after every rotation of a `rotate` run.
    rotate_progress: Option<RotateProgress>,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            leaper: Leaper::KNIGHT,
            mask: None,
            lane_memory: DEFAULT_LANE_MEMORY,
            small_kernel: true,
            tie_tree: true,
            tie_trees: None,
            window_step: true,
            rotations: rotate::DEFAULT_ROTATIONS,
            rotate_progress: None,
        }
    }
}

impl SolverOptions {
    /// The defaults: the knight on whole boards, every fast path on.
    pub fn new() -> Self {
        SolverOptions::default()
    }

    /// Run on boards walked by `leaper` and, with a `mask`, on its squares only (requests must then
    /// name its board). Runs that are not on a whole board walked by the knight take the search on
    /// any board ([`shaped`]); the default is the knight on whole boards.
    pub fn shape(mut self, leaper: Leaper, mask: Option<Shape>) -> Self {
        self.leaper = leaper;
        self.mask = mask.map(|m| m.with_leaper(leaper));
        self
    }

    /// Let [`Solver::run_batch`] walk as many lanes on a large board (one where four lanes' degree
    /// arrays would pass 1 MiB) as fit in `bytes_per_square` of it, each lane taking its padded
    /// degree array (about 1.008 bytes per square on 1000x1000). The default, 2, walks one lane
    /// there; 2.1 allows two, which is faster (`benches/README.md`). Results do not depend on it,
    /// only speed and memory. Values below one lane's need still walk one lane.
    pub fn lane_memory(mut self, bytes_per_square: f64) -> Self {
        self.lane_memory = bytes_per_square;
        self
    }

    /// Whether batches of pure Warnsdorff on boards of at most 64 squares take the small-board
    /// kernel (register bitboards; on by default), or the byte kernel that larger boards take.
    pub fn small_kernel(mut self, on: bool) -> Self {
        self.small_kernel = on;
        self
    }

    /// Whether batches of fixed orderings (`first`, `order:*`) in the small-board kernel share
    /// their walks through a tie tree kept across batches of one board (on by default): runs from
    /// one start under different orderings are then walked only where their tie-breaks differ.
    pub fn tie_tree(mut self, on: bool) -> Self {
        self.tie_tree = on;
        self
    }

    /// Grow the tie trees of `trees`, which other solvers may share (the workers of a sweep do),
    /// instead of the solver's own: threads walking one board then walk each distinct walk once
    /// between them, not once each.
    pub fn share_tie_trees(mut self, trees: &Arc<TieTrees>) -> Self {
        self.tie_trees = Some(Arc::clone(trees));
        self
    }

    /// Whether batches of fixed orderings (`first`, `order:*`) on boards too large for the
    /// small-board kernel take the window step (four 8-byte row windows a step; on by default, on
    /// x86-64 with AVX), or the byte kernel's step that other rules take.
    pub fn window_step(mut self, on: bool) -> Self {
        self.window_step = on;
        self
    }

    /// Let a `rotate` run make at most `rotations` Pósa rotations to close its path (0 = no limit;
    /// default [`rotate::DEFAULT_ROTATIONS`]): its budget, as the node budget of a request is the
    /// searches'. A rotation reverses part of the path, up to all of it, so on large boards the
    /// default alone can take minutes.
    pub fn rotations(mut self, rotations: u64) -> Self {
        self.rotations = rotations;
        self
    }

    /// Call `progress` after every rotation of a `rotate` run (the command line prints a line now
    /// and then on long runs).
    pub fn rotate_progress(mut self, progress: RotateProgress) -> Self {
        self.rotate_progress = Some(progress);
        self
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
