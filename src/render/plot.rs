//! Sweep plots from a summary CSV: success rate against board size with one line per rule (the headline
//! picture of a tie-break study), mean backtracks per size, and throughput (nodes per second).
//!
//! The CSV is read by header name (unknown columns are ignored); the columns used are `rows, cols,
//! rule, method, closed, runs, feasible_runs, successes, success_rate, backtracks_mean,
//! nodes_total, elapsed_ns_total`. Rows that share (rule, method, closed) and board are pooled:
//! success rate = successes / feasible_runs (the `success_rate` column when no run was feasible),
//! backtracks = run-weighted mean of `backtracks_mean`, throughput = nodes_total /
//! (elapsed_ns_total / 1e9).
//!
//! The x axis is the side `n` when every board is square, otherwise the number of squares
//! `rows * cols` (so rectangular sweeps stay on one numeric axis). More than [`MAX_SERIES`] series are
//! cut to the best and worst halves by mean success rate, and the title says so.
//!
//! Text uses the bundled DejaVu Sans (`assets/`), registered with `plotters` at first use, so neither
//! SVG nor PNG output needs a system font library.

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Most series on one plot.
pub const MAX_SERIES: usize = 12;

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// A plot could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// Reading or writing a file.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: std::io::Error,
    },
    /// A malformed CSV or a missing column.
    #[error("{path}: {cause}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// What went wrong (names the record and the field).
        cause: csv::Error,
    },
    /// A header and no data.
    #[error("{0}: the summary has no rows")]
    Empty(PathBuf),
    /// A `meta.json` that is not JSON.
    #[error("{path}: malformed meta.json: {cause} (it gives only the title: pass --title to plot without it)")]
    Meta {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        cause: serde_json::Error,
    },
    /// The output name has an extension other than `.svg` or `.png`.
    #[error("{0}: the output must end in .svg or .png")]
    Extension(PathBuf),
    /// The drawing library failed.
    #[error("drawing {path}: {message}")]
    Draw {
        /// The file being drawn.
        path: PathBuf,
        /// The library's message.
        message: String,
    },
}

/// One row of the summary CSV (the columns this module reads).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SummaryRow {
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
    /// Runs.
    pub runs: u64,
    /// Runs whose board and start admit a tour.
    pub feasible_runs: u64,
    /// Runs that found a tour.
    pub successes: u64,
    /// successes / feasible_runs as the sweep wrote it (may be empty).
    pub success_rate: Option<f64>,
    /// Mean backtracks per run (may be empty).
    pub backtracks_mean: Option<f64>,
    /// Squares entered, all runs.
    pub nodes_total: u64,
    /// Wall-clock nanoseconds, all runs.
    pub elapsed_ns_total: u64,
}

fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let s = String::deserialize(d)?;
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "closed" => Ok(true),
        "false" | "0" | "no" | "open" | "" => Ok(false),
        other => Err(serde::de::Error::custom(format!(
            "expected true or false, got {other:?}"
        ))),
    }
}

/// A summary CSV and the title its plots get.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The title (the spec name).
    pub title: String,
    /// The rows, in file order.
    pub rows: Vec<SummaryRow>,
}

/// Read a summary CSV. The title is `title` if given, else `spec.name` from a `meta.json` beside the
/// CSV, else the name of the CSV's folder (else its file stem).
pub fn read_summary(path: &Path, title: Option<&str>) -> Result<Summary, PlotError> {
    let text = crate::input::read_text(path).map_err(|cause| PlotError::Io {
        path: path.into(),
        cause,
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_slice());
    let rows = reader
        .deserialize()
        .collect::<Result<Vec<SummaryRow>, _>>()
        .map_err(|cause| PlotError::Csv {
            path: path.into(),
            cause,
        })?;
    if rows.is_empty() {
        return Err(PlotError::Empty(path.into()));
    }
    let title = match title {
        Some(t) => t.to_string(),
        None => match spec_name(path)? {
            Some(name) => name,
            None => default_title(path),
        },
    };
    Ok(Summary { title, rows })
}

fn spec_name(csv_path: &Path) -> Result<Option<String>, PlotError> {
    let meta = csv_path.with_file_name("meta.json");
    let Ok(text) = crate::input::read_text(&meta) else {
        return Ok(None);
    };
    let value: serde_json::Value =
        serde_json::from_slice(&text).map_err(|cause| PlotError::Meta { path: meta, cause })?;
    Ok(value
        .pointer("/spec/name")
        .and_then(|v| v.as_str())
        .map(str::to_string))
}

fn default_title(csv_path: &Path) -> String {
    let dir = std::fs::canonicalize(csv_path)
        .ok()
        .and_then(|p| p.parent().and_then(|d| d.file_name()).map(|n| n.to_owned()));
    match dir {
        Some(d) => d.to_string_lossy().into_owned(),
        None => csv_path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "sweep".into()),
    }
}

