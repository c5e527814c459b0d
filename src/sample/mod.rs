//! Uniformly random knight's tours, drawn from the exact counts of the frontier counter: a forward
//! pass runs the count square by square and keeps every step's states with their ways (the number
//! of partial tours behind each); a backward pass then walks each draw from the last square to the
//! first, choosing at each step one of the (predecessor, edges) pairs that produce its current
//! state with probability the predecessor's ways over the state's. Each undirected tour is thus
//! drawn with probability exactly 1 / tours (the ratios telescope; the choices use integers only),
//! and a coin directs it (`tour.rs`). Open and closed tours are those the counter counts, on every
//! board it counts (shorter side at most 8); see `docs/sampling.md`.
//!
//! Sources: the reduction from counting to uniform generation is Jerrum, Valiant and Vazirani,
//! "Random generation of combinatorial structures from a uniform distribution", Theoret. Comput.
//! Sci. 43 (1986) 169-188; sampling by a backward pass over the stages of a transfer-matrix
//! programme is its classical form for paths and cycles in grid graphs. The transitions are those
//! of `count::frontier` (Knuth's frontier method), unfolded.
//!
//! The code: this file holds the request, the answer, the errors and the driver; `labelled.rs`
//! the transitions with their edges, `level.rs` the stored steps, `store.rs` where they are kept,
//! `forward.rs` and `backward.rs` the two passes, `tour.rs` the squares of a drawn tour, `stats.rs`
//! statistics of a tour (crossings, straight pairs), and
//! `chi_square.rs` the test of uniformity the tests use.

mod backward;
pub mod chi_square;
mod forward;
mod labelled;
mod level;
pub mod stats;
mod store;
mod tour;

use crate::board::{Board, Closure, Square};
use crate::count::frontier::cells::Key;
use crate::count::frontier::plan::Plan;
use crate::count::frontier::MAX_WIDTH;
use crate::util::splitmix::{mix64, splitmix64};
use backward::Draw;
use level::Level;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most tours one run draws: each holds its edges while the batch goes back.
pub const MAX_TOURS: usize = 10_000_000;

/// How the backward pass weighs a state's predecessors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Weighting {
    /// By their ways: uniform tours.
    #[default]
    Exact,
    /// Every predecessor alike, whatever its ways: a sampler wrong on purpose, for the test that
    /// must tell it from the right one.
    UniformPredecessor,
    /// The ways of one pair of every target at one square counted twice (the first pair in the
    /// stored order, at square `square` of the turned board): a subtler wrong sampler.
    DoubledAt {
        /// The square whose step is wrong.
        square: usize,
    },
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct SampleRequest {
    /// The board.
    pub board: Board,
    /// Open or closed tours.
    pub closure: Closure,
    /// How many tours (independent draws, with repetition).
    pub tours: usize,
    /// The seed: the same seed gives the same tours on any number of threads.
    pub seed: u64,
    /// A folder for the stored steps (in memory when `None`).
    pub temp: Option<PathBuf>,
    /// How predecessors are weighed ([`Weighting::Exact`] but in a test).
    pub weighting: Weighting,
}

/// The tours drawn, and what it took.
#[derive(Clone, Debug)]
pub struct Samples {
    /// The board.
    pub board: Board,
    /// Open or closed tours.
    pub closure: Closure,
    /// The tours, each a sequence of squares: an open tour from either end, a closed one from
    /// (0,0) (not repeated at the end).
    pub tours: Vec<Vec<Square>>,
    /// Undirected tours on the board (paths, or cycles), as the forward pass counted them.
    pub undirected: u128,
    /// The states stored after each step, and the largest.
    pub states: Vec<u64>,
    /// The bytes of all the stored steps.
    pub stored_bytes: u64,
    /// Whether they were on disk.
    pub on_disk: bool,
    /// A bound, in bits, on the ways of any state (the choices of edges of every square
    /// multiplied): below 128 the `u128` ways cannot overflow.
    pub ways_bound_bits: f64,
    /// Time of the forward pass.
    pub forward: Duration,
    /// Time of the backward pass and of turning the edges into tours.
    pub backward: Duration,
}

