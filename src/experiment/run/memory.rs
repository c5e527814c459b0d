//! The memory of a sweep's workers: what one worker needs on a board, and whether all of them fit.

use crate::board::{Board, Layout};
use crate::memory::{available_bytes, fits_in};
use crate::solve::{estimate_bytes, Method};

/// Bytes one sweep worker needs for `method` on `board`: a search's state ([`estimate_bytes`]), or
/// for pure Warnsdorff, which a sweep batches, one padded degree array and its slack per
/// interleaved lane (`lanes` of them) plus the path-free run state, and on boards of at most 64
/// squares the most a tie tree holds ([`crate::solve::tie_tree_bytes`]; the workers share their
/// trees, so there are at most as many as workers).
pub fn worker_bytes(board: Board, method: Method, lanes: usize) -> u64 {
    match method {
        Method::Warnsdorff => {
            lanes.max(1) as u64 * (Layout::new(board).len() + crate::solve::LANE_SLACK) as u64
                + crate::solve::tie_tree_bytes(board)
        }
        _ => estimate_bytes(board, method),
    }
}

/// `workers` sweep workers would not fit in memory together.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{workers} workers on the {board} board need about {needed_mib} MiB together but only {available_mib} MiB is available; use fewer --threads (or a smaller --lane-memory, or smaller boards)")]
pub struct SweepMemoryError {
    /// Worker threads.
    pub workers: usize,
    /// The board that needs the most.
    pub board: Board,
    /// Estimated need of all workers.
    pub needed_mib: u64,
    /// Available memory.
    pub available_mib: u64,
}

/// Whether `workers` workers, each needing `per_worker` bytes at most (on `board`, the board that
/// needs the most), fit within 80% of available memory.
pub fn check_workers(
    board: Board,
    per_worker: u64,
    workers: usize,
) -> Result<(), SweepMemoryError> {
    let needed = per_worker.saturating_mul(workers as u64);
    let available = available_bytes();
    if !fits_in(needed, available) {
        return Err(SweepMemoryError {
            workers,
            board,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}

/// Bytes a sweep holds per group it runs: its number, its tally and its dead ends by length
/// ([`crate::experiment::Tallies`]), until the summary is written from them; as if every group had dead ends,
/// at one length (16 bytes), as a group's runs dead-end at a few lengths if at all.
pub const TALLY_BYTES: u64 = (std::mem::size_of::<(u32, crate::experiment::Tally)>()
    + std::mem::size_of::<(u32, usize)>()
    + std::mem::size_of::<(u32, u64)>()) as u64;

/// A sweep's tallies would not fit in memory beside its workers.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the sweep's tallies of {groups} groups (board x rule x method), with their dead ends by length, need about {needed_mib} MiB with its workers, but only {available_mib} MiB is available; run it in shards (--shard I/K): each holds the tallies of its own groups")]
pub struct TallyMemoryError {
    /// Groups whose tallies would be held.
    pub groups: u64,
    /// Estimated need, the workers' included.
    pub needed_mib: u64,
    /// Available memory.
    pub available_mib: u64,
}

/// Whether the tallies of `groups` groups fit beside workers that need `workers_bytes` together.
pub fn check_tallies(groups: u64, workers_bytes: u64) -> Result<(), TallyMemoryError> {
    let needed = groups
        .saturating_mul(TALLY_BYTES)
        .saturating_add(workers_bytes);
    let available = available_bytes();
    if !fits_in(needed, available) {
        return Err(TallyMemoryError {
            groups,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}
