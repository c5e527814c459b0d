//! Squares per second of the divide-and-conquer construction (`ktour::construct`), closed tours on
//! square boards and an open tour on an odd board. The output buffer is reused across iterations, so
//! this measures the walk, not the allocator; every result is checked for length.
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ktour::board::Board;
use ktour::board::Closure;
use ktour::construct::construct_into;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("construct");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    for (rows, cols, closed) in [
        (100, 100, true),
        (1000, 1000, true),
        (999, 999, false),
        (4000, 4000, true),
    ] {
        let board = Board::new(rows, cols).unwrap();
        let mut out = Vec::new();
        g.throughput(Throughput::Elements(board.len() as u64));
        let id = format!("{board}-{}", if closed { "closed" } else { "open" });
        g.bench_with_input(BenchmarkId::from_parameter(id), &board, |b, &board| {
            b.iter(|| {
                construct_into(black_box(board), Closure::of(closed), None, &mut out).unwrap();
                assert_eq!(out.len() as u32, board.len());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
