//! Reading a sweep's `runs.csv` for the start-square maps: its rows ([`RunRow`], the one row type of
//! the file) by header name through the bounded input reader, refusing first, by name, a file that
//! lacks one of the columns a map needs.

use std::path::Path;

use super::MapError;
use crate::board::Shape;
use crate::experiment::RunRow;
use crate::render::plot::sweep_title;

/// What a start map is drawn from: a sweep's runs, its mask and the picture's title.
#[derive(Clone, Debug, PartialEq)]
pub struct MapInput {
    /// The rows of `runs.csv`.
    pub runs: Vec<RunRow<'static>>,
    /// The sweep's mask, from the `meta.json` beside the CSV ([`crate::experiment::sweep_mask`]).
    pub mask: Option<Shape>,
    /// `title` if given, else "start squares by outcome: " and the sweep's name as the plots take
    /// it ([`sweep_title`]).
    pub title: String,
}

/// Read the runs at `path` ([`read_runs`]) with the mask and title of their sweep.
pub fn read_map_input(path: &Path, title: Option<&str>) -> Result<MapInput, MapError> {
    let runs = read_runs(path)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let mask = crate::experiment::sweep_mask(dir).map_err(MapError::Meta)?;
    let title = match title {
        Some(t) => t.to_string(),
        None => format!("start squares by outcome: {}", sweep_title(path, None)?),
    };
    Ok(MapInput { runs, mask, title })
}

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

/// Read the runs of a `runs.csv`, refusing a file that lacks one of [`COLUMNS`].
pub fn read_runs(path: &Path) -> Result<Vec<RunRow<'static>>, MapError> {
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
        .collect::<Result<Vec<RunRow<'static>>, _>>()
        .map_err(csv_err)?;
    if rows.is_empty() {
        return Err(MapError::Empty(path.into()));
    }
    if let Some(r) = rows
        .iter()
        .find(|r| u32::from(r.start_row) >= r.rows || u32::from(r.start_col) >= r.cols)
    {
        return Err(MapError::OffBoard {
            path: path.into(),
            row: r.start_row.into(),
            col: r.start_col.into(),
            rows: r.rows,
            cols: r.cols,
        });
    }
    Ok(rows)
}
