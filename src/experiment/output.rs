//! The output folder of a sweep: `runs.csv`, `chunks.csv` (the journal), `summary.csv`, `meta.json`;
//! opening it safely (another spec's results are never overwritten by accident), recovering after a
//! crash, and merging shards.

use super::plan::Plan;
use super::record::{ChunkRow, RunRow, SummaryRow, Tally};
use super::runner::SweepOptions;
use super::spec::{RecordLevel, Spec, SpecFile};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Run rows.
pub const RUNS: &str = "runs.csv";
/// The journal of finished chunks.
pub const CHUNKS: &str = "chunks.csv";
/// One row per board x rule x method.
pub const SUMMARY: &str = "summary.csv";
/// Provenance.
pub const META: &str = "meta.json";

/// Problems with an output folder.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The folder holds results of another spec or shard.
    #[error("{dir} holds results of a different experiment ({what}); choose another --out, or pass --force to replace them")]
    OtherSpec {
        /// The folder.
        dir: PathBuf,
        /// What differs.
        what: String,
    },
    /// The output path exists and is not a folder.
    #[error("{dir} exists and is not a folder: choose another --out")]
    NotAFolder {
        /// The path.
        dir: PathBuf,
    },
    /// The folder holds results of this spec and neither --resume nor --force was given.
    #[error("{dir} already holds results of this spec; pass --resume to continue it, or --force to start over")]
    AlreadyThere {
        /// The folder.
        dir: PathBuf,
    },
    /// `merge --out` names a folder that already holds results of this spec.
    #[error("{dir} already holds results of this spec; choose another --out, or pass --force to replace them")]
    MergeTarget {
        /// The folder.
        dir: PathBuf,
    },
    /// A CSV file could not be written or read.
    #[error("{path}: {message}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// Inputs to `merge` that do not belong together.
    #[error("cannot merge: {0}")]
    Merge(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn csv_err(path: &Path) -> impl FnOnce(csv::Error) -> OutputError + '_ {
    move |e| OutputError::Csv {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

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
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

fn hostname() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// The commit ktour was built from, recorded by `build.rs`.
pub fn git_commit() -> &'static str {
    env!("KTOUR_GIT_COMMIT")
}

/// Refuse a results file that is not a regular file (a device, a pipe, a folder): ktour writes them
/// as regular files, and anything else in their place would be read forever, swallow what is
/// written to it, or (a pipe) hold the sweep at its opening. Asked before every open; `stat` does
/// not block. A link to a regular file is fine; a missing file is for the caller.
fn require_regular(path: &Path) -> Result<(), OutputError> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(io(path)(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not a regular file (a device, a pipe or a folder?); ktour writes its results as \
             regular files: move it away",
        ))),
        _ => Ok(()),
    }
}

