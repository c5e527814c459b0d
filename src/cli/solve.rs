//! `ktour solve`: one run of one solver, printed as a grid, JSON or `r,c` lines.

use super::args::parse_start;
use super::{BoardArgs, ExitStatus};
use crate::board::Square;
use crate::solve::{Impossibility, Method, Outcome, Request, Rule, Solution, Solver};
use crate::tour::{format_grid, format_moves};
use anyhow::Context;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Output formats of `solve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Grid of 1-based visit numbers.
    Text,
    /// The JSON record that `verify`, `render` and scripts read.
    Json,
    /// One `r,c` line per square.
    Moves,
}

/// Arguments of `ktour solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// First square as ROW,COL (0-based, row 0 on top).
    #[arg(long, default_value = "0,0")]
    start: String,
    /// Require a closed (re-entrant) tour.
    #[arg(long)]
    closed: bool,
    /// Solver: warnsdorff, backtrack or naive.
    #[arg(long, default_value = "backtrack")]
    method: String,
    /// Tie-break rule (`ktour rules` lists them).
    #[arg(long, default_value = "first")]
    rule: String,
    /// Node budget for the searches (squares entered); 0 = unlimited.
    #[arg(long, default_value_t = 100_000_000)]
    budget: u64,
    /// Seed of the run's PRNG (for `random`); a sweep's CSV records each run's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the output here instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitStatus> {
    let board = args.board.board()?;
    let start = parse_start(&args.start, board)?;
    let method: Method = args.method.parse().map_err(anyhow::Error::msg)?;
    let rule: Rule = args.rule.parse()?;
    let req = Request {
        board,
        start,
        closed: args.closed,
        method,
        rule,
        budget: args.budget,
        seed: args.seed,
    };
    let solution = Solver::new().solve(&req)?;
    if let Outcome::Impossible(Impossibility::Theorem(reason)) = solution.outcome {
        eprintln!("no tour: {reason}");
        return Ok(ExitStatus::NoTour);
    }
    let text = render(&solution, args.format)?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => print!("{text}"),
    }
    eprintln!("{}", summary_line(&solution));
    Ok(match solution.outcome {
        Outcome::Found => ExitStatus::Success,
        Outcome::Impossible(_) => ExitStatus::NoTour,
        Outcome::DeadEnd | Outcome::NotClosed | Outcome::BudgetExhausted => ExitStatus::NotFound,
    })
}

fn render(solution: &Solution, format: Format) -> anyhow::Result<String> {
    Ok(match format {
        Format::Json => serde_json::to_string(&solution.to_record())? + "\n",
        Format::Moves => format_moves(&solution.squares),
        Format::Text => match format_grid(solution.request.board, &solution.squares) {
            Some(grid) => grid,
            None => format!(
                "the {} board is too wide to print as a grid; use --format json or --format moves\n",
                solution.request.board
            ),
        },
    })
}

fn summary_line(s: &Solution) -> String {
    let board = s.request.board;
    let what = match s.outcome {
        Outcome::Found if s.to_record().closed => "found a closed tour".to_string(),
        Outcome::Found => "found an open tour".to_string(),
        Outcome::DeadEnd => format!(
            "dead end after {} of {} squares",
            s.squares.len(),
            board.len()
        ),
        Outcome::NotClosed => {
            "visited every square but the ends are not a knight move apart".to_string()
        }
        Outcome::BudgetExhausted => {
            format!("node budget of {} exhausted (--budget)", s.request.budget)
        }
        Outcome::Impossible(_) => format!(
            "no {} tour from {} (search exhausted)",
            if s.request.closed { "closed" } else { "open" },
            fmt_sq(s.request.start)
        ),
    };
    format!(
        "{what} on {board} from {} ({} / {}): {} nodes, {} backtracks, {} ties, {:.3} ms",
        fmt_sq(s.request.start),
        s.request.method,
        s.request.rule,
        s.stats.nodes,
        s.stats.backtracks,
        s.stats.ties,
        s.stats.elapsed_ns as f64 / 1e6
    )
}

fn fmt_sq(sq: Square) -> String {
    format!("{},{}", sq.row(), sq.col())
}
