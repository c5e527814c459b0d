//! Start-square maps from a sweep's `runs.csv`: for each board x rule x method (x closed) in the file,
//! every start square coloured by how its runs ended, so that one sees *where* a rule fails, not
//! only how often. Several maps are drawn as a grid of small titled maps with one legend.
//!
//! A square's [`StartOutcome`] pools its trials: all found (open or closed tours get distinct
//! colours), some found, or none, and then the worst reason: no tour by theorem (or an exhausted
//! search), the node budget, or a dead end shaded by how far the path got (`visited` / squares, in
//! fifths; a closed run that visited every square but could not close is in the last fifth).
//!
//! `runs.csv` is read through the bounded input reader, by header name, as its one row type
//! (`experiment::RunRow`); the columns used are `rows, cols, rule, method, closed, start_row,
//! start_col, outcome, visited`. On a masked sweep (`spec.mask` in the `meta.json` beside the CSV)
//! the holes are drawn as holes, apart from starts not run, and a dead end's share is of the board's
//! own squares. Row 0 is the top row of a map, column 0 its left column, as in the
//! tour pictures. SVG is written by hand, one `<rect>` per start carrying its map, row, column and
//! outcome, so that the file can be checked square by square; PNG draws the same scene with
//! `plotters`.
//!
//! This file holds the limits and the error type; reading `runs.csv` is in `runs`, pooling the runs
//! into maps in `maps`, and the layout with its SVG and PNG output in `draw`.

mod draw;
mod maps;
mod runs;

use super::plot::PlotError;
use super::select::UnknownName;
use std::path::PathBuf;

pub use draw::{start_map_svg, write_start_map, MapOptions};
pub use maps::{start_maps, MapSelection, StartMap, StartOutcome};
pub use runs::{read_map_input, read_runs, MapInput, COLUMNS};

/// Most maps in one picture: past it a map is too small to read; the error asks for a filter.
pub const MAX_MAPS: usize = 24;
/// Largest board side drawn: a cell of a larger board would be under three pixels wide.
pub const MAX_SIDE: u32 = 100;

/// A start-square map could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// Reading the file.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: std::io::Error,
    },
    /// A malformed CSV.
    #[error("{path}: {cause}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: csv::Error,
    },
    /// A CSV without a column every `runs.csv` has (a `summary.csv`, say).
    #[error("{path}: not a runs.csv: no column {column:?} (maps need one row per run: record = \"runs\" in the spec)")]
    NotRuns {
        /// The file.
        path: PathBuf,
        /// The first missing column.
        column: &'static str,
    },
    /// The `meta.json` beside the CSV is not JSON, or its mask is not a mask.
    #[error("{0}")]
    Meta(String),
    /// A header and no runs.
    #[error("{0}: the file has no runs")]
    Empty(PathBuf),
    /// A `--rules` or `--methods` name the file does not hold.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// The filters leave nothing to draw.
    #[error("no runs match the chosen board, rules and methods; boards in the file: {boards}")]
    NothingSelected {
        /// The boards present, `RxC, ...`.
        boards: String,
    },
    /// More maps than fit a picture.
    #[error("{maps} maps (boards x rules x methods) are more than {MAX_MAPS} to draw: choose some with --size, --rows/--cols, --rules or --methods")]
    TooMany {
        /// Maps selected.
        maps: usize,
    },
    /// A board too large to draw square by square.
    #[error("the {rows}x{cols} board is too large for a map (at most {MAX_SIDE} a side): choose another with --size or --rows/--cols")]
    TooLarge {
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
    /// A run whose start is off its board.
    #[error("{path}: a run starts at ({row},{col}), off its {rows}x{cols} board")]
    OffBoard {
        /// The file.
        path: PathBuf,
        /// Start row.
        row: u32,
        /// Start column.
        col: u32,
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
    /// Writing the picture.
    #[error(transparent)]
    Plot(#[from] PlotError),
}
