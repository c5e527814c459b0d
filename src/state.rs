//! The search state shared by every solver: an incrementally updated degree array whose sentinel
//! values double as the visited set, and the path, with make/unmake in O(8).
//!
//! There is no separate visited bitset: an on-board square is visited exactly when its degree byte
//! holds a sentinel (`> MAX_DEGREE`). `benches/representation.rs` measures that choice against a
//! `bitvec` and a `u64` bitboard kept beside the degrees (the sentinel costs nothing extra; the others
//! add a store per move). The from-scratch check ([`SearchState::check_invariants`]) takes the visited
//! set from the path, so it stays independent of the array it checks.
//!
//! ADVICE FOR HACKERS: the invariant is that for every unvisited on-board square `p`, `degree[p]` is the
//! number of unvisited on-board knight neighbours of `p`, and every other square (border, visited) holds
//! a value `>= BORDER - 8`, so `degree[p] <= 8` is exactly "p is a free square". `make` and `unmake`
//! update all eight neighbours without branching; border and visited squares absorb at most eight
//! decrements each, which is why `BORDER` sits well above 16. `unmake` restores the degree the square had
//! when it was made (saved on a parallel stack), never recounting it. Tests check the array against a
//! from-scratch recount after random make/unmake sequences.

use crate::board::{Board, Layout, Square, BORDER};

/// Largest degree a free square can have; anything above is border or visited.
pub const MAX_DEGREE: u8 = 8;

/// `CANDIDATE_BIT[d]` = `1 << 8 * d` for a free square's degree `d` in 0..=7 (a neighbour of a square
/// just visited has at most seven free neighbours left), 0 for every other byte: border and visited
/// squares hold values above `BORDER - 8` and are never candidates.
static CANDIDATE_BIT: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut d = 0;
    while d < 8 {
        t[d] = 1 << (8 * d);
        d += 1;
    }
    t
};

/// The knight offsets of one layout, permuted into a scan order; see [`SearchState::make_ordered`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlotOffsets {
    offsets: [isize; 8],
    stride: usize,
}

impl SlotOffsets {
    /// The padded offset of slot `slot` (0..8).
    #[inline(always)]
    pub(crate) fn offset(&self, slot: usize) -> isize {
        self.offsets[slot & 7]
    }
}

/// Degrees (visited squares as sentinels) and path for one board, reusable across runs without
/// reallocating.
#[derive(Clone, Debug)]
pub struct SearchState {
    layout: Layout,
    /// Degrees of the empty board, copied in at every reset (memcpy instead of recounting).
    empty_degrees: Vec<u8>,
    degree: Vec<u8>,
    path: Vec<u32>,
    saved_degree: Vec<u8>,
}

impl SearchState {
    /// A state for `board`, empty. Fails only if the padded board does not fit in `u32` indexes.
    pub fn new(board: Board) -> Self {
        let layout = Layout::new(board);
        let mut empty_degrees = Vec::new();
        layout.initial_degrees(&mut empty_degrees);
        let mut s = SearchState {
            layout,
            degree: Vec::new(),
            path: Vec::new(),
            saved_degree: Vec::new(),
            empty_degrees,
        };
        s.clear();
        s
    }

    /// Prepare for a new run on `board`, reusing allocations (and the empty-board degrees when the
    /// board is unchanged).
    pub fn reset(&mut self, board: Board) {
        if self.layout.board() != board {
            self.layout = Layout::new(board);
            self.layout.initial_degrees(&mut self.empty_degrees);
        }
        self.clear();
    }

    fn clear(&mut self) {
        self.degree.clear();
        self.degree.extend_from_slice(&self.empty_degrees);
        self.path.clear();
        self.saved_degree.clear();
    }

    /// The padded layout.
    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> Board {
        self.layout.board()
    }

    /// Degree of padded square `p`: its number of free neighbours if `p` is free, else `> MAX_DEGREE`.
    #[inline(always)]
    pub fn degree(&self, p: usize) -> u8 {
        self.degree[p]
    }

    /// The raw degree array (padded indexes).
    #[inline]
    pub fn degrees(&self) -> &[u8] {
        &self.degree
    }

    /// Whether padded square `p` is an unvisited on-board square.
    #[inline(always)]
    pub fn is_free(&self, p: usize) -> bool {
        self.degree[p] <= MAX_DEGREE
    }

    /// Whether padded square `p` is an on-board square that has been visited.
    #[inline]
    pub fn is_visited(&self, p: usize) -> bool {
        self.degree[p] > MAX_DEGREE && self.layout.is_on_board(p)
    }

