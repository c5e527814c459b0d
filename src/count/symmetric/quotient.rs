//! The quotient of the knight graph by a rotation of the board: one vertex per orbit of squares,
//! and an edge per orbit of knight moves, labelled with its twist (how far round the rotation its
//! far end lies), so that a Hamiltonian cycle of the quotient whose twists add up to a generator of
//! the rotation group lifts to one closed tour of the board invariant under the rotation.
//!
//! Source: the covering-graph (voltage graph) construction of Gross and Tucker (*Topological Graph
//! Theory*, 1987, ch. 2): a closed walk of the quotient lifts to a closed walk of the board exactly
//! when its net voltage is the identity, so a Hamiltonian cycle of the quotient with net twist `t`
//! in `Z/k` lifts to `gcd(t, k)` disjoint cycles of `k / gcd(t, k)` times its length. Why the
//! rotation's orbits are all of size `k` and no move joins a square to its image by a half-turn is in
//! the module documentation of `symmetric`.

use crate::board::{Board, Square};

/// Which rotation the tours are invariant under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// None: the whole knight graph (the engine's cross-check against plain counts).
    Identity,
    /// The half-turn `(r, c) -> (rows - 1 - r, cols - 1 - c)`.
    Half,
    /// The quarter-turn `(r, c) -> (c, n - 1 - r)` of an `n x n` board.
    Quarter,
}

impl Rotation {
    /// The order of the rotation: the number of squares in each orbit.
    pub const fn order(self) -> u8 {
        match self {
            Rotation::Identity => 1,
            Rotation::Half => 2,
            Rotation::Quarter => 4,
        }
    }

    /// The rotation's degrees (0 for the identity).
    pub const fn degrees(self) -> u32 {
        match self {
            Rotation::Identity => 0,
            Rotation::Half => 180,
            Rotation::Quarter => 90,
        }
    }

    /// The image of `sq` under the rotation (`rows x cols` board; the quarter-turn needs a square
    /// board).
    pub fn apply(self, board: Board, sq: Square) -> Square {
        let (r, c) = (sq.row(), sq.col());
        let (m, n) = (board.rows() as u16, board.cols() as u16);
        match self {
            Rotation::Identity => sq,
            Rotation::Half => Square::new(m - 1 - r, n - 1 - c),
            Rotation::Quarter => Square::new(c, n - 1 - r),
        }
    }

    /// Whether `sq` lies in the fundamental domain, the one square of its orbit the quotient keeps:
    /// the top half for the half-turn, the top-left quarter for the quarter-turn (each orbit has
    /// exactly one square there on a board whose sides are even).
    fn in_domain(self, board: Board, sq: Square) -> bool {
        let (hr, hc) = (board.rows() as u16 / 2, board.cols() as u16 / 2);
        match self {
            Rotation::Identity => true,
            Rotation::Half => sq.row() < hr,
            Rotation::Quarter => sq.row() < hr && sq.col() < hc,
        }
    }

    /// The domain's square of `sq`'s orbit and `j` with `sq = rotation^j(that square)`.
    fn representative(self, board: Board, sq: Square) -> (Square, u8) {
        let mut image = sq;
        // rotating the other way round `k - j` times reaches the domain from rotation^j(rep)
        for back in 0..self.order() {
            if self.in_domain(board, image) {
                return (image, (self.order() - back) % self.order());
            }
            image = self.apply(board, image);
        }
        unreachable!("every orbit meets the domain on a board with even sides")
    }
}

/// One edge of the quotient: vertices `a < b` in the sweep order, and the twist `t` in `Z/k` met
/// going from `a` to `b` (square `a` is a knight's move from rotation^t of square `b`; going from
/// `b` to `a` meets `-t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The earlier end.
    pub a: u32,
    /// The later end.
    pub b: u32,
    /// The twist from `a` to `b`.
    pub twist: u8,
}

/// The quotient graph with its vertices numbered in the order a frontier adds them.
#[derive(Clone, Debug)]
pub struct Quotient {
    /// The board.
    pub board: Board,
    /// The rotation.
    pub rotation: Rotation,
    /// The square of each vertex, in sweep order.
    pub squares: Vec<Square>,
    /// The edges, parallel ones (a straight and a twisted move between the same two orbits)
    /// included; a move joining a square to its own image (possible under the quarter-turn) is a
    /// loop no cycle of more than one vertex uses, and is left out.
    pub edges: Vec<Edge>,
}

impl Quotient {
    /// The quotient of `board` by `rotation`, its vertices in whichever of the eight row- and
    /// column-major sweeps (from each corner) keeps the frontier narrowest. The board's sides must
    /// be even for a rotation other than the identity, and equal for the quarter-turn (checked by
    /// the caller).
    pub fn new(board: Board, rotation: Rotation) -> Quotient {
        let domain: Vec<Square> = board
            .squares()
            .filter(|&s| rotation.in_domain(board, s))
            .collect();
        let mut best: Option<(usize, Quotient)> = None;
        for order in sweeps(&domain) {
            let q = Quotient::in_order(board, rotation, order);
            let width = q.max_frontier();
            if best.as_ref().map_or(true, |(w, _)| width < *w) {
                best = Some((width, q));
            }
        }
        best.expect("at least one sweep").1
    }

