//! The experiment runner: spec -> plan -> runs (in parallel) -> CSV rows. `ktour sweep` and `ktour
//! merge` are thin wrappers around [`run_sweep`] and [`merge`]. By stage: the spec (`spec/`: its
//! keys' table, the file, the flags, validation, families, sizes), the plan (`plan/`), the run
//! (`run/`: pre-flight, blocks, workers, delivery, stop; its module header keeps the glossary of
//! the slices of work), the output folder (`output/`, `disk`) and the records (`record/`, `table`,
//! `failures`).

mod disk;
mod failures;
mod output;
mod plan;
mod record;
mod rule_index;
mod run;
mod seed;
mod spec;
pub(crate) mod table;

pub use disk::{check_disk, free_bytes, DiskError, OutputSize};
pub use failures::{
    board_squares, failures_csv, failures_text, read_failures, sweep_mask, FailedRun,
    FailuresError, GroupFailures, FAILURES_HEADER,
};
pub use family::{family_toml, member_specs, members, Member};
pub use output::{
    git_commit, merge, merge_folders, MemberMerge, MergeReport, Merged, Meta, OutputError,
    ShardRun, CHUNKS, DEADENDS, LOCK, META, RUNS, SUMMARY,
};
pub use plan::{Chunk, Group, Job, Part, Plan, PlanError, Shard};
pub use record::{
    ChunkRow, Counter, CounterKind, DeadEndLengths, DeadEndRow, FailureRow, RunRow, SummaryRow,
    Tallies, Tally, COUNTERS,
};
pub use run::{
    check_worker_memory, memory, run_planned_sweep, run_sweep, sweep_cost, DryRun, StopToken,
    SweepCost, SweepError, SweepOptions, SweepProgress, SweepReport,
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
