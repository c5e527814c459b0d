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

pub mod backtrack;
mod dfs;
mod memory;
pub mod naive;
pub mod reference;
pub mod rotate;
pub mod rules;
mod trace;
pub mod warnsdorff;

pub use memory::{estimate_bytes, MemoryError};
pub use rules::{Rule, RuleError, TieBreaker};
pub use trace::{trace, Trace, TraceEvent};

use crate::board::{Board, Square};
use crate::exists::{self, NoTour};
use crate::search::SearchState;
use crate::tour::{StatsRecord, TourRecord};
use std::fmt;
use std::str::FromStr;
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

impl Solution {
    /// The JSON record of the output contract.
    pub fn to_record(&self) -> TourRecord {
        let closed = self.outcome == Outcome::Found && self.request.closed
            || self.outcome == Outcome::Found
                && self.squares.len() > 2
                && crate::board::is_knight_move(
                    self.squares[0],
                    self.squares[self.squares.len() - 1],
                );
        TourRecord {
            rows: self.request.board.rows(),
            cols: self.request.board.cols(),
            closed,
            start: Some(self.request.start),
            squares: self.squares.clone(),
            found: self.outcome == Outcome::Found,
            method: self.request.method.to_string(),
            rule: self.request.rule.to_string(),
            stats: StatsRecord {
                nodes: self.stats.nodes,
                backtracks: self.stats.backtracks,
                elapsed_ns: self.stats.elapsed_ns,
                ties: self.stats.ties,
                orderings: self.orderings.clone(),
            },
        }
    }
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

/// The seed of one run of a sweep, derived from (experiment seed, board, start, trial) with SplitMix64
/// (Steele, Lea & Flood 2014) so that any run can be replayed alone with `solve --seed`.
pub fn run_seed(seed: u64, board: Board, start: Square, trial: u32) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    let mut h = mix(seed);
    for part in [
        board.rows() as u64,
        board.cols() as u64,
        start.row() as u64,
        start.col() as u64,
        trial as u64,
    ] {
        h = mix(h ^ part);
    }
    h
}

/// Scratch state for runs, reused across runs: allocate once per worker thread.
#[derive(Clone, Debug)]
pub struct Solver {
    state: SearchState,
    frames: Vec<dfs::Frame>,
    orderings: Option<Vec<String>>,
    /// The last (board, method) whose memory estimate passed: sweeps run millions of runs on one board,
    /// and reading /proc/meminfo per run would cost more than a small run.
    memory_ok: Option<(Board, Method)>,
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
            frames: Vec::new(),
            orderings: None,
            memory_ok: None,
        }
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

    /// Run a batch of independent requests, appending one summary per request to `out` in order.
    /// Sweeps call this: batching is where independent runs can be interleaved to hide latency.
    pub fn run_batch(
        &mut self,
        reqs: &[Request],
        out: &mut Vec<RunSummary>,
    ) -> Result<(), SolveError> {
        for req in reqs {
            out.push(self.run(req)?);
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
        if self.memory_ok != Some((board, req.method)) {
            memory::check(board, req.method)?;
            self.memory_ok = Some((board, req.method));
        }
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
            Method::Warnsdorff => {
                warnsdorff::run(&mut self.state, &mut rule, start, req.closed, obs)
            }
            Method::Backtrack => backtrack::run(
                &mut self.state,
                &mut self.frames,
                &mut rule,
                start,
                req.closed,
                req.budget,
                obs,
            ),
            Method::Naive => naive::run(
                &mut self.state,
                &mut self.frames,
                &mut rule,
                start,
                req.closed,
                req.budget,
                obs,
            ),
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
    /// The knight is about to move from padded square `from` to `to` (degrees not yet updated).
    #[inline(always)]
    fn on_move(&mut self, _state: &SearchState, _from: usize, _to: usize) {}
    /// The search just left padded square `square` again.
    #[inline(always)]
    fn on_undo(&mut self, _state: &SearchState, _square: usize) {}
}

/// An observer that does nothing.
pub struct NoObserver;

impl Observer for NoObserver {}

/// Convenience: solve one request with a fresh solver.
pub fn solve(req: &Request) -> Result<Solution, SolveError> {
    Solver::new().solve(req)
}
