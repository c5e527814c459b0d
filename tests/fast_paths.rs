//! The fast pure-Warnsdorff kernel against its twins: for every rule, the kernel (`Solver::solve`)
//! gives the identical path, outcome and counters as the plain incremental loop
//! (`Solver::solve_plain`) on every start of every n x n board, n = 5..40, and of some rectangles;
//! against the slow reference (`reference::warnsdorff`, recounts from scratch) on a smaller range; and
//! `run_batch`, which interleaves runs, gives the same summaries as one `run` per request.

use ktour::board::{Board, Square};
use ktour::solve::rules::LabelOrder;
use ktour::solve::{reference, Method, Outcome, Request, Rule, RunSummary, Solver, SolverOptions};

/// Every rule of the first wave that applies from every start (`squirrel` starts in the corner only:
/// its own tests below), three more fixed orders, and the chains that take a fast path by their
/// shape (a distance key with another order).
fn rules() -> Vec<Rule> {
    let orders = [
        "order:87654321",
        "order:58143627",
        "order:36875124",
        "roth+order:87654321",
        "center+order:56781234",
    ];
    Rule::catalogued()
        .filter(|r| *r != Rule::Squirrel)
        .chain(orders.iter().map(|r| r.parse().unwrap()))
        .collect()
}

fn boards() -> Vec<Board> {
    let mut b: Vec<Board> = (5..=40).map(|n| Board::square(n).unwrap()).collect();
    for (r, c) in [(5, 8), (9, 6), (3, 10), (12, 31), (40, 7), (1, 1), (4, 4)] {
        b.push(Board::new(r, c).unwrap());
    }
    b
}

fn seed_of(start: Square) -> u64 {
    7 + 1000 * start.row() as u64 + start.col() as u64
}

#[test]
fn kernel_equals_plain_loop_for_every_rule_on_all_starts_of_boards_5_to_40() {
    let mut fast = Solver::new();
    let mut plain = Solver::new();
    let mut runs = 0;
    for b in boards() {
        for rule in rules() {
            for start in b.squares() {
                let mut req = Request::warnsdorff(b, start, rule);
                req.seed = seed_of(start);
                let f = fast.solve(&req).unwrap();
                let p = plain.solve_plain(&req).unwrap();
                assert_eq!(f.outcome, p.outcome, "{b} {rule} from {start}");
                assert_eq!(f.squares, p.squares, "{b} {rule} from {start}");
                assert_eq!(f.stats.nodes, p.stats.nodes, "{b} {rule} from {start}");
                assert_eq!(f.stats.ties, p.stats.ties, "{b} {rule} from {start}");
                runs += 1;
            }
        }
        // squirrel is defined from the corner of square boards
        if b.rows() == b.cols() && b.rows() >= 5 {
            let req = Request::warnsdorff(b, Square::new(0, 0), Rule::Squirrel);
            let f = fast.solve(&req).unwrap();
            let p = plain.solve_plain(&req).unwrap();
            assert_eq!(f.squares, p.squares, "{b} squirrel");
            assert_eq!(f.orderings, p.orderings, "{b} squirrel");
            assert_eq!(f.stats.ties, p.stats.ties, "{b} squirrel");
        }
    }
    assert!(runs > 100_000);
}

/// Large boards decide the distance rules' ties from the head's row and column
/// (`walk::geometry::Distance`), as does a single walk of any board: checked against the plain loop,
/// which computes the keys itself, from starts in every region of the board (each region prefers
/// moves in its own order).
#[test]
fn kernel_equals_plain_loop_for_distance_rules_on_large_boards() {
    let mut fast = Solver::new();
    let mut plain = Solver::new();
    for (rows, cols) in [(510u16, 510u16), (600, 523)] {
        let b = Board::new(rows.into(), cols.into()).unwrap();
        for rule in ["roth", "roth-original", "roth-halfup", "center"] {
            let rule: Rule = rule.parse().unwrap();
            for start in [
                (0, 0),
                (rows / 2, cols / 2),
                (17, cols - 40),
                (rows - 3, 101),
            ] {
                let req = Request::warnsdorff(b, Square::new(start.0, start.1), rule);
                let f = fast.solve(&req).unwrap();
                let p = plain.solve_plain(&req).unwrap();
                assert_eq!(f.outcome, p.outcome, "{b} {rule} from {start:?}");
                assert_eq!(f.squares, p.squares, "{b} {rule} from {start:?}");
                assert_eq!(f.stats.ties, p.stats.ties, "{b} {rule} from {start:?}");
            }
        }
    }
}

