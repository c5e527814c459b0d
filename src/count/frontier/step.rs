//! One step of the frontier count: square `i` added to every current state. The states are cut
//! into parts, a few per thread; each part is expanded by the step's transitions into a sorted list
//! of the next states it reaches ([`Expansion::expand`], the count's hot loop) while the parts'
//! memory is watched; then what the parts gave is summed and merged into the next step's states,
//! and the step's limits are checked in an order that does not depend on how it was split.
//!
//! Source: the method and its memory layout are those of the module documentation of `frontier`;
//! the memory budget is ktour's own.

use super::gather::{merge_lists, sum_runs, Entry, Gather, Ways, BATCH};
use super::modular::Modulus;
use super::packed::{Successor, Transitions};
use super::plan::Plan;
use super::spill::{merge_runs, Sink, SpillDir, SpillProblem, States};
use super::{Key, Tally};
use crate::board::{Board, Closure};
use crate::count::CountError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Parts a step's states are split into, per thread.
const PARTS_PER_THREAD: usize = 4;

/// Successors a state has at most: no edge, one to each of at most four earlier neighbours, or two
/// of them (`packed::Transitions::successors`).
const MAX_SUCCESSORS: usize = 11;

/// What every step of one count shares: the board, its plan and the count's limits.
pub(super) struct Stepping<'a> {
    pub(super) plan: &'a Plan,
    pub(super) board: Board,
    pub(super) closure: Closure,
    pub(super) max_states: usize,
    /// Fold the states at the end of each row onto their mirror images.
    pub(super) fold: bool,
    pub(super) threads: usize,
    /// What the ways are summed modulo.
    pub(super) modulus: Modulus,
    /// Count the tours of the board cut after each row too (a whole sequence in one run).
    pub(super) every_length: bool,
}

impl Stepping<'_> {
    /// Add square `i` to the `current` states: the next step's states (sorted key ranges) and how
    /// many they are; the transitions, the tours completed (and with `every_length`, at a row's
    /// end, the tours of the board cut there) and whether a sum wrapped are added to `count`.
    /// Refused with [`CountError::FrontierMemory`] or [`CountError::TooManyStates`].
    pub(super) fn add_square<E: Entry>(
        &self,
        i: usize,
        current: Vec<Vec<E>>,
        count: &mut Tally,
    ) -> Result<(Vec<Vec<E>>, usize), CountError> {
        // Parts of about equal size, a few per thread so that a slow one does not hold up the
        // others; small steps and single threads in one part, whose list then needs no merge. The
        // current states come as key ranges of about that size (the last merge made them), so
        // each part owns one and frees it when expanded: the memory of a step is what remains of
        // the current states plus what the parts gathered, never both whole.
        let held: usize = current.iter().map(Vec::len).sum();
        let parts = if self.threads == 1 || held < 1 << 12 {
            1
        } else {
            PARTS_PER_THREAD * self.threads
        };
        let lists = split_lists(current, held.div_ceil(parts).max(1));
        let held_by_parts = AtomicUsize::new(held);
        let available = crate::memory::available_bytes();
        let step = self.expansion::<E>(i, held, available, &held_by_parts);
        let give_up = AtomicBool::new(false);
        let expand = |list: Vec<E>| {
            let expanded = step.expand(&list, &give_up);
            held_by_parts.fetch_sub(list.len(), Ordering::Relaxed);
            expanded
        };
        // one part needs no thread of the pool (small boards' steps are mostly one part)
        let done: Vec<Expanded<E>> = if lists.len() == 1 {
            lists.into_iter().map(expand).collect()
        } else {
            lists.into_par_iter().map(expand).collect()
        };
        if done.iter().any(|p| p.out_of_memory) {
            return Err(CountError::FrontierMemory {
                board: self.board,
                square: i as u32,
                held: held_by_parts.load(Ordering::Relaxed),
                state_bytes: std::mem::size_of::<E>(),
                available_mib: available >> 20,
            });
        }
        self.collect(i, done, parts, give_up.load(Ordering::Relaxed), count)
    }

    /// The step adding square `i` to `held` states, with `available` bytes of memory free when it
    /// began; `held_by_parts` counts what the parts hold.
    fn expansion<'a, E: Entry>(
        &'a self,
        i: usize,
        held: usize,
        available: u64,
        held_by_parts: &'a AtomicUsize,
    ) -> Expansion<'a, E::Key> {
        let plan = self.plan;
        let entry_bytes = std::mem::size_of::<E>();
        let batch_bytes = (BATCH * entry_bytes) as u64;
        // the current states, counted in `held_by_parts` until freed, are in use already
        let current_bytes = (held * entry_bytes) as u64;
        let usable =
            crate::memory::usable_share(available + current_bytes).saturating_sub(batch_bytes);
        let mirror = (self.fold && plan.steps[i].row_end).then_some(&plan.mirror);
        let last = i + 1 == plan.n;
        let closed = self.closure.is_closed();
        Expansion {
            // the transitions test `closed` at every cell: one flag, read once
            moves: Transitions::new(&plan.steps[i], plan.w, closed, last, mirror),
            // the same square as the last of a board that ends with its row
            closing: (self.every_length && plan.steps[i].row_end)
                .then(|| Transitions::new(&plan.steps[i], plan.w, closed, true, None)),
            max_states: self.max_states,
            batch: BATCH / self.threads,
            held: held_by_parts,
            // the merge that follows holds a wave of its ranges on top of the parts' lists
            budget: (usable / entry_bytes as u64 * 4 / 5) as usize,
            modulus: self.modulus,
        }
    }

    /// What the parts of step `i` gave, summed into `count` and merged into the next states; the
    /// step's errors in an order that does not depend on how it was split (`gave_up`: a part
    /// passed the limit on states).
    fn collect<E: Entry>(
        &self,
        i: usize,
        done: Vec<Expanded<E>>,
        parts: usize,
        gave_up: bool,
        count: &mut Tally,
    ) -> Result<(Vec<Vec<E>>, usize), CountError> {
        let mut lists = Vec::with_capacity(done.len());
        let mut closing = 0u128;
        for part in done {
            count.transitions += part.transitions;
            add_wrapping(&mut count.tours, part.tours, &mut count.wrapped);
            add_wrapping(&mut closing, part.closing, &mut count.wrapped);
            count.wrapped |= part.wrapped;
            lists.push(part.states);
        }
        if self.every_length && self.plan.steps[i].row_end {
            count.lengths.push(closing);
        }
        let too_many = || CountError::TooManyStates {
            board: self.board,
            max_states: self.max_states,
            square: i as u32,
        };
        // A part past the limit held a step's worth of states alone: the step holds more.
        if gave_up {
            return Err(too_many());
        }
        let (next, wrapped) = merge_lists(lists, parts, self.modulus);
        count.wrapped |= wrapped;
        let held: usize = next.iter().map(Vec::len).sum();
        if held > self.max_states {
            return Err(too_many());
        }
        Ok((next, held))
    }
}

