//! The solvers, behind one request/outcome interface.
//!
//! | method | file | what it is |
//! |---|---|---|
//! | `warnsdorff` | [`warnsdorff`] | pure greedy Warnsdorff (1823): minimum degree, rule on ties, stop at a dead end |
//! | `backtrack` | [`backtrack`] | depth-first search, candidates ordered by degree then rule, pruned, node budget |
//! | `naive` | [`naive`] | depth-first search in fixed label order, the brute force of the seeds |
//!
//! All three share [`crate::search::SearchState`] and, for the two searches, one explicit-stack DFS
//! (`dfs.rs`): a run on 1000x1000 never grows the thread's call stack. A [`Solver`] owns the scratch
//! state and reuses it across runs, so a sweep allocates nothing per run.
//!
//! Pure Warnsdorff runs through a fast kernel (`kernel.rs`): a fused decrement-and-choose pass per step
//! and, in [`Solver::run_batch`], several independent runs interleaved in one thread. The plain
//! incremental loop (`warnsdorff::run` with [`warnsdorff::next_move`]) stays as its twin: it serves
//! traces, [`Solver::solve_plain`], and the equality tests of `tests/fast_paths.rs`.

pub mod backtrack;
mod dfs;
mod kernel;
mod memory;
pub mod naive;
pub mod posa;
pub mod reference;
pub mod rotate;
pub mod rules;
mod trace;
pub mod warnsdorff;

pub use memory::{estimate_bytes, MemoryError};
pub use rules::{Rule, RuleError, TieBreaker};
pub use trace::{trace, Trace, TraceEvent};

use crate::board::{Board, Layout, Square};
use crate::exists::{self, NoTour};
use crate::search::SearchState;
use kernel::GeometryChooser;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex, Weak};
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

/// One run to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The board.
    pub board: Board,
    /// First square.
    pub start: Square,
    /// Whether the tour must be closed.
    pub closed: bool,
    /// Which solver.
    pub method: Method,
    /// Tie-break rule.
    pub rule: Rule,
    /// Node budget for the searches (squares entered); 0 = unlimited. Ignored by `warnsdorff`.
    pub budget: u64,
    /// Seed of the run's PRNG (used by `random`).
    pub seed: u64,
}

