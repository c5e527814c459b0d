//! Writing a sweep's CSV files: the rows of finished chunks formatted by the workers
//! ([`ChunkLines`]), appended to `runs.csv` and the journal in the order that keeps a crash safe
//! ([`Writers`]), and `summary.csv` written at the end from the groups' tallies, in pieces.

use super::files::{
    csv_err, io, require_regular, write_atomic_with, OutputError, CHUNKS, RUNS, SUMMARY,
};
use crate::experiment::plan::{Group, Part, Plan};
use crate::experiment::record::{
    ChunkRow, DeadEndLengths, DeadEndRow, GroupDeadEnds, RunRow, SummaryRow, Tallies, Tally,
};
use crate::experiment::spec_file::RecordLevel;
use crate::solve::Method;
use rayon::prelude::*;
use serde::Serialize;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

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

/// The header line of `runs.csv`: the columns rows are appended in.
pub(super) const RUN_HEADER: &str = "job,rows,cols,rule,method,closed,start_row,start_col,trial,seed,outcome,success,visited,nodes,backtracks,ties,elapsed_ns,attempt\n";

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
/// work; writing them is only appending bytes in chunk order). One CSV writer for the runs serves a
/// whole block of chunks: a `csv::Writer` starts with a zeroed 8 KiB buffer, too costly to make
/// once per chunk when chunks are many and small, and it is made only once a run row comes (a
/// sweep that records summaries has none, and made one a block); the journal's lines are
/// formatted directly (`lines::chunk_line`).
#[derive(Debug, Default)]
pub struct ChunkLines {
    /// Lines of `runs.csv` (none unless `record = "runs"`).
    runs: Option<csv::Writer<Vec<u8>>>,
    /// Lines of `chunks.csv`, the journal.
    journal: Vec<u8>,
}

/// A writer of run rows into `bytes`, without headers.
fn run_rows(bytes: Vec<u8>) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(bytes)
}

impl ChunkLines {
    /// Lines whose journal has room for `journal` bytes without growing (a worker's blocks are
    /// alike, so its last block's length is a good guess; grown by doubling, a block's journal was
    /// copied several times over).
    pub fn with_journal_capacity(journal: usize) -> ChunkLines {
        ChunkLines {
            runs: None,
            journal: Vec::with_capacity(journal),
        }
    }

    /// The journal's length so far.
    pub fn journal_len(&self) -> usize {
        self.journal.len()
    }

    /// Append the line of one run of the chunk being added (before its [`ChunkLines::add_part`]s).
    pub fn add_run(&mut self, row: &RunRow) -> Result<(), OutputError> {
        self.runs
            .get_or_insert_with(|| run_rows(Vec::new()))
            .serialize(row)
            .map_err(csv_err(Path::new(RUNS)))
    }

    /// Append the journal row of one group's runs of finished chunk `chunk`, after its runs' lines.
    pub fn add_part(&mut self, chunk: u64, part: &Part, tally: &Tally, dead_ends: &DeadEndLengths) {
        let row = ChunkRow::new(chunk, part.group.id, part.first_job(), tally, dead_ends);
        super::lines::chunk_line(&row, &mut self.journal);
    }

    /// Where the lines end now, to go back to with [`ChunkLines::rollback`] if the chunk being
    /// added does not finish.
    pub fn mark(&mut self) -> Result<(usize, usize), OutputError> {
        let runs = match &mut self.runs {
            Some(w) => {
                w.flush().map_err(io(Path::new(RUNS)))?;
                w.get_ref().len()
            }
            None => 0,
        };
        Ok((runs, self.journal.len()))
    }

    /// Drop the lines added since `mark`: a chunk's lines are written whole or not at all.
    pub fn rollback(&mut self, mark: (usize, usize)) -> Result<(), OutputError> {
        let lines = std::mem::take(self);
        let (mut runs, mut journal) = lines.into_bytes()?;
        runs.truncate(mark.0);
        journal.truncate(mark.1);
        *self = ChunkLines {
            runs: (!runs.is_empty()).then(|| run_rows(runs)),
            journal,
        };
        Ok(())
    }

    /// The bytes of `runs.csv` and of the journal.
    fn into_bytes(self) -> Result<(Vec<u8>, Vec<u8>), OutputError> {
        let runs = match self.runs {
            Some(w) => w.into_inner().map_err(|e| OutputError::Csv {
                path: RUNS.into(),
                message: e.to_string(),
            })?,
            None => Vec::new(),
        };
        Ok((runs, self.journal))
    }
}

