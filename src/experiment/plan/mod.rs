//! From a spec to numbered work: groups (board x rule x method), the runs of each group (start x
//! trial), and chunks of consecutive runs that a worker takes at once (`chunks`). Nothing is listed:
//! the runs are an index space (boards x rules x methods x starts x trials), and a group, a run or a
//! chunk is computed from its number when it is needed, from a few numbers per board and per rule.
//! A plan's memory is therefore that of its boards and rules (and of sampled or listed starts), not
//! of its runs: every start of 10,000 x 10,000 is planned in a few hundred bytes. Everything here is
//! a pure function of the spec, so two machines (or a resumed sweep) agree on every number.
//!
//! ADVICE FOR HACKERS: job and chunk numbers are written to the CSV files and used by `--resume`,
//! `--shard` and `merge`. Changing the expansion order or the chunk sizing changes them: keep the
//! order (boards, then rules, then methods; starts row-major, then trials) and the journal's header
//! (see `output::journal`) tells a journal of another numbering from this one.

mod chunks;
mod layout;
mod orbits;
mod starts;

pub(crate) use super::seed::run_seed;
pub use chunks::{Chunk, Part, Shard};
pub use orbits::{Orbit, Orbits};

use super::size::{corner_only, PlanSize};
use super::spec::{Budget, Spec};
use crate::board::{Board, Closure, Leaper, Shape, Square};
use crate::solve::{Closing, Method, Request, RuleSeq};
use layout::Spans;
use starts::Starts;
use std::sync::Arc;

/// One board x rule x method: a row of `summary.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Its number (the row of `summary.csv`, in plan order).
    pub id: u32,
    /// Index into the plan's boards.
    pub board: usize,
    /// The rule, or rules tried in turn.
    pub rule: RuleSeq,
    /// Index into the plan's rules ([`Plan::rule_name`]).
    pub rule_index: usize,
    /// The method.
    pub method: Method,
    /// Index into the plan's methods.
    pub method_index: usize,
    /// Attempts per run at most (1: no restarts).
    pub attempts: u32,
    /// Runs per start (trials for random rules, else 1).
    pub trials: u32,
    /// Global number of the group's first run.
    pub first_job: u64,
    /// Number of runs.
    pub runs: u64,
}

/// One run, fully described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Global run number.
    pub job: u64,
    /// Trial number (0-based).
    pub trial: u32,
    /// Attempts at most ([`crate::solve::Solver::run_attempts`] with the group's rules when more
    /// than one; the request holds the first rule).
    pub attempts: u32,
    /// The request to solve, with the run's own seed (what `runs.csv` records).
    pub request: Request,
}

/// Where one board's groups, runs and chunks begin, and how they are sized.
#[derive(Clone, Copy, Debug)]
struct BoardSpan {
    first_group: u64,
    first_job: u64,
    first_chunk: u64,
    /// Runs of the board.
    runs: u64,
    /// Starts of the board.
    starts: u64,
    /// Runs per chunk.
    chunk_runs: u64,
    /// Whether the corner-only rules run here (the board is in their domain and the corner is one
    /// of its starts).
    corner: bool,
}

/// The runs of the rules before one (one method's worth): per start for the rules that run from
/// every start, and from the corner for corner-only rules, with the number of corner-only rules.
#[derive(Clone, Copy, Debug, Default)]
struct RulesBefore {
    per_start: u64,
    corner_runs: u64,
    corner_rules: u64,
}

/// The whole sweep, numbered.
#[derive(Clone, Debug)]
pub struct Plan {
    boards: Vec<Board>,
    spans: Vec<BoardSpan>,
    starts: Starts,
    rules: Arc<Vec<RuleSeq>>,
    /// The rules' names written one after another (one allocation, not one a rule: an `order:*`
    /// sweep has 40,320), and where each ends.
    rule_names: String,
    rule_name_ends: Vec<usize>,
    /// `before[r]`: the rules before rule `r`; `before[rules.len()]` all of them.
    before: Vec<RulesBefore>,
    methods: Vec<Method>,
    trials: u32,
    closed: bool,
    seed: u64,
    budget: Budget,
    /// Attempts per run at most (`None`: as many as each sequence has rules).
    attempts: Option<u32>,
    closing: Closing,
    prune: bool,
    /// The leaper, and the mask of a sweep on one (`docs/REFERENCE.md`, section 9).
    leaper: Leaper,
    mask: Option<Shape>,
    groups: u64,
    runs: u64,
    chunks: u64,
}

