//! `ktour animate`: a self-contained HTML page (no network) replaying one traced run step by step.

use super::args::parse_start;
use super::{BoardArgs, ExitStatus, ShapeArgs};
use crate::board::Closure;
use crate::render::animate::{trace_run_on, AnimationError, MAX_BUDGET};
use crate::render::animation_html;
use crate::solve::{Method, Request, Rule};
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `ktour animate`.
#[derive(Debug, Args)]
pub struct AnimateArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Any board: the run is traced by the search on any board and the page draws the holes.
    #[command(flatten)]
    shape: ShapeArgs,
    /// Tie-break rule (`ktour rules` lists them).
    #[arg(long, default_value = "first")]
    rule: String,
    /// Solver: warnsdorff, backtrack or naive.
    #[arg(long, default_value = "warnsdorff")]
    method: String,
    /// First square as ROW,COL (0-based, row 0 on top).
    #[arg(long, default_value = "0,0", allow_hyphen_values = true)]
    start: String,
    /// Require a closed (re-entrant) tour.
    #[arg(long)]
    closed: bool,
    /// Node budget of the searches (at most 125,000, so the page stays small).
    #[arg(long, default_value_t = MAX_BUDGET, value_parser = clap::value_parser!(u64).range(1..=MAX_BUDGET))]
    budget: u64,
    /// Seed of the run's PRNG (for `random`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output HTML file.
    #[arg(long, short = 'o')]
    output: PathBuf,
}

pub fn run(args: AnimateArgs) -> anyhow::Result<ExitStatus> {
    let shape = match args.shape.given() {
        true => Some(args.shape.shape(args.board.board_opt()?)?),
        false => None,
    };
    let board = match &shape {
        Some(s) => s.board(),
        None => args.board.board()?,
    };
    // a whole board walked by the knight keeps the fast engine's trace
    let shape = shape.filter(|s| !s.is_full_knight());
    let start = parse_start(&args.start, board)?;
    let method: Method = args.method.parse().map_err(anyhow::Error::msg)?;
    let rule: Rule = args.rule.parse()?;
    let req = Request {
        board,
        start,
        closure: Closure::of(args.closed),
        method,
        rule,
        budget: args.budget,
        seed: args.seed,
        closing: Default::default(),
        prune: true,
    };
    let replay = match trace_run_on(&req, shape.as_ref()) {
        Ok(r) => r,
        Err(AnimationError::NoTour(reason)) => {
            eprintln!("no tour: {reason}");
            return Ok(ExitStatus::NoTour);
        }
        Err(e) => return Err(e.into()),
    };
    let html = animation_html(&replay)?;
    std::fs::write(&args.output, html)
        .with_context(|| format!("writing {}", args.output.display()))?;
    println!(
        "wrote {} ({} events, {})",
        args.output.display(),
        replay.events.len(),
        replay.outcome
    );
    // the page shows a failed run as well, but the exit status says what `solve` says of it
    Ok(if replay.found {
        ExitStatus::Success
    } else {
        ExitStatus::NotFound
    })
}
