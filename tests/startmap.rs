//! Start-square maps and the steering flags of `ktour plot`: the map SVG is parsed and the colour of
//! given squares checked against a small hand-written runs.csv; the CLI refuses what it cannot draw
//! sensibly with one line and exit 2, and says which plots and series it left out.

use crate::support::ktour;
use ktour::render::{read_runs, start_map_svg, start_maps, MapSelection, StartOutcome};
use predicates::prelude::*;
use quick_xml::events::Event;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

const HEADER: &str = "job,rows,cols,rule,method,closed,start_row,start_col,trial,seed,outcome,success,visited,nodes,backtracks,ties,elapsed_ns\n";

/// A 5x5 of pure Warnsdorff `first` with one start of each kind, a 6x6 closed backtracking run of
/// `roth`, and a `random` 5x5 start with two trials that disagree.
fn runs_csv() -> String {
    let mut csv = String::from(HEADER);
    let mut job = 0;
    let mut add = |side: u32,
                   rule: &str,
                   method: &str,
                   closed: bool,
                   at: (u32, u32),
                   outcome: &str,
                   visited: u32| {
        csv.push_str(&format!(
            "{job},{side},{side},{rule},{method},{closed},{},{},0,1,{outcome},{},{visited},{visited},0,0,1000\n",
            at.0,
            at.1,
            outcome == "found"
        ));
        job += 1;
    };
    add(5, "first", "warnsdorff", false, (0, 0), "found", 25);
    add(
        5,
        "first",
        "warnsdorff",
        false,
        (0, 1),
        "no-tour-theorem",
        0,
    );
    add(5, "first", "warnsdorff", false, (2, 2), "dead-end", 24); // 96% of the squares
    add(5, "first", "warnsdorff", false, (1, 2), "dead-end", 3); // 12%
    add(5, "first", "warnsdorff", false, (4, 4), "budget", 10);
    add(6, "roth", "backtrack", true, (0, 0), "found", 36);
    add(6, "roth", "backtrack", true, (5, 5), "not-closed", 36);
    add(5, "random", "warnsdorff", false, (0, 0), "found", 25);
    add(5, "random", "warnsdorff", false, (0, 0), "dead-end", 20);
    csv
}

/// `fill` of every start square's rect, by (map, row, col), and the document's text.
fn squares(svg: &str) -> (HashMap<(usize, u32, u32), String>, String) {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut fills = HashMap::new();
    let mut text = String::new();
    loop {
        match reader.read_event().expect("the map is well-formed XML") {
            Event::Eof => break,
            Event::Empty(e) | Event::Start(e) if e.name().as_ref() == b"rect" => {
                let attrs: HashMap<String, String> = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        (
                            String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                            a.unescape_value().unwrap().into_owned(),
                        )
                    })
                    .collect();
                if let (Some(m), Some(r), Some(c)) = (
                    attrs.get("data-map"),
                    attrs.get("data-row"),
                    attrs.get("data-col"),
                ) {
                    let key = (m.parse().unwrap(), r.parse().unwrap(), c.parse().unwrap());
                    assert!(
                        fills.insert(key, attrs["fill"].clone()).is_none(),
                        "one rect per square"
                    );
                }
            }
            Event::Text(t) => text.push_str(&t.unescape().unwrap()),
            _ => {}
        }
    }
    (fills, text)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn each_start_square_has_the_colour_of_its_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "runs.csv", &runs_csv());
    let runs = read_runs(&path).unwrap();
    let maps = start_maps(&runs, &MapSelection::default()).unwrap();
    assert_eq!(maps.len(), 3, "5x5 first, 6x6 roth closed, 5x5 random");
    let (fills, text) = squares(&start_map_svg(&maps, "t"));
    assert_eq!(fills.len(), 25 + 36 + 25, "every square of every map");
    let fill = |map: usize, row: u32, col: u32| fills[&(map, row, col)].as_str();
    // the colours a reader is told in the legend, written out here so that a changed palette or a
    // square drawn in the wrong place fails
    assert_eq!(fill(0, 0, 0), "#009e73", "open tour: green");
    assert_eq!(fill(0, 0, 1), "#bebebe", "no tour by theorem: grey");
    assert_eq!(fill(0, 2, 2), "#820f0a", "dead end at 96%: darkest red");
    assert_eq!(fill(0, 1, 2), "#fdd0be", "dead end at 12%: palest red");
    assert_eq!(fill(0, 4, 4), "#965ac8", "budget: purple");
    assert_eq!(fill(0, 3, 3), "#ffffff", "not run: white");
    assert_eq!(
        fill(1, 0, 0),
        "#005aa0",
        "closed tour: blue, not the open green"
    );
    assert_eq!(
        fill(1, 5, 5),
        "#820f0a",
        "visited all, not closed: last fifth"
    );
    assert_eq!(fill(2, 0, 0), "#f0be3c", "one of two trials: amber");
    for words in [
        "first (warnsdorff) 5x5: 1/5",
        "roth (backtrack, closed) 6x6: 1/2",
        "closed tour",
        "tour in some trials",
        "dead end, path 80-100% of squares",
        "node budget ran out",
        "no tour (theorem or exhausted)",
    ] {
        assert!(text.contains(words), "{words:?} missing from {text}");
    }
    assert_eq!(maps[0].at(2, 2), StartOutcome::DeadEnd(4));
}

