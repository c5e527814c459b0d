//! Distance tie-breaks after A. Roth, "The problem of the knight: a fast and simple algorithm" (1992):
//! `roth` (farthest from the true centre), `roth-original` (his Mathematica code exactly: farthest from
//! his `Round[n/2] - 1/2` on each axis in 1-based coordinates, where Mathematica's `Round` takes a half
//! to the even integer, then his candidate order 5,6,7,8,1,2,3,4; `docs/REFERENCE.md` section 4) and
//! `center` (nearest, the control).
//! Distances are compared squared in doubled integer coordinates: no floats.

use super::LabelOrder;
use crate::board::{Board, Square};

/// Roth's candidate order in our labels.
pub(super) const ORIGINAL_ORDER: LabelOrder = LabelOrder::digits("56781234");

/// Per-square preference classes of a distance rule on `layout`'s board: `class[p]` for every on-board
/// padded square `p` (0 elsewhere) indexes `orders`, the eight labels sorted by the distance key of
/// the square each leads to, equal keys in `scan` order. This is the rule's whole tie-break, so
/// Warnsdorff order under it is (degree, position in the class order). `None` if there were more
/// than 256 classes (a few dozen on real boards).
///
/// Neighbouring squares almost always share their order (classes are sectors around the target),
/// so each square first checks the previous square's order against its own keys, and sorts and
/// searches the known orders only where that order no longer holds: a few nanoseconds a square
/// where sorting every square took about 30.
pub(crate) fn preference_classes(
    layout: &crate::board::Layout,
    target: Target,
    scan: LabelOrder,
) -> Option<(Vec<u8>, Vec<[u8; 8]>)> {
    let board = layout.board();
    let mut orders: Vec<[u8; 8]> = Vec::new();
    let mut class = vec![0u8; layout.len()];
    // the scan position of each label: ties in the key go to the earlier one
    let mut rank = [0u8; 8];
    for (i, &k) in scan.labels().iter().enumerate() {
        rank[k as usize] = i as u8;
    }
    let mut last: Option<(u8, [u8; 8])> = None;
    for sq in board.squares() {
        let (r, c) = (sq.row() as i64, sq.col() as i64);
        let keys: [(i64, u8); 8] = std::array::from_fn(|k| {
            let (dr, dc) = crate::board::KNIGHT_DELTAS[k];
            (target.key_at(r + dr as i64, c + dc as i64), rank[k])
        });
        let holds = |order: &[u8; 8]| {
            order
                .windows(2)
                .all(|w| keys[w[0] as usize] < keys[w[1] as usize])
        };
        let id = match last {
            Some((id, order)) if holds(&order) => id,
            _ => {
                let mut order = *scan.labels();
                // stable sort by key keeps scan order among equal distances
                order.sort_by_key(|&k| keys[k as usize].0);
                let id = match orders.iter().position(|o| *o == order) {
                    Some(i) => i,
                    None => {
                        orders.push(order);
                        orders.len() - 1
                    }
                };
                let id = u8::try_from(id).ok()?;
                last = Some((id, order));
                id
            }
        };
        class[layout.pad(sq)] = id;
    }
    Some((class, orders))
}

/// Mathematica's `Round[n/2]`: a half goes to the even integer (`Round[5/2] = 2`, `Round[7/2] = 4`),
/// which is where Roth's point differs from a half-up rounding, on axes of length 1 mod 4.
fn mathematica_round_half(n: u32) -> i64 {
    let (half, odd) = (i64::from(n / 2), n % 2 == 1);
    if odd && half % 2 == 1 {
        half + 1
    } else {
        half
    }
}

/// A point in doubled coordinates, and which way distance is preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    row2: i64,
    col2: i64,
    farthest: bool,
}

impl Target {
    /// The point `(row2 / 2, col2 / 2)`, farthest preferred if `farthest`, else nearest: what a
    /// distance rule's file defines.
    pub(super) const fn new(row2: i64, col2: i64, farthest: bool) -> Self {
        Target {
            row2,
            col2,
            farthest,
        }
    }

    /// The true centre `((rows-1)/2, (cols-1)/2)`, farthest preferred.
    pub(super) fn roth(board: Board) -> Self {
        Target::new(board.rows() as i64 - 1, board.cols() as i64 - 1, true)
    }

