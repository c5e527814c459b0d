//! A small finished sweep to damage, shared by `tests/damaged_files.rs` and the `journal` and
//! `merge` targets of `fuzz/` (each includes this file, and `rows.rs` beside it as the module
//! `rows` next to this one; each uses part of it).
#![allow(dead_code)]

use ktour::experiment::{Spec, SweepOptions, SweepProgress};
use std::path::Path;

/// 366 runs in 2 chunks of 4 groups each: both methods, a rule with per-run state; `record` is
/// "runs" or "summary".
pub fn spec(record: &str) -> Spec {
    let text = format!(
        r#"
name = "damage"
sizes = [5, 6]
starts = "all"
rules = ["first", "random"]
methods = ["warnsdorff", "backtrack"]
trials = 2
seed = 3
record = "{record}"
"#
    );
    Spec::from_toml(&text, "damage.toml").unwrap()
}

/// One thread, no progress; a sweep that does not resume replaces what `out` holds.
pub fn options(out: &Path, resume: bool, shard: Option<(u32, u32)>) -> SweepOptions {
    SweepOptions {
        out: out.into(),
        threads: 1,
        resume,
        force: !resume,
        shard,
        progress: SweepProgress::Hidden,
        command: "damage".into(),
        lane_memory: 2.0,
        symmetry: true,
        stop: Default::default(),
    }
}

/// A CSV file's rows without its timing columns, sorted (a resume appends what it runs again).
pub fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut v = super::rows::rows_without_timing(path);
    v.sort();
    v
}
