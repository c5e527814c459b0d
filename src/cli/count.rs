//! `ktour count`: the exact number of tours, by backtracking on a board of at most 64 squares (see
//! [`crate::count`]) or, with `--method frontier`, by dynamic programming over a frontier on a board
//! at most 8 squares wide (see [`crate::count::frontier`]).

use super::args::parse_start;
use super::{BoardArgs, ExitStatus, ShapeArgs};
use crate::board::Closure;
use crate::count::frontier::{count_frontier_resumable, FrontierProgress};
use crate::count::{
    count, Cache, CountError, CountOptions, CountRequest, Orientation, Progress, StartCount,
    Starts, Symmetry,
};
use clap::{Args, ValueEnum};
use serde::Serialize;

/// Output formats of `ktour count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountFormat {
    /// Human-readable; the last line is the count alone.
    Text,
    /// One JSON object.
    Json,
}

/// How `ktour count` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountMethod {
    /// Exhaustive backtracking search (at most 64 squares; per-start counts).
    Search,
    /// Dynamic programming over a row-major frontier (shorter side at most 8, any length; no
    /// per-start counts).
    Frontier,
}

/// Arguments of `ktour count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Any board: counted by plain search (no symmetry, no cache, no estimate; --max-nodes bounds
    /// the squares entered).
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
    /// With --method search: refuse, at once and with exit status 2, a count whose search is
    /// estimated to visit more nodes than this (Knuth's random-probe estimate, a few milliseconds;
    /// usually within a few times of the truth; of the search without --endgame-cache, which visits
    /// fewer). The default, 10^12, is about an hour and a half on
    /// two cores: 7x7 open passes, 8x8 open (about 4 x 10^16) does not. Plain or like `1e13`; 0 for
    /// no limit (as `--budget 0` elsewhere).
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
    /// Log2 of the endgame cache's slots per thread.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=30))]
    cache_bits: u32,
}

/// The JSON output of `ktour count --format json`.
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
    /// The largest number of frontier states held (frontier only).
    #[serde(skip_serializing_if = "Option::is_none")]
    peak_states: Option<usize>,
    /// Wall-clock time of the count, nanoseconds.
    elapsed_ns: u128,
}

/// Run `ktour count`.
pub fn run(args: CountArgs) -> anyhow::Result<ExitStatus> {
    if args.shape.given() {
        let shape = args.shape.shape(args.board.board_opt()?)?;
        if !shape.is_full_knight() {
            return run_shaped(&args, &shape);
        }
    }
    let board = args.board.board()?;
    let starts = match &args.start {
        Some(text) => Starts::From(parse_start(text, board)?),
        None => Starts::All,
    };
    let closure = Closure::of(args.closed);
    let orientation = match (closure, args.undirected, args.directed) {
        (_, true, _) | (Closure::Closed, false, false) => Orientation::Undirected,
        _ => Orientation::Directed,
    };
    if args.method == CountMethod::Frontier {
        return run_frontier(&args, board, closure, orientation);
    }
    if args.checkpoint.is_some() {
        anyhow::bail!(
            "--checkpoint is for --method frontier: a search keeps no state between rows"
        );
    }
    let request = CountRequest {
        board,
        closure,
        orientation,
        starts,
    };
    let options = CountOptions {
        progress: Progress::Auto,
        cache: match args.endgame_cache {
            0 => Cache::Off,
            max_free => Cache::Endgame {
                max_free,
                bits: args.cache_bits,
            },
        },
        symmetry: if args.no_symmetry {
            Symmetry::Ignore
        } else {
            Symmetry::Exploit
        },
        max_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
        on_estimate: Some(announce_long_count),
        ..CountOptions::default()
    };
    let result = count(&request, &options)?;
    match args.format {
        CountFormat::Json => {
            let json = CountJson {
                rows: board.rows(),
                cols: board.cols(),
                closed: args.closed,
                directed: orientation == Orientation::Directed,
                start: match starts {
                    Starts::From(s) => Some([s.row(), s.col()]),
                    Starts::All => None,
                },
                method: "search",
                count: result.count.into(),
                per_start: args.per_start.then(|| result.per_start.clone()),
                nodes: result.nodes,
                estimated_nodes: Some(result.estimated_nodes),
                peak_states: None,
                elapsed_ns: result.elapsed.as_nanos(),
            };
            println!("{}", serde_json::to_string(&json)?);
        }
        CountFormat::Text => {
            let kind = crate::count::tours_label(closure, orientation);
            if args.per_start {
                println!("tours from each start square (row by row):");
                print!("{}", per_start_table(board.cols(), &result.per_start));
            }
            let from = match starts {
                Starts::From(s) => format!(" from {s}"),
                Starts::All => String::new(),
            };
            let secs = result.elapsed.as_secs_f64();
            println!(
                "{kind} on {board}{from}: {} nodes (estimated {:.2e}) in {secs:.3} s ({:.1} M nodes/s)",
                result.nodes,
                result.estimated_nodes,
                result.nodes as f64 / secs.max(1e-9) / 1e6
            );
            println!("{}", result.count);
        }
    }
    Ok(ExitStatus::Success)
}

