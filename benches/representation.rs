//! The visited set, measured rather than assumed: one plain pure-Warnsdorff walk (`first`, all 64
//! starts of 8x8, incremental degrees, the same label-order scan) written four ways, differing only in
//! how "visited" is stored and tested:
//!
//! - `sentinel`: no visited set at all; a visited square's degree byte holds a sentinel (what
//!   `SearchState` does, and what the kernel relies on);
//! - `bitvec`: a `bitvec::BitVec` over the padded board beside the degree bytes;
//! - `bitboard`: a `u64` over the 64 squares beside a 64-byte degree array, neighbours from a table;
//! - `bitboard-popcount`: the chess-engine style, no degree array: a candidate's degree is
//!   `popcount(knight[c] & !visited)`.
//!
//! Every variant must give the same visit order as `ktour`'s solver on every start. See
//! `benches/README.md` for the figures.

use bitvec::vec::BitVec;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ktour::board::{Board, Layout, Square, BORDER, KNIGHT_DELTAS};
use ktour::solve::{Request, Rule, Solver};
use std::time::Duration;

const MAX: u8 = 8;

/// Sentinel bytes: free <=> degree <= 8.
fn sentinel(layout: &Layout, empty: &[u8], deg: &mut Vec<u8>, start: usize, path: &mut Vec<u32>) {
    deg.clear();
    deg.extend_from_slice(empty);
    path.clear();
    let offs = *layout.offsets();
    let mut p = start;
    loop {
        path.push(p as u32);
        deg[p] = BORDER;
        for o in offs {
            let q = p.wrapping_add_signed(o);
            deg[q] = deg[q].wrapping_sub(1);
        }
        // the sentinel is the test: starting from MAX + 1, one compare rejects visited and border
        let (mut best, mut bd) = (usize::MAX, MAX + 1);
        for o in offs {
            let q = p.wrapping_add_signed(o);
            if deg[q] < bd {
                (best, bd) = (q, deg[q]);
            }
        }
        if best == usize::MAX {
            return;
        }
        p = best;
    }
}

/// A `BitVec` visited set (border pre-marked) beside degree bytes that hold no sentinel for visits.
fn bitvec(
    layout: &Layout,
    empty: &[u8],
    border: &BitVec,
    deg: &mut Vec<u8>,
    visited: &mut BitVec,
    start: usize,
    path: &mut Vec<u32>,
) {
    deg.clear();
    deg.extend_from_slice(empty);
    visited.clone_from(border);
    path.clear();
    let offs = *layout.offsets();
    let mut p = start;
    loop {
        path.push(p as u32);
        visited.set(p, true);
        for o in offs {
            let q = p.wrapping_add_signed(o);
            deg[q] = deg[q].wrapping_sub(1);
        }
        let (mut best, mut bd) = (usize::MAX, u8::MAX);
        for o in offs {
            let q = p.wrapping_add_signed(o);
            if !visited[q] && deg[q] < bd {
                (best, bd) = (q, deg[q]);
            }
        }
        if best == usize::MAX {
            return;
        }
        p = best;
    }
}

/// 8x8 neighbour table by label: square index 0..64, or 64 when off the board.
fn knight_table() -> [[u8; 8]; 64] {
    let b = Board::square(8).unwrap();
    let mut t = [[64u8; 8]; 64];
    for sq in b.squares() {
        for (k, &(dr, dc)) in KNIGHT_DELTAS.iter().enumerate() {
            if let Some(n) = sq.try_offset(dr, dc, b) {
                t[b.index(sq) as usize][k] = b.index(n) as u8;
            }
        }
    }
    t
}

/// A `u64` visited bitboard beside a 64-byte degree array.
fn bitboard(table: &[[u8; 8]; 64], empty: &[u8; 64], start: u8, path: &mut Vec<u32>) {
    let mut deg = *empty;
    let mut visited = 0u64;
    path.clear();
    let mut p = start;
    loop {
        path.push(u32::from(p));
        visited |= 1 << p;
        for &q in &table[p as usize] {
            if q < 64 {
                deg[q as usize] -= 1;
            }
        }
        let (mut best, mut bd) = (64u8, u8::MAX);
        for &q in &table[p as usize] {
            if q < 64 && visited & (1 << q) == 0 && deg[q as usize] < bd {
                (best, bd) = (q, deg[q as usize]);
            }
        }
        if best == 64 {
            return;
        }
        p = best;
    }
}

