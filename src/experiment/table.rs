//! The compact table printed at the end of a sweep: success rate per rule and method (successes over
//! feasible runs, i.e. runs from starts where colour parity allows a tour), by board-size range.
//! Boards are bucketed by their larger side (up to 8, 9-16, 17-32, ...: doubling, so that a sweep
//! over hundreds of sizes still fits a terminal), and each column is labelled with the smallest and
//! largest larger side present in it ("5-8", or "10" for one size), not the bucket's bounds. A cell
//! holding part of a group's runs (or a group that has not run at all) is marked `*`, with a
//! footnote: after an interrupt its rate is not the sweep's. A cell whose runs were all from starts
//! where no tour exists shows `-` with a footnote saying so. Each rate carries its Wilson 95%
//! interval in brackets (`wilson.rs`), in %: random rules' rates are samples, and so, of the
//! starts a spec lists, are all of them.

use super::record::SummaryRow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Size range (lo, hi) of the larger side.
pub(crate) type Bucket = (u32, u32);

/// A column's label: the larger sides present in its bucket.
pub(crate) fn label(smallest: u32, largest: u32) -> String {
    if smallest == largest {
        smallest.to_string()
    } else {
        format!("{smallest}-{largest}")
    }
}

pub(crate) fn bucket(side: u32) -> Bucket {
    let mut hi = 8;
    while side > hi {
        hi *= 2;
    }
    (if hi == 8 { 1 } else { hi / 2 + 1 }, hi)
}

/// One cell of a series: its bucket, successes, feasible runs, and whether some group in it has
/// not counted every one of its runs.
type Cell = (Bucket, u64, u64, bool);

/// The mark of a partial cell, and the footnote that says what it means.
const PARTIAL: char = '*';
const PARTIAL_NOTE: &str =
    "* from part of the runs (interrupted, failed or a shard): see `complete` in summary.csv";
/// The footnote of a cell whose groups ran every run and none was feasible (a camel's sweep, whose
/// leaper keeps to one colour, has no other): its `-` is not a cell without runs.
const INFEASIBLE_NOTE: &str = "- no feasible run: colour parity or an existence theorem rules out a tour from every start run (see feasible_runs in summary.csv)";

/// One (method, rule) series: its cells, a handful at most.
struct Series<'a> {
    method: &'a str,
    rule: &'a str,
    cells: Cells,
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

/// A series' cells, the first held in place: most series have one (each of an `order:*` sweep's
/// 40,320 series took an allocation for it, made and freed on the thread that writes the summary).
#[derive(Default)]
struct Cells {
    first: Option<Cell>,
    more: Vec<Cell>,
}

impl Cells {
    fn iter(&self) -> impl Iterator<Item = &Cell> {
        self.first.iter().chain(&self.more)
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut Cell> {
        self.first.iter_mut().chain(&mut self.more)
    }

    fn push(&mut self, cell: Cell) {
        match self.first {
            None => self.first = Some(cell),
            Some(_) => self.more.push(cell),
        }
    }
}

/// Success rates (successes / feasible runs, in %, with the Wilson 95% interval) per (rule,
/// method) and size range. `rows` may include groups without runs (not complete), so that the
/// cells missing them are marked.
pub fn success_table(rows: &[SummaryRow]) -> String {
    let mut table = SuccessTable::default();
    for r in rows {
        table.add_side(
            r.rows.max(r.cols),
            &r.rule,
            &r.method,
            r.successes,
            r.feasible_runs,
            r.complete,
        );
    }
    table.finish()
}

/// [`success_table`] built one group at a time, so that a sweep of millions of groups need not
/// hold their rows: only its series (rule x method) and their cells.
#[derive(Default)]
pub struct SuccessTable<'a> {
    /// Each bucket with the smallest and largest larger side present in it.
    buckets: BTreeMap<Bucket, (u32, u32)>,
    /// Series in first-seen order; an `order:*` sweep has 40,320 of them.
    series: Vec<Series<'a>>,
    index: HashMap<(&'a str, &'a str), usize>,
    /// [`SuccessTable::add_numbered`]: each series' place in `series` by its number (`u32::MAX`
    /// not yet seen), so that a sweep's 40,320 series are found without hashing their names.
    numbered: Vec<u32>,
}