    /// Squares visited so far.
    #[inline(always)]
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// The last square visited (padded index). Panics on an empty path.
    #[inline(always)]
    pub fn head(&self) -> usize {
        self.path[self.path.len() - 1] as usize
    }

    /// The first square visited (padded index). Panics on an empty path.
    #[inline]
    pub fn first(&self) -> usize {
        self.path[0] as usize
    }

    /// The path as padded indexes.
    #[inline]
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// The path as squares (allocates).
    pub fn path_squares(&self) -> Vec<Square> {
        self.path
            .iter()
            .map(|&p| self.layout.unpad(p as usize))
            .collect()
    }

    /// Whether every knight neighbour of padded index `p` lies inside the degree array (true for
    /// every on-board square: the border is two squares wide). Two compares, kept in release builds
    /// because the unchecked neighbour accesses below rely on it.
    #[inline(always)]
    fn neighbours_inside(&self, p: usize) -> bool {
        let margin = 2 * self.layout.stride() + 2;
        p >= margin && p + margin < self.degree.len()
    }

    /// The degrees of the eight knight neighbours of `p`, in label order. Panics unless `p` is at
    /// least two squares inside the padded array (every on-board square is).
    #[inline(always)]
    pub fn neighbour_degrees(&self, p: usize) -> [u8; 8] {
        assert!(
            self.neighbours_inside(p),
            "square {p} has neighbours outside the array"
        );
        let mut d = [0u8; 8];
        for (slot, o) in d.iter_mut().zip(self.layout.knight_offsets()) {
            // SAFETY: `neighbours_inside(p)` (asserted above) puts `p + o` inside the array for every
            // knight offset `o`, whose row part is at most two strides and column part two squares.
            *slot = unsafe { *self.degree.get_unchecked(p.wrapping_add_signed(o)) };
        }
        d
    }

    /// Add `delta` (wrapping) to the degrees of the eight knight neighbours of `p`, which must be an
    /// on-board square (callers guarantee it; checked in debug builds).
    #[inline(always)]
    fn add_to_neighbours(&mut self, p: usize, delta: u8) {
        debug_assert!(self.layout.is_on_board(p) && self.neighbours_inside(p));
        let offsets = self.layout.knight_offsets();
        let degree = &mut self.degree[..];
        for o in offsets {
            // SAFETY: `p` is on the board (see the callers), so as in `neighbour_degrees` every
            // `p + o` is inside the array.
            let slot = unsafe { degree.get_unchecked_mut(p.wrapping_add_signed(o)) };
            *slot = slot.wrapping_add(delta);
        }
    }

    /// Count the visited square `p` as free in its neighbours' degrees again, without leaving it
    /// (the start of a start-last walk, entered only at the end). The degrees then no longer match
    /// the path, so [`SearchState::check_invariants`] fails until the next reset; pure Warnsdorff
    /// never unmakes, so nothing else reads the difference. Border bytes sit at `BORDER` = 0xF0 and
    /// move by at most 8, so one more step up stays far from wrapping.
    pub fn count_as_free_in_degrees(&mut self, p: usize) {
        assert!(
            self.is_visited(p),
            "only a visited square is counted free again"
        );
        self.add_to_neighbours(p, 1);
    }

    /// Visit the free square `p`. Panics if `p` is not free.
    #[inline(always)]
    pub fn make(&mut self, p: usize) {
        let d = std::mem::replace(&mut self.degree[p], BORDER);
        // Only on-board squares ever hold a degree <= MAX_DEGREE (the invariant), so this check
        // is what makes the unchecked neighbour updates sound.
        assert!(d <= MAX_DEGREE, "make on a square that is not free");
        self.saved_degree.push(d);
        self.path.push(p as u32);
        self.add_to_neighbours(p, 1u8.wrapping_neg());
    }

    /// The knight offsets of this layout in the slot order `order` (slot `i` = label `order[i]`), for
    /// [`SearchState::make_ordered`].
    pub(crate) fn slot_offsets(&self, order: &[u8; 8]) -> SlotOffsets {
        let all = self.layout.knight_offsets();
        SlotOffsets {
            offsets: order.map(|k| all[k as usize]),
            stride: self.layout.stride(),
        }
    }

