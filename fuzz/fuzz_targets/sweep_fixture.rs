//! The small sweep that the `journal` and `merge` targets damage: its spec and options.
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
