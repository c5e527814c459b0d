//! The transitions of the frontier count on packed states: adding a square with no edge, one edge or
//! two edges to earlier squares, finalizing the squares whose edges are all decided, pruning the
//! states that cannot complete, numbering the labels canonically and folding a row's end onto its
//! mirror image, each on the key itself, a cell-wise mask at a time (SWAR) where the byte cells of
//! `reference.rs` loop over the window. This is what the count runs; the test below holds it equal
//! to the reference on every state of several boards, successor by successor.
//!
//! Source: the transfer-matrix counting of Hamiltonian paths and cycles described in the module
//! documentation of `frontier` (after Knuth's frontier programs); its invariants are listed there
//! under ADVICE FOR HACKERS.

use super::cells::{Key, DONE, EMPTY, FIRST_LABEL, FRESH, TAIL};
use super::plan::{Step, CELLS};

/// What one way of adding a square leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Successor<K> {
    /// A complete tour (a cycle closed, or the last square ending an open path).
    Tour,
    /// A partial tour to carry on, as the next step's state.
    State(K),
}

/// The transitions of one step (adding square `i`), for states packed in `K`: cell `p` of a key
/// during the step is position `p` of the window, the new square at `w`.
pub(crate) struct Transitions<'a, K> {
    step: &'a Step,
    w: usize,
    closed: bool,
    last: bool,
    /// At the end of a row, the mirror that folds the states.
    mirror: Option<&'a [usize; CELLS]>,
    /// Cells `0..=w`: the window and the new square.
    all: K,
    /// Cells `0..w`: a next state's.
    next: K,
    /// Cells that may be terminals (ends of an open tour).
    terminal: K,
    pruning: Pruning<K>,
}

impl<'a, K: Key> Transitions<'a, K> {
    pub(crate) fn new(
        step: &'a Step,
        w: usize,
        closed: bool,
        last: bool,
        mirror: Option<&'a [usize; CELLS]>,
    ) -> Self {
        Transitions {
            step,
            w,
            closed,
            last,
            mirror,
            all: K::low_bits(|p| p <= w),
            next: K::low_bits(|p| p < w),
            terminal: K::low_bits(|p| p <= w && step.terminal_ok[p]),
            pruning: Pruning::new(step, w, closed),
        }
    }

    /// Every successor of `state` (the cells `0..w` of the window; the new square's cell `w` is 0,
    /// empty), in a fixed order: no edge, each one edge, each two edges. Returns the number of edge
    /// choices tried (the transitions the count reports).
    #[inline(always)]
    pub(crate) fn successors(&self, state: K, emit: &mut impl FnMut(Successor<K>)) -> u64 {
        let mut open = [0usize; 4];
        let mut m = 0;
        for &p in &self.step.back {
            if state.cell(p) != DONE {
                open[m] = p;
                m += 1;
            }
        }
        let open = &open[..m];
        self.settle(state, emit);
        for &j in open {
            self.settle(self.one_edge(state, j), emit);
        }
        for (a, &j) in open.iter().enumerate() {
            for &k in &open[a + 1..] {
                match self.two_edges(state, j, k) {
                    Edges::Dead => {}
                    Edges::Complete => emit(Successor::Tour),
                    Edges::Continue(x) => self.settle(x, emit),
                }
            }
        }
        (1 + m + m * m.saturating_sub(1) / 2) as u64
    }

    /// The new square takes one edge, to the cell at `j`: a new piece with an empty square, or the
    /// new end of the piece that ends at `j`.
    #[inline(always)]
    pub(crate) fn one_edge(&self, x: K, j: usize) -> K {
        match x.cell(j) {
            EMPTY => x.with(j, FRESH).with(self.w, FRESH),
            end => x.with(j, DONE).with(self.w, end),
        }
    }

