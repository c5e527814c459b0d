//! Pictures: tour SVGs parse as XML and carry one path point per square, failed runs show their dead end
//! and stranded squares, plots are produced from a small summary CSV, and the CLI turns bad input into
//! a one-line error (exit 2).

use crate::support::ktour;
use ktour::board::{Board, Square};
use ktour::render::{
    analyse_failed, read_summary, tour_svg, tour_svg_with, write_plots, Metric, Numbers,
    PlotOptions, Skip, SvgOptions,
};
use ktour::tour::TourRecord;
use predicates::prelude::*;
use quick_xml::events::Event;
use std::collections::HashMap;
use std::path::Path;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> TourRecord {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every element as (name, attributes), in document order; panics if the XML is malformed.
fn elements(svg: &str) -> Vec<(String, HashMap<String, String>)> {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut out = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) => {
                let name = String::from_utf8(e.name().as_ref().to_vec()).unwrap();
                let attrs = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        (
                            String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                            a.unescape_value().unwrap().into_owned(),
                        )
                    })
                    .collect();
                out.push((name, attrs));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

fn with_class<'a>(
    els: &'a [(String, HashMap<String, String>)],
    class: &str,
) -> Vec<&'a HashMap<String, String>> {
    els.iter()
        .filter(|(_, a)| a.get("class").map(String::as_str) == Some(class))
        .map(|(_, a)| a)
        .collect()
}

/// The points of a path made of `M x y` and `l dx dy ...` only.
fn path_points(d: &str) -> usize {
    let mut numbers = 0;
    let mut in_number = false;
    for ch in d.chars() {
        match ch {
            '0'..='9' | '.' => {
                if !in_number {
                    numbers += 1;
                    in_number = true;
                }
            }
            '-' => {
                numbers += 1;
                in_number = true;
            }
            'M' | 'l' | ' ' => in_number = false,
            other => panic!("unexpected {other:?} in a tour path"),
        }
    }
    assert_eq!(numbers % 2, 0, "odd number count in {d}");
    numbers / 2
}

#[test]
fn open_tour_svg_has_one_point_per_square_and_marks_both_ends() {
    let rec = fixture("tour-8x8.json");
    let svg = tour_svg(&rec).unwrap();
    let els = elements(&svg);
    let tour = with_class(&els, "tour");
    assert_eq!(tour.len(), 1);
    assert_eq!(path_points(&tour[0]["d"]), 64);
    assert!(
        tour[0]["d"].starts_with("M0 0l2 1"),
        "starts at (0,0), then (1,2)"
    );
    assert_eq!(with_class(&els, "start").len(), 1);
    assert_eq!(with_class(&els, "end").len(), 1);
    assert!(with_class(&els, "closing").is_empty());
    // Visit numbers on a small board: 64 texts inside the numbers group.
    assert_eq!(with_class(&els, "numbers").len(), 1);
    assert!(svg.contains(">64</text>"));
}

#[test]
fn closed_tour_svg_draws_the_closing_edge() {
    let rec = fixture("closed-6x6.json");
    assert!(rec.closed);
    let els = elements(&tour_svg(&rec).unwrap());
    assert_eq!(path_points(&with_class(&els, "tour")[0]["d"]), 36);
    let closing = with_class(&els, "closing");
    assert_eq!(closing.len(), 1);
    let last = rec.squares[35];
    assert_eq!(closing[0]["x1"], last.col().to_string());
    assert_eq!(closing[0]["y1"], last.row().to_string());
    assert_eq!(
        (closing[0]["x2"].as_str(), closing[0]["y2"].as_str()),
        ("0", "0")
    );
}

