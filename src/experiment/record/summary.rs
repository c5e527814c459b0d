//! A row of `summary.csv`: one board x rule x method of a sweep, its counts, rates and Wilson
//! intervals ([`SummaryRow`]), as the sweep writes it from a group's [`Tally`] and as `ktour plot`
//! reads it back.

use super::Tally;
use serde::{Deserialize, Deserializer, Serialize};

/// One board x rule x method: a row of `summary.csv`. New columns go last but `complete`, which
/// stays the last, so that the columns scripts already read keep their positions. Read with owned
/// names; written with borrowed ones (`SummaryRow<&str>`: no two strings a row).
///
/// Read by `ktour plot`, which also takes the summaries of older versions and hand-made ones: the
/// twelve columns the plots use (`rows, cols, rule, method, closed, runs, feasible_runs, successes,
/// success_rate, backtracks_mean, nodes_total, elapsed_ns_total`) are required, any other missing
/// one reads as 0 (or empty); `closed` may also be `1`/`0`, `yes`/`no`, `closed`/`open`; an empty
/// rate or mean reads as NaN (not computed). What a sweep writes reads back as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow<S = String> {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: S,
    /// Solver.
    pub method: S,
    /// Whether closed tours were required.
    #[serde(deserialize_with = "lenient_bool")]
    pub closed: bool,
    /// Runs.
    pub runs: u64,
    /// Runs from starts where a tour can exist (colour parity, existence theorems).
    pub feasible_runs: u64,
    /// Runs that found a tour.
    pub successes: u64,
    /// successes / runs.
    #[serde(deserialize_with = "empty_as_nan")]
    pub success_rate: f64,
    /// successes / feasible_runs (empty when no run was feasible).
    pub success_rate_feasible: Option<f64>,
    /// Dead ends (pure Warnsdorff).
    #[serde(default)]
    pub dead_ends: u64,
    /// Runs stopped by the budget.
    #[serde(default)]
    pub budget_exhausted: u64,
    /// Runs proved impossible.
    #[serde(default)]
    pub impossible: u64,
    /// Mean squares visited.
    #[serde(default)]
    pub visited_mean: f64,
    /// Mean backtracks per run.
    #[serde(deserialize_with = "empty_as_nan")]
    pub backtracks_mean: f64,
    /// Largest backtracks of one run.
    #[serde(default)]
    pub backtracks_max: u64,
    /// Sum of nodes.
    pub nodes_total: u64,
    /// Sum of ties.
    #[serde(default)]
    pub ties_total: u64,
    /// Sum of wall-clock nanoseconds (timing column).
    pub elapsed_ns_total: u64,
    /// Walks that covered the board but did not close (closed asked): not in `dead_ends`.
    #[serde(default)]
    pub not_closed: u64,
    /// Mean attempts per run (1 without restarts); `successes` are those within the limit.
    #[serde(default)]
    pub attempts_mean: f64,
    /// Wilson 95% interval of `success_rate` (successes / runs): its lower end.
    #[serde(default)]
    pub success_ci_low: f64,
    /// ... and its upper end.
    #[serde(default)]
    pub success_ci_high: f64,
    /// Runs whose path is a closed tour, asked for or not.
    #[serde(default)]
    pub closed_tours: u64,
    /// closed_tours / runs.
    #[serde(default)]
    pub closed_rate: f64,
    /// Wilson 95% interval of `closed_rate`: its lower end.
    #[serde(default)]
    pub closed_ci_low: f64,
    /// ... and its upper end.
    #[serde(default)]
    pub closed_ci_high: f64,
    /// Fewest squares on a run's final path: the shortest (empty without runs).
    pub visited_min: Option<u64>,
    /// Most squares on a run's final path: the longest (empty without runs).
    pub visited_max: Option<u64>,
    /// Whether every run of the group is counted: false after an interrupt or a failed write, in a
    /// shard's folder (the other shards hold the rest), and in a merge missing a shard.
    #[serde(default)]
    pub complete: bool,
}

