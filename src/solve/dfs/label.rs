//! The label-order loop behind `naive` ([`search_label`]): depth-first search that tries a square's
//! free neighbours in the rule's fixed scan order, with no move ordering and no pruning beyond what a
//! closed tour demands (backtracking as defined in `docs/REFERENCE.md`, the textbooks' brute force).
//! It is the fast twin of the general loop's label order ([`super::sorted`]), which must visit the
//! same nodes in the same order (the twin test in `super`, and `tests/backtrack_nodes.rs`).
//!
//! Nothing in it reads a degree, so it keeps none: a byte per padded square says free or taken
//! (border or visited), and for a closed search whether a free square is a knight move from the
//! start. A frame is one word (the square, the slots still to try, its own byte), written whole:
//! frames of bytes written one by one and read back wider stall on store forwarding. Whether the
//! start still has a free neighbour is a counter lowered when such a square is entered and raised
//! when it is left. The search state's degrees and path are written once, at the end and at each
//! tour met, from the frames.

use super::{Config, End, Flow};
use crate::solve::{Stats, TieBreaker};
use crate::state::{SearchState, MAX_DEGREE};

/// A free square.
const FREE: u8 = 0;
/// A free square a knight move from the start (closed searches only): entering it takes one of the
/// start's ways back, leaving it gives it back, so the byte is also the counter's step.
const NEAR_START: u8 = 1;
/// A border or visited square; bytes below it are free.
const TAKEN: u8 = 0x80;

/// The loop's scratch, reused across runs: the square bytes and the frames.
#[derive(Clone, Debug, Default)]
pub(crate) struct LabelScratch {
    cells: Vec<u8>,
    frames: Vec<u64>,
}

/// A frame: the padded square (bits 0..32), the slots of its free neighbours still to try (32..40)
/// and its own byte, restored when it is left (40..48).
#[inline(always)]
fn pack(head: usize, mask: u64, byte: u8) -> u64 {
    head as u64 | mask << 32 | u64::from(byte) << 40
}

#[inline(always)]
fn unpack(frame: u64) -> (usize, u64, u8) {
    (
        frame as u32 as usize,
        (frame >> 32) & 0xFF,
        (frame >> 40) as u8,
    )
}

/// The slots (bit `i` for the `i`-th move of the scan order) of the free neighbours of `head`.
///
/// # Safety
/// `head` must be an on-board square of the layout `cells` was built for, and `offsets` that
/// layout's knight offsets: its neighbours then lie inside the two-square border.
#[inline(always)]
unsafe fn free_slots(cells: &[u8], head: usize, offsets: &[isize; 8]) -> u64 {
    let mut mask = 0;
    for (slot, &o) in offsets.iter().enumerate() {
        // SAFETY: the caller's contract.
        let byte = unsafe { *cells.get_unchecked(head.wrapping_add_signed(o)) };
        mask |= u64::from(byte < TAKEN) << slot;
    }
    mask
}

/// Write the path (the frames' squares, then `head`) into `state`, freshly reset, as `make` calls.
fn sync(state: &mut SearchState, frames: &[u64], head: usize) {
    state.reset(state.board());
    for &f in frames {
        state.make(unpack(f).0);
    }
    state.make(head);
}

