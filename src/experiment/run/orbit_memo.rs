//! The runs of an orbit's walked group, kept until every other member of the orbit has taken them
//! (`plan::Orbits`): the sweep's workers share it. A group is kept in the canonical group's order of
//! runs (by start), whichever member was walked; each member that takes or gives it counts down, and
//! the last one removes it. Members run elsewhere (another shard, an earlier invocation) never
//! count down: their entries stay until the sweep ends, and the memo stops keeping new ones at its
//! byte limit. A member that finds nothing walks its runs itself: the memo saves work, it never
//! decides a result.

use crate::experiment::record::{DeadEndLengths, Tally};
use crate::solve::RunSummary;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A walked group of an orbit: its runs in the canonical group's order, and its tally, which is
/// every member's (the same runs, start by start mirrored).
#[derive(Debug)]
pub struct Walked {
    /// The runs, by the canonical group's starts (none kept when the sweep writes no run rows).
    pub runs: Vec<RunSummary>,
    /// Their tally.
    pub tally: Tally,
    /// Their dead ends by length.
    pub dead_ends: DeadEndLengths,
}

/// Most bytes the memo keeps (or an eighth of the memory available when the sweep starts, if
/// less: it is a cache, and a member it cannot serve is walked). All 40,320 orderings from every start of 8x8 need about 25 MiB at
/// once when their run rows are written (5,040 orbits of 64 runs, each kept from its first member
/// to its last), a few hundred KiB when only their tallies are.
pub const MEMO_BYTES: u64 = 256 << 20;

struct Entry {
    walked: Arc<Walked>,
    /// Members still to take it.
    left: u32,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<u32, Entry>,
    bytes: u64,
}

/// Locks the memo is split under, by canonical group number, each with an equal share of its bytes:
/// a corner sweep takes from it once a group, and on one lock two workers spent 4% of their time
/// waiting for each other (`benches/README.md`).
const SHARDS: usize = 64;

/// Walked groups by canonical group number, shared by a sweep's workers.
pub struct OrbitMemo {
    shards: Box<[Mutex<Inner>]>,
    /// Most bytes a shard keeps.
    limit: u64,
}

impl Default for OrbitMemo {
    fn default() -> Self {
        OrbitMemo {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            limit: MEMO_BYTES.min(crate::memory::available_bytes() / 8) / SHARDS as u64,
        }
    }
}

fn bytes_of(walked: &Walked) -> u64 {
    (walked.runs.capacity() * std::mem::size_of::<RunSummary>()
        + walked.dead_ends.bytes()
        + std::mem::size_of::<Walked>()
        + 64) as u64
}

impl Inner {
    /// Count `used` members of the orbit of `canonical` down, dropping its entry at the last;
    /// what it holds, if it has one.
    fn count_down(&mut self, canonical: u32, used: u32) -> Option<Arc<Walked>> {
        let entry = self.entries.get_mut(&canonical)?;
        let walked = entry.walked.clone();
        entry.left = entry.left.saturating_sub(used);
        if entry.left == 0 {
            self.entries.remove(&canonical);
            self.bytes -= bytes_of(&walked);
        }
        Some(walked)
    }
}

impl OrbitMemo {
    /// The shard that keeps the orbit of canonical group `canonical`.
    fn shard(&self, canonical: u32) -> std::sync::MutexGuard<'_, Inner> {
        self.shards[canonical as usize % SHARDS]
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// The runs of the orbit of canonical group `canonical`, if a member has been walked, counting
    /// this member down.
    pub fn take(&self, canonical: u32) -> Option<Arc<Walked>> {
        self.shard(canonical).count_down(canonical, 1)
    }

    /// Keep the runs of a member of an orbit of `members` groups, just walked (in the canonical
    /// group's order), for the others; `used` members (this one included) have had them already
    /// and count down. If another member's runs are there already (two walked at once), they are
    /// kept and this only counts down.
    pub fn give(&self, canonical: u32, members: u32, used: u32, walked: Arc<Walked>) {
        let mut inner = self.shard(canonical);
        if inner.count_down(canonical, used).is_some() {
            return;
        }
        let bytes = bytes_of(&walked);
        if members <= used || inner.bytes + bytes > self.limit {
            return;
        }
        inner.bytes += bytes;
        inner.entries.insert(
            canonical,
            Entry {
                walked,
                left: members - used,
            },
        );
    }

    /// Whether nothing is kept.
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.shards.iter().all(|s| {
            let inner = s.lock().unwrap();
            inner.entries.is_empty() && inner.bytes == 0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(n: u32) -> Arc<Walked> {
        Arc::new(Walked {
            runs: (0..n)
                .map(|v| RunSummary {
                    outcome: crate::solve::Outcome::DeadEnd,
                    closes: false,
                    visited: v,
                    stats: Default::default(),
                    attempts: 1,
                })
                .collect(),
            tally: Tally::default(),
            dead_ends: DeadEndLengths::default(),
        })
    }

    /// Kept until every member took it; a second walk of the same orbit only counts down.
    #[test]
    fn entries_live_until_the_last_member() {
        let memo = OrbitMemo::default();
        assert!(memo.take(3).is_none());
        memo.give(3, 3, 1, runs(4));
        memo.give(3, 3, 1, runs(4));
        assert_eq!(memo.take(3).map(|w| w.runs.len()), Some(4));
        assert!(memo.is_empty());
        assert!(memo.take(3).is_none());
        // nor one whose members have all had it
        memo.give(5, 2, 2, runs(2));
        assert!(memo.is_empty());
    }
}
