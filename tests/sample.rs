//! `ktour sample`: every drawn tour passes the independent verifier, and the tours are drawn
//! uniformly. Each uniformity test lists every tour of a small board by a plain search written
//! here (sharing nothing with the frontier), draws 20 times as many tours as there are, and runs
//! Pearson's chi-square test: all 9,862 closed 6x6 tours (cycles, McKay's count) and all 1,728
//! directed open 5x5 tours. A test fails when p < 1e-6 (a false failure is that unlikely over the
//! choice of seed; the seeds are fixed). The same test rejects two samplers wrong on purpose at
//! p < 1e-6: each predecessor chosen alike, not by its ways; and one pair's ways doubled for every
//! target at one square (a square where targets have several pairs: on 5x5 open, doubling at
//! squares 0-15 changes too little to see with 20 draws a tour, from square 16 on p < 1e-7).
//! And the command's formats and errors.

use crate::support::ktour;
use ktour::board::{Board, Closure, Square};
use ktour::sample::chi_square::{uniformity, ChiSquare};
use ktour::sample::{sample, SampleRequest, Weighting};
use ktour::verify::{verify_tour, TourKind};
use predicates::str::contains;
use std::collections::HashMap;

/// Reject uniformity below this p-value.
const ALPHA: f64 = 1e-6;

/// The knight's neighbours of each square of `board`, row-major, as bit masks.
fn neighbours(board: Board) -> Vec<u64> {
    let (rows, cols) = (board.rows() as i32, board.cols() as i32);
    (0..rows * cols)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            ktour::board::KNIGHT_DELTAS
                .iter()
                .map(|&(dr, dc)| (r + dr, c + dc))
                .filter(|&(r, c)| (0..rows).contains(&r) && (0..cols).contains(&c))
                .fold(0u64, |m, (r, c)| m | 1 << (r * cols + c))
        })
        .collect()
}

/// A plain depth-first search for Hamiltonian paths from `head`, pruned when a square left
/// unvisited (other than `end`, which needs one) has fewer than two ways in left.
struct Paths<'a> {
    adj: &'a [u64],
    all: u64,
    end: Option<u32>,
    found: &'a mut dyn FnMut(&[u32]),
}

impl Paths<'_> {
    fn search(&mut self, path: &mut Vec<u32>, visited: u64) {
        let head = *path.last().unwrap();
        if visited == self.all {
            if self.end.map_or(true, |e| e == head) {
                (self.found)(path);
            }
            return;
        }
        let free = self.all & !visited;
        let mut next = self.adj[head as usize] & free;
        while next != 0 {
            let n = next.trailing_zeros();
            next &= next - 1;
            let visited = visited | 1 << n;
            let free = free & !(1 << n);
            if self.end == Some(n) && free != 0 {
                continue;
            }
            let stuck = (0..self.adj.len() as u32).any(|u| {
                let open = (self.adj[u as usize] & (free | 1 << n)).count_ones();
                let needs = if self.end == Some(u) { 1 } else { 2 };
                free >> u & 1 == 1 && open < needs && !(self.end.is_none() && open == 1)
            });
            if stuck {
                continue;
            }
            path.push(n);
            self.search(path, visited);
            path.pop();
        }
    }
}

/// Every closed tour of `board` (whose square 0 has exactly two neighbours), as the set of its
/// edges, numbered.
fn closed_tours(board: Board) -> HashMap<Vec<(u32, u32)>, usize> {
    assert_eq!(neighbours(board)[0].count_ones(), 2);
    closed_tours_listed(board)
        .into_iter()
        .enumerate()
        .map(|(n, path)| (edges(&path, true), n))
        .collect()
}

