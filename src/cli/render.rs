//! `ktour render`: draw a tour record (the JSON of `solve --format json`, `r,c` lines or the binary
//! format) as an SVG picture; a failed run (`found: false`, or lines that stop short of a tour) is
//! drawn with its dead end, unvisited and stranded squares and the candidate degrees of its last
//! moves.

use super::args::read_tour_input;
use super::{BoardArgs, ExitStatus};
use crate::board::Board;
use crate::render::{tour_svg_with, Numbers, SvgOptions};
use crate::tour::{is_json, parse_record, parse_tour, TourRecord};
use crate::verify::{verify_path_on, verify_tour, verify_tour_on, TourKind, VerifyError};
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
    /// Tour file (`-` for standard input): the JSON of `solve --format json`, `r,c` lines (one square
    /// a line, with the board size) or `solve --format bin`.
    file: PathBuf,
    /// Board size, required for `r,c` lines.
    #[command(flatten)]
    board: BoardArgs,
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
    let bytes = read_tour_input(&args.file, args.board.board_opt()?)?;
    let rec = load(&bytes, &args)?;
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
            std::fs::write(&path, svg).with_context(|| format!("writing {}", path.display()))?;
            // as `plot` and `animate` do; an SVG on standard output stays the output alone
            println!("wrote {}", path.display());
        }
        _ => std::io::stdout()
            .write_all(svg.as_bytes())
            .context("writing standard output")?,
    }
    Ok(ExitStatus::Success)
}

/// The record to draw: JSON as written (it may carry a failed run's method, rule and counters); other
/// formats carry only squares, so whether they are a tour, and closed, is what the verifier says, and
/// squares that stop short of a tour are drawn as a failed run. Either way the squares are checked
/// first: a picture titled "tour" is one the verifier accepts.
fn load(bytes: &[u8], args: &RenderArgs) -> anyhow::Result<TourRecord> {
    let name = args.file.display();
    if is_json(bytes) {
        let rec = parse_record(bytes)
            .with_context(|| format!("{name}: expected the output of `solve --format json`"))?;
        check_record(&rec, args.board.board_opt()?).with_context(|| format!("{name}"))?;
        return Ok(rec);
    }
    let tour = parse_tour(bytes, args.board.board_opt()?).with_context(|| format!("{name}"))?;
    let kind = match verify_tour(tour.board, &tour.squares) {
        Ok(kind) => Some(kind),
        // a knight path that stops short: drawn as the failed run it is
        Err(VerifyError::Short { .. }) => None,
        Err(e) => bail!("{name}: not a knight path: {e}"),
    };
    Ok(TourRecord {
        rows: tour.board.rows(),
        cols: tour.board.cols(),
        closed: kind == Some(TourKind::Closed) && tour.claims_closed != Some(false),
        start: tour.squares.first().copied(),
        found: kind.is_some(),
        squares: tour.squares,
        method: String::new(),
        rule: String::new(),
        stats: Default::default(),
        leaper: None,
        holes: Vec::new(),
    })
}

/// A JSON record is drawn as it says, so it must say the truth: its board is the one given (if
/// any), its squares are a knight path, and a record of a found tour holds a tour (closed if it says
/// so). A failed run's path may stop short, or cover the board without closing (`--closed`).
fn check_record(rec: &TourRecord, given: Option<Board>) -> anyhow::Result<()> {
    let board = Board::new(u64::from(rec.rows), u64::from(rec.cols))?;
    if let Some(b) = given {
        if b != board {
            bail!("the file is for a {board} board but {b} was given");
        }
    }
    if rec.squares.is_empty() {
        bail!("the record has no squares");
    }
    // its holes and leaper, when it names them (a run with --mask or --leaper)
    let shape = rec.shape()?;
    verify_path_on(&shape, &rec.squares).context("not a path of the record's board")?;
    if rec.found {
        let kind = verify_tour_on(&shape, &rec.squares).context("the record says `found: true`")?;
        if rec.closed && kind != TourKind::Closed {
            bail!(
                "the record says closed, but the last square {} is not a knight move from the first {}",
                rec.squares[rec.squares.len() - 1],
                rec.squares[0]
            );
        }
    }
    Ok(())
}
