//! The sampled estimate, for a tree too large to walk (`ktour exact --sample K`): `K` runs of the
//! real solver with the rule's random draws (each its own seed), from the start or from a start
//! drawn uniformly, counted as a sweep counts them, each rate with its Wilson 95% interval
//! ([`crate::util::wilson`]). The exact walk's figures must lie inside these intervals as
//! often as 95% intervals should; the tests check a few.

use crate::board::{Board, Square};
use crate::solve::{Closing, Outcome, Request, Rule, SolveError, Solver};
use crate::util::wilson::wilson95;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// What `K` sampled runs gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// Runs.
    pub runs: u64,
    /// Runs that covered the board.
    pub tours: u64,
    /// Runs that covered the board and closed.
    pub closed: u64,
    /// `dead_ends[L]`: runs that dead-ended after `L` squares.
    pub dead_ends: Vec<u64>,
}

impl Sampled {
    /// The tour rate and its Wilson 95% interval.
    pub fn success(&self) -> (f64, (f64, f64)) {
        (
            self.tours as f64 / self.runs.max(1) as f64,
            wilson95(self.tours, self.runs),
        )
    }

    /// The closed-tour rate and its Wilson 95% interval.
    pub fn closed_rate(&self) -> (f64, (f64, f64)) {
        (
            self.closed as f64 / self.runs.max(1) as f64,
            wilson95(self.closed, self.runs),
        )
    }

    /// The shortest dead end seen and how many runs ended there.
    pub fn shortest_dead_end(&self) -> Option<(usize, u64)> {
        self.dead_ends
            .iter()
            .enumerate()
            .find(|(_, &n)| n > 0)
            .map(|(l, &n)| (l, n))
    }
}

/// `runs` runs of pure Warnsdorff with `rule` on `board`, each from `start` or, when `None`, from a
/// start drawn uniformly; run `i`'s start and seed come from `seed` and `i` alone, so the sample
/// does not depend on the threads.
pub fn sample(
    board: Board,
    start: Option<Square>,
    rule: Rule,
    closing: Closing,
    runs: u64,
    seed: u64,
) -> Result<Sampled, SolveError> {
    let squares: Vec<Square> = board.squares().collect();
    let per_run = |i: u64| {
        let mut rng =
            Xoshiro256PlusPlus::seed_from_u64(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let from = start.unwrap_or_else(|| squares[rng.gen_range(0..squares.len())]);
        let mut req = Request::warnsdorff(board, from, rule);
        req.seed = rng.gen();
        if closing == Closing::StartLast {
            req.closure = crate::board::Closure::Closed;
            req.closing = closing;
        }
        req
    };
    let tallies = (0..runs)
        .into_par_iter()
        .fold(
            || Ok((Solver::new(), vec![0u64; board.len() as usize + 2])),
            |acc: Result<(Solver, Vec<u64>), SolveError>, i| {
                let (mut solver, mut counts) = acc?;
                let req = per_run(i);
                let solution = solver.solve(&req)?;
                let path = &solution.squares;
                let o = match solution.outcome {
                    Outcome::DeadEnd => path.len(),
                    _ if crate::board::is_closed_tour(path) && path.len() > 2 => counts.len() - 1,
                    _ => counts.len() - 2,
                };
                counts[o] += 1;
                Ok((solver, counts))
            },
        )
        .map(|r| r.map(|(_, c)| c))
        .collect::<Result<Vec<_>, SolveError>>()?;
    let mut counts = vec![0u64; board.len() as usize + 2];
    for t in tallies {
        for (a, b) in counts.iter_mut().zip(t) {
            *a += b;
        }
    }
    let n = counts.len();
    Ok(Sampled {
        runs,
        tours: counts[n - 2] + counts[n - 1],
        closed: counts[n - 1],
        dead_ends: counts[..n - 2].to_vec(),
    })
}
