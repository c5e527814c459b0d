//! The block tilings of 3- and 4-row strips: closed tours of `3 x n` (n even, n >= 12), open tours of
//! `3 x n` (n odd, n >= 13) and `4 x n` (n >= 8) from a corner, and open tours from other starts
//! with the path block around the start found at run time; and why an open tour of `4 x n` starts on
//! an outer row.
//!
//! Sources: S.-S. Lin and C.-L. Wei, "Optimal algorithms for constructing knight's tours on arbitrary
//! n x m chessboards", Discrete Applied Mathematics 146 (2005) (strips of blocks joined by virtual
//! edges); A. J. Schwenk, "Which rectangular chessboards have a knight's tour?", Mathematics Magazine
//! 64 (1991) (the outer-rows argument); `docs/REFERENCE.md`, sections 6 and 8.

use super::bases::{self, Base, BaseSpec, Family, Shape};
use super::build::{bands_from, part_from, BlockTiling, RootStart};
use super::grid::{path_base, root_at};
use super::search::{Goal, Graph};
use super::START_BLOCK_BUDGET;
use crate::board::{Board, Square};

/// Closed tour of `3 x n`, n even >= 12: cap 3x4, middles 3x4, cap 3x8 or 3x10.
pub(super) fn strip3_closed(board: Board, start: Option<Square>) -> BlockTiling {
    let n = board.cols();
    let last = if (n - 12) % 4 == 0 { 8 } else { 10 };
    let mut widths = vec![4u8; ((n - 4 - last) / 4) as usize + 1];
    widths.push(last as u8);
    let mut l = BlockTiling {
        family: Family::Strip3,
        bands: bands_from(&[3], 0, None),
        parts: vec![part_from(&widths)],
        root: (0, 0),
        root_start: RootStart::Cycle(0, 0),
        mirror_below: 0,
    };
    root_at(&mut l, start);
    l
}

/// Open tour of `3 x n`, n odd >= 13: path 3x5 from (0,0), middles 3x4, cap 3x8 or 3x10.
pub(super) fn strip3_open(board: Board) -> BlockTiling {
    let n = board.cols();
    let last = if (n - 13) % 4 == 0 { 8 } else { 10 };
    let mut widths = vec![5u8];
    widths.extend(std::iter::repeat(4u8).take(((n - 5 - last) / 4) as usize));
    widths.push(last as u8);
    BlockTiling {
        family: Family::Strip3,
        bands: bands_from(&[3], 0, None),
        parts: vec![part_from(&widths)],
        root: (0, 0),
        root_start: RootStart::Path(path_base(Family::Strip3, 3, 5)),
        mirror_below: 0,
    }
}

/// Open tour of `4 x n`, n >= 8: path 4x3..4x6 from (0,0), middles 4x4, cap 4x5.
pub(super) fn strip4_open(board: Board) -> BlockTiling {
    let n = board.cols();
    let first = 3 + ((n - 8) % 4) as u8;
    let mut widths = vec![first];
    widths.extend(std::iter::repeat(4u8).take(((n - first as u32 - 5) / 4) as usize));
    widths.push(5);
    BlockTiling {
        family: Family::Strip4,
        bands: bands_from(&[4], 0, None),
        parts: vec![part_from(&widths)],
        root: (0, 0),
        root_start: RootStart::Path(path_base(Family::Strip4, 4, first)),
        mirror_below: 0,
    }
}

/// Why a `4 x n` open tour starts on an outer row (the same argument as Schwenk's for closed tours).
pub(super) const FOUR_ROW_PROOF: &str = "on a 4 x n board the outer rows are independent (every knight move from \
     them lands on an inner row) and hold half the squares, so a path that starts on an inner row \
     alternates inner, outer, inner...; then all its inner squares share a colour, but the inner rows \
     hold both colours";

/// For an open tour on a board with a side of 4 (other side at least 3): whether `s` is on one of the
/// two outer lines of that side. Always true for other boards.
pub(super) fn four_row_outer(board: Board, s: Square) -> bool {
    let (r, c) = (board.rows(), board.cols());
    if r == 4 && c != 4 {
        s.row() == 0 || s.row() == 3
    } else if c == 4 && r != 4 {
        s.col() == 0 || s.col() == 3
    } else {
        true
    }
}

