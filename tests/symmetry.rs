//! The symmetry that sweeps over orderings rest on (`docs/REFERENCE.md`, "Symmetry of runs"): a
//! board symmetry g maps the run from `s` with rule `R` onto the run from `g(s)` with `R` mirrored
//! (its final order's labels mapped by g), square by square, with the same outcome and counters.
//! Checked on every start of small boards, for every symmetry, every method that sweeps reduce, keyed
//! and plain chains, open and closed, both closings, and rules tried in turn.

use ktour::board::{Board, Closure, Square, Symmetry};
use ktour::solve::{Closing, Method, Outcome, Request, Rule, RuleSeq, Solution, Solver};
use ktour::verify::verify_path;
use predicates::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A random fixed ordering's digits.
fn ordering(rng: &mut Xoshiro256PlusPlus) -> String {
    let mut d: Vec<char> = "12345678".chars().collect();
    d.shuffle(rng);
    d.into_iter().collect()
}

/// The squares of `a`'s path mirrored by `g` are `b`'s, and everything else a run reports is equal.
fn assert_mirrored(board: Board, g: Symmetry, a: &Solution, b: &Solution, what: &str) {
    if let Outcome::Impossible(_) = a.outcome {
        // a theorem's reason names the start square: the mirrored one names its image
        assert!(matches!(b.outcome, Outcome::Impossible(_)), "{what}");
    } else {
        assert_eq!(a.outcome, b.outcome, "{what}");
    }
    let (mut sa, mut sb) = (a.stats, b.stats);
    (sa.elapsed_ns, sb.elapsed_ns) = (0, 0);
    assert_eq!(sa, sb, "{what}");
    let mapped: Vec<Square> = a.squares.iter().map(|&s| g.apply(board, s)).collect();
    assert_eq!(mapped, b.squares, "{what}");
    if !b.squares.is_empty() {
        verify_path(board, &b.squares).unwrap();
    }
}

#[test]
fn mirrored_runs_follow_mirrored_rules() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20261126);
    let mut solver = Solver::new();
    for (rows, cols) in [(5, 5), (6, 6), (8, 8), (5, 6), (6, 8), (3, 4)] {
        let board = Board::new(rows, cols).unwrap();
        for _ in 0..3 {
            let o = ordering(&mut rng);
            let rules = [
                format!("order:{o}"),
                format!("pohl+order:{o}"),
                format!("roth+pohl+order:{o}"),
                format!("center+order:{o}"),
            ];
            for rule in &rules {
                let rule: Rule = rule.parse().unwrap();
                for (method, closed, closing) in [
                    (Method::Warnsdorff, false, Closing::Check),
                    (Method::Warnsdorff, true, Closing::Check),
                    (Method::Warnsdorff, true, Closing::StartLast),
                    (Method::Backtrack, false, Closing::Check),
                    (Method::Backtrack, true, Closing::Check),
                    (Method::Naive, false, Closing::Check),
                ] {
                    if method == Method::Naive && rule.needs_degrees() {
                        continue;
                    }
                    let prune = rng.gen_bool(0.5) || method != Method::Backtrack;
                    for start in board.squares() {
                        let req = Request {
                            board,
                            start,
                            closure: Closure::of(closed),
                            method,
                            rule,
                            budget: 3000,
                            seed: 7,
                            closing,
                            prune,
                        };
                        let a = solver.solve(&req).unwrap();
                        for g in Symmetry::of(board) {
                            let mirrored = Request {
                                start: g.apply(board, start),
                                rule: rule.mirrored(&g.labels()).unwrap(),
                                ..req
                            };
                            let b = solver.solve(&mirrored).unwrap();
                            let what = format!("{board} {g:?} {req:?}");
                            assert_mirrored(board, g, &a, &b, &what);
                        }
                    }
                }
            }
        }
    }
}

/// Rules tried in turn map rule by rule: the attempts, and what the last attempt found, are equal.
#[test]
fn mirrored_sequences_follow_mirrored_rules() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut solver = Solver::new();
    for n in [5, 7, 9] {
        let board = Board::square(n).unwrap();
        let seq: RuleSeq = format!(
            "order:{}|pohl+order:{}|order:{}",
            ordering(&mut rng),
            ordering(&mut rng),
            ordering(&mut rng)
        )
        .parse()
        .unwrap();
        for start in board.squares() {
            let req = Request::warnsdorff(board, start, seq.first());
            let a = solver.run_attempts(&req, &seq, 3).unwrap().summary;
            for g in Symmetry::of(board) {
                let image = seq.mirrored(&g.labels()).unwrap();
                let req = Request {
                    start: g.apply(board, start),
                    rule: image.first(),
                    ..req
                };
                let b = solver.run_attempts(&req, &image, 3).unwrap().summary;
                let ((mut x, mut y), what) = ((a, b), format!("{board} {g:?} {start:?}"));
                (x.stats.elapsed_ns, y.stats.elapsed_ns) = (0, 0);
                if let Outcome::Impossible(_) = x.outcome {
                    assert!(matches!(y.outcome, Outcome::Impossible(_)), "{what}");
                    y.outcome = x.outcome;
                }
                assert_eq!(x, y, "{what}");
            }
        }
    }
}

