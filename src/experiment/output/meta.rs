//! `meta.json`: the provenance written beside a sweep's results (the spec as run, its shard, the
//! machine, the build and the times), read back to tell whether a folder holds this spec's results.

use super::files::{io, require_regular, write_atomic, OutputError, META};
use crate::experiment::spec_file::SpecFile;
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::Path;
use std::time::SystemTime;

/// Provenance written beside the results.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Meta {
    /// The spec as run.
    pub spec: SpecFile,
    /// Shard `[index, count]`, if any.
    pub shard: Option<(u32, u32)>,
    /// `running`, `complete`, `interrupted`, `failed`, or `merged`.
    pub status: String,
    /// ktour version.
    pub ktour_version: String,
    /// Git commit ktour was built from (`-dirty` if the tree had changes).
    pub git_commit: String,
    /// The command line.
    pub command: String,
    /// Worker threads.
    pub threads: usize,
    /// Bytes per square a worker's interleaved runs may take on large boards (`--lane-memory`;
    /// results do not depend on it, speed does). Absent from files written before it was recorded.
    #[serde(default)]
    pub lane_memory: Option<f64>,
    /// CPU model (from /proc/cpuinfo).
    pub cpu_model: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// Host name.
    pub hostname: String,
    /// When the first invocation started (RFC 3339, UTC).
    pub first_started: String,
    /// When this invocation started.
    pub started: String,
    /// When it ended (empty while running).
    pub finished: String,
    /// Seconds this invocation ran.
    pub elapsed_s: f64,
    /// Total runs of the whole sweep, and chunks.
    pub total_runs: u64,
    /// Chunks of the whole sweep.
    pub total_chunks: u64,
    /// For merged results: the folders merged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// For merged results: the run of each folder merged, in the order of `merged_from` (the fields
    /// above, but `merged_from`, are those of the first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<ShardRun>,
}

/// One merged folder's run, as its `meta.json` recorded it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardRun {
    /// The folder merged.
    pub folder: String,
    /// Its shard `[index, count]`, if any.
    pub shard: Option<(u32, u32)>,
    /// Its status when merged.
    pub status: String,
    /// Its command line (of its last invocation, a resume perhaps).
    pub command: String,
    /// Its host name.
    pub hostname: String,
    /// When its first invocation started.
    pub first_started: String,
    /// When its last invocation started.
    pub started: String,
    /// When its last invocation ended.
    pub finished: String,
}

impl ShardRun {
    /// The run recorded in `meta`, the metadata of `folder`.
    pub(super) fn of(folder: &Path, meta: &Meta) -> ShardRun {
        ShardRun {
            folder: folder.display().to_string(),
            shard: meta.shard,
            status: meta.status.clone(),
            command: meta.command.clone(),
            hostname: meta.hostname.clone(),
            first_started: meta.first_started.clone(),
            started: meta.started.clone(),
            finished: meta.finished.clone(),
        }
    }
}

pub(super) fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

pub(super) fn hostname() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// The commit ktour was built from, recorded by `build.rs`.
pub fn git_commit() -> &'static str {
    env!("KTOUR_GIT_COMMIT")
}

pub(super) fn read_meta(dir: &Path) -> Result<Option<Meta>, OutputError> {
    let path = dir.join(META);
    require_regular(&path)?;
    match crate::input::read_text(&path) {
        Ok(text) => serde_json::from_slice(&text)
            .map(Some)
            .map_err(|e| OutputError::Csv {
                path,
                message: format!("unreadable meta.json ({e}); pass --force to replace the folder"),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(&path)(e)),
    }
}

pub(super) fn write_meta(dir: &Path, meta: &Meta) -> Result<(), OutputError> {
    let text = serde_json::to_string_pretty(meta).expect("meta serialises") + "\n";
    write_atomic(&dir.join(META), text.as_bytes())
}
