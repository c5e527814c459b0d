//! The progress bar of a count: one tick per counted prefix, drawn on standard error only when it is a
//! terminal and the count has run for more than a second, so that short counts and redirected output
//! stay quiet.
//!
//! Source: none beyond ktour's own conventions; the bar is drawn by the `indicatif` crate.

use super::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A progress bar that appears after a second, and only on a terminal.
pub(super) struct ProgressReporter {
    bar: Option<ProgressBar>,
    began: Instant,
    shown: AtomicBool,
}

impl ProgressReporter {
    const DELAY: Duration = Duration::from_secs(1);

    pub(super) fn new(progress: Progress, tasks: u64) -> Self {
        let bar = (progress == Progress::Auto && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(tasks), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {pos}/{len} prefixes, ETA {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        });
        ProgressReporter {
            bar,
            began: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    pub(super) fn tick(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            if !self.shown.load(Ordering::Relaxed)
                && self.began.elapsed() > Self::DELAY
                && !self.shown.swap(true, Ordering::Relaxed)
            {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