#[cfg(feature = "png")]
#[test]
fn cli_draws_maps_as_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "runs.csv", &runs_csv());
    let out = dir.path().join("map.svg");
    ktour()
        .args(["plot", "--map", "--png", "--size", "5", "--rules", "first"])
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("map.png"));
    let (fills, _) = squares(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(fills.len(), 25, "only the 5x5 of first");
    let png = std::fs::read(dir.path().join("map.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

/// Without the `png` feature a PNG, of a map or of plots, is refused in one line naming the feature,
/// and nothing is written.
#[cfg(not(feature = "png"))]
#[test]
fn without_the_png_feature_a_png_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let runs = write(dir.path(), "runs.csv", &runs_csv());
    let summary = Path::new(FIXTURES).join("summary.csv");
    for (csv, args) in [
        (&runs, &["--map", "-o", "map.png"][..]),
        (&runs, &["--map", "--png", "-o", "map.svg"][..]),
        (&summary, &["-o", "plot.png"][..]),
        (&summary, &["--png", "-o", "plot.svg"][..]),
    ] {
        let out = ktour()
            .current_dir(dir.path())
            .arg("plot")
            .arg(csv)
            .args(args)
            .assert()
            .failure()
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("`png` feature") && err.trim_end().lines().count() == 1,
            "{err}"
        );
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().count() == 1,
        "only runs.csv"
    );
}

#[test]
fn cli_refuses_what_it_cannot_map_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let runs = write(dir.path(), "runs.csv", &runs_csv());
    let mut many = String::from(HEADER);
    for side in 5..=30 {
        many.push_str(&format!(
            "{side},{side},{side},first,warnsdorff,false,0,0,0,1,found,true,1,1,0,0,1\n"
        ));
    }
    let many = write(dir.path(), "many.csv", &many);
    let summary = format!("{FIXTURES}/summary.csv");
    let out = dir.path().join("out.svg");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--map".into(), summary.clone()],
            "not a runs.csv: no column \"start_row\"",
        ),
        (
            vec!["--map".into(), many.display().to_string()],
            "26 maps (boards x rules x methods) are more than 24",
        ),
        (
            vec![
                "--map".into(),
                "--size".into(),
                "9".into(),
                runs.display().to_string(),
            ],
            "no runs match the chosen board, rules and methods; boards in the file: 5x5, 6x6",
        ),
        (
            vec![
                "--map".into(),
                "--rules".into(),
                "roth,frist".into(),
                runs.display().to_string(),
            ],
            "no rule \"frist\" in the file; its rules: first, roth, random",
        ),
        (
            vec!["--methods".into(), "rotate".into(), summary.clone()],
            "no method \"rotate\" in the file; its methods: warnsdorff, backtrack",
        ),
        (
            vec!["--size".into(), "8".into(), summary.clone()],
            "choose the board of a --map",
        ),
        (
            vec![
                "--map".into(),
                write(dir.path(), "header.csv", HEADER)
                    .display()
                    .to_string(),
            ],
            "the file has no runs",
        ),
    ];
    for (args, needle) in cases {
        let assert = ktour()
            .arg("plot")
            .args(&args)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(needle));
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
    assert!(!out.exists());
}

#[test]
fn cli_plot_says_which_plots_and_series_it_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.svg");
    // pure Warnsdorff only: no backtracks to plot
    ktour()
        .args(["plot", &format!("{FIXTURES}/summary.csv")])
        .args([
            "--methods",
            "warnsdorff",
            "--max-series",
            "2",
            "--throughput",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "p-backtracks.svg: no series has any backtracks",
        ))
        .stdout(
            predicate::str::contains("wrote ").and(predicate::str::contains("p-throughput.svg")),
        )
        .stderr(predicate::str::contains(
            "left out by --max-series 2: roth, center",
        ));
    assert!(out.exists());
    assert!(!dir.path().join("p-backtracks.svg").exists());
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("(2 of 4 series)"), "the cut is in the title");
}

/// A sweep on a mask (4x5 with two holes: 18 squares): `failures` counts the board's own squares
/// in its text and its CSV, and the map draws the holes as holes, apart from starts not run, with
/// a legend entry, under the spec's name rather than the CSV's path.
#[test]
fn a_masked_sweep_counts_its_own_squares_and_maps_its_holes() {
    let dir = tempfile::tempdir().unwrap();
    let mask = write(dir.path(), "mask.txt", "#....\n.....\n.....\n....#\n");
    let out = dir.path().join("out");
    ktour()
        .args([
            "sweep",
            "--rules",
            "first",
            "--record",
            "runs",
            "--no-progress",
        ])
        .arg("--mask")
        .arg(&mask)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let text = ktour().arg("failures").arg(&out).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains(" of 18 squares") && !text.contains(" of 20 "),
        "{text}"
    );
    let csv = ktour()
        .args(["failures", "--format", "csv"])
        .arg(&out)
        .output()
        .unwrap();
    let rows: Vec<ktour::experiment::FailureRow> = csv::Reader::from_reader(&csv.stdout[..])
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!rows.is_empty(), "this mask has failing starts for `first`");
    assert!(rows.iter().all(|r| r.squares == 18), "{rows:?}");
    let svg = dir.path().join("map.svg");
    ktour()
        .args(["plot", "--map"])
        .arg(out.join("runs.csv"))
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&svg).unwrap();
    let (fills, text) = squares(&svg);
    let hole = &fills[&(0, 0, 0)];
    assert_eq!(&fills[&(0, 3, 4)], hole);
    assert_ne!(hole, "#ffffff", "a hole is not a start not run");
    assert_eq!(svg.matches("class=\"start hole\"").count(), 2);
    assert!(text.contains("hole: not a square of the board"), "{text}");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("meta.json")).unwrap()).unwrap();
    let name = meta["spec"]["name"].as_str().unwrap();
    assert!(
        text.contains(&format!("start squares by outcome: {name}")),
        "{text}"
    );
    assert!(!text.contains("runs.csv"), "{text}");
}
