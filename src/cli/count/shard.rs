//! `ktour count --shards K --shard I --shared DIR` (one shard of a frontier count) and
//! `ktour count --shards K --shared DIR --collect` (their count): parses and prints; the policy is
//! [`crate::count::frontier::shard`]'s.

use super::format::CountFormat;
use super::CountJson;
use crate::board::{Board, Closure};
use crate::cli::ExitStatus;
use crate::count::frontier::shard::{
    collect_shards_with, count_shard, ShardEvent, ShardOptions, DEFAULT_WAIT,
};
use crate::count::frontier::{PrimeSet, Spill};
use crate::count::{tours_label, CountRequest, Orientation, Starts};
use serde::Serialize;
use std::path::Path;
use std::time::Duration;

/// What `ktour count` was given for a sharded count.
pub(super) struct Sharded<'a> {
    pub(super) board: Board,
    /// `--method frontier` was given (the only method sharded).
    pub(super) frontier: bool,
    pub(super) closure: Closure,
    pub(super) orientation: Orientation,
    pub(super) format: CountFormat,
    pub(super) shards: u32,
    /// `None` with `--collect`.
    pub(super) shard: Option<u32>,
    pub(super) collect: bool,
    pub(super) shared: Option<&'a Path>,
    pub(super) wait: Option<u64>,
    pub(super) max_states: usize,
    pub(super) spill: Option<Spill<'a>>,
}

/// The JSON of `--collect --format json`: `ktour count`'s object (its nodes the transitions of
/// all shards and passes, its peak one shard's, its time the shards' summed, waits included), and
/// the shards'.
#[derive(Debug, Serialize)]
struct CollectedJson {
    #[serde(flatten)]
    count: CountJson,
    shards: u32,
    /// Bytes of runs the shards wrote to the shared folder.
    written_bytes: u64,
}

/// The JSON of one shard's `--format json`.
#[derive(Debug, Serialize)]
struct ShardJson {
    shard: u32,
    shards: u32,
    passes: u32,
    nodes: u64,
    peak_states: u64,
    written_bytes: u64,
    elapsed_ns: u128,
}

/// Run one shard, or collect the shards' count.
pub(super) fn run(args: &Sharded) -> anyhow::Result<ExitStatus> {
    if !args.frontier {
        anyhow::bail!("--shards splits a --method frontier count only: add --method frontier");
    }
    let Some(shared) = args.shared else {
        anyhow::bail!("--shards needs --shared DIR, the folder the shards share");
    };
    let options = ShardOptions {
        shards: args.shards,
        shard: args.shard.unwrap_or(0),
        shared,
        // a shard waits for its peers an hour unless told; the collector only when told
        wait: match args.wait {
            Some(seconds) => Duration::from_secs(seconds),
            None if args.shard.is_none() => Duration::ZERO,
            None => DEFAULT_WAIT,
        },
        max_states: args.max_states,
        primes: PrimeSet::default(),
        spill: args.spill,
    };
    match args.shard {
        None if args.collect => collect(args, &options),
        None => anyhow::bail!(
            "--shards needs --shard I (0 to K - 1) to run a shard, or --collect to print the count"
        ),
        Some(shard) => {
            let done = count_shard(args.board, args.closure, &options, &mut reporter(shard))?;
            match args.format {
                CountFormat::Json => {
                    let json = ShardJson {
                        shard,
                        shards: args.shards,
                        passes: done.passes,
                        nodes: done.transitions,
                        peak_states: done.peak_states,
                        written_bytes: done.written_bytes,
                        elapsed_ns: done.elapsed.as_nanos(),
                    };
                    println!("{}", serde_json::to_string(&json)?);
                }
                _ => println!(
                    "shard {shard} of {} on {} (frontier): finished, {} transitions, peak {} states, {} bytes written to the shared folder, {} passes, in {:.3} s; the count: the same command with --collect in place of --shard",
                    args.shards, args.board, done.transitions, done.peak_states, done.written_bytes, done.passes,
                    done.elapsed.as_secs_f64()
                ),
            }
            Ok(ExitStatus::Success)
        }
    }
}

/// `--collect`: the count, printed as `ktour count` prints it.
fn collect(args: &Sharded, options: &ShardOptions) -> anyhow::Result<ExitStatus> {
    let mut waiting = |missing: &[u32], waited: Duration| {
        eprintln!(
            "collect: waiting {:.0} s for shard(s) {missing:?}",
            waited.as_secs_f64()
        )
    };
    let collected = collect_shards_with(args.board, args.closure, options, &mut waiting)?;
    let result = collected.count;
    let total = match args.orientation {
        Orientation::Undirected => result.undirected.clone(),
        Orientation::Directed => result.directed(),
    };
    match args.format {
        CountFormat::Json => {
            let request = CountRequest {
                board: args.board,
                closure: args.closure,
                orientation: args.orientation,
                starts: Starts::All,
            };
            let json = CollectedJson {
                count: CountJson::of_frontier(&request, &total, &result),
                shards: args.shards,
                written_bytes: collected.written_bytes,
            };
            println!("{}", serde_json::to_string(&json)?);
        }
        CountFormat::Bfile => println!("{} {total}", args.board.cols()),
        CountFormat::Text => {
            println!(
                "{} on {} (frontier, {} shards): {} transitions, peak {} states in one shard, {} bytes exchanged, {} passes, {:.3} s summed over the shards",
                tours_label(args.closure, args.orientation), args.board, args.shards, result.transitions,
                result.peak_states, collected.written_bytes, result.passes, result.elapsed.as_secs_f64()
            );
            println!("{total}");
        }
    }
    Ok(ExitStatus::Success)
}

/// What a shard says on standard error: a line a row, where it resumed, each pass past the
/// first, and every ten seconds of waiting.
fn reporter(shard: u32) -> impl FnMut(ShardEvent) {
    let mut pass = 0;
    move |event| match event {
        ShardEvent::Square(p) => {
            if p.pass != pass {
                pass = p.pass;
                eprintln!(
                    "shard {shard}: pass {pass} counts modulo the prime {}",
                    p.modulus
                );
            }
            if p.row_end {
                eprintln!(
                    "shard {shard}: row {}/{}: {} states, {:.1} s",
                    p.rows_done,
                    p.rows,
                    p.states,
                    p.elapsed.as_secs_f64()
                );
            }
        }
        ShardEvent::Resumed { pass, square } => {
            eprintln!("shard {shard}: resumed pass {pass} before square {square}")
        }
        ShardEvent::Waiting { missing, waited } => eprintln!(
            "shard {shard}: waiting {:.0} s for shard(s) {missing:?}",
            waited.as_secs_f64()
        ),
    }
}
