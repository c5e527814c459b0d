//! A drawn set of edges turned into the squares of a tour, as `solve` writes them. The backward
//! pass draws an undirected tour uniformly; a fair coin then directs it, so that directed tours
//! are uniform too: an open path starts at either end with probability 1/2 (each directed open
//! tour has probability 1 / (2 x paths)); a closed tour starts at square (0,0) and leaves it for
//! either neighbour with probability 1/2 (each closed tour from (0,0), directed, has probability
//! 1 / (2 x cycles)). Of the two ends of a path, and the two neighbours of (0,0), the "first" is
//! the one earlier in row-major order on the board as given.
//!
//! Source: ktour's own.

use crate::board::Square;
use crate::count::frontier::plan::Plan;
use rand::Rng;

/// How squares of the plan's turned board map to the board as given.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    /// Columns of the plan's board (its shorter side).
    cols: u32,
    /// The plan's board is the given one transposed.
    transposed: bool,
}

impl Turn {
    pub(crate) fn new(plan: &Plan, transposed: bool) -> Self {
        Turn {
            cols: plan.cols,
            transposed,
        }
    }

    /// Square `i` of the plan (row-major on its board) on the board as given.
    pub(crate) fn square(self, i: u32) -> Square {
        let (r, c) = ((i / self.cols) as u16, (i % self.cols) as u16);
        match self.transposed {
            false => Square::new(r, c),
            true => Square::new(c, r),
        }
    }
}

/// The squares of the tour on `n` squares whose edges are `edges` (a Hamiltonian path or cycle on
/// the plan's squares), directed by a coin of `rng`.
pub(crate) fn squares(
    edges: &[(u32, u32)],
    n: usize,
    closed: bool,
    turn: Turn,
    rng: &mut impl Rng,
) -> Vec<Square> {
    let mut next = vec![[u32::MAX; 2]; n];
    for &(a, b) in edges {
        for (x, y) in [(a, b), (b, a)] {
            let slot = &mut next[x as usize];
            let free = if slot[0] == u32::MAX { 0 } else { 1 };
            slot[free] = y;
        }
    }
    // row-major order on the board as given
    let order = |i: u32| {
        let s = turn.square(i);
        (s.row(), s.col())
    };
    let coin = rng.gen::<bool>();
    let (start, first) = if closed {
        let [a, b] = next[0];
        (0, if (order(a) < order(b)) == coin { a } else { b })
    } else {
        let mut ends = (0..n as u32).filter(|&i| next[i as usize][1] == u32::MAX);
        let (a, b) = (ends.next().unwrap_or(0), ends.next().unwrap_or(0));
        let start = if (order(a) < order(b)) == coin { a } else { b };
        (start, next[start as usize][0])
    };
    let mut tour = Vec::with_capacity(n);
    tour.push(turn.square(start));
    let (mut before, mut at) = (start, first);
    while tour.len() < n && at != u32::MAX {
        tour.push(turn.square(at));
        let [x, y] = next[at as usize];
        (before, at) = (at, if x == before { y } else { x });
    }
    tour
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A path's edges given in any order come out as the path, from either end; a cycle's from
    /// square 0 in either direction; transposed boards map back.
    #[test]
    fn edges_become_tours_in_both_directions() {
        let plan = Plan::new(3, 4);
        let path = [(1u32, 0u32), (2, 1), (2, 3)];
        let mut seen = std::collections::BTreeSet::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for _ in 0..64 {
            let t = squares(&path, 4, false, Turn::new(&plan, true), &mut rng);
            seen.insert(t.iter().map(|s| (s.row(), s.col())).collect::<Vec<_>>());
        }
        let forward = vec![(0, 0), (1, 0), (2, 0), (3, 0)];
        let mut backward = forward.clone();
        backward.reverse();
        assert_eq!(seen, [forward, backward].into());
        let cycle = [(0u32, 1u32), (2, 1), (3, 2), (0, 3)];
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..64 {
            let t = squares(&cycle, 4, true, Turn::new(&plan, false), &mut rng);
            seen.insert(t.iter().map(|s| (s.row(), s.col())).collect::<Vec<_>>());
        }
        let one = vec![(0, 0), (0, 1), (0, 2), (0, 3)];
        let other = vec![(0, 0), (0, 3), (0, 2), (0, 1)];
        assert_eq!(seen, [one, other].into());
    }
}
