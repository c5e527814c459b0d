//! Where the sampler keeps the steps of its forward pass: in memory, or in files of a folder of
//! its own made inside the `--temp` folder (removed at the end), with the room left checked
//! before each step so that a pass that cannot fit stops with a clear error, not a full disk or
//! an out-of-memory kill.
//!
//! Source: ktour's own; the memory and disk readings are `crate::memory` and
//! `crate::experiment::free_bytes`.

use super::level::LevelWriter;
use super::SampleError;
use std::path::{Path, PathBuf};

/// Memory or a folder of files.
pub(crate) struct Storage {
    folder: Option<PathBuf>,
}

impl Storage {
    /// Memory when `temp` is `None`, else a new folder inside `temp` (which must exist).
    pub(crate) fn new(temp: Option<&Path>) -> Result<Self, SampleError> {
        let Some(temp) = temp else {
            return Ok(Storage { folder: None });
        };
        let io = |e| SampleError::Temp {
            path: temp.to_path_buf(),
            source: e,
        };
        if !temp.is_dir() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not an existing folder",
            )));
        }
        let folder = temp.join(format!("ktour-sample-{}", std::process::id()));
        std::fs::create_dir_all(&folder).map_err(io)?;
        Ok(Storage {
            folder: Some(folder),
        })
    }

    /// Whether the steps go to files.
    pub(crate) fn on_disk(&self) -> bool {
        self.folder.is_some()
    }

    /// A writer for the level `name`.
    pub(crate) fn writer(&self, name: &str) -> Result<LevelWriter, SampleError> {
        match &self.folder {
            None => Ok(LevelWriter::memory()),
            Some(folder) => {
                let path = folder.join(name);
                LevelWriter::file(path.clone()).map_err(|e| SampleError::Temp { path, source: e })
            }
        }
    }

    /// Refuse a step that needs `needed` bytes more than memory (or the folder's disk) has free.
    pub(crate) fn check_room(&self, needed: u64, square: usize) -> Result<(), SampleError> {
        let (free, place) = match &self.folder {
            None => (
                crate::memory::usable_share(crate::memory::available_bytes()),
                "memory".to_string(),
            ),
            Some(folder) => match crate::experiment::free_bytes(folder) {
                Some(free) => (free, format!("the disk of {}", folder.display())),
                None => return Ok(()),
            },
        };
        if needed > free {
            return Err(SampleError::NoRoom {
                square,
                needed_mib: needed >> 20,
                free_mib: free >> 20,
                place,
                on_disk: self.on_disk(),
            });
        }
        Ok(())
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Some(folder) = &self.folder {
            // the levels remove their own files first; anything left is the sampler's alone
            let _ = std::fs::remove_dir_all(folder);
        }
    }
}
