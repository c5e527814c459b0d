//! Exact counting of knight's tours on boards of at most 64 squares (any shape), by exhaustive search
//! with degree pruning on bitboards ([`bitboard`]), checked against a plain recursive counter
//! ([`reference`](mod@reference)).
//!
//! What is counted, and the published values it reproduces:
//! - open tours, directed, over all starts: OEIS A165134 for n x n (1,728 on 5x5; 6,637,920 on 6x6),
//!   A118067 for 3 x n (16 on 3x4), twice A079137 for 4 x n;
//! - closed tours as undirected cycles, as OEIS counts them: A001230 (9,862 on 6x6, McKay 1997),
//!   A070030 / A169764 for 3 x n.
//!
//! Relations used, all exact and tested: an open path and its reverse are the same undirected tour, so
//! undirected open = directed / 2 (the 1x1 board's single square is its own reverse: 1). Every closed
//! cycle passes through every square and can be run in 2 directions, so directed closed tours from one
//! start = 2 x cycles and over all starts = 2 x squares x cycles. Cycles are counted from one fixed
//! start `s` of least degree: for each pair `{a, b}` of its neighbours, the paths `a -> ... -> b` through
//! every other square (a path and its reverse give the same cycle, so unordered pairs count each cycle
//! once).
//!
//! Work is split into independent path prefixes (start, first move, ...) that [`rayon`] spreads over the
//! cores; with [`Symmetry::Exploit`] (the default), (start, first move) pairs that a symmetry of the
//! board maps onto each other are counted once.

pub mod bitboard;
pub mod estimate;
pub mod frontier;
pub mod reference;

use crate::board::{Board, Closure, Square};
use bitboard::{Branch, End, EndgameCache, KnightBits, PathCount, MAX_SQUARES};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Whether a tour and its reverse count once or twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    /// A tour and its reverse are different (and a closed tour's starting square matters).
    Directed,
    /// A tour and its reverse are the same tour; closed tours are cycles, as OEIS counts them.
    Undirected,
}

/// Which starting squares to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Starts {
    /// Every square.
    All,
    /// Tours from this square only (for open undirected tours: tours with an end on it, the same
    /// number as directed tours from it).
    From(Square),
}

/// Whether to count symmetric (start, first move) pairs once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Count one pair per orbit of the board's symmetry group (4 elements, 8 for square boards).
    Exploit,
    /// Count every pair (for cross-checking the symmetry reduction).
    Ignore,
}

/// Whether to show a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Never.
    Hidden,
    /// On standard error, when it is a terminal and the count has run for more than a second.
    Auto,
}

/// Whether to remember the counts of endgames (see [`EndgameCache`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cache {
    /// Search every endgame.
    Off,
    /// Remember the number of completions of states with at most `max_free` squares left, in a table
    /// of `2^bits` slots (24 bytes each) per worker thread.
    Endgame {
        /// Largest number of free squares of a remembered state.
        max_free: u32,
        /// Log2 of the number of slots per thread.
        bits: u32,
    },
}

/// How the work is done (not what is counted).
#[derive(Clone, Copy, Debug)]
pub struct CountOptions {
    /// Granularity: prefixes are extended level by level until there are at least this many
    /// independent tasks (or the paths end), so that all cores stay busy even from one start.
    pub min_tasks: usize,
    /// Symmetry reduction.
    pub symmetry: Symmetry,
    /// Progress bar.
    pub progress: Progress,
    /// Endgame cache.
    pub cache: Cache,
    /// Refuse, before searching, a count whose search is estimated ([`estimate`]) to visit more
    /// nodes than this ([`CountError::TooManyNodes`]); `None`: no limit.
    pub max_nodes: Option<u64>,
    /// Told the estimated nodes once the estimate is made, before the search starts (the CLI
    /// announces long counts with it).
    pub on_estimate: Option<fn(f64)>,
}

