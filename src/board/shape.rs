//! Any board (`docs/REFERENCE.md`, section 9): a `rows x cols` rectangle with holes, walked by an
//! `(a, b)` leaper. Knuth's Stanford GraphBase `board()` generates the same graphs; the labels of a
//! leaper's eight moves go clockwise from "up b, right a", so that the knight `(1, 2)` keeps the labels
//! of Squirrel & Cull (1996, Fig. 1).
//!
//! A [`Shape`] is the description; [`Shape::neighbours`] is its one definition of a move, which the
//! verifier, the search on any board (`solve::shaped`) and its slow twin all read through.

use super::{Board, Square};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Longest leap a leaper may make along one axis: `b` of `(a, b)`. Far above any leaper studied
/// (Knuth's tables stop at `(1, 4)` and `(2, 3)`); it bounds the padding of the padded layouts.
pub const MAX_LEAP: u32 = 16;

/// An `(a, b)` leaper, `0 < a < b`: moves `a` squares along one axis and `b` along the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leaper {
    a: u8,
    b: u8,
}

/// The leapers with names in the fairy-chess literature (Knuth, TAOCP pre-fascicle 8A).
const NAMED: [(&str, u8, u8); 4] = [
    ("knight", 1, 2),
    ("camel", 1, 3),
    ("zebra", 2, 3),
    ("giraffe", 1, 4),
];

impl Leaper {
    /// The knight, `(1, 2)`.
    pub const KNIGHT: Leaper = Leaper { a: 1, b: 2 };

    /// The `(a, b)` leaper; `0 < a < b <= MAX_LEAP`.
    pub fn new(a: u32, b: u32) -> Result<Leaper, ShapeError> {
        if a == 0 || a >= b || b > MAX_LEAP {
            return Err(ShapeError::Leaper(format!(
                "a leaper is (a,b) with 0 < a < b <= {MAX_LEAP} (got ({a},{b}))"
            )));
        }
        Ok(Leaper {
            a: a as u8,
            b: b as u8,
        })
    }

    /// The short side of the leap.
    pub const fn a(self) -> u32 {
        self.a as u32
    }

    /// The long side of the leap.
    pub const fn b(self) -> u32 {
        self.b as u32
    }

    /// The eight moves as `(drow, dcol)`, indexed by `label - 1`: clockwise from "up b, right a".
    pub const fn deltas(self) -> [(i32, i32); 8] {
        let (a, b) = (self.a as i32, self.b as i32);
        [
            (-b, a),
            (-a, b),
            (a, b),
            (b, a),
            (b, -a),
            (a, -b),
            (-a, -b),
            (-b, -a),
        ]
    }

    /// Whether `(dr, dc)` is one of its moves.
    pub fn is_move(self, dr: i32, dc: i32) -> bool {
        let (dr, dc) = (dr.unsigned_abs(), dc.unsigned_abs());
        (dr, dc) == (self.a(), self.b()) || (dr, dc) == (self.b(), self.a())
    }

    /// Its name, if the literature gives it one.
    pub fn name(self) -> Option<&'static str> {
        NAMED
            .iter()
            .find(|&&(_, a, b)| (a, b) == (self.a, self.b))
            .map(|&(n, _, _)| n)
    }

    /// Whether every move changes the square's colour (`a + b` odd): then a tour alternates colours.
    pub const fn changes_colour(self) -> bool {
        (self.a + self.b) % 2 == 1
    }

    /// Whether it can reach every square of a large enough board: `a + b` odd and `gcd(a, b) = 1`
    /// (otherwise its moves keep to a sublattice, and no board of two or more squares has a tour).
    pub fn is_free(self) -> bool {
        let (mut x, mut y) = (self.a, self.b);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        self.changes_colour() && x == 1
    }
}

impl Default for Leaper {
    fn default() -> Self {
        Leaper::KNIGHT
    }
}

impl fmt::Display for Leaper {
    /// `A,B`: the form `--leaper` and a spec's `leaper` take.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.a, self.b)
    }
}

impl FromStr for Leaper {
    type Err = ShapeError;
    /// `A,B`, `(A,B)`, or a name: `knight`, `camel`, `zebra`, `giraffe`.
    fn from_str(text: &str) -> Result<Self, ShapeError> {
        let t = text.trim();
        if let Some(&(_, a, b)) = NAMED.iter().find(|(n, _, _)| *n == t) {
            return Leaper::new(a as u32, b as u32);
        }
        let bad = || {
            ShapeError::Leaper(format!(
                "a leaper is A,B (two integers, 0 < A < B) or one of knight, camel, zebra, giraffe; got {text:?}"
            ))
        };
        let inner = t
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .unwrap_or(t);
        let (a, b) = inner.split_once(',').ok_or_else(bad)?;
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let b: u32 = b.trim().parse().map_err(|_| bad())?;
        Leaper::new(a, b)
    }
}

