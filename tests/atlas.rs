//! The atlas (`results/atlas/`) re-run in slices: each atlas spec, run on a few of its boards and
//! rules, gives exactly the committed `summary.csv` and `deadends.csv` rows of those boards and
//! rules, timing columns aside. A run's seed depends on its board, start and trial only, and a
//! sampled start set on its board, so a slice replays the very runs of the whole sweep.

use assert_cmd::Command;
use std::collections::HashSet;
use std::path::Path;

/// The rows of a CSV file without its timing columns whose board and rule `keep` accepts, in order.
fn rows(path: &Path, keep: &dyn Fn(&str, &str, &str) -> bool) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path)
        .unwrap_or_else(|e| panic!("{}: {e} (run the atlas spec?)", path.display()));
    let headers = r.headers().unwrap().clone();
    let at = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (rows, cols, rule) = (at("rows"), at("cols"), at("rule"));
    let kept: Vec<usize> = (0..headers.len())
        .filter(|&i| !headers[i].starts_with("elapsed"))
        .collect();
    r.records()
        .map(Result::unwrap)
        .filter(|rec| keep(&rec[rows], &rec[cols], &rec[rule]))
        .map(|rec| kept.iter().map(|&i| rec[i].to_string()).collect())
        .collect()
}

/// Run `experiments/atlas-NAME.toml` with `flags` (which narrow its boards and rules) and compare
/// its summary and dead ends with the committed ones of the same boards and rules.
fn slice(name: &str, flags: &[&str], boards: &[(u32, u32)], rules: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed = root.join("results/atlas").join(name);
    let tmp = tempfile::tempdir().unwrap();
    Command::cargo_bin("ktour")
        .unwrap()
        .current_dir(root)
        .args(["sweep", &format!("experiments/atlas-{name}.toml"), "--out"])
        .arg(tmp.path())
        .args(["--no-progress", "--threads", "2"])
        .args(flags)
        .assert()
        .success();
    let boards: HashSet<String> = boards.iter().map(|(r, c)| format!("{r}x{c}")).collect();
    let keep = |r: &str, c: &str, rule: &str| {
        boards.contains(&format!("{r}x{c}")) && rules.contains(&rule)
    };
    for file in ["summary.csv", "deadends.csv"] {
        let ours = rows(&tmp.path().join(file), &|_, _, _| true);
        let theirs = rows(&committed.join(file), &keep);
        assert!(
            !ours.is_empty() || file == "deadends.csv",
            "{name}: no rows"
        );
        assert_eq!(
            ours, theirs,
            "{name}/{file}: the slice differs from the committed rows"
        );
    }
}

#[test]
fn every_start_slice_is_committed() {
    let rules = [
        "first",
        "roth-original",
        "center",
        "pohl+random",
        "gfg",
        "squirrel",
    ];
    slice(
        "every-start",
        &["--sizes", "5,8,13", "--rules", &rules.join(",")],
        &[(5, 5), (8, 8), (13, 13)],
        &rules,
    );
}

#[test]
fn corner_slice_is_committed() {
    let rules = ["roth", "pohl", "random", "squirrel"];
    slice(
        "corner",
        &["--sizes", "5,64,301", "--rules", &rules.join(",")],
        &[(5, 5), (64, 64), (301, 301)],
        &rules,
    );
}

#[test]
fn sampled_slice_is_committed() {
    let rules = ["first", "pohl+random"];
    slice(
        "sampled",
        &["--sizes", "200", "--rules", &rules.join(",")],
        &[(200, 200)],
        &rules,
    );
}

#[test]
fn rectangles_slice_is_committed() {
    let rules = ["roth-original", "first"];
    slice(
        "rectangles",
        &["--boards", "5x6,9x7", "--rules", &rules.join(",")],
        &[(5, 6), (9, 7)],
        &rules,
    );
}

#[test]
fn closed_slice_is_committed() {
    let rules = ["roth", "random", "gfg"];
    slice(
        "closed",
        &["--sizes", "6,10", "--rules", &rules.join(",")],
        &[(6, 6), (10, 10)],
        &rules,
    );
}

#[test]
fn start_maps_slice_is_committed() {
    let rules = ["first", "center"];
    slice(
        "start-maps",
        &[
            "--sizes",
            "8",
            "--rules",
            &rules.join(","),
            "--record",
            "summary",
        ],
        &[(8, 8)],
        &rules,
    );
}
