//! Drawing a chart with `plotters` to SVG or PNG: lines or markers per series, colour by rule and
//! line style by method, the legend in its own column, and the bundled font registered at first use.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

use super::series::ChartData;
use super::{PlotError, PlotFormat};

static FONT: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

/// Register the bundled font once: `plotters` measures text with it for SVG as well as PNG.
pub(crate) fn ensure_font() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        // The bundled font is known good; a failure would show as missing text, not a crash.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

pub(super) fn draw_file(
    chart: &ChartData,
    path: &Path,
    format: PlotFormat,
    size: (u32, u32),
) -> Result<(), PlotError> {
    ensure_font();
    let draw_err = |e: String| PlotError::Draw {
        path: path.into(),
        message: e,
    };
    match format {
        PlotFormat::Svg => {
            let buf = svg_text(chart, size).map_err(draw_err)?;
            std::fs::write(path, buf).map_err(|cause| PlotError::Io {
                path: path.into(),
                cause,
            })
        }
        PlotFormat::Png => draw_png(chart, path, size),
    }
}

/// `chart` as an SVG document in memory: what [`draw_file`] writes, for a page that embeds it.
pub(super) fn svg_text(chart: &ChartData, size: (u32, u32)) -> Result<String, String> {
    ensure_font();
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        draw_chart(&root, chart)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(buf)
}

/// Draw `chart` as a PNG into `path`.
#[cfg(feature = "png")]
fn draw_png(chart: &ChartData, path: &Path, size: (u32, u32)) -> Result<(), PlotError> {
    let draw_err = |e: String| PlotError::Draw {
        path: path.into(),
        message: e,
    };
    check_folder(path)?;
    let root = BitMapBackend::new(path, size).into_drawing_area();
    draw_chart(&root, chart).map_err(draw_err)?;
    root.present().map_err(|e| draw_err(e.to_string()))
}

/// Without the `png` feature there is no bitmap backend ([`PlotFormat::of`] refuses `.png` first).
#[cfg(not(feature = "png"))]
fn draw_png(_: &ChartData, _: &Path, _: (u32, u32)) -> Result<(), PlotError> {
    Err(PlotError::NoPng)
}

/// The bitmap backend reports a missing folder only as a draw error: check it first.
#[cfg(feature = "png")]
pub(crate) fn check_folder(path: &Path) -> Result<(), PlotError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(PlotError::Io {
                path: path.into(),
                cause: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the folder does not exist",
                ),
            });
        }
    }
    Ok(())
}

/// Okabe-Ito colours (colour-blind safe), then a few more.
const COLOURS: [RGBColor; 12] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
    RGBColor(128, 0, 0),
    RGBColor(100, 100, 100),
    RGBColor(60, 60, 180),
    RGBColor(0, 100, 0),
];

fn si(v: f64) -> String {
    let a = v.abs();
    let (d, s) = if a >= 1e9 {
        (1e9, "G")
    } else if a >= 1e6 {
        (1e6, "M")
    } else if a >= 1e3 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let x = v / d;
    let t = if x.fract().abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    };
    format!("{t}{s}")
}

const LEGEND_FONT: u32 = 13;
const LEGEND_ROW: i32 = 20;

/// A line in a series' colour and style between two pixel points (legend samples and data lines).
fn styled_path<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: Vec<(i32, i32)>,
    colour: RGBColor,
    style: usize,
) -> Result<(), String> {
    let stroke = colour.stroke_width(2);
    let r = match style % 3 {
        0 => area.draw(&PathElement::new(points, stroke)),
        1 => area.draw(&DashedPathElement::new(points, 7, 4, stroke)),
        _ => area.draw(&DashedPathElement::new(points, 2, 3, stroke)),
    };
    r.map_err(|e| e.to_string())
}

fn draw_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &ChartData,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let body = root.titled(&chart.title, ("sans-serif", 20)).map_err(e)?;
    // The legend gets its own column right of the plot, as wide as its longest line, so that it
    // never covers data.
    let font: TextStyle = ("sans-serif", LEGEND_FONT).into();
    let mut widest = 0;
    for text in chart.series.iter().map(|s| &s.label).chain(&chart.notes) {
        widest = widest.max(body.estimate_text_size(text, &font).map_err(e)?.0);
    }
    let (w, _) = body.dim_in_pixel();
    let legend_w = (widest + 48).clamp(120, w / 2);
    let (plot, legend) = body.split_horizontally(w - legend_w);

    let (x0, x1, y0, y1) = axis_ranges(chart);
    let mut cc = ChartBuilder::on(&plot)
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(78)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    let percent = chart.percent;
    let y_fmt = |v: &f64| {
        if percent && !(0.0..=100.0).contains(v) {
            String::new()
        } else {
            si(*v)
        }
    };
    let x_fmt = |v: &f64| si(*v);
    cc.configure_mesh()
        .x_desc(chart.x_desc.as_str())
        .y_desc(chart.y_desc)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(238, 238, 238))
        .max_light_lines(1)
        .draw()
        .map_err(e)?;
    draw_series(&mut cc, chart)?;
    draw_legend(&legend, chart)
}

