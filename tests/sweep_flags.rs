//! Sweeps from flags, the spec defaults table, `ktour failures` and the note on rules run from
//! restricted starts, end to end through the binary.

use crate::support::{ktour, rows_without_timing};
use assert_cmd::Command as Cmd;
use predicates::prelude::*;
use std::path::Path;

fn sweep() -> Cmd {
    let mut c = ktour();
    c.arg("sweep");
    c
}

fn stdout(cmd: &mut Cmd) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

const FLAGS: [&str; 12] = [
    "--sizes",
    "5,8",
    "--rules",
    "first,roth",
    "--methods",
    "warnsdorff,backtrack",
    "--budget",
    "2*squares",
    "--seed",
    "3",
    "--record",
    "runs",
];

/// `--print-spec` writes a spec file that runs the same sweep as the flags: the same name (so the
/// same folder), the same spec in `meta.json` and the same rows.
#[test]
fn the_printed_spec_runs_the_same_sweep_as_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let text = stdout(sweep().args(FLAGS).arg("--print-spec"));
    assert!(text.starts_with("name = \"adhoc-"), "{text}");
    assert!(text.contains("budget = \"2*squares\"\n"), "{text}");
    let spec = dir.path().join("printed.toml");
    std::fs::write(&spec, &text).unwrap();
    let (a, b) = (dir.path().join("flags"), dir.path().join("file"));
    sweep()
        .args(FLAGS)
        .args(["--no-progress", "--out"])
        .arg(&a)
        .assert()
        .success();
    sweep()
        .arg(&spec)
        .args(["--no-progress", "--out"])
        .arg(&b)
        .assert()
        .success();
    for f in ["summary.csv", "runs.csv"] {
        let rows = rows_without_timing(&a.join(f));
        assert!(rows.len() > 4, "{f}");
        assert_eq!(rows, rows_without_timing(&b.join(f)), "{f}");
    }
    let spec_of = |d: &Path| {
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join("meta.json")).unwrap()).unwrap();
        meta["spec"].clone()
    };
    assert_eq!(spec_of(&a), spec_of(&b));
    // and printed again from the file, the spec is the same text
    assert_eq!(stdout(sweep().arg(&spec).arg("--print-spec")), text);
}

/// Flags replace the spec file's keys and leave the others; a sweep from flags without `--name`
/// goes to `results/adhoc-<checksum>/`.
#[test]
fn flags_override_the_file_and_unnamed_sweeps_get_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("s.toml");
    std::fs::write(
        &spec,
        "name = \"mine\"\nsizes = [5]\nrules = [\"roth\"]\nseed = 4\nclosed = true\nmethods = [\"backtrack\"]\n",
    )
    .unwrap();
    let text =
        stdout(
            sweep()
                .arg(&spec)
                .args(["--rules", "first", "--closed=false", "--print-spec"]),
        );
    assert!(text.contains("name = \"mine\"\n"), "{text}");
    assert!(text.contains("rules = [\"first\"]\n"), "{text}");
    assert!(text.contains("seed = 4\n"), "{text}");
    assert!(text.contains("closed = false\n"), "{text}");
    ktour()
        .current_dir(dir.path())
        .args(["sweep", "--sizes", "5", "--no-progress"])
        .assert()
        .success();
    let folders: Vec<String> = std::fs::read_dir(dir.path().join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert!(folders[0].starts_with("adhoc-"), "{folders:?}");
}

/// Bad flags are refused as bad keys are: exit 2, one line naming the key.
#[test]
fn bad_flags_name_their_key() {
    for (args, needle) in [
        (&["--sizes", "8", "--rules", "first,nope"][..], "rules[1]"),
        (&["--sizes", "8,x"][..], "--sizes"),
        (&["--sizes", "8", "--starts", "9,9"][..], "starts[0]"),
        (&["--sizes", "8", "--record", "every"][..], "record"),
        (&["--rules", "first"][..], "`sizes`"),
    ] {
        let out = ktour()
            .arg("sweep")
            .args(args)
            .arg("--dry-run")
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8(out).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// The guide's table of defaults (`docs/experiments.md`) and `sweep --help` are the table the code
/// defines, whose defaults are what a spec without the key runs (checked in the library's tests).
#[test]
fn the_documented_defaults_are_the_codes() {
    let readme = std::fs::read_to_string("docs/experiments.md").unwrap();
    let table = ktour::experiment::spec_keys_markdown();
    assert!(
        readme.contains(&table),
        "docs/experiments.md's table of defaults is not this one:\n{table}"
    );
    let help = stdout(ktour().args(["sweep", "--help"]));
    assert!(
        help.contains(&ktour::experiment::spec_keys_text()),
        "{help}"
    );
    assert!(
        help.contains(&format!(
            "  budget   {}\n",
            ktour::experiment::DEFAULT_BUDGET
        )),
        "{help}"
    );
}

/// `first` fails from exactly one start of 8x8 (results/README.md): `failures` names it, with how
/// far the run got, in text and in CSV.
#[test]
fn failures_names_the_start_first_fails_from_on_8x8() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    ktour()
        .args(["sweep", "--sizes", "8", "--rules", "first,roth"])
        .args(["--record", "runs", "--no-progress", "--out"])
        .arg(&out)
        .assert()
        .success();
    let text = stdout(ktour().arg("failures").arg(&out));
    assert_eq!(
        text,
        "8x8 first warnsdorff: 1 of 64 runs failed\n  start 5,4: dead-end after 60 of 64 squares\n1 of 128 runs failed, in 1 of 2 board x rule x method groups\n"
    );
    let csv = stdout(ktour().arg("failures").arg(&out).args(["--format", "csv"]));
    assert_eq!(
        csv.lines().collect::<Vec<_>>(),
        [
            ktour::experiment::FAILURES_HEADER,
            "8,8,first,warnsdorff,false,5,4,0,7368869051245727,dead-end,60,64"
        ]
    );
}

/// A folder of summaries only: one line saying how to record runs, exit 2.
#[test]
fn failures_of_summaries_only_says_how_to_record_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    ktour()
        .args(["sweep", "--sizes", "5", "--no-progress", "--out"])
        .arg(&out)
        .assert()
        .success();
    ktour()
        .arg("failures")
        .arg(&out)
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("record = \"runs\"")
                .and(predicate::str::contains("--record runs"))
                .and(predicate::function(|e: &str| e.lines().count() == 1)),
        );
    ktour()
        .arg("failures")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds no sweep results"));
}

/// `squirrel` runs from the corner only: the printed table and `--dry-run` say so.
#[test]
fn restricted_starts_are_noted() {
    let note = "note: squirrel runs from the corner (0,0) of n x n boards, n >= 5, only";
    let dir = tempfile::tempdir().unwrap();
    let args = ["sweep", "--sizes", "6", "--rules", "first,squirrel"];
    ktour()
        .args(args)
        .arg("--dry-run")
        .assert()
        .success()
        .stdout(predicate::str::contains(note));
    ktour()
        .args(args)
        .args(["--no-progress", "--out"])
        .arg(dir.path().join("r"))
        .assert()
        .success()
        .stdout(predicate::str::contains(note));
    ktour()
        .args(["sweep", "--sizes", "6", "--rules", "first", "--dry-run"])
        .assert()
        .success()
        .stdout(predicate::str::contains("note:").not());
}