#[test]
fn failed_run_shows_dead_end_unvisited_and_candidate_degrees() {
    // Squirrel & Cull 1996 p.113: 5x5 from (0,2) with order:36875124 dead-ends after 17 squares.
    let rec = fixture("failed-5x5.json");
    assert!(!rec.found);
    assert_eq!(rec.squares.len(), 17);
    let svg = tour_svg(&rec).unwrap();
    let els = elements(&svg);
    assert_eq!(path_points(&with_class(&els, "tour")[0]["d"]), 17);
    assert_eq!(with_class(&els, "dead-end").len(), 1);
    assert_eq!(with_class(&els, "unvisited").len(), 1);
    assert!(with_class(&els, "end").is_empty());
    // The last five squares: four choices and the dead end; the move into (4,0) took a degree-0 square.
    assert!(svg.contains("#16 (3,2): candidates (2,4) d2, (4,0) d0, (1,1) d2 -&gt; took (4,0)"));
    assert!(svg.contains("#17 (4,0): no free neighbour: dead end"));
    assert_eq!(with_class(&els, "degree").len(), 1 + 3 + 1 + 3);
}

#[test]
fn stranded_squares_are_highlighted() {
    // (1,2) and (2,1) are the only knight neighbours of the corner (0,0): visiting both strands it.
    let b = Board::square(5).unwrap();
    let path = vec![Square::new(1, 2), Square::new(3, 3), Square::new(2, 1)];
    let a = analyse_failed(b, &path, 5).unwrap();
    let corner = a.stranded.iter().find(|s| s.square == Square::new(0, 0));
    assert_eq!(corner.map(|s| s.since), Some(Some(3)));
    let rec = TourRecord {
        rows: 5,
        cols: 5,
        closed: false,
        start: Some(path[0]),
        squares: path,
        found: false,
        method: "warnsdorff".into(),
        rule: "first".into(),
        stats: Default::default(),
        leaper: None,
        holes: Vec::new(),
    };
    let svg = tour_svg(&rec).unwrap();
    let stranded = with_class(&elements(&svg), "stranded")
        .first()
        .map(|a| a["d"].clone())
        .expect("a stranded highlight");
    assert!(stranded.contains("M0 0h1v1h-1z"), "{stranded}");
    assert!(svg.contains("(0,0) since #3"));
}

#[test]
fn large_boards_stay_compact_without_per_square_text() {
    // A 300x300 serpentine (not a knight path; the picture does not care): 90,000 points.
    let n = 300u16;
    let squares: Vec<Square> = (0..n)
        .flat_map(|r| (0..n).map(move |c| Square::new(r, if r % 2 == 0 { c } else { n - 1 - c })))
        .collect();
    let rec = TourRecord {
        rows: n as u32,
        cols: n as u32,
        closed: false,
        start: None,
        squares,
        found: true,
        method: String::new(),
        rule: String::new(),
        stats: Default::default(),
        leaper: None,
        holes: Vec::new(),
    };
    let svg = tour_svg(&rec).unwrap();
    assert!(svg.len() < 90_000 * 5 + 10_000, "{} bytes", svg.len());
    let els = elements(&svg);
    assert_eq!(path_points(&with_class(&els, "tour")[0]["d"]), 90_000);
    assert!(with_class(&els, "numbers").is_empty());
    assert!(els.iter().all(|(name, _)| name != "pattern"));
    // Numbers can still be forced.
    let small = TourRecord {
        squares: rec.squares[..5].to_vec(),
        ..rec.clone()
    };
    let opts = SvgOptions {
        numbers: Numbers::Always,
        ..SvgOptions::default()
    };
    assert!(tour_svg_with(&small, &opts).unwrap().contains(">5</text>"));
}

#[test]
fn bad_records_are_errors_not_panics() {
    let mut rec = fixture("tour-8x8.json");
    rec.squares[10] = Square::new(8, 0);
    let err = tour_svg(&rec).unwrap_err().to_string();
    assert!(err.contains("off the 8x8 board"), "{err}");
    rec.squares.clear();
    assert!(tour_svg(&rec).is_err());
    rec.rows = 0;
    assert!(tour_svg(&rec).is_err());
}

