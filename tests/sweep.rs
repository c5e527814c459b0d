//! The experiment runner end to end: determinism across thread counts, resume after a real SIGINT and
//! a real SIGKILL, shards merged back into the single-run result, and refusals with clear errors.

use crate::support::{
    copy_dir, ktour, ktour_path, ktour_within, rows_without_timing, same_dead_ends, same_results,
    sweep, write_spec,
};
use assert_cmd::Command as Cmd;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A spec that takes a few seconds on one thread and records every run.
const SPEC: &str = r#"
name = "sweep-test"
sizes = "8..=28"
starts = "all"
rules = ["first", "roth", "pohl", "random"]
methods = ["warnsdorff", "backtrack"]
trials = 2
seed = 42
budget = 20000
record = "runs"
"#;

/// [`SPEC`] with four times the trials, for the interrupted sweeps: the journal is flushed about once a
/// second, so the run must last several seconds for a signal to land mid-sweep (about 4.5 s on one
/// thread here; [`SPEC`] alone now finishes in about one).
fn interrupted_spec() -> String {
    assert!(SPEC.contains("trials = 2"));
    SPEC.replace("trials = 2", "trials = 8")
}

fn merge<P: AsRef<std::ffi::OsStr>>(dirs: &[P], out: &Path, extra: &[&str]) -> Cmd {
    let mut c = ktour();
    c.arg("merge").args(dirs).arg("--out").arg(out).args(extra);
    c
}

#[test]
fn same_spec_same_csv_with_one_and_two_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SPEC);
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    sweep(&spec, &a, &["--threads", "1"]).assert().success();
    sweep(&spec, &b, &["--threads", "2"]).assert().success();
    same_results(&a, &b);
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("meta.json")).unwrap()).unwrap();
    for key in [
        "ktour_version",
        "git_commit",
        "command",
        "threads",
        "cpu_model",
        "started",
        "finished",
        "spec",
    ] {
        assert!(meta.get(key).is_some(), "meta.json lacks {key}");
    }
    assert_eq!(meta["status"], "complete");
    assert_eq!(meta["lane_memory"], ktour::solve::DEFAULT_LANE_MEMORY);
    // summary: success rates are consistent with the runs
    let mut runs = csv::Reader::from_path(a.join("runs.csv")).unwrap();
    let n_runs = runs.records().count();
    let mut sum = csv::Reader::from_path(a.join("summary.csv")).unwrap();
    let total: u64 = sum
        .deserialize::<ktour::experiment::SummaryRow>()
        .map(|r| r.unwrap().runs)
        .sum();
    assert_eq!(total as usize, n_runs);
}

/// Workers write finished blocks themselves, whoever finds the writing turn free (no writer
/// thread). Many more workers than cores and a few hundred small blocks make them meet at the hand-off
/// often; a block lost there would leave its chunks out of the journal, and one written twice or out
/// of turn would change `chunks.csv`.
#[test]
fn many_workers_write_every_block_once_and_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        r#"
name = "hand-off"
sizes = [5, 6]
starts = "all"
rules = ["order:*"]
methods = ["warnsdorff"]
record = "summary"
"#,
    );
    let one = tmp.path().join("one");
    sweep(&spec, &one, &["--threads", "1"]).assert().success();
    let journal = rows_without_timing(&one.join("chunks.csv"));
    // a line per ordering and board: a chunk holds whole orderings (a multiple of the starts)
    assert_eq!(journal.len(), 2 * 40_320);
    for round in 0..3 {
        let many = tmp.path().join(format!("many-{round}"));
        sweep(&spec, &many, &["--threads", "16"]).assert().success();
        for f in ["summary.csv", "chunks.csv"] {
            assert!(
                rows_without_timing(&one.join(f)) == rows_without_timing(&many.join(f)),
                "{f} differs with 16 workers (round {round})"
            );
        }
    }
}

/// On large boards a chunk is a single run and a worker batches a block of them; how many it walks
/// side by side depends on `--lane-memory`, and the results must not.
#[test]
fn lane_memory_changes_speed_not_results() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        r#"
name = "lanes"
sizes = [509, 520]
starts = "sample:9"
rules = ["first", "roth", "pohl", "random"]
methods = ["warnsdorff"]
trials = 2
seed = 7
record = "runs"
"#,
    );
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    sweep(&spec, &a, &["--threads", "2"]).assert().success();
    sweep(&spec, &b, &["--threads", "2", "--lane-memory", "4.5"])
        .assert()
        .success();
    sweep(&spec, &c, &["--threads", "1", "--lane-memory", "0.5"])
        .assert()
        .success();
    same_results(&a, &b);
    same_results(&a, &c);
    sweep(&spec, &c, &["--force", "--lane-memory=-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "positive number of bytes per square",
        ));
}

/// Workers that could not fit in memory together are refused before anything runs or is written:
/// a single run's own memory check cannot see the other workers.
#[test]
fn workers_that_do_not_fit_in_memory_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        r#"
name = "too-big"
sizes = [9000]
starts = "corner"
rules = ["first"]
methods = ["backtrack"]
"#,
    );
    let out = tmp.path().join("out");
    // about 1.8 GB a worker (a search's state on 81 million squares): 1,000 of them fit nowhere
    sweep(&spec, &out, &["--threads", "1000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "1000 workers on the 9000x9000 board need about",
        ))
        .stderr(predicate::str::contains("use fewer --threads"));
    assert!(!out.join("meta.json").exists());
}

