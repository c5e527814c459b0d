//! Backtracking workload for callgrind and `perf stat`: `probe_bt <n> <rule> <budget> [row col]`
//! (one closed search from (row, col), default (0,0)), or `probe_bt <n> <rule>` for closed searches
//! from every start. Prints the nodes, to divide instructions or task-clock by.
use ktour::board::{Board, Square};
use ktour::solve::{Method, Request, Solver};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: u64 = a.get(1).map_or(8, |s| s.parse().unwrap());
    let rule = a.get(2).map_or("first", |s| s.as_str());
    let budget: u64 = a.get(3).map_or(0, |s| s.parse().unwrap());
    let b = Board::square(n).unwrap();
    let starts: Vec<Square> = if a.len() <= 3 {
        b.squares().collect()
    } else {
        vec![Square::new(
            a.get(4).map_or(0, |s| s.parse().unwrap()),
            a.get(5).map_or(0, |s| s.parse().unwrap()),
        )]
    };
    let mut s = Solver::new();
    let mut nodes = 0;
    for start in starts {
        let r = Request {
            board: b,
            start,
            closure: ktour::board::Closure::Closed,
            method: Method::Backtrack,
            rule: rule.parse().unwrap(),
            budget,
            seed: 3,
            closing: Default::default(),
            prune: true,
        };
        nodes += s.run(&r).unwrap().stats.nodes;
    }
    println!("{nodes} nodes");
}