/// Journal bytes held before they are flushed whatever the time since the last flush.
const PENDING_BYTES: usize = 1 << 20;

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
    /// Open `runs.csv` (if `record` is `runs`) and the journal in `dir` for appending, writing
    /// their headers if they are new or empty.
    pub(super) fn open(dir: &Path, record: RecordLevel) -> Result<Writers, OutputError> {
        let runs = match record {
            RecordLevel::Runs => Some(append_csv(&dir.join(RUNS), RUN_HEADER)?),
            RecordLevel::Summary => None,
        };
        let journal_path = dir.join(CHUNKS);
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
                .write_all(ChunkRow::header().as_bytes())
                .map_err(io(&journal_path))?;
        }
        Ok(Writers {
            runs,
            runs_path: dir.join(RUNS),
            journal,
            journal_path,
            pending: Vec::new(),
        })
    }

    /// Record finished chunks (their runs now, their journal rows at the next flush).
    pub fn write(&mut self, lines: ChunkLines) -> Result<(), OutputError> {
        let (runs, journal) = lines.into_bytes()?;
        if let Some(w) = &mut self.runs {
            w.write_all(&runs).map_err(io(&self.runs_path))?;
        }
        self.pending.extend_from_slice(&journal);
        // a journal that waits for the next timed flush grew to megabytes, copied as it doubled
        if self.pending.len() >= PENDING_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Flush runs first, then the journal rows of the chunks whose runs are now on disk; refused
    /// with [`OutputError::Replaced`] when a file's name no longer reaches the file this sweep
    /// appends to.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        if let Some(w) = &mut self.runs {
            still_named(w.get_ref(), &self.runs_path)?;
            w.flush().map_err(io(&self.runs_path))?;
        }
        if self.pending.is_empty() {
            return Ok(());
        }
        still_named(&self.journal, &self.journal_path)?;
        // one write per flush: a crash leaves at most one torn line, which --resume drops
        self.journal
            .write_all(&self.pending)
            .map_err(io(&self.journal_path))?;
        self.pending.clear();
        self.journal.flush().map_err(io(&self.journal_path))
    }
}

/// Refuse to go on appending to `file` when `path` no longer names it: a checkout, a copy or a
/// move over `runs.csv` or the journal while a sweep runs would leave every later row in a file
/// no name reaches, lost when the sweep closes it. Stopped here, the sweep is as after a crash:
/// `--resume` cuts the files back to the chunks the journal lists and runs the rest again.
fn still_named(file: &File, path: &Path) -> Result<(), OutputError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let open = file.metadata().map_err(io(path))?;
        let same = match fs::metadata(path) {
            Ok(named) => named.dev() == open.dev() && named.ino() == open.ino(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(io(path)(e)),
        };
        if !same {
            return Err(OutputError::Replaced { path: path.into() });
        }
    }
    #[cfg(not(unix))]
    let _ = (file, path);
    Ok(())
}

/// Write `summary.csv` at `path` (atomically) from `tallies`, in pieces.
pub(super) fn write_summary(
    path: &Path,
    plan: &Plan,
    tallies: &Tallies,
) -> Result<(), OutputError> {
    write_atomic_with(path, |w| {
        summarize(plan, tallies, |_, _| {}, |piece| w.write_all(piece))
    })
}

/// The bytes of `summary.csv` holding the rows of `tallies`, every group also handed to `each`;
/// `expected`, the length they are likely to have, is reserved at once (an 8 MB summary grown by
/// doubling was copied several times over, into fresh pages each time).
pub(super) fn summary_bytes(
    plan: &Plan,
    tallies: &Tallies,
    each: impl FnMut(&Group, Option<&Tally>) + Send,
    expected: usize,
) -> Result<Vec<u8>, OutputError> {
    let mut bytes = Vec::with_capacity(expected);
    summarize(plan, tallies, each, |piece| {
        bytes.extend_from_slice(piece);
        Ok(())
    })
    .map_err(io(Path::new(SUMMARY)))?;
    Ok(bytes)
}

/// Groups a piece of [`Pieces`] formats.
const PIECE_GROUPS: usize = 512;

/// The buffers of the pieces of one batch, formatted side by side.
const ROUND_PIECES: usize = 16;