impl Request {
    /// Pure Warnsdorff with `rule` from `start`, open tour.
    pub fn warnsdorff(board: Board, start: Square, rule: Rule) -> Self {
        Request {
            board,
            start,
            closed: false,
            method: Method::Warnsdorff,
            rule,
            budget: 0,
            seed: 0,
        }
    }
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
    /// Squares on the final path.
    pub visited: u32,
    /// Counters.
    pub stats: Stats,
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
    /// The rule does not apply here.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The search state would not fit in memory.
    #[error(transparent)]
    Memory(#[from] MemoryError),
}

/// Most runs [`Solver::run_batch`] walks side by side in one thread: a batch needs this many
/// requests of one board and rule to interleave fully.
pub const MAX_INTERLEAVED_RUNS: usize = kernel::MAX_LANES;

/// Default of [`Solver::set_lane_memory`]: the degree arrays of interleaved walks on a large board
/// take at most 2 bytes per square of the board (one walk at a time on 1000x1000).
pub const DEFAULT_LANE_MEMORY: f64 = 2.0;

/// How many walks [`Solver::run_batch`] interleaves on `board` when its lane memory is
/// `bytes_per_square` ([`Solver::set_lane_memory`]).
pub fn interleaved_lanes(board: Board, bytes_per_square: f64) -> usize {
    kernel::lanes_for(&Layout::new(board), bytes_per_square)
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
    /// Mask tables of the last fixed order used.
    order_bits: Option<(rules::LabelOrder, Box<kernel::Bits>)>,
    /// Distance-rule tables of the last board and rule they were built for (shared by every solver
    /// of the process that uses the same board and rule: see [`geometry_tables`]).
    geometry: Option<(Board, Rule, Arc<kernel::GeometryTables>)>,
    /// Row templates of the empty board, for the batch lanes.
    empty: kernel::EmptyBoard,
    /// Degree arrays of the interleaved batch lanes.
    lanes: Vec<u8>,
    /// Indexes (within the group) of a batch group's runs that can start.
    startable: Vec<u32>,
    /// Bytes per square that a batch's interleaved walks may take on a large board.
    lane_memory: f64,
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
            geometry: None,
            order_bits: None,
            empty: kernel::EmptyBoard::default(),
            lanes: Vec::new(),
            startable: Vec::new(),
            lane_memory: DEFAULT_LANE_MEMORY,
        }
    }

    /// Let [`Solver::run_batch`] interleave as many walks on a large board (one whose four lanes
    /// would pass 1 MiB) as fit in `bytes_per_square` of it, each taking its padded degree array
    /// (about 1.008 bytes per square on 1000x1000). The default, 2, walks one at a time there; 2.1
    /// allows two, about 1.7x faster. Results do not depend on it, only speed and memory. Values
    /// below one lane's need still walk one lane.
    pub fn set_lane_memory(&mut self, bytes_per_square: f64) {
        self.lane_memory = bytes_per_square;
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
    /// kernel several at a time, each in its own degree array (about one byte per square and lane;
    /// see `kernel::lanes_for`), and keep no path: after a batch, [`Solver::path`] and
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
            if r.method != Method::Warnsdorff || self.plain {
                out.push(self.run(&r)?);
                i += 1;
                continue;
            }
            let len = reqs[i..]
                .iter()
                .take_while(|q| {
                    q.method == Method::Warnsdorff
                        && q.board == r.board
                        && q.rule == r.rule
                        && q.closed == r.closed
                })
                .count();
            self.warnsdorff_group(&reqs[i..i + len], out)?;
            i += len;
        }
        Ok(())
    }

    fn check_memory(&mut self, board: Board, method: Method) -> Result<(), MemoryError> {
        if self.memory_ok != Some((board, method)) {
            memory::check(board, method)?;
            self.memory_ok = Some((board, method));
        }
        Ok(())
    }

    /// Validate one request of a batch group whose board's theorem verdict is `verdict`: an error,
    /// or the verdict for its start, with its tie-breaker if the rule carries per-run state
    /// (`random`: its PRNG; `squirrel`: its plan, which also checks the rule's domain). Other rules'
    /// tie-breakers cannot fail and hold nothing a walk needs, so a batch does not build one a run
    /// (on 8x8 that and the per-run theorem check were a tenth of the instructions).
    fn prepare(
        req: &Request,
        layout: &Layout,
        verdict: Result<(), NoTour>,
    ) -> Result<Result<Option<TieBreaker>, NoTour>, SolveError> {
        let board = req.board;
        if !board.contains(req.start.row() as i64, req.start.col() as i64) {
            return Err(SolveError::StartOffBoard {
                board,
                start: req.start,
            });
        }
        let tb = if matches!(req.rule, Rule::Random | Rule::Squirrel) {
            Some(TieBreaker::new(req.rule, layout, req.start, req.seed)?)
        } else {
            debug_assert!(TieBreaker::new(req.rule, layout, req.start, req.seed).is_ok());
            None
        };
        let verdict = verdict.and_then(|()| exists::start_colour(board, req.start, req.closed));
        Ok(verdict.map(|()| tb))
    }

    /// A group of Warnsdorff requests with one board, one rule and one `closed`, through the
    /// interleaved kernel.
    fn warnsdorff_group(
        &mut self,
        reqs: &[Request],
        out: &mut Vec<RunSummary>,
    ) -> Result<(), SolveError> {
        let timer = Instant::now();
        let (board, rule, closed) = (reqs[0].board, reqs[0].rule, reqs[0].closed);
        self.check_memory(board, Method::Warnsdorff)?;
        let layout = Layout::new(board);
        // the theorems' answer for the board, once: runs differ only by their start's colour
        let verdict = exists::tour(board, closed);
        let first = out.len();
        let mut failure = None;
        let startable = &mut self.startable;
        startable.clear();
        // tie-breakers of the rules with per-run state, by run
        let mut tbs = Vec::new();
        for (i, req) in reqs.iter().enumerate() {
            match Self::prepare(req, &layout, verdict) {
                Ok(Ok(tb)) => {
                    startable.push(i as u32);
                    tbs.extend(tb.map(|tb| (i, tb)));
                    out.push(RunSummary {
                        outcome: Outcome::DeadEnd,
                        visited: 0,
                        stats: Stats::default(),
                    });
                }
                Ok(Err(reason)) => out.push(RunSummary {
                    outcome: Outcome::Impossible(Impossibility::Theorem(reason)),
                    visited: 0,
                    stats: Stats::default(),
                }),
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let runs = self.startable.iter().map(|&i| i as usize);
        let lanes = kernel::lanes_for(&layout, self.lane_memory);
        let mut total_visited = 0u64;
        let results = &mut out[first..];
        let mut finish = |i: usize, walk: kernel::Walk| {
            let req = &reqs[i];
            let outcome = walk_outcome(&layout, &walk, layout.pad(req.start), closed);
            total_visited += u64::from(walk.visited);
            results[i] = RunSummary {
                outcome,
                visited: walk.visited,
                stats: Stats {
                    nodes: u64::from(walk.visited),
                    ties: walk.ties,
                    ..Stats::default()
                },
            };
        };
        let (empty, buf) = (&mut self.empty, &mut self.lanes);
        let start_of = |i: usize| layout.pad(reqs[i].start);
        let plain = |i: usize| kernel::LaneJob {
            start: start_of(i),
            run: (),
        };
        match rule {
            Rule::Order(order) => {
                let bits = order_tables(&mut self.order_bits, order);
                let c = kernel::Fixed::new(&layout, order, bits);
                let jobs = runs.map(|i| (i, plain(i)));
                kernel::run_lanes(&layout, empty, buf, lanes, &c, jobs, |i, w, _| finish(i, w));
            }
            Rule::Squirrel => {
                let jobs = tbs.into_iter().map(|(i, tb)| {
                    let plan = tb.squirrel_plan().expect("squirrel plan").clone();
                    let run = kernel::SquirrelRun::new(plan);
                    let start = start_of(i);
                    (i, kernel::LaneJob { start, run })
                });
                let c = kernel::Squirrel::new(&layout);
                kernel::run_lanes(&layout, empty, buf, lanes, &c, jobs, |i, w, _| finish(i, w));
            }
            Rule::Pohl => {
                let jobs = runs.map(|i| (i, plain(i)));
                let c = kernel::Pohl::new(&layout);
                kernel::run_lanes(&layout, empty, buf, lanes, &c, jobs, |i, w, _| finish(i, w));
            }
            Rule::Random => {
                let jobs = tbs.into_iter().map(|(i, mut tb)| {
                    let run = tb.take_rng().expect("random rule has a PRNG");
                    let start = start_of(i);
                    (i, kernel::LaneJob { start, run })
                });
                let c = kernel::Random::new(&layout);
                kernel::run_lanes(&layout, empty, buf, lanes, &c, jobs, |i, w, _| finish(i, w));
            }
            Rule::Roth | Rule::RothOriginal | Rule::Center => {
                let tables = geometry_tables(&mut self.geometry, &layout, rule);
                let jobs = runs.map(|i| (i, plain(i)));
                let finish = |i, w, _| finish(i, w);
                match tables.chooser(&layout) {
                    GeometryChooser::Bytes(c) => {
                        kernel::run_lanes(&layout, empty, buf, lanes, &c, jobs, finish)
                    }
                    GeometryChooser::Packed(c) => {
                        kernel::run_lanes(&layout, empty, buf, lanes, &c, jobs, finish)
                    }
                }
            }
        }
        // Interleaved runs overlap in time: share the group's wall time by squares visited (in
        // floating point: a 128-bit division per run showed in the profile of 8x8 sweeps).
        let per_square = timer.elapsed().as_nanos() as f64 / total_visited.max(1) as f64;
        for s in &mut out[first..] {
            if !matches!(s.outcome, Outcome::Impossible(_)) {
                s.stats.elapsed_ns = (per_square * f64::from(s.visited)) as u64;
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Run `req` and return the path too.
    pub fn solve(&mut self, req: &Request) -> Result<Solution, SolveError> {
        let summary = self.run(req)?;
        Ok(self.solution(req, summary))
    }

    /// The path of the last run.
    pub fn path(&self) -> Vec<Square> {
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
        self.check_memory(board, req.method)?;
        let timer = Instant::now();
        self.state.reset(board);
        let mut rule = TieBreaker::new(req.rule, self.state.layout(), req.start, req.seed)?;
        let verdict = match oracle {
            // rotate always closes its path
            Oracle::Consult => {
                exists::tour_from(board, req.start, req.closed || req.method == Method::Rotate)
            }
            Oracle::Skip => Ok(()),
        };
        if let Err(reason) = verdict {
            self.orderings = None;
            return Ok(RunSummary {
                outcome: Outcome::Impossible(Impossibility::Theorem(reason)),
                visited: 0,
                stats: Stats::default(),
            });
        }
        let start = self.state.layout().pad(req.start);
        let (outcome, mut stats) = match req.method {
            Method::Warnsdorff if !O::WATCHES && !self.plain => {
                self.warnsdorff_fast(&mut rule, req, start)
            }
            Method::Warnsdorff => {
                warnsdorff::run(&mut self.state, &mut rule, start, req.closed, obs)
            }
            Method::Backtrack | Method::Naive => {
                let cfg = if req.method == Method::Backtrack {
                    backtrack::config(req.closed, req.budget)
                } else {
                    naive::config(req.closed, req.budget)
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
            Method::Rotate => rotate::run(&mut self.state, &mut rule, start, obs),
        };
        stats.elapsed_ns = timer.elapsed().as_nanos() as u64;
        self.orderings = rule.orderings_used();
        Ok(RunSummary {
            outcome,
            visited: self.state.depth() as u32,
            stats,
        })
    }
}

impl Solver {
    /// One pure-Warnsdorff run through the kernel, path kept in the search state.
    fn warnsdorff_fast(
        &mut self,
        rule: &mut TieBreaker,
        req: &Request,
        start: usize,
    ) -> (Outcome, Stats) {
        let layout = *self.state.layout();
        let (deg, path) = self.state.kernel_parts();
        let walk = match req.rule {
            Rule::Order(order) => {
                let bits = order_tables(&mut self.order_bits, order);
                let c = kernel::Fixed::new(&layout, order, bits);
                kernel::walk_with_path(&layout, deg, start, &c, &mut (), path)
            }
            Rule::Squirrel => {
                let plan = rule.squirrel_plan().expect("squirrel plan").clone();
                let mut run = kernel::SquirrelRun::new(plan);
                let c = kernel::Squirrel::new(&layout);
                let walk = kernel::walk_with_path(&layout, deg, start, &c, &mut run, path);
                rule.restore_stage(run.plan().stage());
                walk
            }
            Rule::Pohl => {
                let c = kernel::Pohl::new(&layout);
                kernel::walk_with_path(&layout, deg, start, &c, &mut (), path)
            }
            Rule::Random => {
                let mut rng = rule.take_rng().expect("random rule has a PRNG");
                let c = kernel::Random::new(&layout);
                kernel::walk_with_path(&layout, deg, start, &c, &mut rng, path)
            }
            Rule::Roth | Rule::RothOriginal | Rule::Center => {
                let tables = geometry_tables(&mut self.geometry, &layout, req.rule);
                match tables.chooser(&layout) {
                    GeometryChooser::Bytes(c) => {
                        kernel::walk_with_path(&layout, deg, start, &c, &mut (), path)
                    }
                    GeometryChooser::Packed(c) => {
                        kernel::walk_with_path(&layout, deg, start, &c, &mut (), path)
                    }
                }
            }
        };
        let stats = Stats {
            nodes: u64::from(walk.visited),
            ties: walk.ties,
            ..Stats::default()
        };
        (walk_outcome(&layout, &walk, start, req.closed), stats)
    }
}

/// The mask tables of a fixed order, built once and rewritten in place for the next order.
fn order_tables(
    cache: &mut Option<(rules::LabelOrder, Box<kernel::Bits>)>,
    order: rules::LabelOrder,
) -> &kernel::Bits {
    match cache {
        Some((o, _)) if *o == order => {}
        Some((o, t)) => {
            kernel::set_order_bits(t, order);
            *o = order;
        }
        None => *cache = Some((order, kernel::order_bits(order))),
    }
    &cache.as_ref().expect("just filled").1
}

/// The distance-rule tables for `layout`'s board and `rule`, cached in the solver. They are read-only
/// and take 6 bits per square on a large board (`kernel::PackedClasses`), most of what a batch
/// lane's degrees take, so the process keeps one copy per board and rule for all its solvers: the
/// workers of a sweep share it, and a worker's own memory stays one byte per square and lane.
fn geometry_tables<'a>(
    cache: &'a mut Option<(Board, Rule, Arc<kernel::GeometryTables>)>,
    layout: &Layout,
    rule: Rule,
) -> &'a kernel::GeometryTables {
    type Shared = Vec<((Board, Rule), Weak<kernel::GeometryTables>)>;
    static SHARED: Mutex<Shared> = Mutex::new(Vec::new());
    let key = (layout.board(), rule);
    if !matches!(cache, Some((b, r, _)) if (*b, *r) == key) {
        // a poisoned lock only means another solver panicked while building: the list is still sound
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        shared.retain(|(_, t)| t.strong_count() > 0);
        let found = shared
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, t)| t.upgrade());
        let tables = found.unwrap_or_else(|| {
            let t = kernel::GeometryTables::new(layout, rule).expect("a distance rule has tables");
            let t = Arc::new(t);
            shared.push((key, Arc::downgrade(&t)));
            t
        });
        *cache = Some((key.0, key.1, tables));
    }
    &cache.as_ref().expect("just filled").2
}

/// How a walk of pure Warnsdorff ended.
fn walk_outcome(layout: &Layout, walk: &kernel::Walk, start: usize, closed: bool) -> Outcome {
    let squares = layout.board().len();
    if walk.visited < squares {
        return Outcome::DeadEnd;
    }
    let closes = squares > 2
        && layout
            .offsets()
            .iter()
            .any(|&o| walk.head.wrapping_add_signed(o) == start);
    if !closed || closes {
        Outcome::Found
    } else {
        Outcome::NotClosed
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solvers_share_the_distance_tables_of_a_board_and_rule() {
        // a board no other test uses: tests of this binary run in parallel in one process
        let board = Board::new(29, 31).unwrap();
        let req = |rule: Rule| Request::warnsdorff(board, Square::new(3, 4), rule);
        let (mut a, mut b) = (Solver::new(), Solver::new());
        a.run_batch(&[req(Rule::Roth)], &mut Vec::new()).unwrap();
        b.run_batch(&[req(Rule::Roth)], &mut Vec::new()).unwrap();
        let tables = |s: &Solver| s.geometry.as_ref().map(|g| Arc::clone(&g.2)).unwrap();
        assert!(Arc::ptr_eq(&tables(&a), &tables(&b)));
        // another rule gets its own tables; the first stay alive while a solver holds them
        b.run_batch(&[req(Rule::Center)], &mut Vec::new()).unwrap();
        assert!(!Arc::ptr_eq(&tables(&a), &tables(&b)));
        assert_eq!(Arc::strong_count(&tables(&a)), 2); // `a`'s and the one just taken
                                                       // same walks either way
        let mut fresh = Solver::new();
        let mut out = Vec::new();
        fresh.run_batch(&[req(Rule::Roth)], &mut out).unwrap();
        assert_eq!(out[0].visited, a.run(&req(Rule::Roth)).unwrap().visited);
    }
}