/// A batch of many runs of a distance rule takes the per-square class table where the board is
/// not large (`walk::geometry::tables_pay`) and the row-and-column tie otherwise, one run or a few
/// the latter everywhere: on both sides of the threshold (508 and 509), by the batch, by single
/// runs and by the plain loop, the same summaries.
#[test]
fn distance_rules_agree_on_both_sides_of_the_table_threshold() {
    let (mut batch, mut single, mut plain) = (Solver::new(), Solver::new(), Solver::new());
    for n in [508u16, 509] {
        let b = Board::square(n.into()).unwrap();
        for rule in ["roth", "roth-original", "roth-halfup", "center"] {
            let rule: Rule = rule.parse().unwrap();
            let reqs: Vec<Request> = (0..8u16)
                .map(|i| Request::warnsdorff(b, Square::new(i * 61 % n, i * 37 % n), rule))
                .collect();
            for few in [&reqs[..], &reqs[..3]] {
                let mut got = Vec::new();
                batch.run_batch(few, &mut got).unwrap();
                for (req, g) in few.iter().zip(&got) {
                    let s = single.run(req).unwrap();
                    assert_eq!(timeless(g), timeless(&s), "{req:?}");
                    let p = plain.solve_plain(req).unwrap();
                    assert_eq!(g.visited as usize, p.squares.len(), "{req:?}");
                    assert_eq!(g.stats.ties, p.stats.ties, "{req:?}");
                }
            }
        }
    }
}

#[test]
fn kernel_equals_slow_reference_on_all_starts_of_small_boards() {
    let mut fast = Solver::new();
    for n in 5..=16 {
        let b = Board::square(n).unwrap();
        for rule in rules() {
            for start in b.squares() {
                let mut req = Request::warnsdorff(b, start, rule);
                req.seed = seed_of(start);
                let f = fast.solve(&req).unwrap();
                if matches!(f.outcome, Outcome::Impossible(_)) {
                    continue;
                }
                assert_eq!(
                    f.squares,
                    reference::warnsdorff(b, start, rule, req.seed),
                    "{b} {rule} from {start}"
                );
            }
        }
        let corner = Square::new(0, 0);
        let f = fast
            .solve(&Request::warnsdorff(b, corner, Rule::Squirrel))
            .unwrap();
        assert_eq!(
            f.squares,
            reference::warnsdorff(b, corner, Rule::Squirrel, 0)
        );
    }
}

#[test]
fn kernel_leaves_the_search_state_consistent() {
    let mut solver = Solver::new();
    for (n, rule) in [(8, "first"), (13, "pohl"), (21, "roth"), (10, "random")] {
        let b = Board::square(n).unwrap();
        for start in b.squares().step_by(5) {
            let req = Request::warnsdorff(b, start, rule.parse().unwrap());
            let sol = solver.solve(&req).unwrap();
            assert_eq!(solver.state().check_invariants(), Ok(()), "{b} {rule}");
            assert_eq!(solver.state().depth(), sol.squares.len());
        }
    }
}

/// A summary without its wall time, which differs run to run.
fn timeless(s: &RunSummary) -> RunSummary {
    let mut s = *s;
    s.stats.elapsed_ns = 0;
    s
}

/// `reqs` as one batch through `a` and through `b`: the same summaries, timing aside (a failure
/// names `context` and the request); `a`'s summaries.
fn batches_agree(
    a: &mut Solver,
    b: &mut Solver,
    reqs: &[Request],
    context: &str,
) -> Vec<RunSummary> {
    let (mut got, mut want) = (Vec::new(), Vec::new());
    a.run_batch(reqs, &mut got).unwrap();
    b.run_batch(reqs, &mut want).unwrap();
    for ((req, g), w) in reqs.iter().zip(&got).zip(&want) {
        assert_eq!(timeless(g), timeless(w), "{context}{req:?}");
    }
    got
}

