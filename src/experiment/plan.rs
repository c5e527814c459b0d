//! From a spec to numbered work: groups (board x rule x method), the runs of each group (start x
//! trial), and chunks of consecutive runs that a worker takes at once. Everything here is a pure
//! function of the spec, so two machines (or a resumed sweep) agree on every number.
//!
//! ADVICE FOR HACKERS: job and chunk numbers are written to the CSV files and used by `--resume`,
//! `--shard` and `merge`. Changing the expansion order or the chunk sizing changes them: keep the
//! order (boards, then rules, then methods; starts row-major, then trials) and bump the spec format if
//! you must change it.

use super::record::{SummaryRow, Tally};
use super::size::{chunk_runs, rule_applies, PlanSize};
use super::spec::{Budget, Spec, StartSet};
use crate::board::Closure;
use crate::board::{Board, Square};
use crate::solve::{Closing, Method, Request, Rule, RuleSeq};
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// One board x rule x method: a row of `summary.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Index into the plan's boards.
    pub board: usize,
    /// The rule, or rules tried in turn.
    pub rule: RuleSeq,
    /// The method.
    pub method: Method,
    /// Attempts per run at most (1: no restarts).
    pub attempts: u32,
    /// Runs per start (trials for random rules, else 1).
    pub trials: u32,
    /// Global number of the group's first run.
    pub first_job: u64,
    /// Number of runs.
    pub runs: u64,
}

/// A range of consecutive runs of one group. Group numbers and runs within a group are `u32`:
/// validation refuses a spec with more of either ([`PlanSize`]), which keeps a chunk 24 bytes (a
/// plan of large boards holds a chunk per run) and the job lookup in 32-bit arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Chunk number (global, shard-independent).
    pub id: u64,
    /// The group.
    pub group: u32,
    /// First run, as an index within the group.
    pub from: u32,
    /// One past the last run within the group.
    pub to: u32,
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
    /// The request to solve.
    pub request: Request,
}

/// The whole sweep, numbered.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Boards in order.
    pub boards: Vec<Board>,
    /// Start squares per board.
    pub starts: Vec<Vec<Square>>,
    /// Groups in order.
    pub groups: Vec<Group>,
    /// Chunks in order.
    pub chunks: Vec<Chunk>,
    closed: bool,
    seed: u64,
    budget: Budget,
    closing: Closing,
    prune: bool,
}

fn starts_for(
    set: &StartSet,
    board: Board,
    seed: u64,
) -> Result<Vec<Square>, std::collections::TryReserveError> {
    Ok(match set {
        StartSet::All => {
            let mut v = Vec::new();
            v.try_reserve_exact(board.len() as usize)?;
            v.extend(board.squares());
            v
        }
        StartSet::Corner => vec![Square::new(0, 0)],
        StartSet::Corners => StartSet::corners(board),
        StartSet::Sample(k) => {
            let n = board.len() as usize;
            let k = (*k as usize).min(n);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(run_seed(
                seed,
                board,
                Square::new(0, 0),
                u32::MAX,
            ));
            let mut idx: Vec<usize> = sample(&mut rng, n, k).into_vec();
            idx.sort_unstable();
            idx.into_iter()
                .map(|i| board.square_at(i as u32).expect("index on board"))
                .collect()
        }
        StartSet::List(v) => v.clone(),
    })
}

/// A plan that could not be made.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PlanError {
    /// More runs or chunks than `u64` counts (validation refuses such specs).
    #[error("the sweep has more than 2^64 runs; lower sizes, starts, rules or trials")]
    TooLarge,
    /// The plan would not fit in memory.
    #[error("the sweep's plan ({runs} runs in {chunks} chunks, {start_squares} start squares) needs about {needed_mib} MiB but only {available_mib} MiB is available; lower sizes, starts, rules or trials")]
    Memory {
        /// Runs.
        runs: u64,
        /// Chunks.
        chunks: u64,
        /// Entries of the start lists.
        start_squares: u64,
        /// Estimated need.
        needed_mib: u64,
        /// Available memory.
        available_mib: u64,
    },
}

impl Plan {
    /// About the bytes that a plan of `size` and the runner's lists derived from it take: per chunk the
    /// plan's, the shard's and the to-do list's copies, a block's range and a journal entry on
    /// resume; per group its tally and summary row (names included); per start square its entry.
    pub fn bytes_for(size: &PlanSize) -> u64 {
        use std::mem::size_of;
        let chunk = 3 * size_of::<Chunk>()
            + size_of::<std::ops::Range<usize>>()
            + size_of::<(u64, Tally)>();
        let group = size_of::<Group>() + size_of::<Tally>() + size_of::<SummaryRow>() + 64;
        (size.chunks.saturating_mul(chunk as u64))
            .saturating_add(size.groups.saturating_mul(group as u64))
            .saturating_add(
                size.start_squares
                    .saturating_mul(size_of::<Square>() as u64),
            )
    }

