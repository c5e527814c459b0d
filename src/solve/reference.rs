//! Slow, obviously correct twins of the fast solvers, kept beside them for cross-checks in tests
//! (the rust-csv habit): a plain `Vec<bool>` board, degrees recounted from scratch at every step, rules
//! evaluated directly from their definitions in `REFERENCE.md`, and a recursive search.

use super::rules::{LabelOrder, SquirrelPlan};
use super::Rule;
use crate::board::{Board, Layout, Square, KNIGHT_DELTAS};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn free_neighbours(board: Board, seen: &[bool], sq: Square) -> Vec<(usize, Square)> {
    KNIGHT_DELTAS
        .iter()
        .enumerate()
        .filter_map(|(k, &(dr, dc))| sq.try_offset(dr, dc, board).map(|n| (k, n)))
        .filter(|&(_, n)| !seen[board.index(n) as usize])
        .collect()
}

fn degree(board: Board, seen: &[bool], sq: Square) -> usize {
    free_neighbours(board, seen, sq).len()
}

/// Pure Warnsdorff from `start` by the definitions; returns the path (a tour if it has every square).
pub fn warnsdorff(board: Board, start: Square, rule: Rule, seed: u64) -> Vec<Square> {
    let mut seen = vec![false; board.len() as usize];
    let mut path = vec![start];
    seen[board.index(start) as usize] = true;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut squirrel = (rule == Rule::Squirrel)
        .then(|| SquirrelPlan::new(&Layout::new(board), start).expect("squirrel domain"));
    let layout = Layout::new(board);
    let (rows, cols) = (board.rows() as f64, board.cols() as f64);
    loop {
        let cur = *path.last().unwrap();
        if let Some(plan) = &mut squirrel {
            plan.arrive(layout.pad(cur));
        }
        let cands = free_neighbours(board, &seen, cur);
        let Some(min) = cands.iter().map(|&(_, c)| degree(board, &seen, c)).min() else {
            return path;
        };
        // tied candidates in label order 1..8
        let tied: Vec<(usize, Square)> = cands
            .into_iter()
            .filter(|&(_, c)| degree(board, &seen, c) == min)
            .collect();
        let by_order = |order: LabelOrder, among: &[(usize, Square)]| {
            *among
                .iter()
                .min_by_key(|(k, _)| order.labels().iter().position(|&l| l as usize == *k))
                .unwrap()
        };
        // Exact comparisons of Euclidean distances: compare squared distances as exact f64 of
        // half-integers (all values are small integers / 4, represented exactly).
        let dist2 = |sq: Square, r: f64, c: f64| {
            (sq.row() as f64 - r).powi(2) + (sq.col() as f64 - c).powi(2)
        };
        let best_by =
            |among: &[(usize, Square)], key: &dyn Fn(Square) -> f64, order: LabelOrder| {
                let best = among
                    .iter()
                    .map(|&(_, c)| key(c))
                    .fold(f64::INFINITY, f64::min);
                let keep: Vec<_> = among
                    .iter()
                    .copied()
                    .filter(|&(_, c)| key(c) == best)
                    .collect();
                by_order(order, &keep)
            };
        let id = LabelOrder::IDENTITY;
        let choice = match rule {
            Rule::Order(o) => by_order(o, &tied),
            Rule::Random => {
                if tied.len() > 1 {
                    tied[rng.gen_range(0..tied.len())]
                } else {
                    tied[0]
                }
            }
            Rule::Pohl => best_by(
                &tied,
                &|c| {
                    free_neighbours(board, &seen, c)
                        .iter()
                        .map(|&(_, n)| degree(board, &seen, n) as f64)
                        .sum()
                },
                id,
            ),
            Rule::Roth => best_by(
                &tied,
                &|c| -dist2(c, (rows - 1.0) / 2.0, (cols - 1.0) / 2.0),
                id,
            ),
            Rule::Center => best_by(
                &tied,
                &|c| dist2(c, (rows - 1.0) / 2.0, (cols - 1.0) / 2.0),
                id,
            ),
            Rule::RothOriginal => best_by(
                &tied,
                &|c| -dist2(c, (rows / 2.0).ceil() - 1.5, (cols / 2.0).ceil() - 1.5),
                LabelOrder::digits("56781234"),
            ),
            Rule::Squirrel => by_order(squirrel.as_ref().unwrap().ordering(), &tied),
        };
        seen[board.index(choice.1) as usize] = true;
        path.push(choice.1);
    }
}

/// The first tour from `start` in label order by plain recursion (closed if asked), or `None`.
/// Recursion depth = squares: small boards only.
pub fn first_tour_recursive(board: Board, start: Square, closed: bool) -> Option<Vec<Square>> {
    fn go(board: Board, seen: &mut Vec<bool>, path: &mut Vec<Square>, closed: bool) -> bool {
        if path.len() == board.len() as usize {
            return !closed || crate::board::is_closed_tour(path);
        }
        let cur = *path.last().unwrap();
        for (_, n) in free_neighbours(board, seen, cur) {
            seen[board.index(n) as usize] = true;
            path.push(n);
            if go(board, seen, path, closed) {
                return true;
            }
            path.pop();
            seen[board.index(n) as usize] = false;
        }
        false
    }
    let mut seen = vec![false; board.len() as usize];
    seen[board.index(start) as usize] = true;
    let mut path = vec![start];
    go(board, &mut seen, &mut path, closed).then_some(path)
}

/// The textbook pure Warnsdorff with `first` (label order, strict minimum), as the seed programs write
/// it: a board of ints (0 = free, else the visit number) and every candidate's degree recounted by
/// scanning its eight neighbours with bounds checks. The baseline that the benchmarks report ratios
/// against (`benches/warnsdorff.rs`, `examples/callgrind.rs`). Fills `board` with visit numbers and
/// returns the number of squares visited.
pub fn textbook_warnsdorff(rows: i32, cols: i32, start: (i32, i32), board: &mut Vec<i32>) -> usize {
    board.clear();
    board.resize((rows * cols) as usize, 0);
    let inside = |r: i32, c: i32| r >= 0 && r < rows && c >= 0 && c < cols;
    let (mut r, mut c) = start;
    let mut n = 1;
    board[(r * cols + c) as usize] = n;
    loop {
        let mut best = None;
        let mut best_degree = 9;
        for (dr, dc) in KNIGHT_DELTAS {
            let (nr, nc) = (r + dr, c + dc);
            if inside(nr, nc) && board[(nr * cols + nc) as usize] == 0 {
                let mut degree = 0;
                for (er, ec) in KNIGHT_DELTAS {
                    let (mr, mc) = (nr + er, nc + ec);
                    if inside(mr, mc) && board[(mr * cols + mc) as usize] == 0 {
                        degree += 1;
                    }
                }
                if degree < best_degree {
                    best_degree = degree;
                    best = Some((nr, nc));
                }
            }
        }
        match best {
            None => return n as usize,
            Some((nr, nc)) => {
                n += 1;
                board[(nr * cols + nc) as usize] = n;
                (r, c) = (nr, nc);
            }
        }
    }
}
