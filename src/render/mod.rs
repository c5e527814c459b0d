//! Pictures: tour SVGs ([`svg`]), failed-run analysis drawn on top of them ([`failed`]), sweep plots
//! ([`plot`], choosing rows by [`select`]), start-square maps of a `runs.csv` ([`startmap`]) and the
//! self-contained HTML replay of a run ([`animate`]), and per-start probability maps of `ktour
//! exact` ([`probmap`]). [`error`] holds what both `svg` and `failed`
//! share, so that `failed` does not import `svg`.
//!
//! Tour pictures are written by hand (plain `std::fmt::Write`, no crate): one `<path>` with relative
//! integer moves for the whole tour, a pattern for the checkerboard, so a 1000x1000 tour stays a few
//! megabytes. Plots go through `plotters` with a bundled DejaVu Sans font (no system libraries).

pub mod animate;
pub mod error;
pub mod failed;
pub mod plot;
pub mod probmap;
pub mod select;
pub mod startmap;
pub mod svg;

pub use animate::{animation_html, replay_warnsdorff, AnimationError, Replay, ReplayEvent};
pub use error::RenderError;
pub use failed::{analyse_failed, CandidateStep, FailedAnalysis, Stranded};
pub use plot::{
    plot_svgs, read_summary, sweep_title, write_plots, Metric, PlotError, PlotFormat, PlotOptions,
    PlotReport, Skip, Summary, SvgPlots, DEFAULT_MAX_SERIES, MIN_TIMED_NS,
};
pub use probmap::{prob_map_svg, ProbPanel};
pub use select::{Filter, UnknownName};
pub use startmap::{
    read_map_input, read_runs, start_map_svg, start_maps, write_start_map, MapError, MapInput,
    MapOptions, MapSelection, StartMap, StartOutcome,
};
pub use svg::{tour_svg, tour_svg_with, Numbers, SvgOptions};

/// Escape text for XML/HTML element content and attribute values.
pub(crate) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
