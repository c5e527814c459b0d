//! The symmetries of a board (the dihedral group of the rectangle: 4 elements, 8 for a square board)
//! as permutations of square indexes; every one maps knight moves to knight moves, so a count may
//! count one (start, first move) pair per orbit.
//!
//! Source: the coordinates are those of `docs/REFERENCE.md` (section 1); that the 8 symmetries of the
//! square preserve knight moves is the basis of the symmetry reductions of exhaustive counts such as
//! McKay (1997).

use crate::board::{Board, Square};

/// The symmetries of `board` as permutations of square indexes, identity first: the 4 reflections and
/// rotations of a rectangle, 8 for a square board. Each maps knight moves to knight moves.
pub fn symmetries(board: Board) -> Vec<Vec<u8>> {
    let (rows, cols) = (board.rows() as u16, board.cols() as u16);
    let kinds = if rows == cols { 8 } else { 4 };
    (0..kinds)
        .map(|kind| {
            board
                .squares()
                .map(|sq| {
                    let (r, c) = (sq.row(), sq.col());
                    let (fr, fc) = (rows - 1 - r, cols - 1 - c);
                    // Kinds 4..8 transpose, which keeps the board only when it is square.
                    let (r, c) = match kind {
                        0 => (r, c),
                        1 => (r, fc),
                        2 => (fr, c),
                        3 => (fr, fc),
                        4 => (c, r),
                        5 => (fc, fr),
                        6 => (c, fr),
                        _ => (fc, r),
                    };
                    board.index(Square::new(r, c)) as u8
                })
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
}
