//! `squirrel`: D. Squirrel & P. Cull, "A Warnsdorff-rule algorithm for knight's tours on square
//! chessboards" (1996), checked by S. Ganzfried (2004). For an `n x n` board, `n >= 5`, from the corner
//! (0,0): start with the first ordering of the row for `n mod 8`; when the knight stands on the current
//! ordering's switch square, switch to the next ordering before choosing the next move. Switch squares
//! are 1-based `(x, y) = (row + 1, col + 1)` with integer division, exactly as in `docs/REFERENCE.md`; a
//! switch square that falls off the board (small `n`) is never reached, so its switch never happens.

use super::LabelOrder;
use crate::board::{Layout, Square};

/// Why `squirrel` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquirrelError {
    /// Not an `n x n` board with `n >= 5`.
    #[error(
        "the squirrel rule is defined for square boards n x n with n >= 5 (got {rows}x{cols})"
    )]
    Board {
        /// Rows.
        rows: u32,
        /// Columns.
        cols: u32,
    },
    /// Not started from the corner.
    #[error("the squirrel rule is defined for tours from the corner (0,0) (got start {0})")]
    Start(Square),
}

/// Orderings and 1-based switch squares for `n`, from the table in Squirrel & Cull (1996).
fn table(n: i64) -> Vec<(&'static str, Option<(i64, i64)>)> {
    let s = |x: i64, y: i64| Some((x, y));
    match n % 8 {
        0 => vec![
            ("34261578", s(n - 1, n - 2)),
            ("87642135", s(2, 2)),
            ("51867342", s(n - 8, 1)),
            ("51342678", s(7, n - 3)),
            ("21435678", None),
        ],
        1 => vec![
            ("34261578", s(n - 1, n - 2)),
            ("87642135", s(2, 2)),
            ("51324678", s(n - 6, (n + 9) / 2)),
            ("32481765", None),
        ],
        2 => vec![
            ("34261578", s(6, 1)),
            ("87642135", s(3, 1)),
            ("54132678", s(n - 15, 4)),
            ("52431678", s(10, n - 2)),
            ("85647123", s(5, (n - 6) / 2)),
            ("15746823", None),
        ],
        3 => vec![
            ("34625718", s(n - 1, n - 2)),
            ("42681357", s(n - 6, n)),
            ("86512347", s(2, 5)),
            ("51867342", s(n - 10, 3)),
            ("61825437", s((n + 1) / 2, n - 2)),
            ("71642538", None),
        ],
        4 => vec![
            ("34261578", s(n - 1, n - 2)),
            ("87642135", s(2, 2)),
            ("51867342", s(n - 8, 1)),
            ("51342678", s(10, n - 5)),
            ("86753421", s(13, (n + 2) / 2)),
            ("78563421", None),
        ],
        5 => {
            let y = if n % 16 == 5 {
                (n - 5) / 2
            } else {
                (n - 13) / 2
            };
            vec![
                ("34261578", s(n - 1, n - 2)),
                ("87642135", s(2, 2)),
                ("51324678", s(n - 2, y)),
                ("15234678", None),
            ]
        }
        6 => vec![
            ("34261578", s(6, 1)),
            ("87642135", s(3, 1)),
            ("54132678", s(n - 10, 1)),
            ("52431678", s(10, n - 2)),
            ("85647123", s(3, (n + 8) / 2)),
            ("12453678", None),
        ],
        _ => vec![
            ("34625718", s(n - 1, n - 2)),
            ("42681357", s(n - 6, n)),
            ("86512347", s(2, 5)),
            ("51867342", s(n - 6, 3)),
            ("61825437", s((n + 1) / 2, n - 2)),
            ("61357284", None),
        ],
    }
}

const MAX_STAGES: usize = 6;
const NO_SQUARE: usize = usize::MAX;

/// The squirrel orderings for one board, and the stage the run is in.
#[derive(Clone, Debug)]
pub struct SquirrelPlan {
    orderings: [LabelOrder; MAX_STAGES],
    /// Padded index of each stage's switch square; `NO_SQUARE` when off the board or last stage.
    switches: [usize; MAX_STAGES],
    stages: u8,
    stage: u8,
}

impl SquirrelPlan {
    /// The plan for `layout`'s board, checking the rule's domain.
    pub fn new(layout: &Layout, start: Square) -> Result<Self, SquirrelError> {
        let b = layout.board();
        if b.rows() != b.cols() || b.rows() < 5 {
            return Err(SquirrelError::Board {
                rows: b.rows(),
                cols: b.cols(),
            });
        }
        if start != Square::new(0, 0) {
            return Err(SquirrelError::Start(start));
        }
        let rows = table(b.rows() as i64);
        let mut orderings = [LabelOrder::IDENTITY; MAX_STAGES];
        let mut switches = [NO_SQUARE; MAX_STAGES];
        for (i, (digits, switch)) in rows.iter().enumerate() {
            orderings[i] = LabelOrder::digits(digits);
            if let Some((x, y)) = switch {
                if let Some(sq) = b.try_square(x - 1, y - 1) {
                    switches[i] = layout.pad(sq);
                }
            }
        }
        Ok(SquirrelPlan {
            orderings,
            switches,
            stages: rows.len() as u8,
            stage: 0,
        })
    }

    /// The ordering in force.
    #[inline(always)]
    pub fn ordering(&self) -> LabelOrder {
        self.orderings[self.stage as usize]
    }

    /// The knight stands on `p`: switch if it is this stage's switch square. Returns whether it did.
    #[inline(always)]
    pub fn arrive(&mut self, p: usize) -> bool {
        if self.switches[self.stage as usize] == p && self.stage + 1 < self.stages {
            self.stage += 1;
            true
        } else {
            false
        }
    }

    /// The ordering of stage `stage` (0-based, below [`SquirrelPlan::stages`]).
    pub fn ordering_at(&self, stage: u8) -> LabelOrder {
        self.orderings[stage as usize]
    }

    /// How many orderings the plan has.
    pub fn stages(&self) -> u8 {
        self.stages
    }

    /// Current stage (0-based).
    pub fn stage(&self) -> u8 {
        self.stage
    }

    /// Set the stage (undoing moves in backtracking).
    pub fn set_stage(&mut self, stage: u8) {
        self.stage = stage;
    }

    /// The orderings used so far, first to current.
    pub fn orderings_used(&self) -> Vec<String> {
        self.orderings[..=self.stage as usize]
            .iter()
            .map(|o| o.to_string())
            .collect()
    }
}
