//! `naive`: depth-first backtracking in a fixed label order (the rule's: `first` = 1..8, or a
//! textbook's own move list as `order:`) with no move ordering and no pruning beyond what closedness
//! demands: the brute force of the seed programs (and of every textbook since Euler's time). Also the
//! exhaustive enumerator that `ktour count` is cross-checked against.
//!
//! A node's candidates are tried in the tie-breaker's scan order ([`TieBreaker::scan_order`]), by
//! the label loop (`dfs/label.rs`), which keeps no degrees; its slow twin is
//! [`super::reference::naive_recursive`], and its baseline the plain recursive C program of
//! `benches/c/naive.c`.

use super::dfs::{self, CandidateOrder, Config, Flow, Stack};
use super::{Rule, Stats, TieBreaker};
use crate::board::Closure;
use crate::board::{Board, Square};
use crate::state::SearchState;

/// The DFS configuration of `naive`: label order, no pruning beyond closedness.
pub(crate) fn config(closure: Closure, budget: u64) -> Config {
    Config {
        order: CandidateOrder::Label,
        prune_stranded: false,
        closure,
        budget,
    }
}

/// Every directed tour from `start` (closed ones only if `closed`), in label order; calls `on_tour` with
/// each and returns how many there were. Exhaustive: use on small boards only.
pub fn enumerate(
    board: Board,
    start: Square,
    closure: Closure,
    mut on_tour: impl FnMut(&[Square]),
) -> u64 {
    let mut state = SearchState::new(board);
    let mut frames = Stack::default();
    let mut rule =
        TieBreaker::new(Rule::FIRST, state.layout(), start, 0).expect("first applies everywhere");
    let cfg = Config {
        order: CandidateOrder::Label,
        prune_stranded: false,
        closure,
        budget: 0,
    };
    let mut count = 0;
    let p = state.layout().pad(start);
    dfs::search(
        &mut state,
        &mut frames,
        &mut rule,
        p,
        cfg,
        &mut Stats::default(),
        &mut super::NoObserver,
        |s| {
            count += 1;
            on_tour(&s.path_squares());
            Flow::Continue
        },
    );
    count
}