/// A plan that could not be made.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PlanError {
    /// More runs or chunks than `u64` counts (validation refuses such specs).
    #[error("the sweep has more than 2^64 runs; lower sizes, starts, rules or trials")]
    TooLarge,
    /// The plan would not fit in memory.
    #[error("the sweep's plan ({boards} boards, {rules} rules, {held_starts} start squares held) needs about {needed_mib} MiB but only {available_mib} MiB is available; lower sizes, starts or rules")]
    Memory {
        /// Boards.
        boards: u64,
        /// Rules.
        rules: u64,
        /// Start squares held (sampled or listed).
        held_starts: u64,
        /// Estimated need.
        needed_mib: u64,
        /// Available memory.
        available_mib: u64,
    },
}

/// Bytes a plan holds per board, per rule (its entry, its prefix and its name) and per start
/// square held: what [`Plan::bytes_for`] counts before a plan is built.
const BOARD_BYTES: u64 = (std::mem::size_of::<Board>() + std::mem::size_of::<BoardSpan>()) as u64;
const RULE_BYTES: u64 = (std::mem::size_of::<RuleSeq>()
    + std::mem::size_of::<RulesBefore>()
    + std::mem::size_of::<usize>()
    + 24) as u64;

impl Plan {
    /// About the bytes that a plan of `size` takes: its boards, its rules (with their names) and
    /// the start squares it holds. Nothing is held per run, per chunk or per group.
    pub fn bytes_for(size: &PlanSize) -> u64 {
        let fixed = std::mem::size_of::<Plan>() as u64;
        size.boards
            .saturating_mul(BOARD_BYTES)
            .saturating_add(size.rules.saturating_mul(RULE_BYTES))
            .saturating_add(
                size.held_starts
                    .saturating_mul(std::mem::size_of::<Square>() as u64),
            )
            .saturating_add(fixed)
    }

    /// The bytes this plan holds, counted from what it allocated: its own accounting, which
    /// `--dry-run` prints and the tests bound.
    pub fn bytes(&self) -> u64 {
        let vec = |len: usize, each: usize| (len * each) as u64;
        std::mem::size_of::<Plan>() as u64
            + vec(self.boards.capacity(), std::mem::size_of::<Board>())
            + vec(self.spans.capacity(), std::mem::size_of::<BoardSpan>())
            + self.starts.bytes()
            + vec(self.rules.capacity(), std::mem::size_of::<RuleSeq>())
            + vec(self.before.capacity(), std::mem::size_of::<RulesBefore>())
            + vec(self.rule_name_ends.capacity(), std::mem::size_of::<usize>())
            + self.rule_names.capacity() as u64
            + vec(self.methods.capacity(), std::mem::size_of::<Method>())
    }

