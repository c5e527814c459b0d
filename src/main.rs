//! The `ktour` binary: parse, run, map the outcome to an exit code. Everything else is in the library.

use clap::Parser;
use ktour::cli::{Cli, ExitStatus};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match ktour::cli::run(cli) {
        Ok(status) => status.into(),
        Err(err) => {
            eprintln!("error: {}", ktour::cli::error_line(&err));
            ExitStatus::InvalidInput.into()
        }
    }
}
