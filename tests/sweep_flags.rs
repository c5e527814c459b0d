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
    // named from the settings that are not defaults, and a checksum of them
    assert!(
        text.starts_with("name = \"5-8-first-roth-warnsdorff-backtrack-")
            && text.contains("\n# attempts: "),
        "{text}"
    );
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

/// Flags replace the spec file's keys and leave the others.
#[test]
fn flags_override_the_file() {
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
}

/// A sweep from flags alone, run inside a clone, leaves the clone as it was (`git status` clean):
/// it lands in the data folder under a name made of its flags, said at the end, and the same flags
/// find the same folder again.
#[test]
fn a_sweep_from_flags_leaves_the_clone_clean() {
    let clone = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(clone.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    git(&["init", "-q"]);
    let quick = || {
        let mut c = ktour();
        c.current_dir(clone.path())
            .env("HOME", home.path())
            .env_remove("XDG_DATA_HOME")
            .args(["sweep", "--sizes", "5", "--rules", "roth", "--no-progress"]);
        c
    };
    let out = quick().assert().success().get_output().stderr.clone();
    let err = String::from_utf8(out).unwrap();
    assert_eq!(git(&["status", "--porcelain", "--untracked-files=all"]), "");
    let sweeps = home.path().join(".local/share/ktour/sweeps");
    let folders: Vec<String> = std::fs::read_dir(&sweeps)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert!(folders[0].starts_with("5-roth-"), "{folders:?}");
    let folder = sweeps.join(&folders[0]);
    assert!(folder.join("summary.csv").is_file());
    assert!(
        err.trim_end()
            .ends_with(&format!("results in {}", folder.display())),
        "{err}"
    );
    // the same flags again are the same sweep, in the same folder
    quick()
        .arg("--resume")
        .assert()
        .success()
        .stderr(predicate::str::contains("0 runs in"));
    // XDG_DATA_HOME, where set, is the data folder
    let data = tempfile::tempdir().unwrap();
    quick().env("XDG_DATA_HOME", data.path()).assert().success();
    assert!(data
        .path()
        .join("ktour/sweeps")
        .join(&folders[0])
        .join("summary.csv")
        .is_file());
}

/// A bad flag value is refused against the flag, with what its key takes, on one line; a spec
/// file that is not TOML is refused with the parser's lines, the line quoted and marked.
#[test]
fn bad_flag_values_name_the_flag_and_toml_errors_keep_their_lines() {
    let err = ktour()
        .args([
            "sweep",
            "--sizes",
            "8",
            "--record",
            "everything",
            "--dry-run",
        ])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(err).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("flag --record") && err.contains("expected `summary` or `runs`"),
        "{err}"
    );
    assert!(!err.contains("line") && !err.contains("TOML"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.toml");
    std::fs::write(&spec, "name = \"x\"\nsizes = [8\nrules = 3\n").unwrap();
    let err = ktour()
        .arg("sweep")
        .arg(&spec)
        .arg("--dry-run")
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(err).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].ends_with("bad.toml: TOML parse error at line 3, column 1")
            && lines.contains(&"3 | rules = 3")
            && !err.contains(" | 3 |"),
        "{err}"
    );
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

/// The keys' table of `docs/experiments.md` and `sweep --help` are the table the code defines,
/// whose defaults are what a spec without the key runs (checked in the library's tests).
/// `KTOUR_BLESS=1 cargo test --test integration documented_keys` writes the table into the page.
#[test]
fn the_documented_keys_are_the_codes() {
    let path = "docs/experiments.md";
    let page = std::fs::read_to_string(path).unwrap();
    let want = ktour::experiment::with_keys_table(&page)
        .expect("docs/experiments.md has the marks of the keys' table");
    let bless = std::env::var_os("KTOUR_BLESS").is_some();
    if bless {
        std::fs::write(path, &want).unwrap();
    }
    assert!(
        bless || page == want,
        "docs/experiments.md's keys' table is not the code's; KTOUR_BLESS=1 cargo test --test integration documented_keys rewrites it:\n{}",
        ktour::experiment::spec_keys_markdown()
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
    // every key is a flag, with its help
    for key in ktour::experiment::KEYS {
        assert!(
            help.contains(&format!("--{}", key.flag_long())),
            "--{}: {help}",
            key.flag_long()
        );
    }
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
