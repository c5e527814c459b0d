//! Exact tree-walk benchmarks (`cargo bench --bench exact`): all starts of 7x7 and 8x8 under
//! `random`, merging identical sub-states and not (`--no-merge`), on the current thread pool.
//! Throughput is in squares entered per second (criterion's "elements"). Each case checks its
//! result first: 8x8's probability of a complete tour from a start drawn uniformly, and the merged
//! and plain walks giving the same distributions.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ktour::board::Board;
use ktour::exact::{exact, ExactOptions, ExactRequest, Starts, DEFAULT_MEMO_LIMIT};
use ktour::solve::{Closing, Rule};
use std::time::Duration;

fn case(c: &mut Criterion, n: u64, memo_limit: usize) {
    let req = ExactRequest {
        board: Board::square(n).unwrap(),
        starts: Starts::All,
        rule: Rule::RANDOM,
        closing: Closing::Check,
    };
    let opts = ExactOptions {
        memo_limit,
        max_nodes: None,
    };
    let probe = exact(&req, &opts).unwrap();
    let merged = exact(
        &req,
        &ExactOptions {
            memo_limit: DEFAULT_MEMO_LIMIT,
            max_nodes: None,
        },
    )
    .unwrap();
    assert_eq!(probe.overall, merged.overall);
    if n == 8 {
        assert_eq!(
            probe.overall.success().to_string(),
            "2155438300571/2201506283520"
        );
    }
    let mut group = c.benchmark_group("exact");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Elements(probe.stats.nodes));
    let name = format!(
        "{n}x{n} random, all starts, {}",
        if memo_limit > 0 { "merged" } else { "plain" }
    );
    group.bench_function(name, |b| {
        b.iter(|| exact(black_box(&req), &opts).unwrap().stats.nodes)
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    for n in [7, 8] {
        case(c, n, DEFAULT_MEMO_LIMIT);
        case(c, n, 0);
    }
}

criterion_group!(exact_benches, benches);
criterion_main!(exact_benches);
