//! How many nodes the exact walk of a random rule's tree would visit, estimated before it starts,
//! so that a walk that cannot finish is refused instead of running for hours. Knuth's random-probe
//! estimator (D. E. Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29 (1975)
//! 121-136), as `count` uses it (`src/count/estimate.rs`): walk from the start to an end choosing
//! each branch of a tie uniformly; if the ties on the way split `d1, d2, ...` ways, every square
//! entered counts the product of the splits above it, an unbiased estimate of the squares the whole
//! tree enters. The estimate is of the tree without merging, which only removes nodes.

use super::number::Numer;
use super::walk::{Step, Walker};
use crate::board::Square;
use crate::solve::RuleError;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Probes per estimate, shared among the starts.
pub const PROBES: u32 = 1 << 12;

/// One probe from the start of `walker`'s walk: the squares it stands for.
fn probe<N: Numer>(walker: &mut Walker<N>, rng: &mut impl Rng) -> f64 {
    walker.reset(&[]);
    let (mut nodes, mut width) = (1.0, 1.0);
    loop {
        match walker.step() {
            Step::End(_) => return nodes,
            Step::Forced(q) => walker.forced(q),
            Step::Split(split) => {
                width *= split.n as f64;
                walker.take(&split, rng.gen_range(0..split.n as usize));
            }
        }
        nodes += width;
    }
}

/// The estimated nodes of `walker`'s walks from each of `starts`, from [`PROBES`] probes from
/// starts drawn uniformly. The same inputs give the same estimate (a fixed seed).
pub fn estimate_nodes<N: Numer>(
    walker: &mut Walker<N>,
    starts: &[Square],
) -> Result<f64, RuleError> {
    if starts.is_empty() {
        return Ok(0.0);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x6b_74_6f_75_72); // "ktour" in ASCII
    let mut sum = 0.0;
    for _ in 0..PROBES {
        walker.set_start(starts[rng.gen_range(0..starts.len())])?;
        sum += probe(walker, &mut rng);
    }
    Ok(sum / PROBES as f64 * starts.len() as f64)
}
