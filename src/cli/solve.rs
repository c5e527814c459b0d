//! `ktour solve`: one tour, by search, by construction, or (`auto`, the default) by whichever suits
//! the board; printed as a grid, JSON, `r,c` lines, SVG or the compact binary format. The strategy
//! and the records are the library's ([`crate::auto::strategy`]); this file parses and prints.

use super::args::parse_start;
use super::{BoardArgs, ExitStatus, ShapeArgs};
use crate::auto::{Ask, Ending, Finished, Plan, Route, Strategy};
use crate::board::{Board, Square};
use crate::solve::posa::CloseProgress;
use crate::solve::rotate::RotateProgress;
use crate::solve::{Method, Outcome, RuleSeq};
use crate::tour::{format_grid_with_holes, format_moves, TourRecord};
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Output formats of `solve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Grid of 1-based visit numbers.
    Text,
    /// The JSON record that `verify`, `render` and scripts read.
    Json,
    /// One `r,c` line per square.
    Moves,
    /// An SVG picture (a failed run shows its dead end and stranded squares).
    Svg,
    /// Compact binary: a 32-byte header, then u32 little-endian row-major square indexes.
    Bin,
}

/// Arguments of `ktour solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    board: BoardArgs,
    #[command(flatten)]
    shape: ShapeArgs,
    /// First square as ROW,COL (0-based, row 0 on top).
    #[arg(long, default_value = "0,0", allow_hyphen_values = true)]
    start: String,
    /// Require a closed (re-entrant) tour.
    #[arg(long)]
    closed: bool,
    /// auto (search small boards, construct large ones), warnsdorff, backtrack, naive, rotate
    /// (Warnsdorff + Pósa rotations to close), or construct (divide and conquer, any size).
    /// `warnsdorff --closed` is pure Warnsdorff asked for a closed tour: it says whether the walk
    /// closed (exit 1 when not).
    #[arg(long, default_value = "auto")]
    method: String,
    /// Tie-break rule (`ktour rules` lists them and the algebra: `pohl+random`, `order:...`), or
    /// rules tried in turn as `a|b|c` [default: first]. Construction uses none.
    #[arg(long)]
    rule: Option<String>,
    /// Attempts at most: the rules of --rule in turn, each attempt with its own seed derived from
    /// --seed, until one finds a tour (closed with --closed) [default: the rules in --rule].
    #[arg(long)]
    attempts: Option<u32>,
    /// Closed pure Warnsdorff keeps its start for last (HaskellWiki's heuristic): the start counts
    /// in its neighbours' degrees until the walk returns to it.
    #[arg(long)]
    start_last: bool,
    /// Backtracking without cutting branches at stranded squares, as published programs that do
    /// not prune search (for comparing node counts).
    #[arg(long)]
    no_prune: bool,
    /// Node budget for the searches (squares entered); 0 = unlimited.
    #[arg(long, default_value_t = crate::experiment::SOLVE_BUDGET)]
    budget: u64,
    /// With --method rotate: Pósa rotations allowed to close the path; 0 = unlimited. Each reverses
    /// part of the path, so on large boards they cost time in proportion to the board.
    #[arg(long, value_name = "N")]
    rotations: Option<u64>,
    /// Seed of the run's PRNG (for `random`); a sweep's CSV records each run's seed.
    #[arg(long, default_value_t = crate::experiment::DEFAULT_SEED)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the output here instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitStatus> {
    let shape = match args.shape.given() {
        true => Some(args.shape.shape(args.board.board_opt()?)?),
        false => None,
    };
    let board = match &shape {
        Some(s) => s.board(),
        None => args.board.board()?,
    };
    let start = parse_start(&args.start, board)?;
    let strategy: Strategy = args.method.parse().map_err(anyhow::Error::msg)?;
    let strategy = strategy.resolve(shape, start)?;
    let rules: RuleSeq = args.rule.as_deref().unwrap_or("first").parse()?;
    let plan = Plan::new(
        strategy,
        Ask {
            board,
            start,
            closed: args.closed,
            rules,
            attempts: args.attempts,
            start_last: args.start_last,
            prune: !args.no_prune,
            budget: args.budget,
            rotations: args.rotations,
            seed: args.seed,
        },
    )?;
    let finished = match plan.make(rotate_progress())? {
        Ending::Run(finished) => *finished,
        Ending::NoTour(proof) => {
            eprintln!("no tour: {proof}");
            return Ok(ExitStatus::NoTour);
        }
        // a limit of the method, not bad input: a tour may well exist (exit 1, as for a search that
        // gives up)
        Ending::CannotStart(e) => {
            eprintln!("not found: {e}; a tour may exist there: try --method backtrack");
            return Ok(ExitStatus::NotFound);
        }
    };
    write_output(&finished.record, args.format, args.output.as_deref())?;
    eprintln!("{}", summary_line(&finished, start));
    Ok(match finished.outcome {
        Outcome::Found => ExitStatus::Success,
        Outcome::Impossible(_) => ExitStatus::NoTour,
        Outcome::DeadEnd | Outcome::NotClosed | Outcome::BudgetExhausted => ExitStatus::NotFound,
    })
}

