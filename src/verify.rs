//! The independent tour verifier: checks a sequence of squares against the definition of a knight's tour
//! (or, on any board, of a tour of its squares by its leaper's moves) and nothing else. It shares no code with the search engine on purpose; every tour that any solver
//! returns in the tests goes through here.

use crate::board::{Board, Shape, Square};

/// What a valid tour turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourKind {
    /// Visits every square once; the last square is not a knight move from the first.
    Open,
    /// Visits every square once and the last square is a knight move from the first.
    Closed,
}

impl std::fmt::Display for TourKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TourKind::Open => "open tour",
            TourKind::Closed => "closed tour",
        })
    }
}

/// The first thing wrong with a claimed tour. Steps are 0-based positions in the sequence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// No squares at all.
    #[error("the tour is empty")]
    Empty,
    /// A square outside the board.
    #[error("step {step}: square {square} is off the {board} board")]
    OffBoard {
        /// Position in the sequence.
        step: usize,
        /// The offending square.
        square: Square,
        /// The board.
        board: Board,
    },
    /// A square visited twice.
    #[error("step {step}: square {square} was already visited{}", at_step(*first))]
    Repeat {
        /// Position of the repeat.
        step: usize,
        /// The repeated square.
        square: Square,
        /// Position of its first visit; `None` for a path checked as it streams ([`PathCheck`]),
        /// which keeps a bit per square, not the steps.
        first: Option<usize>,
    },
    /// Two consecutive squares that are not a knight move apart.
    #[error("step {step}: {from} -> {to} is not a knight move")]
    NotKnightMove {
        /// Position of `to`.
        step: usize,
        /// Previous square.
        from: Square,
        /// This square.
        to: Square,
    },
    /// Two consecutive squares that are not one move of the shape's `(a, b)` leaper apart.
    #[error("step {step}: {from} -> {to} is not a ({a},{b})-leaper move")]
    NotLeaperMove {
        /// Position of `to`.
        step: usize,
        /// Previous square.
        from: Square,
        /// This square.
        to: Square,
        /// The leap's short side.
        a: u32,
        /// The leap's long side.
        b: u32,
    },
    /// A hole of the shape.
    #[error("step {step}: square {square} is a hole")]
    Hole {
        /// Position in the sequence.
        step: usize,
        /// The hole.
        square: Square,
    },
    /// A valid path that does not cover the board.
    #[error("short: the path visits {visited} of {total} squares")]
    Short {
        /// Squares visited.
        visited: usize,
        /// Squares on the board.
        total: u64,
    },
    /// A closed tour was claimed but the ends are not a move apart.
    #[error("claimed closed, but the last square {last} is not a move from the first {first}")]
    NotClosed {
        /// First square.
        first: Square,
        /// Last square.
        last: Square,
    },
}

fn at_step(first: Option<usize>) -> String {
    match first {
        Some(step) => format!(" at step {step}"),
        None => " at an earlier step".to_string(),
    }
}

/// Checks a path square by square against the definition, keeping one bit per square (an eighth of
/// a byte, so that 10^8-square tours check in seconds) and the two ends: what [`verify_path`] and
/// [`verify_tour`] do for a slice, for a path that is read as it goes and never held whole (a
/// binary tour file of billions of squares).
#[derive(Clone, Debug)]
pub struct PathCheck {
    board: Board,
    seen: bitvec::vec::BitVec,
    len: usize,
    ends: Option<(Square, Square)>,
    /// The leap `(a, b)`: `(1, 2)` for the knight.
    leap: (u32, u32),
    /// The holes of a shape, by row-major index; empty when there are none.
    holes: bitvec::vec::BitVec,
    /// The squares a tour covers.
    total: u64,
}

impl PathCheck {
    /// A check of a knight's path on `board`, before its first square. Allocates a bit per square.
    pub fn new(board: Board) -> Self {
        PathCheck {
            board,
            seen: bitvec::bitvec![0; board.len() as usize],
            len: 0,
            ends: None,
            leap: (1, 2),
            holes: bitvec::vec::BitVec::new(),
            total: board.len() as u64,
        }
    }

