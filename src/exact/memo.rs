//! Merging identical sub-states of the tree walk: the same squares visited and the same head,
//! reached by different tie choices, have the same subtree below them (pure Warnsdorff reads only
//! the degrees, which the visited set fixes, the head, and the start, fixed for a walk), so its
//! outcome distribution is computed once and added again wherever the state recurs. A
//! transposition table in the sense of game-tree search (Greenblatt, Eastlake & Crocker 1967),
//! keyed exactly (no hash collisions can merge two states): the visited set as a 128-bit mask and
//! the head, so boards of at most 128 squares. Values live in one arena, no allocation per entry
//! once it has grown.

use super::number::{Numer, Scale};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A state: the visited squares (bit `i` = square `i` in row-major order) and the head.
pub type StateKey = (u128, u16);

/// The multiply-rotate hash of rustc's FxHasher: the keys are already well mixed bit sets, and
/// SipHash would cost more than the lookups save.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.write_u64(n as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

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
    map: HashMap<StateKey, Entry, BuildHasherDefault<FxHasher>>,
    arena: Vec<(u16, N)>,
    /// Most entries kept; past it, states are no longer stored (those stored are still found).
    limit: usize,
}

impl<N: Numer> Memo<N> {
    /// An empty table that keeps at most `limit` entries.
    pub fn new(limit: usize) -> Self {
        Memo {
            map: HashMap::default(),
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
