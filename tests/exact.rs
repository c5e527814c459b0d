//! `ktour exact`: the exact tree walk against its slow twin (a plain recursion over fractions) on
//! every start of 5x5..7x7, merging on and off; against sampled runs of the real solver (the exact
//! value inside their Wilson 95% interval); and the command's output contract and refusals.

use crate::support::ktour;
use ktour::board::{Board, Square};
use ktour::exact::{exact, reference, ExactOptions, ExactRequest, Starts};
use ktour::solve::{Closing, Rule};
use num_traits::One;

fn every_start(board: Board, rule: &str, closing: Closing, memo_limit: usize) {
    let rule: Rule = rule.parse().unwrap();
    let req = ExactRequest {
        board,
        starts: Starts::All,
        rule,
        closing,
    };
    let opts = ExactOptions {
        memo_limit,
        max_nodes: None,
    };
    let report = exact(&req, &opts).unwrap();
    assert_eq!(report.starts.len(), board.len() as usize);
    for s in &report.starts {
        let twin = reference::distribution(board, s.start, rule, closing);
        assert_eq!(
            s.dist.probabilities(),
            &twin[..],
            "{board} {rule} from {} (memo {memo_limit})",
            s.start
        );
        assert!(s.dist.total().is_one());
    }
}

#[test]
fn random_finals_match_the_twin_on_every_start_of_5x5_and_6x6() {
    for n in 5..=6 {
        let board = Board::square(n).unwrap();
        for rule in ["random", "gfg", "pohl+random"] {
            every_start(board, rule, Closing::Check, 1 << 20);
        }
    }
}

// 7x7 is the largest board the twin walks in a test: a few seconds each, so one test a rule (the
// test threads share them out)
#[test]
fn random_matches_the_twin_on_every_start_of_7x7() {
    every_start(Board::square(7).unwrap(), "random", Closing::Check, 1 << 20);
}

#[test]
fn gfg_matches_the_twin_on_every_start_of_7x7() {
    every_start(Board::square(7).unwrap(), "gfg", Closing::Check, 1 << 20);
}

#[test]
fn pohl_random_matches_the_twin_on_every_start_of_7x7() {
    every_start(
        Board::square(7).unwrap(),
        "pohl+random",
        Closing::Check,
        1 << 20,
    );
}

#[test]
fn merging_changes_no_probability() {
    for (n, rule) in [
        (7, "random"),
        (7, "gfg"),
        (6, "roth+random"),
        (8, "pohl+random"),
    ] {
        let board = Board::square(n).unwrap();
        let run = |memo_limit| {
            let req = ExactRequest {
                board,
                starts: Starts::All,
                rule: rule.parse().unwrap(),
                closing: Closing::Check,
            };
            exact(
                &req,
                &ExactOptions {
                    memo_limit,
                    max_nodes: None,
                },
            )
            .unwrap()
        };
        let (merged, plain, full) = (run(1 << 20), run(0), run(7));
        for ((a, b), c) in merged.starts.iter().zip(&plain.starts).zip(&full.starts) {
            assert_eq!(a.dist, b.dist, "{n} {rule} from {}", a.start);
            // a table too small to hold the states: merging stops, the figures stay
            assert_eq!(a.dist, c.dist, "{n} {rule} from {}", a.start);
        }
        assert!(merged.stats.nodes <= plain.stats.nodes);
        assert_eq!(plain.stats.merged, 0);
    }
}

#[test]
fn other_keys_boards_and_closings_match_the_twin() {
    for (rows, cols, rule, closing) in [
        (5, 6, "random", Closing::Check),
        (6, 5, "center+gfg", Closing::Check),
        (6, 6, "roth+random", Closing::Check),
        (6, 6, "random", Closing::StartLast),
        (6, 7, "pohl+gfg:12345678", Closing::Check),
        (4, 5, "pohl+roth+random", Closing::Check),
        (3, 4, "random", Closing::Check),
        (1, 1, "random", Closing::Check),
        (2, 3, "gfg", Closing::Check),
        (6, 6, "first", Closing::Check),
        (6, 6, "roth-original", Closing::Check),
    ] {
        every_start(Board::new(rows, cols).unwrap(), rule, closing, 1 << 20);
    }
}

