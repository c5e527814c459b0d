//! The slow, obviously correct twin of the bitboard engine and of the count on any board
//! (`count::shaped`): plain recursion over [`Shape::neighbours`] (a [`Board`] is the whole board
//! walked by the knight), a `Vec<bool>` of visited squares, no pruning at all. It exists to be compared
//! with [`super::bitboard`] in the tests (every board up to 20 squares, and 5x5 per start, OEIS A165134).
//! Exponential without mercy: keep it to boards of about 25 squares.
//!
//! [`Board`]: crate::board::Board

#[cfg(test)]
use crate::board::Board;
use crate::board::{Shape, Square};

/// Directed open tours starting at `start` (every tour from `start`, however it ends).
pub fn open_from(shape: impl Into<Shape>, start: Square) -> u64 {
    walk(&shape.into(), start, &mut Vec::new(), &mut |_| true)
}

/// Directed closed tours starting at `start`: tours from `start` whose last square is a knight move from
/// `start`. Each undirected cycle is counted twice (once per direction). A 1-square "tour" does not
/// count as closed.
pub fn closed_from(shape: impl Into<Shape>, start: Square) -> u64 {
    let shape = &shape.into();
    if shape.len() < 3 {
        return 0;
    }
    walk(shape, start, &mut Vec::new(), &mut |path| {
        shape.closes(path)
    })
}

/// Every tour from `start` for which `accept(path)` holds, in label order, counted. `path` is the
/// buffer the walk extends; it is empty again on return.
fn walk(
    shape: &Shape,
    start: Square,
    path: &mut Vec<Square>,
    accept: &mut dyn FnMut(&[Square]) -> bool,
) -> u64 {
    let mut visited = vec![false; shape.board().len() as usize];
    visited[shape.board().index(start) as usize] = true;
    path.push(start);
    let n = step(shape, &mut visited, path, accept);
    path.pop();
    n
}

fn step(
    shape: &Shape,
    visited: &mut [bool],
    path: &mut Vec<Square>,
    accept: &mut dyn FnMut(&[Square]) -> bool,
) -> u64 {
    if path.len() == shape.len() as usize {
        return u64::from(accept(path));
    }
    let head = path[path.len() - 1];
    let mut total = 0;
    for (_, next) in shape.neighbours(head) {
        let i = shape.board().index(next) as usize;
        if !visited[i] {
            visited[i] = true;
            path.push(next);
            total += step(shape, visited, path, accept);
            path.pop();
            visited[i] = false;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_by_four_has_sixteen_directed_open_tours() {
        // OEIS A118067: 16 directed Hamiltonian paths in the 3x4 knight graph.
        let b = Board::new(3, 4).unwrap();
        let total: u64 = b.squares().map(|s| open_from(b, s)).sum();
        assert_eq!(total, 16);
        assert_eq!(b.squares().map(|s| closed_from(b, s)).sum::<u64>(), 0);
    }

    #[test]
    fn single_square() {
        let b = Board::new(1, 1).unwrap();
        assert_eq!(open_from(b, Square::new(0, 0)), 1);
        assert_eq!(closed_from(b, Square::new(0, 0)), 0);
    }
}
