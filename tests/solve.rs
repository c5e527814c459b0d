//! The foundation: test vectors from the literature, exhaustive proofs on small boards, closed tours,
//! the existence oracle against search, and the explicit stack. Every tour goes through the verifier.

use ktour::board::{is_closed_tour, Closure};
use ktour::board::{Board, Square};
use ktour::exists;
use ktour::solve::{
    reference, Closing, Impossibility, Method, Outcome, Request, Rule, Solution, Solver,
    SolverOptions, Stats,
};
use ktour::verify::{verify_path, verify_tour, TourKind};

fn sq(r: u16, c: u16) -> Square {
    Square::new(r, c)
}

fn req(board: Board, start: Square, method: Method, closed: bool) -> Request {
    Request {
        board,
        start,
        closure: Closure::of(closed),
        method,
        rule: Rule::FIRST,
        budget: 0,
        seed: 0,
        closing: Default::default(),
        prune: true,
    }
}

/// Every tour a solver reports is checked here, by the independent verifier.
fn check(sol: &Solution) {
    match sol.outcome {
        Outcome::Found => {
            let kind = verify_tour(sol.request.board, &sol.squares)
                .unwrap_or_else(|e| panic!("{:?}: {e}", sol.request));
            if sol.request.closure.is_closed() {
                assert_eq!(kind, TourKind::Closed, "{:?}", sol.request);
            }
            assert_eq!(sol.squares[0], sol.request.start);
        }
        Outcome::DeadEnd | Outcome::NotClosed | Outcome::BudgetExhausted => {
            verify_path(sol.request.board, &sol.squares).unwrap()
        }
        Outcome::Impossible(_) => {}
    }
}

#[test]
fn squirrel_cull_8x8_test_vector() {
    // Squirrel & Cull 1996, p.112: pure Warnsdorff, `first`, from (0,0).
    let expected = [
        [1, 16, 27, 22, 3, 18, 47, 56],
        [26, 23, 2, 17, 46, 57, 4, 19],
        [15, 28, 25, 62, 21, 48, 55, 58],
        [24, 35, 30, 45, 60, 63, 20, 5],
        [29, 14, 61, 34, 49, 44, 59, 54],
        [36, 31, 38, 41, 64, 53, 6, 9],
        [13, 40, 33, 50, 11, 8, 43, 52],
        [32, 37, 12, 39, 42, 51, 10, 7],
    ];
    let b = Board::square(8).unwrap();
    let sol = Solver::new()
        .solve(&Request::warnsdorff(b, sq(0, 0), Rule::FIRST))
        .unwrap();
    assert_eq!(sol.outcome, Outcome::Found);
    check(&sol);
    for (i, s) in sol.squares.iter().enumerate() {
        assert_eq!(
            expected[s.row() as usize][s.col() as usize],
            i + 1,
            "square {s}"
        );
    }
}

#[test]
fn squirrel_cull_5x5_dead_end_after_17_squares() {
    // Same paper, p.113: 5x5 from (0,2) with order 36875124 dead-ends after 17 squares.
    let b = Board::square(5).unwrap();
    let rule: Rule = "order:36875124".parse().unwrap();
    let sol = Solver::new()
        .solve(&Request::warnsdorff(b, sq(0, 2), rule))
        .unwrap();
    assert_eq!(sol.outcome, Outcome::DeadEnd);
    assert_eq!(sol.squares.len(), 17);
    check(&sol);
    assert_eq!(sol.squares, reference::warnsdorff(b, sq(0, 2), rule, 0));
}

#[test]
fn five_by_five_tours_exist_exactly_from_the_13_majority_squares() {
    let b = Board::square(5).unwrap();
    let mut solver = Solver::new();
    for method in [Method::Backtrack, Method::Naive] {
        let mut found = 0;
        for start in b.squares() {
            // search alone: the wrong-colour starts must be refuted by exhausting the search
            let sol = solver
                .solve_by_search_alone(&req(b, start, method, false))
                .unwrap();
            check(&sol);
            if Board::is_corner_colour(start) {
                assert_eq!(sol.outcome, Outcome::Found, "{method} from {start}");
                found += 1;
            } else {
                assert_eq!(
                    sol.outcome,
                    Outcome::Impossible(Impossibility::Exhausted),
                    "{method} from {start}"
                );
            }
        }
        assert_eq!(found, 13);
    }
}

