//! `ktour count`: the exact number of tours, by backtracking on a board of at most 64 squares (see
//! [`crate::count`]) or, with `--method frontier`, by dynamic programming over a frontier on a board
//! at most 8 squares wide (see [`crate::count::frontier`]).

mod format;
mod frontier;
mod halves;
mod shard;
mod status;
mod symmetric;

pub use format::CountFormat;

use super::args::parse_start;
use super::{BoardArgs, ExitStatus, ShapeArgs};
use crate::board::{Closure, Shape};
use crate::count::engine::{self, Asked, Engine, Method};
use crate::count::shaped::{self, ShapedOptions, ShapedProgress};
use crate::count::{
    count, tours_label, Cache, CountOptions, CountRequest, Orientation, Progress, StartCount,
    Starts, Symmetry,
};
use clap::{Args, ValueEnum};
use frontier::{count_by_frontier, count_lengths_of, frontier_options};
use halves::count_by_halves;
use serde::Serialize;

/// How `ktour count` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountMethod {
    /// Exhaustive backtracking search (at most 64 squares; per-start counts).
    Search,
    /// Dynamic programming over a row-major frontier (shorter side at most 8, any length; no
    /// per-start counts).
    Frontier,
    /// Closed tours only, from both ends: the frontier over each half of the board, joined at
    /// the middle (shorter side at most 8, in memory; 8x8 in a third of the frontier's time).
    Halves,
}

