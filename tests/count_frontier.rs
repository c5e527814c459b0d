//! The frontier (transfer-matrix) counter against the backtracking engine, its slow twin here, and
//! against published values.
//!
//! Sources of the expected values (as in `tests/count.rs`):
//! - A165134: directed open tours on n x n: 1728 (5x5), 6,637,920 (6x6).
//! - A118067: directed Hamiltonian paths of 3 x n: 3x4 16, 3x7 104, 3x8 792, 3x9 1120, 3x10 6096,
//!   3x11 21344, 3x12 114496.
//! - A079137: undirected Hamiltonian paths of 4 x n: 4x5 82, 4x6 744, 4x7 6378, 4x8 31088.
//! - A001230: undirected closed tours on 6x6: 9862.
//! - A169764: closed tours of 3 x n: 3x10 16, 3x12 176, 3x14 1536.
//! - A383661 (Knuth 2025, closed tours in the first 2n cells of a 5-row board; n = 25 is the full
//!   5 x 10 board): 13,311,268. Out of reach of the search engine's 64-square limit in a test's time.
//! - A193054 (closed tours of 7 x 2n): 7x6 1,067,638, 7x8 34,524,432,316, 7x10
//!   1,250,063,279,938,854; A193055 (closed tours of 8 x n): 8x5 44,202, 8x6 55,488,142, 8x7
//!   34,524,432,316, 8x8 13,267,364,410,532. The counter transposes a board to its shorter side's
//!   width, so these are 6x7, 7x8, 7x10, 5x8 and 6x8 of width 5 to 7.
//! - A175881 (closed tours of 6 x n, de Ruiter): all 40 terms of its data, n = 1..40, against the
//!   committed b-file.

use ktour::board::{Board, Closure};
use ktour::count::frontier::{
    count_frontier, count_frontier_opts, count_frontier_with, count_lengths, FrontierOptions,
    PrimeSet, MAX_WIDTH,
};
use ktour::count::{count, CountError, CountOptions, CountRequest, Orientation, Starts};
use num_bigint::BigUint;

fn board(r: u64, c: u64) -> Board {
    Board::new(r, c).unwrap()
}

/// Undirected tours by the backtracking engine.
fn search(b: Board, closed: bool) -> u128 {
    let request = CountRequest {
        board: b,
        closure: if closed {
            Closure::Closed
        } else {
            Closure::Open
        },
        orientation: Orientation::Undirected,
        starts: Starts::All,
    };
    count(&request, &CountOptions::default()).unwrap().count as u128
}

fn frontier(r: u64, c: u64, closed: bool) -> u128 {
    let count = count_frontier(board(r, c), Closure::of(closed)).unwrap();
    u128::try_from(&count.undirected).unwrap()
}

fn big(text: &str) -> BigUint {
    text.parse().unwrap()
}

#[test]
fn equals_search_on_every_board_up_to_six_by_six() {
    for r in 1..=6 {
        for c in 1..=6 {
            for closed in [false, true] {
                if (r, c, closed) == (6, 6, false) {
                    // About 20 s with the frontier; checked against A165134 by the ignored test below.
                    continue;
                }
                let b = board(r, c);
                assert_eq!(
                    frontier(r, c, closed),
                    search(b, closed),
                    "{b} closed={closed}"
                );
            }
        }
    }
}

#[test]
fn equals_search_on_long_narrow_boards() {
    for c in 7..=14 {
        for closed in [false, true] {
            assert_eq!(
                frontier(3, c, closed),
                search(board(3, c), closed),
                "3x{c} {closed}"
            );
        }
    }
    for c in 7..=10 {
        for closed in [false, true] {
            assert_eq!(
                frontier(4, c, closed),
                search(board(4, c), closed),
                "4x{c} {closed}"
            );
        }
    }
    // Transposition: the counter turns tall boards into wide ones and back.
    assert_eq!(frontier(9, 4, false), frontier(4, 9, false));
    assert_eq!(frontier(12, 3, true), frontier(3, 12, true));
}

