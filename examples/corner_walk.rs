//! Corner runs of one rule, walked as a sweep walks them (one `run_batch` a board, one thread), for
//! instruction counts and peak memory: `cargo build --release --example corner_walk`, then
//! `valgrind --tool=callgrind target/release/examples/corner_walk roth 2000` (divide the count by
//! the steps it prints), or `/usr/bin/time -v target/release/examples/corner_walk roth 10000` for
//! the peak memory of one walk. Arguments: a rule, then sizes (`2000`, `100..=400`, `100..=400:7`
//! for every 7th), then optionally how many times to repeat each walk. Prints the steps, the ties
//! and the wall time a step. See `benches/README.md`.

use ktour::board::{Board, Square};
use ktour::solve::{Request, Rule, Solver};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule: Rule = args
        .get(1)
        .map_or("first", |s| s.as_str())
        .parse()
        .expect("a rule");
    let sizes = args.get(2).map_or("2000", |s| s.as_str());
    let (range, step) = sizes.split_once(':').unwrap_or((sizes, "1"));
    let step: usize = step.parse().expect("a step");
    let (low, high) = range.split_once("..=").unwrap_or((range, range));
    let (low, high): (u64, u64) = (low.parse().expect("a size"), high.parse().expect("a size"));
    let repeat: u32 = args.get(3).map_or(1, |s| s.parse().expect("a count"));
    let mut solver = Solver::new();
    let (mut steps, mut ties) = (0u64, 0u64);
    let mut out = Vec::new();
    let timer = Instant::now();
    for _ in 0..repeat {
        for n in (low..=high).step_by(step) {
            let board = Board::square(n).expect("a board");
            out.clear();
            let req = Request::warnsdorff(board, Square::new(0, 0), rule);
            solver.run_batch(&[req], &mut out).expect("a run");
            steps += u64::from(out[0].visited);
            ties += out[0].stats.ties;
        }
    }
    let ns = timer.elapsed().as_nanos() as f64;
    println!(
        "{rule} corner {sizes} x{repeat}: {steps} steps, {ties} ties ({:.3} a step), {:.2} ns a step",
        ties as f64 / steps as f64,
        ns / steps as f64
    );
}