    /// A check of a path on `shape`: its leaper's moves, its holes never entered. The check reads
    /// the shape's description only (its leap, its holes), never its move lists.
    pub fn on_shape(shape: &Shape) -> Self {
        let board = shape.board();
        let mut check = PathCheck::new(board);
        check.leap = (shape.leaper().a(), shape.leaper().b());
        if shape.has_holes() {
            check.holes = bitvec::bitvec![0; board.len() as usize];
            for h in shape.holes() {
                check.holes.set(board.index(h) as usize, true);
            }
        }
        check.total = shape.len() as u64;
        check
    }

    /// Whether `a` to `b` is one leap: `(a, b)` squares apart along the two axes, in either order.
    fn leaps(&self, a: Square, b: Square) -> bool {
        let dr = (a.row() as i64 - b.row() as i64).unsigned_abs() as u32;
        let dc = (a.col() as i64 - b.col() as i64).unsigned_abs() as u32;
        let (x, y) = self.leap;
        (dr, dc) == (x, y) || (dr, dc) == (y, x)
    }

    /// The path's next square: on the board, not visited before, a knight move from the last. A
    /// repeat's first visit is not known here (`first: None`); a caller holding the path finds it.
    pub fn push(&mut self, square: Square) -> Result<(), VerifyError> {
        let (board, step) = (self.board, self.len);
        if !board.contains(square.row() as i64, square.col() as i64) {
            return Err(VerifyError::OffBoard {
                step,
                square,
                board,
            });
        }
        if self
            .holes
            .get(board.index(square) as usize)
            .is_some_and(|h| *h)
        {
            return Err(VerifyError::Hole { step, square });
        }
        if self.seen.replace(board.index(square) as usize, true) {
            return Err(VerifyError::Repeat {
                step,
                square,
                first: None,
            });
        }
        let first = match self.ends {
            Some((_, last)) if !self.leaps(last, square) => {
                return Err(if self.leap == (1, 2) {
                    VerifyError::NotKnightMove {
                        step,
                        from: last,
                        to: square,
                    }
                } else {
                    VerifyError::NotLeaperMove {
                        step,
                        from: last,
                        to: square,
                        a: self.leap.0,
                        b: self.leap.1,
                    }
                })
            }
            Some((first, _)) => first,
            None => square,
        };
        self.ends = Some((first, square));
        self.len += 1;
        Ok(())
    }

    /// Squares pushed so far (all of them valid).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no square was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// After the last square: whether the path is a tour of the board, open or closed.
    pub fn finish(&self) -> Result<TourKind, VerifyError> {
        let Some((first, last)) = self.ends else {
            return Err(VerifyError::Empty);
        };
        if self.len as u64 != self.total {
            return Err(VerifyError::Short {
                visited: self.len,
                total: self.total,
            });
        }
        Ok(if self.len > 2 && self.leaps(first, last) {
            TourKind::Closed
        } else {
            TourKind::Open
        })
    }
}

/// What [`verify_bin_stream`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamedTour {
    /// The board of the file.
    pub board: Board,
    /// The file's closed flag (what it claims).
    pub closed: bool,
    /// The verifier's verdict on the squares ([`verify_tour`]'s, but that a repeat's first visit
    /// is `None`).
    pub verdict: Result<TourKind, VerifyError>,
    /// The path's first and last squares, as far as it is valid (`None` when no square was valid).
    pub ends: Option<(Square, Square)>,
}

