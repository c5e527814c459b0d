//! Exact probabilities of pure Warnsdorff under a random tie-break rule (`ktour exact`): a random
//! rule is a finite tree of tie choices, so walking the whole tree gives the exact probability that
//! the walk completes a tour, closes it, or dead-ends after exactly `L` squares, from one start or
//! from a start drawn uniformly. Every published figure for random tie-breaking is a sample (100
//! trials a size in Squirrel & Cull 1996, a few hundred in Ganzfried 2004); these are the values
//! the samples estimate. Definitions: `docs/REFERENCE.md`, sections 3-4; the walk: `walk.rs`; its
//! slow twin, a plain recursion over fractions: `reference.rs`.
//!
//! The walks run in parallel over starts, and over subtrees when there are few starts; each
//! start's probabilities are checked to add up to exactly 1.

mod estimate;
mod memo;
mod number;
pub mod reference;
mod resume;
mod sample;
mod shuffle;
mod walk;

pub use number::{Numer, Overflow, Scale};
pub use resume::{exact_resumable, label_free, start_file, walked_for, StartCost, StartDone};
pub use sample::{sample, Sampled};
pub use walk::{Outcomes, Walk, WalkStats};

use crate::board::{Board, Square};
use crate::solve::{Closing, Rule, RuleError};
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rayon::prelude::*;
use std::time::{Duration, Instant};
use walk::{Step, Walker};

/// The most squares an exact walk takes: its table holds a row of outcomes per branching node.
pub const MAX_SQUARES: u32 = 1024;

/// States kept for merging per walk by default (each a few dozen bytes).
pub const DEFAULT_MEMO_LIMIT: usize = 1 << 24;

/// Where the walks start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Starts {
    /// From this square.
    From(Square),
    /// From every square, and from a start drawn uniformly (their mean).
    All,
}

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactRequest {
    /// The board.
    pub board: Board,
    /// The start or starts.
    pub starts: Starts,
    /// The rule (deterministic rules give probabilities 0 and 1).
    pub rule: Rule,
    /// How the walk closes (only `StartLast` changes it).
    pub closing: Closing,
}

/// How to compute it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactOptions {
    /// Merged states kept per walk; 0 turns merging off.
    pub memo_limit: usize,
    /// Refuse before walking when the estimated nodes pass this.
    pub max_nodes: Option<u64>,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            memo_limit: DEFAULT_MEMO_LIMIT,
            max_nodes: Some(10_000_000_000),
        }
    }
}

/// Why an exact walk did not run.
#[derive(Debug, thiserror::Error)]
pub enum ExactError {
    /// The rule does not apply (squirrel off its domain).
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The start is off the board.
    #[error("start {start} is off the {board} board")]
    StartOffBoard {
        /// The board.
        board: Board,
        /// The start.
        start: Square,
    },
    /// Too many squares for the walk's tables.
    #[error("{0} has more than {MAX_SQUARES} squares: too large for an exact walk")]
    TooLarge(Board),
    /// The tree is estimated past the node limit.
    #[error("the tree is estimated at {estimated:.2e} nodes (Knuth's estimate), past the limit of {limit:.1e}: raise --max-nodes, or sample it with --sample K")]
    TooBig {
        /// The estimate.
        estimated: f64,
        /// The limit.
        limit: f64,
    },
    /// A start's probabilities did not add up to 1: a bug, reported rather than printed as a result.
    #[error("internal error: the outcomes from {0} add up to {1}, not 1")]
    NotOne(Square, BigRational),
    /// A start's file of a resumable run could not be written or read, or is not of this run.
    #[error("{}: {why}", path.display())]
    ResumeFile {
        /// The file (or folder).
        path: std::path::PathBuf,
        /// What went wrong.
        why: String,
    },
}

/// The exact outcome distribution of the walks from one start (or their mean).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    outcomes: Outcomes,
    /// Probability of each outcome, indexed as [`Outcomes`] says.
    p: Vec<BigRational>,
}

impl Distribution {
    fn zero(squares: usize) -> Self {
        let outcomes = Outcomes::new(squares);
        Distribution {
            outcomes,
            p: vec![BigRational::zero(); outcomes.len()],
        }
    }

    /// The probability of every outcome, indexed as [`Outcomes`] says.
    pub fn probabilities(&self) -> &[BigRational] {
        &self.p
    }

    /// The squares of the board.
    pub fn squares(&self) -> usize {
        self.outcomes.open()
    }

