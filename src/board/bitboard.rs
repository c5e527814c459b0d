//! A set of squares of a board of at most 64 squares as the bits of one `u64` (bit `row * cols +
//! col`, row-major), the bitboard of chess engines (cozy-chess's `BitBoard`): `| & ^ !` are union,
//! intersection, symmetric difference and complement, and `for i in set` visits its squares from the
//! lowest bit up with `trailing_zeros`. [`Attacks`] is the table of each square's leaper moves as such
//! a set, built once from a move list (`KNIGHT_DELTAS`, or a leaper's), so that a hot loop only indexes
//! it. The type is a bare `u64` in registers: every operation is the integer one, inlined.
//!
//! A `BitBoard` does not know its board. `!set` complements all 64 bits, so a set meant to stay on a
//! board of `n` squares is masked with [`BitBoard::first`]`(n)` (the engines keep that mask as `all`).

use super::{Board, KNIGHT_DELTAS};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// Largest board, in squares, whose squares fit a [`BitBoard`].
pub const MAX_BITBOARD_SQUARES: u32 = 64;

/// A set of squares, one bit each, of a board of at most 64 squares (module header).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct BitBoard(pub u64);

impl BitBoard {
    /// No square.
    pub const EMPTY: BitBoard = BitBoard(0);

    /// The squares `0..n`: every square of a board of `n` squares (`n` at most 64).
    #[inline(always)]
    pub const fn first(n: u32) -> BitBoard {
        debug_assert!(n <= 64);
        BitBoard(if n >= 64 { u64::MAX } else { (1 << n) - 1 })
    }

    /// The square `i` alone (`i` below 64).
    #[inline(always)]
    pub const fn square(i: u32) -> BitBoard {
        BitBoard(1 << i)
    }

    /// The bits.
    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// How many squares.
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether it has no square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether it has exactly one square.
    #[inline(always)]
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// Whether it has two squares or more.
    #[inline(always)]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Whether square `i` (below 64) is in it.
    #[inline(always)]
    pub const fn contains(self, i: u32) -> bool {
        self.0 >> i & 1 == 1
    }

    /// The same set with square `i` (below 64) added.
    #[inline(always)]
    pub const fn with(self, i: u32) -> BitBoard {
        BitBoard(self.0 | 1 << i)
    }

    /// The same set with square `i` (below 64) taken out.
    #[inline(always)]
    pub const fn without(self, i: u32) -> BitBoard {
        BitBoard(self.0 & !(1 << i))
    }

    /// The lowest square; 64 when the set is empty (a hot loop that knows it is not tests nothing).
    #[inline(always)]
    pub const fn lowest(self) -> u32 {
        self.0.trailing_zeros()
    }

    /// Take the lowest square out and return it; the set must not be empty (64 and no change if it
    /// is). The iterator's step, for loops that test for emptiness themselves.
    #[inline(always)]
    pub fn pop_lowest(&mut self) -> u32 {
        let i = self.0.trailing_zeros();
        self.0 &= self.0.wrapping_sub(1);
        i
    }
}

impl IntoIterator for BitBoard {
    type Item = u32;
    type IntoIter = Squares;

    /// The squares from the lowest up.
    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self)
    }
}

/// The squares of a [`BitBoard`] from the lowest up, each found with `trailing_zeros`.
#[derive(Clone, Debug)]
pub struct Squares(BitBoard);

