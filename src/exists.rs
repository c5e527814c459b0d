//! Existence of knight's tours, answered from the theorems instead of by search.
//!
//! Open tours: the classical characterisation (Conrad, Hindrichs, Morsy & Wegener 1994): on `m x n`,
//! `m <= n`, an open tour exists unless `m in {1,2}` (1x1 is the trivial tour), or `m = 3` and
//! `n in {3,5,6}`, or `m = n = 4`. Closed tours: Schwenk (1991), "Which rectangular chessboards have a
//! knight's tour?": a closed tour exists unless `m` and `n` are both odd, or `m in {1,2,4}`, or `m = 3`
//! and `n in {4,6,8}`. Start squares: every move changes colour, so on a board with an odd number of
//! squares an open tour starts on the corners' colour. See `docs/REFERENCE.md`.

use crate::board::{Board, Closure, Leaper, Shape, Square};

/// Why no tour exists. The message cites the theorem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoTour {
    /// A 1 x n or 2 x n board with more than one square.
    #[error("no open tour on {0}: boards with a side of 1 or 2 have none (only 1x1 has the trivial tour)")]
    ThinBoard(Board),
    /// 3x3, 3x5, 3x6 or 4x4.
    #[error("no open tour on {0}: 3x3, 3x5, 3x6 and 4x4 are the exceptions (Conrad et al. 1994)")]
    SmallException(Board),
    /// Both sides odd: a closed tour alternates colours, so needs an even number of squares.
    #[error("no closed tour on {0}: both sides are odd, so the board has an odd number of squares (Schwenk 1991)")]
    ClosedOddBoard(Board),
    /// A side of 1, 2 or 4.
    #[error("no closed tour on {0}: a side of 1, 2 or 4 admits none (Schwenk 1991)")]
    ClosedThinBoard(Board),
    /// 3x4, 3x6, 3x8.
    #[error("no closed tour on {0}: 3x4, 3x6 and 3x8 are the exceptions (Schwenk 1991)")]
    ClosedThreeRowException(Board),
    /// An open tour on an odd board must start on the corners' colour.
    #[error("no tour of {board} starts at {start}: the board has an odd number of squares, so a tour must start on the corners' colour (row + col even)")]
    WrongColourStart {
        /// The board.
        board: Board,
        /// The requested start.
        start: Square,
    },
    /// A board with holes or another leaper that fails a necessary condition ([`shape_obstruction`]).
    #[error("no {closure} tour on {board}{}{}: {why}", if *.holes > 0 { format!(" with {holes} holes") } else { String::new() }, if *.leaper != Leaper::KNIGHT { format!(" walked by the ({leaper})-leaper") } else { String::new() })]
    Shape {
        /// The rectangle.
        board: Board,
        /// How many of its squares are holes.
        holes: u32,
        /// The leaper.
        leaper: Leaper,
        /// Open or closed.
        closure: Closure,
        /// The condition it fails.
        why: Obstruction,
    },
}

/// A necessary condition for a tour that a shape fails ([`shape_obstruction`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Obstruction {
    /// One square and a closed tour asked.
    #[error("one square has no cycle")]
    OneSquare,
    /// Two squares and a closed tour asked.
    #[error("a cycle needs three squares")]
    TwoSquares,
    /// No path joins two squares.
    #[error("no path joins {0} and {1}{why}", why = if *.2 { " (the leaper keeps to part of the board: a + b even, or a and b with a common factor)" } else { "" })]
    Disconnected(Square, Square, bool),
    /// A square with one move, and a closed tour asked.
    #[error("square {0} has one move, and a cycle enters and leaves each square")]
    OneMoveSquare(Square),
    /// More than two squares with one move.
    #[error("{0} squares have one move ({1}, {2}, {3}...), and a path has two ends")]
    ManyEnds(u32, Square, Square, Square),
    /// Two squares with one move, and a start that is neither.
    #[error("{0} and {1} have one move each, so they are the ends, and the start {2} is neither")]
    StartNotAnEnd(Square, Square, Square),
    /// Colours unequal, and a closed tour asked.
    #[error("its moves change colour, so a cycle needs as many squares of each colour, and it has {0} and {1}")]
    ColoursUnequal(u32, u32),
    /// Colours more than one apart.
    #[error("its moves change colour, so a path's colours differ by at most one square, and it has {0} and {1}")]
    ColoursApart(u32, u32),
    /// A start off the majority colour.
    #[error("its moves change colour and one colour has one square more, so a tour starts on that colour, which {0} is not")]
    StartColour(Square),
}