/// Start a sweep, wait until its journal has at least `rows` finished chunks, then signal it.
fn interrupt_midway(spec: &Path, out: &Path, signal: &str) -> std::process::Output {
    let child = start_midway(spec, out);
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

/// Start a sweep and return once its journal lists a few finished chunks, while it still runs.
fn start_midway(spec: &Path, out: &Path) -> std::process::Child {
    let bin = ktour_path();
    let child = Command::new(bin)
        .arg("sweep")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args(["--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let journal = out.join("chunks.csv");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let lines = std::fs::read_to_string(&journal).map_or(0, |s| s.lines().count());
        if lines >= 3 {
            break;
        }
        assert!(Instant::now() < deadline, "the sweep wrote nothing");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut child = child;
    assert!(
        child.try_wait().unwrap().is_none(),
        "the sweep finished before it could be interrupted: make the spec longer"
    );
    child
}

/// Start `ktour sweep SPEC --out OUT --threads 1 EXTRA` and return once it holds the folder's lock
/// (`.lock` names its pid), while it still runs.
fn start_holding(spec: &Path, out: &Path, extra: &[&str]) -> std::process::Child {
    let bin = ktour_path();
    let mut child = Command::new(bin)
        .arg("sweep")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args(["--threads", "1"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let named = format!("pid {} ", child.id());
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(out.join(".lock")).is_ok_and(|t| t.starts_with(&named)) {
        assert!(Instant::now() < deadline, "the sweep did not take the lock");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the sweep ended too soon"
    );
    child
}

/// A second writer into a folder that another writes is refused with exit 2 and one line of error
/// naming the folder and the holder's pid, and touches nothing there.
fn refused(second: &mut Cmd, folder: &Path, holder: &std::process::Child) {
    let out = second.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert_eq!(err.lines().last(), Some(errors[0]), "{err}");
    for needle in [
        "in use".to_string(),
        folder.display().to_string(),
        format!("pid {} ", holder.id()),
    ] {
        assert!(errors[0].contains(&needle), "{needle:?} in {err}");
    }
}

/// Two writers on one folder, in every combination (a sweep then a forced sweep, a resume or a
/// merge; a resume then a resume): each second one is refused (exit 2, the holder's pid in its one
/// line of error) and leaves the holder's files as they are. The lock goes with its holder however
/// it ends (here a SIGKILL, leaving `.lock` naming a dead process): the next writer takes it over
/// and names itself, and the results come out as those of a sweep never interrupted.
#[test]
fn a_folder_being_written_is_refused_to_a_second_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), &interrupted_spec());
    let (busy, other, whole) = (
        tmp.path().join("busy"),
        tmp.path().join("other"),
        tmp.path().join("whole"),
    );
    let small = tmp.path().join("small.toml");
    std::fs::write(&small, "name = \"small\"\nsizes = [6]\n").unwrap();
    sweep(&small, &other, &[]).assert().success();
    sweep(&spec, &whole, &["--threads", "2"]).assert().success();
    // a sweep holds the folder
    let mut first = start_holding(&spec, &busy, &[]);
    refused(&mut sweep(&spec, &busy, &["--force"]), &busy, &first);
    refused(&mut sweep(&spec, &busy, &["--resume"]), &busy, &first);
    refused(&mut merge(&[&other], &busy, &["--force"]), &busy, &first);
    let still_running = first.try_wait().unwrap().is_none();
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        still_running,
        "the first sweep ended too soon: make the spec longer"
    );
    let dead = format!("pid {} ", first.id());
    assert!(std::fs::read_to_string(busy.join(".lock"))
        .unwrap()
        .starts_with(&dead));
    // a resume takes the dead holder's lock over and holds the folder
    let resume = start_holding(&spec, &busy, &["--resume"]);
    refused(&mut sweep(&spec, &busy, &["--resume"]), &busy, &resume);
    let done = resume.wait_with_output().unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    same_results(&whole, &busy);
    let meta = std::fs::read_to_string(busy.join("meta.json")).unwrap();
    assert!(meta.contains("\"complete\""), "{meta}");
}

#[test]
fn sigint_saves_progress_and_resume_completes_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), &interrupted_spec());
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    sweep(&spec, &whole, &["--threads", "2"]).assert().success();
    let out = interrupt_midway(&spec, &cut, "-INT");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let meta = std::fs::read_to_string(cut.join("meta.json")).unwrap();
    assert!(meta.contains("\"interrupted\""), "{meta}");
    // a summary row is complete exactly when it counts all of its group's runs, and the table
    // marks what is partial (here at least the groups not yet run)
    let complete = complete_by_group(&cut);
    let runs_of_whole = complete_by_group(&whole);
    assert!(!complete.is_empty());
    for (group, (runs, complete)) in &complete {
        let (whole_runs, whole_complete) = runs_of_whole[group];
        assert!(whole_complete, "{group:?}");
        assert_eq!(
            *complete,
            *runs == whole_runs,
            "{group:?}: {runs} of {whole_runs}"
        );
    }
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table
            .lines()
            .any(|l| !l.starts_with("* ") && l.contains('*')),
        "{table}"
    );
    assert!(table.contains("\n* from part of the runs"), "{table}");
    // without --resume the folder is refused
    sweep(&spec, &cut, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--resume"));
    sweep(&spec, &cut, &["--resume", "--threads", "2"])
        .assert()
        .success()
        .stderr(predicate::str::contains("resumed"))
        .stdout(predicate::str::contains("*").not());
    same_results(&whole, &cut);
}

/// `summary.csv`'s rows by group (rows, cols, rule, method): their runs and their `complete`, the
/// last column.
fn complete_by_group(dir: &Path) -> std::collections::BTreeMap<Vec<String>, (u64, bool)> {
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    assert_eq!(headers.iter().next_back(), Some("complete"));
    let runs = headers.iter().position(|h| h == "runs").unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let complete = match &rec[headers.len() - 1] {
                "true" => true,
                "false" => false,
                other => panic!("complete = {other:?}"),
            };
            (
                rec.iter().take(4).map(str::to_string).collect(),
                (rec[runs].parse().unwrap(), complete),
            )
        })
        .collect()
}

#[test]
fn sigkill_then_resume_loses_nothing_and_duplicates_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), &interrupted_spec());
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    sweep(&spec, &whole, &["--threads", "2"]).assert().success();
    let out = interrupt_midway(&spec, &cut, "-KILL");
    assert_eq!(out.status.code(), None, "killed by a signal");
    // a crash mid-write: tear the last line of both files
    for f in ["runs.csv", "chunks.csv"] {
        let p = cut.join(f);
        let mut bytes = std::fs::read(&p).unwrap();
        bytes.extend_from_slice(b"123,4,5,fir");
        std::fs::write(&p, bytes).unwrap();
    }
    sweep(&spec, &cut, &["--resume", "--threads", "2"])
        .assert()
        .success();
    same_results(&whole, &cut);
}

