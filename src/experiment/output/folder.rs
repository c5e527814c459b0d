//! Opening a results folder: it must hold nothing, or this spec's results of this shard (to resume
//! them), so that another experiment's results are never overwritten or mixed in by accident; held
//! locked while open (see `lock`); and, on resume, recovering its files after a crash (see `journal`
//! and `repair`).

use super::files::{
    io, require_regular, write_atomic, OutputError, CHUNKS, DEADENDS, META, RUNS, SUMMARY,
};
use super::journal::{load_journal, write_journal};
use super::lock::FolderLock;
use super::meta::{git_commit, hostname, now, read_meta, write_meta, Meta};
use super::repair::repair_runs;
use super::writers::{same_but_timing, summarize, summary_bytes, write_deadends, Writers};
use crate::experiment::plan::{Group, Plan};
use crate::experiment::record::{ChunkRow, Tallies, Tally};
use crate::experiment::spec::Spec;
use crate::experiment::spec_file::{RecordLevel, SpecFile};
use crate::machine::cpu_model;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The largest earlier `summary.csv` that `--force` keeps to compare ([`Earlier`]): committed
/// results are far smaller, and a sweep of millions of groups writes its summary in pieces.
const EARLIER_LIMIT: u64 = 64 << 20;

/// How a sweep was invoked, as `meta.json` records it (from the sweep's options, which the folder
/// does not read: the runner is above it).
#[derive(Clone, Copy, Debug)]
pub struct Invocation<'a> {
    /// The shard `(index, count)` run, if not the whole sweep.
    pub shard: Option<(u32, u32)>,
    /// The command line.
    pub command: &'a str,
    /// Worker threads.
    pub threads: usize,
    /// Bytes per square a worker's lanes (its interleaved walks) may take.
    pub lane_memory: f64,
}

/// An opened output folder.
pub struct OutDir {
    dir: PathBuf,
    resume: bool,
    first_started: String,
    started: String,
    total_runs: u64,
    total_chunks: u64,
    record: RecordLevel,
    /// What a complete run of this spec left in the folder that `--force` replaces.
    earlier: Option<Earlier>,
    /// Whether this run gave the earlier run's summary again (timing columns aside), which then
    /// stays, with its `meta.json`.
    reproduced: AtomicBool,
    /// Held while the folder is open: no other ktour writes into it meanwhile.
    _lock: FolderLock,
}

/// The `summary.csv` and `meta.json` of a complete run of the same spec and shard, held in memory
/// while `--force` runs it again. If the new run gives the same summary but for its timing columns,
/// both files go back as they were: re-running a committed sweep then leaves its files (and a clone)
/// unchanged, and `meta.json` still describes the run whose timings the summary holds. Only for
/// `record = "summary"` (a rewritten `runs.csv` would hold other timings than the summary kept),
/// and for a summary of at most [`EARLIER_LIMIT`] bytes (the new one is then held too).
struct Earlier {
    summary: Vec<u8>,
    meta: Vec<u8>,
}

impl Earlier {
    /// The earlier run in `dir`, if there is one of `spec` and `shard` that completed.
    fn read(dir: &Path, spec: &Spec, shard: Option<(u32, u32)>) -> Option<Earlier> {
        let meta = read_meta(dir).ok().flatten()?;
        if spec.file.record != RecordLevel::Summary
            || meta.spec != spec.file
            || meta.shard != shard
            || meta.status != "complete"
        {
            return None;
        }
        let read = |name: &str| {
            let path = dir.join(name);
            require_regular(&path).ok()?;
            (fs::metadata(&path).ok()?.len() <= EARLIER_LIMIT).then_some(())?;
            crate::input::read_text(&path).ok()
        };
        Some(Earlier {
            summary: read(SUMMARY)?,
            meta: read(META)?,
        })
    }
}

