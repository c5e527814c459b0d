//! `ktour animate`: a self-contained HTML page (no network) replaying one run step by step.

use super::args::parse_start;
use super::{BoardArgs, ExitStatus};
use crate::board::Square;
use crate::render::animate::{trace_run, ReplayMethod};
use crate::render::animation_html;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `ktour animate`.
#[derive(Debug, Args)]
pub struct AnimateArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Tie-break rule.
    #[arg(long, default_value = "first")]
    rule: String,
    /// Solver to replay.
    #[arg(long, value_enum, default_value = "warnsdorff")]
    method: ReplayMethod,
    /// First square, ROW,COL (0-based; default 0,0).
    #[arg(long)]
    start: Option<String>,
    /// Ask for a closed tour (backtracking continues until the ends are a knight move apart).
    #[arg(long)]
    closed: bool,
    /// Output HTML file.
    #[arg(long, short = 'o')]
    output: PathBuf,
}

pub fn run(args: AnimateArgs) -> anyhow::Result<ExitStatus> {
    let board = args.board.board()?;
    let start = match &args.start {
        Some(s) => parse_start(s, board)?,
        None => Square::new(0, 0),
    };
    let replay = trace_run(board, start, &args.rule, args.method, args.closed)?;
    let html = animation_html(&replay)?;
    std::fs::write(&args.output, html)
        .with_context(|| format!("writing {}", args.output.display()))?;
    let outcome = if replay.truncated {
        "cut at the event limit"
    } else if replay.found {
        "tour found"
    } else {
        "no tour"
    };
    println!(
        "wrote {} ({} events, {outcome})",
        args.output.display(),
        replay.events.len()
    );
    Ok(ExitStatus::Success)
}