#[test]
fn naive_finds_the_same_first_tour_as_plain_recursion() {
    let mut solver = Solver::new();
    for (r, c, closed) in [
        (5, 5, false),
        (3, 4, false),
        (3, 7, false),
        (5, 6, true),
        (3, 10, true),
    ] {
        let b = Board::new(r, c).unwrap();
        for start in b.squares().take(6) {
            let sol = solver
                .solve_by_search_alone(&req(b, start, Method::Naive, closed))
                .unwrap();
            check(&sol);
            let slow = reference::first_tour_recursive(b, start, Closure::of(closed));
            match slow {
                Some(tour) => assert_eq!(sol.squares, tour, "{b} from {start}"),
                None => assert_eq!(sol.outcome, Outcome::Impossible(Impossibility::Exhausted)),
            }
        }
    }
}

#[test]
fn backtrack_finds_closed_tours() {
    let mut solver = Solver::new();
    for (r, c) in [
        (6, 6),
        (8, 8),
        (10, 10),
        (5, 6),
        (3, 10),
        (6, 5),
        (10, 3),
        (12, 12),
    ] {
        let b = Board::new(r, c).unwrap();
        let sol = solver
            .solve(&req(b, sq(0, 0), Method::Backtrack, true))
            .unwrap();
        assert_eq!(sol.outcome, Outcome::Found, "{b}");
        check(&sol);
        assert!(ktour::tour::TourRecord::from(&sol).closed);
    }
}

#[test]
fn naive_finds_closed_tours_on_small_boards() {
    let mut solver = Solver::new();
    for (r, c) in [(5, 6), (3, 10), (6, 6)] {
        let b = Board::new(r, c).unwrap();
        let sol = solver
            .solve(&req(b, sq(0, 0), Method::Naive, true))
            .unwrap();
        assert_eq!(sol.outcome, Outcome::Found, "{b}");
        check(&sol);
    }
}

/// The oracle says yes exactly when exhaustive search finds a tour, on every board of at most 30
/// squares: open tours from any start, closed tours from (0,0) (a cycle passes through every square).
#[test]
fn existence_oracle_agrees_with_exhaustive_search_up_to_30_squares() {
    let mut solver = Solver::new();
    for rows in 1..=30u64 {
        for cols in 1..=30 / rows {
            let b = Board::new(rows, cols).unwrap();
            // open
            let mut any = false;
            for start in b.squares() {
                let sol = solver
                    .solve_by_search_alone(&req(b, start, Method::Backtrack, false))
                    .unwrap();
                check(&sol);
                assert_ne!(sol.outcome, Outcome::BudgetExhausted);
                if sol.outcome == Outcome::Found {
                    any = true;
                    break;
                }
            }
            assert_eq!(any, exists::open_tour(b).is_ok(), "open tours on {b}");
            // closed
            let sol = solver
                .solve_by_search_alone(&req(b, sq(0, 0), Method::Backtrack, true))
                .unwrap();
            check(&sol);
            assert_eq!(
                sol.outcome == Outcome::Found,
                exists::closed_tour(b).is_ok(),
                "closed tours on {b}"
            );
        }
    }
}

#[test]
fn theorem_answers_without_search() {
    let mut solver = Solver::new();
    let sol = solver
        .solve(&req(
            Board::new(4, 4).unwrap(),
            sq(0, 0),
            Method::Backtrack,
            false,
        ))
        .unwrap();
    assert!(matches!(
        sol.outcome,
        Outcome::Impossible(Impossibility::Theorem(_))
    ));
    assert_eq!(sol.stats.nodes, 0);
    let sol = solver
        .solve(&req(
            Board::new(5, 5).unwrap(),
            sq(0, 0),
            Method::Backtrack,
            true,
        ))
        .unwrap();
    assert!(matches!(
        sol.outcome,
        Outcome::Impossible(Impossibility::Theorem(_))
    ));
}

#[test]
fn budget_stops_the_search() {
    // Searches that need many nodes without a budget: the Warnsdorff-ordered one (mask loop) and
    // the label-order one (general loop), both for a closed tour on 8x8.
    let b = Board::square(8).unwrap();
    let mut bt = req(b, sq(6, 3), Method::Backtrack, true);
    bt.rule = "order:36875124".parse().unwrap();
    let naive = req(b, sq(0, 0), Method::Naive, false);
    let mut solver = Solver::new();
    for r in [bt, naive] {
        let full = solver.solve(&r).unwrap();
        check(&full);
        assert_eq!(full.outcome, Outcome::Found, "{r:?}");
        let needed = full.stats.nodes;
        assert!(needed > 10_000, "{r:?} needs only {needed} nodes");
        // any budget below the need stops the search at exactly the budget
        for budget in [1_000, needed / 2, needed - 1] {
            let sol = solver.solve(&Request { budget, ..r }).unwrap();
            check(&sol);
            assert_eq!(
                sol.outcome,
                Outcome::BudgetExhausted,
                "{r:?} budget {budget}"
            );
            assert_eq!(sol.stats.nodes, budget, "{r:?}");
        }
        // a budget of exactly the need is enough, and finds the same tour
        let sol = solver
            .solve(&Request {
                budget: needed,
                ..r
            })
            .unwrap();
        assert_eq!(sol.outcome, Outcome::Found, "{r:?}");
        assert_eq!(
            (sol.squares, sol.stats),
            (
                full.squares,
                Stats {
                    elapsed_ns: sol.stats.elapsed_ns,
                    ..full.stats
                }
            )
        );
    }
}

