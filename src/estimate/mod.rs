//! Estimates of the number of knight's tours past what can be counted, by sequential importance
//! sampling: independent random walks ([`walk`]) drawn from a proposal ([`proposal`]), each weighted
//! by the inverse of its probability, averaged ([`stats`]). The mean is unbiased (D. E. Knuth,
//! "Estimating the efficiency of backtrack programs", Math. Comp. 29 (1975) 121-136; H. Cancela &
//! E. Mordecki, "Counting knight's tours through the randomized Warnsdorff rule", 2006, for the
//! Warnsdorff proposal); its interval is what the central limit theorem gives, and its coverage is
//! measured, not assumed (`docs/estimate.md`, `results/estimates/README.md`).
//!
//! What is counted is what `ktour count` counts: open tours directed, from every start (OEIS A165134
//! on square boards); closed tours as undirected cycles (A001230).
//!
//! Reproducible: walk `i` draws from its own generator, seeded from the run's seed and `i` by
//! SplitMix64, and the weights are summed in the order of `i`, so the estimate does not depend on
//! the number of threads. Each thread reuses one [`walk::Scratch`]: no allocation per walk.
//! [`twin`] is the slow twin: the exact expectation of a walk, by enumerating the proposal tree.

pub mod proposal;
pub mod stats;
pub mod twin;
pub mod walk;

pub use proposal::Proposal;
pub use stats::Summary;

use crate::board::{Board, Closure};
use crate::util::splitmix::{mix64, splitmix64};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most squares: a walk is one pass over the board, and past this a single walk's weight has
/// too little chance of being non-zero for an estimate to mean anything in a sensible time.
pub const MAX_SQUARES: u32 = 1024;

/// The most walks: their weights are kept (8 bytes each, 400 MB at most) for the diagnostics.
pub const MAX_SAMPLES: u64 = 50_000_000;

/// Walks per parallel task: large enough that scheduling costs nothing, small enough to balance.
const BLOCK: usize = 1024;

/// How often a progress line is written to standard error.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// What to estimate, and how.
#[derive(Clone, Copy, Debug)]
pub struct EstimateRequest {
    /// The board.
    pub board: Board,
    /// Open (directed, all starts) or closed (undirected cycles) tours.
    pub closure: Closure,
    /// Walks.
    pub samples: u64,
    /// The seed of walk 0; walk `i`'s generator is seeded from it and `i`.
    pub seed: u64,
    /// How moves are drawn.
    pub proposal: Proposal,
    /// Whether moves into dead states are left out.
    pub prune: bool,
    /// Whether to write a progress line to standard error every 10 s.
    pub progress: bool,
}

/// Why an estimate was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EstimateError {
    /// The board has more squares than [`MAX_SQUARES`].
    #[error("{board} has {squares} squares; estimate takes boards of at most {MAX_SQUARES} squares: choose smaller --rows/--cols")]
    TooLarge {
        /// The board.
        board: Board,
        /// Its squares.
        squares: u32,
    },
    /// `--samples` out of range.
    #[error("--samples must be from 1 to {MAX_SAMPLES} (the weights are kept for the diagnostics), got {0}")]
    Samples(u64),
}

/// The answer: the summary of all the walks and of their first sixteenth and quarter.
#[derive(Clone, Debug, Serialize)]
pub struct Estimate {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Whether closed tours (undirected cycles) were estimated, else directed open tours.
    pub closed: bool,
    /// The proposal, as `--proposal` takes it.
    pub proposal: String,
    /// Whether dead states were pruned.
    pub prune: bool,
    /// The seed.
    pub seed: u64,
    /// Threads used.
    pub threads: usize,
    /// Wall-clock seconds of the walks.
    pub seconds: f64,
    /// All the walks.
    pub summary: Summary,
    /// The first `K/16`, `K/4` walks, then all (those of at least 2 walks): how the estimate moves.
    pub stages: Vec<Summary>,
}