#[cfg(feature = "png")]
#[test]
fn plots_are_written_as_svg_and_png_from_the_fixture_summary() {
    let dir = tempfile::tempdir().unwrap();
    let summary = read_summary(&Path::new(FIXTURES).join("summary.csv"), None).unwrap();
    assert_eq!(
        summary.title, "example-fixture-not-real-data",
        "from meta.json"
    );
    let mut opts = PlotOptions::new(dir.path().join("plot.svg"));
    opts.png = true;
    opts.throughput = true;
    let written = write_plots(&summary, &opts).unwrap().written;
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "plot.svg",
            "plot.png",
            "plot-backtracks.svg",
            "plot-backtracks.png",
            "plot-throughput.svg",
            "plot-throughput.png"
        ]
    );
    for p in &written {
        let bytes = std::fs::read(p).unwrap();
        if p.extension().unwrap() == "png" {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
            assert!(bytes.len() > 10_000, "{} is nearly empty", p.display());
        } else {
            let svg = String::from_utf8(bytes).unwrap();
            elements(&svg);
            assert!(svg.contains("example-fixture-not-real-data"));
            assert!(svg.contains("board side n"));
        }
    }
    let success = std::fs::read_to_string(&written[0]).unwrap();
    for rule in [
        "first (warnsdorff)",
        "pohl (warnsdorff)",
        "roth (warnsdorff)",
    ] {
        assert!(success.contains(rule), "legend entry {rule}");
    }
    // One metric, PNG only, with a title from the flag.
    let summary = read_summary(&Path::new(FIXTURES).join("summary.csv"), Some("T")).unwrap();
    let mut opts = PlotOptions::new(dir.path().join("bt.png"));
    opts.metric = Some(Metric::Backtracks);
    assert_eq!(write_plots(&summary, &opts).unwrap().written.len(), 1);
    assert!(dir.path().join("bt.png").exists());
}

#[test]
fn cli_render_plot_and_animate_write_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("t.svg");
    ktour()
        .args(["render", &format!("{FIXTURES}/failed-5x5.json"), "-o"])
        .arg(&svg)
        .assert()
        .success()
        .stdout(format!("wrote {}\n", svg.display()));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("dead-end"));
    ktour()
        .args([
            "plot",
            &format!("{FIXTURES}/summary.csv"),
            "--title",
            "x",
            "-o",
        ])
        .arg(dir.path().join("p.svg"))
        .assert()
        .success()
        .stdout(predicate::str::contains("p-backtracks.svg"))
        .stdout(predicate::str::contains("throughput").not());
    assert!(
        !dir.path().join("p-throughput.svg").exists(),
        "not asked for"
    );
    // asked for, the throughput is written beside the plot
    ktour()
        .args(["plot", &format!("{FIXTURES}/summary.csv"), "--throughput"])
        .arg("-o")
        .arg(dir.path().join("q.svg"))
        .assert()
        .success()
        .stdout(predicate::str::contains("q-throughput.svg"));
    assert!(dir.path().join("q-throughput.svg").exists());
    let html = dir.path().join("run.html");
    ktour()
        .args([
            "animate",
            "--size",
            "5",
            "--start",
            "0,2",
            "--rule",
            "order:36875124",
        ])
        .args(["--method", "backtrack", "-o"])
        .arg(&html)
        .assert()
        .success()
        .stdout(predicate::str::contains("tour found"));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(r#"<script id="data" type="application/json">"#));
    assert!(!page.contains("<script src"), "self-contained");
    // a run that finds no tour is still drawn, and exits 1 as `solve` does for it
    let failed = dir.path().join("failed.html");
    ktour()
        .args(["animate", "--size", "6", "--closed", "-o"])
        .arg(&failed)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("not a knight move apart"));
    assert!(failed.exists());
}