#[test]
fn shuffle_matches_all_orderings_walked_one_by_one() {
    // the twin walks all 40,320 orderings: a few starts only
    for (n, rule, start) in [
        (5, "shuffle", (0, 0)),
        (5, "shuffle", (1, 2)),
        (6, "shuffle", (0, 1)),
        (6, "pohl+shuffle", (2, 2)),
    ] {
        let board = Board::square(n).unwrap();
        let start = Square::new(start.0, start.1);
        let rule: Rule = rule.parse().unwrap();
        let req = ExactRequest {
            board,
            starts: Starts::From(start),
            rule,
            closing: Closing::Check,
        };
        let report = exact(&req, &ExactOptions::default()).unwrap();
        let twin = reference::distribution(board, start, rule, Closing::Check);
        assert_eq!(
            report.overall.probabilities(),
            &twin[..],
            "{rule} from {start}"
        );
    }
}

#[test]
fn one_start_split_into_subtrees_is_the_same_start() {
    // a single start is split into subtrees for the threads: the pieces add up to the whole
    let board = Board::square(7).unwrap();
    let start = Square::new(0, 0);
    let rule = Rule::RANDOM;
    let req = ExactRequest {
        board,
        starts: Starts::From(start),
        rule,
        closing: Closing::Check,
    };
    let report = exact(&req, &ExactOptions::default()).unwrap();
    let twin = reference::distribution(board, start, rule, Closing::Check);
    assert_eq!(report.overall.probabilities(), &twin[..]);
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = ktour().args(args).assert().success().get_output().clone();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn json_gives_fractions_decimals_and_the_shortest_dead_end() {
    let v = json(&[
        "exact", "--size", "5", "--rule", "random", "--format", "json",
    ]);
    // from a start drawn uniformly: the corner colour's 13 squares succeed with the mean of the
    // per-start figures, the other 12 never
    assert_eq!(v["success"], "2/5");
    assert_eq!(v["success_decimal"], 0.4);
    assert_eq!(v["closed"], "0");
    assert_eq!(v["shortest_dead_end"]["squares"], 8);
    assert_eq!(v["shortest_dead_end"]["probability"], "4/25");
    assert_eq!(v["starts"].as_array().unwrap().len(), 25);
    assert_eq!(v["starts"][0]["success"], "1");
    let v = json(&[
        "exact", "--size", "6", "--start", "0,0", "--rule", "random", "--format", "json",
    ]);
    assert!(v.get("starts").is_none());
    assert_eq!(v["start"], serde_json::json!([0, 0]));
    let (p, q) = v["success"]
        .as_str()
        .unwrap()
        .split_once('/')
        .unwrap_or(("1", "1"));
    let d = p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap();
    assert!((d - v["success_decimal"].as_f64().unwrap()).abs() < 1e-12);
}

#[test]
fn csv_has_a_row_per_start() {
    let out = ktour()
        .args(["exact", "-n", "5", "--rule", "gfg", "--format", "csv"])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("row,col,success,success_decimal,closed"));
    assert_eq!(lines.count(), 25);
}

