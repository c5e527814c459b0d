//! Luschny's challenge (P. Luschny, GitHub `PeterLuschny/Hamiltonian_Paths_On_Knight_Graphs`, 2025):
//! the undirected Hamiltonian paths (OEIS A390833) and cycles (A392000) of the knight graph of every
//! k x n board with 3 <= k, n <= 12 and kn <= 40 (both orientations of a board, as his loop runs
//! them: 40 boards, 80 counts).
//!
//! Three ways to count them, every count checked equal across the three:
//! - **frontier alone**: the frontier method on each board, one count at a time;
//! - **search alone**: the backtracking search on each board (the second method);
//! - **the plan**: what the structure of the family allows. A board and its turn are one knight
//!   graph, so each is counted once; the boards sharing a short side `w` are one whole sequence,
//!   `w x n` for every `n` from one frontier run over the longest (`count_lengths`); and a group
//!   whose boards the search counts faster than the frontier's run (measured in the calibration
//!   round: the frontier alone and the search alone, above) is counted by the search instead.
//!
//! The calibration round times the search on each board (the search alone's figure) and each group's
//! frontier run; then the plan and the frontier alone are timed in alternated rounds, the best of
//! `--rounds` (default 5) each. Prints a line a board, the plan's
//! groups with their method and time, the totals and their ratios.
//!
//! `cargo bench --bench luschny` (plain `main`, no criterion: one figure, the total, is the point);
//! `-- --rounds N` sets the rounds; `-- --frontier-only` skips the search (the plan is then the
//! frontier's sequences alone).

mod common;

use ktour::board::{Board, Closure};
use ktour::count::frontier::{count_frontier, count_lengths, FrontierOptions};
use ktour::count::{count, CountOptions, CountRequest, Orientation, Starts};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One board's undirected open and closed tours.
type Tours = (u128, u128);

/// The challenge's boards, in its loop's order.
fn boards() -> Vec<Board> {
    let mut boards = Vec::new();
    for k in 3..=12u32 {
        for n in 3..=12u32 {
            if k * n <= 40 {
                boards.push(board(k, n));
            }
        }
    }
    boards
}

fn board(rows: u32, cols: u32) -> Board {
    Board::new(u64::from(rows), u64::from(cols)).unwrap()
}

/// A board's sides, the shorter first: the board and its turn share it.
fn sides(b: &Board) -> (u32, u32) {
    (b.rows().min(b.cols()), b.rows().max(b.cols()))
}

/// Every board's tours by the frontier method, one count at a time, and the time each took.
fn frontier_alone(boards: &[Board]) -> Vec<(Tours, Duration)> {
    boards
        .iter()
        .map(|&b| {
            let began = Instant::now();
            let open = count_frontier(b, Closure::Open).unwrap();
            let closed = count_frontier(b, Closure::Closed).unwrap();
            let took = began.elapsed();
            let tours = |c: ktour::count::frontier::FrontierCount| u128::try_from(&c.undirected);
            ((tours(open).unwrap(), tours(closed).unwrap()), took)
        })
        .collect()
}

/// A board's tours by the backtracking search, and the time they took.
fn search(board: Board) -> (Tours, Duration) {
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
    let open_closed = (tours(Closure::Open), tours(Closure::Closed));
    (open_closed, began.elapsed())
}

/// How the plan counts one group of boards.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    /// One frontier run over `w x longest`, open and closed, giving every length.
    Sequence,
    /// The search on each board of the group, one orientation.
    Search,
}

/// The boards sharing a short side: `w x n` for each `n` in `lengths`.
struct Group {
    w: u32,
    lengths: Vec<u32>,
    method: Method,
}

/// Count a group by `method`: the tours of `w x n` for each of its lengths.
fn count_group(g: &Group, method: Method) -> BySides {
    match method {
        Method::Sequence => {
            let longest = *g.lengths.last().unwrap();
            let board = board(g.w, longest);
            let run = |closure| {
                count_lengths(board, closure, &FrontierOptions::default(), &mut |_| {})
                    .unwrap()
                    .undirected
            };
            let (open, closed) = (run(Closure::Open), run(Closure::Closed));
            g.lengths
                .iter()
                .map(|&n| {
                    let at = n as usize - 1;
                    let open = u128::try_from(&open[at]).unwrap();
                    ((g.w, n), (open, u128::try_from(&closed[at]).unwrap()))
                })
                .collect()
        }
        Method::Search => g
            .lengths
            .iter()
            .map(|&n| ((g.w, n), search(board(g.w, n)).0))
            .collect(),
    }
}

/// Every board's tours by its sides (the shorter first).
type BySides = BTreeMap<(u32, u32), Tours>;

