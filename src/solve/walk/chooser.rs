//! The choosers: how each rule family picks the next move from a step's degree mask ([`Chooser`]),
//! one type per family so that the kernel is monomorphised for each (rules as defined in
//! `docs/REFERENCE.md`: fixed orders and `squirrel` after Squirrel & Cull 1996, `pohl` after Pohl
//! 1967, `random` as in [`crate::solve::rules`]). The distance rules' chooser, which needs per-board
//! tables, is in [`super::geometry`].

use super::mask::{Bits, IDENTITY_BITS};
use crate::board::Layout;
use crate::solve::rules::{LabelOrder, SquirrelPlan, TieBreaker};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// How a rule picks the next slot from the degree mask. One implementation per rule family, so the
/// kernel is monomorphised and a fixed-order rule carries no tie-break code at all.
///
/// A chooser holds what every run of a batch shares (offsets, mask and preference tables), read
/// through one pointer by all interleaved walks; what one run carries of its own (the PRNG of
/// `random`, the stage of `squirrel`) is its [`Chooser::Run`], `()` for the rest.
pub(crate) trait Chooser {
    /// Per-run state.
    type Run;
    /// Padded offset of each slot.
    fn offsets(&self) -> &[isize; 8];
    /// The mask bits of each label (which slot each label is in).
    fn bits(&self) -> &Bits {
        &IDENTITY_BITS
    }
    /// Whether a run carries state of its own ([`Chooser::Run`] is not `()`): a batch builds a
    /// tie-breaker for each of its runs only then, since the others' cannot fail and hold nothing a
    /// walk needs.
    const PER_RUN: bool = false;
    /// Whether the lowest tied slot is always the choice (the slots are a fixed order), which the
    /// small-board kernel then finds without a branch.
    const SLOT_ORDER: bool = false;
    /// The state of a run whose tie-breaker is `tb`, taken from it (the PRNG of `random`, the plan
    /// of `squirrel`); `tb` is `None` only where [`Chooser::PER_RUN`] is false.
    fn start_run(tb: Option<&mut TieBreaker>) -> Self::Run;
    /// Hand a finished walk's state back to its tie-breaker (`squirrel`: the stage reached, which
    /// says what orderings were used).
    #[inline(always)]
    fn end_run(_tb: &mut TieBreaker, _run: &Self::Run) {}
    /// The knight stands on padded `square` (start included), before choosing its next move.
    #[inline(always)]
    fn arrive(&self, _run: &mut Self::Run, _square: usize) {}
    /// The padded offset of the move to make (the offset of the chosen slot). `tz` is the mask's
    /// trailing-zero count (8 x (min degree - 1) + lowest slot of that degree) and `tied` the slots
    /// of minimum degree (at least one bit). `deg` holds
    /// the degrees after this step's decrements, `head` indexes it (the array may hold several
    /// walks' boards side by side), and `square` is the head's padded square on its own board.
    fn choose(
        &self,
        run: &mut Self::Run,
        deg: &[u8],
        head: usize,
        square: usize,
        tz: u32,
        tied: u32,
    ) -> isize;
    /// [`Chooser::choose`] in the small-board kernel ([`super::small`]), which has no degree array:
    /// `sum(slot)` is the sum of the degrees of the free neighbours of the candidate in `slot`, the
    /// one thing a chooser reads from the degrees (`pohl`). Called on real ties only.
    #[inline(always)]
    fn choose_small(
        &self,
        run: &mut Self::Run,
        _sum: impl Fn(usize) -> u32,
        square: usize,
        tz: u32,
        tied: u32,
    ) -> isize {
        self.choose(run, &[], square, square, tz, tied)
    }
}

/// `first`, `order:*`: slots in scan order, the lowest slot of minimum degree wins.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed<'a> {
    offsets: [isize; 8],
    bits: &'a Bits,
}

impl<'a> Fixed<'a> {
    /// `bits` must be [`order_bits`] of `order`.
    pub(crate) fn new(layout: &Layout, order: LabelOrder, bits: &'a Bits) -> Self {
        Fixed {
            offsets: scan_offsets(layout, order),
            bits,
        }
    }
}

impl Chooser for Fixed<'_> {
    type Run = ();
    const SLOT_ORDER: bool = true;
    fn start_run(_: Option<&mut TieBreaker>) {}
    #[inline(always)]
    fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }
    #[inline(always)]
    fn bits(&self) -> &Bits {
        self.bits
    }
    #[inline(always)]
    fn choose(&self, _: &mut (), _: &[u8], _: usize, _: usize, tz: u32, _: u32) -> isize {
        self.offsets[(tz & 7) as usize]
    }
}

