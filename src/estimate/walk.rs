//! One walk of the sequential importance sampler: a random knight's path grown square by square,
//! each move drawn from the proposal ([`super::proposal`]), and its weight, the inverse of the
//! probability of the path drawn, if the path is a tour (zero otherwise). Its expectation is the
//! number of tours the walk can reach, which is every tour: Knuth's estimator (Math. Comp. 29 (1975)
//! 121-136) with a general proposal, as in sequential importance sampling (J. S. Liu, "Monte Carlo
//! Strategies in Scientific Computing", 2001, chapter 3).
//!
//! What one walk counts. Open: directed paths through every square, from any start (the start is
//! drawn uniformly, weight `squares`), as `ktour count` counts open tours. Closed: undirected cycles,
//! as `ktour count --closed` counts them: the walk starts on the first square of least degree `s`,
//! a corner of degree 2 on any board with a closed tour, moves first to `a`, the first of its two
//! neighbours, and must end next to `s`; every cycle passes `s` between its two neighbours, so it is
//! drawn in exactly one direction, `s -> a -> ... -> b -> s`. A board whose least degree is not 2 has
//! no closed tour (its walks all weigh 0).
//!
//! Pruning. Let `d(v)` be the number of free neighbours of a free square `v` (for closed tours, plus
//! one when `v` is next to `s`, the edge home). The rest of the path, `u1 -> ... -> uk`, enters each
//! free square once; only `u1` (next to the head) and, for open tours, `uk` may have `d <= 1`, and
//! `d = 0` only when `k = 1`. So a state is dead (no completion) when, with `c0`, `c1` the free squares
//! with `d = 0` and `d = 1`, and `a1` those of `c1` next to the head: open, two or more free squares
//! left and `c0 > 0`, `c1 >= 3` or `c1 - a1 >= 2`; closed, `c0 > 0`, `c1 >= 2` or `c1 - a1 >= 1`.
//! The counters are kept incrementally, and a move's test reads only the moved-to square's
//! neighbours: a few dozen operations a step, no scan of the board.
//!
//! ADVICE FOR HACKERS: [`Scratch`] is reused from walk to walk, with no allocation; `reset` must
//! restore every field, and a change to the pruning rule must keep it necessary (a state it calls
//! dead has no tour), which `twin::expectation` checks against exact counts on small boards.

use super::proposal::Proposal;
use crate::board::{Board, Closure};

/// The board as the walks read it: neighbour lists, degrees and what is fixed for all walks.
#[derive(Clone, Debug)]
pub struct Graph {
    squares: usize,
    closed: bool,
    /// The knight's neighbours of each square (row-major indices); the first `deg0[i]` are real.
    neighbours: Vec<[u32; 8]>,
    deg0: Vec<u8>,
    /// Closed tours: the start `s`, its first neighbour `a`, and which squares are next to `s`.
    home: Option<(u32, u32)>,
    next_to_home: Vec<bool>,
    /// The proposal's weight of a move by the onward degree (0..=8).
    weights: [f64; 9],
    prune: bool,
}

impl Graph {
    /// The graph of `board` for tours of kind `closure`, drawn by `proposal`, pruned or not.
    pub fn new(board: Board, closure: Closure, proposal: Proposal, prune: bool) -> Graph {
        let squares = board.len() as usize;
        let mut neighbours = vec![[0u32; 8]; squares];
        let mut deg0 = vec![0u8; squares];
        for sq in board.squares() {
            let i = board.index(sq) as usize;
            for nb in board.neighbours(sq) {
                neighbours[i][deg0[i] as usize] = board.index(nb);
                deg0[i] += 1;
            }
        }
        let closed = closure.is_closed();
        let least = (0..squares).min_by_key(|&i| (deg0[i], i));
        let home = match least {
            Some(s) if closed && deg0[s] == 2 => Some((s as u32, neighbours[s][0])),
            _ => None,
        };
        let mut next_to_home = vec![false; squares];
        if let Some((s, _)) = home {
            for &v in &neighbours[s as usize][..2] {
                next_to_home[v as usize] = true;
            }
        }
        Graph {
            squares,
            closed,
            neighbours,
            deg0,
            home,
            next_to_home,
            weights: proposal.weights(),
            prune,
        }
    }

