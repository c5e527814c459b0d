//! `ktour count --method frontier`: the frontier's options from the flags, one board's count or a
//! whole sequence (`--cols A..=B`, [`count_lengths`]), and the progress lines it prints on
//! standard error; the method is [`crate::count::frontier`]'s.

use super::{CountArgs, CountFormat, CountJson, CountMethod, Printed};
use crate::board::{Board, Closure};
use crate::cli::args::Cols;
use crate::cli::ExitStatus;
use crate::count::frontier::{
    count_frontier_opts, count_lengths, FrontierOptions, FrontierProgress, PrimeSet, Spill,
};
use crate::count::{tours_label, CountError, CountRequest, Orientation};
use anyhow::Context;
use serde::Serialize;

/// The JSON output of `ktour count --rows R --cols A..=B --format json`.
#[derive(Debug, Serialize)]
struct LengthsJson {
    /// Board rows, the side that stays.
    rows: u32,
    /// The first and last lengths counted.
    cols_first: u32,
    cols_last: u32,
    closed: bool,
    directed: bool,
    method: &'static str,
    /// The number of tours of each length, `{"cols": n, "count": "..."}`, a decimal string.
    counts: Vec<serde_json::Value>,
    /// State transitions, over all passes.
    nodes: u64,
    peak_states: usize,
    /// Passes over the board: 1, or 1 and one a prime when the ways passed their bits.
    passes: u32,
    elapsed_ns: u128,
}

/// `--rows R --cols A..=B`: the tours of every board R x n, A <= n <= B, from one frontier run over
/// R x B ([`count_lengths`]), printed one length a line.
pub(super) fn count_lengths_of(
    args: &CountArgs,
    rows: u64,
    cols: Cols,
) -> anyhow::Result<ExitStatus> {
    if args.method != CountMethod::Frontier {
        anyhow::bail!(
            "--cols A..=B is counted by --method frontier only (one run over the longest board)"
        );
    }
    if args.shape.given() || args.start.is_some() || args.per_start || args.no_symmetry {
        anyhow::bail!("--cols A..=B counts whole knight's boards over all starts: drop --mask, --leaper, --start, --per-start and --no-symmetry");
    }
    let board = Board::new(rows, cols.last).context("invalid board size")?;
    let closure = Closure::of(args.closed);
    let orientation = Orientation::asked(closure, args.undirected, args.directed);
    let result = count_lengths(
        board,
        closure,
        &frontier_options(args),
        &mut frontier_reporter(),
    )
    .map_err(|e| checkpoint_named(args, e))?;
    let count = |n: u32| match orientation {
        Orientation::Undirected => result.undirected[n as usize - 1].clone(),
        Orientation::Directed => result.directed(n),
    };
    let lengths = cols.first as u32..=cols.last as u32;
    let kind = tours_label(closure, orientation);
    match args.format {
        CountFormat::Json => {
            let counts = lengths
                .clone()
                .map(|n| serde_json::json!({"cols": n, "count": count(n).to_string()}))
                .collect();
            let json = LengthsJson {
                rows: board.rows(),
                cols_first: *lengths.start(),
                cols_last: *lengths.end(),
                closed: closure.is_closed(),
                directed: orientation == Orientation::Directed,
                method: "frontier",
                counts,
                nodes: result.transitions,
                peak_states: result.peak_states,
                passes: result.passes,
                elapsed_ns: result.elapsed.as_nanos(),
            };
            println!("{}", serde_json::to_string(&json)?);
        }
        format => {
            if format == CountFormat::Text {
                println!(
                    "{kind} on {rows} x n, n = {}..={} (frontier, one run): {} transitions, peak {} states, {} passes, in {:.3} s",
                    lengths.start(), lengths.end(), result.transitions, result.peak_states, result.passes,
                    result.elapsed.as_secs_f64()
                );
            }
            for n in lengths {
                println!("{n} {}", count(n));
            }
        }
    }
    Ok(ExitStatus::Success)
}

/// The frontier's options of `args`.
pub(super) fn frontier_options(args: &CountArgs) -> FrontierOptions<'_> {
    FrontierOptions {
        max_states: args.max_states,
        checkpoint: args.checkpoint.as_deref(),
        spill: args
            .memory
            .zip(args.temp.as_deref())
            .map(|(memory, temp)| Spill { memory, temp }),
        primes: PrimeSet {
            bits: 60,
            skip: args.skip_primes,
        },
        ..FrontierOptions::default()
    }
}

