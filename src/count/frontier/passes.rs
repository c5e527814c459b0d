//! The passes of a frontier count: a first pass with exact ways in the states' bits (64, or 60
//! beside an 8-wide board's state, widened to 128 in flight where the largest near those bits:
//! `widen.rs`), which is the count unless a sum passed its bits; then, if one did, a pass modulo
//! each prime of the count's [`PrimeSet`] until the moduli's product passes [`bound_bits`], the
//! exact counts recombined from the residues by the Chinese remainder theorem ([`Residues`]). A checkpoint carries the residues of the passes done, so that a count resumes in
//! the pass it stopped in.
//!
//! Source: the module documentation of `modular` (residues, the bound, the recombination); the
//! passes' order and their checkpoints are ktour's own.

use super::checkpoint::{self, Done};
use super::gather::Entry;
use super::modular::{length_at, within_bound, Modulus, Residues};
use super::plan::Plan;
use super::spill::SpillDir;
use super::widen::{Widens, HEADROOM_BITS};
use super::{bound_bits, count_rows, wide, FrontierOptions, FrontierProgress, Run};
use super::{Packed68, Pair, Tally};
use crate::board::{Board, Closure};
use crate::count::CountError;
use num_bigint::BigUint;
use std::time::Instant;

/// What the passes counted: the exact tours of each length (one, or one a row with
/// `every_length`), the largest step, the work and the passes.
pub(super) struct Counted {
    pub(super) values: Vec<BigUint>,
    pub(super) peak_states: usize,
    pub(super) transitions: u64,
    pub(super) passes: u32,
    /// Runs written to disk, over all passes.
    pub(super) spilled_runs: u64,
}