fn read_meta(dir: &Path) -> Result<Option<Meta>, OutputError> {
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

/// Write `bytes` to `path` atomically (temp file, then rename).
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let tmp = path.with_extension("tmp");
    if let Err(e) = fs::write(&tmp, bytes) {
        // a full disk leaves no empty or partial `.tmp` behind
        let _ = fs::remove_file(&tmp);
        return Err(io(&tmp)(e));
    }
    fs::rename(&tmp, path).map_err(io(path))
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
        fs::create_dir_all(dir).map_err(io(dir))?;
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
            total_chunks: plan.chunks.len() as u64,
            record: spec.file.record,
        })
    }

    /// After a crash or an interrupt: the finished chunks listed in the journal (a torn last line is
    /// dropped) and, with `record = "runs"`, whose rows `runs.csv` holds in full; `runs.csv` is cut
    /// back to exactly their runs (left untouched when it holds just that). Empty unless resuming.
    pub fn recover(&mut self, plan: &Plan) -> Result<BTreeMap<u64, Tally>, OutputError> {
        if !self.resume {
            return Ok(BTreeMap::new());
        }
        let journal = self.dir.join(CHUNKS);
        let mut rows = load_journal(&journal, plan)?;
        let mut done: BTreeMap<u64, Tally> = rows.iter().map(|r| (r.chunk, r.tally())).collect();
        if self.record == RecordLevel::Runs {
            let runs = self.dir.join(RUNS);
            let incomplete = repair_runs(&runs, plan, &mut done)?;
            if !incomplete.is_empty() {
                // said here: the runner only learns which chunks are done
                eprintln!(
                    "warning: {} lacks rows of {} of the {} chunks {} lists as finished, or holds them altered (deleted, truncated, partly copied or edited?); running them again",
                    runs.display(),
                    incomplete.len(),
                    rows.len(),
                    CHUNKS
                );
                rows.retain(|r| done.contains_key(&r.chunk));
            }
        }
        if journal.exists() {
            write_journal(&journal, &rows)?;
        }
        Ok(done)
    }

    /// Appending writers for the journal and (if recorded) the runs.
    pub fn writers(&self, record: RecordLevel) -> Result<Writers, OutputError> {
        let runs = match record {
            RecordLevel::Runs => Some(append_csv(&self.dir.join(RUNS), RUN_HEADER)?),
            RecordLevel::Summary => None,
        };
        let journal_path = self.dir.join(CHUNKS);
        require_regular(&journal_path)?;
        let new = !journal_path.exists()
            || fs::metadata(&journal_path)
                .map_err(io(&journal_path))?
                .len()
                == 0;
        let mut journal = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&journal_path)
            .map_err(io(&journal_path))?;
        if new {
            journal
                .write_all(CHUNK_HEADER.as_bytes())
                .map_err(io(&journal_path))?;
        }
        Ok(Writers {
            runs,
            runs_path: self.dir.join(RUNS),
            journal,
            journal_path,
            pending: Vec::new(),
        })
    }

    /// Write `summary.csv` (atomically).
    pub fn write_summary(&self, rows: &[SummaryRow]) -> Result<(), OutputError> {
        write_summary(&self.dir.join(SUMMARY), rows)
    }

    /// Write `meta.json` (atomically).
    pub fn write_meta(
        &self,
        spec: &Spec,
        opts: &SweepOptions,
        status: &str,
        elapsed: Option<Duration>,
    ) -> Result<(), OutputError> {
        let meta = Meta {
            spec: spec.file.clone(),
            shard: opts.shard,
            status: status.into(),
            ktour_version: env!("CARGO_PKG_VERSION").into(),
            git_commit: git_commit().into(),
            command: opts.command.clone(),
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
        };
        write_meta(&self.dir, &meta)
    }

    /// The files a sweep leaves.
    pub fn files(&self, record: RecordLevel) -> Vec<PathBuf> {
        let mut v = vec![self.dir.join(SUMMARY)];
        if record == RecordLevel::Runs {
            v.push(self.dir.join(RUNS));
        }
        v.push(self.dir.join(META));
        v
    }
}

fn write_meta(dir: &Path, meta: &Meta) -> Result<(), OutputError> {
    let text = serde_json::to_string_pretty(meta).expect("meta serialises") + "\n";
    write_atomic(&dir.join(META), text.as_bytes())
}

fn header_of<T: Serialize + Default>() -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(T::default()).expect("serialises");
    let bytes = w.into_inner().expect("flush");
    String::from_utf8(bytes)
        .expect("utf8")
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
        + "\n"
}

const RUN_HEADER: &str = "job,rows,cols,rule,method,closed,start_row,start_col,trial,seed,outcome,success,visited,nodes,backtracks,ties,elapsed_ns\n";
const CHUNK_HEADER: &str = "chunk,group,runs,feasible_runs,successes,dead_ends,budget_exhausted,impossible,visited_total,nodes_total,backtracks_total,backtracks_max,ties_total,elapsed_ns_total,check\n";

fn append_csv(path: &Path, header: &str) -> Result<BufWriter<File>, OutputError> {
    require_regular(path)?;
    let new = !path.exists() || fs::metadata(path).map_err(io(path))?.len() == 0;
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io(path))?;
    if new {
        f.write_all(header.as_bytes()).map_err(io(path))?;
    }
    Ok(BufWriter::with_capacity(1 << 16, f))
}