#[test]
fn shards_merge_into_the_single_run_result() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SPEC);
    let whole = tmp.path().join("whole");
    sweep(&spec, &whole, &["--threads", "2"]).assert().success();
    let mut shards = Vec::new();
    for i in 1..=3 {
        let d = tmp.path().join(format!("shard{i}"));
        sweep(&spec, &d, &["--shard", &format!("{i}/3"), "--threads", "1"])
            .assert()
            .success();
        shards.push(d);
    }
    let merged = tmp.path().join("merged");
    // an incomplete merge says so
    merge(&shards[..2], &tmp.path().join("partial"), &[])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("missing"));
    // shards write their rows in job order, so the merge streams them
    merge(&shards, &merged, &[])
        .assert()
        .success()
        .stderr(predicate::str::contains("sorted in memory").not());
    same_results(&whole, &merged);
    // the merged meta.json names every shard's run, in the order given; its own fields are the
    // first shard's
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(merged.join("meta.json")).unwrap()).unwrap();
    let runs = meta["shards"].as_array().expect("a shards array");
    assert_eq!(runs.len(), 3, "{meta}");
    for (i, (run, dir)) in runs.iter().zip(&shards).enumerate() {
        let own: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        assert_eq!(run["folder"], dir.display().to_string());
        assert_eq!(run["shard"], serde_json::json!([i + 1, 3]));
        assert!(run["command"]
            .as_str()
            .unwrap()
            .contains(&format!("--shard {}/3", i + 1)));
        for key in [
            "command",
            "hostname",
            "status",
            "first_started",
            "started",
            "finished",
        ] {
            assert_eq!(run[key], own[key], "shard {}: {key}", i + 1);
        }
        assert!(!run["finished"].as_str().unwrap().is_empty());
    }
    assert_eq!(meta["command"], runs[0]["command"]);
    assert_eq!(meta["status"], "complete");
}

/// `--resume` into a folder that does not exist is refused with one line (a mistyped `--out` would
/// otherwise start the whole sweep afresh), and creates nothing.
#[test]
fn resume_into_a_missing_folder_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let missing = tmp.path().join("typo");
    let out = sweep(&spec, &missing, &["--resume"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(
        errors[0].contains("nothing to resume") && errors[0].contains("typo"),
        "{err}"
    );
    assert!(!missing.exists());
}

/// `--force` over a complete run of the same spec (summary only) that gives the same summary,
/// timing columns aside, leaves `summary.csv` and `meta.json` byte for byte as they were; a summary
/// that differs in anything else is written anew, with a new `meta.json`.
#[test]
fn forcing_a_run_that_reproduces_the_folder_leaves_its_files_as_they_were() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        &SMALL_SPEC.replace("record = \"runs\"", "record = \"summary\""),
    );
    let out = tmp.path().join("out");
    sweep(&spec, &out, &[]).assert().success();
    let files = |d: &Path| ["summary.csv", "meta.json"].map(|f| std::fs::read(d.join(f)).unwrap());
    let first = files(&out);
    // timings differ from one run to the next: they are made to here, so the kept file shows
    let summary = String::from_utf8(first[0].clone()).unwrap();
    let at = summary
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == "elapsed_ns_total")
        .unwrap();
    let slow: String = summary
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut fields: Vec<String> = l.split(',').map(str::to_string).collect();
            if i > 0 {
                fields[at] = "1234567890123".into();
            }
            fields.join(",") + "\n"
        })
        .collect();
    assert!(summary
        .lines()
        .next()
        .unwrap()
        .ends_with(
            ",elapsed_ns_total,not_closed,attempts_mean,success_ci_low,success_ci_high,\
             closed_tours,closed_rate,closed_ci_low,closed_ci_high,visited_min,visited_max,complete"
        ));
    std::fs::write(out.join("summary.csv"), &slow).unwrap();
    sweep(&spec, &out, &["--force"]).assert().success();
    assert_eq!(
        std::fs::read_to_string(out.join("summary.csv")).unwrap(),
        slow
    );
    assert_eq!(std::fs::read(out.join("meta.json")).unwrap(), first[1]);
    // a count changed: the run does not reproduce the folder, whose files are then replaced
    let edited = slow.replacen(",true\n", ",false\n", 1);
    assert_ne!(edited, slow);
    std::fs::write(out.join("summary.csv"), &edited).unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    sweep(&spec, &out, &["--force"]).assert().success();
    let again = files(&out);
    assert_ne!(again[0], edited.as_bytes());
    assert_eq!(
        rows_without_timing(&out.join("summary.csv")).len(),
        summary.lines().count() - 1
    );
    assert_ne!(again[1], first[1]);
    // the plots read the summary with its new last column
    ktour()
        .arg("plot")
        .arg(out.join("summary.csv"))
        .arg("-o")
        .arg(tmp.path().join("plot.svg"))
        .assert()
        .success();
}

/// A spec of a few dozen chunks that takes a fraction of a second and records every run.
const SMALL_SPEC: &str = r#"
name = "damaged"
sizes = "6..=12"
starts = "all"
rules = ["first", "random"]
methods = ["warnsdorff", "backtrack"]
trials = 2
seed = 5
budget = 2000
record = "runs"
"#;

