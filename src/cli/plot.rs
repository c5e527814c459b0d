//! `ktour plot`: sweep plots from a summary CSV: success rate per board size with one line per rule
//! (written to `-o`), and beside it `STEM-backtracks.EXT` and `STEM-throughput.EXT`.

use super::ExitStatus;
use crate::render::{read_summary, write_plots, Metric, PlotOptions};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `ktour plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Summary CSV written by a sweep.
    summary: PathBuf,
    /// Output file, `.svg` or `.png`: the success-rate plot (or the one --metric); the other metrics
    /// go beside it as STEM-backtracks.EXT and STEM-throughput.EXT.
    #[arg(long, short = 'o')]
    output: PathBuf,
    /// Also write a PNG next to every SVG.
    #[arg(long)]
    png: bool,
    /// Plot only this metric, into --output.
    #[arg(long, value_enum)]
    metric: Option<Metric>,
    /// Title (default: `spec.name` from meta.json beside the CSV, else the CSV's folder name).
    #[arg(long)]
    title: Option<String>,
    /// Image width in pixels.
    #[arg(long, default_value_t = 900, value_parser = clap::value_parser!(u32).range(200..=8000))]
    width: u32,
    /// Image height in pixels.
    #[arg(long, default_value_t = 560, value_parser = clap::value_parser!(u32).range(150..=8000))]
    height: u32,
}

pub fn run(args: PlotArgs) -> anyhow::Result<ExitStatus> {
    let summary = read_summary(&args.summary, args.title.as_deref())?;
    let opts = PlotOptions {
        output: args.output,
        metric: args.metric,
        png: args.png,
        size: (args.width, args.height),
    };
    for path in write_plots(&summary, &opts)? {
        println!("wrote {}", path.display());
    }
    Ok(ExitStatus::Success)
}