impl Stepping<'_> {
    /// [`Stepping::add_square`] under a bound on memory (`dir`'s): the `current` states (in memory
    /// or a file) are read a chunk at a time and their successors fill a buffer of what the bound
    /// leaves, sorted and summed whenever it fills and written to a run when still more than half
    /// full; the runs and the rest of the buffer are merged into the next states (in memory while
    /// they take half the bound at most, else a file). Also returns the runs this step wrote.
    pub(super) fn add_square_spilled<E: Entry>(
        &self,
        i: usize,
        current: States<E>,
        dir: &SpillDir,
        count: &mut Tally,
    ) -> Result<(States<E>, usize, u64), CountError> {
        let spill = |problem: SpillProblem| CountError::FrontierSpill { problem };
        let runs_before = dir.runs();
        let entries = dir.entries(std::mem::size_of::<E>());
        // the current states in memory take their share; a chunk read from a file takes its own
        let room = entries.saturating_sub(current.resident());
        let chunk = (room / (4 * MAX_SUCCESSORS + 1)).max(1);
        let cap = room.saturating_sub(chunk).max(chunk * MAX_SUCCESSORS);
        // the Expansion's budget is the in-memory steps'; the bound here is the buffer's room
        let unused = AtomicUsize::new(0);
        let step = self.expansion::<E>(i, 0, 0, &unused);
        let m = self.modulus;
        let mut buffer: Vec<E> = Vec::with_capacity(cap);
        let mut runs = std::collections::VecDeque::new();
        let (mut wrapped, mut closing) = (false, 0u128);
        current
            .drain(dir, chunk, &mut |part| {
                if buffer.len() + part.len() * MAX_SUCCESSORS > cap {
                    reduce(&mut buffer, m, &mut wrapped);
                    if buffer.len() > cap / 2 {
                        runs.push_back(dir.write_run(&buffer)?);
                        buffer.clear();
                    }
                }
                let e = expand_chunk(&step, part, &mut buffer, self.threads);
                count.transitions += e.transitions;
                add_wrapping(&mut count.tours, e.tours, &mut count.wrapped);
                add_wrapping(&mut closing, e.closing, &mut count.wrapped);
                count.wrapped |= e.wrapped;
                Ok(())
            })
            .map_err(spill)?;
        if self.every_length && self.plan.steps[i].row_end {
            count.lengths.push(closing);
        }
        reduce(&mut buffer, m, &mut wrapped);
        let keep = entries / 2;
        let next = if runs.is_empty() && buffer.len() <= keep {
            buffer.shrink_to_fit();
            States::Memory(vec![buffer])
        } else if runs.is_empty() {
            States::Disk(dir.write_run(&buffer).map_err(spill)?)
        } else {
            if !buffer.is_empty() {
                runs.push_back(dir.write_run(&buffer).map_err(spill)?);
            }
            drop(buffer);
            let mut sink = Sink::new(dir, keep);
            merge_runs(dir, runs, m, &mut wrapped, &mut sink).map_err(spill)?;
            sink.finish().map_err(spill)?
        };
        count.wrapped |= wrapped;
        let held = next.len();
        if held > self.max_states {
            return Err(CountError::TooManyStates {
                board: self.board,
                max_states: self.max_states,
                square: i as u32,
            });
        }
        Ok((next, held, dir.runs() - runs_before))
    }
}

