//! What the plots show, independent of the backend: the rows a filter keeps, the series chosen from
//! them (first-seen order, up to a maximum) and the numbers of each chart (pooled success rate,
//! run-weighted backtracks, throughput from board totals).

use std::collections::BTreeMap;

use super::{Metric, PlotError, Skip, Summary};
use crate::experiment::SummaryRow;
use crate::render::select::Filter;

/// The rows the filter keeps, after checking that it names only what the summary holds.
pub(super) fn select_rows<'a>(
    summary: &'a Summary,
    filter: &Filter,
) -> Result<Vec<&'a SummaryRow>, PlotError> {
    filter.check(
        summary
            .rows
            .iter()
            .map(|r| (r.rule.as_str(), r.method.as_str())),
    )?;
    let rows: Vec<&SummaryRow> = summary
        .rows
        .iter()
        .filter(|r| filter.keeps(&r.rule, &r.method))
        .collect();
    if rows.is_empty() {
        return Err(PlotError::NothingSelected);
    }
    Ok(rows)
}

/// (rule, method, closed).
type SeriesKey = (String, String, bool);

/// One (rule, method, closed) series chosen for the plots.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SeriesName {
    key: SeriesKey,
    /// The legend entry: the rule, with the method when the plot has several.
    label: String,
    /// Colour index: one colour per rule.
    colour: usize,
    /// Line style index: one style per (method, closed).
    style: usize,
}

/// The series drawn and those left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Selected {
    series: Vec<SeriesName>,
    pub(super) left_out: Vec<String>,
}

/// The series of `rows` in first-seen order; past `max`, the rest are left out. File order is the
/// sweep's order (its spec's rules, then methods), which the researcher chose and can steer with
/// `--rules`, where a cut by score would hide whichever rule happens to sit in the middle.
pub(super) fn select_series(rows: &[&SummaryRow], max: usize) -> Selected {
    let mut keys: Vec<SeriesKey> = Vec::new();
    for r in rows {
        let key = (r.rule.clone(), r.method.clone(), r.closed);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let styles = first_seen(keys.iter().map(|k| (k.1.clone(), k.2)));
    let label = |k: &SeriesKey| {
        if styles.len() > 1 {
            format!("{} ({}{})", k.0, k.1, if k.2 { ", closed" } else { "" })
        } else {
            k.0.clone()
        }
    };
    let left_out = keys.iter().skip(max).map(label).collect();
    keys.truncate(max);
    let rules = first_seen(keys.iter().map(|k| k.0.clone()));
    let styles = first_seen(keys.iter().map(|k| (k.1.clone(), k.2)));
    let series = keys
        .iter()
        .map(|k| SeriesName {
            label: label(k),
            colour: rules.iter().position(|r| *r == k.0).unwrap_or(0),
            style: styles
                .iter()
                .position(|s| (&s.0, s.1) == (&k.1, k.2))
                .unwrap_or(0),
            key: k.clone(),
        })
        .collect();
    Selected { series, left_out }
}

fn first_seen<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for t in items {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// One drawn series.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Drawn {
    pub(super) label: String,
    pub(super) colour: usize,
    pub(super) style: usize,
    /// One start per size: drawn as a marker per size (filled at 100%, hollow at 0), not a line.
    pub(super) markers: bool,
    pub(super) points: Vec<(f64, f64)>,
    /// The Wilson 95% interval of each point's rate, `(x, low, high)` (success plots only).
    pub(super) band: Vec<(f64, f64, f64)>,
}

/// What one chart shows, independent of the backend.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ChartData {
    pub(super) title: String,
    pub(super) x_desc: String,
    pub(super) y_desc: &'static str,
    pub(super) series: Vec<Drawn>,
    pub(super) percent: bool,
    /// Lines under the legend: how to read the markers, what was left out.
    pub(super) notes: Vec<String>,
    /// Why the plot carries no information, if it does not.
    pub(super) skip: Option<Skip>,
}

#[derive(Default)]
struct Pool {
    runs: u64,
    feasible: u64,
    successes: u64,
    rate_sum: f64,
    rate_n: u64,
    bt_sum: f64,
    bt_runs: u64,
}

/// Board sizes whose runs took less than this in all (nanoseconds, every row of the size summed)
/// get no throughput point: below it, the clock reads of each run and one scheduler preemption
/// (milliseconds on a shared machine) are a visible share of the total, so the rate is noise.
pub const MIN_TIMED_NS: u64 = 10_000_000;

