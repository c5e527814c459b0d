//! Refuse, with an estimate, a board whose search state would not fit in memory, instead of dying in
//! the allocator.

use super::Method;
use crate::board::{Board, Layout};
use crate::memory::{available_bytes, fits_in};

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
/// (1 B) per square, plus a 16-byte DFS frame per square for `backtrack`, and for `naive` an 8-byte
/// frame per square and a byte per padded square (its loop keeps no degrees). (Batched pure
/// Warnsdorff keeps no path and needs about 1 B per square and lane, an interleaved walk; see
/// `benches/README.md`.)
pub fn estimate_bytes(board: Board, method: Method) -> u64 {
    let padded = Layout::new(board).len() as u64;
    let squares = board.len() as u64;
    let frames = match method {
        Method::Warnsdorff => 0,
        // the closer copies the path and keeps a position per padded square
        Method::Rotate => 12 * squares,
        Method::Backtrack => 16 * squares,
        Method::Naive => 8 * squares + padded,
    };
    2 * padded + 5 * squares + frames
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

/// Bytes the search on any board (`solve::shaped`) takes for a shape on `board`: per square of the
/// board its vertex number (4 B); per square of the shape its square (4 B), its neighbours twice
/// (with and without the sentinel, 64 B), its initial and current degree (8 B), its centre key (8 B),
/// its place on the path (4 B) and for the searches a 40-byte frame; the necessary conditions' walk
/// a byte per square of the board.
pub fn shaped_estimate_bytes(board: Board, method: Method) -> u64 {
    let squares = board.len() as u64;
    let frames = match method {
        Method::Backtrack | Method::Naive => 40 * squares,
        _ => 0,
    };
    5 * squares + 92 * squares + frames
}

/// Whether the search on any board fits for `board` ([`shaped_estimate_bytes`]).
pub(super) fn check_shaped(board: Board, method: Method) -> Result<(), MemoryError> {
    let needed = shaped_estimate_bytes(board, method);
    let available = available_bytes();
    if !fits_in(needed, available) {
        return Err(MemoryError {
            board,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}
