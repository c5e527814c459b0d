//! A fixed workload for instruction counts under `valgrind --tool=callgrind` (deterministic, unlike
//! wall time on a shared machine): `cargo build --release --example callgrind`, then
//! `valgrind --tool=callgrind target/release/examples/callgrind <kernel> <n> <starts>` where
//! `<kernel>` is `textbook`, `plain`, `run`, `batch` or `bytes` (`first` rule; `bytes` is `batch`
//! with the small-board kernel and the window step turned off: the byte step on any board), `roth`, `pohl`,
//! `random` (batch), and divide the instruction count by the steps it prints (batches also print
//! how many steps were ties). See `benches/README.md`.

use ktour::board::{Board, Square};
use ktour::solve::reference::textbook_warnsdorff as textbook;
use ktour::solve::{Request, Rule, Solver, SolverOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kernel = args.get(1).map_or("batch", |s| s.as_str());
    let n: u64 = args.get(2).map_or(100, |s| s.parse().unwrap());
    let count: usize = args.get(3).map_or(100, |s| s.parse().unwrap());
    let board = Board::square(n).unwrap();
    let all: Vec<Square> = board.squares().collect();
    let starts: Vec<Square> = all
        .iter()
        .step_by((all.len() / count).max(1))
        .copied()
        .collect();
    let rule: Rule = match kernel {
        "roth" | "pohl" | "random" | "squirrel" => kernel.parse().unwrap(),
        _ => Rule::FIRST,
    };
    let reqs: Vec<Request> = starts
        .iter()
        .map(|&s| Request::warnsdorff(board, s, rule))
        .collect();
    let fast = kernel != "bytes";
    let options = SolverOptions::new().small_kernel(fast).window_step(fast);
    let mut solver = Solver::with_options(options);
    let mut steps = 0u64;
    let mut ties = None;
    match kernel {
        "textbook" => {
            let mut grid = Vec::new();
            for s in &starts {
                steps += textbook(
                    n as i32,
                    n as i32,
                    (s.row() as i32, s.col() as i32),
                    &mut grid,
                ) as u64;
            }
        }
        "plain" => {
            for r in &reqs {
                steps += solver.solve_plain(r).unwrap().squares.len() as u64;
            }
        }
        "run" => {
            for r in &reqs {
                steps += u64::from(solver.run(r).unwrap().visited);
            }
        }
        _ => {
            let mut out = Vec::new();
            solver.run_batch(&reqs, &mut out).unwrap();
            steps = out.iter().map(|s| u64::from(s.visited)).sum();
            ties = Some(out.iter().map(|s| s.stats.ties).sum::<u64>());
        }
    }
    print!("{kernel} {n}x{n} {} starts: {steps} steps", starts.len());
    match ties {
        // how often the rule decided: what the tie-breaking rules' extra cost scales with
        Some(t) => println!(", {t} ties ({:.3} a step)", t as f64 / steps as f64),
        None => println!(),
    }
}
