//! Why a run failed: the dead end, the squares left unvisited, the ones already stranded (every knight
//! neighbour visited, so no path can reach them any more) and, for the last few moves, the candidate
//! squares with their degrees.
//!
//! Degrees follow `docs/REFERENCE.md`: the number of unvisited on-board knight neighbours of a candidate,
//! counted after the square being moved from has been marked visited.

use super::error::{check_on_board, RenderError};
use crate::board::{Board, Square};

/// Largest board (in squares) the analysis accepts: it keeps one `u32` per square.
pub const MAX_ANALYSIS_SQUARES: u32 = 1 << 26;

/// An unvisited square none of whose knight neighbours is free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stranded {
    /// The square.
    pub square: Square,
    /// 1-based visit number of the square whose visit took its last free neighbour; `None` when it has
    /// no knight neighbour on the board at all.
    pub since: Option<u32>,
}

/// The choice made at one square of the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateStep {
    /// 1-based visit number of `from`.
    pub number: u32,
    /// The square moved from.
    pub from: Square,
    /// Unvisited knight neighbours of `from` (label order) with their degrees.
    pub candidates: Vec<(Square, u8)>,
    /// The square actually taken next; `None` at the dead end.
    pub chosen: Option<Square>,
}

impl CandidateStep {
    /// Smallest candidate degree, if there is a candidate.
    pub fn min_degree(&self) -> Option<u8> {
        self.candidates.iter().map(|&(_, d)| d).min()
    }

    /// Whether two or more candidates share the smallest degree, so a tie-break rule decided.
    pub fn tied(&self) -> bool {
        let min = self.min_degree();
        self.candidates
            .iter()
            .filter(|&&(_, d)| Some(d) == min)
            .count()
            > 1
    }
}

/// Everything the failed-run picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedAnalysis {
    /// The last square of the partial path.
    pub dead_end: Square,
    /// Squares visited (distinct).
    pub visited: u32,
    /// Squares never visited, row by row.
    pub unvisited: Vec<Square>,
    /// Unvisited squares with no free neighbour, row by row.
    pub stranded: Vec<Stranded>,
    /// The last few choices, oldest first; the last one is the dead end itself (its candidates, if any,
    /// are the moves the run did not take).
    pub steps: Vec<CandidateStep>,
}

/// Analyse a partial path on `board`; `last` is how many of the final squares get their candidates
/// listed (the dead end included). Errors on an empty path, a square off the board, or a board larger
/// than [`MAX_ANALYSIS_SQUARES`].
pub fn analyse_failed(
    board: Board,
    squares: &[Square],
    last: usize,
) -> Result<FailedAnalysis, RenderError> {
    if board.len() > MAX_ANALYSIS_SQUARES {
        return Err(RenderError::TooLarge {
            board,
            limit: MAX_ANALYSIS_SQUARES,
        });
    }
    let Some(&dead_end) = squares.last() else {
        return Err(RenderError::Empty);
    };
    check_on_board(board, squares)?;
    // visit[i]: 1-based visit number of square i (its first visit), 0 if never visited.
    let mut visit = vec![0u32; board.len() as usize];
    let mut visited = 0;
    for (i, &sq) in squares.iter().enumerate() {
        let slot = &mut visit[board.index(sq) as usize];
        if *slot == 0 {
            *slot = i as u32 + 1;
            visited += 1;
        }
    }
    let number_of = |sq: Square| visit[board.index(sq) as usize];
    let mut unvisited = Vec::new();
    let mut stranded = Vec::new();
    for sq in board.squares() {
        if number_of(sq) != 0 {
            continue;
        }
        unvisited.push(sq);
        let mut since = None;
        let mut free = false;
        for n in board.neighbours(sq) {
            match number_of(n) {
                0 => free = true,
                v => since = Some(since.map_or(v, |s: u32| s.max(v))),
            }
        }
        if !free {
            stranded.push(Stranded { square: sq, since });
        }
    }
    let first = squares.len().saturating_sub(last.max(1));
    let steps = (first..squares.len())
        .map(|i| {
            let now = i as u32 + 1;
            // Free at time `now`: never visited, or first visited after `now`.
            let free = |sq: Square| {
                let v = number_of(sq);
                v == 0 || v > now
            };
            let from = squares[i];
            let candidates = board
                .neighbours(from)
                .filter(|&c| free(c))
                .map(|c| (c, board.neighbours(c).filter(|&n| free(n)).count() as u8))
                .collect();
            CandidateStep {
                number: now,
                from,
                candidates,
                chosen: squares.get(i + 1).copied(),
            }
        })
        .collect();
    Ok(FailedAnalysis {
        dead_end,
        visited,
        unvisited,
        stranded,
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stranded_square_and_degrees_on_a_small_board() {
        // 3x3: the centre has no knight neighbour; the path (0,0) (1,2) (2,0) strands nothing else yet.
        let b = Board::square(3).unwrap();
        let path = [Square::new(0, 0), Square::new(1, 2), Square::new(2, 0)];
        let a = analyse_failed(b, &path, 5).unwrap();
        assert_eq!(a.dead_end, Square::new(2, 0));
        assert_eq!(a.visited, 3);
        assert_eq!(a.unvisited.len(), 6);
        let centre = a
            .stranded
            .iter()
            .find(|s| s.square == Square::new(1, 1))
            .unwrap();
        assert_eq!(centre.since, None);
        // (2,0) -> (0,1): free neighbours of (0,1) are (2,2) only ((2,0) is visited now).
        let last = a.steps.last().unwrap();
        assert_eq!(last.chosen, None);
        assert_eq!(last.candidates, vec![(Square::new(0, 1), 1)]);
        // At (0,0) the candidates were (1,2) and (2,1), each with one free neighbour: a tie.
        assert_eq!(
            a.steps[0].candidates,
            vec![(Square::new(1, 2), 1), (Square::new(2, 1), 1)]
        );
        assert!(a.steps[0].tied());
    }

    #[test]
    fn errors_instead_of_panics() {
        let b = Board::square(5).unwrap();
        assert!(analyse_failed(b, &[], 5).is_err());
        assert!(analyse_failed(b, &[Square::new(7, 0)], 5).is_err());
    }
}
