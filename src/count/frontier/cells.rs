//! The frontier state: the 4-bit cells of the window (empty, done, a tail, or a label pairing the two
//! ends of a piece) and their packing into a key (a `u64` on boards at most 7 wide, a `u128` on
//! 8-wide ones: [`Key`]), with the cell-wise (SWAR) operations the packed transitions of `packed.rs`
//! are made of.
//!
//! Source: the transfer-matrix counting of Hamiltonian paths and cycles described in the module
//! documentation of `frontier` (after Knuth's frontier programs); its invariants are listed there
//! under ADVICE FOR HACKERS.

pub(super) const EMPTY: u8 = 0;
pub(crate) const DONE: u8 = 1;
pub(super) const TAIL: u8 = 2;
pub(super) const FIRST_LABEL: u8 = 3;
pub(super) const FRESH: u8 = 15;

/// A packed state: 4 bits a cell, cell `k` in bits `4k..4k+4`. A `u64` holds the 16 cells of a
/// 7-wide board's window and new square; a `u128` the 18 of an 8-wide one (stored in 68 bits beside
/// 60-bit ways: `gather::Packed68`).
pub(crate) trait Key:
    Copy
    + Ord
    + Default
    + Send
    + Sync
    + std::fmt::Debug
    + 'static
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<usize, Output = Self>
    + std::ops::Shr<usize, Output = Self>
    + std::ops::Mul<Output = Self>
    + From<u8>
{
    /// Cells it holds.
    const CELLS: usize;
    /// The low bit of every cell: a cell-wise 1.
    const LOW: Self;
    /// Cell `k`.
    fn cell(self, k: usize) -> u8;
    /// Cells `c[from..from + w]`, packed.
    fn pack(c: &[u8], from: usize, w: usize) -> Self;
    /// The low bit of each cell that is 0, the other bits clear (SWAR: a cell is 0 when no bit of it
    /// is set).
    fn zero_cells(self) -> Self;
    fn ones(self) -> u32;
    /// `x` in every cell.
    fn splat(x: u8) -> Self;
    /// The low bits of the cells `k` with `pick(k)`, `k < CELLS`.
    fn low_bits(pick: impl Fn(usize) -> bool) -> Self;
    /// The cell of the lowest set bit.
    fn lowest(self) -> usize;
    /// The cell of the highest set bit.
    fn highest(self) -> usize;
    /// `self` without its lowest set bit.
    fn without_lowest(self) -> Self;
    /// The key as a `u128`.
    fn widen(self) -> u128;
    /// A key from a `u128`, if it fits.
    fn narrow(x: u128) -> Option<Self>;
    /// Cell `k` set to `x`.
    #[inline(always)]
    fn with(self, k: usize, x: u8) -> Self {
        self & !(Self::from(0xF) << (4 * k)) | Self::from(x) << (4 * k)
    }
    /// The low bit of each cell equal to `x`.
    #[inline(always)]
    fn cells_equal(self, x: u8) -> Self {
        (self ^ Self::splat(x)).zero_cells()
    }
}

/// The two keys differ only in their width.
macro_rules! key {
    ($int:ty) => {
        impl Key for $int {
            const CELLS: usize = <$int>::BITS as usize / 4;
            const LOW: Self = <$int>::MAX / 0xF;
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
            #[inline(always)]
            fn zero_cells(self) -> Self {
                let any = self | self >> 1;
                let any = any | any >> 2;
                !any & Self::LOW
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn splat(x: u8) -> Self {
                Self::LOW * x as $int
            }
            fn low_bits(pick: impl Fn(usize) -> bool) -> Self {
                (0..Self::CELLS)
                    .filter(|&k| pick(k))
                    .fold(0, |s, k| s | 1 << (4 * k))
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize / 4
            }
            fn widen(self) -> u128 {
                self as u128
            }
            fn narrow(x: u128) -> Option<Self> {
                x.try_into().ok()
            }
            #[inline(always)]
            fn highest(self) -> usize {
                (<$int>::BITS - 1 - self.leading_zeros()) as usize / 4
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
key!(u64);
key!(u128);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::plan::CELLS;

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

    /// The cell-wise operations agree with the cells one by one.
    #[test]
    fn cell_wise_operations_agree_with_the_cells() {
        fn check<K: Key>(c: &[u8]) {
            let key = K::pack(c, 0, K::CELLS);
            for x in 0..16u8 {
                let equal = key.cells_equal(x);
                for (k, &y) in c.iter().enumerate() {
                    assert_eq!(equal.cell(k), u8::from(y == x), "{c:?} {x}");
                    assert_eq!(key.with(k, x).cell(k), x);
                    for j in (0..K::CELLS).filter(|&j| j != k) {
                        assert_eq!(key.with(k, x).cell(j), c[j]);
                    }
                }
                if equal != K::default() {
                    let first = c.iter().position(|&y| y == x).unwrap();
                    assert_eq!(equal.lowest(), first);
                    assert_eq!(equal.without_lowest().cell(first), 0);
                }
            }
            assert_eq!(K::LOW, K::splat(1));
        }
        for seed in 0..200u32 {
            // cells of a few values each, so that equal cells are common
            let c: Vec<u8> = (0..32u32)
                .map(|k| {
                    (seed.wrapping_mul(2654435761).rotate_left(k * 5) % 7 * (seed % 3 + 1) % 16)
                        as u8
                })
                .collect();
            check::<u64>(&c[..16]);
            check::<u128>(&c);
        }
    }
}
