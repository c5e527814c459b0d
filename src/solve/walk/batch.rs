//! The kernel as an engine of the [`Solver`]: its scratch state ([`Kernel`]), its single fast walk
//! (path kept) and its batch groups (runs of one board, rule and `closed`, walked side by side in
//! lanes, no paths), both through the one rule dispatch of [`super::dispatch`]. Warnsdorff's rule
//! and the existence theorems consulted first as defined in `docs/REFERENCE.md`.
//!
//! [`Solver`]: crate::solve::Solver

use super::chooser::scan_offsets;
use super::dispatch::{with_chooser, ChooserTables, ChooserVisitor};
use super::interleave::{lanes_for, run_lanes, LaneJob};
use super::small::{self, SmallBoard};
use super::step::walk_with_path;
use super::tie_tree::{Claim, Held, TieTree, TieTrees};
use super::window::{self, Orders, Ranked};
use super::{Chooser, EmptyBoard, Walk};
use crate::board::{Board, Closure, Layout};
use crate::exists::{self, NoTour};
use crate::solve::rules::{Kind, LabelOrder};
use crate::solve::{
    interleaved_lanes, warnsdorff, Closing, Impossibility, Method, NoObserver, Outcome, Request,
    Rule, RunSummary, SolveError, SolverOptions, Stats, TieBreaker,
};
use crate::state::SearchState;
use std::sync::Arc;
use std::time::Instant;

/// The kernel's scratch state, kept across runs by a solver: the choosers' tables of the last rules
/// used, and for batch groups the lanes (their degree arrays in one buffer, and the empty board's
/// row templates they start from), the small-board kernel's tables, the tie trees and the window
/// step's tables.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kernel {
    /// The kernel choosers' tables of the last rules used.
    pub(in crate::solve) tables: ChooserTables,
    /// Row templates of the empty board, for the lanes of a batch.
    empty: EmptyBoard,
    /// Tables of the small-board kernel for the last board and slot order.
    small: Box<SmallBoard>,
    /// The fixed orderings' walks of small boards, shared by batch groups and by the solvers
    /// given the same trees ([`crate::solve::SolverOptions::share_tie_trees`]).
    tie_trees: Arc<TieTrees>,
    /// The tree of the last small board walked, and the slots claimed there.
    tie_tree: Held,
    /// The window step's tables of a batch group's orderings, and each run's ordering.
    orders: Vec<Ranked>,
    order_of: Vec<u32>,
    /// Degree arrays of the lanes of a batch.
    lanes: Vec<u8>,
    /// Indexes (within the group) of a batch group's runs that can start.
    startable: Vec<u32>,
}

impl Kernel {
    /// Empty scratch state that grows the tie trees `tie_trees`.
    pub(crate) fn new(tie_trees: Arc<TieTrees>) -> Self {
        Kernel {
            tie_trees,
            ..Kernel::default()
        }
    }

    /// The tie trees it grows.
    #[cfg(test)]
    pub(crate) fn tie_trees(&self) -> &Arc<TieTrees> {
        &self.tie_trees
    }

    /// One pure-Warnsdorff run, its path kept in `state` (freshly reset for `req`'s board); the
    /// plain loop if the rule has no chooser.
    pub(crate) fn walk(
        &mut self,
        state: &mut SearchState,
        rule: &mut TieBreaker,
        req: &Request,
        start: usize,
    ) -> (Outcome, Stats) {
        let layout = *state.layout();
        let single = SingleWalk {
            state,
            rule,
            start,
            closure: req.closure,
        };
        with_chooser(req.rule, &layout, &mut self.tables, 1, single)
    }

