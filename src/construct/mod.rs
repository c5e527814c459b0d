//! Knight's tours on boards of any size by divide-and-conquer construction, in O(rows x cols) time and
//! with no memory beyond the output.
//!
//! Sources: I. Parberry, "An efficient algorithm for the knight's tour problem", Discrete Applied
//! Mathematics 73 (1997) (structured base tours with fixed corner moves, joined by swapping two edges);
//! S.-S. Lin and C.-L. Wei, "Optimal algorithms for constructing knight's tours on arbitrary n x m
//! chessboards", Discrete Applied Mathematics 146 (2005) (every board with a tour, open tours on odd
//! boards by joining cycles into a path); A. Conrad et al., Discrete Applied Mathematics 50 (1994);
//! A. J. Schwenk (1991) for which boards have closed tours. The path closer follows L. Posa (1976),
//! "Hamiltonian circuits in random graphs" (rotations).
//!
//! How boards are covered (see [`construct`]):
//! - closed tours on every board with one: a side of at least 5 and an even area are cut into bands of
//!   height 6, 8 or 10 and blocks of width 5..10 ([`build`]); `3 x n` (n even, n >= 12) is a 3-row
//!   strip of blocks joined by virtual edges; `3 x 10` is found by search;
//! - open tours: a closed one where one exists; on odd x odd boards with both sides >= 5, one odd
//!   block holds a Hamiltonian path and every other block a cycle; `3 x n` (odd n >= 13) and `4 x n`
//!   (n >= 8) are strips with a path block; the remaining boards (at most 3 x 11 and 4 x 7) are
//!   solved by the search in [`search`].
//!
//! Open tours from a given start: the block around the start becomes the path block, its path found
//! at run time by the same search (a few thousand nodes); on strips the blocks left of it are mirror
//! images ([`build::BlockTiling::mirror_below`]). See [`construct`] for which starts are covered.

pub mod bases;
pub mod build;
pub mod search;

use crate::board::Closure;
use crate::board::{Board, Square};
use crate::exists::{self, NoTour};
use bases::{Base, BaseSpec, Family, Shape};
use build::{bands_from, part_from, split, BlockTiling, RootStart};
use search::{Goal, Graph, SearchOutcome};

/// Why [`construct`] returned no tour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConstructError {
    /// The board has no tour of the requested kind (or none from the requested square, by colour).
    #[error(transparent)]
    NoTour(#[from] NoTour),
    /// The requested start is not on the board.
    #[error("start {start} is off the {board} board")]
    StartOffBoard {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
    },
    /// No open tour of this board starts there (proved, not a limitation of the construction).
    #[error("no open tour of {board} starts at {start}: {why}")]
    StartImpossible {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
        /// The proof: an exhaustive search, or the outer-rows argument for `4 x n`.
        why: &'static str,
    },
    /// The construction cannot start an open tour of this board there (one may exist): on `4 x n`
    /// strips of more than 64 squares, outer-row starts more than 8 columns from both ends; or the
    /// run-time search for the start block gave up (not seen in the tests).
    #[error("construction cannot start an open tour of {board} at {start}: {why}")]
    StartUnsupported {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
        /// Which starts are supported.
        why: &'static str,
    },
    /// The small-board search ran out of budget (a bug: every small board is known to finish).
    #[error("search budget exhausted on {board}")]
    Budget {
        /// The board.
        board: Board,
    },
    /// The tour itself would not fit in memory.
    #[error("a tour of the {board} board needs about {needed_mib} MiB but only {available_mib} MiB is available; use a smaller board")]
    TooLarge {
        /// The board.
        board: Board,
        /// Estimated need.
        needed_mib: u64,
        /// Available memory.
        available_mib: u64,
    },
    /// The allocator refused the tour's memory (a limit such as `ulimit -v` below what is free).
    #[error("a tour of the {board} board needs about {needed_mib} MiB, which the allocator refused (a memory limit?); use a smaller board")]
    AllocationRefused {
        /// The board.
        board: Board,
        /// Estimated need.
        needed_mib: u64,
    },
    /// An internal inconsistency (a missing base); please report it.
    #[error("internal construction error on {board}: {msg}")]
    Internal {
        /// The board.
        board: Board,
        /// What went wrong.
        msg: String,
    },
}

