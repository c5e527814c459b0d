//! The storage of the frontier states of one step: sorted lists of (state, ways) entries of 16 bytes
//! (24 with the `u128` keys of 8-wide boards, or `u128` ways), gathered from the emitted transitions
//! in batches that are sorted, summed by state and merged in place, with every sum of ways checked
//! against the maximum of its type; and the merge of the lists that the
//! threads gathered side by side into one sorted list held in key ranges ([`merge_lists`]).
//!
//! Source: ktour's own engineering of the transfer-matrix method of the module documentation of
//! `frontier` (a sorted list where a hash map took 40 to 80 bytes a state).

use super::cells::Key;
use super::modular::Modulus;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;

/// One frontier state and its number of partial tours, as a step's lists hold them.
pub(super) trait Entry: Copy + PartialEq + Send + Sync + std::fmt::Debug + 'static {
    type Key: Key;
    type Ways: Ways;
    /// Bits the ways may take: a sum that passes them is reported wrapped.
    const WAYS_BITS: u32;
    /// Bits the state may take.
    const STATE_BITS: u32;
    fn new(state: Self::Key, ways: Self::Ways) -> Self;
    fn state(&self) -> Self::Key;
    fn ways(&self) -> Self::Ways;
    /// Add `more` ways modulo `m`: wrapping when it is [`Modulus::EXACT`], with `wrapped` set if
    /// the sum passed [`Entry::WAYS_BITS`].
    fn add_ways(&mut self, more: Self::Ways, m: Modulus, wrapped: &mut bool);
    /// Bytes the entry takes in a file of spilled states (`spill.rs`).
    const DISK_BYTES: usize;
    /// The entry as [`Entry::DISK_BYTES`] little-endian bytes into `out`.
    fn encode(&self, out: &mut [u8]);
    /// The entry of [`Entry::encode`]'s bytes (`None` if they hold no entry of this type).
    fn decode(bytes: &[u8]) -> Option<Self>;
}

/// A state and its ways side by side: 16 bytes with a `u64` key and `u64` ways, 24 with a `u128` key
/// or `u128` ways (packed to 8-byte alignment, where a `u128` field would align the pair to 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(8))]
pub(super) struct Pair<K, V> {
    state: K,
    ways: V,
}

impl<K: Key, V: Ways> Entry for Pair<K, V> {
    type Key = K;
    type Ways = V;
    const WAYS_BITS: u32 = V::BITS;
    const STATE_BITS: u32 = 4 * K::CELLS as u32;

    fn new(state: K, ways: V) -> Self {
        Pair { state, ways }
    }

    #[inline(always)]
    fn state(&self) -> K {
        self.state
    }

    #[inline(always)]
    fn ways(&self) -> V {
        self.ways
    }

    #[inline(always)]
    fn add_ways(&mut self, more: V, m: Modulus, wrapped: &mut bool) {
        let mut ways = self.ways;
        ways.add_mod(more, m, wrapped);
        self.ways = ways;
    }

    // the key's and the ways' own bytes, little-endian: 16 with `u64`s
    const DISK_BYTES: usize = std::mem::size_of::<K>() + std::mem::size_of::<V>();

    fn encode(&self, out: &mut [u8]) {
        let k = std::mem::size_of::<K>();
        out[..k].copy_from_slice(&self.state().widen().to_le_bytes()[..k]);
        out[k..Self::DISK_BYTES]
            .copy_from_slice(&self.ways().wide().to_le_bytes()[..Self::DISK_BYTES - k]);
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        let k = std::mem::size_of::<K>();
        let wide = |b: &[u8]| {
            let mut x = [0u8; 16];
            x[..b.len()].copy_from_slice(b);
            u128::from_le_bytes(x)
        };
        let state = K::narrow(wide(&bytes[..k]))?;
        let ways = V::from_wide(wide(&bytes[k..Self::DISK_BYTES]))?;
        Some(Pair::new(state, ways))
    }
}

/// The state of an 8-wide board (17 cells, 68 bits) and its ways (below 2^60) in one `u128`, state
/// above: 16 bytes where a [`Pair`] takes 24. Ordered as its state, since equal states sort together
/// whatever their ways. Every count up to 8x8 closed fits; a sum that passes 2^60 is reported
/// wrapped, and the count starts over with a [`Pair`] of `u128`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Packed68(u128);

