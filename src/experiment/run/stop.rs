//! Asking a sweep to stop: a [`StopToken`] that the caller makes, passes in through
//! [`super::SweepOptions::stop`] and sets when it wants the sweep to end (the command line sets it
//! from its Ctrl-C handler; tests and embedders set it themselves). A stopped sweep takes no new
//! block, lets the blocks in flight finish, writes what is done and reports itself interrupted;
//! `--resume` goes on from there. The token is a value, not a process-wide flag, so that two sweeps
//! in one process (tests run in parallel) never stop each other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A shared flag asking a sweep to stop: clones share it.
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    /// A token not yet set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask the sweeps holding this token (or a clone) to stop; whether it had been asked before
    /// (the command line exits at once on a second Ctrl-C).
    pub fn stop(&self) -> bool {
        self.0.swap(true, Ordering::SeqCst)
    }

    /// Whether a stop has been asked.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// What a sweep's workers look at before each block: the caller's token, and the sweep's own,
/// which it sets when a write or a run fails (so that the caller's token still says only whether
/// the caller asked, and the sweep ends as failed, not interrupted).
pub(super) struct Halt<'a> {
    /// The caller's token ([`super::SweepOptions::stop`]).
    pub(super) asked: &'a StopToken,
    /// Set by the sweep itself at its first failure.
    pub(super) failed: StopToken,
}

impl<'a> Halt<'a> {
    /// Workers that stop when `asked` is set, or at the sweep's first failure.
    pub(super) fn new(asked: &'a StopToken) -> Self {
        Halt {
            asked,
            failed: StopToken::new(),
        }
    }

    /// Whether the workers should take no new block.
    pub(super) fn now(&self) -> bool {
        self.asked.is_stopped() || self.failed.is_stopped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clone shares the flag; `stop` says whether it was asked before; a new token is apart.
    #[test]
    fn clones_share_one_flag_and_new_tokens_do_not() {
        let token = StopToken::new();
        let clone = token.clone();
        let other = StopToken::new();
        assert!(!token.is_stopped());
        assert!(!clone.stop(), "the first stop was not asked before");
        assert!(token.is_stopped());
        assert!(token.stop(), "the second was");
        assert!(!other.is_stopped());
    }

    /// A failure halts the workers without setting the caller's token.
    #[test]
    fn a_failure_halts_without_setting_the_callers_token() {
        let asked = StopToken::new();
        let halt = Halt::new(&asked);
        assert!(!halt.now());
        halt.failed.stop();
        assert!(halt.now());
        assert!(!asked.is_stopped());
        let asked = StopToken::new();
        let halt = Halt::new(&asked);
        asked.stop();
        assert!(halt.now());
    }
}
