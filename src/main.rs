//! The `ktour` binary: parse, run, map the outcome to an exit code. Everything else is in the library.

use clap::Parser;
use ktour::cli::{Cli, ExitStatus};
use std::process::ExitCode;

fn main() -> ExitCode {
    ignore_file_size_signal();
    end_quietly_on_closed_pipe();
    let cli = Cli::parse();
    match ktour::cli::run(cli) {
        Ok(status) => status.into(),
        Err(err) => {
            eprintln!("error: {}", ktour::cli::error_line(&err));
            ExitStatus::InvalidInput.into()
        }
    }
}

/// A write past the file-size limit (`ulimit -f`, a batch system's file limit) then fails with
/// `EFBIG` ("File too large"), which ktour reports like any failed write (a sweep exits 2, its
/// `meta.json` says `"failed"`, and what finished is kept for `--resume`), instead of the default
/// SIGXFSZ killing the process without a word.
fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: sets a signal's disposition to "ignore" before any other thread exists; no handler
    // code is installed, and the call has no other effect on the process.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// A reader that stops early (`ktour solve --size 300 2>&1 | head -1`) ends ktour as it ends other
/// Unix tools, by SIGPIPE, quietly, instead of Rust's default (the signal ignored, so that the next
/// `println!` or `eprintln!` panics). Results are never written to a pipe: a sweep's files are
/// unaffected, and an interrupted sweep resumes.
fn end_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restores a signal's default disposition before any other thread exists; no handler
    // code is installed.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
