//! Integration tests of the divide-and-conquer construction: a tour exactly when the existence oracle
//! says one exists, closed when asked, every one accepted by the independent verifier.

use ktour::board::Closure;
use ktour::board::{Board, Square};
use ktour::construct::{bases, construct, ConstructError};
use ktour::exists;
use ktour::solve::posa::close_path;
use ktour::verify::{verify_closed_tour, verify_tour};

fn b(r: u64, c: u64) -> Board {
    Board::new(r, c).unwrap()
}

/// Construct and check against the oracle and the verifier.
fn check(board: Board, closed: bool, start: Option<Square>) {
    let closed = Closure::of(closed);
    let got = construct(board, closed, start);
    let oracle = match start {
        Some(s) => exists::tour_from(board, s, closed),
        None => exists::tour(board, closed),
    };
    match (oracle, got) {
        (Ok(()), Ok(t)) => {
            if closed.is_closed() {
                verify_closed_tour(board, &t).unwrap_or_else(|e| panic!("{board} closed: {e}"));
            } else {
                verify_tour(board, &t).unwrap_or_else(|e| panic!("{board} open: {e}"));
            }
            if let Some(s) = start {
                assert_eq!(t[0], s, "{board} start");
            }
        }
        (Err(no), Err(ConstructError::NoTour(e))) => assert_eq!(no, e),
        (o, g) => panic!(
            "{board} closed={closed} start={start:?}: oracle {o:?}, construct {:?}",
            g.map(|t| t.len())
        ),
    }
}

#[test]
fn every_board_up_to_12x12_open_and_closed() {
    for r in 1..=12 {
        for c in 1..=12 {
            check(b(r, c), false, None);
            check(b(r, c), true, None);
        }
    }
}

#[test]
fn every_square_board_up_to_60() {
    for n in 1..=60 {
        check(b(n, n), false, None);
        check(b(n, n), true, None);
    }
}

#[test]
fn thin_and_rectangular_boards() {
    for n in 1..=80 {
        for m in [3, 4, 5, 6, 7] {
            check(b(m, n), false, None);
            check(b(n, m), true, None);
        }
    }
    for (r, c) in [
        (3, 100),
        (4, 101),
        (5, 77),
        (7, 1001),
        (3, 1000),
        (3, 999),
        (4, 1000),
        (101, 3),
        (13, 17),
        (99, 101),
    ] {
        check(b(r, c), false, None);
        check(b(r, c), true, None);
    }
}

#[test]
fn large_boards() {
    for (r, c) in [(1000, 1000), (999, 1001), (2000, 2002), (1001, 1001)] {
        check(b(r, c), true, None);
        check(b(r, c), false, None);
    }
}

#[test]
fn closed_tours_start_anywhere() {
    for (r, c) in [(6, 6), (8, 11), (3, 14), (3, 10), (31, 20)] {
        let board = b(r, c);
        for s in board.squares() {
            check(board, true, Some(s));
            check(board, false, Some(s));
        }
    }
}

#[test]
fn open_tours_on_odd_boards_start_on_every_corner_coloured_square() {
    let odd = [5u64, 7, 9, 11, 13, 15, 17];
    let sizes = odd.iter().flat_map(|&r| odd.iter().map(move |&c| (r, c)));
    for (r, c) in sizes.chain([(21, 23), (33, 11)]) {
        let board = b(r, c);
        for s in board.squares() {
            let res = construct(board, Closure::Open, Some(s));
            if Board::is_corner_colour(s) {
                let t = res.unwrap_or_else(|e| panic!("{board} from {s}: {e}"));
                verify_tour(board, &t).unwrap();
                assert_eq!(t[0], s);
            } else {
                assert!(matches!(
                    res,
                    Err(ConstructError::NoTour(
                        exists::NoTour::WrongColourStart { .. }
                    ))
                ));
            }
        }
    }
}

