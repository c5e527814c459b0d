//! The DFS engine on candidate masks ([`search_ordered`]): making a square also builds its candidate
//! mask ([`SearchState::make_ordered`]), one bit per free neighbour at `8 * degree + slot`, so the
//! candidates in order are the mask's set bits from the lowest, popped lazily, and a frame is the
//! mask still to try, its square and what the rule keeps for its ties ([`MaskFrame`]). The slot
//! orders of the rule families are in [`super::slots`]; the loop is the faster twin of
//! [`super::sorted::search_sorted`]. Backtracking as defined in `docs/REFERENCE.md`.

use super::has_free_neighbour;
use super::slots::Slots;
#[cfg(doc)]
use super::sorted::search_sorted;
use super::{CandidateOrder, Config, End, Flow};
use crate::board::BORDER;
use crate::solve::{Observer, Stats, TieBreaker};
use crate::state::SearchState;

/// Candidates of one square on the path, for [`search_ordered`]: the candidate mask still to try,
/// the square, and what [`Slots::order`] kept for its ties. Packed to 16 bytes (the memory estimate
/// counts 16 per square).
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
pub(crate) struct MaskFrame {
    mask: u64,
    head: u32,
    order: u32,
}

/// Count a tie when the least degree among the candidates of `mask` is shared (the lowest non-empty
/// byte has two bits or more), as [`candidates`] does.
#[inline(always)]
fn count_tie(mask: u64, stats: &mut Stats) {
    // An empty mask has 64 trailing zeros, 64 & 0x38 = 0: byte 0, no tie.
    let byte = (mask >> (mask.trailing_zeros() & 0x38)) & 0xFF;
    stats.ties += u64::from(byte & byte.wrapping_sub(1) != 0);
}

/// [`search_sorted`] with Warnsdorff ordering for a rule whose order at each square is a fixed slot
/// order (`slots`), on candidate masks: same nodes, same order, same counters (see the module docs).
///
/// One function on purpose (about 100 lines): a hot search loop whose stack position, masks and
/// counters stay in registers only while the loop is one body; the phases are marked by comments
/// instead.
#[allow(clippy::too_many_arguments)]
pub(super) fn search_ordered<O: Observer>(
    state: &mut SearchState,
    frames: &mut Vec<MaskFrame>,
    slots: &impl Slots,
    rule: &mut TieBreaker,
    start: usize,
    cfg: Config,
    stats: &mut Stats,
    obs: &mut O,
    mut on_tour: impl FnMut(&SearchState) -> Flow,
) -> End {
    debug_assert!(cfg.order == CandidateOrder::Warnsdorff && rule.stage() == 0);
    let squares = state.board().len() as usize;
    frames.clear();
    // the only rule that acts on arriving, `squirrel`, does so through its slots
    let kept = slots.arrive(rule, start);
    let mask = state.make_ordered(start, slots.at(start, kept));
    stats.nodes += 1;
    if squares == 1 {
        if !cfg.closure.is_closed() && on_tour(state) == Flow::Stop {
            return End::Stopped;
        }
        return End::Exhausted;
    }
    // The start's byte is BORDER less one per neighbour visited after it: when it reaches
    // BORDER - (its degree when made), no neighbour is left to close the tour through. Open tours
    // never test it (0 is below every sentinel).
    let start_cut_off = if cfg.closure.is_closed() {
        BORDER - mask.count_ones() as u8
    } else {
        0
    };
    count_tie(mask, stats);
    let order = slots.order(rule, state, start, mask);
    frames.push(MaskFrame {
        mask,
        head: start as u32,
        order,
    });
    while let Some(top) = frames.last_mut() {
        let mask = top.mask;
        if mask != 0 {
            let (head, kept) = (top.head as usize, top.order);
            let bit = slots.pick(state, head, mask, kept);
            top.mask = mask & !(1 << bit);
            if cfg.budget != 0 && stats.nodes >= cfg.budget {
                return End::Budget;
            }
            let q = head.wrapping_add_signed(slots.at(head, kept).offset(bit as usize));
            obs.on_move(state, head, q);
            let arrived = slots.arrive(rule, q);
            let next = state.make_ordered(q, slots.at(q, arrived));
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
                let start_dead = state.degree(start) == start_cut_off;
                debug_assert_eq!(
                    start_dead,
                    cfg.closure.is_closed() && !has_free_neighbour(state, start),
                    "start sentinel out of step"
                );
                (cfg.prune_stranded && remaining > 1 && next & 0xFF != 0) || start_dead
            };
            if dead {
                state.unmake();
                slots.leave(rule, kept);
                stats.backtracks += 1;
                obs.on_undo(state, q);
                continue;
            }
            count_tie(next, stats);
            let order = slots.order(rule, state, q, next);
            frames.push(MaskFrame {
                mask: next,
                head: q as u32,
                order,
            });
        } else {
            frames.pop();
            let Some(below) = frames.last() else {
                return End::Exhausted;
            };
            let kept = below.order;
            let q = state.unmake();
            slots.leave(rule, kept);
            stats.backtracks += 1;
            obs.on_undo(state, q);
        }
    }
    End::Exhausted
}