    /// Roth's off-centre point `(Round[rows/2] - 3/2, Round[cols/2] - 3/2)` (0-based), farthest
    /// preferred.
    pub(super) fn roth_original(board: Board) -> Self {
        Target::new(
            2 * mathematica_round_half(board.rows()) - 3,
            2 * mathematica_round_half(board.cols()) - 3,
            true,
        )
    }

    /// [`Target::roth_original`] with `Round[n/2]` taken half up: `n.div_ceil(2)` on each axis.
    pub(super) fn roth_half_up(board: Board) -> Self {
        Target::new(
            2 * i64::from(board.rows().div_ceil(2)) - 3,
            2 * i64::from(board.cols().div_ceil(2)) - 3,
            true,
        )
    }

    /// The true centre, nearest preferred.
    pub(crate) fn center(board: Board) -> Self {
        Target {
            farthest: false,
            ..Target::roth(board)
        }
    }

    /// The key of a move as a linear form: from the square `(row, col)`, the move `(dr, dc)` is
    /// preferred to the move `(dr', dc')` exactly when `w(dr, dc) > w(dr', dc')`, where
    /// `w(dr, dc) = (s * dr) * u + (s * dc) * v` with `(u, v) = (2 * row - row2, 2 * col - col2)` and
    /// `s` = 1 if the farthest is preferred, -1 if the nearest. Returns `(row2, col2, s)`. Why: the
    /// squared distance of the square reached is `u^2 + v^2 + 4 * (dr * u + dc * v) + 4 * (dr^2 +
    /// dc^2)`, and `dr^2 + dc^2` is the same for every move of one leaper (5 for the knight), so only the middle term tells two moves
    /// of one square apart. The fast kernel compares moves by it on ties, with no per-square table.
    pub(crate) fn linear_form(&self) -> (i64, i64, i64) {
        (self.row2, self.col2, if self.farthest { 1 } else { -1 })
    }

    /// Squared distance from the point, in doubled coordinates.
    #[cfg(test)]
    pub(super) fn distance2(&self, sq: Square) -> i64 {
        let dr = 2 * sq.row() as i64 - self.row2;
        let dc = 2 * sq.col() as i64 - self.col2;
        dr * dr + dc * dc
    }

    /// Smaller is preferred.
    #[inline]
    pub(crate) fn key(&self, sq: Square) -> i64 {
        self.key_at(sq.row() as i64, sq.col() as i64)
    }

