//! Merging shards: the folders of one spec's shards combined into one, exactly as if the sweep had
//! run at once (timing columns aside). A chunk whose rows a shard does not hold in full counts as
//! missing, so the merged result says it is incomplete instead of losing rows unseen.

use super::files::{csv_err, io, OutputError, CHUNKS, DEADENDS, META, RUNS, SUMMARY};
use super::folder::check_merge_target;
use super::journal::{chunks_of, load_journal, tallies_of, write_journal};
use super::lock::FolderLock;
use super::meta::{now, read_meta, write_meta, Meta, ShardRun};
use super::repair::{audit_runs, RowCount, RunRows, RunsAudit};
use super::writers::{write_deadends, write_summary, RUN_HEADER};
use crate::experiment::plan::Plan;
use crate::experiment::record::{ChunkRow, RunRow};
use crate::experiment::spec::Spec;
use crate::experiment::spec_file::RecordLevel;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The rows of one folder's `runs.csv` that a merge takes: those of `chunks` (the journal rows of
/// the chunks taken from it, complete in it), each
/// job once, in job order. A file in job order (as a sweep writes it) is streamed; one that is not
/// (rows a resume ran again sit at its end) is read into memory and sorted.
enum MergeSource<'p> {
    Streamed(Box<(RunRows, RowCount<'p>)>),
    InMemory(std::vec::IntoIter<RunRow<'static>>),
}

impl<'p> MergeSource<'p> {
    fn open(
        plan: &'p Plan,
        path: &Path,
        chunks: &[ChunkRow],
        sorted: bool,
    ) -> Result<Self, OutputError> {
        let mut keep = RowCount::new(plan, chunks);
        let Some(mut rows) = RunRows::open(path)? else {
            return Ok(MergeSource::InMemory(Vec::new().into_iter()));
        };
        if sorted {
            return Ok(MergeSource::Streamed(Box::new((rows, keep))));
        }
        let mut all = Vec::new();
        while let Some(row) = rows.next_row()? {
            if keep.add(&row) {
                all.push(row);
            }
        }
        all.sort_unstable_by_key(|r| r.job);
        Ok(MergeSource::InMemory(all.into_iter()))
    }

    fn next_row(&mut self) -> Result<Option<RunRow<'static>>, OutputError> {
        match self {
            MergeSource::Streamed(source) => {
                let (rows, keep) = &mut **source;
                while let Some(row) = rows.next_row()? {
                    if keep.add(&row) {
                        return Ok(Some(row));
                    }
                }
                Ok(None)
            }
            MergeSource::InMemory(rows) => Ok(rows.next()),
        }
    }
}

/// Write the merged `runs.csv` at `path` (atomically): the rows of every source in job order, a job
/// given by several folders taken from the first. Streams: memory holds one row per folder (plus
/// the rows of any folder not in job order), not the whole result, which may be far larger.
fn merge_runs(
    plan: &Plan,
    sources: &[(PathBuf, Vec<ChunkRow>, bool)],
    path: &Path,
) -> Result<(), OutputError> {
    use std::cmp::Reverse;
    let mut open = Vec::with_capacity(sources.len());
    for (file, chunks, sorted) in sources {
        open.push(MergeSource::open(plan, file, chunks, *sorted)?);
    }
    // the next row of each source, smallest job first, the first folder first among equal jobs
    let mut heads = std::collections::BinaryHeap::new();
    let mut rows: Vec<Option<RunRow<'static>>> = Vec::with_capacity(open.len());
    for (i, source) in open.iter_mut().enumerate() {
        let row = source.next_row()?;
        if let Some(r) = &row {
            heads.push(Reverse((r.job, i)));
        }
        rows.push(row);
    }
    let tmp = path.with_extension("tmp");
    let file = File::create(&tmp).map_err(io(&tmp))?;
    let mut buffered = BufWriter::with_capacity(1 << 16, file);
    buffered
        .write_all(RUN_HEADER.as_bytes())
        .map_err(io(&tmp))?;
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(buffered);
    let mut last = None;
    while let Some(Reverse((job, i))) = heads.pop() {
        let row = rows[i].take().expect("a source in the heap has a row");
        if last != Some(job) {
            w.serialize(&row).map_err(csv_err(&tmp))?;
            last = Some(job);
        }
        rows[i] = open[i].next_row()?;
        if let Some(r) = &rows[i] {
            heads.push(Reverse((r.job, i)));
        }
    }
    let buffered = w
        .into_inner()
        .map_err(|e| OutputError::Merge(e.to_string()))?;
    buffered
        .into_inner()
        .map_err(|e| io(&tmp)(e.into_error()))?
        .sync_all()
        .map_err(io(&tmp))?;
    fs::rename(&tmp, path).map_err(io(path))
}

/// What `merge` did.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// Chunks present after merging.
    pub chunks: u64,
    /// Chunks the spec has.
    pub total_chunks: u64,
    /// Runs present.
    pub runs: u64,
    /// Folders whose `runs.csv` lacks rows of chunks their journal lists, or holds them altered
    /// (rows that do not add up to the journal's counts), with those chunks (counted as missing).
    pub damaged: Vec<(PathBuf, Vec<u64>)>,
    /// Folders whose `runs.csv` rows are not in job order (a resume ran chunks again, at the end of
    /// the file): their rows were sorted in memory. The others' rows are streamed.
    pub sorted_in_memory: Vec<PathBuf>,
}

