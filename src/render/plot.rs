//! Sweep plots from a summary CSV: success rate against board size with one line per rule (the headline
//! picture of a tie-break study), mean backtracks per size, and throughput (nodes per second).
//!
//! The CSV is read by header name (unknown columns are ignored); the columns used are `rows, cols,
//! rule, method, closed, runs, feasible_runs, successes, success_rate, backtracks_mean,
//! nodes_total, elapsed_ns_total`. Rows that share (rule, method, closed) and board are pooled:
//! success rate = successes / feasible_runs (the `success_rate` column when no run was feasible),
//! backtracks = run-weighted mean of `backtracks_mean`. Throughput is per method from board totals:
//! the nodes of every row of a size over their time, sizes under [`MIN_TIMED_NS`] in all left out.
//!
//! A series with one run per size (a deterministic rule from one start) is drawn as markers, filled
//! for a tour and hollow for none, each series on its own row near 100% and 0%, since as a line it
//! would be spikes between 0 and 100 drawn over the others. Colour follows the rule, line style the
//! method, and the legend sits in its own column beside the data.
//!
//! The x axis is the side `n` when every board is square, otherwise the number of squares
//! `rows * cols` (so rectangular sweeps stay on one numeric axis). `--rules` and `--methods`
//! ([`Filter`]) choose the rows; past `max_series` the later series in file order are left out and
//! named ([`PlotReport`]). With every metric asked for, a plot that would carry nothing (no
//! backtracks, nothing timed long enough) is skipped and the [`Skip`] says why.
//!
//! Text uses the bundled DejaVu Sans (`assets/`), registered with `plotters` at first use, so neither
//! SVG nor PNG output needs a system font library.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::select::{Filter, UnknownName};

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
    /// A `--rules` or `--methods` name the file does not hold.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// Every name is in the file, but no row has both a chosen rule and a chosen method.
    #[error("no row has both one of the chosen rules and one of the chosen methods")]
    NothingSelected,
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

impl PlotFormat {
    /// The format an output name asks for by its extension.
    pub fn of(path: &Path) -> Result<PlotFormat, PlotError> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("svg") => Ok(PlotFormat::Svg),
            Some("png") => Ok(PlotFormat::Png),
            _ => Err(PlotError::Extension(path.into())),
        }
    }
}

/// Where and how [`write_plots`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotOptions {
    /// The main output (`.svg` or `.png`): the success-rate plot, or the one `metric`.
    pub output: PathBuf,
    /// One metric into `output`, drawn even when flat; `None` writes the success plot and, beside
    /// `output` as `STEM-backtracks.EXT` and `STEM-throughput.EXT`, the others that carry
    /// information ([`Skip`]).
    pub metric: Option<Metric>,
    /// Also write a PNG next to every SVG.
    pub png: bool,
    /// Image size in pixels.
    pub size: (u32, u32),
    /// The rules and methods plotted.
    pub filter: Filter,
    /// Most series on one plot: the first ones in file order are kept, the rest named in
    /// [`PlotReport::left_out`].
    pub max_series: usize,
}

impl PlotOptions {
    /// Options writing every informative metric to `output` and beside it, 900x560, all series up
    /// to [`DEFAULT_MAX_SERIES`].
    pub fn new(output: impl Into<PathBuf>) -> Self {
        PlotOptions {
            output: output.into(),
            metric: None,
            png: false,
            size: (900, 560),
            filter: Filter::default(),
            max_series: DEFAULT_MAX_SERIES,
        }
    }
}

/// Why a plot of all metrics left one out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// No series backtracked: the plot would be a flat line at zero.
    NoBacktracks,
    /// No board size took [`MIN_TIMED_NS`] in all, so no rate is worth drawing.
    Untimed,
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::NoBacktracks => write!(f, "no series has any backtracks"),
            Skip::Untimed => write!(
                f,
                "no board size took {} ms in all, too short to time honestly",
                MIN_TIMED_NS / 1_000_000
            ),
        }
    }
}

