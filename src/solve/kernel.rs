//! The fast pure-Warnsdorff kernel behind [`super::Solver::run`] and [`super::Solver::run_batch`]: the
//! same walk as the plain loop in [`super::warnsdorff`] (Warnsdorff 1823; rules as in `REFERENCE.md`),
//! at a few nanoseconds a step. [`super::Solver::solve_plain`] keeps the plain loop as its twin, and
//! `tests/fast_paths.rs` checks the two give identical paths for every rule on every start of boards
//! 5..40.
//!
//! One step from the head `h` is one pass over its eight neighbours that both decrements their degrees
//! (the head has just been visited) and builds a 64-bit *degree mask*: bit `8 * (d - 1) + lane` is set
//! when the neighbour in `lane` has degree `d` before the decrement (`d` in 1..=8 for a free square,
//! since the head still counted; border and visited squares hold values of 0xE8 and above and
//! contribute no bit). The bit comes from a per-label table ([`Bits`]: `bits[k][d]`), so building the
//! mask is one `or` from memory per neighbour, and the table also says which lane label `k` sits in.
//! The lowest set bit of the mask is then the minimum degree and, within it, the lowest lane: for a
//! fixed-order rule the lanes are the scan order, so `trailing_zeros` alone is the next move, with no
//! compare-and-select chain and no branch. The byte holding that bit lists every lane of minimum
//! degree, which counts ties for free and is all the other rules need: distance rules look up the
//! winner in a per-square preference table (branch-free), `pohl` and `random` branch to their secondary
//! key only on a real tie.
//!
//! A single walk is a chain of dependent loads (head -> degrees -> mask table -> next offset -> next
//! head), several times longer than the execution resources a step needs. [`run_lanes`] therefore
//! walks several independent runs of a batch side by side, each in its own board of one buffer, so
//! the out-of-order core overlaps their chains. The lanes step in lock-step rounds inside
//! [`rounds`], whose heads and tie counts are local arrays indexed by constants: they stay in
//! registers, the squares visited follow from the round number, and the rule's shared tables are
//! read through one pointer. A round surveys every lane first (the degree loads and decrements,
//! [`survey`]) and then advances every lane ([`advance`]), so that a mispredicted tie branch throws
//! away only the short second halves of the lanes after it (6-12% faster for every rule). Four lanes: 2.8 ns a step on 100x100 against 6.0 for a single walk
//! (three lanes 3%, two 15% slower; six and eight no better). Figures and instruction counts:
//! `benches/README.md`.
//!
//! ADVICE FOR HACKERS: the kernel writes the degree array exactly as [`crate::search::SearchState::make`]
//! would (head set to [`BORDER`], its eight neighbours decremented without branching), so after a run
//! with a path the search state is the one the plain loop leaves. What must change together: a
//! [`Chooser`]'s `bits()` (which lane each label's bit lands in), its `offsets()` (the padded offset of
//! each lane) and the lane its `choose` returns; [`DEGREE_BIT`] and the sentinel values (any byte above
//! 8 is "not a candidate", and free squares always read 1..=8 here because the head was a free
//! neighbour of each of them). The unchecked indexing rests on one invariant: the head is an on-board
//! square of the padded layout the array was built for, so `head + offset` lies inside the array for
//! every knight offset. The entry points assert it for the start (and that the array and the
//! chooser's offsets belong to the layout); every later head is a square whose degree read 1..=8,
//! which only on-board squares do; a debug assertion checks every access in the test profile.

use super::rules::{preference_classes, LabelOrder, SquirrelPlan, TieBreaker};
use super::Rule;
use crate::board::{Board, Layout, BORDER};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// `DEGREE_BIT[d]` = `1 << 8 * (d - 1)` for a free square's pre-decrement degree `d` in 1..=8, else 0.
pub(crate) static DEGREE_BIT: [u64; 256] = degree_bits();

/// Per-label mask tables: `bits[k][d]` = `DEGREE_BIT[d] << lane(k)`, the bit that label `k` sets for
/// degree `d`. With one table per label the mask is built by one `or` from memory per neighbour.
pub(crate) type Bits = [[u64; 256]; 8];

/// Label `k` in lane `k` (label order): the distance rules, `pohl`, `random`, `squirrel`.
pub(crate) static IDENTITY_BITS: Bits = identity_bits();

const fn identity_bits() -> Bits {
    let mut t = [[0u64; 256]; 8];
    let mut k = 0;
    while k < 8 {
        let mut d = 1;
        while d <= 8 {
            t[k][d] = 1 << (8 * (d - 1) + k);
            d += 1;
        }
        k += 1;
    }
    t
}