    /// The number of squares.
    pub fn squares(&self) -> usize {
        self.squares
    }

    fn neighbours(&self, v: u32) -> &[u32] {
        let i = v as usize;
        &self.neighbours[i][..self.deg0[i] as usize]
    }
}

/// How a walk's moves are drawn: at random when sampling, in every way in turn when the proposal
/// tree is enumerated (`twin`).
pub trait Chooser {
    /// One of `0..n`, each with probability `1 / n` (the open walk's start).
    fn uniform(&mut self, n: usize) -> usize;
    /// One of `0..weights.len()`, index `i` with probability `weights[i] / total`.
    fn weighted(&mut self, weights: &[f64], total: f64) -> usize;
}

impl<R: rand::Rng> Chooser for R {
    fn uniform(&mut self, n: usize) -> usize {
        self.gen_range(0..n)
    }

    fn weighted(&mut self, weights: &[f64], total: f64) -> usize {
        let mut r = self.gen::<f64>() * total;
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1 // rounding left `r` at or past the last weight
    }
}

/// A walk's weight, `exp(ln)`: weights pass 10^308 on large boards, so the natural log is kept;
/// `f64::NEG_INFINITY` is a walk that found no tour.
pub type LnWeight = f64;

/// Rescale the running product past this, adding its log to the exponent, so it never overflows.
const RESCALE: f64 = 1e250;

/// The state of one walk, reused from walk to walk (one per thread).
#[derive(Clone, Debug)]
pub struct Scratch {
    free: Vec<bool>,
    deg: Vec<u8>,
    /// Free squares with `d = 0` and `d = 1`.
    c0: u32,
    c1: u32,
    left: u32,
    head: u32,
    moves: [u32; 8],
    move_weights: [f64; 8],
}

impl Scratch {
    /// Scratch for walks on `graph`.
    pub fn new(graph: &Graph) -> Scratch {
        Scratch {
            free: vec![true; graph.squares],
            deg: graph.deg0.clone(),
            c0: 0,
            c1: 0,
            left: 0,
            head: 0,
            moves: [0; 8],
            move_weights: [0.0; 8],
        }
    }

    fn reset(&mut self, graph: &Graph) {
        self.free.fill(true);
        self.deg.copy_from_slice(&graph.deg0);
        self.c0 = graph.deg0.iter().filter(|&&d| d == 0).count() as u32;
        self.c1 = graph.deg0.iter().filter(|&&d| d == 1).count() as u32;
        self.left = graph.squares as u32;
    }

    /// `v` leaves the free squares and becomes the head; its free neighbours lose a degree, unless
    /// `v` is the closed tour's start (the edge home still counts for them).
    fn occupy(&mut self, graph: &Graph, v: u32, count_edge_home: bool) {
        match self.deg[v as usize] {
            0 => self.c0 -= 1,
            1 => self.c1 -= 1,
            _ => {}
        }
        self.free[v as usize] = false;
        self.left -= 1;
        self.head = v;
        if count_edge_home {
            return;
        }
        for &w in graph.neighbours(v) {
            let w = w as usize;
            if self.free[w] {
                match self.deg[w] {
                    1 => {
                        self.c1 -= 1;
                        self.c0 += 1;
                    }
                    2 => self.c1 += 1,
                    _ => {}
                }
                self.deg[w] -= 1;
            }
        }
    }

    /// Whether the state after moving from the head to the free square `v` is dead (see the module
    /// header), read from `v`'s neighbours without making the move.
    fn dead_after(&self, graph: &Graph, v: u32) -> bool {
        let dv = self.deg[v as usize];
        let (mut c0, mut c1) = (self.c0, self.c1);
        match dv {
            0 => c0 -= 1,
            1 => c1 -= 1,
            _ => {}
        }
        let mut a1 = 0;
        for &w in graph.neighbours(v) {
            let w = w as usize;
            if self.free[w] {
                match self.deg[w] {
                    1 => {
                        c1 -= 1;
                        c0 += 1;
                    }
                    2 => {
                        c1 += 1;
                        a1 += 1;
                    }
                    _ => {}
                }
            }
        }
        dead(graph.closed, self.left - 1, c0, c1, a1)
            || (graph.closed && self.left == 1 && !graph.next_to_home[v as usize])
    }

