//! `ktour exists`: the existence theorems, instantly, for any size.

use super::{BoardArgs, ExitStatus};
use clap::Args;

/// Arguments of `ktour exists`.
#[derive(Debug, Args)]
pub struct ExistsArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Ask about closed (re-entrant) tours.
    #[arg(long)]
    closed: bool,
}

pub fn run(args: ExistsArgs) -> anyhow::Result<ExitStatus> {
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
