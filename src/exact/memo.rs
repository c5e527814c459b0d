//! Merging identical sub-states of the tree walk: the same squares visited and the same head,
//! reached by different tie choices, have the same subtree below them (pure Warnsdorff reads only
//! the degrees, which the visited set fixes, the head, and the start, fixed for a walk), so its
//! outcome distribution is computed once and added again wherever the state recurs. A
//! transposition table in the sense of game-tree search (Greenblatt, Eastlake & Crocker 1967),
//! keyed exactly (no hash collisions can merge two states): the visited set as a 128-bit mask and
//! the head, so boards of at most 128 squares. Values live in one arena, no allocation per entry
//! once it has grown.

use super::number::{Numer, Scale};
use rustc_hash::FxHashMap;

/// A state: the visited squares (bit `i` = square `i` in row-major order) and the head.
pub type StateKey = (u128, u16);

/// Where a stored value lies in the arena, and its scale.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    from: u32,
    len: u16,
    /// The value's denominator.
    pub scale: Scale,
}

/// The table: state -> distribution of outcomes below it (category, numerator over `scale`).
#[derive(Debug)]
pub struct Memo<N> {
    /// Hashed with rustc's Fx hash: the keys are already well mixed bit sets, and std's SipHash
    /// would cost more than the lookups save.
    map: FxHashMap<StateKey, Entry>,
    arena: Vec<(u16, N)>,
    /// Most entries kept; past it, states are no longer stored (those stored are still found).
    limit: usize,
}

impl<N: Numer> Memo<N> {
    /// An empty table that keeps at most `limit` entries.
    pub fn new(limit: usize) -> Self {
        Memo {
            map: FxHashMap::default(),
            arena: Vec::new(),
            limit,
        }
    }

    /// Forget every entry, keeping the allocations (a new start: closing depends on it).
    pub fn clear(&mut self) {
        self.map.clear();
        self.arena.clear();
    }

    /// The stored value of `key`.
    #[inline]
    pub fn get(&self, key: &StateKey) -> Option<Entry> {
        self.map.get(key).copied()
    }

    /// The categories and numerators of a stored value.
    #[inline]
    pub fn values(&self, e: Entry) -> &[(u16, N)] {
        &self.arena[e.from as usize..e.from as usize + e.len as usize]
    }

    /// Store the value `values` over `scale` for `key`, unless the table is full.
    pub fn insert(&mut self, key: StateKey, scale: Scale, values: impl Iterator<Item = (u16, N)>) {
        if self.map.len() >= self.limit || self.arena.len() >= u32::MAX as usize - 1024 {
            return;
        }
        let from = self.arena.len();
        self.arena.extend(values);
        let len = (self.arena.len() - from) as u16;
        self.map.insert(
            key,
            Entry {
                from: from as u32,
                len,
                scale,
            },
        );
    }
}
