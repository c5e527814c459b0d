#![no_main]
//! A finished sweep's journal (chunks.csv) and runs.csv damaged by byte edits and a cut, then
//! resumed: never a panic, and a resume that succeeds counts every run once.
use ktour::experiment::{run_sweep, Spec, SweepOptions, SweepProgress};
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const SPEC: &str = r#"
name = "fz"
sizes = [5, 6]
starts = "all"
rules = ["first", "random"]
methods = ["warnsdorff", "backtrack"]
trials = 2
seed = 3
record = "runs"
"#;

fn opts(out: &Path, resume: bool) -> SweepOptions {
    SweepOptions {
        out: out.into(),
        threads: 1,
        resume,
        force: !resume,
        shard: None,
        progress: SweepProgress::Hidden,
        command: "fuzz".into(),
        lane_memory: 2.0,
    }
}

fn base() -> &'static (Spec, PathBuf, Vec<u64>) {
    static BASE: OnceLock<(Spec, PathBuf, Vec<u64>)> = OnceLock::new();
    BASE.get_or_init(|| {
        let spec = Spec::from_toml(SPEC, "fz.toml").unwrap();
        let dir = std::env::temp_dir().join(format!("kfuzz-base-{}", std::process::id()));
        let report = run_sweep(&spec, &opts(&dir, false)).unwrap();
        let runs = report.summary.iter().map(|r| r.runs).collect();
        (spec, dir, runs)
    })
}

fuzz_target!(|input: (bool, u16, Vec<(bool, u16, u8)>)| {
    let (spec, base, runs) = base();
    let (cut_runs, cut, edits) = input;
    let dir = tempfile::tempdir().unwrap();
    for f in ["meta.json", "chunks.csv", "runs.csv"] {
        std::fs::copy(base.join(f), dir.path().join(f)).unwrap();
    }
    let mut files = [
        std::fs::read(dir.path().join("chunks.csv")).unwrap(),
        std::fs::read(dir.path().join("runs.csv")).unwrap(),
    ];
    for (in_runs, at, byte) in edits {
        let f = &mut files[in_runs as usize];
        if !f.is_empty() {
            let i = at as usize % f.len();
            f[i] = byte;
        }
    }
    let f = &mut files[cut_runs as usize];
    if cut as usize <= f.len() {
        f.truncate(cut as usize);
    }
    std::fs::write(dir.path().join("chunks.csv"), &files[0]).unwrap();
    std::fs::write(dir.path().join("runs.csv"), &files[1]).unwrap();
    if let Ok(report) = run_sweep(spec, &opts(dir.path(), true)) {
        let got: Vec<u64> = report.summary.iter().map(|r| r.runs).collect();
        assert_eq!(&got, runs, "a resume counted runs twice or not at all");
        // runs.csv: one row per job
        let text = std::fs::read_to_string(dir.path().join("runs.csv")).unwrap();
        let mut jobs: Vec<u64> = text
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().parse().unwrap())
            .collect();
        jobs.sort_unstable();
        let n = jobs.len();
        jobs.dedup();
        assert_eq!(jobs.len(), n, "a job twice in runs.csv");
        assert_eq!(n as u64, runs.iter().sum::<u64>(), "runs.csv lacks jobs");
    }
});