    /// Number the spec's work; refused when the plan would not fit in memory (within 80% of what
    /// is available, as for the workers), rather than dying in the allocator.
    pub fn new(spec: &Spec) -> Result<Plan, PlanError> {
        let f = &spec.file;
        let size = spec.plan_size().ok_or(PlanError::TooLarge)?;
        let available = crate::memory::available_bytes();
        let too_big = || PlanError::Memory {
            boards: size.boards,
            rules: size.rules,
            held_starts: size.held_starts,
            needed_mib: Plan::bytes_for(&size).div_ceil(1 << 20),
            available_mib: available >> 20,
        };
        if !crate::memory::fits_in(Plan::bytes_for(&size), available) {
            return Err(too_big());
        }
        let boards = spec.boards.clone();
        let starts = Starts::of(&spec.starts, &boards, f.seed).map_err(|_| too_big())?;
        let rules = spec.rules.clone();
        let before = Plan::rules_before(&rules, f.trials, &too_big)?;
        let sum = before[rules.len()];
        let (rule_names, rule_name_ends) = Plan::rule_names(spec, rules.len(), &too_big)?;
        let Spans {
            spans,
            groups,
            runs,
            chunks,
        } = Plan::board_spans(
            spec,
            &boards,
            &starts,
            &rules,
            sum,
            size.has_mirrors,
            &too_big,
        )?;
        Ok(Plan {
            boards,
            spans,
            starts,
            rules,
            rule_names,
            rule_name_ends,
            before,
            methods: spec.methods.clone(),
            trials: f.trials,
            closed: f.closed,
            seed: f.seed,
            budget: spec.budget,
            attempts: spec.attempts,
            closing: spec.closing,
            prune: spec.prune,
            leaper: spec.leaper,
            mask: spec.mask.clone(),
            groups,
            runs,
            chunks,
        })
    }

    /// The shape runs on `board` are on, when it is not the whole board walked by the knight.
    pub fn shape_of(&self, board: Board) -> Option<Shape> {
        match &self.mask {
            Some(m) => (!m.is_full_knight()).then(|| m.clone()),
            None => {
                (self.leaper != Leaper::KNIGHT).then(|| Shape::full(board).with_leaper(self.leaper))
            }
        }
    }

    /// Whether the runs look for closed tours.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The boards, in order.
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// Total runs.
    pub fn total_runs(&self) -> u64 {
        self.runs
    }

    /// Total groups.
    pub fn total_groups(&self) -> u64 {
        self.groups
    }

    /// Rule x method series (a series has a group on each board where its rule runs).
    pub fn series(&self) -> usize {
        self.rules.len() * self.methods.len()
    }

    /// The series of `group`, below [`Plan::series`]: its rule's index, then its method's.
    pub fn series_of(&self, group: &Group) -> usize {
        group.rule_index * self.methods.len() + group.method_index
    }

    /// Total chunks.
    pub fn total_chunks(&self) -> u64 {
        self.chunks
    }

    /// The name of the rule of `group`, as `summary.csv` and `runs.csv` write it.
    pub fn rule_name(&self, group: &Group) -> &str {
        self.rule_name_at(group.rule_index)
    }

    /// The name of the plan's `i`-th rule.
    pub fn rule_name_at(&self, i: usize) -> &str {
        let start = if i == 0 {
            0
        } else {
            self.rule_name_ends[i - 1]
        };
        &self.rule_names[start..self.rule_name_ends[i]]
    }

    /// The board whose groups (or runs, or chunks: `first` picks which) include number `n`.
    fn board_of(&self, n: u64, first: impl Fn(&BoardSpan) -> u64) -> usize {
        self.spans.partition_point(|s| first(s) <= n) - 1
    }

    /// Runs of one group of rule `r` on the board of `span` (0 where the rule does not run).
    fn runs_of(&self, span: &BoardSpan, r: usize) -> u64 {
        let runs = if self.rules[r].is_random() {
            self.trials as u64
        } else {
            1
        };
        match (corner_only(self.rules[r].first()), span.corner) {
            (false, _) => span.starts * runs,
            (true, true) => runs,
            (true, false) => 0,
        }
    }

    /// Runs of one method's groups of the rules before rule `r` on the board of `span`.
    fn runs_before(&self, span: &BoardSpan, r: usize) -> u64 {
        let b = &self.before[r];
        span.starts * b.per_start + if span.corner { b.corner_runs } else { 0 }
    }

    /// The rules before rule `r` that have groups on the board of `span`.
    fn kept_before(&self, span: &BoardSpan, r: usize) -> u64 {
        r as u64
            - if span.corner {
                0
            } else {
                self.before[r].corner_rules
            }
    }

