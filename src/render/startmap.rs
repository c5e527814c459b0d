//! Start-square maps from a sweep's `runs.csv`: for each board x rule x method (x closed) in the file,
//! every start square coloured by how its runs ended, so that one sees *where* a rule fails, not
//! only how often. Several maps are drawn as a grid of small titled maps with one legend.
//!
//! A square's [`StartOutcome`] pools its trials: all found (open or closed tours get distinct
//! colours), some found, or none, and then the worst reason: no tour by theorem (or an exhausted
//! search), the node budget, or a dead end shaded by how far the path got (`visited` / squares, in
//! fifths; a closed run that visited every square but could not close is in the last fifth).
//!
//! `runs.csv` is read through the bounded input reader, by header name; the columns used are `rows,
//! cols, rule, method, closed, start_row, start_col, outcome, visited` (the `runs.csv` contract of
//! `src/experiment/record.rs`). Row 0 is the top row of a map, column 0 its left column, as in the
//! tour pictures. SVG is written by hand, one `<rect>` per start carrying its map, row, column and
//! outcome, so that the file can be checked square by square; PNG draws the same scene with
//! `plotters`.

use super::plot::{check_folder, ensure_font, PlotError, PlotFormat};
use super::select::{Filter, UnknownName};
use plotters::prelude::*;
use serde::{Deserialize, Deserializer};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Most maps in one picture: past it a map is too small to read; the error asks for a filter.
pub const MAX_MAPS: usize = 24;
/// Largest board side drawn: a cell of a larger board would be under three pixels wide.
pub const MAX_SIDE: u32 = 100;

/// A start-square map could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// Reading the file.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: std::io::Error,
    },
    /// A malformed CSV.
    #[error("{path}: {cause}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: csv::Error,
    },
    /// A CSV without a column every `runs.csv` has (a `summary.csv`, say).
    #[error("{path}: not a runs.csv: no column {column:?} (maps need one row per run: record = \"runs\" in the spec)")]
    NotRuns {
        /// The file.
        path: PathBuf,
        /// The first missing column.
        column: &'static str,
    },
    /// A header and no runs.
    #[error("{0}: the file has no runs")]
    Empty(PathBuf),
    /// A `--rules` or `--methods` name the file does not hold.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// The filters leave nothing to draw.
    #[error("no runs match the chosen board, rules and methods; boards in the file: {boards}")]
    NothingSelected {
        /// The boards present, `RxC, ...`.
        boards: String,
    },
    /// More maps than fit a picture.
    #[error("{maps} maps (boards x rules x methods) are more than {MAX_MAPS} to draw: choose some with --size, --rows/--cols, --rules or --methods")]
    TooMany {
        /// Maps selected.
        maps: usize,
    },
    /// A board too large to draw square by square.
    #[error("the {rows}x{cols} board is too large for a map (at most {MAX_SIDE} a side): choose another with --size or --rows/--cols")]
    TooLarge {
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
    /// A run whose start is off its board.
    #[error("{path}: a run starts at ({row},{col}), off its {rows}x{cols} board")]
    OffBoard {
        /// The file.
        path: PathBuf,
        /// Start row.
        row: u32,
        /// Start column.
        col: u32,
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
    /// Writing the picture.
    #[error(transparent)]
    Plot(#[from] PlotError),
}

/// The columns of `runs.csv` a map reads.
pub const COLUMNS: [&str; 9] = [
    "rows",
    "cols",
    "rule",
    "method",
    "closed",
    "start_row",
    "start_col",
    "outcome",
    "visited",
];

/// One row of `runs.csv` (the columns a map reads).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RunRow {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: String,
    /// Solver.
    pub method: String,
    /// Closed tours asked for.
    #[serde(deserialize_with = "lenient_bool")]
    pub closed: bool,
    /// Start row.
    pub start_row: u32,
    /// Start column.
    pub start_col: u32,
    /// `found`, `dead-end`, `not-closed`, `budget`, `no-tour-theorem`, `no-tour-exhausted`.
    pub outcome: String,
    /// Squares on the final path.
    pub visited: u32,
}

fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let s = String::deserialize(d)?;
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "1" => Ok(true),
        "false" | "0" | "" => Ok(false),
        other => Err(serde::de::Error::custom(format!(
            "expected true or false, got {other:?}"
        ))),
    }
}

