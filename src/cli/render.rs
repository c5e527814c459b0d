//! `ktour render`: draw a tour record (the JSON of `solve --format json`) as an SVG picture; a failed
//! run (`found: false`) is drawn with its dead end, unvisited and stranded squares and the candidate
//! degrees of its last moves.

use super::args::read_input;
use super::ExitStatus;
use crate::render::{tour_svg_with, Numbers, SvgOptions};
use crate::tour::TourRecord;
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// When to write visit numbers.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum NumbersArg {
    /// Boards up to 30 squares a side.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Arguments of `ktour render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Tour JSON (`-` for standard input), as written by `solve --format json`.
    file: PathBuf,
    /// Output SVG file (standard output when omitted or `-`).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Visit numbers in the squares.
    #[arg(long, value_enum, default_value = "auto")]
    numbers: NumbersArg,
    /// Failed runs: how many of the last squares get their candidates and degrees drawn.
    #[arg(long, default_value_t = 5)]
    last: usize,
}

pub fn run(args: RenderArgs) -> anyhow::Result<ExitStatus> {
    let bytes = read_input(&args.file)?;
    let rec: TourRecord = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{}: malformed tour JSON (expected the output of `solve --format json`)",
            args.file.display()
        )
    })?;
    if let (Some(start), Some(&first)) = (rec.start, rec.squares.first()) {
        if start != first {
            bail!(
                "{}: `start` is {start} but the first square is {first}",
                args.file.display()
            );
        }
    }
    let opts = SvgOptions {
        numbers: match args.numbers {
            NumbersArg::Auto => Numbers::Auto,
            NumbersArg::Always => Numbers::Always,
            NumbersArg::Never => Numbers::Never,
        },
        last_steps: args.last,
    };
    let svg = tour_svg_with(&rec, &opts).with_context(|| format!("{}", args.file.display()))?;
    match args.output {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::write(&path, svg).with_context(|| format!("writing {}", path.display()))?
        }
        _ => std::io::stdout()
            .write_all(svg.as_bytes())
            .context("writing standard output")?,
    }
    Ok(ExitStatus::Success)
}