/// [`same_results`] in any row order: a chunk run again on resume is appended at the end.
fn same_rows_any_order(a: &Path, b: &Path) {
    same_dead_ends(a, b);
    for f in ["runs.csv", "summary.csv", "chunks.csv"] {
        let sorted = |d: &Path| {
            let mut v = rows_without_timing(&d.join(f));
            v.sort();
            v
        };
        let (x, y) = (sorted(a), sorted(b));
        assert!(!x.is_empty(), "{f} is empty");
        assert_eq!(x.len(), y.len(), "{f}: row counts differ");
        assert!(
            x == y,
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// A finished sweep of [`SMALL_SPEC`] and a copy of it damaged by `damage` (given the copy's
/// `runs.csv`), resumed: the resumed copy must hold the same rows as the original.
fn resume_after_damage(damage: impl FnOnce(&Path)) -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let (whole, hurt) = (tmp.path().join("whole"), tmp.path().join("hurt"));
    sweep(&spec, &whole, &["--threads", "2"]).assert().success();
    copy_dir(&whole, &hurt);
    damage(&hurt.join("runs.csv"));
    let out = sweep(&spec, &hurt, &["--resume", "--threads", "2"])
        .assert()
        .success()
        .get_output()
        .clone();
    same_rows_any_order(&whole, &hurt);
    let meta = std::fs::read_to_string(hurt.join("meta.json")).unwrap();
    assert!(meta.contains("\"complete\""), "{meta}");
    (tmp, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn resume_runs_again_what_a_deleted_runs_csv_held() {
    let (tmp, err) = resume_after_damage(|runs| std::fs::remove_file(runs).unwrap());
    assert!(err.contains("warning: "), "{err}");
    assert!(err.contains("running them again"), "{err}");
    // an intact folder is resumed without a warning and without rewriting its rows
    let hurt = tmp.path().join("hurt");
    let before = std::fs::read(hurt.join("runs.csv")).unwrap();
    let spec = tmp.path().join("spec.toml");
    #[cfg(unix)]
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    #[cfg(unix)]
    let ino = inode(&hurt.join("runs.csv"));
    sweep(&spec, &hurt, &["--resume"])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    #[cfg(unix)]
    assert_eq!(inode(&hurt.join("runs.csv")), ino, "runs.csv was rewritten");
    assert_eq!(std::fs::read(hurt.join("runs.csv")).unwrap(), before);
}

#[test]
fn resume_runs_again_the_chunk_of_a_deleted_row() {
    let (tmp, err) = resume_after_damage(|runs| {
        let text = std::fs::read_to_string(runs).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.remove(lines.len() / 2);
        std::fs::write(runs, lines.join("\n") + "\n").unwrap();
    });
    assert!(err.contains("lacks rows of 1 of the"), "{err}");
    // the chunk run again sits at the end of runs.csv; merged, the rows are in job order again,
    // with the folder that streams first winning any job both hold
    let (whole, hurt) = (tmp.path().join("whole"), tmp.path().join("hurt"));
    let merged = tmp.path().join("merged");
    merge(&[&hurt], &merged, &[])
        .assert()
        .success()
        .stderr(predicate::str::contains("sorted in memory"));
    same_results(&whole, &merged);
    let twice = tmp.path().join("twice");
    merge(&[&whole, &hurt], &twice, &[]).assert().success();
    same_results(&whole, &twice);
}

/// A write that fails after the runs (here the summary's, into `/dev/full`: "No space left on
/// device") fails the sweep with exit 2 and a message that says the finished chunks are saved and
/// `--resume` continues; `meta.json` says "failed", not "running" or "complete", and no temporary
/// file is left. Then `--resume` completes with the same results.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_leaves_meta_failed_and_resume_completes() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let (whole, hurt) = (tmp.path().join("whole"), tmp.path().join("hurt"));
    sweep(&spec, &whole, &[]).assert().success();
    copy_dir(&whole, &hurt);
    std::fs::remove_file(hurt.join("summary.csv")).unwrap();
    // the summary is written to summary.tmp, then renamed
    let full = hurt.join("summary.tmp");
    std::os::unix::fs::symlink("/dev/full", &full).unwrap();
    let status = |dir: &Path| {
        let meta = std::fs::read_to_string(dir.join("meta.json")).unwrap();
        serde_json::from_str::<serde_json::Value>(&meta).unwrap()["status"].clone()
    };
    sweep(&spec, &hurt, &["--resume"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("No space left on device"))
        .stderr(predicate::str::contains(
            "the chunks finished before it are saved, and --resume continues",
        ));
    assert_eq!(status(&hurt), "failed");
    assert!(!hurt.join("summary.csv").exists());
    // the failed write's temporary file (here the link) is removed: nothing half-written is left
    assert!(full.symlink_metadata().is_err(), "summary.tmp left behind");
    sweep(&spec, &hurt, &["--resume"]).assert().success();
    assert_eq!(status(&hurt), "complete");
    same_results(&whole, &hurt);
}

/// A write past the file-size limit (`ulimit -f`) fails with "File too large" and is reported like
/// any failed write (exit 2, `meta.json` "failed"), not a SIGXFSZ that kills ktour without a word;
/// resumed without the limit, the sweep completes with the rows of an unlimited one.
#[cfg(unix)]
#[test]
fn a_write_past_the_file_size_limit_fails_cleanly_and_resume_completes() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let (whole, hurt) = (tmp.path().join("whole"), tmp.path().join("hurt"));
    sweep(&spec, &whole, &[]).assert().success();
    // 100 blocks (51 or 102 kB, by the shell) of the 316 kB runs.csv; meta.json stays writable
    let out = Command::new("sh")
        .args(["-c", "ulimit -f 100; exec \"$0\" \"$@\""])
        .arg(ktour_path())
        .args(["sweep", "--no-progress", "--out"])
        .args([&hurt, &spec])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("runs.csv: File too large"), "{err}");
    let meta = std::fs::read_to_string(hurt.join("meta.json")).unwrap();
    assert!(meta.contains("\"failed\""), "{meta}");
    sweep(&spec, &hurt, &["--resume"]).assert().success();
    same_rows_any_order(&whole, &hurt);
}

/// A results folder's file replaced by something that is not a regular file (a link to a device
/// that never ends or swallows what is written, a named pipe that would hold the sweep at its
/// opening, a folder) is refused with a clear error, not read forever, written away, or waited on.
/// Merge reads the same files the same way.
#[cfg(target_os = "linux")]
#[test]
fn a_results_file_that_is_not_a_regular_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let whole = tmp.path().join("whole");
    sweep(&spec, &whole, &[]).assert().success();
    let cases = [
        ("chunks.csv", "/dev/zero"),
        ("meta.json", "/dev/urandom"),
        ("runs.csv", "/dev/null"),
        ("chunks.csv", "fifo"),
        ("runs.csv", "folder"),
    ];
    for (i, (file, what)) in cases.into_iter().enumerate() {
        let hurt = tmp.path().join(format!("hurt-{i}"));
        copy_dir(&whole, &hurt);
        let at = hurt.join(file);
        std::fs::remove_file(&at).unwrap();
        match what {
            "fifo" => assert!(Command::new("mkfifo").arg(&at).status().unwrap().success()),
            "folder" => std::fs::create_dir(&at).unwrap(),
            device => std::os::unix::fs::symlink(device, &at).unwrap(),
        }
        let refused = |cmd: &mut Cmd| {
            cmd.timeout(Duration::from_secs(60))
                .assert()
                .code(2)
                .stderr(predicate::str::contains(file))
                .stderr(predicate::str::contains("not a regular file"));
        };
        refused(&mut sweep(&spec, &hurt, &["--resume"]));
        refused(&mut merge(
            &[&hurt],
            &tmp.path().join(format!("merged-{i}")),
            &[],
        ));
    }
}

/// A row altered in place (here its node count, still a valid number) no longer adds up to the
/// journal's counts for its chunk: resume runs that chunk again, and the result is the original's.
#[test]
fn resume_runs_again_a_chunk_whose_row_was_altered() {
    let (_tmp, err) = resume_after_damage(|runs| {
        let text = std::fs::read_to_string(runs).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let header: Vec<&str> = lines[0].split(',').collect();
        let nodes = header.iter().position(|&h| h == "nodes").unwrap();
        let row = lines.len() / 2;
        let mut fields: Vec<String> = lines[row].split(',').map(String::from).collect();
        fields[nodes] = (fields[nodes].parse::<u64>().unwrap() + 1).to_string();
        lines[row] = fields.join(",");
        std::fs::write(runs, lines.join("\n") + "\n").unwrap();
    });
    assert!(err.contains("lacks rows of 1 of the"), "{err}");
    assert!(err.contains("or holds them altered"), "{err}");
}

/// A row whose job number was damaged into another run's (here: that run's own row deleted, as a
/// lost line would) is not taken for that run, by a merge or by a resume: both chunks count as
/// missing, and the resume runs them again, so that no row describes a run it is not.
#[test]
fn a_row_relabelled_as_another_run_is_not_taken_for_it() {
    let mut merged_before_resume = None;
    let (tmp, err) = resume_after_damage(|runs| {
        let text = std::fs::read_to_string(runs).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        // the rows of the first and last runs: different boards, different chunks
        let (a, b) = (1, lines.len() - 1);
        let job_a = lines[a].split(',').next().unwrap().to_string();
        assert_ne!(lines[a].split(',').nth(1), lines[b].split(',').nth(1));
        let relabelled = lines[b].replacen(lines[b].split(',').next().unwrap(), &job_a, 1);
        lines[b] = relabelled;
        lines.remove(a);
        std::fs::write(runs, lines.join("\n") + "\n").unwrap();
        // merged as it is: the relabelled row is not in the result, and two chunks are missing
        let merged = runs.parent().unwrap().with_file_name("merged");
        merge(&[runs.parent().unwrap()], &merged, &[])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("lacks rows of 2 chunks"));
        merged_before_resume = Some(merged);
    });
    assert!(err.contains("lacks rows of 2 of the"), "{err}");
    let merged = merged_before_resume.unwrap();
    let all = rows_without_timing(&tmp.path().join("whole").join("runs.csv"));
    let kept = rows_without_timing(&merged.join("runs.csv"));
    assert!(!kept.is_empty());
    assert!(
        kept.iter().all(|r| all.contains(r)),
        "a merged row describes another run"
    );
}