impl<'a> SuccessTable<'a> {
    /// A table for about `series` rule x method series, allocated once (an `order:*` sweep has
    /// 40,320, added one group at a time on the writing thread while the other threads wait).
    pub fn with_capacity(series: usize) -> Self {
        SuccessTable {
            buckets: BTreeMap::new(),
            series: Vec::with_capacity(series),
            index: HashMap::new(),
            numbered: vec![u32::MAX; series],
        }
    }

    /// Count one group of `board`: its successes and feasible runs, and whether it counted every
    /// one of its runs, in a series known by its number below the capacity (a plan's rule
    /// and method index: [`crate::experiment::Plan::series_of`]), which names it `rule`, `method`.
    #[allow(clippy::too_many_arguments)]
    pub fn add_numbered(
        &mut self,
        number: usize,
        board: crate::board::Board,
        rule: &'a str,
        method: &'a str,
        successes: u64,
        feasible_runs: u64,
        complete: bool,
    ) {
        if self.numbered[number] == u32::MAX {
            self.numbered[number] = self.new_series(rule, method) as u32;
        }
        let i = self.numbered[number] as usize;
        self.add_cell(
            i,
            board.rows().max(board.cols()),
            successes,
            feasible_runs,
            complete,
        );
    }

    /// Count one group whose larger side is `side`, in the series named `rule`, `method`: its
    /// successes and feasible runs, and whether it counted every one of its runs.
    fn add_side(
        &mut self,
        side: u32,
        rule: &'a str,
        method: &'a str,
        successes: u64,
        feasible_runs: u64,
        complete: bool,
    ) {
        let i = match self.index.get(&(method, rule)) {
            Some(&i) => i,
            None => {
                let i = self.new_series(rule, method);
                self.index.insert((method, rule), i);
                i
            }
        };
        self.add_cell(i, side, successes, feasible_runs, complete);
    }

    /// A series not seen before, last in the order seen: its place.
    fn new_series(&mut self, rule: &'a str, method: &'a str) -> usize {
        self.series.push(Series {
            method,
            rule,
            cells: Cells::default(),
        });
        self.series.len() - 1
    }

    /// Add a group of larger side `side` to series `i`.
    fn add_cell(
        &mut self,
        i: usize,
        side: u32,
        successes: u64,
        feasible_runs: u64,
        complete: bool,
    ) {
        let b = bucket(side);
        let present = self.buckets.entry(b).or_insert((side, side));
        *present = (present.0.min(side), present.1.max(side));
        let cells = &mut self.series[i].cells;
        if let Some(c) = cells.iter_mut().find(|c| c.0 == b) {
            c.1 += successes;
            c.2 += feasible_runs;
            c.3 |= !complete;
            return;
        }
        cells.push((b, successes, feasible_runs, !complete));
    }

