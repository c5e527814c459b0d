//! The sharded count against the count in one process, with the shards as threads of one test.

use super::*;

/// The golden-ratio constant's mix is SplitMix64's first output from the seed 0, as published;
/// the shards of many keys are spread evenly, and every key has one shard below K.
#[test]
fn the_hash_is_splitmix64s_and_spreads_keys_evenly() {
    assert_eq!(mix(0x9E37_79B9_7F4A_7C15), 0xE220_A839_7B1D_CDAF);
    // the high half of a wide key moves it too
    assert_ne!(mix(1 << 64 | 5), mix(5));
    for shards in [1u32, 2, 3, 4, 7] {
        let mut counts = vec![0u32; shards as usize];
        for k in 0..60_000u128 {
            // keys like the frontier's: 4-bit cells, many alike
            let key = (k * 0x1111) ^ (k << 60);
            counts[shard_of(key, shards) as usize] += 1;
        }
        let even = 60_000 / shards;
        for c in &counts {
            assert!(c.abs_diff(even) * 20 < even, "{shards} shards: {counts:?}");
        }
    }
}

/// `K` shards counted as threads over one folder, then collected.
fn sharded(board: Board, closure: Closure, shards: u32, primes: PrimeSet) -> ShardedCount {
    let tmp = tempfile::tempdir().unwrap();
    let options = |shard| ShardOptions {
        shards,
        shard,
        shared: tmp.path(),
        wait: Duration::from_secs(60),
        max_states: usize::MAX,
        primes,
        spill: None,
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..shards)
            .map(|shard| {
                s.spawn(move || count_shard(board, closure, &options(shard), &mut |_| {}).unwrap())
            })
            .collect();
        let done: Vec<ShardDone> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert!(done.iter().all(|d| d.passes == done[0].passes));
    });
    collect_shards(board, closure, &options(0)).unwrap()
}

/// Sharded counts are the count in one process, with the same transitions in all and the largest
/// shard's peak below the whole peak; a count past the ways' bits, with small primes, too.
#[test]
fn sharded_counts_equal_the_count_in_one_process() {
    let b = |r, c| Board::new(r, c).unwrap();
    for (board, closure, shards) in [
        (b(5, 5), Closure::Open, 2),
        (b(6, 5), Closure::Closed, 3),
        (b(4, 9), Closure::Open, 4),
        (b(1, 1), Closure::Open, 2),
        (b(8, 3), Closure::Closed, 1),
    ] {
        let one = count_frontier(board, closure).unwrap();
        let many = sharded(board, closure, shards, PrimeSet::default());
        assert_eq!(many.count.undirected, one.undirected, "{board} {closure:?}");
        assert_eq!(
            many.count.transitions, one.transitions,
            "{board} {closure:?}"
        );
        assert_eq!(many.count.passes, 1);
        assert!(many.count.peak_states <= one.peak_states);
    }
    // 3 x 40 open passes 2^64: the exact pass wraps, and the prime passes are exchanged alike
    // (sharded counts take the primes' passes at once, as one process does without widening its ways)
    let (board, closure) = (b(3, 40), Closure::Open);
    let primes = FrontierOptions {
        widen: false,
        ..FrontierOptions::default()
    };
    let one = count_frontier_opts(board, closure, &primes, &mut |_| {}).unwrap();
    let many = sharded(board, closure, 3, PrimeSet::default());
    assert!(one.passes > 1);
    assert_eq!(
        (many.count.undirected, many.count.passes),
        (one.undirected, one.passes)
    );
}

use super::super::{count_frontier, count_frontier_opts, FrontierOptions};
