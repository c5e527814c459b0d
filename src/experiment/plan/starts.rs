//! The start squares of each board of a plan, found from their number on demand: every square
//! (row-major), the corner, the corners, one list shared by every board, or a seeded sample per
//! board, as the spec's [`StartSet`] says. Only the last two are held in memory (a sample must be
//! drawn to be known); every start of 10,000 x 10,000 is 10^8 starts and takes no memory at all.

use crate::board::{Board, Square};
use crate::experiment::seed::run_seed;
use crate::experiment::StartSet;
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::TryReserveError;

/// The starts of a plan's boards: the spec's [`StartSet`], and the squares drawn for a sample, per
/// board in board order, each list row-major (empty for every other set).
#[derive(Clone, Debug)]
pub(super) struct Starts {
    set: StartSet,
    drawn: Vec<Vec<Square>>,
}

/// A sample of `k` distinct squares of `board`, row-major, drawn from the experiment seed.
fn sample_of(board: Board, k: u32, seed: u64) -> Result<Vec<Square>, TryReserveError> {
    let n = board.len() as usize;
    let k = (k as usize).min(n);
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(run_seed(seed, board, Square::new(0, 0), u32::MAX));
    let mut idx: Vec<usize> = sample(&mut rng, n, k).into_vec();
    idx.sort_unstable();
    let mut v = Vec::new();
    v.try_reserve_exact(k)?;
    v.extend(
        idx.into_iter()
            .map(|i| board.square_at(i as u32).expect("index on board")),
    );
    Ok(v)
}

impl Starts {
    /// The starts of `set` on `boards`, drawing samples from `seed`.
    pub(super) fn of(set: &StartSet, boards: &[Board], seed: u64) -> Result<Self, TryReserveError> {
        let mut drawn = Vec::new();
        if let StartSet::Sample(k) = set {
            drawn.try_reserve_exact(boards.len())?;
            for &b in boards {
                drawn.push(sample_of(b, *k, seed)?);
            }
        }
        Ok(Starts {
            set: set.clone(),
            drawn,
        })
    }

    /// Whether every square of every board is a start (which every symmetry keeps).
    pub(super) fn is_every_square(&self) -> bool {
        self.set == StartSet::All
    }

    /// How many starts board `b` (the plan's `b`-th, `board`) has.
    pub(super) fn count(&self, b: usize, board: Board) -> u64 {
        match &self.set {
            StartSet::Sample(_) => self.drawn[b].len() as u64,
            set => set.count_on(board),
        }
    }

    /// The `i`-th start of board `b` (`board`); `i` below [`Starts::count`].
    pub(super) fn nth(&self, b: usize, board: Board, i: u64) -> Square {
        match &self.set {
            StartSet::All => board.square_at(i as u32).expect("a start on the board"),
            StartSet::Corner => Square::new(0, 0),
            StartSet::Corners => StartSet::corners(board).0[i as usize],
            StartSet::Edges => StartSet::edge_orbit(board, i),
            StartSet::List(v) => v[i as usize],
            StartSet::Sample(_) => self.drawn[b][i as usize],
        }
    }

    /// The starts of board `b` (`board`) from the `i`-th on, in order: every square is stepped
    /// through, not divided out of its number, since a sweep asks for them run after run.
    pub(super) fn from(&self, b: usize, board: Board, i: u64) -> impl Iterator<Item = Square> + '_ {
        let all = self.is_every_square();
        let (mut row, mut col) = match all {
            true => (i / board.cols() as u64, i % board.cols() as u64),
            false => (0, 0),
        };
        let mut next = i;
        std::iter::from_fn(move || {
            let square = if all {
                let s = Square::new(row as u16, col as u16);
                col += 1;
                if col == board.cols() as u64 {
                    (row, col) = (row + 1, 0);
                }
                s
            } else {
                self.nth(b, board, next)
            };
            next += 1;
            Some(square)
        })
    }

    /// The place of `sq` among the starts of board `b` (`board`), if it is one of them. `Edges`
    /// answers by search (one square of each orbit: no symmetry keeps them, so this is asked only
    /// to find that out).
    pub(super) fn index_of(&self, b: usize, board: Board, sq: Square) -> Option<u64> {
        if sq.row() as u32 >= board.rows() || sq.col() as u32 >= board.cols() {
            return None;
        }
        match &self.set {
            StartSet::All => Some(board.index(sq) as u64),
            StartSet::Corner => (sq == Square::new(0, 0)).then_some(0),
            StartSet::Corners => {
                let (v, n) = StartSet::corners(board);
                v[..n].iter().position(|&c| c == sq).map(|i| i as u64)
            }
            StartSet::Edges => (0..self.count(b, board)).find(|&i| self.nth(b, board, i) == sq),
            StartSet::List(v) => v.iter().position(|&c| c == sq).map(|i| i as u64),
            // row-major, so sorted
            StartSet::Sample(_) => self.drawn[b].binary_search(&sq).ok().map(|i| i as u64),
        }
    }

    /// Whether the corner (0,0) is a start of board `b` (where corner-only rules run from).
    pub(super) fn has_corner(&self, b: usize) -> bool {
        let corner = Square::new(0, 0);
        match &self.set {
            StartSet::All | StartSet::Corner | StartSet::Corners | StartSet::Edges => true,
            StartSet::List(v) => v.contains(&corner),
            // row-major: the corner comes first if it is there
            StartSet::Sample(_) => self.drawn[b].first() == Some(&corner),
        }
    }

    /// The bytes the lists held take.
    pub(super) fn bytes(&self) -> u64 {
        let square = std::mem::size_of::<Square>() as u64;
        let listed = match &self.set {
            StartSet::List(v) => v.capacity() as u64 * square,
            _ => 0,
        };
        let drawn = self
            .drawn
            .iter()
            .map(|l| l.capacity() as u64 * square + std::mem::size_of::<Vec<Square>>() as u64);
        listed + drawn.sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_seeded_and_distinct() {
        let b = Board::square(10).unwrap();
        let a = sample_of(b, 7, 1).unwrap();
        assert_eq!(a, sample_of(b, 7, 1).unwrap());
        assert_ne!(a, sample_of(b, 7, 2).unwrap());
        let mut d = a.clone();
        d.dedup();
        assert_eq!(d.len(), 7);
    }

    /// Every square, row-major, is what the board lists.
    #[test]
    fn all_starts_are_the_squares_in_order() {
        let b = Board::new(3, 5).unwrap();
        let all: Vec<Square> = (0..15)
            .map(|i| Starts::of(&StartSet::All, &[b], 0).unwrap().nth(0, b, i))
            .collect();
        assert_eq!(all, b.squares().collect::<Vec<_>>());
    }
}
