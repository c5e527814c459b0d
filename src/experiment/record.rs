//! The rows of the CSV files, one flat `Serialize` struct per file, and the per-group tally that
//! `summary.csv` is made of. Column names are a contract with pandas/polars/R scripts and `ktour plot`.

use super::plan::Job;
use crate::solve::{Outcome, Rule, RunSummary};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One run: a row of `runs.csv`. The names borrow when a sweep writes rows (one rule name per chunk,
/// static method and outcome names: no allocation per row) and are owned when rows are read back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRow<'a> {
    /// Global run number (stable across shards and resumes).
    pub job: u64,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: Cow<'a, str>,
    /// Solver.
    pub method: Cow<'a, str>,
    /// Whether a closed tour was required.
    pub closed: bool,
    /// Start row (0-based).
    pub start_row: u16,
    /// Start column (0-based).
    pub start_col: u16,
    /// Trial number (random rules).
    pub trial: u32,
    /// The run's own PRNG seed: `ktour solve --seed` replays the run alone.
    pub seed: u64,
    /// `found`, `dead-end`, `not-closed`, `budget`, `no-tour-theorem`, `no-tour-exhausted`.
    pub outcome: Cow<'a, str>,
    /// Whether a tour (closed if required) was found.
    pub success: bool,
    /// Squares on the final path.
    pub visited: u32,
    /// Squares entered.
    pub nodes: u64,
    /// Squares left again.
    pub backtracks: u64,
    /// Moves decided by the tie-break rule.
    pub ties: u64,
    /// Wall-clock nanoseconds (timing column: varies between runs of the same spec).
    pub elapsed_ns: u64,
}

impl RunRow<'_> {
    /// Whether this is the row of `job`: its board, rule, method, closedness, start, trial and seed
    /// are the job's. A resume or a merge takes a row for its job only then, so that a row whose
    /// job number was damaged into another's (a digit lost, a line split) is not taken for that run.
    pub fn describes(&self, job: &Job) -> bool {
        let r = &job.request;
        self.job == job.job
            && (self.rows, self.cols) == (r.board.rows(), r.board.cols())
            && self.method == r.method.name()
            && self.rule.parse::<Rule>().is_ok_and(|rule| rule == r.rule)
            && self.closed == r.closed
            && (self.start_row, self.start_col) == (r.start.row(), r.start.col())
            && self.trial == job.trial
            && self.seed == r.seed
    }
}

/// Counts over a set of runs of one group; adds up across chunks, shards and resumes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Runs.
    pub runs: u64,
    /// Runs from starts where colour parity and the existence theorems allow a tour.
    pub feasible_runs: u64,
    /// Runs that found a tour.
    pub successes: u64,
    /// Pure Warnsdorff dead ends (and `not-closed`).
    pub dead_ends: u64,
    /// Searches stopped by the budget.
    pub budget_exhausted: u64,
    /// Runs proved impossible (theorem or exhausted search).
    pub impossible: u64,
    /// Sum of squares visited.
    pub visited_total: u64,
    /// Sum of nodes.
    pub nodes_total: u64,
    /// Sum of backtracks.
    pub backtracks_total: u64,
    /// Largest backtrack count of one run.
    pub backtracks_max: u64,
    /// Sum of ties.
    pub ties_total: u64,
    /// Sum of wall-clock nanoseconds (timing column).
    pub elapsed_ns_total: u64,
}

impl Tally {
    /// Count one run.
    pub fn add_run(&mut self, s: &RunSummary, feasible: bool) {
        self.runs += 1;
        self.feasible_runs += feasible as u64;
        match s.outcome {
            Outcome::Found => self.successes += 1,
            Outcome::DeadEnd | Outcome::NotClosed => self.dead_ends += 1,
            Outcome::BudgetExhausted => self.budget_exhausted += 1,
            Outcome::Impossible(_) => self.impossible += 1,
        }
        self.visited_total += s.visited as u64;
        self.nodes_total += s.stats.nodes;
        self.backtracks_total += s.stats.backtracks;
        self.backtracks_max = self.backtracks_max.max(s.stats.backtracks);
        self.ties_total += s.stats.ties;
        self.elapsed_ns_total += s.stats.elapsed_ns;
    }

