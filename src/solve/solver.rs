//! The [`Solver`]: a thin dispatcher from a request to the engine that serves it, made from one
//! [`SolverOptions`]. Each engine keeps its own scratch state and reuses it across runs, so a sweep
//! allocates nothing per run:
//!
//! | engine | serves ([`Route`]) | keeps |
//! |---|---|---|
//! | [`shaped::Engine`] | every run on a board with holes or walked by another leaper | the shape's graph, degrees, path, stack |
//! | `walk::Kernel` | pure Warnsdorff with the `check` closing: one walk with its path, or a batch group in lanes ([`Solver::run_batch`]) | the choosers' tables, the lanes, the small-board tables, the tie trees |
//! | `plain::Engine` | every other run on a whole board walked by the knight: the plain Warnsdorff loop, the searches, `rotate` | the search state (which the kernel's single walk writes its path into), the DFS stack |
//!
//! Which engine serves which request is decided here alone (`Solver::route` for a run alone,
//! `Solver::in_lanes` for a request of a batch); the engines never hand a run to each other, except
//! a kernel given a rule without a chooser, which takes the plain loop (`walk/dispatch.rs`).

use super::walk::{self, batch};
use super::{
    memory, plain, shaped, MemoryError, Method, NoObserver, Observer, Oracle, Outcome, Request,
    RunSummary, Solution, SolveError, SolverOptions,
};
use crate::board::{Board, Leaper, Shape, Square};
use crate::state::SearchState;

/// Which engine serves a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// The search on any board ([`shaped`]).
    Shaped,
    /// The kernel: pure Warnsdorff, one walk with its path.
    Kernel,
    /// The search state's own loops: plain Warnsdorff, `backtrack`, `naive`, `rotate`.
    Plain,
}

/// Runs requests, keeping each engine's scratch state across runs: make one per worker thread.
#[derive(Clone, Debug)]
pub struct Solver {
    options: SolverOptions,
    /// The last (board, method) whose memory need was checked: reading `/proc/meminfo` costs more
    /// than a whole 8x8 run, so it is read once per board, not once per run.
    memory_ok: Option<(Board, Method)>,
    plain: plain::Engine,
    pub(in crate::solve) kernel: walk::Kernel,
    shaped: shaped::Engine,
    /// The engine that made the last run with a path: [`Route::Shaped`] or the search state's.
    last: Route,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with the default options (grows to the largest board it meets).
    pub fn new() -> Self {
        Solver::with_options(SolverOptions::default())
    }

    /// A solver that runs as `options` say.
    pub fn with_options(options: SolverOptions) -> Self {
        let tie_trees = options.tie_trees.clone().unwrap_or_default();
        Solver {
            options,
            memory_ok: None,
            plain: plain::Engine::default(),
            kernel: walk::Kernel::new(tie_trees),
            shaped: shaped::Engine::default(),
            last: Route::Plain,
        }
    }

    /// Run `req`, keeping the path in the solver ([`Solver::path`]); no allocation once warm.
    pub fn run(&mut self, req: &Request) -> Result<RunSummary, SolveError> {
        self.run_observed(req, &mut NoObserver, Oracle::Consult)
    }

    /// Run `req` and return the path too.
    pub fn solve(&mut self, req: &Request) -> Result<Solution, SolveError> {
        let summary = self.run(req)?;
        Ok(self.solution(req, summary))
    }

    /// Like [`Solver::solve`] but without consulting the existence theorems first, so that the search
    /// itself must prove impossibility by exhausting its space (tests of the oracle, proofs).
    pub fn solve_by_search_alone(&mut self, req: &Request) -> Result<Solution, SolveError> {
        let summary = self.run_observed(req, &mut NoObserver, Oracle::Skip)?;
        Ok(self.solution(req, summary))
    }

    /// Like [`Solver::solve`], but pure Warnsdorff takes the plain incremental loop
    /// ([`super::warnsdorff::next_move`] on the [`SearchState`]) instead of the fast kernel: the
    /// straightforward twin the kernel is tested against. Other methods are unaffected.
    pub fn solve_plain(&mut self, req: &Request) -> Result<Solution, SolveError> {
        let summary = self.run_with(req, &mut NoObserver, Oracle::Consult, false)?;
        Ok(self.solution(req, summary))
    }