    /// Group `m` (the method's index) of rule `r` on board `b`.
    fn group_at(&self, b: usize, r: usize, m: usize) -> Group {
        let span = &self.spans[b];
        let methods = self.methods.len() as u64;
        let runs = self.runs_of(span, r);
        let rule = &self.rules[r];
        Group {
            id: (span.first_group + self.kept_before(span, r) * methods + m as u64) as u32,
            board: b,
            rule: rule.clone(),
            rule_index: r,
            method: self.methods[m],
            method_index: m,
            attempts: self.attempts.unwrap_or(rule.rules().len() as u32),
            trials: if rule.is_random() { self.trials } else { 1 },
            first_job: span.first_job + methods * self.runs_before(span, r) + m as u64 * runs,
            runs,
        }
    }

    /// Group `g` (below [`Plan::total_groups`]).
    pub fn group(&self, g: u32) -> Group {
        let b = self.board_of(g as u64, |s| s.first_group);
        let span = &self.spans[b];
        let methods = self.methods.len() as u64;
        let local = g as u64 - span.first_group;
        let kept = local / methods;
        // the rule whose groups on this board come kept-th: the first whose successor has more
        // rules with groups before it
        let r = partition_point(self.rules.len(), |r| self.kept_before(span, r + 1) <= kept);
        self.group_at(b, r, (local % methods) as usize)
    }

    /// The group of run `job` (below [`Plan::total_runs`]), and the run's index within it.
    pub fn group_of_job(&self, job: u64) -> (Group, u32) {
        let b = self.board_of(job, |s| s.first_job);
        let span = &self.spans[b];
        let methods = self.methods.len() as u64;
        let local = job - span.first_job;
        // the first rule whose block of runs (all methods) ends past the run; rules without runs
        // here have empty blocks and are passed over
        let r = partition_point(self.rules.len(), |r| {
            methods * self.runs_before(span, r + 1) <= local
        });
        let within = local - methods * self.runs_before(span, r);
        let runs = self.runs_of(span, r);
        let group = self.group_at(b, r, (within / runs) as usize);
        (group, (within % runs) as u32)
    }

    /// Every group, in order, each found from the one before (no search).
    pub fn groups(&self) -> impl Iterator<Item = Group> + '_ {
        (0..self.boards.len()).flat_map(move |b| {
            (0..self.rules.len()).flat_map(move |r| {
                (0..self.methods.len())
                    .map(move |m| self.group_at(b, r, m))
                    .filter(|g| g.runs > 0)
            })
        })
    }

    /// The trial of the `i`-th run of `group`.
    pub fn trial_of(&self, group: &Group, i: u32) -> u32 {
        if corner_only(group.rule.first()) {
            i
        } else {
            i % group.trials
        }
    }

    /// The `i`-th run of group `g` (within-group index).
    pub fn job(&self, g: u32, i: u32) -> Job {
        self.job_in(&self.group(g), i)
    }

    /// The start square and trial of the `i`-th run of `group`.
    fn start_and_trial(&self, group: &Group, i: u32) -> (Square, u32) {
        if corner_only(group.rule.first()) {
            (Square::new(0, 0), i)
        } else {
            let board = self.boards[group.board];
            let start = self
                .starts
                .nth(group.board, board, (i / group.trials) as u64);
            (start, i % group.trials)
        }
    }

    /// The `i`-th run of `group`, with its seed.
    pub fn job_in(&self, group: &Group, i: u32) -> Job {
        let (start, trial) = self.start_and_trial(group, i);
        let mut request = self.request(group);
        request.start = start;
        request.seed = run_seed(self.seed, request.board, start, trial);
        Job {
            job: group.first_job + i as u64,
            trial,
            attempts: group.attempts,
            request,
        }
    }

    /// The request every run of `group` shares (its first rule's), from the corner with seed 0.
    fn request(&self, group: &Group) -> Request {
        let board = self.boards[group.board];
        Request {
            board,
            start: Square::new(0, 0),
            closure: Closure::of(self.closed),
            method: group.method,
            rule: group.rule.first(),
            budget: self.budget.for_board(board),
            seed: 0,
            // the options apply to the methods that have them (validation checked they are
            // meant for a method of the sweep)
            closing: match group.method {
                Method::Warnsdorff => self.closing,
                _ => Closing::Check,
            },
            prune: self.prune || group.method != Method::Backtrack,
        }
    }

    /// The seed of the `i`-th run of `group`, as `runs.csv` records it (`solve --seed` replays
    /// the run alone), whether or not its rule reads one.
    pub fn seed_of(&self, group: &Group, i: u32) -> u64 {
        let (start, trial) = self.start_and_trial(group, i);
        run_seed(self.seed, self.boards[group.board], start, trial)
    }

    /// Append the requests of runs `from..to` of `group` to `into`: what the workers run. The
    /// group's part is worked out once; per run only the start (and, for a rule that reads the
    /// PRNG, the seed) is, so that a deterministic rule's run costs no seed hashing (its seed is
    /// derived only if its row is written, [`Plan::seed_of`]).
    pub fn requests(&self, group: &Group, from: u32, to: u32, into: &mut Vec<Request>) {
        if from >= to {
            return;
        }
        let template = self.request(group);
        if group.rule.is_random() {
            into.extend((from..to).map(|i| {
                let (start, trial) = self.start_and_trial(group, i);
                Request {
                    start,
                    seed: run_seed(self.seed, template.board, start, trial),
                    ..template
                }
            }));
            return;
        }
        if corner_only(group.rule.first()) {
            into.extend((from..to).map(|_| template));
            return;
        }
        // a deterministic rule runs once from each start: stepped through in order
        let starts = self
            .starts
            .from(group.board, template.board, from as u64)
            .take((to - from) as usize);
        into.extend(starts.map(|start| Request { start, ..template }));
    }
}