    /// The new square takes edges to the cells at `j` and `k`, becoming an interior square.
    #[inline(always)]
    pub(crate) fn two_edges(&self, x: K, j: usize, k: usize) -> Edges<K> {
        let x = x.with(self.w, DONE);
        let (a, b) = (x.cell(j), x.cell(k));
        match (a, b) {
            (EMPTY, EMPTY) => Edges::Continue(x.with(j, FRESH).with(k, FRESH)),
            (EMPTY, end) | (end, EMPTY) => {
                let (e, o) = if a == EMPTY { (j, k) } else { (k, j) };
                Edges::Continue(x.with(e, end).with(o, DONE))
            }
            _ => {
                let x = x.with(j, DONE).with(k, DONE);
                match (a, b) {
                    (TAIL, TAIL) => self.complete_if(!self.closed, x),
                    (TAIL, label) | (label, TAIL) => Edges::Continue(self.relabel(x, label, TAIL)),
                    _ if a == b => self.complete_if(self.closed, x),
                    _ => Edges::Continue(self.relabel(x, b, a)),
                }
            }
        }
    }

    /// Joining two ends of one path completes a tour only at the last square, with every cell done.
    fn complete_if(&self, kind: bool, x: K) -> Edges<K> {
        if kind && self.last && x.cells_equal(DONE) & self.all == self.all {
            Edges::Complete
        } else {
            Edges::Dead
        }
    }

    /// The one remaining cell holding `from` set to `to`.
    #[inline(always)]
    fn relabel(&self, x: K, from: u8, to: u8) -> K {
        let at = x.cells_equal(from) & self.all;
        debug_assert!(at != K::default(), "a label's partner is in the window");
        x.with(at.lowest(), to)
    }

    /// What a state with its new square's edges chosen leads to: at the last square a tour or
    /// nothing; otherwise the squares whose edges are all decided are finalized, the state pruned,
    /// shifted by a cell, numbered canonically and, at a row's end, folded.
    #[inline(always)]
    pub(crate) fn settle(&self, x: K, emit: &mut impl FnMut(Successor<K>)) {
        if self.last {
            if !self.closed && self.is_path(x) {
                emit(Successor::Tour);
            }
            return;
        }
        let mut x = x;
        for &p in &self.step.finalize {
            match self.finalize(x, p) {
                Some(y) => x = y,
                None => return,
            }
        }
        if !self.pruning.admits(x) {
            return;
        }
        debug_assert_eq!(
            x.cell(0),
            DONE,
            "the square leaving the window is finalized"
        );
        let next = normalize(x >> 4, self.next);
        emit(Successor::State(match self.mirror {
            Some(mirror) => next.min(self.mirrored(next, mirror)),
            None => next,
        }));
    }

    /// Finalize the square at `p`, or `None` if the state dies: degree 0, a terminal whose piece's
    /// other end is a terminal too, or a third terminal.
    #[inline(always)]
    fn finalize(&self, x: K, p: usize) -> Option<K> {
        match x.cell(p) {
            DONE => Some(x),
            EMPTY | TAIL => None,
            label => {
                let tails = x.cells_equal(TAIL) & self.all;
                if self.closed || !self.step.terminal_ok[p] || tails.ones() >= 2 {
                    return None;
                }
                Some(self.relabel(x.with(p, DONE), label, TAIL))
            }
        }
    }

    /// After the last square: whether the cells are the end of a single open path (one `TAIL`, or
    /// the two ends of one label), ending on squares that may be terminals.
    fn is_path(&self, x: K) -> bool {
        let ends = self.all & !x.cells_equal(DONE);
        match ends.ones() {
            1 => x.cell(ends.lowest()) == TAIL && ends & self.terminal == ends,
            2 => {
                let (p, q) = (ends.lowest(), ends.without_lowest().lowest());
                let (a, b) = (x.cell(p), x.cell(q));
                a == b && a >= FIRST_LABEL && ends & self.terminal == ends
            }
            _ => false,
        }
    }

    /// The normalized state `y` (cells `0..w`) mirrored left-right and normalized again.
    fn mirrored(&self, y: K, mirror: &[usize; CELLS]) -> K {
        let m = (0..self.w).fold(K::default(), |m, k| {
            m | K::from(y.cell(mirror[k])) << (4 * k)
        });
        normalize(m, self.next)
    }
}

/// [`Transitions::two_edges`]' outcome.
pub(crate) enum Edges<K> {
    Dead,
    Complete,
    Continue(K),
}

