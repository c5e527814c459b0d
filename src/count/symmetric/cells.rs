//! A frontier state of the twisted-graph counter: one cell per frontier vertex (empty, full, or the
//! end of a path piece with the piece's label and a twist "potential"), unpacked into a small array
//! while a step works on it and packed into a `u128` key between steps.
//!
//! Source: the usual frontier state of transfer-matrix counts of Hamiltonian cycles (degrees and
//! the pairing of path ends, as in `count::frontier`), with one addition for a quotient graph: each
//! piece carries the net twist of its path in `Z/k`, stored as the difference of its two ends'
//! potentials (a covering graph's voltage, Gross and Tucker 1987).

/// The most frontier cells a state unpacks to (the new vertex included).
pub(super) const MAX_CELLS: usize = 32;

/// A vertex with no edge yet.
pub(super) const EMPTY: u8 = 0;
/// A vertex with two edges: it takes no more.
pub(super) const FULL: u8 = 1;
/// The first label of a piece's ends after [`Cells::normalize`].
pub(super) const FIRST_LABEL: u8 = 2;

/// Labels are below this, the temporary ones of a step's new pieces ([`FRESH`]) included.
const LABELS: usize = 64;
/// The labels a step gives the pieces its edges make, one per edge: above every label
/// [`Cells::normalize`] gives (at most `2 + MAX_CELLS / 2`), so unique until the next normalize.
pub(super) const FRESH: [u8; 2] = [LABELS as u8 - 2, LABELS as u8 - 1];

/// A state unpacked: `label[p]` is [`EMPTY`], [`FULL`] or the label of the piece whose end
/// position `p` is (its two ends share it); `pot[p]` the end's potential, so that the net twist of
/// the piece's path from end `x` to end `y` is `pot[y] - pot[x]` (mod `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cells {
    pub(super) label: [u8; MAX_CELLS],
    pub(super) pot: [u8; MAX_CELLS],
    pub(super) len: usize,
}

/// How states of one count are packed: `bits` per cell, codes `0` (empty), `1` (full) and
/// `2 + k * (label - 2) + pot` for an end.
#[derive(Clone, Copy, Debug)]
pub(super) struct Packing {
    /// The rotation's order, `k`: potentials are taken mod `k`.
    pub(super) k: u8,
    /// Bits a cell takes.
    pub(super) bits: u32,
}

impl Packing {
    /// The packing for frontiers of at most `cells` vertices and twists mod `k`, or `None` when they
    /// do not fit a `u128` (or, with a step's new vertex, the unpacked array).
    pub(super) fn new(cells: usize, k: u8) -> Option<Packing> {
        // a piece has two ends in the frontier, so at most cells / 2 labels
        let codes = 2 + k as usize * (cells / 2).max(1);
        let bits = usize::BITS - (codes - 1).leading_zeros();
        (cells < MAX_CELLS && cells * bits as usize <= 128).then_some(Packing { k, bits })
    }

    /// The key of `cells` (normalized).
    pub(super) fn pack(self, cells: &Cells) -> u128 {
        let mut key = 0u128;
        for p in (0..cells.len).rev() {
            let code = match cells.label[p] {
                l if l < FIRST_LABEL => l,
                l => FIRST_LABEL + self.k * (l - FIRST_LABEL) + cells.pot[p],
            };
            key = (key << self.bits) | code as u128;
        }
        key
    }

    /// The cells of `key`, `len` of them.
    pub(super) fn unpack(self, mut key: u128, len: usize) -> Cells {
        let mut cells = Cells {
            label: [EMPTY; MAX_CELLS],
            pot: [0; MAX_CELLS],
            len,
        };
        let mask = (1u128 << self.bits) - 1;
        for p in 0..len {
            let code = (key & mask) as u8;
            key >>= self.bits;
            if code >= FIRST_LABEL {
                cells.label[p] = FIRST_LABEL + (code - FIRST_LABEL) / self.k;
                cells.pot[p] = (code - FIRST_LABEL) % self.k;
            } else {
                cells.label[p] = code;
            }
        }
        cells
    }
}

impl Cells {
    /// The other end of the piece whose end `p` is (`p` itself for an empty vertex, a piece of
    /// one vertex).
    pub(super) fn partner(&self, p: usize) -> usize {
        let l = self.label[p];
        if l == EMPTY {
            return p;
        }
        (0..self.len)
            .find(|&q| q != p && self.label[q] == l)
            .expect("a piece has two ends in the frontier")
    }

    /// Labels renumbered 2, 3, ... in order of first appearance, and each piece's potentials
    /// shifted so that its first end has 0: equal states get equal keys.
    pub(super) fn normalize(&mut self, k: u8) {
        let mut map = [0u8; LABELS];
        let mut first_pot = [0u8; LABELS];
        let mut next = FIRST_LABEL;
        for p in 0..self.len {
            let l = self.label[p] as usize;
            if l < FIRST_LABEL as usize {
                continue;
            }
            if map[l] == 0 {
                map[l] = next;
                first_pot[l] = self.pot[p];
                next += 1;
            }
            self.label[p] = map[l];
            self.pot[p] = (self.pot[p] + k - first_pot[l]) % k;
        }
    }

    /// Drop position `p`, moving the later ones down.
    pub(super) fn remove(&mut self, p: usize) {
        self.label.copy_within(p + 1..self.len, p);
        self.pot.copy_within(p + 1..self.len, p);
        self.len -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_and_unpack_are_inverse() {
        let packing = Packing::new(7, 4).unwrap();
        let mut cells = Cells {
            label: [0; MAX_CELLS],
            pot: [0; MAX_CELLS],
            len: 7,
        };
        cells.label[..7].copy_from_slice(&[9, 0, 1, 7, 9, 7, 0]);
        cells.pot[..7].copy_from_slice(&[3, 0, 0, 2, 1, 1, 0]);
        cells.normalize(4);
        assert_eq!(&cells.label[..7], &[2, 0, 1, 3, 2, 3, 0]);
        // each piece's twist from first end to second is kept: 1 - 3 = 2, 1 - 2 = 3 (mod 4)
        assert_eq!(&cells.pot[..7], &[0, 0, 0, 0, 2, 3, 0]);
        assert_eq!(packing.unpack(packing.pack(&cells), 7), cells);
    }

    #[test]
    fn packings_refuse_what_does_not_fit() {
        assert_eq!(Packing::new(21, 2).unwrap().bits, 5);
        assert_eq!(Packing::new(25, 2).unwrap().bits, 5);
        assert!(Packing::new(25, 4).is_none());
        assert_eq!(Packing::new(13, 1).unwrap().bits, 3);
    }
}