/// The CSV lines of finished chunks, formatted by the worker that ran them (formatting is parallel
/// work; writing them is only appending bytes in chunk order). One pair of CSV writers serves a
/// whole block of chunks: a `csv::Writer` starts with a zeroed 8 KiB buffer, which once per chunk
/// cost 5% of an 8x8 `order:*` sweep.
#[derive(Debug)]
pub struct ChunkLines {
    /// Lines of `runs.csv` (none unless `record = "runs"`).
    runs: csv::Writer<Vec<u8>>,
    /// Lines of `chunks.csv`, the journal.
    journal: csv::Writer<Vec<u8>>,
}

impl Default for ChunkLines {
    fn default() -> Self {
        let lines = || {
            csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new())
        };
        ChunkLines {
            runs: lines(),
            journal: lines(),
        }
    }
}

impl ChunkLines {
    /// Append the line of one run of the chunk being added (before its [`ChunkLines::add_chunk`]).
    pub fn add_run(&mut self, row: &RunRow) -> Result<(), OutputError> {
        self.runs.serialize(row).map_err(csv_err(Path::new(RUNS)))
    }

    /// Append the journal row of a finished chunk, after its runs' lines.
    pub fn add_chunk(
        &mut self,
        chunk: &super::plan::Chunk,
        tally: &Tally,
    ) -> Result<(), OutputError> {
        let row = ChunkRow::new(chunk.id, chunk.group, tally);
        self.journal
            .serialize(row)
            .map_err(csv_err(Path::new(CHUNKS)))
    }

    /// The bytes of `runs.csv` and of the journal.
    fn into_bytes(self) -> Result<(Vec<u8>, Vec<u8>), OutputError> {
        let bytes = |w: csv::Writer<Vec<u8>>, file: &str| {
            w.into_inner().map_err(|e| OutputError::Csv {
                path: file.into(),
                message: e.to_string(),
            })
        };
        Ok((bytes(self.runs, RUNS)?, bytes(self.journal, CHUNKS)?))
    }
}

/// Append `rows` to `into` as CSV lines, as the files of a sweep are written (`header`: the header
/// line first, from the rows' field names).
fn csv_lines<T: Serialize>(
    rows: &[T],
    header: bool,
    into: &mut Vec<u8>,
    file: &str,
) -> Result<(), OutputError> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(header)
        .from_writer(into);
    for r in rows {
        w.serialize(r).map_err(csv_err(Path::new(file)))?;
    }
    w.flush().map_err(io(Path::new(file)))
}

/// The open CSV files of a running sweep.
pub struct Writers {
    runs: Option<BufWriter<File>>,
    runs_path: PathBuf,
    journal: File,
    journal_path: PathBuf,
    /// Journal lines waiting for their runs to be flushed first.
    pending: Vec<u8>,
}

impl Writers {
    /// Record finished chunks (their runs now, their journal rows at the next flush).
    pub fn write(&mut self, lines: ChunkLines) -> Result<(), OutputError> {
        let (runs, journal) = lines.into_bytes()?;
        if let Some(w) = &mut self.runs {
            w.write_all(&runs).map_err(io(&self.runs_path))?;
        }
        self.pending.extend_from_slice(&journal);
        Ok(())
    }

    /// Flush runs first, then the journal rows of the chunks whose runs are now on disk.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        if let Some(w) = &mut self.runs {
            w.flush().map_err(io(&self.runs_path))?;
        }
        if self.pending.is_empty() {
            return Ok(());
        }
        // one write per flush: a crash leaves at most one torn line, which --resume drops
        self.journal
            .write_all(&self.pending)
            .map_err(io(&self.journal_path))?;
        self.pending.clear();
        self.journal.flush().map_err(io(&self.journal_path))
    }
}

