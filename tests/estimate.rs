//! `ktour estimate`: the estimator's exact expectation (every path of the proposal tree, `twin`)
//! equals the exact count on small boards, open and closed, for every proposal, pruned or not; a
//! seeded estimate's interval holds the count; the command's output and exit codes.
//!
//! The counts compared with come from `ktour count` (the search engine), itself checked against
//! OEIS A165134, A118067, A079137, A001230 and A169764 in `tests/count.rs`.

use crate::support::ktour;
use ktour::board::{Board, Closure};
use ktour::count::{count, CountOptions, CountRequest, Orientation, Starts};
use ktour::estimate::walk::Graph;
use ktour::estimate::{estimate, twin, EstimateRequest, Proposal};
use predicates::str::contains;

fn exact_count(board: Board, closure: Closure) -> u64 {
    let orientation = match closure {
        Closure::Open => Orientation::Directed,
        Closure::Closed => Orientation::Undirected,
    };
    let request = CountRequest {
        board,
        closure,
        orientation,
        starts: Starts::All,
    };
    count(&request, &CountOptions::default()).unwrap().count
}

const PROPOSALS: [Proposal; 3] = [
    Proposal::Uniform,
    Proposal::Warnsdorff { exponent: 1.5 },
    Proposal::Warnsdorff { exponent: 6.0 },
];

/// The boards: open and closed, with and without tours, narrow and square.
const BOARDS: [(u64, u64, Closure); 10] = [
    (1, 1, Closure::Open),
    (3, 4, Closure::Open),
    (4, 4, Closure::Open),
    (3, 7, Closure::Open),
    (4, 5, Closure::Open),
    (5, 5, Closure::Open),
    (3, 10, Closure::Closed),
    (3, 12, Closure::Closed),
    (5, 6, Closure::Closed),
    (4, 5, Closure::Closed),
];

#[test]
fn the_expectation_is_the_count() {
    for (r, c, closure) in BOARDS {
        let board = Board::new(r, c).unwrap();
        let truth = exact_count(board, closure) as f64;
        for proposal in PROPOSALS {
            // the unpruned trees of 5x5 and larger take minutes: `pruning_shrinks_the_tree` has one
            let prunes: &[bool] = if r * c <= 21 { &[true, false] } else { &[true] };
            for &prune in prunes {
                let graph = Graph::new(board, closure, proposal, prune);
                let (mean, walks) = twin::expectation(&graph, 20_000_000).unwrap();
                let what = format!("{board} {closure:?} {proposal} prune {prune}: {walks} walks");
                assert!(
                    (mean - truth).abs() <= 1e-9 * truth.max(1.0),
                    "{what}: {mean} != {truth}"
                );
            }
        }
    }
}

/// Pruning leaves out walks, never tours: the pruned tree is smaller and has the same expectation.
#[test]
fn pruning_shrinks_the_tree() {
    let board = Board::new(5, 5).unwrap();
    let walks = |prune| {
        twin::expectation(
            &Graph::new(board, Closure::Open, Proposal::Uniform, prune),
            u64::MAX,
        )
        .unwrap()
        .1
    };
    let (pruned, plain) = (walks(true), walks(false));
    assert!(pruned * 3 < plain, "{pruned} vs {plain}");
}

/// A seeded estimate lies within 3.29 standard errors of the count (a 99.9% normal interval: one seed
/// in a thousand would fail by chance, where the 95% interval misses one in twenty).
#[test]
fn a_seeded_estimate_is_near_the_count() {
    // the widest half-width each may have: uniform walks on 5x6 closed (8 cycles) rarely complete
    for (r, c, closure, proposal, widest) in [
        (
            5,
            5,
            Closure::Open,
            Proposal::Warnsdorff { exponent: 2.0 },
            0.2,
        ),
        (
            6,
            6,
            Closure::Closed,
            Proposal::Warnsdorff { exponent: 2.0 },
            0.2,
        ),
        (5, 6, Closure::Closed, Proposal::Uniform, 1.0),
        (
            3,
            12,
            Closure::Open,
            Proposal::Warnsdorff { exponent: 1.0 },
            0.2,
        ),
    ] {
        let board = Board::new(r, c).unwrap();
        let truth = exact_count(board, closure) as f64;
        let request = EstimateRequest {
            board,
            closure,
            samples: 50_000,
            seed: 1,
            proposal,
            prune: true,
            progress: false,
        };
        let s = estimate(&request).unwrap().summary;
        let off = (s.estimate / truth - 1.0).abs();
        assert!(
            off <= 3.29 * s.relative_se,
            "{board} {closure:?}: {s:?} vs {truth}"
        );
        assert!(s.relative_half_width() < widest, "{s:?}");
    }
}

#[test]
fn last_line_is_the_estimate_and_json_is_one_object() {
    let out = ktour()
        .args(["estimate", "-n", "5", "--samples", "2e4", "--threads", "2"])
        .assert()
        .success()
        .stdout(contains("95% interval (normal)"))
        .stdout(contains("effective sample size"))
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let last: f64 = text.lines().last().unwrap().parse().unwrap();
    assert!((last - 1728.0).abs() < 200.0, "{text}");
    let out = ktour()
        .args([
            "estimate", "--rows", "3", "--cols", "10", "--closed", "--format", "json",
        ])
        .args(["--samples", "5000", "--proposal", "uniform", "--seed", "3"])
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["closed"], true);
    assert_eq!(json["summary"]["samples"], 5000);
    assert_eq!(json["stages"].as_array().unwrap().len(), 3);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for (args, says) in [
        (&["--proposal", "best"][..], "unknown proposal"),
        (&["--proposal", "warnsdorff:-2"][..], "exponent"),
        (&["--samples", "0"][..], "--samples must be from 1"),
        (&["--samples", "6e7"][..], "--samples must be from 1"),
        (&["--samples", "lots"][..], "not a number of walks"),
        (&["--threads", "0"][..], "number of threads"),
    ] {
        ktour()
            .args(["estimate", "-n", "5"])
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(says));
    }
    ktour()
        .args(["estimate", "-n", "40"])
        .assert()
        .code(2)
        .stderr(contains("at most 1024 squares"));
}
