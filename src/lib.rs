//! ktour: a research harness for the knight's tour problem.
//!
//! | module | what it is for |
//! |---|---|
//! | [`auto`] | the `auto` method of `solve`: theorems, then search on small boards, construction otherwise |
//! | [`board`] | `Board`, `Square`, the eight knight moves (Squirrel & Cull labels), the padded layout, `BitBoard` |
//! | [`state`] | the search state: degree array updated incrementally (its sentinels are the visited set), make/unmake |
//! | [`solve`] | pure Warnsdorff, Warnsdorff-ordered backtracking, naive backtracking, Pósa closing, tie-break [`solve::rules`] |
//! | [`verify`] | the independent tour verifier |
//! | [`exists`] | existence of open and closed tours from the theorems (Schwenk 1991, Conrad et al. 1994) |
//! | [`count`] | exact tour counting on boards of at most 64 squares |
//! | [`estimate`] | estimates of tour counts past what can be counted, by sequential importance sampling, with intervals |
//! | [`exact`] | exact probabilities of pure Warnsdorff under random tie-breaking: the whole tree of tie choices |
//! | [`construct`] | divide-and-conquer tours on boards of any size |
//! | [`experiment`] | sweeps: spec -> plan -> parallel runs -> tidy CSV, resumable and shardable |
//! | [`render`] | SVG pictures, plots, the HTML replay |
//! | [`report`] | one self-contained HTML page of a sweep's results (`ktour report`) |
//! | [`sample`] | uniformly random tours drawn from the frontier counts (a backward pass over its stored steps) |
//! | [`memory`] | how much memory the process may use (meminfo, cgroups, `ulimit -v`), and the share every check allows |
//! | [`input`] | reading given files bounded: a size limit, and a format check before an endless source is read on |
//! | [`tour`] | tour files: JSON, `r,c` lines, text grid |
//! | [`util`] | shared leaves: the Wilson interval, SplitMix64, durations and bytes in words |
//!
//! ```
//! use ktour::board::{Board, Square};
//! use ktour::solve::{Outcome, Request, Rule, Solver};
//!
//! let board = Board::square(8).unwrap();
//! let mut solver = Solver::new(); // reuse it: no allocation per run once warm
//! let roth: Rule = "roth".parse().unwrap();
//! let run = solver.solve(&Request::warnsdorff(board, Square::new(0, 0), roth)).unwrap();
//! assert_eq!(run.outcome, Outcome::Found);
//! ktour::verify::verify_tour(board, &run.squares).unwrap();
//! ```
#![deny(missing_docs)]

pub mod auto;
pub mod board;
pub mod cli;
pub mod construct;
pub mod count;
pub mod estimate;
pub mod exact;
pub mod exists;
pub mod experiment;
pub mod input;
pub mod machine;
pub mod memory;
pub mod render;
pub mod report;
pub mod sample;
pub mod solve;
pub mod state;
pub mod tour;
pub mod util;
pub mod verify;
