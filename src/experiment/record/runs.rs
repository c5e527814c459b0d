//! A row of `runs.csv`: one run of a sweep, as the sweep writes it (through the `csv` crate's serde
//! writer) and as `--resume`, `merge`, `failures` and the start maps read it back. Column names are a
//! contract with pandas/polars/R scripts and `ktour plot --map` (`docs/REFERENCE.md`).

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
    /// Attempts made (1 without restarts): the one that succeeded, or the limit. `solve` with the
    /// run's seed, rule and `--attempts` replays them.
    #[serde(default = "one_attempt")]
    pub attempt: u32,
}

fn one_attempt() -> u32 {
    1
}

#[cfg(test)]
impl RunRow<'static> {
    /// A row of run `job` for tests: `first` on 3x3 from the corner, a dead end at 7 squares after
    /// 11 nodes, 3 backtracks, 2 ties and 3 attempts.
    pub(crate) fn example(job: u64) -> Self {
        RunRow {
            job,
            rows: 3,
            cols: 3,
            rule: "first".into(),
            method: "warnsdorff".into(),
            closed: false,
            start_row: 0,
            start_col: 0,
            trial: 0,
            seed: 0,
            outcome: "dead-end".into(),
            success: false,
            visited: 7,
            nodes: 11,
            backtracks: 3,
            ties: 2,
            elapsed_ns: 0,
            attempt: 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row as the sweep writes it (borrowed names) reads back to equal values (owned names);
    /// a row of a file from before the `attempt` column reads as one attempt.
    #[test]
    fn a_written_row_reads_back_equal() {
        let row = RunRow {
            rule: Cow::Borrowed("order:1,\"2\""),
            seed: u64::MAX,
            elapsed_ns: 987,
            ..RunRow::example(41)
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = w.into_inner().unwrap();
        let back: Vec<RunRow<'static>> = super::super::read_back(&text);
        assert_eq!(back, [row]);
        let old = "job,rows,cols,rule,method,closed,start_row,start_col,trial,seed,outcome,success,visited,nodes,backtracks,ties,elapsed_ns\n41,3,3,first,warnsdorff,false,0,0,0,0,dead-end,false,7,11,3,2,0\n";
        let back: Vec<RunRow<'static>> = super::super::read_back(old.as_bytes());
        assert_eq!(
            back,
            [RunRow {
                attempt: 1,
                elapsed_ns: 0,
                ..RunRow::example(41)
            }]
        );
    }
}
