//! Pooling the runs into start-square maps: the outcome of each start square (all trials pooled, the
//! worst reason kept), its colour and legend text, and which board x rule x method maps are drawn.

use plotters::prelude::*;

use super::{MapError, MAX_MAPS, MAX_SIDE};
use crate::board::{Shape, Square};
use crate::experiment::RunRow;
use crate::render::select::Filter;

/// How the runs from one start square ended, all trials pooled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StartOutcome {
    /// Every run found an open tour.
    Tour,
    /// Every run found a closed tour.
    ClosedTour,
    /// Some of several trials found a tour.
    SomeTrials,
    /// Every run stopped at a dead end (or visited all and could not close); the path's mean share of
    /// the squares, in fifths: 0 is under 20%, 4 is 80% and more.
    DeadEnd(u8),
    /// The node budget ran out (and no run found a tour).
    Budget,
    /// No tour from this start: a theorem says so, or the search was exhausted.
    NoTour,
    /// No run from this start in the file.
    NotRun,
    /// Not a square of the board: a hole of the sweep's mask.
    Hole,
}

impl StartOutcome {
    /// The name written on the square's `<rect>` (`class`).
    pub fn name(self) -> &'static str {
        match self {
            StartOutcome::Tour => "tour",
            StartOutcome::ClosedTour => "closed-tour",
            StartOutcome::SomeTrials => "some-trials",
            StartOutcome::DeadEnd(_) => "dead-end",
            StartOutcome::Budget => "budget",
            StartOutcome::NoTour => "no-tour",
            StartOutcome::NotRun => "not-run",
            StartOutcome::Hole => "hole",
        }
    }

    /// The square's fill.
    pub fn colour(self) -> RGBColor {
        match self {
            StartOutcome::Tour => RGBColor(0, 158, 115),
            StartOutcome::ClosedTour => RGBColor(0, 90, 160),
            StartOutcome::SomeTrials => RGBColor(240, 190, 60),
            StartOutcome::DeadEnd(f) => DEAD_END[usize::from(f.min(4))],
            StartOutcome::Budget => RGBColor(150, 90, 200),
            StartOutcome::NoTour => RGBColor(190, 190, 190),
            StartOutcome::NotRun => RGBColor(255, 255, 255),
            StartOutcome::Hole => RGBColor(40, 40, 40),
        }
    }

    /// The legend's words.
    pub(super) fn legend(self) -> String {
        match self {
            StartOutcome::Tour => "tour".into(),
            StartOutcome::ClosedTour => "closed tour".into(),
            StartOutcome::SomeTrials => "tour in some trials".into(),
            StartOutcome::DeadEnd(f) => format!(
                "dead end, path {}-{}% of squares",
                u32::from(f) * 20,
                u32::from(f) * 20 + 20
            ),
            StartOutcome::Budget => "node budget ran out".into(),
            StartOutcome::NoTour => "no tour (theorem or exhausted)".into(),
            StartOutcome::NotRun => "not run".into(),
            StartOutcome::Hole => "hole: not a square of the board".into(),
        }
    }
}

/// Dead ends from pale (the path stopped early) to dark (it nearly covered the board).
const DEAD_END: [RGBColor; 5] = [
    RGBColor(253, 208, 190),
    RGBColor(248, 160, 130),
    RGBColor(235, 105, 70),
    RGBColor(200, 50, 30),
    RGBColor(130, 15, 10),
];

/// Every outcome in legend order.
pub(super) fn legend_order() -> Vec<StartOutcome> {
    let mut all = vec![
        StartOutcome::Tour,
        StartOutcome::ClosedTour,
        StartOutcome::SomeTrials,
    ];
    all.extend((0..5).map(StartOutcome::DeadEnd));
    all.extend([
        StartOutcome::Budget,
        StartOutcome::NoTour,
        StartOutcome::NotRun,
        StartOutcome::Hole,
    ]);
    all
}

/// The runs of one start square.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    runs: u32,
    found: u32,
    no_tour: u32,
    budget: u32,
    /// Sum over failed runs of visited / squares.
    share: f64,
    failed: u32,
}

impl Cell {
    fn outcome(&self, closed: bool) -> StartOutcome {
        if self.runs == 0 {
            StartOutcome::NotRun
        } else if self.found == self.runs {
            if closed {
                StartOutcome::ClosedTour
            } else {
                StartOutcome::Tour
            }
        } else if self.found > 0 {
            StartOutcome::SomeTrials
        } else if self.no_tour > 0 {
            StartOutcome::NoTour
        } else if self.budget > 0 {
            StartOutcome::Budget
        } else {
            let mean = self.share / f64::from(self.failed.max(1));
            StartOutcome::DeadEnd((mean * 5.0).floor().clamp(0.0, 4.0) as u8)
        }
    }
}

/// One board x rule x method (x closed) and the outcome of each start, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct StartMap {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: String,
    /// Solver.
    pub method: String,
    /// Closed tours asked for.
    pub closed: bool,
    /// `rows * cols` outcomes, row-major.
    pub squares: Vec<StartOutcome>,
}