/// `squirrel`: a fixed order that changes when the knight stands on a switch square. Slots are in
/// label order; the order in force picks among the tied labels (a handful of runs per sweep, so a
/// short loop is fine here).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Squirrel {
    offsets: [isize; 8],
}

impl Squirrel {
    pub(crate) fn new(layout: &Layout) -> Self {
        Squirrel {
            offsets: *layout.offsets(),
        }
    }
}

/// One `squirrel` run: its plan (stage) and the ordering in force.
#[derive(Clone, Debug)]
pub(crate) struct SquirrelRun {
    plan: SquirrelPlan,
    order: [u8; 8],
}

impl SquirrelRun {
    pub(crate) fn new(plan: SquirrelPlan) -> Self {
        SquirrelRun {
            order: *plan.ordering().labels(),
            plan,
        }
    }

    /// The plan as it stands at the end of the run (for `orderings_used`).
    pub(crate) fn plan(&self) -> &SquirrelPlan {
        &self.plan
    }
}

impl Chooser for Squirrel {
    type Run = SquirrelRun;
    const PER_RUN: bool = true;
    fn start_run(tb: Option<&mut TieBreaker>) -> SquirrelRun {
        let tb = tb.expect("squirrel runs have a tie-breaker");
        SquirrelRun::new(tb.squirrel_plan().expect("squirrel plan").clone())
    }
    fn end_run(tb: &mut TieBreaker, run: &SquirrelRun) {
        tb.restore_stage(run.plan().stage());
    }
    #[inline(always)]
    fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }
    #[inline(always)]
    fn arrive(&self, run: &mut SquirrelRun, square: usize) {
        if run.plan.arrive(square) {
            run.order = *run.plan.ordering().labels();
        }
    }
    #[inline(always)]
    fn choose(
        &self,
        run: &mut SquirrelRun,
        _: &[u8],
        _: usize,
        _: usize,
        _: u32,
        tied: u32,
    ) -> isize {
        let k = run.order.iter().find(|&&k| tied & (1 << k) != 0);
        self.offsets[*k.expect("at least one tied label") as usize & 7]
    }
}

/// `pohl`: on a real tie, smallest sum of the candidate's free neighbours' degrees, then label order.
#[derive(Clone, Debug)]
pub(crate) struct Pohl {
    offsets: [isize; 8],
    stride: usize,
}

impl Pohl {
    pub(crate) fn new(layout: &Layout) -> Self {
        Pohl {
            offsets: *layout.offsets(),
            stride: layout.stride(),
        }
    }
}

impl Chooser for Pohl {
    type Run = ();
    fn start_run(_: Option<&mut TieBreaker>) {}
    #[inline(always)]
    fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }
    #[inline(always)]
    fn choose(&self, _: &mut (), deg: &[u8], head: usize, _: usize, tz: u32, tied: u32) -> isize {
        // A real tie is a data-dependent branch: cheaper than computing two candidates' sums on
        // every step without one, which doubles the instructions (benches/README.md).
        if tied & (tied - 1) == 0 {
            return self.offsets[(tz & 7) as usize];
        }
        let sum = |slot: usize| {
            pohl_sum(
                deg,
                head.wrapping_add_signed(self.offsets[slot & 7]),
                self.stride,
            )
        };
        self.offsets[pohl_tie(sum, tied) & 7]
    }
    #[inline(always)]
    fn choose_small(
        &self,
        _: &mut (),
        sum: impl Fn(usize) -> u32,
        _: usize,
        _: u32,
        tied: u32,
    ) -> isize {
        self.offsets[pohl_tie(sum, tied) & 7]
    }
}

// cold: the common path (no tie) is then laid out straight through (benches/README.md)
#[inline(never)]
#[cold]
fn pohl_tie(sum: impl Fn(usize) -> u32, mut tied: u32) -> usize {
    debug_assert!(tied.count_ones() >= 2, "not a tie");
    // At least two tied slots: the first two without a loop branch (two-way ties are the most
    // common), then any others.
    let first = tied.trailing_zeros() as usize;
    tied &= tied - 1;
    let second = tied.trailing_zeros() as usize;
    tied &= tied - 1;
    let (sum_first, sum_second) = (sum(first), sum(second));
    let (mut best, mut best_sum) = if sum_second < sum_first {
        (second, sum_second)
    } else {
        (first, sum_first)
    };
    while tied != 0 {
        let slot = tied.trailing_zeros() as usize;
        tied &= tied - 1;
        let s = sum(slot);
        if s < best_sum {
            (best, best_sum) = (slot, s);
        }
    }
    best
}