/// Random finals and rules tied to fixed squares have no mirror.
#[test]
fn rules_that_do_not_mirror_say_so() {
    let labels = Symmetry::of(Board::square(8).unwrap())
        .nth(1)
        .unwrap()
        .labels();
    for rule in [
        "random",
        "pohl+random",
        "gfg",
        "shuffle",
        "roth-original",
        "squirrel",
    ] {
        let rule: Rule = rule.parse().unwrap();
        assert_eq!(rule.mirrored(&labels), None, "{rule}");
    }
    let seq: RuleSeq = "first|random".parse().unwrap();
    assert_eq!(seq.mirrored(&labels), None);
    // the identity maps every rule to itself
    let first: Rule = "roth+first".parse().unwrap();
    assert_eq!(first.mirrored(&Symmetry::IDENTITY.labels()), Some(first));
}

/// Every mirror of `rule` on a square board, itself first, each once, as spec entries.
fn orbit(rule: &str) -> Vec<String> {
    let seq: RuleSeq = rule.parse().unwrap();
    let mut out: Vec<String> = Vec::new();
    for g in Symmetry::of(Board::square(5).unwrap()) {
        let name = seq.mirrored(&g.labels()).unwrap().to_string();
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// A sweep that walks one group of each orbit writes the files that walking every run writes,
/// timing aside: whole orbits, orbits of which the spec lists only some members, keyed chains, rules
/// tried in turn, random rules beside them, square and oblong boards (24x23 and 23x23: a group a
/// chunk), every start, the corners and the corner; open and closed, both closings, three
/// methods, two threads and one.
#[test]
fn mirrored_groups_write_what_walking_them_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rules = orbit("order:36418527");
    rules.extend(orbit("pohl+order:81726354"));
    rules.extend(orbit("order:27145863|roth+first"));
    // a partial orbit: an ordering and its transpose only
    rules.extend(orbit("order:52761438").into_iter().step_by(4).take(2));
    rules.push("random".into());
    let list = |v: &[String]| {
        v.iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let plain: Vec<String> = orbit("order:36418527")
        .into_iter()
        .chain(orbit("order:71283546"))
        .collect();
    let specs = [
        format!("name = \"m\"\nsizes = [5, 6]\nboards = [[5, 6], [4, 5], [24, 23]]\nstarts = \"all\"\nrules = [{}]\nmethods = [\"warnsdorff\", \"backtrack\"]\nbudget = 2000\ntrials = 2\nrecord = \"runs\"\n", list(&rules)),
        format!("name = \"m\"\nsizes = [5, 6, 7]\nboards = [[6, 8]]\nstarts = \"corners\"\nrules = [{}]\nmethods = [\"warnsdorff\", \"backtrack\", \"naive\"]\nbudget = 3000\nclosed = true\nrecord = \"runs\"\n", list(&plain)),
        format!("name = \"m\"\nsizes = [6, 8]\nstarts = \"corner\"\nrules = [{}]\nclosed = true\nclosing = \"start-last\"\nrecord = \"runs\"\n", list(&plain)),
        format!("name = \"m\"\nsizes = [5, 8, 23]\nstarts = \"all\"\nrules = [{}]\nrecord = \"summary\"\n", list(&plain)),
    ];
    for (i, text) in specs.iter().enumerate() {
        let dir = tmp.path().join(i.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        let spec = crate::support::write_spec(&dir, text);
        let (walked, reduced, two) = (dir.join("walked"), dir.join("reduced"), dir.join("two"));
        crate::support::sweep(&spec, &walked, &["--threads", "1", "--no-symmetry"])
            .assert()
            .success()
            .stderr(predicates::str::contains("mirror images").not());
        crate::support::sweep(&spec, &reduced, &["--threads", "1"])
            .assert()
            .success()
            .stderr(predicates::str::contains("mirror images"));
        crate::support::sweep(&spec, &two, &["--threads", "2"])
            .assert()
            .success();
        if text.contains("\"runs\"") {
            crate::support::same_results(&walked, &reduced);
            crate::support::same_results(&walked, &two);
        } else {
            for f in ["summary.csv", "deadends.csv", "chunks.csv"] {
                let read = |d: &std::path::Path| crate::support::rows_without_timing(&d.join(f));
                assert_eq!(read(&walked), read(&reduced), "{f}");
                assert_eq!(read(&walked), read(&two), "{f}");
            }
        }
    }
}

/// All orderings from every start of 5x5 and 6x6 are walked one group in eight (on one thread),
/// as `--dry-run` says beforehand (odd boards too, whose starts of the minority colour are ruled out by theorem).
#[test]
fn all_orderings_are_walked_one_group_in_eight() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = crate::support::write_spec(
        tmp.path(),
        "name = \"o\"\nsizes = [5, 6]\nrules = [\"order:*\"]\n",
    );
    let runs = 40_320 * (25 + 36);
    let mirrored = runs / 8 * 7;
    let out = tmp.path().join("o");
    crate::support::sweep(&spec, &out, &["--dry-run"])
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "symmetry: {mirrored} runs are mirror images"
        )));
    // one thread: with two, a member may be walked while its orbit's first group is in flight
    crate::support::sweep(&spec, &out, &["--threads", "1"])
        .assert()
        .success()
        .stderr(predicates::str::contains(format!("{runs} runs in")))
        .stderr(predicates::str::contains(format!(
            "{} of them walked, the other {mirrored} mirror images",
            runs - mirrored
        )));
}