/// Every directed open tour of `board`, as its squares, numbered.
fn open_tours(board: Board) -> HashMap<Vec<u32>, usize> {
    let adj = neighbours(board);
    let mut tours = HashMap::new();
    let mut found = |path: &[u32]| {
        let n = tours.len();
        tours.insert(path.to_vec(), n);
    };
    let mut paths = Paths {
        adj: &adj,
        all: (1u64 << board.len()) - 1,
        end: None,
        found: &mut found,
    };
    for s in 0..board.len() {
        paths.search(&mut vec![s], 1 << s);
    }
    tours
}

/// The edges of a path (and its closing edge), each as (smaller, larger), sorted.
fn edges(path: &[u32], closed: bool) -> Vec<(u32, u32)> {
    let mut e: Vec<(u32, u32)> = path.windows(2).map(|w| (w[0], w[1])).collect();
    if closed {
        e.push((path[path.len() - 1], path[0]));
    }
    let mut e: Vec<_> = e.into_iter().map(|(x, y)| (x.min(y), x.max(y))).collect();
    e.sort_unstable();
    e
}

fn index(board: Board, s: Square) -> u32 {
    u32::from(s.row()) * board.cols() + u32::from(s.col())
}

/// Draw `per_tour` times as many tours as `cells` holds, check each with the verifier, and test
/// the counts of each tour (its cell: `cell_of`) for uniformity.
fn draw_and_test(
    board: Board,
    closure: Closure,
    cells: usize,
    per_tour: usize,
    seed: u64,
    weighting: Weighting,
    cell_of: impl Fn(&[u32]) -> usize,
) -> ChiSquare {
    let request = SampleRequest {
        board,
        closure,
        tours: per_tour * cells,
        seed,
        temp: None,
        weighting,
    };
    let drawn = sample(&request).unwrap();
    let want = if closure.is_closed() {
        TourKind::Closed
    } else {
        TourKind::Open
    };
    let mut counts = vec![0u64; cells];
    for tour in &drawn.tours {
        assert_eq!(verify_tour(board, tour), Ok(want));
        let squares: Vec<u32> = tour.iter().map(|&s| index(board, s)).collect();
        counts[cell_of(&squares)] += 1;
    }
    uniformity(&counts)
}

/// The closed 6x6 tours: all 9,862 listed by the search; every drawn tour is one of them, and
/// they are drawn uniformly; the sampler that weighs every predecessor alike is rejected.
#[test]
fn closed_six_by_six_tours_are_drawn_uniformly() {
    let board = Board::square(6).unwrap();
    let tours = closed_tours(board);
    assert_eq!(tours.len(), 9862);
    let cell = |sq: &[u32]| tours[&edges(sq, true)];
    let right = draw_and_test(
        board,
        Closure::Closed,
        tours.len(),
        20,
        45,
        Weighting::Exact,
        cell,
    );
    assert!(right.p > ALPHA, "{right:?}");
    let wrong = Weighting::UniformPredecessor;
    let biased = draw_and_test(board, Closure::Closed, tours.len(), 20, 45, wrong, cell);
    assert!(biased.p < ALPHA, "{biased:?}");
    let wrong = Weighting::DoubledAt { square: 18 };
    let doubled = draw_and_test(board, Closure::Closed, tours.len(), 20, 45, wrong, cell);
    assert!(doubled.p < ALPHA, "{doubled:?}");
    eprintln!("closed 6x6: exact {right:?}; uniform predecessors {biased:?}; doubled {doubled:?}");
}

/// The directed open 5x5 tours: all 1,728 listed by the search, drawn uniformly (each path from
/// either end at rate 1/2); the sampler that weighs every predecessor alike is rejected.
#[test]
fn directed_open_five_by_five_tours_are_drawn_uniformly() {
    let board = Board::square(5).unwrap();
    let tours = open_tours(board);
    assert_eq!(tours.len(), 1728);
    let cell = |sq: &[u32]| tours[sq];
    let right = draw_and_test(
        board,
        Closure::Open,
        tours.len(),
        20,
        45,
        Weighting::Exact,
        cell,
    );
    assert!(right.p > ALPHA, "{right:?}");
    let wrong = Weighting::UniformPredecessor;
    let biased = draw_and_test(board, Closure::Open, tours.len(), 20, 45, wrong, cell);
    assert!(biased.p < ALPHA, "{biased:?}");
    let wrong = Weighting::DoubledAt { square: 20 };
    let doubled = draw_and_test(board, Closure::Open, tours.len(), 20, 45, wrong, cell);
    assert!(doubled.p < ALPHA, "{doubled:?}");
    eprintln!("open 5x5: exact {right:?}; uniform predecessors {biased:?}; doubled {doubled:?}");
}

