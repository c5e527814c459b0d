//! Any board: holes and leapers. The search on any board (`solve::shaped`) is checked three ways:
//! on whole boards walked by the knight it gives the runs of the fast engine, start by start; on
//! masks and other leapers it gives the runs of the slow twins (`solve::reference`, which read moves
//! from the shape's definition and recount degrees every step); and every tour it reports passes the
//! independent verifier with the shape's holes and leaper.

use crate::support::ktour;
use ktour::board::{Board, Closure, Leaper, Shape, Square};
use ktour::solve::reference;
use ktour::solve::rules::LabelOrder;
use ktour::solve::shaped::Engine;
use ktour::solve::{Closing, Method, Outcome, Request, Rule, Solver, SolverOptions};
use ktour::verify::{verify_path_on, verify_tour_on, TourKind};

fn rules() -> Vec<Rule> {
    [
        "first",
        "order:87654321",
        "pohl",
        "center",
        "pohl+center+order:35172846",
        "random",
        "pohl+random",
        "gfg",
        "shuffle",
    ]
    .iter()
    .map(|r| r.parse().unwrap())
    .collect()
}

fn request(board: Board, start: Square, method: Method, rule: Rule, closure: Closure) -> Request {
    Request {
        closure,
        method,
        budget: 20_000,
        seed: 7 + start.row() as u64 * 1000 + start.col() as u64,
        ..Request::warnsdorff(board, start, rule)
    }
}

fn mask(text: &str, leaper: Leaper) -> Shape {
    Shape::from_mask(text, leaper).unwrap()
}

/// The shapes of the cross-checks: holes, leapers, both.
fn shapes() -> Vec<Shape> {
    let zebra = Leaper::new(2, 3).unwrap();
    let giraffe = Leaper::new(1, 4).unwrap();
    let holey = "......\n.#....\n......\n...#..\n......\n......\n";
    vec![
        mask(holey, Leaper::KNIGHT),
        mask(
            "......\n.#....\n......\n....#.\n......\n......\n",
            Leaper::KNIGHT,
        ),
        mask(
            "........\n...##...\n...##...\n........\n........\n",
            Leaper::KNIGHT,
        ),
        mask(".....#\n......\n#.....\n......\n......\n", Leaper::KNIGHT),
        Shape::full(Board::square(9).unwrap()).with_leaper(zebra),
        Shape::full(Board::new(8, 11).unwrap()).with_leaper(zebra),
        Shape::full(Board::square(10).unwrap()).with_leaper(giraffe),
        Shape::full(Board::square(7).unwrap()).with_leaper(Leaper::new(1, 3).unwrap()),
        mask(holey, zebra),
    ]
}

