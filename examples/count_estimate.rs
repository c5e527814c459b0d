//! Estimate how long an exhaustive open-tour count would take before running it: split the search into
//! path prefixes exactly (breadth first, with the engine's pruning), count a uniform random sample of
//! them in full, and scale up (an unbiased estimate of nodes and tours, without symmetry reduction; the
//! default `ktour count` visits about 1/8 of the nodes on square boards, 1/4 on others).
//!
//! `cargo run --release --example count_estimate -- ROWS COLS [PREFIXES] [SAMPLES]`, e.g. `7 7 2000000
//! 1500` (about a minute): 7x7 open tours (OEIS A165134: 165,575,218,320).

use ktour::board::Board;
use ktour::count::bitboard::{Branch, End, KnightBits};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("ROWS COLS [PREFIXES] [SAMPLES] as integers")
        })
        .collect();
    let (rows, cols) = match args[..] {
        [r, c, ..] => (r, c),
        _ => panic!("usage: count_estimate ROWS COLS [PREFIXES] [SAMPLES]"),
    };
    let prefixes = args.get(2).copied().unwrap_or(100_000) as usize;
    let samples = args.get(3).copied().unwrap_or(1000) as usize;
    let board = Board::new(rows, cols).expect("a valid board");
    let bits = KnightBits::new(board).expect("at most 64 squares");

    // Every start that colour parity allows, then one more square per level.
    let mut level: Vec<(u32, u64)> = board
        .squares()
        .filter(|&sq| board.len() % 2 == 0 || Board::is_corner_colour(sq))
        .map(|sq| board.index(sq))
        .map(|s| (s, bits.all() & !(1u64 << s)))
        .collect();
    let mut depth = 1;
    while level.len() < prefixes && depth < board.len() {
        let mut next = Vec::with_capacity(level.len() * 3);
        for &(head, free) in &level {
            if let Branch::Moves(mut moves) = bits.branch(head, free, End::Anywhere) {
                while moves != 0 {
                    let m = moves.trailing_zeros();
                    moves &= moves - 1;
                    next.push((m, free & !(1u64 << m)));
                }
            }
        }
        level = next;
        depth += 1;
    }
    if level.is_empty() {
        println!("{board}: no prefix of {depth} squares survives: 0 tours");
        return;
    }

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let began = Instant::now();
    let (mut nodes, mut tours, mut squares) = (0u64, 0u64, 0f64);
    for _ in 0..samples {
        let (head, free) = level[rng.gen_range(0..level.len())];
        let c = bits.count_paths(head, free, End::Anywhere);
        nodes += c.nodes;
        tours += c.tours;
        squares += (c.nodes as f64).powi(2);
    }
    let secs = began.elapsed().as_secs_f64();
    let (n, k) = (level.len() as f64, samples as f64);
    let mean = nodes as f64 / k;
    let spread = ((squares / k - mean * mean).max(0.0) / k).sqrt() * n;
    let rate = nodes as f64 / secs;
    println!(
        "{board}: {} prefixes of {depth} squares; {samples} sampled: {nodes} nodes, {tours} tours, \
         {secs:.1} s ({:.1} M nodes/s on one thread)",
        level.len(),
        rate / 1e6
    );
    println!(
        "estimate without symmetry: {:.3e} nodes (+- {spread:.1e}), {:.3e} directed tours, \
         {:.0} s on one thread",
        mean * n,
        tours as f64 / k * n,
        mean * n / rate
    );
}
