//! Sweep plots from a summary CSV: success rate against board size with one line per rule (the headline
//! picture of a tie-break study), mean backtracks per size, and on request throughput (nodes per
//! second, a measure of the machine rather than of the rules).
//!
//! The CSV is read by header name as `summary.csv`'s one row type (`experiment::SummaryRow`: unknown
//! columns are ignored, other missing ones read as empty); the columns used are `rows, cols,
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
//!
//! This file holds the entry [`write_plots`] with its options, report and error types; reading the
//! CSV is in `summary`, choosing the series and computing each chart's numbers in `series`, and the
//! drawing with `plotters` in `draw`, so that the numbers can be tested without a backend.

mod draw;
mod series;
mod summary;

use std::path::{Path, PathBuf};

use super::select::{Filter, UnknownName};
use draw::{draw_file, svg_text};
use series::{chart_data, select_rows, select_series};

#[cfg(feature = "png")]
pub(crate) use draw::{check_folder, ensure_font};
pub use series::{DEFAULT_MAX_SERIES, MIN_TIMED_NS};
pub use summary::{read_summary, sweep_title, Summary};

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
    /// A PNG was asked for, and this build has no PNG output.
    #[error("PNG output needs the `png` feature, which this ktour was built without (cargo build --features png); write .svg instead")]
    NoPng,
    /// The drawing library failed.
    #[error("drawing {path}: {message}")]
    Draw {
        /// The file being drawn.
        path: PathBuf,
        /// The library's message.
        message: String,
    },
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
            Some("png") => png_output().map(|()| PlotFormat::Png),
            _ => Err(PlotError::Extension(path.into())),
        }
    }
}

/// Whether this build writes PNG: [`PlotError::NoPng`] without the `png` feature, so that a PNG
/// asked for is refused before anything is read or drawn.
pub fn png_output() -> Result<(), PlotError> {
    if cfg!(feature = "png") {
        Ok(())
    } else {
        Err(PlotError::NoPng)
    }
}

/// Where and how [`write_plots`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotOptions {
    /// The main output (`.svg` or `.png`): the success-rate plot, or the one `metric`.
    pub output: PathBuf,
    /// One metric into `output`, drawn even when flat; `None` writes the success plot and, beside
    /// `output` as `STEM-backtracks.EXT` (and `STEM-throughput.EXT` with `throughput`), the others
    /// that carry information ([`Skip`]).
    pub metric: Option<Metric>,
    /// With `metric` `None`, also the throughput plot: it measures the machine a sweep ran on, not
    /// the rules, so it is drawn only when asked for.
    pub throughput: bool,
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
    /// Options writing the success plot to `output` and the backtracks beside it when informative,
    /// 900x560, all series up to [`DEFAULT_MAX_SERIES`].
    pub fn new(output: impl Into<PathBuf>) -> Self {
        PlotOptions {
            output: output.into(),
            metric: None,
            throughput: false,
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
    if opts.png {
        png_output()?;
    }
    let rows = select_rows(summary, &opts.filter)?;
    let selected = select_series(&rows, opts.max_series);
    let metrics: Vec<Metric> = match opts.metric {
        Some(m) => vec![m],
        None => Metric::ALL
            .into_iter()
            .filter(|&m| m != Metric::Throughput || opts.throughput)
            .collect(),
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

/// The plots [`write_plots`] writes with every metric asked for (throughput too), as SVG text in
/// memory, for a page that embeds them: the plots that carry information, in [`Metric::ALL`] order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SvgPlots {
    /// Each plot drawn, with its SVG document.
    pub plots: Vec<(Metric, String)>,
    /// Plots not drawn, with why.
    pub skipped: Vec<(Metric, Skip)>,
    /// Labels of the series past the maximum, not drawn.
    pub left_out: Vec<String>,
}

/// Draw the plots of the rows `filter` selects, at most `max_series` series each, `size` pixels,
/// as [`SvgPlots`].
pub fn plot_svgs(
    summary: &Summary,
    filter: &Filter,
    max_series: usize,
    size: (u32, u32),
) -> Result<SvgPlots, PlotError> {
    let rows = select_rows(summary, filter)?;
    let selected = select_series(&rows, max_series);
    let mut out = SvgPlots {
        left_out: selected.left_out.clone(),
        ..SvgPlots::default()
    };
    for metric in Metric::ALL {
        let chart = chart_data(&summary.title, &rows, &selected, metric);
        match chart.skip {
            Some(skip) => out.skipped.push((metric, skip)),
            None => {
                let svg = svg_text(&chart, size).map_err(|message| PlotError::Draw {
                    path: PathBuf::from(format!("the {} plot", metric.name())),
                    message,
                })?;
                out.plots.push((metric, svg));
            }
        }
    }
    Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `.png` is a format exactly when the build has the `png` feature; without it the error names
    /// the feature, on one line.
    #[test]
    fn png_is_refused_by_name_without_its_feature() {
        let of = PlotFormat::of(Path::new("out/plot.png"));
        if cfg!(feature = "png") {
            assert_eq!(of.unwrap(), PlotFormat::Png);
        } else {
            let e = of.unwrap_err().to_string();
            assert!(e.contains("`png` feature") && !e.contains('\n'), "{e}");
        }
        assert_eq!(PlotFormat::of(Path::new("a.svg")).unwrap(), PlotFormat::Svg);
    }

    #[test]
    fn siblings_keep_the_extension() {
        assert_eq!(
            sibling(Path::new("out/plot.svg"), "backtracks", None),
            PathBuf::from("out/plot-backtracks.svg")
        );
    }
}
