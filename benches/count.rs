//! Exact counting benchmarks (`cargo bench --bench count`): throughput is reported in search nodes per
//! second (criterion's "elements"). Each case asserts its published count as well as timing it
//! (OEIS A165134 for 5x5 and 6x6 open, A001230 for 6x6 closed).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ktour::board::{Board, Closure, Square};
use ktour::count::{count, CountOptions, CountRequest, Orientation, Starts};
use std::time::Duration;

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

criterion_group!(count_benches, benches);
criterion_main!(count_benches);