    /// A group of Warnsdorff requests with one board, one rule (or several orderings, which the
    /// window step walks side by side; [`group_len`]) and one `closed`, walked in lanes, their
    /// summaries appended to `out`; `None` (and nothing appended) if the rule has no chooser.
    pub(crate) fn run_group(
        &mut self,
        options: &SolverOptions,
        reqs: &[Request],
        out: &mut Vec<RunSummary>,
    ) -> Option<Result<(), SolveError>> {
        let timer = Instant::now();
        let (board, mut rule) = (reqs[0].board, reqs[0].rule);
        let mixed = rule.is_shuffle() && shuffles_in_window(options, board);
        if mixed {
            // the window step walks each run's drawn ordering; the chooser only gives the step
            // its type (a fixed order), and no walk of the group has its ordering for certain, so
            // none finishes in the byte step
            rule = Rule::FIRST;
        }
        let layout = Layout::new(board);
        let first = out.len();
        let group = Group {
            layout: &layout,
            reqs,
            out: &mut *out,
            empty: &mut self.empty,
            small: options.small_kernel.then_some(&mut *self.small),
            tree: options
                .tie_tree
                .then_some((&*self.tie_trees, &mut self.tie_tree)),
            mixed,
            buf: &mut self.lanes,
            startable: &mut self.startable,
            lanes: lanes_for(&layout, options.lane_memory),
            window: options
                .window_step
                .then_some((&mut self.orders, &mut self.order_of)),
        };
        let walked = with_chooser(rule, &layout, &mut self.tables, reqs.len(), group)?;
        // Interleaved runs overlap in time: each is given a share of the group's.
        share_time(timer.elapsed().as_nanos() as u64, &mut out[first..]);
        Some(walked)
    }
}

/// How many requests at the head of `reqs` (the first a request of the lanes) make one batch group:
/// pure Warnsdorff with the `check` closing on one board with one `closed` and one rule, or, where
/// orderings mix ([`mixes_orderings`]), any rules that walk one ordering a run.
pub(crate) fn group_len(options: &SolverOptions, reqs: &[Request]) -> usize {
    let r = reqs[0];
    let orderings = walks_an_ordering(r.rule) && mixes_orderings(options, r.board);
    reqs.iter()
        .take_while(|q| {
            q.method == Method::Warnsdorff
                && q.closing == Closing::Check
                && q.board == r.board
                && (q.rule == r.rule || orderings && walks_an_ordering(q.rule))
                && q.closure == r.closure
        })
        .count()
}

/// Whether `rule` walks one ordering a run: a fixed one, or the one `shuffle` draws.
fn walks_an_ordering(rule: Rule) -> bool {
    matches!(rule.kind(), Kind::Fixed(_)) || rule.is_shuffle()
}

/// Whether runs of `board` under different orderings (fixed ones, and `shuffle`'s drawn ones)
/// walk side by side in the window step: where it is on and enough lanes fit for it to pay
/// (else group by group, finished in the byte step; `shuffle` in the plain loop).
fn mixes_orderings(options: &SolverOptions, board: Board) -> bool {
    !small::fits(board) && shuffles_in_window(options, board)
}

/// Whether a group of `shuffle` runs on `board` walks in the window step, each run with its
/// drawn ordering: where orderings mix, and also on boards of at most 64 squares, where it
/// takes a third of the small-board kernel's time (groups there hold one rule, so this mixes
/// nothing else: the tie tree takes fixed orderings).
fn shuffles_in_window(options: &SolverOptions, board: Board) -> bool {
    options.window_step
        && window::available()
        && interleaved_lanes(board, options.lane_memory) >= window::MIN_LANES
}

/// Share a group's wall time `ns` among its runs in proportion to the squares each visited (runs
/// impossible by theorem, which took none of it, keep 0). In floating point: a 128-bit division per
/// run showed in the profile of small-board sweeps.
pub(crate) fn share_time(ns: u64, runs: &mut [RunSummary]) {
    let total: u64 = runs.iter().map(|s| u64::from(s.visited)).sum();
    let per_square = ns as f64 / total.max(1) as f64;
    for s in runs {
        if !matches!(s.outcome, Outcome::Impossible(_)) {
            s.stats.elapsed_ns = (per_square * f64::from(s.visited)) as u64;
        }
    }
}