impl Iterator for Squares {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        (!self.0.is_empty()).then(|| self.0.pop_lowest())
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.len() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl FromIterator<u32> for BitBoard {
    /// The set of the squares given (each below 64).
    fn from_iter<I: IntoIterator<Item = u32>>(squares: I) -> Self {
        squares.into_iter().fold(BitBoard::EMPTY, BitBoard::with)
    }
}

macro_rules! set_operation {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for BitBoard {
            type Output = BitBoard;
            #[inline(always)]
            fn $method(self, rhs: BitBoard) -> BitBoard {
                BitBoard(self.0 $op rhs.0)
            }
        }
        impl $assign for BitBoard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: BitBoard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

set_operation!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_operation!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
set_operation!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for BitBoard {
    type Output = BitBoard;
    /// Every square of the 64 not in the set: mask with the board's squares to stay on it.
    #[inline(always)]
    fn not(self) -> BitBoard {
        BitBoard(!self.0)
    }
}

impl Shr<u32> for BitBoard {
    type Output = BitBoard;
    /// Every square moved `n` bits down (square `i + n` to `i`): a move by a fixed index step.
    #[inline(always)]
    fn shr(self, n: u32) -> BitBoard {
        BitBoard(self.0 >> n)
    }
}

impl Shl<u32> for BitBoard {
    type Output = BitBoard;
    /// Every square moved `n` bits up (square `i` to `i + n`).
    #[inline(always)]
    fn shl(self, n: u32) -> BitBoard {
        BitBoard(self.0 << n)
    }
}

/// Each square's leaper moves that stay on one board of at most 64 squares, as a [`BitBoard`],
/// indexed by the square's bit (`row * cols + col`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attacks {
    table: [BitBoard; 64],
}

impl Default for Attacks {
    /// No square has a move (the table of no board yet).
    fn default() -> Self {
        Attacks {
            table: [BitBoard::EMPTY; 64],
        }
    }
}

impl Attacks {
    /// The knight's moves on `board` ([`KNIGHT_DELTAS`]); `None` past 64 squares.
    pub fn knight(board: Board) -> Option<Attacks> {
        Attacks::of(board, &KNIGHT_DELTAS)
    }

    /// The moves `(drow, dcol)` of `deltas` on `board`; `None` past 64 squares.
    pub fn of(board: Board, deltas: &[(i32, i32)]) -> Option<Attacks> {
        if board.len() > MAX_BITBOARD_SQUARES {
            return None;
        }
        let mut table = [BitBoard::EMPTY; 64];
        for sq in board.squares() {
            table[board.index(sq) as usize] = deltas
                .iter()
                .filter_map(|&(dr, dc)| sq.try_offset(dr, dc, board))
                .map(|n| board.index(n))
                .collect();
        }
        Some(Attacks { table })
    }

