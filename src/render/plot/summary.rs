//! Reading a sweep's summary CSV for the plots: the rows by header name and the title the plots get
//! (given, else the sweep's spec name from `meta.json`, else the folder's name).

use serde::{Deserialize, Deserializer};
use std::path::Path;

use super::PlotError;

/// One row of the summary CSV (the columns this module reads).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SummaryRow {
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
    /// Runs.
    pub runs: u64,
    /// Runs whose board and start admit a tour.
    pub feasible_runs: u64,
    /// Runs that found a tour.
    pub successes: u64,
    /// successes / feasible_runs as the sweep wrote it (may be empty).
    pub success_rate: Option<f64>,
    /// Mean backtracks per run (may be empty).
    pub backtracks_mean: Option<f64>,
    /// Squares entered, all runs.
    pub nodes_total: u64,
    /// Wall-clock nanoseconds, all runs.
    pub elapsed_ns_total: u64,
}

fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let s = String::deserialize(d)?;
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "closed" => Ok(true),
        "false" | "0" | "no" | "open" | "" => Ok(false),
        other => Err(serde::de::Error::custom(format!(
            "expected true or false, got {other:?}"
        ))),
    }
}

/// A summary CSV and the title its plots get.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The title (the spec name).
    pub title: String,
    /// The rows, in file order.
    pub rows: Vec<SummaryRow>,
}

/// Read a summary CSV. The title is `title` if given, else `spec.name` from a `meta.json` beside the
/// CSV, else the name of the CSV's folder (else its file stem).
pub fn read_summary(path: &Path, title: Option<&str>) -> Result<Summary, PlotError> {
    let text = crate::input::read_text(path).map_err(|cause| PlotError::Io {
        path: path.into(),
        cause,
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_slice());
    let rows = reader
        .deserialize()
        .collect::<Result<Vec<SummaryRow>, _>>()
        .map_err(|cause| PlotError::Csv {
            path: path.into(),
            cause,
        })?;
    if rows.is_empty() {
        return Err(PlotError::Empty(path.into()));
    }
    let title = match title {
        Some(t) => t.to_string(),
        None => match spec_name(path)? {
            Some(name) => name,
            None => default_title(path),
        },
    };
    Ok(Summary { title, rows })
}

fn spec_name(csv_path: &Path) -> Result<Option<String>, PlotError> {
    let meta = csv_path.with_file_name("meta.json");
    let Ok(text) = crate::input::read_text(&meta) else {
        return Ok(None);
    };
    let value: serde_json::Value =
        serde_json::from_slice(&text).map_err(|cause| PlotError::Meta { path: meta, cause })?;
    Ok(value
        .pointer("/spec/name")
        .and_then(|v| v.as_str())
        .map(str::to_string))
}

fn default_title(csv_path: &Path) -> String {
    let dir = std::fs::canonicalize(csv_path)
        .ok()
        .and_then(|p| p.parent().and_then(|d| d.file_name()).map(|n| n.to_owned()));
    match dir {
        Some(d) => d.to_string_lossy().into_owned(),
        None => csv_path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "sweep".into()),
    }
}