/// Groups whose rows are formatted at once: a batch is [`ROUND_PIECES`] pieces formatted on the
/// current thread pool (an `order:*` sweep has 40,320 rows, a corner sweep of it on 11 boards
/// 443,520, all written at the sweep's end), and the batches go one after another, so that the rows
/// of millions of groups are never all in memory, and a batch's list is the same memory from one to
/// the next (a list of every group's tally, copied, was 5.6 MB of new pages for the yardstick).
const SUMMARY_BATCH: usize = PIECE_GROUPS * ROUND_PIECES;

/// Rows formatted in parallel into buffers kept from batch to batch and written in order. While a
/// batch is formatted, the batch before it is written and the batch after it gathered: gathering
/// (the plan's groups beside their tallies, the success table) and writing are serial, and one
/// after the other they kept the second thread idle for a third of the summary of a corner sweep.
/// A buffer a piece, made afresh each time, touched more new pages than the file holds bytes
/// (13.6 MB for the yardstick's 7.9 MB summary).
#[derive(Default)]
struct Pieces {
    /// The pieces of the batch formatted last, to be written.
    formatted: Vec<Vec<u8>>,
    /// The pieces the batch being formatted goes into.
    spare: Vec<Vec<u8>>,
}

impl Pieces {
    /// Format the items that `gather` hands over, at most [`SUMMARY_BATCH`] a call (none at the
    /// end), in pieces of [`PIECE_GROUPS`] with `format(piece, lines)` on the current thread pool,
    /// and hand each piece's lines to `write` in order; the first failed write stops there.
    fn format<T: Send + Sync>(
        &mut self,
        mut gather: impl FnMut(&mut Vec<T>) + Send,
        format: impl Fn(&[T], &mut Vec<u8>) + Sync,
        mut write: impl FnMut(&[u8]) -> std::io::Result<()> + Send,
    ) -> std::io::Result<()> {
        self.formatted.resize_with(ROUND_PIECES, Vec::new);
        self.spare.resize_with(ROUND_PIECES, Vec::new);
        let (mut batch, mut next) = (Vec::new(), Vec::new());
        gather(&mut batch);
        // pieces of `formatted` holding rows not yet written
        let mut ready = 0;
        while !batch.is_empty() || ready > 0 {
            assert!(batch.len() <= SUMMARY_BATCH, "a batch fits its pieces");
            let (formatted, spare) = (&self.formatted[..ready], &mut self.spare);
            let (written, ()) = rayon::join(
                || -> std::io::Result<()> {
                    for lines in formatted {
                        write(lines)?;
                    }
                    if !batch.is_empty() {
                        gather(&mut next);
                    }
                    Ok(())
                },
                || {
                    spare
                        .par_iter_mut()
                        .zip(batch.par_chunks(PIECE_GROUPS))
                        .for_each(|(slot, piece)| {
                            // formatted into a list on this thread's stack, then put back: the
                            // lists' lengths side by side in `spare` share cache lines, and
                            // two threads growing them there made every row a third slower
                            let mut lines = std::mem::take(slot);
                            lines.clear();
                            format(piece, &mut lines);
                            *slot = lines;
                        })
                },
            );
            written?;
            ready = batch.len().div_ceil(PIECE_GROUPS);
            std::mem::swap(&mut self.formatted, &mut self.spare);
            std::mem::swap(&mut batch, &mut next);
            next.clear();
        }
        Ok(())
    }
}

/// What a row of `summary.csv` needs of its group: its board's and rule's places in the plan, its
/// method, its runs in the whole sweep, and its tally.
struct RowOf {
    board: u32,
    rule: u32,
    method: Method,
    runs: u64,
    tally: Tally,
}

/// `summary.csv` from `tallies`: a row for each group with runs, in group order, its header first,
/// handed to `write` in pieces; every group of the plan, with its tally if it has one, is handed to
/// `each` as well (the printed table marks the size ranges whose groups have not all run).
pub(super) fn summarize(
    plan: &Plan,
    tallies: &Tallies,
    mut each: impl FnMut(&Group, Option<&Tally>) + Send,
    mut write: impl FnMut(&[u8]) -> std::io::Result<()> + Send,
) -> std::io::Result<()> {
    let closed = plan.closed();
    let row = |r: &RowOf| {
        let b = plan.boards()[r.board as usize];
        SummaryRow::new(
            b.rows(),
            b.cols(),
            plan.rule_name_at(r.rule as usize),
            r.method.name(),
            closed,
            &r.tally,
            r.runs,
        )
    };
    write(header_of::<SummaryRow>().as_bytes())?;
    // what a row needs of its group is taken where the groups are walked through in order (found
    // again from the group's number where the row is formatted, it was 5% of a corner sweep's
    // summary)
    let (mut groups, mut tallied) = (plan.groups(), tallies.tallies().peekable());
    let gather = |batch: &mut Vec<RowOf>| {
        while batch.len() < SUMMARY_BATCH {
            let Some(g) = groups.next() else {
                return;
            };
            // the tallies are in group order too: step through them beside the groups
            let tally = tallied.next_if(|(id, _)| *id == g.id).map(|(_, t)| t);
            each(&g, tally.as_ref());
            if let Some(tally) = tally.filter(|t| t.runs > 0) {
                batch.push(RowOf {
                    board: g.board as u32,
                    rule: g.rule_index as u32,
                    method: g.method,
                    runs: g.runs,
                    tally,
                });
            }
        }
    };
    Pieces::default().format(
        gather,
        |part, lines| {
            for r in part {
                super::lines::summary_line(&row(r), lines);
            }
        },
        write,
    )
}