#[test]
fn refuses_a_tree_past_the_limit_with_its_estimate_and_samples_it_instead() {
    let out = ktour()
        .args(["exact", "-n", "8", "--max-nodes", "1e5"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("estimated at") && err.contains("--sample"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let v = json(&[
        "exact", "-n", "8", "--sample", "2000", "--seed", "3", "--format", "json",
    ]);
    assert_eq!(v["runs"], 2000);
    let (lo, hi) = (
        v["success_ci_low"].as_f64().unwrap(),
        v["success_ci_high"].as_f64().unwrap(),
    );
    assert!(lo < v["success_rate"].as_f64().unwrap() && v["success_rate"].as_f64().unwrap() <= hi);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec!["exact", "-n", "5", "--start", "9,9"],
        vec!["exact", "-n", "5", "--rule", "warp"],
        vec!["exact", "-n", "5", "--sample", "0"],
        vec!["exact", "-n", "5", "--max-nodes", "lots"],
        vec!["exact"],
        vec!["exact", "-n", "40"],
        vec!["exact", "-n", "8", "--rule", "squirrel", "--start", "1,1"],
    ] {
        let out = ktour().args(&args).assert().code(2).get_output().clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The exact probability lies inside the Wilson 95% interval that a large sampled sweep of the same
/// rule writes in summary.csv (`success_ci_low`, `success_ci_high`; `closed_ci_*` for closed tours).
#[test]
fn sampled_sweeps_contain_the_exact_values_in_their_intervals() {
    use ktour::exact::decimal;
    for (n, rule, starts, trials) in [
        (7, "random", "corner", "4000"),
        (8, "pohl+random", "corner", "4000"),
        (6, "gfg", "all", "200"),
        (8, "random", "all", "100"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("s");
        ktour()
            .args([
                "sweep",
                "--sizes",
                &n.to_string(),
                "--rules",
                rule,
                "--starts",
                starts,
                "--trials",
                trials,
                "--seed",
                "19",
                "--no-progress",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
        let header = r.headers().unwrap().clone();
        let row = r.records().next().unwrap().unwrap();
        let col = |name: &str| -> f64 {
            row[header.iter().position(|h| h == name).unwrap()]
                .parse()
                .unwrap()
        };
        let board = Board::square(n).unwrap();
        let req = ExactRequest {
            board,
            starts: if starts == "corner" {
                Starts::From(Square::new(0, 0))
            } else {
                Starts::All
            },
            rule: rule.parse().unwrap(),
            closing: Closing::Check,
        };
        let d = exact(&req, &ExactOptions::default()).unwrap().overall;
        let (p, c) = (decimal(&d.success()), decimal(&d.closed()));
        let (lo, hi) = (col("success_ci_low"), col("success_ci_high"));
        assert!(
            lo <= p && p <= hi,
            "{n} {rule} {starts}: exact {p} outside [{lo}, {hi}]"
        );
        let (lo, hi) = (col("closed_ci_low"), col("closed_ci_high"));
        assert!(
            lo <= c && c <= hi,
            "{n} {rule} {starts}: closed {c} outside [{lo}, {hi}]"
        );
        assert!(col("visited_min") <= col("visited_max"));
    }
}

/// `random` and `pohl` treat every move label alike, so the probabilities from a start are those
/// from its images under the board's eight symmetries: a check of the fast walk on 8x8, where the
/// twin is too slow. (`gfg` scans a fixed cycle of the labels and has no such symmetry.)
#[test]
fn symmetric_rules_give_symmetric_figures_on_8x8() {
    for rule in ["random", "pohl+random"] {
        let board = Board::square(8).unwrap();
        let req = ExactRequest {
            board,
            starts: Starts::All,
            rule: rule.parse().unwrap(),
            closing: Closing::Check,
        };
        let report = exact(&req, &ExactOptions::default()).unwrap();
        let at = |r: u16, c: u16| &report.starts[(r * 8 + c) as usize].dist;
        for r in 0..8u16 {
            for c in 0..8u16 {
                for (r2, c2) in [(c, r), (7 - r, c), (r, 7 - c), (7 - c, 7 - r)] {
                    assert_eq!(at(r, c), at(r2, c2), "{rule}: ({r},{c}) vs ({r2},{c2})");
                }
            }
        }
    }
}

/// `shuffle` draws one of the 40,320 orderings and then walks as `order:` does: its exact figures
/// from a uniform start of 8x8 are the committed sweep of every ordering from every start
/// (`results/orderings-8x8/summary.csv`, 2,580,480 deterministic runs), tours and closed tours alike.
#[test]
fn shuffle_is_the_mean_of_the_committed_sweep_of_every_ordering() {
    let summary = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/results/orderings-8x8/summary.csv"
    );
    let mut r = csv::Reader::from_path(summary).unwrap();
    let header = r.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (runs, tours, closed) = (col("runs"), col("successes"), col("closed_tours"));
    let (mut n, mut ok, mut shut) = (0u64, 0u64, 0u64);
    for row in r.records() {
        let row = row.unwrap();
        n += row[runs].parse::<u64>().unwrap();
        ok += row[tours].parse::<u64>().unwrap();
        shut += row[closed].parse::<u64>().unwrap();
    }
    assert_eq!(n, 40_320 * 64);
    let req = ExactRequest {
        board: Board::square(8).unwrap(),
        starts: Starts::All,
        rule: "shuffle".parse().unwrap(),
        closing: Closing::Check,
    };
    let d = exact(&req, &ExactOptions::default()).unwrap().overall;
    let frac = |k: u64| num_rational::BigRational::new(k.into(), n.into());
    assert_eq!(d.success(), frac(ok));
    assert_eq!(d.closed(), frac(shut));
}

fn all_starts(n: u64, rule: &str) -> ExactRequest {
    ExactRequest {
        board: Board::square(n).unwrap(),
        starts: Starts::All,
        rule: rule.parse().unwrap(),
        closing: Closing::Check,
    }
}

/// The resumable run (one start at a time, files in a folder, one start per orbit for `random`
/// and `pohl+random`) gives every start's exact fractions as the plain walk without merging, on
/// 6x6..8x8; for `gfg`, which has no symmetry, it walks every start.
#[test]
fn resumable_runs_give_the_unmerged_walks_fractions() {
    use ktour::exact::exact_resumable;
    for (n, rule) in [
        (6, "random"),
        (7, "random"),
        (8, "random"),
        (8, "pohl+random"),
        (6, "gfg"),
    ] {
        let req = all_starts(n, rule);
        let plain = exact(
            &req,
            &ExactOptions {
                memo_limit: 0,
                max_nodes: None,
            },
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut walked = 0;
        let r = exact_resumable(&req, &ExactOptions::default(), dir.path(), |d| {
            assert!(!d.read);
            walked += 1;
        })
        .unwrap();
        let orbits = if rule == "gfg" {
            n * n
        } else {
            let h = n.div_ceil(2);
            h * (h + 1) / 2
        };
        assert_eq!(walked, orbits, "{n} {rule}");
        assert_eq!(r.starts.len(), plain.starts.len());
        for (a, b) in r.starts.iter().zip(&plain.starts) {
            assert_eq!(a.start, b.start);
            assert_eq!(a.dist, b.dist, "{n} {rule} from {}", a.start);
        }
        assert_eq!(r.overall, plain.overall, "{n} {rule}");
    }
}

/// A run stopped after some starts resumes: the starts whose files are there are read, not walked,
/// the others walked; a file of another rule, or a damaged one, is refused with its name.
#[test]
fn resumable_runs_read_the_starts_already_done() {
    use ktour::exact::{exact_resumable, start_file, ExactError};
    let req = all_starts(6, "gfg");
    let dir = tempfile::tempdir().unwrap();
    let full = exact_resumable(&req, &ExactOptions::default(), dir.path(), |_| {}).unwrap();
    // as if stopped before (2,3) and (5,5)
    for (r, c) in [(2, 3), (5, 5)] {
        std::fs::remove_file(start_file(dir.path(), Square::new(r, c))).unwrap();
    }
    let mut walked = Vec::new();
    let again = exact_resumable(&req, &ExactOptions::default(), dir.path(), |d| {
        if !d.read {
            walked.push(d.start);
        }
    })
    .unwrap();
    assert_eq!(walked, [Square::new(2, 3), Square::new(5, 5)]);
    for (a, b) in again.starts.iter().zip(&full.starts) {
        assert_eq!(a.dist, b.dist);
    }
    assert_eq!(again.stats, full.stats);
    // another rule's files
    let other = all_starts(6, "random");
    let err = exact_resumable(&other, &ExactOptions::default(), dir.path(), |_| {}).unwrap_err();
    assert!(matches!(err, ExactError::ResumeFile { .. }), "{err}");
    assert!(err.to_string().contains("0-0.txt"), "{err}");
    // a probability changed: the start no longer adds up to 1
    let f = start_file(dir.path(), Square::new(0, 0));
    let text = std::fs::read_to_string(&f).unwrap();
    let last = text.lines().last().unwrap().to_string();
    std::fs::write(&f, text.replace(&last, "p 36 1/2")).unwrap();
    let err = exact_resumable(&req, &ExactOptions::default(), dir.path(), |_| {}).unwrap_err();
    assert!(matches!(err, ExactError::NotOne(..)), "{err}");
}

#[test]
fn resume_through_the_command_and_its_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let whole = json(&["exact", "-n", "5", "--rule", "random", "--format", "json"]);
    let resumed = json(&[
        "exact", "-n", "5", "--rule", "random", "--format", "json", "--resume", d,
    ]);
    assert_eq!(whole["success"], resumed["success"]);
    assert_eq!(whole["starts"], resumed["starts"]);
    assert!(dir.path().join("2-2.txt").exists());
    let out = ktour()
        .args(["exact", "-n", "5", "--sample", "10", "--resume", d])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
