//! Warnsdorff-ordered backtracking throughput, in nodes (squares entered: make + ordering, and the
//! unmake when the branch fails) per second: open and closed tours on 8x8 from every start (short
//! runs: per-run setup included), and two closed 8x8 searches that backtrack a lot, where the node
//! rate of the engine itself shows: `order:36875124` from (6,3) (264,790 nodes, no secondary key) and
//! `pohl` from every start (803,627 nodes); and `random` from every start with 4 seeds (fresh keys
//! drawn at every node with a tie); `squirrel` from the corner, its domain (switching orderings as
//! the path grows): 8x8 closed, and a 12x12 closed search that exhausts a budget of 10^6 nodes. Every
//! other run must find its tour.
//!
//! The `naive` group times `naive` against its baseline, the plain recursive C search of
//! `benches/c/naive.c` (compiled here with `cc -O2`, or `$CC`), on the same searches: the two must
//! count the same nodes. Besides criterion's figures for each (wall time), it prints ktour / baseline
//! in CPU time as the median of alternated runs: the C program times its own search, so neither
//! counts start-up, and CPU time leaves out what other processes take on a shared machine.
//! See `benches/README.md` for how to run and the latest figures.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ktour::board::Closure;
use ktour::board::{Board, Square};
use ktour::solve::{Method, Outcome, Request, Rule, Solver};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

#[path = "common.rs"]
mod common;
use common::thread_cpu;

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

/// The C baseline, compiled into the benches' scratch folder; `None` (and a note) without a compiler.
fn c_baseline() -> Option<PathBuf> {
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/c/naive.c");
    let binary = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("naive-c");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let built = Command::new(&cc)
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(source)
        .status();
    match built {
        Ok(status) if status.success() => Some(binary),
        other => {
            eprintln!("naive: no C baseline ({cc} -O2 {source}: {other:?}); timing ktour alone");
            None
        }
    }
}

/// One search of the C baseline: its nodes, and its own wall and CPU time for the search.
fn c_search(binary: &PathBuf, args: &[String]) -> (u64, Duration, Duration) {
    let out = Command::new(binary)
        .args(args)
        .output()
        .expect("the C baseline runs");
    let text = String::from_utf8_lossy(&out.stdout);
    // "tour after N nodes, T ns, C ns of CPU"
    let numbers: Vec<u64> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    match numbers[..] {
        [nodes, wall, cpu] if out.status.success() => {
            (nodes, Duration::from_nanos(wall), Duration::from_nanos(cpu))
        }
        _ => panic!("the C baseline printed {text:?}"),
    }
}

/// `naive` and the C baseline on the same searches, and their ratio from alternated runs.
fn naive_vs_c(c: &mut Criterion) {
    let baseline = c_baseline();
    let mut solver = Solver::new();
    let mut group = c.benchmark_group("naive");
    // (name, rows, cols, start, order, closed): open from (0,1) of 8x8 in a textbook's move order,
    // and a closed search on 6x6, each a few tenths of a second
    let cases = [
        (
            "8x8-open/order:36274518/(0,1)",
            8,
            8,
            (0, 1),
            "36274518",
            false,
        ),
        (
            "6x6-closed/order:51627384/(2,3)",
            6,
            6,
            (2, 3),
            "51627384",
            true,
        ),
    ];
    for (name, rows, cols, (r, col), order, closed) in cases {
        let req = Request {
            board: Board::new(rows, cols).unwrap(),
            start: Square::new(r, col),
            closure: Closure::of(closed),
            method: Method::Naive,
            rule: format!("order:{order}").parse().unwrap(),
            budget: 0,
            seed: 0,
            closing: Default::default(),
            prune: true,
        };
        let run = solver.run(&req).unwrap();
        assert_eq!(run.outcome, Outcome::Found, "{req:?}");
        let nodes = run.stats.nodes;
        let args: Vec<String> = [rows, cols, u64::from(r), u64::from(col)]
            .iter()
            .map(u64::to_string)
            .chain([
                order.into(),
                (if closed { "closed" } else { "open" }).into(),
            ])
            .collect();
        if let Some(binary) = &baseline {
            assert_eq!(c_search(binary, &args).0, nodes, "the C baseline's nodes");
        }
        group.throughput(Throughput::Elements(nodes));
        let mut selected = false;
        group.bench_function(format!("ktour/{name} ({nodes} nodes)"), |b| {
            selected = true;
            b.iter(|| black_box(solver.run(&req).unwrap()))
        });
        let Some(binary) = &baseline else { continue };
        group.bench_function(format!("c-recursive/{name} ({nodes} nodes)"), |b| {
            selected = true;
            b.iter_custom(|iters| (0..iters).map(|_| c_search(binary, &args).1).sum())
        });
        if selected {
            let mut ratios: Vec<f64> = (0..7)
                .map(|_| {
                    let t = thread_cpu();
                    black_box(solver.run(&req).unwrap());
                    let ktour = thread_cpu() - t;
                    ktour.as_secs_f64() / c_search(binary, &args).2.as_secs_f64()
                })
                .collect();
            ratios.sort_by(f64::total_cmp);
            println!("{}", common::machine_line());
            println!(
                "naive/{name}: ktour / C baseline = {:.3} in CPU time (median of 7 alternated \
                 runs; {:.3} to {:.3})",
                ratios[3], ratios[0], ratios[6]
            );
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench, naive_vs_c
}
criterion_main!(benches);
