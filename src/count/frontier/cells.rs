//! The frontier state and its transitions: the 4-bit cells of the window (empty, done, a tail, or a
//! label pairing the two ends of a piece), what adding a square with zero, one or two edges does to
//! them, the finalizing of squares whose edges are all decided, the pruning of states that cannot
//! complete, and the canonical numbering and packing of a state into a key (a `u64` on boards at most 7
//! wide, a `u128` on 8-wide ones: [`Key`]).
//!
//! Source: the transfer-matrix counting of Hamiltonian paths and cycles described in the module
//! documentation of `frontier` (after Knuth's frontier programs); its invariants are listed there
//! under ADVICE FOR HACKERS.

use super::plan::{Step, CELLS};

pub(super) const EMPTY: u8 = 0;
pub(super) const DONE: u8 = 1;
pub(super) const TAIL: u8 = 2;
pub(super) const FIRST_LABEL: u8 = 3;
pub(super) const FRESH: u8 = 15;

/// A packed state: 4 bits a cell, cell `k` in bits `4k..4k+4`. A `u64` holds the 16 cells of a
/// 7-wide board's window and new square; a `u128` the 18 of an 8-wide one, at 32 bytes an entry
/// instead of 24, so it is used only there.
pub(super) trait Key:
    Copy + Ord + Default + Send + Sync + std::fmt::Debug + 'static
{
    /// Cells it holds.
    const CELLS: usize;
    /// Cell `k`.
    fn cell(self, k: usize) -> u8;
    /// Cells `c[from..from + w]`, packed.
    fn pack(c: &[u8], from: usize, w: usize) -> Self;
}

/// The two keys differ only in their width.
macro_rules! key {
    ($int:ty) => {
        impl Key for $int {
            const CELLS: usize = <$int>::BITS as usize / 4;
            #[inline(always)]
            fn cell(self, k: usize) -> u8 {
                ((self >> (4 * k)) & 0xF) as u8
            }
            #[inline(always)]
            fn pack(c: &[u8], from: usize, w: usize) -> Self {
                c[from..from + w]
                    .iter()
                    .enumerate()
                    .fold(0, |s, (k, &x)| s | (x as $int) << (4 * k))
            }
        }
    };
}
key!(u64);
key!(u128);

/// What adding a square's edges did to a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// An impossible partial tour.
    Dead,
    /// A complete tour (a cycle closed, or two terminals joined, at the last square).
    Complete,
    /// A partial tour to carry on.
    Continue,
}

/// The new square (at `w`) takes one edge to the cell at `j`.
pub(super) fn one_edge(c: &mut [u8; CELLS], j: usize, w: usize) {
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
pub(super) fn two_edges(
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
pub(super) fn finalize(
    c: &mut [u8; CELLS],
    p: usize,
    w: usize,
    closed: bool,
    terminal_ok: bool,
) -> bool {
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
pub(super) fn feasible(c: &[u8; CELLS], step: &Step, w: usize, closed: bool) -> bool {
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
pub(super) fn final_is_path(c: &[u8], terminal_ok: &[bool; CELLS]) -> bool {
    let mut ends = c.iter().enumerate().filter(|&(_, &x)| x != DONE);
    match (ends.next(), ends.next(), ends.next()) {
        (Some((p, &TAIL)), None, None) => terminal_ok[p],
        (Some((p, &x)), Some((q, &y)), None) => {
            x == y && x >= FIRST_LABEL && terminal_ok[p] && terminal_ok[q]
        }
        _ => false,
    }
}

/// Renumber labels 3, 4, ... in order of first appearance.
pub(super) fn normalize(c: &mut [u8]) {
    let mut map = [0u8; 16];
    let mut next = FIRST_LABEL;
    for x in c.iter_mut() {
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
    fn normalize_numbers_by_first_appearance() {
        let mut c = [1, 7, 15, 2, 7, 15, 0];
        normalize(&mut c);
        assert_eq!(c, [1, 3, 4, 2, 3, 4, 0]);
    }

    /// Both keys pack and unpack the same cells.
    #[test]
    fn keys_hold_their_cells() {
        let c: Vec<u8> = (0..CELLS as u8).map(|k| (k * 7 + 3) % 16).collect();
        let narrow = u64::pack(&c, 1, 16);
        let wide = u128::pack(&c, 0, 18);
        for (k, &x) in c[1..17].iter().enumerate() {
            assert_eq!(narrow.cell(k), x);
        }
        for (k, &x) in c.iter().enumerate() {
            assert_eq!(wide.cell(k), x);
        }
    }
}