/// What [`write_plots`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlotReport {
    /// Files written, in order.
    pub written: Vec<PathBuf>,
    /// Plots not written, with why.
    pub skipped: Vec<(PathBuf, Skip)>,
    /// Labels of the series past `max_series`, not drawn.
    pub left_out: Vec<String>,
}

/// Write the plots of the rows `opts.filter` selects.
pub fn write_plots(summary: &Summary, opts: &PlotOptions) -> Result<PlotReport, PlotError> {
    let format = PlotFormat::of(&opts.output)?;
    let rows = select_rows(summary, &opts.filter)?;
    let selected = select_series(&rows, opts.max_series);
    let metrics: Vec<Metric> = match opts.metric {
        Some(m) => vec![m],
        None => Metric::ALL.to_vec(),
    };
    let mut report = PlotReport {
        left_out: selected.left_out.clone(),
        ..PlotReport::default()
    };
    for (i, &metric) in metrics.iter().enumerate() {
        let path = if i == 0 {
            opts.output.clone()
        } else {
            sibling(&opts.output, metric.name(), None)
        };
        let chart = chart_data(&summary.title, &rows, &selected, metric);
        if opts.metric.is_none() {
            if let Some(skip) = chart.skip {
                report.skipped.push((path, skip));
                continue;
            }
        }
        draw_file(&chart, &path, format, opts.size)?;
        report.written.push(path.clone());
        if opts.png && format == PlotFormat::Svg {
            let png = path.with_extension("png");
            draw_file(&chart, &png, PlotFormat::Png, opts.size)?;
            report.written.push(png);
        }
    }
    Ok(report)
}

/// The rows the filter keeps, after checking that it names only what the summary holds.
fn select_rows<'a>(
    summary: &'a Summary,
    filter: &Filter,
) -> Result<Vec<&'a SummaryRow>, PlotError> {
    filter.check(
        summary
            .rows
            .iter()
            .map(|r| (r.rule.as_str(), r.method.as_str())),
    )?;
    let rows: Vec<&SummaryRow> = summary
        .rows
        .iter()
        .filter(|r| filter.keeps(&r.rule, &r.method))
        .collect();
    if rows.is_empty() {
        return Err(PlotError::NothingSelected);
    }
    Ok(rows)
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

/// (rule, method, closed).
type SeriesKey = (String, String, bool);

/// One (rule, method, closed) series chosen for the plots.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SeriesName {
    key: SeriesKey,
    /// The legend entry: the rule, with the method when the plot has several.
    label: String,
    /// Colour index: one colour per rule.
    colour: usize,
    /// Line style index: one style per (method, closed).
    style: usize,
}

/// The series drawn and those left out.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Selected {
    series: Vec<SeriesName>,
    left_out: Vec<String>,
}

