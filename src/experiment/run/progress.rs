//! A sweep's progress on standard error, advanced by the delivery stage as blocks are written: a bar
//! on a terminal, a line at most so often in a log ([`SweepProgress`]), or nothing. The time left is
//! estimated from the squares of the boards run and still to run, since a size sweep's later runs
//! are larger. The bar is drawn by the `indicatif` crate.

use super::blocks::chunk_squares;
use super::options::SweepProgress;
use crate::experiment::plan::{Plan, Shard};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::time::{Duration, Instant};

/// The bar (hidden unless on a terminal: a hidden bar still counts, and the lines read it), when
/// the last line was written, and the work done and to do.
pub(super) struct Progress {
    bar: ProgressBar,
    /// [`SweepProgress::Lines`]: how often, and when the last line was written.
    lines: Option<(Duration, Instant)>,
    /// Squares of the boards of the runs written in this invocation, and of all it has to run.
    work: (u128, u128),
}

impl Progress {
    /// The progress of `shard` of `plan` with the chunks `done` (and their `runs_resumed` runs)
    /// done before, shown as `mode` says.
    pub(super) fn new(
        plan: &Plan,
        shard: &Shard,
        done: &[u64],
        runs_resumed: u64,
        mode: SweepProgress,
    ) -> Self {
        let (mut total_runs, mut total_work) = (0u64, 0u128);
        for (b, board) in plan.boards().iter().enumerate() {
            let runs = plan.board_runs_in(b, shard);
            total_runs += runs;
            total_work += runs as u128 * board.len() as u128;
        }
        let done_work: u128 = done
            .iter()
            .map(|&id| {
                let c = plan.chunk(id);
                c.runs() as u128 * chunk_squares(plan, &c) as u128
            })
            .sum();
        let target = match mode {
            SweepProgress::Bar => ProgressDrawTarget::stderr_with_hz(4),
            SweepProgress::Hidden | SweepProgress::Lines(_) => ProgressDrawTarget::hidden(),
        };
        let bar = ProgressBar::with_draw_target(Some(total_runs), target);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} runs ({rate}, ETA {eta})",
            )
            .expect("valid template")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}/s", rate_words(state.per_sec()));
                },
            )
            .progress_chars("=> "),
        );
        bar.set_position(runs_resumed);
        bar.reset_eta();
        Progress {
            bar,
            lines: match mode {
                SweepProgress::Lines(every) => Some((every, Instant::now())),
                _ => None,
            },
            work: (0, total_work - done_work),
        }
    }

    /// Count `runs` more runs written, on boards of `work` squares in all.
    pub(super) fn advance(&mut self, runs: u64, work: u64) {
        self.work.0 += work as u128;
        self.bar.inc(runs);
    }

    /// Write a line of progress if one is due.
    pub(super) fn tick(&mut self) {
        if let Some((every, last)) = self.lines {
            if last.elapsed() >= every {
                let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
                eprintln!(
                    "{}",
                    progress_line(done, total, self.bar.elapsed(), self.work)
                );
                self.lines = Some((every, Instant::now()));
            }
        }
    }

    /// Clear the bar.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// One line of progress for a log: runs done of `total`, share, time so far and an estimate of the
/// rest from `work` (squares of the boards run so far, and of all to run).
fn progress_line(done: u64, total: u64, elapsed: Duration, work: (u128, u128)) -> String {
    let (work_done, work_total) = work;
    let left = if work_done > 0 {
        let secs = (elapsed.as_secs_f64() * work_total.saturating_sub(work_done) as f64
            / work_done as f64)
            .round();
        format!(
            "about {} left",
            humantime::format_duration(Duration::from_secs(secs as u64))
        )
    } else {
        "time left unknown".to_string()
    };
    format!(
        "progress: {done} of {total} runs ({:.1}%), {} elapsed, {left}",
        100.0 * done as f64 / total.max(1) as f64,
        humantime::format_duration(Duration::from_secs(elapsed.as_secs()))
    )
}

/// A rate in words: whole numbers with thousands separators from 100 up, three significant figures
/// below (the bar's own `{per_sec}` printed `39,780.9412/s`).
fn rate_words(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return "0".to_string();
    }
    if per_sec >= 99.95 {
        let digits = format!("{:.0}", per_sec);
        let mut out = String::with_capacity(digits.len() + digits.len() / 3);
        for (i, d) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(d);
        }
        return out;
    }
    // three significant figures: as many decimals as the rate has digits fewer than three, one
    // fewer where rounding adds a digit (9.9996 is 10.0)
    let mut decimals = (2 - per_sec.log10().floor() as i32).max(0) as usize;
    let text = format!("{per_sec:.decimals$}");
    if decimals > 0 && text.parse::<f64>().unwrap_or(0.0) >= 10f64.powi(3 - decimals as i32) {
        decimals -= 1;
        return format!("{per_sec:.decimals$}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rates from 100 up are whole, with separators; below, three significant figures.
    #[test]
    fn rates_are_rounded_to_what_a_reader_uses() {
        assert_eq!(rate_words(39_780.941_2), "39,781");
        assert_eq!(rate_words(1_234_567.8), "1,234,568");
        assert_eq!(rate_words(999.5), "1,000");
        assert_eq!(rate_words(100.0), "100");
        assert_eq!(rate_words(99.96), "100");
        assert_eq!(rate_words(99.94), "99.9");
        assert_eq!(rate_words(39.7809), "39.8");
        assert_eq!(rate_words(3.97809), "3.98");
        assert_eq!(rate_words(0.0397809), "0.0398");
        assert_eq!(rate_words(9.9996), "10.0");
        assert_eq!(rate_words(0.099996), "0.100");
        assert_eq!(rate_words(0.0), "0");
        assert_eq!(rate_words(f64::NAN), "0");
    }

    /// A line says runs, share, time so far, and the rest in proportion to the work left.
    #[test]
    fn a_progress_line_estimates_the_rest_from_the_work_left() {
        assert_eq!(
            progress_line(250, 1000, Duration::from_secs(30), (100, 400)),
            "progress: 250 of 1000 runs (25.0%), 30s elapsed, about 1m 30s left"
        );
        assert_eq!(
            progress_line(0, 1000, Duration::from_millis(1500), (0, 400)),
            "progress: 0 of 1000 runs (0.0%), 1s elapsed, time left unknown"
        );
    }
}
