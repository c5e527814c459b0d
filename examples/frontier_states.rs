//! The frontier's states after every square of a board, open and closed side by side, up to a cap
//! on states: the measurement behind the plans for counts that do not fit (docs/counting.md,
//! "Toward 8 x n for n up to 12, and open 8x8"). Each closure runs until it ends or a step passes
//! the cap ([`ktour::count::frontier::count_frontier_with`]'s limit), then the table is printed:
//! square, row, open states, closed states and their ratio (`-` past where one stopped).
//!
//! `cargo run --release --example frontier_states -- ROWS COLS [CAP]`, e.g. `8 8 100000000`.

use ktour::board::{Board, Closure};
use ktour::count::frontier::count_frontier_with;

/// Square, the row it ends (if it ends one) and the states after it, until the count ended or
/// passed `cap`.
fn states(board: Board, closure: Closure, cap: usize) -> Vec<(u32, Option<u32>, usize)> {
    let mut seen = Vec::new();
    let _ = count_frontier_with(board, closure, cap, &mut |p| {
        seen.push((p.squares_done, p.row_end.then_some(p.rows_done), p.states));
    });
    seen
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("ROWS COLS [CAP] as integers"))
        .collect();
    let (rows, cols) = match args[..] {
        [r, c, ..] => (r, c),
        _ => panic!("usage: frontier_states ROWS COLS [CAP]"),
    };
    let cap = args.get(2).copied().unwrap_or(50_000_000) as usize;
    let board = Board::new(rows, cols).expect("a valid board");
    let open = states(board, Closure::Open, cap);
    let closed = states(board, Closure::Closed, cap);
    println!("# frontier states after each square of {board} (open undirected, closed), cap {cap}");
    println!("square row_end open closed open/closed");
    let longer = if open.len() >= closed.len() {
        &open
    } else {
        &closed
    };
    for (i, &(square, row_end, _)) in longer.iter().enumerate() {
        let o = open.get(i).map(|&(_, _, o)| o);
        let c = closed.get(i).map(|&(_, _, c)| c);
        let ratio = o
            .zip(c.filter(|&c| c > 0))
            .map(|(o, c)| o as f64 / c as f64);
        let shown = |x: Option<usize>| x.map_or("-".into(), |x| x.to_string());
        println!(
            "{square} {} {} {} {}",
            row_end.map_or("-".into(), |r| format!("row{r}")),
            shown(o),
            shown(c),
            ratio.map_or("-".into(), |r| format!("{r:.1}"))
        );
    }
}
