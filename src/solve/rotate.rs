//! `rotate`: pure Warnsdorff for an open path, then Pósa rotations (L. Pósa, "Hamiltonian circuits in
//! random graphs", 1976) to turn it into a closed tour: while the ends are not a knight move apart,
//! reverse the tail after a neighbour of the end. Warnsdorff rarely closes by itself; this is the cheap
//! repair (`ktour::solve::posa::close_path`). Dead ends stay dead ends: rotations need a full path.

use super::posa::{close_path_observed, CloseError, CloseProgress};
use super::{warnsdorff, Closing, Observer, Outcome, Stats, TieBreaker};
use crate::board::Closure;
use crate::state::SearchState;
use std::fmt;
use std::sync::Arc;

/// Rotations a run of `rotate` may make by default (the closer's own default).
pub const DEFAULT_ROTATIONS: u64 = super::posa::DEFAULT_ROTATIONS;

/// Called after every rotation of a `rotate` run ([`crate::solve::SolverOptions::rotate_progress`]).
#[derive(Clone)]
pub struct RotateProgress(pub Arc<dyn Fn(&CloseProgress) + Send + Sync>);

impl fmt::Debug for RotateProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RotateProgress(..)")
    }
}

/// Pure Warnsdorff for a closed tour, then, if the walk covers the board without closing, Pósa
/// rotations until it closes or `max_rotations` are made (0 = no limit), telling `progress`.
pub(crate) fn run<O: Observer>(
    state: &mut SearchState,
    rule: &mut TieBreaker,
    start: usize,
    obs: &mut O,
    max_rotations: u64,
    progress: Option<&RotateProgress>,
) -> (Outcome, Stats) {
    let (outcome, mut stats) =
        warnsdorff::run(state, rule, start, Closure::Closed, Closing::Check, obs);
    if outcome != Outcome::NotClosed {
        return (outcome, stats);
    }
    let mut squares = state.path_squares();
    let max_rotations = if max_rotations == 0 {
        u64::MAX
    } else {
        max_rotations
    };
    let mut report = |p: &CloseProgress| {
        if let Some(RotateProgress(f)) = progress {
            f(p)
        }
    };
    match close_path_observed(state.board(), &mut squares, max_rotations, &mut report) {
        Ok(closing) => {
            stats.rotations = closing.rotations;
            // rotations may move either end; a cycle can begin anywhere, so begin at the start again
            let first = state.layout().unpad(start);
            let at = squares
                .iter()
                .position(|&s| s == first)
                .expect("the start is on the path");
            squares.rotate_left(at);
            state.reorder_path(&squares);
            (Outcome::Found, stats)
        }
        Err(e) => {
            // the rotations spent, so that a failure says how hard it tried
            if let CloseError::Budget { rotations, .. } = e {
                stats.rotations = rotations;
            }
            (Outcome::NotClosed, stats)
        }
    }
}
