//! The candidate masks' slot orders: for each rule family that has one, where the mask loop
//! ([`super::masks`]) finds the order of a square's candidates (a *slot* is a candidate's position
//! in a mask byte: which knight offset each bit stands for) and which candidate of a mask comes next
//! ([`Slots`]). The orders are the rules' own (`docs/REFERENCE.md`): degree first, then the rule's
//! key, then its label order.

use super::zero_bytes;
use crate::board::Board;
use crate::solve::rules::{pohl_sum, preference_classes, DistanceTarget, LabelOrder, SquirrelPlan};
use crate::solve::TieBreaker;
use crate::state::{SearchState, SlotOffsets};

/// Where [`search_ordered`] finds the slot order of a head square, and which candidate of a mask
/// comes next.
pub(super) trait Slots {
    /// The slot order of `head`, whose frame keeps `kept` ([`Slots::order`]; for `squirrel`, the
    /// stage the knight is in there).
    fn at(&self, head: usize, kept: u32) -> &SlotOffsets;

    /// The knight arrives on `q` (the frame of `q` is not pushed yet): a rule whose order changes
    /// along the path (`squirrel`) moves `rule` on and returns what `q`'s order then depends on,
    /// the `kept` of [`Slots::at`]. Nothing for the other rules.
    #[inline(always)]
    fn arrive(&self, _rule: &mut TieBreaker, _q: usize) -> u32 {
        0
    }

    /// The knight leaves a square back to the one whose frame keeps `kept`: undo [`Slots::arrive`].
    #[inline(always)]
    fn leave(&self, _rule: &mut TieBreaker, _kept: u32) {}

    /// What the frame of `head` keeps for [`Slots::pick`], computed when the frame is pushed (the
    /// node survived its prunes), from its full `mask`: nothing for most rules.
    #[inline(always)]
    fn order(&self, _rule: &mut TieBreaker, _state: &SearchState, _head: usize, _mask: u64) -> u32 {
        0
    }

    /// The bit of the next candidate to try among the non-empty `mask` of `head` (the state is the
    /// one right after `head` was made, as every later move has been undone; `order` is what
    /// [`Slots::order`] kept): the lowest, i.e. least degree, then slot order.
    #[inline(always)]
    fn pick(&self, _state: &SearchState, _head: usize, mask: u64, _order: u32) -> u32 {
        mask.trailing_zeros()
    }
}

/// `random`: label order in slots, and among candidates of equal least degree the order of keys
/// drawn when the node is pushed, then slot order. The draws are the sorting loop's exactly (one
/// key per candidate, in label order, at the nodes where two candidates share a degree), so both
/// loops give the same search for a seed; the frame keeps each tied slot's rank by (key, slot) among
/// the slots of its degree, 3 bits a slot.
pub(super) struct RandomSlots(pub(super) SlotOffsets);

impl Slots for RandomSlots {
    #[inline(always)]
    fn at(&self, _: usize, _: u32) -> &SlotOffsets {
        &self.0
    }

    #[inline(always)]
    fn order(&self, rule: &mut TieBreaker, _: &SearchState, _: usize, mask: u64) -> u32 {
        // two candidates share a degree when some byte has two bits: more bits than bytes in use
        let bytes_in_use = 8 - zero_bytes(mask).count_ones();
        if mask.count_ones() <= bytes_in_use {
            return 0;
        }
        random_ranks(rule, mask)
    }

    #[inline(always)]
    fn pick(&self, _: &SearchState, _: usize, mask: u64, order: u32) -> u32 {
        lowest_unless_tied(mask, |base, byte| {
            base + least_slot(byte, |slot| order >> (3 * slot) & 7)
        })
    }
}

/// The bit to try next in the non-empty `mask`: the lowest (least degree, then slot order), unless
/// the least degree is shared, when `tie(base, byte)` picks among its slots (`byte`: the slots of
/// that degree, at bit `base` of the mask).
#[inline(always)]
fn lowest_unless_tied(mask: u64, tie: impl FnOnce(u32, u64) -> u32) -> u32 {
    let tz = mask.trailing_zeros();
    let byte = (mask >> (tz & !7)) & 0xFF;
    if byte & (byte - 1) == 0 {
        tz
    } else {
        tie(tz & !7, byte)
    }
}

/// The slot of `byte` with the least `key`, the lowest slot among equal keys.
#[inline(always)]
fn least_slot(byte: u64, key: impl Fn(u32) -> u32) -> u32 {
    let (mut best, mut best_key) = (0, u32::MAX);
    let mut rest = byte;
    while rest != 0 {
        let slot = rest.trailing_zeros();
        rest &= rest - 1;
        let k = key(slot);
        if k < best_key {
            (best, best_key) = (slot, k);
        }
    }
    best
}

