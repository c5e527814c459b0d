//! Luschny's challenge (P. Luschny, GitHub `PeterLuschny/Hamiltonian_Paths_On_Knight_Graphs`, 2025):
//! the undirected Hamiltonian paths (OEIS A390833) and cycles (A392000) of the knight graph of every
//! k x n board with 3 <= k, n <= 12 and kn <= 40 (both orientations of a board, as his loop runs
//! them: 40 boards, 80 counts). Counted by the frontier method, all boards in a row, the best of
//! `--rounds` rounds (default 5) timed in all; then by the second method, the backtracking search,
//! whose counts must be equal. Prints a line a board, the totals and their ratio.
//!
//! `cargo bench --bench luschny` (plain `main`, no criterion: one figure, the total, is the point);
//! `-- --frontier-only` skips the search, `-- --rounds N` sets the frontier's rounds.

use ktour::board::{Board, Closure};
use ktour::count::frontier::count_frontier;
use ktour::count::{count, CountOptions, CountRequest, Orientation, Starts};
use std::time::{Duration, Instant};

/// One board's undirected open and closed tours, and the time the two counts took.
type Counted = (u128, u128, Duration);

/// The challenge's boards, in its loop's order.
fn boards() -> Vec<Board> {
    let mut boards = Vec::new();
    for k in 3..=12u64 {
        for n in 3..=12u64 {
            if k * n <= 40 {
                boards.push(Board::new(k, n).unwrap());
            }
        }
    }
    boards
}

/// Every board's undirected open and closed tours by the frontier method, and the time each took.
fn frontier_round(boards: &[Board]) -> Vec<Counted> {
    boards
        .iter()
        .map(|&b| {
            let began = Instant::now();
            let open = count_frontier(b, Closure::Open).unwrap();
            let closed = count_frontier(b, Closure::Closed).unwrap();
            let took = began.elapsed();
            let open = u128::try_from(&open.undirected).unwrap();
            (open, u128::try_from(&closed.undirected).unwrap(), took)
        })
        .collect()
}

/// The same counts by the backtracking search, and the time they took.
fn search(board: Board) -> Counted {
    let began = Instant::now();
    let tours = |closure| {
        let request = CountRequest {
            board,
            closure,
            orientation: Orientation::Undirected,
            starts: Starts::All,
        };
        let options = CountOptions {
            max_nodes: None,
            ..CountOptions::default()
        };
        u128::from(count(&request, &options).unwrap().count)
    };
    let (open, closed) = (tours(Closure::Open), tours(Closure::Closed));
    (open, closed, began.elapsed())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frontier_only = args.iter().any(|a| a == "--frontier-only");
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(5usize);
    let boards = boards();
    let threads = rayon::current_num_threads();
    // the best round: the machine's other work slows some rounds, never speeds one
    let mut best: Option<(Duration, Vec<Counted>)> = None;
    for _ in 0..rounds.max(1) {
        let began = Instant::now();
        let round = frontier_round(&boards);
        let total = began.elapsed();
        if best.as_ref().map_or(true, |(t, _)| total < *t) {
            best = Some((total, round));
        }
    }
    let (frontier_total, counts) = best.unwrap();
    println!("board   paths (A390833)  cycles (A392000)  frontier s  search s");
    let mut search_total = Duration::ZERO;
    for (b, &(open, closed, took)) in boards.iter().zip(&counts) {
        let searched = if frontier_only {
            String::from("-")
        } else {
            let (s_open, s_closed, s_took) = search(*b);
            assert_eq!(
                (s_open, s_closed),
                (open, closed),
                "{b}: the two methods differ"
            );
            search_total += s_took;
            format!("{:.4}", s_took.as_secs_f64())
        };
        let name = format!("{}x{}", b.rows(), b.cols());
        println!(
            "{name:<7} {open:>15}  {closed:>16}  {:>10.4}  {searched:>8}",
            took.as_secs_f64()
        );
    }
    println!(
        "frontier: {} boards, {} counts, {:.3} s in all (best of {rounds} rounds, {threads} threads)",
        boards.len(),
        2 * boards.len(),
        frontier_total.as_secs_f64()
    );
    if !frontier_only {
        println!(
            "search: {:.3} s in all, the same counts; search / frontier = {:.1}",
            search_total.as_secs_f64(),
            search_total.as_secs_f64() / frontier_total.as_secs_f64()
        );
    }
}
