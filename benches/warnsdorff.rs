//! Pure Warnsdorff throughput, in steps (squares visited) per second, beside the textbook
//! implementation the seed programs write, so every report shows the ratio ktour / textbook.
//!
//! Groups: `warnsdorff/8x8`, `warnsdorff/100x100`, `warnsdorff/1000x1000` (one id per rule and entry
//! point, plus `textbook/first`), `warnsdorff/sweep-100x100` (all 10^4 starts through
//! `Solver::run_batch`, 10^8 steps), and `warnsdorff/kernels-8x8` and `-4x16` (the small-board
//! kernel against the byte kernel, every start, one id per kernel and rule), and
//! `warnsdorff/tie-tree-8x8` (5,040 orderings from every start through the tie tree and walked one
//! by one by the small-board kernel). Boards past 64 squares also print the byte step's time over
//! the window step's (`first`). See
//! `benches/README.md` for how to run and the latest figures.
//!
//! Every benchmark asserts its answer: the textbook walk and the kernel give the same visit order on
//! 8x8 (the Squirrel & Cull test vector), and the same number of squares on every sampled start.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ktour::board::{Board, Square};
use ktour::solve::reference::textbook_warnsdorff as textbook;
use ktour::solve::rules::LabelOrder;
use ktour::solve::{Outcome, Request, Rule, RunSummary, Solver, SolverOptions};
use std::time::Duration;

#[path = "common.rs"]
mod common;

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

fn requests(board: Board, rule: Rule, starts: &[Square]) -> Vec<Request> {
    starts
        .iter()
        .map(|&s| {
            let mut r = Request::warnsdorff(board, s, rule);
            r.seed = 1 + s.row() as u64 * 65_536 + s.col() as u64;
            r
        })
        .collect()
}

/// Squares visited by a batch (its steps), running it once.
fn batch_steps(solver: &mut Solver, reqs: &[Request]) -> u64 {
    let mut out = Vec::new();
    solver.run_batch(reqs, &mut out).unwrap();
    out.iter().map(|s: &RunSummary| u64::from(s.visited)).sum()
}

/// The textbook walk from each of `starts` on `n x n`: the squares visited in all.
fn textbook_walks(n: u64, starts: &[Square], grid: &mut Vec<i32>) -> u64 {
    starts
        .iter()
        .map(|s| textbook(n as i32, n as i32, (s.row() as i32, s.col() as i32), grid) as u64)
        .sum()
}

/// Every `step`-th start of `board`.
fn sampled(board: Board, step: usize) -> Vec<Square> {
    board.squares().step_by(step).collect()
}

const RULES: [&str; 5] = ["first", "roth", "pohl", "random", "squirrel"];

