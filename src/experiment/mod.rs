//! The experiment runner: spec -> plan -> runs (in parallel) -> CSV rows. `ktour sweep` and `ktour
//! merge` are thin wrappers around [`run_sweep`] and [`merge`].

mod cost;
mod delivery;
pub mod memory;
mod options;
mod output;
mod plan;
mod record;
mod runner;
mod size;
mod spec;
mod spec_file;
mod table;

pub use cost::{sweep_cost, SweepCost};
pub use options::{SweepOptions, SweepProgress};
pub use output::{
    git_commit, merge, MergeReport, Meta, OutputError, ShardRun, CHUNKS, LOCK, META, RUNS, SUMMARY,
};
pub use plan::{Chunk, Group, Job, Plan, PlanError};
pub use record::{ChunkRow, Counter, CounterKind, RunRow, SummaryRow, Tally, COUNTERS};
pub use runner::{
    check_worker_memory, request_stop, run_planned_sweep, run_sweep, SweepError, SweepReport,
};
pub use size::{rule_applies, PlanSize, CHUNK_STEPS};
pub use spec::{Budget, Spec, SpecError, StartSet, DEFAULT_SPEC};
pub use spec_file::{BudgetSpec, RecordLevel, Sizes, SpecFile, Starts};
pub use table::success_table;