/// Check a binary tour file ([`crate::tour::write_bin`]) as it streams ([`crate::tour::BinStream`],
/// its header read), holding a bit per square of its board instead of 4 bytes a square plus the
/// file: for tours larger than memory would hold whole. The file's own faults (truncated, an index
/// off the board) are errors, as [`crate::tour::parse_bin`] reports them, whatever the squares
/// before them were.
pub fn verify_bin_stream<R: std::io::Read>(
    stream: crate::tour::BinStream<R>,
) -> Result<StreamedTour, crate::tour::TourFileError> {
    let header = stream.header();
    let mut check = PathCheck::new(header.board);
    let (mut fault, mut ends) = (None, None);
    stream.squares(|square| {
        if fault.is_none() {
            match check.push(square) {
                Ok(()) => ends = Some((ends.map_or(square, |(first, _)| first), square)),
                Err(e) => fault = Some(e),
            }
        }
    })?;
    Ok(StreamedTour {
        board: header.board,
        closed: header.closed,
        verdict: fault.map_or_else(|| check.finish(), Err),
        ends,
    })
}

impl VerifyError {
    /// The same fault without the step of a repeat's first visit, which a check that streams does
    /// not know: for comparing its verdicts with those of a check that holds the path.
    pub fn without_first_visit(self) -> Self {
        match self {
            VerifyError::Repeat { step, square, .. } => VerifyError::Repeat {
                step,
                square,
                first: None,
            },
            e => e,
        }
    }
}

/// `squares` through `check`, a repeat given the step of its first visit.
fn check_path(mut check: PathCheck, squares: &[Square]) -> Result<PathCheck, VerifyError> {
    if squares.is_empty() {
        return Err(VerifyError::Empty);
    }
    for &square in squares {
        check.push(square).map_err(|e| match e {
            VerifyError::Repeat { step, square, .. } => VerifyError::Repeat {
                step,
                square,
                first: squares.iter().position(|&s| s == square),
            },
            e => e,
        })?;
    }
    Ok(check)
}

/// Check that `squares` is a knight path on `board`: on the board, no repeats, knight moves between
/// consecutive squares. A partial path (not covering the board) is fine here.
pub fn verify_path(board: Board, squares: &[Square]) -> Result<(), VerifyError> {
    check_path(PathCheck::new(board), squares).map(drop)
}

/// Check that `squares` is a knight's tour of `board` and say whether it is open or closed.
pub fn verify_tour(board: Board, squares: &[Square]) -> Result<TourKind, VerifyError> {
    check_path(PathCheck::new(board), squares)?.finish()
}

/// [`verify_path`] on a shape: its holes, its leaper.
pub fn verify_path_on(shape: &Shape, squares: &[Square]) -> Result<(), VerifyError> {
    check_path(PathCheck::on_shape(shape), squares).map(drop)
}

/// [`verify_tour`] on a shape: every square but the holes once, by its leaper's moves.
pub fn verify_tour_on(shape: &Shape, squares: &[Square]) -> Result<TourKind, VerifyError> {
    check_path(PathCheck::on_shape(shape), squares)?.finish()
}

