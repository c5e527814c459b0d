//! Reading a sweep's `runs.csv` for the start-square maps: by header name through the bounded input
//! reader, refusing a file that lacks one of the columns a map needs.

use serde::{Deserialize, Deserializer};
use std::path::Path;

use super::MapError;

/// The columns of `runs.csv` a map reads.
pub const COLUMNS: [&str; 9] = [
    "rows",
    "cols",
    "rule",
    "method",
    "closed",
    "start_row",
    "start_col",
    "outcome",
    "visited",
];

/// One row of `runs.csv` (the columns a map reads).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RunRow {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: String,
    /// Solver.
    pub method: String,
    /// Closed tours asked for.
    #[serde(deserialize_with = "lenient_bool")]
    pub closed: bool,
    /// Start row.
    pub start_row: u32,
    /// Start column.
    pub start_col: u32,
    /// `found`, `dead-end`, `not-closed`, `budget`, `no-tour-theorem`, `no-tour-exhausted`.
    pub outcome: String,
    /// Squares on the final path.
    pub visited: u32,
}

fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let s = String::deserialize(d)?;
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "1" => Ok(true),
        "false" | "0" | "" => Ok(false),
        other => Err(serde::de::Error::custom(format!(
            "expected true or false, got {other:?}"
        ))),
    }
}

/// Read the runs of a `runs.csv`, refusing a file that lacks one of [`COLUMNS`].
pub fn read_runs(path: &Path) -> Result<Vec<RunRow>, MapError> {
    let text = crate::input::read_text(path).map_err(|cause| MapError::Io {
        path: path.into(),
        cause,
    })?;
    let csv_err = |cause| MapError::Csv {
        path: path.into(),
        cause,
    };
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_slice());
    let header = reader.headers().map_err(csv_err)?;
    if let Some(column) = COLUMNS
        .into_iter()
        .find(|c| !header.iter().any(|h| h == *c))
    {
        return Err(MapError::NotRuns {
            path: path.into(),
            column,
        });
    }
    let rows = reader
        .deserialize()
        .collect::<Result<Vec<RunRow>, _>>()
        .map_err(csv_err)?;
    if rows.is_empty() {
        return Err(MapError::Empty(path.into()));
    }
    if let Some(r) = rows
        .iter()
        .find(|r| r.start_row >= r.rows || r.start_col >= r.cols)
    {
        return Err(MapError::OffBoard {
            path: path.into(),
            row: r.start_row,
            col: r.start_col,
            rows: r.rows,
            cols: r.cols,
        });
    }
    Ok(rows)
}
