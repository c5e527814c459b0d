//! The one start set of a sweep: how start squares are chosen on each board (`starts` in a spec:
//! `"all"`, `"corner"`, `"corners"`, `"edges"`, `"sample:K"` or a list of `[row, col]`). The spec
//! file holds it as written, the validated spec as run (a mask's starts listed), and the plan
//! finds each start from its number with it (`plan/starts.rs` adds the samples it draws).

use crate::board::{Board, Square};
use serde::{Deserialize, Serialize};

/// How start squares are chosen on each board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSet {
    /// Every square.
    All,
    /// (0,0).
    Corner,
    /// The four corners (fewer on thin boards).
    Corners,
    /// One square of each orbit of the edge squares under the board's symmetries
    /// ([`StartSet::edge_orbits`]).
    Edges,
    /// K distinct squares drawn per board from the experiment seed.
    Sample(u32),
    /// These squares (on every board of the sweep).
    List(Vec<Square>),
}

/// What `starts` takes, for errors.
const EXPECTED: &str =
    "\"all\", \"corner\", \"corners\", \"edges\", \"sample:K\" or a list of squares like [[0, 0], [2, 3]]";

impl StartSet {
    /// The set a keyword names (`all`, `corner`, `corners`, `edges`, `sample:K` with K > 0).
    pub fn keyword(k: &str) -> Result<StartSet, String> {
        Ok(match k {
            "all" => StartSet::All,
            "corner" => StartSet::Corner,
            "corners" => StartSet::Corners,
            "edges" => StartSet::Edges,
            _ => match k.strip_prefix("sample:").map(str::parse::<u32>) {
                Some(Ok(n)) if n > 0 => StartSet::Sample(n),
                _ => return Err(format!("{k:?}: expected {EXPECTED} (K > 0)")),
            },
        })
    }

    /// The distinct corners of `board`, row-major (a board one square wide has two), without
    /// allocating: `(corners, how many)`.
    pub fn corners(board: Board) -> ([Square; 4], usize) {
        let (r, c) = (board.rows() as u16 - 1, board.cols() as u16 - 1);
        let mut v = [
            Square::new(0, 0),
            Square::new(0, c),
            Square::new(r, 0),
            Square::new(r, c),
        ];
        v.sort();
        let mut n = 1;
        for i in 1..4 {
            if v[i] != v[n - 1] {
                v[n] = v[i];
                n += 1;
            }
        }
        (v, n)
    }

    /// How many squares [`StartSet::edge_orbit`] gives on `board`: the top row's left half, and on
    /// a board that is not square the left column's upper half below the corner too.
    pub fn edge_orbits(board: Board) -> u64 {
        let (rows, cols) = (board.rows() as u64, board.cols() as u64);
        let top = cols.div_ceil(2);
        if rows == cols {
            top
        } else {
            top + rows.div_ceil(2) - 1
        }
    }

    /// The `i`-th of the [`StartSet::edge_orbits`] squares of `board`: `(0, c)` for the first
    /// `ceil(cols/2)`, then `(r, 0)` from `r = 1`. Every edge square is the image of exactly one of
    /// them under a symmetry of the board (the square's eight, a rectangle's four), so the edge
    /// orbits are walked once each.
    pub fn edge_orbit(board: Board, i: u64) -> Square {
        let top = (board.cols() as u64).div_ceil(2);
        if i < top {
            Square::new(0, i as u16)
        } else {
            Square::new((i - top + 1) as u16, 0)
        }
    }

    /// How many start squares this gives on `board`, without listing them.
    pub fn count_on(&self, board: Board) -> u64 {
        match self {
            StartSet::All => board.len() as u64,
            StartSet::Corner => 1,
            StartSet::Corners => StartSet::corners(board).1 as u64,
            StartSet::Edges => StartSet::edge_orbits(board),
            StartSet::Sample(k) => (*k as u64).min(board.len() as u64),
            StartSet::List(v) => v.len() as u64,
        }
    }
}

impl Serialize for StartSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let word = match self {
            StartSet::All => "all",
            StartSet::Corner => "corner",
            StartSet::Corners => "corners",
            StartSet::Edges => "edges",
            StartSet::Sample(k) => return s.serialize_str(&format!("sample:{k}")),
            StartSet::List(v) => {
                let pairs: Vec<[u16; 2]> = v.iter().map(|q| [q.row(), q.col()]).collect();
                return pairs.serialize(s);
            }
        };
        s.serialize_str(word)
    }
}