impl Packed68 {
    const WAYS: u32 = 60;
    const MASK: u128 = (1 << Self::WAYS) - 1;
}

impl Entry for Packed68 {
    type Key = u128;
    type Ways = u64;
    const WAYS_BITS: u32 = Self::WAYS;
    const STATE_BITS: u32 = 128 - Self::WAYS;

    #[inline(always)]
    fn new(state: u128, ways: u64) -> Self {
        debug_assert!(state >> (128 - Self::WAYS) == 0 && u128::from(ways) <= Self::MASK);
        Packed68(state << Self::WAYS | u128::from(ways))
    }

    #[inline(always)]
    fn state(&self) -> u128 {
        self.0 >> Self::WAYS
    }

    #[inline(always)]
    fn ways(&self) -> u64 {
        (self.0 & Self::MASK) as u64
    }

    #[inline(always)]
    fn add_ways(&mut self, more: u64, m: Modulus, wrapped: &mut bool) {
        let sum = if m == Modulus::EXACT {
            let sum = u128::from(self.ways()) + u128::from(more);
            *wrapped |= sum > Self::MASK;
            sum & Self::MASK
        } else {
            // residues below a prime below 2^60 fit the field
            u128::from(m.add_prime(self.ways(), more))
        };
        self.0 = self.0 & !Self::MASK | sum;
    }

    const DISK_BYTES: usize = 16;

    fn encode(&self, out: &mut [u8]) {
        out[..16].copy_from_slice(&self.0.to_le_bytes());
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        Some(Packed68(u128::from_le_bytes(bytes[..16].try_into().ok()?)))
    }
}

/// The number type of a state's ways: `u64`, which halves a narrow board's entries and holds every
/// count up to 8x8 closed, or `u128` when a sum passes `u64::MAX` (the count then starts over).
pub(super) trait Ways:
    Copy + Eq + Default + Send + Sync + std::fmt::Debug + 'static
{
    /// Bits of the type, for the overflow error.
    const BITS: u32;
    const ONE: Self;
    /// `*self += more` modulo `m`: wrapping when it is [`Modulus::EXACT`], remembering in
    /// `wrapped` that it did.
    fn add_mod(&mut self, more: Self, m: Modulus, wrapped: &mut bool);
    fn wide(self) -> u128;
    /// Ways from a `u128`, if they fit.
    fn from_wide(x: u128) -> Option<Self>;
}