/// Node budget of the small-board search.
pub const SMALL_BUDGET: u64 = 50_000_000;
/// Boards with at most this many squares are solved by search when the construction has no fixed
/// start for them (open tours on strips from a non-corner square).
pub const SMALL_SEARCH_SQUARES: u32 = 64;
/// Node budget of the run-time search for the start block of an open tour on an odd board.
pub const START_BLOCK_BUDGET: u64 = 2_000_000;

/// A knight's tour of `board`: closed if `closed`, otherwise open or closed (a closed tour is also an
/// open one; a closed one is returned wherever the board has one). Starts at `start` when given.
///
/// Which starts work:
/// - closed tours, and open tours on boards that have a closed tour: every square;
/// - odd x odd boards with both sides >= 5: every corner-coloured square (the others have no tour:
///   [`NoTour::WrongColourStart`]);
/// - `3 x n`, n odd: every corner-coloured square (tested to 3 x 45; a run-time search that gives up
///   would return [`ConstructError::StartUnsupported`]);
/// - `4 x n`: squares on the two outer rows within 8 columns of either end, and every outer square
///   when the board has at most [`SMALL_SEARCH_SQUARES`] squares; inner-row squares have no tour
///   ([`ConstructError::StartImpossible`], with the proof); other outer squares of longer strips
///   give [`ConstructError::StartUnsupported`];
/// - boards solved by search (at most 3 x 11 and 4 x 7): every start, by exhaustive search.
///
/// Time O(rows x cols); memory: the returned vector (4 bytes per square) plus a few kilobytes.
pub fn construct(
    board: Board,
    closure: Closure,
    start: Option<Square>,
) -> Result<Vec<Square>, ConstructError> {
    let mut out = Vec::new();
    construct_into(board, closure, start, &mut out)?;
    Ok(out)
}

/// Bytes of the tour of `board`: the construction writes its squares in place, so the tour is nearly
/// all the memory it takes, whatever the output format (figures in `benches/README.md`).
fn tour_bytes(board: Board) -> u64 {
    board.len() as u64 * std::mem::size_of::<Square>() as u64
}

/// Whether the tour of `board` fits within 80% of `available` bytes (as searches are checked).
fn fits(board: Board, available: u64) -> Result<(), ConstructError> {
    let needed = tour_bytes(board);
    if !crate::memory::fits_in(needed, available) {
        return Err(ConstructError::TooLarge {
            board,
            needed_mib: needed.div_ceil(1 << 20),
            available_mib: available >> 20,
        });
    }
    Ok(())
}