/// A sweep of rule sequences (restarts) writes the sequence, `a|b`, as each row's rule: a merge and
/// a resume take those rows for their runs, and a row deleted costs its chunk alone.
#[test]
fn rows_of_rule_sequences_merge_and_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        "name = \"seq\"\nsizes = [6, 7]\nrules = [\"random|first\", \"rp=roth|pohl\"]\nclosed = true\ntrials = 2\nseed = 3\nrecord = \"runs\"\n",
    );
    let whole = tmp.path().join("whole");
    sweep(&spec, &whole, &[]).assert().success();
    // a named sequence is written by its name, in every file
    let text = std::fs::read_to_string(whole.join("runs.csv")).unwrap();
    assert!(text.contains(",random|first,") && text.contains(",rp,"));
    let summary = std::fs::read_to_string(whole.join("summary.csv")).unwrap();
    assert!(summary.contains(",rp,") && !summary.contains("roth|pohl"));
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let d = tmp.path().join(format!("s{i}"));
            sweep(&spec, &d, &["--shard", &format!("{i}/2")])
                .assert()
                .success();
            d
        })
        .collect();
    let merged = tmp.path().join("merged");
    merge(&shards, &merged, &[]).assert().success();
    same_results(&whole, &merged);
    let hurt = tmp.path().join("hurt");
    copy_dir(&whole, &hurt);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(lines.len() / 2);
    std::fs::write(hurt.join("runs.csv"), lines.join("\n") + "\n").unwrap();
    sweep(&spec, &hurt, &["--resume"])
        .assert()
        .success()
        .stderr(predicate::str::contains("lacks rows of 1 of the"));
    same_rows_any_order(&whole, &hurt);
}

/// Bytes that are not UTF-8 (or not a row) in the middle of the journal are a damaged line: it is
/// dropped alone, with a warning, and the lines after it are kept (each is checked on its own).
#[test]
fn resume_drops_a_damaged_journal_line_alone() {
    let (_tmp, err) = resume_after_damage(|runs| {
        let journal = runs.with_file_name("chunks.csv");
        let bytes = std::fs::read(&journal).unwrap();
        let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
        assert!(lines.len() > 6, "the spec has a few chunks");
        let mut damaged = lines[..4].concat();
        damaged.extend_from_slice(b"\xff\xfe,not a row\n");
        damaged.extend_from_slice(&lines[4..].concat());
        std::fs::write(&journal, damaged).unwrap();
    });
    assert!(err.contains("has 1 damaged line (unreadable"), "{err}");
    // nothing was run again: every chunk's line but the garbage was kept
    assert!(err.contains("0 runs in"), "{err}");
}

/// A journal written by an earlier ktour (before chunks were sized by work, its header without
/// the `job` column, with or without `check`) numbers its chunks otherwise: resuming from it says
/// so, takes none of its lines (its chunk numbers now mean other runs), and runs everything again,
/// to the same results.
#[test]
fn resume_runs_again_what_an_earlier_versions_journal_lists() {
    for keep_check in [true, false] {
        let mut lines = 0;
        let (_tmp, err) = resume_after_damage(|runs| {
            let journal = runs.with_file_name("chunks.csv");
            let text = std::fs::read_to_string(&journal).unwrap();
            assert!(text.starts_with("chunk,group,job,runs,"));
            // the journal as the earlier ktour wrote it: the job column out
            let old: Vec<String> = text
                .lines()
                .map(|l| {
                    let mut f: Vec<&str> = l.split(',').collect();
                    f.remove(2);
                    if !keep_check {
                        f.pop();
                    }
                    f.join(",")
                })
                .collect();
            lines = old.len() - 1;
            std::fs::write(&journal, old.join("\n") + "\n").unwrap();
        });
        assert!(
            err.contains(&format!(
                "written by an earlier ktour, which numbered its chunks otherwise: its {lines} lines cannot be taken"
            )),
            "{err}"
        );
        assert!(!err.contains("damaged line"), "{err}");
        assert!(!err.contains("resumed from"), "{err}");
    }
}

