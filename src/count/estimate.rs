//! How many nodes an exhaustive count would visit, estimated before it starts, so that a count that
//! cannot finish (8x8 open tours by search: about 10^16 nodes) is refused instead of running for
//! years.
//!
//! Knuth's random-probe estimator (D. E. Knuth, "Estimating the efficiency of backtrack programs",
//! Math. Comp. 29 (1975) 121-136): walk from the root to a leaf choosing each move uniformly among
//! the moves the search would try; if the nodes on the way have `d1, d2, ...` children, then
//! `1 + d1 + d1*d2 + ...` is an unbiased estimate of the size of the tree. Averaged over many walks.
//! Its distribution is heavy-tailed, so a single estimate can be off; with [`PROBES`] walks it came
//! within 13% of the nodes actually searched on the ten boards checked (5x5, 5x6, 5x7, 5x8, 5x9,
//! 3x12, 4x9 and 6x6 open; 6x6 and 6x7 closed: `tests/count.rs` pins some of them).
//!
//! The walks use the search's own pruning ([`KnightBits::branch`]), so the estimate is of the nodes
//! the search counts (`CountResult::nodes`) without the endgame cache, which only removes nodes.

use super::bitboard::{Branch, End, KnightBits};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Walks per estimate: enough for the accuracy above, and still a small cost next to any count that
/// is worth estimating first.
pub const PROBES: u32 = 1 << 14;

/// A state of the search: the path stands on `head` and must visit `free`, ending as `end` says.
#[derive(Clone, Copy, Debug)]
pub struct State {
    /// The path's last square (a bit index).
    pub head: u32,
    /// The squares still to visit.
    pub free: u64,
    /// Where the path must end.
    pub end: End,
}

/// Estimated nodes of the searches from the `count` states `state(0)`, `state(1)`, ... (as
/// [`KnightBits::count_paths`] counts them: the state itself and every square placed below it), from
/// [`PROBES`] random walks from states drawn uniformly. The same inputs give the same estimate (a
/// fixed seed).
pub fn estimate_nodes(bits: &KnightBits, count: usize, state: impl Fn(usize) -> State) -> f64 {
    if count == 0 {
        return 0.0;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x6b_74_6f_75_72); // "ktour" in ASCII
    let mut sum = 0.0;
    for _ in 0..PROBES {
        sum += walk(bits, state(rng.gen_range(0..count)), &mut rng);
    }
    sum / PROBES as f64 * count as f64
}

/// One random walk down the search tree from `state`: `1 + d1 + d1*d2 + ...`.
fn walk(bits: &KnightBits, state: State, rng: &mut impl Rng) -> f64 {
    let State {
        mut head,
        mut free,
        end,
    } = state;
    let (mut nodes, mut width) = (1.0, 1.0);
    while free != 0 {
        let Branch::Moves(moves) = bits.branch(head, free, end) else {
            break;
        };
        let d = moves.count_ones();
        if d == 0 {
            break;
        }
        width *= d as f64;
        nodes += width;
        head = nth_bit(moves, rng.gen_range(0..d));
        free &= !(1u64 << head);
    }
    nodes
}

/// The index of the `n`-th set bit of `mask` (0-based, lowest first); `n` < its popcount.
fn nth_bit(mut mask: u64, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_bit_walks_the_set_bits_in_order() {
        let mask = 0b1011_0100u64;
        let bits: Vec<u32> = (0..mask.count_ones()).map(|n| nth_bit(mask, n)).collect();
        assert_eq!(bits, [2, 4, 5, 7]);
    }
}