/// An open tour of a 3- or 4-row strip (rows 3 or 4, transposed if needed) from `start`: the block
/// holding the start becomes a path block, found at run time, with mirrored caps and middles on its
/// left (see [`BlockTiling::mirror_below`]) and ordinary ones on its right. `None` if no cut works: on
/// 4-row strips the path block must be at one end, so only starts in the first or last 8 columns
/// are covered.
pub(super) fn strip_open_from(board: Board, start: Square) -> Option<BlockTiling> {
    let (rows, n) = (board.rows() as u8, board.cols());
    let family = if rows == 3 {
        Family::Strip3
    } else {
        Family::Strip4
    };
    let side = |x: u32| side_widths(rows, x);
    let roots: &[u8] = if rows == 3 {
        &[5, 7, 9, 11]
    } else {
        &[4, 5, 6, 3, 7, 8]
    };
    let sc = start.col() as u32;
    for &w in roots {
        for a in (sc.saturating_sub(w as u32 - 1)..=sc).rev() {
            let Some(b) = n.checked_sub(a + w as u32) else {
                continue;
            };
            // A 4-row path block cannot have blocks on both sides: its join edges join inner rows
            // (II), and a path through a 4 x w block between two outer squares has exactly one II
            // step (the outer squares are independent and half of the block).
            if rows == 4 && a > 0 && b > 0 {
                continue;
            }
            let (Some(mut left), Some(right)) = (side(a), side(b)) else {
                continue;
            };
            // The left side is mirrored: its cap is leftmost.
            left.reverse();
            let k = left.len();
            let mut widths = left;
            widths.push(w);
            widths.extend(right);
            let mut edges = [None; 4];
            let r_edge = bases::role_edge(family, rows, w, bases::Role::Right);
            if a > 0 {
                edges[bases::role_index(bases::Role::Left)] = Some(bases::mirror_edge(r_edge, w));
            }
            if b > 0 {
                edges[bases::role_index(bases::Role::Right)] = Some(r_edge);
            }
            let local = (start.row() as u8, (sc - a) as u8);
            let Some(order) = path_through(rows, w, &edges, local) else {
                continue;
            };
            let spec = BaseSpec {
                family,
                rows,
                cols: w,
                shape: Shape::Path,
                roles: 0,
                start: Some(local),
            };
            let base = Base::with_edges(spec, order, edges).ok()?;
            return Some(BlockTiling {
                family,
                bands: bands_from(&[rows], 0, None),
                parts: vec![part_from(&widths)],
                root: (0, k),
                root_start: RootStart::OwnedPath(Box::new(base)),
                mirror_below: k,
            });
        }
    }
    None
}

/// The widths of one side of a path block `x` columns wide, from the block outwards: middles of 4
/// and a cap (3 rows: a cap of 8 or 10; 4 rows: 5 to 8); `None` when no such side is `x` wide.
fn side_widths(rows: u8, x: u32) -> Option<Vec<u8>> {
    if x == 0 {
        return Some(Vec::new());
    }
    let cap = if rows == 3 {
        if x < 8 || x % 2 == 1 {
            return None;
        }
        if x % 4 == 0 {
            8
        } else {
            10
        }
    } else {
        if x < 5 {
            return None;
        }
        5 + (x - 5) % 4
    };
    let mut v = vec![4u8; ((x - cap) / 4) as usize];
    v.push(cap as u8);
    Some(v)
}

/// A path through every square of a `rows` x `w` block from `local`, taking the join `edges` it
/// must hold, as (row, column) squares of the block; `None` when the search finds none within its
/// budget.
fn path_through(
    rows: u8,
    w: u8,
    edges: &[Option<[(u8, u8); 2]>; 4],
    local: (u8, u8),
) -> Option<Vec<(u8, u8)>> {
    let mut g = Graph::knight(rows as usize, w as usize);
    let idx = |(r, c): (u8, u8)| r as usize * w as usize + c as usize;
    for [x, y] in edges.iter().flatten() {
        g.require(idx(*x), idx(*y));
    }
    let p = g.search(idx(local), Goal::Path, START_BLOCK_BUDGET).ok()?;
    Some(
        p.iter()
            .map(|&q| {
                (
                    (q as usize / w as usize) as u8,
                    (q as usize % w as usize) as u8,
                )
            })
            .collect(),
    )
}
