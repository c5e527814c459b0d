//! The atlas (`results/atlas/`) re-run in slices: each atlas spec, run on a few of its boards and
//! rules, gives exactly the committed `summary.csv` and `deadends.csv` (or, where that is too large
//! to commit, `deadends-by-percent.csv`) rows of those boards and rules, timing columns aside. A run's seed depends on its board, start and trial only, and a
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
    let ours = rows(&tmp.path().join("summary.csv"), &|_, _, _| true);
    assert!(!ours.is_empty(), "{name}: no rows");
    let theirs = rows(&committed.join("summary.csv"), &keep);
    assert_eq!(
        ours, theirs,
        "{name}/summary.csv: the slice differs from the committed rows"
    );
    // a part whose dead ends are too many to commit keeps them by whole percent of the board
    let binned = committed.join("deadends-by-percent.csv");
    let ours = rows(&tmp.path().join("deadends.csv"), &|_, _, _| true);
    if binned.exists() {
        assert_eq!(
            by_percent(&ours),
            rows(&binned, &keep),
            "{name}/deadends-by-percent.csv: the slice differs from the committed rows"
        );
    } else {
        let theirs = rows(&committed.join("deadends.csv"), &keep);
        assert_eq!(
            ours, theirs,
            "{name}/deadends.csv: the slice differs from the committed rows"
        );
    }
}

/// Rows of `deadends.csv` (rows, cols, rule, method, closed, length, count) by whole percent of
/// the board visited, consecutive rows of a group and percent summed: as `scripts/atlas.py` bins.
fn by_percent(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for r in rows {
        let squares: u64 = r[0].parse::<u64>().unwrap() * r[1].parse::<u64>().unwrap();
        let percent = (100 * r[5].parse::<u64>().unwrap() / squares).to_string();
        let count: u64 = r[6].parse().unwrap();
        match out.last_mut() {
            Some(last) if last[..5] == r[..5] && last[5] == percent => {
                last[6] = (last[6].parse::<u64>().unwrap() + count).to_string();
            }
            _ => {
                let mut row = r[..5].to_vec();
                row.extend([percent, count.to_string()]);
                out.push(row);
            }
        }
    }
    out
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

#[test]
fn repair_slice_is_committed() {
    let rules = ["first", "pohl"];
    slice(
        "repair",
        &[
            "--sizes",
            "6,9",
            "--rules",
            &rules.join(","),
            "--record",
            "summary",
        ],
        &[(6, 6), (9, 9)],
        &rules,
    );
}

#[test]
fn edges_slice_is_committed() {
    let rules = ["first", "roth", "gfg"];
    slice(
        "edges",
        &["--sizes", "5,30,101", "--rules", &rules.join(",")],
        &[(5, 5), (30, 30), (101, 101)],
        &rules,
    );
}