/// The series of `rows` in first-seen order; past `max`, the rest are left out. File order is the
/// sweep's order (its spec's rules, then methods), which the researcher chose and can steer with
/// `--rules`, where a cut by score would hide whichever rule happens to sit in the middle.
fn select_series(rows: &[&SummaryRow], max: usize) -> Selected {
    let mut keys: Vec<SeriesKey> = Vec::new();
    for r in rows {
        let key = (r.rule.clone(), r.method.clone(), r.closed);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let styles = first_seen(keys.iter().map(|k| (k.1.clone(), k.2)));
    let label = |k: &SeriesKey| {
        if styles.len() > 1 {
            format!("{} ({}{})", k.0, k.1, if k.2 { ", closed" } else { "" })
        } else {
            k.0.clone()
        }
    };
    let left_out = keys.iter().skip(max).map(label).collect();
    keys.truncate(max);
    let rules = first_seen(keys.iter().map(|k| k.0.clone()));
    let styles = first_seen(keys.iter().map(|k| (k.1.clone(), k.2)));
    let series = keys
        .iter()
        .map(|k| SeriesName {
            label: label(k),
            colour: rules.iter().position(|r| *r == k.0).unwrap_or(0),
            style: styles
                .iter()
                .position(|s| (&s.0, s.1) == (&k.1, k.2))
                .unwrap_or(0),
            key: k.clone(),
        })
        .collect();
    Selected { series, left_out }
}

fn first_seen<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for t in items {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// One drawn series.
#[derive(Clone, Debug, PartialEq)]
struct Drawn {
    label: String,
    colour: usize,
    style: usize,
    /// One start per size: drawn as a marker per size (filled at 100%, hollow at 0), not a line.
    markers: bool,
    points: Vec<(f64, f64)>,
}

/// What one chart shows, independent of the backend.
#[derive(Clone, Debug, PartialEq)]
struct ChartData {
    title: String,
    x_desc: String,
    y_desc: &'static str,
    series: Vec<Drawn>,
    percent: bool,
    /// Lines under the legend: how to read the markers, what was left out.
    notes: Vec<String>,
    /// Why the plot carries no information, if it does not.
    skip: Option<Skip>,
}

#[derive(Default)]
struct Pool {
    runs: u64,
    feasible: u64,
    successes: u64,
    rate_sum: f64,
    rate_n: u64,
    bt_sum: f64,
    bt_runs: u64,
}

/// Board sizes whose runs took less than this in all (nanoseconds, every row of the size summed)
/// get no throughput point: below it, the clock reads of each run and one scheduler preemption
/// (milliseconds on a shared machine) are a visible share of the total, so the rate is noise.
pub const MIN_TIMED_NS: u64 = 10_000_000;

/// Series drawn by default; more are left out (and named) unless `--max-series` allows them.
pub const DEFAULT_MAX_SERIES: usize = 16;

fn x_of(all_square: bool, rows: u32, cols: u32) -> f64 {
    // in floating point: a hand-made summary may hold sides whose product overflows u32
    if all_square {
        f64::from(rows)
    } else {
        f64::from(rows) * f64::from(cols)
    }
}

fn chart_data(title: &str, rows: &[&SummaryRow], selected: &Selected, metric: Metric) -> ChartData {
    let all_square = rows.iter().all(|r| r.rows == r.cols);
    let x_desc = if all_square {
        "board side n (n x n board)".to_string()
    } else {
        "board squares (rows x cols)".to_string()
    };
    let total = selected.series.len() + selected.left_out.len();
    let cut = if selected.left_out.is_empty() {
        String::new()
    } else {
        format!(" ({} of {total} series)", selected.series.len())
    };
    if metric == Metric::Throughput {
        let (series, untimed) = throughput(rows, selected, all_square);
        let mut notes = vec!["all rules of a size pooled".to_string()];
        if untimed > 0 {
            notes.push(format!(
                "{untimed} sizes under {} ms left out",
                MIN_TIMED_NS / 1_000_000
            ));
        }
        let skip = series
            .iter()
            .all(|s| s.points.is_empty())
            .then_some(Skip::Untimed);
        return ChartData {
            title: format!("{title}: throughput"),
            x_desc,
            y_desc: "nodes per second (board totals)",
            series,
            percent: false,
            notes,
            skip,
        };
    }
    let mut pools: Vec<BTreeMap<(u32, u32), Pool>> = Vec::new();
    pools.resize_with(selected.series.len(), BTreeMap::new);
    for r in rows {
        let Some(i) = selected.series.iter().position(|s| {
            (s.key.0.as_str(), s.key.1.as_str(), s.key.2) == (&r.rule, &r.method, r.closed)
        }) else {
            continue;
        };
        let p = pools[i].entry((r.rows, r.cols)).or_default();
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
    }
    let mut series = Vec::new();
    for (name, boards) in selected.series.iter().zip(&pools) {
        let mut points = Vec::new();
        for (&(rows, cols), p) in boards {
            let y = match metric {
                Metric::Success => {
                    if p.feasible > 0 {
                        Some(100.0 * p.successes as f64 / p.feasible as f64)
                    } else if p.rate_n > 0 {
                        Some(100.0 * p.rate_sum / p.rate_n as f64)
                    } else {
                        None
                    }
                }
                _ => (p.bt_runs > 0).then(|| p.bt_sum / p.bt_runs as f64),
            };
            if let Some(y) = y.filter(|y| y.is_finite()) {
                points.push((x_of(all_square, rows, cols), y));
            }
        }
        // One run per size (a deterministic rule from one start): each point is 0 or 100%, which
        // a line would draw as spikes over every other such series.
        let markers = metric == Metric::Success && boards.values().all(|p| p.runs <= 1);
        series.push(Drawn {
            label: name.label.clone(),
            colour: name.colour,
            style: name.style,
            markers,
            points,
        });
    }
    let mut notes = Vec::new();
    if series.iter().any(|s| s.markers) {
        notes.push("markers: one run per size,".into());
        notes.push("a row per series: filled".into());
        notes.push("above 100 = tour, hollow".into());
        notes.push("below 0 = no tour".into());
    }
    let (what, y_desc, skip) = match metric {
        Metric::Success => ("success rate", "success rate (% of feasible runs)", None),
        _ => (
            "backtracks per run",
            "mean backtracks per run",
            (!series.iter().any(|s| s.points.iter().any(|p| p.1 > 0.0)))
                .then_some(Skip::NoBacktracks),
        ),
    };
    ChartData {
        title: format!("{title}: {what}{cut}"),
        x_desc,
        y_desc,
        series,
        percent: metric == Metric::Success,
        notes,
        skip,
    }
}

/// Nodes per second of each (method, closed) of the selected series, per board size, from the
/// totals of every row of that size (all rules pooled): one row's time is often a few microseconds,
/// too short for a rate. Sizes under [`MIN_TIMED_NS`] get no point; returns also how many.
fn throughput(rows: &[&SummaryRow], selected: &Selected, all_square: bool) -> (Vec<Drawn>, usize) {
    let kept = |r: &SummaryRow| {
        selected.series.iter().any(|s| {
            (s.key.0.as_str(), s.key.1.as_str(), s.key.2) == (&r.rule, &r.method, r.closed)
        })
    };
    let groups = first_seen(
        rows.iter()
            .filter(|r| kept(r))
            .map(|r| (r.method.clone(), r.closed)),
    );
    let mut totals: Vec<BTreeMap<(u32, u32), (u64, u64)>> = vec![BTreeMap::new(); groups.len()];
    for r in rows.iter().filter(|r| kept(r)) {
        let Some(g) = groups
            .iter()
            .position(|g| (&g.0, g.1) == (&r.method, r.closed))
        else {
            continue;
        };
        let t = totals[g].entry((r.rows, r.cols)).or_default();
        t.0 = t.0.saturating_add(r.nodes_total);
        t.1 = t.1.saturating_add(r.elapsed_ns_total);
    }
    let mut untimed = 0;
    let mut series = Vec::new();
    for (i, ((method, closed), boards)) in groups.iter().zip(&totals).enumerate() {
        let mut points = Vec::new();
        for (&(rows, cols), &(nodes, ns)) in boards {
            if ns < MIN_TIMED_NS {
                untimed += 1;
                continue;
            }
            points.push((
                x_of(all_square, rows, cols),
                nodes as f64 / (ns as f64 / 1e9),
            ));
        }
        series.push(Drawn {
            label: format!("{method}{}", if *closed { ", closed" } else { "" }),
            colour: i,
            style: 0,
            markers: false,
            points,
        });
    }
    (series, untimed)
}

pub(crate) fn ensure_font() {
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
            check_folder(path)?;
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw_chart(&root, chart).map_err(draw_err)?;
            root.present().map_err(|e| draw_err(e.to_string()))
        }
    }
}