/// Why a shape was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A malformed or impossible leaper.
    #[error("{0}")]
    Leaper(String),
    /// A malformed mask.
    #[error("mask: {0}")]
    Mask(String),
}

/// A `rows x cols` rectangle with some squares removed, and the leaper that walks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    board: Board,
    leaper: Leaper,
    /// `hole[board.index(sq)]`; `None` when there are none.
    holes: Option<Arc<[bool]>>,
    open: u32,
}

impl Shape {
    /// The whole board, walked by the knight.
    pub fn full(board: Board) -> Shape {
        Shape {
            board,
            leaper: Leaper::KNIGHT,
            holes: None,
            open: board.len(),
        }
    }

    /// `board` without the squares `holes`, walked by `leaper`. Refused when a hole is off the
    /// board or no square is left.
    pub fn new(board: Board, leaper: Leaper, holes: &[Square]) -> Result<Shape, ShapeError> {
        let mut hole = vec![false; board.len() as usize];
        for &h in holes {
            if !board.contains(h.row() as i64, h.col() as i64) {
                return Err(ShapeError::Mask(format!(
                    "hole {h} is off the {board} board"
                )));
            }
            hole[board.index(h) as usize] = true;
        }
        let open = hole.iter().filter(|&&h| !h).count() as u32;
        if open == 0 {
            return Err(ShapeError::Mask(format!(
                "every square of the {board} board is a hole"
            )));
        }
        let holes = (open < board.len()).then(|| Arc::from(hole));
        Ok(Shape {
            board,
            leaper,
            holes,
            open,
        })
    }

    /// The shape a mask draws: one line a row, `.` a square, `#` a hole (blank lines at the end and
    /// trailing spaces ignored).
    pub fn from_mask(text: &str, leaper: Leaper) -> Result<Shape, ShapeError> {
        let lines: Vec<&str> = text.trim_end().lines().map(str::trim_end).collect();
        let cols = lines.first().map_or(0, |l| l.chars().count());
        if lines.is_empty() || cols == 0 {
            return Err(ShapeError::Mask(
                "empty: one line a row, '.' for a square, '#' for a hole".into(),
            ));
        }
        let board = Board::new(lines.len() as u64, cols as u64)
            .map_err(|e| ShapeError::Mask(e.to_string()))?;
        let mut holes = Vec::new();
        for (r, line) in lines.iter().enumerate() {
            if line.chars().count() != cols {
                return Err(ShapeError::Mask(format!(
                    "line {} has {} characters, line 1 has {cols}: every row must be as long",
                    r + 1,
                    line.chars().count()
                )));
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' => {}
                    '#' => holes.push(Square::new(r as u16, c as u16)),
                    other => {
                        return Err(ShapeError::Mask(format!(
                        "line {}, column {}: {other:?} is neither '.' (a square) nor '#' (a hole)",
                        r + 1,
                        c + 1
                    )))
                    }
                }
            }
        }
        Shape::new(board, leaper, &holes)
    }

    /// The same squares walked by another leaper.
    pub fn with_leaper(mut self, leaper: Leaper) -> Shape {
        self.leaper = leaper;
        self
    }

    /// The rectangle.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The leaper.
    pub fn leaper(&self) -> Leaper {
        self.leaper
    }

    /// Whether this is a whole board walked by the knight: the shape of every engine's fast path.
    pub fn is_full_knight(&self) -> bool {
        self.holes.is_none() && self.leaper == Leaper::KNIGHT
    }

    /// Whether some squares are holes.
    pub fn has_holes(&self) -> bool {
        self.holes.is_some()
    }

    /// The number of squares (holes not counted).
    pub fn len(&self) -> u32 {
        self.open
    }

    /// Never true: a shape keeps at least one square.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether `sq` is one of its squares (on the board, not a hole).
    pub fn contains(&self, sq: Square) -> bool {
        self.board.contains(sq.row() as i64, sq.col() as i64)
            && !self
                .holes
                .as_ref()
                .is_some_and(|h| h[self.board.index(sq) as usize])
    }

    /// Its square at `(row, col)`, if there is one.
    pub fn try_square(&self, row: i64, col: i64) -> Option<Square> {
        self.board
            .try_square(row, col)
            .filter(|&s| self.contains(s))
    }

    /// Every square, row by row, holes left out.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.board.squares().filter(|&s| self.contains(s))
    }

    /// The holes, row by row.
    pub fn holes(&self) -> impl Iterator<Item = Square> + '_ {
        self.board.squares().filter(|&s| !self.contains(s))
    }

    /// The squares one move from `sq`, with their 0-based labels, in label order.
    pub fn neighbours(&self, sq: Square) -> impl Iterator<Item = (usize, Square)> + '_ {
        self.leaper
            .deltas()
            .into_iter()
            .enumerate()
            .filter_map(move |(k, (dr, dc))| {
                self.try_square(sq.row() as i64 + dr as i64, sq.col() as i64 + dc as i64)
                    .map(|n| (k, n))
            })
    }

    /// Whether `a` and `b` are one move apart.
    pub fn is_move(&self, a: Square, b: Square) -> bool {
        self.leaper.is_move(
            b.row() as i32 - a.row() as i32,
            b.col() as i32 - a.col() as i32,
        )
    }

    /// Whether a path of more than two squares has its ends one move apart.
    pub fn closes(&self, path: &[Square]) -> bool {
        match path {
            [first, .., last] if path.len() > 2 => self.is_move(*first, *last),
            _ => false,
        }
    }

    /// The mask text ([`Shape::from_mask`]'s form).
    pub fn mask_text(&self) -> String {
        let mut out = String::new();
        for r in 0..self.board.rows() {
            for c in 0..self.board.cols() {
                let sq = Square::new(r as u16, c as u16);
                out.push(if self.contains(sq) { '.' } else { '#' });
            }
            out.push('\n');
        }
        out
    }
}

