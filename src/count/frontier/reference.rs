//! The transitions of the frontier count on one byte a cell, written as the method states them:
//! the slow twin that `packed.rs`, which the count runs, is tested against on every state of several
//! boards (`packed::tests`).
//!
//! Source: the transfer-matrix counting of Hamiltonian paths and cycles described in the module
//! documentation of `frontier` (after Knuth's frontier programs); its invariants are listed there
//! under ADVICE FOR HACKERS.

use super::cells::{Key, DONE, EMPTY, FIRST_LABEL, FRESH, TAIL};
use super::packed::Successor;
use super::plan::{Step, CELLS};

/// Every successor of `state` (cells `0..w` of the window, the new square at `w` empty) when the
/// step's square is added with no edge, one edge or two edges to earlier squares: a [`Successor`]
/// for each one that lives, in the order of [`super::packed::Transitions::successors`]. Returns the
/// number of edge choices tried. `mirror` folds the states at the end of a row.
pub(super) fn successors<K: Key>(
    state: K,
    step: &Step,
    w: usize,
    closed: bool,
    last: bool,
    mirror: Option<&[usize; CELLS]>,
    emit: &mut impl FnMut(Successor<K>),
) -> u64 {
    let mut cells = [DONE; CELLS];
    for (k, cell) in cells.iter_mut().take(w).enumerate() {
        *cell = state.cell(k);
    }
    cells[w] = EMPTY;
    let open: Vec<usize> = step
        .back
        .iter()
        .copied()
        .filter(|&p| cells[p] != DONE)
        .collect();
    let mut tried = 0;
    let mut settle = |c: &mut [u8; CELLS], outcome: Outcome| {
        tried += 1;
        match outcome {
            Outcome::Dead => {}
            Outcome::Complete => emit(Successor::Tour),
            Outcome::Continue if last => {
                if !closed && final_is_path(&c[..=w], &step.terminal_ok) {
                    emit(Successor::Tour);
                }
            }
            Outcome::Continue => {
                for &p in &step.finalize {
                    if !finalize(c, p, w, closed, step.terminal_ok[p]) {
                        return;
                    }
                }
                if !feasible(c, step, w, closed) {
                    return;
                }
                assert_eq!(c[0], DONE, "the square leaving the window is finalized");
                normalize(&mut c[1..=w]);
                emit(Successor::State(match mirror {
                    Some(mirror) => fold_mirror(c, w, mirror),
                    None => K::pack(c, 1, w),
                }));
            }
        }
    };
    settle(&mut cells.clone(), Outcome::Continue);
    for &j in &open {
        let mut c = cells;
        one_edge(&mut c, j, w);
        settle(&mut c, Outcome::Continue);
    }
    for (a, &j) in open.iter().enumerate() {
        for &k in &open[a + 1..] {
            let mut c = cells;
            let outcome = two_edges(&mut c, j, k, w, closed, last);
            settle(&mut c, outcome);
        }
    }
    tried
}

/// What adding a square's edges did to a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// An impossible partial tour.
    Dead,
    /// A complete tour (a cycle closed, or two terminals joined, at the last square).
    Complete,
    /// A partial tour to carry on.
    Continue,
}

/// The new square (at `w`) takes one edge to the cell at `j`.
fn one_edge(c: &mut [u8; CELLS], j: usize, w: usize) {
    match c[j] {
        EMPTY => {
            c[j] = FRESH;
            c[w] = FRESH;
        }
        end => {
            // TAIL or a label: the new square becomes that end.
            c[j] = DONE;
            c[w] = end;
        }
    }
}

/// The new square (at `w`) takes edges to the cells at `j` and `k`, becoming an interior square.
fn two_edges(
    c: &mut [u8; CELLS],
    j: usize,
    k: usize,
    w: usize,
    closed: bool,
    last: bool,
) -> Outcome {
    c[w] = DONE;
    let (a, b) = (c[j], c[k]);
    match (a, b) {
        (EMPTY, EMPTY) => {
            c[j] = FRESH;
            c[k] = FRESH;
        }
        (EMPTY, end) | (end, EMPTY) => {
            // The empty one becomes the other's end; the other is now interior.
            let (e, x) = if a == EMPTY { (j, k) } else { (k, j) };
            c[e] = end;
            c[x] = DONE;
        }
        (TAIL, TAIL) => {
            c[j] = DONE;
            c[k] = DONE;
            return complete_if(!closed && last && c.iter().all(|&x| x == DONE));
        }
        (TAIL, label) | (label, TAIL) => {
            c[j] = DONE;
            c[k] = DONE;
            relabel(c, label, TAIL);
        }
        (x, y) if x == y => {
            c[j] = DONE;
            c[k] = DONE;
            return complete_if(closed && last && c.iter().all(|&x| x == DONE));
        }
        (x, y) => {
            c[j] = DONE;
            c[k] = DONE;
            relabel(c, y, x);
        }
    }
    Outcome::Continue
}

