//! Whether a sweep's output fits on its disk, asked before it starts. A plan costs no memory per
//! run, so what bounds a sweep is what it writes: a line of the journal per chunk at least (on
//! large boards a chunk is one run), and a row of `runs.csv` per run where runs are recorded. The
//! bound counted here is a lower one (the shortest lines those files can hold), so that a sweep is
//! refused only when it cannot fit, never on an estimate that might be too high; one that fits the
//! bound and fills the disk later still fails cleanly, with `--resume` to continue.

use std::path::Path;

/// The fewest bytes a journal line takes: 16 numbers (the smallest one digit each) and their
/// separators.
const JOURNAL_LINE: u64 = 32;

/// The fewest bytes a row of `runs.csv` takes: 17 fields, the seed alone about 19 digits.
const RUN_ROW: u64 = 48;

/// The least a sweep (or one shard of it) writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputSize {
    /// Lines of the journal: a chunk has one at least.
    pub journal_lines: u64,
    /// Rows of `runs.csv` (0 unless runs are recorded).
    pub run_rows: u64,
}

impl OutputSize {
    /// The fewest bytes these lines take.
    pub fn least_bytes(&self) -> u64 {
        self.journal_lines
            .saturating_mul(JOURNAL_LINE)
            .saturating_add(self.run_rows.saturating_mul(RUN_ROW))
    }

    /// The lines in words, for messages.
    fn words(&self) -> String {
        let mut s = format!("{} journal lines", self.journal_lines);
        if self.run_rows > 0 {
            s.push_str(&format!(" and {} rows of runs.csv", self.run_rows));
        }
        s
    }
}

/// A sweep whose output cannot fit on its disk.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the sweep's output needs at least {needed_mib} MiB ({what}) but {folder} has only {free_mib} MiB free; run fewer runs, record summaries only, or split it over machines (--shard I/K)")]
pub struct DiskError {
    /// The least the output needs.
    pub needed_mib: u64,
    /// What it is.
    pub what: String,
    /// The output folder.
    pub folder: String,
    /// Free space there.
    pub free_mib: u64,
}

/// Bytes free to an unprivileged writer on the filesystem of `dir`, or of its nearest existing
/// ancestor (the folder is made when the sweep starts); `None` where that cannot be found out.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    let absolute = std::path::absolute(dir).ok()?;
    let existing = absolute.ancestors().find(|p| p.exists())?;
    // `statvfs`'s blocks free to unprivileged users times their size (on Windows the bytes free to
    // this user); elsewhere an error, and nothing is refused for it
    fs4::available_space(existing).ok()
}

/// Refuse an output of `size` that cannot fit in the free space of `dir`, counting as free the
/// results files already there (a forced sweep replaces them).
pub fn check_disk(dir: &Path, size: &OutputSize) -> Result<(), DiskError> {
    let Some(free) = free_bytes(dir) else {
        return Ok(());
    };
    let replaced: u64 = [
        super::output::RUNS,
        super::output::CHUNKS,
        super::output::SUMMARY,
    ]
    .iter()
    .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
    .map(|m| m.len())
    .sum();
    let free = free.saturating_add(replaced);
    let needed = size.least_bytes();
    if needed > free {
        return Err(DiskError {
            needed_mib: needed.div_ceil(1 << 20),
            what: size.words(),
            folder: dir.display().to_string(),
            free_mib: free >> 20,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The free space of a folder not yet made is that of the folder it will be made in, and an
    /// output past it is refused with one line.
    #[test]
    fn an_output_past_the_free_space_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let free = free_bytes(tmp.path()).unwrap();
        assert!(free > 0);
        let later = tmp.path().join("a/b");
        let again = free_bytes(&later).unwrap();
        assert!(
            again.abs_diff(free) < free / 100 + (64 << 20),
            "{free} {again}"
        );
        let small = OutputSize {
            journal_lines: 1000,
            run_rows: 0,
        };
        check_disk(&later, &small).unwrap();
        let huge = OutputSize {
            journal_lines: u64::MAX / 64,
            run_rows: 1,
        };
        let e = check_disk(&later, &huge).unwrap_err().to_string();
        assert!(e.contains("MiB free") && !e.contains('\n'), "{e}");
    }
}
