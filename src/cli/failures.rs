//! `ktour failures DIR`: the start squares from which a sweep's runs failed, per board x rule x
//! method, read from the folder's `runs.csv`.

use super::ExitStatus;
use crate::experiment::{failures_csv, failures_text, read_failures};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Output formats of `failures`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Per board x rule x method: its failed starts and how far each got.
    Text,
    /// Tidy CSV, one row per failed run.
    Csv,
}

/// Arguments of `ktour failures`.
#[derive(Debug, Args)]
pub struct FailuresArgs {
    /// A sweep's output folder, run with record = "runs" (or `sweep --record runs`).
    dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(args: FailuresArgs) -> anyhow::Result<ExitStatus> {
    let groups = read_failures(&args.dir)?;
    match args.format {
        Format::Text => print!("{}", failures_text(&groups)),
        Format::Csv => print!("{}", failures_csv(&groups)),
    }
    Ok(ExitStatus::Success)
}