/// The tables that put label `order[i]` in lane `i`, so the lowest lane is the first in scan order.
pub(crate) fn order_bits(order: LabelOrder) -> Box<Bits> {
    let mut t = Box::new([[0u64; 256]; 8]);
    set_order_bits(&mut t, order);
    t
}

/// Turn any [`order_bits`] table into the one of `order` in place: only the entries of degrees
/// 1..=8 depend on the order (all others are 0 in every table), so 64 stores do it, where a new
/// table would zero 16 KiB (an `order:*` sweep changes order every 64 runs on 8x8).
pub(crate) fn set_order_bits(t: &mut Bits, order: LabelOrder) {
    for (lane, &k) in order.labels().iter().enumerate() {
        for d in 1..=8 {
            t[k as usize][d] = DEGREE_BIT[d] << lane;
        }
    }
}

const fn degree_bits() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut d = 1;
    while d <= 8 {
        t[d] = 1 << (8 * (d - 1));
        d += 1;
    }
    t
}

/// How a rule picks the next lane from the degree mask. One implementation per rule family, so the
/// kernel is monomorphised and a fixed-order rule carries no tie-break code at all.
///
/// A chooser holds what every run of a batch shares (offsets, mask and preference tables), read
/// through one pointer by all interleaved lanes; what one run carries of its own (the PRNG of
/// `random`, the stage of `squirrel`) is its [`Chooser::Run`], `()` for the rest.
pub(crate) trait Chooser {
    /// Per-run state.
    type Run;
    /// Padded offset of each lane.
    fn offsets(&self) -> &[isize; 8];
    /// The mask bits of each label (which lane each label is in).
    fn bits(&self) -> &Bits {
        &IDENTITY_BITS
    }
    /// The knight stands on padded `square` (start included), before choosing its next move.
    #[inline(always)]
    fn arrive(&self, _run: &mut Self::Run, _square: usize) {}
    /// The padded offset of the move to make (the offset of the chosen lane). `tz` is the mask's
    /// trailing-zero count (8 x (min degree - 1) + lowest lane of that degree) and `tied` the lanes
    /// of minimum degree (at least one bit). `deg` holds
    /// the degrees after this step's decrements, `head` indexes it (the array may hold several
    /// lanes' boards side by side), and `square` is the head's padded square on its own board.
    fn choose(
        &self,
        run: &mut Self::Run,
        deg: &[u8],
        head: usize,
        square: usize,
        tz: u32,
        tied: u32,
    ) -> isize;
}

/// `first`, `order:*`: lanes in scan order, the lowest lane of minimum degree wins.
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

/// `squirrel`: a fixed order that changes when the knight stands on a switch square. Lanes are in
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

/// `roth`, `roth-original`, `center`: the key depends only on where the candidate is, so every square
/// gets a *class*, the order in which it prefers its eight moves (by distance key, then scan order), and
/// `pick[class << 8 | tied]` is the offset of the preferred lane among `tied` (an offset rather than a
/// lane: one dependent load fewer on the walk's critical path). Lanes are in label order. `T` is the
/// class table: a byte per square, or [`PackedClasses`] on large boards.
#[derive(Debug)]
pub(crate) struct Geometry<'a, T: ?Sized> {
    offsets: [isize; 8],
    class: &'a T,
    pick: &'a [i32],
}

impl<T: ClassTable + ?Sized> Chooser for Geometry<'_, T> {
    type Run = ();
    #[inline(always)]
    fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }
    #[inline(always)]
    fn choose(&self, _: &mut (), _: &[u8], _: usize, square: usize, _: u32, tied: u32) -> isize {
        // Branch-free: a lone minimum is its own pick in the table.
        let at = self.class.class(square) << 8 | tied as usize;
        debug_assert!(at < self.pick.len() && tied < 256);
        // SAFETY: every class id stored is below `pick.len() >> 8` (built together) and `tied` is
        // one byte of the mask, so the index is in bounds; the debug assertion checks it in tests.
        // The offset read is one of this layout's knight offsets, which `step` relies on.
        (unsafe { *self.pick.get_unchecked(at) }) as isize
    }
}

/// A class per padded square, as the distance rules' chooser reads it.
pub(crate) trait ClassTable {
    /// The class of padded `square`, which must be a square of the layout the table was built for.
    fn class(&self, square: usize) -> usize;
    /// Padded squares covered.
    fn len(&self) -> usize;
}