/// The journal's intact rows ([`read_journal`]), each chunk once, in file order.
fn load_journal(path: &Path, plan: &Plan) -> Result<Vec<ChunkRow>, OutputError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut seen = std::collections::HashSet::new();
    let (mut rows, damaged) = read_journal(path, plan)?;
    if damaged > 0 {
        // said here: the runner only learns which chunks are done
        eprintln!(
            "warning: {} has {damaged} damaged line{} (unreadable, or not as written): dropped, and the chunks {} run again",
            path.display(),
            if damaged == 1 { "" } else { "s" },
            if damaged == 1 { "it lists" } else { "they list" },
        );
    }
    rows.retain(|r| seen.insert(r.chunk));
    Ok(rows)
}

/// Rewrite the journal with exactly `rows` (atomically: a torn tail is cut off).
fn write_journal(path: &Path, rows: &[ChunkRow]) -> Result<(), OutputError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.serialize(row).map_err(csv_err(path))?;
    }
    let mut bytes = w.into_inner().map_err(|e| OutputError::Csv {
        path: path.into(),
        message: e.to_string(),
    })?;
    if bytes.is_empty() {
        bytes = CHUNK_HEADER.as_bytes().to_vec();
    }
    write_atomic(path, &bytes)
}

/// The journal's intact rows in file order, and how many complete lines were damaged: not a row,
/// failing their checksum ([`ChunkRow::checksum`]), or naming a chunk the plan has in another group
/// or with another number of runs. A damaged line is dropped alone (the chunk it lists runs again);
/// every line is checked on its own, so the lines after it are kept. A torn last line (no newline:
/// a crash mid-write) is not a damaged one: that chunk simply had not been recorded.
fn read_journal(path: &Path, plan: &Plan) -> Result<(Vec<ChunkRow>, u64), OutputError> {
    require_regular(path)?;
    let bytes = crate::input::read_text(path).map_err(io(path))?;
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(i) => &bytes[..=i],
        None => &[][..],
    };
    // a line a record: no quoting (the journal holds numbers only, and a stray quote must not
    // join lines), any number of fields (a damaged line is counted, not an error)
    let mut reader = csv::ReaderBuilder::new()
        .quoting(false)
        .flexible(true)
        .from_reader(complete);
    let headers = reader.byte_headers().map_err(csv_err(path))?.clone();
    // this version's header, or that of journals before the `check` column: under any other, a
    // line could be read unchecked or with its columns swapped, so every line counts as damaged
    let known = |header: &str| headers.iter().eq(header.split(',').map(str::as_bytes));
    let current = CHUNK_HEADER.trim_end();
    let checked = known(current);
    let known_header = checked || known(current.trim_end_matches(",check"));
    let (mut rows, mut damaged) = (Vec::new(), 0);
    let mut record = csv::ByteRecord::new();
    while reader
        .read_byte_record(&mut record)
        .map_err(csv_err(path))?
    {
        if !known_header {
            damaged += 1;
            continue;
        }
        let row = record
            .deserialize::<ChunkRow>(Some(&headers))
            .ok()
            .filter(|row| {
                // under this version's header every line has its check (none is "not written")
                (!checked || row.check == Some(row.checksum()))
                    && plan
                        .chunks
                        .get(row.chunk as usize)
                        .is_some_and(|c| c.group == row.group && row.runs == (c.to - c.from) as u64)
            });
        match row {
            // a line of an older journal gets its check now: the journal is rewritten from these
            Some(row) => rows.push(ChunkRow {
                check: Some(row.checksum()),
                ..row
            }),
            None => damaged += 1,
        }
    }
    Ok((rows, damaged))
}

/// The rows `runs.csv` holds of each journaled chunk, counted once per job: a bit per run of those
/// chunks and a counter per chunk, so a file far larger than memory can be checked as it streams by.
/// A row counts only if it describes its job ([`RunRow::describes`]): one whose job number was
/// damaged into another run's is not that run's row.
struct RowCount<'p> {
    plan: &'p Plan,
    /// `(first job, end job, chunk id)` of each journaled chunk, by first job.
    ranges: Vec<(u64, u64, u64)>,
    /// The bit of each range's first job in `seen`.
    offsets: Vec<u64>,
    seen: Vec<u64>,
    /// What the counted rows of each chunk add up to.
    sums: Vec<Tally>,
}