/// The default [`CountOptions::max_nodes`]: 10^12 nodes, a count of hours rather than days at the
/// node rates of `benches/README.md`, so that a count far beyond reach is refused at once instead of
/// running unnoticed. 7x7 open (about 6 x 10^11) passes;
/// 8x8 open (about 4 x 10^16) and 8x8 closed (about 4 x 10^14) are refused at once.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000_000_000;

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions {
            min_tasks: 4096,
            symmetry: Symmetry::Exploit,
            progress: Progress::Hidden,
            cache: Cache::Off,
            max_nodes: Some(DEFAULT_MAX_NODES),
            on_estimate: None,
        }
    }
}

/// What to count.
#[derive(Clone, Copy, Debug)]
pub struct CountRequest {
    /// The board, at most 64 squares.
    pub board: Board,
    /// Open or closed tours.
    pub closure: Closure,
    /// Directed or undirected.
    pub orientation: Orientation,
    /// All starts or one.
    pub starts: Starts,
}

/// The count for one starting square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StartCount {
    /// The starting square.
    pub start: Square,
    /// Tours from it, in the request's orientation (see [`Starts::From`]).
    pub count: u64,
}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub struct CountResult {
    /// The number of tours asked for.
    pub count: u64,
    /// Tours per starting square: every square row by row for [`Starts::All`], the one square for
    /// [`Starts::From`].
    pub per_start: Vec<StartCount>,
    /// Search nodes visited (squares placed), over all tasks.
    pub nodes: u64,
    /// The nodes [`estimate`] expected before the search began (without the endgame cache).
    pub estimated_nodes: f64,
    /// Wall-clock time of the count.
    pub elapsed: Duration,
}

/// Why a count was refused.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum CountError {
    /// More than 64 squares.
    #[error("{board} has {squares} squares; exact counting handles boards of at most {MAX_SQUARES} squares (one bit of a u64 per square): choose smaller --rows/--cols")]
    TooLarge {
        /// The board.
        board: Board,
        /// Its number of squares.
        squares: u64,
    },
    /// Too wide for the frontier counter ([`frontier::MAX_WIDTH`]).
    #[error("{board} is {width} squares wide on its shorter side; the frontier counter handles at most {max} (its state is a u64 of 2 x width + 2 cells)")]
    TooWide {
        /// The board.
        board: Board,
        /// Its shorter side.
        width: u32,
        /// The widest allowed.
        max: u32,
    },
    /// The frontier counter passed its limit on states.
    #[error("the frontier count of {board} passed {max_states} states at square {square} (row-major, shorter side across): raise --max-states if memory allows (24 bytes per state, in the lists of two consecutive steps)")]
    TooManyStates {
        /// The board.
        board: Board,
        /// The limit.
        max_states: usize,
        /// The index of the square being added when the limit was passed.
        square: u32,
    },
    /// The start square is not on the board.
    #[error("--start {start} is off the {board} board")]
    StartOffBoard {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
    },
    /// A count, or a sum of partial counts on the way to it, does not fit the counter's integers:
    /// refused rather than wrapped.
    #[error("the count of {what} on {board} exceeds 2^{bits} - 1, the largest the counter's u{bits} integers hold: it cannot be given exactly")]
    Overflow {
        /// The board.
        board: Board,
        /// What passed the limit.
        what: Counted,
        /// The width of the counter's integers.
        bits: u32,
    },
    /// The search would take too long: Knuth's estimate of its nodes passed the limit.
    #[error("counting {what} on {board} by search would visit about {estimated:.1e} nodes (Knuth's random-probe estimate{}), more than --max-nodes {max_nodes}: at 1-2 x 10^8 nodes/s per core, {} of one core. {}", if *cached { CACHE_NOT_ESTIMATED } else { "" }, duration_words(*estimated / 1e8), too_many_nodes_advice(*board))]
    TooManyNodes {
        /// The board.
        board: Board,
        /// What was to be counted.
        what: Counted,
        /// The estimated nodes.
        estimated: f64,
        /// The limit.
        max_nodes: u64,
        /// Whether the count had an endgame cache, which the estimate leaves out.
        cached: bool,
    },
    /// The endgame caches of the worker threads would not fit in memory together.
    #[error("the endgame cache needs about {needed_mib} MiB ({threads} threads x 2^{bits} slots of 24 bytes) but only {available_mib} MiB is available; lower --cache-bits (or the threads, with RAYON_NUM_THREADS)")]
    CacheTooLarge {
        /// Worker threads, one cache each.
        threads: usize,
        /// Log2 of the slots per cache.
        bits: u32,
        /// Estimated need of all caches.
        needed_mib: u64,
        /// Available memory.
        available_mib: u64,
    },
}

