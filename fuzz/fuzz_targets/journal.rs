#![no_main]
//! A finished sweep's journal (`chunks.csv`) or its `runs.csv` damaged by byte edits and a cut,
//! then resumed: never a panic, and a resume that succeeds gives the undamaged sweep's summary and
//! rows, timing aside. A damaged journal line fails its check and its chunk runs again; a damaged
//! row is rejected or no longer adds up to its chunk's journal counts, and its chunk runs again.
use damage::{options, rows, spec};
use ktour::experiment::{run_sweep, Spec};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

#[path = "../../tests/support/damage.rs"]
mod damage;
#[path = "../../tests/support/rows.rs"]
mod rows;

/// The undamaged sweep: its folder, spec, summary and rows, timing aside.
struct Base {
    spec: Spec,
    dir: PathBuf,
    summary: Vec<Vec<String>>,
    rows: Vec<Vec<String>>,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let spec = spec("runs");
        let dir = std::env::temp_dir().join(format!("kfuzz-base-{}", std::process::id()));
        run_sweep(&spec, &options(&dir, false, None)).unwrap();
        Base {
            summary: rows(&dir.join("summary.csv")),
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
    if run_sweep(&base.spec, &options(dir.path(), true, None)).is_err() {
        return;
    }
    assert!(
        rows(&dir.path().join("summary.csv")) == base.summary,
        "the resumed summary is not the undamaged one"
    );
    let rows = rows(&dir.path().join("runs.csv"));
    assert!(
        rows == base.rows,
        "the resumed runs.csv is not the undamaged one"
    );
});
