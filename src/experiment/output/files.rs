//! The files of a results folder: their names, the error every part of this module returns, and
//! the two ways they are touched safely: a results file must be a regular file (checked before it
//! is opened), and a file rewritten whole is written atomically (a temp file, then a rename), so a
//! crash leaves the old file or the new one, never half of one.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Run rows.
pub const RUNS: &str = "runs.csv";
/// The journal of finished chunks.
pub const CHUNKS: &str = "chunks.csv";
/// One row per board x rule x method.
pub const SUMMARY: &str = "summary.csv";
/// Provenance.
pub const META: &str = "meta.json";
/// Dead ends by length, per board x rule x method.
pub const DEADENDS: &str = "deadends.csv";

/// Problems with an output folder.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file the sweep appends to was replaced or removed while it ran.
    #[error("{path} was replaced or removed while this sweep ran (a checkout, a copy or a move over it?): stopped rather than go on writing rows no name reaches; run the sweep again with --resume to run the chunks since again")]
    Replaced {
        /// The file.
        path: PathBuf,
    },
    /// The folder holds results of another spec or shard.
    #[error("{dir} holds results of a different experiment ({what}); choose another --out, or pass --force to replace them")]
    OtherSpec {
        /// The folder.
        dir: PathBuf,
        /// What differs.
        what: String,
    },
    /// The output path exists and is not a folder.
    #[error("{dir} exists and is not a folder: choose another --out")]
    NotAFolder {
        /// The path.
        dir: PathBuf,
    },
    /// The folder holds results of this spec and neither --resume nor --force was given.
    #[error("{dir} already holds results of this spec; pass --resume to continue it, or --force to start over")]
    AlreadyThere {
        /// The folder.
        dir: PathBuf,
    },
    /// `merge --out` names a folder that already holds results of this spec.
    #[error("{dir} already holds results of this spec; choose another --out, or pass --force to replace them")]
    MergeTarget {
        /// The folder.
        dir: PathBuf,
    },
    /// A CSV file could not be written or read.
    #[error("{path}: {message}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// Another ktour (a sweep, a resume or a merge) is writing into the folder.
    #[error("{dir} is in use by another ktour sweep, resume or merge ({}); wait for it to end, or choose another --out", holder_words(holder))]
    Locked {
        /// The folder.
        dir: PathBuf,
        /// What the holder wrote into the lock file: `pid N COMMAND`, or empty if nothing yet.
        holder: String,
    },
    /// `--resume` into a folder that does not exist: nothing to continue (a mistyped `--out`
    /// would otherwise start the whole sweep afresh somewhere else).
    #[error("{dir} does not exist: there is nothing to resume; check --out, or leave out --resume to start the sweep")]
    NothingToResume {
        /// The folder.
        dir: PathBuf,
    },
    /// Inputs to `merge` that do not belong together.
    #[error("cannot merge: {0}")]
    Merge(String),
}

/// The holder of a lock as a refusal names it.
fn holder_words(holder: &str) -> String {
    if holder.is_empty() {
        "it has not named itself yet".into()
    } else {
        format!("held by {holder}")
    }
}

pub(super) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

pub(super) fn csv_err(path: &Path) -> impl FnOnce(csv::Error) -> OutputError + '_ {
    move |e| OutputError::Csv {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Refuse a results file that is not a regular file (a device, a pipe, a folder): ktour writes them
/// as regular files, and anything else in their place would be read forever, swallow what is
/// written to it, or (a pipe) hold the sweep at its opening. Asked before every open; `stat` does
/// not block. A link to a regular file is fine; a missing file is for the caller.
pub(super) fn require_regular(path: &Path) -> Result<(), OutputError> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(io(path)(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not a regular file (a device, a pipe or a folder?); ktour writes its results as \
             regular files: move it away",
        ))),
        _ => Ok(()),
    }
}

/// Write `bytes` to `path` atomically (temp file, then rename).
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Write `path` atomically (temp file, then rename) with what `write` writes to it in pieces, so
/// that a file larger than memory (the summary of millions of groups) is never held whole.
pub(super) fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut (dyn Write + Send)) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let tmp = path.with_extension("tmp");
    let written = fs::File::create(&tmp).and_then(|f| {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
        write(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    });
    if let Err(e) = written {
        // a full disk leaves no empty or partial `.tmp` behind
        let _ = fs::remove_file(&tmp);
        return Err(io(&tmp)(e));
    }
    fs::rename(&tmp, path).map_err(io(path))
}