impl ClassTable for [u8] {
    #[inline(always)]
    fn class(&self, square: usize) -> usize {
        debug_assert!(square < self.len());
        // SAFETY: `square` is a square of the padded layout the class table was built for (the same
        // board, checked when the chooser is made; each lane's array has that layout's length,
        // checked when its run starts). The debug assertion checks it in tests.
        usize::from(unsafe { *self.get_unchecked(square) })
    }
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
}

/// A class per padded square packed in `width` bits: 6 while there are at most 64 classes (17 to
/// 35 on the boards measured), else 8. Large boards use it, where a worker walks one lane: there it
/// keeps the worker at 1.008 (degrees) + 0.756 (classes) bytes per square on one thread, under the
/// memory target's 2, where a byte per class made 2.016; and the walk is latency-bound, so the
/// unpacking (a multiply, a load and a shift, beside the survey: the class depends only on the head)
/// costs no time. Small boards keep bytes: four lanes are throughput-bound, and unpacking made
/// `roth` 16% slower there (`benches/README.md`).
#[derive(Clone, Debug)]
pub(crate) struct PackedClasses {
    /// The packed fields, little-endian bit order, plus one spare byte so that the last field can
    /// be read with a 2-byte load.
    bits: Vec<u8>,
    width: usize,
    squares: usize,
}

impl PackedClasses {
    fn new(class: &[u8], classes: usize) -> Self {
        let width = if classes <= 64 { 6 } else { 8 };
        let mut bits = vec![0u8; (class.len() * width).div_ceil(8) + 1];
        for (square, &c) in class.iter().enumerate() {
            let at = square * width;
            let field = u16::from(c) << (at % 8);
            bits[at / 8] |= field as u8;
            bits[at / 8 + 1] |= (field >> 8) as u8;
        }
        PackedClasses {
            bits,
            width,
            squares: class.len(),
        }
    }
}

impl ClassTable for PackedClasses {
    #[inline(always)]
    fn class(&self, square: usize) -> usize {
        debug_assert!(
            square < self.squares,
            "square {square} outside the class table"
        );
        let at = square * self.width;
        // SAFETY: `square < squares` as for the byte table (same invariant, checked in tests by
        // the assertion above), so `at / 8 + 1 <= (squares * width - 1) / 8 + 1 < bits.len()`:
        // both bytes of the unaligned 2-byte read are inside `bits`.
        let word = u16::from_le(unsafe {
            self.bits
                .as_ptr()
                .add(at / 8)
                .cast::<u16>()
                .read_unaligned()
        });
        usize::from(word >> (at % 8)) & ((1 << self.width) - 1)
    }
    fn len(&self) -> usize {
        self.squares
    }
}

/// The class table of a board: bytes, or packed on large boards ([`PackedClasses`]).
#[derive(Clone, Debug)]
enum Classes {
    Bytes(Vec<u8>),
    Packed(PackedClasses),
}

/// A distance rule's chooser, by class table: the kernel is monomorphised for each.
pub(crate) enum GeometryChooser<'a> {
    Bytes(Geometry<'a, [u8]>),
    Packed(Geometry<'a, PackedClasses>),
}

/// Per-board tables for the distance rules: a class per padded square (a byte, or 6 bits on large
/// boards: [`PackedClasses`]) plus 1 KiB per class (the classes are the sectors around the target
/// point: 17 to 35 on the boards measured).
#[derive(Clone, Debug)]
pub(crate) struct GeometryTables {
    /// The board they were built for: `pick` holds padded offsets, right only for its stride.
    board: Board,
    class: Classes,
    pick: Vec<i32>,
}

impl GeometryTables {
    /// The tables for a distance `rule` on `layout`'s board; `None` for other rules, or if the board
    /// had more than 256 classes (impossible for a point target, kept as a safe fallback).
    pub(crate) fn new(layout: &Layout, rule: Rule) -> Option<Self> {
        let (target, scan) = TieBreaker::distance_target(rule, layout.board())?;
        let (class, prefs) = preference_classes(layout, target, scan)?;
        let mut pick = vec![0i32; prefs.len() << 8];
        for (id, order) in prefs.iter().enumerate() {
            for mask in 1..256usize {
                let best = order.iter().find(|&&k| mask & (1 << k) != 0);
                let offset = layout.offsets()[*best.expect("mask is not empty") as usize];
                pick[id << 8 | mask] = i32::try_from(offset).ok()?;
            }
        }
        let class = if is_large(layout) {
            Classes::Packed(PackedClasses::new(&class, prefs.len()))
        } else {
            Classes::Bytes(class)
        };
        Some(GeometryTables {
            board: layout.board(),
            class,
            pick,
        })
    }

    pub(crate) fn chooser(&self, layout: &Layout) -> GeometryChooser<'_> {
        // the same board, not only the same length: 10x12 and 12x10 pad to the same size
        assert_eq!(self.board, layout.board(), "tables of another board");
        let offsets = *layout.offsets();
        let pick = &self.pick;
        match &self.class {
            Classes::Bytes(class) => {
                assert_eq!(class.len(), layout.len(), "tables of another board");
                GeometryChooser::Bytes(Geometry {
                    offsets,
                    class: class.as_slice(),
                    pick,
                })
            }
            Classes::Packed(class) => {
                assert_eq!(class.len(), layout.len(), "tables of another board");
                GeometryChooser::Packed(Geometry {
                    offsets,
                    class,
                    pick,
                })
            }
        }
    }

    /// Number of distinct preference orders.
    #[cfg(test)]
    fn classes(&self) -> usize {
        self.pick.len() >> 8
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
    #[inline(always)]
    fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }
    #[inline(always)]
    fn choose(&self, _: &mut (), deg: &[u8], head: usize, _: usize, tz: u32, tied: u32) -> isize {
        // A real tie is a data-dependent branch: measured cheaper than computing two candidates'
        // sums on every step without one (1.8x slower: twice the instructions), see
        // benches/README.md.
        if tied & (tied - 1) == 0 {
            return self.offsets[(tz & 7) as usize];
        }
        self.offsets[pohl_tie(&self.offsets, self.stride, deg, head, tied) & 7]
    }
}

