//! A committed sweep re-run in a slice: the sweep narrowed by flags to a few of its boards and
//! rules gives exactly the committed `summary.csv` and `deadends.csv` (or, where that was too large
//! to commit, `deadends-by-percent.csv`) rows of those boards and rules, timing columns aside. A
//! run's seed depends on its board, start and trial only, and a sampled start set on its board, so
//! a slice replays the very runs of the whole sweep.

use super::{ktour, rows_without_timing, rows_without_timing_where};
use std::collections::HashSet;
use std::path::Path;
use std::process::Output;

/// Run `ktour ARGS --out TMP --no-progress --threads 2` in the repository's root, where `args`
/// (a sweep and flags) narrow a committed sweep to `boards` and `rules`, and compare its summary
/// and dead ends with those rows of the committed folder `committed` (a path from the root); what
/// the run printed.
pub fn committed_slice(
    args: &[&str],
    committed: &str,
    boards: &[(u32, u32)],
    rules: &[&str],
) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let theirs_dir = root.join(committed);
    assert!(theirs_dir.is_dir(), "{committed}: missing (run its spec?)");
    let tmp = tempfile::tempdir().unwrap();
    let printed = ktour()
        .current_dir(root)
        .args(args)
        .arg("--out")
        .arg(tmp.path())
        .args(["--no-progress", "--threads", "2"])
        .assert()
        .success()
        .get_output()
        .clone();
    let boards: HashSet<String> = boards.iter().map(|(r, c)| format!("{r}x{c}")).collect();
    let keep = |head: &csv::StringRecord, row: &csv::StringRecord| {
        let at = |name: &str| &row[head.iter().position(|h| h == name).unwrap()];
        boards.contains(&format!("{}x{}", at("rows"), at("cols"))) && rules.contains(&at("rule"))
    };
    let ours = rows_without_timing(&tmp.path().join("summary.csv"));
    assert!(!ours.is_empty(), "{committed}: no rows");
    let theirs = rows_without_timing_where(&theirs_dir.join("summary.csv"), keep);
    assert_eq!(
        ours, theirs,
        "{committed}/summary.csv: the slice differs from the committed rows"
    );
    // a sweep whose dead ends are too many to commit keeps them by whole percent of the board
    let binned = theirs_dir.join("deadends-by-percent.csv");
    let ours = rows_without_timing(&tmp.path().join("deadends.csv"));
    if binned.exists() {
        assert_eq!(
            by_percent(&ours),
            rows_without_timing_where(&binned, keep),
            "{committed}/deadends-by-percent.csv: the slice differs from the committed rows"
        );
    } else {
        let theirs = rows_without_timing_where(&theirs_dir.join("deadends.csv"), keep);
        assert_eq!(
            ours, theirs,
            "{committed}/deadends.csv: the slice differs from the committed rows"
        );
    }
    printed
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