fn complete_if(ok: bool) -> Outcome {
    if ok {
        Outcome::Complete
    } else {
        Outcome::Dead
    }
}

/// Change the (one remaining) cell holding `from` to `to`.
fn relabel(c: &mut [u8; CELLS], from: u8, to: u8) {
    for x in c.iter_mut() {
        if *x == from {
            *x = to;
            return;
        }
    }
    debug_assert!(false, "a label's partner is in the window");
}

/// Finalize the square at `p`: all its edges are decided. Returns whether the state survives.
fn finalize(c: &mut [u8; CELLS], p: usize, w: usize, closed: bool, terminal_ok: bool) -> bool {
    match c[p] {
        DONE => true,
        // Degree 0, or a terminal whose piece's other end is a terminal too, before the last square.
        EMPTY | TAIL => false,
        _ if closed || !terminal_ok => false,
        label => {
            // The square becomes a terminal; at most two terminals in all.
            if c[..=w].iter().filter(|&&x| x == TAIL).count() >= 2 {
                return false;
            }
            c[p] = DONE;
            relabel(c, label, TAIL);
            true
        }
    }
}

/// Whether every cell can still reach its degree: 2 for closed tours; for open tours 1, with at most
/// two terminals in all (the `TAIL` cells plus the empty cells with a single undecided edge left), and
/// 2 on squares that cannot be terminals.
fn feasible(c: &[u8; CELLS], step: &Step, w: usize, closed: bool) -> bool {
    let mut terminals = 0;
    for (p, &cell) in c.iter().enumerate().take(w + 1).skip(1) {
        let more = step.undecided[p];
        let have = match cell {
            DONE => continue,
            EMPTY => 0,
            TAIL => {
                terminals += 1;
                1
            }
            _ => 1,
        };
        if closed || !step.terminal_ok[p] {
            if have + more < 2 {
                return false;
            }
        } else if have + more < 1 {
            return false;
        } else if have == 0 && more == 1 {
            terminals += 1;
        }
    }
    terminals <= 2
}

/// After the last square: whether the cells form the end of a single open path, whose remaining
/// degree-1 squares may be terminals.
fn final_is_path(c: &[u8], terminal_ok: &[bool; CELLS]) -> bool {
    let mut ends = c.iter().enumerate().filter(|&(_, &x)| x != DONE);
    match (ends.next(), ends.next(), ends.next()) {
        (Some((p, &TAIL)), None, None) => terminal_ok[p],
        (Some((p, &x)), Some((q, &y)), None) => {
            x == y && x >= FIRST_LABEL && terminal_ok[p] && terminal_ok[q]
        }
        _ => false,
    }
}

/// The state of the normalized cells `c[1..=w]` at the end of a row, or of its left-right mirror
/// image, whichever packs smaller: the rest of the board is symmetric, so the two have the same
/// completions (`mirror` is [`super::plan::Plan`]'s).
fn fold_mirror<K: Key>(c: &[u8; CELLS], w: usize, mirror: &[usize; CELLS]) -> K {
    let mut m = [DONE; CELLS];
    for (k, x) in m.iter_mut().enumerate().take(w) {
        *x = c[1 + mirror[k]];
    }
    normalize(&mut m[..w]);
    K::pack(c, 1, w).min(K::pack(&m, 0, w))
}

/// Renumber labels 3, 4, ... in order of first appearance from the newest cell back.
fn normalize(c: &mut [u8]) {
    let mut map = [0u8; 16];
    let mut next = FIRST_LABEL;
    for x in c.iter_mut().rev() {
        if *x >= FIRST_LABEL {
            let slot = &mut map[*x as usize];
            if *slot == 0 {
                *slot = next;
                next += 1;
            }
            *x = *slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_numbers_from_the_newest_cell_back() {
        let mut c = [1, 7, 15, 2, 7, 15, 0, 9, 9];
        normalize(&mut c);
        assert_eq!(c, [1, 5, 4, 2, 5, 4, 0, 3, 3]);
    }
}
