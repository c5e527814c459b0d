//! The block tilings of boards with both sides at least 5: closed tours on boards with an even side
//! (bands of height 6, 8 or 10 cut into blocks of width 5..10, each a closed base tour) and open tours
//! on odd x odd boards (one odd block holds a Hamiltonian path, every other block a cycle), with the
//! helpers that the strips share (the block holding a square, the root of a closed walk, the
//! committed path bases).
//!
//! Sources: I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete Applied
//! Mathematics 73 (1997) (closed tours from structured blocks); S.-S. Lin and C.-L. Wei, "Optimal
//! algorithms for constructing knight's tours on arbitrary n x m chessboards", Discrete Applied
//! Mathematics 146 (2005) (open tours on odd boards); `docs/REFERENCE.md`, section 8.

use super::bases::{self, Base, BaseSpec, Family, Shape};
use super::build::{bands_from, part_from, split, BlockTiling, RootStart};
use super::search::Goal;
use super::transform::{corner_flips, reflect};
use super::{ConstructError, START_BLOCK_BUDGET};
use crate::board::{Board, Square};

/// Block heights of an even side (bands of closed blocks) and widths under them.
const EVEN_SIZES: [u8; 3] = [8, 6, 10];
const ANY_SIZES: [u8; 6] = [8, 6, 10, 7, 9, 5];

/// The block `(band, block)` holding square `s`, and `s` in its local coordinates.
fn locate(l: &BlockTiling, s: Square) -> ((usize, usize), (u8, u8)) {
    let r = s.row() as u32;
    let i = l.bands.iter().rposition(|b| b.r0 <= r).unwrap();
    let band = l.bands[i];
    let c = s.col() as u32;
    let part = &l.parts[band.part as usize];
    let j = part.iter().rposition(|&(c0, _)| c0 <= c).unwrap();
    ((i, j), ((r - band.r0) as u8, (c - part[j].0) as u8))
}

/// Closed tour, rows even and >= 6, cols >= 5.
pub(super) fn closed_grid(board: Board, start: Option<Square>) -> BlockTiling {
    let heights = split(board.rows(), &EVEN_SIZES).expect("even rows >= 6");
    let widths = split(board.cols(), &ANY_SIZES).expect("cols >= 5");
    let mut l = BlockTiling {
        family: Family::Grid,
        bands: bands_from(&heights, 0, None),
        parts: vec![part_from(&widths)],
        root: (0, 0),
        root_start: RootStart::Cycle(0, 0),
        mirror_below: 0,
    };
    root_at(&mut l, start);
    l
}

/// Make the block holding `start` the root (a closed walk may start anywhere).
pub(super) fn root_at(l: &mut BlockTiling, start: Option<Square>) {
    match start {
        Some(s) => {
            let (blk, (r, c)) = locate(l, s);
            l.root = blk;
            l.root_start = RootStart::Cycle(r, c);
        }
        None => {
            l.root = (0, 0);
            l.root_start = RootStart::Cycle(0, 0);
        }
    }
}

/// The committed path base of an `h x w` root block of `family` (the walk starts on its first square),
/// with the join roles of a top-left block: right, and on grids also down.
pub(super) fn path_base(family: Family, h: u8, w: u8) -> &'static Base {
    let roles = bases::Role::Right as u8
        | if family == Family::Grid {
            bases::Role::Down as u8
        } else {
            0
        };
    bases::find(family, h, w, Shape::Path, roles).expect("committed path base")
}

/// Ways to cut an odd side `len` into an even part, an odd block of 5, 7 or 9 holding coordinate `x`,
/// and an even part (each even part 0 or at least 6). An odd block of 11 is needed for the middle line
/// of a side of 11 (then the rest of its band uses the committed 11-high cycles).
fn odd_cuts(len: u32, x: u32) -> Vec<(u32, u8, u32)> {
    let even_ok = |e: u32| e == 0 || (e >= 6 && e % 2 == 0);
    let mut v = Vec::new();
    for a in (0..=x).rev().filter(|&a| even_ok(a)) {
        for h in [5u8, 7, 9, 11] {
            let h32 = h as u32;
            if x < a + h32 && a + h32 <= len && even_ok(len - a - h32) {
                v.push((a, h, len - a - h32));
            }
        }
    }
    v
}

/// The layout of an odd board with the path block cut as `rows` x `cols` (from [`odd_cuts`]).
fn odd_layout(
    rows: (u32, u8, u32),
    cols: (u32, u8, u32),
    board: Board,
) -> (BlockTiling, (usize, usize)) {
    let mut heights = split(rows.0, &EVEN_SIZES).unwrap();
    let i = heights.len();
    heights.push(rows.1);
    heights.extend(split(rows.2, &EVEN_SIZES).unwrap());
    let mut odd_w = split(cols.0, &EVEN_SIZES).unwrap();
    let j = odd_w.len();
    odd_w.push(cols.1);
    odd_w.extend(split(cols.2, &EVEN_SIZES).unwrap());
    let widths = split(board.cols(), &ANY_SIZES).unwrap();
    let l = BlockTiling {
        family: Family::Grid,
        bands: bands_from(&heights, 0, Some((i, 1))),
        parts: vec![part_from(&widths), part_from(&odd_w)],
        root: (i, j),
        root_start: RootStart::Cycle(0, 0),
        mirror_below: 0,
    };
    (l, (i, j))
}

/// Open tour of an odd x odd board with both sides >= 5.
pub(super) fn odd_grid(
    board: Board,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    let internal = |msg: String| ConstructError::Internal { board, msg };
    let corner = corner_flips(board, start);
    if let Some((fr, fc)) = corner {
        // The committed path bases start at (0,0) of the top-left block.
        let rc = odd_cuts(board.rows(), 0)[0];
        let cc = odd_cuts(board.cols(), 0)[0];
        let (mut l, _) = odd_layout(rc, cc, board);
        l.root_start = RootStart::Path(path_base(Family::Grid, rc.1, cc.1));
        l.build(out).map_err(internal)?;
        reflect(board, fr, fc, out);
        return Ok(());
    }
    let s = start.unwrap();
    // Put an odd block around the start and search it for a path from there at run time.
    for rc in odd_cuts(board.rows(), s.row() as u32) {
        for cc in odd_cuts(board.cols(), s.col() as u32) {
            let (mut l, (i, j)) = odd_layout(rc, cc, board);
            let spec = BaseSpec {
                family: Family::Grid,
                rows: rc.1,
                cols: cc.1,
                shape: Shape::Path,
                roles: l.active(i, j),
                start: Some(((s.row() as u32 - rc.0) as u8, (s.col() as u32 - cc.0) as u8)),
            };
            let g = bases::spec_graph(&spec);
            let (sr, sc) = spec.start.unwrap();
            let w = spec.cols as usize;
            if let Ok(p) = g.search(
                sr as usize * w + sc as usize,
                Goal::Path,
                START_BLOCK_BUDGET,
            ) {
                let order = p
                    .iter()
                    .map(|&k| ((k as usize / w) as u8, (k as usize % w) as u8))
                    .collect();
                let base = Base::new(spec, order).map_err(internal)?;
                l.root_start = RootStart::OwnedPath(Box::new(base));
                return l.build(out).map_err(internal);
            }
        }
    }
    Err(ConstructError::StartUnsupported {
        board,
        start: s,
        why: "no 5..9-square block around it has a path from there with its join edges",
    })
}