/// [`construct`] writing into `out` (cleared; its allocation is reused).
pub fn construct_into(
    board: Board,
    closure: Closure,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    out.clear();
    exists::tour(board, closure)?;
    if let Some(s) = start {
        if !board.contains(s.row() as i64, s.col() as i64) {
            return Err(ConstructError::StartOffBoard { board, start: s });
        }
        exists::tour_from(board, s, closure)?;
    }
    fits(board, crate::memory::available_bytes())?;
    // fallible: under an address-space limit the allocator refuses rather than aborting the process
    out.try_reserve_exact(board.len() as usize)
        .map_err(|_| ConstructError::AllocationRefused {
            board,
            needed_mib: tour_bytes(board).div_ceil(1 << 20),
        })?;
    // a board that has a closed tour gets one even when an open tour was asked: it is one
    let closure = match exists::closed_tour(board) {
        Ok(()) => Closure::Closed,
        Err(_) => closure,
    };
    if board.len() == 1 {
        out.push(Square::new(0, 0));
        return Ok(());
    }
    let (m, n) = (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
    );
    let internal = |msg: String| ConstructError::Internal { board, msg };
    if closure.is_closed() {
        if m >= 5 {
            // Rows even: every band then holds closed blocks.
            let t = board.rows() % 2 == 1;
            return with_transpose(board, t, start, out, |b, s, out| {
                closed_grid(b, s).build(out).map_err(internal)
            });
        }
        if n >= 12 {
            let t = board.rows() != 3;
            return with_transpose(board, t, start, out, |b, s, out| {
                strip3_closed(b, s).build(out).map_err(internal)
            });
        }
        return small_search(board, Closure::Closed, start, out);
    }
    // Open tours on boards without a closed tour.
    if m >= 5 {
        return odd_grid(board, start, out);
    }
    if let Some(s) = start {
        if !four_row_outer(board, s) {
            return Err(ConstructError::StartImpossible {
                board,
                start: s,
                why: FOUR_ROW_PROOF,
            });
        }
    }
    let strip = (m == 3 && n >= 13) || (m == 4 && n >= 8);
    if !strip {
        return small_search(board, Closure::Open, start, out);
    }
    let corner = match start {
        None => Some((false, false)),
        Some(s) => {
            let (fr, fc) = (
                s.row() as u32 + 1 == board.rows(),
                s.col() as u32 + 1 == board.cols(),
            );
            ((fr || s.row() == 0) && (fc || s.col() == 0)).then_some((fr, fc))
        }
    };
    let Some((flip_r, flip_c)) = corner else {
        let s = start.unwrap();
        let t = board.rows() != m;
        let tr = |s: Square| Square::new(s.col(), s.row());
        let (b, st) = if t {
            (board.transposed(), tr(s))
        } else {
            (board, s)
        };
        if let Some(layout) = strip_open_from(b, st) {
            return with_transpose(board, t, None, out, |_, _, out| {
                layout.build(out).map_err(internal)
            });
        }
        if board.len() <= SMALL_SEARCH_SQUARES {
            return small_search(board, Closure::Open, start, out);
        }
        return Err(ConstructError::StartUnsupported {
            board,
            start: s,
            why: "on 4-row strips the construction starts open tours only within 8 columns of either \
                  end (its path block must be an end block); on 3-row strips no path block around \
                  the start had a path from there",
        });
    };
    let t = board.rows() != m;
    with_transpose(board, t, None, out, |b, _, out| {
        let layout = if m == 3 {
            strip3_open(b)
        } else {
            strip4_open(b)
        };
        layout.build(out).map_err(internal)
    })?;
    reflect(board, flip_r, flip_c, out);
    Ok(())
}