/// Arguments of `ktour count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Any board: counted by plain search (one core, no symmetry, no cache; refused at once when
    /// Knuth's estimate passes --max-nodes, which also bounds the squares entered).
    #[command(flatten)]
    shape: ShapeArgs,
    /// Counting method: `search` (backtracking) or `frontier` (transfer matrix; far faster on wide
    /// boards such as 6x6 and 7x7, and for long boards at most 8 wide; prints the number of frontier
    /// states after each row on standard error).
    #[arg(long, value_enum, default_value_t = CountMethod::Search)]
    method: CountMethod,
    /// With --method frontier: give up with an error (exit status 2) when a step holds more than this
    /// many states; each costs 16 bytes, and half as much again while a step's parts are merged.
    /// 7x7 open holds 157 million at its peak, in row 6 of 7; 8x8 closed 568 million.
    #[arg(long, default_value_t = 50_000_000, value_name = "STATES")]
    max_states: usize,
    /// With --method frontier: write the states at the end of every row to FILE (replacing it
    /// whole), and resume from FILE when it holds this count's, so that an interrupted count goes on
    /// from its last whole row; the file is removed when the count ends. 32 bytes a state: 8x8
    /// closed writes up to 4.2 GB there.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    /// With --method frontier: the passes modulo primes that a count past its ways' bits takes
    /// run modulo the primes below 2^60 from the largest down after passing over this many: a
    /// count under a second set of primes, which gives the same count (a check of the first).
    #[arg(long, default_value_t = 0, value_name = "N", conflicts_with = "shards")]
    skip_primes: usize,
    /// With --checkpoint: print where the count saved in FILE stands (its pass, the row it
    /// reached, its states, the residues of the passes done and the lengths counted so far) and
    /// exit, without counting.
    #[arg(long, requires = "checkpoint", conflicts_with_all = ["shards", "symmetric", "memory"])]
    status: bool,
    /// With --method frontier: keep at most about this much of the states in memory (like 8G, 512M
    /// or 65536; at least 4K) and spill the rest to sorted runs in --temp, merged step by step:
    /// the same count, slower, with the disk holding what memory does not (--max-states still
    /// applies: raise it for a count that holds more states than memory would).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes, requires = "temp")]
    memory: Option<u64>,
    /// With --memory: the folder the runs go to (a folder of the count's own is made there and
    /// removed when it ends; 16 bytes a state, about twice the largest step's states at once).
    #[arg(long, value_name = "DIR", requires = "memory")]
    temp: Option<std::path::PathBuf>,
    /// With --method search: refuse, at once and with exit status 2, a count whose search is
    /// estimated to visit more nodes than this (Knuth's random-probe estimate, a few milliseconds;
    /// usually within a few times of the truth; of the search without --endgame-cache, which visits
    /// fewer). How long the default, 10^12, takes depends on the board and the path: about an hour
    /// and a half on two cores on a whole board walked by the knight (10^8 nodes/s or more a core;
    /// 7x7 open passes, 8x8 open, about 4 x 10^16, does not), but about 6 hours with --mask or
    /// --leaper, whose search runs on one core at 4 to 5 x 10^7 nodes/s (and is stopped at this
    /// many nodes if the estimate fell short). Plain or like `1e13`; 0 for no limit (as
    /// `--budget 0` elsewhere).
    #[arg(long, default_value = "1e12", value_name = "NODES", value_parser = parse_nodes)]
    max_nodes: u64,
    /// Count closed tours: undirected cycles, as OEIS counts them, unless --directed.
    #[arg(long)]
    closed: bool,
    /// Count tours from this square only, `ROW,COL` (0-based).
    #[arg(long, value_name = "R,C", allow_hyphen_values = true)]
    start: Option<String>,
    /// Count a tour and its reverse once (the default for closed tours, which are counted as cycles).
    #[arg(long)]
    undirected: bool,
    /// Count closed tours as directed tours (2 per cycle and start square) instead of cycles.
    #[arg(long, requires = "closed", conflicts_with = "undirected")]
    directed: bool,
    /// Also print the count for every starting square.
    #[arg(long)]
    per_start: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountFormat::Text)]
    format: CountFormat,
    /// Remember the counts of endgames with at most this many squares left (0: off). Same counts,
    /// fewer nodes; costs 24 x 2^--cache-bits bytes per thread (refused with exit status 2 when the
    /// threads' caches would not fit in memory).
    #[arg(long, default_value_t = 0, value_name = "SQUARES")]
    endgame_cache: u32,
    /// Count every (start, first move) pair, not one per symmetry class (a cross-check; slower).
    #[arg(long)]
    no_symmetry: bool,
    /// Count only the closed tours that a rotation of the board maps onto themselves: 180 (a
    /// half-turn; both sides even) or 90 (a quarter-turn; square boards), by a frontier over the
    /// quotient board (docs/counting.md, "Symmetric closed tours"); --max-states bounds its states.
    #[arg(long, value_name = "DEGREES", conflicts_with_all = ["start", "per_start", "directed", "checkpoint", "no_symmetry", "endgame_cache", "leaper", "mask", "memory"])]
    symmetric: Option<u32>,
    /// With --method frontier: split the count's states across K processes (shards) that share
    /// the folder --shared, exchanged after every square; each is started with --shard I
    /// (0..K-1), all must run at once, and --collect prints the count once all have finished
    /// (docs/cluster.md, "A sharded count").
    #[arg(long, value_name = "K", requires = "shared", conflicts_with_all = ["start", "per_start", "checkpoint", "symmetric", "no_symmetry", "endgame_cache", "leaper", "mask"])]
    shards: Option<u32>,
    /// With --shards: this process's shard, 0 to K-1.
    #[arg(long, value_name = "I", requires = "shards")]
    shard: Option<u32>,
    /// With --shards: the folder the shards share (made if need be; every shard must reach it).
    #[arg(long, value_name = "DIR", requires = "shards")]
    shared: Option<std::path::PathBuf>,
    /// With --shards: give up (exit status 2) after waiting this long for the other shards at one
    /// exchange (default 3600); a shard run again resumes where it stopped. With --collect: wait
    /// this long in all for the shards to start and finish (default 0: collect what is there).
    #[arg(long, value_name = "SECONDS", requires = "shards")]
    wait: Option<u64>,
    /// With --shards: print the count of the shards in --shared once all have finished (refused,
    /// exit status 2, while one has not, after --wait if given).
    #[arg(long, requires = "shards", conflicts_with = "shard")]
    collect: bool,
    /// Log2 of the endgame cache's slots per thread.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=30))]
    cache_bits: u32,
}

