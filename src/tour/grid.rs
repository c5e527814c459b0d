//! The numbered text grid: each square's 1-based visit number in its place on the board, `.` for a
//! square not visited and `#` for a hole, as `solve --format grid` prints a tour for a person.

use crate::board::{Board, Square};
use std::fmt::Write as _;

/// Widest board (in characters per line) that [`format_grid`] prints.
pub const MAX_GRID_WIDTH: usize = 400;

/// The grid of 1-based visit numbers, `.` for unvisited squares; `None` if a line would be wider than
/// [`MAX_GRID_WIDTH`] characters.
pub fn format_grid(board: Board, squares: &[Square]) -> Option<String> {
    format_grid_with_holes(board, squares, &[])
}

/// [`format_grid`] of a board with holes, each drawn `#`.
pub fn format_grid_with_holes(
    board: Board,
    squares: &[Square],
    holes: &[Square],
) -> Option<String> {
    let width = (board.len() as f64).log10().floor() as usize + 1;
    if (width + 1) * board.cols() as usize > MAX_GRID_WIDTH {
        return None;
    }
    const HOLE: u32 = u32::MAX;
    let mut number = vec![0u32; board.len() as usize];
    for &h in holes {
        number[board.index(h) as usize] = HOLE;
    }
    for (i, &sq) in squares.iter().enumerate() {
        number[board.index(sq) as usize] = i as u32 + 1;
    }
    let mut s = String::new();
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            let n = number[(r * board.cols() + c) as usize];
            if c > 0 {
                s.push(' ');
            }
            if n == 0 {
                let _ = write!(s, "{:>width$}", ".");
            } else if n == HOLE {
                let _ = write!(s, "{:>width$}", "#");
            } else {
                let _ = write!(s, "{n:>width$}");
            }
        }
        s.push('\n');
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_numbers_squares() {
        let b = Board::new(1, 3).unwrap();
        let g = format_grid(b, &[Square::new(0, 2)]).unwrap();
        assert_eq!(g, ". . 1\n");
        assert!(format_grid(Board::new(2, 1000).unwrap(), &[]).is_none());
    }
}