/// Each folder's `meta.json`, refused unless there is at least one and all ran the same spec.
fn read_shard_metas(dirs: &[PathBuf]) -> Result<Vec<Meta>, OutputError> {
    let mut metas = Vec::new();
    for d in dirs {
        let m = read_meta(d)?
            .ok_or_else(|| OutputError::Merge(format!("{} has no meta.json", d.display())))?;
        metas.push(m);
    }
    let first = metas
        .first()
        .ok_or_else(|| OutputError::Merge("no folders given".into()))?;
    for (d, m) in dirs.iter().zip(&metas) {
        if m.spec != first.spec {
            return Err(OutputError::Merge(format!(
                "{} ran spec {:?}, {} ran {:?}: only shards of one spec merge",
                dirs[0].display(),
                first.spec.name,
                d.display(),
                m.spec.name
            )));
        }
    }
    Ok(metas)
}

/// The chunks a merge takes from its folders.
struct Taken {
    /// The chunks taken, each from the first folder that has it finished.
    taken: std::collections::BTreeSet<u64>,
    /// Their journal rows, in job order.
    done: Vec<ChunkRow>,
    /// Each folder's `runs.csv`, the rows of the chunks taken from it, and whether its rows are in
    /// job order (only when the spec records runs).
    sources: Vec<(PathBuf, Vec<ChunkRow>, bool)>,
    /// Folders whose `runs.csv` lacks or alters rows of chunks their journal lists, with those chunks.
    damaged: Vec<(PathBuf, Vec<u64>)>,
}

/// Take each chunk from the first folder that has it finished (and, when runs are recorded, all its
/// rows in `runs.csv`).
fn take_chunks(dirs: &[PathBuf], spec: &Spec, plan: &Plan) -> Result<Taken, OutputError> {
    // the chunks taken so far, each from the first folder that has it finished
    let mut taken = std::collections::BTreeSet::new();
    let mut done: Vec<ChunkRow> = Vec::new();
    // each folder's rows of the chunks taken from it, and whether its runs.csv is in job order
    let mut sources: Vec<(PathBuf, Vec<ChunkRow>, bool)> = Vec::new();
    let mut damaged = Vec::new();
    for d in dirs {
        let mut mine = load_journal(&d.join(CHUNKS), plan)?;
        let mut sorted = true;
        if spec.file.record == RecordLevel::Runs {
            // a chunk whose rows are not all in runs.csv (or not as the journal counts them) counts
            // as missing, like a shard not given:
            // the merged result then says it is incomplete instead of losing those rows unseen, and
            // the shard can be resumed (which runs the chunk again) and merged anew
            let audit: RunsAudit = audit_runs(&d.join(RUNS), plan, &mine)?;
            sorted = audit.sorted;
            if !audit.bad.is_empty() {
                mine.retain(|r| audit.bad.binary_search(&r.chunk).is_err());
                damaged.push((d.clone(), audit.bad));
            }
        }
        // a chunk another folder gave already is not taken twice
        mine.retain(|r| !taken.contains(&r.chunk));
        taken.extend(chunks_of(&mine));
        if spec.file.record == RecordLevel::Runs {
            sources.push((d.join(RUNS), mine.clone(), sorted));
        }
        done.extend(mine);
    }
    done.sort_by_key(|r| r.job);
    Ok(Taken {
        taken,
        done,
        sources,
        damaged,
    })
}

