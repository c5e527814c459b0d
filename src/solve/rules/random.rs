//! The random finals' draws (`random`: uniform among tied moves, a fresh draw at every tie; `gfg`;
//! `shuffle`), from xoshiro256++ (Blackman & Vigna
//! 2018, crate `rand_xoshiro`). Each run's seed is derived from (experiment seed, board, start, trial)
//! by [`crate::experiment::run_seed`], so any single run replays alone with `solve --seed`.

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The run's PRNG.
pub(super) fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// A uniform index in `0..n`.
pub(super) fn pick(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    rng.gen_range(0..n)
}

/// A uniform key for ordering tied candidates in backtracking (a uniformly random permutation).
pub(super) fn key(rng: &mut Xoshiro256PlusPlus) -> i64 {
    rng.next_u32() as i64
}

/// One uniformly random ordering of the labels (`shuffle`): the `k`-th of the 40,320 in
/// lexicographic order for a uniform `k`.
pub(super) fn shuffled(rng: &mut Xoshiro256PlusPlus) -> super::LabelOrder {
    super::LabelOrder::nth_permutation(rng.gen_range(0..40_320))
}
