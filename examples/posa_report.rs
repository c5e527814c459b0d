//! Experiment: for which even n <= 300 does the Posa closer (`ktour::solve::posa::close_path`) close the
//! open path of pure Warnsdorff (minimum degree, ties by label order 1..8) from the corner (0,0), and
//! how fast. `cargo run --release --example posa_report -- [max_n]`; prints one CSV line per n.
use ktour::board::{Board, Square};
use ktour::solve::posa::{close_path_with, CloseError, DEFAULT_ROTATIONS};
use ktour::verify::verify_closed_tour;
use std::time::Instant;

/// Pure Warnsdorff from `start` with the `first` tie-break; the path until it stops.
fn warnsdorff(board: Board, start: Square) -> Vec<Square> {
    let n = board.len() as usize;
    let mut seen = vec![false; n];
    let mut deg: Vec<u8> = board
        .squares()
        .map(|s| board.neighbours(s).count() as u8)
        .collect();
    let mut path = Vec::with_capacity(n);
    let mut cur = start;
    loop {
        seen[board.index(cur) as usize] = true;
        path.push(cur);
        for t in board.neighbours(cur) {
            deg[board.index(t) as usize] -= 1;
        }
        // min_by_key keeps the first minimum: label order among ties.
        match board
            .neighbours(cur)
            .filter(|&t| !seen[board.index(t) as usize])
            .min_by_key(|&t| deg[board.index(t) as usize])
        {
            Some(t) => cur = t,
            None => return path,
        }
    }
}

fn main() {
    let max: u64 = std::env::args().nth(1).map_or(300, |a| a.parse().unwrap());
    let min: u64 = std::env::args().nth(2).map_or(6, |a| a.parse().unwrap());
    let budget: u64 = std::env::args()
        .nth(3)
        .map_or(DEFAULT_ROTATIONS, |a| a.parse().unwrap());
    println!("n,warnsdorff_complete,warnsdorff_closed,closed_after_posa,rotations,moved_squares,warnsdorff_ms,close_ms");
    for n in (min..=max).step_by(2) {
        let board = Board::square(n).unwrap();
        let t = Instant::now();
        let mut p = warnsdorff(board, Square::new(0, 0));
        let w_ms = t.elapsed().as_secs_f64() * 1e3;
        let complete = p.len() as u32 == board.len();
        let already = complete && ktour::board::is_knight_move(p[0], p[p.len() - 1]);
        if !complete {
            println!("{n},false,false,,,,{w_ms:.3},");
            continue;
        }
        let t = Instant::now();
        let r = close_path_with(board, &mut p, budget);
        let c_ms = t.elapsed().as_secs_f64() * 1e3;
        match r {
            Ok(st) => {
                verify_closed_tour(board, &p).unwrap();
                println!(
                    "{n},true,{already},true,{},{},{w_ms:.3},{c_ms:.3}",
                    st.rotations, st.moved
                );
            }
            Err(CloseError::Budget { rotations, .. }) => {
                println!("{n},true,{already},false,{rotations},,{w_ms:.3},{c_ms:.3}")
            }
            Err(e) => panic!("{e}"),
        }
    }
}