// cold: the common path (no tie) is then laid out straight through; 3-4% faster on 100x100
#[inline(never)]
#[cold]
fn pohl_tie(offsets: &[isize; 8], stride: usize, deg: &[u8], head: usize, mut tied: u32) -> usize {
    debug_assert!(tied.count_ones() >= 2, "not a tie");
    // At least two tied lanes: the first two without a loop branch (two-way ties are the most
    // common), then any others.
    let first = tied.trailing_zeros() as usize;
    tied &= tied - 1;
    let second = tied.trailing_zeros() as usize;
    tied &= tied - 1;
    let sum_first = pohl_sum(deg, head.wrapping_add_signed(offsets[first & 7]), stride);
    let sum_second = pohl_sum(deg, head.wrapping_add_signed(offsets[second & 7]), stride);
    let (mut best, mut best_sum) = if sum_second < sum_first {
        (second, sum_second)
    } else {
        (first, sum_first)
    };
    while tied != 0 {
        let lane = tied.trailing_zeros() as usize;
        tied &= tied - 1;
        let sum = pohl_sum(deg, head.wrapping_add_signed(offsets[lane]), stride);
        if sum < best_sum {
            (best, best_sum) = (lane, sum);
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

/// `random`: on a real tie, a uniform draw among the tied lanes (label order), from the run's PRNG,
/// drawn exactly as [`TieBreaker::choose`] does so both give the same walk for a seed.
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
fn scan_offsets(layout: &Layout, order: LabelOrder) -> [isize; 8] {
    let mut o = [0isize; 8];
    for (slot, &k) in o.iter_mut().zip(order.labels()) {
        *slot = layout.offsets()[k as usize];
    }
    o
}

/// The padded offsets of labels 1..8 written from the stride ([`Layout::knight_offsets`]), so that
/// each address is one addressing mode (`head + stride * {1,2} + const`) rather than eight
/// precomputed pointers that spill.
#[inline(always)]
fn label_offsets(s: isize) -> [isize; 8] {
    crate::board::Layout::offsets_for_stride(s)
}

/// One pass over the neighbours of `head`: decrement their degrees, and return the next square and
/// whether the minimum degree was tied, or `None` at a dead end (which includes a finished tour).
///
/// `deg` holds one or more padded boards of the chooser's layout side by side; `head` indexes it and
/// must be an on-board square of the board starting at `base`, already marked visited; the returned
/// square is marked visited before returning.
#[inline(always)]
fn step<C: Chooser>(
    deg: &mut [u8],
    stride: isize,
    head: usize,
    base: usize,
    ch: &C,
    run: &mut C::Run,
) -> Option<(usize, bool)> {
    let mask = survey(deg, stride, head, ch);
    advance(deg, head, base, ch, run, mask)
}

/// The first half of [`step`]: decrement the degrees of `head`'s neighbours and return the degree
/// mask (0 at a dead end).
#[inline(always)]
fn survey<C: Chooser>(deg: &mut [u8], stride: isize, head: usize, ch: &C) -> u64 {
    let bits = ch.bits();
    let mut part = [0u64; 8];
    for (k, &o) in label_offsets(stride).iter().enumerate() {
        let q = head.wrapping_add_signed(o);
        debug_assert!(
            q < deg.len(),
            "neighbour {q} of {head} outside the padded array"
        );
        // SAFETY: `head` is an on-board square of a padded board inside `deg` (the start was, and
        // every later head is a square whose degree read 1..=8, which only on-board free squares
        // do), and the 2-square border means `head + o` is inside that board for every knight
        // offset `o`. The debug assertion above checks it in tests.
        let slot = unsafe { deg.get_unchecked_mut(q) };
        let d = *slot;
        *slot = d.wrapping_sub(1);
        part[k] = bits[k][d as usize];
    }
    // A tree of `or`s (depth 3), not a chain of eight: this is on the loop's critical path.
    ((part[0] | part[1]) | (part[2] | part[3])) | ((part[4] | part[5]) | (part[6] | part[7]))
}

/// The second half of [`step`]: from the degree mask of `head`, choose and mark the next square.
#[inline(always)]
fn advance<C: Chooser>(
    deg: &mut [u8],
    head: usize,
    base: usize,
    ch: &C,
    run: &mut C::Run,
    mask: u64,
) -> Option<(usize, bool)> {
    if mask == 0 {
        return None;
    }
    let tz = mask.trailing_zeros();
    let tied = ((mask >> (tz & !7)) & 0xFF) as u32;
    let next = head.wrapping_add_signed(ch.choose(run, deg, head, head - base, tz, tied));
    debug_assert!(
        next < deg.len() && deg[next] <= crate::search::MAX_DEGREE,
        "the kernel chose a square that is not free"
    );
    // SAFETY: as above, `next` is a neighbour of the on-board `head`; the assertion checks it.
    unsafe { *deg.get_unchecked_mut(next) = BORDER };
    Some((next, tied & (tied - 1) != 0))
}

/// What the unchecked accesses of [`step`] rely on, checked once per run: the start is on the board,
/// the board's array is the layout's size, and the chooser's lanes are the layout's knight offsets.
fn check_entry<C: Chooser>(layout: &Layout, board: &[u8], start: usize, ch: &C) {
    assert_eq!(board.len(), layout.len(), "degree array of another board");
    assert!(layout.is_on_board(start), "start off the board");
    // What the accesses need: every lane offset within two rows and two columns of the head.
    let reach = 2 * layout.stride() as isize + 2;
    assert!(
        ch.offsets().iter().all(|o| o.abs() <= reach),
        "chooser built for another board"
    );
}

/// The end of one walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Walk {
    /// Squares visited, the start included.
    pub visited: u32,
    /// Moves at which the minimum degree was shared.
    pub ties: u64,
    /// The last square (padded index).
    pub head: usize,
}

/// One walk from padded `start` on a fresh degree array, recording the path in `path` (cleared).
#[inline(never)]
pub(crate) fn walk_with_path<C: Chooser>(
    layout: &Layout,
    deg: &mut [u8],
    start: usize,
    ch: &C,
    run: &mut C::Run,
    path: &mut Vec<u32>,
) -> Walk {
    let squares = layout.board().len() as usize;
    let stride = layout.stride() as isize;
    check_entry(layout, deg, start, ch);
    path.clear();
    path.reserve(squares);
    deg[start] = BORDER;
    path.push(start as u32);
    ch.arrive(run, start);
    let (mut head, mut ties) = (start, 0u64);
    while let Some((next, tied)) = step(deg, stride, head, 0, ch, run) {
        ties += u64::from(tied);
        head = next;
        path.push(next as u32);
        ch.arrive(run, next);
    }
    Walk {
        visited: path.len() as u32,
        ties,
        head,
    }
}

/// The degrees of the empty board. Small boards keep one padded copy (a single `memcpy` per run,
/// which matters on 8x8 where a run is 64 steps); large ones are written row by row from a handful of
/// row templates, so that a sweep worker's memory stays at about one byte per square and lane.
#[derive(Clone, Debug, Default)]
pub(crate) struct EmptyBoard {
    board: Option<Board>,
    stride: usize,
    /// The whole padded board, for boards of at most [`EmptyBoard::FULL_COPY`] padded squares.
    full: Vec<u8>,
    /// Templates for (rows from the top edge, rows from the bottom edge) capped at 2: 9 at most.
    rows: Vec<(u8, u8, Vec<u8>)>,
}

impl EmptyBoard {
    /// Largest padded board kept as one copy (64 KiB: a 250x250 board).
    const FULL_COPY: usize = 1 << 16;

    fn prepare(&mut self, layout: &Layout) {
        if self.board == Some(layout.board()) {
            return;
        }
        let board = layout.board();
        self.board = Some(board);
        self.stride = layout.stride();
        self.rows.clear();
        self.full.clear();
        if layout.len() <= Self::FULL_COPY {
            layout.initial_degrees(&mut self.full);
            return;
        }
        let n = board.rows();
        for r in 0..n {
            let key = (r.min(2) as u8, (n - 1 - r).min(2) as u8);
            if self.rows.iter().any(|t| (t.0, t.1) == key) {
                continue;
            }
            let mut row = vec![BORDER; self.stride];
            for c in 0..board.cols() {
                let sq = crate::board::Square::new(r as u16, c as u16);
                row[c as usize + 2] = board.neighbours(sq).count() as u8;
            }
            self.rows.push((key.0, key.1, row));
        }
    }

    /// Fill `deg` (length `layout.len()`) with the empty board's degrees.
    pub(crate) fn fill(&mut self, layout: &Layout, deg: &mut [u8]) {
        self.prepare(layout);
        if !self.full.is_empty() {
            deg.copy_from_slice(&self.full);
            return;
        }
        let n = layout.board().rows();
        let s = self.stride;
        deg[..2 * s].fill(BORDER);
        deg[(n as usize + 2) * s..].fill(BORDER);
        for r in 0..n {
            let key = (r.min(2) as u8, (n - 1 - r).min(2) as u8);
            let t = &self
                .rows
                .iter()
                .find(|t| (t.0, t.1) == key)
                .expect("prepared")
                .2;
            let at = (r as usize + 2) * s;
            deg[at..at + s].copy_from_slice(t);
        }
    }
}

/// One run handed to [`run_lanes`].
pub(crate) struct LaneJob<R> {
    /// Padded start square.
    pub start: usize,
    /// The rule's per-run state.
    pub run: R,
}

/// Most runs interleaved in one thread (eight measured no better than four).
pub(crate) const MAX_LANES: usize = 4;
const _: () = assert!(
    MAX_LANES <= 4,
    "`rounds` is written out for four lanes at most"
);

/// A run in progress: `head` indexes the shared buffer, in the board that starts at `base`.
struct Lane<R> {
    head: usize,
    base: usize,
    /// The round of its first step: it has visited `round - born + 1` squares at the start of a
    /// round, since every live lane steps once a round.
    born: u64,
    ties: u64,
    job: usize,
    run: R,
}

/// Walk `jobs` (all on `layout`'s board; each tagged with the caller's index) interleaved `lanes` at
/// a time, each in its own board of `buf`, all sharing the chooser's tables; calls `done(index, walk,
/// run state)` as each one ends (not in order). No paths are kept.
pub(crate) fn run_lanes<C: Chooser>(
    layout: &Layout,
    empty: &mut EmptyBoard,
    buf: &mut Vec<u8>,
    lanes: usize,
    ch: &C,
    jobs: impl IntoIterator<Item = (usize, LaneJob<C::Run>)>,
    mut done: impl FnMut(usize, Walk, C::Run),
) {
    let padded = layout.len();
    let stride = layout.stride() as isize;
    let width = lanes.clamp(1, MAX_LANES);
    buf.clear();
    buf.resize(width * padded, BORDER);
    let mut jobs = jobs.into_iter();
    let mut start_lane =
        |buf: &mut [u8], base: usize, born: u64, (job, j): (usize, LaneJob<C::Run>)| {
            let board = &mut buf[base..base + padded];
            empty.fill(layout, board);
            check_entry(layout, board, j.start, ch);
            board[j.start] = BORDER;
            let mut run = j.run;
            ch.arrive(&mut run, j.start);
            Lane {
                head: base + j.start,
                base,
                born,
                ties: 0,
                job,
                run,
            }
        };
    let mut live: Vec<Lane<C::Run>> = Vec::with_capacity(width);
    for slot in 0..width {
        match jobs.next() {
            Some(j) => live.push(start_lane(buf, slot * padded, 0, j)),
            None => break,
        }
    }
    let mut round = 0u64;
    while !live.is_empty() {
        let ended = match live.len() {
            1 => rounds::<1, C>(buf, stride, ch, &mut live, &mut round),
            2 => rounds::<2, C>(buf, stride, ch, &mut live, &mut round),
            3 => rounds::<3, C>(buf, stride, ch, &mut live, &mut round),
            _ => rounds::<4, C>(buf, stride, ch, &mut live, &mut round),
        };
        // The lanes in `ended` ended in this round, every other lane stepped in it; from the last,
        // so that `swap_remove` only moves lanes already seen.
        for i in (0..live.len()).rev().filter(|&i| ended & 1 << i != 0) {
            let visited = (round - live[i].born + 1) as u32;
            let base = live[i].base;
            let finished = match jobs.next() {
                Some(j) => std::mem::replace(&mut live[i], start_lane(buf, base, round + 1, j)),
                None => live.swap_remove(i),
            };
            let walk = Walk {
                visited,
                ties: finished.ties,
                head: finished.head - finished.base,
            };
            done(finished.job, walk, finished.run);
        }
        round += 1;
    }
}

/// Step all `L` live lanes once a round until a round in which some end; returns those lanes (a bit
/// each), with `round` the round they ended in. Each round first surveys every lane (the degree
/// loads and decrements), then advances every lane: a mispredicted tie branch of one lane then
/// throws away only the cheap second halves of the lanes after it, not their surveys.
///
/// The heads and tie counts live in local arrays indexed by constants, so they stay in registers
/// for the whole loop: this is where a sweep spends its time.
#[inline(never)]
fn rounds<const L: usize, C: Chooser>(
    deg: &mut [u8],
    stride: isize,
    ch: &C,
    live: &mut [Lane<C::Run>],
    round: &mut u64,
) -> u32 {
    let live: &mut [Lane<C::Run>; L] = live.try_into().expect("L live lanes");
    let mut head: [usize; L] = std::array::from_fn(|i| live[i].head);
    let base: [usize; L] = std::array::from_fn(|i| live[i].base);
    let mut ties: [u64; L] = std::array::from_fn(|i| live[i].ties);
    let mut r = *round;
    let mut mask = [0u64; L];
    // Each phase written out per lane (not a loop) so every index is a constant.
    macro_rules! survey {
        ($i:literal) => {
            if $i < L {
                mask[$i] = survey(deg, stride, head[$i], ch);
            }
        };
    }
    macro_rules! advance {
        ($i:literal, $ended:ident) => {
            if $i < L {
                match advance(deg, head[$i], base[$i], ch, &mut live[$i].run, mask[$i]) {
                    Some((next, tied)) => {
                        head[$i] = next;
                        ties[$i] += u64::from(tied);
                        ch.arrive(&mut live[$i].run, next - base[$i]);
                    }
                    None => $ended |= 1 << $i,
                }
            }
        };
    }
    let ended = loop {
        survey!(0);
        survey!(1);
        survey!(2);
        survey!(3);
        let mut ended = 0u32;
        advance!(0, ended);
        advance!(1, ended);
        advance!(2, ended);
        advance!(3, ended);
        if ended != 0 {
            break ended;
        }
        r += 1;
    };
    for (i, lane) in live.iter_mut().enumerate() {
        lane.head = head[i];
        lane.ties = ties[i];
    }
    *round = r;
    ended
}

/// Whether `layout`'s board is *large*: four lanes' degree arrays would not stay small (cache
/// resident, 1 MiB together at most), so memory rather than throughput decides how it is walked.
pub(crate) fn is_large(layout: &Layout) -> bool {
    const SMALL: usize = 1 << 20;
    MAX_LANES * layout.len() > SMALL
}

/// How many runs to interleave on `board`: four on boards that are not large ([`is_large`]), else as
/// many as fit in `bytes_per_square` of the board (a lane is its padded degree array), at least one.
/// Sweeps default to 2 ([`crate::solve::DEFAULT_LANE_MEMORY`], the memory target of a worker): one
/// lane on 1000x1000, where two would need 2.016.
pub(crate) fn lanes_for(layout: &Layout, bytes_per_square: f64) -> usize {
    if is_large(layout) {
        let fit = bytes_per_square * layout.board().len() as f64 / layout.len() as f64;
        (fit as usize).clamp(1, MAX_LANES)
    } else {
        MAX_LANES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pohl_sum_is_the_sum_of_free_neighbour_degrees() {
        use crate::search::SearchState;
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
                            .filter(|&d| d <= crate::search::MAX_DEGREE)
                            .map(u32::from)
                            .sum();
                        let got = pohl_sum(s.degrees(), q, s.layout().stride());
                        assert_eq!(got, want, "{board} at {q}");
                    }
                }
            }
        }
    }

    #[test]
    fn degree_bits_mark_only_free_degrees() {
        for (d, &b) in DEGREE_BIT.iter().enumerate() {
            if (1..=8).contains(&d) {
                assert_eq!(b.trailing_zeros() as usize, 8 * (d - 1));
                assert_eq!(b.count_ones(), 1);
            } else {
                assert_eq!(b, 0, "{d}");
            }
        }
        // border and visited squares stay above 8 after up to eight decrements
        const { assert!(BORDER - 8 > 8) };
    }

    #[test]
    fn label_offsets_are_the_layouts() {
        for (r, c) in [(5, 5), (3, 11), (100, 7)] {
            let layout = Layout::new(Board::new(r, c).unwrap());
            assert_eq!(&label_offsets(layout.stride() as isize), layout.offsets());
        }
    }

    #[test]
    fn order_bits_put_the_scan_order_in_lanes() {
        let order: LabelOrder = "36875124".parse().unwrap();
        let bits = order_bits(order);
        for (lane, &k) in order.labels().iter().enumerate() {
            assert_eq!(bits[k as usize][3], 1 << (16 + lane));
            assert_eq!(bits[k as usize][0], 0);
            assert_eq!(bits[k as usize][0xF0], 0);
        }
        let id = order_bits(LabelOrder::IDENTITY);
        assert_eq!(*id, IDENTITY_BITS);
        // rewritten in place from another order's table
        let mut t = order_bits("87654321".parse().unwrap());
        set_order_bits(&mut t, order);
        assert_eq!(t, bits);
    }

    #[test]
    fn empty_board_matches_the_layout() {
        let mut e = EmptyBoard::default();
        for (r, c) in [
            (1, 1),
            (3, 4),
            (5, 5),
            (8, 8),
            (13, 7),
            (2, 9),
            (300, 251),
            (257, 300),
        ] {
            let layout = Layout::new(Board::new(r, c).unwrap());
            let mut want = Vec::new();
            layout.initial_degrees(&mut want);
            let mut got = vec![0u8; layout.len()];
            e.fill(&layout, &mut got);
            assert_eq!(got, want, "{r}x{c}");
        }
    }

    #[test]
    #[should_panic(expected = "tables of another board")]
    fn distance_tables_refuse_a_board_of_the_same_padded_size() {
        let wide = Layout::new(Board::new(10, 12).unwrap());
        let tall = Layout::new(Board::new(12, 10).unwrap());
        assert_eq!(wide.len(), tall.len());
        let tables = GeometryTables::new(&wide, Rule::Roth).unwrap();
        let _ = tables.chooser(&tall);
    }

    #[test]
    fn packed_classes_read_back_what_was_packed() {
        // every value of 6 and of 8 bits, in every bit position modulo 8, and at both ends
        for (classes, width) in [(35, 6), (64, 6), (65, 8), (256, 8)] {
            let class: Vec<u8> = (0..1000u32)
                .map(|i| ((i * 37 + i / 7) % classes) as u8)
                .collect();
            let packed = PackedClasses::new(&class, classes as usize);
            assert_eq!(packed.width, width);
            assert_eq!(ClassTable::len(&packed), class.len());
            for (square, &c) in class.iter().enumerate() {
                assert_eq!(
                    packed.class(square),
                    usize::from(c),
                    "{classes} classes, {square}"
                );
            }
        }
    }

    #[test]
    fn large_boards_pack_their_classes_and_small_ones_do_not() {
        for (n, packed) in [(100u64, false), (508, false), (509, true), (1000, true)] {
            let layout = Layout::new(Board::square(n).unwrap());
            assert_eq!(is_large(&layout), packed, "{n}");
            let t = GeometryTables::new(&layout, Rule::Roth).unwrap();
            assert_eq!(matches!(t.class, Classes::Packed(_)), packed, "{n}");
            let (target, scan) = TieBreaker::distance_target(Rule::Roth, layout.board()).unwrap();
            let (bytes, _) = preference_classes(&layout, target, scan).unwrap();
            let chooser = t.chooser(&layout);
            for square in (0..layout.len()).step_by(97) {
                let got = match &chooser {
                    GeometryChooser::Bytes(g) => g.class.class(square),
                    GeometryChooser::Packed(g) => g.class.class(square),
                };
                assert_eq!(got, usize::from(bytes[square]), "{n} {square}");
            }
        }
    }

    #[test]
    fn distance_rules_have_few_classes() {
        for n in [5u64, 8, 40, 101] {
            let layout = Layout::new(Board::square(n).unwrap());
            for rule in [Rule::Roth, Rule::RothOriginal, Rule::Center] {
                let t = GeometryTables::new(&layout, rule).unwrap();
                assert!(t.classes() <= 64, "{n} {rule}: {}", t.classes());
            }
        }
    }
}
