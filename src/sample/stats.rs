//! Statistics of a tour that the sampler estimates over random tours: its crossings (pairs of moves
//! whose segments, between the squares' centres, cross) and its straight pairs (consecutive moves
//! in the same direction), with the mean over many tours and its 95% normal interval.
//!
//! Source: the questions are those of Knuth's census of the 8x8 tours and of Jelliss's *Knight's
//! Tour Notes* (crossings, "straights"); the segment test is the classical orientation test
//! (Cormen et al., *Introduction to Algorithms*, section 33.1).

use crate::board::Square;

/// The moves of a tour: consecutive squares, and the last back to the first when `closed`.
fn moves(tour: &[Square], closed: bool) -> Vec<((i64, i64), (i64, i64))> {
    let at = |s: &Square| (i64::from(s.row()), i64::from(s.col()));
    let mut m: Vec<_> = tour.windows(2).map(|w| (at(&w[0]), at(&w[1]))).collect();
    if closed && tour.len() > 2 {
        m.push((at(&tour[tour.len() - 1]), at(&tour[0])));
    }
    m
}

/// The sign of the turn from `a -> b` to `a -> c`.
fn orient(a: (i64, i64), b: (i64, i64), c: (i64, i64)) -> i64 {
    ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).signum()
}

/// Pairs of moves whose segments cross at a point inside both. Knight moves that share a square
/// meet only there (no lattice point lies inside a move), so they never count.
pub fn crossings(tour: &[Square], closed: bool) -> u32 {
    let m = moves(tour, closed);
    let mut n = 0;
    for (i, &(a, b)) in m.iter().enumerate() {
        for &(c, d) in &m[i + 1..] {
            if orient(a, b, c) * orient(a, b, d) < 0 && orient(c, d, a) * orient(c, d, b) < 0 {
                n += 1;
            }
        }
    }
    n
}

/// Consecutive moves (with the pair around the start of a closed tour) in the same direction.
pub fn straight_pairs(tour: &[Square], closed: bool) -> u32 {
    let m = moves(tour, closed);
    let step = |(a, b): ((i64, i64), (i64, i64))| (b.0 - a.0, b.1 - a.1);
    let mut n = m.windows(2).filter(|w| step(w[0]) == step(w[1])).count();
    if closed && m.len() > 2 && step(m[m.len() - 1]) == step(m[0]) {
        n += 1;
    }
    n as u32
}

/// The mean of `values` and its 95% normal interval (1.96 standard errors).
pub fn mean_interval(values: &[f64]) -> (f64, f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tour(squares: &[(u16, u16)]) -> Vec<Square> {
        squares.iter().map(|&(r, c)| Square::new(r, c)).collect()
    }

    /// Hand-checked: two moves that cross, two that share a square, two parallel; straight pairs
    /// in an open path and around a closed one.
    #[test]
    fn crossings_and_straight_pairs_by_hand() {
        // (0,0)-(1,2) and (1,0)-(0,2) cross at (0.5, 1)
        assert_eq!(
            crossings(&tour(&[(0, 0), (1, 2), (2, 0), (1, 0), (0, 2)]), false),
            1
        );
        assert_eq!(crossings(&tour(&[(0, 0), (1, 2), (2, 4)]), false), 0);
        assert_eq!(
            crossings(&tour(&[(0, 0), (1, 2), (0, 3), (1, 5)]), false),
            0
        );
        assert_eq!(
            straight_pairs(&tour(&[(0, 0), (1, 2), (2, 4), (0, 3)]), false),
            1
        );
        // the 3x4 closed tour does not exist; a closed 8-cycle of the 3x3 board's rim: the moves
        // (0,0)-(1,2)-(2,0)-(0,1)-(2,2)-(1,0)-(0,2)-(2,1)-(0,0) never repeat a direction twice
        let rim = tour(&[
            (0, 0),
            (1, 2),
            (2, 0),
            (0, 1),
            (2, 2),
            (1, 0),
            (0, 2),
            (2, 1),
        ]);
        assert_eq!(straight_pairs(&rim, true), 0);
        // its moves form an eight-pointed star: each crosses four others (16 pairs)
        assert_eq!(crossings(&rim, true), 16);
        let (mean, low, high) = mean_interval(&[1.0, 2.0, 3.0]);
        assert!((mean - 2.0).abs() < 1e-12 && low < 2.0 && high > 2.0);
    }
}