/// One round of the plan: every group by its method, the time each took.
fn plan_round(groups: &[Group]) -> (BySides, Vec<Duration>) {
    let mut counts = BTreeMap::new();
    let mut times = Vec::new();
    for g in groups {
        let began = Instant::now();
        counts.extend(count_group(g, g.method));
        times.push(began.elapsed());
    }
    (counts, times)
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frontier_only = args.iter().any(|a| a == "--frontier-only");
    let rounds = arg(&args, "--rounds").unwrap_or(5usize).max(1);
    let boards = boards();
    let threads = rayon::current_num_threads();
    println!("{}", common::machine_line());

    // the calibration round: each board by the search, each group by its frontier run
    let searched: Vec<Option<(Tours, Duration)>> = boards
        .iter()
        .map(|&b| (!frontier_only).then(|| search(b)))
        .collect();

    // the groups, each by the method that took less time on its boards in that round
    let mut by_width: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for b in &boards {
        let (w, n) = sides(b);
        let lengths = by_width.entry(w).or_default();
        if !lengths.contains(&n) {
            lengths.push(n);
        }
    }
    let mut groups: Vec<Group> = by_width
        .into_iter()
        .map(|(w, mut lengths)| {
            lengths.sort_unstable();
            Group {
                w,
                lengths,
                method: Method::Sequence,
            }
        })
        .collect();
    for g in &mut groups {
        let began = Instant::now();
        count_group(g, Method::Sequence);
        let sequence = began.elapsed();
        let search_time: Option<Duration> = g
            .lengths
            .iter()
            .map(|&n| {
                let i = boards.iter().position(|b| sides(b) == (g.w, n)).unwrap();
                searched[i].map(|(_, t)| t)
            })
            .sum();
        if search_time.is_some_and(|s| s < sequence) {
            g.method = Method::Search;
        }
    }

    // the plan and the frontier alone, alternated, the best round of each
    let mut best_plan: Option<(Duration, BySides, Vec<Duration>)> = None;
    let mut best_alone: Option<(Duration, Vec<(Tours, Duration)>)> = None;
    for _ in 0..rounds {
        let began = Instant::now();
        let (counts, times) = plan_round(&groups);
        let total = began.elapsed();
        if best_plan.as_ref().map_or(true, |(t, ..)| total < *t) {
            best_plan = Some((total, counts, times));
        }
        let began = Instant::now();
        let round = frontier_alone(&boards);
        let total = began.elapsed();
        if best_alone.as_ref().map_or(true, |(t, _)| total < *t) {
            best_alone = Some((total, round));
        }
    }
    let (plan_total, plan_counts, plan_times) = best_plan.unwrap();
    let (alone_total, alone) = best_alone.unwrap();

    println!("board   paths (A390833)  cycles (A392000)  frontier s  search s");
    let mut search_total = Duration::ZERO;
    for (i, b) in boards.iter().enumerate() {
        let (tours, took) = alone[i];
        assert_eq!(tours, plan_counts[&sides(b)], "{b}: the plan differs");
        let searched = match searched[i] {
            Some((s_tours, s_took)) => {
                assert_eq!(s_tours, tours, "{b}: the two methods differ");
                search_total += s_took;
                format!("{:.4}", s_took.as_secs_f64())
            }
            None => String::from("-"),
        };
        let (open, closed) = tours;
        let name = format!("{}x{}", b.rows(), b.cols());
        println!(
            "{name:<7} {open:>15}  {closed:>16}  {:>10.4}  {searched:>8}",
            took.as_secs_f64()
        );
    }
    println!("the plan: a board and its turn counted once, a group a short side");
    for (g, took) in groups.iter().zip(&plan_times) {
        let (first, last) = (g.lengths[0], *g.lengths.last().unwrap());
        let how = match g.method {
            Method::Sequence => format!("frontier, one run over {}x{last}", g.w),
            Method::Search => String::from("search, a board at a time"),
        };
        println!(
            "  {w} x {first}..={last} ({} board{}): {how}, {:.4} s",
            g.lengths.len(),
            if g.lengths.len() == 1 { "" } else { "s" },
            took.as_secs_f64(),
            w = g.w,
        );
    }
    println!(
        "plan: {} boards, {} counts, {:.3} s in all (best of {rounds} rounds, {threads} threads)",
        boards.len(),
        2 * boards.len(),
        plan_total.as_secs_f64()
    );
    println!(
        "frontier alone: {:.3} s in all (best of {rounds} rounds, alternated with the plan's); frontier alone / plan = {:.2}",
        alone_total.as_secs_f64(),
        alone_total.as_secs_f64() / plan_total.as_secs_f64()
    );
    if !frontier_only {
        println!(
            "search alone: {:.3} s in all (one round), the same counts; search alone / plan = {:.2}",
            search_total.as_secs_f64(),
            search_total.as_secs_f64() / plan_total.as_secs_f64()
        );
    }
}
