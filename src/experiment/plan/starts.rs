//! The start squares of each board, found from their number on demand: every square (row-major),
//! the corner, the corners, one list shared by every board, or a seeded sample per board. Only the
//! last two are held in memory (a sample must be drawn to be known); every start of 10,000 x 10,000
//! is 10^8 starts and takes no memory at all.

use crate::board::{Board, Square};
use crate::experiment::seed::run_seed;
use crate::experiment::spec::StartSet;
use rand::seq::index::sample;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::TryReserveError;

/// The starts of a plan's boards.
#[derive(Clone, Debug)]
pub(super) enum Starts {
    /// Every square, row-major.
    All,
    /// (0,0).
    Corner,
    /// The distinct corners, row-major.
    Corners,
    /// One square of each orbit of the edge squares.
    Edges,
    /// The same squares on every board.
    Listed(Vec<Square>),
    /// K squares drawn per board, in board order, each list row-major.
    Sampled(Vec<Vec<Square>>),
}

/// The distinct corners of `board`, row-major, without allocating: `(corners, how many)`.
pub(crate) fn corners(board: Board) -> ([Square; 4], usize) {
    let (r, c) = (board.rows() as u16 - 1, board.cols() as u16 - 1);
    let mut v = [
        Square::new(0, 0),
        Square::new(0, c),
        Square::new(r, 0),
        Square::new(r, c),
    ];
    v.sort();
    let mut n = 1;
    for i in 1..4 {
        if v[i] != v[n - 1] {
            v[n] = v[i];
            n += 1;
        }
    }
    (v, n)
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
        Ok(match set {
            StartSet::All => Starts::All,
            StartSet::Corner => Starts::Corner,
            StartSet::Corners => Starts::Corners,
            StartSet::Edges => Starts::Edges,
            StartSet::List(v) => Starts::Listed(v.clone()),
            StartSet::Sample(k) => {
                let mut lists = Vec::new();
                lists.try_reserve_exact(boards.len())?;
                for &b in boards {
                    lists.push(sample_of(b, *k, seed)?);
                }
                Starts::Sampled(lists)
            }
        })
    }

    /// How many starts board `b` (the plan's `b`-th, `board`) has.
    pub(super) fn count(&self, b: usize, board: Board) -> u64 {
        match self {
            Starts::All => board.len() as u64,
            Starts::Corner => 1,
            Starts::Corners => corners(board).1 as u64,
            Starts::Edges => StartSet::edge_orbits(board),
            Starts::Listed(v) => v.len() as u64,
            Starts::Sampled(lists) => lists[b].len() as u64,
        }
    }

    /// The `i`-th start of board `b` (`board`); `i` below [`Starts::count`].
    pub(super) fn nth(&self, b: usize, board: Board, i: u64) -> Square {
        match self {
            Starts::All => board.square_at(i as u32).expect("a start on the board"),
            Starts::Corner => Square::new(0, 0),
            Starts::Corners => corners(board).0[i as usize],
            Starts::Edges => StartSet::edge_orbit(board, i),
            Starts::Listed(v) => v[i as usize],
            Starts::Sampled(lists) => lists[b][i as usize],
        }
    }

    /// The starts of board `b` (`board`) from the `i`-th on, in order: every square is stepped
    /// through, not divided out of its number, since a sweep asks for them run after run.
    pub(super) fn from(&self, b: usize, board: Board, i: u64) -> impl Iterator<Item = Square> + '_ {
        let (mut row, mut col) = match self {
            Starts::All => (i / board.cols() as u64, i % board.cols() as u64),
            _ => (0, 0),
        };
        let mut next = i;
        std::iter::from_fn(move || {
            let square = match self {
                Starts::All => {
                    let s = Square::new(row as u16, col as u16);
                    col += 1;
                    if col == board.cols() as u64 {
                        (row, col) = (row + 1, 0);
                    }
                    s
                }
                _ => self.nth(b, board, next),
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
        match self {
            Starts::All => Some(board.index(sq) as u64),
            Starts::Corner => (sq == Square::new(0, 0)).then_some(0),
            Starts::Corners => {
                let (v, n) = corners(board);
                v[..n].iter().position(|&c| c == sq).map(|i| i as u64)
            }
            Starts::Edges => (0..self.count(b, board)).find(|&i| self.nth(b, board, i) == sq),
            Starts::Listed(v) => v.iter().position(|&c| c == sq).map(|i| i as u64),
            // row-major, so sorted
            Starts::Sampled(lists) => lists[b].binary_search(&sq).ok().map(|i| i as u64),
        }
    }

    /// Whether the corner (0,0) is a start of board `b` (where corner-only rules run from).
    pub(super) fn has_corner(&self, b: usize) -> bool {
        let corner = Square::new(0, 0);
        match self {
            Starts::All | Starts::Corner | Starts::Corners | Starts::Edges => true,
            Starts::Listed(v) => v.contains(&corner),
            // row-major: the corner comes first if it is there
            Starts::Sampled(lists) => lists[b].first() == Some(&corner),
        }
    }

    /// The bytes the lists held take.
    pub(super) fn bytes(&self) -> u64 {
        let square = std::mem::size_of::<Square>() as u64;
        match self {
            Starts::All | Starts::Corner | Starts::Corners | Starts::Edges => 0,
            Starts::Listed(v) => v.capacity() as u64 * square,
            Starts::Sampled(lists) => lists
                .iter()
                .map(|l| (l.capacity() as u64 * square) + std::mem::size_of::<Vec<Square>>() as u64)
                .sum(),
        }
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

    /// The corners without allocating are [`StartSet::corners`], on thin boards too.
    #[test]
    fn corners_are_the_spec_corners() {
        for (r, c) in [(1, 1), (1, 5), (5, 1), (2, 2), (8, 8), (3, 7)] {
            let b = Board::new(r, c).unwrap();
            let (v, n) = corners(b);
            assert_eq!(v[..n], StartSet::corners(b)[..], "{b}");
        }
    }

    /// Every square, row-major, is what the board lists.
    #[test]
    fn all_starts_are_the_squares_in_order() {
        let b = Board::new(3, 5).unwrap();
        let all: Vec<Square> = (0..15).map(|i| Starts::All.nth(0, b, i)).collect();
        assert_eq!(all, b.squares().collect::<Vec<_>>());
    }
}