/// One walk with its path, for [`Kernel::walk`].
struct SingleWalk<'a> {
    state: &'a mut SearchState,
    rule: &'a mut TieBreaker,
    start: usize,
    closure: Closure,
}

impl ChooserVisitor for SingleWalk<'_> {
    type Out = (Outcome, Stats);

    fn visit<C: Chooser>(self, ch: &C) -> (Outcome, Stats) {
        let layout = *self.state.layout();
        let (deg, path) = self.state.kernel_parts();
        let mut run = C::start_run(Some(&mut *self.rule));
        let walk = walk_with_path(&layout, deg, self.start, ch, &mut run, path);
        C::end_run(self.rule, &run);
        let stats = Stats {
            nodes: u64::from(walk.visited),
            ties: walk.ties,
            ..Stats::default()
        };
        (
            walk_outcome(&layout, &walk, self.start, self.closure),
            stats,
        )
    }

    fn plain(self) -> (Outcome, Stats) {
        warnsdorff::run(
            self.state,
            self.rule,
            self.start,
            self.closure,
            Closing::Check,
            &mut NoObserver,
        )
    }
}

/// The runs of a batch group, for [`Kernel::run_group`]: its summaries are appended to `out`; gives
/// `None` (and appends nothing) if the rule has no chooser.
struct Group<'a> {
    layout: &'a Layout,
    reqs: &'a [Request],
    out: &'a mut Vec<RunSummary>,
    empty: &'a mut EmptyBoard,
    /// The small-board kernel's tables, unless it is turned off ([`SolverOptions::small_kernel`]).
    small: Option<&'a mut SmallBoard>,
    /// The tie trees and the solver's current one, unless they are turned off
    /// ([`SolverOptions::tie_tree`]).
    tree: Option<(&'a TieTrees, &'a mut Held)>,
    /// Whether each run walks its own ordering (`shuffle`) in the window step, the chooser giving
    /// the step only its type: then neither the tie tree nor the small-board kernel walks them.
    mixed: bool,
    /// The lanes' buffer, and how many lanes a step walks side by side.
    buf: &'a mut Vec<u8>,
    startable: &'a mut Vec<u32>,
    lanes: usize,
    /// Where fixed orderings keep their window-step tables, if they take that step
    /// ([`SolverOptions::window_step`]): one per ordering of the group, and each run's.
    window: Option<(&'a mut Vec<Ranked>, &'a mut Vec<u32>)>,
}

impl ChooserVisitor for Group<'_> {
    type Out = Option<Result<(), SolveError>>;

    fn visit<C: Chooser>(self, ch: &C) -> Self::Out {
        let Group {
            layout,
            reqs,
            out,
            empty,
            small,
            tree,
            mixed,
            buf,
            startable,
            lanes,
            window,
        } = self;
        let first = out.len();
        let (runs, failure) = start_runs::<C>(layout, reqs, out, startable);
        let results = &mut out[first..];
        let finish = |i: usize, walk: Walk, _: C::Run| {
            results[i] = walk_summary(layout, &reqs[i], &walk);
        };
        let job = |i: usize, run: C::Run| {
            let start = layout.pad(reqs[i].start);
            (i, LaneJob { start, run })
        };
        let (small, tree) = if mixed { (None, None) } else { (small, tree) };
        let kernel = match (small, tree) {
            (Some(small), Some((trees, held)))
                if small::fits(layout.board()) && C::SLOT_ORDER && !C::PER_RUN =>
            {
                let (tree, claim) = trees.tree_for(held, layout.board());
                GroupKernel::Tree(small, tree, claim)
            }
            (Some(small), _) if small::fits(layout.board()) => GroupKernel::Small(small),
            _ => GroupKernel::Bytes {
                empty,
                buf,
                lanes,
                window: window
                    .filter(|_| C::SLOT_ORDER && !C::PER_RUN && window::available())
                    .map(|(ranked, of_job)| orders(layout, reqs, ranked, of_job)),
            },
        };
        if C::PER_RUN {
            let jobs = runs.into_iter().map(|(i, run)| job(i, run));
            kernel.run(layout, ch, jobs, finish);
        } else {
            let jobs = startable
                .iter()
                .map(|&i| job(i as usize, C::start_run(None)));
            kernel.run(layout, ch, jobs, finish);
        }
        Some(match failure {
            Some(e) => Err(e),
            None => Ok(()),
        })
    }

    fn plain(self) -> Self::Out {
        None
    }
}

