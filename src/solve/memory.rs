//! Refuse, with an estimate, a board whose search state would not fit in memory, instead of dying in
//! the allocator.

use super::Method;
use crate::board::{Board, Layout};

/// The search state for this board would not fit.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the {board} board needs about {needed_mib} MiB of search state but only {available_mib} MiB is available; use a smaller board (or --method construct for huge boards)")]
pub struct MemoryError {
    /// The board.
    pub board: Board,
    /// Estimated need.
    pub needed_mib: u64,
    /// Available memory.
    pub available_mib: u64,
}

/// Bytes of search state for `board` with `method` in a single run (`Solver::run`): the padded degree
/// array and its empty-board copy (1 B each per padded square), the path (4 B) and saved degrees
/// (1 B) per square, plus a 16-byte DFS frame per square for the searches. (Batched pure Warnsdorff
/// keeps no path and needs about 1 B per square and lane; see `benches/README.md`.)
pub fn estimate_bytes(board: Board, method: Method) -> u64 {
    let padded = Layout::new(board).len() as u64;
    let squares = board.len() as u64;
    let frames = match method {
        Method::Warnsdorff => 0,
        // the closer copies the path and keeps a position per padded square
        Method::Rotate => 12 * squares,
        Method::Backtrack | Method::Naive => 16 * squares,
    };
    2 * padded + 5 * squares + frames
}

/// Bytes one sweep worker needs for `method` on `board`: a search's state ([`estimate_bytes`]), or
/// for pure Warnsdorff, which a sweep batches, one padded degree array per interleaved lane (`lanes`
/// of them) plus the path-free run state.
pub fn worker_bytes(board: Board, method: Method, lanes: usize) -> u64 {
    match method {
        Method::Warnsdorff => lanes.max(1) as u64 * Layout::new(board).len() as u64,
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

/// Whether `needed` bytes are within the share of `available` that ktour lets itself take: 80%, so
/// that the estimates' slack and the rest of the machine have room. Every memory check uses it.
pub fn fits_in(needed: u64, available: u64) -> bool {
    needed <= available / 10 * 8
}

/// Available memory in bytes: `MemAvailable` from /proc/meminfo, else 4 GiB.
pub fn available_bytes() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(4 << 30, |kb| kb * 1024)
}

/// Whether a search on `board` fits: within 80% of available memory, and padded indexes within `u32`.
pub(super) fn check(board: Board, method: Method) -> Result<(), MemoryError> {
    let needed = estimate_bytes(board, method);
    let available = available_bytes();
    let padded_fits_u32 = Layout::new(board).len() as u64 <= u32::MAX as u64;
    if !fits_in(needed, available) || !padded_fits_u32 {
        return Err(MemoryError {
            board,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}
