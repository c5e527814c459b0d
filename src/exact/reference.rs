//! The slow twin of the exact walk (`walk.rs`): a plain recursion over the tree of tie choices with
//! exact fractions ([`BigRational`]), on a `Vec<bool>` board whose degrees are recounted at every
//! step, every rule part read from its definition (`docs/REFERENCE.md`, section 4, through
//! [`crate::solve::reference`]): `random` gives each of the `k` tied moves `1/k`; `gfg` draws a
//! position of its cycle, 8 ways, and takes the first tied move met from there; `shuffle` is the
//! mean over all 40,320 orderings of the deterministic walk with that ordering. A rule without
//! random parts is its one walk. Recursion depth = squares: small boards only.

use super::walk::Outcomes;
use crate::board::{Board, Square};
use crate::solve::reference::{by_order, candidates_after_keys, warnsdorff_closing};
use crate::solve::rules::{Chain, Final, LabelOrder};
use crate::solve::{Closing, Rule};
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The probability of every outcome of pure Warnsdorff with `rule` from `start`, indexed as
/// [`Outcomes`] says (a dead end after `L` squares at `L`).
pub fn distribution(board: Board, start: Square, rule: Rule, closing: Closing) -> Vec<BigRational> {
    let outcomes = Outcomes::new(board.len() as usize);
    let mut out = vec![BigRational::zero(); outcomes.len()];
    let outcome_of = |path: &[Square]| {
        if path.len() < board.len() as usize {
            path.len()
        } else if crate::board::is_closed_tour(path) {
            outcomes.closed()
        } else {
            outcomes.open()
        }
    };
    match rule {
        Rule::Chain(Chain {
            keys,
            last: Final::Shuffle,
        }) => {
            let each = BigRational::new(1.into(), 40_320.into());
            for o in LabelOrder::all() {
                let fixed = Rule::Chain(Chain {
                    keys,
                    last: Final::Order(o),
                });
                out[outcome_of(&warnsdorff_closing(board, start, fixed, 0, closing))] += &each;
            }
        }
        Rule::Chain(Chain {
            last: Final::Random | Final::Gfg(_),
            ..
        }) => {
            let mut seen = vec![false; board.len() as usize];
            seen[board.index(start) as usize] = true;
            let mut path = vec![start];
            let mut go = Recursion {
                board,
                rule,
                start,
                closing,
                outcome_of: &outcome_of,
                out: &mut out,
            };
            go.walk(&mut seen, &mut path, BigRational::one());
        }
        _ => {
            out[outcome_of(&warnsdorff_closing(board, start, rule, 0, closing))] +=
                BigRational::one()
        }
    }
    out
}

struct Recursion<'a> {
    board: Board,
    rule: Rule,
    start: Square,
    closing: Closing,
    outcome_of: &'a dyn Fn(&[Square]) -> usize,
    out: &'a mut Vec<BigRational>,
}

impl Recursion<'_> {
    fn walk(&mut self, seen: &mut Vec<bool>, path: &mut Vec<Square>, weight: BigRational) {
        let cur = *path.last().expect("the start");
        let keep = candidates_after_keys(
            &self.board.into(),
            seen,
            cur,
            self.rule,
            self.start,
            self.closing,
        );
        if keep.is_empty() {
            self.out[(self.outcome_of)(path)] += weight;
            return;
        }
        // each branch and its probability
        let branches: Vec<(Square, BigRational)> = match self.rule {
            _ if keep.len() == 1 => vec![(keep[0].1, BigRational::one())],
            Rule::Chain(Chain {
                last: Final::Random,
                ..
            }) => {
                let k = BigRational::new(1.into(), (keep.len() as i64).into());
                keep.iter().map(|&(_, sq)| (sq, k.clone())).collect()
            }
            Rule::Chain(Chain {
                last: Final::Gfg(cycle),
                ..
            }) => {
                // each of the 8 places in the cycle, then the first tied move from there; the
                // places that lead to the same move are one branch (their eighths added)
                let mut branches: Vec<(Square, BigRational)> = Vec::new();
                for from in 0..8 {
                    let label = (0..8)
                        .map(|i| cycle.labels()[(from + i) % 8] as usize)
                        .find(|&l| keep.iter().any(|&(k, _)| k == l))
                        .expect("a tied move");
                    let sq = keep.iter().find(|&&(k, _)| k == label).expect("tied").1;
                    let eighth = BigRational::new(1.into(), 8.into());
                    match branches.iter_mut().find(|(s, _)| *s == sq) {
                        Some((_, p)) => *p += eighth,
                        None => branches.push((sq, eighth)),
                    }
                }
                branches
            }
            _ => vec![(by_order(LabelOrder::IDENTITY, &keep).1, BigRational::one())],
        };
        for (sq, p) in branches {
            seen[self.board.index(sq) as usize] = true;
            path.push(sq);
            // a forced move keeps the weight as it is (multiplying by 1 only costs time)
            let w = if p.is_one() {
                weight.clone()
            } else {
                &weight * p
            };
            self.walk(seen, path, w);
            path.pop();
            seen[self.board.index(sq) as usize] = false;
        }
    }
}