/// Draw a key for each candidate of `mask` in slot (label) order, as [`super::sorted::candidates`] does, and return
/// the rank by (key, slot) of each slot among the slots of its own degree, 3 bits a slot (only ties
/// are ever ranked: a slot alone in its degree is picked without looking).
#[inline(never)]
fn random_ranks(rule: &mut TieBreaker, mask: u64) -> u32 {
    // the slots present in any byte
    let mut present = mask;
    present |= present >> 32;
    present |= present >> 16;
    present |= present >> 8;
    let mut keys = [0u64; 8];
    let mut rest = present & 0xFF;
    while rest != 0 {
        let slot = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        // the sorting loop's key, with the slot below it so that equal keys keep slot order
        let key = rule.random_key();
        debug_assert!((0..1 << 32).contains(&key));
        keys[slot] = (key as u64) << 3 | slot as u64;
    }
    let mut order = 0;
    let mut bytes = mask;
    while bytes != 0 {
        let byte = (bytes & 0xFF) as u32;
        bytes >>= 8;
        if byte & byte.wrapping_sub(1) == 0 {
            continue; // no tie in this degree
        }
        let mut rest = byte;
        while rest != 0 {
            let slot = rest.trailing_zeros();
            rest &= rest - 1;
            let mut rank = 0;
            let mut others = byte;
            while others != 0 {
                let other = others.trailing_zeros();
                others &= others - 1;
                rank += u32::from(keys[other as usize] < keys[slot as usize]);
            }
            order |= rank << (3 * slot);
        }
    }
    order
}

/// `pohl`: label order in slots, and among candidates of equal least degree the smallest Pohl sum
/// first (then slot order). The sums are computed when a tie is popped, not when the node is made:
/// nodes cut off early never pay for them, and a frame stays a mask. The state is the same each
/// time a node's tie is popped, so the sums are too.
pub(super) struct PohlSlots(pub(super) SlotOffsets);

impl Slots for PohlSlots {
    #[inline(always)]
    fn at(&self, _: usize, _: u32) -> &SlotOffsets {
        &self.0
    }

    #[inline(always)]
    fn pick(&self, state: &SearchState, head: usize, mask: u64, _: u32) -> u32 {
        lowest_unless_tied(mask, |base, byte| {
            pohl_pick(&self.0, state, head, base, byte)
        })
    }
}

/// The bit among the tied `byte` (at bit `base` of the mask) whose candidate has the smallest Pohl sum.
#[inline(never)]
fn pohl_pick(slots: &SlotOffsets, state: &SearchState, head: usize, base: u32, byte: u64) -> u32 {
    base + least_slot(byte, |slot| {
        pohl_sum(state, head.wrapping_add_signed(slots.offset(slot as usize)))
    })
}

/// One slot order for the whole run (`first`, `order:*`).
pub(super) struct FixedSlots(pub(super) SlotOffsets);

impl Slots for FixedSlots {
    #[inline(always)]
    fn at(&self, _: usize, _: u32) -> &SlotOffsets {
        &self.0
    }
}

/// `squirrel`: the slot order of the ordering in force, which switches when the knight stands on a
/// switch square; a frame keeps the stage at its square, so leaving a square restores the stage of
/// the one below it (in the rule too, which reports the orderings used). Eight entries (a plan has at
/// most six stages; the last one repeats) so that a stage indexes them without a bounds check.
pub(super) struct SquirrelSlots([SlotOffsets; 8]);

impl SquirrelSlots {
    pub(super) fn new(state: &SearchState, plan: &SquirrelPlan) -> Self {
        let last = plan.stages() - 1;
        SquirrelSlots(std::array::from_fn(|stage| {
            state.slot_offsets(plan.ordering_at((stage as u8).min(last)).labels())
        }))
    }
}

impl Slots for SquirrelSlots {
    #[inline(always)]
    fn at(&self, _: usize, stage: u32) -> &SlotOffsets {
        &self.0[stage as usize & 7]
    }

    #[inline(always)]
    fn arrive(&self, rule: &mut TieBreaker, q: usize) -> u32 {
        rule.arrive(q);
        u32::from(rule.stage())
    }

    #[inline(always)]
    fn leave(&self, rule: &mut TieBreaker, stage: u32) {
        rule.restore_stage(stage as u8);
    }

    #[inline(always)]
    fn order(&self, rule: &mut TieBreaker, _: &SearchState, _: usize, _: u64) -> u32 {
        u32::from(rule.stage())
    }
}

/// A distance rule's slot order per square: `slots[class[head]]`. Built once per board and rule and
/// kept in the [`Stack`] (the 8x8 all-starts benchmark runs a few hundred nodes per search).
#[derive(Clone, Debug)]
pub(super) struct ClassSlots {
    key: (Board, DistanceTarget, LabelOrder),
    class: Vec<u8>,
    slots: Vec<SlotOffsets>,
}

impl Slots for ClassSlots {
    #[inline(always)]
    fn at(&self, head: usize, _: u32) -> &SlotOffsets {
        &self.slots[self.class[head] as usize]
    }
}

/// The cached [`ClassSlots`] for `state`'s board and this target, built if needed.
pub(super) fn class_slots<'a>(
    cache: &'a mut Option<ClassSlots>,
    state: &SearchState,
    target: DistanceTarget,
    scan: LabelOrder,
) -> Option<&'a ClassSlots> {
    let key = (state.board(), target, scan);
    if !matches!(cache, Some(c) if c.key == key) {
        let (class, orders) = preference_classes(state.layout(), target, scan)?;
        let slots = orders.iter().map(|o| state.slot_offsets(o)).collect();
        *cache = Some(ClassSlots { key, class, slots });
    }
    cache.as_ref()
}
