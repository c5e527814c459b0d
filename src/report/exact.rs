//! Exact values beside sampled rates: the success probabilities `ktour exact` wrote as JSON into a
//! folder (`results/exact/NxN-RULE.json` for a start drawn uniformly from every square,
//! `NxN-RULE-corner.json` from the corner; `results/exact/README.md`), matched to a summary row
//! only where they are the same quantity: the same board, rule and closing, pure Warnsdorff, open
//! tours, one attempt, the knight on a whole board, and the sweep's starts those of the file (every
//! square, or the one square). The probability is of a uniform start over every square; a sweep's
//! rate is over its feasible runs, so the value shown is `success * runs / feasible_runs` (no
//! infeasible start ever finds a tour, and every start runs equally often).

use crate::experiment::{Meta, StartSet, SummaryRow};
use crate::solve::Rule;
use std::path::Path;

/// Which starts an exact value is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExactStart {
    /// A start drawn uniformly from every square.
    Uniform,
    /// This one square (row, col).
    Square(u32, u32),
}

/// What an exact value must share with a sweep beyond the board and rule: its starts and closing.
/// `None` from [`ExactContext::of`] when the sweep is not one an exact value describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactContext {
    /// The sweep's starts.
    pub start: ExactStart,
    /// The sweep's closing rule (`check`, `start-last`).
    pub closing: String,
}

impl ExactContext {
    /// The context of the sweep `meta` ran, if an exact value can describe it: the knight on whole
    /// boards, one attempt, every square or one square as starts.
    pub fn of(meta: &Meta) -> Option<ExactContext> {
        let spec = &meta.spec;
        if spec.leaper.is_some() || spec.mask.is_some() || spec.attempts.is_some_and(|a| a > 1) {
            return None;
        }
        let start = match &spec.starts {
            StartSet::All => ExactStart::Uniform,
            StartSet::Corner => ExactStart::Square(0, 0),
            StartSet::List(l) if l.len() == 1 => {
                ExactStart::Square(u32::from(l[0].row()), u32::from(l[0].col()))
            }
            _ => return None,
        };
        Some(ExactContext {
            start,
            closing: spec.closing.clone(),
        })
    }
}

/// One exact value as `ktour exact --format json` wrote it (the fields used).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct ExactEntry {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// The rule, as `ktour exact` names it.
    pub rule: String,
    /// The closing rule.
    pub closing: String,
    /// `[row, col]`, or none for a uniform start.
    pub start: Option<(u32, u32)>,
    /// The probability of a complete tour, as a decimal.
    pub success_decimal: f64,
}

/// The exact values of a folder, and the folder's name as the page gives it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExactValues {
    /// Where they were read from, as given.
    pub source: String,
    /// The values.
    pub entries: Vec<ExactEntry>,
}

impl ExactValues {
    /// Every `*.json` directly in `dir` that reads as an exact value (others are not exact values
    /// and are passed over), in file-name order.
    pub fn read(dir: &Path) -> ExactValues {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        let entries = files
            .iter()
            .filter_map(|p| crate::input::read_text(p).ok())
            .filter_map(|t| serde_json::from_slice::<ExactEntry>(&t).ok())
            .collect();
        ExactValues {
            source: dir.display().to_string(),
            entries,
        }
    }

    /// The exact success rate over feasible runs of the group `row` of a sweep run in `ctx`, if
    /// one is known (see the module's header for when).
    pub fn rate(&self, ctx: &ExactContext, row: &SummaryRow) -> Option<f64> {
        if row.method != "warnsdorff" || row.closed || row.feasible_runs == 0 {
            return None;
        }
        if row.attempts_mean > 1.0 {
            return None;
        }
        let rule: Option<Rule> = row.rule.parse().ok();
        let start = match ctx.start {
            ExactStart::Uniform => None,
            ExactStart::Square(r, c) => Some((r, c)),
        };
        let e = self.entries.iter().find(|e| {
            (e.rows, e.cols) == (row.rows, row.cols)
                && e.closing == ctx.closing
                && e.start == start
                && (e.rule == row.rule || rule.is_some() && e.rule.parse::<Rule>().ok() == rule)
        })?;
        Some(e.success_decimal * row.runs as f64 / row.feasible_runs as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u32, rule: &str, start: Option<(u32, u32)>, p: f64) -> ExactEntry {
        ExactEntry {
            rows: n,
            cols: n,
            rule: rule.into(),
            closing: "check".into(),
            start,
            success_decimal: p,
        }
    }

    fn row(n: u32, rule: &str, runs: u64, feasible: u64) -> SummaryRow {
        SummaryRow {
            rows: n,
            cols: n,
            rule: rule.into(),
            method: "warnsdorff".into(),
            runs,
            feasible_runs: feasible,
            attempts_mean: 1.0,
            ..SummaryRow::default()
        }
    }

    /// Only the same board, rule, starts and closing match; the value is per feasible run.
    #[test]
    fn values_match_board_rule_starts_and_closing_only() {
        let v = ExactValues {
            source: "x".into(),
            entries: vec![
                entry(5, "random", None, 0.4),
                entry(5, "random", Some((0, 0)), 1.0),
            ],
        };
        let uniform = ExactContext {
            start: ExactStart::Uniform,
            closing: "check".into(),
        };
        // 25 starts, 13 feasible: 0.4 of every start is 0.4 * 25 / 13 of the feasible ones
        let got = v.rate(&uniform, &row(5, "random", 25, 13)).unwrap();
        assert!((got - 0.4 * 25.0 / 13.0).abs() < 1e-12);
        assert_eq!(v.rate(&uniform, &row(6, "random", 36, 36)), None);
        assert_eq!(v.rate(&uniform, &row(5, "first", 25, 13)), None);
        let mut closed = row(5, "random", 25, 13);
        closed.closed = true;
        assert_eq!(v.rate(&uniform, &closed), None);
        let corner = ExactContext {
            start: ExactStart::Square(0, 0),
            closing: "check".into(),
        };
        assert_eq!(v.rate(&corner, &row(5, "random", 1, 1)), Some(1.0));
        let start_last = ExactContext {
            closing: "start-last".into(),
            ..uniform
        };
        assert_eq!(v.rate(&start_last, &row(5, "random", 25, 13)), None);
    }
}