/// Rows of markers above 100% and below 0% are this many percentage points apart.
const MARKER_STEP: f64 = 3.0;

/// The plot's x and y ranges, (x0, x1, y0, y1): the points' x span padded, and y from 0 (or the
/// marker rows under 0%) to a little above the highest point (or the marker rows over 100%).
fn axis_ranges(chart: &ChartData) -> (f64, f64, f64, f64) {
    let xs = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0));
    let (mut x0, mut x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    let pad = ((x1 - x0) * 0.03).max(0.5);
    let (x0, x1) = (x0 - pad, x1 + pad);
    let y_max = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    // Markers of one-run series sit in bands of their own, one row per series above 100% (a tour)
    // and below 0% (none), so that no marker reads as a rate between them.
    let marker_series = chart.series.iter().filter(|s| s.markers).count();
    let band = marker_series as f64 * MARKER_STEP;
    let (y0, y1) = if chart.percent {
        (-4.0 - band, 104.0 + band)
    } else {
        (0.0, if y_max > 0.0 { y_max * 1.12 } else { 1.0 })
    };
    (x0, x1, y0, y1)
}

/// Every series on the chart: one-run series as marker rows, the others as a line (styled by
/// method) over their shaded interval band, with a dot at each point.
fn draw_series<DB: DrawingBackend>(
    cc: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    chart: &ChartData,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut k = 0;
    for s in &chart.series {
        let colour = COLOURS[s.colour % COLOURS.len()];
        if s.markers {
            k += 1;
            let off = k as f64 * MARKER_STEP;
            cc.draw_series(s.points.iter().map(|&(x, y)| {
                if y >= 50.0 {
                    Circle::new((x, 100.0 + off), 4, colour.filled())
                } else {
                    Circle::new((x, -off), 4, colour.stroke_width(2))
                }
            }))
            .map_err(e)?;
            continue;
        }
        if s.band.len() > 1 {
            // the interval as a shaded band under the line: the low ends left to right, then the
            // high ends back
            let outline: Vec<(f64, f64)> = s
                .band
                .iter()
                .map(|&(x, lo, _)| (x, lo))
                .chain(s.band.iter().rev().map(|&(x, _, hi)| (x, hi)))
                .collect();
            cc.draw_series(std::iter::once(Polygon::new(
                outline,
                colour.mix(0.15).filled(),
            )))
            .map_err(e)?;
        }
        let stroke = colour.stroke_width(2);
        let line = s.points.iter().copied();
        match s.style % 3 {
            0 => cc.draw_series(LineSeries::new(line, stroke)).map(|_| ()),
            1 => cc
                .draw_series(DashedLineSeries::new(line, 7, 4, stroke))
                .map(|_| ()),
            _ => cc
                .draw_series(DashedLineSeries::new(line, 2, 3, stroke))
                .map(|_| ()),
        }
        .map_err(e)?;
        cc.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(e)?;
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &ChartData,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let font: TextStyle = ("sans-serif", LEGEND_FONT).into();
    let mut y = 24;
    for s in &chart.series {
        let colour = COLOURS[s.colour % COLOURS.len()];
        if s.markers {
            area.draw(&Circle::new((8, y), 4, colour.filled()))
                .map_err(e)?;
            area.draw(&Circle::new((22, y), 4, colour.stroke_width(2)))
                .map_err(e)?;
        } else {
            styled_path(area, vec![(2, y), (28, y)], colour, s.style)?;
        }
        area.draw(&Text::new(s.label.as_str(), (36, y - 8), font.clone()))
            .map_err(e)?;
        y += LEGEND_ROW;
    }
    y += 8;
    let grey: TextStyle = ("sans-serif", LEGEND_FONT)
        .into_font()
        .color(&RGBColor(90, 90, 90));
    for note in &chart.notes {
        area.draw(&Text::new(note.as_str(), (2, y - 8), grey.clone()))
            .map_err(e)?;
        y += LEGEND_ROW - 2;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn si_labels() {
        assert_eq!(si(0.0), "0");
        assert_eq!(si(1500.0), "1.5k");
        assert_eq!(si(2_000_000.0), "2M");
        assert_eq!(si(0.5), "0.5");
    }
}
