//! The counts of a set of runs of one group ([`Tally`]), defined from one table of counters
//! ([`Tally::COUNTERS`]) that gives the struct, the journal's columns and its checksum, and how each
//! counter adds up across chunks, shards and resumes ([`CounterKind`]).

use super::RunRow;
use crate::solve::{Outcome, RunSummary};
use serde::{Deserialize, Serialize};

/// How a counter of a [`Tally`] adds up across chunks, shards and resumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterKind {
    /// A count or a sum: added.
    Sum,
    /// A largest value: the larger one kept.
    Max,
    /// A sum of wall-clock time: added, but left out of the journal's checksum, because it varies
    /// between runs of the same spec while the journal does not.
    Timing,
    /// A count added after journals were first written: added; read as 0 where a journal has no
    /// column for it, and in the checksum only when not 0, so that older journals read and check
    /// as they did.
    Later,
    /// A largest value added later: the larger kept; 0 when nothing is counted, read as 0 where a
    /// journal has no column for it, and in the checksum only when not 0.
    LaterMax,
    /// A smallest value added later: the smaller kept; `u64::MAX` when nothing is counted (and
    /// where a journal has no column for it), and in the checksum only when not `u64::MAX`.
    LaterMin,
}

impl CounterKind {
    /// The value of a counter that has counted nothing, which every merge leaves as it is.
    pub const fn empty(self) -> u64 {
        match self {
            CounterKind::LaterMin => u64::MAX,
            _ => 0,
        }
    }

    /// Two values of this kind merged.
    pub fn merged(self, a: u64, b: u64) -> u64 {
        match self {
            CounterKind::Max | CounterKind::LaterMax => a.max(b),
            CounterKind::LaterMin => a.min(b),
            CounterKind::Sum | CounterKind::Timing | CounterKind::Later => a + b,
        }
    }
}

/// One counter of a [`Tally`]: its field and column name, and how it adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    /// The field of [`Tally`] and the column of `chunks.csv`.
    pub name: &'static str,
    /// How it adds up.
    pub kind: CounterKind,
}

