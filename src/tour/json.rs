//! The JSON tour record: what `solve --format json` writes and `verify` reads, one object per run
//! (RFC 8259 JSON through serde). Its field names are a contract with tests, plots and later tools:
//! a new field needs a default, so that older files still read.

use super::{utf8, without_bom, TourFileError};
use crate::board::{is_closed_tour, Board, Square};
use crate::solve::{Outcome, Solution};
use serde::{Deserialize, Serialize};

/// Search statistics carried in the JSON `stats` object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsRecord {
    /// Squares entered (make calls), the start included.
    #[serde(default)]
    pub nodes: u64,
    /// Squares left again (unmake calls).
    #[serde(default)]
    pub backtracks: u64,
    /// Wall-clock time of the search, nanoseconds.
    #[serde(default)]
    pub elapsed_ns: u64,
    /// Moves at which more than one candidate shared the minimum degree, so the rule decided.
    #[serde(default)]
    pub ties: u64,
    /// For `rotate`: the Pósa rotations made to close the path (omitted when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotations: u64,
    /// For the `squirrel` rule: the orderings in force, in the order they were used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orderings: Option<Vec<String>>,
}

/// One run, as `solve --format json` writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TourRecord {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Whether `squares` is a closed tour.
    #[serde(default)]
    pub closed: bool,
    /// First square.
    #[serde(default)]
    pub start: Option<Square>,
    /// Squares in visiting order (the partial path when no tour was found).
    pub squares: Vec<Square>,
    /// Whether a tour was found.
    #[serde(default = "yes")]
    pub found: bool,
    /// Solver that produced it.
    #[serde(default)]
    pub method: String,
    /// Tie-break rule.
    #[serde(default)]
    pub rule: String,
    /// Search statistics.
    #[serde(default)]
    pub stats: StatsRecord,
    /// The leaper, `A,B`, when it is not the knight (`docs/REFERENCE.md`, section 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaper: Option<String>,
    /// The board's holes, when it has some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Square>,
}

impl TourRecord {
    /// The shape the record's squares are on: its board, holes and leaper.
    pub fn shape(&self) -> Result<crate::board::Shape, TourFileError> {
        let board = Board::new(self.rows as u64, self.cols as u64)
            .map_err(|e| TourFileError::Shape(e.to_string()))?;
        let leaper = match &self.leaper {
            Some(l) => l
                .parse()
                .map_err(|e: crate::board::ShapeError| TourFileError::Shape(e.to_string()))?,
            None => crate::board::Leaper::KNIGHT,
        };
        crate::board::Shape::new(board, leaper, &self.holes)
            .map_err(|e| TourFileError::Shape(e.to_string()))
    }

    /// The record of a run on `shape`: the shape's leaper and holes written beside the squares, and
    /// `closed` read with its leaper.
    pub fn on_shape(mut self, shape: &crate::board::Shape) -> Self {
        if shape.leaper() != crate::board::Leaper::KNIGHT {
            self.leaper = Some(shape.leaper().to_string());
        }
        self.holes = shape.holes().collect();
        self.closed = self.found && shape.closes(&self.squares);
        self
    }
}

impl From<&Solution> for TourRecord {
    /// The JSON record of a solver's run: `closed` when a tour was found and either closing was
    /// asked for (the solver guarantees it then) or its ends happen to meet.
    fn from(run: &Solution) -> Self {
        let found = run.outcome == Outcome::Found;
        TourRecord {
            rows: run.request.board.rows(),
            cols: run.request.board.cols(),
            closed: found && (run.request.closure.is_closed() || is_closed_tour(&run.squares)),
            start: Some(run.request.start),
            squares: run.squares.clone(),
            found,
            method: run.request.method.to_string(),
            rule: run.request.rule.to_string(),
            stats: StatsRecord {
                nodes: run.stats.nodes,
                backtracks: run.stats.backtracks,
                elapsed_ns: run.stats.elapsed_ns,
                ties: run.stats.ties,
                rotations: run.stats.rotations,
                orderings: run.orderings.clone(),
            },
            leaper: None,
            holes: Vec::new(),
        }
    }
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Whether `bytes` hold a JSON tour record (text whose first non-blank character is `{`, after a
/// byte-order mark if any).
pub fn is_json(bytes: &[u8]) -> bool {
    without_bom(bytes).trim_ascii_start().starts_with(b"{")
}

/// The JSON tour record in `bytes` (as `solve --format json` writes it), its `start` checked against
/// its first square.
pub fn parse_record(bytes: &[u8]) -> Result<TourRecord, TourFileError> {
    let rec: TourRecord = serde_json::from_str(utf8(without_bom(bytes))?)?;
    if let (Some(start), Some(&first)) = (rec.start, rec.squares.first()) {
        if start != first {
            return Err(TourFileError::Inconsistent(format!(
                "`start` is {start} but the first square is {first}"
            )));
        }
    }
    Ok(rec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::parse_tour;

    #[test]
    fn json_requires_the_contract_fields() {
        assert!(parse_tour(br#"{"rows":5,"cols":5}"#, None).is_err());
        assert!(parse_tour(br#"{"rows":5,"cols":5,"squares":[[0,0],[1,2]"#, None).is_err());
        assert!(parse_tour(br#"{"rows":0,"cols":5,"squares":[]}"#, None).is_err());
        let t = parse_tour(
            br#"{"rows":5,"cols":5,"squares":[[0,0],[1,2]],"start":[0,0]}"#,
            None,
        )
        .unwrap();
        assert_eq!(t.squares.len(), 2);
        assert!(matches!(
            parse_tour(
                br#"{"rows":5,"cols":5,"squares":[[0,0]],"start":[1,1]}"#,
                None
            ),
            Err(TourFileError::Inconsistent(_))
        ));
    }
}
