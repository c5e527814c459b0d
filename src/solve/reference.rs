//! Slow, obviously correct twins of the fast solvers, kept beside them for cross-checks in tests
//! (the rust-csv habit): a plain `Vec<bool>` board, degrees recounted from scratch at every step, rules
//! evaluated directly from their definitions in `docs/REFERENCE.md`, and recursive searches. They take
//! any [`Shape`] (a [`Board`] is the whole board walked by the knight), so they are the twins of the
//! search on any board (`solve::shaped`) too; moves come from [`Shape::neighbours`] alone.
//!
//! [`Board`]: crate::board::Board

use super::rules::{Final, Key, LabelOrder, SquirrelPlan};
use super::{Closing, Impossibility, Outcome, Rule};
use crate::board::Closure;
use crate::board::{Layout, Shape, Square, KNIGHT_DELTAS};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn free_neighbours(shape: &Shape, seen: &[bool], sq: Square) -> Vec<(usize, Square)> {
    shape
        .neighbours(sq)
        .filter(|&(_, n)| !seen[shape.board().index(n) as usize])
        .collect()
}

fn degree(shape: &Shape, seen: &[bool], sq: Square) -> usize {
    free_neighbours(shape, seen, sq).len()
}

/// Pure Warnsdorff from `start` by the definitions; returns the path (a tour if it has every square).
pub fn warnsdorff(shape: impl Into<Shape>, start: Square, rule: Rule, seed: u64) -> Vec<Square> {
    warnsdorff_closing(shape, start, rule, seed, Closing::Check)
}

/// [`warnsdorff`] for a closed walk that closes by `closing`: with [`Closing::StartLast`] the start
/// counts as a free neighbour in every degree (HaskellWiki: its `entrances` count the start until
/// it is entered) though it is never a candidate; the walk is a closed tour when it covers the board
/// and its last square is next to the start.
pub fn warnsdorff_closing(
    shape: impl Into<Shape>,
    start: Square,
    rule: Rule,
    seed: u64,
    closing: Closing,
) -> Vec<Square> {
    let shape = &shape.into();
    let board = shape.board();
    let mut seen = vec![false; board.len() as usize];
    let mut path = vec![start];
    seen[board.index(start) as usize] = true;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let layout = Layout::new(board);
    let mut squirrel = (rule == Rule::Squirrel)
        .then(|| SquirrelPlan::new(&layout, start).expect("squirrel domain"));
    let shuffled = shuffle_draw(rule, &mut rng);
    loop {
        let cur = *path.last().unwrap();
        if let Some(plan) = &mut squirrel {
            plan.arrive(layout.pad(cur));
        }
        let keep = candidates_after_keys(shape, &seen, cur, rule, start, closing);
        if keep.is_empty() {
            return path;
        }
        let choice = match (rule, shuffled) {
            (_, Some(order)) => by_order(order, &keep),
            (Rule::Squirrel, _) => by_order(squirrel.as_ref().unwrap().ordering(), &keep),
            (Rule::Chain(c), _) => match c.last {
                Final::Order(o) => by_order(o, &keep),
                _ if keep.len() == 1 => keep[0],
                Final::Random => keep[rng.gen_range(0..keep.len())],
                // the program's loop: from a random place in its move list, the first tied move
                Final::Gfg(cycle) => {
                    let from = rng.gen_range(0..8);
                    (0..8)
                        .map(|i| cycle.labels()[(from + i) % 8] as usize)
                        .find_map(|l| keep.iter().find(|&&(k, _)| k == l).copied())
                        .expect("a tied move")
                }
                Final::Shuffle => unreachable!("drawn before the walk"),
            },
            (Rule::RothOriginal | Rule::RothHalfUp, _) => by_order(scan_order(rule), &keep),
        };
        seen[board.index(choice.1) as usize] = true;
        path.push(choice.1);
    }
}