/// The labels of the cells of `y` in `window` numbered 3, 4, ... in order of first appearance from
/// the newest cell (the highest) back: a piece at a time, both its ends (the two cells of its
/// label) renumbered at once. Where a map from old labels to new visited every label cell and
/// branched on whether its label was new (as often as not: a mispredicted branch a cell), this
/// visits each piece once, without that branch.
#[inline(always)]
fn normalize<K: Key>(y: K, window: K) -> K {
    let plain = y.cells_equal(EMPTY) | y.cells_equal(DONE) | y.cells_equal(TAIL);
    let mut labels = window & !plain;
    let mut next = FIRST_LABEL;
    let mut out = y;
    while labels != K::default() {
        let label = y.cell(labels.highest());
        // the piece's two ends, the newest first: a label is on the two ends of one piece
        let ends = y.cells_equal(label) & labels;
        debug_assert_eq!(ends.ones(), 2, "a label on two cells of {y:?}");
        out = out ^ (ends * K::from(label ^ next));
        labels = labels ^ ends;
        next += 1;
    }
    out
}

/// The slow twin of [`normalize`]: a map from old labels to new, one label cell at a time.
#[cfg(test)]
fn normalize_slowly<K: Key>(y: K, window: K) -> K {
    let plain = y.cells_equal(EMPTY) | y.cells_equal(DONE) | y.cells_equal(TAIL);
    let mut labels = window & !plain;
    let mut map = [0u8; 16];
    let mut next = FIRST_LABEL;
    let mut out = y;
    while labels != K::default() {
        let k = labels.highest();
        let label = y.cell(k);
        let slot = &mut map[label as usize];
        if *slot == 0 {
            *slot = next;
            next += 1;
        }
        out = out ^ K::from(label ^ *slot) << (4 * k);
        labels = labels ^ K::from(1) << (4 * k);
    }
    out
}

/// Whether every cell of a finalized state can still reach its degree (2 for closed tours and on
/// squares that cannot be terminals; else 1), with at most two terminals (the `TAIL` cells and the
/// empty cells with one undecided edge left): one step's condition as cell-wise masks over cells
/// `1..=w`.
struct Pruning<K> {
    /// Cells `1..=w`.
    window: K,
    /// Cells whose square has no edge left to decide: fatal if empty.
    none_left: K,
    /// Cells held to degree 2 with one edge left to decide: fatal if empty.
    one_left_strict: K,
    /// Cells held to degree 2 with no edge left: fatal if an end.
    none_left_strict: K,
    /// Cells that may be terminals with one edge left: a terminal if empty.
    one_left_terminal: K,
}

impl<K: Key> Pruning<K> {
    fn new(step: &Step, w: usize, closed: bool) -> Self {
        let inside = |p: usize| (1..=w).contains(&p);
        let strict = |p: usize| closed || !step.terminal_ok[p];
        let left = |p: usize| step.undecided[p];
        Pruning {
            window: K::low_bits(inside),
            none_left: K::low_bits(|p| inside(p) && left(p) == 0),
            one_left_strict: K::low_bits(|p| inside(p) && left(p) == 1 && strict(p)),
            none_left_strict: K::low_bits(|p| inside(p) && left(p) == 0 && strict(p)),
            one_left_terminal: K::low_bits(|p| inside(p) && left(p) == 1 && !strict(p)),
        }
    }

