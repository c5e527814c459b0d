//! `ktour count --method frontier --shards K --shard I --shared DIR`: shards run as separate
//! processes over a temporary folder, collected with `--collect`, give the count of one process;
//! a shard killed mid-run resumes; other arguments, a missing peer and bad indexes are refused
//! with one line and exit status 2.

use crate::support::ktour_path;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// `ktour count --rows R --cols C [--closed] --method frontier` and `more` arguments.
fn count<S: AsRef<std::ffi::OsStr>>(rows: u32, cols: u32, closed: bool, more: &[S]) -> Command {
    let mut c = Command::new(ktour_path());
    c.args(["count", "--method", "frontier", "--rows"])
        .arg(rows.to_string())
        .arg("--cols")
        .arg(cols.to_string());
    if closed {
        c.arg("--closed");
    }
    c.args(more);
    c
}

fn last_line(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines().last().unwrap_or_default().to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Shard `shard` of `shards` over `dir`, started.
fn start(board: (u32, u32, bool), shards: u32, shard: u32, dir: &Path, more: &[&str]) -> Child {
    let (k, i) = (shards.to_string(), shard.to_string());
    let mut args = vec!["--shards", &k, "--shard", &i, "--shared"];
    let dir = dir.display().to_string();
    args.push(&dir);
    args.extend(more);
    count(board.0, board.1, board.2, &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The count of the shards in `dir`, `--collect`ed.
fn collect(board: (u32, u32, bool), shards: u32, dir: &Path, more: &[&str]) -> Output {
    let k = shards.to_string();
    let dir = dir.display().to_string();
    let mut args = vec!["--shards", &k, "--shared", &dir, "--collect"];
    args.extend(more);
    count(board.0, board.1, board.2, &args).output().unwrap()
}

/// Every shard of `board` run at once as processes, then collected: the count's last line.
fn sharded(board: (u32, u32, bool), shards: u32) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let children: Vec<Child> = (0..shards)
        .map(|i| start(board, shards, i, tmp.path(), &["--wait", "120"]))
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{board:?}: {}", stderr(&out));
    }
    let out = collect(board, shards, tmp.path(), &[]);
    assert!(out.status.success(), "{board:?}: {}", stderr(&out));
    last_line(&out)
}

/// K = 2, 3, 4 shards give the count of one process, on open and closed boards, and on one whose
/// count passes 2^64 (3 x 40 open: the exact pass wraps, prime passes are exchanged too).
#[test]
fn sharded_counts_equal_the_count_of_one_process() {
    for (board, shards) in [
        ((6, 6, false), 2),
        ((6, 6, true), 3),
        ((5, 8, false), 4),
        ((5, 10, true), 2),
        ((3, 40, false), 3),
    ] {
        let one = count::<&str>(board.0, board.1, board.2, &[])
            .output()
            .unwrap();
        assert!(one.status.success());
        let want = last_line(&one);
        assert!(want.parse::<u128>().unwrap_or(u128::MAX) > 0, "{want}");
        assert_eq!(sharded(board, shards), want, "{board:?} on {shards} shards");
    }
}

/// A shard killed (SIGKILL) mid-run and started again resumes from its last marker; the others
/// only waited, and the collected count is the count of one process. Collecting before it has
/// finished is refused.
#[cfg(unix)]
#[test]
fn a_killed_shard_resumes_and_the_count_is_unchanged() {
    let board = (6, 6, false);
    let want = last_line(&count::<&str>(6, 6, false, &[]).output().unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let wait = ["--wait", "120"];
    let first = start(board, 2, 0, tmp.path(), &wait);
    let mut doomed = start(board, 2, 1, tmp.path(), &wait);
    // killed once it has published its states before square 20 of 36
    let marker = tmp.path().join("pass-0/step-20/1.done");
    let began = std::time::Instant::now();
    while !marker.exists() && began.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(doomed.try_wait().unwrap().is_none(), "it finished first");
    doomed.kill().unwrap();
    doomed.wait().unwrap();
    assert!(!tmp.path().join("pass-0/1.result").exists());
    let refused = collect(board, 2, tmp.path(), &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("have not finished"),
        "{}",
        stderr(&refused)
    );
    let again = start(board, 2, 1, tmp.path(), &wait)
        .wait_with_output()
        .unwrap();
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("resumed pass 0 before square"),
        "{}",
        stderr(&again)
    );
    assert!(first.wait_with_output().unwrap().status.success());
    let out = collect(board, 2, tmp.path(), &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["count"], want.as_str());
    assert_eq!(json["shards"], 2);
    // the collected object is the single count's, with the shards' fields besides
    let one = count(board.0, board.1, board.2, &["--format", "json"])
        .output()
        .unwrap();
    let one: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let mut besides = keys(&one);
    besides.extend(["shards".to_string(), "written_bytes".to_string()]);
    besides.sort();
    assert_eq!(keys(&json), besides);
    for same in [
        "rows", "cols", "closed", "directed", "method", "count", "passes",
    ] {
        assert_eq!(json[same], one[same], "{same}");
    }
}

/// A shard whose peer never comes gives up after --wait with one line and exit status 2, and run
/// again with its peer, finishes; a shard given other arguments than the folder's count, an index
/// past the shards and a method other than the frontier are refused with one line, exit status 2.
#[test]
fn missing_peers_time_out_and_other_arguments_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let board = (5, 6, true);
    let alone = start(board, 2, 0, tmp.path(), &["--wait", "1"])
        .wait_with_output()
        .unwrap();
    assert_eq!(alone.status.code(), Some(2));
    let line = stderr(&alone);
    let last = line.lines().last().unwrap();
    assert!(
        last.starts_with("error: waited 1 s (--wait) for shard(s) 1"),
        "{line}"
    );
    let refused = |out: Output, words: &str| {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let text = stderr(&out);
        assert!(text.contains(words) && text.lines().count() == 1, "{text}");
    };
    let dir = tmp.path().display().to_string();
    let other = |more: &[&str]| {
        let mut args = vec!["--shared", &dir, "--wait", "1"];
        args.extend(more);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    refused(
        count(5, 6, false, &other(&["--shards", "2", "--shard", "1"]))
            .output()
            .unwrap(),
        "another count",
    );
    refused(
        count(5, 6, true, &other(&["--shards", "3", "--shard", "1"]))
            .output()
            .unwrap(),
        "another count",
    );
    refused(
        count(5, 6, true, &other(&["--shards", "2", "--shard", "2"]))
            .output()
            .unwrap(),
        "is not below --shards",
    );
    refused(
        count(5, 6, true, &other(&["--shards", "2"]))
            .output()
            .unwrap(),
        "--shard I",
    );
    let mut search = Command::new(ktour_path());
    search.args([
        "count", "--rows", "5", "--cols", "6", "--shards", "2", "--shard", "1",
    ]);
    refused(
        search.args(other(&[])).output().unwrap(),
        "--method frontier",
    );
    // both shards now: the first resumes from what it published before it gave up
    let children: Vec<Child> = (0..2)
        .map(|i| start(board, 2, i, tmp.path(), &[]))
        .collect();
    for child in children {
        assert!(child.wait_with_output().unwrap().status.success());
    }
    let want = last_line(&count::<&str>(5, 6, true, &[]).output().unwrap());
    assert_eq!(last_line(&collect(board, 2, tmp.path(), &[])), want);
}

/// `--collect --wait S` started before the shards waits for the folder and the shards, then
/// prints their count; with a short wait on an unfinished folder it names the shards missing,
/// exit status 2.
#[test]
fn a_collector_waits_for_the_shards() {
    let board = (6, 6, true);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("shared");
    let shared = dir.display().to_string();
    let collector = count(
        6,
        6,
        true,
        &["--shards", "2", "--shared", &shared, "--collect"],
    )
    .args(["--wait", "120"])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // the collector starts first: the folder does not exist yet
    std::thread::sleep(std::time::Duration::from_millis(300));
    let shard0 = start(board, 2, 0, &dir, &["--wait", "120"]);
    let shard1 = start(board, 2, 1, &dir, &["--wait", "120"]);
    for child in [shard0, shard1] {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = collector.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&out), "9862");

    // one shard of two, and nobody to run the other: the first gives up at its first exchange,
    // neither finishes, and the collector gives up after its wait
    let tmp = tempfile::tempdir().unwrap();
    let lone = start(board, 2, 0, tmp.path(), &["--wait", "1"]);
    let lone = lone.wait_with_output().unwrap();
    assert_eq!(lone.status.code(), Some(2), "{}", stderr(&lone));
    let out = collect(board, 2, tmp.path(), &["--wait", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("shard(s) 0, 1 have not finished pass 0"),
        "{err}"
    );
}