/// The moves pure Warnsdorff may take from `cur` (label and square, in label order 1..8), by the
/// definitions: the free neighbours of minimum degree (the start kept for last counting as free in
/// every degree under [`Closing::StartLast`]), then each of `rule`'s keys keeping its best in
/// turn. Empty at a dead end. The final tie-break decides among them.
pub(crate) fn candidates_after_keys(
    shape: &Shape,
    seen: &[bool],
    cur: Square,
    rule: Rule,
    start: Square,
    closing: Closing,
) -> Vec<(usize, Square)> {
    let kept = |sq: Square| closing == Closing::StartLast && shape.is_move(sq, start);
    // the degree a walk reads: free neighbours, and the start kept for last
    let degree =
        |shape: &Shape, seen: &[bool], sq: Square| degree(shape, seen, sq) + usize::from(kept(sq));
    let cands = free_neighbours(shape, seen, cur);
    let Some(min) = cands.iter().map(|&(_, c)| degree(shape, seen, c)).min() else {
        return Vec::new();
    };
    // tied candidates in label order 1..8
    let mut keep: Vec<(usize, Square)> = cands
        .into_iter()
        .filter(|&(_, c)| degree(shape, seen, c) == min)
        .collect();
    // each key keeps its best candidates, in turn
    for key in tie_keys(rule) {
        let value = |c: Square| key_value(key, shape, seen, c, &degree);
        let best = keep
            .iter()
            .map(|&(_, c)| value(c))
            .fold(f64::INFINITY, f64::min);
        keep.retain(|&(_, c)| value(c) == best);
    }
    keep
}

/// The candidate whose label comes first in `order`.
pub(crate) fn by_order(order: LabelOrder, among: &[(usize, Square)]) -> (usize, Square) {
    *among
        .iter()
        .min_by_key(|(k, _)| order.labels().iter().position(|&l| l as usize == *k))
        .unwrap()
}

/// `shuffle`'s ordering for the run: the first draw of the run's PRNG, a uniform index among the
/// 40,320 orderings in lexicographic order.
fn shuffle_draw(rule: Rule, rng: &mut Xoshiro256PlusPlus) -> Option<LabelOrder> {
    matches!(rule, Rule::Chain(c) if c.last == Final::Shuffle)
        .then(|| LabelOrder::nth_permutation(rng.gen_range(0..40_320)))
}

/// The first tour from `start` in label order by plain recursion (closed if asked), or `None`.
/// Recursion depth = squares: small boards only.
pub fn first_tour_recursive(
    shape: impl Into<Shape>,
    start: Square,
    closure: Closure,
) -> Option<Vec<Square>> {
    fn go(shape: &Shape, seen: &mut Vec<bool>, path: &mut Vec<Square>, closure: Closure) -> bool {
        if path.len() == shape.len() as usize {
            return !closure.is_closed() || shape.closes(path);
        }
        let cur = *path.last().unwrap();
        for (_, n) in free_neighbours(shape, seen, cur) {
            seen[shape.board().index(n) as usize] = true;
            path.push(n);
            if go(shape, seen, path, closure) {
                return true;
            }
            path.pop();
            seen[shape.board().index(n) as usize] = false;
        }
        false
    }
    let shape = &shape.into();
    let mut seen = vec![false; shape.board().len() as usize];
    seen[shape.board().index(start) as usize] = true;
    let mut path = vec![start];
    go(shape, &mut seen, &mut path, closure).then_some(path)
}