impl<S> SummaryRow<S> {
    /// The row for a group's tally, `group_runs` being the runs the whole sweep has in the group.
    pub fn new(
        rows: u32,
        cols: u32,
        rule: S,
        method: S,
        closed: bool,
        t: &Tally,
        group_runs: u64,
    ) -> Self {
        let per_run = |x: u64| {
            if t.runs == 0 {
                0.0
            } else {
                x as f64 / t.runs as f64
            }
        };
        let success_ci = crate::util::wilson::wilson95(t.successes, t.runs);
        let closed_ci = crate::util::wilson::wilson95(t.closed_tours, t.runs);
        SummaryRow {
            rows,
            cols,
            rule,
            method,
            closed,
            runs: t.runs,
            feasible_runs: t.feasible_runs,
            successes: t.successes,
            success_rate: per_run(t.successes),
            success_rate_feasible: (t.feasible_runs > 0)
                .then(|| t.successes as f64 / t.feasible_runs as f64),
            dead_ends: t.dead_ends,
            budget_exhausted: t.budget_exhausted,
            impossible: t.impossible,
            visited_mean: per_run(t.visited_total),
            backtracks_mean: per_run(t.backtracks_total),
            backtracks_max: t.backtracks_max,
            nodes_total: t.nodes_total,
            ties_total: t.ties_total,
            elapsed_ns_total: t.elapsed_ns_total,
            complete: t.runs == group_runs,
            not_closed: t.not_closed,
            attempts_mean: if t.runs == 0 {
                0.0
            } else {
                1.0 + per_run(t.restarts_total)
            },
            success_ci_low: success_ci.0,
            success_ci_high: success_ci.1,
            closed_tours: t.closed_tours,
            closed_rate: per_run(t.closed_tours),
            closed_ci_low: closed_ci.0,
            closed_ci_high: closed_ci.1,
            visited_min: (t.runs > 0).then_some(t.visited_min),
            visited_max: (t.runs > 0).then_some(t.visited_max),
        }
    }
}

/// `true`/`false` as written, and the spellings of hand-made summaries (see [`SummaryRow`]).
fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let s = String::deserialize(d)?;
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "closed" => Ok(true),
        "false" | "0" | "no" | "open" | "" => Ok(false),
        other => Err(serde::de::Error::custom(format!(
            "expected true or false, got {other:?}"
        ))),
    }
}

/// A float as written (`NaN` included), an empty field as NaN: a rate or mean not computed.
fn empty_as_nan<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a sweep writes reads back through the same type to equal values, a row without runs
    /// (empty rates and extremes) included; a name with a comma and a quote is quoted and back.
    #[test]
    fn a_written_row_reads_back_equal() {
        let t = Tally {
            runs: 7,
            feasible_runs: 5,
            successes: 3,
            dead_ends: 2,
            visited_total: 150,
            backtracks_total: 9,
            backtracks_max: 4,
            nodes_total: 200,
            ties_total: 11,
            elapsed_ns_total: 1234,
            restarts_total: 3,
            closed_tours: 1,
            visited_min: 12,
            visited_max: 25,
            ..Tally::default()
        };
        for (tally, group_runs) in [(t, 7), (t, 9), (Tally::default(), 4)] {
            let row = SummaryRow::new(
                5,
                6,
                "order:1,\"2\"",
                "warnsdorff",
                true,
                &tally,
                group_runs,
            );
            let mut w = csv::Writer::from_writer(Vec::new());
            w.serialize(&row).unwrap();
            let text = w.into_inner().unwrap();
            let back: Vec<SummaryRow> = super::super::read_back(&text);
            let owned = SummaryRow::new(
                5,
                6,
                row.rule.to_string(),
                row.method.to_string(),
                true,
                &tally,
                group_runs,
            );
            assert_eq!(back, [owned]);
        }
    }

    /// A summary made by hand or by an older version reads: the plots' columns, other columns
    /// missing or unknown, `closed` spelt `1`, an empty rate as NaN; one without a plot column
    /// does not.
    #[test]
    fn a_hand_made_summary_reads_as_documented() {
        let head = "extra,rows,cols,rule,method,closed,runs,feasible_runs,successes,success_rate,backtracks_mean,nodes_total,elapsed_ns_total\n";
        let rows: Vec<SummaryRow> = super::super::read_back(
            format!("{head}x,5,5,first,warnsdorff,1,10,8,4,,2.5,90,1000\n").as_bytes(),
        );
        let r = &rows[0];
        assert!(r.closed && r.success_rate.is_nan() && !r.complete);
        assert_eq!(
            (r.runs, r.successes, r.backtracks_mean, r.dead_ends),
            (10, 4, 2.5, 0)
        );
        let short = head.replace(",nodes_total", "");
        let text = format!("{short}x,5,5,first,warnsdorff,1,10,8,4,,2.5,1000\n");
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        assert!(rd.deserialize::<SummaryRow>().next().unwrap().is_err());
    }
}