/// The JSON output of `ktour count --format json` (and the first fields of `--collect`'s).
#[derive(Debug, Serialize)]
struct CountJson {
    /// Board rows.
    rows: u32,
    /// Board columns.
    cols: u32,
    /// Closed tours were counted.
    closed: bool,
    /// A tour and its reverse were counted separately.
    directed: bool,
    /// The start square, `[row, col]`, or null for all starts.
    start: Option<[u16; 2]>,
    /// The counting method.
    method: &'static str,
    /// The number of tours (a decimal string with --method frontier, whose counts may pass 2^64).
    count: serde_json::Value,
    /// Tours per start square (with --per-start).
    #[serde(skip_serializing_if = "Option::is_none")]
    per_start: Option<Vec<StartCount>>,
    /// Search nodes visited (search), or state transitions (frontier).
    nodes: u64,
    /// The search nodes estimated before the search (search only; without the endgame cache).
    #[serde(skip_serializing_if = "Option::is_none")]
    estimated_nodes: Option<f64>,
    /// The largest number of frontier states held (frontier only; one shard's, sharded).
    #[serde(skip_serializing_if = "Option::is_none")]
    peak_states: Option<usize>,
    /// Passes over the board: 1 exact, more modulo primes (frontier only).
    #[serde(skip_serializing_if = "Option::is_none")]
    passes: Option<u32>,
    /// Wall-clock time of the count, nanoseconds.
    elapsed_ns: u128,
}

/// Run `ktour count`: the engine the library chooses for the request ([`engine::choose`]) counts,
/// and its count is printed.
pub fn run(args: CountArgs) -> anyhow::Result<ExitStatus> {
    if let (true, Some(path)) = (args.status, &args.checkpoint) {
        if args.format != CountFormat::Text {
            anyhow::bail!("--status prints text only: leave out --format");
        }
        return status::run(path);
    }
    if let Some(degrees) = args.symmetric {
        let board = args.board.board()?;
        let format = args.format;
        return symmetric::run(board, args.closed, degrees, args.max_states, format);
    }
    if let Some(shards) = args.shards {
        if args.method == CountMethod::Halves {
            anyhow::bail!(
                "--shards splits --method frontier or search: --method halves runs in one process"
            );
        }
        if args.board.lengths().is_some() {
            anyhow::bail!("--shards counts one board: give --cols C, not a range");
        }
        let sharded = shard::Sharded {
            board: args.board.board()?,
            frontier: args.method == CountMethod::Frontier,
            closure: Closure::of(args.closed),
            orientation: Orientation::asked(
                Closure::of(args.closed),
                args.undirected,
                args.directed,
            ),
            format: args.format,
            shards,
            shard: args.shard,
            collect: args.collect,
            shared: args.shared.as_deref(),
            wait: args.wait,
            max_states: args.max_states,
            spill: frontier_options(&args).spill,
        };
        return shard::run(&sharded);
    }
    if let Some((rows, cols)) = args.board.lengths() {
        return count_lengths_of(&args, rows, cols);
    }
    let shape = if args.shape.given() {
        args.shape.shape(args.board.board_opt()?)?
    } else {
        Shape::full(args.board.board()?)
    };
    let asked = Asked {
        method: match args.method {
            CountMethod::Search => Method::Search,
            CountMethod::Frontier => Method::Frontier,
            CountMethod::Halves => Method::Halves,
        },
        one_start: args.start.is_some(),
        per_start: args.per_start,
        symmetry: if args.no_symmetry {
            Symmetry::Ignore
        } else {
            Symmetry::Exploit
        },
        checkpoint: args.checkpoint.is_some(),
    };
    let engine = engine::choose(&shape, &asked)?;
    if args.memory.is_some() && engine != Engine::Frontier {
        anyhow::bail!("--memory and --temp bound the states of --method frontier only");
    }
    let board = shape.board();
    let closure = Closure::of(args.closed);
    let request = CountRequest {
        board,
        closure,
        orientation: Orientation::asked(closure, args.undirected, args.directed),
        starts: match &args.start {
            Some(text) => Starts::From(parse_start(text, board)?),
            None => Starts::All,
        },
    };
    let counted = match engine {
        Engine::Search => count_by_search(&args, &request, asked.symmetry)?,
        Engine::Frontier => count_by_frontier(&args, &request)?,
        Engine::Halves => count_by_halves(&request)?,
        Engine::Shaped => count_on_shape(&args, &shape, &request)?,
    };
    match args.format {
        CountFormat::Json => println!("{}", serde_json::to_string(&counted.json)?),
        CountFormat::Bfile => println!("{} {}", board.cols(), counted.count),
        CountFormat::Text => {
            if let Some(table) = counted.per_start_table {
                println!("tours from each start square (row by row):");
                print!("{table}");
            }
            println!("{}", counted.line);
            println!("{}", counted.count);
        }
    }
    Ok(ExitStatus::Success)
}

