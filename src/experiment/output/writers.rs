//! Writing a sweep's CSV files: the rows of finished chunks formatted by the workers
//! ([`ChunkLines`]), appended to `runs.csv` and the journal in the order that keeps a crash safe
//! ([`Writers`]), and `summary.csv` written whole at the end.

use super::files::{
    csv_err, io, require_regular, write_atomic, OutputError, CHUNKS, DEADENDS, RUNS, SUMMARY,
};
use crate::experiment::plan::{Chunk, Plan};
use crate::experiment::record::{ChunkRow, DeadEndLengths, DeadEndRow, RunRow, SummaryRow, Tally};
use crate::experiment::spec_file::RecordLevel;
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
/// work; writing them is only appending bytes in chunk order). One pair of CSV writers serves a
/// whole block of chunks: a `csv::Writer` starts with a zeroed 8 KiB buffer, too costly to make
/// once per chunk when chunks are many and small.
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
        chunk: &Chunk,
        tally: &Tally,
        dead_ends: &DeadEndLengths,
    ) -> Result<(), OutputError> {
        let row = ChunkRow::new(chunk.id, chunk.group, tally, dead_ends);
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

pub(super) fn write_summary(path: &Path, rows: &[SummaryRow]) -> Result<(), OutputError> {
    write_atomic(path, &summary_bytes(rows)?)
}

/// The bytes of `summary.csv` holding `rows`.
pub(super) fn summary_bytes(rows: &[SummaryRow]) -> Result<Vec<u8>, OutputError> {
    if rows.is_empty() {
        return Ok(header_of::<SummaryRow>().into_bytes());
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
    Ok(pieces.concat())
}

/// Whether two CSV files hold the same header and rows but for their timing columns (those named
/// `elapsed...`): what the same spec and seed give on any two runs.
pub(super) fn same_but_timing(a: &[u8], b: &[u8]) -> bool {
    let table = |bytes: &[u8]| -> Option<Vec<Vec<String>>> {
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes);
        let mut rows = Vec::new();
        let mut timing: Vec<bool> = Vec::new();
        for (i, record) in r.records().enumerate() {
            let record = record.ok()?;
            if i == 0 {
                timing = record.iter().map(|h| h.starts_with("elapsed")).collect();
            }
            rows.push(
                record
                    .iter()
                    .zip(timing.iter().chain(std::iter::repeat(&false)))
                    .filter(|(_, &t)| !t)
                    .map(|(f, _)| f.to_string())
                    .collect(),
            );
        }
        Some(rows)
    };
    match (table(a), table(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Write `deadends.csv` (atomically): per group, in plan order, a row per dead-end length.
pub(super) fn write_deadends(
    path: &Path,
    plan: &Plan,
    dead_ends: &[DeadEndLengths],
) -> Result<(), OutputError> {
    let closed = plan.chunks.is_empty()
        || plan
            .job(plan.chunks[0].group, 0)
            .request
            .closure
            .is_closed();
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(b"rows,cols,rule,method,closed,length,count\n".to_vec());
    for (g, d) in plan.groups.iter().zip(dead_ends) {
        let b = plan.boards[g.board];
        let (rule, method) = (g.rule.to_string(), g.method.to_string());
        for (length, count) in d.iter() {
            w.serialize(DeadEndRow {
                rows: b.rows(),
                cols: b.cols(),
                rule: rule.clone(),
                method: method.clone(),
                closed,
                length,
                count,
            })
            .map_err(csv_err(Path::new(DEADENDS)))?;
        }
    }
    let bytes = w.into_inner().map_err(|e| OutputError::Csv {
        path: path.into(),
        message: e.to_string(),
    })?;
    write_atomic(path, &bytes)
}

/// Summary rows for the groups that have runs, in plan order.
pub fn summary_rows(plan: &Plan, tallies: &[Tally]) -> Vec<SummaryRow> {
    group_rows(plan, tallies, false)
}

/// A row for every group of the plan, in plan order, those without runs too (not complete): what
/// the printed table needs to mark a size range some of whose boards have not run.
pub fn every_group_row(plan: &Plan, tallies: &[Tally]) -> Vec<SummaryRow> {
    group_rows(plan, tallies, true)
}

fn group_rows(plan: &Plan, tallies: &[Tally], empty_too: bool) -> Vec<SummaryRow> {
    let closed = plan.chunks.is_empty()
        || plan
            .job(plan.chunks[0].group, 0)
            .request
            .closure
            .is_closed();
    // 40,320 groups in an `order:*` sweep: formatting their rows is worth sharing out
    plan.groups
        .par_iter()
        .zip(tallies)
        .filter(|(_, t)| empty_too || t.runs > 0)
        .map(|(g, t)| {
            let b = plan.boards[g.board];
            SummaryRow::new(
                b.rows(),
                b.cols(),
                g.rule.to_string(),
                g.method.to_string(),
                closed,
                t,
                g.runs,
            )
        })
        .collect()
}