macro_rules! ways {
    ($int:ty) => {
        impl Ways for $int {
            const BITS: u32 = <$int>::BITS;
            const ONE: Self = 1;
            #[inline(always)]
            fn add_mod(&mut self, more: Self, m: Modulus, wrapped: &mut bool) {
                if m == Modulus::EXACT {
                    let (total, carry) = self.overflowing_add(more);
                    *self = total;
                    *wrapped |= carry;
                } else {
                    // both below a prime below 2^60: the sum fits
                    let s = *self + more;
                    *self = if s >= m.0 as $int { s - m.0 as $int } else { s };
                }
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            fn from_wide(x: u128) -> Option<Self> {
                x.try_into().ok()
            }
        }
    };
}
ways!(u64);
ways!(u128);

/// The next step's states as they are emitted: appended to a batch that, whenever it fills, is
/// sorted (on all threads), summed by state and merged into the sorted list. A state costs 16 bytes
/// (a hash map of `u64 -> u128` took 40 to 80 with its growth), states are read back in order, and
/// the peak is the sorted list plus one batch.
pub(super) struct Gather<E> {
    sorted: Vec<E>,
    batch: Vec<E>,
    /// The states emitted last, one a slot by a hash of the state ([`Gather::add`]): an empty
    /// slot holds [`Gather::vacant`].
    recent: Vec<E>,
    /// Entries of a full batch.
    limit: usize,
    /// A sum of ways wrapped (reported by [`Gather::finish`]).
    wrapped: bool,
    modulus: Modulus,
}

/// Slots of a gather's table of recent states: 16 KiB of 16-byte entries, within a core's
/// first-level cache.
const RECENT: usize = 1 << 10;

/// Entries per batch of all the gathers of a step together: 256 MiB with 16-byte entries, 384 MiB
/// with 24-byte ones.
pub(super) const BATCH: usize = 1 << 24;

impl<E: Entry> Gather<E> {
    /// A gather for about `expected` states emitted, compacting every `batch` entries at most,
    /// summing ways modulo `modulus`.
    pub(super) fn new(expected: usize, batch: usize, modulus: Modulus) -> Self {
        let limit = batch.max(16);
        Gather {
            sorted: Vec::new(),
            batch: Vec::with_capacity(expected.saturating_mul(2).clamp(16, limit)),
            recent: vec![Self::vacant(); RECENT],
            limit,
            wrapped: false,
            modulus,
        }
    }

    /// The mark of an empty slot of `recent`: every cell of the state 15, `FRESH`, which no
    /// state keeps past its step.
    fn vacant() -> E {
        let unused = 4 * E::Key::CELLS as u32 - E::STATE_BITS.min(4 * E::Key::CELLS as u32);
        E::new(!E::Key::default() >> unused as usize, E::Ways::default())
    }

    /// Add `ways` to `state`. The states of one part come from sorted states, so the same
    /// successor is often emitted a few times close together (states that differ only in the
    /// cell leaving the window lead to the same ones): a small table of the latest sums, one slot
    /// a hash, adds those in place, and a state pushed out of its slot goes to the batch. The
    /// batch, sorted and summed, then holds fewer entries; every sum is the same.
    #[inline(always)]
    pub(super) fn add(&mut self, state: E::Key, ways: E::Ways) {
        let wide = state.widen();
        let hash = ((wide as u64) ^ (wide >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &mut self.recent[(hash >> (64 - RECENT.trailing_zeros())) as usize];
        if slot.state() == state {
            slot.add_ways(ways, self.modulus, &mut self.wrapped);
            return;
        }
        let old = std::mem::replace(slot, E::new(state, ways));
        if old.state() != Self::vacant().state() {
            self.push(old);
        }
    }

    /// Add an entry to the batch, compacting it when full.
    #[inline(always)]
    fn push(&mut self, e: E) {
        self.batch.push(e);
        if self.batch.len() >= self.limit {
            self.compact();
        }
    }

    /// Distinct states gathered so far, not counting the unsorted batch.
    pub(super) fn distinct(&self) -> usize {
        self.sorted.len()
    }

    fn compact(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        self.batch.par_sort_unstable_by_key(|e| e.state());
        sum_runs(&mut self.batch, self.modulus, &mut self.wrapped);
        if self.sorted.is_empty() {
            std::mem::swap(&mut self.sorted, &mut self.batch);
            self.batch.clear();
            return;
        }
        merge_into(
            &mut self.sorted,
            &self.batch,
            self.modulus,
            &mut self.wrapped,
        );
        self.batch.clear();
    }

    /// The sorted, distinct states, and whether a sum of ways wrapped (past the ways' bits, in an
    /// exact count: the ways are then right modulo 2^bits only).
    pub(super) fn finish(mut self) -> (Vec<E>, bool) {
        let vacant = Self::vacant().state();
        let recent = std::mem::take(&mut self.recent);
        for e in recent.into_iter().filter(|e| e.state() != vacant) {
            self.push(e);
        }
        self.compact();
        // the list may sit in a batch's room, which held every state before they were summed
        self.sorted.shrink_to_fit();
        (self.sorted, self.wrapped)
    }
}

/// Merge the sorted, distinct `lists` (gathered side by side from parts of one step's states) into
/// one sorted, distinct list, summing the ways of equal states, held as consecutive key ranges:
/// about `ranges` of them, split at quantiles of the lists' keys. The ranges are merged from the
/// highest down, a wave of one per thread at a time, and after each wave the lists give back the
/// memory of the keys it took (truncated and shrunk), so the peak is the lists plus one wave's
/// ranges, not the lists and their merge both whole. Every state's sum is the same whatever the
/// lists, so the result does not depend on how the step was split. Sums are modulo `m`; the flag
/// says whether one wrapped (passed the ways' bits in an exact count).
pub(super) fn merge_lists<E: Entry>(
    mut lists: Vec<Vec<E>>,
    ranges: usize,
    m: Modulus,
) -> (Vec<Vec<E>>, bool) {
    lists.retain(|l| !l.is_empty());
    if lists.len() <= 1 {
        return (lists, false);
    }
    let ranges = ranges.max(1);
    // every list's quantiles, then evenly spaced among them: splits of about equal size
    let mut samples: Vec<E::Key> = lists
        .iter()
        .flat_map(|l| (1..ranges).map(move |q| l[q * l.len() / ranges].state()))
        .collect();
    samples.sort_unstable();
    let mut splits: Vec<E::Key> = (1..ranges)
        .map(|q| samples[q * samples.len() / ranges])
        .collect();
    splits.dedup();
    // range r holds the keys in [bounds[r], bounds[r + 1])
    let bounds: Vec<Option<E::Key>> = std::iter::once(None)
        .chain(splits.into_iter().map(Some))
        .chain(std::iter::once(None))
        .collect();
    // where range r begins and ends in `l`
    let at = |l: &[E], key: E::Key| l.partition_point(|e| e.state() < key);
    let begin = |l: &[E], r: usize| bounds[r].map_or(0, |k| at(l, k));
    let end = |l: &[E], r: usize| bounds[r + 1].map_or(l.len(), |k| at(l, k));
    let wave = rayon::current_num_threads().max(1);
    let mut merged = Vec::with_capacity(bounds.len() - 1);
    let mut top = bounds.len() - 1;
    while top > 0 {
        let low = top.saturating_sub(wave);
        let done: Vec<(Vec<E>, bool)> = (low..top)
            .into_par_iter()
            .rev()
            .map(|r| {
                let parts: Vec<&[E]> = lists.iter().map(|l| &l[begin(l, r)..end(l, r)]).collect();
                merge_parts(&parts, m)
            })
            .collect();
        merged.extend(done);
        for l in &mut lists {
            l.truncate(begin(l, low));
            l.shrink_to_fit();
        }
        top = low;
    }
    merged.reverse();
    let wrapped = merged.iter().any(|(_, w)| *w);
    let merged = merged
        .into_iter()
        .map(|(v, _)| v)
        .filter(|v| !v.is_empty())
        .collect();
    (merged, wrapped)
}

/// The sorted, distinct `parts` merged into one, equal states summed (a heap of the parts' heads,
/// the top replaced in place by its part's next head: one sift where a pop and a push took two).
fn merge_parts<E: Entry>(parts: &[&[E]], m: Modulus) -> (Vec<E>, bool) {
    let mut out: Vec<E> = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
    let mut next = vec![0; parts.len()];
    let mut heads: BinaryHeap<Reverse<(E::Key, usize)>> = parts
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty())
        .map(|(i, p)| Reverse((p[0].state(), i)))
        .collect();
    let mut wrapped = false;
    while let Some(mut top) = heads.peek_mut() {
        let Reverse((state, i)) = *top;
        let e = parts[i][next[i]];
        match out.last_mut() {
            Some(last) if last.state() == state => last.add_ways(e.ways(), m, &mut wrapped),
            _ => out.push(e),
        }
        next[i] += 1;
        match parts[i].get(next[i]) {
            Some(more) => *top = Reverse((more.state(), i)),
            None => {
                PeekMut::pop(top);
            }
        }
    }
    (out, wrapped)
}

/// Merge the sorted, distinct `more` into the sorted, distinct `into`, summing the ways of equal
/// states. In place, from the back: the list grows by `more.len()` (a reallocation, not a second
/// list), so the peak is one list, not two. Sums modulo `m`; sets `wrapped` if one wraps.
fn merge_into<E: Entry>(into: &mut Vec<E>, more: &[E], m: Modulus, wrapped: &mut bool) {
    let (na, nb) = (into.len(), more.len());
    into.resize(na + nb, E::new(Default::default(), Default::default()));
    // `into[..i]` and `more[..j]` are still to merge; the merged tail is `into[k..]`, and
    // `k - i >= j` throughout, so writing at `k - 1` never overwrites an unread entry.
    let (mut i, mut j, mut k) = (na, nb, na + nb);
    while j > 0 {
        k -= 1;
        let b = more[j - 1];
        if i > 0 && into[i - 1].state() > b.state() {
            into[k] = into[i - 1];
            i -= 1;
        } else if i > 0 && into[i - 1].state() == b.state() {
            let mut e = into[i - 1];
            e.add_ways(b.ways(), m, wrapped);
            into[k] = e;
            i -= 1;
            j -= 1;
        } else {
            into[k] = b;
            j -= 1;
        }
    }
    // equal states left a gap `into[i..k]`: close it
    into.copy_within(k.., i);
    into.truncate(i + (na + nb - k));
}

/// Sum the ways of equal consecutive states of the sorted `v` into one entry each, modulo `m`. Sets
/// `wrapped` if a sum wraps.
pub(super) fn sum_runs<E: Entry>(v: &mut Vec<E>, m: Modulus, wrapped: &mut bool) {
    let mut out = 0;
    for i in 0..v.len() {
        if out > 0 && v[out - 1].state() == v[i].state() {
            let more = v[i].ways();
            v[out - 1].add_ways(more, m, wrapped);
        } else {
            v[out] = v[i];
            out += 1;
        }
    }
    v.truncate(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathering_sums_equal_states_whatever_the_batches() {
        // states emitted in a scrambled order with repeats, gathered with tiny batches and at once
        let emitted: Vec<(u64, u128)> = (0..5000u64)
            .map(|i| ((i * 7919) % 613, u128::from(i % 5) << (i % 70)))
            .collect();
        let mut want = std::collections::BTreeMap::new();
        for &(s, w) in &emitted {
            *want.entry(s).or_insert(0u128) += w;
        }
        let want: Vec<Pair<u64, u128>> = want.into_iter().map(|(s, w)| Pair::new(s, w)).collect();
        for batch in [1, 2, 3, 64, 1000, 10_000] {
            let mut g = Gather::<Pair<u64, u128>> {
                sorted: Vec::new(),
                batch: Vec::new(),
                recent: Vec::new(),
                limit: BATCH,
                wrapped: false,
                modulus: Modulus::EXACT,
            };
            for chunk in emitted.chunks(batch) {
                for &(s, w) in chunk {
                    g.batch.push(Pair::new(s, w));
                }
                g.compact();
            }
            assert_eq!(g.finish(), (want.clone(), false), "batches of {batch}");
        }
    }

    /// Sums gathered through the table of recent states equal a map's (the slow twin): states
    /// repeated close together, far apart, and more of them than the table has slots, so that
    /// slots are shared and states pushed out; small batches and one.
    #[test]
    fn the_table_of_recent_states_changes_no_sum() {
        let emitted: Vec<(u64, u64)> = (0..200_000u64)
            .map(|i| {
                let near = i / 3 % 700;
                let state = if i % 5 == 0 {
                    (i * 7919) % 20_011
                } else {
                    near
                };
                (state << 4 | (i % 2), i % 1000)
            })
            .collect();
        let mut want = std::collections::BTreeMap::new();
        for &(s, w) in &emitted {
            *want.entry(s).or_insert(0u64) += w;
        }
        let want: Vec<Pair<u64, u64>> = want.into_iter().map(|(s, w)| Pair::new(s, w)).collect();
        for batch in [16, 1000, BATCH] {
            let mut g = Gather::<Pair<u64, u64>>::new(10, batch, Modulus::EXACT);
            for &(s, w) in &emitted {
                g.add(s, w);
            }
            assert_eq!(g.finish(), (want.clone(), false), "batches of {batch}");
        }
        // the empty slots' mark is no state a step keeps: every cell FRESH
        assert_eq!(Gather::<Pair<u64, u64>>::vacant().state(), u64::MAX);
        assert_eq!(Gather::<Packed68>::vacant().state(), (1 << 68) - 1);
    }

    #[test]
    fn merged_lists_are_one_sorted_list_of_the_sums_whatever_the_ranges() {
        // lists of overlapping, sorted, distinct states, as the parts of a step gather them
        let lists: Vec<Vec<Pair<u64, u128>>> = (0..5u64)
            .map(|l| {
                let states: std::collections::BTreeSet<u64> =
                    (0..400 * l).map(|i| (i * 7919 + l * 31) % 997).collect();
                states
                    .into_iter()
                    .map(|s| Pair::new(s, u128::from(s + l) << (s % 90)))
                    .collect()
            })
            .collect();
        let mut want = std::collections::BTreeMap::new();
        for e in lists.iter().flatten() {
            *want.entry(e.state()).or_insert(0u128) += e.ways();
        }
        let want: Vec<Pair<u64, u128>> = want.into_iter().map(|(s, w)| Pair::new(s, w)).collect();
        for ranges in [1, 2, 3, 8, 100, 5000] {
            let (merged, wrapped) = merge_lists(lists.clone(), ranges, Modulus::EXACT);
            assert!(!wrapped);
            assert!(merged.iter().all(|r| !r.is_empty()), "{ranges} ranges");
            let flat: Vec<Pair<u64, u128>> = merged.into_iter().flatten().collect();
            assert_eq!(flat, want, "{ranges} ranges");
        }
        // one list is already merged
        let exact = Modulus::EXACT;
        assert_eq!(
            merge_lists(vec![want.clone()], 4, exact),
            (vec![want.clone()], false)
        );
        assert_eq!(
            merge_lists::<Pair<u64, u128>>(Vec::new(), 4, exact),
            (Vec::new(), false)
        );
        // a sum past u128::MAX in any range
        let half = u128::MAX / 2 + 1;
        let big = |s: u64| vec![Pair::new(1u64, 1), Pair::new(s, half), Pair::new(900, 2)];
        for ranges in [1, 2, 3] {
            assert!(merge_lists(vec![big(5), big(5)], ranges, exact).1);
            assert!(!merge_lists(vec![big(5), big(6)], ranges, exact).1);
        }
    }

    /// A 68-bit state and 60-bit ways share a `u128`, sorted as the state, summed as the ways, and a
    /// sum past 2^60 - 1 is reported.
    #[test]
    fn packed_entries_hold_a_state_and_its_ways() {
        let states = [0u128, 1, (1 << 68) - 1, 0x0000_1234_5678_9ABC_DEFF];
        let ways = [0u64, 1, (1 << 60) - 1, 0x0ABC_DEF0_1234_5678];
        for &s in &states {
            for &w in &ways {
                let e = Packed68::new(s, w);
                assert_eq!((e.state(), e.ways()), (s, w));
            }
        }
        let emitted: Vec<(u128, u64)> = (0..3000u128)
            .map(|i| {
                (
                    ((i * 7919) % 541) << 58 | (i % 7),
                    (i as u64 % 5) << (i % 50),
                )
            })
            .collect();
        let (mut packed, mut pairs) = (
            Gather::<Packed68>::new(8, 64, Modulus::EXACT),
            Gather::<Pair<u128, u128>>::new(8, 64, Modulus::EXACT),
        );
        for &(s, w) in &emitted {
            packed.add(s, w);
            pairs.add(s, u128::from(w));
        }
        let (packed, pairs) = (packed.finish().0, pairs.finish().0);
        let widened: Vec<(u128, u128)> = packed
            .iter()
            .map(|e| (e.state(), u128::from(e.ways())))
            .collect();
        let want: Vec<(u128, u128)> = pairs.iter().map(|e| (e.state(), e.ways())).collect();
        assert_eq!(widened, want);
        let mut e = Packed68::new(5, (1 << 60) - 2);
        let mut wrapped = false;
        e.add_ways(1, Modulus::EXACT, &mut wrapped);
        assert!(!wrapped && e.ways() == (1 << 60) - 1 && e.state() == 5);
        e.add_ways(1, Modulus::EXACT, &mut wrapped);
        assert!(wrapped && e.state() == 5 && e.ways() == 0);
        // modulo a prime below 2^60, nothing wraps: the sum is reduced
        let p = Modulus((1 << 60) - 93);
        let mut e = Packed68::new(7, p.0 - 1);
        e.add_ways(5, p, &mut wrapped);
        assert_eq!((e.state(), e.ways()), (7, 4));
        let mut pair = Pair::<u64, u64>::new(7, p.0 - 2);
        pair.add_ways(p.0 - 3, p, &mut wrapped);
        assert_eq!(pair.ways(), p.0 - 5);
    }

    #[test]
    fn gathering_reports_sums_past_u128_max() {
        let half = u128::MAX / 2 + 1;
        // within one batch (summed runs) and across batches (merged lists)
        for batch in [1, 3] {
            let mut g = Gather::<Pair<u64, u128>>::new(4, BATCH, Modulus::EXACT);
            for ways in [half, 1, half] {
                g.add(5, ways);
                if batch == 1 {
                    g.compact();
                }
            }
            assert!(g.finish().1, "batches of {batch}");
        }
        // u128::MAX itself is still a count
        let mut g = Gather::<Pair<u64, u128>>::new(4, BATCH, Modulus::EXACT);
        g.add(5, half);
        g.add(5, half - 1);
        assert_eq!(g.finish(), (vec![Pair::new(5, u128::MAX)], false));
    }
}