#[test]
fn on_whole_knight_boards_the_plain_path_gives_the_fast_engines_runs() {
    let mut fast = Solver::new();
    let mut plain = Engine::default();
    for (r, c) in [(5, 5), (6, 6), (7, 8), (8, 8), (3, 10), (12, 12)] {
        let board = Board::new(r, c).unwrap();
        plain.set_shape(&Shape::full(board));
        for start in board.squares() {
            for rule in rules() {
                let mut cases = vec![
                    (Method::Warnsdorff, Closure::Open, Closing::Check),
                    (Method::Warnsdorff, Closure::Closed, Closing::Check),
                    (Method::Warnsdorff, Closure::Closed, Closing::StartLast),
                ];
                if !rule.is_random() && board.len() <= 64 {
                    cases.push((Method::Backtrack, Closure::Open, Closing::Check));
                    cases.push((Method::Backtrack, Closure::Closed, Closing::Check));
                }
                if rule.fixed_order().is_some() && board.len() <= 36 {
                    cases.push((Method::Naive, Closure::Open, Closing::Check));
                }
                for (method, closure, closing) in cases {
                    let req = Request {
                        closing,
                        ..request(board, start, method, rule, closure)
                    };
                    let a = fast.run(&req).unwrap();
                    let b = plain.run(&req).unwrap();
                    let what = format!("{board} {start} {rule} {method} {closure} {closing}");
                    assert_eq!(a.outcome, b.outcome, "{what}");
                    assert_eq!(a.closes, b.closes, "{what}");
                    assert_eq!(a.stats.nodes, b.stats.nodes, "{what}");
                    if method == Method::Warnsdorff {
                        assert_eq!(a.stats.ties, b.stats.ties, "{what}");
                    }
                    if !matches!(a.outcome, Outcome::Impossible(_)) {
                        assert_eq!(fast.path(), plain.path(), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn on_masks_and_leapers_the_walk_is_its_slow_twins() {
    let mut engine = Engine::default();
    for shape in shapes() {
        engine.set_shape(&shape);
        let board = shape.board();
        for start in shape.squares() {
            for rule in rules() {
                for closing in [Closing::Check, Closing::StartLast] {
                    let closure = Closure::of(closing == Closing::StartLast);
                    let req = Request {
                        closing,
                        ..request(board, start, Method::Warnsdorff, rule, closure)
                    };
                    let run = engine.run(&req).unwrap();
                    let what = format!("{shape} {start} {rule} {closing}");
                    if let Outcome::Impossible(_) = run.outcome {
                        // only where a necessary condition fails
                        assert!(
                            ktour::exists::shape_tour_from(&shape, Some(start), closure).is_err(),
                            "{what}"
                        );
                        continue;
                    }
                    let twin = reference::warnsdorff_closing(
                        shape.clone(),
                        start,
                        rule,
                        req.seed,
                        closing,
                    );
                    assert_eq!(engine.path(), twin, "{what}");
                    verify_path_on(&shape, &twin).unwrap();
                    if run.outcome == Outcome::Found {
                        let kind = verify_tour_on(&shape, &twin).unwrap();
                        assert!(
                            closure == Closure::Open || kind == TourKind::Closed,
                            "{what}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn on_masks_and_leapers_the_searches_are_their_slow_twins() {
    let mut engine = Engine::default();
    for shape in shapes() {
        engine.set_shape(&shape);
        let board = shape.board();
        for start in shape.squares().step_by(3) {
            for closure in [Closure::Open, Closure::Closed] {
                for (rule, order) in [
                    (Rule::FIRST, LabelOrder::IDENTITY),
                    ("pohl".parse().unwrap(), LabelOrder::IDENTITY),
                    (
                        "order:51627384".parse().unwrap(),
                        LabelOrder::digits("51627384"),
                    ),
                ] {
                    let budget = 5_000;
                    let what = format!("{shape} {start} {rule} {closure}");
                    let req = Request {
                        budget,
                        ..request(board, start, Method::Backtrack, rule, closure)
                    };
                    let run = engine.run(&req).unwrap();
                    if !matches!(
                        run.outcome,
                        Outcome::Impossible(ktour::solve::Impossibility::Theorem(_))
                    ) {
                        let (outcome, path, nodes) = reference::backtrack_recursive(
                            shape.clone(),
                            start,
                            rule,
                            closure,
                            budget,
                            true,
                        );
                        assert_eq!((run.outcome, run.stats.nodes), (outcome, nodes), "{what}");
                        assert_eq!(engine.path(), path, "{what}");
                        if outcome == Outcome::Found {
                            verify_tour_on(&shape, &path).unwrap();
                        }
                    }
                    if rule.fixed_order().is_some() {
                        let req = Request {
                            method: Method::Naive,
                            ..req
                        };
                        let run = engine.run(&req).unwrap();
                        if !matches!(
                            run.outcome,
                            Outcome::Impossible(ktour::solve::Impossibility::Theorem(_))
                        ) {
                            let (outcome, path, nodes) = reference::naive_recursive(
                                shape.clone(),
                                start,
                                order,
                                closure,
                                budget,
                            );
                            assert_eq!(
                                (run.outcome, run.stats.nodes),
                                (outcome, nodes),
                                "naive {what}"
                            );
                            assert_eq!(engine.path(), path, "naive {what}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn exhausted_searches_agree_with_the_necessary_conditions_and_plain_recursion() {
    // Small shapes searched to the end: a tour found by the engine exists (the twin finds one
    // too), and "exhausted" means the plain recursion finds none from that start.
    let shapes = [
        mask("....\n.#..\n....\n....\n", Leaper::KNIGHT),
        mask("...\n.#.\n...\n", Leaper::KNIGHT),
        mask(".....\n.....\n..#..\n.....\n.....\n", Leaper::KNIGHT),
        Shape::full(Board::new(4, 5).unwrap()).with_leaper(Leaper::new(2, 3).unwrap()),
        Shape::full(Board::new(5, 5).unwrap()).with_leaper(Leaper::new(1, 4).unwrap()),
    ];
    let mut engine = Engine::default();
    for shape in shapes {
        engine.set_shape(&shape);
        for start in shape.squares() {
            for closure in [Closure::Open, Closure::Closed] {
                let req = Request {
                    budget: 0,
                    ..request(
                        shape.board(),
                        start,
                        Method::Backtrack,
                        Rule::FIRST,
                        closure,
                    )
                };
                let run = engine.run(&req).unwrap();
                let twin = reference::first_tour_recursive(shape.clone(), start, closure);
                let what = format!("{shape} {start} {closure}");
                match run.outcome {
                    Outcome::Found => {
                        assert!(twin.is_some(), "{what}");
                        let kind = verify_tour_on(&shape, &engine.path()).unwrap();
                        assert!(
                            closure == Closure::Open || kind == TourKind::Closed,
                            "{what}"
                        );
                    }
                    Outcome::Impossible(_) => assert!(twin.is_none(), "{what}"),
                    other => panic!("{what}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn the_solver_routes_leapers_and_masks_to_the_plain_path_and_refuses_knight_rules() {
    // holes of both colours: a colour-balanced 34 squares
    let shape = mask(
        "......\n.#....\n......\n....#.\n......\n......\n",
        Leaper::KNIGHT,
    );
    let mut solver =
        Solver::with_options(SolverOptions::new().shape(Leaper::KNIGHT, Some(shape.clone())));
    let board = shape.board();
    let mut found = 0;
    for start in shape.squares() {
        let sol = solver
            .solve(&request(
                board,
                start,
                Method::Backtrack,
                "pohl".parse().unwrap(),
                Closure::Open,
            ))
            .unwrap();
        if sol.outcome == Outcome::Found {
            verify_tour_on(&shape, &sol.squares).unwrap();
            found += 1;
        }
    }
    assert!(found > 0);
    let hole = Square::new(1, 1);
    let err = solver
        .solve(&request(
            board,
            hole,
            Method::Warnsdorff,
            Rule::FIRST,
            Closure::Open,
        ))
        .unwrap_err();
    assert!(err.to_string().contains("not a square"), "{err}");
    for rule in ["roth", "roth-original", "squirrel", "pohl+roth"] {
        let err = solver
            .solve(&request(
                board,
                Square::new(0, 0),
                Method::Warnsdorff,
                rule.parse().unwrap(),
                Closure::Open,
            ))
            .unwrap_err();
        assert!(err.to_string().contains("whole boards"), "{rule}: {err}");
    }
    let other = Board::square(8).unwrap();
    assert!(solver
        .solve(&request(
            other,
            Square::new(0, 0),
            Method::Warnsdorff,
            Rule::FIRST,
            Closure::Open
        ))
        .is_err());
    // the camel never changes colour: no tour, by the connectivity condition, without a search
    let camel = Leaper::new(1, 3).unwrap();
    solver = Solver::with_options(SolverOptions::new().shape(camel, None));
    let run = solver
        .run(&request(
            other,
            Square::new(0, 0),
            Method::Backtrack,
            Rule::FIRST,
            Closure::Open,
        ))
        .unwrap();
    assert!(matches!(
        run.outcome,
        Outcome::Impossible(ktour::solve::Impossibility::Theorem(_))
    ));
    assert_eq!(run.stats.nodes, 0);
}

#[test]
fn counts_on_whole_knight_boards_equal_the_bitboard_engines() {
    use ktour::count::shaped::count_on;
    use ktour::count::{count, CountOptions, CountRequest, Orientation, Progress, Starts};
    let options = CountOptions {
        progress: Progress::Hidden,
        ..CountOptions::default()
    };
    for (r, c, closure) in [
        (3, 4, Closure::Open),
        (4, 5, Closure::Open),
        (5, 5, Closure::Open),
        (3, 7, Closure::Open),
        (5, 6, Closure::Closed),
        (3, 10, Closure::Closed),
        (4, 4, Closure::Open),
    ] {
        let board = Board::new(r, c).unwrap();
        for orientation in [Orientation::Directed, Orientation::Undirected] {
            for starts in [
                Starts::All,
                Starts::From(Square::new(0, 0)),
                Starts::From(Square::new(1, 2)),
            ] {
                let request = CountRequest {
                    board,
                    closure,
                    orientation,
                    starts,
                };
                let want = count(&request, &options).unwrap().count;
                let got = count_on(&Shape::full(board), closure, orientation, starts, None)
                    .unwrap()
                    .count;
                assert_eq!(
                    got,
                    u128::from(want),
                    "{board} {closure} {orientation:?} {starts:?}"
                );
            }
        }
    }
    // OEIS A165134: 1,728 directed open tours of 5x5
    let five = Shape::full(Board::square(5).unwrap());
    let open = count_on(
        &five,
        Closure::Open,
        Orientation::Directed,
        Starts::All,
        None,
    )
    .unwrap();
    assert_eq!(open.count, 1728);
}

#[test]
fn counts_on_masks_and_leapers_equal_plain_recursion() {
    use ktour::count::reference::{closed_from, open_from};
    use ktour::count::shaped::count_on;
    use ktour::count::{Orientation, Starts};
    let zebra = Leaper::new(2, 3).unwrap();
    let giraffe = Leaper::new(1, 4).unwrap();
    let shapes = [
        mask(".....\n.....\n..#..\n.....\n.....\n", Leaper::KNIGHT),
        mask("....\n.#..\n....\n....\n", Leaper::KNIGHT),
        mask("#....\n.....\n.....\n....#\n", Leaper::KNIGHT),
        mask("...\n.#.\n...\n", Leaper::KNIGHT),
        mask("......\n.#....\n....#.\n......\n", Leaper::KNIGHT),
        Shape::full(Board::new(4, 6).unwrap()).with_leaper(zebra),
        Shape::full(Board::new(5, 5).unwrap()).with_leaper(zebra),
        Shape::full(Board::new(4, 5).unwrap()).with_leaper(giraffe),
        Shape::full(Board::new(5, 5).unwrap()).with_leaper(giraffe),
        // the smallest giraffe board with tours we found: 16 directed open tours, no closed one
        Shape::full(Board::new(5, 8).unwrap()).with_leaper(giraffe),
        mask("#....\n.....\n.....\n.....\n", zebra),
    ];
    let mut nonzero = 0;
    for shape in shapes {
        let open: u64 = shape.squares().map(|s| open_from(shape.clone(), s)).sum();
        let first = shape.squares().next().unwrap();
        let closed = closed_from(shape.clone(), first);
        let got = |closure, orientation, starts| {
            count_on(&shape, closure, orientation, starts, None)
                .unwrap()
                .count
        };
        assert_eq!(
            got(Closure::Open, Orientation::Directed, Starts::All),
            u128::from(open),
            "{shape}"
        );
        assert_eq!(
            got(Closure::Closed, Orientation::Undirected, Starts::All),
            u128::from(closed / 2),
            "{shape}"
        );
        for s in shape.squares() {
            let from = got(Closure::Open, Orientation::Directed, Starts::From(s));
            assert_eq!(from, u128::from(open_from(shape.clone(), s)), "{shape} {s}");
        }
        nonzero += usize::from(open > 0) + usize::from(closed > 0);
    }
    // the shapes were chosen so that the cross-check compares tours, not only zeros
    assert!(nonzero >= 6, "{nonzero}");
}

/// The command line on any board: a tour solved around holes verifies (the record carries its
/// holes), `exists` says no (3) or unknown (4), bad masks and leapers are one-line errors (2).
#[test]
fn the_command_line_takes_masks_and_leapers_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let mask = dir.path().join("m.txt");
    let holey = "........\n........\n..#..#..\n...##...\n...##...\n..#..#..\n........\n........\n";
    std::fs::write(&mask, holey).unwrap();
    let tour = dir.path().join("t.json");
    ktour()
        .args([
            "solve", "--closed", "--rule", "pohl", "--format", "json", "-o",
        ])
        .arg(&tour)
        .arg("--mask")
        .arg(&mask)
        .assert()
        .success();
    let text = std::fs::read_to_string(&tour).unwrap();
    let rec: ktour::tour::TourRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(rec.holes.len(), 8);
    let shape = rec.shape().unwrap();
    assert_eq!(verify_tour_on(&shape, &rec.squares), Ok(TourKind::Closed));
    ktour()
        .arg("verify")
        .arg(&tour)
        .assert()
        .success()
        .stdout("valid closed tour\n");
    // the same squares on the whole board are short of a tour
    let moves = dir.path().join("t.txt");
    let lines: String = rec
        .squares
        .iter()
        .map(|s| format!("{},{}\n", s.row(), s.col()))
        .collect();
    std::fs::write(&moves, lines).unwrap();
    ktour()
        .arg("verify")
        .arg(&moves)
        .args(["--rows", "8", "--cols", "8"])
        .assert()
        .code(1);
    ktour()
        .arg("verify")
        .arg(&moves)
        .arg("--mask")
        .arg(&mask)
        .assert()
        .success();
    ktour()
        .arg("render")
        .arg(&tour)
        .arg("-o")
        .arg(dir.path().join("t.svg"))
        .assert()
        .success();
    // the animation: traced by the search on any board, its page draws the holes and reads the
    // leaper's moves
    let page = dir.path().join("a.html");
    ktour()
        .args([
            "animate",
            "--method",
            "backtrack",
            "--rule",
            "pohl",
            "--closed",
            "-o",
        ])
        .arg(&page)
        .arg("--mask")
        .arg(&mask)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"holes\":[[2,2],[2,5],[3,3]"), "holes");
    ktour()
        .args(["animate", "--size", "10", "--leaper", "giraffe", "-o"])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"deltas\":[[-4,1],[-1,4]"), "deltas");
    // exists: no by a condition (3), unknown (4)
    ktour()
        .args(["exists", "--size", "8", "--leaper", "camel"])
        .assert()
        .code(3);
    ktour()
        .arg("exists")
        .arg("--mask")
        .arg(&mask)
        .assert()
        .code(4);
    // count: 5x8 giraffe, checked against plain recursion in the tests above
    ktour()
        .args(["count", "--rows", "5", "--cols", "8", "--leaper", "giraffe"])
        .assert()
        .success()
        .stdout(predicates::str::contains("\n16\n"));
    // refusals: one line, exit 2
    std::fs::write(dir.path().join("bad.txt"), "..x\n...\n").unwrap();
    for args in [
        vec!["solve", "--leaper", "2,2", "--size", "8"],
        vec!["exists", "--leaper", "zebra", "--size", "65535"],
        vec![
            "solve",
            "--leaper",
            "1,3",
            "--size",
            "8",
            "--method",
            "construct",
        ],
        vec![
            "solve",
            "--size",
            "8",
            "--leaper",
            "zebra",
            "--rule",
            "squirrel",
            "--method",
            "warnsdorff",
        ],
    ] {
        let out = ktour()
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        assert_eq!(
            String::from_utf8(out).unwrap().lines().count(),
            1,
            "{args:?}"
        );
    }
    let out = ktour()
        .arg("solve")
        .arg("--mask")
        .arg(dir.path().join("bad.txt"))
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8(out).unwrap().contains("line 1, column 3"));
    ktour()
        .arg("solve")
        .arg("--mask")
        .arg(&mask)
        .args(["--start", "2,2"])
        .assert()
        .code(2);
    // a mask that never ends is refused at its first wrong byte, not read forever
    #[cfg(unix)]
    for device in ["/dev/zero", "/dev/urandom"] {
        let out = ktour()
            .args(["solve", "--mask", device])
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8(out).unwrap();
        // /dev/zero fails at its first byte; a random stream's first bytes may be among the six a
        // mask allows ('.', '#', space, tab, carriage return, newline: 6 chances in 256 each), so
        // it fails at the first byte that is not, wherever that is
        let at = if device == "/dev/zero" {
            "line 1, column 1"
        } else {
            "is neither '.' (a square) nor '#' (a hole)"
        };
        assert!(err.contains(at) && err.lines().count() == 1, "{err}");
    }
    ktour()
        .arg("solve")
        .arg("--mask")
        .arg(&mask)
        .args(["--size", "9"])
        .assert()
        .code(2);
}

/// A sweep on a mask from flags: its starts are the mask's squares, its feasible runs those the
/// conditions leave, and `--print-spec` holds the mask's text.
#[test]
fn a_sweep_runs_on_a_mask_and_a_leaper() {
    let dir = tempfile::tempdir().unwrap();
    let mask = dir.path().join("m.txt");
    std::fs::write(&mask, "......\n.#....\n....#.\n......\n......\n").unwrap();
    let out = dir.path().join("out");
    ktour()
        .args([
            "sweep",
            "--rules",
            "first,pohl",
            "--methods",
            "warnsdorff,backtrack",
            "--record",
            "runs",
            "--no-progress",
            "--out",
        ])
        .arg(&out)
        .arg("--mask")
        .arg(&mask)
        .assert()
        .success();
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    // 28 squares x 2 rules x 2 methods, no run from a hole
    assert_eq!(runs.lines().count(), 1 + 28 * 4);
    assert!(!runs
        .lines()
        .any(|l| l.contains(",1,1,") && l.starts_with("5,6")));
    let meta = std::fs::read_to_string(out.join("meta.json")).unwrap();
    assert!(meta.contains("\"mask\""), "{meta}");
    let spec = ktour()
        .args([
            "sweep",
            "--rules",
            "pohl",
            "--print-spec",
            "--leaper",
            "zebra",
            "--sizes",
            "9",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(spec)
        .unwrap()
        .contains("leaper = \"zebra\""));
}

/// A spec with a list of leapers is a family: one whole sweep a leaper, each in its own folder and
/// each equal (timing aside) to the sweep of a spec naming that leaper alone; resuming the family
/// finds every member done.
#[test]
fn a_list_of_leapers_makes_one_sweep_each() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("fam.toml");
    std::fs::write(
        &spec,
        "name = \"fam\"\nsizes = \"8..=10\"\nleaper = [\"zebra\", \"1,4\"]\nrules = [\"first\", \"pohl+random\"]\nseed = 3\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    ktour()
        .arg("sweep")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .arg("--no-progress")
        .assert()
        .success();
    let timeless = |path: std::path::PathBuf| crate::support::rows_without_timing(&path);
    for (folder, leaper) in [("zebra", "zebra"), ("giraffe", "1,4")] {
        let alone = dir.path().join(format!("alone-{folder}"));
        ktour()
            .args([
                "sweep",
                "--sizes",
                "8..=10",
                "--rules",
                "first,pohl+random",
                "--seed",
                "3",
                "--no-progress",
                "--leaper",
                leaper,
                "--out",
            ])
            .arg(&alone)
            .assert()
            .success();
        let member = timeless(out.join(folder).join("summary.csv"));
        assert_eq!(member.len(), 6);
        assert_eq!(member, timeless(alone.join("summary.csv")), "{folder}");
    }
    let printed = ktour()
        .arg("sweep")
        .arg(&spec)
        .arg("--print-spec")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let printed = String::from_utf8(printed).unwrap();
    assert!(printed.contains("name = \"fam-zebra\"") && printed.contains("name = \"fam-giraffe\""));
    ktour()
        .arg("sweep")
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .args(["--resume", "--no-progress"])
        .assert()
        .success()
        .stderr(predicates::str::contains("0 runs in"));
}
