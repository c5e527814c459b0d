//! The delivery stage: the blocks the workers finish reach the files in block order, whatever the
//! thread count, so that the CSV files are the same on one core or many. There is no writer thread:
//! a worker hands its block in ([`Delivery::deliver`]), and whichever worker finds the writing turn
//! free writes every block whose turn has come ([`InOrder`]), adding its tallies and advancing the
//! progress. On few cores a writer thread would be one busy thread more than `--threads`,
//! preempting the workers.
//!
//! ADVICE FOR HACKERS: crash safety rests on one ordering. A chunk's run rows reach `runs.csv`
//! before its row reaches `chunks.csv` (the journal), so a chunk listed in the journal is complete in
//! `runs.csv`; `--resume` drops run rows of chunks the journal does not list and any torn last line.
//! [`crate::experiment::output::Writers`] keeps the journal rows in memory until `runs.csv` has been
//! flushed. The hand-off's own correctness (no message is left in the inbox, no worker waits for
//! another's writing) is argued at [`Delivery`] and tested on its own.

use super::progress::Progress;
use super::stop::StopToken;
use super::SweepError;
use crate::experiment::output::{ChunkLines, Writers};
use crate::experiment::record::{DeadEndLengths, Tallies, Tally};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

/// What a worker hands in for a block of chunks (or for its part before an error): each group's
/// tally of them, and the CSV lines of all of them, formatted by the worker so that writing them is
/// only appending bytes in order.
pub(super) struct BlockResult {
    /// The block's number, in the order the blocks were taken (and are written).
    pub(super) seq: u64,
    /// Its chunks that finished.
    pub(super) chunks: u64,
    /// Whether all of them did (no run failed to start).
    pub(super) whole: bool,
    /// Each group's tally and dead ends of those chunks, in order (a group may come twice, in two
    /// chunks).
    pub(super) parts: Vec<(u32, Tally, DeadEndLengths)>,
    /// Their runs.
    pub(super) runs: u64,
    /// Of them, those written from a mirror-image run's walk.
    pub(super) mirrored: u64,
    /// The squares of the boards of their runs, summed (the progress's measure of work).
    pub(super) work: u64,
    /// Their CSV lines.
    pub(super) lines: ChunkLines,
}

/// How workers hand in finished blocks with no writer thread. A worker puts its message in the
/// inbox, then writes if it can take the turn; if another worker holds the turn, that one sees the
/// message before it lets go (it looks at the inbox again after releasing the turn), so no worker
/// ever waits for another's writing.
pub(super) struct Delivery<M, T> {
    inbox: Mutex<Vec<M>>,
    turn: Mutex<T>,
}

/// What the holder of the writing turn does with each message, one at a time.
pub(super) trait Take<M> {
    /// Take one message.
    fn take(&mut self, message: M);
}