/// Read the runs of a `runs.csv`, refusing a file that lacks one of [`COLUMNS`].
pub fn read_runs(path: &Path) -> Result<Vec<RunRow>, MapError> {
    let text = crate::input::read_text(path).map_err(|cause| MapError::Io {
        path: path.into(),
        cause,
    })?;
    let csv_err = |cause| MapError::Csv {
        path: path.into(),
        cause,
    };
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_slice());
    let header = reader.headers().map_err(csv_err)?;
    if let Some(column) = COLUMNS
        .into_iter()
        .find(|c| !header.iter().any(|h| h == *c))
    {
        return Err(MapError::NotRuns {
            path: path.into(),
            column,
        });
    }
    let rows = reader
        .deserialize()
        .collect::<Result<Vec<RunRow>, _>>()
        .map_err(csv_err)?;
    if rows.is_empty() {
        return Err(MapError::Empty(path.into()));
    }
    if let Some(r) = rows
        .iter()
        .find(|r| r.start_row >= r.rows || r.start_col >= r.cols)
    {
        return Err(MapError::OffBoard {
            path: path.into(),
            row: r.start_row,
            col: r.start_col,
            rows: r.rows,
            cols: r.cols,
        });
    }
    Ok(rows)
}

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
        }
    }

    /// The legend's words.
    fn legend(self) -> String {
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
fn legend_order() -> Vec<StartOutcome> {
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

    fn title(&self) -> String {
        let tours = self
            .squares
            .iter()
            .filter(|s| matches!(s, StartOutcome::Tour | StartOutcome::ClosedTour))
            .count();
        let run = self
            .squares
            .iter()
            .filter(|s| **s != StartOutcome::NotRun)
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
}

/// The maps of the runs `sel` chooses, in first-seen order; refuses an unknown name, an empty
/// selection, more than [`MAX_MAPS`] maps and boards over [`MAX_SIDE`].
pub fn start_maps(runs: &[RunRow], sel: &MapSelection) -> Result<Vec<StartMap>, MapError> {
    sel.filter
        .check(runs.iter().map(|r| (r.rule.as_str(), r.method.as_str())))?;
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
                    rule: r.rule.clone(),
                    method: r.method.clone(),
                    closed: r.closed,
                    squares: Vec::new(),
                };
                maps.push((map, vec![Cell::default(); (r.rows * r.cols) as usize]));
                maps.len() - 1
            }
        };
        let cell = &mut maps[i].1[(r.start_row * r.cols + r.start_col) as usize];
        cell.runs += 1;
        match r.outcome.as_str() {
            "found" => cell.found += 1,
            "no-tour-theorem" | "no-tour-exhausted" => cell.no_tour += 1,
            "budget" => cell.budget += 1,
            _ => {
                cell.failed += 1;
                cell.share += f64::from(r.visited) / (f64::from(r.rows) * f64::from(r.cols));
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
            m.squares = cells.iter().map(|c| c.outcome(m.closed)).collect();
            m
        })
        .collect())
}