    /// Number the spec's work; refused when the plan would not fit in memory (within 80% of what
    /// is available, as for the workers), rather than dying in the allocator.
    pub fn new(spec: &Spec) -> Result<Plan, PlanError> {
        let f = &spec.file;
        let size = spec.plan_size().ok_or(PlanError::TooLarge)?;
        let available = crate::memory::available_bytes();
        let too_big = || PlanError::Memory {
            runs: size.runs,
            chunks: size.chunks,
            start_squares: size.start_squares,
            needed_mib: Plan::bytes_for(&size).div_ceil(1 << 20),
            available_mib: available >> 20,
        };
        if !crate::memory::fits_in(Plan::bytes_for(&size), available) {
            return Err(too_big());
        }
        let count = |n: u64| usize::try_from(n).map_err(|_| too_big());
        let boards = spec.boards.clone();
        let mut starts = Vec::new();
        starts
            .try_reserve_exact(boards.len())
            .map_err(|_| too_big())?;
        for &b in &boards {
            starts.push(starts_for(&spec.starts, b, f.seed).map_err(|_| too_big())?);
        }
        let mut groups = Vec::new();
        groups
            .try_reserve_exact(count(size.groups)?)
            .map_err(|_| too_big())?;
        let mut chunks = Vec::new();
        chunks
            .try_reserve_exact(count(size.chunks)?)
            .map_err(|_| too_big())?;
        let mut next_job = 0u64;
        for (bi, &board) in boards.iter().enumerate() {
            for rule in &spec.rules {
                // squirrel is defined from the corner of n x n only: its group keeps just that start
                if !starts[bi]
                    .iter()
                    .any(|&s| rule_applies(rule.first(), board, s))
                {
                    continue;
                }
                for &method in &spec.methods {
                    let trials = if rule.is_random() { f.trials } else { 1 };
                    let n_starts = if rule.first() == Rule::Squirrel {
                        1
                    } else {
                        starts[bi].len() as u64
                    };
                    let runs = n_starts * trials as u64;
                    // validation keeps groups and their runs within u32 (see `Chunk`)
                    let g = groups.len() as u32;
                    let per_chunk = chunk_runs(board);
                    let mut from = 0;
                    while from < runs {
                        let to = (from + per_chunk).min(runs);
                        chunks.push(Chunk {
                            id: chunks.len() as u64,
                            group: g,
                            from: from as u32,
                            to: to as u32,
                        });
                        from = to;
                    }
                    groups.push(Group {
                        board: bi,
                        rule: rule.clone(),
                        method,
                        attempts: spec.attempts_of(rule),
                        trials,
                        first_job: next_job,
                        runs,
                    });
                    next_job += runs;
                }
            }
        }
        Ok(Plan {
            boards,
            starts,
            groups,
            chunks,
            closed: f.closed,
            seed: f.seed,
            budget: spec.budget,
            closing: spec.closing,
            prune: spec.prune,
        })
    }

    /// Whether the runs look for closed tours.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Total runs.
    pub fn total_runs(&self) -> u64 {
        self.groups.iter().map(|g| g.runs).sum()
    }

    /// The chunks of shard `index` of `count` (1-based): every `count`-th chunk.
    pub fn shard(&self, index: u32, count: u32) -> Vec<Chunk> {
        self.chunks
            .iter()
            .copied()
            .filter(|c| c.id % count as u64 == (index - 1) as u64)
            .collect()
    }

    /// The `i`-th run of group `g` (within-group index).
    pub fn job(&self, g: u32, i: u32) -> Job {
        let group = &self.groups[g as usize];
        let board = self.boards[group.board];
        let (start, trial) = if group.rule.first() == Rule::Squirrel {
            (Square::new(0, 0), i)
        } else {
            let starts = &self.starts[group.board];
            (starts[(i / group.trials) as usize], i % group.trials)
        };
        Job {
            job: group.first_job + i as u64,
            trial,
            attempts: group.attempts,
            request: Request {
                board,
                start,
                closure: Closure::of(self.closed),
                method: group.method,
                rule: group.rule.first(),
                budget: self.budget.for_board(board),
                seed: run_seed(self.seed, board, start, trial),
                // the options apply to the methods that have them (validation checked they are
                // meant for a method of the sweep)
                closing: match group.method {
                    Method::Warnsdorff => self.closing,
                    _ => Closing::Check,
                },
                prune: self.prune || group.method != Method::Backtrack,
            },
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::spec::Spec;

    #[test]
    fn numbering_is_dense_and_shards_partition() {
        let spec = Spec::from_toml(
            "name = \"t\"\nsizes = [5, 8, 100]\nrules = [\"first\", \"random\", \"squirrel\"]\nmethods = [\"warnsdorff\", \"backtrack\"]\ntrials = 3",
            "t",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        assert_eq!(
            spec.plan_size().map(|s| (s.runs, s.chunks, s.groups)),
            Some((
                plan.total_runs(),
                plan.chunks.len() as u64,
                plan.groups.len() as u64
            ))
        );
        // per board: first 1 trial x n^2, random 3 x n^2, squirrel 1 run; x 2 methods
        let expect: u64 = [5u64, 8, 100]
            .iter()
            .map(|n| 2 * (n * n + 3 * n * n + 1))
            .sum();
        assert_eq!(plan.total_runs(), expect);
        let mut jobs: Vec<u64> = plan
            .chunks
            .iter()
            .flat_map(|c| (c.from..c.to).map(move |i| (c.group, i)))
            .map(|(g, i)| plan.job(g, i).job)
            .collect();
        let n = jobs.len();
        jobs.dedup();
        assert_eq!(jobs.len(), n);
        assert_eq!(jobs, (0..expect).collect::<Vec<_>>());
        let mut union: Vec<u64> = (1..=3)
            .flat_map(|i| plan.shard(i, 3))
            .map(|c| c.id)
            .collect();
        union.sort();
        assert_eq!(union, (0..plan.chunks.len() as u64).collect::<Vec<_>>());
    }

    #[test]
    fn samples_are_seeded_and_distinct() {
        let b = Board::square(10).unwrap();
        let a = starts_for(&StartSet::Sample(7), b, 1).unwrap();
        assert_eq!(a, starts_for(&StartSet::Sample(7), b, 1).unwrap());
        assert_ne!(a, starts_for(&StartSet::Sample(7), b, 2).unwrap());
        let mut d = a.clone();
        d.dedup();
        assert_eq!(d.len(), 7);
    }
}
