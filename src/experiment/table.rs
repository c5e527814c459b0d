//! The compact table printed at the end of a sweep: success rate per rule and method (successes over
//! feasible runs, i.e. runs from starts where colour parity allows a tour), by board-size range (sizes
//! bucketed by the larger side: 5-8, 9-16, 17-32, ...).

use super::record::SummaryRow;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

/// Size range (lo, hi) of the larger side.
type Bucket = (u32, u32);

fn bucket(side: u32) -> Bucket {
    let mut hi = 8;
    while side > hi {
        hi *= 2;
    }
    (if hi == 8 { 1 } else { hi / 2 + 1 }, hi)
}

/// One (method, rule) series: its cells as (bucket, successes, feasible runs), a handful at most.
struct Series<'a> {
    method: &'a str,
    rule: &'a str,
    cells: Vec<(Bucket, u64, u64)>,
}

impl Series<'_> {
    fn rate(&self) -> f64 {
        let (ok, n) = self
            .cells
            .iter()
            .fold((0, 0), |acc, c| (acc.0 + c.1, acc.1 + c.2));
        ok as f64 / n.max(1) as f64
    }
}

/// Success rates (successes / feasible runs, in %) per (rule, method) and size range.
pub fn success_table(rows: &[SummaryRow]) -> String {
    let mut buckets = BTreeSet::new();
    // series in first-seen order; an `order:*` sweep has 40,320 of them, so no per-row clones
    let mut series: Vec<Series> = Vec::new();
    let mut index: HashMap<(&str, &str), usize> = HashMap::new();
    for r in rows {
        let i = *index
            .entry((r.method.as_str(), r.rule.as_str()))
            .or_insert_with(|| {
                series.push(Series {
                    method: &r.method,
                    rule: &r.rule,
                    cells: Vec::new(),
                });
                series.len() - 1
            });
        let b = bucket(r.rows.max(r.cols));
        buckets.insert(b);
        let cells = &mut series[i].cells;
        match cells.iter_mut().find(|c| c.0 == b) {
            Some(c) => {
                c.1 += r.successes;
                c.2 += r.feasible_runs;
            }
            None => cells.push((b, r.successes, r.feasible_runs)),
        }
    }
    if series.len() > 40 {
        // best 40 by overall rate, first seen first among equals
        let mut ranked: Vec<(f64, Series)> = series.into_iter().map(|s| (s.rate(), s)).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        series = ranked.into_iter().take(40).map(|(_, s)| s).collect();
    }
    let width = series
        .iter()
        .map(|s| s.method.len() + s.rule.len() + 1)
        .max()
        .unwrap_or(0)
        .max("success % (feasible)".len());
    let mut s = String::new();
    let _ = write!(s, "{:width$}", "success % (feasible)");
    for (lo, hi) in &buckets {
        let _ = write!(s, " {:>9}", format!("{lo}-{hi}"));
    }
    s.push('\n');
    for one in &series {
        let _ = write!(s, "{:width$}", format!("{} {}", one.method, one.rule));
        for b in &buckets {
            match one.cells.iter().find(|c| c.0 == *b) {
                Some(&(_, ok, n)) if n > 0 => {
                    let _ = write!(s, " {:>9.1}", 100.0 * ok as f64 / n as f64);
                }
                _ => {
                    let _ = write!(s, " {:>9}", "-");
                }
            }
        }
        s.push('\n');
    }
    s
}
