//! One shard's sittings: its passes, each a square at a time between barriers, resumed from its
//! last marker; the merge of the runs addressed to it and the split of its successors into runs.
//!
//! Source: the method of the module documentation of `shard`; the steps are `step.rs`'s.

use super::folder::{Folder, Tallied};
use super::{admit_shard, first_states, manifest, pass_modulus, plan_of, shard_of, total};
use super::{wide_entries, ShardDone, ShardError, ShardEvent, ShardOptions, BUFFERS};
use crate::board::{Board, Closure};
use crate::count::frontier::cells::Key;
use crate::count::frontier::gather::{Entry, Packed68, Pair};
use crate::count::frontier::modular::Modulus;
use crate::count::frontier::plan::Plan;
use crate::count::frontier::spill::{merge_runs, RunFile, Sink, Spill, SpillDir, States};
use crate::count::frontier::step::Stepping;
use crate::count::frontier::{FrontierProgress, Tally};
use std::time::{Duration, Instant};

/// Bytes of a run's header (`spill.rs`).
const HEADER: u64 = 40;

/// Count this shard's part of the tours of `board` ([`super`]'s module documentation), resuming
/// from what a sitting before left in the shared folder, telling `events` how it goes. Its part
/// is written to the folder; [`super::collect_shards`] sums the parts once all shards finished.
pub fn count_shard(
    board: Board,
    closure: Closure,
    options: &ShardOptions,
    events: &mut dyn FnMut(ShardEvent),
) -> Result<ShardDone, ShardError> {
    let plan = plan_of(board);
    admit_shard(board, &plan, options)?;
    let folder = Folder::open(options.shared, options.shards, options.shard)?;
    folder.agree(&manifest(board, closure, options))?;
    let shard = Shard {
        plan: &plan,
        board,
        closure,
        options,
        folder: &folder,
    };
    if wide_entries(&plan) {
        shard.passes::<Packed68>(events)
    } else {
        shard.passes::<Pair<u64, u64>>(events)
    }
}

/// What a shard's passes share.
struct Shard<'a> {
    plan: &'a Plan,
    board: Board,
    closure: Closure,
    options: &'a ShardOptions<'a>,
    folder: &'a Folder,
}

