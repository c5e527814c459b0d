//! Fixed label orderings: `first` and `order:ABCDEFGH` (Squirrel & Cull 1996, Fig. 1 labels).

use std::fmt;
use std::str::FromStr;

/// A permutation of the move labels, stored 0-based (`label - 1`), first preference first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LabelOrder([u8; 8]);

impl LabelOrder {
    /// 1,2,...,8.
    pub const IDENTITY: LabelOrder = LabelOrder([0, 1, 2, 3, 4, 5, 6, 7]);

    /// From 0-based labels; `None` unless a permutation of 0..8.
    pub const fn from_zero_based(labels: [u8; 8]) -> Option<Self> {
        let mut seen = 0u8;
        let mut i = 0;
        while i < 8 {
            if labels[i] >= 8 {
                return None;
            }
            seen |= 1 << labels[i];
            i += 1;
        }
        if seen == 0xFF {
            Some(LabelOrder(labels))
        } else {
            None
        }
    }

    /// Parse at compile time from the 8 digits 1-8 (panics if invalid: for constants only).
    pub const fn digits(s: &str) -> Self {
        let b = s.as_bytes();
        assert!(b.len() == 8, "an ordering has 8 digits");
        let mut labels = [0u8; 8];
        let mut i = 0;
        while i < 8 {
            assert!(b[i] >= b'1' && b[i] <= b'8', "digits 1-8 only");
            labels[i] = b[i] - b'1';
            i += 1;
        }
        match LabelOrder::from_zero_based(labels) {
            Some(o) => o,
            None => panic!("not a permutation of 1-8"),
        }
    }

    /// The 0-based labels, first preference first.
    #[inline(always)]
    pub const fn labels(&self) -> &[u8; 8] {
        &self.0
    }

    /// Its eight digits, `1` to `8`, as text in `buf`: what `Display` writes, and what follows
    /// `order:` in a rule's name. One piece, not checked as UTF-8 again: an `order:*` sweep names
    /// 40,320 orders before it starts, and checked they were half the time of naming.
    pub(crate) fn as_digits<'b>(&self, buf: &'b mut [u8; 8]) -> &'b str {
        let labels = u64::from_le_bytes(self.0);
        // `mapped` takes any byte map, so the invariant is checked here, where text relies on it
        assert!(labels & 0xF8F8_F8F8_F8F8_F8F8 == 0, "labels are 0..8");
        *buf = (labels + u64::from_le_bytes([b'1'; 8])).to_le_bytes();
        // SAFETY: every label is below 8 (asserted above, whatever made the order), so every byte
        // is an ASCII digit from 1 to 8.
        unsafe { std::str::from_utf8_unchecked(buf) }
    }

    /// Its place in lexicographic order ([`LabelOrder::nth_permutation`] undone), below 40,320.
    pub fn rank(&self) -> u32 {
        // Each label's digit in the factorial number system is the label less the earlier labels
        // below it, which is also the number of later labels below it. So the first four digits
        // depend on the first four labels alone (one entry of `PREFIX`), and the last four on the
        // last four labels' order among themselves (six comparisons). This is called for every
        // rule of an `order:*` sweep and every mirror image of one of each orbit, serial work
        // before the sweep starts: a digit at a time it was 96 instructions.
        let l = self.0;
        let key = usize::from(l[0])
            | usize::from(l[1]) << 3
            | usize::from(l[2]) << 6
            | usize::from(l[3]) << 9;
        let below = |a: u8, b: u8| u32::from(b < a);
        let d4 = below(l[4], l[5]) + below(l[4], l[6]) + below(l[4], l[7]);
        let d5 = below(l[5], l[6]) + below(l[5], l[7]);
        let d6 = below(l[6], l[7]);
        u32::from(PREFIX[key]) + 6 * d4 + 2 * d5 + d6
    }

    /// This ordering with every label replaced by its image under `labels` (a board symmetry's
    /// label map, `board::Symmetry::labels`): the ordering the mirrored walk breaks its ties by.
    pub fn mapped(self, labels: &[u8; 8]) -> LabelOrder {
        LabelOrder(self.0.map(|l| labels[l as usize]))
    }

    /// All 40,320 orderings, in lexicographic order of their digits (`order:*`).
    pub fn all() -> impl ExactSizeIterator<Item = LabelOrder> {
        // each from the one before by the next-permutation step (Knuth, TAOCP 7.2.1.2, algorithm
        // L), a few operations where `nth_permutation` is a factorial division per label; counted
        // off a range so that a list collecting them is allocated once
        let mut next = [0u8, 1, 2, 3, 4, 5, 6, 7];
        (0..40_320).map(move |_| {
            let this = next;
            next = next_permutation(this).unwrap_or(this);
            LabelOrder(this)
        })
    }

    /// The `k`-th ordering in lexicographic order (factorial number system), `k < 40,320`.
    pub fn nth_permutation(mut k: u32) -> LabelOrder {
        // the labels not yet placed as a mask, the `idx`-th of them taken by clearing the lowest
        // bits (no allocation, and no `memmove` of a label pool per label)
        let mut left = 0xFFu32;
        let mut out = [0u8; 8];
        let mut fact = 5040u32; // 7!
        for (i, slot) in out.iter_mut().enumerate() {
            let idx = k / fact;
            k %= fact;
            let mut m = left;
            for _ in 0..idx {
                m &= m - 1;
            }
            let l = m.trailing_zeros();
            *slot = l as u8;
            left &= !(1 << l);
            if i < 7 {
                fact /= 7 - i as u32;
            }
        }
        LabelOrder(out)
    }
}