    /// The probability of a complete tour (closed or not).
    pub fn success(&self) -> BigRational {
        &self.p[self.outcomes.open()] + &self.p[self.outcomes.closed()]
    }

    /// The probability of a closed tour.
    pub fn closed(&self) -> BigRational {
        self.p[self.outcomes.closed()].clone()
    }

    /// The probability of a dead end after exactly `squares` squares (`1..squares`).
    pub fn dead_end(&self, squares: usize) -> BigRational {
        if (1..self.squares()).contains(&squares) {
            self.p[squares].clone()
        } else {
            BigRational::zero()
        }
    }

    /// The dead ends of positive probability, shortest first: (squares visited, probability).
    pub fn dead_ends(&self) -> impl Iterator<Item = (usize, &BigRational)> {
        (1..self.squares())
            .map(|l| (l, &self.p[l]))
            .filter(|(_, p)| !p.is_zero())
    }

    /// The shortest possible dead end and its probability.
    pub fn shortest_dead_end(&self) -> Option<(usize, BigRational)> {
        self.dead_ends().next().map(|(l, p)| (l, p.clone()))
    }

    /// The sum over every outcome (1 for a distribution).
    pub fn total(&self) -> BigRational {
        self.p.iter().fold(BigRational::zero(), |a, b| a + b)
    }

    /// The mean of distributions on one board (a start drawn uniformly among theirs).
    pub fn mean(all: &[Distribution]) -> Distribution {
        let squares = all.first().map_or(0, |d| d.squares());
        let mut out = Distribution::zero(squares);
        for d in all {
            for (a, b) in out.p.iter_mut().zip(&d.p) {
                *a += b;
            }
        }
        let n = BigRational::from_integer((all.len().max(1)).into());
        for a in &mut out.p {
            *a /= &n;
        }
        out
    }
}

/// One start's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartExact {
    /// The start.
    pub start: Square,
    /// Its outcome distribution.
    pub dist: Distribution,
}

/// The result of [`exact`].
#[derive(Clone, Debug)]
pub struct ExactReport {
    /// Per start, row by row.
    pub starts: Vec<StartExact>,
    /// The distribution from a start drawn uniformly among `starts` (the one start's, for one).
    pub overall: Distribution,
    /// The nodes estimated before the walk (of the tree without merging).
    pub estimated_nodes: f64,
    /// The walks' counters.
    pub stats: WalkStats,
    /// Walks that outgrew 128-bit numerators and ran again with big integers.
    pub big_walks: u64,
    /// Wall-clock time of the walks (the estimate included).
    pub elapsed: Duration,
}

/// A piece of one start's tree: the moves after the start that lead to it, and their probability
/// (`weight / scale`).
#[derive(Clone, Debug)]
struct Task {
    start: usize,
    prefix: Vec<usize>,
    weight: BigUint,
    scale: Scale,
}

/// The squares the request starts from.
fn start_squares(req: &ExactRequest) -> Result<Vec<Square>, ExactError> {
    let board = req.board;
    match req.starts {
        Starts::From(s) => {
            if !board.contains(s.row() as i64, s.col() as i64) {
                return Err(ExactError::StartOffBoard { board, start: s });
            }
            Ok(vec![s])
        }
        Starts::All => Ok(board.squares().collect()),
    }
}

fn walk_spec(req: &ExactRequest, start: Square, memo_limit: usize) -> Walk {
    Walk {
        board: req.board,
        start,
        rule: req.rule,
        closing: req.closing,
        memo_limit,
    }
}

/// The estimated nodes of the request's tree (without merging), before walking it. For `shuffle`,
/// whose walk follows at most one path per ordering, the bound 40,320 x squares per start instead:
/// probing its tree would cost more than walking it.
pub fn estimate(req: &ExactRequest) -> Result<f64, ExactError> {
    if req.board.len() > MAX_SQUARES {
        return Err(ExactError::TooLarge(req.board));
    }
    let starts = start_squares(req)?;
    let mut walker = Walker::<u128>::new(walk_spec(req, starts[0], 0))?;
    if walk::is_shuffle(req.rule) {
        return Ok(shuffle::ORDERINGS as f64 * req.board.len() as f64 * starts.len() as f64);
    }
    Ok(estimate::estimate_nodes(&mut walker, &starts)?)
}

/// An end met while splitting: the start's index, its probability, the outcome.
type Ended = (usize, BigRational, u16);