impl<'p> RowCount<'p> {
    fn new<'a>(plan: &'p Plan, chunks: impl IntoIterator<Item = &'a u64>) -> RowCount<'p> {
        let mut ranges: Vec<(u64, u64, u64)> = chunks
            .into_iter()
            .map(|&id| {
                let c = plan.chunks[id as usize];
                let first = plan.groups[c.group as usize].first_job;
                (first + c.from as u64, first + c.to as u64, id)
            })
            .collect();
        ranges.sort_unstable();
        let mut offsets = Vec::with_capacity(ranges.len());
        let mut bits = 0;
        for &(a, b, _) in &ranges {
            offsets.push(bits);
            bits += b - a;
        }
        RowCount {
            plan,
            seen: vec![0; bits.div_ceil(64) as usize],
            sums: vec![Tally::default(); ranges.len()],
            ranges,
            offsets,
        }
    }

    /// Count `row`: false when its job belongs to no journaled chunk, was counted already, or is not
    /// the run the row describes, or when its `success` contradicts its outcome.
    fn add(&mut self, row: &RunRow) -> bool {
        let job = row.job;
        let Some(i) = self.range_of(job) else {
            return false;
        };
        let (first, _, id) = self.ranges[i];
        let c = self.plan.chunks[id as usize];
        if !row.describes(&self.plan.job(c.group, c.from + (job - first) as u32))
            || row.success != (row.outcome == "found")
        {
            return false;
        }
        let bit = self.offsets[i] + job - first;
        let (word, mask) = ((bit / 64) as usize, 1u64 << (bit % 64));
        if self.seen[word] & mask != 0 {
            return false;
        }
        self.seen[word] |= mask;
        self.sums[i].add_row(row);
        true
    }

    /// The index of the chunk `job` belongs to, if any.
    fn range_of(&self, job: u64) -> Option<usize> {
        let i = self.ranges.partition_point(|&(a, _, _)| a <= job);
        (i > 0 && job < self.ranges[i - 1].1).then(|| i - 1)
    }

    /// The chunks of `journal` whose rows are not all counted, or do not add up to the journal's
    /// counts (a row damaged in place), by chunk id.
    fn mismatched(&self, journal: &BTreeMap<u64, Tally>) -> Vec<u64> {
        let mut v: Vec<u64> = self
            .ranges
            .iter()
            .zip(&self.sums)
            .filter(|&(&(a, b, id), sums)| {
                sums.runs != b - a || !journal.get(&id).is_some_and(|t| sums.same_counts(t))
            })
            .map(|(&(_, _, id), _)| id)
            .collect();
        v.sort_unstable();
        v
    }
}

/// What a folder's `runs.csv` holds of the chunks its journal lists.
struct RunsAudit {
    /// Journaled chunks whose rows are not all there or do not add up to the journal's counts.
    bad: Vec<u64>,
    /// Every line was read and counted for a journaled chunk, once: no torn tail, unreadable line,
    /// row of another chunk, duplicate or row that is not its job's.
    clean: bool,
    /// The counted rows are in job order (as a sweep writes them; a resume appends the chunks it
    /// runs again at the end).
    sorted: bool,
}

/// Read `runs.csv` (streamed: it may be far larger than memory) against `journal`.
fn audit_runs(
    path: &Path,
    plan: &Plan,
    journal: &BTreeMap<u64, Tally>,
) -> Result<RunsAudit, OutputError> {
    let mut count = RowCount::new(plan, journal.keys());
    let (mut every_row_counted, mut sorted, mut last) = (true, true, None);
    let read_all = each_run(path, |row| {
        if count.add(&row) {
            sorted &= last.map_or(true, |last| last < row.job);
            last = Some(row.job);
        } else {
            every_row_counted = false;
        }
        Ok(())
    })?;
    Ok(RunsAudit {
        bad: count.mismatched(journal),
        clean: every_row_counted && read_all,
        sorted,
    })
}

