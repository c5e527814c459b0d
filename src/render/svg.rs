//! Tour pictures as SVG, written by hand.
//!
//! Sizing: one board square is one user unit; the path is a single `<path>` whose first point is
//! absolute and every later point a relative integer move (`l2 1-1 2...`), so a 1000x1000 tour stays
//! around 4 MB. The checkerboard is a `<pattern>` (dropped above [`CHECKER_MAX_SIDE`], where it would
//! only produce moire); visit numbers are drawn up to [`NUMBERS_MAX_SIDE`] squares a side. Display
//! size: 48 px a square, shrinking so the longer side fits in about 1200 px.
//!
//! A record with `found: false` gets the failed-run overlay of [`super::failed`]: unvisited squares
//! shaded, stranded ones highlighted, the dead end marked, the candidates of the last moves with their
//! degrees, and a text panel below the board saying the same in words.

mod caption;

use super::error::{check_on_board, RenderError};
use super::escape_xml;
use super::failed::{analyse_failed, FailedAnalysis};
use crate::board::Board;
use crate::tour::TourRecord;
use std::fmt::Write as _;

/// Boards with at most this many squares on their longer side get visit numbers by default.
pub const NUMBERS_MAX_SIDE: u32 = 30;
/// Boards with at most this many squares on their longer side get a checkerboard.
pub const CHECKER_MAX_SIDE: u32 = 100;

/// When to write visit numbers into the squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbers {
    /// Up to [`NUMBERS_MAX_SIDE`] squares a side.
    #[default]
    Auto,
    /// Always (large files on large boards).
    Always,
    /// Never.
    Never,
}

/// Options of [`tour_svg_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// Visit numbers.
    pub numbers: Numbers,
    /// For a failed run: how many of the last squares get their candidates and degrees shown.
    pub last_steps: usize,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            numbers: Numbers::Auto,
            last_steps: 5,
        }
    }
}

/// The picture of a tour record with default options; see [`tour_svg_with`].
pub fn tour_svg(rec: &TourRecord) -> Result<String, RenderError> {
    tour_svg_with(rec, &SvgOptions::default())
}

/// The picture of a tour record: the board, the path from start to end, start (green) and end (orange)
/// marked, the closing edge (dashed) when the record says `closed` and the ends are a knight move apart,
/// visit numbers on small boards. A record with `found: false` is drawn as a failed run (see the module
/// docs).
pub fn tour_svg_with(rec: &TourRecord, opts: &SvgOptions) -> Result<String, RenderError> {
    let board = Board::new(rec.rows as u64, rec.cols as u64)?;
    if rec.squares.is_empty() {
        return Err(RenderError::Empty);
    }
    check_on_board(board, &rec.squares)?;
    // the failed-run analysis reads knight moves on a whole board
    let failed = if rec.found || rec.leaper.is_some() || !rec.holes.is_empty() {
        None
    } else {
        Some(analyse_failed(board, &rec.squares, opts.last_steps)?)
    };
    Ok(Picture::new(board, rec, opts, failed.as_ref()).draw())
}

/// A number with at most three decimals and no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

const PATH_COLOUR: &str = "#1f4fa0";
const START_COLOUR: &str = "#2e7d32";
const END_COLOUR: &str = "#ef6c00";
const DEAD_COLOUR: &str = "#c62828";
const UNVISITED_COLOUR: &str = "#ffd54f";
const STRANDED_COLOUR: &str = "#e53935";

struct Picture<'a> {
    board: Board,
    rec: &'a TourRecord,
    failed: Option<&'a FailedAnalysis>,
    numbers: bool,
    /// Display pixels per square.
    cell_px: f64,
    /// Text size in user units (about 13 px on screen).
    font: f64,
    pad: f64,
    caption: Vec<String>,
    panel: Vec<String>,
}

impl<'a> Picture<'a> {
    fn new(
        board: Board,
        rec: &'a TourRecord,
        opts: &SvgOptions,
        failed: Option<&'a FailedAnalysis>,
    ) -> Self {
        let side = board.rows().max(board.cols());
        let cell_px = (1200.0 / side as f64).min(48.0);
        let font = 13.0 / cell_px;
        let numbers = match opts.numbers {
            Numbers::Auto => side <= NUMBERS_MAX_SIDE,
            Numbers::Always => true,
            Numbers::Never => false,
        };
        let (caption, panel) = caption::texts(board, rec, failed);
        Picture {
            board,
            rec,
            failed,
            numbers,
            cell_px,
            font,
            pad: font,
            caption,
            panel,
        }
    }