    /// Count one row of `runs.csv` as [`Tally::add_run`] counted its run, except for what a row does
    /// not hold: whether its start was feasible, and its time (a batch's time shared out). A row
    /// whose outcome is no outcome's name counts as a run of none.
    pub(crate) fn add_row(&mut self, row: &RunRow) {
        self.runs += 1;
        match &*row.outcome {
            "found" => self.successes += 1,
            "dead-end" | "not-closed" => self.dead_ends += 1,
            "budget" => self.budget_exhausted += 1,
            "no-tour-theorem" | "no-tour-exhausted" => self.impossible += 1,
            _ => {}
        }
        self.visited_total += row.visited as u64;
        self.nodes_total += row.nodes;
        self.backtracks_total += row.backtracks;
        self.backtracks_max = self.backtracks_max.max(row.backtracks);
        self.ties_total += row.ties;
    }

    /// The same counts as `o`, leaving aside what rows do not hold ([`Tally::add_row`]).
    pub(crate) fn same_counts(&self, o: &Tally) -> bool {
        let without = |t: &Tally| Tally {
            feasible_runs: 0,
            elapsed_ns_total: 0,
            ..*t
        };
        without(self) == without(o)
    }

    /// Add another tally.
    pub fn merge(&mut self, o: &Tally) {
        self.runs += o.runs;
        self.feasible_runs += o.feasible_runs;
        self.successes += o.successes;
        self.dead_ends += o.dead_ends;
        self.budget_exhausted += o.budget_exhausted;
        self.impossible += o.impossible;
        self.visited_total += o.visited_total;
        self.nodes_total += o.nodes_total;
        self.backtracks_total += o.backtracks_total;
        self.backtracks_max = self.backtracks_max.max(o.backtracks_max);
        self.ties_total += o.ties_total;
        self.elapsed_ns_total += o.elapsed_ns_total;
    }
}

/// A finished chunk: a row of `chunks.csv`, the sweep's journal (what `--resume` and `merge` read).
/// Flat on purpose: the columns are the chunk, its group, then the [`Tally`] fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkRow {
    /// Chunk number.
    pub chunk: u64,
    /// Group number (row of summary.csv, in plan order).
    pub group: u32,
    /// See [`Tally`].
    pub runs: u64,
    /// See [`Tally`].
    pub feasible_runs: u64,
    /// See [`Tally`].
    pub successes: u64,
    /// See [`Tally`].
    pub dead_ends: u64,
    /// See [`Tally`].
    pub budget_exhausted: u64,
    /// See [`Tally`].
    pub impossible: u64,
    /// See [`Tally`].
    pub visited_total: u64,
    /// See [`Tally`].
    pub nodes_total: u64,
    /// See [`Tally`].
    pub backtracks_total: u64,
    /// See [`Tally`].
    pub backtracks_max: u64,
    /// See [`Tally`].
    pub ties_total: u64,
    /// See [`Tally`].
    pub elapsed_ns_total: u64,
    /// [`ChunkRow::checksum`] as written, so that a line damaged afterwards (an edit, a
    /// spreadsheet's rewrite, failing storage) is not taken for a finished chunk. Journals written
    /// before this column existed read as `None`, unchecked.
    #[serde(default)]
    pub check: Option<u32>,
}

impl ChunkRow {
    /// The row for `tally` of `chunk` in `group`, with its checksum.
    pub fn new(chunk: u64, group: u32, t: &Tally) -> Self {
        let mut row = ChunkRow {
            chunk,
            group,
            runs: t.runs,
            feasible_runs: t.feasible_runs,
            successes: t.successes,
            dead_ends: t.dead_ends,
            budget_exhausted: t.budget_exhausted,
            impossible: t.impossible,
            visited_total: t.visited_total,
            nodes_total: t.nodes_total,
            backtracks_total: t.backtracks_total,
            backtracks_max: t.backtracks_max,
            ties_total: t.ties_total,
            elapsed_ns_total: t.elapsed_ns_total,
            check: None,
        };
        row.check = Some(row.checksum());
        row
    }

    /// CRC-32 of every field but the timing one (which varies between runs of the same spec, while
    /// the journal does not, timing aside) and the check itself, as little-endian integers.
    pub fn checksum(&self) -> u32 {
        let mut h = crc32fast::Hasher::new();
        h.update(&self.chunk.to_le_bytes());
        h.update(&self.group.to_le_bytes());
        for n in [
            self.runs,
            self.feasible_runs,
            self.successes,
            self.dead_ends,
            self.budget_exhausted,
            self.impossible,
            self.visited_total,
            self.nodes_total,
            self.backtracks_total,
            self.backtracks_max,
            self.ties_total,
        ] {
            h.update(&n.to_le_bytes());
        }
        h.finalize()
    }