/// `render` reads what `verify` reads: `r,c` lines (with the board size) and the binary format too. A
/// complete tour is drawn as one, a path that stops short as a failed run, anything else is refused.
#[test]
fn cli_render_reads_lines_and_binary_tours() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    ktour()
        .args(["solve", "-n", "6", "--format", "moves", "-o"])
        .arg(path("t.txt"))
        .assert()
        .success();
    ktour()
        .args(["solve", "-n", "6", "--format", "bin", "-o"])
        .arg(path("t.bin"))
        .assert()
        .success();
    ktour()
        .args(["solve", "-n", "6", "--format", "json", "-o"])
        .arg(path("t.json"))
        .assert()
        .success();
    let render = |input: &str, extra: &[&str], out: &str| {
        ktour()
            .arg("render")
            .arg(path(input))
            .args(extra)
            .arg("-o")
            .arg(path(out))
            .assert()
    };
    render("t.txt", &["-n", "6"], "lines.svg").success();
    render("t.bin", &[], "bin.svg").success();
    render("t.json", &[], "json.svg").success();
    let svg = |name: &str| std::fs::read_to_string(path(name)).unwrap();
    // the same tour, whatever the format it came in
    assert_eq!(svg("lines.svg"), svg("bin.svg"));
    assert!(!svg("lines.svg").contains("dead-end"));
    // the first three squares only: a failed run
    let short: String = first_lines(&std::fs::read_to_string(path("t.txt")).unwrap(), 3);
    std::fs::write(path("short.txt"), short).unwrap();
    render("short.txt", &["-n", "6"], "short.svg").success();
    assert!(svg("short.svg").contains("dead-end"));
    // lines need the board; a jump that is not a knight move is refused
    render("t.txt", &[], "x.svg")
        .code(2)
        .stderr(predicate::str::contains("board size"));
    std::fs::write(path("jump.txt"), "0,0\n2,2\n").unwrap();
    render("jump.txt", &["-n", "6"], "x.svg")
        .code(2)
        .stderr(predicate::str::contains("not a knight move"));
}

