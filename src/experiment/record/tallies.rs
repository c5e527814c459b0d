//! The tallies and dead ends of the groups a sweep has run, in group order ([`Tallies`]): what
//! `summary.csv` and `deadends.csv` are written from, added to chunk by chunk in run order.

use super::deadends::merge_lengths;
use super::{ChunkRow, DeadEndLengths, Tally};
use std::borrow::Cow;

/// The tallies of the groups a sweep has run, by group number, in order (`summary.csv` is written
/// from them as they are read). Only the groups with runs are held (a shard of a sweep of millions
/// of groups holds its own), in two sets of sorted lists, those resumed and those run now: a sweep
/// adds its chunks in run order, so a group is added at the end of its list or to its last entry,
/// never searched for. A group takes its number and its tally (144 bytes), where an ordered map
/// took half as much again, and a group with dead ends its lengths besides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tallies {
    resumed: Lists,
    added: Lists,
}

/// A group's number and its dead-end lengths: (length, runs) pairs, shortest first.
pub type GroupDeadEnds<'a> = (u32, Cow<'a, [(u32, u64)]>);

/// Groups' tallies and dead ends, each list in group order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lists {
    tallies: Vec<(u32, Tally)>,
    /// Only the groups with dead ends, each with the end of its lengths in `lengths`: most groups
    /// have none (a corner sweep's groups of one run that found a tour). One list for all groups'
    /// lengths, not one a group: an `order:*` sweep's 35,000 lists were allocated on the thread
    /// holding the writing turn and freed one by one at the sweep's end.
    dead_ends: Vec<(u32, usize)>,
    /// The dead-end lengths of the groups in `dead_ends`, each group's shortest first.
    lengths: Vec<(u32, u64)>,
}

impl Lists {
    /// Add `dead_ends` of `group`, a group at or after the last one with dead ends.
    fn add_dead_ends(&mut self, group: u32, dead_ends: &DeadEndLengths) {
        let n = self.dead_ends.len();
        match self.dead_ends.last() {
            // its lengths are the last in `lengths`
            Some(&(g, _)) if g == group => {
                let from = n.checked_sub(2).map_or(0, |i| self.dead_ends[i].1);
                merge_lengths(&mut self.lengths, from, &dead_ends.0);
                self.dead_ends[n - 1].1 = self.lengths.len();
            }
            last => {
                debug_assert!(
                    last.map_or(true, |&(g, _)| g < group),
                    "groups in run order"
                );
                self.lengths.extend_from_slice(&dead_ends.0);
                self.dead_ends.push((group, self.lengths.len()));
            }
        }
    }

    /// Each group with dead ends and its lengths, in group order.
    fn dead_ends(&self) -> impl Iterator<Item = (u32, &[(u32, u64)])> + '_ {
        let mut from = 0;
        self.dead_ends.iter().map(move |&(g, to)| {
            let lengths = &self.lengths[from..to];
            from = to;
            (g, lengths)
        })
    }
}

/// Add `item` of `group` to the last entry of `list` if it is that group's, else push it: groups
/// come in order.
fn add_last<T>(list: &mut Vec<(u32, T)>, group: u32, item: &T, merge: impl Fn(&mut T, &T))
where
    T: Clone,
{
    match list.last_mut() {
        Some((g, t)) if *g == group => merge(t, item),
        last => {
            debug_assert!(
                last.map_or(true, |(g, _)| *g < group),
                "groups in run order"
            );
            list.push((group, item.clone()));
        }
    }
}

/// Two lists in group order merged into one, each entry taken by `take`, a group in both lists
/// merged by `add`.
fn merged<E, T>(
    a: impl Iterator<Item = (u32, E)>,
    b: impl Iterator<Item = (u32, E)>,
    take: impl Fn((u32, E)) -> T,
    add: impl Fn(&mut T, (u32, E)),
) -> impl Iterator<Item = T> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(&(ga, _)), Some(&(gb, _))) => Some(if ga == gb {
            let mut t = take(a.next()?);
            add(&mut t, b.next()?);
            t
        } else if ga < gb {
            take(a.next()?)
        } else {
            take(b.next()?)
        }),
        (Some(_), None) => a.next().map(&take),
        (None, _) => b.next().map(&take),
    })
}

impl Tallies {
    /// The tallies of journal rows in run order (so their groups come in order), as resumed.
    pub fn of_rows(rows: &[ChunkRow]) -> Tallies {
        let mut t = Tallies::default();
        for r in rows {
            t.add(r.group, &r.tally, &r.dead_ends);
        }
        t.resumed = std::mem::take(&mut t.added);
        t
    }

    /// Count `tally` and `dead_ends` of `group`, a group at or after the last one added (run
    /// order).
    pub fn add(&mut self, group: u32, tally: &Tally, dead_ends: &DeadEndLengths) {
        add_last(&mut self.added.tallies, group, tally, Tally::merge);
        if !dead_ends.is_empty() {
            self.added.add_dead_ends(group, dead_ends);
        }
    }