impl StartMap {
    /// The outcome of the start (row, col).
    pub fn at(&self, row: u32, col: u32) -> StartOutcome {
        self.squares[(row * self.cols + col) as usize]
    }

    pub(super) fn title(&self) -> String {
        let tours = self
            .squares
            .iter()
            .filter(|s| matches!(s, StartOutcome::Tour | StartOutcome::ClosedTour))
            .count();
        let run = self
            .squares
            .iter()
            .filter(|s| !matches!(s, StartOutcome::NotRun | StartOutcome::Hole))
            .count();
        format!(
            "{} ({}{}) {}x{}: {tours}/{run}",
            self.rule,
            self.method,
            if self.closed { ", closed" } else { "" },
            self.rows,
            self.cols
        )
    }
}

/// Which maps to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapSelection {
    /// Rules and methods.
    pub filter: Filter,
    /// Only this board (rows, cols).
    pub board: Option<(u32, u32)>,
    /// The sweep's mask ([`crate::experiment::sweep_mask`]): on its board, its holes are drawn as
    /// [`StartOutcome::Hole`] and a dead end's share is of its squares.
    pub mask: Option<Shape>,
}

/// The maps of the runs `sel` chooses, in first-seen order; refuses an unknown name, an empty
/// selection, more than [`MAX_MAPS`] maps and boards over [`MAX_SIDE`].
pub fn start_maps(runs: &[RunRow], sel: &MapSelection) -> Result<Vec<StartMap>, MapError> {
    sel.filter
        .check(runs.iter().map(|r| (&*r.rule, &*r.method)))?;
    let mask = |rows: u32, cols: u32| {
        sel.mask
            .as_ref()
            .filter(|m| (m.board().rows(), m.board().cols()) == (rows, cols))
    };
    let mut maps: Vec<(StartMap, Vec<Cell>)> = Vec::new();
    for r in runs {
        if !sel.filter.keeps(&r.rule, &r.method) || sel.board.is_some_and(|b| b != (r.rows, r.cols))
        {
            continue;
        }
        let i = match maps.iter().position(|(m, _)| {
            (m.rows, m.cols, m.closed) == (r.rows, r.cols, r.closed)
                && m.rule == r.rule
                && m.method == r.method
        }) {
            Some(i) => i,
            None => {
                if maps.len() == MAX_MAPS {
                    // count them all for the message, without holding their cells
                    return Err(MapError::TooMany {
                        maps: count_maps(runs, sel),
                    });
                }
                if r.rows > MAX_SIDE || r.cols > MAX_SIDE {
                    return Err(MapError::TooLarge {
                        rows: r.rows,
                        cols: r.cols,
                    });
                }
                let map = StartMap {
                    rows: r.rows,
                    cols: r.cols,
                    rule: r.rule.to_string(),
                    method: r.method.to_string(),
                    closed: r.closed,
                    squares: Vec::new(),
                };
                maps.push((map, vec![Cell::default(); (r.rows * r.cols) as usize]));
                maps.len() - 1
            }
        };
        let squares = crate::experiment::board_squares(r.rows, r.cols, mask(r.rows, r.cols));
        let cell =
            &mut maps[i].1[(u32::from(r.start_row) * r.cols + u32::from(r.start_col)) as usize];
        cell.runs += 1;
        match &*r.outcome {
            "found" => cell.found += 1,
            "no-tour-theorem" | "no-tour-exhausted" => cell.no_tour += 1,
            "budget" => cell.budget += 1,
            _ => {
                cell.failed += 1;
                cell.share += f64::from(r.visited) / squares as f64;
            }
        }
    }
    if maps.is_empty() {
        let mut boards: Vec<(u32, u32)> = Vec::new();
        for r in runs {
            if !boards.contains(&(r.rows, r.cols)) {
                boards.push((r.rows, r.cols));
            }
        }
        let boards: Vec<String> = boards.iter().map(|(r, c)| format!("{r}x{c}")).collect();
        return Err(MapError::NothingSelected {
            boards: boards.join(", "),
        });
    }
    Ok(maps
        .into_iter()
        .map(|(mut m, cells)| {
            m.squares = outcomes(&cells, m.cols, m.closed, mask(m.rows, m.cols));
            m
        })
        .collect())
}

/// The outcome of each start square of a map of `cols` columns from its cells, row-major; the
/// squares of `mask` that are not its squares are holes.
fn outcomes(cells: &[Cell], cols: u32, closed: bool, mask: Option<&Shape>) -> Vec<StartOutcome> {
    let square = |i: usize| {
        // sides are at most MAX_SIDE
        let i = i as u32;
        Square::new((i / cols) as u16, (i % cols) as u16)
    };
    cells
        .iter()
        .enumerate()
        .map(|(i, c)| match mask {
            // a run from a hole would be a damaged file: show the run, not the hole
            Some(m) if c.runs == 0 && !m.contains(square(i)) => StartOutcome::Hole,
            _ => c.outcome(closed),
        })
        .collect()
}

