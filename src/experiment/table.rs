//! The compact table printed at the end of a sweep: success rate per rule and method (successes over
//! feasible runs, i.e. runs from starts where colour parity allows a tour), by board-size range (sizes
//! bucketed by the larger side: 5-8, 9-16, 17-32, ...).

use super::record::SummaryRow;
use std::collections::BTreeMap;
use std::fmt::Write;

/// (method, rule).
type Series = (String, String);
/// Size range -> (successes, feasible runs).
type Cells = BTreeMap<(u32, u32), (u64, u64)>;

fn bucket(side: u32) -> (u32, u32) {
    let mut hi = 8;
    while side > hi {
        hi *= 2;
    }
    (if hi == 8 { 1 } else { hi / 2 + 1 }, hi)
}

/// Success rates (successes / feasible runs, in %) per (rule, method) and size range.
pub fn success_table(rows: &[SummaryRow]) -> String {
    let mut buckets = std::collections::BTreeSet::new();
    // (method, rule) in first-seen order -> bucket -> (successes, runs)
    let mut order: Vec<Series> = Vec::new();
    let mut cells: BTreeMap<Series, Cells> = BTreeMap::new();
    for r in rows {
        let key = (r.method.clone(), r.rule.clone());
        if !cells.contains_key(&key) {
            order.push(key.clone());
        }
        let b = bucket(r.rows.max(r.cols));
        buckets.insert(b);
        let c = cells.entry(key).or_default().entry(b).or_default();
        c.0 += r.successes;
        c.1 += r.feasible_runs;
    }
    if order.len() > 40 {
        // best 40 by overall rate (an `order:*` sweep has 40,320 series): each rate computed once
        let rate = |k: &Series| {
            let (s, n) = cells[k]
                .values()
                .fold((0, 0), |acc, v| (acc.0 + v.0, acc.1 + v.1));
            s as f64 / n.max(1) as f64
        };
        let mut ranked: Vec<(f64, Series)> = order.drain(..).map(|k| (rate(&k), k)).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        order = ranked.into_iter().take(40).map(|(_, k)| k).collect();
    }
    let width = order
        .iter()
        .map(|(m, r)| m.len() + r.len() + 1)
        .max()
        .unwrap_or(0)
        .max("success % (feasible)".len());
    let mut s = String::new();
    let _ = write!(s, "{:width$}", "success % (feasible)");
    for (lo, hi) in &buckets {
        let _ = write!(s, " {:>9}", format!("{lo}-{hi}"));
    }
    s.push('\n');
    for key in &order {
        let _ = write!(s, "{:width$}", format!("{} {}", key.0, key.1));
        for b in &buckets {
            match cells[key].get(b) {
                Some(&(ok, n)) if n > 0 => {
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
