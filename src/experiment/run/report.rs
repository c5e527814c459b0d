//! What a sweep gives back: its report ([`SweepReport`]), or why it could not run or stopped short
//! ([`SweepError`]).

use crate::experiment::disk::DiskError;
use crate::experiment::output::OutputError;
use crate::experiment::plan::PlanError;
use crate::solve::SolveError;
use std::path::PathBuf;
use std::time::Duration;

/// What a sweep did.
#[derive(Clone, Debug)]
pub struct SweepReport {
    /// Chunks of this shard done, resumed ones included.
    pub chunks_done: u64,
    /// Chunks of this shard.
    pub chunks_total: u64,
    /// Runs done in this invocation.
    pub runs_done_now: u64,
    /// Runs of this shard, done before this invocation (resume).
    pub runs_resumed: u64,
    /// Of the runs done now, those whose rows were written from a mirror-image run's walk
    /// (`plan::Orbits`), not walked themselves.
    pub runs_mirrored: u64,
    /// Whether it stopped before every chunk was done (its [`super::StopToken`] was set).
    pub interrupted: bool,
    /// Wall-clock time of this invocation.
    pub elapsed: Duration,
    /// [`crate::experiment::success_table`] of every group, partial cells marked (the rows written
    /// are in `summary.csv`: a sweep of millions of groups does not hold them).
    pub table: String,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// A sweep could not run.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// Output folder problems (other spec's results, I/O).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The workers would not fit in memory together (checked before any run).
    #[error(transparent)]
    Memory(#[from] super::memory::SweepMemoryError),
    /// The groups' tallies would not fit beside the workers (checked before any run).
    #[error(transparent)]
    Tallies(#[from] super::memory::TallyMemoryError),
    /// The output cannot fit on its disk (checked before any run).
    #[error(transparent)]
    Disk(#[from] DiskError),
    /// The plan would not fit in memory.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {reason}; use fewer --threads")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why.
        reason: rayon::ThreadPoolBuildError,
    },
    /// The spec gives no runs. Validation refuses empty lists, so only a rule with a narrow domain
    /// gets here.
    #[error("the spec gives no runs: `squirrel` runs only on n x n boards with n >= 5, from the corner (0,0)")]
    NoRuns,
    /// A run could not start (memory, rule domain).
    #[error("run {job} ({request}): {source}")]
    Solve {
        /// Global run number.
        job: u64,
        /// The request, described.
        request: String,
        /// Why.
        source: SolveError,
    },
    /// The sweep started and then failed (a write failed, a full disk say, or a run could not
    /// start). The chunks finished before it are in the journal, `meta.json` says `"failed"` where
    /// it could still be written, and `--resume` continues once the cause is fixed.
    #[error("{cause}; the chunks finished before it are saved, and --resume continues once the cause is fixed")]
    Failed {
        /// What went wrong (not a `source`: the message already includes it).
        cause: Box<SweepError>,
    },
}