/// A frontier count's error, with the checkpoint's path when the checkpoint is what failed (the
/// spill folder's when spilling did).
fn checkpoint_named(args: &CountArgs, e: CountError) -> anyhow::Error {
    match (&args.checkpoint, &args.temp, e) {
        (Some(path), _, e @ CountError::FrontierCheckpoint { .. }) => {
            anyhow::anyhow!("{}: {e}", path.display())
        }
        (_, Some(path), e @ CountError::FrontierSpill { .. }) => {
            anyhow::anyhow!("{}: {e}", path.display())
        }
        (_, _, e) => e.into(),
    }
}

/// The frontier method on a whole knight's board ([`crate::count::engine::Engine::Frontier`]), saying how it goes on
/// standard error ([`frontier_reporter`]).
pub(super) fn count_by_frontier(
    args: &CountArgs,
    request: &CountRequest,
) -> anyhow::Result<Printed> {
    let (board, closure) = (request.board, request.closure);
    let mut report = frontier_reporter();
    let result = count_frontier_opts(board, closure, &frontier_options(args), &mut report)
        .map_err(|e| checkpoint_named(args, e))?;
    let total = match request.orientation {
        Orientation::Undirected => result.undirected.clone(),
        Orientation::Directed => result.directed(),
    };
    let count = total.to_string();
    let json = CountJson::of_frontier(request, &total, &result);
    let kind = tours_label(closure, request.orientation);
    Ok(Printed {
        json,
        line: format!(
            "{kind} on {board} (frontier): {} transitions, peak {} states, {}in {:.3} s",
            result.transitions,
            result.peak_states,
            match result.spilled_runs {
                0 => String::new(),
                runs => format!("{runs} runs spilled to disk, "),
            },
            result.elapsed.as_secs_f64()
        ),
        count,
        per_start_table: None,
    })
}

/// What the frontier method says on standard error as it counts: a line a row, a line a square
/// while squares take long (a count of hours shows it moves), each pass past the first, and where
/// a count resumed.
fn frontier_reporter() -> impl FnMut(&FrontierProgress) {
    let mut last_line = std::time::Duration::ZERO;
    let (mut pass, mut exact_bits) = (0, 0);
    move |p: &FrontierProgress| {
        if p.pass == 0 && p.ways_bits != exact_bits {
            if exact_bits != 0 {
                eprintln!(
                    "frontier: the largest ways neared 2^{exact_bits} before square {}; the exact pass goes on with {}-bit ways",
                    p.squares_done, p.ways_bits
                );
            }
            exact_bits = p.ways_bits;
        }
        if p.pass != pass {
            pass = p.pass;
            let why = if pass == 1 {
                // a count resumed in a prime's pass saw no exact pass: its ways' bits are the same
                let bits = if exact_bits == 0 {
                    p.ways_bits
                } else {
                    exact_bits
                };
                format!("a state's ways passed 2^{bits}; ")
            } else {
                String::new()
            };
            eprintln!(
                "frontier: {why}pass {} counts modulo the prime {}",
                p.pass, p.modulus
            );
        }
        if p.resumed_from > 0 && p.squares_done == p.resumed_from + 1 {
            let from = if p.from_base {
                "started from the exact pass's base (its states before the wrap, reduced)"
            } else {
                "resumed from the checkpoint"
            };
            eprintln!(
                "frontier: {from} after square {} of {}",
                p.resumed_from, p.squares
            );
        }
        if !p.row_end && p.elapsed < last_line + std::time::Duration::from_secs(10) {
            return;
        }
        last_line = p.elapsed;
        let spilled = match p.spilled_runs {
            0 => String::new(),
            runs => format!(" ({runs} runs spilled)"),
        };
        eprintln!(
            "frontier: {} {}/{}: {} states{spilled}, {:.1} s",
            if p.row_end { "row" } else { "square" },
            if p.row_end {
                p.rows_done
            } else {
                p.squares_done
            },
            if p.row_end { p.rows } else { p.squares },
            p.states,
            p.elapsed.as_secs_f64()
        );
    }
}