/// Combine shard folders into `out`, exactly as if the sweep had run at once (timing columns aside).
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<MergeReport, OutputError> {
    let metas = read_shard_metas(dirs)?;
    let first = &metas[0];
    let spec = Spec::validate(first.spec.clone(), "meta.json")
        .map_err(|e| OutputError::Merge(e.to_string()))?;
    let plan = Plan::new(&spec).map_err(|e| OutputError::Merge(e.to_string()))?;
    let Taken {
        taken,
        done,
        sources,
        damaged,
    } = take_chunks(dirs, &spec, &plan)?;
    fs::create_dir_all(out).map_err(io(out))?;
    // held until the merged result is written, and taken before `out` is checked, so that no sweep
    // or merge writes there meanwhile
    let _lock = FolderLock::take(out)?;
    if !force {
        check_merge_target(out, &first.spec)?;
    }
    if spec.file.record != RecordLevel::Runs && out.join(RUNS).exists() {
        // a forced merge replaces the whole result: rows of another spec must not stay beside it
        fs::remove_file(out.join(RUNS)).map_err(io(&out.join(RUNS)))?;
    }
    write_journal(&out.join(CHUNKS), &done)?;
    if spec.file.record == RecordLevel::Runs {
        merge_runs(&plan, &sources, &out.join(RUNS))?;
    }
    let tallies = tallies_of(&done);
    write_summary(&out.join(SUMMARY), &plan, &tallies)?;
    write_deadends(&out.join(DEADENDS), &plan, &tallies)?;
    let complete = taken.len() as u64 == plan.total_chunks();
    let mut meta = first.clone();
    meta.shard = None;
    meta.status = if complete {
        "complete".into()
    } else {
        "incomplete".into()
    };
    meta.merged_from = dirs.iter().map(|d| d.display().to_string()).collect();
    meta.shards = dirs
        .iter()
        .zip(&metas)
        .map(|(d, m)| ShardRun::of(d, m))
        .collect();
    meta.finished = now();
    write_meta(out, &meta)?;
    Ok(MergeReport {
        chunks: taken.len() as u64,
        total_chunks: plan.total_chunks(),
        runs: tallies.tallies().map(|(_, t)| t.runs).sum(),
        damaged,
        sorted_in_memory: sources
            .iter()
            .filter(|(_, _, sorted)| !sorted)
            .map(|(file, _, _)| file.clone())
            .collect(),
    })
}

/// What [`merge_folders`] merged: the shards of one sweep, or those of a family, member by member.
#[derive(Clone, Debug)]
pub enum Merged {
    /// The folders were one sweep's shards.
    Sweep(MergeReport),
    /// The folders were a family's shards (`leaper = [...]`, `mask = [...]`): one merge a member,
    /// in the order of the members' folder names, each into that folder under `out`.
    Family(Vec<MemberMerge>),
}

/// One member's merge of a family's shards.
#[derive(Clone, Debug)]
pub struct MemberMerge {
    /// The member's folder name (`camel`, `mask1`, ...).
    pub member: String,
    /// The member's folders merged (those of the shards that had begun it).
    pub parts: Vec<PathBuf>,
    /// What the merge did.
    pub report: MergeReport,
}

/// Combine shard folders into `out`: the folders of one sweep's shards as [`merge`] does, or those
/// of a family's shards member by member (a family's shard folder holds one sweep folder a member,
/// `shard-1-of-4/camel/`, and no `meta.json` of its own), into `out/MEMBER/`. A member is every
/// sub-folder that holds a `meta.json` in any of `dirs`; a shard that stopped before a member began
/// lacks its folder, and that member's merge then counts the shard's chunks as missing.
pub fn merge_folders(dirs: &[PathBuf], out: &Path, force: bool) -> Result<Merged, OutputError> {
    if let Some(d) = dirs.iter().find(|d| !d.is_dir()) {
        return Err(OutputError::Merge(format!(
            "{} is not a folder",
            d.display()
        )));
    }
    // a meta.json in any form (a damaged one is merge's to refuse, by name) makes a sweep's folder
    let sweeps: Vec<bool> = dirs.iter().map(|d| holds_meta(d)).collect();
    if sweeps.iter().all(|&s| s) {
        return merge(dirs, out, force).map(Merged::Sweep);
    }
    if let Some(i) = sweeps.iter().position(|&s| s) {
        let j = sweeps.iter().position(|&s| !s).expect("not all are sweeps");
        return Err(OutputError::Merge(format!(
            "{} holds one sweep and {} a family's members (no meta.json of its own): only shards of one spec merge",
            dirs[i].display(),
            dirs[j].display()
        )));
    }
    let members = family_members(dirs)?;
    if members.is_empty() {
        return Err(OutputError::Merge(format!(
            "{} has no meta.json, nor member folders holding one: no shard given has run",
            dirs[0].display()
        )));
    }
    let mut reports = Vec::with_capacity(members.len());
    for member in members {
        let parts: Vec<PathBuf> = dirs
            .iter()
            .map(|d| d.join(&member))
            .filter(|d| holds_meta(d))
            .collect();
        let report = merge(&parts, &out.join(&member), force)?;
        reports.push(MemberMerge {
            member,
            parts,
            report,
        });
    }
    Ok(Merged::Family(reports))
}

/// The member folders of a family's shard folders: the sub-folders holding a `meta.json` in any of
/// `dirs`, each once, in name order.
fn family_members(dirs: &[PathBuf]) -> Result<Vec<String>, OutputError> {
    let mut members = std::collections::BTreeSet::new();
    for d in dirs {
        for entry in fs::read_dir(d).map_err(io(d))? {
            let path = entry.map_err(io(d))?.path();
            if holds_meta(&path) {
                if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
                    members.insert(name.to_string());
                }
            }
        }
    }
    Ok(members.into_iter().collect())
}

/// Whether `dir` holds a `meta.json` in any form: a file, or something else by that name that the
/// merge then refuses by name.
fn holds_meta(dir: &Path) -> bool {
    fs::symlink_metadata(dir.join(META)).is_ok()
}
