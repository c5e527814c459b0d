//! `ktour verify`: read a tour file and run the independent verifier on it.

use super::args::{open_tour_input, TourInput};
use super::{BoardArgs, ExitStatus, ShapeArgs};
use crate::board::Shape;
use crate::tour::{parse_tour, BinStream};
use crate::verify::{
    verify_bin_stream, verify_tour, verify_tour_on, StreamedTour, TourKind, VerifyError,
};
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `ktour verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Tour file (`-` for standard input): the JSON of `solve --format json`, or `r,c` lines.
    file: PathBuf,
    /// Board size, required for `r,c` lines.
    #[command(flatten)]
    board: BoardArgs,
    /// The leaper and holes the tour is on, when the file does not say (a JSON record of a run
    /// with --leaper or --mask says so itself).
    #[command(flatten)]
    shape: ShapeArgs,
    /// Require a closed tour.
    #[arg(long)]
    closed: bool,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitStatus> {
    // a leaper alone takes the board from the file
    let sized = args.shape.mask.is_some() || args.board.board_opt()?.is_some();
    let asked = match args.shape.given() && sized {
        true => Some(args.shape.shape(args.board.board_opt()?)?),
        false => None,
    };
    let leaper_only = (asked.is_none() && args.shape.leaper.is_some())
        .then(|| args.shape.leaper())
        .transpose()?;
    let given = match &asked {
        Some(s) => Some(s.board()),
        None => args.board.board_opt()?,
    };
    let name = args.file.display();
    let (verdict, claims_closed, claims_found, ends) = match open_tour_input(
        &args.file, given, true,
    )? {
        TourInput::Bytes(bytes) => {
            let tour = parse_tour(&bytes, given).with_context(|| format!("{name}"))?;
            let ends = tour.squares.first().zip(tour.squares.last());
            let ends = ends.map(|(&first, &last)| (first, last));
            let asked = asked
                .clone()
                .or_else(|| leaper_only.map(|l| Shape::full(tour.board).with_leaper(l)));
            let verdict = match asked.as_ref().or(tour.shape.as_ref()) {
                Some(shape) => {
                    if let (Some(a), Some(f)) = (&asked, &tour.shape) {
                        anyhow::ensure!(
                            a == f,
                            "{name}: the file is a tour on {f}, but {a} was given"
                        );
                    }
                    verify_tour_on(shape, &tour.squares)
                }
                None => verify_tour(tour.board, &tour.squares),
            };
            (verdict, tour.claims_closed, tour.claims_found, ends)
        }
        TourInput::Binary { .. }
            if asked.as_ref().is_some_and(|s| !s.is_full_knight())
                || leaper_only.is_some_and(|l| l != crate::board::Leaper::KNIGHT) =>
        {
            anyhow::bail!("{name}: binary tours are of whole boards walked by the knight; --leaper and --mask take JSON or `r,c` lines")
        }
        TourInput::Binary { source, file_len } => {
            let tour = verify_streamed(source, given, file_len, &args.file)
                .with_context(|| format!("{name}"))?;
            (tour.verdict, Some(tour.closed), None, tour.ends)
        }
    };
    let kind = match verdict {
        Ok(kind) => kind,
        Err(e) => {
            println!("invalid: {e}");
            return Ok(ExitStatus::NotFound);
        }
    };
    let must_close = args.closed || claims_closed == Some(true);
    if let (true, TourKind::Open, Some((first, last))) = (must_close, kind, ends) {
        // say who wanted it closed: the file, or only the flag
        let asked = match claims_closed {
            Some(true) => "claimed closed",
            _ => "--closed asks for a closed tour",
        };
        println!(
            "invalid: {asked}, but the last square {last} is not a move from the first {first}"
        );
        return Ok(ExitStatus::NotFound);
    }
    if claims_found == Some(false) {
        println!("invalid: the file says `found: false` but the squares form a {kind}");
        return Ok(ExitStatus::NotFound);
    }
    println!("valid {kind}");
    Ok(ExitStatus::Success)
}

/// A binary tour checked as it streams ([`verify_bin_stream`]), once its header's board is known to
/// fit in memory at a bit per square. A repeat in a regular file gets the step of its first visit
/// from a second read.
fn verify_streamed(
    source: impl std::io::Read,
    given: Option<crate::board::Board>,
    file_len: Option<u64>,
    path: &std::path::Path,
) -> anyhow::Result<StreamedTour> {
    let stream = BinStream::open(source, given, file_len)?;
    let board = stream.header().board;
    let needed = u64::from(board.len()) / 8;
    let available = crate::memory::available_bytes();
    anyhow::ensure!(
        crate::memory::fits_in(needed, available),
        "checking a {board} tour needs {} MiB (a bit per square) but {} MiB are available",
        needed >> 20,
        available >> 20
    );
    let mut tour = verify_bin_stream(stream)?;
    if let (Err(VerifyError::Repeat { square, first, .. }), Some(_)) = (&mut tour.verdict, file_len)
    {
        let (mut step, mut seen) = (0usize, None);
        let file = std::fs::File::open(path)?;
        BinStream::open(file, given, file_len)?.squares(|s| {
            if s == *square && seen.is_none() {
                seen = Some(step);
            }
            step += 1;
        })?;
        *first = seen;
    }
    Ok(tour)
}
