//! The journal, `chunks.csv`: a row per group of each finished chunk with its counts and a checksum,
//! appended only once the chunk's rows are in `runs.csv`. It is what `--resume` and `merge` trust,
//! so it is read line by line, a damaged line is dropped alone, and a chunk counts as finished only
//! when the rows of all its groups are there (otherwise it runs again).

use super::files::{csv_err, io, require_regular, write_atomic, OutputError};
use crate::experiment::plan::Plan;
use crate::experiment::record::{ChunkRow, Tallies};
use std::path::Path;

/// How the header of a journal written before chunks were sized by work begins (a chunk then held
/// one group's runs, and its number meant other runs than now): without the `job` column, whatever
/// counters and check followed.
const EARLIER_HEADER: [&str; 3] = ["chunk", "group", "runs"];

/// The rows of the journal's finished chunks ([`read_journal`]), each row once, in run order.
pub(super) fn load_journal(path: &Path, plan: &Plan) -> Result<Vec<ChunkRow>, OutputError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let read = read_journal(path, plan)?;
    // said here: the runner only learns which chunks are done
    if read.damaged > 0 {
        eprintln!(
            "warning: {} has {} damaged line{} (unreadable, or not as written): dropped, and the chunks {} run again",
            path.display(),
            read.damaged,
            if read.damaged == 1 { "" } else { "s" },
            if read.damaged == 1 { "it lists" } else { "they list" },
        );
    }
    if read.earlier > 0 {
        eprintln!(
            "warning: {} was written by an earlier ktour, which numbered its chunks otherwise: its {} line{} cannot be taken, and the runs {} run again (with the same results)",
            path.display(),
            read.earlier,
            if read.earlier == 1 { "" } else { "s" },
            if read.earlier == 1 { "it lists" } else { "they list" },
        );
    }
    Ok(finished_chunks(read.rows))
}

/// `rows` (intact rows, each of a part of a chunk of the plan) in run order, each once (the first
/// in file order), without those of chunks whose rows are not all there.
pub(super) fn finished_chunks(mut rows: Vec<Placed>) -> Vec<ChunkRow> {
    // stable: of rows of the same runs, the first in the file comes first and is kept
    rows.sort_by_key(|r| r.job);
    rows.dedup_by_key(|r| r.job);
    // a chunk's rows tile its runs from its first to its last; the plan checked each row, so a
    // chunk is whole when its rows follow each other from the one that starts it to its end
    let mut kept = Vec::with_capacity(rows.len());
    let mut i = 0;
    while i < rows.len() {
        let chunk = rows[i].chunk;
        let j = i + rows[i..].iter().take_while(|r| r.chunk == chunk).count();
        let whole = rows[i].starts_chunk
            && rows[j - 1].ends_chunk
            && rows[i..j]
                .windows(2)
                .all(|w| w[0].job + w[0].tally.runs == w[1].job);
        if whole {
            kept.extend(rows[i..j].iter().map(|r| r.row.clone()));
        }
        i = j;
    }
    kept
}

/// Fold `rows` (in run order) into tallies by group.
pub(crate) fn tallies_of(rows: &[ChunkRow]) -> Tallies {
    Tallies::of_rows(rows)
}

/// The chunk numbers of `rows` (in run order), each once, in order.
pub(crate) fn chunks_of(rows: &[ChunkRow]) -> Vec<u64> {
    let mut ids: Vec<u64> = rows.iter().map(|r| r.chunk).collect();
    ids.dedup();
    ids
}

/// Rewrite the journal with exactly `rows` (atomically: a torn tail is cut off).
pub(super) fn write_journal(path: &Path, rows: &[ChunkRow]) -> Result<(), OutputError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.serialize(row).map_err(csv_err(path))?;
    }
    let mut bytes = w.into_inner().map_err(|e| OutputError::Csv {
        path: path.into(),
        message: e.to_string(),
    })?;
    if bytes.is_empty() {
        bytes = ChunkRow::header().into_bytes();
    }
    write_atomic(path, &bytes)
}

/// What [`read_journal`] found.
struct Read {
    /// The intact rows, in file order.
    rows: Vec<Placed>,
    /// Complete lines that are damaged.
    damaged: u64,
    /// Lines of a journal written by an earlier ktour.
    earlier: u64,
}

/// An intact row, and whether its runs begin and end its chunk's.
pub(super) struct Placed {
    row: ChunkRow,
    starts_chunk: bool,
    ends_chunk: bool,
}

impl std::ops::Deref for Placed {
    type Target = ChunkRow;
    fn deref(&self) -> &ChunkRow {
        &self.row
    }
}

