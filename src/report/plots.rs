//! The sweep plots of a page: those `ktour plot` draws (success with Wilson bands, backtracks where
//! there are any, throughput), as SVG text from [`crate::render::plot_svgs`]. A sweep of thousands
//! of sizes would draw thousands of points a series (megabytes of SVG): past [`MAX_POINTS`] sizes
//! the rows are pooled into that many ranges of consecutive sizes, each drawn at its middle, and
//! the page says so.

use super::ReportError;
use crate::experiment::SummaryRow;
use crate::render::{plot_svgs, Filter, Metric, Summary, DEFAULT_MAX_SERIES};
use std::collections::BTreeMap;

/// Most board sizes drawn on a plot; past it sizes are pooled into ranges.
pub const MAX_POINTS: usize = 150;
/// The plots' size in pixels.
const SIZE: (u32, u32) = (900, 520);

/// The plots of one sweep and what they left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plots {
    /// (metric, SVG document), in `Metric::ALL` order.
    pub figures: Vec<(Metric, String)>,
    /// Lines saying what was not drawn, and how sizes were pooled.
    pub notes: Vec<String>,
}

/// The plots of `summary`'s rows.
pub fn sweep_plots(summary: &Summary) -> Result<Plots, ReportError> {
    let mut notes = Vec::new();
    let pooled;
    let drawn = match pool_sizes(&summary.rows, MAX_POINTS) {
        Some((rows, per)) => {
            notes.push(format!(
                "{} board sizes are more than {MAX_POINTS} to draw: each point pools {per} consecutive sizes (their runs added), drawn at the middle one",
                distinct_x(&summary.rows).len()
            ));
            pooled = Summary {
                title: summary.title.clone(),
                rows,
            };
            &pooled
        }
        None => summary,
    };
    let svgs = plot_svgs(drawn, &Filter::default(), DEFAULT_MAX_SERIES, SIZE)?;
    if !svgs.left_out.is_empty() {
        notes.push(format!(
            "series past the first {DEFAULT_MAX_SERIES} not plotted: {}",
            svgs.left_out.join(", ")
        ));
    }
    for (metric, why) in &svgs.skipped {
        notes.push(format!("no {} plot: {why}", metric.name()));
    }
    Ok(Plots {
        figures: svgs.plots,
        notes,
    })
}

/// The x value of a row as the plots place it: the side on square boards, else the squares.
fn x_key(all_square: bool, r: &SummaryRow) -> u64 {
    if all_square {
        u64::from(r.rows)
    } else {
        u64::from(r.rows) * u64::from(r.cols)
    }
}

fn distinct_x(rows: &[SummaryRow]) -> Vec<u64> {
    let all_square = rows.iter().all(|r| r.rows == r.cols);
    let mut xs: Vec<u64> = rows.iter().map(|r| x_key(all_square, r)).collect();
    xs.sort_unstable();
    xs.dedup();
    xs
}

/// `rows` pooled into at most `max` ranges of consecutive x values, with the number of values a
/// range holds; `None` when there are no more than `max` values. A range's row adds the counts,
/// nodes and times of its rows of one series, its backtracks the run-weighted mean, and sits at
/// the middle x of the range (a square board of that side, or a 1 x squares board).
pub fn pool_sizes(rows: &[SummaryRow], max: usize) -> Option<(Vec<SummaryRow>, usize)> {
    let xs = distinct_x(rows);
    if xs.len() <= max {
        return None;
    }
    let per = xs.len().div_ceil(max);
    let all_square = rows.iter().all(|r| r.rows == r.cols);
    let range_of = |x: u64| xs.binary_search(&x).expect("an x of the rows") / per;
    let middle = |range: usize| {
        let last = ((range + 1) * per).min(xs.len()) - 1;
        xs[(range * per + last) / 2]
    };
    // (range, first-seen series) -> pooled row; series keep their first-seen order in the file
    let mut series: Vec<(String, String, bool)> = Vec::new();
    let mut pools: BTreeMap<(usize, usize), (SummaryRow, f64)> = BTreeMap::new();
    for r in rows {
        let key = (r.rule.clone(), r.method.clone(), r.closed);
        let s = match series.iter().position(|k| *k == key) {
            Some(s) => s,
            None => {
                series.push(key);
                series.len() - 1
            }
        };
        let range = range_of(x_key(all_square, r));
        let (p, bt) = pools.entry((s, range)).or_insert_with(|| {
            let x = middle(range) as u32;
            let (rows, cols) = if all_square { (x, x) } else { (1, x) };
            let row = SummaryRow {
                rows,
                cols,
                rule: r.rule.clone(),
                method: r.method.clone(),
                closed: r.closed,
                complete: true,
                ..SummaryRow::default()
            };
            (row, 0.0)
        });
        p.runs += r.runs;
        p.feasible_runs += r.feasible_runs;
        p.successes += r.successes;
        p.nodes_total += r.nodes_total;
        p.elapsed_ns_total += r.elapsed_ns_total;
        p.complete &= r.complete;
        if r.backtracks_mean.is_finite() {
            *bt += r.backtracks_mean * r.runs as f64;
        }
    }
    let out = pools
        .into_values()
        .map(|(mut p, bt)| {
            p.success_rate = p.successes as f64 / p.runs.max(1) as f64;
            p.backtracks_mean = bt / p.runs.max(1) as f64;
            p
        })
        .collect();
    Some((out, per))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: u32, rule: &str, successes: u64) -> SummaryRow {
        SummaryRow {
            rows: n,
            cols: n,
            rule: rule.into(),
            method: "warnsdorff".into(),
            runs: 1,
            feasible_runs: 1,
            successes,
            backtracks_mean: 0.0,
            complete: true,
            ..SummaryRow::default()
        }
    }

    /// Pooling keeps every run: each range adds the runs and successes of its sizes, per series.
    #[test]
    fn pooling_adds_the_runs_of_consecutive_sizes_per_series() {
        let rows: Vec<SummaryRow> = (5..=14)
            .flat_map(|n| [row(n, "first", u64::from(n % 2)), row(n, "pohl", 1)])
            .collect();
        assert_eq!(pool_sizes(&rows, 10), None);
        let (pooled, per) = pool_sizes(&rows, 4).unwrap();
        assert_eq!(per, 3);
        // 10 sizes in ranges of 3: 5-7, 8-10, 11-13, 14; two series each
        assert_eq!(pooled.len(), 8);
        let first: Vec<(u32, u64, u64)> = pooled
            .iter()
            .filter(|r| r.rule == "first")
            .map(|r| (r.rows, r.runs, r.successes))
            .collect();
        assert_eq!(first, [(6, 3, 2), (9, 3, 1), (12, 3, 2), (14, 1, 0)]);
        let runs: u64 = pooled.iter().map(|r| r.runs).sum();
        assert_eq!(runs, 20);
    }
}