/// Whether two CSV files hold the same header and rows but for their timing columns (those named
/// `elapsed...`): what the same spec and seed give on any two runs. Compared a record of each at a
/// time, so that two summaries of tens of thousands of rows take no memory (held as strings they
/// took 90 MB).
pub(super) fn same_but_timing(a: &[u8], b: &[u8]) -> bool {
    let plain = |s: &[u8]| !s.iter().any(|&c| c == b'"' || c == b'\r');
    if plain(a) && plain(b) {
        same_but_timing_plain(a, b)
    } else {
        same_but_timing_csv(a, b)
    }
}

/// The timing columns of a header, and a record's other fields.
fn timing_columns<'a>(header: impl Iterator<Item = &'a [u8]>) -> Vec<bool> {
    header.map(|h| h.starts_with(b"elapsed")).collect()
}

fn kept<'a>(
    fields: impl Iterator<Item = &'a [u8]>,
    timing: &'a [bool],
) -> impl Iterator<Item = &'a [u8]> {
    fields
        .zip(timing.iter().chain(std::iter::repeat(&false)))
        .filter(|(_, &t)| !t)
        .map(|(f, _)| f)
}

/// [`same_but_timing`] for files with no quote and no carriage return, as ktour writes them unless a
/// name holds a comma: a record is then a line that is not empty and a field what lies between
/// commas, so one pass over the bytes does (the `csv` reader took 30 ms of a 0.19 s `--force` rerun
/// of 40,320 groups). [`same_but_timing_csv`] is its twin.
fn same_but_timing_plain(a: &[u8], b: &[u8]) -> bool {
    fn lines(s: &[u8]) -> impl Iterator<Item = &[u8]> {
        s.split(|&c| c == b'\n').filter(|l| !l.is_empty())
    }
    let (mut x, mut y) = (lines(a), lines(b));
    let (mut tx, mut ty) = (Vec::new(), Vec::new());
    let mut header = true;
    loop {
        let (rx, ry) = match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(rx), Some(ry)) => (rx, ry),
            _ => return false,
        };
        let (fx, fy) = (rx.split(|&c| c == b','), ry.split(|&c| c == b','));
        if header {
            tx = timing_columns(fx.clone());
            ty = timing_columns(fy.clone());
            header = false;
        }
        if !kept(fx, &tx).eq(kept(fy, &ty)) {
            return false;
        }
    }
}

/// [`same_but_timing`] through the `csv` reader, for files of any form: the twin of
/// [`same_but_timing_plain`].
fn same_but_timing_csv(a: &[u8], b: &[u8]) -> bool {
    let reader = |bytes| {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(bytes)
    };
    let (mut x, mut y) = (reader(a), reader(b));
    let (mut rx, mut ry) = (csv::ByteRecord::new(), csv::ByteRecord::new());
    // the timing columns of each file, from its header
    let (mut tx, mut ty): (Vec<bool>, Vec<bool>) = (Vec::new(), Vec::new());
    let mut header = true;
    loop {
        match (x.read_byte_record(&mut rx), y.read_byte_record(&mut ry)) {
            (Ok(false), Ok(false)) => return true,
            (Ok(true), Ok(true)) => {}
            _ => return false,
        }
        if header {
            tx = timing_columns(rx.iter());
            ty = timing_columns(ry.iter());
            header = false;
        }
        if !kept(rx.iter(), &tx).eq(kept(ry.iter(), &ty)) {
            return false;
        }
    }
}

