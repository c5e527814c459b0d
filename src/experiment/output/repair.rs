//! Checking `runs.csv` against the journal, and repairing it: on resume, the rows of the chunks the
//! journal lists must all be there and add up to its counts, or those chunks run again; the file is
//! cut back to exactly the rows of the chunks kept. `merge` reads shards' rows the same way. Files
//! are streamed: `runs.csv` may be far larger than memory.

use super::files::{csv_err, io, require_regular, OutputError};
use super::writers::RUN_HEADER;
use crate::experiment::plan::{Group, Job, Plan};
use crate::experiment::record::{ChunkRow, RunRow, Tally};
use std::fs::{self, File};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The rows `runs.csv` holds of each journaled chunk, counted once per job: a bit per run of those
/// chunks and a counter per journal row (a group's runs in a chunk), so a file far larger than
/// memory can be checked as it streams by. A row counts only if it describes its job
/// ([`describes`]): one whose job number was damaged into another run's is not that run's row.
pub(super) struct RowCount<'p> {
    plan: &'p Plan,
    /// `(first job, end job, group, index of the first job in the group)` of each journal row, in
    /// run order.
    ranges: Vec<(u64, u64, Group, u32)>,
    /// The chunk of each range.
    chunks: Vec<u64>,
    /// The bit of each range's first job in `seen`.
    offsets: Vec<u64>,
    seen: Vec<u64>,
    /// What the counted rows of each range add up to.
    sums: Vec<Tally>,
}

impl<'p> RowCount<'p> {
    /// The count of the runs of `rows`, journal rows in run order.
    pub(super) fn new(plan: &'p Plan, rows: &[ChunkRow]) -> RowCount<'p> {
        let mut ranges = Vec::with_capacity(rows.len());
        let mut offsets = Vec::with_capacity(rows.len());
        let mut bits = 0;
        for r in rows {
            let group = plan.group(r.group);
            let (end, from) = (r.job + r.tally.runs, (r.job - group.first_job) as u32);
            ranges.push((r.job, end, group, from));
            offsets.push(bits);
            bits += end - r.job;
        }
        RowCount {
            plan,
            chunks: rows.iter().map(|r| r.chunk).collect(),
            seen: vec![0; bits.div_ceil(64) as usize],
            sums: vec![Tally::default(); ranges.len()],
            ranges,
            offsets,
        }
    }

    /// Count `row`: false when its job belongs to no journaled chunk, was counted already, or is not
    /// the run the row describes, or when its `success` contradicts its outcome, or its `attempt` is
    /// 0 (attempts count from 1, and the tally's restarts, `attempt - 1`, cannot tell 0 from 1).
    pub(super) fn add(&mut self, row: &RunRow) -> bool {
        let job = row.job;
        let Some(i) = self.range_of(job) else {
            return false;
        };
        let (first, _, ref group, from) = self.ranges[i];
        if !describes(
            row,
            &self.plan.job_in(group, from + (job - first) as u32),
            self.plan.rule_name(group),
        ) || row.success != (row.outcome == "found")
            || row.attempt == 0
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

    /// The index of the range `job` belongs to, if any.
    fn range_of(&self, job: u64) -> Option<usize> {
        let i = self.ranges.partition_point(|&(a, _, _, _)| a <= job);
        (i > 0 && job < self.ranges[i - 1].1).then(|| i - 1)
    }

    /// The chunks of `rows` (the journal rows this count was made of) some of whose rows are not
    /// all counted, or do not add up to the journal's counts (a row damaged in place), in order.
    fn mismatched(&self, rows: &[ChunkRow]) -> Vec<u64> {
        let mut v: Vec<u64> = self
            .ranges
            .iter()
            .zip(&self.sums)
            .zip(rows)
            .zip(&self.chunks)
            .filter(|&(((&(a, b, _, _), sums), row), _)| {
                sums.runs != b - a || !sums.same_counts(&row.tally)
            })
            .map(|(_, &chunk)| chunk)
            .collect();
        v.dedup();
        v
    }
}

/// What a folder's `runs.csv` holds of the chunks its journal lists.
pub(super) struct RunsAudit {
    /// Journaled chunks whose rows are not all there or do not add up to the journal's counts.
    pub(super) bad: Vec<u64>,
    /// Every line was read and counted for a journaled chunk, once: no torn tail, unreadable line,
    /// row of another chunk, duplicate or row that is not its job's.
    pub(super) clean: bool,
    /// The counted rows are in job order (as a sweep writes them; a resume appends the chunks it
    /// runs again at the end).
    pub(super) sorted: bool,
}

/// Read `runs.csv` (streamed: it may be far larger than memory) against `journal`, the rows of
/// finished chunks in run order.
pub(super) fn audit_runs(
    path: &Path,
    plan: &Plan,
    journal: &[ChunkRow],
) -> Result<RunsAudit, OutputError> {
    let mut count = RowCount::new(plan, journal);
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
pub(super) fn each_run(
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
pub(super) struct RunRows {
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
    pub(super) fn open(path: &Path) -> Result<Option<RunRows>, OutputError> {
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
    pub(super) fn next_row(&mut self) -> Result<Option<RunRow<'static>>, OutputError> {
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
pub(super) fn repair_runs(
    path: &Path,
    plan: &Plan,
    done: &mut Vec<ChunkRow>,
) -> Result<Vec<u64>, OutputError> {
    let audit = audit_runs(path, plan, done)?;
    let incomplete = audit.bad;
    done.retain(|r| incomplete.binary_search(&r.chunk).is_err());
    if (audit.clean && incomplete.is_empty()) || !path.exists() {
        return Ok(incomplete);
    }
    let mut keep = RowCount::new(plan, done);
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

/// Whether `row` is the row of `job`: its board, rule (by the name the sweep writes, `rule`),
/// method, closedness, start, trial and seed are the job's. A resume or a merge takes a row for
/// its job only then, so that a row whose job number was damaged into another's (a digit lost, a
/// line split) is not taken for that run.
fn describes(row: &RunRow, job: &Job, rule: &str) -> bool {
    let r = &job.request;
    row.job == job.job
        && (row.rows, row.cols) == (r.board.rows(), r.board.cols())
        && row.method == r.method.name()
        && row.rule == rule
        && row.closed == r.closure.is_closed()
        && (row.start_row, row.start_col) == (r.start.row(), r.start.col())
        && row.trial == job.trial
        && row.seed == r.seed
}