/// Check a tour that claims to be closed.
pub fn verify_closed_tour(board: Board, squares: &[Square]) -> Result<(), VerifyError> {
    match verify_tour(board, squares)? {
        TourKind::Closed => Ok(()),
        TourKind::Open => Err(VerifyError::NotClosed {
            first: squares[0],
            last: squares[squares.len() - 1],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::is_knight_move;

    fn sq(r: u16, c: u16) -> Square {
        Square::new(r, c)
    }

    /// A closed tour of 3x4? None exists; use the classic open 3x4 tour instead.
    fn open_3x4() -> Vec<Square> {
        // 1 4 7 10 / 12 9 2 5 / 3 6 11 8  (visit numbers) -> squares in order
        let grid = [[1, 4, 7, 10], [12, 9, 2, 5], [3, 6, 11, 8]];
        let mut v = vec![sq(0, 0); 12];
        for (r, row) in grid.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                v[n - 1] = sq(r as u16, c as u16);
            }
        }
        v
    }

    #[test]
    fn on_a_shape_holes_and_the_leap_are_checked() {
        let shape = Shape::from_mask("...\n.#.\n...", crate::board::Leaper::KNIGHT).unwrap();
        // the ring of eight squares around the hole, by knight moves
        let ring = [
            (0, 0),
            (1, 2),
            (2, 0),
            (0, 1),
            (2, 2),
            (1, 0),
            (0, 2),
            (2, 1),
        ];
        let tour: Vec<Square> = ring.iter().map(|&(r, c)| sq(r, c)).collect();
        assert_eq!(verify_tour_on(&shape, &tour), Ok(TourKind::Closed));
        let mut through = tour.clone();
        through.push(sq(1, 1));
        assert!(matches!(
            verify_tour_on(&shape, &through),
            Err(VerifyError::Hole { step: 8, .. })
        ));
        assert!(matches!(
            verify_tour_on(&shape, &tour[..7]),
            Err(VerifyError::Short {
                visited: 7,
                total: 8
            })
        ));
        let zebra = Shape::full(Board::new(3, 4).unwrap())
            .with_leaper(crate::board::Leaper::new(2, 3).unwrap());
        assert_eq!(verify_path_on(&zebra, &[sq(0, 0), sq(2, 3)]), Ok(()));
        assert!(matches!(
            verify_path_on(&zebra, &[sq(0, 0), sq(1, 2)]),
            Err(VerifyError::NotLeaperMove { a: 2, b: 3, .. })
        ));
    }

    #[test]
    fn accepts_an_open_tour() {
        let b = Board::new(3, 4).unwrap();
        assert_eq!(verify_tour(b, &open_3x4()), Ok(TourKind::Open));
        assert!(verify_closed_tour(b, &open_3x4()).is_err());
    }

    #[test]
    fn rejects_each_kind_of_fault() {
        let b = Board::new(3, 4).unwrap();
        let good = open_3x4();
        assert_eq!(verify_tour(b, &[]), Err(VerifyError::Empty));

        let mut repeat = good.clone();
        repeat[5] = repeat[1];
        assert!(matches!(
            verify_tour(b, &repeat),
            Err(VerifyError::Repeat {
                step: 5,
                first: Some(1),
                ..
            }) | Err(VerifyError::NotKnightMove { .. })
        ));

        let mut off = good.clone();
        off[3] = sq(3, 0);
        assert!(matches!(
            verify_tour(b, &off),
            Err(VerifyError::OffBoard { step: 3, .. })
        ));

        let mut jump = good.clone();
        jump.swap(4, 7);
        assert!(matches!(
            verify_tour(b, &jump),
            Err(VerifyError::NotKnightMove { .. })
        ));

        assert!(matches!(
            verify_tour(b, &good[..11]),
            Err(VerifyError::Short {
                visited: 11,
                total: 12
            })
        ));
        assert_eq!(verify_path(b, &good[..11]), Ok(()));
    }

    #[test]
    fn repeat_is_reported_even_when_moves_are_knight_moves() {
        let b = Board::new(5, 5).unwrap();
        let path = [sq(0, 0), sq(1, 2), sq(0, 0)];
        assert_eq!(
            verify_path(b, &path),
            Err(VerifyError::Repeat {
                step: 2,
                square: sq(0, 0),
                first: Some(0)
            })
        );
    }

    #[test]
    fn closedness_is_checked() {
        // A closed tour of 5x6 would do, but a tiny hand-checkable cycle on a path suffices for the
        // closing test: 3x4 open tour ends (0,0) and (2,2) are not a knight move apart.
        let b = Board::new(3, 4).unwrap();
        let t = open_3x4();
        assert!(!is_knight_move(t[0], t[11]));
        assert!(matches!(
            verify_closed_tour(b, &t),
            Err(VerifyError::NotClosed { .. })
        ));
    }

    #[test]
    fn single_square_board_has_the_trivial_tour() {
        let b = Board::new(1, 1).unwrap();
        assert_eq!(verify_tour(b, &[sq(0, 0)]), Ok(TourKind::Open));
    }

    /// An outcome with a repeat's first visit forgotten (the streamed check does not keep it) and a
    /// file's fault as its message.
    type Outcome = Result<
        (
            Result<TourKind, VerifyError>,
            bool,
            Option<(Square, Square)>,
        ),
        String,
    >;

    /// The reference: the whole file parsed ([`crate::tour::parse_bin`]), then [`verify_tour`].
    fn held(bytes: &[u8], given: Option<Board>) -> Outcome {
        let t = crate::tour::parse_bin(bytes, given).map_err(|e| e.to_string())?;
        let verdict = verify_tour(t.board, &t.squares).map_err(VerifyError::without_first_visit);
        let ends = t.squares.first().copied().zip(t.squares.last().copied());
        let ends = ends.filter(|_| verdict.is_ok());
        Ok((verdict, t.claims_closed.unwrap(), ends))
    }

    fn streamed(bytes: &[u8], given: Option<Board>, file_len: Option<u64>) -> Outcome {
        let stream = crate::tour::BinStream::open(bytes, given, file_len);
        let t = stream
            .and_then(verify_bin_stream)
            .map_err(|e| e.to_string())?;
        let ends = t.ends.filter(|_| t.verdict.is_ok());
        Ok((t.verdict, t.closed, ends))
    }

    proptest::proptest! {
        /// The streamed check of a binary tour file agrees with parsing it whole and verifying the
        /// squares, on tours, knight walks and random paths, intact or damaged: the same verdict, and
        /// the same fault of the file where it has one. A regular file (size known) gets exactly the
        /// same message; a stream finds a wrong length only at its end, so there only the kind of
        /// answer (the file's fault, or a verdict) is compared. `ends` are compared where the path is
        /// a tour (the CLI prints them for one claimed closed).
        #[test]
        fn the_streamed_check_agrees_with_the_held_one(
            rows in 1u64..9,
            cols in 1u64..9,
            kind in 0u8..3,
            picks in proptest::collection::vec(0u32..100, 0..80),
            damage in 0u8..8,
            at in proptest::prelude::any::<usize>(),
            value in proptest::prelude::any::<u8>(),
            give in 0u8..3,
        ) {
            let board = Board::new(rows, cols).unwrap();
            let n = board.len();
            let squares: Vec<Square> = match kind {
                // a tour where one exists (else an empty path)
                0 => crate::construct::construct(board, crate::board::Closure::Open, None).unwrap_or_default(),
                // a knight walk: moves chosen by `picks`, repeats allowed
                1 => {
                    let mut walk = vec![board.square_at(picks.first().copied().unwrap_or(0) % n).unwrap()];
                    for &p in picks.iter().skip(1) {
                        let last = *walk.last().unwrap();
                        let next: Vec<Square> = board.squares().filter(|&s| is_knight_move(last, s)).collect();
                        if next.is_empty() { break; }
                        walk.push(next[p as usize % next.len()]);
                    }
                    walk
                }
                _ => picks.iter().map(|&p| board.square_at(p % n).unwrap()).collect(),
            };
            let mut bytes = Vec::new();
            crate::tour::write_bin(&mut bytes, board, &squares, damage == 7).unwrap();
            let i = at % bytes.len();
            match damage {
                1 => bytes[i] = value,
                2 => bytes.truncate(i),
                3 => bytes.push(value),
                4 => bytes[24] = value, // the count
                5 => bytes[12] = value, // the rows
                6 if bytes.len() > 32 => {
                    let j = 32 + (at % ((bytes.len() - 32) / 4)) * 4;
                    bytes[j..j + 4].copy_from_slice(&(n + u32::from(value)).to_le_bytes());
                }
                _ => {}
            }
            let given = match give {
                0 => None,
                1 => Some(board),
                _ => Some(Board::new(rows + 1, cols).unwrap()),
            };
            let reference = held(&bytes, given);
            let len = bytes.len() as u64;
            proptest::prop_assert_eq!(&streamed(&bytes, given, Some(len)), &reference);
            let stream = streamed(&bytes, given, None);
            match (&stream, &reference) {
                (Err(_), Err(_)) => {}
                _ => proptest::prop_assert_eq!(&stream, &reference),
            }
        }
    }
}