/// Series drawn by default; more are left out (and named) unless `--max-series` allows them.
pub const DEFAULT_MAX_SERIES: usize = 16;

fn x_of(all_square: bool, rows: u32, cols: u32) -> f64 {
    // in floating point: a hand-made summary may hold sides whose product overflows u32
    if all_square {
        f64::from(rows)
    } else {
        f64::from(rows) * f64::from(cols)
    }
}

pub(super) fn chart_data(
    title: &str,
    rows: &[&SummaryRow],
    selected: &Selected,
    metric: Metric,
) -> ChartData {
    let all_square = rows.iter().all(|r| r.rows == r.cols);
    let x_desc = if all_square {
        "board side n (n x n board)".to_string()
    } else {
        "board squares (rows x cols)".to_string()
    };
    let total = selected.series.len() + selected.left_out.len();
    let cut = if selected.left_out.is_empty() {
        String::new()
    } else {
        format!(" ({} of {total} series)", selected.series.len())
    };
    if metric == Metric::Throughput {
        return throughput_chart(title, rows, selected, all_square, x_desc);
    }
    let pools = pool_rows(rows, selected);
    let series = drawn_series(selected, &pools, metric, all_square);
    let notes = series_notes(&series);
    let (what, y_desc, skip) = match metric {
        Metric::Success => ("success rate", "success rate (% of feasible runs)", None),
        _ => (
            "backtracks per run",
            "mean backtracks per run",
            (!series.iter().any(|s| s.points.iter().any(|p| p.1 > 0.0)))
                .then_some(Skip::NoBacktracks),
        ),
    };
    ChartData {
        title: format!("{title}: {what}{cut}"),
        x_desc,
        y_desc,
        series,
        percent: metric == Metric::Success,
        notes,
        skip,
    }
}

/// The throughput chart: board totals pooled over every rule of a size (see `throughput`).
fn throughput_chart(
    title: &str,
    rows: &[&SummaryRow],
    selected: &Selected,
    all_square: bool,
    x_desc: String,
) -> ChartData {
    let (series, untimed) = throughput(rows, selected, all_square);
    let mut notes = vec!["all rules of a size pooled".to_string()];
    if untimed > 0 {
        notes.push(format!(
            "{untimed} sizes under {} ms left out",
            MIN_TIMED_NS / 1_000_000
        ));
    }
    let skip = series
        .iter()
        .all(|s| s.points.is_empty())
        .then_some(Skip::Untimed);
    ChartData {
        title: format!("{title}: throughput"),
        x_desc,
        y_desc: "nodes per second (board totals)",
        series,
        percent: false,
        notes,
        skip,
    }
}

/// The summary rows of each selected series pooled per board (rows, cols), in series order.
fn pool_rows(rows: &[&SummaryRow], selected: &Selected) -> Vec<BTreeMap<(u32, u32), Pool>> {
    let mut pools: Vec<BTreeMap<(u32, u32), Pool>> = Vec::new();
    pools.resize_with(selected.series.len(), BTreeMap::new);
    for r in rows {
        let Some(i) = selected.series.iter().position(|s| {
            (s.key.0.as_str(), s.key.1.as_str(), s.key.2) == (&r.rule, &r.method, r.closed)
        }) else {
            continue;
        };
        let p = pools[i].entry((r.rows, r.cols)).or_default();
        p.runs += r.runs;
        p.feasible += r.feasible_runs;
        p.successes += r.successes;
        // an empty rate or mean reads as NaN (`SummaryRow`): not a point
        if let Some(v) = Some(r.success_rate).filter(|v| v.is_finite()) {
            p.rate_sum += v;
            p.rate_n += 1;
        }
        if let Some(v) = Some(r.backtracks_mean).filter(|v| v.is_finite()) {
            p.bt_sum += v * r.runs.max(1) as f64;
            p.bt_runs += r.runs.max(1);
        }
    }
    pools
}

