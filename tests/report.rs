//! `ktour report`: the page of a sweep with recorded runs, of a family and of a merged folder, its
//! numbers read back from the page against the CSVs the sweep wrote, the exact values of
//! `results/exact` against their JSON, and bad input refused on one line. The page in a real
//! browser is `scripts/browser-test.sh`'s, run by `.ci/run`.

use crate::support::{ktour, sweep, write_spec};
use predicates::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Two size ranges of the table (5-8, 9-12), two rules and methods, recorded runs: a few seconds.
const SPEC: &str = r#"
name = "report-test"
sizes = "5..=12"
starts = "all"
rules = ["first", "random"]
methods = ["warnsdorff", "backtrack"]
trials = 2
seed = 3
budget = "2*squares"
record = "runs"
"#;

fn swept(tmp: &Path, spec: &str, extra: &[&str]) -> PathBuf {
    let out = tmp.join("out");
    sweep(
        &write_spec(tmp, spec),
        &out,
        &[&["--no-progress"], extra].concat(),
    )
    .assert()
    .success();
    out
}

fn report(dir: &Path, page: &Path) -> String {
    ktour()
        .arg("report")
        .arg(dir)
        .arg("-o")
        .arg(page)
        .arg("--no-exact")
        .assert()
        .success()
        .stdout(predicate::str::contains("wrote"));
    std::fs::read_to_string(page).unwrap()
}