    /// [`SearchState::make`] fused with ordering the new head's candidates: visits the free square `p`
    /// and returns its *candidate mask*, bit `8 * d + slot` set for each free neighbour of `p` in slot
    /// `slot` of `slots` whose degree is now `d` (0..=7: it just lost `p`). The lowest set bit is the
    /// candidate of least degree, first in slot order among equals; the low byte lists the neighbours
    /// left stranded (degree 0). Panics if `p` is not free or `slots` belongs to another layout.
    #[inline(always)]
    pub(crate) fn make_ordered(&mut self, p: usize, slots: &SlotOffsets) -> u64 {
        assert_eq!(
            slots.stride,
            self.layout.stride(),
            "slots of another layout"
        );
        let d = std::mem::replace(&mut self.degree[p], BORDER);
        // As in `make`: only on-board squares hold a degree <= MAX_DEGREE, which makes the
        // unchecked neighbour accesses below sound.
        assert!(d <= MAX_DEGREE, "make on a square that is not free");
        debug_assert!(self.layout.is_on_board(p) && self.neighbours_inside(p));
        self.saved_degree.push(d);
        self.path.push(p as u32);
        let degree = &mut self.degree[..];
        let mut mask = 0u64;
        for (slot, &o) in slots.offsets.iter().enumerate() {
            // SAFETY: `p` is on the board (asserted above) and `o` is a knight offset of this layout
            // (`slots` was built from a layout with the same stride, asserted above), so `p + o` is
            // inside the array, as in `add_to_neighbours`.
            let byte = unsafe { degree.get_unchecked_mut(p.wrapping_add_signed(o)) };
            let now = byte.wrapping_sub(1);
            *byte = now;
            mask |= CANDIDATE_BIT[now as usize] << slot;
        }
        mask
    }

    /// Undo the last `make`; returns the square left.
    #[inline(always)]
    pub fn unmake(&mut self) -> usize {
        let p = self.path.pop().expect("unmake on an empty path") as usize;
        // `p` came off the path, which holds only squares that were free (on-board) when made.
        self.add_to_neighbours(p, 1);
        debug_assert_eq!(self.degree[p], BORDER, "later moves were not all unmade");
        self.degree[p] = self.saved_degree.pop().expect("saved degree stack in step");
        p
    }

    /// Replace the path by a reordering of the same squares (a Pósa rotation closing a tour), keeping
    /// every invariant: the saved degrees are recomputed for the new order, so `unmake` stays exact.
    pub fn reorder_path(&mut self, squares: &[Square]) {
        assert_eq!(
            squares.len(),
            self.path.len(),
            "a reordering keeps the squares"
        );
        let mut position = vec![u32::MAX; self.layout.len()];
        for (i, &sq) in squares.iter().enumerate() {
            let p = self.layout.pad(sq);
            assert!(self.is_visited(p), "a reordering keeps the squares");
            position[p] = i as u32;
        }
        for (i, &sq) in squares.iter().enumerate() {
            let p = self.layout.pad(sq);
            self.path[i] = p as u32;
            let (mut later, mut free) = (0u8, 0u8);
            for &o in self.layout.offsets() {
                let q = (p as isize + o) as usize;
                if !self.layout.is_on_board(q) {
                    continue;
                }
                match position[q] {
                    u32::MAX => free += 1,
                    at if at > i as u32 => later += 1,
                    _ => {}
                }
            }
            // when made, its free neighbours were those still free and those visited after it; since
            // then each later visit took one off its sentinel
            self.saved_degree[i] = later + free;
            self.degree[p] = BORDER - later;
        }
    }

    /// The degree of `p` recounted from scratch, the visited set taken from the path: the slow
    /// reference for tests ([`BORDER`] for border and visited squares).
    pub fn recount_degree(&self, p: usize) -> u8 {
        self.recount_with(&self.visited_from_path(), p)
    }

    fn visited_from_path(&self) -> Vec<bool> {
        let mut visited = vec![false; self.layout.len()];
        for &q in &self.path {
            visited[q as usize] = true;
        }
        visited
    }

    fn recount_with(&self, visited: &[bool], p: usize) -> u8 {
        if !self.layout.is_on_board(p) || visited[p] {
            return BORDER;
        }
        self.layout
            .offsets()
            .iter()
            .map(|&o| (p as isize + o) as usize)
            .filter(|&q| self.layout.is_on_board(q) && !visited[q])
            .count() as u8
    }

    /// Check the whole degree array against a recount (tests and debug assertions).
    pub fn check_invariants(&self) -> Result<(), String> {
        let visited = self.visited_from_path();
        for p in 0..self.layout.len() {
            let fast = self.degree[p];
            let slow = self.recount_with(&visited, p);
            let free = self.layout.is_on_board(p) && !visited[p];
            if free && fast != slow {
                return Err(format!("degree[{p}] = {fast}, recount {slow}"));
            }
            if !free && fast <= MAX_DEGREE {
                return Err(format!(
                    "square {p} is not free but has degree {fast} <= {MAX_DEGREE}"
                ));
            }
        }
        Ok(())
    }

