//! `ktour sample`: uniformly random tours drawn from the frontier counts ([`crate::sample`]),
//! written in the formats `solve` writes and `verify` reads: JSON records (one a line), `r,c`
//! lines or grids (a blank line between tours) on standard output, or one file per tour in a
//! folder. Parsing, progress and printing only.

use super::args::parse_threads;
use super::{BoardArgs, ExitStatus};
use crate::board::{Board, Closure, Square};
use crate::sample::{sample_with, Progress, SampleError, SampleRequest, Samples, Weighting};
use crate::tour::{format_grid, format_moves, write_bin, StatsRecord, TourRecord};
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Output formats of `ktour sample`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SampleFormat {
    /// The JSON record of `solve --format json`, one a line.
    Json,
    /// One `r,c` line per square, a blank line between tours.
    Moves,
    /// Grids of 1-based visit numbers, a blank line between tours.
    Text,
    /// The compact binary format of `solve --format bin` (with --dir only: one file a tour).
    Bin,
}

/// Arguments of `ktour sample`.
#[derive(Debug, Args)]
pub struct SampleArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Draw closed tours (uniform over the cycles, each started at 0,0 in a direction chosen by
    /// a coin); else open tours (uniform over the directed paths).
    #[arg(long)]
    closed: bool,
    /// Tours to draw (independent, with repetition).
    #[arg(long, value_name = "K")]
    tours: usize,
    /// Seed: the same seed draws the same tours on any number of threads.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SampleFormat::Json)]
    format: SampleFormat,
    /// Write each tour to its own file in this folder (tour-1.json, ...) instead of standard
    /// output.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Keep the forward pass's states in files in this folder instead of memory (boards whose
    /// states do not fit in memory).
    #[arg(long, value_name = "DIR")]
    temp: Option<PathBuf>,
    /// Also print, on standard error, the mean number of crossings (pairs of moves that cross)
    /// and of straight pairs (consecutive moves in the same direction) of the tours drawn, with
    /// 95% intervals.
    #[arg(long)]
    stats: bool,
    /// Threads (default: all cores).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
}

pub fn run(args: SampleArgs) -> anyhow::Result<ExitStatus> {
    let board = args.board.board()?;
    if args.format == SampleFormat::Bin && args.dir.is_none() {
        bail!("--format bin writes one tour a file: give --dir DIR");
    }
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let request = SampleRequest {
        board,
        closure: Closure::of(args.closed),
        tours: args.tours,
        seed: args.seed,
        temp: args.temp.clone(),
        weighting: Weighting::Exact,
    };
    let drawn = match args.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .context("starting the threads")?
            .install(|| draw(&request)),
        None => draw(&request),
    };
    let samples = match drawn {
        Ok(s) => s,
        Err(e @ SampleError::NoTours { .. }) => {
            eprintln!("no tour: {e}");
            return Ok(ExitStatus::NoTour);
        }
        Err(e) => return Err(e.into()),
    };
    match &args.dir {
        Some(dir) => write_files(&samples, args.format, dir)?,
        None => write_stdout(&samples, args.format).context("writing standard output")?,
    }
    eprintln!("{}", summary(&samples, args.seed));
    if args.stats {
        eprintln!("{}", statistics(&samples));
    }
    Ok(ExitStatus::Success)
}

/// The draw, with a progress line on standard error every few seconds.
fn draw(request: &SampleRequest) -> Result<Samples, SampleError> {
    const EVERY: Duration = Duration::from_secs(5);
    let began = Instant::now();
    let mut next = EVERY;
    sample_with(request, &mut |p: &Progress| {
        if began.elapsed() >= next {
            next = began.elapsed() + EVERY;
            let pass = if p.backward { "backward" } else { "forward" };
            eprintln!(
                "sample: {pass} pass, square {} of {}, {} states ({} MiB), {:.0} s",
                p.square + 1,
                p.squares,
                p.states,
                p.bytes >> 20,
                began.elapsed().as_secs_f64()
            );
        }
    })
}

/// The JSON record of a drawn tour.
fn record(board: Board, squares: &[Square], closed: bool) -> TourRecord {
    TourRecord {
        rows: board.rows(),
        cols: board.cols(),
        closed,
        start: squares.first().copied(),
        squares: squares.to_vec(),
        found: true,
        method: "sample".into(),
        rule: "uniform".into(),
        stats: StatsRecord::default(),
        leaper: None,
        holes: Vec::new(),
    }
}

/// One tour in `format`.
fn encode(s: &Samples, squares: &[Square], format: SampleFormat) -> anyhow::Result<Vec<u8>> {
    let closed = s.closure.is_closed();
    Ok(match format {
        SampleFormat::Json => {
            let mut line = serde_json::to_vec(&record(s.board, squares, closed))?;
            line.push(b'\n');
            line
        }
        SampleFormat::Moves => format_moves(squares).into_bytes(),
        SampleFormat::Text => match format_grid(s.board, squares) {
            Some(grid) => grid.into_bytes(),
            None => bail!("the {} board is too wide to print as a grid", s.board),
        },
        SampleFormat::Bin => {
            let mut out = Vec::new();
            write_bin(&mut out, s.board, squares, closed)?;
            out
        }
    })
}

fn write_stdout(s: &Samples, format: SampleFormat) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (k, tour) in s.tours.iter().enumerate() {
        if k > 0 && format != SampleFormat::Json {
            out.write_all(b"\n")?;
        }
        out.write_all(&encode(s, tour, format)?)?;
    }
    Ok(out.flush()?)
}

fn write_files(s: &Samples, format: SampleFormat, dir: &Path) -> anyhow::Result<()> {
    let ext = match format {
        SampleFormat::Json => "json",
        SampleFormat::Moves => "txt",
        SampleFormat::Text => "grid",
        SampleFormat::Bin => "bin",
    };
    for (k, tour) in s.tours.iter().enumerate() {
        let path = dir.join(format!("tour-{}.{ext}", k + 1));
        std::fs::write(&path, encode(s, tour, format)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn summary(s: &Samples, seed: u64) -> String {
    let (kind, of) = match s.closure {
        Closure::Closed => ("closed", "cycles"),
        Closure::Open => ("open", "paths"),
    };
    let peak = s.states.iter().max().copied().unwrap_or(0);
    let total: u64 = s.states.iter().sum();
    let place = if s.on_disk { "on disk" } else { "in memory" };
    format!(
        "drew {} {kind} tours of {} uniformly from its {} {of} (seed {seed}): forward pass {:.2} s ({total} states stored, {peak} at the peak, {:.1} MiB {place}), backward pass {:.2} s",
        s.tours.len(),
        s.board,
        s.undirected,
        s.forward.as_secs_f64(),
        s.stored_bytes as f64 / (1u64 << 20) as f64,
        s.backward.as_secs_f64()
    )
}

/// The means of the tours' statistics, with their 95% intervals.
fn statistics(s: &Samples) -> String {
    use crate::sample::stats::{crossings, mean_interval, straight_pairs};
    let closed = s.closure.is_closed();
    let of = |f: fn(&[Square], bool) -> u32| {
        let values: Vec<f64> = s.tours.iter().map(|t| f64::from(f(t, closed))).collect();
        let (mean, low, high) = mean_interval(&values);
        format!("{mean:.4} (95%: {low:.4} to {high:.4})")
    };
    format!(
        "per tour: crossings {}, straight pairs {}",
        of(crossings),
        of(straight_pairs)
    )
}