/// Read by hand, so that a bad value is named with what was expected.
impl<'de> Deserialize<'de> for StartSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::SeqAccessDeserializer;
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = StartSet;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<StartSet, E> {
                StartSet::keyword(s).map_err(E::custom)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<StartSet, A::Error> {
                let pairs = Vec::<[u32; 2]>::deserialize(SeqAccessDeserializer::new(seq))?;
                let mut squares = Vec::with_capacity(pairs.len());
                for (i, [r, c]) in pairs.into_iter().enumerate() {
                    // every side is at most 65,535 squares
                    match (u16::try_from(r), u16::try_from(c)) {
                        (Ok(r), Ok(c)) => squares.push(Square::new(r, c)),
                        _ => {
                            return Err(serde::de::Error::custom(format!(
                                "starts[{i}]: [{r}, {c}] is off every board"
                            )))
                        }
                    }
                }
                Ok(StartSet::List(squares))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `edges` takes one square of each orbit of the edge squares: every edge square is the image
    /// of exactly one of them under the board's symmetries (eight on a square, four on a rectangle).
    #[test]
    fn edge_orbits_cover_the_edge_once() {
        for (rows, cols) in [
            (5, 5),
            (8, 8),
            (9, 9),
            (5, 6),
            (6, 9),
            (7, 4),
            (1, 5),
            (3, 3),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let (r, c) = (rows as u16 - 1, cols as u16 - 1);
            let images = |sq: Square| {
                let (a, b) = (sq.row(), sq.col());
                let mut v = vec![(a, b), (r - a, b), (a, c - b), (r - a, c - b)];
                if rows == cols {
                    v.extend([(b, a), (c - b, a), (b, r - a), (c - b, r - a)]);
                }
                v
            };
            let reps: Vec<Square> = (0..StartSet::edge_orbits(board))
                .map(|i| StartSet::edge_orbit(board, i))
                .collect();
            assert_eq!(StartSet::Edges.count_on(board), reps.len() as u64);
            let mut seen = std::collections::HashMap::new();
            for (i, &sq) in reps.iter().enumerate() {
                for image in images(sq) {
                    if let Some(j) = seen.insert(image, i) {
                        assert_eq!(j, i, "{rows}x{cols}: {image:?} in the orbits of two");
                    }
                }
            }
            for a in 0..=r {
                for b in 0..=c {
                    let edge = a == 0 || b == 0 || a == r || b == c;
                    assert_eq!(seen.contains_key(&(a, b)), edge, "{rows}x{cols}: ({a},{b})");
                }
            }
        }
    }

    /// The corners are the board's four corner squares, distinct, row-major, on thin boards too.
    #[test]
    fn corners_are_the_distinct_corner_squares() {
        for (r, c, want) in [
            (1, 1, vec![(0, 0)]),
            (1, 5, vec![(0, 0), (0, 4)]),
            (5, 1, vec![(0, 0), (4, 0)]),
            (3, 7, vec![(0, 0), (0, 6), (2, 0), (2, 6)]),
        ] {
            let (v, n) = StartSet::corners(Board::new(r, c).unwrap());
            let got: Vec<(u16, u16)> = v[..n].iter().map(|s| (s.row(), s.col())).collect();
            assert_eq!(got, want, "{r}x{c}");
        }
    }

    /// Written and read back, a set is the same; a keyword read is the keyword written.
    #[test]
    fn a_start_set_reads_back_as_written() {
        for text in [
            "\"all\"",
            "\"corner\"",
            "\"corners\"",
            "\"edges\"",
            "\"sample:7\"",
            "[[0, 0], [2, 3]]",
        ] {
            let set: StartSet = toml::from_str::<toml::Table>(&format!("v = {text}")).unwrap()["v"]
                .clone()
                .try_into()
                .unwrap();
            let back = toml::Value::try_from(&set).unwrap();
            assert_eq!(back.to_string(), text);
        }
        for bad in ["\"some\"", "\"sample:0\"", "5", "[[70000, 0]]"] {
            let v = toml::from_str::<toml::Table>(&format!("v = {bad}")).unwrap()["v"].clone();
            assert!(StartSet::deserialize(v).is_err(), "{bad}");
        }
    }
}