/// A journal whose header is not one ktour writes (here a column renamed) could be read with its
/// columns swapped or unchecked: every line counts as damaged, and everything runs again.
#[test]
fn resume_runs_everything_again_under_a_damaged_journal_header() {
    let mut chunks = 0;
    let (_tmp, err) = resume_after_damage(|runs| {
        let journal = runs.with_file_name("chunks.csv");
        let text = std::fs::read_to_string(&journal).unwrap();
        chunks = text.lines().count() - 1;
        std::fs::write(&journal, text.replacen("group", "gruop", 1)).unwrap();
    });
    assert!(
        err.contains(&format!("has {chunks} damaged lines")),
        "{err}"
    );
    assert!(!err.contains("resumed from"), "{err}");
}

/// In a sweep that records only its summary, the journal's counts are all there is: a line whose
/// counts were edited (a digit, still a number) fails its checksum, and one whose check is gone
/// has none to pass; both are dropped, so resume runs those chunks again instead of adding edited
/// counts to the summary.
#[test]
fn resume_drops_a_journal_line_edited_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        &SMALL_SPEC.replace("record = \"runs\"", "record = \"summary\""),
    );
    let (whole, hurt) = (tmp.path().join("whole"), tmp.path().join("hurt"));
    sweep(&spec, &whole, &[]).assert().success();
    copy_dir(&whole, &hurt);
    let journal = hurt.join("chunks.csv");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let nodes = header.iter().position(|&h| h == "nodes_total").unwrap();
    let mut fields: Vec<String> = lines[3].split(',').map(String::from).collect();
    fields[nodes] = (fields[nodes].parse::<u64>().unwrap() + 10).to_string();
    lines[3] = fields.join(",");
    // and a line whose check was removed: under this header every line has one
    lines[5] = lines[5][..lines[5].rfind(',').unwrap() + 1].to_string();
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    sweep(&spec, &hurt, &["--resume"])
        .assert()
        .success()
        .stderr(predicate::str::contains("has 2 damaged lines"));
    for f in ["summary.csv", "chunks.csv"] {
        let sorted = |d: &Path| {
            let mut v = rows_without_timing(&d.join(f));
            v.sort();
            v
        };
        assert_eq!(sorted(&whole), sorted(&hurt), "{f}");
    }
}

/// Standard error that is not a terminal (a batch job's log) gets lines of progress instead of the
/// bar, as often as `--progress-every` allows; `--no-progress` silences them too.
#[test]
fn logs_get_progress_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let out = tmp.path().join("o");
    let err = sweep(&spec, &out, &["--progress-every", "0.001"])
        .assert()
        .success()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(err).unwrap();
    let line = err
        .lines()
        .find(|l| l.starts_with("progress: "))
        .unwrap_or_else(|| panic!("no progress line in {err}"));
    assert!(
        line.contains(" runs (") && line.contains("elapsed"),
        "{line}"
    );
    sweep(
        &spec,
        &out,
        &["--force", "--no-progress", "--progress-every", "0.001"],
    )
    .assert()
    .success()
    .stderr(predicate::str::contains("progress:").not());
    sweep(&spec, &out, &["--force", "--progress-every", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("positive number of seconds"));
}

/// `--dry-run` says what a sweep would do and runs and writes nothing.
#[test]
fn a_dry_run_counts_the_work_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        "name = \"d\"\nsizes = [8, 10]\nstarts = \"all\"\nrules = [\"first\", \"random\"]\nmethods = [\"warnsdorff\", \"backtrack\"]\ntrials = 3\nbudget = 1000\n",
    );
    let out = tmp.path().join("o");
    // starts: 64 + 100; runs per method: first 164, random 3 x 164
    sweep(&spec, &out, &["--dry-run", "--threads", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("runs: 1312 in "))
        // each walk at most its board's squares: 4 runs (first + 3 random) from each start
        .stdout(predicate::str::contains(format!(
            "pure Warnsdorff: 656 runs, at most {} steps",
            4 * (64 * 64 + 100 * 100)
        )))
        .stdout(predicate::str::contains(
            "searches: 656 runs, at most 656000 nodes",
        ))
        // the plan's own memory, a tally per group (2 boards x 2 rules x 2 methods), and the
        // least the output takes: a journal line per chunk
        .stdout(predicate::str::contains("memory: plan "))
        .stdout(predicate::str::contains("tallies of 8 groups"))
        .stdout(predicate::str::contains("output: at least "))
        .stdout(predicate::str::contains("fits"))
        // one number for a batch system's time limit: walks and searches at their bounds
        .stdout(predicate::function(|s: &str| {
            s.lines().any(|l| {
                l.strip_prefix("time bound: ")
                    .and_then(|rest| rest.split_once(" s on "))
                    .is_some_and(|(secs, _)| secs.parse::<u64>().is_ok())
            })
        }));
    assert!(!out.exists());
}

#[test]
fn merge_counts_chunks_with_rows_lost_as_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    sweep(&spec, &whole, &["--threads", "2"]).assert().success();
    copy_dir(&whole, &cut);
    // a copy stopped part way (mid-line)
    let runs = std::fs::read(cut.join("runs.csv")).unwrap();
    std::fs::write(cut.join("runs.csv"), &runs[..runs.len() * 3 / 5]).unwrap();
    let merged = tmp.path().join("m");
    merge(&[&cut], &merged, &[])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("counted as missing"))
        .stderr(predicate::str::contains("merged 1 folder:"));
    let meta = std::fs::read_to_string(merged.join("meta.json")).unwrap();
    assert!(meta.contains("\"incomplete\""), "{meta}");
    // what it kept is consistent: the summary counts exactly the rows written, all of them right
    let rows = rows_without_timing(&merged.join("runs.csv"));
    let mut sum = csv::Reader::from_path(merged.join("summary.csv")).unwrap();
    let total: u64 = sum
        .deserialize::<ktour::experiment::SummaryRow>()
        .map(|r| r.unwrap().runs)
        .sum();
    assert_eq!(total as usize, rows.len());
    assert!(!rows.is_empty());
    let all = rows_without_timing(&whole.join("runs.csv"));
    assert!(rows.iter().all(|r| all.contains(r)));
    // an intact copy supplies the lost chunks, each row once
    let merged2 = tmp.path().join("m2");
    merge(&[&cut, &whole], &merged2, &[]).assert().success();
    same_results(&whole, &merged2);
}