#[test]
fn run_batch_gives_the_summaries_of_single_runs() {
    let mut batch_solver = Solver::new();
    let mut single = Solver::new();
    let mut reqs = Vec::new();
    for (n, rule) in [
        (8, "first"),
        (7, "roth"),
        (9, "pohl"),
        (10, "random"),
        (6, "order:36875124"),
        (12, "center"),
        (11, "roth-original"),
        (13, "roth-halfup"),
        (30, "first"),
        (3, "first"),
    ] {
        let b = Board::square(n).unwrap();
        for (i, start) in b.squares().enumerate() {
            let mut req = Request::warnsdorff(b, start, rule.parse().unwrap());
            req.seed = seed_of(start);
            req.closure = ktour::board::Closure::of(i % 3 == 0);
            reqs.push(req);
        }
    }
    // squirrel, and a backtracking request in the middle of Warnsdorff ones
    for n in [8, 9, 10] {
        let b = Board::square(n).unwrap();
        reqs.push(Request::warnsdorff(b, Square::new(0, 0), Rule::Squirrel));
        let mut bt = Request::warnsdorff(b, Square::new(0, 0), Rule::FIRST);
        bt.method = Method::Backtrack;
        bt.budget = 10_000;
        reqs.push(bt);
    }
    let mut out = Vec::new();
    batch_solver.run_batch(&reqs, &mut out).unwrap();
    assert_eq!(out.len(), reqs.len());
    let mut found = 0;
    for (req, got) in reqs.iter().zip(&out) {
        let want = single.run(req).unwrap();
        assert_eq!(timeless(got), timeless(&want), "{req:?}");
        found += usize::from(got.outcome == Outcome::Found);
    }
    assert!(found > 100);
}

/// Batches of every size from 1 to 9 (so every number of live lanes, and lanes ending and being
/// refilled in every position of a round), and boards large enough that a worker walks one or two
/// lanes at a time, give the summaries of single runs.
#[test]
fn run_batch_agrees_for_every_batch_size_and_lane_count() {
    let mut batch_solver = Solver::new();
    let mut single = Solver::new();
    let mut check = |reqs: &[Request]| {
        let mut out = Vec::new();
        batch_solver.run_batch(reqs, &mut out).unwrap();
        for (req, got) in reqs.iter().zip(&out) {
            assert_eq!(
                timeless(got),
                timeless(&single.run(req).unwrap()),
                "{req:?}"
            );
        }
    };
    // batches of up to 9 of `roth` cross the size at which its table pays (8)
    for rule in ["first", "roth", "pohl", "random"] {
        let rule: Rule = rule.parse().unwrap();
        let b = Board::new(9, 11).unwrap();
        let starts: Vec<Square> = b.squares().step_by(7).collect();
        for size in 1..=9 {
            let reqs: Vec<Request> = starts[..size]
                .iter()
                .map(|&s| {
                    let mut r = Request::warnsdorff(b, s, rule);
                    r.seed = seed_of(s);
                    r
                })
                .collect();
            check(&reqs);
        }
        // 600 x 600: two lanes fit the worker's memory; 1100 x 1000: one
        for (rows, cols) in [(600u16, 600u16), (1100, 1000)] {
            let b = Board::new(rows.into(), cols.into()).unwrap();
            let reqs: Vec<Request> = [(0, 0), (299, 17), (rows - 1, cols - 3)]
                .iter()
                .map(|&(r, c)| {
                    let mut req = Request::warnsdorff(b, Square::new(r, c), rule);
                    req.seed = 99;
                    req
                })
                .collect();
            check(&reqs);
        }
    }
}

#[test]
fn run_batch_stops_at_the_first_bad_request() {
    let b = Board::square(8).unwrap();
    let mut reqs: Vec<Request> = b
        .squares()
        .take(10)
        .map(|s| Request::warnsdorff(b, s, Rule::FIRST))
        .collect();
    reqs[6].start = Square::new(9, 0);
    let mut out = Vec::new();
    let err = Solver::new().run_batch(&reqs, &mut out).unwrap_err();
    assert!(err.to_string().contains("off the"), "{err}");
    assert_eq!(out.len(), 6);
    let mut single = Solver::new();
    for (req, got) in reqs.iter().zip(&out) {
        assert_eq!(timeless(got), timeless(&single.run(req).unwrap()));
    }
    // squirrel refused mid-batch: same contract
    let reqs = [
        Request::warnsdorff(b, Square::new(0, 0), Rule::Squirrel),
        Request::warnsdorff(b, Square::new(1, 0), Rule::Squirrel),
    ];
    let mut out = Vec::new();
    assert!(Solver::new().run_batch(&reqs, &mut out).is_err());
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].outcome, Outcome::Found);
}

