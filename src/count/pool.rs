//! The endgame caches of a count's worker threads: the check, before the search, that one cache per
//! thread fits in memory, and the pool that lends a cache to each rayon job so that the large tables
//! are allocated about once per thread.
//!
//! Source: the memory rule is ktour's own (80% of the available memory, `crate::memory`); the cache
//! itself is [`EndgameCache`] of the bitboard engine.

use super::bitboard::EndgameCache;
use super::CountError;
use std::sync::Mutex;

/// Bytes of the endgame caches of `threads` worker threads, `2^bits` slots of 24 bytes each.
pub fn cache_bytes(bits: u32, threads: usize) -> u64 {
    (EndgameCache::SLOT_BYTES << bits).saturating_mul(threads as u64)
}

/// Whether the endgame caches of `threads` threads fit within 80% of `available` bytes (the rule of
/// [`crate::experiment::memory::check_workers`]), so that a cache too large is refused instead of aborting the
/// process when the allocation fails.
pub fn check_cache_memory(bits: u32, threads: usize, available: u64) -> Result<(), CountError> {
    let needed = cache_bytes(bits, threads);
    if !crate::memory::fits_in(needed, available) {
        return Err(CountError::CacheTooLarge {
            threads,
            bits,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}

/// A cache borrowed from a pool for one rayon job and given back when the job ends, so that the
/// (large) tables are allocated about once per thread, not once per job.
pub(super) struct Pooled<'a> {
    cache: Option<EndgameCache>,
    pool: &'a Mutex<Vec<EndgameCache>>,
}

impl<'a> Pooled<'a> {
    /// A cache from the pool, or a new one from `make` (whose error is passed on) when it is empty.
    pub(super) fn take<E>(
        pool: &'a Mutex<Vec<EndgameCache>>,
        make: impl FnOnce() -> Result<EndgameCache, E>,
    ) -> Result<Self, E> {
        let cache = pool.lock().expect("no panics while held").pop();
        let cache = match cache {
            Some(cache) => cache,
            None => make()?,
        };
        Ok(Pooled {
            cache: Some(cache),
            pool,
        })
    }

    pub(super) fn get(&mut self) -> &mut EndgameCache {
        self.cache.as_mut().expect("present until dropped")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        if let (Some(cache), Ok(mut pool)) = (self.cache.take(), self.pool.lock()) {
            pool.push(cache);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endgame_caches_must_fit_in_memory() {
        let gib = 1u64 << 30;
        // 2 threads x 24 GiB (--cache-bits 30) on a 32 GiB machine: refused, with the numbers
        assert_eq!(
            check_cache_memory(30, 2, 32 * gib),
            Err(CountError::CacheTooLarge {
                threads: 2,
                bits: 30,
                needed_mib: 48 * 1024,
                available_mib: 32 * 1024,
            })
        );
        // the default 2^20 slots: 24 MiB a thread
        assert_eq!(check_cache_memory(20, 2, 32 * gib), Ok(()));
        assert_eq!(cache_bytes(20, 2), 48 << 20);
        // within 80% of what is available, as for solves and sweeps
        assert_eq!(check_cache_memory(30, 1, 30 * gib), Ok(()));
        assert!(check_cache_memory(30, 1, 29 * gib).is_err());
    }
}
