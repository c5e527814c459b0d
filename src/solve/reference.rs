//! Slow, obviously correct twins of the fast solvers, kept beside them for cross-checks in tests
//! (the rust-csv habit): a plain `Vec<bool>` board, degrees recounted from scratch at every step, rules
//! evaluated directly from their definitions in `docs/REFERENCE.md`, and recursive searches.

use super::rules::{LabelOrder, SquirrelPlan};
use super::{Impossibility, Outcome, Rule};
use crate::board::Closure;
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
        let best_by = |among: &[(usize, Square)]| {
            let key = |c: Square| tie_key(rule, board, &seen, c);
            let best = among
                .iter()
                .map(|&(_, c)| key(c))
                .fold(f64::INFINITY, f64::min);
            let keep: Vec<_> = among
                .iter()
                .copied()
                .filter(|&(_, c)| key(c) == best)
                .collect();
            by_order(scan_order(rule), &keep)
        };
        let choice = match rule {
            Rule::Order(o) => by_order(o, &tied),
            Rule::Random => {
                if tied.len() > 1 {
                    tied[rng.gen_range(0..tied.len())]
                } else {
                    tied[0]
                }
            }
            Rule::Pohl | Rule::Roth | Rule::Center | Rule::RothOriginal => best_by(&tied),
            Rule::Squirrel => by_order(squirrel.as_ref().unwrap().ordering(), &tied),
        };
        seen[board.index(choice.1) as usize] = true;
        path.push(choice.1);
    }
}

