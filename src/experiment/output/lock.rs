//! The exclusive lock on a results folder, held by a sweep, a resume or a merge for as long as it
//! writes there: two of them writing one folder at once would append duplicate rows and interleave
//! journal lines. The lock is an advisory lock on the file `.lock` in the folder, taken without
//! waiting; the system releases it when its holder ends, however it ends, so a crash leaves no stale
//! lock behind (the empty `.lock` file itself stays, and means nothing).

use super::files::{io, OutputError};
use std::fs::{File, OpenOptions};
use std::path::Path;

/// The lock file in a results folder.
pub const LOCK: &str = ".lock";

/// A held lock on a results folder, released when dropped.
#[derive(Debug)]
pub struct FolderLock {
    /// The open lock file: closing it releases the lock.
    _file: File,
}

impl FolderLock {
    /// Lock the folder `dir` (which exists), or say that another ktour holds it.
    pub(super) fn take(dir: &Path) -> Result<FolderLock, OutputError> {
        let path = dir.join(LOCK);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        if held_elsewhere(&file) {
            return Err(OutputError::Locked { dir: dir.into() });
        }
        Ok(FolderLock { _file: file })
    }
}

/// Take the lock on `file` without waiting: true if another open file holds it. A filesystem that
/// has no such locks is not a reason to refuse a sweep, so any other failure leaves it unlocked.
#[cfg(unix)]
fn held_elsewhere(file: &File) -> bool {
    use std::os::unix::io::AsRawFd;
    // SAFETY: `flock` only reads the descriptor, which `file` keeps open for the call.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    r != 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::WouldBlock
}

/// Without `flock`, folders are not locked.
#[cfg(not(unix))]
fn held_elsewhere(_file: &File) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One holder at a time, in one process too; dropping the lock frees the folder.
    #[test]
    fn a_folder_has_one_holder_at_a_time() {
        let tmp = tempfile::tempdir().unwrap();
        let first = FolderLock::take(tmp.path()).unwrap();
        let e = FolderLock::take(tmp.path()).unwrap_err();
        assert!(
            matches!(&e, OutputError::Locked { dir } if dir == tmp.path()),
            "{e}"
        );
        drop(first);
        FolderLock::take(tmp.path()).unwrap();
    }
}