impl Shard<'_> {
    /// Every pass the count takes: the exact one, then, if any shard's sum wrapped, one a prime
    /// until the bound; a pass this shard finished before is not counted again.
    fn passes<E: Entry>(
        &self,
        events: &mut dyn FnMut(ShardEvent),
    ) -> Result<ShardDone, ShardError> {
        let entry = std::mem::size_of::<E>();
        let work = self.folder.work();
        let spill = self.options.spill.unwrap_or(Spill {
            memory: BUFFERS,
            temp: &work,
        });
        let dir = SpillDir::create(&spill, entry, E::DISK_BYTES)?;
        // a step's merged states stay in memory but under a bound on memory
        let keep = match self.options.spill {
            Some(_) => dir.entries(entry) / 2,
            None => usize::MAX,
        };
        let mut done = ShardDone {
            passes: 0,
            transitions: 0,
            peak_states: 0,
            written_bytes: 0,
            elapsed: Duration::ZERO,
        };
        let mut wrapped = false;
        while let Some(modulus) = match done.passes {
            0 => Some(Modulus::EXACT),
            pass if wrapped => pass_modulus(
                self.plan,
                self.closure,
                self.options.primes,
                E::WAYS_BITS,
                pass,
            ),
            _ => None,
        } {
            let pass = done.passes;
            let tally = match self.folder.finished(pass)? {
                Some(tally) => tally,
                None => {
                    let tally = self.pass::<E>(&dir, keep, pass, modulus, events)?;
                    self.folder.finish(pass, &tally)?;
                    tally
                }
            };
            // the last square's inputs, kept until the result was written
            self.folder.remove_inputs(pass, self.plan.n)?;
            done.passes += 1;
            done.transitions += tally.transitions;
            done.peak_states = done.peak_states.max(tally.peak);
            done.written_bytes += tally.written;
            done.elapsed += Duration::from_millis(tally.millis);
            if pass == 0 {
                // whether more passes are needed is every shard's to say
                let waiting =
                    &mut |missing: &[u32], waited| events(ShardEvent::Waiting { missing, waited });
                self.folder.barrier(0, None, self.options.wait, waiting)?;
                let results = self.folder.results(0)?.unwrap_or_default();
                wrapped = total(&results).1;
            }
        }
        Ok(done)
    }

    /// One pass of this shard, from its last marker of the pass if it has one.
    fn pass<E: Entry>(
        &self,
        dir: &SpillDir,
        keep: usize,
        pass: u32,
        modulus: Modulus,
        events: &mut dyn FnMut(ShardEvent),
    ) -> Result<Tallied, ShardError> {
        let plan = self.plan;
        let folder = self.folder;
        let began = Instant::now();
        let (start, mut tally) = match folder.last_mark(pass)? {
            Some((square, tally)) => {
                events(ShardEvent::Resumed { pass, square });
                (square, tally)
            }
            None => (
                0,
                Tallied {
                    ways_bits: E::WAYS_BITS,
                    ..Tallied::default()
                },
            ),
        };
        let before = tally.millis;
        if plan.n == 1 {
            // the 1x1 board: one open tour, on shard 0
            tally.tours = u128::from(!self.closure.is_closed() && folder.me == 0);
            return Ok(tally);
        }
        let stepping = Stepping {
            plan,
            board: self.board,
            closure: self.closure,
            max_states: self.options.max_states,
            fold: true,
            threads: rayon::current_num_threads().max(1),
            modulus,
            every_length: false,
        };
        for i in start..plan.n {
            let current = if i == 0 {
                first_states::<E>(plan, folder)
            } else {
                let waiting =
                    &mut |missing: &[u32], waited| events(ShardEvent::Waiting { missing, waited });
                folder.barrier(pass, Some(i), self.options.wait, waiting)?;
                self.inputs::<E>(dir, keep, pass, i, modulus, &mut tally)?
            };
            let mut count = Tally::default();
            let (next, held) = match (self.options.spill, current) {
                (Some(_), current) => {
                    let (next, held, _) =
                        stepping.add_square_spilled(i, current, dir, &mut count)?;
                    (next, held)
                }
                (None, States::Memory(lists)) => {
                    let (next, held) = stepping.add_square(i, lists, &mut count)?;
                    (States::Memory(next), held)
                }
                (None, States::Disk(_)) => unreachable!("states are on disk only under --memory"),
            };
            tally.transitions += count.transitions;
            let (tours, carry) = tally.tours.overflowing_add(count.tours);
            tally.tours = tours;
            tally.wrapped |= count.wrapped || carry;
            tally.peak = tally.peak.max(held as u64);
            if i + 1 < plan.n {
                tally.written += self.publish(dir, pass, i + 1, next)?;
                tally.millis = before + began.elapsed().as_millis() as u64;
                folder.mark(pass, i + 1, &tally)?;
                folder.remove_inputs(pass, i + 1)?;
            }
            let mut told = FrontierProgress::at(plan, i, held, pass, modulus, start, E::WAYS_BITS);
            told.elapsed = began.elapsed();
            events(ShardEvent::Square(&told));
        }
        tally.millis = before + began.elapsed().as_millis() as u64;
        Ok(tally)
    }

    /// The runs the shards wrote for this one before square `square`, merged (ways summed): in
    /// memory, or past `keep` entries in a file of `dir`. The shared files stay (read through links
    /// of this shard's own) until this shard's runs of the next square are published.
    fn inputs<E: Entry>(
        &self,
        dir: &SpillDir,
        keep: usize,
        pass: u32,
        square: usize,
        modulus: Modulus,
        tally: &mut Tallied,
    ) -> Result<States<E>, ShardError> {
        let folder = self.folder;
        let links = folder.work().join("links");
        let mut runs = std::collections::VecDeque::new();
        for from in 0..folder.shards {
            let run = folder.run(pass, square, from, folder.me);
            let link = links.join(format!("{pass}-{square}-{from}.run"));
            let _ = std::fs::remove_file(&link);
            // a copy where the two folders are on different disks
            std::fs::hard_link(&run, &link)
                .or_else(|_| std::fs::copy(&run, &link).map(|_| ()))
                .map_err(|e| ShardError::Io {
                    path: run.clone(),
                    kind: e.kind(),
                })?;
            runs.push_back(RunFile::adopt::<E>(link).map_err(|_| ShardError::Damaged(run))?);
        }
        let mut sink = Sink::new(dir, keep);
        merge_runs(dir, runs, modulus, &mut tally.wrapped, &mut sink)?;
        Ok(sink.finish()?)
    }

    /// `next`, the states before square `square`, split by shard into one run each, published;
    /// the bytes written.
    fn publish<E: Entry>(
        &self,
        dir: &SpillDir,
        pass: u32,
        square: usize,
        next: States<E>,
    ) -> Result<u64, ShardError> {
        let folder = self.folder;
        folder.make_step(pass, square)?;
        let need = next.len() as u64 * E::DISK_BYTES as u64 + HEADER * u64::from(folder.shards);
        if let Some(free) = crate::experiment::free_bytes(&folder.path) {
            if free < need {
                return Err(ShardError::Disk {
                    free_mib: free >> 20,
                    need_mib: need.div_ceil(1 << 20),
                    square,
                });
            }
        }
        let paths: Vec<_> = (0..folder.shards)
            .map(|to| folder.run(pass, square, folder.me, to))
            .collect();
        let mut writers = paths
            .iter()
            .map(|path| dir.writer_at::<E>(Folder::temporary(path)))
            .collect::<Result<Vec<_>, _>>()?;
        // in increasing order of state: a step's key ranges, sorted by their first keys
        let next = match next {
            States::Memory(mut lists) => {
                lists.retain(|l| !l.is_empty());
                lists.sort_unstable_by_key(|l| l[0].state());
                States::Memory(lists)
            }
            disk => disk,
        };
        let mut failed = None;
        let shards = folder.shards;
        let split = next.for_each(Some(dir), &mut |e| {
            let to = shard_of(e.state().widen(), shards) as usize;
            writers[to].push(e).map_err(|problem| {
                failed = Some(problem);
                std::io::Error::other("a run could not be written")
            })
        });
        if let Some(problem) = failed {
            return Err(problem.into());
        }
        split?;
        let mut written = 0;
        for (writer, path) in writers.into_iter().zip(&paths) {
            let temporary = writer.finish()?.keep();
            written += std::fs::metadata(&temporary).map_or(0, |m| m.len());
            Folder::publish(&temporary, path)?;
        }
        Ok(written)
    }
}
