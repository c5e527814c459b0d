//! The distance rules' choosers (`roth`, `roth-original`, `roth-halfup`, `center`; Roth 1992 as
//! defined in `docs/REFERENCE.md`). Their key depends only on where a candidate lies, so a tie is
//! decided from the head's row and column alone: [`Distance`] computes it on real ties (the target's
//! linear form, no table, the same cost as `first` between ties), [`Geometry`] looks it up in a
//! per-square class table built once per board and rule and shared by every solver of the process
//! ([`geometry_tables`]). The table pays only where many runs of a board share it and interleave
//! (a branch-free step; [`tables_pay`]); a corner run, or any walk of a large board, takes
//! [`Distance`]: building the table cost more than the walk, and at n = 2000 its reads missed the
//! cache (`benches/README.md`).

use super::chooser::{scan_offsets, Chooser};
use super::interleave::is_large;
use super::mask::Bits;
use crate::board::{Board, Layout};
use crate::solve::rules::{preference_classes, DistanceTarget, LabelOrder, TieBreaker};
use crate::solve::Rule;
use std::sync::{Arc, Mutex, Weak};

/// Fewest runs of one board and rule in a batch group for which [`Geometry`]'s table pays: it
/// costs a few nanoseconds a padded square to build (once per process), and saves about 1.7 ns a
/// step against [`Distance`]'s tie branch where four walks interleave (`benches/README.md`).
pub(crate) const TABLE_RUNS: usize = 8;

/// Whether a group of `runs` runs of a distance rule on `layout`'s board takes [`Geometry`]'s
/// per-square table rather than [`Distance`]: never on a large board ([`is_large`], where walks go
/// one or two at a time and are latency-bound, and the table would take most of a byte a square).
pub(crate) fn tables_pay(layout: &Layout, runs: usize) -> bool {
    runs >= TABLE_RUNS && !is_large(layout)
}

/// `roth`, `roth-original`, `roth-halfup`, `center` with no per-square table: slots in the rule's
/// scan order (so a lone minimum is the lowest set bit, as for `first`), and on a real tie the tied
/// moves compared by the target's linear form ([`DistanceTarget::linear_form`]) from the head's row
/// and column, equal keys to the earlier slot: the order [`preference_classes`] sorts by.
#[derive(Clone, Debug)]
pub(crate) struct Distance<'a> {
    offsets: [isize; 8],
    bits: &'a Bits,
    /// Each slot's row and column step, times the form's sign: the larger `wr * u + wc * v` wins.
    wr: [i64; 8],
    wc: [i64; 8],
    /// The doubled target in padded coordinates: `u = 2 * (square / stride) - row2`.
    row2: i64,
    col2: i64,
    stride: usize,
}

impl<'a> Distance<'a> {
    /// The chooser of a distance rule aiming at `target` with ties in `scan` order on `layout`'s
    /// board; `bits` must be [`super::mask::order_bits`] of `scan`.
    pub(crate) fn new(
        layout: &Layout,
        target: DistanceTarget,
        scan: LabelOrder,
        bits: &'a Bits,
    ) -> Self {
        let (row2, col2, sign) = target.linear_form();
        // the padded row and column of square (0, 0)
        let origin = layout.pad(crate::board::Square::new(0, 0));
        let (pad_row, pad_col) = (
            (origin / layout.stride()) as i64,
            (origin % layout.stride()) as i64,
        );
        let delta = |slot: usize| crate::board::KNIGHT_DELTAS[scan.labels()[slot] as usize];
        Distance {
            offsets: scan_offsets(layout, scan),
            bits,
            wr: std::array::from_fn(|s| sign * i64::from(delta(s).0)),
            wc: std::array::from_fn(|s| sign * i64::from(delta(s).1)),
            row2: row2 + 2 * pad_row,
            col2: col2 + 2 * pad_col,
            stride: layout.stride(),
        }
    }

    /// The preferred slot among `tied` (at least two) from padded `square`.
    // cold: the common step (no tie) is then laid out straight through, as for `pohl`
    #[cold]
    #[inline(never)]
    fn tie(&self, square: usize, mut tied: u32) -> usize {
        let u = 2 * (square / self.stride) as i64 - self.row2;
        let v = 2 * (square % self.stride) as i64 - self.col2;
        let key = |s: usize| self.wr[s] * u + self.wc[s] * v;
        let mut best = tied.trailing_zeros() as usize & 7;
        let mut best_key = key(best);
        tied &= tied - 1;
        while tied != 0 {
            let s = tied.trailing_zeros() as usize & 7;
            tied &= tied - 1;
            let k = key(s);
            // strictly: an equal key keeps the earlier slot in scan order
            if k > best_key {
                (best, best_key) = (s, k);
            }
        }
        best
    }
}

impl Chooser for Distance<'_> {
    type Run = ();
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
    fn choose(&self, _: &mut (), _: &[u8], _: usize, square: usize, tz: u32, tied: u32) -> isize {
        // the tie test first: the distance only where it decides
        if tied & (tied - 1) == 0 {
            return self.offsets[(tz & 7) as usize];
        }
        self.offsets[self.tie(square, tied)]
    }
}

