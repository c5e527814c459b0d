//! The degree mask of one kernel step and the per-label tables that build it (see the module
//! header of [`super`] for how a step uses them; Warnsdorff's minimum degree as defined in
//! `docs/REFERENCE.md`). A mask byte per degree, a bit per *slot*: the slot a label's bit lands in
//! is the label's place in the chooser's scan, so the lowest set bit is the next move.

use crate::solve::rules::LabelOrder;

/// `DEGREE_BIT[d]` = `1 << 8 * (d - 1)` for a free square's pre-decrement degree `d` in 1..=8, else 0.
pub(crate) static DEGREE_BIT: [u64; 256] = degree_bits();

/// Per-label mask tables: `bits[k][d]` = `DEGREE_BIT[d] << slot(k)`, the bit that label `k` sets for
/// degree `d`. With one table per label the mask is built by one `or` from memory per neighbour.
pub(crate) type Bits = [[u64; 256]; 8];

/// Label `k` in slot `k` (label order): the distance rules, `pohl`, `random`, `squirrel`.
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

/// The tables that put label `order[i]` in slot `i`, so the lowest slot is the first in scan order.
pub(crate) fn order_bits(order: LabelOrder) -> Box<Bits> {
    let mut t = Box::new([[0u64; 256]; 8]);
    set_order_bits(&mut t, order);
    t
}

/// Turn any [`order_bits`] table into the one of `order` in place: only the entries of degrees
/// 1..=8 depend on the order (all others are 0 in every table), so 64 stores do it, where a new
/// table would zero 16 KiB (an `order:*` sweep changes order every 64 runs on 8x8).
pub(crate) fn set_order_bits(t: &mut Bits, order: LabelOrder) {
    for (slot, &k) in order.labels().iter().enumerate() {
        for d in 1..=8 {
            t[k as usize][d] = DEGREE_BIT[d] << slot;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BORDER;

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
    fn order_bits_put_the_scan_order_in_slots() {
        let order: LabelOrder = "36875124".parse().unwrap();
        let bits = order_bits(order);
        for (slot, &k) in order.labels().iter().enumerate() {
            assert_eq!(bits[k as usize][3], 1 << (16 + slot));
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
}