/// What the theorems say of a shape ([`shape_tour_from`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeAnswer {
    /// A tour exists: a whole board walked by the knight, by the theorems above (or the one-square
    /// open tour).
    Yes,
    /// No condition below rules a tour out; only a search can tell.
    Unknown,
}

/// Whether `shape` has a tour (from `start`, if given): the theorems above for a whole board walked
/// by the knight; for holes or another leaper, the necessary conditions of [`shape_obstruction`],
/// and otherwise [`ShapeAnswer::Unknown`].
pub fn shape_tour_from(
    shape: &Shape,
    start: Option<Square>,
    closure: Closure,
) -> Result<ShapeAnswer, NoTour> {
    shape_tour_with(shape, &ShapeFacts::of(shape), start, closure)
}

/// [`shape_tour_from`] with the shape's facts found beforehand (once for many starts).
pub fn shape_tour_with(
    shape: &Shape,
    facts: &ShapeFacts,
    start: Option<Square>,
    closure: Closure,
) -> Result<ShapeAnswer, NoTour> {
    if shape.is_full_knight() {
        let board = shape.board();
        return match start {
            Some(s) => tour_from(board, s, closure),
            None => tour(board, closure),
        }
        .map(|()| ShapeAnswer::Yes);
    }
    if let Some(why) = facts.obstruction(start, closure) {
        return Err(NoTour::Shape {
            board: shape.board(),
            holes: shape.board().len() - shape.len(),
            leaper: shape.leaper(),
            closure,
            why,
        });
    }
    Ok(if shape.len() == 1 && !closure.is_closed() {
        ShapeAnswer::Yes
    } else {
        ShapeAnswer::Unknown
    })
}

/// The first necessary condition for a tour (from `start`, if given) that `shape` fails; `None`
/// when it passes them all ([`ShapeFacts`]).
pub fn shape_obstruction(
    shape: &Shape,
    start: Option<Square>,
    closure: Closure,
) -> Option<Obstruction> {
    ShapeFacts::of(shape).obstruction(start, closure)
}

/// What the necessary conditions read of a shape, found once (a walk over its squares) so that
/// each start is then judged at once. The conditions hold on any graph: a tour needs a connected
/// graph; a closed tour needs three squares and two moves at every square; an open tour has two
/// ends, so at most two squares of one move, and a start among them when there are two; a leaper
/// whose moves change colour (`a + b` odd) alternates colours, so a closed tour needs as many
/// squares of each colour and an open one at most one more of one colour, on which it then starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeFacts {
    squares: u32,
    /// Two squares no path joins, and whether the leaper keeps to a sublattice.
    apart: Option<(Square, Square, bool)>,
    /// The squares with one move (the first three).
    ends: Vec<Square>,
    /// How many squares have one move.
    end_count: u32,
    /// Squares of the corners' colour, and of the other, when moves change colour.
    colours: Option<(u32, u32)>,
}

