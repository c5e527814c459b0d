#![no_main]
//! Two shards of a finished sweep, their `meta.json`, `chunks.csv` and `runs.csv` damaged by byte
//! edits and a cut, then merged: never a panic, and a merge that succeeds holds each job at most
//! once, and (when it reports every chunk present) the whole sweep's runs.
use ktour::experiment::{merge, run_sweep};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use sweep_fixture::{options, spec};

mod sweep_fixture;

const FILES: [&str; 3] = ["meta.json", "chunks.csv", "runs.csv"];

/// The two shard folders and the whole sweep's number of runs.
fn base() -> &'static ([PathBuf; 2], u64) {
    static BASE: OnceLock<([PathBuf; 2], u64)> = OnceLock::new();
    BASE.get_or_init(|| {
        let spec = spec();
        let root = std::env::temp_dir().join(format!("kfuzz-merge-{}", std::process::id()));
        let dirs = [root.join("1"), root.join("2")];
        let mut runs = 0;
        for (i, d) in dirs.iter().enumerate() {
            let report = run_sweep(&spec, &options(d, false, Some((i as u32 + 1, 2)))).unwrap();
            runs += report.runs_done_now;
        }
        (dirs, runs)
    })
}

fuzz_target!(|input: (u8, u16, Vec<(u8, u16, u8)>)| {
    let (dirs, runs) = base();
    let (cut_file, cut, edits) = input;
    let tmp = tempfile::tempdir().unwrap();
    let shards = [tmp.path().join("1"), tmp.path().join("2")];
    let mut files = Vec::new();
    for (from, to) in dirs.iter().zip(&shards) {
        std::fs::create_dir(to).unwrap();
        for f in FILES {
            files.push(std::fs::read(from.join(f)).unwrap());
        }
    }
    for (file, at, byte) in edits {
        let f = &mut files[file as usize % 6];
        if !f.is_empty() {
            let i = at as usize % f.len();
            f[i] = byte;
        }
    }
    let f = &mut files[cut_file as usize % 6];
    if cut as usize <= f.len() {
        f.truncate(cut as usize);
    }
    for (i, bytes) in files.iter().enumerate() {
        std::fs::write(shards[i / 3].join(FILES[i % 3]), bytes).unwrap();
    }
    let out = tmp.path().join("merged");
    if let Ok(report) = merge(&shards, &out, false) {
        // read as the csv crate (and pandas, polars, R) read it: blank lines are skipped
        let mut jobs: Vec<u64> = csv::Reader::from_path(out.join("runs.csv"))
            .unwrap()
            .records()
            .map(|r| r.unwrap()[0].parse().unwrap())
            .collect();
        jobs.sort_unstable();
        let n = jobs.len();
        jobs.dedup();
        assert_eq!(jobs.len(), n, "a job twice in the merged runs.csv");
        assert_eq!(n as u64, report.runs, "runs.csv and the report disagree");
        if report.chunks == report.total_chunks {
            assert_eq!(report.runs, *runs, "every chunk present but not every run");
        }
    }
});