/// The command writes tours that `verify` accepts, in every format; the same seed gives the same
/// tours; bad input gets one line and exit 2, a board without tours exit 3.
#[test]
fn the_command_writes_tours_that_verify_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for (format, ext) in [("json", "json"), ("moves", "txt"), ("bin", "bin")] {
        let out = dir.path().join(format);
        ktour()
            .args([
                "sample", "--rows", "6", "--cols", "5", "--closed", "--tours", "3",
            ])
            .args(["--seed", "2", "--format", format, "--dir"])
            .arg(&out)
            .assert()
            .success()
            .stderr(contains("drew 3 closed tours of 6x5"));
        for k in 1..=3 {
            ktour()
                .arg("verify")
                .arg(out.join(format!("tour-{k}.{ext}")))
                .args(["--rows", "6", "--cols", "5", "--closed"])
                .assert()
                .success()
                .stdout("valid closed tour\n");
        }
    }
    let run = |seed: &str| {
        let out = ktour()
            .args(["sample", "-n", "5", "--tours", "4", "--seed", seed])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    ktour()
        .args(["sample", "-n", "5", "--tours", "50", "--stats"])
        .assert()
        .success()
        .stderr(contains("per tour: crossings "));
    let first = run("9");
    assert_eq!(first.lines().count(), 4);
    assert_eq!(first, run("9"));
    assert_ne!(first, run("10"));
    for line in first.lines() {
        let tour = ktour::tour::parse_tour(line.as_bytes(), None).unwrap();
        assert_eq!(verify_tour(tour.board, &tour.squares), Ok(TourKind::Open));
    }
    ktour()
        .args(["sample", "--rows", "9", "--cols", "10", "--tours", "1"])
        .assert()
        .code(2)
        .stderr(contains("at most 8 wide"));
    ktour()
        .args(["sample", "-n", "5", "--closed", "--tours", "1"])
        .assert()
        .code(3)
        .stderr(contains("no closed tour"));
    ktour()
        .args(["sample", "-n", "5", "--tours", "0"])
        .assert()
        .code(2)
        .stderr(contains("between 1 and"));
    ktour()
        .args(["sample", "-n", "5", "--tours", "1", "--format", "bin"])
        .assert()
        .code(2)
        .stderr(contains("--dir"));
    // ten million tours of 180,000 squares hold terabytes: refused before the forward pass
    ktour()
        .args([
            "sample", "--rows", "3", "--cols", "60000", "--tours", "10000000",
        ])
        .assert()
        .code(2)
        .stderr(contains("--tours 10000000: drawing them holds about"))
        .stderr(contains("MiB free: draw fewer a run"));
}

