//! The exclusive lock on a results folder, held by a sweep, a resume or a merge for as long as it
//! writes there: two of them writing one folder at once would append duplicate rows and interleave
//! journal lines. The lock is an advisory lock on the file `.lock` in the folder, taken without
//! waiting; the system releases it when its holder ends, however it ends, so a crash leaves no stale
//! lock behind. The holder writes its pid and command line into `.lock`, so that a refused writer
//! can name it; a holder that died leaves that text behind, which the next holder overwrites (the
//! text is only what a refusal prints, never what decides whether the folder is free).

use super::files::{io, OutputError};
use fs4::{FileExt, TryLockError};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The lock file in a results folder.
pub const LOCK: &str = ".lock";

/// Longest holder description a refusal prints: the file is anyone's to write.
const MAX_HOLDER: usize = 300;

/// A held lock on a results folder, released when dropped.
#[derive(Debug)]
pub struct FolderLock {
    /// The open lock file: closing it releases the lock.
    _file: File,
}

impl FolderLock {
    /// Lock the folder `dir` (which exists), or say that another ktour holds it, and which.
    pub(super) fn take(dir: &Path) -> Result<FolderLock, OutputError> {
        let path = dir.join(LOCK);
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        if held_elsewhere(&file) {
            return Err(OutputError::Locked {
                dir: dir.into(),
                holder: holder_of(&mut file),
            });
        }
        // a failure here leaves the lock held and only the refusals of others less precise
        let _ = name_holder(&mut file);
        Ok(FolderLock { _file: file })
    }
}

/// Write this process's pid and command line into the held lock file, replacing what a holder
/// before it (perhaps one that died) left there.
fn name_holder(file: &mut File) -> std::io::Result<()> {
    let command: Vec<String> = std::env::args().collect();
    let text = format!("pid {} {}\n", std::process::id(), command.join(" "));
    file.set_len(0)?;
    file.seek(SeekFrom::Start(0))?;
    file.write_all(text.as_bytes())?;
    file.flush()
}

/// What the holder wrote into the lock file (its first line, cut short), as a refusal prints it;
/// empty if it wrote nothing yet.
fn holder_of(file: &mut File) -> String {
    let mut bytes = Vec::new();
    let _ = Read::take(file, MAX_HOLDER as u64).read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().next().unwrap_or("").trim();
    line.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// Take the lock on `file` without waiting: true if another open file holds it. A filesystem that
/// has no such locks is not a reason to refuse a sweep, so any other failure leaves it unlocked.
/// fs4 takes it with `flock` on Unix (a lock of the open file, not of the process) and
/// `LockFileEx` on Windows. (std's `File::try_lock` is the same call from Rust 1.89, past our
/// `rust-version`; named through the trait so that newer compilers do not pick std's.)
fn held_elsewhere(file: &File) -> bool {
    matches!(FileExt::try_lock(file), Err(TryLockError::WouldBlock))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One holder at a time, in one process too; the refusal names the holder's pid; dropping the
    /// lock frees the folder.
    #[test]
    fn a_folder_has_one_holder_at_a_time() {
        let tmp = tempfile::tempdir().unwrap();
        let first = FolderLock::take(tmp.path()).unwrap();
        let e = FolderLock::take(tmp.path()).unwrap_err();
        let pid = format!("pid {} ", std::process::id());
        assert!(
            matches!(&e, OutputError::Locked { dir, holder } if dir == tmp.path() && holder.starts_with(&pid)),
            "{e}"
        );
        assert!(e.to_string().contains(&pid), "{e}");
        drop(first);
        FolderLock::take(tmp.path()).unwrap();
    }

    /// What a dead holder left in `.lock` does not keep the folder locked, and the next holder
    /// replaces it, so that a refusal names the holder alive, not the dead one.
    #[test]
    fn a_dead_holders_text_is_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let stale =
            "pid 4000000000 ktour sweep from a crash long ago, with a longer command line\n";
        std::fs::write(tmp.path().join(LOCK), stale).unwrap();
        let held = FolderLock::take(tmp.path()).unwrap();
        let text = std::fs::read_to_string(tmp.path().join(LOCK)).unwrap();
        assert!(
            text.starts_with(&format!("pid {} ", std::process::id())),
            "{text}"
        );
        assert!(!text.contains("crash"), "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
        drop(held);
    }
}