/// The bitmap backend reports a missing folder only as a draw error: check it first.
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
    let step = 3.0;
    let band = marker_series as f64 * step;
    let (y0, y1) = if chart.percent {
        (-4.0 - band, 104.0 + band)
    } else {
        (0.0, if y_max > 0.0 { y_max * 1.12 } else { 1.0 })
    };
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
    let mut k = 0;
    for s in &chart.series {
        let colour = COLOURS[s.colour % COLOURS.len()];
        if s.markers {
            k += 1;
            let off = k as f64 * step;
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
    draw_legend(&legend, chart)
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
        let data = chart(summary, metric, DEFAULT_MAX_SERIES);
        assert_eq!(data.series.len(), 1, "one series");
        data.series[0].points.clone()
    }

    fn chart(summary: &Summary, metric: Metric, max: usize) -> ChartData {
        let rows: Vec<&SummaryRow> = summary.rows.iter().collect();
        chart_data(&summary.title, &rows, &select_series(&rows, max), metric)
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

    fn named(mut r: SummaryRow, rule: &str, method: &str) -> SummaryRow {
        r.rule = rule.into();
        r.method = method.into();
        r
    }

    #[test]
    fn throughput_is_board_totals_over_every_rule_with_short_sizes_left_out() {
        // 10x10: two rules of one method, 3 ms and 9 ms: 12 ms in all, so one point from the totals
        // (4e6 + 2e6 nodes in 12 ms = 500M/s), not the mean of the rows' rates (1333M/s and
        // 222M/s). 6x6: 9.9 ms in all, under the threshold: no point, however fast its rows look.
        // The backtracking method is its own series.
        let ms = 1_000_000;
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                named(
                    row(10, 100, 100, 90, None, 4_000_000, 3 * ms),
                    "first",
                    "warnsdorff",
                ),
                named(
                    row(10, 100, 100, 99, None, 2_000_000, 9 * ms),
                    "roth",
                    "warnsdorff",
                ),
                named(
                    row(6, 36, 36, 30, None, 9_000_000, 5 * ms),
                    "first",
                    "warnsdorff",
                ),
                named(
                    row(6, 36, 36, 30, None, 9_000_000, 4_900_000),
                    "roth",
                    "warnsdorff",
                ),
                named(
                    row(10, 100, 100, 99, None, 1_000_000, MIN_TIMED_NS),
                    "first",
                    "backtrack",
                ),
            ],
        };
        let data = chart(&summary, Metric::Throughput, DEFAULT_MAX_SERIES);
        let series: Vec<(&str, &[(f64, f64)])> = data
            .series
            .iter()
            .map(|s| (s.label.as_str(), s.points.as_slice()))
            .collect();
        assert_eq!(series.len(), 2, "{series:?}");
        assert_eq!(series[0].0, "warnsdorff");
        assert_eq!(series[0].1.len(), 1, "{series:?}");
        assert_eq!(series[0].1[0].0, 10.0);
        assert!(close(series[0].1[0].1, 500e6), "{series:?}");
        // exactly at the threshold counts: 1e6 nodes in 10 ms
        assert_eq!(series[1], ("backtrack", &[(10.0, 100e6)][..]));
        assert_eq!(data.skip, None);
        assert!(
            data.notes
                .iter()
                .any(|n| n.starts_with("1 sizes under 10 ms")),
            "{:?}",
            data.notes
        );
        // with only the short 6x6 rows there is nothing to draw, and the plot says so
        let short = Summary {
            title: "t".into(),
            rows: summary.rows[2..4].to_vec(),
        };
        assert_eq!(
            chart(&short, Metric::Throughput, 16).skip,
            Some(Skip::Untimed)
        );
    }

    #[test]
    fn series_are_kept_in_file_order_up_to_the_maximum_and_the_rest_named() {
        let rules = ["first", "random", "pohl", "roth", "center"];
        let mut rows = Vec::new();
        for side in [6, 8] {
            for rule in rules {
                for method in ["warnsdorff", "backtrack"] {
                    rows.push(named(row(side, 10, 10, 5, Some(0.0), 1, 1), rule, method));
                }
            }
        }
        let refs: Vec<&SummaryRow> = rows.iter().collect();
        let selected = select_series(&refs, 3);
        let labels: Vec<&str> = selected.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "first (warnsdorff)",
                "first (backtrack)",
                "random (warnsdorff)"
            ]
        );
        assert_eq!(selected.left_out.len(), 7);
        assert_eq!(selected.left_out[0], "random (backtrack)");
        // colour follows the rule, line style the method
        let style: Vec<(usize, usize)> = selected
            .series
            .iter()
            .map(|s| (s.colour, s.style))
            .collect();
        assert_eq!(style, [(0, 0), (0, 1), (1, 0)]);
        let summary = Summary {
            title: "t".into(),
            rows,
        };
        assert!(chart(&summary, Metric::Success, 3)
            .title
            .ends_with("(3 of 10 series)"));
        assert!(!chart(&summary, Metric::Success, 10)
            .title
            .contains("series"));
        // all zero backtracks: nothing to plot
        assert_eq!(
            chart(&summary, Metric::Backtracks, 10).skip,
            Some(Skip::NoBacktracks)
        );
    }

    #[test]
    fn filters_select_rows_and_refuse_unknown_names() {
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                named(row(8, 64, 64, 60, Some(0.0), 1, 1), "first", "warnsdorff"),
                named(row(8, 64, 64, 62, Some(1.5), 1, 1), "first", "backtrack"),
                named(row(8, 64, 64, 62, Some(0.0), 1, 1), "roth", "warnsdorff"),
            ],
        };
        let filter = |rules: &[&str], methods: &[&str]| Filter {
            rules: (!rules.is_empty()).then(|| rules.iter().map(|s| s.to_string()).collect()),
            methods: (!methods.is_empty()).then(|| methods.iter().map(|s| s.to_string()).collect()),
        };
        let kept = select_rows(&summary, &filter(&["first"], &[])).unwrap();
        assert_eq!(kept.len(), 2);
        let kept = select_rows(&summary, &filter(&[], &["warnsdorff"])).unwrap();
        assert_eq!(
            kept.iter().map(|r| r.rule.as_str()).collect::<Vec<_>>(),
            ["first", "roth"]
        );
        let err = select_rows(&summary, &filter(&["pohl"], &[])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no rule \"pohl\" in the file; its rules: first, roth"
        );
        assert!(matches!(
            select_rows(&summary, &filter(&["roth"], &["backtrack"])),
            Err(PlotError::NothingSelected)
        ));
        // one series chosen: its label is the bare rule
        let rows = select_rows(&summary, &filter(&["first"], &["backtrack"])).unwrap();
        let sel = select_series(&rows, 16);
        assert_eq!(sel.series[0].label, "first");
    }

    #[test]
    fn one_run_per_size_is_drawn_as_markers_and_many_runs_as_a_line() {
        let summary = Summary {
            title: "t".into(),
            rows: vec![
                named(row(5, 1, 1, 1, Some(0.0), 1, 1), "first", "warnsdorff"),
                named(row(6, 1, 1, 0, Some(0.0), 1, 1), "first", "warnsdorff"),
                named(row(5, 20, 20, 7, Some(0.0), 1, 1), "random", "warnsdorff"),
                named(row(6, 20, 20, 8, Some(0.0), 1, 1), "random", "warnsdorff"),
            ],
        };
        let data = chart(&summary, Metric::Success, 16);
        assert!(data.series[0].markers);
        assert_eq!(data.series[0].points, [(5.0, 100.0), (6.0, 0.0)]);
        assert!(!data.series[1].markers);
        assert!(data.notes.iter().any(|n| n.contains("one run per size")));
        // the markers are a success-plot device only
        assert!(!chart(&summary, Metric::Backtracks, 16).series[0].markers);
    }

    #[test]
    fn siblings_keep_the_extension() {
        assert_eq!(
            sibling(Path::new("out/plot.svg"), "backtracks", None),
            PathBuf::from("out/plot-backtracks.svg")
        );
    }
}
