//! Exact counting benchmarks (`cargo bench --bench count`): throughput is reported in search nodes per
//! second (criterion's "elements"). Each case asserts its published count as well as timing it
//! (OEIS A165134 for 5x5 and 6x6 open, A001230 for 6x6 closed).
//!
//! The `frontier` group times the frontier count of 6x7 closed tours (A175881: 1,067,638) on one
//! thread and on two, in state transitions per second, and prints the speed-up (1-thread time /
//! 2-thread time, wall clock) as the median of alternated runs.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ktour::board::{Board, Closure, Square};
use ktour::count::frontier::count_frontier;
use ktour::count::{count, CountOptions, CountRequest, Orientation, Starts};
use std::time::{Duration, Instant};

fn case(c: &mut Criterion, name: &str, request: CountRequest, expected: u64) {
    let options = CountOptions::default();
    let probe = count(&request, &options).unwrap();
    assert_eq!(probe.count, expected, "{name}");
    let mut group = c.benchmark_group("count");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(probe.nodes));
    group.bench_function(name, |b| {
        b.iter(|| {
            let got = count(black_box(&request), &options).unwrap();
            assert_eq!(got.count, expected);
            got.nodes
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let five = Board::square(5).unwrap();
    let six = Board::square(6).unwrap();
    let open = |board, starts| CountRequest {
        board,
        closure: Closure::Open,
        orientation: Orientation::Directed,
        starts,
    };
    case(c, "5x5 open, all starts", open(five, Starts::All), 1728);
    let corner = Starts::From(Square::new(0, 0));
    case(c, "6x6 open, from (0,0)", open(six, corner), 524_486);
    let closed = CountRequest {
        board: six,
        closure: Closure::Closed,
        orientation: Orientation::Undirected,
        starts: Starts::All,
    };
    case(c, "6x6 closed cycles", closed, 9862);
    case(c, "6x6 open, all starts", open(six, Starts::All), 6_637_920);
}

/// The frontier count on 1 and 2 threads, and the speed-up from alternated runs.
fn frontier(c: &mut Criterion) {
    let board = Board::new(6, 7).unwrap();
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .into();
    let run = |pool: &rayon::ThreadPool| {
        let got = pool.install(|| count_frontier(board, Closure::Closed).unwrap());
        assert_eq!(got.undirected, 1_067_638u32.into());
        got.transitions
    };
    let transitions = run(&pools[0]);
    let mut group = c.benchmark_group("frontier");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(transitions));
    let mut selected = false;
    for (pool, threads) in pools.iter().zip([1, 2]) {
        group.bench_function(format!("6x7 closed, {threads} thread(s)"), |b| {
            selected = true;
            b.iter(|| black_box(run(pool)))
        });
    }
    group.finish();
    if selected {
        let time = |pool| {
            let t = Instant::now();
            run(pool);
            t.elapsed().as_secs_f64()
        };
        let mut ratios: Vec<f64> = (0..7).map(|_| time(&pools[0]) / time(&pools[1])).collect();
        ratios.sort_by(f64::total_cmp);
        println!(
            "frontier/6x7 closed: 1 thread / 2 threads = {:.3} (median of 7 alternated runs; {:.3} to {:.3})",
            ratios[3], ratios[0], ratios[6]
        );
    }
}

criterion_group!(count_benches, benches, frontier);
criterion_main!(count_benches);
