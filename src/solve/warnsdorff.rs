//! `warnsdorff`: pure Warnsdorff's rule (H. C. von Warnsdorff, "Des Rösselsprunges einfachste und
//! allgemeinste Lösung", 1823), as defined in Squirrel & Cull (1996): move to a free neighbour of
//! minimum degree (degree 0 included: it is right for the last square), the tie-break rule deciding among
//! equal minima; stop at a dead end.
//!
//! Candidates are scanned in the rule's label order and the first strict minimum wins, so a fixed-order
//! rule costs nothing on ties and other rules are consulted only when the minimum is shared.
//!
//! A closed walk either checks its ends when it is done ([`Closing::Check`]) or keeps its start for
//! last ([`Closing::StartLast`], HaskellWiki's heuristic): the start then stays counted in its
//! neighbours' degrees, so the walk saves the squares next to it for the end.

use super::{Closing, Observer, Outcome, Stats, TieBreaker};
use crate::board::Closure;

use crate::state::{SearchState, MAX_DEGREE};

pub(crate) fn run<O: Observer>(
    state: &mut SearchState,
    rule: &mut TieBreaker,
    start: usize,
    closure: Closure,
    closing: Closing,
    obs: &mut O,
) -> (Outcome, Stats) {
    let mut stats = Stats::default();
    let squares = state.board().len() as usize;
    state.make(start);
    if closing == Closing::StartLast {
        // the start is the last square of the closed tour: until then it counts as free in its
        // neighbours' degrees (the state's degrees no longer match its path after this; the next
        // run resets it)
        state.count_as_free_in_degrees(start);
    }
    rule.arrive(start);
    stats.nodes = 1;
    loop {
        if state.depth() == squares {
            let head = state.head();
            let closes = squares > 2 && state.layout().knight_apart(head, start);
            let outcome = if !closure.is_closed() || closes {
                Outcome::Found
            } else {
                Outcome::NotClosed
            };
            return (outcome, stats);
        }
        let head = state.head();
        let Some((best, tied)) = next_move(state, rule) else {
            return (Outcome::DeadEnd, stats);
        };
        stats.ties += u64::from(tied);
        obs.on_move(state, head, best);
        state.make(best);
        rule.arrive(best);
        stats.nodes += 1;
    }
}

/// The square pure Warnsdorff moves to from the head of `state` (padded index), and whether the minimum
/// degree was tied; `None` at a dead end.
#[inline]
pub fn next_move(state: &SearchState, rule: &mut TieBreaker) -> Option<(usize, bool)> {
    let head = state.head();
    let offsets = state.layout().offsets();
    let mut best = 0usize;
    let mut best_degree = u8::MAX;
    let mut tied = 0usize;
    for &k in rule.scan_order() {
        let q = (head as isize + offsets[k as usize]) as usize;
        let d = state.degree(q);
        if d < best_degree {
            best_degree = d;
            best = q;
            tied = 1;
        } else if d == best_degree {
            tied += 1;
        }
    }
    if best_degree > MAX_DEGREE {
        return None;
    }
    if tied > 1 && rule.has_secondary() {
        let mut ties = [(0u8, 0usize); 8];
        let mut n = 0;
        for &k in rule.scan_order() {
            let q = (head as isize + offsets[k as usize]) as usize;
            if state.degree(q) == best_degree {
                ties[n] = (k, q);
                n += 1;
            }
        }
        best = ties[rule.choose(state, &ties[..n])].1;
    }
    Some((best, tied > 1))
}