/// The row placed in `plan`, if it is one of its chunks' rows: its chunk holds its first run, the
/// group of that run is its group, it begins where the group's runs in the chunk begin, and it
/// counts as many runs as they are.
pub(super) fn place(row: ChunkRow, plan: &Plan) -> Option<Placed> {
    if row.job >= plan.total_runs() || row.chunk >= plan.total_chunks() {
        return None;
    }
    let chunk = plan.chunk(row.chunk);
    if !(chunk.first_job..chunk.end_job).contains(&row.job) {
        return None;
    }
    let (group, _) = plan.group_of_job(row.job);
    let from = group.first_job.max(chunk.first_job);
    let to = (group.first_job + group.runs).min(chunk.end_job);
    (group.id == row.group && row.job == from && row.tally.runs == to - from).then_some(Placed {
        starts_chunk: from == chunk.first_job,
        ends_chunk: to == chunk.end_job,
        row,
    })
}

/// Rows placed, for [`finished_chunks`].
#[cfg(test)]
fn placed(rows: Vec<ChunkRow>, plan: &Plan) -> Vec<Placed> {
    rows.into_iter().filter_map(|r| place(r, plan)).collect()
}

/// The journal's intact rows in file order, and how many complete lines were damaged: not a row,
/// failing their checksum ([`ChunkRow::checksum`]), or not a row of the plan ([`place`]). A damaged
/// line is dropped alone (the chunk it lists runs again); every line is checked on its own, so the
/// lines after it are kept. A torn last line (no newline: a crash mid-write) is not a damaged one:
/// that chunk simply had not been recorded. A journal of an earlier ktour, whose chunks meant
/// other runs, is recognised by its header and taken for none.
fn read_journal(path: &Path, plan: &Plan) -> Result<Read, OutputError> {
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
    // under any other header than this version's, a line could be read with its columns swapped
    let known = |header: &str| headers.iter().eq(header.split(',').map(str::as_bytes));
    let current = known(ChunkRow::header().trim_end());
    let earlier = !current
        && headers
            .iter()
            .take(EARLIER_HEADER.len())
            .eq(EARLIER_HEADER.iter().map(|c| c.as_bytes()));
    let mut read = Read {
        rows: Vec::new(),
        damaged: 0,
        earlier: 0,
    };
    let mut record = csv::ByteRecord::new();
    while reader
        .read_byte_record(&mut record)
        .map_err(csv_err(path))?
    {
        if earlier {
            read.earlier += 1;
            continue;
        }
        let row = record
            .deserialize::<ChunkRow>(Some(&headers))
            .ok()
            .filter(|row| current && row.check == Some(row.checksum()))
            .and_then(|row| place(row, plan));
        match row {
            Some(row) => read.rows.push(row),
            None => read.damaged += 1,
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::record::Tally;
    use crate::experiment::spec::Spec;

    /// A chunk is finished when its rows tile its runs; a row twice counts once; a row missing
    /// (damaged, torn) leaves its chunk to run again, and the chunk's other rows with it.
    #[test]
    fn a_chunk_is_finished_when_all_its_groups_rows_are_there() {
        let spec = Spec::from_toml(
            "name = \"t\"\nsizes = [5]\nrules = [\"first\", \"random\", \"roth\"]\ntrials = 3\nstarts = \"sample:3\"",
            "t",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        let rows: Vec<ChunkRow> = (0..plan.total_chunks())
            .flat_map(|id| {
                let c = plan.chunk(id);
                plan.parts(&c)
                    .map(|p| {
                        let t = Tally {
                            runs: p.runs(),
                            ..Tally::default()
                        };
                        ChunkRow::new(id, p.group.id, p.first_job(), &t, &Default::default())
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(rows.len() > plan.total_chunks() as usize);
        let all = finished_chunks(placed(rows.clone(), &plan));
        assert_eq!(all, rows);
        let mut twice = rows.clone();
        twice.extend(rows.iter().rev().cloned());
        assert_eq!(finished_chunks(placed(twice, &plan)), rows);
        for missing in 0..rows.len() {
            let mut some = rows.clone();
            let gone = some.remove(missing);
            let kept = finished_chunks(placed(some, &plan));
            assert!(kept.iter().all(|r| r.chunk != gone.chunk));
            assert_eq!(
                kept.len(),
                rows.iter().filter(|r| r.chunk != gone.chunk).count()
            );
        }
        // a row moved to another chunk's number, or to runs that are not its group's, is no row
        let mut moved = rows[1].clone();
        moved.chunk += 1;
        assert!(place(moved, &plan).is_none());
        let mut shifted = rows[1].clone();
        shifted.job += 1;
        assert!(place(shifted, &plan).is_none());
    }
}