/// One drawn series per selected series: its points (and Wilson band for success) per board.
fn drawn_series(
    selected: &Selected,
    pools: &[BTreeMap<(u32, u32), Pool>],
    metric: Metric,
    all_square: bool,
) -> Vec<Drawn> {
    let mut series = Vec::new();
    for (name, boards) in selected.series.iter().zip(pools) {
        let mut points = Vec::new();
        let mut band = Vec::new();
        for (&(rows, cols), p) in boards {
            if metric == Metric::Success && p.feasible > 0 {
                let (lo, hi) = crate::util::wilson::wilson95(p.successes, p.feasible);
                band.push((x_of(all_square, rows, cols), 100.0 * lo, 100.0 * hi));
            }
            let y = match metric {
                Metric::Success => {
                    if p.feasible > 0 {
                        Some(100.0 * p.successes as f64 / p.feasible as f64)
                    } else if p.rate_n > 0 {
                        Some(100.0 * p.rate_sum / p.rate_n as f64)
                    } else {
                        None
                    }
                }
                _ => (p.bt_runs > 0).then(|| p.bt_sum / p.bt_runs as f64),
            };
            if let Some(y) = y.filter(|y| y.is_finite()) {
                points.push((x_of(all_square, rows, cols), y));
            }
        }
        // One run per size (a deterministic rule from one start): each point is 0 or 100%, which
        // a line would draw as spikes over every other such series.
        let markers = metric == Metric::Success && boards.values().all(|p| p.runs <= 1);
        series.push(Drawn {
            label: name.label.clone(),
            colour: name.colour,
            style: name.style,
            markers,
            points,
            band,
        });
    }
    series
}

/// The legend notes that explain bands and markers, when any series draws them.
fn series_notes(series: &[Drawn]) -> Vec<String> {
    let mut notes = Vec::new();
    if series.iter().any(|s| !s.markers && !s.band.is_empty()) {
        notes.push("bands: Wilson 95% intervals".into());
    }
    if series.iter().any(|s| s.markers) {
        notes.push("markers: one run per size,".into());
        notes.push("a row per series: filled".into());
        notes.push("above 100 = tour, hollow".into());
        notes.push("below 0 = no tour".into());
    }
    notes
}

