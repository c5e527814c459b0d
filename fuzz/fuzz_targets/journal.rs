#![no_main]
//! A finished sweep's journal (`chunks.csv`) or its `runs.csv` damaged by byte edits and a cut,
//! then resumed: never a panic, and a resume that succeeds counts every run once and holds each job
//! once in `runs.csv`. When only `runs.csv` was damaged (the journal's counts are then the truth),
//! its rows after the resume are the undamaged sweep's, timing aside: a damaged row is either
//! rejected or gives away its chunk (its rows no longer add up to the journal's counts), which
//! then runs again.
use ktour::experiment::{run_sweep, Spec};
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use sweep_fixture::{options, spec};

mod sweep_fixture;

/// `runs.csv`'s rows without the timing column, sorted (a resume appends the chunks it runs again).
fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let keep: Vec<usize> = (0..r.headers().unwrap().len())
        .filter(|&i| &r.headers().unwrap()[i] != "elapsed_ns")
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

/// The undamaged sweep: its folder, spec, runs per summary row and rows.
struct Base {
    spec: Spec,
    dir: PathBuf,
    runs: Vec<u64>,
    rows: Vec<Vec<String>>,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let spec = spec();
        let dir = std::env::temp_dir().join(format!("kfuzz-base-{}", std::process::id()));
        let report = run_sweep(&spec, &options(&dir, false, None)).unwrap();
        Base {
            runs: report.summary.iter().map(|r| r.runs).collect(),
            rows: rows(&dir.join("runs.csv")),
            spec,
            dir,
        }
    })
}

fuzz_target!(|input: (bool, u16, Vec<(u16, u8)>)| {
    let base = base();
    let (in_runs, cut, edits) = input;
    let dir = tempfile::tempdir().unwrap();
    for f in ["meta.json", "chunks.csv", "runs.csv"] {
        std::fs::write(dir.path().join(f), std::fs::read(base.dir.join(f)).unwrap()).unwrap();
    }
    let damaged = dir
        .path()
        .join(if in_runs { "runs.csv" } else { "chunks.csv" });
    let mut bytes = std::fs::read(&damaged).unwrap();
    for (at, byte) in edits {
        let i = at as usize % bytes.len().max(1);
        if let Some(b) = bytes.get_mut(i) {
            *b = byte;
        }
    }
    bytes.truncate(cut as usize);
    std::fs::write(&damaged, &bytes).unwrap();
    let Ok(report) = run_sweep(&base.spec, &options(dir.path(), true, None)) else {
        return;
    };
    let got: Vec<u64> = report.summary.iter().map(|r| r.runs).collect();
    assert_eq!(got, base.runs, "a resume counted runs twice or not at all");
    let rows = rows(&dir.path().join("runs.csv"));
    let mut jobs: Vec<&String> = rows.iter().map(|r| &r[0]).collect();
    jobs.sort();
    jobs.dedup();
    assert_eq!(jobs.len(), rows.len(), "a job twice in runs.csv");
    assert_eq!(rows.len(), base.rows.len(), "runs.csv lacks jobs");
    if in_runs {
        assert!(rows == base.rows, "a damaged row survived the resume");
    }
});