/// A lock whose holder may have panicked: the data is still the best there is (and the panic
/// itself reaches the caller through the thread scope).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<M, T: Take<M>> Delivery<M, T> {
    /// A delivery whose writing turn holds `turn`.
    pub(super) fn new(turn: T) -> Self {
        Delivery {
            inbox: Mutex::new(Vec::new()),
            turn: Mutex::new(turn),
        }
    }

    /// Hand in `message`; it is taken, in this call or by the worker holding the turn, before
    /// that worker's `deliver` returns.
    pub(super) fn deliver(&self, message: M) {
        lock(&self.inbox).push(message);
        loop {
            let mut turn = match self.turn.try_lock() {
                Ok(turn) => turn,
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => return, // its holder will see the message
            };
            let taken = std::mem::take(&mut *lock(&self.inbox));
            for m in taken {
                turn.take(m);
            }
            drop(turn);
            // a message put in while this worker held the turn is written by someone
            if lock(&self.inbox).is_empty() {
                return;
            }
        }
    }

    /// What holds the writing turn, once every worker is done (nothing is left in the inbox then).
    pub(super) fn into_turn(self) -> T {
        debug_assert!(self.inbox.into_inner().map_or(true, |m| m.is_empty()));
        self.turn
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The writing side of a sweep: finished blocks wait here until every block before them is written.
pub(super) struct InOrder {
    writers: Writers,
    /// Blocks that finished before their turn, by number.
    pending: BTreeMap<u64, BlockResult>,
    /// The number of the next block to write.
    next: u64,
    /// A block stopped short (a run failed to start): nothing after it is written.
    stopped: bool,
    /// When the files were last flushed (at least every second).
    last_flush: Instant,
    progress: Progress,
    /// Set at the first failure, so that the workers take no new block.
    failed: StopToken,
    delivered: Delivered,
}

/// What the writing turn has done, once every worker is done.
pub(super) struct Delivered {
    /// Chunks written, in this invocation.
    pub(super) written: u64,
    /// Every group's tally: the resumed ones and those written now.
    pub(super) tallies: Tallies,
    /// Runs written, in this invocation.
    pub(super) runs_done_now: u64,
    /// Of them, those written from a mirror-image run's walk.
    pub(super) runs_mirrored: u64,
    /// The first failure (a worker's, or a write's), if any.
    pub(super) first_error: Option<SweepError>,
}

impl Take<Result<BlockResult, SweepError>> for InOrder {
    /// Keep a worker's block, write every block whose turn has come, and flush if the last flush
    /// is a second old.
    fn take(&mut self, message: Result<BlockResult, SweepError>) {
        match message {
            Ok(result) => {
                self.pending.insert(result.seq, result);
            }
            Err(e) => {
                self.delivered.first_error.get_or_insert(e);
                return;
            }
        }
        while !self.stopped {
            let Some(r) = self.pending.remove(&self.next) else {
                break;
            };
            self.write(r);
        }
        if self.last_flush.elapsed() >= Duration::from_secs(1) {
            if let Err(e) = self.writers.flush() {
                self.fail(e.into());
            }
            self.last_flush = Instant::now();
        }
        self.progress.tick();
    }
}

impl InOrder {
    /// A writing turn into `writers`, adding to the resumed `tallies`; `failed` is set at the first
    /// failure.
    pub(super) fn new(
        writers: Writers,
        tallies: Tallies,
        progress: Progress,
        failed: StopToken,
    ) -> Self {
        InOrder {
            writers,
            pending: BTreeMap::new(),
            next: 0,
            stopped: false,
            last_flush: Instant::now(),
            progress,
            failed,
            delivered: Delivered {
                written: 0,
                tallies,
                runs_done_now: 0,
                runs_mirrored: 0,
                first_error: None,
            },
        }
    }

    /// Write block `r`, whose turn has come, and count it.
    fn write(&mut self, r: BlockResult) {
        if let Err(e) = self.writers.write(r.lines) {
            self.fail(e.into());
        }
        let d = &mut self.delivered;
        for (group, tally, dead_ends) in &r.parts {
            d.tallies.add(*group, tally, dead_ends);
        }
        d.runs_done_now += r.runs;
        d.runs_mirrored += r.mirrored;
        d.written += r.chunks;
        self.progress.advance(r.runs, r.work);
        self.stopped = !r.whole;
        self.next += 1;
    }

    /// Keep the first failure and stop the workers.
    fn fail(&mut self, e: SweepError) {
        self.delivered.first_error.get_or_insert(e);
        self.failed.stop();
    }

    /// Flush and close the files (a failure here, a full disk say, is kept as the first error if
    /// there was none), clear the progress, and say what was delivered.
    pub(super) fn finish(self) -> Delivered {
        let InOrder {
            mut writers,
            progress,
            mut delivered,
            ..
        } = self;
        if let Err(e) = writers.flush() {
            delivered.first_error.get_or_insert(e.into());
        }
        drop(writers);
        progress.finish();
        delivered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages handed in by many threads at once, with a slow holder so that they meet at the
    /// hand-off: every message is taken exactly once, and none is left in the inbox at the end.
    /// (Without the holder's second look at the inbox, the last round's messages are lost.)
    #[test]
    fn delivery_takes_every_message_once() {
        struct Slow(Vec<u32>);
        impl Take<u32> for Slow {
            fn take(&mut self, message: u32) {
                std::thread::sleep(Duration::from_micros(20));
                self.0.push(message);
            }
        }
        for _ in 0..5 {
            let delivery = Delivery::new(Slow(Vec::new()));
            // all threads hand in each round's message together, the last round included
            let round = std::sync::Barrier::new(8);
            std::thread::scope(|s| {
                for t in 0..8u32 {
                    let (delivery, round) = (&delivery, &round);
                    s.spawn(move || {
                        for i in 0..200 {
                            round.wait();
                            delivery.deliver(t * 1000 + i);
                        }
                    });
                }
            });
            assert!(delivery.inbox.into_inner().unwrap().is_empty());
            let mut taken = delivery.turn.into_inner().unwrap().0;
            taken.sort_unstable();
            let all: Vec<u32> = (0..8)
                .flat_map(|t| (0..200).map(move |i| t * 1000 + i))
                .collect();
            assert_eq!(taken, all);
        }
    }
}