/// The general loop's label order ([`super::sorted::search_sorted`] with
/// [`super::CandidateOrder::Label`]) for a rule with one fixed scan order, without degrees: the same
/// nodes in the same order and the same counters. `state` is reset and made `start` by this loop
/// itself; it holds the path when the loop returns and when `on_tour` is called.
///
/// One function on purpose (about 110 lines): it is a hot search loop, and its depth, head and
/// counters stay in registers only while the whole loop is one body; the phases are marked by
/// comments instead.
#[inline(never)]
pub(super) fn search_label(
    state: &mut SearchState,
    scratch: &mut LabelScratch,
    rule: &TieBreaker,
    start: usize,
    cfg: Config,
    stats: &mut Stats,
    mut on_tour: impl FnMut(&SearchState) -> Flow,
) -> End {
    let layout = *state.layout();
    let squares = layout.board().len() as usize;
    let all = layout.knight_offsets();
    let offsets: [isize; 8] = rule.scan_order().map(|k| all[k as usize]);
    let closed = cfg.closure.is_closed();
    let LabelScratch { cells, frames } = scratch;
    state.reset(layout.board());
    cells.clear();
    cells.extend(
        state
            .degrees()
            .iter()
            .map(|&d| if d <= MAX_DEGREE { FREE } else { TAKEN }),
    );
    // The start's ways back: its free neighbours, marked. An open search marks none, so the count
    // never moves from 1 and never cuts.
    let mut ways_back: u32 = 1;
    if closed {
        ways_back = 0;
        for o in all {
            let q = start.wrapping_add_signed(o);
            if cells[q] == FREE {
                cells[q] = NEAR_START;
                ways_back += 1;
            }
        }
    }
    assert!(cells[start] < TAKEN, "the start is a free square");
    cells[start] = TAKEN;
    frames.clear();
    frames.resize(squares, 0);
    let limit = if cfg.budget == 0 {
        u64::MAX
    } else {
        cfg.budget
    };
    let mut nodes: u64 = 1;
    // The top of the path lives in registers: its square, the slots still to try, its own byte;
    // `depth - 1` frames below it.
    let mut head = start;
    let mut byte = FREE;
    // SAFETY: `start` is free in `cells` (asserted), and only on-board squares are.
    let mut mask = unsafe { free_slots(cells, head, &offsets) };
    let mut depth = 1;
    let end = if squares == 1 {
        // The trivial tour; a closed tour needs a cycle, which 1x1 does not have.
        if !closed && on_tour(state_with(state, &frames[..0], head)) == Flow::Stop {
            End::Stopped
        } else {
            End::Exhausted
        }
    } else {
        loop {
            if mask != 0 {
                let slot = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if nodes >= limit {
                    break End::Budget;
                }
                let q = head.wrapping_add_signed(offsets[slot]);
                // SAFETY: `q` is a neighbour of the on-board `head` (see `free_slots`).
                let cell = unsafe { cells.get_unchecked_mut(q) };
                let entered = *cell;
                debug_assert!(entered < TAKEN, "a slot of the mask is free");
                *cell = TAKEN;
                nodes += 1;
                ways_back -= u32::from(entered);
                if depth + 1 == squares {
                    // the last square: a tour, if it closes when a closed one is sought
                    if !closed || entered == NEAR_START {
                        frames[depth - 1] = pack(head, mask, byte);
                        if on_tour(state_with(state, &frames[..depth], q)) == Flow::Stop {
                            depth += 1;
                            head = q;
                            break End::Stopped;
                        }
                    }
                } else if ways_back != 0 {
                    frames[depth - 1] = pack(head, mask, byte);
                    depth += 1;
                    head = q;
                    byte = entered;
                    // SAFETY: `q` was free, so it is on the board.
                    mask = unsafe { free_slots(cells, head, &offsets) };
                    continue;
                }
                // A tour met (and passed over) or the start's last way back taken: leave `q`.
                // SAFETY: as above.
                unsafe { *cells.get_unchecked_mut(q) = entered };
                ways_back += u32::from(entered);
            } else {
                if depth == 1 {
                    break End::Exhausted;
                }
                // SAFETY: `head` is on the board (it was free when entered).
                unsafe { *cells.get_unchecked_mut(head) = byte };
                ways_back += u32::from(byte);
                depth -= 1;
                (head, mask, byte) = unpack(frames[depth - 1]);
            }
        }
    };
    stats.nodes += nodes;
    // every square entered was left again, but those on the final path
    stats.backtracks += nodes - depth as u64;
    sync(state, &frames[..depth - 1], head);
    end
}

/// `state` holding the path of `frames` then `head`, for `on_tour`.
fn state_with<'a>(state: &'a mut SearchState, frames: &[u64], head: usize) -> &'a SearchState {
    sync(state, frames, head);
    state
}
