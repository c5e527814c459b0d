//! The forward pass of the sampler: the frontier count run square by square without folding
//! mirror images (a folded state forgets which of the two images a partial tour is), every
//! step's sorted (state, ways) list kept for the backward pass. The ways are exact `u128`s, each
//! sum checked. A step expands each block of the current states into a sorted, summed run of next
//! states, in parallel, and merges the runs; the sums being exact, the lists do not depend on the
//! number of threads.
//!
//! Source: the row-major transfer-matrix method of `count::frontier` (its transitions, called
//! here unfolded); storing every stage of the counting dynamic programme for a backward pass is
//! the counting-to-sampling scheme of Jerrum, Valiant and Vazirani, "Random generation of
//! combinatorial structures from a uniform distribution", Theoret. Comput. Sci. 43 (1986).

use super::level::{Level, LevelWriter};
use super::store::Storage;
use super::{Progress, SampleError};
use crate::count::frontier::cells::{Key, DONE};
use crate::count::frontier::packed::{Successor, Transitions};
use crate::count::frontier::plan::{Plan, CELLS};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What the forward pass kept: `levels[i]` the states before square `i` is added.
pub(crate) struct Forward {
    pub(crate) levels: Vec<Level>,
    /// Undirected tours (open paths, or cycles).
    pub(crate) tours: u128,
}

/// Run the forward pass of `plan` (open or `closed` tours), keeping its steps in `storage`.
pub(crate) fn forward<K: Key>(
    plan: &Plan,
    closed: bool,
    storage: &Storage,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Forward, SampleError> {
    let mut first = storage.writer("level-0")?;
    let empty = K::pack(&[DONE; CELLS], 0, plan.w).widen();
    first.push(empty, 1).map_err(SampleError::Io)?;
    let mut levels = vec![first.finish().map_err(SampleError::Io)?];
    for i in 0..plan.n - 1 {
        let current = &levels[i];
        // the runs of a step hold about its next states once or twice over, and the next list once
        // more; a next list is rarely more than twice the current one
        storage.check_room(current.bytes().saturating_mul(6) + (64 << 20), i)?;
        let moves = Transitions::new(&plan.steps[i], plan.w, closed, false, None);
        let runs: Vec<Level> = (0..current.blocks())
            .into_par_iter()
            .map(|b| expand::<K>(current, b, &moves, storage.writer(&format!("run-{i}-{b}"))?))
            .collect::<Result<_, _>>()?;
        let next = merge(runs, storage, &format!("level-{}", i + 1))?;
        progress(&Progress::forward(i, plan.n, &next));
        levels.push(next);
    }
    let last = plan.n - 1;
    let moves = Transitions::new(&plan.steps[last], plan.w, closed, true, None);
    let tours = complete::<K>(&levels[last], &moves)?;
    Ok(Forward { levels, tours })
}

/// Block `b` of `level` expanded by `moves` into a run: its next states sorted, with their ways
/// summed.
fn expand<K: Key>(
    level: &Level,
    b: usize,
    moves: &Transitions<K>,
    mut run: LevelWriter,
) -> Result<Level, SampleError> {
    let mut next: Vec<(K, u128)> = Vec::new();
    for (key, ways) in level.block(b).map_err(SampleError::Io)? {
        let state = K::narrow(key).expect("a stored key fits its board's keys");
        moves.successors(state, &mut |s| {
            if let Successor::State(k) = s {
                next.push((k, ways));
            }
        });
    }
    next.sort_unstable_by_key(|&(k, _)| k);
    let mut at = 0;
    while at < next.len() {
        let (key, mut ways) = next[at];
        at += 1;
        while at < next.len() && next[at].0 == key {
            ways = ways.checked_add(next[at].1).ok_or(SampleError::Overflow)?;
            at += 1;
        }
        run.push(key.widen(), ways).map_err(SampleError::Io)?;
    }
    run.finish().map_err(SampleError::Io)
}

/// One run's pairs in order, a block at a time.
struct Cursor<'a> {
    run: &'a Level,
    block: usize,
    pairs: Option<super::level::BlockReader>,
}

impl Cursor<'_> {
    fn next(&mut self) -> Result<Option<(u128, u128)>, SampleError> {
        loop {
            if let Some(reader) = &mut self.pairs {
                if let Some(pair) = reader.next_pair().map_err(SampleError::Io)? {
                    return Ok(Some(pair));
                }
            }
            if self.block == self.run.blocks() {
                return Ok(None);
            }
            self.pairs = Some(self.run.reader(self.block).map_err(SampleError::Io)?);
            self.block += 1;
        }
    }
}

/// The runs merged into one sorted list, the ways of a state in several runs summed.
fn merge(runs: Vec<Level>, storage: &Storage, name: &str) -> Result<Level, SampleError> {
    if runs.len() == 1 {
        return Ok(runs.into_iter().next().expect("one run"));
    }
    let mut cursors: Vec<Cursor> = runs
        .iter()
        .map(|run| Cursor {
            run,
            block: 0,
            pairs: None,
        })
        .collect();
    let mut heap = BinaryHeap::new();
    let mut heads = vec![0u128; cursors.len()];
    for (r, cursor) in cursors.iter_mut().enumerate() {
        if let Some((key, ways)) = cursor.next()? {
            heads[r] = ways;
            heap.push(Reverse((key, r)));
        }
    }
    let mut out = storage.writer(name)?;
    let mut pending: Option<(u128, u128)> = None;
    while let Some(Reverse((key, r))) = heap.pop() {
        pending = match pending {
            Some((k, ways)) if k == key => {
                Some((k, ways.checked_add(heads[r]).ok_or(SampleError::Overflow)?))
            }
            Some((k, ways)) => {
                out.push(k, ways).map_err(SampleError::Io)?;
                Some((key, heads[r]))
            }
            None => Some((key, heads[r])),
        };
        if let Some((key, ways)) = cursors[r].next()? {
            heads[r] = ways;
            heap.push(Reverse((key, r)));
        }
    }
    if let Some((k, ways)) = pending {
        out.push(k, ways).map_err(SampleError::Io)?;
    }
    out.finish().map_err(SampleError::Io)
}

/// The tours the last square completes from `level`: each state's ways once per transition that
/// ends a tour.
fn complete<K: Key>(level: &Level, moves: &Transitions<K>) -> Result<u128, SampleError> {
    let sums: Vec<u128> = (0..level.blocks())
        .into_par_iter()
        .map(|b| {
            let mut sum = 0u128;
            for (key, ways) in level.block(b).map_err(SampleError::Io)? {
                let state = K::narrow(key).expect("a stored key fits its board's keys");
                let mut ends = 0u128;
                moves.successors(state, &mut |s| ends += u128::from(s == Successor::Tour));
                let more = ways.checked_mul(ends).ok_or(SampleError::Overflow)?;
                sum = sum.checked_add(more).ok_or(SampleError::Overflow)?;
            }
            Ok(sum)
        })
        .collect::<Result<_, SampleError>>()?;
    sums.into_iter()
        .try_fold(0u128, |a, b| a.checked_add(b).ok_or(SampleError::Overflow))
}