impl OutDir {
    /// Open `dir` for `spec` (numbered as `plan`): refuses another spec's results unless `force`,
    /// and this spec's results unless `resume` or `force`.
    pub fn open(
        dir: &Path,
        spec: &Spec,
        plan: &Plan,
        shard: Option<(u32, u32)>,
        resume: bool,
        force: bool,
    ) -> Result<OutDir, OutputError> {
        if dir.exists() && !dir.is_dir() {
            return Err(OutputError::NotAFolder { dir: dir.into() });
        }
        if resume && !dir.exists() {
            return Err(OutputError::NothingToResume { dir: dir.into() });
        }
        fs::create_dir_all(dir).map_err(io(dir))?;
        // before anything is read: what another writer is changing is not yet what it will be
        let lock = FolderLock::take(dir)?;
        let meta = if force { None } else { read_meta(dir)? };
        let has_results = [RUNS, CHUNKS, SUMMARY].iter().any(|f| dir.join(f).exists());
        let mut first_started = now();
        match meta {
            Some(m) if m.spec != spec.file => {
                return Err(OutputError::OtherSpec {
                    dir: dir.into(),
                    what: spec_differences(&m.spec, &spec.file),
                })
            }
            Some(m) if m.shard != shard => {
                return Err(OutputError::OtherSpec {
                    dir: dir.into(),
                    what: format!(
                        "it holds {}, this is {}",
                        shard_words(m.shard),
                        shard_words(shard)
                    ),
                })
            }
            Some(m) if !resume => {
                let _ = m;
                return Err(OutputError::AlreadyThere { dir: dir.into() });
            }
            Some(m) => first_started = m.first_started,
            None if has_results && !force => {
                return Err(OutputError::OtherSpec {
                    dir: dir.into(),
                    what: "result files without meta.json".into(),
                })
            }
            None => {}
        }
        let earlier = if force {
            Earlier::read(dir, spec, shard)
        } else {
            None
        };
        if force || !resume {
            for f in [RUNS, CHUNKS, SUMMARY, META] {
                let p = dir.join(f);
                if p.exists() {
                    fs::remove_file(&p).map_err(io(&p))?;
                }
            }
        }
        Ok(OutDir {
            dir: dir.into(),
            resume,
            first_started,
            started: now(),
            total_runs: plan.total_runs(),
            total_chunks: plan.total_chunks(),
            record: spec.file.record,
            earlier,
            reproduced: AtomicBool::new(false),
            _lock: lock,
        })
    }

    /// After a crash or an interrupt: the rows of the finished chunks listed in the journal (a torn
    /// last line is dropped), in run order, and, with `record = "runs"`, of those whose rows
    /// `runs.csv` holds in full; `runs.csv` is cut back to exactly their runs (left untouched when
    /// it holds just that), and the journal to exactly these rows. Empty unless resuming.
    pub fn recover(&mut self, plan: &Plan) -> Result<Vec<ChunkRow>, OutputError> {
        if !self.resume {
            return Ok(Vec::new());
        }
        let journal = self.dir.join(CHUNKS);
        let mut done = load_journal(&journal, plan)?;
        if self.record == RecordLevel::Runs {
            let runs = self.dir.join(RUNS);
            let listed = super::journal::chunks_of(&done).len();
            let incomplete = repair_runs(&runs, plan, &mut done)?;
            if !incomplete.is_empty() {
                // said here: the runner only learns which chunks are done
                eprintln!(
                    "warning: {} lacks rows of {} of the {} chunks {} lists as finished, or holds them altered (deleted, truncated, partly copied or edited?); running them again",
                    runs.display(),
                    incomplete.len(),
                    listed,
                    CHUNKS
                );
            }
        }
        if journal.exists() {
            write_journal(&journal, &done)?;
        }
        Ok(done)
    }

    /// Write `deadends.csv` (atomically) from each group's dead ends.
    pub fn write_deadends(&self, plan: &Plan, tallies: &Tallies) -> Result<(), OutputError> {
        write_deadends(&self.dir.join(DEADENDS), plan, tallies)
    }

    /// Appending writers for the journal and (if recorded) the runs.
    pub fn writers(&self, record: RecordLevel) -> Result<Writers, OutputError> {
        Writers::open(&self.dir, record)
    }

