//! Restarts, closed pure Warnsdorff and the rule algebra end to end through the binary: a sweep with
//! attempts records each run's attempt and the group's mean, and replaying a run with `solve` gives
//! the same attempts; methods refuse rules they cannot honour.

use crate::support::ktour;
use predicates::prelude::*;

fn read(path: &std::path::Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let mut rows = vec![r.headers().unwrap().clone()];
    rows.extend(r.records().map(Result::unwrap));
    rows
}

fn column<'a>(rows: &'a [csv::StringRecord], row: usize, name: &str) -> &'a str {
    let i = rows[0]
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("{name}"));
    &rows[row][i]
}

/// `gfg` restarted until the walk closes, from every start of 6x6: runs record the attempt that
/// succeeded, the summary their mean, and `solve` with a run's seed and the limit replays it.
#[test]
fn restarts_are_recorded_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    ktour()
        .args([
            "sweep",
            "--sizes",
            "6",
            "--rules",
            "gfg",
            "--closed",
            "--attempts",
            "200",
        ])
        .args(["--record", "runs", "--seed", "5", "--no-progress", "--out"])
        .arg(&out)
        .assert()
        .success();
    let runs = read(&out.join("runs.csv"));
    let summary = read(&out.join("summary.csv"));
    let attempts: Vec<u32> = (1..runs.len())
        .map(|i| column(&runs, i, "attempt").parse().unwrap())
        .collect();
    assert_eq!(attempts.len(), 36);
    // pure Warnsdorff rarely closes at the first try on 6x6; a run that never closed used them all
    // (from the corners of 6x6 it never closes)
    assert!(attempts.iter().any(|&a| a > 1), "{attempts:?}");
    for (i, &a) in (1..runs.len()).zip(&attempts) {
        let found = column(&runs, i, "outcome") == "found";
        assert!(found || a == 200, "row {i}: {a} attempts");
    }
    let found = (1..runs.len())
        .filter(|&i| column(&runs, i, "outcome") == "found")
        .count();
    assert!(found > 20, "{found}");
    let mean: f64 = column(&summary, 1, "attempts_mean").parse().unwrap();
    let want = attempts.iter().sum::<u32>() as f64 / 36.0;
    assert!((mean - want).abs() < 1e-9, "{mean} {want}");
    // a run replays alone: the same attempt closes the same tour
    for i in (1..runs.len())
        .filter(|&i| column(&runs, i, "outcome") == "found")
        .take(6)
    {
        let (r, c) = (column(&runs, i, "start_row"), column(&runs, i, "start_col"));
        let seed = column(&runs, i, "seed");
        let attempt = column(&runs, i, "attempt");
        ktour()
            .args([
                "solve",
                "--size",
                "6",
                "--method",
                "warnsdorff",
                "--closed",
                "--rule",
                "gfg",
            ])
            .args([
                "--attempts",
                "200",
                "--seed",
                seed,
                "--start",
                &format!("{r},{c}"),
            ])
            .args(["--format", "json"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "found a closed tour at attempt {attempt} of at most 200"
            )));
    }
}

/// Pure Warnsdorff asked for a closed tour says when its walk does not close, and the summary counts
/// such walks apart from dead ends.
#[test]
fn closed_pure_warnsdorff_is_honest() {
    ktour()
        .args(["solve", "--size", "8", "--method", "warnsdorff", "--closed"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "found an open tour that does not close",
        ));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    ktour()
        .args([
            "sweep",
            "--sizes",
            "8",
            "--closed",
            "--no-progress",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let summary = read(&out.join("summary.csv"));
    let n = |name| column(&summary, 1, name).parse::<u64>().unwrap();
    assert_eq!(n("successes") + n("dead_ends") + n("not_closed"), 64);
    assert!(n("not_closed") > 0 && n("successes") > 0);
}

/// A method refuses what it cannot honour, with one line and exit 2.
#[test]
fn methods_refuse_rules_they_cannot_honour() {
    for args in [
        &[
            "solve", "--size", "8", "--method", "naive", "--rule", "pohl",
        ][..],
        &[
            "solve",
            "--size",
            "8",
            "--method",
            "construct",
            "--rule",
            "roth",
        ],
        &[
            "solve",
            "--size",
            "8",
            "--method",
            "backtrack",
            "--start-last",
        ],
        &[
            "solve",
            "--size",
            "8",
            "--method",
            "warnsdorff",
            "--no-prune",
        ],
        &["solve", "--size", "8", "--rule", "pohl+pohl"],
        &["solve", "--size", "8", "--rule", "order:(1,2)(1,3)"],
        &[
            "sweep",
            "--sizes",
            "8",
            "--methods",
            "naive",
            "--rules",
            "random",
            "--dry-run",
        ],
        &["sweep", "--sizes", "8", "--start-last", "--dry-run"],
    ] {
        ktour()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("panicked").not())
            .stderr(predicate::function(|e: &str| e.trim().lines().count() == 1));
    }
}

/// `naive` searches in the rule's order: a textbook's move list as offsets gives that program's node
/// count (the plain recursive C program in experiments/textbook-dfs.c prints 24,105,743 for it).
#[test]
fn naive_honours_a_textbook_move_list() {
    ktour()
        .args([
            "solve", "--size", "8", "--start", "0,1", "--method", "naive", "--budget", "0",
        ])
        .args([
            "--rule",
            "order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "(naive / order:36274518): 24105743 nodes",
        ));
}