fn count_maps(runs: &[RunRow], sel: &MapSelection) -> usize {
    let mut keys: Vec<(u32, u32, &str, &str, bool)> = Vec::new();
    for r in runs {
        if sel.filter.keeps(&r.rule, &r.method) && sel.board.map_or(true, |b| b == (r.rows, r.cols))
        {
            let k = (r.rows, r.cols, r.rule.as_str(), r.method.as_str(), r.closed);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    keys.len()
}

/// What is drawn: rectangles (a start square carries its map and square) and text.
enum Shape {
    Rect {
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        fill: RGBColor,
        /// (map, row, col, outcome) of a start square.
        start: Option<(usize, u32, u32, StartOutcome)>,
    },
    Text {
        x: i32,
        y: i32,
        size: u32,
        text: String,
    },
}

const GAP: i32 = 18;
const MAP_TITLE: i32 = 20;
const TITLE: i32 = 34;
const LEGEND_W: i32 = 270;

/// Lay the maps out in a grid with one legend on the right; returns the shapes and the image size.
fn layout(maps: &[StartMap], title: &str) -> (Vec<Shape>, (u32, u32)) {
    let n = maps.len() as i32;
    let grid_cols = match n {
        1 => 1,
        2..=4 => 2,
        5..=9 => 3,
        _ => 4,
    };
    let grid_rows = (n + grid_cols - 1) / grid_cols;
    // a single map is drawn large, a grid's maps small
    let target = if n == 1 { 440 } else { 220 };
    let side = maps.iter().map(|m| m.rows.max(m.cols)).max().unwrap_or(1) as i32;
    let cell = (target / side).clamp(3, 40);
    let map_w = maps.iter().map(|m| m.cols).max().unwrap_or(1) as i32 * cell;
    let map_h = maps.iter().map(|m| m.rows).max().unwrap_or(1) as i32 * cell;
    let slot_w = map_w.max(200) + GAP;
    let slot_h = map_h + MAP_TITLE + GAP;
    let mut shapes = vec![Shape::Text {
        x: GAP,
        y: 10,
        size: 18,
        text: title.to_string(),
    }];
    for (k, m) in maps.iter().enumerate() {
        let k32 = k as i32;
        let x0 = GAP + (k32 % grid_cols) * slot_w;
        let y0 = TITLE + (k32 / grid_cols) * slot_h;
        shapes.push(Shape::Text {
            x: x0,
            y: y0,
            size: 12,
            text: m.title(),
        });
        let top = y0 + MAP_TITLE;
        // the board's outline, visible between squares
        shapes.push(Shape::Rect {
            x: x0 - 1,
            y: top - 1,
            w: m.cols as i32 * cell + 2,
            h: m.rows as i32 * cell + 2,
            fill: RGBColor(120, 120, 120),
            start: None,
        });
        let inset = i32::from(cell >= 6);
        for row in 0..m.rows {
            for col in 0..m.cols {
                let outcome = m.at(row, col);
                shapes.push(Shape::Rect {
                    x: x0 + col as i32 * cell + inset,
                    y: top + row as i32 * cell + inset,
                    w: cell - inset,
                    h: cell - inset,
                    fill: outcome.colour(),
                    start: Some((k, row, col, outcome)),
                });
            }
        }
    }
    // the legend lists the outcomes present (all dead-end shades once any is present)
    let present = |o: &StartOutcome| {
        maps.iter().any(|m| {
            m.squares.iter().any(|s| match (s, o) {
                (StartOutcome::DeadEnd(_), StartOutcome::DeadEnd(_)) => true,
                _ => s == o,
            })
        })
    };
    let lx = GAP + grid_cols * slot_w;
    let mut ly = TITLE;
    shapes.push(Shape::Text {
        x: lx,
        y: ly,
        size: 13,
        text: "start square: runs from it".into(),
    });
    ly += 22;
    for o in legend_order().into_iter().filter(present) {
        shapes.push(Shape::Rect {
            x: lx - 1,
            y: ly - 1,
            w: 16,
            h: 16,
            fill: RGBColor(120, 120, 120),
            start: None,
        });
        shapes.push(Shape::Rect {
            x: lx,
            y: ly,
            w: 14,
            h: 14,
            fill: o.colour(),
            start: None,
        });
        shapes.push(Shape::Text {
            x: lx + 22,
            y: ly + 1,
            size: 12,
            text: o.legend(),
        });
        ly += 20;
    }
    for note in [
        "row 0 at the top, column 0 at left;",
        "titles: tours / starts run",
    ] {
        ly += 4;
        shapes.push(Shape::Text {
            x: lx,
            y: ly,
            size: 11,
            text: note.into(),
        });
        ly += 12;
    }
    let w = lx + LEGEND_W;
    let h = (TITLE + grid_rows * slot_h).max(ly + GAP);
    (shapes, (w as u32, h as u32))
}

fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// The maps as an SVG document.
pub fn start_map_svg(maps: &[StartMap], title: &str) -> String {
    let (shapes, (w, h)) = layout(maps, title);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="DejaVu Sans, Verdana, sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    for shape in &shapes {
        match shape {
            Shape::Rect {
                x,
                y,
                w,
                h,
                fill,
                start,
            } => {
                let _ = write!(
                    s,
                    r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{}""#,
                    hex(*fill)
                );
                if let Some((map, row, col, outcome)) = start {
                    let _ = write!(
                        s,
                        r#" class="start {}" data-map="{map}" data-row="{row}" data-col="{col}""#,
                        outcome.name()
                    );
                }
                s.push_str("/>\n");
            }
            Shape::Text { x, y, size, text } => {
                // SVG places text by its baseline, the bitmap by its top: shift by the ascent
                let _ = writeln!(
                    s,
                    r#"<text x="{x}" y="{}" font-size="{size}">{}</text>"#,
                    y + (*size as i32 * 4) / 5,
                    super::escape_xml(text)
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

/// Where and how [`write_start_map`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapOptions {
    /// `.svg` or `.png`.
    pub output: PathBuf,
    /// Also a PNG beside an SVG.
    pub png: bool,
    /// The picture's title.
    pub title: String,
}

/// Draw the maps; returns the files written.
pub fn write_start_map(maps: &[StartMap], opts: &MapOptions) -> Result<Vec<PathBuf>, MapError> {
    let format = PlotFormat::of(&opts.output)?;
    let mut written = Vec::new();
    if format == PlotFormat::Svg {
        std::fs::write(&opts.output, start_map_svg(maps, &opts.title)).map_err(|cause| {
            PlotError::Io {
                path: opts.output.clone(),
                cause,
            }
        })?;
        written.push(opts.output.clone());
    }
    if format == PlotFormat::Png || opts.png {
        let png = opts.output.with_extension("png");
        write_png(maps, &opts.title, &png)?;
        written.push(png);
    }
    Ok(written)
}

fn write_png(maps: &[StartMap], title: &str, path: &Path) -> Result<(), PlotError> {
    check_folder(path)?;
    ensure_font();
    let (shapes, size) = layout(maps, title);
    let draw_err = |message: String| PlotError::Draw {
        path: path.into(),
        message,
    };
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| draw_err(e.to_string()))?;
    for shape in &shapes {
        let r = match shape {
            Shape::Rect {
                x, y, w, h, fill, ..
            } => root.draw(&Rectangle::new(
                [(*x, *y), (x + w - 1, y + h - 1)],
                fill.filled(),
            )),
            Shape::Text { x, y, size, text } => root.draw(&Text::new(
                text.as_str(),
                (*x, *y),
                ("sans-serif", *size).into_font().color(&BLACK),
            )),
        };
        r.map_err(|e| draw_err(e.to_string()))?;
    }
    root.present().map_err(|e| draw_err(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(side: u32, row: u32, col: u32, outcome: &str, visited: u32) -> RunRow {
        RunRow {
            rows: side,
            cols: side,
            rule: "first".into(),
            method: "warnsdorff".into(),
            closed: false,
            start_row: row,
            start_col: col,
            outcome: outcome.into(),
            visited,
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
