//! The padded layout shared by every search: the board surrounded by a 2-square border so that every
//! knight neighbour of an on-board square is `index + offset[k]`, with no bounds check.
//!
//! ADVICE FOR HACKERS: the border is two squares wide because a knight moves at most two squares in
//! either direction; code that walks neighbours relies on never leaving the padded array. Border squares
//! carry a sentinel degree ([`BORDER`]) so that a minimum over the eight neighbours never picks them.

use super::{Board, Square, KNIGHT_DELTAS};

/// Degree value marking border squares (and, in the search state, visited ones). Any value above
/// `BORDER - 8` means "not a candidate": such squares may be decremented up to eight times by the
/// branch-free neighbour updates and must still never compare below a real degree (at most 8).
pub const BORDER: u8 = 0xF0;

/// Width of the padding on each side.
const PAD: usize = 2;

/// Index arithmetic for the padded board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    board: Board,
    stride: usize,
    offsets: [isize; 8],
}

impl Layout {
    /// The padded layout of `board`.
    pub fn new(board: Board) -> Self {
        let stride = board.cols() as usize + 2 * PAD;
        let mut offsets = [0isize; 8];
        for (k, &(dr, dc)) in KNIGHT_DELTAS.iter().enumerate() {
            offsets[k] = dr as isize * stride as isize + dc as isize;
        }
        Layout {
            board,
            stride,
            offsets,
        }
    }

    /// The board this layout pads.
    pub const fn board(&self) -> Board {
        self.board
    }

    /// Distance in padded indexes between consecutive rows.
    pub const fn stride(&self) -> usize {
        self.stride
    }

    /// Length of a padded array.
    pub fn len(&self) -> usize {
        (self.board.rows() as usize + 2 * PAD) * self.stride
    }

    /// Never true: a padded array always has its border.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Padded-index offset of each knight move, indexed by `label - 1`.
    pub const fn offsets(&self) -> &[isize; 8] {
        &self.offsets
    }

    /// The same offsets as [`Layout::offsets`], computed from the stride. Hot loops use this form:
    /// the compiler keeps one register (the stride) and folds each offset into an addressing mode
    /// (`p + stride * {1,2} + const`) instead of loading or spilling eight precomputed values.
    #[inline(always)]
    pub fn knight_offsets(&self) -> [isize; 8] {
        Layout::offsets_for_stride(self.stride as isize)
    }

    /// The padded offsets of labels 1..8 for a row stride, written out so that each address is one
    /// addressing mode (`head + stride * {1,2} + const`) in the hot kernels.
    #[inline(always)]
    pub const fn offsets_for_stride(s: isize) -> [isize; 8] {
        [
            -2 * s + 1,
            -s + 2,
            s + 2,
            2 * s + 1,
            2 * s - 1,
            s - 2,
            -s - 2,
            -2 * s - 1,
        ]
    }

    /// Whether padded squares `a` and `b` are a knight move apart: the one test, on padded indexes,
    /// of whether a path's ends close it.
    #[inline]
    pub fn knight_apart(&self, a: usize, b: usize) -> bool {
        self.offsets.iter().any(|&o| a.wrapping_add_signed(o) == b)
    }

    /// The neighbour of padded index `p` by move `k` (0-based label). `p` must be an on-board square.
    #[inline(always)]
    pub fn step(&self, p: usize, k: usize) -> usize {
        (p as isize + self.offsets[k]) as usize
    }

    /// Padded index of an on-board square.
    #[inline]
    pub fn pad(&self, sq: Square) -> usize {
        (sq.row() as usize + PAD) * self.stride + sq.col() as usize + PAD
    }

    /// The on-board square at padded index `p`. `p` must not be a border square.
    #[inline]
    pub fn unpad(&self, p: usize) -> Square {
        let (r, c) = (p / self.stride - PAD, p % self.stride - PAD);
        debug_assert!(r < self.board.rows() as usize && c < self.board.cols() as usize);
        Square::new(r as u16, c as u16)
    }

    /// Whether padded index `p` is an on-board square.
    pub fn is_on_board(&self, p: usize) -> bool {
        let (r, c) = (p / self.stride, p % self.stride);
        r >= PAD
            && c >= PAD
            && r < PAD + self.board.rows() as usize
            && c < PAD + self.board.cols() as usize
    }

    /// Fill `degree` with the initial degrees of the empty board: the number of on-board knight
    /// neighbours for board squares, [`BORDER`] for the padding. Reuses the vector's allocation.
    pub fn initial_degrees(&self, degree: &mut Vec<u8>) {
        degree.clear();
        degree.resize(self.len(), BORDER);
        for sq in self.board.squares() {
            degree[self.pad(sq)] = self.board.neighbours(sq).count() as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_offsets_are_the_offsets() {
        for (r, c) in [(1, 1), (5, 5), (3, 11), (100, 7)] {
            let layout = Layout::new(Board::new(r, c).unwrap());
            assert_eq!(&layout.knight_offsets(), layout.offsets());
        }
    }

    #[test]
    fn offsets_agree_with_square_arithmetic() {
        let board = Board::new(7, 5).unwrap();
        let layout = Layout::new(board);
        for sq in board.squares() {
            let p = layout.pad(sq);
            assert_eq!(layout.unpad(p), sq);
            for (k, &(dr, dc)) in KNIGHT_DELTAS.iter().enumerate() {
                let q = layout.step(p, k);
                assert!(q < layout.len());
                match sq.try_offset(dr, dc, board) {
                    Some(n) => assert_eq!(layout.unpad(q), n),
                    None => assert!(!layout.is_on_board(q)),
                }
            }
        }
    }
}