/// A rough duration, `seconds` in the largest unit it reaches: "about 14 years".
pub fn duration_words(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86400.0, "years"),
        (86400.0, "days"),
        (3600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "seconds"),
    ];
    match UNITS.into_iter().find(|&(size, _)| seconds >= size) {
        Some((size, unit)) if seconds / size >= 10.0 => {
            format!("about {:.0} {unit}", seconds / size)
        }
        Some((size, unit)) => format!("about {:.1} {unit}", seconds / size),
        None => "under a second".to_string(),
    }
}

/// What to do instead of a search refused as too long.
/// What [`CountError::TooManyNodes`] adds when the count had an endgame cache: the estimate probes
/// the plain search, and how many nodes a cache saves depends on how often endgames repeat, which
/// random probes do not see.
const CACHE_NOT_ESTIMATED: &str = " of the search without --endgame-cache, which visits fewer \
     nodes: how many fewer depends on how often endgames repeat";

fn too_many_nodes_advice(board: Board) -> &'static str {
    if board.rows().min(board.cols()) <= frontier::MAX_WIDTH {
        "Use --method frontier (boards at most 7 wide; its time grows with the width, not the tours), or raise --max-nodes to search anyway"
    } else {
        "The frontier method handles boards at most 7 wide, so there is no faster way here; raise --max-nodes to search anyway"
    }
}

/// What a count that passed its integer type was counting, for [`CountError::Overflow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Tours of this kind over all starts.
    Tours {
        /// Open or closed.
        closure: Closure,
        /// Directed or undirected.
        orientation: Orientation,
    },
    /// The frontier counter's partial tours (the multiplicities of its states) after adding this
    /// square (row-major, shorter side across): the tours themselves may or may not fit.
    Partial {
        /// The index of the square.
        square: u32,
    },
}

impl std::fmt::Display for Counted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Counted::Tours {
                closure,
                orientation,
            } => f.write_str(tours_label(*closure, *orientation)),
            Counted::Partial { square } => write!(f, "partial tours at square {square}"),
        }
    }
}

/// What tours of this closure and orientation are called in output and messages.
pub fn tours_label(closure: Closure, orientation: Orientation) -> &'static str {
    match (closure, orientation) {
        (Closure::Open, Orientation::Directed) => "directed open tours",
        (Closure::Open, Orientation::Undirected) => "undirected open tours",
        (Closure::Closed, Orientation::Directed) => "directed closed tours",
        (Closure::Closed, Orientation::Undirected) => "closed tours (undirected cycles)",
    }
}

/// A sum of counts passed the largest value of its integer type: what was summed is wrong and must
/// not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wrapped;

/// Bytes of the endgame caches of `threads` worker threads, `2^bits` slots of 24 bytes each.
pub fn cache_bytes(bits: u32, threads: usize) -> u64 {
    (EndgameCache::SLOT_BYTES << bits).saturating_mul(threads as u64)
}