/// Split the start trees into tasks until there are about `want` of them (not for `shuffle`,
/// whose walk carries its orderings and starts from the start only). Ends met on the way are
/// returned as finished values with their weight.
fn tasks(
    req: &ExactRequest,
    starts: &[Square],
    want: usize,
) -> Result<(Vec<Task>, Vec<Ended>), ExactError> {
    let mut tasks: Vec<Task> = (0..starts.len())
        .map(|start| Task {
            start,
            prefix: Vec::new(),
            weight: BigUint::one(),
            scale: Scale::default(),
        })
        .collect();
    let mut ended = Vec::new();
    if walk::is_shuffle(req.rule) {
        return Ok((tasks, ended));
    }
    let mut walker = Walker::<u128>::new(walk_spec(req, starts[0], 0))?;
    for _ in 0..16 {
        if tasks.len() >= want {
            break;
        }
        let mut next = Vec::with_capacity(tasks.len() * 3);
        let mut split_any = false;
        for t in tasks {
            walker.set_start(starts[t.start])?;
            walker.reset(&t.prefix);
            let split = loop {
                match walker.step() {
                    Step::Forced(q) => walker.forced(q),
                    Step::End(o) => break Err(o),
                    Step::Split(s) => break Ok(s),
                }
            };
            match split {
                Err(o) => ended.push((t.start, t.scale.fraction(t.weight.clone()), o)),
                Ok(s) => {
                    split_any = true;
                    let odds = Scale::of(s.out_of as u64).expect("at most 8");
                    let here = walker.prefix();
                    for i in 0..s.n as usize {
                        let mut prefix = here.clone();
                        prefix.push(s.moves[i] as usize);
                        next.push(Task {
                            start: t.start,
                            prefix,
                            weight: &t.weight * s.draws[i],
                            scale: t.scale.times(odds),
                        });
                    }
                }
            }
        }
        tasks = next;
        if !split_any {
            break;
        }
    }
    Ok((tasks, ended))
}

/// Walk one task, with 128-bit numerators if they suffice, else with big integers.
fn run_task(
    req: &ExactRequest,
    starts: &[Square],
    task: &Task,
    memo_limit: usize,
) -> Result<TaskResult, ExactError> {
    run_task_as::<u128>(req, starts, task, memo_limit)
}

/// A task's probabilities by outcome, its counters, and whether it needed big integers.
type TaskResult = (Vec<(u16, BigRational)>, WalkStats, bool);

/// [`run_task`], first with numerators `F`, then, if they overflow, with big integers.
fn run_task_as<F: Numer>(
    req: &ExactRequest,
    starts: &[Square],
    task: &Task,
    memo_limit: usize,
) -> Result<TaskResult, ExactError> {
    let spec = walk_spec(req, starts[task.start], memo_limit);
    fn go<N: Numer>(
        spec: Walk,
        task: &Task,
    ) -> Result<Result<(walk::Value<BigUint>, WalkStats), Overflow>, ExactError> {
        let mut walker = Walker::<N>::new(spec)?;
        walker.reset(&task.prefix);
        Ok(walker.walk().map(|v| {
            let parts = v.parts.iter().map(|(o, n)| (*o, n.to_big())).collect();
            (
                walk::Value {
                    scale: v.scale,
                    parts,
                },
                walker.stats,
            )
        }))
    }
    let (value, stats, big) = match go::<F>(spec, task)? {
        Ok((v, s)) => (v, s, false),
        Err(Overflow) => {
            let (v, s) = go::<BigUint>(spec, task)?.expect("big integers do not overflow");
            (v, s, true)
        }
    };
    // shuffle's values count orderings: one ordering is 1/40,320
    let mass = if walk::is_shuffle(req.rule) {
        Scale::of(shuffle::ORDERINGS).expect("8!")
    } else {
        Scale::default()
    };
    let scale = value.scale.times(task.scale).times(mass);
    let parts = value
        .parts
        .into_iter()
        .map(|(o, n)| (o, scale.fraction(n * &task.weight)))
        .collect();
    Ok((parts, stats, big))
}