/// `naive` by plain recursion, from the definitions: the free neighbours of a square in the label
/// order `order` (no degrees, no pruning), a tour when every square is on the path (closed: its last
/// square a knight move from the start), and for a closed tour a branch cut as soon as the start has
/// no free neighbour left to return through (as the engine does). `budget` bounds the squares entered
/// (0 = unlimited), checked before each one as the engine does.
///
/// Returns how it ended (`Found`, `BudgetExhausted`, or `Impossible(Exhausted)`), the path then (the
/// tour when found) and the squares entered, the start included. Recursion depth = squares: small
/// boards only.
///
/// One function on purpose: a slow twin is read against the definition, so it is written as the
/// textbook recursion in one piece.
pub fn naive_recursive(
    shape: impl Into<Shape>,
    start: Square,
    order: LabelOrder,
    closure: Closure,
    budget: u64,
) -> (Outcome, Vec<Square>, u64) {
    enum End {
        Found,
        Budget,
        Exhausted,
    }
    struct Search {
        shape: Shape,
        order: LabelOrder,
        closure: Closure,
        budget: u64,
        start: Square,
        seen: Vec<bool>,
        path: Vec<Square>,
        nodes: u64,
    }
    impl Search {
        fn go(&mut self) -> End {
            let here = *self.path.last().expect("the start");
            let free = free_neighbours(&self.shape, &self.seen, here);
            let order = *self.order.labels();
            for label in order {
                let Some(&(_, c)) = free.iter().find(|&&(k, _)| k == label as usize) else {
                    continue;
                };
                if self.budget != 0 && self.nodes >= self.budget {
                    return End::Budget;
                }
                self.seen[self.shape.board().index(c) as usize] = true;
                self.path.push(c);
                self.nodes += 1;
                let dead = if self.path.len() == self.shape.len() as usize {
                    if !self.closure.is_closed() || self.shape.closes(&self.path) {
                        return End::Found;
                    }
                    true
                } else {
                    self.closure.is_closed() && degree(&self.shape, &self.seen, self.start) == 0
                };
                if !dead {
                    match self.go() {
                        End::Exhausted => {}
                        end => return end,
                    }
                }
                self.path.pop();
                self.seen[self.shape.board().index(c) as usize] = false;
            }
            End::Exhausted
        }
    }
    let shape = shape.into();
    let board = shape.board();
    let squares = shape.len();
    let mut search = Search {
        shape,
        order,
        closure,
        budget,
        start,
        seen: vec![false; board.len() as usize],
        path: vec![start],
        nodes: 1,
    };
    search.seen[board.index(start) as usize] = true;
    let end = match squares {
        // the trivial tour; a closed tour needs a cycle
        1 if !closure.is_closed() => End::Found,
        1 => End::Exhausted,
        _ => search.go(),
    };
    let outcome = match end {
        End::Found => Outcome::Found,
        End::Budget => Outcome::BudgetExhausted,
        End::Exhausted => Outcome::Impossible(Impossibility::Exhausted),
    };
    (outcome, search.path, search.nodes)
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

/// A key of the twins: a chain's key, or `roth-original`'s distance.
#[derive(Clone, Copy, Debug)]
enum TwinKey {
    Chain(Key),
    RothOriginal,
    RothHalfUp,
}

/// The keys `rule` ranks tied candidates by, in turn.
fn tie_keys(rule: Rule) -> Vec<TwinKey> {
    match rule {
        Rule::Chain(c) => c.keys.iter().map(TwinKey::Chain).collect(),
        Rule::RothOriginal => vec![TwinKey::RothOriginal],
        Rule::RothHalfUp => vec![TwinKey::RothHalfUp],
        Rule::Squirrel => Vec::new(),
    }
}

/// A key's value for candidate `c`, by its definition (smaller preferred).
fn key_value(
    key: TwinKey,
    shape: &Shape,
    seen: &[bool],
    c: Square,
    degree: &dyn Fn(&Shape, &[bool], Square) -> usize,
) -> f64 {
    let (rows, cols) = (shape.board().rows() as f64, shape.board().cols() as f64);
    // Exact comparisons of Euclidean distances: squared distances of half-integer points are exact
    // in f64 (small integers / 4).
    let dist2 = |r: f64, col: f64| (c.row() as f64 - r).powi(2) + (c.col() as f64 - col).powi(2);
    let (mid_r, mid_c) = ((rows - 1.0) / 2.0, (cols - 1.0) / 2.0);
    match key {
        TwinKey::Chain(Key::Pohl) => free_neighbours(shape, seen, c)
            .iter()
            .map(|&(_, n)| degree(shape, seen, n) as f64)
            .sum(),
        TwinKey::Chain(Key::Roth) => -dist2(mid_r, mid_c),
        TwinKey::Chain(Key::Center) => dist2(mid_r, mid_c),
        // Mathematica's Round takes halves to even
        TwinKey::RothOriginal => -dist2(
            (rows / 2.0).round_ties_even() - 1.5,
            (cols / 2.0).round_ties_even() - 1.5,
        ),
        // f64::round takes halves away from zero: up, for these positive halves
        TwinKey::RothHalfUp => -dist2((rows / 2.0).round() - 1.5, (cols / 2.0).round() - 1.5),
    }
}

/// The label order in which a rule without random parts takes candidates of equal degree and keys.
fn scan_order(rule: Rule) -> LabelOrder {
    match rule {
        Rule::Chain(c) => match c.last {
            Final::Order(o) => o,
            _ => LabelOrder::IDENTITY,
        },
        Rule::RothOriginal | Rule::RothHalfUp => LabelOrder::digits("56781234"),
        Rule::Squirrel => LabelOrder::IDENTITY,
    }
}

/// Warnsdorff-ordered backtracking (`backtrack`) by plain recursion, from the definitions: the
/// candidates of a square are its free neighbours by degree, then the rule's key, then the rule's
/// label order; after entering a square, the branch is cut if a free neighbour of it has no free
/// neighbour left (it could only be the last square, so unless it is the only one left) or, for a
/// closed tour, if the start has no free neighbour left to return through (the first cut only if
/// `prune`; the second always, as the engine does). `budget` bounds the
/// squares entered (0 = unlimited), checked before each one as the engine does.
///
/// Returns how it ended (`Found`, `BudgetExhausted`, or `Impossible(Exhausted)`), the path then
/// (the tour when found) and the squares entered, the start included. For the rules whose key is a
/// function of the square (every rule without random parts but `squirrel`: chains of keys ending in
/// a fixed order, and `roth-original`).
/// Recursion depth = squares: small boards only.
///
/// One function on purpose: a slow twin is read against the definition, so it is written as the
/// textbook recursion in one piece.
pub fn backtrack_recursive(
    shape: impl Into<Shape>,
    start: Square,
    rule: Rule,
    closure: Closure,
    budget: u64,
    prune: bool,
) -> (Outcome, Vec<Square>, u64) {
    assert!(
        !rule.is_random() && rule != Rule::Squirrel,
        "{rule}: not a key of the square"
    );
    struct Search {
        shape: Shape,
        rule: Rule,
        closure: Closure,
        budget: u64,
        prune: bool,
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
            let shape = &self.shape.clone();
            let (board, squares) = (shape.board(), shape.len() as usize);
            let order = scan_order(self.rule);
            let here = *self.path.last().expect("the start");
            let mut cands: Vec<(usize, Vec<f64>, usize, Square)> =
                free_neighbours(shape, &self.seen, here)
                    .into_iter()
                    .map(|(k, c)| {
                        let at = order.labels().iter().position(|&l| l as usize == k);
                        let keys: Vec<f64> = tie_keys(self.rule)
                            .into_iter()
                            .map(|key| key_value(key, shape, &self.seen, c, &degree))
                            .collect();
                        (degree(shape, &self.seen, c), keys, at.expect("a label"), c)
                    })
                    .collect();
            cands.sort_by(|a, b| {
                (a.0, &a.1, a.2)
                    .partial_cmp(&(b.0, &b.1, b.2))
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
                    if !self.closure.is_closed() || shape.closes(&self.path) {
                        return End::Found;
                    }
                    true
                } else {
                    let stranded = free_neighbours(shape, &self.seen, c)
                        .iter()
                        .any(|&(_, n)| degree(shape, &self.seen, n) == 0);
                    (self.prune && left > 1 && stranded)
                        || (self.closure.is_closed() && degree(shape, &self.seen, self.start) == 0)
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
    let shape = shape.into();
    let board = shape.board();
    let squares = shape.len();
    let mut search = Search {
        shape,
        rule,
        closure,
        budget,
        prune,
        start,
        seen: vec![false; board.len() as usize],
        path: vec![start],
        nodes: 1,
    };
    search.seen[board.index(start) as usize] = true;
    let end = if squares == 1 {
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