#[test]
fn open_strips_start_anywhere_a_tour_can() {
    for (r, c) in [
        (3, 13),
        (3, 21),
        (3, 31),
        (4, 8),
        (4, 9),
        (4, 13),
        (4, 30),
        (30, 4),
        (33, 3),
        (3, 45),
        (4, 41),
    ] {
        let board = b(r, c);
        let four = r == 4 || c == 4;
        for s in board.squares() {
            let res = construct(board, Closure::Open, Some(s));
            let outer = if r == 4 {
                s.row() == 0 || s.row() == 3
            } else {
                s.col() == 0 || s.col() == 3
            };
            // Along the strip: a 4-row path block must be an end block (see strip_open_from).
            let along = if r == 4 {
                s.col() as u64
            } else {
                s.row() as u64
            };
            let middle = four && board.len() > 64 && along >= 8 && along + 8 < r.max(c);
            if four && !outer {
                assert!(
                    matches!(res, Err(ConstructError::StartImpossible { .. })),
                    "{board} {s}"
                );
            } else if middle {
                assert!(
                    matches!(res, Err(ConstructError::StartUnsupported { .. })),
                    "{board} {s}"
                );
            } else if !four && !Board::is_corner_colour(s) {
                assert!(matches!(res, Err(ConstructError::NoTour(_))), "{board} {s}");
            } else {
                let t = res.unwrap_or_else(|e| panic!("{board} from {s}: {e}"));
                verify_tour(board, &t).unwrap_or_else(|e| panic!("{board} from {s}: {e}"));
                assert_eq!(t[0], s);
            }
        }
    }
}

#[test]
fn every_committed_base_verifies() {
    let all = bases::all();
    assert_eq!(all.len(), bases::specs().len());
    for (base, spec) in all.iter().zip(bases::specs()) {
        assert_eq!(base.spec, spec);
        // Each join edge its roles rely on is an edge of the tour (consecutive, or first-last).
        let n = base.order.len();
        for role in [
            bases::Role::Right,
            bases::Role::Left,
            bases::Role::Down,
            bases::Role::Up,
        ] {
            if spec.roles & role as u8 == 0 {
                continue;
            }
            let [x, y] = bases::role_edge(spec.family, spec.rows, spec.cols, role);
            let (i, j) = (
                base.pos_of(x.0 as u32, x.1 as u32),
                base.pos_of(y.0 as u32, y.1 as u32),
            );
            let wrap = spec.shape == bases::Shape::Cycle && i.abs_diff(j) == n - 1;
            assert!(
                i.abs_diff(j) == 1 || wrap,
                "{spec:?} lacks its {role:?} edge"
            );
        }
        // Base::new (run by all()) also checked knight moves and coverage; re-check the real-edge
        // tours with the crate verifier.
        if spec.family == bases::Family::Grid {
            let board = b(spec.rows as u64, spec.cols as u64);
            let sq: Vec<Square> = base
                .order
                .iter()
                .map(|&(r, c)| Square::new(r as u16, c as u16))
                .collect();
            match spec.shape {
                bases::Shape::Cycle => verify_closed_tour(board, &sq).unwrap(),
                bases::Shape::Path => {
                    verify_tour(board, &sq).unwrap();
                    assert_eq!(sq[0], Square::new(0, 0));
                }
            }
        }
    }
}

#[test]
fn bases_regenerate_identically() {
    let entries: Vec<_> = bases::specs()
        .into_iter()
        .map(|s| (s, bases::generate(&s).unwrap()))
        .collect();
    assert_eq!(bases::format_file(&entries), bases::BASES_TXT);
}

/// Pure Warnsdorff (minimum degree, ties by label order), for the closer tests.
fn warnsdorff(board: Board, start: Square) -> Vec<Square> {
    let mut seen = vec![false; board.len() as usize];
    let mut path = vec![start];
    seen[board.index(start) as usize] = true;
    let mut cur = start;
    loop {
        let deg = |s: Square, seen: &Vec<bool>| {
            board
                .neighbours(s)
                .filter(|&t| !seen[board.index(t) as usize])
                .count()
        };
        let next = board
            .neighbours(cur)
            .filter(|&t| !seen[board.index(t) as usize])
            .min_by_key(|&t| deg(t, &seen));
        match next {
            Some(t) => {
                seen[board.index(t) as usize] = true;
                path.push(t);
                cur = t;
            }
            None => return path,
        }
    }
}

