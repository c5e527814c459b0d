//! Closing a Hamiltonian path into a Hamiltonian cycle by Posa rotations (L. Posa, "Hamiltonian
//! circuits in random graphs", Discrete Mathematics 14, 1976).
//!
//! A rotation at the end of the path `v0 .. vj vj+1 .. e`, for a knight neighbour `vj` of the end `e`,
//! gives the path `v0 .. vj e .. vj+1` (the tail reversed), whose end is `vj+1`. The closer first looks
//! one rotation ahead (is there a `vj ~ e` with `vj+1 ~ v0`? then one rotation closes the path), at
//! both ends; otherwise it makes a rotation at a random end and a random neighbour, chosen by a fixed-seed
//! generator so that runs are reproducible, and tries again, until its work budget is spent.

use crate::board::{is_knight_move, Board, Square, KNIGHT_DELTAS};

/// Why [`close_path`] did not return a closed tour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CloseError {
    /// The input is not a Hamiltonian path of the board.
    #[error("not a Hamiltonian path of {board}: {why}")]
    NotAPath {
        /// The board.
        board: Board,
        /// What is wrong.
        why: String,
    },
    /// The board has an odd number of squares (or fewer than 3), so no closed tour.
    #[error("{board} has no closed tour to close into")]
    NoCycle {
        /// The board.
        board: Board,
    },
    /// The rotation budget ran out before the ends became a knight move apart.
    #[error("gave up closing the path on {board} after {rotations} rotations")]
    Budget {
        /// The board.
        board: Board,
        /// Rotations made.
        rotations: u64,
    },
}

/// Rotations allowed by [`close_path`].
pub const DEFAULT_ROTATIONS: u64 = 100_000;

/// Turn the Hamiltonian path `path` of `board` into a closed tour, in place, by Posa rotations. On
/// success `path` is a closed tour (same first square when no rotation at the start was needed). On
/// failure `path` is still a Hamiltonian path (possibly rotated). See [`close_path_with`].
pub fn close_path(board: Board, path: &mut [Square]) -> Result<CloseStats, CloseError> {
    close_path_with(board, path, DEFAULT_ROTATIONS)
}

/// What closing took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CloseStats {
    /// Rotations made (each reverses part of the path).
    pub rotations: u64,
    /// Squares moved by the reversals in total.
    pub moved: u64,
}

/// How far [`close_path_observed`] has got: reported after every rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloseProgress {
    /// Rotations made so far.
    pub rotations: u64,
    /// The rotation budget.
    pub max_rotations: u64,
    /// Squares moved by the reversals so far (the work: a rotation on a large board moves up to
    /// the whole path).
    pub moved: u64,
}

/// [`close_path`] with an explicit rotation budget.
pub fn close_path_with(
    board: Board,
    path: &mut [Square],
    max_rotations: u64,
) -> Result<CloseStats, CloseError> {
    close_path_observed(board, path, max_rotations, &mut |_| {})
}

/// [`close_path_with`], calling `progress` after every rotation (a rotation reverses up to the
/// whole path, so on a large board the budget can take minutes: the caller decides when to say so).
pub fn close_path_observed(
    board: Board,
    path: &mut [Square],
    max_rotations: u64,
    progress: &mut dyn FnMut(&CloseProgress),
) -> Result<CloseStats, CloseError> {
    let n = path.len();
    let mut pos = positions(board, path)?;
    let mut stats = CloseStats::default();
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let nbrs = |s: Square| neighbours(board, s);
    loop {
        if stats.rotations > 0 {
            progress(&CloseProgress {
                rotations: stats.rotations,
                max_rotations,
                moved: stats.moved,
            });
        }
        let (first, last) = (path[0], path[n - 1]);
        if is_knight_move(first, last) {
            return Ok(stats);
        }
        if stats.rotations >= max_rotations {
            return Err(CloseError::Budget {
                board,
                rotations: stats.rotations,
            });
        }
        // One rotation ahead at the end: vj ~ last and vj+1 ~ first.
        let mut best: Option<usize> = None;
        for x in nbrs(last) {
            let j = pos[board.index(x) as usize] as usize;
            if j + 1 < n - 1 && is_knight_move(path[j + 1], first) {
                best = Some(best.map_or(j, |b: usize| b.max(j)));
            }
        }
        if let Some(j) = best {
            rotate_tail(board, path, &mut pos, j, &mut stats);
            continue;
        }
        // ... and at the start: vj ~ first and vj-1 ~ last; rotate the head.
        let mut best: Option<usize> = None;
        for x in nbrs(first) {
            let j = pos[board.index(x) as usize] as usize;
            if j > 1 && is_knight_move(path[j - 1], last) {
                best = Some(best.map_or(j, |b: usize| b.min(j)));
            }
        }
        if let Some(j) = best {
            rotate_head(board, path, &mut pos, j, &mut stats);
            continue;
        }
        // No closing move: rotate at a random end.
        match random_rotation(board, path, &pos, &mut rng) {
            None => stats.rotations += 1,
            Some((true, pick)) => rotate_tail(board, path, &mut pos, pick, &mut stats),
            Some((false, pick)) => rotate_head(board, path, &mut pos, pick, &mut stats),
        }
    }
}