/// Stream the rows of `runs.csv` to `f` in file order: it may be far larger than memory. Stops at a
/// torn last line (a crash mid-write) and at the first row that does not parse (nothing after it is
/// trusted). Returns whether the file is as a sweep writes it: every line read, under this version's
/// header (rows are appended in its column order). A missing file reads as empty.
fn each_run(
    path: &Path,
    mut f: impl FnMut(RunRow<'static>) -> Result<(), OutputError>,
) -> Result<bool, OutputError> {
    let Some(mut rows) = RunRows::open(path)? else {
        return Ok(true);
    };
    while let Some(row) = rows.next_row()? {
        f(row)?;
    }
    Ok(rows.intact())
}

/// The rows of a `runs.csv`, read one at a time, as [`each_run`] reads them.
struct RunRows {
    path: PathBuf,
    reader: csv::Reader<std::io::Take<File>>,
    headers: csv::ByteRecord,
    record: csv::ByteRecord,
    /// Every line up to the end of the file is read (none torn, none unreadable).
    whole: bool,
    same_header: bool,
    done: bool,
}

impl RunRows {
    /// `None` if there is no such file.
    fn open(path: &Path) -> Result<Option<RunRows>, OutputError> {
        require_regular(path)?;
        let mut file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io(path)(e)),
        };
        let len = file.metadata().map_err(io(path))?.len();
        let end = complete_len(&mut file, len, path)?;
        file.seek(SeekFrom::Start(0)).map_err(io(path))?;
        let reader = csv::Reader::from_reader(file.take(end));
        let mut rows = RunRows {
            path: path.to_path_buf(),
            headers: csv::ByteRecord::new(),
            record: csv::ByteRecord::new(),
            whole: end == len,
            same_header: false,
            done: false,
            reader,
        };
        match rows.reader.byte_headers() {
            Ok(h) => {
                rows.same_header = h
                    .iter()
                    .eq(RUN_HEADER.trim_end().split(',').map(str::as_bytes));
                rows.headers = h.clone();
            }
            Err(e) => rows.stop(e)?,
        }
        Ok(Some(rows))
    }

    /// The next row, or `None` at the end: of the file, or at a row that does not parse.
    fn next_row(&mut self) -> Result<Option<RunRow<'static>>, OutputError> {
        if self.done {
            return Ok(None);
        }
        match self.reader.read_byte_record(&mut self.record) {
            Ok(true) => {}
            Ok(false) => {
                self.done = true;
                return Ok(None);
            }
            Err(e) => {
                self.stop(e)?;
                return Ok(None);
            }
        }
        match self
            .record
            .deserialize::<RunRow<'static>>(Some(&self.headers))
        {
            Ok(row) => Ok(Some(row)),
            Err(_) => {
                (self.whole, self.done) = (false, true);
                Ok(None)
            }
        }
    }

    /// End the rows at a read error: an I/O error is passed on, a malformed line ends them.
    fn stop(&mut self, e: csv::Error) -> Result<(), OutputError> {
        (self.whole, self.done) = (false, true);
        if e.is_io_error() {
            return Err(csv_err(&self.path)(e));
        }
        Ok(())
    }

    /// After the last row: whether the file is as a sweep writes it (see [`each_run`]).
    fn intact(&self) -> bool {
        self.whole && self.same_header
    }
}

/// The length of `file` up to its last newline, found from the end (a torn last line is left out).
fn complete_len(file: &mut File, len: u64, path: &Path) -> Result<u64, OutputError> {
    let mut buf = vec![0; 1 << 16];
    let mut end = len;
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let part = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start)).map_err(io(path))?;
        file.read_exact(part).map_err(io(path))?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Check `runs.csv` against the journal before resuming ([`audit_runs`]), and drop from `done` the