/// The numbers `attr` carries in each `<td>` of the success table, per row label.
fn grid_cells(page: &str) -> BTreeMap<String, Vec<(u64, u64)>> {
    let start = page
        .find("<table class=\"grid\">")
        .expect("a success table");
    let table = &page[start..start + page[start..].find("</table>").unwrap()];
    let attr = |cell: &str, name: &str| -> u64 {
        let at = cell.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        cell[at..at + cell[at..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    let mut out = BTreeMap::new();
    for row in table.split("<tr>").skip(2) {
        let label = row
            .split("<td class=\"l\">")
            .nth(1)
            .and_then(|s| s.split("</td>").next())
            .unwrap()
            .to_string();
        let cells = row
            .split("<td")
            .filter(|c| c.contains("data-successes"))
            .map(|c| (attr(c, "data-successes"), attr(c, "data-feasible")))
            .collect();
        out.insert(label, cells);
    }
    out
}

/// `summary.csv`'s successes and feasible runs per "method rule", per range of the larger side
/// (the printed table's: up to 8, 9-16, ...).
fn summary_cells(dir: &Path) -> BTreeMap<String, Vec<(u64, u64)>> {
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let (rows, cols, rule, method) = (col("rows"), col("cols"), col("rule"), col("method"));
    let (ok, feasible) = (col("successes"), col("feasible_runs"));
    let mut per: BTreeMap<String, BTreeMap<u32, (u64, u64)>> = BTreeMap::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let side: u32 = rec[rows]
            .parse::<u32>()
            .unwrap()
            .max(rec[cols].parse().unwrap());
        let range = if side <= 8 { 0 } else { (side - 1).ilog2() - 2 };
        let c = per
            .entry(format!("{} {}", &rec[method], &rec[rule]))
            .or_default()
            .entry(range)
            .or_default();
        c.0 += rec[ok].parse::<u64>().unwrap();
        c.1 += rec[feasible].parse::<u64>().unwrap();
    }
    per.into_iter()
        .map(|(k, v)| (k, v.into_values().collect()))
        .collect()
}

#[test]
fn a_sweeps_page_shows_the_summarys_numbers_plots_dead_ends_and_maps() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = swept(tmp.path(), SPEC, &[]);
    let page = report(&dir, &tmp.path().join("page.html"));
    assert_eq!(grid_cells(&page), summary_cells(&dir));
    assert!(
        page.contains("<th>5-8</th><th>9-12</th>"),
        "the printed table's columns"
    );
    for kind in ["success", "backtracks", "deadends", "startmap"] {
        assert!(
            page.contains(&format!("<figure data-figure=\"{kind}\">")),
            "no {kind} figure"
        );
    }
    let figures = page.matches("<figure data-figure=").count();
    assert!(page.contains(&format!("data-figures=\"{figures}\"")));
    // the dead-end bars add up to deadends.csv's counts, per rule
    let mut per_rule: BTreeMap<String, u64> = BTreeMap::new();
    let mut r = csv::Reader::from_path(dir.join("deadends.csv")).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        *per_rule.entry(rec[2].to_string()).or_default() += rec[6].parse::<u64>().unwrap();
    }
    assert!(!per_rule.is_empty());
    for (rule, n) in per_rule {
        let bars: u64 = page
            .split("class=\"bin\" ")
            .skip(1)
            .filter(|b| b.starts_with(&format!("data-rule=\"{rule}\"")))
            .map(|b| {
                let at = b.find("data-count=\"").unwrap() + 12;
                b[at..at + b[at..].find('"').unwrap()]
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
        assert_eq!(bars, n, "{rule}");
    }
    // the failed runs counted are runs.csv's failures from starts where a tour exists
    let mut r = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let (s, o) = (
        h.iter().position(|x| x == "success").unwrap(),
        h.iter().position(|x| x == "outcome").unwrap(),
    );
    let failed = r
        .records()
        .map(Result::unwrap)
        .filter(|rec| &rec[s] == "false" && !rec[o].starts_with("no-tour"))
        .count();
    assert!(failed > 0);
    assert!(
        page.contains(&format!("<summary>{failed} failed runs")),
        "{failed}"
    );
    // the provenance and the spec
    assert!(
        page.contains("name = &quot;report-test&quot;"),
        "the spec, escaped"
    );
    assert!(page.contains("every group counted all its runs"));
    assert!(
        !page.contains("src=\"http") && !page.contains("href=\"http"),
        "nothing fetched"
    );
}

#[test]
fn a_family_has_a_section_a_member_and_a_merge_names_its_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let family = format!("{SPEC}\nleaper = [\"zebra\", \"giraffe\"]\n")
        .replace("5..=12", "8..=10")
        .replace(r#"["warnsdorff", "backtrack"]"#, r#"["warnsdorff"]"#);
    let dir = swept(tmp.path(), &family, &[]);
    let page = report(&dir, &tmp.path().join("family.html"));
    for m in ["giraffe", "zebra"] {
        assert!(page.contains(&format!("<section id=\"{m}\">")), "{m}");
        assert!(page.contains(&format!("<a href=\"#{m}\">")), "{m}");
    }
    // two shards merged: complete, each shard named; a shard alone says it is one
    let spec = write_spec(tmp.path(), SPEC);
    let shards: Vec<PathBuf> = (1..=2).map(|i| tmp.path().join(format!("s{i}"))).collect();
    for (i, d) in shards.iter().enumerate() {
        sweep(
            &spec,
            d,
            &["--shard", &format!("{}/2", i + 1), "--no-progress"],
        )
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
        .success();
    let page = report(&merged, &tmp.path().join("merged.html"));
    assert!(page.contains("<table class=\"shards\">"));
    assert!(page.contains(">1/2<") && page.contains(">2/2<"));
    assert!(page.contains("every group counted all its runs"));
    let page = report(&shards[0], &tmp.path().join("shard.html"));
    assert!(page.contains("shard 1/2: part of the sweep"));
    assert!(!page.contains("every group counted all its runs"));
    // a group that did not count every run (as after an interrupt) is named and its cell marked
    let summary = merged.join("summary.csv");
    let text = std::fs::read_to_string(&summary).unwrap();
    let (head, rows) = text.split_once('\n').unwrap();
    let (first, rest) = rows.split_once('\n').unwrap();
    let first = first
        .strip_suffix(",true")
        .expect("complete is the last column");
    std::fs::write(&summary, format!("{head}\n{first},false\n{rest}")).unwrap();
    let page = report(&merged, &tmp.path().join("partial.html"));
    assert!(page.contains("class=\"warn\">Partial: 1 group did not count every run"));
    assert_eq!(page.matches("<td class=\"partial\"").count(), 1);
}

/// Where `results/exact` has a value for a board and rule of the default sweep, the page shows it,
/// as the JSON has it scaled to feasible runs (5x5: 25 starts, 13 of the corners' colour).
#[test]
fn the_default_sweeps_page_shows_the_exact_values_of_results_exact() {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("default.html");
    ktour()
        .args([
            "report",
            "results/default",
            "--exact",
            "results/exact",
            "-o",
        ])
        .arg(&page)
        .assert()
        .success();
    let page = std::fs::read_to_string(page).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("results/exact/5x5-random.json").unwrap())
            .unwrap();
    let p = json["success_decimal"].as_f64().unwrap();
    let row = page
        .split("<tr ")
        .find(|r| r.contains("<td class=\"l\">5x5</td><td class=\"l\">random</td>"))
        .expect("5x5 random against its exact value");
    let at = row.find("data-exact=\"").unwrap() + 12;
    let shown: f64 = row[at..at + row[at..].find('"').unwrap()].parse().unwrap();
    assert!((shown - p * 25.0 / 13.0).abs() < 1e-12, "{shown} vs {p}");
    assert!(page.contains("<h3>Sampled against exact</h3>"));
    // without exact values, none
    let bare = report(Path::new("results/default"), &tmp.path().join("bare.html"));
    assert!(!bare.contains("data-exact"));
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let tmp = tempfile::tempdir().unwrap();
    let one_line = |says: &'static str| {
        predicate::str::contains(says).and(predicate::function(|e: &str| e.lines().count() == 1))
    };
    ktour()
        .args(["report"])
        .arg(tmp.path().join("nowhere"))
        .assert()
        .code(2)
        .stderr(one_line("no such folder"));
    ktour()
        .arg("report")
        .arg(tmp.path())
        .assert()
        .code(2)
        .stderr(one_line("not a sweep folder"));
    let dir = tmp.path().join("bad");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("summary.csv"), "rows,cols\n5,x\n").unwrap();
    ktour()
        .arg("report")
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(one_line("summary.csv"));
    // a damaged runs.csv is named
    let out = swept(tmp.path(), SPEC, &[]);
    std::fs::write(out.join("runs.csv"), "job,rows\n1,x\n").unwrap();
    ktour()
        .arg("report")
        .arg(&out)
        .arg("--no-exact")
        .assert()
        .code(2)
        .stderr(one_line("runs.csv"));
}

/// The pages committed beside the results are what `ktour report` writes of them now: a change to the
/// page or to a folder's CSVs that leaves its page stale fails here (the atlas's page is rebuilt with
/// each sitting of its part-done part, `results/atlas/README.md`).
#[test]
fn the_committed_pages_are_current() {
    let tmp = tempfile::tempdir().unwrap();
    for folder in ["results/default", "results/leapers"] {
        let page = tmp.path().join("page.html");
        ktour()
            .args(["report", folder, "-o"])
            .arg(&page)
            .assert()
            .success();
        let committed = std::fs::read(format!("{folder}/report.html")).unwrap();
        assert!(
            std::fs::read(&page).unwrap() == committed,
            "{folder}/report.html is stale: run `ktour report {folder}` again"
        );
    }
}