#[test]
fn merge_refuses_a_folder_holding_results_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), SMALL_SPEC);
    let whole = tmp.path().join("whole");
    sweep(&spec, &whole, &["--threads", "2"]).assert().success();
    let merge_into = |out: &Path, extra: &[&str]| merge(&[&whole], out, extra);
    // this spec's results: merge has no --resume to offer
    merge_into(&whole, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "choose another --out, or pass --force",
        ))
        .stderr(predicate::str::contains("--resume").not());
    // another spec's
    let other = tmp.path().join("other");
    let b = tmp.path().join("b.toml");
    std::fs::write(&b, "name = \"b\"\nsizes = [5]\n").unwrap();
    sweep(&b, &other, &[]).assert().success();
    merge_into(&other, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("different experiment"))
        .stderr(predicate::str::contains("--resume").not());
    // results without meta.json, as sweep refuses them
    let bare = tmp.path().join("bare");
    std::fs::create_dir(&bare).unwrap();
    std::fs::write(bare.join("chunks.csv"), "precious\n").unwrap();
    merge_into(&bare, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("without meta.json"));
    assert_eq!(
        std::fs::read_to_string(bare.join("chunks.csv")).unwrap(),
        "precious\n"
    );
    merge_into(&bare, &["--force"]).assert().success();
    same_results(&whole, &bare);
}

#[test]
fn spec_errors_name_file_and_key() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        "name = \"x\"\nsizes = [8]\nrulez = [\"first\"]\n",
    );
    sweep(&spec, &tmp.path().join("o"), &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("spec.toml").and(predicate::str::contains("rulez")));
    let spec = write_spec(tmp.path(), "name = \"x\"\nsizes = \"8..=\"\n");
    sweep(&spec, &tmp.path().join("o"), &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`sizes`"));
    let spec = write_spec(
        tmp.path(),
        "name = \"x\"\nsizes = [8]\nrules = [\"first\"\n",
    );
    sweep(&spec, &tmp.path().join("o"), &[]).assert().code(2);
    ktour()
        .args(["sweep", "/no/such/spec.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
    let spec = write_spec(tmp.path(), "name = \"x\"\nsizes = [8]\n");
    sweep(&spec, &tmp.path().join("o"), &["--shard", "4/3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--shard"));
}

#[test]
fn another_specs_folder_is_refused_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let a = write_spec(tmp.path(), "name = \"a\"\nsizes = [6]\n");
    sweep(&a, &out, &[]).assert().success();
    let b = tmp.path().join("b.toml");
    std::fs::write(&b, "name = \"b\"\nsizes = [7]\n").unwrap();
    sweep(&b, &out, &["--resume"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("different experiment"));
    // the same name with other settings: the message names them
    let a2 = tmp.path().join("a2.toml");
    std::fs::write(&a2, "name = \"a\"\nsizes = [6]\nseed = 9\n").unwrap();
    sweep(&a2, &out, &["--resume"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`seed` 0 there, 9 here"));
    sweep(&a, &out, &["--resume", "--shard", "1/2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "it holds the whole sweep (no --shard), this is shard 1/2",
        ));
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    sweep(&a, &file, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a folder"));
    sweep(&b, &out, &["--force"]).assert().success();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains("\n7,7,"), "{summary}");
}

/// `sweep` with its address space limited to `kib` KiB: a plan that tries to fill memory then dies
/// quickly (abort) instead of swapping the test machine.
fn sweep_within(kib: u64, spec: &Path, out: &Path, extra: &[&str]) -> Cmd {
    let mut c = ktour_within(kib);
    c.arg("sweep").arg(spec).arg("--out").arg(out).args(extra);
    c
}

/// A plan holds nothing per run: giant sweeps are planned in a few KiB under a 1 GiB address
/// space (10^9 runs and 3.3 * 10^11 runs alike), and a sweep is refused only where its output
/// cannot fit on the disk, before anything is written; specs that cannot be listed at all are
/// refused with exit 2, not by the allocator's abort.
#[test]
fn giant_sweeps_are_planned_and_refused_only_for_the_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    // four billion sizes were listed before the first too large one was noticed
    let spec = write_spec(tmp.path(), "name = \"g\"\nsizes = \"1..=4294967295\"\n");
    sweep_within(1 << 20, &spec, &out, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`sizes`").and(predicate::str::contains("65535")));
    // 10^9 runs: every start of 10000x10000 under ten rules
    let spec = write_spec(
        tmp.path(),
        "name = \"g\"\nsizes = [10000]\nrules = [\"first\", \"roth\", \"pohl\", \"center\", \"roth-original\", \"order:87654321\", \"order:12345687\", \"order:21345678\", \"order:56781234\", \"order:34567812\"]\n",
    );
    let planned = |spec: &Path| {
        let stdout = sweep_within(1 << 20, spec, &out, &["--dry-run"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(stdout).unwrap()
    };
    // the plan's own accounting, in KiB
    let plan_kib = |text: &str| -> u64 {
        let after = text.split("memory: plan ").nth(1).expect("a plan line");
        let (n, unit) = after.split_once(' ').unwrap();
        assert!(unit.starts_with("KiB"), "{text}");
        n.parse().unwrap()
    };
    let text = planned(&spec);
    assert!(
        text.contains("runs: 1000000000 in 1000000000 chunks"),
        "{text}"
    );
    assert!(plan_kib(&text) <= 4, "{text}");
    assert!(text.contains("output: at least "), "{text}");
    // every start of every board up to 10000x10000: 3.3 * 10^11 runs, a chunk each on the large
    // boards, whose journal alone (10 TB) fits no test machine's disk
    let spec = write_spec(tmp.path(), "name = \"g\"\nsizes = \"5..=10000\"\n");
    let text = planned(&spec);
    assert!(text.contains("runs: 333383334970 in "), "{text}");
    // 9996 boards
    assert!(plan_kib(&text) < 1024, "{text}");
    assert!(
        text.contains("does not fit, the sweep would be refused"),
        "{text}"
    );
    sweep_within(1 << 20, &spec, &out, &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("journal lines").and(predicate::str::contains("MiB free")))
        .stderr(predicate::str::contains("plan").not());
    assert!(!out.exists());
}

/// `rotate` always closes its path: with `closed = false` its runs are still judged by the
/// closed-tour theorem, so on 5x5 (no closed tour) none is feasible and all are impossible.
#[test]
fn rotate_feasibility_follows_the_closed_tour_theorem() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        "name = \"r\"\nsizes = [5, 6]\nmethods = [\"rotate\", \"warnsdorff\"]\nclosed = false\n",
    );
    let out = tmp.path().join("o");
    sweep(&spec, &out, &[]).assert().success();
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let rows: Vec<ktour::experiment::SummaryRow> = r.deserialize().map(|x| x.unwrap()).collect();
    let row = |n: u32, method: &str| {
        rows.iter()
            .find(|r| r.rows == n && r.method == method)
            .unwrap()
            .clone()
    };
    let rotate5 = row(5, "rotate");
    assert_eq!(
        (rotate5.runs, rotate5.feasible_runs, rotate5.impossible),
        (25, 0, 25)
    );
    assert_eq!(rotate5.success_rate_feasible, None);
    // pure Warnsdorff looks for open tours: 13 of the 25 starts have the corners' colour
    assert_eq!(row(5, "warnsdorff").feasible_runs, 13);
    assert_eq!(row(6, "rotate").feasible_runs, 36);
}

/// A spec whose only rule applies to none of its boards is refused, not run as an empty success.
#[test]
fn a_spec_without_runs_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        "name = \"t\"\nsizes = [4, 6]\nrules = [\"squirrel\"]\nstarts = [[1, 2]]\n",
    );
    sweep(&spec, &tmp.path().join("out"), &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no runs"));
    assert!(!tmp.path().join("out").exists());
}

/// Threads are bounded, and their stacks count in the memory check: under `ulimit -v`, 1000
/// threads are refused before any starts. (Left to the thread pool, they failed at spawn 38 times
/// in 40, and twice started far enough for std's own thread start-up to abort on its signal stack.)
#[test]
fn threads_are_bounded_and_must_fit_in_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), "name = \"t\"\nsizes = [5]\n");
    let out = tmp.path().join("o");
    sweep(&spec, &out, &["--threads", "1025"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("from 1 to 1024"));
    // 1000 stacks of 2 MiB do not fit in 400 MB of address space
    for _ in 0..5 {
        sweep_within(400_000, &spec, &out, &["--threads", "1000"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("1000 workers"))
            .stderr(predicate::str::contains("use fewer --threads"));
    }
    assert!(!out.exists());
}

/// The arguments of the README's main job (`cargo run --release -- sweep ...`, its first set-up
/// command).
fn readme_main_job() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with("cargo run --release -- sweep"))
        .expect("the README's set-up runs the main job");
    let args: Vec<String> = line
        .split('#')
        .next()
        .unwrap()
        .split_whitespace()
        .skip_while(|&w| w != "--")
        .skip(1)
        .map(str::to_string)
        .collect();
    assert_eq!(args[0], "sweep");
    args
}