#[test]
fn matches_oeis() {
    let directed = |r, c| {
        let count = count_frontier(board(r, c), Closure::Open).unwrap();
        u128::try_from(count.directed()).unwrap()
    };
    assert_eq!(directed(5, 5), 1728);
    for (n, a118067) in [
        (4, 16),
        (7, 104),
        (8, 792),
        (9, 1120),
        (10, 6096),
        (11, 21344),
        (12, 114496),
    ] {
        assert_eq!(directed(3, n), a118067, "3x{n}");
    }
    for (n, a079137) in [(3, 8), (5, 82), (6, 744), (7, 6378), (8, 31088)] {
        assert_eq!(frontier(4, n, false), a079137, "4x{n}");
    }
    assert_eq!(frontier(6, 6, true), 9862);
    for (n, a169764) in [(10, 16), (12, 176), (14, 1536)] {
        assert_eq!(frontier(3, n, true), a169764, "3x{n}");
    }
    assert_eq!(frontier(5, 10, true), 13_311_268);
    // A193055 for n = 5, 6 and A193054 for n = 3 (the 8- and 7-row boards, transposed).
    assert_eq!(frontier(8, 5, true), 44_202);
    assert_eq!(frontier(8, 6, true), 55_488_142);
    assert_eq!(frontier(7, 6, true), 1_067_638);
    // Directed closed tours over all starts: 2 per cycle and square.
    let six = count_frontier(board(6, 6), Closure::Closed).unwrap();
    assert_eq!(six.directed(), BigUint::from(2 * 36 * 9862u32));
}

#[test]
#[ignore = "about 8 s in release"]
fn six_by_six_open_matches_a165134() {
    assert_eq!(
        count_frontier(board(6, 6), Closure::Open)
            .unwrap()
            .directed(),
        BigUint::from(6_637_920u32)
    );
}

/// The 7x7 value of A165134. Too heavy for the test suite (about 2 minutes and 3.5 GB on the 2-core
/// machine): run it by hand with `cargo test --release --test integration -- --ignored seven_by_seven`;
/// `results/counts/7x7-open.txt` records the run of `ktour count` that reproduced it.
#[test]
#[ignore = "about 2 minutes and 3.5 GB in release"]
fn seven_by_seven_open_matches_a165134() {
    assert_eq!(
        count_frontier(board(7, 7), Closure::Open)
            .unwrap()
            .directed(),
        BigUint::from(165_575_218_320u64)
    );
}

/// A193054 for n = 4 and A193055 for n = 7: the closed tours of 7 x 8, the widest board (7) whose
/// closed count the suite can check against a published value. About a minute and 2 GB in release
/// (22.5 M states at the peak): run it with `cargo test --release --test integration -- --ignored
/// seven_by_eight`; `results/counts/7x8-closed.txt` records the run of `ktour count`.
#[test]
#[ignore = "about a minute and 2 GB in release"]
fn seven_by_eight_closed_matches_a193054() {
    assert_eq!(frontier(8, 7, true), 34_524_432_316);
}

/// The closed tours of 8x8: 13,267,364,410,532 (McKay 1997; A001230, n = 4; A193055, n = 8). About
/// 25 minutes and 12 GB on the 2-core machine (568 M states at the peak): run it by hand with `cargo
/// test --release --test integration -- --ignored eight_by_eight`; `results/counts/8x8-closed.txt`
/// records the run of `ktour count` that reproduced it.
#[test]
#[ignore = "about 25 minutes and 12 GB in release"]
fn eight_by_eight_closed_matches_mckay() {
    assert_eq!(frontier(8, 8, true), 13_267_364_410_532);
}

/// Counts past 2^128, which the `u128` counter refused: exact, from residues modulo primes, the
/// same under two sets of primes.
#[test]
fn counts_past_u128_are_exact_under_any_primes() {
    // 3 x 74 open: the undirected count is the one the u128 counter gave; its double passes 2^128
    let b = board(3, 74);
    let open = count_frontier(b, Closure::Open).unwrap();
    let undirected = big("177435173263020157275536674745167650504");
    assert_eq!(open.undirected, undirected);
    assert_eq!(open.directed(), &undirected * 2u32);
    assert!(open.directed() > BigUint::from(u128::MAX));
    // 5 x 34 closed: the u128 counter's; on 5 x 36 its states' multiplicities passed 2^128 - 1
    assert_eq!(
        frontier(5, 34, true),
        21_821_760_546_806_761_707_309_514_948_565_417_796
    );
    let with = |primes| {
        let options = FrontierOptions {
            primes,
            ..FrontierOptions::default()
        };
        count_frontier_opts(board(5, 36), Closure::Closed, &options, &mut |_| {}).unwrap()
    };
    let (first, second) = (
        with(PrimeSet::default()),
        with(PrimeSet { bits: 58, skip: 11 }),
    );
    assert!(first.undirected > BigUint::from(u128::MAX));
    assert!(first.passes >= 3);
    assert_eq!(first.undirected, second.undirected);
}

