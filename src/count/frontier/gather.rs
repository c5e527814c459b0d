//! The storage of the frontier states of one step: sorted lists of (state, ways) entries of 24 bytes
//! (32 with the `u128` keys of 8-wide boards),
//! gathered from the emitted transitions in batches that are sorted, summed by state and merged in
//! place, with every sum of ways checked against `u128::MAX`; and the merge of the lists that the
//! threads gathered side by side into one sorted list held in key ranges ([`merge_lists`]).
//!
//! Source: ktour's own engineering of the transfer-matrix method of the module documentation of
//! `frontier` (a sorted list where a hash map took 40 to 80 bytes a state).

use super::add_wrapping;
use super::cells::Key;
use crate::count::Wrapped;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One frontier state and its number of partial tours, in 24 bytes with a `u64` key (a `u128` ways
/// field would align the pair to 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry<K> {
    pub(super) state: K,
    ways: [u64; 2],
}

impl<K: Key> Entry<K> {
    pub(super) fn new(state: K, ways: u128) -> Self {
        Entry {
            state,
            ways: [ways as u64, (ways >> 64) as u64],
        }
    }

    pub(super) fn ways(&self) -> u128 {
        u128::from(self.ways[0]) | u128::from(self.ways[1]) << 64
    }

    /// Add `more` ways, wrapping; `wrapped` is set if the sum passed `u128::MAX`.
    fn add_ways(&mut self, more: u128, wrapped: &mut bool) {
        let mut ways = self.ways();
        add_wrapping(&mut ways, more, wrapped);
        *self = Entry::new(self.state, ways);
    }
}

/// The next step's states as they are emitted: appended to a batch that, whenever it fills, is
/// sorted (on all threads), summed by state and merged into the sorted list. A state costs 24 bytes
/// (a hash map of `u64 -> u128` took 40 to 80 with its growth), states are read back in order, and
/// the peak is the two lists of consecutive steps plus one batch.
pub(super) struct Gather<K> {
    sorted: Vec<Entry<K>>,
    batch: Vec<Entry<K>>,
    /// Entries of a full batch.
    limit: usize,
    /// A sum of ways wrapped (checked by [`Gather::finish`]).
    wrapped: bool,
}

/// Entries per batch of all the gathers of a step together: 384 MiB with `u64` keys, 512 MiB with
/// `u128` ones.
pub(super) const BATCH: usize = 1 << 24;

impl<K: Key> Gather<K> {
    /// A gather for about `expected` states emitted, compacting every `batch` entries at most.
    pub(super) fn new(expected: usize, batch: usize) -> Self {
        let limit = batch.max(16);
        Gather {
            sorted: Vec::new(),
            batch: Vec::with_capacity(expected.saturating_mul(2).clamp(16, limit)),
            limit,
            wrapped: false,
        }
    }

    pub(super) fn add(&mut self, state: K, ways: u128) {
        self.batch.push(Entry::new(state, ways));
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
        self.batch.par_sort_unstable_by_key(|e| e.state);
        sum_runs(&mut self.batch, &mut self.wrapped);
        if self.sorted.is_empty() {
            std::mem::swap(&mut self.sorted, &mut self.batch);
            self.batch.clear();
            return;
        }
        merge_into(&mut self.sorted, &self.batch, &mut self.wrapped);
        self.batch.clear();
    }

    /// The sorted, distinct states, or [`Wrapped`] if a sum of ways passed `u128::MAX`.
    pub(super) fn finish(mut self) -> Result<Vec<Entry<K>>, Wrapped> {
        self.compact();
        if self.wrapped {
            return Err(Wrapped);
        }
        Ok(self.sorted)
    }
}

