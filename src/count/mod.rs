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
//!
//! The code: this file holds the request, options, result and error types; [`engine`] which engine
//! counts a request and what a count is expected to cost; `search.rs` the search over roots that
//! [`count`] runs, `pool.rs` the per-thread endgame caches and their memory check, and
//! `progress.rs` the progress bar; [`frontier`] and [`shaped`] the two other engines; the board
//! symmetries are `board::symmetries`.

pub mod bitboard;
pub mod engine;
pub mod estimate;
pub mod frontier;
mod pool;
mod progress;
pub mod reference;
mod search;
pub mod shaped;
pub mod symmetric;

pub use crate::board::symmetries;
pub use pool::{cache_bytes, check_cache_memory};
pub use search::count;

use crate::board::{Board, Closure, Leaper, Square};
use crate::util::words::duration_words;
use bitboard::MAX_SQUARES;
use serde::Serialize;
use std::time::Duration;

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

/// Whether to remember the counts of endgames (see [`EndgameCache`](bitboard::EndgameCache)).
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
    #[error("{board} has {squares} squares; exact counting handles boards of at most {MAX_SQUARES} squares (one bit of a u64 per square): choose smaller --rows/--cols, or --method frontier where the shorter side is at most 8")]
    TooLarge {
        /// The board.
        board: Board,
        /// Its number of squares.
        squares: u64,
    },
    /// Too wide for the frontier counter ([`frontier::MAX_WIDTH`]) across the side it sweeps.
    #[error("{board} would be swept {width} squares wide (its shorter side, or a range's fixed side); the frontier counter handles at most {max} (its state is 2 x width + 2 cells of 4 bits, in a u128)")]
    TooWide {
        /// The board.
        board: Board,
        /// The side the frontier sweeps across: the shorter, or a range's fixed side.
        width: u32,
        /// The widest allowed.
        max: u32,
    },
    /// The frontier counter passed its limit on states.
    #[error("the frontier count of {board} passed {max_states} states adding square {} (counted from 1 as the progress lines count, row-major, shorter side across): raise --max-states if memory allows (16 bytes a state, and half as much again while a step's parts are merged)", .square + 1)]
    TooManyStates {
        /// The board.
        board: Board,
        /// The limit.
        max_states: usize,
        /// The index (from 0) of the square being added when the limit was passed; the message
        /// counts from 1, as the progress lines do.
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
    #[error("counting {what} on {board} by search would visit about {estimated:.1e} nodes (Knuth's random-probe estimate{}), more than --max-nodes {max_nodes}: at 1-2 x 10^8 nodes/s per core, {} of one core. {}", if *cached { CACHE_NOT_ESTIMATED } else { "" }, duration_words(*estimated / 1e8), too_many_nodes_advice(*board, *what))]
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
    /// The start square is a hole, or off the board (a count on any board).
    #[error("--start {start} is not a square of the {board} board with its holes")]
    StartOffShape {
        /// The rectangle.
        board: Board,
        /// The requested start.
        start: Square,
    },
    /// A count on any board would take too long: Knuth's estimate of its nodes passed the limit.
    #[error("counting {what} on {} by search would visit about {} nodes (Knuth's random-probe estimate), more than --max-nodes {max_nodes}: the search on a board with holes or another leaper runs on one core, at about {:.1e} nodes/s, so {}. Raise --max-nodes to search anyway (0: no limit)", shaped::shape_words(*board, *holes, *leaper), engine::nodes_words(*estimated), SHAPED_RATE, engine::time_words(*estimated / SHAPED_RATE))]
    ShapedTooManyNodes {
        /// The rectangle.
        board: Board,
        /// Its holes.
        holes: u32,
        /// The leaper.
        leaper: Leaper,
        /// What was to be counted.
        what: Counted,
        /// The estimated nodes.
        estimated: f64,
        /// The limit.
        max_nodes: u64,
    },
    /// A count on any board passed its limit on squares entered (its estimate fell short).
    #[error("the count passed --max-nodes {max_nodes} squares entered; raise it to go on (a count on a board with holes or another leaper searches with no symmetry and no cache)")]
    NodeLimit {
        /// The limit.
        max_nodes: u64,
    },
    /// `--max-states` allows more frontier states than memory holds.
    #[error("the frontier count of {board} may hold {max_states} states (--max-states), {state_bytes} bytes each and half as much again while a step's parts are merged, about {needed_mib} MiB with its sorting batches, but only {available_mib} MiB is available: lower --max-states (the count then stops at that many states, with what it reached)")]
    StatesTooMany {
        /// The board.
        board: Board,
        /// The limit asked for.
        max_states: usize,
        /// Bytes a state takes.
        state_bytes: usize,
        /// Estimated need.
        needed_mib: u64,
        /// Available memory.
        available_mib: u64,
    },
    /// A frontier step's states passed what memory holds before its limit on states did.
    #[error("the frontier count of {board} ran out of memory adding square {} (counted from 1, row-major, shorter side across): the next states held {held} entries of {state_bytes} bytes with {available_mib} MiB available when the square began; this board needs more memory than this machine has: bound it with --memory and spill to disk with --temp", .square + 1)]
    FrontierMemory {
        /// The board.
        board: Board,
        /// The index (from 0) of the square being added; the message counts from 1.
        square: u32,
        /// Entries the next step's lists held when it stopped.
        held: usize,
        /// Bytes an entry takes.
        state_bytes: usize,
        /// Memory available when the square began.
        available_mib: u64,
    },
    /// A count from both ends (`--method halves`, all in memory) passed what memory holds.
    #[error("counting {board} from both ends ran out of memory at square {} (counted from 1, row-major, shorter side across) with {available_mib} MiB available: --method halves holds every state in memory; count it with --method frontier, whose --memory and --temp spill to disk", .square + 1)]
    HalvesMemory {
        /// The board.
        board: Board,
        /// The index (from 0) of the square it stopped at; the message counts from 1.
        square: u32,
        /// Memory available then.
        available_mib: u64,
    },
    /// A frontier count's checkpoint could not be read or written.
    #[error("the frontier count's checkpoint file {problem}; nothing was overwritten (remove the file, or give another, to count from the start)")]
    FrontierCheckpoint {
        /// What is wrong with it.
        problem: frontier::CheckpointProblem,
    },
    /// The residues of a count's passes recombine to a number past the count's bound: a pass
    /// miscounted, or a checkpoint it resumed from was damaged. Nothing is reported.
    #[error("the residues of the passes over {board} recombine, for the board {length} long, to a number past Bregman's bound of {bound:.1} bits: a pass miscounted or a checkpoint was damaged, so no count is reported")]
    ResiduesPastBound {
        /// The board.
        board: Board,
        /// The length (the long side) whose residues disagree.
        length: u32,
        /// The bound, in bits.
        bound: f64,
    },
    /// A frontier count under a bound on memory could not spill its states to disk.
    #[error("the frontier count's spill {problem}")]
    FrontierSpill {
        /// What went wrong.
        problem: frontier::SpillProblem,
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

/// The node rate of the search on any board, for [`CountError::ShapedTooManyNodes`].
const SHAPED_RATE: f64 = match engine::Engine::Shaped.nodes_per_second() {
    Some(rate) => rate,
    None => 1.0,
};

/// What [`CountError::TooManyNodes`] adds when the count had an endgame cache: the estimate probes
/// the plain search, and how many nodes a cache saves depends on how often endgames repeat, which
/// random probes do not see.
const CACHE_NOT_ESTIMATED: &str = " of the search without --endgame-cache, which visits fewer \
     nodes: how many fewer depends on how often endgames repeat";

/// What to do instead of a search refused as too long.
fn too_many_nodes_advice(board: Board, what: Counted) -> &'static str {
    let closed = matches!(
        what,
        Counted::Tours {
            closure: Closure::Closed,
            ..
        }
    );
    match board.rows().min(board.cols()) {
        w if w < frontier::MAX_WIDTH => {
            "Use --method frontier (boards at most 8 wide; its time grows with the width, not the tours), or raise --max-nodes to search anyway"
        }
        w if w == frontier::MAX_WIDTH && closed => {
            "Use --method frontier with --max-states 700000000 (8x8 closed: 568 million states at the peak, 12 GB and 25 minutes on 2 cores; longer boards hold more: docs/counting.md and docs/REFERENCE.md, section 11), or raise --max-nodes to search anyway"
        }
        w if w == frontier::MAX_WIDTH => {
            "--method frontier takes boards 8 wide, but open tours there need more memory than a 24 GB machine has (they hold 10 to 40 times the states of closed tours, and 8x8 closed peaks at 568 million: docs/counting.md and docs/REFERENCE.md, section 11); raise --max-nodes to search anyway"
        }
        _ => {
            "The frontier method handles boards at most 8 wide, so there is no faster way here; raise --max-nodes to search anyway"
        }
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
