//! The symmetries of a board: the dihedral group of the rectangle (4 elements: the identity, the two
//! reflections and the half turn), 8 for a square board (the transposes and quarter turns too). Each
//! maps knight moves to knight moves, and so the move labels to move labels: a walk from `s` whose ties
//! are broken by the ordering `O` maps, square by square, onto the walk from `g(s)` with the ordering
//! `g(O)` (the image of each label). Exhaustive counts count one orbit each (McKay 1997), and sweeps
//! over orderings walk one run of each orbit (`experiment::orbits`).
//!
//! Coordinates and labels are those of `docs/REFERENCE.md`, section 1.

use super::{Board, Square, KNIGHT_DELTAS};

/// One symmetry of a board, by kind: 0 the identity, 1 the left-right reflection, 2 the top-bottom
/// one, 3 the half turn, and on square boards 4 the transpose, 5 the anti-transpose, 6 and 7 the
/// quarter turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(u8);

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// The symmetries of `board`, identity first: 4, or 8 on a square board.
    pub fn of(board: Board) -> impl Iterator<Item = Symmetry> {
        let kinds = if board.rows() == board.cols() { 8 } else { 4 };
        (0..kinds).map(Symmetry)
    }

    /// The symmetry of kind `k` (below 8; kinds 4..8 keep square boards only).
    pub const fn of_kind(k: u8) -> Symmetry {
        assert!(k < 8, "a symmetry kind is below 8");
        Symmetry(k)
    }

    /// Its kind, 0..8 (a bit in a set of symmetries).
    pub const fn kind(self) -> u8 {
        self.0
    }

    /// The image of `sq` on `board` (which this symmetry must keep: kinds 4..8 only square boards).
    pub fn apply(self, board: Board, sq: Square) -> Square {
        let (r, c) = (sq.row(), sq.col());
        let fr = board.rows() as u16 - 1 - r;
        let fc = board.cols() as u16 - 1 - c;
        let (r, c) = match self.0 {
            0 => (r, c),
            1 => (r, fc),
            2 => (fr, c),
            3 => (fr, fc),
            4 => (c, r),
            5 => (fc, fr),
            6 => (c, fr),
            _ => (fc, r),
        };
        Square::new(r, c)
    }

    /// The image of a move `(drow, dcol)`: the symmetry's linear part.
    pub const fn apply_delta(self, (dr, dc): (i32, i32)) -> (i32, i32) {
        match self.0 {
            0 => (dr, dc),
            1 => (dr, -dc),
            2 => (-dr, dc),
            3 => (-dr, -dc),
            4 => (dc, dr),
            5 => (-dc, -dr),
            6 => (dc, -dr),
            _ => (-dc, dr),
        }
    }

    /// The symmetry that undoes this one (the quarter turns are each other's inverse).
    pub const fn inverse(self) -> Symmetry {
        match self.0 {
            6 => Symmetry(7),
            7 => Symmetry(6),
            k => Symmetry(k),
        }
    }

    /// The image of each knight move label, 0-based: a move with label `l` from `x` is the move with
    /// label `labels()[l]` from the image of `x`.
    pub fn labels(self) -> [u8; 8] {
        let mut out = [0u8; 8];
        for (l, &d) in KNIGHT_DELTAS.iter().enumerate() {
            let image = self.apply_delta(d);
            out[l] = KNIGHT_DELTAS
                .iter()
                .position(|&e| e == image)
                .expect("a symmetry maps knight moves to knight moves") as u8;
        }
        out
    }
}

/// The symmetries of `board` as permutations of square indexes, identity first.
pub fn symmetries(board: Board) -> Vec<Vec<u8>> {
    Symmetry::of(board)
        .map(|g| {
            board
                .squares()
                .map(|sq| board.index(g.apply(board, sq)) as u8)
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::is_knight_move;

    #[test]
    fn symmetries_are_knight_automorphisms() {
        for (r, c) in [(5, 5), (3, 4), (6, 6), (4, 7)] {
            let b = Board::new(r, c).unwrap();
            let group = symmetries(b);
            assert_eq!(group.len(), if r == c { 8 } else { 4 });
            for g in &group {
                let mut seen = g.clone();
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len(), b.len() as usize, "a permutation");
                for x in b.squares() {
                    for y in b.squares() {
                        let gx = b.square_at(g[b.index(x) as usize] as u32).unwrap();
                        let gy = b.square_at(g[b.index(y) as usize] as u32).unwrap();
                        assert_eq!(is_knight_move(x, y), is_knight_move(gx, gy));
                    }
                }
            }
        }
    }

    /// The label map is the move map: the labelled neighbour of `x` goes to the neighbour of `g(x)`
    /// with the image label; inverses undo.
    #[test]
    fn labels_follow_the_squares() {
        for (r, c) in [(7, 7), (5, 8)] {
            let b = Board::new(r, c).unwrap();
            for g in Symmetry::of(b) {
                let labels = g.labels();
                for x in b.squares() {
                    assert_eq!(g.inverse().apply(b, g.apply(b, x)), x);
                    for (l, &(dr, dc)) in KNIGHT_DELTAS.iter().enumerate() {
                        let Some(y) = x.try_offset(dr, dc, b) else {
                            continue;
                        };
                        let (gx, gy) = (g.apply(b, x), g.apply(b, y));
                        let (er, ec) = KNIGHT_DELTAS[labels[l] as usize];
                        assert_eq!(gx.try_offset(er, ec, b), Some(gy), "{b} {g:?} {x:?} {l}");
                    }
                }
            }
        }
    }
}
