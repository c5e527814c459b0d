//! Drawing start-square maps: the grid layout with titles and one legend, written as hand-made SVG
//! (one `<rect>` per start square, checkable square by square) or as PNG through `plotters`.

use plotters::prelude::*;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use super::maps::legend_order;
use super::{MapError, StartMap, StartOutcome};
use crate::render::plot::{png_output, PlotError, PlotFormat};

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
        push_map(&mut shapes, k, m, (x0, y0 + MAP_TITLE), cell);
    }
    let lx = GAP + grid_cols * slot_w;
    let ly = push_legend(&mut shapes, maps, lx);
    let w = lx + LEGEND_W;
    let h = (TITLE + grid_rows * slot_h).max(ly + GAP);
    (shapes, (w as u32, h as u32))
}

/// Map `k`'s squares, coloured by outcome, over its board outline, top left at `(x0, top)`.
fn push_map(shapes: &mut Vec<Shape>, k: usize, m: &StartMap, (x0, top): (i32, i32), cell: i32) {
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

/// The legend column at `lx`: the outcomes present, then the notes; returns the y below it.
fn push_legend(shapes: &mut Vec<Shape>, maps: &[StartMap], lx: i32) -> i32 {
    // the legend lists the outcomes present (all dead-end shades once any is present)
    let present = |o: &StartOutcome| {
        maps.iter().any(|m| {
            m.squares.iter().any(|s| match (s, o) {
                (StartOutcome::DeadEnd(_), StartOutcome::DeadEnd(_)) => true,
                _ => s == o,
            })
        })
    };
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
    ly
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
                    crate::render::escape_xml(text)
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
    if opts.png {
        png_output()?;
    }
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

/// Without the `png` feature there is no bitmap backend ([`PlotFormat::of`] refuses `.png` first).
#[cfg(not(feature = "png"))]
fn write_png(_: &[StartMap], _: &str, _: &Path) -> Result<(), PlotError> {
    Err(PlotError::NoPng)
}

#[cfg(feature = "png")]
fn write_png(maps: &[StartMap], title: &str, path: &Path) -> Result<(), PlotError> {
    use crate::render::plot::{check_folder, ensure_font};
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