#[test]
fn batch_elapsed_time_is_shared_by_squares_visited() {
    let b = Board::square(20).unwrap();
    let reqs: Vec<Request> = b
        .squares()
        .map(|s| Request::warnsdorff(b, s, Rule::FIRST))
        .collect();
    let mut out = Vec::new();
    Solver::new().run_batch(&reqs, &mut out).unwrap();
    assert!(out.iter().map(|s| s.stats.elapsed_ns).sum::<u64>() > 0);
    for s in &out {
        assert_eq!(s.stats.nodes, u64::from(s.visited));
    }
}

/// The small-board kernel (batches on boards of at most 64 squares) against the byte kernel of
/// single runs and the slow reference: every start of every board that fits, every rule with a
/// chooser, open and closed. `shuffle` takes the window step there by default (as `bytes` walks
/// it); without the window step it takes the small-board kernel, as `batch_solver` walks it.
#[test]
fn small_board_kernel_equals_byte_kernel_and_reference_on_every_board_that_fits() {
    let mut batch_solver = Solver::with_options(SolverOptions::new().window_step(false));
    let mut bytes = Solver::with_options(SolverOptions::new().small_kernel(false));
    let mut single = Solver::new();
    let mut walks = 0;
    for rows in 1..=64u64 {
        for cols in 1..=64 / rows {
            let b = Board::new(rows, cols).unwrap();
            let mut rules = rules();
            if rows == cols && rows >= 5 {
                rules.push(Rule::Squirrel);
            }
            for rule in rules {
                for closed in [false, true] {
                    let reqs: Vec<Request> = b
                        .squares()
                        .filter(|s| rule != Rule::Squirrel || *s == Square::new(0, 0))
                        .map(|s| {
                            let mut r = Request::warnsdorff(b, s, rule);
                            r.seed = seed_of(s);
                            r.closure = ktour::board::Closure::of(closed);
                            r
                        })
                        .collect();
                    let (mut out, mut byte_out) = (Vec::new(), Vec::new());
                    batch_solver.run_batch(&reqs, &mut out).unwrap();
                    bytes.run_batch(&reqs, &mut byte_out).unwrap();
                    for ((req, got), by_bytes) in reqs.iter().zip(&out).zip(&byte_out) {
                        assert_eq!(timeless(got), timeless(by_bytes), "{req:?}");
                        let want = single.run(req).unwrap();
                        assert_eq!(timeless(got), timeless(&want), "{req:?}");
                        if matches!(got.outcome, Outcome::Impossible(_)) {
                            continue;
                        }
                        let path = reference::warnsdorff(b, req.start, rule, req.seed);
                        assert_eq!(got.visited as usize, path.len(), "{req:?}");
                        let last = *path.last().unwrap();
                        let closes = path.len() == b.len() as usize
                            && b.len() > 2
                            && b.neighbours(last).any(|n| n == req.start);
                        assert_eq!(got.closes, closes, "{req:?}");
                        walks += 1;
                    }
                }
            }
        }
    }
    assert!(walks > 50_000, "{walks}");
}

/// The tie tree (on by default: the walks of fixed orderings on boards of at most 64 squares,
/// shared by the batches of one board) against the small-board kernel walking every run itself:
/// one ordering in seven of the 40,320, from every start of boards of several shapes, open and
/// closed, four orderings a batch, each solver keeping its state from batch to batch.
#[test]
fn tie_tree_equals_the_small_board_kernel_on_thousands_of_orderings() {
    let mut tree = Solver::new();
    let mut walker = Solver::with_options(SolverOptions::new().tie_tree(false));
    let mut runs = 0;
    for (rows, cols) in [
        (8, 8),
        (5, 5),
        (6, 6),
        (5, 8),
        (7, 9),
        (4, 16),
        (3, 4),
        (1, 1),
    ] {
        let b = Board::new(rows, cols).unwrap();
        let orderings: Vec<Rule> = LabelOrder::all().step_by(7).map(Rule::order).collect();
        for (i, four) in orderings.chunks(4).enumerate() {
            let closure = ktour::board::Closure::of(i % 2 == 1);
            let reqs: Vec<Request> = four
                .iter()
                .flat_map(|&rule| {
                    b.squares().map(move |s| {
                        let mut r = Request::warnsdorff(b, s, rule);
                        r.closure = closure;
                        r
                    })
                })
                .collect();
            batches_agree(&mut tree, &mut walker, &reqs, "");
            runs += reqs.len();
        }
    }
    assert!(runs > 1_000_000, "{runs}");
}

