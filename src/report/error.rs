//! Why a report page could not be made: each a one-line message naming the file, for the CLI to
//! print and exit on.

use std::path::PathBuf;

/// A report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The path is not a folder.
    #[error("{0}: no such folder (give a sweep's output folder, a family's or a merged one)")]
    NoFolder(PathBuf),
    /// A folder without `summary.csv`, and without sub-folders that have one.
    #[error("{0}: not a sweep folder: no summary.csv in it nor in any folder under it")]
    NotSweep(PathBuf),
    /// Reading a file.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: std::io::Error,
    },
    /// A CSV or JSON file that is not what a sweep (or `ktour exact`) writes.
    #[error("{path}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
    /// Drawing a plot (the plots of `ktour plot`).
    #[error(transparent)]
    Plot(#[from] crate::render::PlotError),
    /// Drawing the start maps (those of `ktour plot --map`).
    #[error(transparent)]
    Map(#[from] crate::render::MapError),
}

impl ReportError {
    /// A malformed file's error, `message` saying what is wrong.
    pub(crate) fn malformed(path: impl Into<PathBuf>, message: impl std::fmt::Display) -> Self {
        ReportError::Malformed {
            path: path.into(),
            message: message.to_string(),
        }
    }
}

/// A CSV file of a sweep read as a stream (a `runs.csv` may be far larger than memory), its fields
/// trimmed as the sweep's own readers trim them.
pub(crate) fn csv_stream(
    path: &std::path::Path,
) -> Result<csv::Reader<std::io::BufReader<std::fs::File>>, ReportError> {
    let file = std::fs::File::open(path).map_err(|cause| ReportError::Io {
        path: path.into(),
        cause,
    })?;
    Ok(csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(std::io::BufReader::new(file)))
}
