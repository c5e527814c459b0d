//! `ktour verify`: read a tour file and run the independent verifier on it.

use super::args::read_tour_input;
use super::{BoardArgs, ExitStatus};
use crate::tour::parse_tour;
use crate::verify::{verify_tour, TourKind};
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `ktour verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Tour file (`-` for standard input): the JSON of `solve --format json`, or `r,c` lines.
    file: PathBuf,
    /// Board size, required for `r,c` lines.
    #[command(flatten)]
    board: BoardArgs,
    /// Require a closed tour.
    #[arg(long)]
    closed: bool,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitStatus> {
    let bytes = read_tour_input(&args.file, args.board.board_opt()?)?;
    let tour = parse_tour(&bytes, args.board.board_opt()?)
        .with_context(|| format!("{}", args.file.display()))?;
    let verdict = verify_tour(tour.board, &tour.squares);
    let kind = match verdict {
        Ok(kind) => kind,
        Err(e) => {
            println!("invalid: {e}");
            return Ok(ExitStatus::NotFound);
        }
    };
    let must_close = args.closed || tour.claims_closed == Some(true);
    if must_close && kind != TourKind::Closed {
        let last = tour.squares[tour.squares.len() - 1];
        println!(
            "invalid: claimed closed, but the last square {last} is not a knight move from the first {}",
            tour.squares[0]
        );
        return Ok(ExitStatus::NotFound);
    }
    if tour.claims_found == Some(false) {
        println!("invalid: the file says `found: false` but the squares form a {kind}");
        return Ok(ExitStatus::NotFound);
    }
    println!("valid {kind}");
    Ok(ExitStatus::Success)
}