/// What a plot shows on its y axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// Success rate (%) of the feasible runs.
    Success,
    /// Mean backtracks per run.
    Backtracks,
    /// Nodes (squares entered) per second.
    Throughput,
}

impl Metric {
    /// Every metric, in output order.
    pub const ALL: [Metric; 3] = [Metric::Success, Metric::Backtracks, Metric::Throughput];

    /// The lower-case name, used in file names.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Success => "success",
            Metric::Backtracks => "backtracks",
            Metric::Throughput => "throughput",
        }
    }
}

/// Image format of a plot file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotFormat {
    /// Scalable vector graphics.
    Svg,
    /// PNG bitmap.
    Png,
}

/// Where and how [`write_plots`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotOptions {
    /// The main output (`.svg` or `.png`): the success-rate plot, or the one `metric`.
    pub output: PathBuf,
    /// One metric into `output`; `None` writes all three, the others beside `output` as
    /// `STEM-backtracks.EXT` and `STEM-throughput.EXT`.
    pub metric: Option<Metric>,
    /// Also write a PNG next to every SVG.
    pub png: bool,
    /// Image size in pixels.
    pub size: (u32, u32),
}

impl PlotOptions {
    /// Options writing all metrics to `output` and beside it, 900x560.
    pub fn new(output: impl Into<PathBuf>) -> Self {
        PlotOptions {
            output: output.into(),
            metric: None,
            png: false,
            size: (900, 560),
        }
    }
}

/// Write the plots; returns the files written.
pub fn write_plots(summary: &Summary, opts: &PlotOptions) -> Result<Vec<PathBuf>, PlotError> {
    let format = match opts
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => PlotFormat::Svg,
        Some("png") => PlotFormat::Png,
        _ => return Err(PlotError::Extension(opts.output.clone())),
    };
    let metrics: Vec<Metric> = match opts.metric {
        Some(m) => vec![m],
        None => Metric::ALL.to_vec(),
    };
    let mut written = Vec::new();
    for (i, &metric) in metrics.iter().enumerate() {
        let path = if i == 0 {
            opts.output.clone()
        } else {
            sibling(&opts.output, metric.name(), None)
        };
        let chart = chart_data(summary, metric);
        draw_file(&chart, &path, format, opts.size)?;
        written.push(path.clone());
        if opts.png && format == PlotFormat::Svg {
            let png = path.with_extension("png");
            draw_file(&chart, &png, PlotFormat::Png, opts.size)?;
            written.push(png);
        }
    }
    Ok(written)
}

fn sibling(output: &Path, suffix: &str, ext: Option<&str>) -> PathBuf {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "plot".into());
    let ext = ext
        .map(str::to_string)
        .or_else(|| output.extension().map(|e| e.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "svg".into());
    output.with_file_name(format!("{stem}-{suffix}.{ext}"))
}

/// What one chart shows, independent of the backend.
struct ChartData {
    title: String,
    x_desc: String,
    y_desc: &'static str,
    series: Vec<(String, Vec<(f64, f64)>)>,
    percent: bool,
    /// Where the legend goes: where the lines usually are not.
    legend: SeriesLabelPosition,
}

/// (rule, method, closed).
type SeriesKey = (String, String, bool);
/// (x, y) points of one series.
type Points = Vec<(f64, f64)>;

#[derive(Default)]
struct Pool {
    runs: u64,
    feasible: u64,
    successes: u64,
    rate_sum: f64,
    rate_n: u64,
    bt_sum: f64,
    bt_runs: u64,
    nodes: u64,
    elapsed_ns: u64,
}