/// `ktour count --leaper/--mask`: plain search on the shape's graph.
fn run_shaped(args: &CountArgs, shape: &crate::board::Shape) -> anyhow::Result<ExitStatus> {
    if args.method == CountMethod::Frontier || args.per_start || args.no_symmetry {
        anyhow::bail!("on a board with holes or another leaper, count takes --method search without --per-start or --no-symmetry (the frontier method reads knight moves on whole boards)");
    }
    let board = shape.board();
    let starts = match &args.start {
        Some(text) => Starts::From(parse_start(text, board)?),
        None => Starts::All,
    };
    let closure = Closure::of(args.closed);
    let orientation = match (closure, args.undirected, args.directed) {
        (_, true, _) | (Closure::Closed, false, false) => Orientation::Undirected,
        _ => Orientation::Directed,
    };
    let timer = std::time::Instant::now();
    let max_nodes = (args.max_nodes > 0).then_some(args.max_nodes);
    let result = crate::count::shaped::count_on(shape, closure, orientation, starts, max_nodes)?;
    let secs = timer.elapsed().as_secs_f64();
    match args.format {
        CountFormat::Json => {
            let json = CountJson {
                rows: board.rows(),
                cols: board.cols(),
                closed: args.closed,
                directed: orientation == Orientation::Directed,
                start: match starts {
                    Starts::From(s) => Some([s.row(), s.col()]),
                    Starts::All => None,
                },
                method: "search",
                count: result.count.to_string().into(),
                per_start: None,
                nodes: result.nodes,
                estimated_nodes: None,
                peak_states: None,
                elapsed_ns: timer.elapsed().as_nanos(),
            };
            println!("{}", serde_json::to_string(&json)?);
        }
        CountFormat::Text => {
            let kind = crate::count::tours_label(closure, orientation);
            let from = match starts {
                Starts::From(s) => format!(" from {s}"),
                Starts::All => String::new(),
            };
            println!(
                "{kind} on {shape}{from}: {} nodes in {secs:.3} s (plain search on any board)",
                result.nodes
            );
            println!("{}", result.count);
        }
    }
    Ok(ExitStatus::Success)
}

/// `ktour count --method frontier`: all starts only, no per-start table.
fn run_frontier(
    args: &CountArgs,
    board: crate::board::Board,
    closure: Closure,
    orientation: Orientation,
) -> anyhow::Result<ExitStatus> {
    if args.start.is_some() || args.per_start {
        anyhow::bail!(
            "--method frontier counts over all starts only: drop --start/--per-start or use --method search"
        );
    }
    // a line a row, and a line a square while squares take long (a count of hours shows it moves)
    let mut last_line = std::time::Duration::ZERO;
    let (mut ways_bits, mut folded) = (None, true);
    let mut report = |p: &FrontierProgress| {
        match ways_bits {
            Some(bits) if bits != p.ways_bits => eprintln!(
                "frontier: a state's ways passed 2^{bits}; counting again with {}-bit ways",
                p.ways_bits
            ),
            _ => {}
        }
        ways_bits = Some(p.ways_bits);
        if p.resumed_from > 0 && p.squares_done == p.resumed_from + 1 {
            eprintln!(
                "frontier: resumed from the checkpoint after square {} of {}",
                p.resumed_from, p.squares
            );
        }
        if p.folded != folded {
            folded = p.folded;
            eprintln!("frontier: a state's ways passed 2^128 with mirror images folded together; counting again without folding");
        }
        if !p.row_end && p.elapsed < last_line + std::time::Duration::from_secs(10) {
            return;
        }
        last_line = p.elapsed;
        eprintln!(
            "frontier: {} {}/{}: {} states, {:.1} s",
            if p.row_end { "row" } else { "square" },
            if p.row_end {
                p.rows_done
            } else {
                p.squares_done
            },
            if p.row_end { p.rows } else { p.squares },
            p.states,
            p.elapsed.as_secs_f64()
        );
    };
    let result = count_frontier_resumable(
        board,
        closure,
        args.max_states,
        args.checkpoint.as_deref(),
        &mut report,
    )
    .map_err(|e| match (&args.checkpoint, e) {
        (Some(path), e @ CountError::FrontierCheckpoint { .. }) => {
            anyhow::anyhow!("{}: {e}", path.display())
        }
        (_, e) => e.into(),
    })?;
    let total = match orientation {
        Orientation::Undirected => result.undirected,
        Orientation::Directed => result.directed()?,
    };
    match args.format {
        CountFormat::Json => {
            let json = CountJson {
                rows: board.rows(),
                cols: board.cols(),
                closed: closure.is_closed(),
                directed: orientation == Orientation::Directed,
                start: None,
                method: "frontier",
                count: total.to_string().into(),
                per_start: None,
                nodes: result.transitions,
                estimated_nodes: None,
                peak_states: Some(result.peak_states),
                elapsed_ns: result.elapsed.as_nanos(),
            };
            println!("{}", serde_json::to_string(&json)?);
        }
        CountFormat::Text => {
            let kind = crate::count::tours_label(closure, orientation);
            println!(
                "{kind} on {board} (frontier): {} transitions, peak {} states, in {:.3} s",
                result.transitions,
                result.peak_states,
                result.elapsed.as_secs_f64()
            );
            println!("{total}");
        }
    }
    Ok(ExitStatus::Success)
}

/// On standard error, before a count expected to take a minute or more (10^10 nodes, at the 10^8
/// nodes/s per core that the message assumes), what to expect: a batch job's log says so at the start.
fn announce_long_count(estimated: f64) {
    if estimated >= 1e10 {
        let cores = rayon::current_num_threads().max(1) as f64;
        eprintln!(
            "counting: about {estimated:.1e} nodes by Knuth's estimate, {} on {cores} cores at 10^8 nodes/s each",
            crate::util::words::duration_words(estimated / 1e8 / cores)
        );
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
