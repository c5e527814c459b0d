//! Reading a sweep's summary CSV for the plots: the rows by header name, as the file's one row type
//! ([`SummaryRow`], which reads the summaries of older versions and hand-made ones too), and the
//! title the plots get (given, else the sweep's spec name from `meta.json`, else the folder's name).

use std::path::Path;

use super::PlotError;
use crate::experiment::SummaryRow;

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
    let title = sweep_title(path, title)?;
    Ok(Summary { title, rows })
}

/// The title of a sweep's pictures drawn from the CSV at `path`: `title` if given, else `spec.name`
/// from a `meta.json` beside the CSV, else the name of the CSV's folder (else its file stem).
pub fn sweep_title(path: &Path, title: Option<&str>) -> Result<String, PlotError> {
    Ok(match title {
        Some(t) => t.to_string(),
        None => match spec_name(path)? {
            Some(name) => name,
            None => default_title(path),
        },
    })
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
