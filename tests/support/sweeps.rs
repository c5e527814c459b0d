//! Sweeps through the binary into temporary folders, and the comparison of two sweeps' results,
//! timing aside.

use super::{ktour, rows_without_timing};
use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// Write `text` as `spec.toml` in `dir`; its path.
pub fn write_spec(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("spec.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// `ktour sweep SPEC --out OUT EXTRA`.
pub fn sweep(spec: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut c = ktour();
    c.arg("sweep").arg(spec).arg("--out").arg(out).args(extra);
    c
}

/// Copy the files of folder `from` (no sub-folders) into `to`, made if missing.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// `deadends.csv` of two folders is the same, and in the first its counts add up to each group's
/// `dead_ends` in `summary.csv`.
pub fn same_dead_ends(a: &Path, b: &Path) {
    let ends = |d: &Path| std::fs::read_to_string(d.join("deadends.csv")).unwrap();
    assert_eq!(ends(a), ends(b), "deadends.csv differs");
    let mut per_group = std::collections::HashMap::new();
    let mut r = csv::Reader::from_path(a.join("deadends.csv")).unwrap();
    for row in r.records() {
        let row = row.unwrap();
        let key: Vec<String> = (0..4).map(|i| row[i].to_string()).collect();
        *per_group.entry(key).or_insert(0u64) += row[6].parse::<u64>().unwrap();
    }
    let mut r = csv::Reader::from_path(a.join("summary.csv")).unwrap();
    let at = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "dead_ends")
        .unwrap();
    for row in r.records() {
        let row = row.unwrap();
        let key: Vec<String> = (0..4).map(|i| row[i].to_string()).collect();
        let want: u64 = row[at].parse().unwrap();
        assert_eq!(per_group.get(&key).copied().unwrap_or(0), want, "{key:?}");
    }
}

/// Two folders hold the same results: dead ends as [`same_dead_ends`], and `runs.csv`,
/// `summary.csv` and `chunks.csv` the same rows in the same order, none empty, timing aside.
pub fn same_results(a: &Path, b: &Path) {
    same_dead_ends(a, b);
    for f in ["runs.csv", "summary.csv", "chunks.csv"] {
        let (x, y) = (
            rows_without_timing(&a.join(f)),
            rows_without_timing(&b.join(f)),
        );
        assert!(!x.is_empty(), "{f} is empty");
        assert_eq!(x.len(), y.len(), "{f}: row counts differ");
        assert!(
            x == y,
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}
