//! A family's shards (`leaper = [...]`) merged member by member into the single run's result, a
//! family shard run again resumed, and the folder a sweep writes named by `sweep --print-out` (what
//! `scripts/slurm-sweep.sh` asks for instead of reading the spec's name itself).

use crate::support::{ktour, same_results, sweep, write_spec};
use predicates::prelude::*;

/// A family of two members that takes about a second.
const FAMILY: &str = r#"
name = "family-test" # the "main" one
sizes = "8..=16"
starts = "all"
leaper = ["zebra", "giraffe"]
rules = ["first", "random"]
methods = ["warnsdorff"]
trials = 2
seed = 5
record = "runs"
"#;

#[test]
fn a_familys_shards_merge_member_by_member_into_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), FAMILY);
    let whole = tmp.path().join("whole");
    sweep(&spec, &whole, &["--threads", "2", "--no-progress"])
        .assert()
        .success();
    let shards: Vec<_> = (1..=2).map(|i| tmp.path().join(format!("s{i}"))).collect();
    for (i, d) in shards.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        sweep(&spec, d, &["--shard", &shard, "--no-progress"])
            .assert()
            .success();
        // a family shard submitted again resumes (its folder holds member folders, no meta.json)
        sweep(&spec, d, &["--shard", &shard, "--no-progress", "--resume"])
            .assert()
            .success();
    }
    let merged = tmp.path().join("merged");
    ktour()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success()
        .stderr(predicate::str::contains("member giraffe: merged 2 folders"))
        .stderr(predicate::str::contains("member zebra: merged 2 folders"));
    for member in ["zebra", "giraffe"] {
        same_results(&whole.join(member), &merged.join(member));
    }
    // a member some shard has not begun merges incomplete, and says so
    std::fs::remove_dir_all(shards[1].join("giraffe")).unwrap();
    ktour()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(tmp.path().join("partial"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("member giraffe: merged 1 folder:"))
        .stderr(predicate::str::contains("member giraffe: warning:"))
        .stderr(predicate::str::contains("member zebra: warning").not());
}

#[test]
fn merge_refuses_a_sweep_beside_a_family_and_folders_where_nothing_ran() {
    let tmp = tempfile::tempdir().unwrap();
    let family = tmp.path().join("family");
    sweep(&write_spec(tmp.path(), FAMILY), &family, &["--no-progress"])
        .assert()
        .success();
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = tmp.path().join("out");
    for (dirs, says) in [
        (
            vec![family.join("zebra"), family.clone()],
            "a family's members",
        ),
        (vec![empty.clone()], "no shard given has run"),
        (vec![tmp.path().join("nowhere")], "is not a folder"),
    ] {
        ktour()
            .arg("merge")
            .args(&dirs)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn print_out_names_the_folder_a_sweep_writes() {
    let tmp = tempfile::tempdir().unwrap();
    // the spec's name line carries a comment with quotes, which a script's sed once took in
    let spec = write_spec(tmp.path(), FAMILY);
    let named = |extra: &[&str]| {
        let out = ktour()
            .current_dir(tmp.path())
            .arg("sweep")
            .arg(&spec)
            .arg("--print-out")
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(named(&[]), "results/family-test\n");
    assert_eq!(named(&["--out", "elsewhere"]), "elsewhere\n");
    // nothing is written
    assert!(!tmp.path().join("results").exists());
}
