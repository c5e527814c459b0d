//! Random damage to one file of a finished sweep, then `--resume` (through the library): whatever
//! the damage, a resume that succeeds gives the undamaged sweep's summary and rows, timing aside.
//! With `record = "runs"` the rows and the journal check each other; with `record = "summary"` the
//! journal's own checksums are all there is. The `journal` target in `fuzz/` searches the same
//! property far longer; this keeps it in CI.

use crate::support::copy_dir;
use crate::support::damage::{options, rows, spec};
use ktour::experiment::run_sweep;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::Cell;

/// Damage one of `files` of a finished sweep recording `record` in many random ways; resume each.
fn resume_after_random_damage(record: &str, files: &'static [&'static str]) {
    let spec = spec(record);
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    run_sweep(&spec, &options(&whole, false, None)).unwrap();
    let summary = rows(&whole.join("summary.csv"));
    let with_rows = whole.join("runs.csv").exists();
    let whole_rows = if with_rows {
        rows(&whole.join("runs.csv"))
    } else {
        Vec::new()
    };
    let mut runner = TestRunner::new(Config {
        cases: 96,
        ..Config::default()
    });
    // which file, byte edits (position, byte: a digit half the time, so that numbers change and
    // still parse), and maybe a cut
    let byte = prop_oneof![any::<u8>(), b'0'..=b'9'];
    let damage = (
        proptest::sample::select(files),
        vec((any::<u16>(), byte), 1..4),
        proptest::option::of(any::<u16>()),
    );
    let (resumed, changed) = (Cell::new(0), Cell::new(0));
    runner
        .run(&damage, |(file, edits, cut)| {
            let hurt = tempfile::tempdir_in(tmp.path()).unwrap();
            copy_dir(&whole, hurt.path());
            let path = hurt.path().join(file);
            let mut bytes = std::fs::read(&path).unwrap();
            for (at, byte) in edits {
                let i = at as usize % bytes.len();
                bytes[i] = byte;
            }
            if let Some(cut) = cut {
                bytes.truncate(cut as usize % (bytes.len() + 1));
            }
            std::fs::write(&path, &bytes).unwrap();
            let Ok(report) = run_sweep(&spec, &options(hurt.path(), true, None)) else {
                return Ok(());
            };
            resumed.set(resumed.get() + 1);
            changed.set(changed.get() + (report.runs_done_now > 0) as u32);
            prop_assert!(
                rows(&hurt.path().join("summary.csv")) == summary,
                "summary differs"
            );
            if with_rows {
                prop_assert!(
                    rows(&hurt.path().join("runs.csv")) == whole_rows,
                    "rows differ"
                );
            }
            Ok(())
        })
        .unwrap();
    // the cases are mostly resumable, and most of them had something to run again
    let (resumed, changed) = (resumed.get(), changed.get());
    assert!(
        resumed > 48 && changed > 24,
        "{resumed} resumed, {changed} ran again"
    );
}

#[test]
fn any_damage_to_one_file_resumes_to_the_undamaged_result() {
    resume_after_random_damage("runs", &["chunks.csv", "runs.csv"]);
}

#[test]
fn any_damage_to_the_journal_of_a_summary_sweep_resumes_to_the_undamaged_result() {
    resume_after_random_damage("summary", &["chunks.csv"]);
}

/// The damage the random cases found once (a row's `attempt` 1 made 0, which the journal's tally of
/// restarts, `attempt - 1`, does not see), on every row: each resume runs that row again.
#[test]
fn an_attempt_damaged_to_zero_is_run_again() {
    let spec = spec("runs");
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    run_sweep(&spec, &options(&whole, false, None)).unwrap();
    let want = rows(&whole.join("runs.csv"));
    let text = std::fs::read_to_string(whole.join("runs.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with(",attempt"), "{}", lines[0]);
    for (n, line) in lines.iter().enumerate().skip(1).step_by(37) {
        assert!(line.ends_with(",1"), "{line}");
        let hurt = tmp.path().join(format!("hurt{n}"));
        run_sweep(&spec, &options(&hurt, false, None)).unwrap();
        let mut damaged = lines.clone();
        let zero = format!("{},0", &line[..line.len() - 2]);
        damaged[n] = &zero;
        std::fs::write(hurt.join("runs.csv"), damaged.join("\n") + "\n").unwrap();
        let report = run_sweep(&spec, &options(&hurt, true, None)).unwrap();
        assert!(report.runs_done_now > 0, "row {n} was not run again");
        assert_eq!(rows(&hurt.join("runs.csv")), want, "row {n}");
    }
}