    /// [`Target::key`] of the point `(row, col)`, which may lie off the board (the fast kernel ranks
    /// all eight knight moves of a square, on the board or not).
    #[inline]
    pub(crate) fn key_at(&self, row: i64, col: i64) -> i64 {
        let dr = 2 * row - self.row2;
        let dc = 2 * col - self.col2;
        let d = dr * dr + dc * dc;
        if self.farthest {
            -d
        } else {
            d
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow float reference: Euclidean distance computed directly.
    fn float_distance(sq: Square, r: f64, c: f64) -> f64 {
        ((sq.row() as f64 - r).powi(2) + (sq.col() as f64 - c).powi(2)).sqrt()
    }

    /// Roth's point on each axis against Mathematica's `Round` done in floating point (halves to
    /// even): 0-based `Round[n/2] - 3/2`, so 5 -> 0.5 (a half-up rounding would give 1.5), 7 -> 2.5,
    /// 8 -> 2.5, 9 -> 2.5 (not 3.5).
    #[test]
    fn roth_original_rounds_halves_to_even_as_mathematica_does() {
        for n in 1..=200u32 {
            let want = (f64::from(n) / 2.0).round_ties_even() * 2.0 - 3.0;
            assert_eq!(
                mathematica_round_half(n) as f64 * 2.0 - 3.0,
                want,
                "n = {n}"
            );
        }
        let point = |n: u64| {
            let t = Target::roth_original(Board::square(n).unwrap());
            (t.row2, t.col2)
        };
        assert_eq!(point(5), (1, 1));
        assert_eq!(point(7), (5, 5));
        assert_eq!(point(8), (5, 5));
        assert_eq!(point(9), (5, 5));
        assert_eq!(point(13), (9, 9));
    }

    /// The half-up reading of the same point: 5 -> 1.5 and 9 -> 3.5, where half-to-even gives 0.5
    /// and 2.5; equal to it off the axes of length 1 mod 4.
    #[test]
    fn roth_half_up_rounds_halves_up() {
        for n in 1..=200u32 {
            let want = (f64::from(n) / 2.0 + 0.5).floor() * 2.0 - 3.0;
            let t = Target::roth_half_up(Board::new(u64::from(n), 5).unwrap());
            assert_eq!(t.row2 as f64, want, "n = {n}");
            let even = Target::roth_original(Board::new(u64::from(n), 5).unwrap());
            assert_eq!(t.row2 == even.row2, n % 4 != 1, "n = {n}");
        }
    }

    /// The classes as first written: every square's order sorted and searched for afresh.
    fn classes_sorted_per_square(
        layout: &crate::board::Layout,
        target: Target,
        scan: LabelOrder,
    ) -> (Vec<u8>, Vec<[u8; 8]>) {
        let mut orders: Vec<[u8; 8]> = Vec::new();
        let mut class = vec![0u8; layout.len()];
        for sq in layout.board().squares() {
            let (r, c) = (sq.row() as i64, sq.col() as i64);
            let mut order = *scan.labels();
            order.sort_by_key(|&k| {
                let (dr, dc) = crate::board::KNIGHT_DELTAS[k as usize];
                target.key_at(r + dr as i64, c + dc as i64)
            });
            let id = orders.iter().position(|o| *o == order).unwrap_or_else(|| {
                orders.push(order);
                orders.len() - 1
            });
            class[layout.pad(sq)] = id as u8;
        }
        (class, orders)
    }

    #[test]
    fn classes_equal_those_sorted_square_by_square() {
        let scans = [
            LabelOrder::digits("12345678"),
            ORIGINAL_ORDER,
            LabelOrder::digits("87654321"),
        ];
        for (rows, cols) in [
            (1u64, 1u64),
            (5, 5),
            (8, 8),
            (9, 13),
            (40, 7),
            (101, 101),
            (64, 250),
        ] {
            let b = Board::new(rows, cols).unwrap();
            let layout = crate::board::Layout::new(b);
            let targets = [
                Target::roth(b),
                Target::roth_original(b),
                Target::roth_half_up(b),
                Target::center(b),
                Target::new(3, -7, true),
            ];
            for target in targets {
                for scan in scans {
                    let got = preference_classes(&layout, target, scan).unwrap();
                    let want = classes_sorted_per_square(&layout, target, scan);
                    assert_eq!(got, want, "{b} {target:?} {scan:?}");
                }
            }
        }
    }

    #[test]
    fn integer_distances_order_like_float_distances() {
        for (rows, cols) in [(5u64, 5u64), (8, 8), (7, 10), (9, 4)] {
            let b = Board::new(rows, cols).unwrap();
            let roth = Target::roth(b);
            let orig = Target::roth_original(b);
            let (cr, cc) = ((rows as f64 - 1.0) / 2.0, (cols as f64 - 1.0) / 2.0);
            let (or, oc) = (
                (rows as f64 / 2.0).round_ties_even() - 1.5,
                (cols as f64 / 2.0).round_ties_even() - 1.5,
            );
            for a in b.squares() {
                for z in b.squares() {
                    let fa = float_distance(a, cr, cc);
                    let fz = float_distance(z, cr, cc);
                    if (fa - fz).abs() > 1e-9 {
                        assert_eq!(roth.distance2(a) < roth.distance2(z), fa < fz);
                    } else {
                        assert_eq!(roth.distance2(a), roth.distance2(z));
                    }
                    let ga = float_distance(a, or, oc);
                    let gz = float_distance(z, or, oc);
                    if (ga - gz).abs() > 1e-9 {
                        assert_eq!(orig.distance2(a) < orig.distance2(z), ga < gz);
                    }
                }
            }
        }
    }

    #[test]
    fn original_point_differs_from_centre_as_published() {
        // 8x8: centre (3.5, 3.5); Roth's point (4 - 1.5, 4 - 1.5) = (2.5, 2.5).
        let b = Board::square(8).unwrap();
        assert_eq!((Target::roth(b).row2, Target::roth(b).col2), (7, 7));
        assert_eq!(
            (Target::roth_original(b).row2, Target::roth_original(b).col2),
            (5, 5)
        );
        // 5x5: centre (2, 2); Roth's point Round[5/2] - 1.5 = 2 - 1.5 = 0.5 (Mathematica rounds 2.5
        // to 2).
        let b = Board::square(5).unwrap();
        assert_eq!(Target::roth(b).row2, 4);
        assert_eq!(Target::roth_original(b).row2, 1);
    }
}
