//! Symmetric closed tours (`count::symmetric`) against an enumeration of every closed 6x6 tour, and
//! the sweep on the whole knight graph against the published closed counts.
//!
//! Sources of the expected values: Knuth's 2,432,932 closed 8x8 tours unchanged by a half-turn (his
//! SHAM programs, 1992; an ignored test); A001230 (closed tours of 2n x 2n: 9,862 on 6x6, McKay 1997);
//! A169764 / A070030 (closed tours of 3 x n: 3x10 16, 3x12 176); A193055 (closed tours of 8 x n:
//! 8x5 44,202); the bitboard search engine on every board up to 6x6. The symmetric counts have no
//! literal expected value here: they are the enumeration's.

use crate::support::ktour;
use ktour::board::{Board, Square};
use ktour::count::symmetric::sweep::sweep;
use ktour::count::symmetric::{count_symmetric, Quotient, Rotation, SymmetricError};
use ktour::count::{count, CountOptions, CountRequest, Orientation, Starts};

fn board(r: u64, c: u64) -> Board {
    Board::new(r, c).unwrap()
}

fn symmetric(b: Board, rotation: Rotation) -> u128 {
    count_symmetric(b, rotation, usize::MAX, |_, _| {})
        .unwrap()
        .tours
}

/// Every closed tour of `b` as its sorted list of moves (pairs of row-major indexes, the smaller
/// first), each cycle once: paths from square 0 whose second square is below their last.
fn closed_tours(b: Board) -> Vec<Vec<(u8, u8)>> {
    let n = b.len() as usize;
    let adj: Vec<Vec<usize>> = b
        .squares()
        .map(|s| b.neighbours(s).map(|w| b.index(w) as usize).collect())
        .collect();
    let mut path = vec![0usize];
    let mut tours = Vec::new();
    extend(&adj, n, 1u64, &mut path, &mut tours);
    tours
}

/// Depth-first extension of `path` (squares in `visited`), pruning a square left with fewer than
/// two neighbours it can still be joined through (unvisited ones, the path's end, the start).
fn extend(
    adj: &[Vec<usize>],
    n: usize,
    visited: u64,
    path: &mut Vec<usize>,
    tours: &mut Vec<Vec<(u8, u8)>>,
) {
    let cur = *path.last().unwrap();
    if path.len() == n {
        if adj[cur].contains(&0) && path[1] < cur {
            let mut moves: Vec<(u8, u8)> = (0..n)
                .map(|i| {
                    let (a, b) = (path[i] as u8, path[(i + 1) % n] as u8);
                    (a.min(b), a.max(b))
                })
                .collect();
            moves.sort_unstable();
            tours.push(moves);
        }
        return;
    }
    for &next in &adj[cur] {
        if visited >> next & 1 == 1 {
            continue;
        }
        let visited = visited | 1 << next;
        let open = |w: usize| visited >> w & 1 == 0 || w == next || w == 0;
        let stuck = adj[cur]
            .iter()
            .any(|&w| visited >> w & 1 == 0 && adj[w].iter().filter(|&&x| open(x)).count() < 2);
        if !stuck {
            path.push(next);
            extend(adj, n, visited, path, tours);
            path.pop();
        }
    }
}

/// Whether the moves of a tour are mapped onto themselves by `rotation`.
fn invariant(b: Board, moves: &[(u8, u8)], rotation: Rotation) -> bool {
    let image = |i: u8| {
        let s = b.square_at(i as u32).unwrap();
        b.index(rotation.apply(b, s)) as u8
    };
    let mut rotated: Vec<(u8, u8)> = moves
        .iter()
        .map(|&(x, y)| {
            let (a, b) = (image(x), image(y));
            (a.min(b), a.max(b))
        })
        .collect();
    rotated.sort_unstable();
    rotated == moves
}

#[test]
fn six_by_six_equals_the_enumeration_of_every_closed_tour() {
    let b = board(6, 6);
    let tours = closed_tours(b);
    assert_eq!(tours.len(), 9862, "A001230");
    for rotation in [Rotation::Half, Rotation::Quarter] {
        let enumerated = tours.iter().filter(|t| invariant(b, t, rotation)).count() as u128;
        assert!(enumerated > 0);
        assert_eq!(symmetric(b, rotation), enumerated, "{rotation:?}");
    }
}

#[test]
fn a_board_and_its_transpose_have_as_many_symmetric_tours() {
    // the two half boards (3 x 8 and 4 x 6) fold along different sides: their twisted edges differ
    let tall = Quotient::new(board(8, 6), Rotation::Half);
    let wide = Quotient::new(board(6, 8), Rotation::Half);
    let count = |q: &Quotient| sweep(q, usize::MAX, |_, _| {}).unwrap().cycles;
    assert!(count(&wide) > 0);
    assert_eq!(count(&tall), count(&wide));
}