fn bench_board(c: &mut Criterion, n: u64, sample_step: usize) {
    let board = Board::square(n).unwrap();
    let mut group = c.benchmark_group(format!("warnsdorff/{n}x{n}"));
    let starts = sampled(board, sample_step);
    // the kernel's own speed: with the tie tree, every repetition of one `first` batch after the
    // first would be a lookup of walks already made
    let mut solver = Solver::with_options(SolverOptions::new().tie_tree(false));
    let mut grid = Vec::new();

    // textbook baseline, `first`, on the same starts as the batch below
    let steps = textbook_walks(n, &starts, &mut grid);
    let first = requests(board, Rule::FIRST, &starts);
    assert_eq!(
        steps,
        batch_steps(&mut solver, &first),
        "textbook and kernel agree"
    );
    group.throughput(Throughput::Elements(steps));
    group.bench_function(BenchmarkId::new("textbook", "first"), |b| {
        b.iter(|| black_box(textbook_walks(n, &starts, &mut grid)))
    });

    // ktour: one `run` per start (path kept), then `run_batch` (interleaved, no paths), per rule
    group.bench_function(BenchmarkId::new("ktour-run", "first"), |b| {
        b.iter(|| {
            for r in &first {
                black_box(solver.run(r).unwrap());
            }
        })
    });
    // the ratio itself, from alternated runs in this process: what travels between machines
    let mut out = Vec::with_capacity(first.len());
    let (ratios, ktour, text) = common::alternated(
        7,
        || {
            out.clear();
            solver.run_batch(black_box(&first), &mut out).unwrap();
        },
        || {
            black_box(textbook_walks(n, &starts, &mut grid));
        },
    );
    // `b / a` (what `alternated` gave for `a` against `b`), and each one's time a step, in cycles
    // too where the clock is measured
    let ghz = common::measured_ghz();
    let report = |what: &str, (median, low, high): (f64, f64, f64), a: Duration, b: Duration| {
        let per_step = |t: Duration| t.as_nanos() as f64 / steps as f64;
        let cycles = ghz
            .map(|ghz| format!(" ({:.1} cycles)", per_step(a) * ghz))
            .unwrap_or_default();
        println!(
            "warnsdorff/{n}x{n}: {what} (first, {} starts) = {:.2}x in CPU time (median of 7 \
             alternated pairs; {:.2}x to {:.2}x); {:.2} ns a step{cycles} against {:.2}",
            starts.len(),
            1.0 / median,
            1.0 / high,
            1.0 / low,
            per_step(a),
            per_step(b)
        );
    };
    println!("{}", common::machine_line());
    report("textbook / ktour-batch", ratios, ktour, text);
    // the window step against the byte step it replaces for fixed orderings, where it applies
    if n * n > 64 {
        let mut bytes =
            Solver::with_options(SolverOptions::new().tie_tree(false).window_step(false));
        let mut by_bytes = Vec::with_capacity(first.len());
        let (ratios, window, byte) = common::alternated(
            7,
            || {
                out.clear();
                solver.run_batch(black_box(&first), &mut out).unwrap();
            },
            || {
                by_bytes.clear();
                bytes.run_batch(black_box(&first), &mut by_bytes).unwrap();
            },
        );
        let key = |s: &RunSummary| (s.outcome, s.visited, s.stats.ties);
        assert!(
            out.iter().map(key).eq(by_bytes.iter().map(key)),
            "window and byte steps agree"
        );
        report("byte step / window step", ratios, window, byte);
    }
    for rule in RULES {
        let rule: Rule = rule.parse().unwrap();
        let reqs = if rule == Rule::Squirrel {
            requests(board, rule, &[Square::new(0, 0)])
        } else {
            requests(board, rule, &starts)
        };
        let steps = batch_steps(&mut solver, &reqs);
        group.throughput(Throughput::Elements(steps));
        let mut out = Vec::with_capacity(reqs.len());
        group.bench_function(BenchmarkId::new("ktour-batch", rule), |b| {
            b.iter(|| {
                out.clear();
                solver.run_batch(black_box(&reqs), &mut out).unwrap();
            })
        });
    }
    group.finish();
}

fn test_vector() {
    // Squirrel & Cull 1996, p.112: the 8x8 walk from (0,0) with `first` is a full tour; the textbook
    // walk and the kernel give the same visit order.
    let board = Board::square(8).unwrap();
    let mut grid = Vec::new();
    assert_eq!(textbook(8, 8, (0, 0), &mut grid), 64);
    let sol = Solver::new()
        .solve(&Request::warnsdorff(board, Square::new(0, 0), Rule::FIRST))
        .unwrap();
    assert_eq!(sol.outcome, Outcome::Found);
    for (i, s) in sol.squares.iter().enumerate() {
        assert_eq!(grid[(s.row() * 8 + s.col()) as usize] as usize, i + 1);
    }
}

/// The small-board kernel (register bitboards) against the byte kernel on every start of a board
/// of at most 64 squares, for each rule: both in this process, alternated, and asserted equal.
fn kernels(c: &mut Criterion, rows: u64, cols: u64) {
    let board = Board::new(rows, cols).unwrap();
    let starts: Vec<Square> = board.squares().collect();
    let mut group = c.benchmark_group(format!("warnsdorff/kernels-{board}"));
    let mut small = Solver::with_options(SolverOptions::new().tie_tree(false));
    let mut bytes = Solver::with_options(SolverOptions::new().small_kernel(false));
    println!("{}", common::machine_line());
    for rule in ["first", "order:58143627", "pohl", "random", "roth"] {
        let rule: Rule = rule.parse().unwrap();
        let reqs = requests(board, rule, &starts);
        let steps = batch_steps(&mut small, &reqs);
        assert_eq!(
            steps,
            batch_steps(&mut bytes, &reqs),
            "{rule}: the kernels disagree"
        );
        let (mut a, mut b) = (
            Vec::with_capacity(reqs.len()),
            Vec::with_capacity(reqs.len()),
        );
        // enough repetitions of the batch for a measurable time
        let reps = (2_000_000 / steps.max(1)).max(1);
        let batches = |solver: &mut Solver, out: &mut Vec<RunSummary>| {
            for _ in 0..reps {
                out.clear();
                solver.run_batch(black_box(&reqs), out).unwrap();
            }
        };
        let ((median, low, high), ts, tb) = common::alternated(
            7,
            || batches(&mut bytes, &mut b),
            || batches(&mut small, &mut a),
        );
        let per_step = |t: Duration| t.as_nanos() as f64 / (steps * reps) as f64;
        println!(
            "warnsdorff/kernels-{board}: byte kernel / small-board kernel ({rule}, every start) = \
             {median:.2}x in CPU time (median of 7 alternated pairs; {low:.2}x to {high:.2}x); \
             {:.2} ns a step against {:.2}",
            per_step(tb),
            per_step(ts)
        );
        group.throughput(Throughput::Elements(steps));
        for (name, solver) in [("small", &mut small), ("bytes", &mut bytes)] {
            let mut out = Vec::with_capacity(reqs.len());
            group.bench_function(BenchmarkId::new(name, rule), |b| {
                b.iter(|| {
                    out.clear();
                    solver.run_batch(black_box(&reqs), &mut out).unwrap();
                })
            });
        }
    }
    group.finish();
}

