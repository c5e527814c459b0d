//! The experiment runner: spec -> plan -> runs (in parallel) -> CSV rows. `ktour sweep` and `ktour
//! merge` are thin wrappers around [`run_sweep`] and [`merge`].

mod cost;
mod delivery;
mod disk;
mod failures;
pub mod memory;
mod options;
mod orbit_memo;
mod output;
mod plan;
mod record;
mod rule_index;
mod runner;
mod seed;
mod spec;
mod table;
pub mod wilson;

pub use cost::{sweep_cost, SweepCost};
pub use disk::{check_disk, free_bytes, DiskError, OutputSize};
pub use failures::{
    failures_csv, failures_text, read_failures, FailedRun, FailuresError, GroupFailures,
    FAILURES_HEADER,
};
pub use family::{family_toml, member_specs, members, Member};
pub use options::{SweepOptions, SweepProgress};
pub use output::{
    git_commit, merge, MergeReport, Meta, OutputError, ShardRun, CHUNKS, DEADENDS, LOCK, META,
    RUNS, SUMMARY,
};
pub use plan::{Chunk, Group, Job, Part, Plan, PlanError, Shard};
pub use record::{
    ChunkRow, Counter, CounterKind, DeadEndLengths, DeadEndRow, RunRow, SummaryRow, Tallies, Tally,
    COUNTERS,
};
pub use runner::{
    check_worker_memory, request_stop, run_planned_sweep, run_sweep, SweepError, SweepReport,
};
pub use size::{rule_applies, start_restriction, PlanSize, CHUNK_STEPS};
// the spec stage's files by the names the other stages import them by
pub use spec::doc::{
    one_line as doc_line, spec_keys_markdown, spec_keys_text, with_keys_table, DOC_MARKS,
};
pub use spec::file::{BoardEntry, Boards, BudgetSpec, KeyError, RecordLevel, Sizes};
pub use spec::flags::{readable_name, spec_toml, sweep_folder, Flag, SpecFlags, Takes, ADHOC};
pub use spec::keys::{DEFAULT_BUDGET, DEFAULT_SEED, SOLVE_BUDGET};
use spec::{family, file as spec_file, size};
pub use spec::{Budget, Key, Spec, SpecError, SpecFile, StartSet, DEFAULT_SPEC, KEYS};
pub use table::{restricted_starts_footnote, success_table, SuccessTable};