/// The first index in `0..n` at which `pred` is false (`pred` true then false), by bisection,
/// without listing the indexes.
fn partition_point(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::size::rule_applies;
    use crate::experiment::spec::Spec;

    fn spec(text: &str) -> Spec {
        Spec::from_toml(text, "t").unwrap()
    }

    /// The numbering of the plan that listed every group and chunk: groups board by board, rule by
    /// rule, method by method, a corner-only rule where it applies only, runs start by start and
    /// trial by trial.
    fn listed_groups(spec: &Spec) -> Vec<(Board, RuleSeq, Method, u32, u64)> {
        let mut groups = Vec::new();
        for &board in &spec.boards {
            let starts: Vec<Square> = match &spec.starts {
                crate::experiment::spec::StartSet::All => board.squares().collect(),
                crate::experiment::spec::StartSet::List(v) => v.clone(),
                other => panic!("{other:?}"),
            };
            for rule in spec.rules.iter() {
                if !starts.iter().any(|&s| rule_applies(rule.first(), board, s)) {
                    continue;
                }
                for &method in &spec.methods {
                    let trials = if rule.is_random() {
                        spec.file.trials
                    } else {
                        1
                    };
                    let n = if corner_only(rule.first()) {
                        1
                    } else {
                        starts.len()
                    };
                    groups.push((
                        board,
                        rule.clone(),
                        method,
                        trials,
                        n as u64 * trials as u64,
                    ));
                }
            }
        }
        groups
    }

    #[test]
    fn numbering_is_that_of_the_listed_plan_and_shards_partition() {
        for text in [
            "name = \"t\"\nsizes = [5, 8, 100]\nrules = [\"first\", \"random\", \"squirrel\"]\nmethods = [\"warnsdorff\", \"backtrack\"]\ntrials = 3",
            "name = \"t\"\nsizes = [4, 6]\nboards = [[5, 7]]\nrules = [\"squirrel\", \"roth\", \"random\", \"pohl\"]\nmethods = [\"warnsdorff\", \"backtrack\", \"rotate\"]\ntrials = 2\nstarts = [[0, 0], [1, 2]]",
            "name = \"t\"\nsizes = [6]\nrules = [\"random\", \"squirrel\"]\nstarts = [[1, 2], [0, 1]]\ntrials = 5",
        ] {
            let spec = spec(text);
            let plan = Plan::new(&spec).unwrap();
            let listed = listed_groups(&spec);
            assert_eq!(plan.total_groups(), listed.len() as u64, "{text}");
            let mut next_job = 0;
            for (g, (board, rule, method, trials, runs)) in listed.iter().enumerate() {
                let (trials, runs) = (*trials, *runs);
                let group = plan.group(g as u32);
                assert_eq!(
                    (plan.boards()[group.board], &group.rule, group.method),
                    (*board, rule, *method)
                );
                assert_eq!((group.id, group.trials), (g as u32, trials));
                assert_eq!((group.first_job, group.runs), (next_job, runs));
                for i in 0..runs as u32 {
                    let job = plan.job(g as u32, i);
                    assert_eq!(job.job, next_job + i as u64);
                    assert_eq!(plan.group_of_job(job.job), (group.clone(), i));
                    assert_eq!(plan.seed_of(&group, i), job.request.seed);
                }
                next_job += runs;
            }
            assert_eq!(plan.total_runs(), next_job);
            assert_eq!(
                spec.plan_size().map(|s| (s.runs, s.chunks, s.groups)),
                Some((plan.total_runs(), plan.total_chunks(), plan.total_groups()))
            );
            // the chunks cover every run once, in order, each within one board
            let mut jobs = Vec::new();
            for id in 0..plan.total_chunks() {
                let c = plan.chunk(id);
                assert_eq!(c.id, id);
                let mut at = c.first_job;
                for part in plan.parts(&c) {
                    assert_eq!(part.group.board, c.board);
                    assert_eq!(part.group.first_job + part.from as u64, at);
                    at += (part.to - part.from) as u64;
                }
                assert_eq!(at, c.end_job);
                jobs.extend(c.first_job..c.end_job);
            }
            assert_eq!(jobs, (0..plan.total_runs()).collect::<Vec<_>>());
            for count in 1..=4 {
                let mut union: Vec<u64> = (1..=count)
                    .flat_map(|i| plan.shard(i, count).ids().collect::<Vec<_>>())
                    .collect();
                union.sort();
                assert_eq!(union, (0..plan.total_chunks()).collect::<Vec<_>>());
            }
        }
    }

    /// The requests the workers run are the jobs' own, but for the seed of a rule that does not
    /// read it (which the solver never looks at).
    #[test]
    fn requests_are_the_jobs_with_seeds_only_where_read() {
        for starts in ["\"all\"", "\"corners\"", "\"sample:5\"", "[[1, 2], [0, 0]]"] {
            let plan = Plan::new(&spec(&format!(
                "name = \"t\"\nsizes = [5, 6]\nboards = [[3, 7]]\nrules = [\"first\", \"random\", \"squirrel\", \"roth\"]\ntrials = 2\nseed = 9\nstarts = {starts}"
            )))
            .unwrap();
            for g in 0..plan.total_groups() as u32 {
                let group = plan.group(g);
                for from in [0, 1, 3, 7] {
                    let mut reqs = Vec::new();
                    plan.requests(&group, from, group.runs as u32, &mut reqs);
                    assert_eq!(reqs.len() as u64, group.runs.saturating_sub(from as u64));
                    for (i, r) in (from..).zip(&reqs) {
                        let mut want = plan.job(g, i).request;
                        if !group.rule.is_random() {
                            want.seed = 0;
                        }
                        assert_eq!(*r, want, "{starts} group {g} run {i}");
                    }
                }
            }
        }
    }

    /// A plan's memory is that of its boards and rules: the same whatever its starts and trials.
    #[test]
    fn plan_memory_does_not_grow_with_runs() {
        let bytes = |sizes: &str, starts: &str, trials: u32| {
            let plan = Plan::new(&spec(&format!(
                "name = \"t\"\nsizes = {sizes}\nstarts = \"{starts}\"\nrules = [\"first\", \"random\"]\ntrials = {trials}"
            )))
            .unwrap();
            (plan.total_runs(), plan.bytes())
        };
        let (few, small) = bytes("[10, 20]", "corner", 1);
        let (many, large) = bytes("[10000, 9999]", "all", 40);
        assert!(many > 8_000_000_000 && few == 4, "{few} {many}");
        assert_eq!(small, large);
        assert!(large < 4096, "{large}");
    }
}