/// Run `f` on the board transposed when `t`, then transpose the tour back in place.
fn with_transpose(
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
fn reflect(board: Board, flip_r: bool, flip_c: bool, out: &mut [Square]) {
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
fn closed_grid(board: Board, start: Option<Square>) -> BlockTiling {
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
fn root_at(l: &mut BlockTiling, start: Option<Square>) {
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

/// Closed tour of `3 x n`, n even >= 12: cap 3x4, middles 3x4, cap 3x8 or 3x10.
fn strip3_closed(board: Board, start: Option<Square>) -> BlockTiling {
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

fn path_base(family: Family, h: u8, w: u8) -> &'static Base {
    let roles = bases::Role::Right as u8
        | if family == Family::Grid {
            bases::Role::Down as u8
        } else {
            0
        };
    bases::find(family, h, w, Shape::Path, roles).expect("committed path base")
}

/// Open tour of `3 x n`, n odd >= 13: path 3x5 from (0,0), middles 3x4, cap 3x8 or 3x10.
fn strip3_open(board: Board) -> BlockTiling {
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
fn strip4_open(board: Board) -> BlockTiling {
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
const FOUR_ROW_PROOF: &str = "on a 4 x n board the outer rows are independent (every knight move from \
     them lands on an inner row) and hold half the squares, so a path that starts on an inner row \
     alternates inner, outer, inner...; then all its inner squares share a colour, but the inner rows \
     hold both colours";

/// For an open tour on a board with a side of 4 (other side at least 3): whether `s` is on one of the
/// two outer lines of that side. Always true for other boards.
fn four_row_outer(board: Board, s: Square) -> bool {
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
fn strip_open_from(board: Board, start: Square) -> Option<BlockTiling> {
    let (rows, n) = (board.rows() as u8, board.cols());
    let family = if rows == 3 {
        Family::Strip3
    } else {
        Family::Strip4
    };
    // Widths of one side: a cap and middles of 4 (3 rows: cap 8 or 10; 4 rows: cap 5..8).
    let side = |x: u32| -> Option<Vec<u8>> {
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
    };
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
            let mut g = Graph::knight(rows as usize, w as usize);
            let idx = |(r, c): (u8, u8)| r as usize * w as usize + c as usize;
            for [x, y] in edges.iter().flatten() {
                g.require(idx(*x), idx(*y));
            }
            let local = (start.row() as u8, (sc - a) as u8);
            let Ok(p) = g.search(idx(local), Goal::Path, START_BLOCK_BUDGET) else {
                continue;
            };
            let order = p
                .iter()
                .map(|&q| {
                    (
                        (q as usize / w as usize) as u8,
                        (q as usize % w as usize) as u8,
                    )
                })
                .collect();
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
fn odd_grid(
    board: Board,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    let internal = |msg: String| ConstructError::Internal { board, msg };
    let corner = match start {
        None => Some((false, false)),
        Some(s) => {
            let (fr, fc) = (
                s.row() as u32 + 1 == board.rows(),
                s.col() as u32 + 1 == board.cols(),
            );
            ((fr || s.row() == 0) && (fc || s.col() == 0)).then_some((fr, fc))
        }
    };
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

/// Search the whole (small) board.
fn small_search(
    board: Board,
    closure: Closure,
    start: Option<Square>,
    out: &mut Vec<Square>,
) -> Result<(), ConstructError> {
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let g = Graph::knight(rows, cols);
    let goal = if closure.is_closed() {
        Goal::Cycle
    } else {
        Goal::Path
    };
    let starts: Vec<usize> = match start {
        Some(s) => vec![s.row() as usize * cols + s.col() as usize],
        None => (0..rows * cols).collect(),
    };
    let mut budget_hit = false;
    for s in starts {
        match g.search(s, goal, SMALL_BUDGET) {
            Ok(p) => {
                out.extend(
                    p.iter().map(|&k| {
                        Square::new((k as usize / cols) as u16, (k as usize % cols) as u16)
                    }),
                );
                return Ok(());
            }
            Err(SearchOutcome::Budget) => budget_hit = true,
            Err(SearchOutcome::Exhausted) => {}
        }
    }
    match (start, budget_hit) {
        (_, true) => Err(ConstructError::Budget { board }),
        (Some(s), false) => Err(ConstructError::StartImpossible {
            board,
            start: s,
            why: "exhaustive search",
        }),
        (None, false) => Err(ConstructError::Internal {
            board,
            msg: "exhaustive search found no tour although the theorem says one exists".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tour_that_does_not_fit_is_refused_before_it_is_built() {
        let board = Board::new(20_000, 20_000).unwrap(); // 1.6 GB of squares
        assert!(matches!(
            fits(board, 1 << 30),
            Err(ConstructError::TooLarge {
                needed_mib: 1526,
                available_mib: 1024,
                ..
            })
        ));
        assert!(fits(board, 4 << 30).is_ok());
        let err = fits(board, 1 << 30).unwrap_err().to_string();
        assert!(
            err.contains("20000x20000") && err.contains("1526 MiB"),
            "{err}"
        );
    }
}
