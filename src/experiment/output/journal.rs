//! The journal, `chunks.csv`: a row per finished chunk with its counts and a checksum, appended only
//! once the chunk's rows are in `runs.csv`. It is what `--resume` and `merge` trust, so it is read
//! line by line, and a damaged line is dropped alone (its chunk runs again).

use super::files::{csv_err, io, require_regular, write_atomic, OutputError};
use crate::experiment::plan::Plan;
use crate::experiment::record::ChunkRow;
use std::path::Path;

/// The journal's intact rows ([`read_journal`]), each chunk once, in file order.
pub(super) fn load_journal(path: &Path, plan: &Plan) -> Result<Vec<ChunkRow>, OutputError> {
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
    let header = ChunkRow::header();
    let current = header.trim_end();
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
                    && plan.chunks.get(row.chunk as usize).is_some_and(|c| {
                        c.group == row.group && row.tally.runs == (c.to - c.from) as u64
                    })
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