fn chart_data(summary: &Summary, metric: Metric) -> ChartData {
    let all_square = summary.rows.iter().all(|r| r.rows == r.cols);
    let mut groups: BTreeMap<SeriesKey, BTreeMap<(u32, u32), Pool>> = BTreeMap::new();
    for r in &summary.rows {
        let p = groups
            .entry((r.rule.clone(), r.method.clone(), r.closed))
            .or_default()
            .entry((r.rows, r.cols))
            .or_default();
        p.runs += r.runs;
        p.feasible += r.feasible_runs;
        p.successes += r.successes;
        if let Some(v) = r.success_rate.filter(|v| v.is_finite()) {
            p.rate_sum += v;
            p.rate_n += 1;
        }
        if let Some(v) = r.backtracks_mean.filter(|v| v.is_finite()) {
            p.bt_sum += v * r.runs.max(1) as f64;
            p.bt_runs += r.runs.max(1);
        }
        p.nodes += r.nodes_total;
        p.elapsed_ns += r.elapsed_ns_total;
    }
    let methods: std::collections::BTreeSet<_> = groups.keys().map(|k| (&k.1, k.2)).collect();
    // (label, points, mean success rate)
    let mut series: Vec<(String, Points, f64)> = Vec::new();
    for ((rule, method, closed), boards) in &groups {
        let label = if methods.len() > 1 {
            format!("{rule} ({method}{})", if *closed { ", closed" } else { "" })
        } else {
            rule.clone()
        };
        let mut points = Vec::new();
        let mut success = Vec::new();
        for (&(rows, cols), p) in boards {
            // in floating point: a hand-made summary may hold sides whose product overflows u32
            let x = if all_square {
                f64::from(rows)
            } else {
                f64::from(rows) * f64::from(cols)
            };
            let rate = if p.feasible > 0 {
                Some(p.successes as f64 / p.feasible as f64)
            } else if p.rate_n > 0 {
                Some(p.rate_sum / p.rate_n as f64)
            } else {
                None
            };
            if let Some(r) = rate {
                success.push(r);
            }
            let y = match metric {
                Metric::Success => rate.map(|r| r * 100.0),
                Metric::Backtracks => (p.bt_runs > 0).then(|| p.bt_sum / p.bt_runs as f64),
                Metric::Throughput => {
                    (p.elapsed_ns > 0).then(|| p.nodes as f64 / (p.elapsed_ns as f64 / 1e9))
                }
            };
            if let Some(y) = y.filter(|y| y.is_finite()) {
                points.push((x, y));
            }
        }
        let mean = success.iter().sum::<f64>() / success.len().max(1) as f64;
        series.push((label, points, mean));
    }
    let total = series.len();
    let mut note = String::new();
    if total > MAX_SERIES {
        series.sort_by(|a, b| b.2.total_cmp(&a.2));
        let half = MAX_SERIES / 2;
        series.drain(half..total - half);
        note = format!(" ({MAX_SERIES} of {total} series: best and worst {half})");
    }
    let what = match metric {
        Metric::Success => "success rate",
        Metric::Backtracks => "backtracks per run",
        Metric::Throughput => "throughput",
    };
    ChartData {
        title: format!("{}: {what}{note}", summary.title),
        x_desc: if all_square {
            "board side n (n x n board)".into()
        } else {
            "board squares (rows x cols)".into()
        },
        y_desc: match metric {
            Metric::Success => "success rate (% of feasible runs)",
            Metric::Backtracks => "mean backtracks per run",
            Metric::Throughput => "nodes per second",
        },
        series: series.into_iter().map(|(l, p, _)| (l, p)).collect(),
        percent: metric == Metric::Success,
        legend: match metric {
            Metric::Success => SeriesLabelPosition::LowerLeft,
            Metric::Backtracks => SeriesLabelPosition::UpperLeft,
            Metric::Throughput => SeriesLabelPosition::LowerRight,
        },
    }
}

fn ensure_font() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        // The bundled font is known good; a failure would show as missing text, not a crash.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

fn draw_file(
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
            let mut buf = String::new();
            {
                let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
                draw_chart(&root, chart).map_err(draw_err)?;
                root.present().map_err(|e| draw_err(e.to_string()))?;
            }
            std::fs::write(path, buf).map_err(|cause| PlotError::Io {
                path: path.into(),
                cause,
            })
        }
        PlotFormat::Png => {
            // Check the folder first: the bitmap backend reports a missing one only as a draw error.
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
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw_chart(&root, chart).map_err(draw_err)?;
            root.present().map_err(|e| draw_err(e.to_string()))
        }
    }
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