/// The first tour from `start` in label order by plain recursion (closed if asked), or `None`.
/// Recursion depth = squares: small boards only.
pub fn first_tour_recursive(board: Board, start: Square, closure: Closure) -> Option<Vec<Square>> {
    fn go(board: Board, seen: &mut Vec<bool>, path: &mut Vec<Square>, closure: Closure) -> bool {
        if path.len() == board.len() as usize {
            return !closure.is_closed() || crate::board::is_closed_tour(path);
        }
        let cur = *path.last().unwrap();
        for (_, n) in free_neighbours(board, seen, cur) {
            seen[board.index(n) as usize] = true;
            path.push(n);
            if go(board, seen, path, closure) {
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
    go(board, &mut seen, &mut path, closure).then_some(path)
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

/// The key by which `rule` orders candidates of equal degree, by its definition (smaller preferred;
/// candidates with equal keys go in the rule's label order, [`scan_order`]): 0 for the rules without
/// one (fixed orders, `squirrel`; `random` is not a key of the square).
fn tie_key(rule: Rule, board: Board, seen: &[bool], c: Square) -> f64 {
    let (rows, cols) = (board.rows() as f64, board.cols() as f64);
    // Exact comparisons of Euclidean distances: squared distances of half-integer points are exact
    // in f64 (small integers / 4).
    let dist2 = |r: f64, col: f64| (c.row() as f64 - r).powi(2) + (c.col() as f64 - col).powi(2);
    let (mid_r, mid_c) = ((rows - 1.0) / 2.0, (cols - 1.0) / 2.0);
    match rule {
        Rule::Pohl => free_neighbours(board, seen, c)
            .iter()
            .map(|&(_, n)| degree(board, seen, n) as f64)
            .sum(),
        Rule::Roth => -dist2(mid_r, mid_c),
        Rule::Center => dist2(mid_r, mid_c),
        // Mathematica's Round takes halves to even
        Rule::RothOriginal => -dist2(
            (rows / 2.0).round_ties_even() - 1.5,
            (cols / 2.0).round_ties_even() - 1.5,
        ),
        Rule::Order(_) | Rule::Random | Rule::Squirrel => 0.0,
    }
}

/// The label order in which `rule` takes candidates of equal degree and key.
fn scan_order(rule: Rule) -> LabelOrder {
    match rule {
        Rule::Order(o) => o,
        Rule::RothOriginal => LabelOrder::digits("56781234"),
        _ => LabelOrder::IDENTITY,
    }
}

/// Warnsdorff-ordered backtracking (`backtrack`) by plain recursion, from the definitions: the
/// candidates of a square are its free neighbours by degree, then the rule's key, then the rule's
/// label order; after entering a square, the branch is cut if a free neighbour of it has no free
/// neighbour left (it could only be the last square, so unless it is the only one left) or, for a
/// closed tour, if the start has no free neighbour left to return through. `budget` bounds the
/// squares entered (0 = unlimited), checked before each one as the engine does.
///
/// Returns how it ended (`Found`, `BudgetExhausted`, or `Impossible(Exhausted)`), the path then
/// (the tour when found) and the squares entered, the start included. For the rules whose key is a
/// function of the square (`first`, `order:*`, `pohl`, `roth`, `roth-original`, `center`).
/// Recursion depth = squares: small boards only.
pub fn backtrack_recursive(
    board: Board,
    start: Square,
    rule: Rule,
    closure: Closure,
    budget: u64,
) -> (Outcome, Vec<Square>, u64) {
    assert!(
        !matches!(rule, Rule::Random | Rule::Squirrel),
        "{rule}: not a key of the square"
    );
    struct Search {
        board: Board,
        rule: Rule,
        closure: Closure,
        budget: u64,
        start: Square,
        seen: Vec<bool>,
        path: Vec<Square>,
        nodes: u64,
    }
    enum End {
        Found,
        Budget,
        Exhausted,
    }
    impl Search {
        fn go(&mut self) -> End {
            let (board, squares) = (self.board, self.board.len() as usize);
            let order = scan_order(self.rule);
            let here = *self.path.last().expect("the start");
            let mut cands: Vec<(usize, f64, usize, Square)> =
                free_neighbours(board, &self.seen, here)
                    .into_iter()
                    .map(|(k, c)| {
                        let at = order.labels().iter().position(|&l| l as usize == k);
                        let key = tie_key(self.rule, board, &self.seen, c);
                        (degree(board, &self.seen, c), key, at.expect("a label"), c)
                    })
                    .collect();
            cands.sort_by(|a, b| {
                (a.0, a.1, a.2)
                    .partial_cmp(&(b.0, b.1, b.2))
                    .expect("no NaN")
            });
            for (_, _, _, c) in cands {
                if self.budget != 0 && self.nodes >= self.budget {
                    return End::Budget;
                }
                self.seen[board.index(c) as usize] = true;
                self.path.push(c);
                self.nodes += 1;
                let left = squares - self.path.len();
                let dead = if left == 0 {
                    if !self.closure.is_closed() || crate::board::is_closed_tour(&self.path) {
                        return End::Found;
                    }
                    true
                } else {
                    let stranded = free_neighbours(board, &self.seen, c)
                        .iter()
                        .any(|&(_, n)| degree(board, &self.seen, n) == 0);
                    (left > 1 && stranded)
                        || (self.closure.is_closed() && degree(board, &self.seen, self.start) == 0)
                };
                if !dead {
                    match self.go() {
                        End::Exhausted => {}
                        end => return end,
                    }
                }
                self.path.pop();
                self.seen[board.index(c) as usize] = false;
            }
            End::Exhausted
        }
    }
    let mut search = Search {
        board,
        rule,
        closure,
        budget,
        start,
        seen: vec![false; board.len() as usize],
        path: vec![start],
        nodes: 1,
    };
    search.seen[board.index(start) as usize] = true;
    let end = if board.len() == 1 {
        // the trivial tour; a closed tour needs a cycle
        if closure.is_closed() {
            End::Exhausted
        } else {
            End::Found
        }
    } else {
        search.go()
    };
    let outcome = match end {
        End::Found => Outcome::Found,
        End::Budget => Outcome::BudgetExhausted,
        End::Exhausted => Outcome::Impossible(Impossibility::Exhausted),
    };
    (outcome, search.path, search.nodes)
}