#[test]
fn backtracking_on_1000x1000_does_not_use_the_call_stack() {
    // A 128 KiB thread stack: any recursion per square would overflow it long before depth 10^6.
    // Both engines: Warnsdorff-ordered (the mask loop) and naive's label order.
    for (method, rule) in [
        (Method::Backtrack, Rule::Squirrel),
        (Method::Naive, Rule::FIRST),
    ] {
        let handle = std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || {
                let b = Board::square(1000).unwrap();
                let mut r = req(b, sq(0, 0), method, false);
                r.budget = 3_000_000;
                r.rule = rule;
                let sol = Solver::new().solve(&r).unwrap();
                check(&sol);
                sol.squares.len()
            })
            .unwrap();
        let depth = handle.join().expect("no stack overflow");
        assert!(depth > 100_000, "{method}: the search went deep: {depth}");
    }
}

#[test]
fn solver_reuses_state_across_boards() {
    let mut solver = Solver::new();
    for n in [8u64, 5, 12, 6, 8] {
        let b = Board::square(n).unwrap();
        for start in [sq(0, 0), sq(2, 0)] {
            let sol = solver
                .solve(&req(b, start, Method::Backtrack, false))
                .unwrap();
            assert_eq!(sol.outcome, Outcome::Found, "{b} {start}");
            check(&sol);
            assert_eq!(solver.state().check_invariants(), Ok(()));
        }
    }
}

#[test]
fn single_square_board() {
    let b = Board::new(1, 1).unwrap();
    for method in [Method::Warnsdorff, Method::Backtrack, Method::Naive] {
        let sol = Solver::new()
            .solve(&req(b, sq(0, 0), method, false))
            .unwrap();
        assert_eq!(sol.outcome, Outcome::Found);
        check(&sol);
    }
    // rotate closes its path, and 1x1 has no closed tour
    let sol = Solver::new()
        .solve(&req(b, sq(0, 0), Method::Rotate, false))
        .unwrap();
    assert!(matches!(
        sol.outcome,
        Outcome::Impossible(Impossibility::Theorem(_))
    ));
}

#[test]
fn rotate_closes_warnsdorff_paths_from_the_start() {
    let mut solver = Solver::new();
    let mut closed = 0;
    for n in (6..=40u64).step_by(2) {
        let b = Board::square(n).unwrap();
        for start in [sq(0, 0), sq(1, 3)] {
            let sol = solver.solve(&req(b, start, Method::Rotate, true)).unwrap();
            check(&sol); // a found tour is verified closed and begins at the start
            if sol.outcome == Outcome::Found {
                closed += 1;
                // the rotations reported are those the closer makes on the Warnsdorff path
                let mut path = solver
                    .solve(&req(b, start, Method::Warnsdorff, false))
                    .unwrap()
                    .squares;
                let closing = ktour::solve::posa::close_path(b, &mut path).unwrap();
                assert_eq!(sol.stats.rotations, closing.rotations, "{b} from {start}");
            } else {
                // Pósa rotations only repair a complete path; a Warnsdorff dead end stays one
                assert_eq!(sol.outcome, Outcome::DeadEnd, "{b} from {start}");
            }
        }
    }
    assert!(closed >= 30, "rotate closed {closed} of 36");
    // and other methods make none
    let b = Board::square(8).unwrap();
    let plain = solver.solve(&req(b, sq(0, 0), Method::Warnsdorff, false));
    assert_eq!(plain.unwrap().stats.rotations, 0);
}