    /// The degree array and the path, for the fast Warnsdorff kernel, which writes them exactly as a
    /// sequence of [`SearchState::make`] calls would, except that it keeps no saved degrees: a state
    /// left by the kernel is not unmade (pure Warnsdorff never backtracks), only reset.
    pub(crate) fn kernel_parts(&mut self) -> (&mut [u8], &mut Vec<u32>) {
        self.saved_degree.clear();
        (&mut self.degree, &mut self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn degrees_match_a_recount_after_random_make_unmake(
            rows in 1u64..9, cols in 1u64..9, ops in proptest::collection::vec(0u8..12, 1..80)
        ) {
            let board = Board::new(rows, cols).unwrap();
            let mut s = SearchState::new(board);
            let start = s.layout().pad(Square::new(0, 0));
            s.make(start);
            for op in ops {
                if op < 8 || s.depth() == 0 {
                    // move along label `op % 8` from the head if free, else to any free square
                    let target = if s.depth() > 0 {
                        let q = s.layout().step(s.head(), (op % 8) as usize);
                        if s.is_free(q) { Some(q) } else { None }
                    } else { None };
                    let target = target.or_else(|| (0..s.layout().len()).find(|&q| s.is_free(q)));
                    if let Some(q) = target { s.make(q); }
                } else {
                    s.unmake();
                }
                prop_assert_eq!(s.check_invariants(), Ok(()));
            }
            while s.depth() > 0 { s.unmake(); }
            let fresh = SearchState::new(board);
            prop_assert_eq!(s.degrees(), fresh.degrees());
        }
    }

    #[test]
    fn make_ordered_is_make_plus_a_candidate_mask() {
        let b = Board::new(6, 7).unwrap();
        let order = [2u8, 7, 0, 5, 1, 6, 3, 4];
        let (mut slow, mut fast) = (SearchState::new(b), SearchState::new(b));
        let slots = fast.slot_offsets(&order);
        // a knight path, then back off it, checking the array and the mask at every square
        let path = [
            (0, 0),
            (1, 2),
            (2, 4),
            (0, 5),
            (2, 6),
            (4, 5),
            (5, 3),
            (3, 2),
            (1, 1),
            (3, 0),
        ];
        for (r, c) in path {
            let p = slow.layout().pad(Square::new(r, c));
            slow.make(p);
            let mask = fast.make_ordered(p, &slots);
            assert_eq!(slow.degrees(), fast.degrees());
            let d = slow.neighbour_degrees(p);
            let want: u64 = order
                .iter()
                .enumerate()
                .filter(|&(_, &k)| d[k as usize] <= MAX_DEGREE)
                .map(|(slot, &k)| 1 << (8 * d[k as usize] as usize + slot))
                .sum();
            assert_eq!(mask, want, "at {r},{c}");
            fast.check_invariants().unwrap();
        }
        while fast.depth() > 0 {
            fast.unmake();
            fast.check_invariants().unwrap();
        }
        assert_eq!(fast.degrees(), SearchState::new(b).degrees());
    }

    #[test]
    fn reordered_path_unmakes_exactly() {
        // a path and its reverse, both valid knight paths over the same squares
        let b = Board::new(3, 4).unwrap();
        let mut s = SearchState::new(b);
        let path = [
            (0, 0),
            (1, 2),
            (2, 0),
            (0, 1),
            (2, 2),
            (1, 0),
            (0, 2),
            (2, 3),
        ];
        for (r, c) in path {
            s.make(s.layout().pad(Square::new(r, c)));
        }
        let reversed: Vec<Square> = path.iter().rev().map(|&(r, c)| Square::new(r, c)).collect();
        s.reorder_path(&reversed);
        assert_eq!(s.path_squares(), reversed);
        while s.depth() > 0 {
            s.unmake();
            s.check_invariants().unwrap();
        }
        assert_eq!(s.degrees(), SearchState::new(b).degrees());
    }

    #[test]
    fn reset_reuses_and_restores() {
        let b = Board::new(6, 7).unwrap();
        let mut s = SearchState::new(b);
        s.make(s.layout().pad(Square::new(2, 3)));
        s.reset(b);
        assert_eq!(s.depth(), 0);
        s.check_invariants().unwrap();
        s.reset(Board::new(3, 3).unwrap());
        s.check_invariants().unwrap();
    }
}