/// Write `deadends.csv` at `path` (atomically): per group with dead ends, in plan order, a row per
/// dead-end length; formatted in parallel pieces (on the caller's pool) as `summary.csv` is.
pub(super) fn write_deadends(
    path: &Path,
    plan: &Plan,
    tallies: &Tallies,
) -> Result<(), OutputError> {
    let closed = plan.closed();
    let lines = |part: &[GroupDeadEnds<'_>], out: &mut Vec<u8>| {
        for (id, ends) in part {
            let g = plan.group(*id);
            let b = plan.boards()[g.board];
            let (rule, method) = (plan.rule_name(&g), g.method.name());
            for &(length, count) in ends.iter() {
                let row = DeadEndRow {
                    rows: b.rows(),
                    cols: b.cols(),
                    rule,
                    method,
                    closed,
                    length,
                    count,
                };
                super::lines::dead_end_line(&row, out);
            }
        }
    };
    write_atomic_with(path, |w| {
        w.write_all(header_of::<DeadEndRow>().as_bytes())?;
        // the groups come in group order, and only groups that ran: each found by its number
        let mut ends = tallies.dead_ends().filter(|(_, d)| !d.is_empty());
        Pieces::default().format(
            |batch: &mut Vec<GroupDeadEnds<'_>>| batch.extend(ends.by_ref().take(SUMMARY_BATCH)),
            lines,
            |piece| w.write_all(piece),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A journal or `runs.csv` replaced under a running sweep (a file renamed over it, or the name
    /// removed) stops the next flush with [`OutputError::Replaced`], naming the file, before a
    /// row goes to the file no name reaches; untouched files flush as before.
    #[cfg(unix)]
    #[test]
    fn a_file_replaced_under_the_sweep_stops_the_next_flush() {
        for (record, name) in [
            (RecordLevel::Summary, CHUNKS),
            (RecordLevel::Runs, CHUNKS),
            (RecordLevel::Runs, RUNS),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut w = Writers::open(dir.path(), record).unwrap();
            w.pending.extend_from_slice(b"a row\n");
            w.flush().unwrap();
            let path = dir.path().join(name);
            let aside = dir.path().join("aside");
            std::fs::write(&aside, "an older copy\n").unwrap();
            std::fs::rename(&aside, &path).unwrap();
            w.pending.extend_from_slice(b"another row\n");
            match w.flush() {
                Err(OutputError::Replaced { path: p }) => assert_eq!(p, path),
                other => panic!("{name}: {other:?}"),
            }
            // the replacing file is left as it was
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "an older copy\n");
            // a name removed is the same
            let dir = tempfile::tempdir().unwrap();
            let mut w = Writers::open(dir.path(), record).unwrap();
            std::fs::remove_file(dir.path().join(name)).unwrap();
            w.pending.extend_from_slice(b"a row\n");
            assert!(matches!(w.flush(), Err(OutputError::Replaced { .. })));
        }
    }

    /// A chunk's run rows are kept whole or dropped whole: a rollback leaves the rows before the
    /// mark, whether the run rows' writer was made before the mark or only after it (it is made
    /// at the first row), and rows added after a rollback follow those kept.
    #[test]
    fn rollback_keeps_the_run_rows_before_the_mark() {
        let row = RunRow::example;
        let text = |lines: ChunkLines| {
            let (runs, journal) = lines.into_bytes().unwrap();
            assert!(journal.is_empty());
            String::from_utf8(runs).unwrap()
        };
        let jobs = |lines: &str| -> Vec<String> {
            lines
                .lines()
                .map(|l| l.split(',').next().unwrap().to_string())
                .collect()
        };
        // no writer at the mark
        let mut lines = ChunkLines::with_journal_capacity(0);
        let mark = lines.mark().unwrap();
        assert_eq!(mark, (0, 0));
        lines.add_run(&row(1)).unwrap();
        lines.rollback(mark).unwrap();
        assert_eq!(text(lines), "");
        // a writer with rows at the mark
        let mut lines = ChunkLines::default();
        lines.add_run(&row(1)).unwrap();
        lines.add_run(&row(2)).unwrap();
        let mark = lines.mark().unwrap();
        lines.add_run(&row(3)).unwrap();
        lines.rollback(mark).unwrap();
        lines.add_run(&row(4)).unwrap();
        assert_eq!(jobs(&text(lines)), ["1", "2", "4"]);
    }

    /// Pieces formatted in parallel batches come out in the items' order, whole, for counts of
    /// items below, at and past a piece and a batch, gathered in batches of every size up to a
    /// whole one, and the first failed write stops the rows there.
    #[test]
    fn pieces_write_every_item_once_in_order() {
        let lines = |part: &[u64], lines: &mut Vec<u8>| {
            for i in part {
                lines.extend_from_slice(format!("{i}\n").as_bytes());
            }
        };
        for n in [
            0,
            1,
            PIECE_GROUPS - 1,
            PIECE_GROUPS,
            PIECE_GROUPS + 1,
            SUMMARY_BATCH,
            3 * SUMMARY_BATCH + 17,
        ] {
            for most in [1, PIECE_GROUPS + 3, SUMMARY_BATCH] {
                let items: Vec<u64> = (0..n as u64).map(|i| i * 7 + 3).collect();
                let mut left = items.iter().copied();
                let mut got = Vec::new();
                Pieces::default()
                    .format(
                        |batch| batch.extend(left.by_ref().take(most)),
                        lines,
                        |piece| {
                            got.extend_from_slice(piece);
                            Ok(())
                        },
                    )
                    .unwrap();
                let want: String = items.iter().map(|i| format!("{i}\n")).collect();
                assert_eq!(
                    String::from_utf8(got).unwrap(),
                    want,
                    "{n} items, {most} a batch"
                );
            }
        }
        let mut left = 0..SUMMARY_BATCH as u64 * 2;
        let mut writes = 0;
        let failed = Pieces::default().format(
            |batch| batch.extend(left.by_ref().take(SUMMARY_BATCH)),
            |_, lines| lines.push(b'x'),
            |_| {
                writes += 1;
                if writes == 3 {
                    Err(std::io::Error::other("disk full"))
                } else {
                    Ok(())
                }
            },
        );
        assert!(failed.is_err());
        assert_eq!(writes, 3);
    }

    /// Files of random rows and pairs made from them by small changes (a timing field, another
    /// field, a row dropped or added, an empty line, the last newline, a field more, a quoted
    /// field, a carriage return): the one-pass comparison answers as the `csv` reader's on every
    /// pair, and the plain changes answer as they should.
    #[test]
    fn same_but_timing_answers_as_the_csv_reader() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let header = "rows,cols,rule,elapsed_ns_total,runs,elapsed_ns,rate\n";
        let mut answers = [0usize; 2];
        for round in 0..3_000 {
            let rows: Vec<Vec<String>> = (0..rng.gen_range(0..6))
                .map(|_| {
                    (0..7)
                        .map(|_| match rng.gen_range(0..4) {
                            0 => String::new(),
                            1 => "order:12345678".to_string(),
                            _ => rng.gen_range(0..1000).to_string(),
                        })
                        .collect()
                })
                .collect();
            let text = |rows: &[Vec<String>]| {
                header.to_string() + &rows.iter().map(|r| r.join(",") + "\n").collect::<String>()
            };
            let a = text(&rows);
            let mut changed = rows.clone();
            let change = rng.gen_range(0..9);
            let want = match change {
                // a timing column, or nothing
                0 | 1 if !changed.is_empty() => {
                    let i = rng.gen_range(0..changed.len());
                    let col = if change == 0 { 3 } else { 5 };
                    changed[i][col] = "999999".to_string();
                    Some(true)
                }
                2 if !changed.is_empty() => {
                    let i = rng.gen_range(0..changed.len());
                    changed[i][4] += "1";
                    Some(false)
                }
                3 if !changed.is_empty() => {
                    changed.pop();
                    Some(false)
                }
                4 => {
                    changed.push(vec!["1".to_string(); 7]);
                    Some(false)
                }
                _ => None,
            };
            let mut b = text(&changed);
            match change {
                5 => b.insert(header.len(), '\n'),
                6 => {
                    b.pop();
                }
                7 => b.insert_str(b.len() - 1, ",x"),
                8 if round % 2 == 0 => b.insert_str(header.len(), "\"a,b\",1\n"),
                8 => b = b.replace('\n', "\r\n"),
                _ => {}
            }
            let got = same_but_timing(a.as_bytes(), b.as_bytes());
            assert_eq!(
                got,
                same_but_timing_csv(a.as_bytes(), b.as_bytes()),
                "{a:?} against {b:?}"
            );
            if let Some(want) = want {
                assert_eq!(got, want, "{a:?} against {b:?}");
            }
            answers[usize::from(got)] += 1;
        }
        // both answers, many times
        assert!(answers.iter().all(|&n| n > 300), "{answers:?}");
    }
}
