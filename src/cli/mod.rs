//! The `ktour` command line: the clap definitions and one module per subcommand. Each subcommand turns
//! its arguments into validated library values once, then calls the library.

mod args;
mod exists;
mod gen_bases;
mod rules;
mod solve;
mod verify;

pub use args::{BoardArgs, ExitStatus};

use clap::{Parser, Subcommand};

/// ktour: a research harness for the knight's tour problem.
#[derive(Debug, Parser)]
#[command(name = "ktour", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find a knight's tour (or show where a method fails) and print it.
    Solve(solve::SolveArgs),
    /// Check a tour file (JSON, or `r,c` lines with --rows/--cols): prints `valid open tour`,
    /// `valid closed tour`, or the first thing wrong.
    Verify(verify::VerifyArgs),
    /// Say whether a board has an open (or closed) tour, and why, from the theorems.
    Exists(exists::ExistsArgs),
    /// Regenerate the base tours of the divide-and-conquer construction (src/construct/bases.txt).
    GenBases(gen_bases::GenBasesArgs),
    /// List the tie-break rules with their sources.
    Rules(rules::RulesArgs),
}

/// Run a parsed command line. User errors come back as `Err` (exit 2); outcomes as an [`ExitStatus`].
pub fn run(cli: Cli) -> anyhow::Result<ExitStatus> {
    match cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Exists(a) => exists::run(a),
        Command::GenBases(a) => gen_bases::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Rules(a) => rules::run(a),
    }
}
