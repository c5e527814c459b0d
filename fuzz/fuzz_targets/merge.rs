#![no_main]
//! Two shards of a finished sweep, their `meta.json`, `chunks.csv` and `runs.csv` damaged by byte
//! edits and a cut, then merged: never a panic, and a merge that succeeds holds each job at most
//! once, only rows of the undamaged sweep (timing aside), and, when it reports every chunk
//! present, the undamaged sweep's summary.
use damage::{options, rows, spec};
use ktour::experiment::{merge, run_sweep};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

#[path = "../../tests/support/damage.rs"]
mod damage;
#[path = "../../tests/support/rows.rs"]
mod rows;

const FILES: [&str; 3] = ["meta.json", "chunks.csv", "runs.csv"];

/// The undamaged sweep, run whole: its rows and summary, timing aside; and its two shards.
struct Base {
    shards: [PathBuf; 2],
    rows: Vec<Vec<String>>,
    summary: Vec<Vec<String>>,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let spec = spec("runs");
        let root = std::env::temp_dir().join(format!("kfuzz-merge-{}", std::process::id()));
        let shards = [root.join("1"), root.join("2")];
        for (i, d) in shards.iter().enumerate() {
            run_sweep(&spec, &options(d, false, Some((i as u32 + 1, 2)))).unwrap();
        }
        let whole = root.join("whole");
        run_sweep(&spec, &options(&whole, false, None)).unwrap();
        Base {
            shards,
            rows: rows(&whole.join("runs.csv")),
            summary: rows(&whole.join("summary.csv")),
        }
    })
}

fuzz_target!(|input: (u8, u16, Vec<(u8, u16, u8)>)| {
    let base = base();
    let (cut_file, cut, edits) = input;
    let tmp = tempfile::tempdir().unwrap();
    let shards = [tmp.path().join("1"), tmp.path().join("2")];
    let mut files = Vec::new();
    for (from, to) in base.shards.iter().zip(&shards) {
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
    let Ok(report) = merge(&shards, &out, false) else {
        return;
    };
    // (a meta.json damaged into `record = "summary"` in both shards merges no rows)
    let merged = if out.join("runs.csv").exists() {
        rows(&out.join("runs.csv"))
    } else {
        Vec::new()
    };
    let mut jobs: Vec<&String> = merged.iter().map(|r| &r[0]).collect();
    jobs.dedup();
    assert_eq!(
        jobs.len(),
        merged.len(),
        "a job twice in the merged runs.csv"
    );
    assert_eq!(
        merged.len() as u64,
        report.runs,
        "runs.csv and the report disagree"
    );
    assert!(
        merged.iter().all(|r| base.rows.binary_search(r).is_ok()),
        "a merged row that the sweep did not make"
    );
    if report.chunks == report.total_chunks {
        assert!(merged == base.rows, "every chunk present but not every row");
        assert!(
            rows(&out.join("summary.csv")) == base.summary,
            "every chunk present but not the summary"
        );
    }
});