/// Sum of the degrees of the free neighbours of the on-board square `q` (padded, row length
/// `stride`), read as four words instead of eight bytes: the two neighbours two rows up (columns -1
/// and +1) are bytes 0 and 2 of the `u32` at `q - 2 * stride - 1`, the two one row up (columns -2 and
/// +2) bytes 0 and 4 of the `u64` at `q - stride - 2`, and likewise below. Free squares hold 0..=8
/// and every other byte has its high bit set, so the free bytes are selected without a compare, and
/// one multiply adds the (at most eight, each at most 8) selected bytes.
///
/// Panics unless the four words lie inside `deg`, which the 2-square border guarantees for every
/// on-board `q` of a padded array with row length `stride` (the lowest word starts at
/// `q - 2 * stride - 1 >= 1`; the highest ends at `q + 2 * stride + 3`, inside the row two below).
#[inline(always)]
fn pohl_sum(deg: &[u8], q: usize, stride: usize) -> u32 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // One check covers all four words: from the lowest start to the highest end.
    let (low, high) = (q.wrapping_sub(2 * stride + 1), q + 2 * stride + 3);
    assert!(
        low <= q && high <= deg.len(),
        "square {q} too close to the array's edge"
    );
    let at = deg.as_ptr();
    // SAFETY: every word below lies within `low..high`, inside `deg` (asserted above);
    // unaligned reads of plain bytes.
    let u32_at = |i: usize| {
        u64::from(u32::from_le(unsafe {
            at.add(i).cast::<u32>().read_unaligned()
        }))
    };
    // SAFETY: as above.
    let u64_at = |i: usize| u64::from_le(unsafe { at.add(i).cast::<u64>().read_unaligned() });
    // the wanted bytes of `w`, where they hold a free square's degree
    let free = |w: u64, wanted: u64| w & wanted & (((!w & HIGH) >> 7) * 0xFF);
    let (far, near) = (0x00FF_00FF, 0xFF_0000_00FF);
    let total = free(u32_at(q - 2 * stride - 1), far)
        + free(u32_at(q + 2 * stride - 1), far)
        + free(u64_at(q - stride - 2), near)
        + free(u64_at(q + stride - 2), near);
    // every byte of `total` is at most 32 and their sum at most 64: no carry between bytes
    (total.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// `random`: on a real tie, a uniform draw among the tied slots (label order), from the run's PRNG,
/// drawn exactly as [`crate::solve::TieBreaker::choose`] does so both give the same walk for a seed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Random {
    offsets: [isize; 8],
}

impl Random {
    pub(crate) fn new(layout: &Layout) -> Self {
        Random {
            offsets: *layout.offsets(),
        }
    }
}

impl Chooser for Random {
    type Run = Xoshiro256PlusPlus;
    const PER_RUN: bool = true;
    fn start_run(tb: Option<&mut TieBreaker>) -> Xoshiro256PlusPlus {
        let tb = tb.expect("random runs have a tie-breaker");
        tb.take_rng().expect("random rule has a PRNG")
    }
    #[inline(always)]
    fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }
    #[inline(always)]
    fn choose(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        _: &[u8],
        _: usize,
        _: usize,
        tz: u32,
        mut tied: u32,
    ) -> isize {
        if tied & (tied - 1) == 0 {
            return self.offsets[(tz & 7) as usize];
        }
        let pick = rng.gen_range(0..tied.count_ones() as usize);
        for _ in 0..pick {
            tied &= tied - 1;
        }
        self.offsets[tied.trailing_zeros() as usize & 7]
    }
}

/// Offsets of the labels of `order`, in that order.
pub(super) fn scan_offsets(layout: &Layout, order: LabelOrder) -> [isize; 8] {
    let mut o = [0isize; 8];
    for (slot, &k) in o.iter_mut().zip(order.labels()) {
        *slot = layout.offsets()[k as usize];
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn pohl_sum_is_the_sum_of_free_neighbour_degrees() {
        use crate::state::SearchState;
        for (rows, cols) in [(1, 1), (1, 5), (3, 4), (5, 5), (8, 8), (6, 11)] {
            let board = Board::new(rows, cols).unwrap();
            let mut s = SearchState::new(board);
            // visit a scattering of squares, checking every free square's sum along the way
            for (i, sq) in board.squares().enumerate() {
                if i % 3 != 1 {
                    s.make(s.layout().pad(sq));
                }
                for q in 0..s.layout().len() {
                    if s.is_free(q) {
                        let want: u32 = s
                            .layout()
                            .offsets()
                            .iter()
                            .map(|&o| s.degree(q.wrapping_add_signed(o)))
                            .filter(|&d| d <= crate::state::MAX_DEGREE)
                            .map(u32::from)
                            .sum();
                        let got = pohl_sum(s.degrees(), q, s.layout().stride());
                        assert_eq!(got, want, "{board} at {q}");
                    }
                }
            }
        }
    }
}
