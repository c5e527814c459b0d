//! Widening in flight: an exact pass whose largest ways near the top of their bits converts its
//! states to entries with 128-bit ways and goes on from the square it stands before, instead of
//! wrapping and leaving the count to a second exact pass or to passes modulo primes.
//!
//! A count below 2^128 then takes one pass where it took two or more: 8 x 10 closed (about
//! 2^71.8) counts its first rows in 16-byte entries and the rest in 32-byte ones. The threshold,
//! [`HEADROOM_BITS`] below the ways' bits, is a heuristic, not a proof that one square multiplies
//! the largest ways by less than 2^16 (measured growth per square is far below that): a sum that
//! wraps anyway is flagged as every exact pass's is, and the primes' passes follow (`passes.rs`).
//!
//! Source: ktour's own; the passes it saves are described in `docs/counting.md`.

use super::cells::Key;
use super::gather::{Entry, Packed68, Pair, Ways};
use super::spill::{Sink, SpillDir, SpillProblem, States};
use rayon::prelude::*;

/// Bits below the top of the ways' bits that the largest ways must stay under before a square
/// is added, or the states widen first.
pub(super) const HEADROOM_BITS: u32 = 16;

/// An entry that converts to one with 128-bit ways and the same key; entries with 128-bit ways
/// are their own wide type.
pub(super) trait Widens: Entry {
    type Wide: Entry<Key = Self::Key, Ways = u128> + Widens<Wide = Self::Wide>;
    fn widen(&self) -> Self::Wide {
        Self::Wide::new(self.state(), self.ways().wide())
    }
}

impl Widens for Pair<u64, u64> {
    type Wide = Pair<u64, u128>;
}

impl Widens for Packed68 {
    type Wide = Pair<u128, u128>;
}

impl<K: Key> Widens for Pair<K, u128> {
    type Wide = Self;
}

/// Whether entries `E` can widen at all (their wide type has more bits of ways).
pub(super) fn can_widen<E: Widens>() -> bool {
    E::Wide::WAYS_BITS > E::WAYS_BITS
}

/// Whether the largest ways among `states` reach 2^(bits - `headroom`): read from memory on all
/// threads, or from a spilling count's file, whose writer noted its largest ways (the file is
/// read only where another process wrote it).
pub(super) fn near_the_bits<E: Entry>(
    states: &States<E>,
    dir: Option<&SpillDir>,
    headroom: u32,
) -> Result<bool, SpillProblem> {
    let limit = 1u128 << E::WAYS_BITS.saturating_sub(headroom);
    match states {
        States::Memory(lists) => Ok(lists
            .par_iter()
            .any(|list| list.iter().any(|e| e.ways().wide() >= limit))),
        States::Disk(run) => match run.largest_ways() {
            Some(largest) => Ok(largest >= limit),
            None => Ok(largest_read(states, dir)? >= limit),
        },
    }
}

/// The largest ways among `states`, read one by one: the slow twin of a file's noted largest.
fn largest_read<E: Entry>(
    states: &States<E>,
    dir: Option<&SpillDir>,
) -> Result<u128, SpillProblem> {
    let mut largest = 0;
    states.for_each(dir, &mut |e| {
        largest = e.ways().wide().max(largest);
        Ok(())
    })?;
    Ok(largest)
}

/// Bytes the widened states take in memory at once: the wide lists beside the narrow ones they
/// are made from, list by list, so at most the wide ones and the largest narrow list.
pub(super) fn widened_bytes<E: Widens>(states: &States<E>) -> u64 {
    match states {
        States::Memory(lists) => {
            let largest = lists.iter().map(Vec::len).max().unwrap_or(0);
            let all: usize = lists.iter().map(Vec::len).sum();
            (all * std::mem::size_of::<E::Wide>() + largest * std::mem::size_of::<E>()) as u64
        }
        States::Disk(_) => 0,
    }
}

/// `states` as entries with wider ways, in the same order: in memory list by list (each narrow
/// list freed once converted), or, when the count spills, through a sink that keeps up to half
/// the bound's wide entries in memory and writes the rest to a file, as a step's states are.
pub(super) fn widen<E: Widens>(
    states: States<E>,
    dir: Option<&SpillDir>,
) -> Result<States<E::Wide>, SpillProblem> {
    match (states, dir) {
        (States::Memory(lists), None) => Ok(States::Memory(
            lists
                .into_iter()
                .map(|list| list.iter().map(Widens::widen).collect())
                .collect(),
        )),
        (states, Some(dir)) => {
            let mut sink = Sink::new(dir, dir.entries(std::mem::size_of::<E::Wide>()) / 2);
            states.drain(dir, 1 << 16, &mut |part| {
                part.iter().try_for_each(|e| sink.push(e.widen()))
            })?;
            sink.finish()
        }
        (States::Disk(_), None) => unreachable!("states are written to disk only by a spill"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_keeps_keys_and_ways() {
        let narrow: Vec<Packed68> = (1..5u128)
            .map(|k| Packed68::new(k << 60 | 3, (1 << 59) + k as u64))
            .collect();
        let States::Memory(wide) = widen(States::Memory(vec![narrow.clone()]), None).unwrap()
        else {
            panic!("in memory")
        };
        for (n, w) in narrow.iter().zip(&wide[0]) {
            assert_eq!((n.state(), u128::from(n.ways())), (w.state(), w.ways()));
        }
        assert!(can_widen::<Packed68>() && can_widen::<Pair<u64, u64>>());
        assert!(!can_widen::<Pair<u64, u128>>() && !can_widen::<Pair<u128, u128>>());
        let states = States::Memory(vec![narrow]);
        assert!(near_the_bits(&states, None, 2).unwrap());
        assert!(!near_the_bits(&states, None, 0).unwrap());
    }

    /// A spilled file's noted largest ways are those its entries hold, read one by one, and
    /// decide as a scan of memory does; through the widening, too.
    #[test]
    fn a_files_noted_largest_ways_are_its_largest() {
        let temp = tempfile::tempdir().unwrap();
        let spill = super::super::Spill {
            memory: 64 << 10,
            temp: temp.path(),
        };
        let dir = SpillDir::create(&spill, 16, 16).unwrap();
        let entries: Vec<Pair<u64, u64>> = (0..5000u64)
            .map(|k| Pair::new(k, k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20))
            .collect();
        let most = entries.iter().map(|e| e.ways()).max().unwrap();
        let file: States<Pair<u64, u64>> = States::Disk(dir.write_run(&entries).unwrap());
        let States::Disk(run) = &file else {
            unreachable!()
        };
        assert_eq!(run.largest_ways(), Some(u128::from(most)));
        assert_eq!(largest_read(&file, Some(&dir)).unwrap(), u128::from(most));
        let memory = States::Memory(vec![entries]);
        for headroom in 0..=64 {
            assert_eq!(
                near_the_bits(&file, Some(&dir), headroom).unwrap(),
                near_the_bits(&memory, None, headroom).unwrap(),
                "headroom {headroom}"
            );
        }
        let States::Disk(wide) = widen(file, Some(&dir)).unwrap() else {
            panic!("more than half the bound's wide entries go to a file")
        };
        assert_eq!(wide.largest_ways(), Some(u128::from(most)));
    }
}