#[test]
fn the_whole_graph_gives_the_closed_counts() {
    assert_eq!(symmetric(board(6, 6), Rotation::Identity), 9862);
    assert_eq!(symmetric(board(3, 10), Rotation::Identity), 16);
    assert_eq!(symmetric(board(3, 12), Rotation::Identity), 176);
    assert_eq!(symmetric(board(8, 5), Rotation::Identity), 44_202);
    for r in 1..=5 {
        for c in 1..=6 {
            let b = board(r, c);
            let request = CountRequest {
                board: b,
                closure: ktour::board::Closure::Closed,
                orientation: Orientation::Undirected,
                starts: Starts::All,
            };
            let searched = count(&request, &CountOptions::default()).unwrap().count;
            assert_eq!(symmetric(b, Rotation::Identity), searched as u128, "{b}");
        }
    }
}

#[test]
#[ignore = "about 2 minutes of one core and 3 GB: run with --ignored"]
fn eight_by_eight_equals_knuths_count() {
    // Knuth's list of his CWEB programs (cs.stanford.edu/~knuth/programs.html), on SHAM and the
    // program after it (December 1992): exactly 2,432,932 knight's tours are unchanged by a
    // 180-degree rotation of the chessboard
    assert_eq!(symmetric(board(8, 8), Rotation::Half), 2_432_932);
}

#[test]
fn no_quarter_turn_tour_when_the_side_is_a_multiple_of_four() {
    // the colour argument of the module's documentation: the quarter-turn shifts a tour by N/4
    // moves and changes colour, so N/4 = n^2/4 must be odd
    assert_eq!(symmetric(board(8, 8), Rotation::Quarter), 0);
    assert_eq!(symmetric(board(4, 4), Rotation::Quarter), 0);
}

#[test]
fn boards_it_does_not_take_are_refused() {
    let refused = |b: Board, r: Rotation| count_symmetric(b, r, usize::MAX, |_, _| {}).unwrap_err();
    assert!(matches!(
        refused(board(5, 6), Rotation::Half),
        SymmetricError::OddSide { .. }
    ));
    assert!(matches!(
        refused(board(6, 8), Rotation::Quarter),
        SymmetricError::NotSquare { .. }
    ));
    assert!(matches!(
        refused(board(14, 14), Rotation::Half),
        SymmetricError::TooWide { .. }
    ));
    assert!(matches!(
        count_symmetric(board(8, 8), Rotation::Half, 10, |_, _| {}).unwrap_err(),
        SymmetricError::TooManyStates { .. }
    ));
}

#[test]
fn rotations_map_squares_onto_the_board() {
    let b = board(6, 6);
    let s = Square::new(1, 2);
    assert_eq!(Rotation::Half.apply(b, s), Square::new(4, 3));
    assert_eq!(Rotation::Quarter.apply(b, s), Square::new(2, 4));
}

#[test]
fn the_command_line_counts_and_refuses_in_one_line() {
    let out = ktour()
        .args(["count", "-n", "6", "--closed", "--symmetric", "90"])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().last(),
        Some(
            symmetric(board(6, 6), Rotation::Quarter)
                .to_string()
                .as_str()
        )
    );
    for (args, says) in [
        (&["-n", "6", "--symmetric", "180"][..], "add --closed"),
        (
            &[
                "--rows",
                "5",
                "--cols",
                "6",
                "--closed",
                "--symmetric",
                "180",
            ][..],
            "odd side",
        ),
        (
            &[
                "--rows",
                "6",
                "--cols",
                "8",
                "--closed",
                "--symmetric",
                "90",
            ][..],
            "square board",
        ),
        (
            &["-n", "6", "--closed", "--symmetric", "45"][..],
            "180 (a half-turn) or 90",
        ),
        (
            &["-n", "14", "--closed", "--symmetric", "180"][..],
            "too wide",
        ),
    ] {
        let out = ktour()
            .arg("count")
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
    // the symmetric sweep holds its states in memory: a bound it would not keep is refused, not ignored
    let out = ktour()
        .args(["count", "-n", "6", "--closed", "--symmetric", "180"])
        .args(["--memory", "1M", "--temp", "."])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cannot be used with"), "{err}");
}

