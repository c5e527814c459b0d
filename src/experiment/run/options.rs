//! How to run a sweep: the options the command line gives the runner, the [`StopToken`] that stops
//! it among them. The output folder does not read them: it is given what `meta.json` records
//! ([`SweepOptions::invocation`]).

use super::stop::StopToken;
use crate::experiment::output::Invocation;
use std::path::PathBuf;
use std::time::Duration;

/// How to run a sweep.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// Output folder.
    pub out: PathBuf,
    /// Worker threads.
    pub threads: usize,
    /// Continue a sweep of the same spec in `out`.
    pub resume: bool,
    /// Replace whatever `out` holds.
    pub force: bool,
    /// Run only shard `(index, count)`, 1-based.
    pub shard: Option<(u32, u32)>,
    /// How to show progress on standard error.
    pub progress: SweepProgress,
    /// The command line, for meta.json.
    pub command: String,
    /// Bytes per square a worker's lanes (its interleaved walks) may take on large boards
    /// ([`crate::solve::SolverOptions::lane_memory`]; results do not depend on it).
    pub lane_memory: f64,
    /// Walk one group of each orbit of mirror-image groups and write the others' rows from it
    /// (`plan::Orbits`); the CSV files are the same either way, timing aside.
    pub symmetry: bool,
    /// Set it to stop the sweep: it takes no new block, finishes those in flight, writes what is
    /// done and reports itself interrupted (the command line sets it on Ctrl-C).
    pub stop: StopToken,
}

impl SweepOptions {
    /// What `meta.json` records of these options.
    pub(crate) fn invocation(&self) -> Invocation<'_> {
        Invocation {
            shard: self.shard,
            command: &self.command,
            threads: self.threads,
            lane_memory: self.lane_memory,
        }
    }
}

/// How a sweep shows its progress on standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepProgress {
    /// Not at all.
    Hidden,
    /// A progress bar (for a terminal).
    Bar,
    /// A line at most this often (for a log: a batch job's standard error is a file).
    Lines(Duration),
}