impl From<Board> for Shape {
    fn from(board: Board) -> Shape {
        Shape::full(board)
    }
}

impl fmt::Display for Shape {
    /// `8x8`, `8x8 (1,3)-leaper`, `8x8 with 4 holes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board)?;
        let holes = self.board.len() - self.open;
        if holes > 0 {
            write!(f, " with {holes} hole{}", if holes == 1 { "" } else { "s" })?;
        }
        if self.leaper != Leaper::KNIGHT {
            write!(f, ", ({})-leaper", self.leaper)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::KNIGHT_DELTAS;

    #[test]
    fn the_knight_keeps_the_knight_labels() {
        assert_eq!(Leaper::KNIGHT.deltas(), KNIGHT_DELTAS);
        let b = Board::new(6, 7).unwrap();
        let shape = Shape::full(b);
        for sq in b.squares() {
            let ours: Vec<Square> = shape.neighbours(sq).map(|(_, n)| n).collect();
            let board: Vec<Square> = b.neighbours(sq).collect();
            assert_eq!(ours, board);
        }
    }

    #[test]
    fn leaper_moves_go_clockwise_from_up_b_right_a() {
        for (a, b) in [(1, 3), (2, 3), (1, 4), (3, 7)] {
            let l = Leaper::new(a, b).unwrap();
            let d = l.deltas();
            assert_eq!(d[0], (-(b as i32), a as i32));
            let angle = |(dr, dc): (i32, i32)| {
                let t = (dc as f64).atan2(-dr as f64);
                if t < 0.0 {
                    t + std::f64::consts::TAU
                } else {
                    t
                }
            };
            for w in d.windows(2) {
                assert!(angle(w[0]) < angle(w[1]), "({a},{b})");
            }
            for (dr, dc) in d {
                assert!(l.is_move(dr, dc));
            }
            assert!(!l.is_move(a as i32, a as i32));
        }
    }

    #[test]
    fn leapers_parse_and_refuse() {
        assert_eq!(
            "camel".parse::<Leaper>().unwrap(),
            Leaper::new(1, 3).unwrap()
        );
        assert_eq!("(2,3)".parse::<Leaper>().unwrap().name(), Some("zebra"));
        assert_eq!(" 1, 4 ".parse::<Leaper>().unwrap().name(), Some("giraffe"));
        for bad in ["2,1", "0,3", "3,3", "1,17", "x", "1;2", ""] {
            assert!(bad.parse::<Leaper>().is_err(), "{bad}");
        }
        // the camel keeps to one colour; (3,6) changes colour but keeps to a sublattice
        assert!(!Leaper::new(1, 3).unwrap().is_free());
        assert!(Leaper::new(2, 3).unwrap().is_free());
        assert!(Leaper::new(1, 4).unwrap().is_free());
        assert!(Leaper::new(3, 6).unwrap().changes_colour());
        assert!(!Leaper::new(3, 6).unwrap().is_free());
        assert!(Leaper::new(3, 4).unwrap().is_free());
        assert!(!Leaper::new(3, 9).unwrap().is_free());
    }

    #[test]
    fn masks_parse_round_trip_and_refuse() {
        let text = "..#\n...\n#..\n";
        let s = Shape::from_mask(text, Leaper::KNIGHT).unwrap();
        assert_eq!(s.board(), Board::new(3, 3).unwrap());
        assert_eq!(s.len(), 7);
        assert_eq!(s.mask_text(), text);
        assert!(!s.contains(Square::new(0, 2)));
        assert_eq!(s.holes().count(), 2);
        assert!(s.neighbours(Square::new(1, 0)).all(|(_, n)| s.contains(n)));
        for bad in ["", "\n\n", "..\n.", "..x\n...", "##\n##"] {
            assert!(Shape::from_mask(bad, Leaper::KNIGHT).is_err(), "{bad:?}");
        }
        // a knight on the 3x3 board with a hole in the centre: every square has two neighbours
        let ring = Shape::from_mask("...\n.#.\n...", Leaper::KNIGHT).unwrap();
        assert!(ring.squares().all(|q| ring.neighbours(q).count() == 2));
    }
}