/// A JSON record is drawn under the title it gives itself, so it is checked like any other tour
/// file: a jump or a repeat is refused, as is a record that says `found` (or closed) without holding
/// such a tour, or a board size other than the one given. Failed runs still draw.
#[test]
fn cli_render_checks_json_records() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let render = |input: &Path, extra: &[&str]| {
        ktour()
            .arg("render")
            .arg(input)
            .args(extra)
            .arg("-o")
            .arg(dir.path().join("x.svg"))
            .assert()
    };
    let cases = [
        (
            r#"{"rows":5,"cols":5,"squares":[[0,0],[1,1]]}"#,
            "not a knight move",
        ),
        (
            r#"{"rows":5,"cols":5,"squares":[[0,0],[1,2],[0,0]],"found":false}"#,
            "already visited",
        ),
        (
            r#"{"rows":5,"cols":5,"squares":[[0,0],[1,2],[2,4]],"found":true}"#,
            "found: true",
        ),
        (r#"{"rows":5,"cols":5,"squares":[]}"#, "no squares"),
    ];
    for (i, (json, message)) in cases.iter().enumerate() {
        render(&write(&format!("{i}.json"), json), &[])
            .code(2)
            .stderr(predicate::str::contains(*message));
    }
    // an open tour claimed closed
    let out = ktour()
        .args(["solve", "-n", "5", "--format", "json"])
        .output()
        .unwrap();
    let open = String::from_utf8(out.stdout).unwrap();
    assert!(open.contains(r#""closed":false"#), "{open}");
    render(&write("open.json", &open), &[]).success();
    render(
        &write(
            "claim.json",
            &open.replace(r#""closed":false"#, r#""closed":true"#),
        ),
        &[],
    )
    .code(2)
    .stderr(predicate::str::contains("says closed"));
    render(&dir.path().join("open.json"), &["-n", "6"])
        .code(2)
        .stderr(predicate::str::contains("5x5 board but 6x6"));
    // a failed run (a dead end) is drawn as one
    let out = ktour()
        .args([
            "solve",
            "-n",
            "5",
            "--start",
            "0,2",
            "--method",
            "warnsdorff",
        ])
        .args(["--rule", "order:36875124", "--format", "json"])
        .output()
        .unwrap();
    render(
        &write("failed.json", &String::from_utf8(out.stdout).unwrap()),
        &[],
    )
    .success();
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

#[test]
fn cli_bad_input_is_a_one_line_error_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let out = dir.path().join("out.svg");
    let cases: Vec<(Vec<std::ffi::OsString>, &str)> = vec![
        (
            vec!["render".into(), dir.path().join("missing.json").into()],
            "reading",
        ),
        (
            vec!["render".into(), write("bad.json", "{\"rows\": 5").into()],
            "malformed tour JSON",
        ),
        (
            vec!["plot".into(), write("empty.csv", "rows,cols,rule\n").into()],
            "no rows",
        ),
        (
            vec![
                "plot".into(),
                write("bad.csv", "rows,cols,rule\n5,x,first\n").into(),
            ],
            "bad.csv",
        ),
        (
            vec!["plot".into(), dir.path().join("missing.csv").into()],
            "missing.csv",
        ),
        (
            vec!["animate".into(), "--size".into(), "41".into()],
            "at most 40x40",
        ),
        (
            vec![
                "animate".into(),
                "--size".into(),
                "6".into(),
                "--rule".into(),
                "nonsense".into(),
            ],
            "unknown rule",
        ),
        (
            vec![
                "animate".into(),
                "--size".into(),
                "6".into(),
                "--method".into(),
                "rotate".into(),
            ],
            "replay moves and undos",
        ),
    ];
    for (args, needle) in cases {
        let assert = ktour()
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
}

#[test]
fn plot_handles_rectangles_many_series_and_the_folder_title() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("roth-first-failure");
    std::fs::create_dir(&sub).unwrap();
    let mut csv = String::from(
        "extra,rows,cols,rule,method,closed,runs,feasible_runs,successes,success_rate,backtracks_mean,backtracks_max,nodes_total,elapsed_ns_total\n",
    );
    for k in 0..20 {
        for (r, c) in [(5, 6), (6, 8), (8, 10)] {
            csv.push_str(&format!(
                "x,{r},{c},order:{k},warnsdorff,1,10,10,{s},,,0,100,1000\n",
                s = k % 11
            ));
        }
    }
    let path = sub.join("summary.csv");
    std::fs::write(&path, csv).unwrap();
    let summary = read_summary(&path, None).unwrap();
    assert_eq!(summary.title, "roth-first-failure");
    assert!(summary.rows.iter().all(|r| r.closed));
    assert!(summary.rows[0].success_rate.is_nan(), "empty: not computed");
    let out = sub.join("p.svg");
    let mut opts = PlotOptions::new(&out);
    opts.throughput = true;
    let report = write_plots(&summary, &opts).unwrap();
    let svg = std::fs::read_to_string(&out).unwrap();
    elements(&svg);
    assert!(svg.contains("16 of 20 series"), "the cut is announced");
    assert_eq!(
        report.left_out,
        ["order:16", "order:17", "order:18", "order:19"]
    );
    assert!(svg.contains("board squares (rows x cols)"));
    // Empty backtracks column and 1 us per row: neither plot carries anything, and both say why.
    assert_eq!(report.written, vec![out.clone()]);
    assert_eq!(
        report.skipped,
        [
            (sub.join("p-backtracks.svg"), Skip::NoBacktracks),
            (sub.join("p-throughput.svg"), Skip::Untimed)
        ]
    );
    assert!(!sub.join("p-backtracks.svg").exists());
    // Asked for by name, the flat plot is drawn.
    let mut opts = PlotOptions::new(sub.join("bt.svg"));
    opts.metric = Some(Metric::Backtracks);
    assert_eq!(write_plots(&summary, &opts).unwrap().written.len(), 1);
}