/// Progress after a step of either pass.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// `false` in the forward pass, `true` in the backward.
    pub backward: bool,
    /// The square just added (forward) or gone back over (backward), row-major on the board turned
    /// so that its shorter side is across.
    pub square: usize,
    /// Squares in all.
    pub squares: usize,
    /// States of the step's list.
    pub states: u64,
    /// Its bytes.
    pub bytes: u64,
}

impl Progress {
    fn forward(square: usize, squares: usize, level: &Level) -> Self {
        Progress {
            backward: false,
            square,
            squares,
            states: level.states(),
            bytes: level.bytes(),
        }
    }

    fn backward(square: usize, squares: usize, level: &Level) -> Self {
        Progress {
            backward: true,
            ..Progress::forward(square, squares, level)
        }
    }
}

/// Why no tours were drawn.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    /// The frontier counter cannot count the board.
    #[error("{board} is {width} squares across its shorter side: the sampler draws from the frontier counts, which handle boards at most {max} wide")]
    TooWide {
        /// The board.
        board: Board,
        /// Its shorter side.
        width: u32,
        /// The widest the frontier handles.
        max: u32,
    },
    /// There is nothing to draw.
    #[error("{board} has no {closure} tour: there is nothing to draw")]
    NoTours {
        /// The board.
        board: Board,
        /// Open or closed.
        closure: Closure,
    },
    /// Too many tours asked for, or none.
    #[error("--tours {tours}: draw between 1 and {MAX_TOURS} tours a run")]
    Tours {
        /// What was asked.
        tours: usize,
    },
    /// The tours asked for would not fit in memory while they are drawn.
    #[error("--tours {tours}: drawing them holds about {needed_mib} MiB (their edges and squares), but memory has {free_mib} MiB free: draw fewer a run (runs with other seeds draw independent tours)")]
    DrawsMemory {
        /// What was asked.
        tours: usize,
        /// What the draws hold at the most.
        needed_mib: u64,
        /// Memory usable now.
        free_mib: u64,
    },
    /// A sum of ways passed 2^128 - 1.
    #[error("the ways of a partial tour passed 2^128 - 1: the sampler's exact integers cannot hold this board's counts")]
    Overflow,
    /// A step would not fit in memory or on the disk.
    #[error("the stored states at square {square} need about {needed_mib} MiB more, but {place} has {free_mib} MiB free{}", if *on_disk { "" } else { ": give --temp DIR to keep them on disk" })]
    NoRoom {
        /// The square about to be added.
        square: usize,
        /// What the step may need.
        needed_mib: u64,
        /// What is free.
        free_mib: u64,
        /// Memory, or the disk of the folder.
        place: String,
        /// Whether the steps are on disk.
        on_disk: bool,
    },
    /// The temporary folder cannot be used.
    #[error("--temp {}: {source}", path.display())]
    Temp {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Reading or writing a stored step failed.
    #[error("the stored steps: {0}")]
    Io(std::io::Error),
    /// The backward pass found a state whose predecessors' ways do not sum to its own: a bug.
    #[error("internal error: the ways of the predecessors of a state at square {square} do not sum to its own")]
    Inconsistent {
        /// The square.
        square: usize,
    },
}

/// The generator of draw `index` of a run seeded `seed`.
fn draw_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix64(splitmix64(seed) ^ index))
}

/// Draw `request.tours` tours uniformly at random (see the module documentation).
pub fn sample(request: &SampleRequest) -> Result<Samples, SampleError> {
    sample_with(request, &mut |_| {})
}