/// The first four digits of [`LabelOrder::rank`], weighted, by the first four labels packed three
/// bits each (the first lowest); keys with a label twice are never looked up.
const PREFIX: [u16; 4096] = {
    const PLACE: [u32; 4] = [5040, 720, 120, 24];
    let mut table = [0u16; 4096];
    let mut key = 0;
    while key < 4096 {
        let mut rank = 0u32;
        let mut i = 0;
        while i < 4 {
            let l = (key >> (3 * i)) & 7;
            let mut digit = l as u32;
            let mut j = 0;
            while j < i {
                if (key >> (3 * j)) & 7 < l {
                    digit = digit.saturating_sub(1);
                }
                j += 1;
            }
            rank += PLACE[i] * digit;
            i += 1;
        }
        table[key] = rank as u16;
        key += 1;
    }
    table
};

/// The permutation after `p` in lexicographic order, `None` after the last.
fn next_permutation(mut p: [u8; 8]) -> Option<[u8; 8]> {
    let j = (0..7).rev().find(|&j| p[j] < p[j + 1])?;
    let l = (j + 1..8).rev().find(|&l| p[j] < p[l])?;
    p.swap(j, l);
    p[j + 1..].reverse();
    Some(p)
}

impl LabelOrder {
    /// An ordering as written after `order:`: eight digits 1-8, or the eight knight moves as
    /// `(drow,dcol)` pairs, first preference first; why not otherwise.
    pub fn parse_listing(s: &str) -> Result<LabelOrder, &'static str> {
        if !s.trim_start().starts_with('(') {
            return s
                .parse()
                .map_err(|()| "expected a permutation of the digits 1-8, e.g. 34261578");
        }
        let mut labels = [0u8; 8];
        let mut n = 0;
        for pair in s.split(')') {
            let pair = pair.trim();
            if pair.is_empty() {
                continue;
            }
            let inner = pair
                .strip_prefix('(')
                .ok_or("expected eight moves written (drow,dcol)")?;
            let (dr, dc) = inner
                .split_once(',')
                .ok_or("expected eight moves written (drow,dcol)")?;
            let delta = (
                dr.trim()
                    .parse::<i32>()
                    .map_err(|_| "a move's drow is not a number")?,
                dc.trim()
                    .parse::<i32>()
                    .map_err(|_| "a move's dcol is not a number")?,
            );
            let k = crate::board::KNIGHT_DELTAS
                .iter()
                .position(|&d| d == delta)
                .ok_or("a move that is not a knight move")?;
            if n == 8 {
                return Err("more than eight moves");
            }
            labels[n] = k as u8;
            n += 1;
        }
        if n != 8 {
            return Err("fewer than eight moves");
        }
        LabelOrder::from_zero_based(labels).ok_or("a knight move listed twice")
    }
}

impl FromStr for LabelOrder {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        let b = s.as_bytes();
        if b.len() != 8 || !b.iter().all(|c| (b'1'..=b'8').contains(c)) {
            return Err(());
        }
        let mut labels = [0u8; 8];
        for (l, c) in labels.iter_mut().zip(b) {
            *l = c - b'1';
        }
        LabelOrder::from_zero_based(labels).ok_or(())
    }
}

impl fmt::Display for LabelOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_digits(&mut [0; 8]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits, made in one piece, are the labels plus one written a character at a time, and
    /// parse back to the order, for every order.
    #[test]
    fn digits_are_the_labels_plus_one_and_parse_back() {
        for order in LabelOrder::all() {
            let one_by_one: String = order.0.iter().map(|&l| char::from(b'1' + l)).collect();
            assert_eq!(order.as_digits(&mut [0; 8]), one_by_one);
            assert_eq!(order.to_string().parse::<LabelOrder>(), Ok(order));
        }
    }

    /// An order whose labels are not all below 8 (a map that is no symmetry's) is refused as text,
    /// not turned into bytes that are not digits.
    #[test]
    #[should_panic(expected = "labels are 0..8")]
    fn digits_refuse_labels_past_8() {
        let _ = LabelOrder::IDENTITY
            .mapped(&[0, 1, 2, 3, 4, 5, 6, 200])
            .to_string();
    }

    #[test]
    fn rank_undoes_nth_permutation() {
        for k in 0..40_320 {
            assert_eq!(LabelOrder::nth_permutation(k).rank(), k);
        }
    }

    #[test]
    fn offsets_name_the_same_orderings_as_digits() {
        for order in LabelOrder::all().step_by(97) {
            let listing: String = order
                .labels()
                .iter()
                .map(|&l| {
                    let (dr, dc) = crate::board::KNIGHT_DELTAS[l as usize];
                    format!("({dr}, {dc})")
                })
                .collect();
            assert_eq!(LabelOrder::parse_listing(&listing), Ok(order), "{listing}");
        }
        for bad in [
            "(1,2)",
            "(1,2)(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)",
            "(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)(1,2)",
            "(1,3)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)",
            "(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,x)",
            "(1 2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)",
            "1234567",
        ] {
            assert!(LabelOrder::parse_listing(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn all_orderings_are_distinct_permutations_in_order() {
        let all: Vec<_> = LabelOrder::all().collect();
        assert_eq!(all.len(), 40_320);
        assert_eq!(all[0], LabelOrder::IDENTITY);
        assert_eq!(all[40_319].to_string(), "87654321");
        for w in all.windows(2) {
            assert!(w[0] < w[1]);
        }
        // the iterator's steps and the factorial numbering name the same orderings
        for (k, o) in all.iter().enumerate() {
            assert_eq!(*o, LabelOrder::nth_permutation(k as u32));
        }
    }
}