impl ShapeFacts {
    /// The facts of `shape`.
    pub fn of(shape: &Shape) -> ShapeFacts {
        let board = shape.board();
        let first = shape.squares().next().expect("a shape keeps a square");
        let mut reached = vec![false; board.len() as usize];
        reached[board.index(first) as usize] = true;
        let (mut stack, mut count) = (vec![first], 1u32);
        while let Some(sq) = stack.pop() {
            for (_, m) in shape.neighbours(sq) {
                if !std::mem::replace(&mut reached[board.index(m) as usize], true) {
                    count += 1;
                    stack.push(m);
                }
            }
        }
        let apart = (count < shape.len()).then(|| {
            let other = shape
                .squares()
                .find(|&s| !reached[board.index(s) as usize])
                .expect("an unreached square");
            (first, other, !shape.leaper().is_free())
        });
        let mut ends = Vec::new();
        let mut end_count = 0;
        for s in shape
            .squares()
            .filter(|&s| shape.neighbours(s).count() == 1)
        {
            end_count += 1;
            if ends.len() < 3 {
                ends.push(s);
            }
        }
        let colours = shape.leaper().changes_colour().then(|| {
            let light = shape
                .squares()
                .filter(|&s| Board::is_corner_colour(s))
                .count() as u32;
            (light, shape.len() - light)
        });
        ShapeFacts {
            squares: shape.len(),
            apart,
            ends,
            end_count,
            colours,
        }
    }

    /// The first condition a tour from `start` (if given) fails.
    pub fn obstruction(&self, start: Option<Square>, closure: Closure) -> Option<Obstruction> {
        let n = self.squares;
        if n == 1 {
            return closure.is_closed().then_some(Obstruction::OneSquare);
        }
        if closure.is_closed() && n < 3 {
            return Some(Obstruction::TwoSquares);
        }
        if let Some((a, b, sublattice)) = self.apart {
            return Some(Obstruction::Disconnected(a, b, sublattice));
        }
        if closure.is_closed() {
            if let Some(&s) = self.ends.first() {
                return Some(Obstruction::OneMoveSquare(s));
            }
        } else {
            if self.end_count > 2 {
                let e = &self.ends;
                return Some(Obstruction::ManyEnds(self.end_count, e[0], e[1], e[2]));
            }
            if let (Some(s), 2) = (start, self.end_count) {
                if !self.ends.contains(&s) {
                    return Some(Obstruction::StartNotAnEnd(self.ends[0], self.ends[1], s));
                }
            }
        }
        if let Some((light, dark)) = self.colours {
            if closure.is_closed() && light != dark {
                return Some(Obstruction::ColoursUnequal(light, dark));
            }
            if light.abs_diff(dark) > 1 {
                return Some(Obstruction::ColoursApart(light, dark));
            }
            if let Some(s) = start.filter(|_| !closure.is_closed() && light != dark) {
                if Board::is_corner_colour(s) != (light > dark) {
                    return Some(Obstruction::StartColour(s));
                }
            }
        }
        None
    }
}

fn sorted_sides(board: Board) -> (u32, u32) {
    let (r, c) = (board.rows(), board.cols());
    (r.min(c), r.max(c))
}

/// Whether `board` has an open knight's tour (a Hamiltonian path), and if not, why.
pub fn open_tour(board: Board) -> Result<(), NoTour> {
    let (m, n) = sorted_sides(board);
    if m == 1 && n == 1 {
        return Ok(());
    }
    if m <= 2 {
        return Err(NoTour::ThinBoard(board));
    }
    if (m == 3 && matches!(n, 3 | 5 | 6)) || (m == 4 && n == 4) {
        return Err(NoTour::SmallException(board));
    }
    Ok(())
}

/// Whether `board` has a closed knight's tour (Schwenk 1991), and if not, why.
pub fn closed_tour(board: Board) -> Result<(), NoTour> {
    let (m, n) = sorted_sides(board);
    if m % 2 == 1 && n % 2 == 1 {
        return Err(NoTour::ClosedOddBoard(board));
    }
    if matches!(m, 1 | 2 | 4) {
        return Err(NoTour::ClosedThinBoard(board));
    }
    if m == 3 && matches!(n, 4 | 6 | 8) {
        return Err(NoTour::ClosedThreeRowException(board));
    }
    Ok(())
}

/// [`open_tour`] or [`closed_tour`].
pub fn tour(board: Board, closure: Closure) -> Result<(), NoTour> {
    if closure.is_closed() {
        closed_tour(board)
    } else {
        open_tour(board)
    }
}