/// The exact outcome distributions of `req`: estimated first, refused past `opts.max_nodes`, then
/// walked in parallel on the current thread pool.
pub fn exact(req: &ExactRequest, opts: &ExactOptions) -> Result<ExactReport, ExactError> {
    let began = Instant::now();
    let estimated_nodes = estimate(req)?;
    if let Some(limit) = opts.max_nodes {
        if estimated_nodes > limit as f64 {
            return Err(ExactError::TooBig {
                estimated: estimated_nodes,
                limit: limit as f64,
            });
        }
    }
    let starts = start_squares(req)?;
    let threads = rayon::current_num_threads().max(1);
    let (tasks, ended) = tasks(req, &starts, 16 * threads)?;
    let results = tasks
        .par_iter()
        .map(|t| run_task(req, &starts, t, opts.memo_limit).map(|r| (t.start, r)))
        .collect::<Result<Vec<_>, ExactError>>()?;
    let squares = req.board.len() as usize;
    let mut dists = vec![Distribution::zero(squares); starts.len()];
    let mut stats = WalkStats::default();
    let mut big_walks = 0;
    for (start, (parts, s, big)) in results {
        stats.add(&s);
        big_walks += big as u64;
        for (o, p) in parts {
            dists[start].p[o as usize] += p;
        }
    }
    for (start, p, o) in ended {
        dists[start].p[o as usize] += p;
    }
    for (d, &s) in dists.iter().zip(&starts) {
        let total = d.total();
        if !total.is_one() {
            return Err(ExactError::NotOne(s, total));
        }
    }
    let overall = Distribution::mean(&dists);
    Ok(ExactReport {
        starts: starts
            .into_iter()
            .zip(dists)
            .map(|(start, dist)| StartExact { start, dist })
            .collect(),
        overall,
        estimated_nodes,
        stats,
        big_walks,
        elapsed: began.elapsed(),
    })
}

/// A probability as a decimal, for printing (exact fractions are printed beside it).
pub fn decimal(p: &BigRational) -> f64 {
    use num_traits::ToPrimitive;
    p.to_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A numerator of 16 bits: overflows on any real tree, to exercise the fallback.
    #[derive(Clone, Default, Debug, PartialEq)]
    struct Tiny(u16);

    impl Numer for Tiny {
        fn from_u64(n: u64) -> Self {
            Tiny(n as u16)
        }
        fn is_zero(&self) -> bool {
            self.0 == 0
        }
        fn add(&mut self, o: &Self) -> Result<(), Overflow> {
            self.0 = self.0.checked_add(o.0).ok_or(Overflow)?;
            Ok(())
        }
        fn mul(&mut self, k: u64) -> Result<(), Overflow> {
            let k = u16::try_from(k).map_err(|_| Overflow)?;
            self.0 = self.0.checked_mul(k).ok_or(Overflow)?;
            Ok(())
        }
        fn rescale(&mut self, by: Scale) -> Result<(), Overflow> {
            let mut x = self.0 as u128;
            x.rescale(by)?;
            self.0 = u16::try_from(x).map_err(|_| Overflow)?;
            Ok(())
        }
        fn to_big(&self) -> BigUint {
            BigUint::from(self.0)
        }
    }

    #[test]
    fn numerators_that_overflow_are_walked_again_with_big_integers() {
        let board = Board::square(8).unwrap();
        let req = ExactRequest {
            board,
            starts: Starts::From(Square::new(0, 0)),
            rule: Rule::RANDOM,
            closing: Closing::Check,
        };
        let task = Task {
            start: 0,
            prefix: Vec::new(),
            weight: BigUint::one(),
            scale: Scale::default(),
        };
        let starts = [Square::new(0, 0)];
        let (tiny, _, big) = run_task_as::<Tiny>(&req, &starts, &task, 1 << 16).unwrap();
        assert!(big, "16 bits suffice?");
        let (wide, _, big) = run_task_as::<u128>(&req, &starts, &task, 1 << 16).unwrap();
        assert!(!big);
        let (huge, _, _) = run_task_as::<BigUint>(&req, &starts, &task, 0).unwrap();
        assert_eq!(tiny, wide);
        assert_eq!(wide, huge);
    }

    #[test]
    fn means_are_of_the_starts() {
        let mut a = Distribution::zero(4);
        let mut b = Distribution::zero(4);
        a.p[4] = BigRational::one();
        b.p[2] = BigRational::one();
        let m = Distribution::mean(&[a, b]);
        assert_eq!(m.success(), BigRational::new(1.into(), 2.into()));
        assert_eq!(
            m.shortest_dead_end(),
            Some((2, BigRational::new(1.into(), 2.into())))
        );
        assert!(m.total().is_one());
    }
}
