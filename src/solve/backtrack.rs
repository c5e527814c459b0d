//! `backtrack`: Warnsdorff-ordered depth-first search (Warnsdorff 1823 as a move ordering; the usual
//! repair of the pure rule's dead ends, e.g. Ganzfried 2004). Candidates are tried by degree, then the
//! tie-break rule's key, then its fixed label order; a branch is cut as soon as a free square is
//! stranded (unless pruning is turned off, to compare node counts with published programs that do
//! not prune), or (closed tours) the start has no free neighbour left; a node budget bounds the run.

use super::dfs::{self, CandidateOrder, Config, End, Flow, Stack};
use super::{Impossibility, Observer, Outcome, Stats, TieBreaker};
use crate::board::Closure;
use crate::state::SearchState;

/// The DFS configuration of `backtrack`: Warnsdorff order, stranded squares pruned if `prune`.
pub(crate) fn config(closure: Closure, budget: u64, prune: bool) -> Config {
    Config {
        order: CandidateOrder::Warnsdorff,
        prune_stranded: prune,
        closure,
        budget,
    }
}

/// Run the DFS (of `backtrack` or `naive`, by `cfg`) until the first tour and name the outcome.
pub(crate) fn finish<O: Observer>(
    state: &mut SearchState,
    frames: &mut Stack,
    rule: &mut TieBreaker,
    start: usize,
    cfg: Config,
    obs: &mut O,
) -> (Outcome, Stats) {
    let mut stats = Stats::default();
    let end = dfs::search(state, frames, rule, start, cfg, &mut stats, obs, |_| {
        Flow::Stop
    });
    let outcome = match end {
        End::Stopped => Outcome::Found,
        End::Exhausted => Outcome::Impossible(Impossibility::Exhausted),
        End::Budget => Outcome::BudgetExhausted,
    };
    (outcome, stats)
}