    /// Run a batch of independent requests, appending one summary per request to `out` in order.
    /// Sweeps call this: batching is where independent runs can be interleaved to hide latency.
    ///
    /// Consecutive pure-Warnsdorff requests on the same board with the same rule are walked by the
    /// kernel several at a time, each in its own lane (a degree array of about one byte per square;
    /// see [`super::interleaved_lanes`]), and keep no path: after a batch, [`Solver::path`] and
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
            if !self.in_lanes(&r) {
                out.push(self.run(&r)?);
                i += 1;
                continue;
            }
            let len = batch::group_len(&self.options, &reqs[i..]);
            self.lanes(&reqs[i..i + len], out)?;
            i += len;
        }
        Ok(())
    }

    /// Whether a request of a batch goes to the kernel's lanes: pure Warnsdorff with the `check`
    /// closing on whole boards walked by the knight, and no mask given (else it runs alone).
    fn in_lanes(&self, req: &Request) -> bool {
        let other_shape = self.options.leaper != Leaper::KNIGHT || self.options.mask.is_some();
        req.method == Method::Warnsdorff && req.closing == super::Closing::Check && !other_shape
    }

    /// A batch group (one board and rule, or one board and several orderings; [`batch::group_len`])
    /// through the kernel's lanes, or each run alone if the rule has no chooser.
    fn lanes(&mut self, reqs: &[Request], out: &mut Vec<RunSummary>) -> Result<(), SolveError> {
        self.check_memory(reqs[0].board, Method::Warnsdorff)?;
        if let Some(walked) = self.kernel.run_group(&self.options, reqs, out) {
            return walked;
        }
        for r in reqs {
            out.push(self.run(r)?);
        }
        Ok(())
    }

    /// Which engine serves `req` run alone, where pure Warnsdorff may take the kernel if `kernel`
    /// (not when watched move by move, nor for [`Solver::solve_plain`]).
    pub(crate) fn route(&self, req: &Request, kernel: bool) -> Result<Route, SolveError> {
        if self.off_the_knights_board(req.board)? {
            return Ok(Route::Shaped);
        }
        let fast = req.method == Method::Warnsdorff && req.closing == super::Closing::Check;
        Ok(if kernel && fast {
            Route::Kernel
        } else {
            Route::Plain
        })
    }

    /// Whether runs on `board` are on another shape than the whole board walked by the knight; an
    /// error if a mask is set for another board.
    fn off_the_knights_board(&self, board: Board) -> Result<bool, SolveError> {
        match &self.options.mask {
            Some(m) if m.board() != board => Err(SolveError::BoardNotMask {
                board,
                mask: m.board(),
            }),
            Some(m) => Ok(!m.is_full_knight()),
            None => Ok(self.options.leaper != Leaper::KNIGHT),
        }
    }

    pub(crate) fn check_memory(&mut self, board: Board, method: Method) -> Result<(), MemoryError> {
        if self.memory_ok != Some((board, method)) {
            memory::check(board, method)?;
            self.memory_ok = Some((board, method));
        }
        Ok(())
    }

    /// The path of the last run.
    pub fn path(&self) -> Vec<Square> {
        match self.last {
            Route::Shaped => self.shaped.path(),
            _ => self.plain.state().path_squares(),
        }
    }

    /// The search state of the last run on a whole board walked by the knight (its path, degrees).
    pub fn state(&self) -> &SearchState {
        self.plain.state()
    }

    /// The solution of `req`'s run, which ended as `summary`: its path from the engine that made it.
    pub(crate) fn solution(&self, req: &Request, summary: RunSummary) -> Solution {
        let squares = match summary.outcome {
            Outcome::Impossible(super::Impossibility::Theorem(_)) => Vec::new(),
            _ => self.path(),
        };
        let orderings = match self.last {
            Route::Shaped => None,
            _ => self.plain.orderings().clone(),
        };
        Solution {
            request: *req,
            outcome: summary.outcome,
            squares,
            stats: summary.stats,
            orderings,
        }
    }

    /// Run `req` alone, telling `obs` each move (a watching observer takes the plain loops).
    pub(crate) fn run_observed<O: Observer>(
        &mut self,
        req: &Request,
        obs: &mut O,
        oracle: Oracle,
    ) -> Result<RunSummary, SolveError> {
        self.run_with(req, obs, oracle, !O::WATCHES)
    }

    /// Run `req` alone in the engine [`Solver::route`] names.
    fn run_with<O: Observer>(
        &mut self,
        req: &Request,
        obs: &mut O,
        oracle: Oracle,
        kernel: bool,
    ) -> Result<RunSummary, SolveError> {
        let board = req.board;
        if !board.contains(req.start.row() as i64, req.start.col() as i64) {
            return Err(SolveError::StartOffBoard {
                board,
                start: req.start,
            });
        }
        self.last = Route::Plain;
        let route = self.route(req, kernel)?;
        if route == Route::Shaped {
            self.last = Route::Shaped;
            return self.run_shaped(req);
        }
        req.check()?;
        self.check_memory(board, req.method)?;
        let kernel = (route == Route::Kernel).then_some(&mut self.kernel);
        self.plain.run(req, obs, oracle, kernel, &self.options)
    }

    /// Run `req` in the search on any board, on the solver's shape for `req.board`.
    fn run_shaped(&mut self, req: &Request) -> Result<RunSummary, SolveError> {
        let (board, method) = (req.board, req.method);
        // checked once per (board, method), as the other engines' need is
        if self.memory_ok != Some((board, method)) {
            memory::check_shaped(board, method)?;
            self.memory_ok = Some((board, method));
        }
        match &self.options.mask {
            Some(mask) => self.shaped.set_shape(mask),
            None => self
                .shaped
                .set_shape(&Shape::full(board).with_leaper(self.options.leaper)),
        }
        self.shaped.run(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Closure;
    use crate::solve::{reference, Closing, Rule, Stats, TieTrees};
    use std::sync::Arc;

    fn board(n: u64) -> Board {
        Board::square(n).unwrap()
    }

    fn req(b: Board, method: Method, rule: Rule) -> Request {
        Request {
            method,
            ..Request::warnsdorff(b, Square::new(0, 0), rule)
        }
    }

    /// A mask of `b` with one hole, away from the starts the tests use.
    fn holed(b: Board) -> Shape {
        let last = Square::new(b.rows() as u16 - 1, b.cols() as u16 - 1);
        Shape::new(b, Leaper::KNIGHT, &[last]).unwrap()
    }

    #[test]
    fn pure_warnsdorff_takes_the_kernel_and_everything_else_the_search_state() {
        let s = Solver::new();
        let b = board(8);
        let warnsdorff = req(b, Method::Warnsdorff, Rule::FIRST);
        assert_eq!(s.route(&warnsdorff, true).unwrap(), Route::Kernel);
        // watched, or its plain twin asked for: the plain loop
        assert_eq!(s.route(&warnsdorff, false).unwrap(), Route::Plain);
        // the start-last closing has no kernel
        let start_last = Request {
            closure: Closure::Closed,
            closing: Closing::StartLast,
            ..warnsdorff
        };
        assert_eq!(s.route(&start_last, true).unwrap(), Route::Plain);
        for method in [Method::Backtrack, Method::Naive, Method::Rotate] {
            assert_eq!(
                s.route(&req(b, method, Rule::FIRST), true).unwrap(),
                Route::Plain
            );
        }
        // in a batch: pure Warnsdorff in lanes, the rest alone
        assert!(s.in_lanes(&warnsdorff));
        assert!(!s.in_lanes(&start_last));
        for method in [Method::Backtrack, Method::Naive, Method::Rotate] {
            assert!(!s.in_lanes(&req(b, method, Rule::FIRST)), "{method}");
        }
    }

    #[test]
    fn holes_and_other_leapers_take_the_search_on_any_board() {
        let b = board(8);
        let masked =
            Solver::with_options(SolverOptions::new().shape(Leaper::KNIGHT, Some(holed(b))));
        let giraffe = Leaper::new(1, 4).unwrap();
        let leaper = Solver::with_options(SolverOptions::new().shape(giraffe, None));
        for s in [&masked, &leaper] {
            for method in Method::ALL {
                let r = req(b, method, Rule::FIRST);
                assert_eq!(s.route(&r, true).unwrap(), Route::Shaped, "{method}");
                assert!(!s.in_lanes(&r), "{method}");
            }
        }
        // a mask with no hole walked by the knight is the whole board: the kernel alone, but never
        // the lanes of a batch (a batch with a mask runs its requests one by one)
        let full =
            Solver::with_options(SolverOptions::new().shape(Leaper::KNIGHT, Some(Shape::full(b))));
        let r = req(b, Method::Warnsdorff, Rule::FIRST);
        assert_eq!(full.route(&r, true).unwrap(), Route::Kernel);
        assert!(!full.in_lanes(&r));
        // a request on another board than the mask's is refused
        let other = req(board(9), Method::Warnsdorff, Rule::FIRST);
        assert!(matches!(
            masked.route(&other, true),
            Err(SolveError::BoardNotMask { .. })
        ));
        assert!(matches!(
            Solver::with_options(SolverOptions::new().shape(Leaper::KNIGHT, Some(Shape::full(b))))
                .run(&other),
            Err(SolveError::BoardNotMask { .. })
        ));
    }

    /// Every start of a few boards: the kernel's walk, the plain loop's, a batch's lanes and the
    /// slow twin agree.
    #[test]
    fn the_kernel_the_plain_loop_and_the_lanes_walk_the_twins_walks() {
        for b in [board(5), board(8), Board::new(6, 9).unwrap()] {
            for rule in [Rule::FIRST, Rule::POHL, Rule::ROTH, Rule::CENTER] {
                let reqs: Vec<Request> = b
                    .squares()
                    .map(|s| Request::warnsdorff(b, s, rule))
                    .collect();
                let mut lanes = Vec::new();
                Solver::new().run_batch(&reqs, &mut lanes).unwrap();
                let mut s = Solver::new();
                for (r, batched) in reqs.iter().zip(&lanes) {
                    let twin = reference::warnsdorff(b, r.start, rule, r.seed);
                    let fast = s.solve(r).unwrap();
                    let plain = s.solve_plain(r).unwrap();
                    assert_eq!(plain.squares, fast.squares, "{b} {rule} {}", r.start);
                    assert_eq!(
                        plain.stats,
                        Stats {
                            elapsed_ns: plain.stats.elapsed_ns,
                            ..fast.stats
                        }
                    );
                    if !matches!(fast.outcome, Outcome::Impossible(_)) {
                        assert_eq!(fast.squares, twin, "{b} {rule} {}", r.start);
                    }
                    assert_eq!(batched.outcome, fast.outcome);
                    assert_eq!(batched.visited as usize, fast.squares.len());
                    assert_eq!(batched.stats.ties, fast.stats.ties);
                }
            }
        }
    }

    /// The searches of the search state and of the search on any board against the recursive
    /// twins: same outcome, path and squares entered.
    #[test]
    fn the_searches_find_the_twins_tours() {
        let b = board(5);
        let engines = [
            Solver::new(),
            Solver::with_options(SolverOptions::new().shape(Leaper::KNIGHT, Some(holed(b)))),
        ];
        for mut s in engines {
            let shape = s.options.mask.clone().unwrap_or_else(|| Shape::full(b));
            for start in shape.squares().take(8) {
                for closure in [Closure::Open, Closure::Closed] {
                    let budget = 20_000;
                    let bt = Request {
                        start,
                        closure,
                        budget,
                        method: Method::Backtrack,
                        ..Request::warnsdorff(b, start, Rule::FIRST)
                    };
                    let got = s.solve_by_search_alone(&bt).unwrap();
                    let (outcome, path, nodes) = reference::backtrack_recursive(
                        shape.clone(),
                        start,
                        Rule::FIRST,
                        closure,
                        budget,
                        true,
                    );
                    assert_eq!(
                        (got.outcome, &got.squares, got.stats.nodes),
                        (outcome, &path, nodes)
                    );
                    let naive = Request {
                        method: Method::Naive,
                        ..bt
                    };
                    let got = s.solve_by_search_alone(&naive).unwrap();
                    let (outcome, path, nodes) = reference::naive_recursive(
                        shape.clone(),
                        start,
                        crate::solve::rules::LabelOrder::IDENTITY,
                        closure,
                        budget,
                    );
                    assert_eq!(
                        (got.outcome, &got.squares, got.stats.nodes),
                        (outcome, &path, nodes)
                    );
                }
            }
        }
    }

    #[test]
    fn a_solvers_options_are_kept_and_shared_tie_trees_are_shared() {
        let trees = Arc::new(TieTrees::default());
        let s = Solver::with_options(
            SolverOptions::new()
                .lane_memory(2.5)
                .share_tie_trees(&trees),
        );
        assert_eq!(s.options.lane_memory, 2.5);
        assert!(Arc::ptr_eq(s.kernel.tie_trees(), &trees));
        // a solver's own trees otherwise
        assert!(!Arc::ptr_eq(Solver::new().kernel.tie_trees(), &trees));
    }
}