    /// The allowed moves from the head and their proposal weights, into `moves`/`move_weights`;
    /// returns how many and their total weight.
    fn allowed_moves(&mut self, graph: &Graph) -> (usize, f64) {
        let (mut n, mut total) = (0, 0.0);
        for &v in graph.neighbours(self.head) {
            if !self.free[v as usize] || (graph.prune && self.dead_after(graph, v)) {
                continue;
            }
            let w = graph.weights[self.deg[v as usize] as usize];
            self.moves[n] = v;
            self.move_weights[n] = w;
            total += w;
            n += 1;
        }
        (n, total)
    }

    /// One walk: its weight's log, [`f64::NEG_INFINITY`] when it found no tour.
    pub fn walk(&mut self, graph: &Graph, chooser: &mut impl Chooser) -> LnWeight {
        self.reset(graph);
        let (mut product, mut ln) = (1.0f64, 0.0f64);
        if graph.closed {
            let Some((s, a)) = graph.home else {
                return f64::NEG_INFINITY;
            };
            self.occupy(graph, s, true);
            if graph.prune && self.dead_after(graph, a) {
                return f64::NEG_INFINITY;
            }
            self.occupy(graph, a, false);
        } else {
            let start = chooser.uniform(graph.squares);
            product = graph.squares as f64;
            self.occupy(graph, start as u32, false);
        }
        while self.left > 0 {
            let (n, total) = self.allowed_moves(graph);
            if n == 0 {
                return f64::NEG_INFINITY;
            }
            let i = chooser.weighted(&self.move_weights[..n], total);
            product *= total / self.move_weights[i];
            if product > RESCALE {
                ln += product.ln();
                product = 1.0;
            }
            self.occupy(graph, self.moves[i], false);
        }
        if graph.closed && !graph.next_to_home[self.head as usize] {
            return f64::NEG_INFINITY;
        }
        ln + product.ln()
    }
}

/// Whether a state with `left` free squares, `c0`/`c1` of them with `d = 0`/`d = 1`, `a1` of those
/// next to the head, has no completion (the module header's rule).
fn dead(closed: bool, left: u32, c0: u32, c1: u32, a1: u32) -> bool {
    if closed {
        c0 > 0 || c1 >= 2 || c1 > a1
    } else {
        left >= 2 && (c0 > 0 || c1 >= 3 || c1 >= a1 + 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The incremental degrees and counters equal those recomputed from the free squares after every
    /// move of a walk, whatever it draws.
    #[test]
    fn counters_match_a_recount_along_walks() {
        let board = Board::new(5, 6).unwrap();
        for closure in [Closure::Open, Closure::Closed] {
            let graph = Graph::new(board, closure, Proposal::Uniform, false);
            let mut s = Scratch::new(&graph);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            for _ in 0..50 {
                s.walk(&graph, &mut rng);
                let deg: Vec<u8> = (0..graph.squares as u32)
                    .map(|v| {
                        let home = closure.is_closed() && graph.next_to_home[v as usize];
                        let free = graph.neighbours(v).iter().filter(|&&w| s.free[w as usize]);
                        (free.count() + home as usize) as u8
                    })
                    .collect();
                for (v, &d) in deg.iter().enumerate() {
                    assert!(!s.free[v] || s.deg[v] == d, "square {v}");
                }
                let free_with = |d| {
                    (0..graph.squares)
                        .filter(|&v| s.free[v] && deg[v] == d)
                        .count()
                };
                assert_eq!(s.c0 as usize, free_with(0));
                assert_eq!(s.c1 as usize, free_with(1));
                assert_eq!(s.left as usize, s.free.iter().filter(|&&f| f).count());
            }
        }
    }

    #[test]
    fn boards_without_a_degree_two_corner_have_no_closed_walk() {
        for (r, c) in [(1, 1), (2, 5), (1, 8)] {
            let board = Board::new(r, c).unwrap();
            let graph = Graph::new(board, Closure::Closed, Proposal::Uniform, true);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            assert_eq!(
                Scratch::new(&graph).walk(&graph, &mut rng),
                f64::NEG_INFINITY
            );
        }
    }
}
