//! `ktour plot`: sweep plots from a summary CSV: success rate per board size with one line per rule
//! (written to `-o`), and beside it `STEM-backtracks.EXT` when it carries information (and
//! `STEM-throughput.EXT` with `--throughput`); with `--map`, start-square maps from a runs.csv.

use super::{BoardArgs, ExitStatus};
use crate::render::{
    read_map_input, read_summary, start_maps, write_plots, write_start_map, Filter, MapOptions,
    MapSelection, Metric, PlotOptions, DEFAULT_MAX_SERIES,
};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `ktour plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Summary CSV written by a sweep (with --map: its runs.csv).
    summary: PathBuf,
    /// Draw start-square maps from a runs.csv instead: every start of each board x rule x method,
    /// coloured by how its runs ended.
    #[arg(long, conflicts_with_all = ["metric", "max_series"])]
    map: bool,
    /// With --map: only this board.
    #[command(flatten)]
    board: BoardArgs,
    /// Output file, `.svg` or `.png`: the success-rate plot (or the one --metric); the other metrics
    /// go beside it as STEM-backtracks.EXT (and STEM-throughput.EXT), unless they would be empty.
    #[arg(long, short = 'o')]
    output: PathBuf,
    /// Also plot throughput (nodes per second) beside it, as STEM-throughput.EXT: it measures the
    /// machine the sweep ran on, not the rules.
    #[arg(long, conflicts_with_all = ["metric", "map"])]
    throughput: bool,
    /// Also write a PNG next to every SVG.
    #[arg(long)]
    png: bool,
    /// Plot only this metric, into --output (drawn even when flat).
    #[arg(long, value_enum)]
    metric: Option<Metric>,
    /// Only these rules (comma-separated, as the CSV names them).
    #[arg(long, value_delimiter = ',')]
    rules: Option<Vec<String>>,
    /// Only these methods (comma-separated: warnsdorff, backtrack, ...).
    #[arg(long, value_delimiter = ',')]
    methods: Option<Vec<String>>,
    /// Most series on one plot; later ones in file order are left out and named on stderr.
    #[arg(long, default_value_t = DEFAULT_MAX_SERIES as u16, value_parser = clap::value_parser!(u16).range(1..=64))]
    max_series: u16,
    /// Title (default: `spec.name` from meta.json beside the CSV, else the CSV's folder name).
    #[arg(long)]
    title: Option<String>,
    /// Image width in pixels (a --map sizes itself).
    #[arg(long, default_value_t = 900, value_parser = clap::value_parser!(u32).range(200..=8000))]
    width: u32,
    /// Image height in pixels (a --map sizes itself).
    #[arg(long, default_value_t = 560, value_parser = clap::value_parser!(u32).range(150..=8000))]
    height: u32,
}

pub fn run(args: PlotArgs) -> anyhow::Result<ExitStatus> {
    let filter = Filter {
        rules: args.rules.clone(),
        methods: args.methods.clone(),
    };
    let board = args.board.board_opt()?;
    if args.map {
        let input = read_map_input(&args.summary, args.title.as_deref())?;
        let sel = MapSelection {
            filter,
            board: board.map(|b| (b.rows(), b.cols())),
            mask: input.mask,
        };
        let maps = start_maps(&input.runs, &sel)?;
        let opts = MapOptions {
            output: args.output,
            png: args.png,
            title: input.title,
        };
        for path in write_start_map(&maps, &opts)? {
            println!("wrote {}", path.display());
        }
        return Ok(ExitStatus::Success);
    }
    if board.is_some() {
        anyhow::bail!("--size, --rows and --cols choose the board of a --map");
    }
    let summary = read_summary(&args.summary, args.title.as_deref())?;
    let opts = PlotOptions {
        output: args.output,
        metric: args.metric,
        throughput: args.throughput,
        png: args.png,
        size: (args.width, args.height),
        filter,
        max_series: usize::from(args.max_series),
    };
    let report = write_plots(&summary, &opts)?;
    if !report.left_out.is_empty() {
        eprintln!(
            "left out by --max-series {}: {}",
            opts.max_series,
            report.left_out.join(", ")
        );
    }
    for path in &report.written {
        println!("wrote {}", path.display());
    }
    for (path, why) in &report.skipped {
        println!("skipped {}: {why}", path.display());
    }
    Ok(ExitStatus::Success)
}
