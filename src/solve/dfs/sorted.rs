//! The general DFS loop ([`search_sorted`]): at every node the candidates are collected, keyed
//! (degree, then the rule's key, then its scan order) and sorted, for any rule and any candidate
//! order. It is the plain twin of the mask loop ([`super::masks`]), which must visit the same nodes in
//! the same order, and the loop of every rule without a slot order. Backtracking as defined in
//! `docs/REFERENCE.md`.

use super::{has_free_neighbour, has_stranded_neighbour};
use super::{CandidateOrder, Config, End, Flow};
use crate::solve::rules::TieKey;
use crate::solve::{Observer, Stats, TieBreaker};
use crate::state::{SearchState, MAX_DEGREE};

/// Candidates of one square on the path.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame {
    labels: [u8; 8],
    len: u8,
    next: u8,
    stage: u8,
}

/// The candidates of `head` in the order `order` tries them (Warnsdorff: degree, then the rule's
/// key, then its scan order), counting a tie when the least degree is shared.
pub(super) fn candidates(
    state: &SearchState,
    rule: &mut TieBreaker,
    order: CandidateOrder,
    head: usize,
    stats: &mut Stats,
) -> Frame {
    let mut f = Frame {
        stage: 0,
        ..Frame::default()
    };
    let offsets = state.layout().offsets();
    let degrees = state.neighbour_degrees(head);
    match order {
        CandidateOrder::Label => {
            for &k in rule.scan_order() {
                if degrees[k as usize] <= MAX_DEGREE {
                    f.labels[f.len as usize] = k;
                    f.len += 1;
                }
            }
        }
        CandidateOrder::Warnsdorff => {
            // Per candidate: degree (bits 56..60), position in scan order (3..6) and label (0..3)
            // packed in one integer, and the rule's rank among equal degrees beside it; sorted by
            // (degree, rank, position).
            let mut keys = [(0u64, TieKey::default()); 8];
            let mut n = 0;
            let mut seen_degrees = 0u16;
            let mut shared = false;
            for (pos, &k) in rule.scan_order().iter().enumerate() {
                let d = degrees[k as usize];
                if d <= MAX_DEGREE {
                    shared |= seen_degrees & (1 << d) != 0;
                    seen_degrees |= 1 << d;
                    keys[n].0 = u64::from(d) << 56 | (pos as u64) << 3 | u64::from(k);
                    n += 1;
                }
            }
            if shared && rule.has_secondary() {
                rule.begin_tie();
                for (packed, rank) in &mut keys[..n] {
                    let k = (*packed & 7) as u8;
                    let q = (head as isize + offsets[k as usize]) as usize;
                    *rank = rule.tie_key(state, k, q);
                }
            }
            let order = |a: &(u64, TieKey)| (a.0 >> 56, a.1, a.0);
            // insertion sort: at most 8 items
            for i in 1..n {
                let mut j = i;
                let key = keys[i];
                while j > 0 && order(&key) < order(&keys[j - 1]) {
                    keys[j] = keys[j - 1];
                    j -= 1;
                }
                keys[j] = key;
            }
            if n > 1 && keys[0].0 >> 56 == keys[1].0 >> 56 {
                stats.ties += 1;
            }
            for (slot, key) in f.labels.iter_mut().zip(&keys[..n]) {
                *slot = (key.0 & 7) as u8;
            }
            f.len = n as u8;
        }
    }
    f
}

/// The general loop: candidates collected, keyed and sorted at every node (any rule, any order).
#[allow(clippy::too_many_arguments)]
pub(super) fn search_sorted<O: Observer>(
    state: &mut SearchState,
    frames: &mut Vec<Frame>,
    rule: &mut TieBreaker,
    start: usize,
    cfg: Config,
    stats: &mut Stats,
    obs: &mut O,
    mut on_tour: impl FnMut(&SearchState) -> Flow,
) -> End {
    let squares = state.board().len() as usize;
    frames.clear();
    state.make(start);
    rule.arrive(start);
    stats.nodes += 1;
    if squares == 1 {
        // The trivial tour; a closed tour needs at least a cycle, which 1x1 does not have.
        if !cfg.closure.is_closed() && on_tour(state) == Flow::Stop {
            return End::Stopped;
        }
        return End::Exhausted;
    }
    let mut first = candidates(state, rule, cfg.order, start, stats);
    first.stage = 0;
    frames.push(first);
    while let Some(top) = frames.last_mut() {
        if top.next < top.len {
            let k = top.labels[top.next as usize];
            top.next += 1;
            if cfg.budget != 0 && stats.nodes >= cfg.budget {
                return End::Budget;
            }
            let head = state.head();
            let q = state.layout().step(head, k as usize);
            let stage = rule.stage();
            obs.on_move(state, head, q);
            state.make(q);
            rule.arrive(q);
            stats.nodes += 1;
            let remaining = squares - state.depth();
            let dead = if remaining == 0 {
                if (!cfg.closure.is_closed() || state.layout().knight_apart(q, start))
                    && on_tour(state) == Flow::Stop
                {
                    return End::Stopped;
                }
                true
            } else {
                // A free square with no free neighbour can only be entered last, from the head.
                (cfg.prune_stranded
                    && remaining > 1
                    && has_stranded_neighbour(state, q))
                    // A closed tour must return to the start through one of its free neighbours.
                    || (cfg.closure.is_closed() && !has_free_neighbour(state, start))
            };
            if dead {
                state.unmake();
                rule.restore_stage(stage);
                stats.backtracks += 1;
                obs.on_undo(state, q);
                continue;
            }
            let mut f = candidates(state, rule, cfg.order, q, stats);
            f.stage = stage;
            frames.push(f);
        } else {
            let stage = top.stage;
            frames.pop();
            if frames.is_empty() {
                return End::Exhausted;
            }
            let q = state.unmake();
            rule.restore_stage(stage);
            stats.backtracks += 1;
            obs.on_undo(state, q);
        }
    }
    End::Exhausted
}