/// Merge the sorted, distinct `lists` (gathered side by side from parts of one step's states) into
/// one sorted, distinct list, summing the ways of equal states, held as consecutive key ranges:
/// about `ranges` of them, split at quantiles of the lists' keys and merged in parallel. Every
/// state's sum is the same whatever the lists, so the result does not depend on how the step was
/// split. [`Wrapped`] if a sum passes `u128::MAX`.
pub(super) fn merge_lists<K: Key>(
    mut lists: Vec<Vec<Entry<K>>>,
    ranges: usize,
) -> Result<Vec<Vec<Entry<K>>>, Wrapped> {
    lists.retain(|l| !l.is_empty());
    if lists.len() <= 1 {
        return Ok(lists);
    }
    let ranges = ranges.max(1);
    // every list's quantiles, then evenly spaced among them: splits of about equal size
    let mut samples: Vec<K> = lists
        .iter()
        .flat_map(|l| (1..ranges).map(move |q| l[q * l.len() / ranges].state))
        .collect();
    samples.sort_unstable();
    let mut splits: Vec<K> = (1..ranges)
        .map(|q| samples[q * samples.len() / ranges])
        .collect();
    splits.dedup();
    // range r holds the keys in [bounds[r], bounds[r + 1])
    let bounds: Vec<Option<K>> = std::iter::once(None)
        .chain(splits.into_iter().map(Some))
        .chain(std::iter::once(None))
        .collect();
    let merged: Vec<Result<Vec<Entry<K>>, Wrapped>> = bounds
        .par_windows(2)
        .map(|w| {
            let at = |l: &[Entry<K>], key: Option<K>| {
                key.map_or(l.len(), |k| l.partition_point(|e| e.state < k))
            };
            let parts: Vec<&[Entry<K>]> = lists
                .iter()
                .map(|l| &l[w[0].map_or(0, |k| at(l, Some(k)))..at(l, w[1])])
                .collect();
            merge_parts(&parts)
        })
        .collect();
    merged
        .into_iter()
        .filter(|r| !matches!(r, Ok(v) if v.is_empty()))
        .collect()
}

/// The sorted, distinct `parts` merged into one, equal states summed (a heap of the parts' heads).
fn merge_parts<K: Key>(parts: &[&[Entry<K>]]) -> Result<Vec<Entry<K>>, Wrapped> {
    let mut out: Vec<Entry<K>> = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
    let mut next = vec![0; parts.len()];
    let mut heads: BinaryHeap<Reverse<(K, usize)>> = parts
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_empty())
        .map(|(i, p)| Reverse((p[0].state, i)))
        .collect();
    let mut wrapped = false;
    while let Some(Reverse((state, i))) = heads.pop() {
        let e = parts[i][next[i]];
        match out.last_mut() {
            Some(last) if last.state == state => last.add_ways(e.ways(), &mut wrapped),
            _ => out.push(e),
        }
        next[i] += 1;
        if let Some(more) = parts[i].get(next[i]) {
            heads.push(Reverse((more.state, i)));
        }
    }
    if wrapped {
        return Err(Wrapped);
    }
    Ok(out)
}

