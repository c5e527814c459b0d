//! What the integration tests share: the `ktour` binary as a command, a CSV file's rows without
//! their timing columns, sweeps into temporary folders and their comparison, and committed results
//! re-run in slices. `damage.rs` and `rows.rs` are also included by fuzz targets, so they use
//! nothing else of this module.

pub mod damage;
mod rows;
mod slice;
mod sweeps;

use assert_cmd::Command;
use std::path::Path;

pub use rows::{rows_without_timing, rows_without_timing_where};
pub use slice::committed_slice;
pub use sweeps::{copy_dir, same_dead_ends, same_results, sweep, write_spec};

/// The `ktour` binary these tests were built with.
pub fn ktour_path() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_ktour"))
}

/// `ktour`, to be given its arguments.
pub fn ktour() -> Command {
    Command::new(ktour_path())
}

/// `ktour` with its address space limited to `kib` KiB (`ulimit -v`): a command that tries to fill
/// memory then fails at once instead of swapping the test machine.
pub fn ktour_within(kib: u64) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(ktour_path());
    c
}
