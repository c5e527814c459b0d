//! Node counts of Warnsdorff-ordered backtracking, pinned from the engine as it was before its
//! candidate ordering and neighbour scans were optimised (`benches/backtrack.rs`), and of `naive`,
//! pinned from the general loop before naive had its own: a faster engine must visit exactly the
//! same nodes in the same order, so the counts may not move.

use ktour::board::{Board, Square};
use ktour::solve::{Method, Outcome, Request, Rule, Solver};

fn total(rule: &str, closed: bool, starts: &[Square], seed: u64) -> (u64, u64) {
    totals(Method::Backtrack, 8, 8, rule, closed, starts, seed)
}

fn totals(
    method: Method,
    rows: u64,
    cols: u64,
    rule: &str,
    closed: bool,
    starts: &[Square],
    seed: u64,
) -> (u64, u64) {
    let b = Board::new(rows, cols).unwrap();
    let mut solver = Solver::new();
    let (mut nodes, mut found) = (0, 0);
    for &start in starts {
        let r = Request {
            board: b,
            start,
            closure: ktour::board::Closure::of(closed),
            method,
            rule: rule.parse::<Rule>().unwrap(),
            budget: 20_000_000,
            seed,
            closing: Default::default(),
            prune: true,
        };
        let s = solver.run(&r).unwrap();
        nodes += s.stats.nodes;
        found += u64::from(s.outcome == Outcome::Found);
    }
    (nodes, found)
}

#[test]
fn backtracking_node_counts_are_pinned() {
    let all: Vec<Square> = Board::square(8).unwrap().squares().collect();
    assert_eq!(total("first", false, &all, 0), (4113, 64));
    assert_eq!(total("first", true, &all, 0), (5063, 64));
    assert_eq!(total("roth", true, &all, 0), (4221, 64));
    assert_eq!(total("center", true, &all, 5), (5527, 64));
    assert_eq!(total("random", true, &all, 5), (220_825, 64));
    assert_eq!(total("roth-original", true, &all, 5), (5130, 64));
    assert_eq!(
        total("order:36875124", true, &[Square::new(6, 3)], 0),
        (264_790, 1)
    );
}

#[test]
fn naive_node_counts_are_pinned() {
    let naive = |rows, cols, rule, closed, (r, c)| {
        totals(
            Method::Naive,
            rows,
            cols,
            rule,
            closed,
            &[Square::new(r, c)],
            0,
        )
    };
    assert_eq!(naive(8, 8, "first", false, (0, 0)), (3_242_065, 1));
    assert_eq!(naive(7, 7, "first", false, (0, 0)), (11_272_348, 1));
    assert_eq!(naive(7, 7, "order:87654321", false, (0, 0)), (133_016, 1));
    assert_eq!(naive(5, 8, "order:36274518", false, (0, 0)), (56_651, 1));
    assert_eq!(naive(6, 6, "first", true, (0, 0)), (474_019, 1));
    assert_eq!(naive(5, 6, "first", true, (1, 2)), (2_171_361, 1));
    assert_eq!(naive(6, 6, "order:51627384", true, (2, 3)), (13_958_727, 1));
}