/// The statistics of a tour (crossings, consecutive moves in the same direction): their means
/// over 20,000 random closed 6x6 tours are within 5 standard errors of their means over all 9,862
/// tours listed by the search.
#[test]
fn statistics_of_random_tours_match_the_census() {
    use ktour::sample::stats::{crossings, mean_interval, straight_pairs};
    let board = Board::square(6).unwrap();
    let square = |i: u32| Square::new((i / 6) as u16, (i % 6) as u16);
    let mut census = (0.0, 0.0, 0usize);
    for path in closed_tours_listed(board) {
        let tour: Vec<Square> = path.iter().map(|&i| square(i)).collect();
        census.0 += f64::from(crossings(&tour, true));
        census.1 += f64::from(straight_pairs(&tour, true));
        census.2 += 1;
    }
    assert_eq!(census.2, 9862);
    let exact = [census.0 / 9862.0, census.1 / 9862.0];
    let request = SampleRequest {
        board,
        closure: Closure::Closed,
        tours: 20_000,
        seed: 11,
        temp: None,
        weighting: Weighting::Exact,
    };
    let drawn = sample(&request).unwrap();
    let of = |f: fn(&[Square], bool) -> u32| -> Vec<f64> {
        drawn.tours.iter().map(|t| f64::from(f(t, true))).collect()
    };
    for (name, values, exact) in [
        ("crossings", of(crossings), exact[0]),
        ("straight pairs", of(straight_pairs), exact[1]),
    ] {
        let (mean, low, high) = mean_interval(&values);
        let se = (high - low) / (2.0 * 1.96);
        eprintln!(
            "closed 6x6 {name}: all tours {exact:.4}; 20,000 drawn {mean:.4} ({low:.4}-{high:.4})"
        );
        assert!(
            (mean - exact).abs() < 5.0 * se,
            "{name}: {mean} against {exact}"
        );
    }
}

/// Every closed tour of `board` as its squares from square 0.
fn closed_tours_listed(board: Board) -> Vec<Vec<u32>> {
    let adj = neighbours(board);
    let (a, b) = (adj[0].trailing_zeros(), 63 - adj[0].leading_zeros());
    let mut tours = Vec::new();
    let mut found = |path: &[u32]| tours.push(path.to_vec());
    let mut paths = Paths {
        adj: &adj,
        all: (1u64 << board.len()) - 1,
        end: Some(b),
        found: &mut found,
    };
    paths.search(&mut vec![0, a], 1 | 1 << a);
    tours
}

/// The committed draw of 10,000 open 7x7 tours (`results/samples/open-7x7.jsonl`, made by the
/// command in `results/samples/README.md`): every tour passes the verifier, no two are the same, and
/// the statistics the README's table quotes for it are those of these tours.
#[test]
fn the_committed_open_7x7_draw_verifies() {
    use ktour::sample::stats::{crossings, mean_interval, straight_pairs};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("results/samples/open-7x7.jsonl")).unwrap();
    let board = Board::square(7).unwrap();
    let mut seen = std::collections::HashSet::new();
    let (mut cross, mut straight) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let j: serde_json::Value = serde_json::from_str(line).unwrap();
        let tour: Vec<Square> = j["squares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| Square::new(s[0].as_u64().unwrap() as u16, s[1].as_u64().unwrap() as u16))
            .collect();
        assert!(
            matches!(verify_tour(board, &tour), Ok(TourKind::Open)),
            "{line}"
        );
        cross.push(f64::from(crossings(&tour, false)));
        straight.push(f64::from(straight_pairs(&tour, false)));
        assert!(seen.insert(tour), "a tour drawn twice");
    }
    assert_eq!(seen.len(), 10_000);
    let corner = |q: &Square| matches!((q.row(), q.col()), (0 | 6, 0 | 6));
    let from_corner = seen.iter().filter(|t| corner(&t[0])).count();
    let (c, cl, ch) = mean_interval(&cross);
    let (s, sl, sh) = mean_interval(&straight);
    let row = format!(
        "| open 7x7 | 10,000 | {c:.3} ({cl:.3} to {ch:.3}) | {s:.4} ({sl:.4} to {sh:.4}) |"
    );
    let readme = std::fs::read_to_string(root.join("results/samples/README.md")).unwrap();
    assert!(readme.contains(&row), "the README's row should read {row}");
    let sentence = format!(
        "{},{:03} of the 10,000 start at a corner",
        from_corner / 1000,
        from_corner % 1000
    );
    assert!(
        readme.contains(&sentence),
        "the README should say {sentence}"
    );
}
