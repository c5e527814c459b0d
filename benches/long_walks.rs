//! Long walks at small-board speed: one-thread corner runs as a sweep walks them (one `run_batch`
//! a board), in steps (squares visited) per second.
//!
//! Groups: `long-walks/corner-2000/{first,pohl,roth,roth-original,roth-halfup,center}` (the
//! corner run of 2000 x 2000, 4 x 10^6 steps or fewer where it fails) and
//! `long-walks/corner-100..400/RULE` (the corner runs of every 7th size from 100 to 400, 43 boards,
//! about 2.4 x 10^6 steps). The bench also prints, each from alternated runs in this process (CPU
//! time), every rule's time a step at n = 2000 over `first`'s (the distance rules' target is 1.3x),
//! and every rule's time a step on the corner run of 10,000 x 10,000 (10^8 steps at most) over its
//! own on n = 100..400 (the target is 1.5x). `ktour sweep --sizes 2000..=2003 --starts corner
//! --rules R --threads 1` runs the same walks. See `benches/README.md` for how to run it and the
//! latest figures.
//!
//! Every walk is checked before it is timed: the batch gives the single run's summary (the kernel
//! path `tests/fast_paths.rs` checks against the plain loop), so the timed walks are the real ones.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ktour::board::{Board, Square};
use ktour::solve::{Request, Rule, Solver};
use std::time::Duration;

#[path = "common.rs"]
mod common;

const RULES: [&str; 7] = [
    "first",
    "pohl",
    "roth",
    "roth-original",
    "roth-halfup",
    "center",
    "squirrel",
];

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

/// The corner run of `rule` on each board of `sizes`, one batch a board as a sweep hands them.
fn corner_reqs(rule: Rule, sizes: &[u64]) -> Vec<Request> {
    sizes
        .iter()
        .map(|&n| Request::warnsdorff(Board::square(n).unwrap(), Square::new(0, 0), rule))
        .collect()
}

/// Walk each request as its own batch; the steps in all.
fn walk(solver: &mut Solver, reqs: &[Request]) -> u64 {
    let mut out = Vec::with_capacity(1);
    let mut steps = 0;
    for req in reqs {
        out.clear();
        solver
            .run_batch(std::slice::from_ref(req), &mut out)
            .unwrap();
        steps += u64::from(out[0].visited);
    }
    steps
}

/// The steps of `reqs`, after checking each batch against the single run.
fn checked_steps(solver: &mut Solver, reqs: &[Request]) -> u64 {
    let mut single = Solver::new();
    let mut out = Vec::new();
    for req in reqs {
        out.clear();
        solver
            .run_batch(std::slice::from_ref(req), &mut out)
            .unwrap();
        let one = single.run(req).unwrap();
        assert_eq!(out[0].visited, one.visited, "{req:?}");
        assert_eq!(out[0].stats.ties, one.stats.ties, "{req:?}");
    }
    walk(solver, reqs)
}

/// The middle sizes: every 7th of 100..=400.
fn small_sizes() -> Vec<u64> {
    (100..=400).step_by(7).collect()
}

fn corner_2000(c: &mut Criterion) {
    println!("{}", common::machine_line());
    let mut group = c.benchmark_group("long-walks/corner-2000");
    let mut solver = Solver::new();
    let mut steps = Vec::new();
    for rule in RULES.iter().filter(|r| **r != "squirrel") {
        let reqs = corner_reqs(rule.parse().unwrap(), &[2000]);
        let s = checked_steps(&mut solver, &reqs);
        steps.push((*rule, reqs.clone(), s));
        group.throughput(Throughput::Elements(s));
        group.bench_function(BenchmarkId::from_parameter(rule), |b| {
            b.iter(|| black_box(walk(&mut solver, &reqs)))
        });
    }
    group.finish();
    // each rule against `first`, alternated, per step
    let (_, first, first_steps) = &steps[0];
    for (rule, reqs, s) in &steps[1..] {
        let mut other = Solver::new();
        let ((median, low, high), a, b) = common::alternated(
            5,
            || {
                black_box(walk(&mut solver, reqs));
            },
            || {
                black_box(walk(&mut other, first));
            },
        );
        let per = |t: Duration, n: u64| t.as_nanos() as f64 / n as f64;
        // the pair's ratio is of whole walks: per step, scale by the steps each took
        let scale = *first_steps as f64 / *s as f64;
        println!(
            "long-walks/corner-2000: {rule} / first = {:.2}x a step (median of 5 alternated pairs; \
             {:.2}x to {:.2}x); {:.2} ns a step against {:.2}",
            median * scale,
            low * scale,
            high * scale,
            per(a, *s),
            per(b, *first_steps)
        );
    }
}

fn corner_sizes(c: &mut Criterion) {
    let mut group = c.benchmark_group("long-walks/corner-100..400");
    let mut solver = Solver::new();
    let sizes = small_sizes();
    for rule in RULES {
        let rule: Rule = rule.parse().unwrap();
        let small = corner_reqs(rule, &sizes);
        let s = checked_steps(&mut solver, &small);
        group.throughput(Throughput::Elements(s));
        group.bench_function(BenchmarkId::from_parameter(rule), |b| {
            b.iter(|| black_box(walk(&mut solver, &small)))
        });
        // n = 10,000 against n = 100..400, alternated, per step (one pair takes a few seconds)
        let large = corner_reqs(rule, &[10_000]);
        let l = walk(&mut solver, &large);
        let mut other = Solver::new();
        let ((median, low, high), a, b) = common::alternated(
            3,
            || {
                black_box(walk(&mut solver, &large));
            },
            || {
                black_box(walk(&mut other, &small));
            },
        );
        let scale = s as f64 / l as f64;
        println!(
            "long-walks/corner-10000: {rule} n = 10,000 / n = 100..400 = {:.2}x a step (median of 3 \
             alternated pairs; {:.2}x to {:.2}x); {:.2} ns a step against {:.2} ({l} and {s} steps)",
            median * scale,
            low * scale,
            high * scale,
            a.as_nanos() as f64 / l as f64,
            b.as_nanos() as f64 / s as f64,
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = corner_2000, corner_sizes
}
criterion_main!(benches);