/// The tie tree against the small-board kernel walking each run itself: one ordering in eight of
/// the 40,320 from every start of 8x8, four orderings a batch as a sweep hands them, each side a
/// fresh solver (its tree grown from nothing) every time; asserted equal.
fn tie_tree(c: &mut Criterion) {
    let board = Board::square(8).unwrap();
    let starts: Vec<Square> = board.squares().collect();
    let orderings: Vec<Rule> = LabelOrder::all().step_by(8).map(Rule::order).collect();
    let batches: Vec<Vec<Request>> = orderings
        .chunks(4)
        .map(|four| {
            four.iter()
                .flat_map(|&rule| requests(board, rule, &starts))
                .collect()
        })
        .collect();
    // every batch's summaries into `out`, kept (for the check) or cleared batch by batch (timed)
    let walk_all = |tree: bool, keep: bool| {
        let mut solver = Solver::with_options(SolverOptions::new().tie_tree(tree));
        let mut out = Vec::with_capacity(4 * 64);
        let mut visited = 0u64;
        for reqs in &batches {
            if !keep {
                out.clear();
            }
            solver.run_batch(black_box(reqs), &mut out).unwrap();
            visited += out
                .iter()
                .rev()
                .take(reqs.len())
                .map(|s| u64::from(s.visited))
                .sum::<u64>();
        }
        (out, visited)
    };
    let ((with_tree, _), (walked, _)) = (walk_all(true, true), walk_all(false, true));
    assert_eq!(with_tree.len(), walked.len());
    for (t, w) in with_tree.iter().zip(&walked) {
        assert_eq!(
            (t.outcome, t.visited, t.stats.ties),
            (w.outcome, w.visited, w.stats.ties)
        );
    }
    let runs = with_tree.len() as u64;
    let ((median, low, high), tt, tw) = common::alternated(
        7,
        || drop(black_box(walk_all(false, false))),
        || drop(black_box(walk_all(true, false))),
    );
    println!("{}", common::machine_line());
    println!(
        "warnsdorff/tie-tree-8x8: small-board kernel / tie tree ({runs} runs: 5,040 orderings, \
         every start, a fresh solver) = {median:.2}x in CPU time (median of 7 alternated pairs; \
         {low:.2}x to {high:.2}x); {:.1} ns a run against {:.1}",
        tw.as_nanos() as f64 / runs as f64,
        tt.as_nanos() as f64 / runs as f64,
    );
    let mut group = c.benchmark_group("warnsdorff/tie-tree-8x8");
    group.throughput(Throughput::Elements(runs));
    for (name, tree) in [("tree", true), ("walked", false)] {
        group.bench_function(BenchmarkId::new(name, "5040-orderings"), |b| {
            b.iter(|| walk_all(tree, false))
        });
    }
    group.finish();
}

fn small(c: &mut Criterion) {
    test_vector();
    tie_tree(c);
    kernels(c, 8, 8);
    kernels(c, 4, 16);
    bench_board(c, 8, 1);
    bench_board(c, 100, 97);
}

fn large(c: &mut Criterion) {
    bench_board(c, 1000, 249_999);
}

fn sweep(c: &mut Criterion) {
    let board = Board::square(100).unwrap();
    let starts: Vec<Square> = board.squares().collect();
    let reqs = requests(board, Rule::FIRST, &starts);
    let mut solver = Solver::new();
    let steps = batch_steps(&mut solver, &reqs);
    assert!(steps > 90_000_000, "most starts of 100x100 go far: {steps}");
    let mut group = c.benchmark_group("warnsdorff/sweep-100x100");
    group.throughput(Throughput::Elements(steps));
    let mut out = Vec::with_capacity(reqs.len());
    group.bench_function(BenchmarkId::new("ktour-batch", "first/all-starts"), |b| {
        b.iter(|| {
            out.clear();
            solver.run_batch(black_box(&reqs), &mut out).unwrap();
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = config();
    targets = small, large, sweep
}
criterion_main!(benches);
