//! The board transformations of the construction: a tour built on the transposed board and transposed
//! back, and a tour mirrored in rows or columns, so that each plan is written for one orientation and
//! one corner only.
//!
//! Source: the coordinates are those of `docs/REFERENCE.md` (section 1); transposing or mirroring a
//! board maps knight moves to knight moves, so tours to tours.

use super::ConstructError;
use crate::board::{Board, Square};

/// The mirrorings (rows, columns) that take the corner (0,0) to `start`, or `None` if `start` is
/// not a corner; no start counts as (0,0). Plans that begin in a corner are written for (0,0) only.
pub(super) fn corner_flips(board: Board, start: Option<Square>) -> Option<(bool, bool)> {
    let Some(s) = start else {
        return Some((false, false));
    };
    let (fr, fc) = (
        s.row() as u32 + 1 == board.rows(),
        s.col() as u32 + 1 == board.cols(),
    );
    ((fr || s.row() == 0) && (fc || s.col() == 0)).then_some((fr, fc))
}

/// Run `f` on the board transposed when `t`, then transpose the tour back in place.
pub(super) fn with_transpose(
    board: Board,
    t: bool,
    start: Option<Square>,
    out: &mut Vec<Square>,
    f: impl FnOnce(Board, Option<Square>, &mut Vec<Square>) -> Result<(), ConstructError>,
) -> Result<(), ConstructError> {
    let tr = |s: Square| Square::new(s.col(), s.row());
    if !t {
        return f(board, start, out);
    }
    f(board.transposed(), start.map(tr), out)?;
    for s in out.iter_mut() {
        *s = tr(*s);
    }
    Ok(())
}

/// Mirror a tour in place: rows when `flip_r`, columns when `flip_c`.
pub(super) fn reflect(board: Board, flip_r: bool, flip_c: bool, out: &mut [Square]) {
    if !flip_r && !flip_c {
        return;
    }
    let (rm, cm) = (board.rows() as u16 - 1, board.cols() as u16 - 1);
    for s in out.iter_mut() {
        let r = if flip_r { rm - s.row() } else { s.row() };
        let c = if flip_c { cm - s.col() } else { s.col() };
        *s = Square::new(r, c);
    }
}