/// Chess-engine style: degrees recounted by popcount over knight masks, no degree array.
fn bitboard_popcount(table: &[[u8; 8]; 64], masks: &[u64; 64], start: u8, path: &mut Vec<u32>) {
    let mut visited = 0u64;
    path.clear();
    let mut p = start;
    loop {
        path.push(u32::from(p));
        visited |= 1 << p;
        let (mut best, mut bd) = (64u8, u32::MAX);
        for &q in &table[p as usize] {
            if q < 64 && visited & (1 << q) == 0 {
                let d = (masks[q as usize] & !visited).count_ones();
                if d < bd {
                    (best, bd) = (q, d);
                }
            }
        }
        if best == 64 {
            return;
        }
        p = best;
    }
}

fn bench(c: &mut Criterion) {
    let board = Board::square(8).unwrap();
    let layout = Layout::new(board);
    let mut empty = Vec::new();
    layout.initial_degrees(&mut empty);
    let border: BitVec = (0..layout.len()).map(|p| !layout.is_on_board(p)).collect();
    let table = knight_table();
    let mut empty64 = [0u8; 64];
    let mut masks = [0u64; 64];
    for i in 0..64 {
        for &q in &table[i] {
            if q < 64 {
                empty64[i] += 1;
                masks[i] |= 1 << q;
            }
        }
    }
    let starts: Vec<Square> = board.squares().collect();
    let padded: Vec<usize> = starts.iter().map(|&s| layout.pad(s)).collect();

    // every variant gives the solver's visit order from every start
    let mut solver = Solver::new();
    let (mut deg, mut bits, mut path) = (Vec::new(), BitVec::new(), Vec::new());
    let mut steps = 0u64;
    for (i, &s) in starts.iter().enumerate() {
        let want: Vec<u32> = solver
            .solve(&Request::warnsdorff(board, s, Rule::FIRST))
            .unwrap()
            .squares
            .iter()
            .map(|&q| board.index(q))
            .collect();
        steps += want.len() as u64;
        let unpad = |p: &Vec<u32>| -> Vec<u32> {
            p.iter()
                .map(|&q| board.index(layout.unpad(q as usize)))
                .collect()
        };
        sentinel(&layout, &empty, &mut deg, padded[i], &mut path);
        assert_eq!(unpad(&path), want, "sentinel from {s}");
        bitvec(
            &layout, &empty, &border, &mut deg, &mut bits, padded[i], &mut path,
        );
        assert_eq!(unpad(&path), want, "bitvec from {s}");
        bitboard(&table, &empty64, i as u8, &mut path);
        assert_eq!(path, want, "bitboard from {s}");
        bitboard_popcount(&table, &masks, i as u8, &mut path);
        assert_eq!(path, want, "bitboard-popcount from {s}");
    }

    let mut group = c.benchmark_group("representation/8x8-all-starts");
    group.throughput(Throughput::Elements(steps));
    group.bench_function(BenchmarkId::from_parameter("sentinel"), |b| {
        b.iter(|| {
            for &p in &padded {
                sentinel(&layout, &empty, &mut deg, black_box(p), &mut path);
            }
        })
    });
    group.bench_function(BenchmarkId::from_parameter("bitvec"), |b| {
        b.iter(|| {
            for &p in &padded {
                bitvec(
                    &layout,
                    &empty,
                    &border,
                    &mut deg,
                    &mut bits,
                    black_box(p),
                    &mut path,
                );
            }
        })
    });
    group.bench_function(BenchmarkId::from_parameter("bitboard"), |b| {
        b.iter(|| {
            for i in 0..64u8 {
                bitboard(&table, &empty64, black_box(i), &mut path);
            }
        })
    });
    group.bench_function(BenchmarkId::from_parameter("bitboard-popcount"), |b| {
        b.iter(|| {
            for i in 0..64u8 {
                bitboard_popcount(&table, &masks, black_box(i), &mut path);
            }
        })
    });
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