/// `roth`, `roth-original`, `roth-halfup`, `center` by table: every square gets a *class*, the
/// order in which it prefers its eight moves (by distance key, then scan order), and
/// `pick[class << 8 | tied]` is the offset of the preferred slot among `tied` (an offset rather than
/// a slot: one dependent load fewer on the walk's critical path). Slots are in label order.
#[derive(Debug)]
pub(crate) struct Geometry<'a> {
    offsets: [isize; 8],
    class: &'a [u8],
    pick: &'a [i32],
}

impl Chooser for Geometry<'_> {
    type Run = ();
    fn start_run(_: Option<&mut TieBreaker>) {}
    #[inline(always)]
    fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }
    #[inline(always)]
    fn choose(&self, _: &mut (), _: &[u8], _: usize, square: usize, _: u32, tied: u32) -> isize {
        debug_assert!(square < self.class.len());
        // SAFETY: `square` is a square of the padded layout the class table was built for (the
        // same board, checked when the chooser is made; each walk's array has that layout's
        // length, checked when its run starts). The debug assertion checks it in tests.
        let class = usize::from(unsafe { *self.class.get_unchecked(square) });
        // Branch-free: a lone minimum is its own pick in the table.
        let at = class << 8 | tied as usize;
        debug_assert!(at < self.pick.len() && tied < 256);
        // SAFETY: every class id stored is below `pick.len() >> 8` (built together) and `tied` is
        // one byte of the mask, so the index is in bounds; the debug assertion checks it in tests.
        // The offset read is one of this layout's knight offsets, which `step` relies on.
        (unsafe { *self.pick.get_unchecked(at) }) as isize
    }
}

/// Per-board tables for the distance rules: a class byte per padded square plus 1 KiB per class
/// (the classes are the sectors around the target point: a few dozen).
#[derive(Clone, Debug)]
pub(crate) struct GeometryTables {
    /// The board they were built for: `pick` holds padded offsets, right only for its stride.
    board: Board,
    class: Vec<u8>,
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
        Some(GeometryTables {
            board: layout.board(),
            class,
            pick,
        })
    }

    pub(crate) fn chooser(&self, layout: &Layout) -> Geometry<'_> {
        // the same board, not only the same length: 10x12 and 12x10 pad to the same size
        assert_eq!(self.board, layout.board(), "tables of another board");
        assert_eq!(self.class.len(), layout.len(), "tables of another board");
        Geometry {
            offsets: *layout.offsets(),
            class: &self.class,
            pick: &self.pick,
        }
    }

    /// Number of distinct preference orders.
    #[cfg(test)]
    fn classes(&self) -> usize {
        self.pick.len() >> 8
    }
}

/// The distance-rule tables for `layout`'s board and `rule`, cached in the solver. They are read-only
/// and take a byte per square, as much as a walk's degrees, so the process keeps one copy per board
/// and rule for all its solvers: the workers of a sweep share it.
pub(crate) fn geometry_tables<'a>(
    cache: &'a mut Option<(Board, Rule, Arc<GeometryTables>)>,
    layout: &Layout,
    rule: Rule,
) -> &'a GeometryTables {
    type Shared = Vec<((Board, Rule), Weak<GeometryTables>)>;
    static SHARED: Mutex<Shared> = Mutex::new(Vec::new());
    let key = (layout.board(), rule);
    if !matches!(cache, Some((b, r, _)) if (*b, *r) == key) {
        // a poisoned lock only means another solver panicked while building: the list is still sound
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        shared.retain(|(_, t)| t.strong_count() > 0);
        let found = shared
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, t)| t.upgrade());
        let tables = found.unwrap_or_else(|| {
            let t = GeometryTables::new(layout, rule).expect("a distance rule has tables");
            let t = Arc::new(t);
            shared.push((key, Arc::downgrade(&t)));
            t
        });
        *cache = Some((key.0, key.1, tables));
    }
    &cache.as_ref().expect("just filled").2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "tables of another board")]
    fn distance_tables_refuse_a_board_of_the_same_padded_size() {
        let wide = Layout::new(Board::new(10, 12).unwrap());
        let tall = Layout::new(Board::new(12, 10).unwrap());
        assert_eq!(wide.len(), tall.len());
        let tables = GeometryTables::new(&wide, Rule::ROTH).unwrap();
        let _ = tables.chooser(&tall);
    }

    #[test]
    fn tables_pay_only_for_many_runs_of_a_board_that_is_not_large() {
        for (n, large) in [(100u64, false), (508, false), (509, true), (1000, true)] {
            let layout = Layout::new(Board::square(n).unwrap());
            assert_eq!(is_large(&layout), large, "{n}");
            assert!(!tables_pay(&layout, 1), "{n}");
            assert!(!tables_pay(&layout, TABLE_RUNS - 1), "{n}");
            assert_eq!(tables_pay(&layout, TABLE_RUNS), !large, "{n}");
        }
    }

    #[test]
    fn distance_rules_have_few_classes() {
        for n in [5u64, 8, 40, 101] {
            let layout = Layout::new(Board::square(n).unwrap());
            for rule in [
                Rule::ROTH,
                Rule::RothOriginal,
                Rule::RothHalfUp,
                Rule::CENTER,
            ] {
                let t = GeometryTables::new(&layout, rule).unwrap();
                assert!(t.classes() <= 64, "{n} {rule}: {}", t.classes());
            }
        }
    }
}