/// The window step (fixed orderings on boards past 64 squares: four 8-byte row windows a step,
/// eight walks side by side) against the byte kernel's step: every start of boards of many shapes
/// (thin ones, whose windows reach across the border into the next board's slack, and ones wider
/// than tall and taller than wide), open and closed, `first` and orderings spread over the
/// 40,320, in batches of every size from 1 to 13, so that every number of live lanes is met and
/// the last two walks of a batch finish in the byte step. Summaries equal, and the length of
/// every walk equals the slow reference's on the smaller boards. Then batches that mix the
/// orderings, which the window step walks side by side, and batches of `shuffle` (an ordering
/// drawn a run), against the plain loop.
#[test]
fn window_step_equals_the_byte_step_on_every_start() {
    let mut window = Solver::new();
    let mut bytes = Solver::with_options(SolverOptions::new().window_step(false));
    let mut orders: Vec<Rule> = LabelOrder::all().step_by(2_003).map(Rule::order).collect();
    orders.push(Rule::FIRST);
    let mut runs = 0;
    for (rows, cols) in [
        (9, 9),
        (3, 30),
        (30, 3),
        (4, 17),
        (5, 13),
        (10, 11),
        (7, 40),
        (40, 7),
    ] {
        let b = Board::new(rows, cols).unwrap();
        for (i, &rule) in orders.iter().enumerate() {
            for closed in [false, true] {
                let reqs: Vec<Request> = b
                    .squares()
                    .map(|s| {
                        let mut r = Request::warnsdorff(b, s, rule);
                        r.closure = ktour::board::Closure::of(closed);
                        r
                    })
                    .collect();
                let size = 1 + (i + usize::from(closed)) % 13;
                for chunk in reqs.chunks(size) {
                    let got = batches_agree(&mut window, &mut bytes, chunk, "");
                    for (req, g) in chunk.iter().zip(&got) {
                        if b.len() <= 100 && !matches!(g.outcome, Outcome::Impossible(_)) {
                            let path = reference::warnsdorff(b, req.start, rule, req.seed);
                            assert_eq!(g.visited as usize, path.len(), "{req:?}");
                        }
                        runs += 1;
                    }
                }
            }
        }
    }
    assert!(runs > 40_000, "{runs}");
    // one batch of many orderings from one start (as a corner sweep hands them), each ordering
    // twice in a row and some from other starts between: walks of different orderings side by side
    for (rows, cols) in [(9, 9), (3, 30), (12, 17), (40, 7)] {
        let b = Board::new(rows, cols).unwrap();
        for start in b.squares().step_by(5) {
            let mut reqs = Vec::new();
            for (i, &rule) in orders.iter().enumerate() {
                let s = if i % 5 == 4 { Square::new(0, 0) } else { start };
                reqs.extend([Request::warnsdorff(b, s, rule); 2]);
            }
            batches_agree(&mut window, &mut bytes, &reqs, "");
        }
    }
    // `shuffle` draws one ordering a run from its seed: batches of it (alone, and between fixed
    // orderings) take the window step, against the plain loop that reads the rule's definition
    let shuffle: Rule = "shuffle".parse().unwrap();
    for (rows, cols) in [(9, 9), (3, 30), (12, 17), (40, 7)] {
        let b = Board::new(rows, cols).unwrap();
        let mut reqs: Vec<Request> = b
            .squares()
            .map(|s| {
                let mut r = Request::warnsdorff(b, s, shuffle);
                r.seed = seed_of(s);
                r
            })
            .collect();
        for (i, &rule) in orders.iter().enumerate() {
            reqs.insert(
                3 * i % reqs.len(),
                Request::warnsdorff(b, Square::new(1, 2), rule),
            );
        }
        for size in [1, 2, 5, 32, reqs.len()] {
            for chunk in reqs.chunks(size) {
                batches_agree(&mut window, &mut bytes, chunk, "");
            }
        }
    }
    // a large board, where the lane memory decides how many walk side by side: eight (mixed), and
    // two (group by group, in the byte step)
    let b = Board::new(520, 530).unwrap();
    let reqs: Vec<Request> = orders[..6]
        .iter()
        .flat_map(|&rule| {
            [Square::new(0, 0), Square::new(260, 7)].map(|s| Request::warnsdorff(b, s, rule))
        })
        .collect();
    for lane_memory in [8.5, 2.0] {
        let lanes = SolverOptions::new().lane_memory(lane_memory);
        window = Solver::with_options(lanes.clone());
        bytes = Solver::with_options(lanes.window_step(false));
        let context = format!("lane memory {lane_memory}: ");
        batches_agree(&mut window, &mut bytes, &reqs, &context);
    }
}