    /// The moves from square `i`: below 64 (wrapped there, so that the hot paths need no bounds
    /// check), and on the board for a nonempty answer.
    #[inline(always)]
    pub fn get(&self, i: u32) -> BitBoard {
        self.table[i as usize & 63]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Leaper;

    /// The slow twin of [`Attacks`]: the squares `j` of the board whose coordinates differ from
    /// `i`'s by one of the moves, by division and subtraction, one pair at a time.
    fn slow_attacks(rows: u32, cols: u32, i: u32, deltas: &[(i32, i32)]) -> Vec<u32> {
        let (r, c) = ((i / cols) as i32, (i % cols) as i32);
        (0..rows * cols)
            .filter(|&j| {
                let (dr, dc) = ((j / cols) as i32 - r, (j % cols) as i32 - c);
                deltas.contains(&(dr, dc))
            })
            .collect()
    }

    #[test]
    fn the_attack_table_is_the_coordinate_arithmetic() {
        let leapers = [
            KNIGHT_DELTAS,
            Leaper::new(1, 3).unwrap().deltas(),
            Leaper::new(2, 3).unwrap().deltas(),
        ];
        for deltas in leapers {
            for (rows, cols) in [
                (1, 1),
                (1, 64),
                (3, 4),
                (5, 5),
                (8, 8),
                (7, 9),
                (2, 32),
                (64, 1),
            ] {
                let board = Board::new(rows.into(), cols.into()).unwrap();
                let attacks = Attacks::of(board, &deltas).unwrap();
                for i in 0..64 {
                    let got: Vec<u32> = attacks.get(i).into_iter().collect();
                    let want = if i < rows * cols {
                        slow_attacks(rows, cols, i, &deltas)
                    } else {
                        Vec::new()
                    };
                    assert_eq!(got, want, "{board} square {i} {deltas:?}");
                }
            }
        }
        assert_eq!(
            Attacks::knight(Board::new(5, 5).unwrap()),
            Attacks::of(Board::new(5, 5).unwrap(), &KNIGHT_DELTAS)
        );
        assert!(Attacks::knight(Board::new(5, 13).unwrap()).is_none());
        // 8x8: the corner has two moves, a centre square eight
        let eight = Attacks::knight(Board::square(8).unwrap()).unwrap();
        assert_eq!(eight.get(0), BitBoard::square(10) | BitBoard::square(17));
        assert_eq!(eight.get(27).len(), 8);
    }

    /// The slow twin of a set: a `Vec<bool>` of 64.
    fn members(b: BitBoard) -> Vec<bool> {
        (0..64).map(|i| b.0 >> i & 1 == 1).collect()
    }

    #[test]
    fn set_operations_are_those_of_the_squares() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // sparse and dense sets both
            if x % 3 == 0 {
                x & x >> 5 & x >> 11
            } else {
                x
            }
        };
        for _ in 0..500 {
            let (a, b) = (BitBoard(next()), BitBoard(next()));
            let (ma, mb) = (members(a), members(b));
            let each = |f: fn(bool, bool) -> bool| -> Vec<bool> {
                ma.iter().zip(&mb).map(|(&p, &q)| f(p, q)).collect()
            };
            assert_eq!(members(a | b), each(|p, q| p || q));
            assert_eq!(members(a & b), each(|p, q| p && q));
            assert_eq!(members(a ^ b), each(|p, q| p != q));
            assert_eq!(members(!a), each(|p, _| !p));
            let (mut c, mut d, mut e) = (a, a, a);
            c |= b;
            d &= b;
            e ^= b;
            assert_eq!((c, d, e), (a | b, a & b, a ^ b));
            let count = ma.iter().filter(|&&p| p).count();
            assert_eq!(a.len() as usize, count);
            assert_eq!(a.is_empty(), count == 0);
            assert_eq!(a.is_single(), count == 1);
            assert_eq!(a.has_several(), count >= 2);
            let squares: Vec<u32> = a.into_iter().collect();
            let want: Vec<u32> = (0..64).filter(|&i| ma[i as usize]).collect();
            assert_eq!(squares, want);
            assert_eq!(a.len() as usize, a.into_iter().len());
            assert_eq!(a.lowest(), want.first().copied().unwrap_or(64));
            assert_eq!(squares.iter().copied().collect::<BitBoard>(), a);
            for i in [0, 1, 31, 63] {
                assert_eq!(a.contains(i), ma[i as usize]);
                assert!(a.with(i).contains(i) && !a.without(i).contains(i));
                assert_eq!(a.with(i).without(i), a.without(i));
                assert_eq!((a >> i).contains(0), ma[i as usize]);
                assert_eq!((a << i).contains(63), ma[63 - i as usize]);
            }
            let mut popped = a;
            if !a.is_empty() {
                assert_eq!(popped.pop_lowest(), want[0]);
                assert_eq!(popped, a.without(want[0]));
            }
        }
    }

    #[test]
    fn the_first_squares_fill_a_board() {
        assert_eq!(BitBoard::first(0), BitBoard::EMPTY);
        assert_eq!(BitBoard::first(1), BitBoard::square(0));
        assert_eq!(BitBoard::first(25).len(), 25);
        assert_eq!(BitBoard::first(25).lowest(), 0);
        assert!(!BitBoard::first(25).contains(25));
        assert_eq!(BitBoard::first(64), BitBoard(u64::MAX));
        assert_eq!(BitBoard::EMPTY.lowest(), 64);
        assert_eq!(BitBoard::EMPTY.into_iter().count(), 0);
    }
}