/// Check the requests of a batch group and append a summary for each to `out`: the theorems' answer
/// where they rule the start out, else a placeholder for its walk, its index then in `startable`.
/// Gives the per-run state of the runs that can start (for the rules that have one), and the error
/// of the first request that fails, where the group stops.
fn start_runs<C: Chooser>(
    layout: &Layout,
    reqs: &[Request],
    out: &mut Vec<RunSummary>,
    startable: &mut Vec<u32>,
) -> (Vec<(usize, C::Run)>, Option<SolveError>) {
    // the theorems' answer for the board, once: runs differ only by their start's colour
    let verdict = exists::tour(layout.board(), reqs[0].closure);
    startable.clear();
    let mut runs = Vec::new();
    let placeholder = |outcome| RunSummary {
        outcome,
        closes: false,
        visited: 0,
        stats: Stats::default(),
        attempts: 1,
    };
    for (i, req) in reqs.iter().enumerate() {
        match prepare::<C>(req, layout, verdict) {
            Ok(Ok(run)) => {
                startable.push(i as u32);
                runs.extend(run.map(|run| (i, run)));
                out.push(placeholder(Outcome::DeadEnd));
            }
            Ok(Err(reason)) => out.push(placeholder(Outcome::Impossible(Impossibility::Theorem(
                reason,
            )))),
            Err(e) => return (runs, Some(e)),
        }
    }
    (runs, None)
}

/// The summary of `req`'s walk, which ended as `walk`.
fn walk_summary(layout: &Layout, req: &Request, walk: &Walk) -> RunSummary {
    let start = layout.pad(req.start);
    let squares = layout.board().len();
    RunSummary {
        outcome: walk_outcome(layout, walk, start, req.closure),
        closes: squares > 2 && walk.visited == squares && layout.knight_apart(walk.head, start),
        visited: walk.visited,
        stats: Stats {
            nodes: u64::from(walk.visited),
            ties: walk.ties,
            ..Stats::default()
        },
        attempts: 1,
    }
}

/// Which kernel walks a batch group: the small-board kernel where the board fits in a `u64` (every
/// chooser has its tie-break there), through the tie tree for fixed orderings, else the byte kernel
/// with its scratch arrays (fixed orderings in its window step, unless `window` is false).
enum GroupKernel<'a> {
    Small(&'a mut SmallBoard),
    Tree(&'a mut SmallBoard, &'a TieTree, &'a mut Claim),
    Bytes {
        empty: &'a mut EmptyBoard,
        buf: &'a mut Vec<u8>,
        lanes: usize,
        window: Option<Orders<'a>>,
    },
}

impl GroupKernel<'_> {
    fn run<C: Chooser>(
        self,
        layout: &Layout,
        ch: &C,
        jobs: impl Iterator<Item = (usize, LaneJob<C::Run>)>,
        done: impl FnMut(usize, Walk, C::Run),
    ) {
        match self {
            GroupKernel::Small(tables) => small::run_lanes(layout, tables, ch, jobs, done),
            GroupKernel::Tree(tables, tree, claim) => {
                tree.run_lanes(claim, layout, tables, ch, jobs, done)
            }
            GroupKernel::Bytes {
                empty,
                buf,
                lanes,
                window,
            } => run_lanes(layout, empty, buf, lanes, window, ch, jobs, done),
        }
    }
}