    /// The counts.
    pub fn tally(&self) -> Tally {
        Tally {
            runs: self.runs,
            feasible_runs: self.feasible_runs,
            successes: self.successes,
            dead_ends: self.dead_ends,
            budget_exhausted: self.budget_exhausted,
            impossible: self.impossible,
            visited_total: self.visited_total,
            nodes_total: self.nodes_total,
            backtracks_total: self.backtracks_total,
            backtracks_max: self.backtracks_max,
            ties_total: self.ties_total,
            elapsed_ns_total: self.elapsed_ns_total,
        }
    }
}

/// One board x rule x method: a row of `summary.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: String,
    /// Solver.
    pub method: String,
    /// Whether closed tours were required.
    pub closed: bool,
    /// Runs.
    pub runs: u64,
    /// Runs from starts where a tour can exist (colour parity, existence theorems).
    pub feasible_runs: u64,
    /// Runs that found a tour.
    pub successes: u64,
    /// successes / runs.
    pub success_rate: f64,
    /// successes / feasible_runs (empty when no run was feasible).
    pub success_rate_feasible: Option<f64>,
    /// Dead ends (pure Warnsdorff; `not-closed` included).
    pub dead_ends: u64,
    /// Runs stopped by the budget.
    pub budget_exhausted: u64,
    /// Runs proved impossible.
    pub impossible: u64,
    /// Mean squares visited.
    pub visited_mean: f64,
    /// Mean backtracks per run.
    pub backtracks_mean: f64,
    /// Largest backtracks of one run.
    pub backtracks_max: u64,
    /// Sum of nodes.
    pub nodes_total: u64,
    /// Sum of ties.
    pub ties_total: u64,
    /// Sum of wall-clock nanoseconds (timing column).
    pub elapsed_ns_total: u64,
}

impl SummaryRow {
    /// The row for a group's tally.
    pub fn new(
        rows: u32,
        cols: u32,
        rule: String,
        method: String,
        closed: bool,
        t: &Tally,
    ) -> Self {
        let per_run = |x: u64| {
            if t.runs == 0 {
                0.0
            } else {
                x as f64 / t.runs as f64
            }
        };
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solve::{Impossibility, Stats};

    /// A run and its `runs.csv` row count alike in a tally, for every outcome: resume and merge
    /// check rows against the journal this way, and a row names its outcome by `Outcome::name`.
    #[test]
    fn a_row_counts_as_its_run_for_every_outcome() {
        let theorem = crate::exists::tour(Board::new(3, 3).unwrap(), false).unwrap_err();
        let outcomes = [
            Outcome::Found,
            Outcome::DeadEnd,
            Outcome::NotClosed,
            Outcome::BudgetExhausted,
            Outcome::Impossible(Impossibility::Theorem(theorem)),
            Outcome::Impossible(Impossibility::Exhausted),
        ];
        let tallies = |outcome: Outcome, name: &str| {
            let run = RunSummary {
                outcome,
                visited: 7,
                stats: Stats {
                    nodes: 11,
                    backtracks: 3,
                    ties: 2,
                    ..Stats::default()
                },
            };
            let row = RunRow {
                job: 0,
                rows: 3,
                cols: 3,
                rule: "first".into(),
                method: "warnsdorff".into(),
                closed: false,
                start_row: 0,
                start_col: 0,
                trial: 0,
                seed: 0,
                outcome: name.to_string().into(),
                success: outcome == Outcome::Found,
                visited: 7,
                nodes: 11,
                backtracks: 3,
                ties: 2,
                elapsed_ns: 0,
            };
            let (mut from_run, mut from_row) = (Tally::default(), Tally::default());
            from_run.add_run(&run, true);
            from_row.add_row(&row);
            (from_run, from_row)
        };
        for outcome in outcomes {
            let (from_run, from_row) = tallies(outcome, outcome.name());
            assert!(from_row.same_counts(&from_run), "{outcome:?}");
        }
        // an outcome misnamed, or named as another kind, does not add up
        let (from_run, from_row) = tallies(Outcome::Found, "fund");
        assert!(!from_row.same_counts(&from_run));
        let (from_run, from_row) = tallies(Outcome::DeadEnd, Outcome::BudgetExhausted.name());
        assert!(!from_row.same_counts(&from_run));
    }
}