/// Each square's position in `path` (indexed by the square's index on `board`), or why `path` is
/// not a Hamiltonian path of `board` that a cycle could close.
fn positions(board: Board, path: &[Square]) -> Result<Vec<u32>, CloseError> {
    let n = path.len();
    if n as u64 != board.len() as u64 {
        return Err(CloseError::NotAPath {
            board,
            why: format!("{n} squares for {} on the board", board.len()),
        });
    }
    if n < 3 || n % 2 == 1 {
        return Err(CloseError::NoCycle { board });
    }
    let mut pos = vec![u32::MAX; n];
    for (i, &s) in path.iter().enumerate() {
        if !board.contains(s.row() as i64, s.col() as i64)
            || pos[board.index(s) as usize] != u32::MAX
        {
            return Err(CloseError::NotAPath {
                board,
                why: format!("square {s} at step {i} is off the board or repeated"),
            });
        }
        if i > 0 && !is_knight_move(path[i - 1], s) {
            return Err(CloseError::NotAPath {
                board,
                why: format!("step {i}: {} -> {s} is not a knight move", path[i - 1]),
            });
        }
        pos[board.index(s) as usize] = i as u32;
    }
    Ok(pos)
}

/// A rotation at a random end when no closing one exists: the end (true for the tail) and the
/// position of the neighbour to rotate at, drawn uniformly from the end's neighbours on the path
/// (preferring short reversals made the walk oscillate near the ends); `None` when that end has
/// none. `rng` is a xorshift state, advanced once.
fn random_rotation(
    board: Board,
    path: &[Square],
    pos: &[u32],
    rng: &mut u64,
) -> Option<(bool, usize)> {
    let n = path.len();
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    let at_end = *rng & 1 == 0;
    let mut cands: [usize; 8] = [0; 8];
    let mut k = 0;
    let (end, fits): (Square, &dyn Fn(usize) -> bool) = if at_end {
        (path[n - 1], &|j| j + 1 < n - 1)
    } else {
        (path[0], &|j| j > 1)
    };
    for x in neighbours(board, end) {
        let j = pos[board.index(x) as usize] as usize;
        if fits(j) {
            cands[k] = j;
            k += 1;
        }
    }
    (k > 0).then(|| (at_end, cands[((*rng >> 8) as usize) % k]))
}

/// The knight's neighbours of `s` on `board`.
fn neighbours(board: Board, s: Square) -> impl Iterator<Item = Square> {
    KNIGHT_DELTAS
        .iter()
        .filter_map(move |&(dr, dc)| s.try_offset(dr, dc, board))
}

/// `v0 .. vj vj+1 .. e` -> `v0 .. vj e .. vj+1`.
fn rotate_tail(
    board: Board,
    path: &mut [Square],
    pos: &mut [u32],
    j: usize,
    stats: &mut CloseStats,
) {
    let seg = &mut path[j + 1..];
    seg.reverse();
    for (i, s) in seg.iter().enumerate() {
        pos[board.index(*s) as usize] = (j + 1 + i) as u32;
    }
    stats.rotations += 1;
    stats.moved += seg.len() as u64;
}

/// `v0 .. vj-1 vj .. e` with `vj ~ v0` -> `vj-1 .. v0 vj .. e`.
fn rotate_head(
    board: Board,
    path: &mut [Square],
    pos: &mut [u32],
    j: usize,
    stats: &mut CloseStats,
) {
    let seg = &mut path[..j];
    seg.reverse();
    for (i, s) in seg.iter().enumerate() {
        pos[board.index(*s) as usize] = i as u32;
    }
    stats.rotations += 1;
    stats.moved += seg.len() as u64;
}