#[test]
fn too_wide_boards_are_refused() {
    let b = board(9, 12);
    assert_eq!(
        count_frontier(b, Closure::Open),
        Err(CountError::TooWide {
            board: b,
            width: 9,
            max: MAX_WIDTH
        })
    );
    // A limit on states that memory could not hold is refused before counting.
    assert!(matches!(
        count_frontier_with(board(8, 8), Closure::Closed, usize::MAX / 64, &mut |_| {}),
        Err(CountError::StatesTooMany { .. })
    ));
    // A limit on states stops a count that would not fit in memory, early.
    assert!(matches!(
        count_frontier_with(board(6, 6), Closure::Open, 1000, &mut |_| {}),
        Err(CountError::TooManyStates {
            max_states: 1000,
            ..
        })
    ));
    // Long boards past 64 squares are fine when narrow.
    let long = count_frontier(board(3, 30), Closure::Open).unwrap();
    assert!(long.undirected > BigUint::from(0u32));
}

/// The states of a step are expanded in parts on all threads and merged: the counts, the states
/// held and the transitions, and an error with the square it names, are the same on any number
/// of threads.
#[test]
fn counts_are_the_same_on_any_number_of_threads() {
    let run = |threads: usize, b: Board, closure: Closure, max_states: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            count_frontier_with(b, closure, max_states, &mut |_| {})
                .map(|c| (c.undirected, c.peak_states, c.transitions))
        })
    };
    for (r, c, closure, max_states) in [
        (6, 6, Closure::Closed, usize::MAX),
        (5, 6, Closure::Open, usize::MAX),
        (4, 12, Closure::Open, usize::MAX),
        (7, 5, Closure::Closed, usize::MAX),
        // past a limit on states
        (6, 6, Closure::Open, 20_000),
    ] {
        let b = board(r, c);
        let one = run(1, b, closure, max_states);
        for threads in [2, 3, 4] {
            assert_eq!(
                run(threads, b, closure, max_states),
                one,
                "{b} {closure:?} on {threads} threads"
            );
        }
    }
}

/// The tours of `width x n` for every `n` up to `length`, from one run.
fn lengths(width: u64, length: u64, closed: bool) -> Vec<u128> {
    let options = FrontierOptions::default();
    let board = board(width, length);
    let run = count_lengths(board, Closure::of(closed), &options, &mut |_| {}).unwrap();
    assert_eq!(run.undirected.len(), length as usize);
    run.undirected
        .iter()
        .map(|c| u128::try_from(c).unwrap())
        .collect()
}

/// One run over `width x length` gives the count of every shorter board (boards shorter than
/// their width included, and odd boards' open tours, whose ends the run does not hold to the
/// corners' colour), each equal to its own count.
#[test]
fn one_run_counts_every_length_as_separate_counts_do() {
    for (width, length) in [(1, 3), (2, 5), (3, 12), (4, 9), (5, 8), (6, 6), (7, 4)] {
        for closed in [false, true] {
            let got = lengths(width, length, closed);
            for n in 1..=length {
                assert_eq!(
                    got[n as usize - 1],
                    frontier(width, n, closed),
                    "{width}x{n} closed={closed} of a run to {length}"
                );
            }
        }
    }
}

