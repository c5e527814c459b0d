//! Handing finished work from worker threads to whichever of them holds the writing turn, with no
//! writer thread of its own: a generic piece of the runner, kept apart because its correctness
//! (no message is left in the inbox, no worker waits for another's writing) is argued on its own.

use std::sync::{Mutex, MutexGuard, TryLockError};

/// How workers hand in finished blocks with no writer thread. A worker puts its message in the
/// inbox, then writes if it can take the turn; if another worker holds the turn, that one sees the
/// message before it lets go (it looks at the inbox again after releasing the turn), so no worker
/// ever waits for another's writing. There is no writer thread because on few cores it would be one
/// busy thread more than `--threads`, preempting the workers.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