fn draw_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &ChartData,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let xs = chart.series.iter().flat_map(|s| s.1.iter().map(|p| p.0));
    let (mut x0, mut x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    let pad = ((x1 - x0) * 0.04).max(0.5);
    let (x0, x1) = (x0 - pad, x1 + pad);
    let y_max = chart
        .series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let (y0, y1) = if chart.percent {
        (0.0, 105.0)
    } else {
        (0.0, if y_max > 0.0 { y_max * 1.12 } else { 1.0 })
    };
    let mut cc = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(78)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    let y_fmt = |v: &f64| si(*v);
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
    for (i, (label, points)) in chart.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        cc.draw_series(LineSeries::new(
            points.iter().copied(),
            colour.stroke_width(2),
        ))
        .map_err(e)?
        .label(label.as_str())
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], colour.stroke_width(3)));
        cc.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(e)?;
    }
    if !chart.series.is_empty() {
        cc.configure_series_labels()
            .label_font(("sans-serif", 14))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .position(chart.legend.clone())
            .draw()
            .map_err(e)?;
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

    /// A summary row with the columns the plots read.
    #[allow(clippy::too_many_arguments)]
    fn row(
        side: u32,
        runs: u64,
        feasible_runs: u64,
        successes: u64,
        backtracks_mean: Option<f64>,
        nodes_total: u64,
        elapsed_ns_total: u64,
    ) -> SummaryRow {
        SummaryRow {
            rows: side,
            cols: side,
            rule: "first".into(),
            method: "backtrack".into(),
            closed: false,
            runs,
            feasible_runs,
            successes,
            success_rate: (feasible_runs > 0).then(|| successes as f64 / feasible_runs as f64),
            backtracks_mean,
            nodes_total,
            elapsed_ns_total,
        }
    }

    /// The one series' points of `metric`.
    fn points(summary: &Summary, metric: Metric) -> Vec<(f64, f64)> {
        let data = chart_data(summary, metric);
        assert_eq!(data.series.len(), 1, "one (rule, method, closed) series");
        data.series[0].1.clone()
    }

    fn close(got: f64, want: f64) -> bool {
        (got - want).abs() < 1e-9
    }

    #[test]
    fn pooled_rates_are_over_feasible_runs_and_backtracks_are_run_weighted() {
        // Two shards of the same 8x8 cell: 10 runs of which 8 feasible, 6 tours, 2 backtracks per run
        // on average; then 30 runs, all feasible, 15 tours, 10 backtracks per run. One 6x6 cell where
        // no run was feasible and the sweep left the rate empty: no point.
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                row(8, 10, 8, 6, Some(2.0), 1_000, 1_000_000_000),
                row(8, 30, 30, 15, Some(10.0), 3_000, 1_000_000_000),
                row(6, 4, 0, 0, None, 40, 0),
            ],
        };
        // success: (6 + 15) / (8 + 30) feasible runs, not / (10 + 30) runs, not the mean of 75% and 50%
        let success = points(&summary, Metric::Success);
        assert_eq!(success.len(), 1, "{success:?}");
        assert_eq!(success[0].0, 8.0);
        let want = 100.0 * 21.0 / 38.0;
        assert!(close(success[0].1, want), "{} != {want}", success[0].1);
        // backtracks: (2 x 10 + 10 x 30) / 40 = 8, not (2 + 10) / 2 = 6
        let backtracks = points(&summary, Metric::Backtracks);
        assert_eq!(backtracks.len(), 1, "{backtracks:?}");
        assert!(close(backtracks[0].1, 8.0), "{backtracks:?}");
        // throughput: 4,000 nodes in 2 s; the 6x6 cell took no time and has no point
        let throughput = points(&summary, Metric::Throughput);
        assert_eq!(throughput, vec![(8.0, 2_000.0)]);
    }

    #[test]
    fn siblings_keep_the_extension() {
        assert_eq!(
            sibling(Path::new("out/plot.svg"), "backtracks", None),
            PathBuf::from("out/plot-backtracks.svg")
        );
    }
}