/// The window step's tables for the orderings of `reqs` (fixed ones, and those `shuffle` draws; one
/// per run of equal orderings in a row), written into `ranked` and `of_job`.
fn orders<'a>(
    layout: &Layout,
    reqs: &[Request],
    ranked: &'a mut Vec<Ranked>,
    of_job: &'a mut Vec<u32>,
) -> Orders<'a> {
    ranked.clear();
    of_job.clear();
    let mut last = None;
    for req in reqs {
        let order = match req.rule.kind() {
            Kind::Fixed(order) => order,
            // the plain loop's own draw, from the run's seed
            _ if req.rule.is_shuffle() => {
                let tb = TieBreaker::new(req.rule, layout, req.start, req.seed)
                    .expect("`shuffle` applies to every run");
                LabelOrder::from_zero_based(*tb.scan_order()).expect("an ordering")
            }
            _ => unreachable!("a group of orderings holds {}", req.rule),
        };
        if last != Some(order) {
            let offsets = scan_offsets(layout, order);
            ranked.push(Ranked::new(layout, &offsets).expect("an ordering of the knight's moves"));
            last = Some(order);
        }
        of_job.push(ranked.len() as u32 - 1);
    }
    Orders { ranked, of_job }
}

/// Validate one request of a batch group whose board's theorem verdict is `verdict`: an error, or the
/// verdict for its start, with its per-run state if the chooser has one (`random`: its PRNG;
/// `squirrel`: its plan, which also checks the rule's domain). Other rules' tie-breakers cannot fail
/// and hold nothing a walk needs, so a batch does not build one a run (on small boards that and the
/// per-run theorem check would be a large share of the work).
fn prepare<C: Chooser>(
    req: &Request,
    layout: &Layout,
    verdict: Result<(), NoTour>,
) -> Result<Result<Option<C::Run>, NoTour>, SolveError> {
    let board = req.board;
    if !board.contains(req.start.row() as i64, req.start.col() as i64) {
        return Err(SolveError::StartOffBoard {
            board,
            start: req.start,
        });
    }
    let run = if C::PER_RUN {
        let mut tb = TieBreaker::new(req.rule, layout, req.start, req.seed)?;
        Some(C::start_run(Some(&mut tb)))
    } else {
        debug_assert!(TieBreaker::new(req.rule, layout, req.start, req.seed).is_ok());
        None
    };
    let verdict = verdict.and_then(|()| exists::start_colour(board, req.start, req.closure));
    Ok(verdict.map(|()| run))
}