/// Published sequences, each from one run: A118067 (directed Hamiltonian paths of 3 x n),
/// A079137 (undirected ones of 4 x n), A169764 (closed tours of 3 x n), and A383661's 5 x 10
/// (closed tours, 13,311,268).
#[test]
fn one_run_gives_published_sequences() {
    let three = lengths(3, 14, false);
    for (n, a118067) in [
        (4, 16),
        (7, 104),
        (8, 792),
        (9, 1120),
        (10, 6096),
        (11, 21344),
        (12, 114496),
    ] {
        assert_eq!(2 * three[n - 1], a118067, "3x{n}");
    }
    let four = lengths(4, 8, false);
    for (n, a079137) in [(3, 8), (4, 0), (5, 82), (6, 744), (7, 6378), (8, 31088)] {
        assert_eq!(four[n - 1], a079137, "4x{n}");
    }
    let closed = lengths(3, 14, true);
    for (n, a169764) in [(8, 0), (9, 0), (10, 16), (12, 176), (14, 1536)] {
        assert_eq!(closed[n - 1], a169764, "3x{n}");
    }
    assert_eq!(lengths(5, 10, true)[9], 13_311_268);
}

/// Every length of a run past 2^128: the same under two sets of primes, and the lengths below
/// 2^64 equal to their own exact counts.
#[test]
fn one_run_counts_lengths_past_u128() {
    let with = |primes| {
        let options = FrontierOptions {
            primes,
            ..FrontierOptions::default()
        };
        count_lengths(board(3, 80), Closure::Open, &options, &mut |_| {}).unwrap()
    };
    let (first, second) = (
        with(PrimeSet::default()),
        with(PrimeSet { bits: 57, skip: 2 }),
    );
    assert!(first.passes > 1);
    assert_eq!(first.undirected, second.undirected);
    assert!(first.undirected[79] > BigUint::from(u128::MAX));
    for n in [20, 35] {
        assert_eq!(
            first.undirected[n - 1],
            BigUint::from(frontier(3, n as u64, false)),
            "3x{n}"
        );
    }
}

/// A committed file of the repository.
fn committed(path: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join(path)).unwrap()
}

/// The `(n, a(n))` lines of a b-file.
fn bfile(text: &str) -> Vec<(u32, BigUint)> {
    text.lines()
        .map(|l| {
            let (n, a) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), big(a))
        })
        .collect()
}

/// `lines` of a b-file of `side` x n are n = 1, 2, .. with the `published` terms, every one.
fn assert_bfile_is(lines: &[(u32, BigUint)], published: &[&str], side: u32) {
    assert_eq!(lines.len(), published.len());
    for (i, (n, a)) in lines.iter().enumerate() {
        assert_eq!(*n as usize, i + 1);
        assert_eq!(*a, big(published[i]), "{side}x{n}");
    }
}

/// The committed b-file of closed 6 x n, n = 1..40 (`results/counts/6xn-closed.b`, one run of
/// `ktour count --rows 6 --cols 1..=40 --closed --format bfile`: minutes of CPU, so not re-run
/// here) against OEIS A175881, the closed tours of 6 x n (de Ruiter), every term: 6 x 40 passes
/// 2^217, so the run took an exact pass and four primes' passes.
#[test]
fn the_committed_6xn_closed_bfile_matches_a175881() {
    let text = committed("results/counts/6xn-closed.b");
    let a175881 = [
        "0",
        "0",
        "0",
        "0",
        "8",
        "9862",
        "1067638",
        "55488142",
        "3374967940",
        "239187240144",
        "15360134570696",
        "964730606632516",
        "61989683445413228",
        "4005716717182224826",
        "255967892553030600920",
        "16378998506224697063588",
        "1050504687249683771795632",
        "67351449674771471216148786",
        "4314151246752166099728445868",
        "276453522147273309254029785276",
        "17717606001764726850971209939188",
        "1135386328785418512845166305951994",
        "72754625853111517738642395445641832",
        "4662311340698795306229004946849255108",
        "298772700964630993744576968415214630040",
        "19145888052227167790585189427230454709502",
        "1226902568798073025855948189578313739199398",
        "78622502118507651703659030426757524782646558",
        "5038287048556094010756276060713112469110084532",
        "322863244258188584511076820531771298243292346804",
        "20689713115693125810120458424283134088711708746418",
        "1325838052128808846982470604742513077251389064878480",
        "84962322582242436449028078490147227914653412498469176",
        "5444553480688572729507994773339404670293124094670063400",
        "348897761885575809340513599895637906535045836867112425442",
        "22358059291249098112956347313304579317330515128430578229580",
        "1432748662105938633370488721737295472216003424322051173765262",
        "91813368745075979865082473968848043302481279531417429418851766",
        "5883582334056740305836749071273843581025553554521365508472081512",
        "377031597006006571424070743308269493020186682009428464253448495336",
    ];
    let lines = bfile(&text);
    assert_bfile_is(&lines, &a175881, 6);
    assert!(lines[39].1.bits() > 192, "6x40 passes 2^192");
}

