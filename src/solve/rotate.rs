//! `rotate`: pure Warnsdorff for an open path, then Pósa rotations (L. Pósa, "Hamiltonian circuits in
//! random graphs", 1976) to turn it into a closed tour: while the ends are not a knight move apart,
//! reverse the tail after a neighbour of the end. Warnsdorff rarely closes by itself; this is the cheap
//! repair (`ktour::solve::posa::close_path`). Dead ends stay dead ends: rotations need a full path.

use super::{warnsdorff, Closing, Observer, Outcome, Stats, TieBreaker};
use crate::board::Closure;
use crate::state::SearchState;

pub(crate) fn run<O: Observer>(
    state: &mut SearchState,
    rule: &mut TieBreaker,
    start: usize,
    obs: &mut O,
) -> (Outcome, Stats) {
    let (outcome, mut stats) =
        warnsdorff::run(state, rule, start, Closure::Closed, Closing::Check, obs);
    if outcome != Outcome::NotClosed {
        return (outcome, stats);
    }
    let mut squares = state.path_squares();
    match crate::solve::posa::close_path(state.board(), &mut squares) {
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
        Err(_) => (Outcome::NotClosed, stats),
    }
}