#[test]
fn rotate_spends_at_most_its_rotation_budget_and_reports_each_rotation() {
    // 30x30 from the corner closes after 38 rotations: any budget below gives up having made
    // exactly that many, a budget of 38 or none (0) closes, and progress hears of every rotation.
    use ktour::solve::posa::CloseProgress;
    use ktour::solve::rotate::RotateProgress;
    use std::sync::{Arc, Mutex};
    let b = Board::square(30).unwrap();
    let r = req(b, sq(0, 0), Method::Rotate, true);
    let needed = Solver::new().solve(&r).unwrap().stats.rotations;
    assert_eq!(needed, 38);
    for (budget, closes) in [(1, false), (needed - 1, false), (needed, true), (0, true)] {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&heard);
        let progress = RotateProgress(Arc::new(move |p: &CloseProgress| {
            log.lock().unwrap().push(*p)
        }));
        let options = SolverOptions::new()
            .rotations(budget)
            .rotate_progress(progress);
        let mut solver = Solver::with_options(options);
        let sol = solver.solve(&r).unwrap();
        check(&sol);
        let want = if closes {
            Outcome::Found
        } else {
            Outcome::NotClosed
        };
        assert_eq!(sol.outcome, want, "budget {budget}");
        let made = sol.stats.rotations;
        assert_eq!(made, if closes { needed } else { budget });
        let heard = heard.lock().unwrap();
        let counts: Vec<u64> = heard.iter().map(|p| p.rotations).collect();
        assert_eq!(counts, (1..=made).collect::<Vec<_>>(), "budget {budget}");
        let max = if budget == 0 { u64::MAX } else { budget };
        assert!(heard.iter().all(|p| p.max_rotations == max));
        assert!(heard.windows(2).all(|w| w[0].moved <= w[1].moved));
    }
}

#[test]
fn textbook_baseline_walks_like_the_solver() {
    // The benchmarks' ratios are only meaningful if the baseline computes the same thing.
    let mut solver = Solver::new();
    let mut grid = Vec::new();
    for (r, c) in [(8u64, 8u64), (5, 5), (12, 9), (30, 30)] {
        let b = Board::new(r, c).unwrap();
        for start in [sq(0, 0), sq(2, 1)] {
            let sol = solver
                .solve(&Request::warnsdorff(b, start, Rule::FIRST))
                .unwrap();
            if matches!(sol.outcome, Outcome::Impossible(_)) {
                continue;
            }
            let visited = reference::textbook_warnsdorff(
                r as i32,
                c as i32,
                (start.row() as i32, start.col() as i32),
                &mut grid,
            );
            assert_eq!(visited, sol.squares.len(), "{b} from {start}");
            for (i, s) in sol.squares.iter().enumerate() {
                assert_eq!(grid[b.index(*s) as usize], i as i32 + 1);
            }
        }
    }
}

/// Pure Warnsdorff keeping its start for last (HaskellWiki's closed-tour heuristic) against its
/// definition: the same walk on every start of small boards, for rules with and without random
/// parts; a closed tour exactly when the walk covers the board next to its start.
#[test]
fn start_last_walks_equal_the_reference() {
    let mut solver = Solver::new();
    let (mut closed_tours, mut walks) = (0, 0);
    for n in 5..=10 {
        let b = Board::square(n).unwrap();
        for rule in [
            "first",
            "pohl",
            "roth-original",
            "random",
            "pohl+gfg",
            "order:87654321",
        ] {
            let rule: Rule = rule.parse().unwrap();
            for start in b.squares() {
                let r = Request {
                    rule,
                    seed: 5 + start.col() as u64,
                    closing: Closing::StartLast,
                    ..req(b, start, Method::Warnsdorff, true)
                };
                let sol = solver.solve_by_search_alone(&r).unwrap();
                let want =
                    reference::warnsdorff_closing(b, start, rule, r.seed, Closing::StartLast);
                assert_eq!(sol.squares, want, "{b} {rule} from {start}");
                let covers = want.len() == b.len() as usize;
                let closes = covers && is_closed_tour(&want);
                let expected = match (covers, closes) {
                    (true, true) => Outcome::Found,
                    (true, false) => Outcome::NotClosed,
                    _ => Outcome::DeadEnd,
                };
                assert_eq!(sol.outcome, expected, "{b} {rule} from {start}");
                check(&sol);
                closed_tours += usize::from(closes);
                walks += 1;
            }
        }
    }
    // the heuristic closes a good share of these walks, and they differ from the checking walk
    assert!(closed_tours * 10 > walks, "{closed_tours} of {walks}");
}

