//! The experiment runner: spec -> plan -> runs (in parallel) -> CSV rows. `ktour sweep` and `ktour
//! merge` are thin wrappers around [`run_sweep`] and [`merge`]. By stage: the spec (`spec*`,
//! `family`, `size`), the plan (`plan/`), the run (`run/`: pre-flight, blocks, workers, delivery,
//! stop; its module header keeps the glossary of the slices of work), the output folder (`output/`,
//! `disk`), the records (`record`, `table`, `failures`) and their statistics (`wilson`).

mod disk;
mod failures;
mod family;
mod output;
mod plan;
mod record;
mod rule_index;
mod run;
mod seed;
mod size;
mod spec;
mod spec_file;
mod spec_flags;
mod table;

pub use disk::{check_disk, free_bytes, DiskError, OutputSize};
pub use failures::{
    board_squares, failures_csv, failures_text, read_failures, sweep_mask, FailedRun,
    FailuresError, GroupFailures, FAILURES_HEADER,
};
pub use family::{member_specs, members, Member};
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
pub use spec::{Budget, Spec, SpecError, StartSet, DEFAULT_SPEC};
pub use spec_file::{
    spec_keys, spec_keys_markdown, spec_keys_text, BoardEntry, Boards, BudgetSpec, RecordLevel,
    Sizes, SpecFile, SpecKey, Starts, DEFAULT_BUDGET, DEFAULT_METHOD, DEFAULT_RULE, DEFAULT_SEED,
    DEFAULT_STARTS, DEFAULT_TRIALS, SOLVE_BUDGET,
};
pub use spec_flags::{spec_toml, SpecFlags, ADHOC};
pub use table::{restricted_starts_footnote, success_table, SuccessTable};