    #[inline(always)]
    fn admits(&self, x: K) -> bool {
        let empty = x.cells_equal(EMPTY) & self.window;
        let done = x.cells_equal(DONE);
        let tails = x.cells_equal(TAIL) & self.window;
        // an end: a TAIL or a label
        let end = self.window & !(empty | done);
        let fatal =
            (empty & (self.none_left | self.one_left_strict)) | (end & self.none_left_strict);
        let terminals = tails.ones() + (empty & self.one_left_terminal).ones();
        fatal == K::default() && terminals <= 2
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::Plan;
    use super::super::reference;
    use super::*;
    use std::collections::BTreeSet;

    /// Every state reachable on `rows x cols` (turned: `cols <= rows`), step by step until a step holds more than
    /// `cap` states: the packed successors equal the reference's, in order, with and without the
    /// mirror fold, and so do the choices tried.
    fn agree<K: Key>(rows: u32, cols: u32, closed: bool, cap: usize) -> usize {
        let plan = Plan::new(rows, cols);
        let w = plan.w;
        let mut checked = 0;
        for fold in [false, true] {
            let mut states: BTreeSet<K> = [K::pack(&[DONE; CELLS], 0, w)].into();
            for (i, step) in plan.steps.iter().enumerate() {
                let last = i + 1 == plan.n;
                let mirror = (fold && step.row_end).then_some(&plan.mirror);
                let fast = Transitions::new(step, w, closed, last, mirror);
                let mut next = BTreeSet::new();
                for &state in &states {
                    let (mut want, mut got) = (Vec::new(), Vec::new());
                    let tried =
                        reference::successors(state, step, w, closed, last, mirror, &mut |s| {
                            want.push(s)
                        });
                    assert_eq!(fast.successors(state, &mut |s| got.push(s)), tried);
                    assert_eq!(
                        got, want,
                        "{rows}x{cols} closed={closed} step {i} {state:?}"
                    );
                    checked += 1;
                    next.extend(got.into_iter().filter_map(|s| match s {
                        Successor::State(k) => Some(k),
                        Successor::Tour => None,
                    }));
                }
                if next.len() > cap {
                    break;
                }
                states = next;
            }
        }
        checked
    }

    /// Renumbering a piece at a time gives what the map of labels gives, on windows of paired
    /// labels in every order, with plain cells among them, on both keys.
    #[test]
    fn normalize_numbers_as_its_slow_twin() {
        fn check<K: Key>(cells: &[u8], w: usize) {
            let y = K::pack(cells, 0, w);
            let window = K::low_bits(|p| p < w);
            let fast = normalize(y, window);
            assert_eq!(fast, normalize_slowly(y, window), "{cells:?}");
            // numbered from the newest cell back: the first label met is 3
            let labels: Vec<u8> = (0..w)
                .rev()
                .map(|k| fast.cell(k))
                .filter(|&c| c >= 3)
                .collect();
            assert!(labels.is_empty() || labels[0] == FIRST_LABEL);
        }
        for seed in 0..3000u64 {
            let w = 5 + (seed % 13) as usize;
            // pieces with old labels 3..=10 and FRESH, their ends at pseudo-random cells
            let mut cells: Vec<u8> = (0..w as u64)
                .map(|k| [EMPTY, DONE, TAIL][((seed * 7 + k * 13) % 3) as usize])
                .collect();
            let mut order: Vec<usize> = (0..w).collect();
            let mut r = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for i in (1..w).rev() {
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                order.swap(i, (r % (i as u64 + 1)) as usize);
            }
            let pieces = (seed as usize / 7) % (w / 2 + 1);
            let names = [FRESH, 3, 4, 5, 6, 7, 8, 9, 10];
            for (p, pair) in order.chunks(2).take(pieces).enumerate() {
                if let [a, b] = pair {
                    let label = names[(p + seed as usize) % names.len()];
                    cells[*a] = label;
                    cells[*b] = label;
                }
            }
            // two pieces never share a label
            let mut seen = std::collections::BTreeMap::new();
            for &c in cells.iter().filter(|&&c| c >= 3) {
                *seen.entry(c).or_insert(0) += 1;
            }
            if seen.values().any(|&n| n != 2) {
                continue;
            }
            if w <= 16 {
                check::<u64>(&cells, w);
            }
            check::<u128>(&cells, w);
        }
    }

    #[test]
    fn packed_transitions_equal_the_reference_on_every_state() {
        let mut checked = 0;
        for closed in [false, true] {
            for (rows, cols) in [
                (1, 1),
                (3, 2),
                (4, 3),
                (5, 5),
                (6, 5),
                (7, 4),
                (10, 3),
                (7, 6),
            ] {
                checked += agree::<u64>(rows, cols, closed, 20_000);
            }
            // the wide key, on its own boards and one the narrow key holds
            for (rows, cols) in [(5, 5), (8, 8), (9, 8)] {
                checked += agree::<u128>(rows, cols, closed, 20_000);
            }
        }
        assert!(checked > 500_000, "{checked} states checked");
    }
}