    /// Write `summary.csv` (atomically) from `tallies`, in pieces, handing every group of the
    /// plan to `each` on the way; the earlier run's file, if this one reproduces it.
    pub fn write_summary(
        &self,
        plan: &Plan,
        tallies: &Tallies,
        mut each: impl FnMut(&Group, Option<&Tally>) + Send,
    ) -> Result<(), OutputError> {
        let path = self.dir.join(SUMMARY);
        let Some(earlier) = &self.earlier else {
            return super::files::write_atomic_with(&path, |w| {
                summarize(plan, tallies, &mut each, |piece| w.write_all(piece))
            });
        };
        // the rows are those of the earlier summary but for their timing
        let bytes = summary_bytes(plan, tallies, each, earlier.summary.len() + 4096)?;
        let same = same_but_timing(&bytes, &earlier.summary);
        self.reproduced.store(same, Ordering::Relaxed);
        write_atomic(&path, if same { &earlier.summary } else { &bytes })
    }

    /// Write `meta.json` (atomically).
    pub fn write_meta(
        &self,
        spec: &Spec,
        opts: &Invocation<'_>,
        status: &str,
        elapsed: Option<Duration>,
    ) -> Result<(), OutputError> {
        if let Some(earlier) = &self.earlier {
            if status == "complete" && self.reproduced.load(Ordering::Relaxed) {
                return write_atomic(&self.dir.join(META), &earlier.meta);
            }
        }
        let meta = Meta {
            spec: spec.file.clone(),
            shard: opts.shard,
            status: status.into(),
            ktour_version: env!("CARGO_PKG_VERSION").into(),
            git_commit: git_commit().into(),
            command: opts.command.to_string(),
            threads: opts.threads,
            lane_memory: Some(opts.lane_memory),
            cpu_model: cpu_model(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hostname: hostname(),
            first_started: self.first_started.clone(),
            started: self.started.clone(),
            finished: if elapsed.is_some() {
                now()
            } else {
                String::new()
            },
            elapsed_s: elapsed.map_or(0.0, |d| d.as_secs_f64()),
            total_runs: self.total_runs,
            total_chunks: self.total_chunks,
            merged_from: Vec::new(),
            shards: Vec::new(),
        };
        write_meta(&self.dir, &meta)
    }

    /// The files a sweep leaves.
    pub fn files(&self, record: RecordLevel) -> Vec<PathBuf> {
        let mut v = vec![self.dir.join(SUMMARY), self.dir.join(DEADENDS)];
        if record == RecordLevel::Runs {
            v.push(self.dir.join(RUNS));
        }
        v.push(self.dir.join(META));
        v
    }
}

/// How the spec of results found (`there`) differs from this one, for [`OutputError::OtherSpec`]:
/// the keys whose values differ, or the names if they differ.
fn spec_differences(there: &SpecFile, here: &SpecFile) -> String {
    if there.name != here.name {
        return format!("spec {:?}, not {:?}", there.name, here.name);
    }
    let table = |s: &SpecFile| match serde_json::to_value(s) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (a, b) = (table(there), table(here));
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let differ: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| match (a.get(k), b.get(k)) {
            (Some(x), Some(y)) => format!("`{k}` {x} there, {y} here"),
            _ => format!("`{k}`"),
        })
        .collect();
    format!(
        "spec {:?} with other settings: {}",
        here.name,
        differ.join("; ")
    )
}

/// A shard as the messages name it.
fn shard_words(shard: Option<(u32, u32)>) -> String {
    match shard {
        None => "the whole sweep (no --shard)".into(),
        Some((i, k)) => format!("shard {i}/{k}"),
    }
}

/// Refuse to merge into a folder that already holds results, as `sweep` refuses one without
/// `--resume` or `--force` (merge has no `--resume`: it always writes the whole result anew).
pub(super) fn check_merge_target(out: &Path, spec: &SpecFile) -> Result<(), OutputError> {
    match read_meta(out)? {
        Some(m) if m.spec != *spec => Err(OutputError::OtherSpec {
            dir: out.into(),
            what: spec_differences(&m.spec, spec),
        }),
        Some(_) => Err(OutputError::MergeTarget { dir: out.into() }),
        None if [RUNS, CHUNKS, SUMMARY].iter().any(|f| out.join(f).exists()) => {
            Err(OutputError::OtherSpec {
                dir: out.into(),
                what: "result files without meta.json".into(),
            })
        }
        None => Ok(()),
    }
}
