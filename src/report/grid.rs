//! The success table of a page: the printed table's grouping (`experiment::table`: one row per
//! method x rule in the order first seen, one column per range of the larger board side, doubling,
//! labelled by the sides present; successes over feasible runs with the Wilson 95% interval; a cell
//! with part of a group's runs marked; past 40 series the best 40 by overall rate), with, in a cell
//! whose every board has one, the exact rate pooled as the sample is (each board's exact rate
//! weighted by its feasible runs). Beside it, the per-board list of the sampled rates that have an
//! exact value, and whether the interval holds it.

use super::exact::{ExactContext, ExactValues};
use crate::experiment::table::{bucket, label, Bucket};
use crate::experiment::SummaryRow;
use crate::util::wilson::wilson95;
use std::collections::{BTreeMap, HashMap};

/// Series shown, as in the printed table.
pub const SHOWN: usize = 40;

/// One cell: a method x rule over one range of sizes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GridCell {
    /// Runs that found a tour.
    pub successes: u64,
    /// Feasible runs.
    pub feasible: u64,
    /// Some group in it did not count every run.
    pub partial: bool,
    /// Sum over its boards of exact rate x feasible runs.
    exact_sum: f64,
    /// Some board of it has no exact value.
    exact_missing: bool,
}

impl GridCell {
    /// successes / feasible, if any run was feasible.
    pub fn rate(&self) -> Option<f64> {
        (self.feasible > 0).then(|| self.successes as f64 / self.feasible as f64)
    }

    /// The Wilson 95% interval of the rate.
    pub fn interval(&self) -> Option<(f64, f64)> {
        (self.feasible > 0).then(|| wilson95(self.successes, self.feasible))
    }

    /// The exact rate of the cell's runs, when every board of it has one.
    pub fn exact(&self) -> Option<f64> {
        (!self.exact_missing && self.feasible > 0).then(|| self.exact_sum / self.feasible as f64)
    }
}

/// One row: a method x rule.
#[derive(Clone, Debug, PartialEq)]
pub struct GridRow {
    /// Solver.
    pub method: String,
    /// Tie-break rule.
    pub rule: String,
    /// One per column, `None` where it has no group.
    pub cells: Vec<Option<GridCell>>,
}

/// The table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grid {
    /// Column labels: the larger sides present in each range.
    pub columns: Vec<String>,
    /// The rows shown.
    pub rows: Vec<GridRow>,
    /// Series not shown (past [`SHOWN`]).
    pub left_out: usize,
}

/// A sampled rate of one board with its exact value.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactCheck {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: String,
    /// Runs that found a tour.
    pub successes: u64,
    /// Feasible runs.
    pub feasible: u64,
    /// The exact rate over feasible runs.
    pub exact: f64,
}

impl ExactCheck {
    /// Whether the Wilson 95% interval of the sampled rate holds the exact one.
    pub fn inside(&self) -> bool {
        let (lo, hi) = wilson95(self.successes, self.feasible);
        // the exact value may sit on an end of a degenerate interval (0 or 1): a small tolerance
        lo - 1e-12 <= self.exact && self.exact <= hi + 1e-12
    }
}

/// The exact values that apply to a sweep: the values, and the sweep's context.
pub type Exact<'a> = Option<(&'a ExactValues, &'a ExactContext)>;

