//! The results folder of a sweep: `runs.csv`, `chunks.csv` (the journal), `summary.csv` and
//! `meta.json`. One file per concept, each using only those listed before it: the files and their
//! safe handling (`files`), provenance (`meta`), formatting summary rows (`lines`), writing rows (`writers`), the journal (`journal`),
//! checking and repairing `runs.csv` (`repair`), the folder's lock (`lock`), opening a folder
//! (`folder`), and merging shards (`merge`).

mod files;
mod folder;
mod journal;
mod lines;
mod lock;
mod merge;
mod meta;
mod repair;
mod writers;

pub use files::{OutputError, CHUNKS, DEADENDS, META, RUNS, SUMMARY};
pub use folder::{Invocation, OutDir};
pub(crate) use journal::{chunks_of, tallies_of};
pub use lock::LOCK;
pub use merge::{merge, merge_folders, MemberMerge, MergeReport, Merged};
pub use meta::{git_commit, Meta, ShardRun};
pub use writers::{ChunkLines, Writers};