/// The committed b-file of closed 7 x n, n = 1..22 (`results/counts/7xn-closed.b`, one run of
/// `ktour count --rows 7 --cols 1..=22 --closed --format bfile`: 25 minutes of CPU, so not re-run
/// here) against OEIS A193054, the closed tours of 7 x 2n (Zhao Hui Du): every even n from 6 to
/// 22, the last past 2^128; odd n, with an odd number of squares, and n <= 4 have none.
#[test]
fn the_committed_7xn_closed_bfile_matches_a193054() {
    let text = committed("results/counts/7xn-closed.b");
    let a193054 = [
        "1067638",
        "34524432316",
        "1250063279938854",
        "38350427205194670084",
        "1254934986399237346242334",
        "40157773188600794694366079616",
        "1293153423896688571314211086231916",
        "41575689378315795601749194654016984354",
        "1337089200028352592236847382536061361269314",
    ];
    let lines = bfile(&text);
    assert_eq!(lines.len(), 22);
    for (i, (n, a)) in lines.iter().enumerate() {
        assert_eq!(*n as usize, i + 1);
        let want = if n % 2 == 0 && *n >= 6 {
            big(a193054[(*n as usize - 6) / 2])
        } else {
            BigUint::from(0u8)
        };
        assert_eq!(*a, want, "7x{n}");
    }
    assert!(lines[21].1.bits() > 128, "7x22 passes 2^128");
}

/// The committed b-file of open 7 x n, n = 1..20 (`results/counts/7xn-open.b`, one run of
/// `ktour count --rows 7 --cols 1..=20 --undirected --format bfile` in four sittings, 3.1 hours:
/// not re-run here) against OEIS A306283, the undirected open tours of 7 x n, n = 1..7; 7 x 19 and
/// 7 x 20 pass 2^128 (their residues modulo 2^127 and two primes recombined).
#[test]
fn the_committed_7xn_open_bfile_matches_a306283() {
    let text = committed("results/counts/7xn-open.b");
    let a306283 = ["0", "0", "52", "6378", "622868", "389969466", "82787609160"];
    let lines = bfile(&text);
    assert_eq!(lines.len(), 20);
    for (i, (n, a)) in lines.iter().enumerate() {
        assert_eq!(*n as usize, i + 1);
        if let Some(want) = a306283.get(i) {
            assert_eq!(*a, big(want), "7x{n}");
        }
    }
    assert!(lines[17].1.bits() <= 128 && lines[18].1.bits() > 128);
}

/// The committed b-file of closed 8 x n, n = 1..12 (`results/counts/8xn-closed.b`, one run of
/// `ktour count --rows 8 --cols 1..=12 --closed --format bfile` in four sittings, 5.7 hours: not
/// re-run here) against OEIS A193055, the closed tours of 8 x n (Zhao Hui Du), every term: 8 x 11
/// and 8 x 12 in the OEIS's reading, which the 2011 forum table's (2^65 and 2^64 less) is not.
#[test]
fn the_committed_8xn_closed_bfile_matches_a193055() {
    let text = committed("results/counts/8xn-closed.b");
    let a193055 = [
        "0",
        "0",
        "0",
        "0",
        "44202",
        "55488142",
        "34524432316",
        "13267364410532",
        "7112881119092574",
        "4235482818156697040",
        "2122880233853945590892",
        "1105420672289849239070962",
    ];
    let lines = bfile(&text);
    assert_bfile_is(&lines, &a193055, 8);
    let forum = [
        (11, "2085986745706526487660"),
        (12, "1105402225545775529519346"),
    ];
    for (n, f) in forum {
        assert_ne!(lines[n - 1].1, big(f), "8x{n}: the forum's reading");
    }
}
