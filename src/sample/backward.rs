//! The backward pass of the sampler, for a batch of draws at once: from the last square back to
//! the first, each draw holds a target (a state after the step, or a complete tour at the last
//! square) and picks one of the (predecessor, choice of edges) pairs that produce it, with
//! probability the predecessor's ways over the target's, then takes that predecessor as its next
//! target and the choice's edges into its tour. Every tour is then drawn with probability 1 over
//! the number of tours: the product of the ratios telescopes.
//!
//! A step streams the stored states before it once for the whole batch (in parallel, a block at a
//! time), keeping the pairs that reach a target of some draw, in the order of the stored list.
//! Each draw then takes an integer uniform below the sum of its target's weights from its own
//! generator and picks the pair where the running sum passes it: exact (no floating point), and
//! the same whatever the number of threads. The sum of a target's ways must equal the target's
//! own ways as the forward pass stored them: checked at every step, for every target.
//!
//! Source: the counting-to-sampling reduction of Jerrum, Valiant and Vazirani, "Random generation
//! of combinatorial structures from a uniform distribution", Theoret. Comput. Sci. 43 (1986),
//! applied to the transfer-matrix (frontier) programme of `count::frontier`.

use super::labelled::{labelled, Choice};
use super::level::Level;
use super::{Progress, SampleError, Weighting};
use crate::count::frontier::cells::Key;
use crate::count::frontier::packed::{Successor, Transitions};
use crate::count::frontier::plan::Plan;
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// The target of a draw that stands before the last square: a complete tour. No state key is
/// this (the cell value 15 never survives a step).
const TOUR: u128 = u128::MAX;

/// One draw on its way back: its generator, its target and the target's ways, and the edges
/// (pairs of squares, row-major on the board as the plan turns it) taken so far.
pub(crate) struct Draw {
    pub(crate) rng: Xoshiro256PlusPlus,
    target: u128,
    ways: u128,
    pub(crate) edges: Vec<(u32, u32)>,
}

impl Draw {
    /// A draw of one of `tours` tours with generator `rng`.
    pub(crate) fn new(rng: Xoshiro256PlusPlus, tours: u128) -> Self {
        Draw {
            rng,
            target: TOUR,
            ways: tours,
            edges: Vec::new(),
        }
    }
}

/// A (predecessor, choice) pair that reaches the target of the draws of `group`.
#[derive(Clone, Copy)]
struct Match {
    group: u32,
    key: u128,
    ways: u128,
    choice: Choice,
}

/// Take every draw back from the last square to the first over the stored `levels`.
pub(crate) fn backward<K: Key>(
    plan: &Plan,
    closed: bool,
    levels: &[Level],
    draws: &mut [Draw],
    weighting: Weighting,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), SampleError> {
    for i in (0..plan.n).rev() {
        let step = &plan.steps[i];
        let moves = Transitions::new(step, plan.w, closed, i + 1 == plan.n, None);
        // the draws that share a target share its pairs
        let mut groups: FxHashMap<u128, u32> = FxHashMap::default();
        let mut targets: Vec<u128> = Vec::new();
        let of: Vec<u32> = draws
            .iter()
            .map(|d| {
                *groups.entry(d.target).or_insert_with(|| {
                    targets.push(d.ways);
                    targets.len() as u32 - 1
                })
            })
            .collect();
        let level = &levels[i];
        let found: Vec<Vec<Match>> = (0..level.blocks())
            .into_par_iter()
            .map(|b| {
                let mut found = Vec::new();
                for (key, ways) in level.block(b).map_err(SampleError::Io)? {
                    let state = K::narrow(key).expect("a stored key fits its board's keys");
                    labelled(&moves, step, state, &mut |choice, s| {
                        let reached = match s {
                            Successor::Tour => TOUR,
                            Successor::State(k) => k.widen(),
                        };
                        if let Some(&group) = groups.get(&reached) {
                            found.push(Match {
                                group,
                                key,
                                ways,
                                choice,
                            });
                        }
                    });
                }
                Ok(found)
            })
            .collect::<Result<_, SampleError>>()?;
        let pairs = by_group(found, targets.len());
        let cumulative = weigh(&pairs, &targets, weighting, i)?;
        for (draw, &g) in draws.iter_mut().zip(&of) {
            let (pairs, sums) = (&pairs[g as usize], &cumulative[g as usize]);
            let r = draw
                .rng
                .gen_range(0..*sums.last().expect("a target has a pair"));
            let m = pairs[sums.partition_point(|&s| s <= r)];
            draw.edges
                .extend(m.choice.squares(i, plan.w).map(|j| (j as u32, i as u32)));
            draw.target = m.key;
            draw.ways = m.ways;
        }
        progress(&Progress::backward(i, plan.n, level));
    }
    Ok(())
}

/// The pairs found, by group, each group's in the order of the stored list.
fn by_group(found: Vec<Vec<Match>>, groups: usize) -> Vec<Vec<Match>> {
    let mut pairs = vec![Vec::new(); groups];
    for m in found.into_iter().flatten() {
        pairs[m.group as usize].push(m);
    }
    pairs
}

/// The running sums of each group's weights: its pairs' ways (or, for the tests of samplers that
/// are wrong on purpose, 1 each, or one pair's ways doubled). Each group's ways must sum to its target's ways.
fn weigh(
    pairs: &[Vec<Match>],
    targets: &[u128],
    weighting: Weighting,
    square: usize,
) -> Result<Vec<Vec<u128>>, SampleError> {
    pairs
        .iter()
        .zip(targets)
        .map(|(pairs, &want)| {
            let total = pairs.iter().try_fold(0u128, |s, m| s.checked_add(m.ways));
            if total != Some(want) {
                return Err(SampleError::Inconsistent { square });
            }
            let mut sum = 0u128;
            Ok(pairs
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    sum += match weighting {
                        Weighting::Exact => m.ways,
                        Weighting::UniformPredecessor => 1,
                        Weighting::DoubledAt { square: s } if s == square && k == 0 => 2 * m.ways,
                        Weighting::DoubledAt { .. } => m.ways,
                    };
                    sum
                })
                .collect())
        })
        .collect()
}