/// Sort `buffer` by state (on all threads) and sum the ways of equal states, modulo `m`.
fn reduce<E: Entry>(buffer: &mut Vec<E>, m: Modulus, wrapped: &mut bool) {
    buffer.par_sort_unstable_by_key(|e| e.state());
    sum_runs(buffer, m, wrapped);
}

/// The successors of `part` appended to `buffer`, which has room for [`MAX_SUCCESSORS`] an
/// entry: the part is cut into pieces, one a few per thread, each writing into its own stretch of
/// that room, and the stretches are then closed up.
fn expand_chunk<E: Entry>(
    step: &Expansion<E::Key>,
    part: &[E],
    buffer: &mut Vec<E>,
    threads: usize,
) -> Emitted {
    let start = buffer.len();
    let filler = E::new(Default::default(), Default::default());
    // filled on all threads: one thread writing a step's room was a twentieth of a spilled step
    buffer.par_extend(rayon::iter::repeat_n(filler, part.len() * MAX_SUCCESSORS));
    let pieces = if threads == 1 || part.len() < 1 << 10 {
        1
    } else {
        PARTS_PER_THREAD * threads
    };
    let size = part.len().div_ceil(pieces).max(1);
    let done: Vec<Emitted> = buffer[start..]
        .par_chunks_mut(size * MAX_SUCCESSORS)
        .zip(part.par_chunks(size))
        .map(|(out, piece)| step.expand_into(piece, out))
        .collect();
    let mut end = start;
    let mut all = Emitted::default();
    for (k, d) in done.iter().enumerate() {
        let from = start + k * size * MAX_SUCCESSORS;
        buffer.copy_within(from..from + d.written, end);
        end += d.written;
        all.transitions += d.transitions;
        add_wrapping(&mut all.tours, d.tours, &mut all.wrapped);
        add_wrapping(&mut all.closing, d.closing, &mut all.wrapped);
        all.wrapped |= d.wrapped;
    }
    buffer.truncate(end);
    all
}

/// What a piece of a spilled step wrote and counted.
#[derive(Default)]
struct Emitted {
    /// Successors written.
    written: usize,
    tours: u128,
    closing: u128,
    transitions: u64,
    wrapped: bool,
}

/// One step (adding square `i`) to apply to a part of the current states.
struct Expansion<'a, K> {
    moves: Transitions<'a, K>,
    /// At a row's end, with `every_length`: the step as the last of a board cut after the row,
    /// whose tours are counted from the same states.
    closing: Option<Transitions<'a, K>>,
    max_states: usize,
    /// Entries of a gathering batch of one part.
    batch: usize,
    /// Entries the parts' lists and the current states not yet expanded hold together, and the most
    /// that memory allows them (four fifths of what is usable when the step begins, less the
    /// batches).
    held: &'a AtomicUsize,
    budget: usize,
    modulus: Modulus,
}