/// The table of `rows`, with exact values from `exact` where they apply.
pub fn success_grid(rows: &[SummaryRow], exact: Exact) -> Grid {
    let mut buckets: BTreeMap<Bucket, (u32, u32)> = BTreeMap::new();
    let mut order: Vec<(String, String)> = Vec::new();
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    let mut cells: Vec<BTreeMap<Bucket, GridCell>> = Vec::new();
    for r in rows {
        let side = r.rows.max(r.cols);
        let b = bucket(side);
        let present = buckets.entry(b).or_insert((side, side));
        *present = (present.0.min(side), present.1.max(side));
        let key = (r.method.clone(), r.rule.clone());
        let i = *index.entry(key.clone()).or_insert_with(|| {
            order.push(key);
            cells.push(BTreeMap::new());
            order.len() - 1
        });
        let c = cells[i].entry(b).or_default();
        c.successes += r.successes;
        c.feasible += r.feasible_runs;
        c.partial |= !r.complete;
        match exact.and_then(|(v, ctx)| v.rate(ctx, r)) {
            Some(p) => c.exact_sum += p * r.feasible_runs as f64,
            None => c.exact_missing |= r.feasible_runs > 0,
        }
    }
    // as the printed table: past SHOWN series, the best SHOWN by overall rate, first seen first
    let mut shown: Vec<usize> = (0..order.len()).collect();
    if order.len() > SHOWN {
        let rate = |i: usize| {
            let (ok, n) = cells[i]
                .values()
                .fold((0, 0), |a, c| (a.0 + c.successes, a.1 + c.feasible));
            ok as f64 / n.max(1) as f64
        };
        shown.sort_by(|&a, &b| rate(b).total_cmp(&rate(a)).then(a.cmp(&b)));
        shown.truncate(SHOWN);
    }
    let grid_rows = shown
        .iter()
        .map(|&i| GridRow {
            method: order[i].0.clone(),
            rule: order[i].1.clone(),
            cells: buckets.keys().map(|b| cells[i].get(b).cloned()).collect(),
        })
        .collect();
    Grid {
        columns: buckets.values().map(|&(lo, hi)| label(lo, hi)).collect(),
        rows: grid_rows,
        left_out: order.len() - shown.len(),
    }
}

/// Every group of `rows` with an exact value, in file order.
pub fn exact_checks(rows: &[SummaryRow], exact: Exact) -> Vec<ExactCheck> {
    let Some((values, ctx)) = exact else {
        return Vec::new();
    };
    rows.iter()
        .filter_map(|r| {
            values.rate(ctx, r).map(|p| ExactCheck {
                rows: r.rows,
                cols: r.cols,
                rule: r.rule.clone(),
                successes: r.successes,
                feasible: r.feasible_runs,
                exact: p,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::exact::{ExactEntry, ExactStart};

    fn row(n: u32, rule: &str, successes: u64, feasible: u64, complete: bool) -> SummaryRow {
        SummaryRow {
            rows: n,
            cols: n,
            rule: rule.into(),
            method: "warnsdorff".into(),
            runs: n as u64 * n as u64,
            feasible_runs: feasible,
            successes,
            attempts_mean: 1.0,
            complete,
            ..SummaryRow::default()
        }
    }

    /// Cells pool the boards of a size range as the printed table does, mark partial groups, and
    /// carry the exact rate only where every board of the cell has one.
    #[test]
    fn cells_pool_a_range_and_carry_exact_values_only_when_whole() {
        let rows = vec![
            row(5, "random", 8, 13, true),
            row(6, "random", 30, 36, true),
            row(9, "random", 40, 41, false),
            row(5, "first", 12, 13, true),
        ];
        let values = ExactValues {
            source: "x".into(),
            entries: vec![
                ExactEntry {
                    rows: 5,
                    cols: 5,
                    rule: "random".into(),
                    closing: "check".into(),
                    start: None,
                    success_decimal: 0.4,
                },
                ExactEntry {
                    rows: 9,
                    cols: 9,
                    rule: "random".into(),
                    closing: "check".into(),
                    start: None,
                    success_decimal: 0.5,
                },
            ],
        };
        let ctx = ExactContext {
            start: ExactStart::Uniform,
            closing: "check".into(),
        };
        let g = success_grid(&rows, Some((&values, &ctx)));
        assert_eq!(g.columns, ["5-6", "9"]);
        assert_eq!(g.rows.len(), 2);
        let random = &g.rows[0];
        let c = random.cells[0].as_ref().unwrap();
        assert_eq!((c.successes, c.feasible, c.partial), (38, 49, false));
        assert_eq!(c.exact(), None, "6x6 has no exact value");
        let c9 = random.cells[1].as_ref().unwrap();
        assert!(c9.partial);
        assert!((c9.exact().unwrap() - 0.5 * 81.0 / 41.0).abs() < 1e-12);
        assert_eq!(g.rows[1].cells[1], None);
        let checks = exact_checks(&rows, Some((&values, &ctx)));
        assert_eq!(checks.len(), 2);
        // 8 of 13 against 0.4 * 25 / 13 = 10/13: inside the interval
        assert!(checks[0].inside());
    }
}
