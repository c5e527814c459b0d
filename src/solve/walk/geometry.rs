//! The distance rules' chooser (`roth`, `roth-original`, `center`; Roth 1992 as defined in
//! `docs/REFERENCE.md`): their key depends only on where a candidate lies, so each square has one
//! fixed preference order of its eight moves, its *class*, and a tie is one table lookup. The tables
//! are built once per board and rule and shared by every solver of the process
//! ([`geometry_tables`]).

use super::chooser::Chooser;
use super::interleave::is_large;
use crate::board::{Board, Layout};
use crate::solve::rules::{preference_classes, TieBreaker};
use crate::solve::Rule;
use std::sync::{Arc, Mutex, Weak};

/// `roth`, `roth-original`, `center`: the key depends only on where the candidate is, so every square
/// gets a *class*, the order in which it prefers its eight moves (by distance key, then scan order), and
/// `pick[class << 8 | tied]` is the offset of the preferred slot among `tied` (an offset rather than a
/// slot: one dependent load fewer on the walk's critical path). Slots are in label order. `T` is the
/// class table: a byte per square, or [`PackedClasses`] on large boards.
#[derive(Debug)]
pub(crate) struct Geometry<'a, T: ?Sized> {
    offsets: [isize; 8],
    class: &'a T,
    pick: &'a [i32],
}

impl<T: ClassTable + ?Sized> Chooser for Geometry<'_, T> {
    type Run = ();
    fn start_run(_: Option<&mut TieBreaker>) {}
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
        // board, checked when the chooser is made; each walk's array has that layout's length,
        // checked when its run starts). The debug assertion checks it in tests.
        usize::from(unsafe { *self.get_unchecked(square) })
    }
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
}

/// A class per padded square packed in `width` bits: 6 while there are at most 64 classes (a few
/// dozen on real boards), else 8. Large boards use it, where a worker walks one walk at a time: there it
/// keeps the worker at 1.008 (degrees) + 0.756 (classes) bytes per square on one thread, under the
/// memory target's 2, where a byte per class made 2.016; and the walk is latency-bound, so the
/// unpacking (a multiply, a load and a shift, beside the survey: the class depends only on the head)
/// costs no time. Small boards keep bytes: four interleaved walks are throughput-bound, and the
/// unpacking shows there (`benches/README.md`).
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
/// point: a few dozen).
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

/// The distance-rule tables for `layout`'s board and `rule`, cached in the solver. They are read-only
/// and take 6 bits per square on a large board ([`PackedClasses`]), most of what an interleaved
/// walk's degrees take, so the process keeps one copy per board and rule for all its solvers: the
/// workers of a sweep share it, and a worker's own memory stays one byte per square and walk.
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
            let t = GeometryTables::new(&layout, Rule::ROTH).unwrap();
            assert_eq!(matches!(t.class, Classes::Packed(_)), packed, "{n}");
            let (target, scan) = TieBreaker::distance_target(Rule::ROTH, layout.board()).unwrap();
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