/// Whether the endgame caches of `threads` threads fit within 80% of `available` bytes (the rule of
/// [`crate::experiment::memory::check_workers`]), so that a cache too large is refused instead of aborting the
/// process when the allocation fails.
pub fn check_cache_memory(bits: u32, threads: usize, available: u64) -> Result<(), CountError> {
    let needed = cache_bytes(bits, threads);
    if !crate::memory::fits_in(needed, available) {
        return Err(CountError::CacheTooLarge {
            threads,
            bits,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}

/// Count tours as `request` says. See the module documentation for the definitions.
pub fn count(request: &CountRequest, options: &CountOptions) -> Result<CountResult, CountError> {
    let began = Instant::now();
    let board = request.board;
    let too_large = CountError::TooLarge {
        board,
        squares: board.rows() as u64 * board.cols() as u64,
    };
    let bits = KnightBits::new(board).ok_or(too_large)?;
    if let Cache::Endgame { bits, .. } = options.cache {
        let threads = rayon::current_num_threads();
        check_cache_memory(bits, threads, crate::memory::available_bytes())?;
    }
    let overflow = |closure, orientation| CountError::Overflow {
        board,
        what: Counted::Tours {
            closure,
            orientation,
        },
        bits: u64::BITS,
    };
    let starts: Vec<Square> = match request.starts {
        Starts::All => board.squares().collect(),
        Starts::From(start) => {
            if !board.contains(start.row() as i64, start.col() as i64) {
                return Err(CountError::StartOffBoard { board, start });
            }
            vec![start]
        }
    };
    let (per_start, total, nodes, estimated_nodes) = match request.closure {
        Closure::Open => {
            let wrapped = overflow(Closure::Open, Orientation::Directed);
            let (counts, nodes, estimated) = open_counts(&bits, &starts, options, wrapped)?;
            let directed = checked_sum(counts.iter().copied()).ok_or(wrapped)?;
            let total = match (request.starts, request.orientation) {
                (Starts::From(_), _) | (Starts::All, Orientation::Directed) => directed,
                (Starts::All, Orientation::Undirected) if board.len() == 1 => 1,
                (Starts::All, Orientation::Undirected) => {
                    debug_assert!(directed % 2 == 0, "paths pair up with their reverses");
                    directed / 2
                }
            };
            (counts, total, nodes, estimated)
        }
        Closure::Closed => {
            let (cycles, nodes, estimated) = closed_cycles(
                &bits,
                options,
                overflow(Closure::Closed, Orientation::Undirected),
            )?;
            let directed = overflow(Closure::Closed, Orientation::Directed);
            let per = match request.orientation {
                Orientation::Directed => cycles.checked_mul(2).ok_or(directed)?,
                Orientation::Undirected => cycles,
            };
            let total = match (request.starts, request.orientation) {
                (Starts::All, Orientation::Directed) => {
                    per.checked_mul(board.len() as u64).ok_or(directed)?
                }
                (Starts::From(_), _) | (_, Orientation::Undirected) => per,
            };
            (vec![per; starts.len()], total, nodes, estimated)
        }
    };
    Ok(CountResult {
        count: total,
        per_start: starts
            .iter()
            .zip(per_start)
            .map(|(&start, count)| StartCount { start, count })
            .collect(),
        nodes,
        estimated_nodes,
        elapsed: began.elapsed(),
    })
}

/// The sum of `counts`, or `None` if it passes `u64::MAX`.
fn checked_sum(mut counts: impl Iterator<Item = u64>) -> Option<u64> {
    counts.try_fold(0u64, u64::checked_add)
}

/// Directed open tours from each of `starts`, the nodes visited and the nodes estimated before the
/// search; `wrapped` if a count passes `u64::MAX`.
fn open_counts(
    bits: &KnightBits,
    starts: &[Square],
    options: &CountOptions,
    wrapped: CountError,
) -> Result<(Vec<u64>, u64, f64), CountError> {
    let board = bits.board();
    if board.len() == 1 {
        return Ok((vec![1; starts.len()], 1, 1.0));
    }
    let group = match options.symmetry {
        Symmetry::Exploit => symmetries(board),
        Symmetry::Ignore => symmetries(board).into_iter().take(1).collect(),
    };
    // One root per orbit of (start, first move); each start sums the roots of its pairs.
    let mut roots: Vec<Root> = Vec::new();
    let mut root_of: HashMap<(u32, u32), usize> = HashMap::new();
    let mut pairs: Vec<Vec<usize>> = Vec::with_capacity(starts.len());
    let has_tours = crate::exists::open_tour(board).is_ok();
    for &start in starts {
        let mut mine = Vec::new();
        if has_tours && crate::exists::parity_allows(board, start, Closure::Open) {
            let s = board.index(start);
            for a in each_bit(bits.attacks(s)) {
                let canonical = group
                    .iter()
                    .map(|g| (g[s as usize] as u32, g[a as usize] as u32))
                    .min()
                    .expect("the group holds the identity");
                let next = roots.len();
                let id = *root_of.entry(canonical).or_insert(next);
                if id == next {
                    let (s, a) = canonical;
                    roots.push(Root {
                        head: a,
                        free: bits.all() & !(1u64 << s) & !(1u64 << a),
                        end: End::Anywhere,
                    });
                }
                mine.push(id);
            }
        }
        pairs.push(mine);
    }
    let what = Counted::Tours {
        closure: Closure::Open,
        orientation: Orientation::Directed,
    };
    let (counts, nodes, estimated) = run_roots(bits, &roots, options, what, wrapped)?;
    let per_start = pairs
        .iter()
        .map(|ids| checked_sum(ids.iter().map(|&id| counts[id])).ok_or(wrapped))
        .collect::<Result<_, _>>()?;
    let starts_placed = starts.len() as u64;
    Ok((
        per_start,
        nodes + starts_placed,
        estimated + starts_placed as f64,
    ))
}

/// Undirected closed tours (cycles), and the nodes visited; `wrapped` if a count passes `u64::MAX`.
fn closed_cycles(
    bits: &KnightBits,
    options: &CountOptions,
    wrapped: CountError,
) -> Result<(u64, u64, f64), CountError> {
    let board = bits.board();
    if crate::exists::closed_tour(board).is_err() {
        return Ok((0, 0, 0.0));
    }
    let all = bits.all();
    // The fixed start: a square of least degree (a corner), so that few pairs of neighbours remain.
    let s = (0..board.len())
        .min_by_key(|&i| bits.attacks(i).count_ones())
        .expect("a board has squares");
    let near: Vec<u32> = each_bit(bits.attacks(s)).collect();
    let mut roots = Vec::new();
    for (i, &a) in near.iter().enumerate() {
        for &b in &near[i + 1..] {
            roots.push(Root {
                head: a,
                free: all & !(1u64 << s) & !(1u64 << a),
                end: End::At(b),
            });
        }
    }
    let what = Counted::Tours {
        closure: Closure::Closed,
        orientation: Orientation::Undirected,
    };
    let (counts, nodes, estimated) = run_roots(bits, &roots, options, what, wrapped)?;
    let cycles = checked_sum(counts.into_iter()).ok_or(wrapped)?;
    Ok((cycles, nodes + 1, estimated + 1.0))
}

/// A state to count from: the path stands on `head`, must visit `free`, and end as `end` says.
type Root = estimate::State;

/// A prefix of a root, counted as one parallel task.
#[derive(Clone, Copy, Debug)]
struct Task {
    root: usize,
    state: Root,
}

/// Count every root: split into at least `options.min_tasks` prefixes, count them in parallel, and sum
/// per root. Returns the tours per root, the total nodes and the nodes estimated before the search;
/// `wrapped` if a count passes `u64::MAX`, [`CountError::TooManyNodes`] (counting `what`) if the
/// estimate passes `options.max_nodes`, [`CountError::CacheTooLarge`] if an endgame cache cannot be
/// allocated.
fn run_roots(
    bits: &KnightBits,
    roots: &[Root],
    options: &CountOptions,
    what: Counted,
    wrapped: CountError,
) -> Result<(Vec<u64>, u64, f64), CountError> {
    let mut done = vec![PathCount::default(); roots.len()];
    let mut level: Vec<Task> = roots
        .iter()
        .enumerate()
        .map(|(root, &state)| Task { root, state })
        .collect();
    let mut remaining = bits.board().len();
    while !level.is_empty() && level.len() < options.min_tasks && remaining > 0 {
        remaining -= 1;
        let mut next = Vec::with_capacity(level.len() * 3);
        for task in level {
            let Root { head, free, end } = task.state;
            let tally = &mut done[task.root];
            tally.nodes += 1;
            if free == 0 {
                // Complete (a fixed end square is only ever entered last). One per task of a level:
                // far from u64::MAX.
                tally.tours += 1;
                continue;
            }
            let Branch::Moves(moves) = bits.branch(head, free, end) else {
                continue;
            };
            for m in each_bit(moves) {
                next.push(Task {
                    root: task.root,
                    state: Root {
                        head: m,
                        free: free & !(1u64 << m),
                        end,
                    },
                });
            }
        }
        level = next;
    }
    let split_nodes: u64 = done.iter().map(|c| c.nodes).sum();
    let estimated =
        split_nodes as f64 + estimate::estimate_nodes(bits, level.len(), |i| level[i].state);
    if let Some(tell) = options.on_estimate {
        tell(estimated);
    }
    if let Some(max_nodes) = options.max_nodes {
        if estimated > max_nodes as f64 {
            return Err(CountError::TooManyNodes {
                board: bits.board(),
                what,
                estimated,
                max_nodes,
                cached: !matches!(options.cache, Cache::Off),
            });
        }
    }
    let bar = ProgressReporter::new(options.progress, level.len() as u64);
    let counted: Vec<PathCount> = match options.cache {
        Cache::Off => level
            .par_iter()
            .map(|task| {
                let Root { head, free, end } = task.state;
                let c = bits.count_paths(head, free, end);
                bar.tick();
                c
            })
            .collect(),
        Cache::Endgame {
            max_free,
            bits: size,
        } => {
            let pool = Mutex::new(Vec::new());
            let counted: Result<Vec<PathCount>, CountError> = level
                .par_iter()
                .map_init(
                    || Pooled::take(&pool, || EndgameCache::new(max_free, size)),
                    |cache, task| {
                        // The memory check passed but the allocator said no: the same refusal, not
                        // an abort.
                        let cache = cache.as_mut().map_err(|_| CountError::CacheTooLarge {
                            threads: rayon::current_num_threads(),
                            bits: size,
                            needed_mib: cache_bytes(size, rayon::current_num_threads())
                                .div_ceil(1 << 20),
                            available_mib: crate::memory::available_bytes() >> 20,
                        })?;
                        let Root { head, free, end } = task.state;
                        let c = bits.count_paths_cached(head, free, end, cache.get());
                        bar.tick();
                        Ok(c)
                    },
                )
                .collect();
            counted?
        }
    };
    bar.finish();
    for (task, c) in level.iter().zip(counted) {
        done[task.root] += c;
    }
    if done.iter().any(|c| c.wrapped) {
        return Err(wrapped);
    }
    let nodes = done.iter().map(|c| c.nodes).sum();
    Ok((
        done.into_iter().map(|c| c.tours).collect(),
        nodes,
        estimated,
    ))
}

/// A cache borrowed from a pool for one rayon job and given back when the job ends, so that the
/// (large) tables are allocated about once per thread, not once per job.
struct Pooled<'a> {
    cache: Option<EndgameCache>,
    pool: &'a Mutex<Vec<EndgameCache>>,
}

impl<'a> Pooled<'a> {
    /// A cache from the pool, or a new one from `make` (whose error is passed on) when it is empty.
    fn take<E>(
        pool: &'a Mutex<Vec<EndgameCache>>,
        make: impl FnOnce() -> Result<EndgameCache, E>,
    ) -> Result<Self, E> {
        let cache = pool.lock().expect("no panics while held").pop();
        let cache = match cache {
            Some(cache) => cache,
            None => make()?,
        };
        Ok(Pooled {
            cache: Some(cache),
            pool,
        })
    }

    fn get(&mut self) -> &mut EndgameCache {
        self.cache.as_mut().expect("present until dropped")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        if let (Some(cache), Ok(mut pool)) = (self.cache.take(), self.pool.lock()) {
            pool.push(cache);
        }
    }
}

/// A progress bar that appears after a second, and only on a terminal.
struct ProgressReporter {
    bar: Option<ProgressBar>,
    began: Instant,
    shown: AtomicBool,
}

impl ProgressReporter {
    const DELAY: Duration = Duration::from_secs(1);

    fn new(progress: Progress, tasks: u64) -> Self {
        let bar = (progress == Progress::Auto && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(tasks), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {pos}/{len} prefixes, ETA {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        });
        ProgressReporter {
            bar,
            began: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    fn tick(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            if !self.shown.load(Ordering::Relaxed)
                && self.began.elapsed() > Self::DELAY
                && !self.shown.swap(true, Ordering::Relaxed)
            {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The bit indexes of `mask`, lowest first.
fn each_bit(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            i
        })
    })
}

/// The symmetries of `board` as permutations of square indexes, identity first: the 4 reflections and
/// rotations of a rectangle, 8 for a square board. Each maps knight moves to knight moves.
pub fn symmetries(board: Board) -> Vec<Vec<u8>> {
    let (rows, cols) = (board.rows() as u16, board.cols() as u16);
    let kinds = if rows == cols { 8 } else { 4 };
    (0..kinds)
        .map(|kind| {
            board
                .squares()
                .map(|sq| {
                    let (r, c) = (sq.row(), sq.col());
                    let (fr, fc) = (rows - 1 - r, cols - 1 - c);
                    // Kinds 4..8 transpose, which keeps the board only when it is square.
                    let (r, c) = match kind {
                        0 => (r, c),
                        1 => (r, fc),
                        2 => (fr, c),
                        3 => (fr, fc),
                        4 => (c, r),
                        5 => (fc, fr),
                        6 => (c, fr),
                        _ => (fc, r),
                    };
                    board.index(Square::new(r, c)) as u8
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::is_knight_move;

    #[test]
    fn symmetries_are_knight_automorphisms() {
        for (r, c) in [(5, 5), (3, 4), (6, 6), (4, 7)] {
            let b = Board::new(r, c).unwrap();
            let group = symmetries(b);
            assert_eq!(group.len(), if r == c { 8 } else { 4 });
            for g in &group {
                let mut seen = g.clone();
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len(), b.len() as usize, "a permutation");
                for x in b.squares() {
                    for y in b.squares() {
                        let gx = b.square_at(g[b.index(x) as usize] as u32).unwrap();
                        let gy = b.square_at(g[b.index(y) as usize] as u32).unwrap();
                        assert_eq!(is_knight_move(x, y), is_knight_move(gx, gy));
                    }
                }
            }
        }
    }

    #[test]
    fn endgame_caches_must_fit_in_memory() {
        let gib = 1u64 << 30;
        // 2 threads x 24 GiB (--cache-bits 30) on a 32 GiB machine: refused, with the numbers
        assert_eq!(
            check_cache_memory(30, 2, 32 * gib),
            Err(CountError::CacheTooLarge {
                threads: 2,
                bits: 30,
                needed_mib: 48 * 1024,
                available_mib: 32 * 1024,
            })
        );
        // the default 2^20 slots: 24 MiB a thread
        assert_eq!(check_cache_memory(20, 2, 32 * gib), Ok(()));
        assert_eq!(cache_bytes(20, 2), 48 << 20);
        // within 80% of what is available, as for solves and sweeps
        assert_eq!(check_cache_memory(30, 1, 30 * gib), Ok(()));
        assert!(check_cache_memory(30, 1, 29 * gib).is_err());
    }

    #[test]
    fn each_bit_lists_bits_in_order() {
        assert_eq!(each_bit(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(each_bit(0).count(), 0);
        assert_eq!(each_bit(u64::MAX).count(), 64);
    }
}