/// How a walk of pure Warnsdorff ended.
fn walk_outcome(layout: &Layout, walk: &Walk, start: usize, closure: Closure) -> Outcome {
    let squares = layout.board().len();
    if walk.visited < squares {
        return Outcome::DeadEnd;
    }
    let closes = squares > 2 && layout.knight_apart(walk.head, start);
    if !closure.is_closed() || closes {
        Outcome::Found
    } else {
        Outcome::NotClosed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};
    use crate::exists::NoTour;
    use crate::solve::Solver;

    fn summary(outcome: Outcome, visited: u32) -> RunSummary {
        RunSummary {
            outcome,
            closes: false,
            visited,
            stats: Stats::default(),
            attempts: 1,
        }
    }

    #[test]
    fn a_groups_time_is_shared_by_squares_visited() {
        let impossible = Outcome::Impossible(Impossibility::Theorem(NoTour::ThinBoard(
            Board::new(1, 2).unwrap(),
        )));
        let mut runs = [
            summary(Outcome::Found, 10),
            summary(Outcome::DeadEnd, 30),
            summary(impossible, 0),
            summary(Outcome::NotClosed, 60),
        ];
        share_time(1000, &mut runs);
        let shares: Vec<u64> = runs.iter().map(|s| s.stats.elapsed_ns).collect();
        assert_eq!(shares, [100, 300, 0, 600]);
        // shares that do not divide evenly are rounded down: the sum falls short by less than a
        // nanosecond a run
        let mut runs = [1, 2, 4].map(|v| summary(Outcome::DeadEnd, v));
        share_time(1_000_003, &mut runs);
        let shares: Vec<u64> = runs.iter().map(|s| s.stats.elapsed_ns).collect();
        assert_eq!(shares, [142_857, 285_715, 571_430]);
        let total: u64 = shares.iter().sum();
        assert!(1_000_003 - total < 3, "{total}");
        // nothing visited: nothing to share, and no division by zero
        let mut runs = [summary(Outcome::DeadEnd, 0)];
        share_time(500, &mut runs);
        assert_eq!(runs[0].stats.elapsed_ns, 0);
    }

    #[test]
    fn a_batchs_times_are_proportional_to_squares_visited() {
        let board = Board::new(12, 12).unwrap();
        let reqs: Vec<Request> = board
            .squares()
            .map(|s| Request::warnsdorff(board, s, Rule::FIRST))
            .collect();
        let mut out = Vec::new();
        let timer = Instant::now();
        Solver::new().run_batch(&reqs, &mut out).unwrap();
        let wall = timer.elapsed().as_nanos() as u64;
        let total_ns: u64 = out.iter().map(|s| s.stats.elapsed_ns).sum();
        let total_visited: u64 = out.iter().map(|s| u64::from(s.visited)).sum();
        assert!(total_ns <= wall, "{total_ns} > {wall}");
        // each share is rounded down, so the rate seen from the sum is a little low: within a
        // nanosecond a run, plus that
        let per_square = total_ns as f64 / total_visited as f64;
        let slack = 1.0 + out.len() as f64 / total_visited as f64 * f64::from(board.len());
        for s in &out {
            let want = per_square * f64::from(s.visited);
            assert!((s.stats.elapsed_ns as f64 - want).abs() <= slack, "{s:?}");
        }
    }

    #[test]
    fn solvers_share_the_distance_tables_of_a_board_and_rule() {
        use crate::solve::walk::geometry::TABLE_RUNS;
        // a board no other test uses: tests of this binary run in parallel in one process
        let board = Board::new(29, 31).unwrap();
        // enough runs of the board for the table to pay
        let reqs = |rule: Rule| -> Vec<Request> {
            (0..TABLE_RUNS as u16)
                .map(|i| Request::warnsdorff(board, Square::new(3, 4 + i), rule))
                .collect()
        };
        let (mut a, mut b) = (Solver::new(), Solver::new());
        a.run_batch(&reqs(Rule::ROTH), &mut Vec::new()).unwrap();
        b.run_batch(&reqs(Rule::ROTH), &mut Vec::new()).unwrap();
        let tables = |s: &Solver| {
            s.kernel
                .tables
                .geometry
                .as_ref()
                .map(|g| Arc::clone(&g.2))
                .unwrap()
        };
        assert!(Arc::ptr_eq(&tables(&a), &tables(&b)));
        // another rule gets its own tables; the first stay alive while a solver holds them
        b.run_batch(&reqs(Rule::CENTER), &mut Vec::new()).unwrap();
        assert!(!Arc::ptr_eq(&tables(&a), &tables(&b)));
        // `a`'s and the one just taken
        assert_eq!(Arc::strong_count(&tables(&a)), 2);
        // same walks either way (a single run decides its ties without the table)
        let mut fresh = Solver::new();
        let mut out = Vec::new();
        fresh.run_batch(&reqs(Rule::ROTH), &mut out).unwrap();
        for (i, req) in reqs(Rule::ROTH).iter().enumerate() {
            assert_eq!(out[i].visited, a.run(req).unwrap().visited);
        }
        // and a group too small for the table builds none
        let mut small = Solver::new();
        small
            .run_batch(&reqs(Rule::ROTH)[..1], &mut Vec::new())
            .unwrap();
        assert!(small.kernel.tables.geometry.is_none());
    }
}