/// A line on standard error every few seconds while `rotate` closes its path, as long runs of the
/// other commands report: rotations made, of the budget, squares moved, and when the budget would
/// run out at this pace.
fn rotate_progress() -> RotateProgress {
    const EVERY: Duration = Duration::from_secs(5);
    let began = Instant::now();
    let next = Mutex::new(EVERY);
    RotateProgress(Arc::new(move |p: &CloseProgress| {
        let elapsed = began.elapsed();
        let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
        if elapsed < *next {
            return;
        }
        *next = elapsed + EVERY;
        let secs = elapsed.as_secs_f64();
        let budget = if p.max_rotations == u64::MAX {
            "no limit".to_string()
        } else {
            let left = (p.max_rotations - p.rotations) as f64 / p.rotations as f64 * secs;
            format!("{}, spent in about {left:.0} s more", p.max_rotations)
        };
        eprintln!(
            "rotate: {} rotations (budget {budget}), {} squares moved, {secs:.1} s",
            p.rotations, p.moved
        );
    }))
}

/// What the summary line says about the way `auto` chose.
fn auto_note(route: Option<Route>) -> &'static str {
    match route {
        None | Some(Route::Theorem) => "",
        Some(Route::Search) => "auto chose backtracking; ",
        Some(Route::Construction) => "auto chose construction; ",
        Some(Route::SearchAfterConstruction) => {
            "construction cannot start there; auto chose backtracking; "
        }
        Some(Route::AnyBoard) => "auto chose backtracking (any board); ",
    }
}

fn write_output(
    rec: &TourRecord,
    format: Format,
    path: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let board = Board::new(rec.rows as u64, rec.cols as u64)?;
    if format == Format::Bin && path.is_none() && std::io::stdout().is_terminal() {
        bail!("--format bin writes binary data: give -o FILE or redirect standard output");
    }
    let (mut out, name): (Box<dyn Write>, String) = match path {
        Some(p) => (
            Box::new(std::io::BufWriter::new(
                std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
            )),
            p.display().to_string(),
        ),
        None => (Box::new(std::io::stdout().lock()), "standard output".into()),
    };
    let written = match format {
        Format::Json => serde_json::to_writer(&mut out, rec)
            .map_err(std::io::Error::from)
            .and_then(|_| out.write_all(b"\n")),
        Format::Moves => out.write_all(format_moves(&rec.squares).as_bytes()),
        Format::Svg => out.write_all(crate::render::tour_svg(rec)?.as_bytes()),
        Format::Text => match format_grid_with_holes(board, &rec.squares, &rec.holes) {
            Some(grid) => out.write_all(grid.as_bytes()),
            None => writeln!(
                out,
                "the {board} board is too wide to print as a grid; use --format json, moves or bin"
            ),
        },
        // streamed: a 10^8-square tour is written without a second copy in memory
        Format::Bin => crate::tour::write_bin(&mut out, board, &rec.squares, rec.closed),
    };
    written
        .and_then(|_| out.flush())
        .with_context(|| format!("writing {name}"))
}

fn summary_line(f: &Finished, start: Square) -> String {
    let rec = &f.record;
    let total = rec.rows as u64 * rec.cols as u64 - rec.holes.len() as u64;
    let what = match f.outcome {
        Outcome::Found if rec.closed => "found a closed tour".to_string(),
        Outcome::Found => "found an open tour".to_string(),
        Outcome::DeadEnd => format!("dead end after {} of {total} squares", rec.squares.len()),
        Outcome::NotClosed if rec.method == Method::Rotate.name() => {
            "visited every square but could not close the path (Pósa rotations gave up)".to_string()
        }
        Outcome::NotClosed => "found an open tour that does not close".to_string(),
        Outcome::BudgetExhausted => format!("node budget of {} exhausted (--budget)", f.budget),
        Outcome::Impossible(_) => format!(
            "no {} tour from {},{} (search exhausted, or proved)",
            if rec.closed { "closed" } else { "open" },
            start.row(),
            start.col()
        ),
    };
    let s = &rec.stats;
    let rotations = match s.rotations {
        0 => String::new(),
        1 => ", 1 Pósa rotation".to_string(),
        n => format!(", {n} Pósa rotations"),
    };
    let attempts = match f.attempts {
        Some((made, limit)) => format!(" at attempt {made} of at most {limit}"),
        None => String::new(),
    };
    format!(
        "{}{what}{attempts} on {}x{} from {},{} ({} / {}): {} nodes, {} backtracks, {} ties{rotations}, {:.3} ms",
        auto_note(f.route),
        rec.rows,
        rec.cols,
        start.row(),
        start.col(),
        rec.method,
        rec.rule,
        s.nodes,
        s.backtracks,
        s.ties,
        s.elapsed_ns as f64 / 1e6
    )
}