#[test]
fn backtrack_finds_the_first_tour_of_the_recursive_reference() {
    // Warnsdorff-ordered backtracking against its definition by plain recursion: the same first tour
    // (or the same path where the budget stops both) after the same number of squares entered.
    let rules = [
        "first",
        "pohl",
        "roth",
        "center",
        "roth-original",
        "order:36875124",
        "pohl+roth",
        "center+pohl+order:87654321",
        "roth+order:56781234",
        "pohl+order:(2,1)(2,-1)(1,2)(1,-2)(-1,2)(-1,-2)(-2,1)(-2,-1)",
    ];
    let budget = 50_000;
    let mut solver = Solver::new();
    let (mut compared, mut backtracked) = (0, 0);
    for (rows, cols) in [(5, 5), (5, 6), (6, 6), (6, 7), (7, 7), (7, 8), (8, 8)] {
        let b = Board::new(rows, cols).unwrap();
        let starts = [sq(0, 0), sq(1, 2), sq(2, 2), sq(rows as u16 - 1, 3)];
        for rule in rules {
            let rule: Rule = rule.parse().unwrap();
            for start in starts {
                for (closed, prune) in [(false, true), (true, true), (false, false), (true, false)]
                {
                    if closed && b.len() % 2 == 1 {
                        continue; // no closed tour, and an exhaustive search would be long
                    }
                    let r = Request {
                        rule,
                        budget,
                        prune,
                        ..req(b, start, Method::Backtrack, closed)
                    };
                    let sol = solver.solve_by_search_alone(&r).unwrap();
                    check(&sol);
                    let closure = Closure::of(closed);
                    let want =
                        reference::backtrack_recursive(b, start, rule, closure, budget, prune);
                    let got = (sol.outcome, sol.squares, sol.stats.nodes);
                    assert_eq!(
                        got, want,
                        "{b} {start:?} {rule} closed={closed} prune={prune}"
                    );
                    compared += 1;
                    backtracked += usize::from(sol.stats.backtracks > 0);
                }
            }
        }
    }
    assert!(compared > 200, "{compared}");
    assert!(backtracked > 20, "only {backtracked} searches backtracked");
}

#[test]
fn naive_finds_the_first_tour_of_the_recursive_reference() {
    // `naive` against its definition by plain recursion, in the rule's label order: the same first
    // tour (or the same path where the budget stops both, or exhaustion) after the same number of
    // squares entered, from every start of small boards, open and closed.
    let orders = [
        "first",
        "order:87654321",
        "order:36274518",
        "order:51627384",
    ];
    let budget = 20_000;
    let mut solver = Solver::new();
    let (mut compared, mut found, mut stopped) = (0, 0, 0);
    for (rows, cols) in [(3, 4), (4, 4), (3, 7), (4, 5), (5, 5), (5, 6), (6, 6)] {
        let b = Board::new(rows, cols).unwrap();
        for rule in orders {
            let rule: Rule = rule.parse().unwrap();
            let order = rule.fixed_order().unwrap();
            for start in b.squares() {
                for closed in [false, true] {
                    let r = Request {
                        rule,
                        budget,
                        ..req(b, start, Method::Naive, closed)
                    };
                    let sol = solver.solve_by_search_alone(&r).unwrap();
                    check(&sol);
                    let closure = Closure::of(closed);
                    let want = reference::naive_recursive(b, start, order, closure, budget);
                    let got = (sol.outcome, sol.squares.clone(), sol.stats.nodes);
                    assert_eq!(got, want, "{b} {start:?} {rule} closed={closed}");
                    // every square entered is left again but those on the final path
                    let on_path = sol.squares.len() as u64;
                    assert_eq!(sol.stats.backtracks, sol.stats.nodes - on_path);
                    assert_eq!(sol.stats.ties, 0);
                    compared += 1;
                    found += usize::from(sol.outcome == Outcome::Found);
                    stopped += usize::from(sol.outcome == Outcome::BudgetExhausted);
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    assert!(
        found > 100 && stopped > 100,
        "found {found}, stopped {stopped}"
    );
}

#[test]
fn naive_searches_in_the_rules_label_order() {
    // A non-identity order is searched in that order: 7x7 from the corner takes 133,016 nodes in
    // reverse label order, as the recursive twin run in that order does, against 11,272,348 in
    // label order.
    let b = Board::square(7).unwrap();
    let reversed: Rule = "order:87654321".parse().unwrap();
    let order = reversed.fixed_order().unwrap();
    let mut solver = Solver::new();
    let run = |solver: &mut Solver, rule| {
        let r = Request {
            rule,
            ..req(b, sq(0, 0), Method::Naive, false)
        };
        let sol = solver.solve(&r).unwrap();
        check(&sol);
        sol
    };
    let sol = run(&mut solver, reversed);
    let twin = reference::naive_recursive(b, sq(0, 0), order, Closure::Open, 0);
    assert_eq!((sol.outcome, sol.squares, sol.stats.nodes), twin);
    assert_eq!(twin.2, 133_016);
    assert_eq!(run(&mut solver, Rule::FIRST).stats.nodes, 11_272_348);
}