    fn line_height(&self) -> f64 {
        self.font * 1.45
    }

    fn draw(&self) -> String {
        let (width, height) = self.size();
        let top = self.board_top();
        let n = self.rec.squares.len();
        let mut s = String::with_capacity(n * 5 + 4096);
        self.draw_head(&mut s, width, height);
        self.draw_board(&mut s, top);
        self.draw_panel(&mut s, top);
        s.push_str("</svg>\n");
        s
    }

    /// The board's top edge in user units, below the caption.
    fn board_top(&self) -> f64 {
        self.pad + self.caption.len() as f64 * self.line_height()
    }

    /// The picture's (width, height) in user units: the board or the longest text line, whichever is
    /// wider, and the caption, board and panel stacked.
    fn size(&self) -> (f64, f64) {
        let (rows, cols) = (self.board.rows() as f64, self.board.cols() as f64);
        let lh = self.line_height();
        let longest = self
            .caption
            .iter()
            .chain(&self.panel)
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0) as f64;
        let width = (cols + 2.0 * self.pad).max(longest * 0.56 * self.font + 2.0 * self.pad);
        let panel_h = if self.panel.is_empty() {
            0.0
        } else {
            self.pad * 0.5 + self.panel.len() as f64 * lh
        };
        (width, self.board_top() + rows + self.pad + panel_h)
    }

    /// The document's head: the `<svg>` element, title, checkerboard pattern, background, caption.
    fn draw_head(&self, s: &mut String, width: f64, height: f64) {
        let _ = write!(
            s,
            r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{wp}" height="{hp}" font-family="DejaVu Sans, Verdana, sans-serif">
<title>{title}</title>
"#,
            w = num(width),
            h = num(height),
            wp = num((width * self.cell_px).ceil()),
            hp = num((height * self.cell_px).ceil()),
            title = escape_xml(&self.caption[0]),
        );
        if self.board.rows().max(self.board.cols()) <= CHECKER_MAX_SIDE {
            s.push_str(r##"<defs><pattern id="chk" width="2" height="2" patternUnits="userSpaceOnUse"><rect width="2" height="2" fill="#f4f4f4"/><path d="M0 0h1v1h-1zM1 1h1v1h-1z" fill="#d5dbe1"/></pattern></defs>
"##);
        }
        let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
        for (i, line) in self.caption.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text class="caption" x="{}" y="{}" font-size="{}">{}</text>"#,
                num(self.pad),
                num(self.pad + (i as f64 + 0.75) * self.line_height()),
                num(self.font),
                escape_xml(line)
            );
        }
    }

    /// The board at `top` and everything on it, in drawing order (later layers on top).
    fn draw_board(&self, s: &mut String, top: f64) {
        let board = self.board;
        let fill = if board.rows().max(board.cols()) <= CHECKER_MAX_SIDE {
            "url(#chk)"
        } else {
            "#eef0f2"
        };
        let _ = writeln!(
            s,
            r##"<g transform="translate({} {})"><rect class="board" width="{}" height="{}" fill="{fill}" stroke="#8a949e" stroke-width="{}"/>"##,
            num(self.pad),
            num(top),
            board.cols(),
            board.rows(),
            num((1.0 / self.cell_px).max(0.02))
        );
        self.draw_holes(s);
        if let Some(f) = self.failed {
            self.draw_shading(s, f);
        }
        s.push_str("<g transform=\"translate(0.5 0.5)\">\n");
        self.draw_path(s);
        if let Some(f) = self.failed {
            self.draw_candidate_lines(s, f);
        }
        self.draw_markers(s);
        if let Some(f) = self.failed {
            self.draw_dead_end(s, f);
        }
        if self.numbers {
            self.draw_numbers(s);
        }
        if let Some(f) = self.failed {
            self.draw_degrees(s, f);
        }
        s.push_str("</g>\n</g>\n");
    }

    /// The panel's lines below the board at `top`.
    fn draw_panel(&self, s: &mut String, top: f64) {
        let rows = self.board.rows() as f64;
        for (i, line) in self.panel.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text class="panel" x="{}" y="{}" font-size="{}">{}</text>"#,
                num(self.pad),
                num(top + rows + self.pad * 1.5 + (i as f64 + 0.75) * self.line_height()),
                num(self.font),
                escape_xml(line)
            );
        }
    }

    /// The holes of a board with some (`docs/REFERENCE.md`, section 9), filled dark, one path.
    fn draw_holes(&self, s: &mut String) {
        if self.rec.holes.is_empty() {
            return;
        }
        s.push_str(r##"<path class="holes" fill="#37474f" d=""##);
        for h in &self.rec.holes {
            let _ = write!(s, "M{} {}h1v1h-1z", h.col(), h.row());
        }
        s.push_str("\"/>\n");
    }

    fn draw_shading(&self, s: &mut String, f: &FailedAnalysis) {
        // Unvisited squares as horizontal runs, one path.
        let mut d = String::new();
        let mut i = 0;
        let u = &f.unvisited;
        while i < u.len() {
            let mut j = i + 1;
            while j < u.len()
                && u[j].row() == u[i].row()
                && u[j].col() as usize == u[i].col() as usize + (j - i)
            {
                j += 1;
            }
            let _ = write!(d, "M{} {}h{}v1h-{}z", u[i].col(), u[i].row(), j - i, j - i);
            i = j;
        }
        if !d.is_empty() {
            let _ = writeln!(
                s,
                r#"<path class="unvisited" d="{d}" fill="{UNVISITED_COLOUR}" fill-opacity="0.6"/>"#
            );
        }
        let mut d = String::new();
        for st in &f.stranded {
            let _ = write!(d, "M{} {}h1v1h-1z", st.square.col(), st.square.row());
        }
        if !d.is_empty() {
            let _ = writeln!(
                s,
                r#"<path class="stranded" d="{d}" fill="{STRANDED_COLOUR}" fill-opacity="0.75"/>"#
            );
        }
    }

    fn path_width(&self) -> f64 {
        (1.6 / self.cell_px).clamp(0.05, 0.4)
    }

    fn draw_path(&self, s: &mut String) {
        let sq = &self.rec.squares;
        let first = sq[0];
        let _ = write!(
            s,
            r#"<path class="tour" fill="none" stroke="{PATH_COLOUR}" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round" d="M{} {}"#,
            num(self.path_width()),
            first.col(),
            first.row()
        );
        if sq.len() > 1 {
            s.push('l');
        }
        let mut sep = false;
        for w in sq.windows(2) {
            let dx = w[1].col() as i64 - w[0].col() as i64;
            let dy = w[1].row() as i64 - w[0].row() as i64;
            for v in [dx, dy] {
                if sep && v >= 0 {
                    s.push(' ');
                }
                let _ = write!(s, "{v}");
                sep = true;
            }
        }
        s.push_str("\"/>\n");
        if self.failed.is_none() && self.rec.closed && sq.len() > 1 {
            let last = sq[sq.len() - 1];
            // the record's leaper (a knight unless it names another)
            let leaper: crate::board::Leaper = self
                .rec
                .leaper
                .as_deref()
                .and_then(|l| l.parse().ok())
                .unwrap_or_default();
            if leaper.is_move(
                first.row() as i32 - last.row() as i32,
                first.col() as i32 - last.col() as i32,
            ) {
                let _ = writeln!(
                    s,
                    r#"<line class="closing" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{PATH_COLOUR}" stroke-width="{}" stroke-dasharray="{} {}"/>"#,
                    last.col(),
                    last.row(),
                    first.col(),
                    first.row(),
                    num(self.path_width()),
                    num(self.path_width() * 2.0),
                    num(self.path_width() * 1.5)
                );
            }
        }
    }

    fn marker_radius(&self) -> f64 {
        if self.numbers {
            0.4
        } else {
            (5.0 / self.cell_px).max(0.35)
        }
    }

    fn draw_markers(&self, s: &mut String) {
        let sq = &self.rec.squares;
        let r = num(self.marker_radius());
        let first = sq[0];
        let _ = writeln!(
            s,
            r#"<circle class="start" cx="{}" cy="{}" r="{r}" fill="{START_COLOUR}"><title>start {first}</title></circle>"#,
            first.col(),
            first.row()
        );
        if self.failed.is_none() {
            let last = sq[sq.len() - 1];
            let _ = writeln!(
                s,
                r#"<circle class="end" cx="{}" cy="{}" r="{r}" fill="{END_COLOUR}"><title>end {last}</title></circle>"#,
                last.col(),
                last.row()
            );
        }
    }

    fn draw_numbers(&self, s: &mut String) {
        let digits = (self.rec.squares.len() as f64).log10().floor() as usize + 1;
        let size = match digits {
            0..=2 => 0.3,
            3 => 0.23,
            _ => 0.17,
        };
        let _ = writeln!(
            s,
            r##"<g class="numbers" font-size="{size}" text-anchor="middle" dominant-baseline="central" fill="#1a1a1a">"##
        );
        let _ = writeln!(
            s,
            r##"<g fill="#ffffff" stroke="{PATH_COLOUR}" stroke-width="0.03">"##
        );
        for sq in &self.rec.squares {
            let _ = writeln!(
                s,
                r#"<circle cx="{}" cy="{}" r="0.27"/>"#,
                sq.col(),
                sq.row()
            );
        }
        s.push_str("</g>\n");
        for (i, sq) in self.rec.squares.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}">{}</text>"#,
                sq.col(),
                sq.row(),
                i + 1
            );
        }
        s.push_str("</g>\n");
    }

    fn draw_candidate_lines(&self, s: &mut String, f: &FailedAnalysis) {
        let w = num(self.path_width() * 0.6);
        s.push_str(r#"<g class="candidates">"#);
        s.push('\n');
        for step in &f.steps {
            for &(c, _) in &step.candidates {
                if Some(c) != step.chosen {
                    let _ = writeln!(
                        s,
                        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#6d6d6d" stroke-width="{w}" stroke-dasharray="0.08 0.08"/>"##,
                        step.from.col(),
                        step.from.row(),
                        c.col(),
                        c.row()
                    );
                }
            }
        }
        s.push_str("</g>\n");
    }

    fn draw_degrees(&self, s: &mut String, f: &FailedAnalysis) {
        s.push_str(r#"<g class="degrees">"#);
        s.push('\n');
        // Degree discs in the top-right corner of each candidate square; later moves drawn last.
        let r = if self.numbers {
            0.16
        } else {
            (4.0 / self.cell_px).max(0.16)
        };
        for step in &f.steps {
            let min = step.min_degree();
            let tied = step.tied();
            for &(c, d) in &step.candidates {
                let colour = if Some(c) == step.chosen {
                    "#1e88e5"
                } else if tied && Some(d) == min {
                    "#fb8c00"
                } else {
                    "#757575"
                };
                let (x, y) = (c.col() as f64 + 0.33, c.row() as f64 - 0.33);
                let _ = writeln!(
                    s,
                    r##"<g class="degree"><title>#{} {}: candidate {c} degree {d}</title><circle cx="{}" cy="{}" r="{}" fill="{colour}"/><text x="{}" y="{}" font-size="{}" text-anchor="middle" dominant-baseline="central" fill="#ffffff">{d}</text></g>"##,
                    step.number,
                    step.from,
                    num(x),
                    num(y),
                    num(r),
                    num(x),
                    num(y),
                    num(r * 1.3)
                );
            }
        }
        s.push_str("</g>\n");
    }

    fn draw_dead_end(&self, s: &mut String, f: &FailedAnalysis) {
        let (x, y) = (f.dead_end.col() as f64, f.dead_end.row() as f64);
        if self.numbers {
            // A thick red ring around the numbered disc, which stays readable.
            let _ = writeln!(
                s,
                r#"<circle class="dead-end" cx="{}" cy="{}" r="0.36" fill="none" stroke="{DEAD_COLOUR}" stroke-width="0.12"><title>dead end {}</title></circle>"#,
                num(x),
                num(y),
                f.dead_end
            );
            return;
        }
        let r = (7.0 / self.cell_px).max(0.45);
        let k = r * 0.75;
        let _ = writeln!(
            s,
            r#"<g class="dead-end" stroke="{DEAD_COLOUR}" stroke-width="{}" fill="none"><title>dead end {}</title><circle cx="{}" cy="{}" r="{}"/><path d="M{} {}l{} {}M{} {}l{} {}"/></g>"#,
            num(r * 0.18),
            f.dead_end,
            num(x),
            num(y),
            num(r),
            num(x - k),
            num(y - k),
            num(2.0 * k),
            num(2.0 * k),
            num(x + k),
            num(y - k),
            num(-2.0 * k),
            num(2.0 * k)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn relative_moves_are_compact() {
        let rec = TourRecord {
            rows: 3,
            cols: 4,
            closed: false,
            start: None,
            squares: vec![Square::new(0, 0), Square::new(1, 2), Square::new(0, 0)],
            found: true,
            method: String::new(),
            rule: String::new(),
            stats: Default::default(),
            leaper: None,
            holes: Vec::new(),
        };
        let svg = tour_svg(&rec).unwrap();
        assert!(svg.contains(r#"d="M0 0l2 1-2-1""#), "{svg}");
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-0.0001), "0");
    }
}