/// Estimate the tours `request` asks for, on the current rayon thread pool.
pub fn estimate(request: &EstimateRequest) -> Result<Estimate, EstimateError> {
    let board = request.board;
    if board.len() > MAX_SQUARES {
        return Err(EstimateError::TooLarge {
            board,
            squares: board.len(),
        });
    }
    if !(1..=MAX_SAMPLES).contains(&request.samples) {
        return Err(EstimateError::Samples(request.samples));
    }
    let graph = walk::Graph::new(board, request.closure, request.proposal, request.prune);
    let began = Instant::now();
    let weights = sample(&graph, request, began);
    let seconds = began.elapsed().as_secs_f64();
    let k = weights.len();
    let stages = [k / 16, k / 4]
        .into_iter()
        .filter(|&n| n >= 2)
        .chain([k])
        .map(|n| Summary::of(&weights[..n]))
        .collect();
    Ok(Estimate {
        rows: board.rows(),
        cols: board.cols(),
        closed: request.closure.is_closed(),
        proposal: request.proposal.to_string(),
        prune: request.prune,
        seed: request.seed,
        threads: rayon::current_num_threads(),
        seconds,
        summary: Summary::of(&weights),
        stages,
    })
}

/// The seed of walk `index` of a run seeded `seed`.
pub fn walk_seed(seed: u64, index: u64) -> u64 {
    mix64(splitmix64(seed) ^ index)
}

/// The log weights of the request's walks, in order of their index, computed in parallel.
fn sample(graph: &walk::Graph, request: &EstimateRequest, began: Instant) -> Vec<f64> {
    let mut weights = vec![0.0; request.samples as usize];
    let done = AtomicU64::new(0);
    let last_line = Mutex::new(began);
    weights.par_chunks_mut(BLOCK).enumerate().for_each_init(
        || walk::Scratch::new(graph),
        |scratch, (block, out)| {
            for (j, w) in out.iter_mut().enumerate() {
                let index = (block * BLOCK + j) as u64;
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(walk_seed(request.seed, index));
                *w = scratch.walk(graph, &mut rng);
            }
            let done = done.fetch_add(out.len() as u64, Ordering::Relaxed) + out.len() as u64;
            if request.progress {
                report(&last_line, done, request.samples, began);
            }
        },
    );
    weights
}

/// A progress line on standard error, at most every [`PROGRESS_EVERY`].
fn report(last_line: &Mutex<Instant>, done: u64, samples: u64, began: Instant) {
    let Ok(mut last) = last_line.try_lock() else {
        return; // another thread is writing one
    };
    if last.elapsed() >= PROGRESS_EVERY {
        *last = Instant::now();
        let secs = began.elapsed().as_secs_f64();
        let eta = secs * (samples - done) as f64 / done as f64;
        eprintln!("estimate: {done}/{samples} walks, {secs:.0} s, about {eta:.0} s to go");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(board: Board, closure: Closure, samples: u64, seed: u64) -> EstimateRequest {
        EstimateRequest {
            board,
            closure,
            samples,
            seed,
            proposal: Proposal::Warnsdorff { exponent: 1.0 },
            prune: true,
            progress: false,
        }
    }

    /// The same seed gives the same weights on 1 thread and on 3.
    #[test]
    fn the_estimate_does_not_depend_on_the_threads() {
        let req = request(Board::new(5, 6).unwrap(), Closure::Open, 5000, 11);
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| estimate(&req).unwrap())
        };
        let (one, three) = (on(1), on(3));
        assert_eq!(one.summary, three.summary);
        assert_eq!(one.stages, three.stages);
        assert_eq!(one.stages.len(), 3);
        let other = estimate(&EstimateRequest { seed: 12, ..req }).unwrap();
        assert_ne!(other.summary.estimate, one.summary.estimate);
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        let big = Board::new(33, 32).unwrap();
        assert!(matches!(
            estimate(&request(big, Closure::Open, 10, 0)),
            Err(EstimateError::TooLarge { .. })
        ));
        let b = Board::new(5, 5).unwrap();
        assert_eq!(
            estimate(&request(b, Closure::Open, 0, 0)).unwrap_err(),
            EstimateError::Samples(0)
        );
    }
}