/// Tours of the square board `n x n` invariant under the turn `turn` (`(r, c) -> (c, n-1-r)` taken
/// once for a quarter-turn, twice for a half-turn), by a depth-first search that shares nothing with
/// the quotient sweep: such a tour of `N` squares with a shift of `L = N / k` squares (`k` = 4 or 2
/// the turn's order) reads `s_{i+L} = turn(s_i)` in one of its two directions, so it is its first
/// `L` squares, one square of each orbit, the last a knight's move from `turn(s_0)`; and every such
/// path extends to a tour. Each tour is met once a start in each direction whose shift is `turn`:
/// one direction for a quarter-turn (the other's is its inverse), both for a half-turn (its own
/// inverse); so with `s_0` taken from one square an orbit the paths number `L` (or `2 L`) times the
/// tours.
fn turn_invariant_tours_by_search(n: usize, quarter: bool) -> u128 {
    let turn = |s: usize| {
        let (r, c) = (s / n, s % n);
        let once = c * n + (n - 1 - r);
        if quarter {
            once
        } else {
            let (r, c) = (once / n, once % n);
            c * n + (n - 1 - r)
        }
    };
    let len = n * n / if quarter { 4 } else { 2 };
    // the orbit of each square, numbered by first appearance
    let mut orbit = vec![usize::MAX; n * n];
    let mut orbits = 0;
    let mut reps = Vec::new();
    for s in 0..n * n {
        if orbit[s] == usize::MAX {
            let mut t = s;
            while orbit[t] == usize::MAX {
                orbit[t] = orbits;
                t = turn(t);
            }
            reps.push(s);
            orbits += 1;
        }
    }
    assert_eq!(orbits, len);
    let adj: Vec<Vec<usize>> = (0..n * n)
        .map(|s| {
            let (r, c) = ((s / n) as i64, (s % n) as i64);
            [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ]
            .iter()
            .map(|(dr, dc)| (r + dr, c + dc))
            .filter(|&(r, c)| (0..n as i64).contains(&r) && (0..n as i64).contains(&c))
            .map(|(r, c)| r as usize * n + c as usize)
            .collect()
        })
        .collect();
    // the orbits joined to each orbit: the knight graph commutes with the turn, so one square tells
    let joined: Vec<u64> = reps
        .iter()
        .map(|&s| adj[s].iter().fold(0, |m, &w| m | 1 << orbit[w]))
        .collect();
    struct Search<'a> {
        adj: &'a [Vec<usize>],
        orbit: &'a [usize],
        joined: &'a [u64],
        /// The orbit of `s_0`, which the path's last square must join.
        first: usize,
    }
    impl Search<'_> {
        /// Paths on from `at` through the orbits not in `used`, `left` squares more, ending a move
        /// from `goal`; an orbit left with fewer than two orbits it can still be joined through (the
        /// unused ones, the path's end, the first) ends the branch.
        fn walk(&self, used: u64, at: usize, left: usize, goal: usize) -> u128 {
            if left == 0 {
                return u128::from(self.adj[at].contains(&goal));
            }
            let mut paths = 0;
            for &w in &self.adj[at] {
                let o = self.orbit[w];
                if used >> o & 1 == 1 {
                    continue;
                }
                let used = used | 1 << o;
                let open = !used | 1 << o | 1 << self.first;
                let mut near = self.joined[self.orbit[at]] & !used;
                let mut stuck = false;
                while near != 0 {
                    let u = near.trailing_zeros() as usize;
                    near &= near - 1;
                    stuck |= (self.joined[u] & open).count_ones() < 2;
                }
                if !stuck {
                    paths += self.walk(used, w, left - 1, goal);
                }
            }
            paths
        }
    }
    let all = if len == 64 { u64::MAX } else { (1 << len) - 1 };
    let paths: u128 = reps
        .iter()
        .map(|&s0| {
            let search = Search {
                adj: &adj,
                orbit: &orbit,
                joined: &joined,
                first: orbit[s0],
            };
            search.walk(!all | 1 << orbit[s0], s0, len - 1, turn(s0))
        })
        .sum();
    let per_tour = len as u128 * if quarter { 1 } else { 2 };
    assert_eq!(paths % per_tour, 0, "{paths} paths");
    paths / per_tour
}

#[test]
fn a_search_on_the_board_gives_the_turn_invariant_counts_of_6x6() {
    let b = board(6, 6);
    assert_eq!(
        turn_invariant_tours_by_search(6, true),
        symmetric(b, Rotation::Quarter)
    );
    assert_eq!(
        turn_invariant_tours_by_search(6, false),
        symmetric(b, Rotation::Half)
    );
}

/// 10x10 under a quarter-turn, which nobody has published: the quotient sweep against the search.
#[test]
#[ignore = "a search of about a minute"]
fn a_search_on_the_board_gives_the_quarter_turn_count_of_10x10() {
    assert_eq!(
        turn_invariant_tours_by_search(10, true),
        symmetric(board(10, 10), Rotation::Quarter)
    );
}