    /// The table.
    pub fn finish(self) -> String {
        const SHOWN: usize = 40;
        let SuccessTable {
            buckets, series, ..
        } = self;
        let shown: Vec<&Series> = if series.len() <= SHOWN {
            series.iter().collect()
        } else {
            // best SHOWN by overall rate, first seen first among equals: a partial selection, as
            // an `order:*` sweep has 40,320 series and this is serial work at a sweep's end; the
            // shown are picked by reference, where moving every series out to take them copied
            // them all
            let mut ranked: Vec<(f64, usize)> = series
                .iter()
                .enumerate()
                .map(|(i, s)| (s.rate(), i))
                .collect();
            let order =
                |a: &(f64, usize), b: &(f64, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
            ranked.select_nth_unstable_by(SHOWN - 1, order);
            ranked.truncate(SHOWN);
            ranked.sort_unstable_by(order);
            ranked.iter().map(|&(_, i)| &series[i]).collect()
        };
        let width = shown
            .iter()
            .map(|s| s.method.len() + s.rule.len() + 1)
            .max()
            .unwrap_or(0)
            .max("success % (feasible)".len());
        let mut s = String::new();
        let _ = write!(s, "{:width$}", "success % (feasible)");
        for &(smallest, largest) in buckets.values() {
            let _ = write!(s, " {:>8}  {:13}", label(smallest, largest), "");
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        let (mut any_partial, mut any_infeasible) = (false, false);
        for one in &shown {
            let _ = write!(s, "{:width$}", format!("{} {}", one.method, one.rule));
            for b in buckets.keys() {
                let cell = one.cells.iter().find(|c| c.0 == *b);
                let partial = cell.is_some_and(|c| c.3);
                any_partial |= partial;
                any_infeasible |= cell.is_some_and(|c| c.2 == 0 && !c.3);
                let (value, interval) = match cell {
                    Some(&(_, ok, n, _)) if n > 0 => {
                        let (lo, hi) = crate::util::wilson::wilson95(ok, n);
                        (
                            format!("{:.1}", 100.0 * ok as f64 / n as f64),
                            format!("[{:.1}-{:.1}]", 100.0 * lo, 100.0 * hi),
                        )
                    }
                    _ => ("-".into(), String::new()),
                };
                // the mark goes after the number, keeping the numbers of a column aligned
                let mark = if partial { PARTIAL } else { ' ' };
                let _ = write!(s, " {value:>8}{mark} {interval:13}");
            }
            // no trailing blanks
            s.truncate(s.trim_end().len());
            s.push('\n');
        }
        if any_partial {
            s.push_str(PARTIAL_NOTE);
            s.push('\n');
        }
        if any_infeasible {
            s.push_str(INFEASIBLE_NOTE);
            s.push('\n');
        }
        s.push_str(&restricted_starts_footnote(shown.iter().map(|x| x.rule)));
        s
    }
}

/// Lines saying which of `rules` run from fewer starts than the spec lists (`squirrel`: the corner
/// only), whose rates are then not of the same starts as the others'; empty when none do.
pub fn restricted_starts_footnote<'a>(rules: impl IntoIterator<Item = &'a str>) -> String {
    let mut s = String::new();
    let mut said = Vec::new();
    for name in rules {
        let Ok(rule) = name.parse::<crate::solve::Rule>() else {
            continue;
        };
        if let Some(starts) = super::size::start_restriction(rule) {
            if !said.contains(&rule) {
                said.push(rule);
                let _ = writeln!(
                    s,
                    "note: {name} runs {starts}; the other rules from every start the spec lists"
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::record::Tally;

    fn row(side: (u32, u32), rule: &str, successes: u64, feasible_runs: u64) -> SummaryRow {
        let t = Tally {
            runs: feasible_runs + 1,
            feasible_runs,
            successes,
            ..Tally::default()
        };
        SummaryRow::new(
            side.0,
            side.1,
            rule.into(),
            "warnsdorff".into(),
            false,
            &t,
            t.runs,
        )
    }

    /// Over 40 series, the table shows the best 40 by overall rate, best first and the first seen
    /// first among equal rates: compared with a stable sort of every series.
    #[test]
    fn the_best_forty_series_are_shown_first_seen_first_among_equals() {
        // 300 series with rates of few distinct values, so that ties cross the 40th place
        let rows: Vec<SummaryRow> = (0..300u64)
            .map(|i| row((8, 8), &format!("order:{i}"), (i * 7919) % 5, 4))
            .collect();
        let table = success_table(&rows);
        let shown: Vec<&str> = table
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect();
        let mut want: Vec<(u64, &str)> = rows
            .iter()
            .map(|r| (r.successes, r.rule.as_str()))
            .collect();
        want.sort_by_key(|w| std::cmp::Reverse(w.0));
        let want: Vec<&str> = want.iter().take(40).map(|w| w.1).collect();
        assert_eq!(shown, want);
    }

    /// A cell with a group that has not counted all its runs (or none) is marked, and the table
    /// then ends with the footnote; a table of complete groups has neither.
    #[test]
    fn partial_cells_are_marked_and_explained() {
        let whole = [row((5, 5), "first", 1, 4), row((10, 10), "first", 1, 8)];
        let table = success_table(&whole);
        assert!(!table.contains(PARTIAL), "{table}");
        let mut cut = whole.to_vec();
        cut[1].complete = false;
        let not_run = SummaryRow {
            complete: false,
            ..row((6, 6), "roth", 0, 0)
        };
        cut.push(not_run);
        let table = success_table(&cut);
        let lines: Vec<Vec<&str>> = table
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            lines[1],
            [
                "warnsdorff",
                "first",
                "25.0",
                "[4.6-69.9]",
                "12.5*",
                "[2.2-47.1]"
            ],
            "{table}"
        );
        assert_eq!(lines[2], ["warnsdorff", "roth", "-*", "-"], "{table}");
        assert_eq!(table.lines().last(), Some(PARTIAL_NOTE), "{table}");
        assert_eq!(table.matches(PARTIAL).count(), 3, "{table}");
    }

    /// Every cell of a table over sizes in three buckets: rates add successes and feasible runs
    /// over the boards of a bucket (not rates), columns are labelled by the sizes present, and a
    /// bucket without feasible runs of a series shows "-".
    #[test]
    fn cells_add_up_per_bucket_and_columns_name_the_sizes_present() {
        let rows = [
            row((5, 5), "first", 1, 4),
            row((6, 8), "first", 3, 4),
            row((10, 10), "first", 1, 8),
            row((40, 40), "first", 2, 2),
            row((5, 5), "roth", 0, 0),
            row((8, 6), "roth", 2, 2),
            row((10, 10), "roth", 0, 8),
            row((12, 12), "roth", 3, 4),
        ];
        let table = success_table(&rows);
        let lines: Vec<Vec<&str>> = table
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            lines,
            [
                vec!["success", "%", "(feasible)", "5-8", "10-12", "40"],
                // 4/8, 1/8, 2/2, each with its Wilson interval
                vec![
                    "warnsdorff",
                    "first",
                    "50.0",
                    "[21.5-78.5]",
                    "12.5",
                    "[2.2-47.1]",
                    "100.0",
                    "[34.2-100.0]"
                ],
                // 2/2, 3/12, nothing
                vec![
                    "warnsdorff",
                    "roth",
                    "100.0",
                    "[34.2-100.0]",
                    "25.0",
                    "[8.9-53.2]",
                    "-"
                ],
            ],
            "{table}"
        );
    }

    /// A sweep none of whose runs was feasible (a camel's) shows `-` in every cell, and the table
    /// says why in a footnote; a `-` of a bucket without runs of a series has none (above), nor a
    /// group not yet run (its `*` says it).
    #[test]
    fn cells_without_a_feasible_run_are_explained() {
        let camel = [row((8, 8), "first", 0, 0), row((10, 10), "first", 0, 0)];
        let table = success_table(&camel);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["warnsdorff", "first", "-", "-"]
        );
        assert_eq!(lines[2..], [INFEASIBLE_NOTE], "{table}");
        let not_run = SummaryRow {
            complete: false,
            ..row((6, 6), "roth", 0, 0)
        };
        assert!(!success_table(&[not_run]).contains(INFEASIBLE_NOTE));
    }

    /// One size in a bucket names that size alone; buckets double from 8.
    #[test]
    fn buckets_double_from_eight() {
        assert_eq!(
            [1, 8, 9, 16, 17, 32, 33, 1000].map(bucket),
            [
                (1, 8),
                (1, 8),
                (9, 16),
                (9, 16),
                (17, 32),
                (17, 32),
                (33, 64),
                (513, 1024)
            ]
        );
        assert_eq!(label(7, 7), "7");
        assert_eq!(label(5, 8), "5-8");
    }
}