/// A number of bytes, plain or with a binary suffix: `65536`, `64K`, `512M`, `8G`, `1T`.
pub(super) fn parse_bytes(text: &str) -> Result<u64, String> {
    let wrong = || {
        format!("`{text}` is not a number of bytes: write it plain (65536) or like 64K, 512M, 8G")
    };
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(wrong()),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let n: u64 = digits.parse().map_err(|_| wrong())?;
    n.checked_mul(1 << shift).ok_or_else(wrong)
}

/// A count as printed, whichever engine made it.
struct Printed {
    /// The `--format json` object.
    json: CountJson,
    /// The text's line before the count.
    line: String,
    /// The count, the text's last line.
    count: String,
    /// The per-start table of the text (`--per-start`, the bitboard search only).
    per_start_table: Option<String>,
}

impl CountJson {
    /// The object of a frontier count of `request` (in one process, or its shards collected),
    /// `total` its tours as the request orients them.
    fn of_frontier(
        request: &CountRequest,
        total: &num_bigint::BigUint,
        result: &crate::count::frontier::FrontierCount,
    ) -> Self {
        let mut json = Self::new(
            request,
            Engine::Frontier,
            total.to_string().into(),
            result.transitions,
        );
        json.peak_states = Some(result.peak_states);
        json.passes = Some(result.passes);
        json.elapsed_ns = result.elapsed.as_nanos();
        json
    }

    /// The object of a count of `request` by `engine`, with what every engine reports.
    fn new(request: &CountRequest, engine: Engine, count: serde_json::Value, nodes: u64) -> Self {
        CountJson {
            rows: request.board.rows(),
            cols: request.board.cols(),
            closed: request.closure.is_closed(),
            directed: request.orientation == Orientation::Directed,
            start: match request.starts {
                Starts::From(s) => Some([s.row(), s.col()]),
                Starts::All => None,
            },
            method: engine.method_name(),
            count,
            per_start: None,
            nodes,
            estimated_nodes: None,
            peak_states: None,
            passes: None,
            elapsed_ns: 0,
        }
    }
}

/// ` from (r, c)` for a count from one start, nothing for all starts.
fn from_words(starts: Starts) -> String {
    match starts {
        Starts::From(s) => format!(" from {s}"),
        Starts::All => String::new(),
    }
}

/// The bitboard search on a whole knight's board ([`Engine::Search`]).
fn count_by_search(
    args: &CountArgs,
    request: &CountRequest,
    symmetry: Symmetry,
) -> anyhow::Result<Printed> {
    let options = CountOptions {
        progress: Progress::Auto,
        cache: match args.endgame_cache {
            0 => Cache::Off,
            max_free => Cache::Endgame {
                max_free,
                bits: args.cache_bits,
            },
        },
        symmetry,
        max_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
        on_estimate: Some(|estimated| announce(Engine::Search, estimated)),
        ..CountOptions::default()
    };
    let result = count(request, &options)?;
    let mut json = CountJson::new(request, Engine::Search, result.count.into(), result.nodes);
    json.per_start = args.per_start.then(|| result.per_start.clone());
    json.estimated_nodes = Some(result.estimated_nodes);
    json.elapsed_ns = result.elapsed.as_nanos();
    let kind = tours_label(request.closure, request.orientation);
    let (board, from) = (request.board, from_words(request.starts));
    let secs = result.elapsed.as_secs_f64();
    Ok(Printed {
        json,
        line: format!(
            "{kind} on {board}{from}: {} nodes (estimated {:.2e}) in {secs:.3} s ({:.1} M nodes/s)",
            result.nodes,
            result.estimated_nodes,
            result.nodes as f64 / secs.max(1e-9) / 1e6
        ),
        count: result.count.to_string(),
        per_start_table: args
            .per_start
            .then(|| per_start_table(board.cols(), &result.per_start)),
    })
}