#[test]
fn posa_closes_the_real_warnsdorff_solver_paths() {
    use ktour::solve::{solve, Outcome, Request, Rule};
    let rule: Rule = "first".parse().unwrap();
    for n in [6u64, 8, 12, 30, 64] {
        let board = b(n, n);
        let sol = solve(&Request::warnsdorff(board, Square::new(0, 0), rule)).unwrap();
        assert_eq!(sol.outcome, Outcome::Found, "{n}");
        let mut p = sol.squares;
        assert_eq!(
            p,
            warnsdorff(board, Square::new(0, 0)),
            "the test twin agrees with the solver"
        );
        close_path(board, &mut p).unwrap();
        verify_closed_tour(board, &p).unwrap();
    }
}

#[test]
fn posa_rejects_what_is_not_a_path() {
    use ktour::solve::posa::CloseError;
    let board = b(6, 6);
    let mut p = warnsdorff(board, Square::new(0, 0));
    p.swap(3, 20);
    assert!(matches!(
        close_path(board, &mut p),
        Err(CloseError::NotAPath { .. })
    ));
    let board = b(5, 5);
    let mut p = warnsdorff(board, Square::new(0, 0));
    assert!(matches!(
        close_path(board, &mut p),
        Err(CloseError::NoCycle { .. })
    ));
}

#[test]
fn posa_closes_warnsdorff_paths() {
    for n in [6u64, 8, 10, 20, 50, 100] {
        let board = b(n, n);
        let mut p = warnsdorff(board, Square::new(0, 0));
        assert_eq!(p.len() as u32, board.len(), "Warnsdorff on {n}x{n}");
        close_path(board, &mut p).unwrap_or_else(|e| panic!("{e}"));
        verify_closed_tour(board, &p).unwrap();
    }
}

/// Slow sweep (run with `--ignored`): every corner-coloured start of every odd board up to 31 x 31.
#[test]
#[ignore]
fn open_tours_on_odd_boards_every_start_up_to_31() {
    let mut unsupported = Vec::new();
    for r in (5..=31u64).step_by(2) {
        for c in (5..=31u64).step_by(2) {
            let board = b(r, c);
            for s in board.squares().filter(|&s| Board::is_corner_colour(s)) {
                match construct(board, Closure::Open, Some(s)) {
                    Ok(t) => {
                        verify_tour(board, &t).unwrap();
                        assert_eq!(t[0], s);
                    }
                    Err(e) => unsupported.push(format!("{e}")),
                }
            }
        }
    }
    assert!(unsupported.is_empty(), "{unsupported:#?}");
}

#[test]
fn verify_command_reads_binary_tours() {
    use crate::support::ktour;
    let board = b(100, 102);
    let tour = construct(board, Closure::Closed, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.bin");
    let mut bytes = Vec::new();
    ktour::tour::write_bin(&mut bytes, board, &tour, true).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    ktour()
        .arg("verify")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::contains("valid closed tour"));
    // Truncated: a clear error, exit 2, no panic.
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    ktour()
        .arg("verify")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("corrupt binary tour file"));
    // A swapped pair of squares: invalid, exit 1.
    let mut bad = tour.clone();
    bad.swap(10, 500);
    let mut bytes = Vec::new();
    ktour::tour::write_bin(&mut bytes, board, &bad, true).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    ktour()
        .arg("verify")
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicates::str::contains("invalid"));
}

/// Slow sweep (run with `--ignored`): every board up to 40 x 40, open and closed, plus every
/// rectangle with one side in 3..=12 and the other up to 300.
#[test]
#[ignore]
fn every_board_up_to_40x40_and_thin_to_300() {
    for r in 1..=40 {
        for c in 1..=40 {
            check(b(r, c), false, None);
            check(b(r, c), true, None);
        }
    }
    for r in 3..=12 {
        for c in 1..=300 {
            check(b(r, c), false, None);
            check(b(c, r), true, None);
        }
    }
}