/// Merge the sorted, distinct `more` into the sorted, distinct `into`, summing the ways of equal
/// states. In place, from the back: the list grows by `more.len()` (a reallocation, not a second
/// list), so the peak is one list, not two. Sets `wrapped` if a sum passes `u128::MAX`.
fn merge_into<K: Key>(into: &mut Vec<Entry<K>>, more: &[Entry<K>], wrapped: &mut bool) {
    let (na, nb) = (into.len(), more.len());
    into.resize(na + nb, Entry::new(K::default(), 0));
    // `into[..i]` and `more[..j]` are still to merge; the merged tail is `into[k..]`, and
    // `k - i >= j` throughout, so writing at `k - 1` never overwrites an unread entry.
    let (mut i, mut j, mut k) = (na, nb, na + nb);
    while j > 0 {
        k -= 1;
        let b = more[j - 1];
        if i > 0 && into[i - 1].state > b.state {
            into[k] = into[i - 1];
            i -= 1;
        } else if i > 0 && into[i - 1].state == b.state {
            let mut e = into[i - 1];
            e.add_ways(b.ways(), wrapped);
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

/// Sum the ways of equal consecutive states of the sorted `v` into one entry each. Sets `wrapped` if a
/// sum passes `u128::MAX`.
fn sum_runs<K: Key>(v: &mut Vec<Entry<K>>, wrapped: &mut bool) {
    let mut out = 0;
    for i in 0..v.len() {
        if out > 0 && v[out - 1].state == v[i].state {
            let more = v[i].ways();
            v[out - 1].add_ways(more, wrapped);
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
        let want: Vec<Entry<u64>> = want.into_iter().map(|(s, w)| Entry::new(s, w)).collect();
        for batch in [1, 2, 3, 64, 1000, 10_000] {
            let mut g = Gather::<u64> {
                sorted: Vec::new(),
                batch: Vec::new(),
                limit: BATCH,
                wrapped: false,
            };
            for chunk in emitted.chunks(batch) {
                for &(s, w) in chunk {
                    g.batch.push(Entry::new(s, w));
                }
                g.compact();
            }
            assert_eq!(g.finish().as_ref(), Ok(&want), "batches of {batch}");
        }
    }

    #[test]
    fn merged_lists_are_one_sorted_list_of_the_sums_whatever_the_ranges() {
        // lists of overlapping, sorted, distinct states, as the parts of a step gather them
        let lists: Vec<Vec<Entry<u64>>> = (0..5u64)
            .map(|l| {
                let states: std::collections::BTreeSet<u64> =
                    (0..400 * l).map(|i| (i * 7919 + l * 31) % 997).collect();
                states
                    .into_iter()
                    .map(|s| Entry::new(s, u128::from(s + l) << (s % 90)))
                    .collect()
            })
            .collect();
        let mut want = std::collections::BTreeMap::new();
        for e in lists.iter().flatten() {
            *want.entry(e.state).or_insert(0u128) += e.ways();
        }
        let want: Vec<Entry<u64>> = want.into_iter().map(|(s, w)| Entry::new(s, w)).collect();
        for ranges in [1, 2, 3, 8, 100, 5000] {
            let merged = merge_lists(lists.clone(), ranges).unwrap();
            assert!(merged.iter().all(|r| !r.is_empty()), "{ranges} ranges");
            let flat: Vec<Entry<u64>> = merged.into_iter().flatten().collect();
            assert_eq!(flat, want, "{ranges} ranges");
        }
        // one list is already merged
        assert_eq!(merge_lists(vec![want.clone()], 4), Ok(vec![want.clone()]));
        assert_eq!(merge_lists::<u64>(Vec::new(), 4), Ok(Vec::new()));
        // a sum past u128::MAX in any range
        let half = u128::MAX / 2 + 1;
        let big = |s: u64| vec![Entry::new(1u64, 1), Entry::new(s, half), Entry::new(900, 2)];
        for ranges in [1, 2, 3] {
            assert_eq!(merge_lists(vec![big(5), big(5)], ranges), Err(Wrapped));
            assert!(merge_lists(vec![big(5), big(6)], ranges).is_ok());
        }
    }

    #[test]
    fn gathering_reports_sums_past_u128_max() {
        let half = u128::MAX / 2 + 1;
        // within one batch (summed runs) and across batches (merged lists)
        for batch in [1, 3] {
            let mut g = Gather::<u64>::new(4, BATCH);
            for ways in [half, 1, half] {
                g.add(5, ways);
                if batch == 1 {
                    g.compact();
                }
            }
            assert_eq!(g.finish(), Err(Wrapped), "batches of {batch}");
        }
        // u128::MAX itself is still a count
        let mut g = Gather::<u64>::new(4, BATCH);
        g.add(5, half);
        g.add(5, half - 1);
        assert_eq!(g.finish(), Ok(vec![Entry::new(5, u128::MAX)]));
    }
}