fn count_maps(runs: &[RunRow], sel: &MapSelection) -> usize {
    let mut keys: Vec<(u32, u32, &str, &str, bool)> = Vec::new();
    for r in runs {
        if sel.filter.keeps(&r.rule, &r.method) && sel.board.map_or(true, |b| b == (r.rows, r.cols))
        {
            let k = (r.rows, r.cols, &*r.rule, &*r.method, r.closed);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    keys.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(side: u32, row: u16, col: u16, outcome: &str, visited: u32) -> RunRow<'static> {
        RunRow {
            rows: side,
            cols: side,
            start_row: row,
            start_col: col,
            outcome: outcome.to_string().into(),
            visited,
            ..RunRow::example(0)
        }
    }

    #[test]
    fn trials_pool_into_one_outcome_per_square() {
        let runs = vec![
            run(5, 0, 0, "found", 25),
            run(5, 0, 1, "no-tour-theorem", 0),
            run(5, 0, 2, "dead-end", 24), // 96%: last fifth
            run(5, 0, 3, "dead-end", 5),  // 20%: second fifth
            run(5, 0, 3, "dead-end", 5),
            run(5, 0, 4, "found", 25),
            run(5, 0, 4, "dead-end", 3),
            run(5, 1, 0, "budget", 12),
            run(5, 1, 1, "dead-end", 4), // 16%: first fifth
        ];
        let maps = start_maps(&runs, &MapSelection::default()).unwrap();
        assert_eq!(maps.len(), 1);
        let m = &maps[0];
        assert_eq!(m.at(0, 0), StartOutcome::Tour);
        assert_eq!(m.at(0, 1), StartOutcome::NoTour);
        assert_eq!(m.at(0, 2), StartOutcome::DeadEnd(4));
        assert_eq!(m.at(0, 3), StartOutcome::DeadEnd(1));
        assert_eq!(m.at(0, 4), StartOutcome::SomeTrials);
        assert_eq!(m.at(1, 0), StartOutcome::Budget);
        assert_eq!(m.at(1, 1), StartOutcome::DeadEnd(0));
        assert_eq!(m.at(4, 4), StartOutcome::NotRun);
        assert_eq!(m.title(), "first (warnsdorff) 5x5: 1/7");
    }

    /// On the board of the sweep's mask, the holes are holes (not starts not run) and a dead end's
    /// share is of the mask's squares; the title counts starts run only.
    #[test]
    fn holes_are_drawn_as_holes_on_the_masks_board() {
        let mut runs = vec![run(3, 0, 1, "dead-end", 8), run(3, 1, 0, "found", 10)];
        for r in &mut runs {
            r.cols = 4;
        }
        let mask = Shape::from_mask("#...\n....\n...#\n", crate::board::Leaper::KNIGHT).unwrap();
        let sel = MapSelection {
            mask: Some(mask),
            ..MapSelection::default()
        };
        let m = &start_maps(&runs, &sel).unwrap()[0];
        assert_eq!(m.at(0, 0), StartOutcome::Hole);
        assert_eq!(m.at(2, 3), StartOutcome::Hole);
        assert_eq!(m.at(1, 1), StartOutcome::NotRun);
        // 8 of the mask's 10 squares: the last fifth (8 of 12 would be the fourth)
        assert_eq!(m.at(0, 1), StartOutcome::DeadEnd(4));
        assert_eq!(m.title(), "first (warnsdorff) 3x4: 1/2");
        assert_ne!(StartOutcome::Hole.colour(), StartOutcome::NotRun.colour());
        // the same runs without the mask: every square a start not run or run
        let plain = &start_maps(&runs, &MapSelection::default()).unwrap()[0];
        assert_eq!(plain.at(0, 0), StartOutcome::NotRun);
        assert_eq!(plain.at(0, 1), StartOutcome::DeadEnd(3));
    }

    #[test]
    fn selections_are_checked() {
        let mut runs = Vec::new();
        for side in 5..=30 {
            runs.push(run(side, 0, 0, "found", side * side));
        }
        let err = start_maps(&runs, &MapSelection::default()).unwrap_err();
        assert!(matches!(err, MapError::TooMany { maps: 26 }), "{err}");
        let sel = MapSelection {
            board: Some((7, 7)),
            ..MapSelection::default()
        };
        assert_eq!(start_maps(&runs, &sel).unwrap().len(), 1);
        let sel = MapSelection {
            board: Some((7, 8)),
            ..MapSelection::default()
        };
        let err = start_maps(&runs, &sel).unwrap_err().to_string();
        assert!(err.starts_with("no runs match"), "{err}");
        assert!(err.contains("5x5, 6x6, 7x7"), "{err}");
        let big = [run(101, 0, 0, "found", 1)];
        assert!(matches!(
            start_maps(&big, &MapSelection::default()),
            Err(MapError::TooLarge { .. })
        ));
    }
}
