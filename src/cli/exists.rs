//! `ktour exists`: the existence theorems, instantly, for any size.

use super::{BoardArgs, ExitStatus, ShapeArgs};
use crate::exists::ShapeAnswer;
use clap::Args;

/// Arguments of `ktour exists`.
#[derive(Debug, Args)]
pub struct ExistsArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Any board: the necessary conditions decide "no", else the answer is "unknown" (exit 4).
    #[command(flatten)]
    shape: ShapeArgs,
    /// Ask about closed (re-entrant) tours.
    #[arg(long)]
    closed: bool,
}

pub fn run(args: ExistsArgs) -> anyhow::Result<ExitStatus> {
    if args.shape.given() {
        let shape = args.shape.shape(args.board.board_opt()?)?;
        if !shape.is_full_knight() {
            let closure = crate::board::Closure::of(args.closed);
            return Ok(
                match crate::exists::shape_tour_from(&shape, None, closure) {
                    Ok(ShapeAnswer::Yes) => {
                        println!("yes: {shape} has the one-square open tour");
                        ExitStatus::Success
                    }
                    Ok(ShapeAnswer::Unknown) => {
                        println!("unknown: {shape} passes the necessary conditions for {} {closure} tour (connected; one-move squares; colours), and no theorem decides; a search can: ktour solve --method backtrack", if args.closed { "a" } else { "an" });
                        ExitStatus::Unknown
                    }
                    Err(reason) => {
                        println!("no: {reason}");
                        ExitStatus::NoTour
                    }
                },
            );
        }
    }
    let board = args.board.board()?;
    match crate::exists::tour(board, crate::board::Closure::of(args.closed)) {
        Ok(()) => {
            let (kind, why) = if args.closed {
                ("a closed", "Schwenk 1991")
            } else {
                ("an open", "Conrad et al. 1994")
            };
            println!("yes: {board} has {kind} tour ({why})");
            Ok(ExitStatus::Success)
        }
        Err(reason) => {
            println!("no: {reason}");
            Ok(ExitStatus::NoTour)
        }
    }
}