/// Nodes per second of each (method, closed) of the selected series, per board size, from the
/// totals of every row of that size (all rules pooled): one row's time is often a few microseconds,
/// too short for a rate. Sizes under [`MIN_TIMED_NS`] get no point; returns also how many.
fn throughput(rows: &[&SummaryRow], selected: &Selected, all_square: bool) -> (Vec<Drawn>, usize) {
    let kept = |r: &SummaryRow| {
        selected.series.iter().any(|s| {
            (s.key.0.as_str(), s.key.1.as_str(), s.key.2) == (&r.rule, &r.method, r.closed)
        })
    };
    let groups = first_seen(
        rows.iter()
            .filter(|r| kept(r))
            .map(|r| (r.method.clone(), r.closed)),
    );
    let mut totals: Vec<BTreeMap<(u32, u32), (u64, u64)>> = vec![BTreeMap::new(); groups.len()];
    for r in rows.iter().filter(|r| kept(r)) {
        let Some(g) = groups
            .iter()
            .position(|g| (&g.0, g.1) == (&r.method, r.closed))
        else {
            continue;
        };
        let t = totals[g].entry((r.rows, r.cols)).or_default();
        t.0 = t.0.saturating_add(r.nodes_total);
        t.1 = t.1.saturating_add(r.elapsed_ns_total);
    }
    let mut untimed = 0;
    let mut series = Vec::new();
    for (i, ((method, closed), boards)) in groups.iter().zip(&totals).enumerate() {
        let mut points = Vec::new();
        for (&(rows, cols), &(nodes, ns)) in boards {
            if ns < MIN_TIMED_NS {
                untimed += 1;
                continue;
            }
            points.push((
                x_of(all_square, rows, cols),
                nodes as f64 / (ns as f64 / 1e9),
            ));
        }
        series.push(Drawn {
            label: format!("{method}{}", if *closed { ", closed" } else { "" }),
            colour: i,
            style: 0,
            markers: false,
            points,
            band: Vec::new(),
        });
    }
    (series, untimed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A summary row with the columns the plots read.
    #[allow(clippy::too_many_arguments)]
    fn row(
        side: u32,
        runs: u64,
        feasible_runs: u64,
        successes: u64,
        backtracks_mean: Option<f64>,
        nodes_total: u64,
        elapsed_ns_total: u64,
    ) -> SummaryRow {
        SummaryRow {
            rows: side,
            cols: side,
            rule: "first".into(),
            method: "backtrack".into(),
            closed: false,
            runs,
            feasible_runs,
            successes,
            success_rate: if feasible_runs > 0 {
                successes as f64 / feasible_runs as f64
            } else {
                f64::NAN
            },
            backtracks_mean: backtracks_mean.unwrap_or(f64::NAN),
            nodes_total,
            elapsed_ns_total,
            ..SummaryRow::default()
        }
    }

    /// The one series' points of `metric`.
    fn points(summary: &Summary, metric: Metric) -> Vec<(f64, f64)> {
        let data = chart(summary, metric, DEFAULT_MAX_SERIES);
        assert_eq!(data.series.len(), 1, "one series");
        data.series[0].points.clone()
    }

    fn chart(summary: &Summary, metric: Metric, max: usize) -> ChartData {
        let rows: Vec<&SummaryRow> = summary.rows.iter().collect();
        chart_data(&summary.title, &rows, &select_series(&rows, max), metric)
    }

    fn close(got: f64, want: f64) -> bool {
        (got - want).abs() < 1e-9
    }

    #[test]
    fn pooled_rates_are_over_feasible_runs_and_backtracks_are_run_weighted() {
        // Two shards of the same 8x8 cell: 10 runs of which 8 feasible, 6 tours, 2 backtracks per run
        // on average; then 30 runs, all feasible, 15 tours, 10 backtracks per run. One 6x6 cell where
        // no run was feasible and the sweep left the rate empty: no point.
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                row(8, 10, 8, 6, Some(2.0), 1_000, 1_000_000_000),
                row(8, 30, 30, 15, Some(10.0), 3_000, 1_000_000_000),
                row(6, 4, 0, 0, None, 40, 0),
            ],
        };
        // success: (6 + 15) / (8 + 30) feasible runs, not / (10 + 30) runs, not the mean of 75% and 50%
        let success = points(&summary, Metric::Success);
        assert_eq!(success.len(), 1, "{success:?}");
        assert_eq!(success[0].0, 8.0);
        let want = 100.0 * 21.0 / 38.0;
        assert!(close(success[0].1, want), "{} != {want}", success[0].1);
        // backtracks: (2 x 10 + 10 x 30) / 40 = 8, not (2 + 10) / 2 = 6
        let backtracks = points(&summary, Metric::Backtracks);
        assert_eq!(backtracks.len(), 1, "{backtracks:?}");
        assert!(close(backtracks[0].1, 8.0), "{backtracks:?}");
        // throughput: 4,000 nodes in 2 s; the 6x6 cell took no time and has no point
        let throughput = points(&summary, Metric::Throughput);
        assert_eq!(throughput, vec![(8.0, 2_000.0)]);
    }

    fn named(mut r: SummaryRow, rule: &str, method: &str) -> SummaryRow {
        r.rule = rule.into();
        r.method = method.into();
        r
    }

    #[test]
    fn throughput_is_board_totals_over_every_rule_with_short_sizes_left_out() {
        // 10x10: two rules of one method, 3 ms and 9 ms: 12 ms in all, so one point from the totals
        // (4e6 + 2e6 nodes in 12 ms = 500M/s), not the mean of the rows' rates (1333M/s and
        // 222M/s). 6x6: 9.9 ms in all, under the threshold: no point, however fast its rows look.
        // The backtracking method is its own series.
        let ms = 1_000_000;
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                named(
                    row(10, 100, 100, 90, None, 4_000_000, 3 * ms),
                    "first",
                    "warnsdorff",
                ),
                named(
                    row(10, 100, 100, 99, None, 2_000_000, 9 * ms),
                    "roth",
                    "warnsdorff",
                ),
                named(
                    row(6, 36, 36, 30, None, 9_000_000, 5 * ms),
                    "first",
                    "warnsdorff",
                ),
                named(
                    row(6, 36, 36, 30, None, 9_000_000, 4_900_000),
                    "roth",
                    "warnsdorff",
                ),
                named(
                    row(10, 100, 100, 99, None, 1_000_000, MIN_TIMED_NS),
                    "first",
                    "backtrack",
                ),
            ],
        };
        let data = chart(&summary, Metric::Throughput, DEFAULT_MAX_SERIES);
        let series: Vec<(&str, &[(f64, f64)])> = data
            .series
            .iter()
            .map(|s| (s.label.as_str(), s.points.as_slice()))
            .collect();
        assert_eq!(series.len(), 2, "{series:?}");
        assert_eq!(series[0].0, "warnsdorff");
        assert_eq!(series[0].1.len(), 1, "{series:?}");
        assert_eq!(series[0].1[0].0, 10.0);
        assert!(close(series[0].1[0].1, 500e6), "{series:?}");
        // exactly at the threshold counts: 1e6 nodes in 10 ms
        assert_eq!(series[1], ("backtrack", &[(10.0, 100e6)][..]));
        assert_eq!(data.skip, None);
        assert!(
            data.notes
                .iter()
                .any(|n| n.starts_with("1 sizes under 10 ms")),
            "{:?}",
            data.notes
        );
        // with only the short 6x6 rows there is nothing to draw, and the plot says so
        let short = Summary {
            title: "t".into(),
            rows: summary.rows[2..4].to_vec(),
        };
        assert_eq!(
            chart(&short, Metric::Throughput, 16).skip,
            Some(Skip::Untimed)
        );
    }

    #[test]
    fn series_are_kept_in_file_order_up_to_the_maximum_and_the_rest_named() {
        let rules = ["first", "random", "pohl", "roth", "center"];
        let mut rows = Vec::new();
        for side in [6, 8] {
            for rule in rules {
                for method in ["warnsdorff", "backtrack"] {
                    rows.push(named(row(side, 10, 10, 5, Some(0.0), 1, 1), rule, method));
                }
            }
        }
        let refs: Vec<&SummaryRow> = rows.iter().collect();
        let selected = select_series(&refs, 3);
        let labels: Vec<&str> = selected.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "first (warnsdorff)",
                "first (backtrack)",
                "random (warnsdorff)"
            ]
        );
        assert_eq!(selected.left_out.len(), 7);
        assert_eq!(selected.left_out[0], "random (backtrack)");
        // colour follows the rule, line style the method
        let style: Vec<(usize, usize)> = selected
            .series
            .iter()
            .map(|s| (s.colour, s.style))
            .collect();
        assert_eq!(style, [(0, 0), (0, 1), (1, 0)]);
        let summary = Summary {
            title: "t".into(),
            rows,
        };
        assert!(chart(&summary, Metric::Success, 3)
            .title
            .ends_with("(3 of 10 series)"));
        assert!(!chart(&summary, Metric::Success, 10)
            .title
            .contains("series"));
        // all zero backtracks: nothing to plot
        assert_eq!(
            chart(&summary, Metric::Backtracks, 10).skip,
            Some(Skip::NoBacktracks)
        );
    }

    #[test]
    fn filters_select_rows_and_refuse_unknown_names() {
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                named(row(8, 64, 64, 60, Some(0.0), 1, 1), "first", "warnsdorff"),
                named(row(8, 64, 64, 62, Some(1.5), 1, 1), "first", "backtrack"),
                named(row(8, 64, 64, 62, Some(0.0), 1, 1), "roth", "warnsdorff"),
            ],
        };
        let filter = |rules: &[&str], methods: &[&str]| Filter {
            rules: (!rules.is_empty()).then(|| rules.iter().map(|s| s.to_string()).collect()),
            methods: (!methods.is_empty()).then(|| methods.iter().map(|s| s.to_string()).collect()),
        };
        let kept = select_rows(&summary, &filter(&["first"], &[])).unwrap();
        assert_eq!(kept.len(), 2);
        let kept = select_rows(&summary, &filter(&[], &["warnsdorff"])).unwrap();
        assert_eq!(
            kept.iter().map(|r| r.rule.as_str()).collect::<Vec<_>>(),
            ["first", "roth"]
        );
        let err = select_rows(&summary, &filter(&["pohl"], &[])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no rule \"pohl\" in the file; its rules: first, roth"
        );
        assert!(matches!(
            select_rows(&summary, &filter(&["roth"], &["backtrack"])),
            Err(PlotError::NothingSelected)
        ));
        // one series chosen: its label is the bare rule
        let rows = select_rows(&summary, &filter(&["first"], &["backtrack"])).unwrap();
        let sel = select_series(&rows, 16);
        assert_eq!(sel.series[0].label, "first");
    }

    #[test]
    fn one_run_per_size_is_drawn_as_markers_and_many_runs_as_a_line() {
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                named(row(5, 1, 1, 1, Some(0.0), 1, 1), "first", "warnsdorff"),
                named(row(6, 1, 1, 0, Some(0.0), 1, 1), "first", "warnsdorff"),
                named(row(5, 20, 20, 7, Some(0.0), 1, 1), "random", "warnsdorff"),
                named(row(6, 20, 20, 8, Some(0.0), 1, 1), "random", "warnsdorff"),
            ],
        };
        let data = chart(&summary, Metric::Success, 16);
        assert!(data.series[0].markers);
        assert_eq!(data.series[0].points, [(5.0, 100.0), (6.0, 0.0)]);
        assert!(!data.series[1].markers);
        assert!(data.notes.iter().any(|n| n.contains("one run per size")));
        // the markers are a success-plot device only
        assert!(!chart(&summary, Metric::Backtracks, 16).series[0].markers);
    }
}
