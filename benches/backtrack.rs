//! Warnsdorff-ordered backtracking throughput, in nodes (squares entered: make + ordering, and the
//! unmake when the branch fails) per second: open and closed tours on 8x8 from every start (short
//! runs: per-run setup included), and two closed 8x8 searches that backtrack a lot, where the node
//! rate of the engine itself shows: `order:36875124` from (6,3) (264,790 nodes, no secondary key) and
//! `pohl` from every start (803,627 nodes); and `random` from every start with 4 seeds (fresh keys
//! drawn at every node with a tie); `squirrel` from the corner, its domain (switching orderings as
//! the path grows): 8x8 closed, and a 12x12 closed search that exhausts a budget of 10^6 nodes. Every
//! other run must find its tour.
//! See `benches/README.md` for how to run and the latest figures.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ktour::board::Closure;
use ktour::board::{Board, Square};
use ktour::solve::{Method, Outcome, Request, Rule, Solver};
use std::time::Duration;

fn requests(board: Board, closed: bool, rule: Rule, starts: &[Square]) -> Vec<Request> {
    starts
        .iter()
        .map(|&s| Request {
            board,
            start: s,
            closure: Closure::of(closed),
            method: Method::Backtrack,
            rule,
            budget: 0,
            seed: 0,
            closing: Default::default(),
            prune: true,
        })
        .collect()
}

/// Nodes of one pass over `reqs`, asserting that every run finds its tour (or, with a budget,
/// spends it).
fn nodes(solver: &mut Solver, reqs: &[Request]) -> u64 {
    reqs.iter()
        .map(|r| {
            let s = solver.run(r).unwrap();
            let expected = if r.budget == 0 {
                Outcome::Found
            } else {
                Outcome::BudgetExhausted
            };
            assert_eq!(s.outcome, expected, "{r:?}");
            s.stats.nodes
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut solver = Solver::new();
    let mut group = c.benchmark_group("backtrack");
    let b8 = Board::square(8).unwrap();
    let all8: Vec<Square> = b8.squares().collect();
    let b12 = Board::square(12).unwrap();
    let hard = "order:36875124".parse().unwrap();
    let cases = [
        (
            "8x8-open/first/all-starts",
            requests(b8, false, Rule::FIRST, &all8),
        ),
        (
            "8x8-closed/first/all-starts",
            requests(b8, true, Rule::FIRST, &all8),
        ),
        (
            "8x8-closed/roth/all-starts",
            requests(b8, true, Rule::ROTH, &all8),
        ),
        (
            "8x8-closed/order:36875124/(6,3)",
            requests(b8, true, hard, &[Square::new(6, 3)]),
        ),
        (
            "8x8-closed/pohl/all-starts",
            requests(b8, true, Rule::POHL, &all8),
        ),
        (
            "8x8-closed/random/all-starts-4-seeds",
            (0..4)
                .flat_map(|seed| {
                    requests(b8, true, Rule::RANDOM, &all8)
                        .into_iter()
                        .map(move |r| Request { seed, ..r })
                })
                .collect(),
        ),
        (
            "8x8-closed/squirrel/(0,0)",
            requests(b8, true, Rule::Squirrel, &[Square::new(0, 0)]),
        ),
        (
            "12x12-closed/squirrel/(0,0)-budget-10^6",
            requests(b12, true, Rule::Squirrel, &[Square::new(0, 0)])
                .into_iter()
                .map(|r| Request {
                    budget: 1_000_000,
                    ..r
                })
                .collect(),
        ),
    ];
    for (name, reqs) in cases {
        let n = nodes(&mut solver, &reqs);
        group.throughput(Throughput::Elements(n));
        group.bench_function(
            BenchmarkId::from_parameter(format!("{name} ({n} nodes)")),
            |b| {
                b.iter(|| {
                    for r in &reqs {
                        black_box(solver.run(r).unwrap());
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