/// The plain search on a board with holes or another leaper ([`Engine::Shaped`]): refused at
/// once when Knuth's estimate passes --max-nodes; a line on standard error every 10 s while it
/// runs.
fn count_on_shape(
    args: &CountArgs,
    shape: &Shape,
    request: &CountRequest,
) -> anyhow::Result<Printed> {
    let timer = std::time::Instant::now();
    let mut last_line = std::time::Duration::ZERO;
    let mut report = |p: &ShapedProgress| {
        if p.elapsed >= last_line + std::time::Duration::from_secs(10) {
            last_line = p.elapsed;
            eprintln!(
                "counting: {:.2e} nodes of about {} estimated, {:.0} s",
                p.nodes as f64,
                engine::nodes_words(p.estimated),
                p.elapsed.as_secs_f64()
            );
        }
    };
    let options = ShapedOptions {
        max_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
        on_estimate: Some(&mut |estimated| announce(Engine::Shaped, estimated)),
        progress: Some(&mut report),
    };
    let CountRequest {
        closure,
        orientation,
        starts,
        ..
    } = *request;
    let result = shaped::count_shaped(shape, closure, orientation, starts, options)?;
    let secs = timer.elapsed().as_secs_f64();
    let count = result.count.to_string();
    let mut json = CountJson::new(request, Engine::Shaped, count.clone().into(), result.nodes);
    json.estimated_nodes = result.estimated_nodes;
    json.elapsed_ns = timer.elapsed().as_nanos();
    let kind = tours_label(closure, orientation);
    let from = from_words(starts);
    let estimated = engine::nodes_words(result.estimated_nodes.unwrap_or(0.0));
    Ok(Printed {
        json,
        line: format!(
            "{kind} on {shape}{from}: {} nodes (estimated {estimated}) in {secs:.3} s (plain search on any board, one core)",
            result.nodes
        ),
        count,
        per_start_table: None,
    })
}

/// On standard error, before a count expected to take long, what to expect
/// ([`engine::long_count_notice`]): a batch job's log says so at the start.
fn announce(engine: Engine, estimated: f64) {
    if let Some(notice) = engine::long_count_notice(engine, estimated, rayon::current_num_threads())
    {
        eprintln!("{notice}");
    }
}

/// A node count, plain (`1000000000000`) or as a power of ten (`1e12`, `2.5e13`).
pub(super) fn parse_nodes(text: &str) -> Result<u64, String> {
    let wrong =
        || format!("`{text}` is not a node count: write it plain (1000000000000) or like 1e12");
    if let Ok(n) = text.parse::<u64>() {
        return Ok(n);
    }
    let (mantissa, exponent) = text.split_once(['e', 'E']).ok_or_else(wrong)?;
    let (mantissa, exponent) = (
        mantissa.parse::<f64>().map_err(|_| wrong())?,
        exponent.parse::<i32>().map_err(|_| wrong())?,
    );
    let n = mantissa * 10f64.powi(exponent);
    // u64::MAX as f64 rounds up to 2^64, which does not fit: refuse it and anything past it
    if !(0.0..18_446_744_073_709_549_568.0).contains(&n) || n.fract() != 0.0 {
        return Err(format!(
            "`{text}` is not a whole number of nodes from 0 to 2^64 - 1"
        ));
    }
    Ok(n as u64)
}

/// The per-start counts as a grid, one board row per line, right-aligned; a single start on one line.
fn per_start_table(cols: u32, counts: &[StartCount]) -> String {
    if counts.len() == 1 {
        return format!("{} {}\n", counts[0].start, counts[0].count);
    }
    let width = counts
        .iter()
        .map(|c| c.count.to_string().len())
        .max()
        .unwrap_or(1);
    counts
        .chunks(cols as usize)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|c| format!("{:>width$}", c.count)).collect();
            cells.join(" ") + "\n"
        })
        .collect()
}
