//! The atlas (`results/atlas/`) re-run in slices: each atlas spec, run on a few of its boards and
//! rules, gives exactly the committed `summary.csv` and `deadends.csv` (or, where that is too large
//! to commit, `deadends-by-percent.csv`) rows of those boards and rules, timing columns aside. A run's seed depends on its board, start and trial only, and a
//! sampled start set on its board, so a slice replays the very runs of the whole sweep.

use crate::support::committed_slice;

/// Run `experiments/atlas-NAME.toml` with `flags` (which narrow its boards and rules) and compare
/// its summary and dead ends with the committed ones of the same boards and rules.
fn slice(name: &str, flags: &[&str], boards: &[(u32, u32)], rules: &[&str]) {
    let spec = format!("experiments/atlas-{name}.toml");
    let args: Vec<&str> = ["sweep", &spec]
        .into_iter()
        .chain(flags.iter().copied())
        .collect();
    committed_slice(&args, &format!("results/atlas/{name}"), boards, rules);
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

/// Past 2000, one board a rule kind: it replays the walks the sittings of other machines ran.
#[test]
fn corner_10000_slice_is_committed() {
    let rules = ["first", "squirrel", "roth-halfup"];
    slice(
        "corner-10000",
        &["--sizes", "2050", "--rules", &rules.join(",")],
        &[(2050, 2050)],
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