/// Defines [`Tally`] from one table of counters, with [`Tally::COUNTERS`], [`Tally::counts`] and
/// [`Tally::from_counts`]: the struct, the journal's columns and its checksum all come from this
/// one list, so a counter cannot be added to one of them and forgotten in another.
macro_rules! tally {
    ($(#[$meta:meta])* pub struct Tally { $( $(#[doc = $doc:literal])+ $name:ident: $kind:ident, )+ }) => {
        $(#[$meta])*
        pub struct Tally {
            $( $(#[doc = $doc])+ pub $name: u64, )+
        }

        /// How many counters a [`Tally`] has.
        pub const COUNTERS: usize = [$(stringify!($name)),+].len();

        impl Tally {
            /// Every counter, in field and column order.
            pub const COUNTERS: [Counter; COUNTERS] = [
                $( Counter { name: stringify!($name), kind: CounterKind::$kind }, )+
            ];

            /// The counters' values, in the order of [`Tally::COUNTERS`].
            pub fn counts(&self) -> [u64; COUNTERS] {
                [$(self.$name),+]
            }

            /// The tally of these values, in the order of [`Tally::COUNTERS`] (the inverse of
            /// [`Tally::counts`]).
            pub fn from_counts(counts: [u64; COUNTERS]) -> Tally {
                let [$($name),+] = counts;
                Tally { $($name),+ }
            }
        }
    };
}

tally! {
    /// Counts over a set of runs of one group; adds up across chunks, shards and resumes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Tally {
        /// Runs.
        runs: Sum,
        /// Runs from starts where colour parity and the existence theorems allow a tour.
        feasible_runs: Sum,
        /// Runs that found a tour.
        successes: Sum,
        /// Pure Warnsdorff dead ends.
        dead_ends: Sum,
        /// Searches stopped by the budget.
        budget_exhausted: Sum,
        /// Runs proved impossible (theorem or exhausted search).
        impossible: Sum,
        /// Sum of squares visited.
        visited_total: Sum,
        /// Sum of nodes.
        nodes_total: Sum,
        /// Sum of backtracks.
        backtracks_total: Sum,
        /// Largest backtrack count of one run.
        backtracks_max: Max,
        /// Sum of ties.
        ties_total: Sum,
        /// Sum of wall-clock nanoseconds (timing column).
        elapsed_ns_total: Timing,
        /// Walks that covered the board but whose ends are not a knight move apart (closed asked).
        not_closed: Later,
        /// Attempts past the first, summed (0 without restarts).
        restarts_total: Later,
        /// Runs whose path is a closed tour (it covers the board and its ends are a knight move
        /// apart), whether or not a closed tour was asked for.
        closed_tours: Later,
        /// Fewest squares on a run's final path (`u64::MAX` when no run is counted).
        visited_min: LaterMin,
        /// Most squares on a run's final path.
        visited_max: LaterMax,
    }
}

impl Default for Tally {
    /// The tally of no run: every counter [`CounterKind::empty`].
    fn default() -> Self {
        Tally::from_counts(Tally::COUNTERS.map(|c| c.kind.empty()))
    }
}

impl Tally {
    /// Count one run.
    pub fn add_run(&mut self, s: &RunSummary, feasible: bool) {
        self.runs += 1;
        self.feasible_runs += feasible as u64;
        match s.outcome {
            Outcome::Found => self.successes += 1,
            Outcome::DeadEnd => self.dead_ends += 1,
            Outcome::NotClosed => self.not_closed += 1,
            Outcome::BudgetExhausted => self.budget_exhausted += 1,
            Outcome::Impossible(_) => self.impossible += 1,
        }
        self.restarts_total += u64::from(s.attempts.saturating_sub(1));
        self.closed_tours += s.closes as u64;
        self.visited_min = self.visited_min.min(s.visited as u64);
        self.visited_max = self.visited_max.max(s.visited as u64);
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
            "dead-end" => self.dead_ends += 1,
            "not-closed" => self.not_closed += 1,
            "budget" => self.budget_exhausted += 1,
            "no-tour-theorem" | "no-tour-exhausted" => self.impossible += 1,
            _ => {}
        }
        self.visited_total += row.visited as u64;
        self.visited_min = self.visited_min.min(row.visited as u64);
        self.visited_max = self.visited_max.max(row.visited as u64);
        self.nodes_total += row.nodes;
        self.backtracks_total += row.backtracks;
        self.backtracks_max = self.backtracks_max.max(row.backtracks);
        self.ties_total += row.ties;
        self.restarts_total += u64::from(row.attempt.saturating_sub(1));
    }

    /// The same counts as `o`, leaving aside what rows do not hold ([`Tally::add_row`]): whether
    /// a start was feasible, the time, whether a path closes.
    pub(crate) fn same_counts(&self, o: &Tally) -> bool {
        let without = |t: &Tally| Tally {
            feasible_runs: 0,
            elapsed_ns_total: 0,
            closed_tours: 0,
            ..*t
        };
        without(self) == without(o)
    }

    /// Add another tally.
    pub fn merge(&mut self, o: &Tally) {
        let mut counts = self.counts();
        for ((n, m), counter) in counts.iter_mut().zip(o.counts()).zip(&Tally::COUNTERS) {
            *n = counter.kind.merged(*n, m);
        }
        *self = Tally::from_counts(counts);
    }
}

#[cfg(test)]
/// A tally whose counters all differ, so that a counter read or written in another's place shows.
pub(super) fn numbered() -> Tally {
    Tally::from_counts(std::array::from_fn(|i| 10 + i as u64))
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
        let theorem = crate::exists::tour(Board::new(3, 3).unwrap(), crate::board::Closure::Open)
            .unwrap_err();
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
                closes: false,
                visited: 7,
                stats: Stats {
                    nodes: 11,
                    backtracks: 3,
                    ties: 2,
                    ..Stats::default()
                },
                attempts: 3,
            };
            let row = RunRow {
                outcome: name.to_string().into(),
                success: outcome == Outcome::Found,
                ..RunRow::example(0)
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

    /// Merging adds every counter, but keeps the larger of the largest values.
    #[test]
    fn merge_adds_every_counter() {
        let (a, b) = (
            numbered(),
            Tally::from_counts(std::array::from_fn(|i| 100 * i as u64)),
        );
        let mut sum = a;
        sum.merge(&b);
        for (i, counter) in Tally::COUNTERS.iter().enumerate() {
            let (x, y) = (a.counts()[i], b.counts()[i]);
            let want = match counter.kind {
                CounterKind::Max | CounterKind::LaterMax => x.max(y),
                CounterKind::LaterMin => x.min(y),
                CounterKind::Sum | CounterKind::Timing | CounterKind::Later => x + y,
            };
            assert_eq!(sum.counts()[i], want, "{}", counter.name);
        }
    }
}