/// [`sample`], calling `progress` after each step of either pass.
pub fn sample_with(
    request: &SampleRequest,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Samples, SampleError> {
    let board = request.board;
    let (rows, cols) = (board.rows(), board.cols());
    let width = rows.min(cols);
    if width > MAX_WIDTH {
        return Err(SampleError::TooWide {
            board,
            width,
            max: MAX_WIDTH,
        });
    }
    if request.tours == 0 || request.tours > MAX_TOURS {
        return Err(SampleError::Tours {
            tours: request.tours,
        });
    }
    let plan = Plan::new(rows.max(cols), width);
    // checked before the forward pass, which may take an hour: the draws come after it
    let needed = draws_bytes(request.tours, plan.n);
    let free = crate::memory::usable_share(crate::memory::available_bytes());
    if needed > free {
        return Err(SampleError::DrawsMemory {
            tours: request.tours,
            needed_mib: needed >> 20,
            free_mib: free >> 20,
        });
    }
    let transposed = cols > rows;
    if 2 * plan.w + 2 > u64::CELLS {
        run::<u128>(request, &plan, transposed, progress)
    } else {
        run::<u64>(request, &plan, transposed, progress)
    }
}

/// The most memory `tours` draws on a board of `squares` squares hold: each draw's state and its
/// edges (one a square at the most), and each tour's squares once turned into one, both held at
/// the end.
fn draws_bytes(tours: usize, squares: usize) -> u64 {
    let edges = squares * std::mem::size_of::<(u32, u32)>();
    let tour = squares * std::mem::size_of::<Square>();
    (tours as u64).saturating_mul((std::mem::size_of::<Draw>() + edges + tour) as u64)
}

/// A bound, in bits, on the number of partial tours of the board (sets of edges of its knight graph
/// in which no square has more than two), hence on the ways of any state and on any sum of them
/// in one step: by Shearer's lemma (each edge lies in the stars of its two ends), at most the
/// product over the squares of `1 + d + d(d-1)/2` (the choices of at most two of its `d` edges),
/// to the power 1/2. Below 128 bits, the `u128` sums cannot overflow (8x8: 127.1 bits); above it
/// every sum is checked.
fn ways_bound_bits(plan: &Plan) -> f64 {
    let (rows, cols) = (plan.rows as i64, plan.cols as i64);
    let mut bits = 0.0;
    for r in 0..rows {
        for c in 0..cols {
            let d = crate::board::KNIGHT_DELTAS
                .iter()
                .filter(|&&(dr, dc)| {
                    let (r, c) = (r + dr as i64, c + dc as i64);
                    (0..rows).contains(&r) && (0..cols).contains(&c)
                })
                .count() as f64;
            bits += (1.0 + d + d * (d - 1.0) / 2.0).log2() / 2.0;
        }
    }
    bits
}

/// Both passes, with states held in `K`.
fn run<K: Key>(
    request: &SampleRequest,
    plan: &Plan,
    transposed: bool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Samples, SampleError> {
    let closed = request.closure.is_closed();
    let storage = store::Storage::new(request.temp.as_deref())?;
    let began = Instant::now();
    let (forward, undirected) = if plan.n == 1 {
        // the 1x1 board: one open tour of one square, no closed one, and no step to store
        (None, u128::from(!closed))
    } else {
        let f = forward::forward::<K>(plan, closed, &storage, progress)?;
        let tours = f.tours;
        (Some(f), tours)
    };
    let forward_time = began.elapsed();
    if undirected == 0 {
        return Err(SampleError::NoTours {
            board: request.board,
            closure: request.closure,
        });
    }
    let mut draws: Vec<Draw> = (0..request.tours as u64)
        .map(|k| Draw::new(draw_rng(request.seed, k), undirected))
        .collect();
    let began = Instant::now();
    let levels: &[Level] = forward.as_ref().map_or(&[], |f| &f.levels);
    if plan.n > 1 {
        backward::backward::<K>(
            plan,
            closed,
            levels,
            &mut draws,
            request.weighting,
            progress,
        )?;
    }
    let turn = tour::Turn::new(plan, transposed);
    let tours = draws
        .iter_mut()
        .map(|d| tour::squares(&d.edges, plan.n, closed, turn, &mut d.rng))
        .collect();
    Ok(Samples {
        board: request.board,
        closure: request.closure,
        tours,
        undirected,
        states: levels.iter().map(Level::states).collect(),
        stored_bytes: levels.iter().map(Level::bytes).sum(),
        on_disk: storage.on_disk(),
        ways_bound_bits: ways_bound_bits(plan),
        forward: forward_time,
        backward: began.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::count_frontier;

    fn request(rows: u64, cols: u64, closure: Closure, tours: usize, seed: u64) -> SampleRequest {
        SampleRequest {
            board: Board::new(rows, cols).unwrap(),
            closure,
            tours,
            seed,
            temp: None,
            weighting: Weighting::Exact,
        }
    }

    /// The forward pass, unfolded, counts what the frontier counter counts, with either key; the
    /// tours drawn are valid tours of the kind asked for.
    #[test]
    fn the_forward_pass_counts_what_the_counter_counts() {
        // not open 6x6: a minute with its count (the chi-square tests draw open 5x5 and closed 6x6)
        let boards = [(3, 4), (5, 5), (4, 6), (6, 5), (3, 8), (6, 6)];
        for (rows, cols) in boards {
            for closure in [Closure::Open, Closure::Closed] {
                if (rows, closure) == (6, Closure::Open) {
                    continue;
                }
                let r = request(rows, cols, closure, 20, 1);
                let want = count_frontier(r.board, closure).unwrap().undirected;
                let plan = Plan::new(rows.max(cols) as u32, rows.min(cols) as u32);
                for wide in [false, true] {
                    let got = match wide {
                        false => run::<u64>(&r, &plan, cols > rows, &mut |_| {}),
                        true => run::<u128>(&r, &plan, cols > rows, &mut |_| {}),
                    };
                    match got {
                        Ok(s) => {
                            assert_eq!(num_bigint::BigUint::from(s.undirected), want);
                            for t in &s.tours {
                                let kind = crate::verify::verify_tour(r.board, t).unwrap();
                                assert!(!closure.is_closed() || t[0] == Square::new(0, 0));
                                assert!(
                                    !closure.is_closed() || kind == crate::verify::TourKind::Closed
                                );
                            }
                        }
                        Err(SampleError::NoTours { .. }) => assert_eq!(want, 0u32.into()),
                        Err(e) => panic!("{e}"),
                    }
                }
            }
        }
    }

    /// The same seed draws the same tours on one thread or two, in memory or on disk (whose
    /// folder is gone afterwards); another seed draws others.
    #[test]
    fn draws_depend_on_the_seed_only() {
        let r = request(5, 6, Closure::Open, 300, 7);
        let on = |threads: usize, r: &SampleRequest| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| sample(r).unwrap())
        };
        let one = on(1, &r);
        assert_eq!(one.tours, on(2, &r).tours);
        let dir = tempfile::tempdir().unwrap();
        let disk = SampleRequest {
            temp: Some(dir.path().to_path_buf()),
            ..r.clone()
        };
        let stored = on(2, &disk);
        assert!(stored.on_disk && !one.on_disk);
        assert_eq!(stored.tours, one.tours);
        assert_eq!(stored.stored_bytes, one.stored_bytes);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let other = on(2, &SampleRequest { seed: 8, ..r });
        assert_ne!(other.tours, one.tours);
    }

    /// Boards that cannot be sampled, and counts of tours out of range, are refused; the 1x1
    /// board has its one open tour.
    #[test]
    fn what_cannot_be_drawn_is_refused() {
        let err = |r: SampleRequest| sample(&r).unwrap_err().to_string();
        assert!(err(request(9, 10, Closure::Open, 1, 0)).contains("at most 8 wide"));
        assert!(err(request(4, 4, Closure::Closed, 1, 0)).contains("no closed tour"));
        assert!(err(request(5, 5, Closure::Open, 0, 0)).contains("between 1 and"));
        let missing = SampleRequest {
            temp: Some(PathBuf::from("/nonexistent/ktour")),
            ..request(5, 5, Closure::Open, 1, 0)
        };
        assert!(err(missing).starts_with("--temp /nonexistent/ktour: "));
        let one = sample(&request(1, 1, Closure::Open, 3, 0)).unwrap();
        assert_eq!(one.tours, vec![vec![Square::new(0, 0)]; 3]);
        assert!(err(request(1, 1, Closure::Closed, 1, 0)).contains("no closed tour"));
    }

    /// The bound on the ways stays below 128 bits up to 8x8, and is the exact count of the sets
    /// of edges with no square of degree over 2 on a board small enough to list them all.
    #[test]
    fn the_ways_fit_their_integers_by_the_bound() {
        for (rows, cols) in [(8, 8), (9, 7), (12, 5)] {
            let bits = ways_bound_bits(&Plan::new(rows, cols));
            assert!(bits < 128.0, "{rows}x{cols}: {bits}");
        }
        assert!(ways_bound_bits(&Plan::new(9, 8)) > 128.0);
        // 3x3: the knight graph is a cycle of 8 squares and the centre; of its 2^8 edge sets only
        // the full cycle has no square of degree 3 or more, so every one counts: 256 <= bound
        let bits = ways_bound_bits(&Plan::new(3, 3));
        assert!((8.0..8.5).contains(&bits), "{bits}");
    }
}