/// Count the tours of `board` as `plan` lays it out, with the entries its width takes.
pub(super) fn count(
    plan: &Plan,
    board: Board,
    closure: Closure,
    options: &FrontierOptions,
    every_length: bool,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<Counted, CountError> {
    let id = checkpoint::Identity {
        rows: plan.rows,
        cols: plan.cols,
        closed: closure.is_closed(),
        ways_bits: 0,
        fold: true,
        every_length,
        modulus: 0,
    };
    let done = options
        .checkpoint
        .and_then(|path| checkpoint::passes_of(path, id))
        .unwrap_or_default();
    // the count's own folder under --temp, removed (with every run left) when it ends
    let dir = match &options.spill {
        Some(spill) => {
            let (entry, disk) = if wide(plan.cols) {
                (std::mem::size_of::<Packed68>(), Packed68::DISK_BYTES)
            } else {
                (
                    std::mem::size_of::<Pair<u64, u64>>(),
                    Pair::<u64, u64>::DISK_BYTES,
                )
            };
            Some(
                SpillDir::create(spill, entry, disk)
                    .map_err(|problem| CountError::FrontierSpill { problem })?,
            )
        }
        None => None,
    };
    let run = Run {
        max_states: options.max_states,
        fold: true,
        began: Instant::now(),
        checkpoint: options.checkpoint,
        modulus: Modulus::EXACT,
        pass: 0,
        every_length,
        done: &[],
        spill: dir.as_ref(),
        widen: None,
    };
    let counted = if wide(plan.cols) {
        count_passes::<Packed68>(plan, board, closure, run, options, done, progress)
    } else {
        count_passes::<Pair<u64, u64>>(plan, board, closure, run, options, done, progress)
    }?;
    if let Some(path) = options.checkpoint {
        // what is counted needs no resuming; a file that is already gone is no error
        let _ = std::fs::remove_file(path);
        let _ = std::fs::remove_file(checkpoint::base_path(path));
    }
    Ok(counted)
}

/// What the passes of a count have done so far, over all of them.
#[derive(Default)]
struct Totals {
    peak_states: usize,
    transitions: u64,
    spilled_runs: u64,
}

impl Totals {
    /// One pass with entries `F`, summed as `run` says, its work added to the totals.
    fn pass<F: Widens>(
        &mut self,
        plan: &Plan,
        board: Board,
        closure: Closure,
        run: Run,
        progress: &mut dyn FnMut(&FrontierProgress),
    ) -> Result<Tally, CountError> {
        let tally = count_rows::<F>(plan, board, closure, run, progress)?;
        self.peak_states = tally.peak_states.max(self.peak_states);
        self.transitions += tally.transitions;
        self.spilled_runs += tally.runs;
        Ok(tally)
    }

    fn counted(self, values: Vec<BigUint>, passes: u32) -> Counted {
        Counted {
            values,
            peak_states: self.peak_states,
            transitions: self.transitions,
            passes,
            spilled_runs: self.spilled_runs,
        }
    }
}

/// The modulus an exact pass that widened to 128-bit ways (`widen.rs`) leaves when it wraps
/// anyway: its sums are right modulo 2^128, and 2^127 is the largest power of two a `u128`
/// modulus holds.
pub(super) const WIDE_MODULUS: u128 = 1 << 127;

/// The passes with entries `E`: the exact one (which widens its ways in flight where `options`
/// say so); where it wraps, one a prime until the bound is passed, from `options`' primes. Each is
/// skipped if `done` (a checkpoint's) holds its residues.
fn count_passes<E: Widens>(
    plan: &Plan,
    board: Board,
    closure: Closure,
    run: Run,
    options: &FrontierOptions,
    mut done: Vec<Done>,
    progress: &mut dyn FnMut(&FrontierProgress),
) -> Result<Counted, CountError> {
    let mut totals = Totals::default();
    fn at<'a>(run: Run<'a>, modulus: Modulus, number: u32, done: &'a [Done]) -> Run<'a> {
        Run {
            modulus,
            pass: number,
            done,
            ..run
        }
    }
    // an exact pass is done, or none is wanted (`modular_only`), when `done` holds a residue
    if done.is_empty() {
        let exact = Run {
            widen: options.widen.then_some(HEADROOM_BITS),
            ..at(run, Modulus::EXACT, 0, &done)
        };
        let exact = totals.pass::<E>(plan, board, closure, exact, progress)?;
        if !exact.wrapped {
            let values = exact.values().into_iter().map(BigUint::from).collect();
            return Ok(totals.counted(values, 1));
        }
        // 128-bit sums are right modulo 2^128, so modulo 2^127
        let power = if exact.ways_bits >= 128 {
            WIDE_MODULUS
        } else {
            1u128 << exact.ways_bits
        };
        let residues = exact.values().iter().map(|v| v % power).collect();
        done.push((power, residues));
    }
    let bound = bound_bits(plan.rows, plan.cols, closure.is_closed());
    let mut number = 0;
    for p in options.primes.primes() {
        let bits: f64 = done.iter().map(|&(m, _)| (m as f64).log2()).sum();
        if bits > bound {
            break;
        }
        number += 1;
        if done.iter().any(|&(m, _)| m == u128::from(p)) {
            continue;
        }
        let m = Modulus(p);
        let tally = totals.pass::<E>(plan, board, closure, at(run, m, number, &done), progress)?;
        let residues = tally
            .values()
            .iter()
            .map(|&v| u128::from(m.reduce(v)))
            .collect();
        done.push((u128::from(p), residues));
    }
    let lengths = done[0].1.len();
    let mut values = Vec::with_capacity(lengths);
    for n in 0..lengths {
        let pairs = done.iter().map(|(m, r)| (*m, r[n])).collect();
        let value = Residues { pairs }.value();
        // the count of every length is below its own bound: residues that recombine past it
        // disagree, which the moduli's slack over the bound catches for all but a few errors
        let length = length_at(n, run.every_length, plan.rows);
        let own = bound_bits(length, plan.cols, closure.is_closed());
        if !within_bound(&value, own) {
            return Err(CountError::ResiduesPastBound {
                board,
                length,
                bound: own,
            });
        }
        values.push(value);
    }
    Ok(totals.counted(values, done.len() as u32))
}

/// The count of `board` by passes modulo `options`' primes only, and the passes: the
/// recombination tested where the exact pass would give the count at once.
#[cfg(test)]
pub(super) fn modular_only(
    plan: &Plan,
    board: Board,
    closure: Closure,
    options: &FrontierOptions,
) -> (BigUint, u32) {
    let run = Run::unlimited(true);
    // a modulus of 1 stands for the exact pass: every number is 0 modulo 1
    let done = vec![(1, vec![0])];
    let primes_only = FrontierOptions {
        widen: false,
        ..*options
    };
    let counted =
        count_passes::<Pair<u64, u64>>(plan, board, closure, run, &primes_only, done, &mut |_| {})
            .unwrap();
    (
        counted.values.into_iter().next_back().unwrap(),
        counted.passes - 1,
    )
}
