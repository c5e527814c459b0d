//! A row of the CSV that `ktour failures --format csv` prints: one run that found no tour from a
//! start where one exists, with how far it got of the board's own squares ([`FailureRow`]).

use serde::{Deserialize, Serialize};

/// One failed run: a row of `failures --format csv`. Read with owned names; written with borrowed
/// ones (`FailureRow<&str>`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRow<S = String> {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: S,
    /// Solver.
    pub method: S,
    /// Whether a closed tour was required.
    pub closed: bool,
    /// Start row (0-based).
    pub start_row: u16,
    /// Start column (0-based).
    pub start_col: u16,
    /// Trial number (random rules).
    pub trial: u32,
    /// The run's seed (`ktour solve --seed` replays it).
    pub seed: u64,
    /// How it failed: `dead-end`, `not-closed` or `budget`.
    pub outcome: S,
    /// Squares on its final path.
    pub visited: u32,
    /// The board's squares: `rows * cols` less a mask's holes.
    pub squares: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row written with borrowed names reads back as the same values with owned ones, a name
    /// holding a comma and a quote included.
    #[test]
    fn a_written_row_reads_back_equal() {
        let row = FailureRow {
            rows: 10,
            cols: 10,
            rule: "order:1,\"2\"",
            method: "warnsdorff",
            closed: true,
            start_row: 3,
            start_col: 9,
            trial: 2,
            seed: u64::MAX,
            outcome: "dead-end",
            visited: 84,
            squares: 92,
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = w.into_inner().unwrap();
        let back: Vec<FailureRow> = super::super::read_back(&text);
        assert_eq!(back, [owned(&row)]);
    }

    fn owned(r: &FailureRow<&str>) -> FailureRow {
        FailureRow {
            rows: r.rows,
            cols: r.cols,
            rule: r.rule.into(),
            method: r.method.into(),
            closed: r.closed,
            start_row: r.start_row,
            start_col: r.start_col,
            trial: r.trial,
            seed: r.seed,
            outcome: r.outcome.into(),
            visited: r.visited,
            squares: r.squares,
        }
    }
}