/// chunks whose rows are not all there or do not add up to the journal's counts; returns them. The
/// journal is written only after a chunk's rows are flushed, so such rows mean the file was damaged
/// afterwards (disk full, a partial copy, a deleted file, an edit):
/// trusting the journal would call the sweep complete with rows lost for good, while running the
/// chunks again costs only time (runs are deterministic). `runs.csv` is then rewritten to hold
/// exactly the rows of the remaining chunks, once each, so that a chunk run again is not duplicated,
/// and the rows of unjournaled chunks and a torn tail are cut off. An intact file is left as it is.
fn repair_runs(
    path: &Path,
    plan: &Plan,
    done: &mut BTreeMap<u64, Tally>,
) -> Result<Vec<u64>, OutputError> {
    let audit = audit_runs(path, plan, done)?;
    let incomplete = audit.bad;
    for c in &incomplete {
        done.remove(c);
    }
    if (audit.clean && incomplete.is_empty()) || !path.exists() {
        return Ok(incomplete);
    }
    let mut keep = RowCount::new(plan, done.keys());
    let tmp = path.with_extension("tmp");
    let mut file = BufWriter::with_capacity(1 << 16, File::create(&tmp).map_err(io(&tmp))?);
    file.write_all(RUN_HEADER.as_bytes()).map_err(io(&tmp))?;
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(file);
    each_run(path, |row| {
        if keep.add(&row) {
            w.serialize(row).map_err(csv_err(&tmp))?;
        }
        Ok(())
    })?;
    w.flush().map_err(io(&tmp))?;
    drop(w);
    fs::rename(&tmp, path).map_err(io(path))?;
    Ok(incomplete)
}

fn write_summary(path: &Path, rows: &[SummaryRow]) -> Result<(), OutputError> {
    if rows.is_empty() {
        return write_atomic(path, header_of::<SummaryRowHeader>().as_bytes());
    }
    // formatted in pieces on the current thread pool (an `order:*` sweep has 40,320 rows, and this is
    // serial work at the end of a sweep); the first piece carries the header
    let pieces = rows
        .par_chunks(4096)
        .enumerate()
        .map(|(i, part)| {
            let mut lines = Vec::new();
            csv_lines(part, i == 0, &mut lines, SUMMARY).map(|()| lines)
        })
        .collect::<Result<Vec<Vec<u8>>, OutputError>>()?;
    write_atomic(path, &pieces.concat())
}

/// Only for writing the header of an empty summary.
#[derive(Serialize, Default)]
struct SummaryRowHeader {
    rows: u32,
    cols: u32,
    rule: String,
    method: String,
    closed: bool,
    runs: u64,
    feasible_runs: u64,
    successes: u64,
    success_rate: f64,
    success_rate_feasible: Option<f64>,
    dead_ends: u64,
    budget_exhausted: u64,
    impossible: u64,
    visited_mean: f64,
    backtracks_mean: f64,
    backtracks_max: u64,
    nodes_total: u64,
    ties_total: u64,
    elapsed_ns_total: u64,
}

/// Summary rows for the groups that have runs, in plan order.
pub fn summary_rows(plan: &Plan, tallies: &[Tally]) -> Vec<SummaryRow> {
    let closed = plan.chunks.is_empty() || plan.job(plan.chunks[0].group, 0).request.closed;
    // 40,320 groups in an `order:*` sweep: formatting their rows is worth sharing out
    plan.groups
        .par_iter()
        .zip(tallies)
        .filter(|(_, t)| t.runs > 0)
        .map(|(g, t)| {
            let b = plan.boards[g.board];
            SummaryRow::new(
                b.rows(),
                b.cols(),
                g.rule.to_string(),
                g.method.to_string(),
                closed,
                t,
            )
        })
        .collect()
}

/// The rows of one folder's `runs.csv` that a merge takes: those of `chunks` (complete in it), each
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
        chunks: &[u64],
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
    sources: &[(PathBuf, Vec<u64>, bool)],
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
    pub chunks: usize,
    /// Chunks the spec has.
    pub total_chunks: usize,
    /// Runs present.
    pub runs: u64,
    /// Folders whose `runs.csv` lacks rows of chunks their journal lists, or holds them altered
    /// (rows that do not add up to the journal's counts), with those chunks (counted as missing).
    pub damaged: Vec<(PathBuf, Vec<u64>)>,
    /// Folders whose `runs.csv` rows are not in job order (a resume ran chunks again, at the end of
    /// the file): their rows were sorted in memory. The others' rows are streamed.
    pub sorted_in_memory: Vec<PathBuf>,
}

