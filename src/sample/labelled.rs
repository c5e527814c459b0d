//! The frontier's transitions with the edges each one adds: every way of adding square `i` to a
//! state (no edge, one edge or two edges to earlier squares) with the successor it leads to, so
//! that the backward pass can tell which edges a chosen transition put into the tour. The
//! transitions themselves are the counter's (`count::frontier::packed`), called piece by piece in
//! the order of `Transitions::successors`; a test holds the two equal on every state of several
//! boards.
//!
//! Source: the transfer-matrix ("frontier") method of `count::frontier`, whose documentation
//! states the cells, the choices and their order.

use crate::count::frontier::cells::{Key, DONE};
use crate::count::frontier::packed::{Edges, Successor, Transitions};
use crate::count::frontier::plan::Step;

/// The edges one transition adds: from the new square to the squares at `at[..edges]`, positions
/// in the step's window (position `p` of step `i` holds square `i + p - w`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Choice {
    pub(crate) edges: u8,
    pub(crate) at: [u8; 2],
}

impl Choice {
    fn one(j: usize) -> Self {
        Choice {
            edges: 1,
            at: [j as u8, 0],
        }
    }

    fn two(j: usize, k: usize) -> Self {
        Choice {
            edges: 2,
            at: [j as u8, k as u8],
        }
    }

    /// The earlier squares the new square `i` is joined to, on a window of `w` cells.
    pub(crate) fn squares(self, i: usize, w: usize) -> impl Iterator<Item = usize> {
        self.at
            .into_iter()
            .take(self.edges as usize)
            .map(move |p| i + p as usize - w)
    }
}

/// Every live transition of `state` on `step` (window `w`), with its choice of edges, in the
/// order of `Transitions::successors`: no edge, each one edge, each two edges. Each choice adds a
/// different set of edges, so the partial tours behind a successor are those of its
/// predecessors, one set per (predecessor, choice).
#[inline]
pub(crate) fn labelled<K: Key>(
    moves: &Transitions<K>,
    step: &Step,
    state: K,
    emit: &mut impl FnMut(Choice, Successor<K>),
) {
    let mut open = [0usize; 4];
    let mut m = 0;
    for &p in &step.back {
        if state.cell(p) != DONE {
            open[m] = p;
            m += 1;
        }
    }
    let open = &open[..m];
    moves.settle(state, &mut |s| emit(Choice::default(), s));
    for &j in open {
        moves.settle(moves.one_edge(state, j), &mut |s| emit(Choice::one(j), s));
    }
    for (a, &j) in open.iter().enumerate() {
        for &k in &open[a + 1..] {
            match moves.two_edges(state, j, k) {
                Edges::Dead => {}
                Edges::Complete => emit(Choice::two(j, k), Successor::Tour),
                Edges::Continue(x) => moves.settle(x, &mut |s| emit(Choice::two(j, k), s)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::plan::{Plan, CELLS};
    use std::collections::BTreeSet;

    /// The labelled successors of every state reached on `rows x cols` (until a step passes
    /// `cap` states) are the counter's successors, in its order, and the choices of one state
    /// are distinct.
    fn agree<K: Key>(rows: u32, cols: u32, closed: bool, cap: usize) -> usize {
        let plan = Plan::new(rows, cols);
        let mut states: BTreeSet<K> = [K::pack(&[DONE; CELLS], 0, plan.w)].into();
        let mut checked = 0;
        for (i, step) in plan.steps.iter().enumerate() {
            let moves = Transitions::new(step, plan.w, closed, i + 1 == plan.n, None);
            let mut next = BTreeSet::new();
            for &state in &states {
                let (mut want, mut got, mut choices) = (Vec::new(), Vec::new(), Vec::new());
                moves.successors(state, &mut |s| want.push(s));
                labelled(&moves, step, state, &mut |c, s| {
                    got.push(s);
                    choices.push(c);
                });
                assert_eq!(got, want, "{rows}x{cols} closed={closed} step {i}");
                let distinct: BTreeSet<_> = choices.iter().map(|c| (c.edges, c.at)).collect();
                assert_eq!(distinct.len(), choices.len());
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
        checked
    }

    #[test]
    fn labelled_successors_are_the_counters() {
        let mut checked = 0;
        for closed in [false, true] {
            for (rows, cols) in [(3, 3), (4, 3), (5, 5), (6, 6), (7, 5)] {
                checked += agree::<u64>(rows, cols, closed, 20_000);
            }
            checked += agree::<u128>(8, 8, closed, 20_000);
        }
        assert!(checked > 100_000, "{checked} states checked");
    }
}