    /// The number and dead-end lengths (shortest first) of every group with dead ends, in group
    /// order, borrowed unless a group is in both lists (`deadends.csv` needs the lists alone).
    pub fn dead_ends(&self) -> impl Iterator<Item = GroupDeadEnds<'_>> + '_ {
        merged(
            self.resumed.dead_ends(),
            self.added.dead_ends(),
            |(g, d)| (g, Cow::Borrowed(d)),
            |(_, d), (_, more)| merge_lengths(d.to_mut(), 0, more),
        )
    }

    /// Every group's number and tally, in group order (`summary.csv` needs the tallies alone, one
    /// a group).
    pub fn tallies(&self) -> impl Iterator<Item = (u32, Tally)> + '_ {
        merged(
            self.resumed.tallies.iter().map(|(g, t)| (*g, t)),
            self.added.tallies.iter().map(|(g, t)| (*g, t)),
            |(g, t)| (g, *t),
            |(_, t), (_, more)| t.merge(more),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tallies resumed and run now come out in group order, a group in both summed, its dead ends
    /// by length too.
    #[test]
    fn tallies_resumed_and_run_now_come_out_in_group_order() {
        let runs = |n| Tally {
            runs: n,
            ..Tally::default()
        };
        let ends = |l: u32| {
            let mut d = DeadEndLengths::default();
            d.add(l);
            d
        };
        let rows: Vec<ChunkRow> = [(0, 1), (2, 2), (2, 3), (5, 4)]
            .iter()
            .enumerate()
            .map(|(i, &(g, n))| {
                ChunkRow::new(i as u64, g, 10 * i as u64, &runs(n), &ends(n as u32))
            })
            .collect();
        let mut t = Tallies::of_rows(&rows);
        for (g, n) in [(1, 10), (2, 20), (2, 30), (6, 40)] {
            t.add(g, &runs(n), &ends(if n == 30 { 3 } else { n as u32 }));
        }
        // a group without dead ends, resumed and run now: it has a tally and no dead-end entry
        t.add(7, &runs(2), &DeadEndLengths::default());
        let want = [
            (0, 1, "1:1"),
            (1, 10, "10:1"),
            (2, 55, "2:1;3:2;20:1"),
            (5, 4, "4:1"),
            (6, 40, "40:1"),
            (7, 2, ""),
        ];
        // the tallies and the dead ends each in group order, group 2 merged in both
        let tallies: Vec<(u32, u64)> = t.tallies().map(|(g, t)| (g, t.runs)).collect();
        let ends: Vec<(u32, String)> = t
            .dead_ends()
            .map(|(g, d)| (g, DeadEndLengths(d.into_owned()).to_string()))
            .collect();
        assert_eq!(tallies, want.map(|(g, n, _)| (g, n)));
        let with_ends = want.iter().filter(|w| !w.2.is_empty());
        assert_eq!(
            ends,
            with_ends
                .map(|&(g, _, d)| (g, d.to_string()))
                .collect::<Vec<_>>()
        );
    }

    /// The dead ends held in one list for all groups give, group by group, what a map of one
    /// [`DeadEndLengths`] a group merged with [`DeadEndLengths::merge`] gives: random groups in
    /// run order, each added several times (a group spanning chunks), some resumed, some run now.
    #[test]
    fn dead_ends_in_one_list_match_a_list_a_group() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..300 {
            let mut model: std::collections::BTreeMap<u32, DeadEndLengths> = Default::default();
            let mut add = |group: u32, rng: &mut rand_xoshiro::Xoshiro256PlusPlus| {
                let mut d = DeadEndLengths::default();
                for _ in 0..rng.gen_range(0..4) {
                    d.add(rng.gen_range(1..12));
                }
                if !d.is_empty() {
                    model.entry(group).or_default().merge(&d);
                }
                d
            };
            let (mut rows, mut group) = (Vec::new(), 0);
            for i in 0..rng.gen_range(0..20) {
                group += rng.gen_range(0..3);
                let d = add(group, &mut rng);
                rows.push(ChunkRow::new(i, group, 0, &Tally::default(), &d));
            }
            let mut t = Tallies::of_rows(&rows);
            let mut group = rng.gen_range(0..10);
            for _ in 0..rng.gen_range(0..20) {
                group += rng.gen_range(0..3);
                let d = add(group, &mut rng);
                t.add(group, &Tally::default(), &d);
            }
            let got: Vec<(u32, Vec<(u32, u64)>)> =
                t.dead_ends().map(|(g, d)| (g, d.into_owned())).collect();
            let want: Vec<(u32, Vec<(u32, u64)>)> =
                model.into_iter().map(|(g, d)| (g, d.0)).collect();
            assert_eq!(got, want);
        }
    }
}