/// Necessary conditions for a tour from `start`: the board must have one, and on a board with an odd
/// number of squares an open tour starts on the corners' colour. Passing this check does not promise a
/// tour from `start` (3x4 from (1,1), say): search settles that.
pub fn tour_from(board: Board, start: Square, closure: Closure) -> Result<(), NoTour> {
    tour(board, closure)?;
    start_colour(board, start, closure)
}

/// The colour half of [`tour_from`], for a board already known to have a tour: on a board with an
/// odd number of squares an open tour starts on the corners' colour.
pub fn start_colour(board: Board, start: Square, closure: Closure) -> Result<(), NoTour> {
    if parity_allows(board, start, closure) {
        Ok(())
    } else {
        Err(NoTour::WrongColourStart { board, start })
    }
}

/// Whether colour parity allows an open tour from `start` (the `feasible_runs` of a sweep).
pub fn parity_allows(board: Board, start: Square, closure: Closure) -> bool {
    closure.is_closed() || board.len() % 2 == 0 || Board::is_corner_colour(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(r: u64, c: u64) -> Board {
        Board::new(r, c).unwrap()
    }

    /// Knuth, "Leaper graphs" (Mathematical Gazette 78, 1994), Theorem 1: the {r,s}-leaper graph of
    /// an m x n board, 2 <= m <= n, 1 <= r <= s, is connected if and only if r + s is relatively
    /// prime to s - r, n >= 2s and m >= r + s. Our connectivity condition (a walk over the squares)
    /// against the theorem, for every leaper with s <= 7 on every board up to 16 x 16.
    #[test]
    fn connectivity_is_knuths_theorem() {
        fn gcd(a: u32, b: u32) -> u32 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        let mut connected = 0;
        for r in 1..=6u32 {
            for s in r + 1..=7 {
                let leaper = Leaper::new(r, s).unwrap();
                for m in 2..=16u32 {
                    for n in m..=16u32 {
                        let shape = Shape::full(b(m as u64, n as u64)).with_leaper(leaper);
                        let ours = ShapeFacts::of(&shape).apart.is_none();
                        let knuth = gcd(r + s, s - r) == 1 && n >= 2 * s && m >= r + s;
                        assert_eq!(ours, knuth, "({r},{s}) on {m}x{n}");
                        connected += usize::from(ours);
                    }
                }
            }
        }
        // the comparison is not all "no": 496 of the 2,520 (leaper, board) pairs are connected
        assert_eq!(connected, 496);
    }

    #[test]
    fn open_exceptions() {
        assert!(open_tour(b(1, 1)).is_ok());
        assert!(open_tour(b(1, 2)).is_err());
        assert!(open_tour(b(2, 9)).is_err());
        for n in [3, 5, 6] {
            assert!(open_tour(b(3, n)).is_err());
            assert!(open_tour(b(n, 3)).is_err());
        }
        assert!(open_tour(b(3, 4)).is_ok());
        assert!(open_tour(b(3, 7)).is_ok());
        assert!(open_tour(b(4, 4)).is_err());
        assert!(open_tour(b(4, 5)).is_ok());
        assert!(open_tour(b(5, 5)).is_ok());
    }

    #[test]
    fn closed_exceptions() {
        assert!(closed_tour(b(5, 5)).is_err());
        assert!(closed_tour(b(4, 10)).is_err());
        assert!(closed_tour(b(3, 8)).is_err());
        assert!(closed_tour(b(3, 10)).is_ok());
        assert!(closed_tour(b(5, 6)).is_ok());
        assert!(closed_tour(b(6, 6)).is_ok());
        assert!(closed_tour(b(1, 1)).is_err());
    }

    #[test]
    fn parity_of_start() {
        let five = b(5, 5);
        assert!(tour_from(five, Square::new(0, 0), Closure::Open).is_ok());
        assert!(matches!(
            tour_from(five, Square::new(0, 1), Closure::Open),
            Err(NoTour::WrongColourStart { .. })
        ));
        assert!(tour_from(b(6, 6), Square::new(0, 1), Closure::Open).is_ok());
    }
}