/// What a part of a step's states gave.
struct Expanded<E> {
    /// The next states it reached, sorted, with their ways.
    states: Vec<E>,
    /// A sum of their ways wrapped (an exact count past its ways' bits).
    wrapped: bool,
    /// Tours completed (undirected, sums of ways: modulo the count's modulus once reduced),
    /// wrapping; `wrapped` if they did.
    tours: u128,
    /// Tours of the board cut after this row (`Expansion::closing`).
    closing: u128,
    transitions: u64,
    /// It stopped because the parts' lists together passed what memory holds.
    out_of_memory: bool,
}

impl<K: Key> Expansion<'_, K> {
    /// Every transition of the states of `part`: each state with no edge, one edge or two edges to
    /// the new square. Stops early, setting `give_up`, when this part's next states pass the limit
    /// (the step's do then too), or when another part set it.
    fn expand<E: Entry<Key = K>>(&self, part: &[E], give_up: &AtomicBool) -> Expanded<E> {
        let mut next = Gather::new(part.len(), self.batch, self.modulus);
        let mut out = Expanded {
            states: Vec::new(),
            wrapped: false,
            tours: 0,
            closing: 0,
            transitions: 0,
            out_of_memory: false,
        };
        let mut reported = 0;
        for entry in part {
            let distinct = next.distinct();
            if distinct > self.max_states {
                give_up.store(true, Ordering::Relaxed);
            }
            if distinct > reported {
                let more = distinct - reported;
                reported = distinct;
                if self.held.fetch_add(more, Ordering::Relaxed) + more > self.budget {
                    out.out_of_memory = true;
                    give_up.store(true, Ordering::Relaxed);
                }
            }
            if give_up.load(Ordering::Relaxed) {
                return out;
            }
            let ways = entry.ways();
            let tried = self.moves.successors(entry.state(), &mut |s| match s {
                Successor::Tour => add_wrapping(&mut out.tours, ways.wide(), &mut out.wrapped),
                Successor::State(key) => next.add(key, ways),
            });
            out.transitions += tried;
            if let Some(closing) = &self.closing {
                closing.successors(entry.state(), &mut |s| {
                    if s == Successor::Tour {
                        add_wrapping(&mut out.closing, ways.wide(), &mut out.wrapped)
                    }
                });
            }
        }
        let (states, wrapped) = next.finish();
        out.states = states;
        out.wrapped |= wrapped;
        out
    }
}

impl<K: Key> Expansion<'_, K> {
    /// Every successor of the states of `part` written to `out` (room for [`MAX_SUCCESSORS`] a
    /// state), in order, with the tours completed: [`Expansion::expand`] without its gathering.
    fn expand_into<E: Entry<Key = K>>(&self, part: &[E], out: &mut [E]) -> Emitted {
        let mut e = Emitted::default();
        for entry in part {
            let ways = entry.ways();
            let tried = self.moves.successors(entry.state(), &mut |s| match s {
                Successor::Tour => add_wrapping(&mut e.tours, ways.wide(), &mut e.wrapped),
                Successor::State(key) => {
                    out[e.written] = E::new(key, ways);
                    e.written += 1;
                }
            });
            e.transitions += tried;
            if let Some(closing) = &self.closing {
                closing.successors(entry.state(), &mut |s| {
                    if s == Successor::Tour {
                        add_wrapping(&mut e.closing, ways.wide(), &mut e.wrapped)
                    }
                });
            }
        }
        e
    }
}

/// `lists` (sorted key ranges) cut into lists of at most about `size` entries, each a part of its
/// own: the tail of a long list is moved out (a copy of that part only, on the steps whose lists came
/// unmerged from a single part) and the list's spare room given back.
fn split_lists<T>(lists: Vec<Vec<T>>, size: usize) -> Vec<Vec<T>> {
    let mut parts = Vec::with_capacity(lists.len());
    for mut list in lists {
        while list.len() > size + size / 2 {
            parts.push(list.split_off(list.len() - size));
            list.shrink_to_fit();
        }
        parts.push(list);
    }
    parts
}

/// `*sum += more`, wrapping, and remembering in `wrapped` that it did: a branch-free flag the caller
/// checks once a step keeps the hot loops as fast as unchecked sums.
#[inline(always)]
fn add_wrapping(sum: &mut u128, more: u128, wrapped: &mut bool) {
    let (total, carry) = sum.overflowing_add(more);
    *sum = total;
    *wrapped |= carry;
}