    /// The quotient with its vertices in the order of `squares`.
    fn in_order(board: Board, rotation: Rotation, squares: Vec<Square>) -> Quotient {
        let index = |s: Square| squares.iter().position(|&x| x == s).expect("in domain") as u32;
        let k = rotation.order();
        let mut edges = Vec::new();
        for (i, &s) in squares.iter().enumerate() {
            for w in board.neighbours(s) {
                let (rep, j) = rotation.representative(board, w);
                let b = index(rep);
                // each orbit of moves has one move at each end's square: keep it from the earlier end
                if b > i as u32 {
                    edges.push(Edge {
                        a: i as u32,
                        b,
                        twist: j % k,
                    });
                }
            }
        }
        Quotient {
            board,
            rotation,
            squares,
            edges,
        }
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Whether the quotient has no vertex (never: a board has a square).
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// For each vertex, the last vertex of the sweep it has an edge to (itself if none is later).
    pub fn last_neighbour(&self) -> Vec<u32> {
        let mut last: Vec<u32> = (0..self.len() as u32).collect();
        for e in &self.edges {
            last[e.a as usize] = last[e.a as usize].max(e.b);
        }
        last
    }

    /// The most vertices the frontier holds after any step: those added whose last neighbour is
    /// still to come.
    pub fn max_frontier(&self) -> usize {
        let last = self.last_neighbour();
        (0..self.len() as u32)
            .map(|i| (0..=i).filter(|&j| last[j as usize] > i).count())
            .max()
            .unwrap_or(0)
    }
}

/// The squares of `domain` (a rectangle) in its eight row- and column-major orders: from each corner,
/// along rows or along columns.
fn sweeps(domain: &[Square]) -> Vec<Vec<Square>> {
    let mut orders = Vec::new();
    for by_cols in [false, true] {
        for flip_r in [false, true] {
            for flip_c in [false, true] {
                let mut order = domain.to_vec();
                order.sort_by_key(|s| {
                    let r = if flip_r {
                        -(s.row() as i32)
                    } else {
                        s.row() as i32
                    };
                    let c = if flip_c {
                        -(s.col() as i32)
                    } else {
                        s.col() as i32
                    };
                    if by_cols {
                        (c, r)
                    } else {
                        (r, c)
                    }
                });
                orders.push(order);
            }
        }
    }
    orders
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(r: u64, c: u64) -> Board {
        Board::new(r, c).unwrap()
    }

    #[test]
    fn every_move_of_the_board_is_one_edge_of_the_quotient_per_orbit() {
        for (b, rot) in [
            (board(6, 6), Rotation::Half),
            (board(6, 6), Rotation::Quarter),
            (board(4, 8), Rotation::Half),
            (board(6, 6), Rotation::Identity),
        ] {
            let q = Quotient::new(b, rot);
            let moves: usize = b.squares().map(|s| b.neighbours(s).count()).sum::<usize>() / 2;
            let loops = b
                .squares()
                .filter(|&s| b.neighbours(s).any(|w| w == rot.apply(b, s)))
                .count();
            assert_eq!(q.len() as u32 * rot.order() as u32, b.len());
            // a square next to its image by a quarter-turn is next to its image by the inverse
            // too: its orbit's four squares and four moves make a ring that the quotient drops
            assert_eq!(
                q.edges.len() * rot.order() as usize + loops,
                moves,
                "{b} {rot:?}"
            );
        }
    }

    #[test]
    fn each_edge_lifts_to_a_knight_move() {
        for (b, rot) in [
            (board(6, 6), Rotation::Half),
            (board(10, 10), Rotation::Quarter),
        ] {
            let q = Quotient::new(b, rot);
            for e in &q.edges {
                let mut far = q.squares[e.b as usize];
                for _ in 0..e.twist {
                    far = rot.apply(b, far);
                }
                assert!(crate::board::is_knight_move(q.squares[e.a as usize], far));
            }
        }
    }

    #[test]
    fn the_half_turn_never_maps_a_square_to_a_neighbour_on_even_boards() {
        for (r, c) in [(4, 4), (6, 6), (6, 8), (8, 8), (10, 10), (4, 10)] {
            let b = board(r, c);
            assert!(b
                .squares()
                .all(|s| !b.neighbours(s).any(|w| w == Rotation::Half.apply(b, s))));
        }
    }

    #[test]
    fn the_half_board_is_swept_along_its_rows() {
        let q = Quotient::new(board(10, 10), Rotation::Half);
        assert_eq!(q.len(), 50);
        assert!(q.max_frontier() <= 21, "{}", q.max_frontier());
    }
}
