//! The small sweep that the `journal` and `merge` targets damage: its spec, its options, and how
//! its CSV files are compared.
use ktour::experiment::{Spec, SweepOptions, SweepProgress};
use std::path::Path;

/// 366 runs in 8 chunks: both methods, a rule with per-run state, every run recorded.
pub fn spec() -> Spec {
    let text = r#"
name = "fz"
sizes = [5, 6]
starts = "all"
rules = ["first", "random"]
methods = ["warnsdorff", "backtrack"]
trials = 2
seed = 3
record = "runs"
"#;
    Spec::from_toml(text, "fz.toml").unwrap()
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
        command: "fuzz".into(),
        lane_memory: 2.0,
    }
}

/// A CSV file's rows without its timing columns, sorted (a resume appends the chunks it runs again).
pub fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let keep: Vec<usize> = (0..r.headers().unwrap().len())
        .filter(|&i| !r.headers().unwrap()[i].starts_with("elapsed"))
        .collect();
    let mut v: Vec<Vec<String>> = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            keep.iter().map(|&i| rec[i].to_string()).collect()
        })
        .collect();
    v.sort();
    v
}