/// The README's main job, run in a slice: the built-in default experiment (`results/default/`,
/// 1,073,040 runs) narrowed to a few of its boards gives the committed summary and dead-end rows of
/// those boards, timing aside, and prints no partial cell; and the committed `meta.json` is that of
/// a complete run of the built-in spec, so that the whole job run on a fresh clone, reproducing the
/// summary, keeps it and its `meta.json` as they are (see
/// `forcing_a_run_that_reproduces_the_folder_leaves_its_files_as_they_were`). The boards: the
/// smallest, those of the 64-square kernel and the first past it, the last whose chunks hold whole
/// groups (22) and the first whose groups are split over chunks (23), and the largest (64).
/// `the_readmes_main_job_leaves_the_committed_results_as_they_are` runs the whole job.
#[test]
fn the_readmes_main_job_reproduces_the_committed_results_in_a_slice() {
    let args = readme_main_job();
    // the job runs the built-in spec, which is `experiments/default.toml`, named here so that the
    // flag narrows it
    assert!(!args.iter().any(|a| a.ends_with(".toml")), "{args:?}");
    let sizes = [5, 6, 7, 8, 9, 22, 23, 64];
    let size_list = sizes.map(|n| n.to_string()).join(",");
    let mut slice: Vec<&str> = args.iter().map(String::as_str).collect();
    slice.extend(["experiments/default.toml", "--sizes", &size_list]);
    let spec =
        ktour::experiment::Spec::from_toml(ktour::experiment::DEFAULT_SPEC, "default").unwrap();
    let table: toml::Table = toml::from_str(ktour::experiment::DEFAULT_SPEC).unwrap();
    let rules: Vec<&str> = table["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let boards = sizes.map(|n| (n, n));
    let printed = crate::support::committed_slice(&slice, "results/default", &boards, &rules);
    let stdout = String::from_utf8(printed.stdout).unwrap();
    assert!(!stdout.contains('*'), "{stdout}");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/default");
    let meta: ktour::experiment::Meta =
        serde_json::from_str(&std::fs::read_to_string(committed.join("meta.json")).unwrap())
            .unwrap();
    assert!(
        meta.spec == spec.file,
        "results/default/meta.json: not the built-in spec"
    );
    assert_eq!((meta.status.as_str(), meta.shard), ("complete", None));
    assert!(!committed.join("runs.csv").exists());
}

/// The README's main job must run on a fresh clone, where `results/default/` already holds the
/// committed results of the same spec, and leave the clone clean: run here with the README's
/// arguments on a copy of the committed folder, it completes, prints no partial cell, and leaves
/// every committed file byte for byte as it was (the run reproduces the committed summary, timing
/// columns aside, so that summary and its `meta.json` stay). The whole default experiment, 1.07 M
/// runs: `the_readmes_main_job_reproduces_the_committed_results_in_a_slice` checks the same in
/// `cargo test`; run this after changing what a sweep computes or writes.
#[test]
#[ignore = "the whole default experiment (1.07 M runs); cargo test -- --ignored the_readmes_main_job"]
fn the_readmes_main_job_leaves_the_committed_results_as_they_are() {
    let args = readme_main_job();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/default");
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("default");
    copy_dir(&committed, &copy);
    let mut c = ktour();
    c.args(&args).arg("--out").arg(&copy).arg("--no-progress");
    c.assert()
        .success()
        .stdout(predicate::str::contains("*").not());
    for e in std::fs::read_dir(&committed).unwrap() {
        let e = e.unwrap();
        // not committed (ignored by git): resume state and the lock, if a sweep ran there
        if [".lock", "chunks.csv"].contains(&&*e.file_name().to_string_lossy()) {
            continue;
        }
        assert!(
            std::fs::read(e.path()).unwrap() == std::fs::read(copy.join(e.file_name())).unwrap(),
            "{} changed",
            e.file_name().to_string_lossy()
        );
    }
}