/// Combine shard folders into `out`, exactly as if the sweep had run at once (timing columns aside).
pub fn merge(dirs: &[PathBuf], out: &Path, force: bool) -> Result<MergeReport, OutputError> {
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
    let spec = Spec::validate(first.spec.clone(), "meta.json")
        .map_err(|e| OutputError::Merge(e.to_string()))?;
    let plan = Plan::new(&spec).map_err(|e| OutputError::Merge(e.to_string()))?;
    let mut done: BTreeMap<u64, Tally> = BTreeMap::new();
    // each folder's chunks whose rows are all in its runs.csv, and whether those rows are in job order
    let mut sources: Vec<(PathBuf, Vec<u64>, bool)> = Vec::new();
    let mut damaged = Vec::new();
    for d in dirs {
        let rows = load_journal(&d.join(CHUNKS), &plan)?;
        let mut mine: BTreeMap<u64, Tally> =
            rows.into_iter().map(|r| (r.chunk, r.tally())).collect();
        if spec.file.record == RecordLevel::Runs {
            // a chunk whose rows are not all in runs.csv (or not as the journal counts them) counts
            // as missing, like a shard not given:
            // the merged result then says it is incomplete instead of losing those rows unseen, and
            // the shard can be resumed (which runs the chunk again) and merged anew
            let RunsAudit {
                bad: incomplete,
                sorted,
                ..
            } = audit_runs(&d.join(RUNS), &plan, &mine)?;
            if !incomplete.is_empty() {
                for c in &incomplete {
                    mine.remove(c);
                }
                damaged.push((d.clone(), incomplete));
            }
            sources.push((d.join(RUNS), mine.keys().copied().collect(), sorted));
        }
        for (k, v) in mine {
            done.entry(k).or_insert(v);
        }
    }
    if !force {
        check_merge_target(out, &first.spec)?;
    }
    fs::create_dir_all(out).map_err(io(out))?;
    if spec.file.record != RecordLevel::Runs && out.join(RUNS).exists() {
        // a forced merge replaces the whole result: rows of another spec must not stay beside it
        fs::remove_file(out.join(RUNS)).map_err(io(&out.join(RUNS)))?;
    }
    let mut tallies = vec![Tally::default(); plan.groups.len()];
    let mut journal = csv::Writer::from_writer(Vec::new());
    for (&chunk, t) in &done {
        let group = plan.chunks[chunk as usize].group;
        tallies[group as usize].merge(t);
        journal
            .serialize(ChunkRow::new(chunk, group, t))
            .map_err(csv_err(out))?;
    }
    let bytes = journal
        .into_inner()
        .map_err(|e| OutputError::Merge(e.to_string()))?;
    write_atomic(
        &out.join(CHUNKS),
        if bytes.is_empty() {
            CHUNK_HEADER.as_bytes()
        } else {
            &bytes
        },
    )?;
    if spec.file.record == RecordLevel::Runs {
        merge_runs(&plan, &sources, &out.join(RUNS))?;
    }
    write_summary(&out.join(SUMMARY), &summary_rows(&plan, &tallies))?;
    let complete = done.len() == plan.chunks.len();
    let mut meta = first.clone();
    meta.shard = None;
    meta.status = if complete {
        "complete".into()
    } else {
        "incomplete".into()
    };
    meta.merged_from = dirs.iter().map(|d| d.display().to_string()).collect();
    meta.finished = now();
    write_meta(out, &meta)?;
    Ok(MergeReport {
        chunks: done.len(),
        total_chunks: plan.chunks.len(),
        runs: tallies.iter().map(|t| t.runs).sum(),
        damaged,
        sorted_in_memory: sources
            .iter()
            .filter(|(_, _, sorted)| !sorted)
            .map(|(file, _, _)| file.clone())
            .collect(),
    })
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
fn check_merge_target(out: &Path, spec: &SpecFile) -> Result<(), OutputError> {
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
