//! `ktour count --closed --symmetric 180|90`: the closed tours a rotation of the board maps onto
//! themselves, counted by [`crate::count::symmetric`]; this file only prints.

use super::format::CountFormat;
use crate::board::Board;
use crate::cli::ExitStatus;
use crate::count::symmetric::{count_symmetric, rotation_of, Rotation};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The JSON output of `ktour count --symmetric`.
#[derive(Debug, Serialize)]
struct SymmetricJson {
    rows: u32,
    cols: u32,
    closed: bool,
    directed: bool,
    /// The rotation, in degrees.
    symmetric: u32,
    method: &'static str,
    /// Closed tours (undirected cycles) the rotation maps onto themselves, a decimal string.
    count: String,
    /// Vertices of the quotient board and the widest frontier of its sweep, in squares.
    quotient_vertices: usize,
    frontier: usize,
    /// State transitions, over all steps.
    nodes: u64,
    peak_states: usize,
    /// States after each vertex of the quotient, in its sweep order.
    states: Vec<usize>,
    elapsed_ns: u128,
}

/// Count and print; on standard error, once the count has run 5 s, a line a vertex of the
/// quotient (there are at most a few dozen: a long count shows how its states grow).
pub fn run(
    board: Board,
    closed: bool,
    degrees: u32,
    max_states: usize,
    format: CountFormat,
) -> anyhow::Result<ExitStatus> {
    let rotation = rotation_of(board, closed, degrees)?;
    let timer = Instant::now();
    let report = |vertex: usize, states: usize| {
        let elapsed = timer.elapsed();
        if elapsed >= Duration::from_secs(5) {
            eprintln!(
                "symmetric: vertex {}: {states} states, {:.1} s",
                vertex + 1,
                elapsed.as_secs_f64()
            );
        }
    };
    let result = count_symmetric(board, rotation, max_states, report)?;
    let count = result.tours.to_string();
    match format {
        CountFormat::Json => {
            let json = SymmetricJson {
                rows: board.rows(),
                cols: board.cols(),
                closed: true,
                directed: false,
                symmetric: rotation.degrees(),
                method: "frontier",
                count,
                quotient_vertices: result.vertices,
                frontier: result.frontier,
                nodes: result.transitions,
                peak_states: result.peak_states(),
                states: result.states.clone(),
                elapsed_ns: result.elapsed.as_nanos(),
            };
            println!("{}", serde_json::to_string(&json)?);
        }
        CountFormat::Bfile => println!("{} {count}", board.cols()),
        CountFormat::Text => {
            let turn = match rotation {
                Rotation::Quarter => "a quarter-turn",
                _ => "a half-turn",
            };
            println!(
                "closed tours (undirected cycles) invariant under {turn} on {board} (frontier on the quotient board, {} vertices, {} squares wide): {} transitions, peak {} states, in {:.3} s",
                result.vertices,
                result.frontier,
                result.transitions,
                result.peak_states(),
                result.elapsed.as_secs_f64()
            );
            println!("{count}");
        }
    }
    Ok(ExitStatus::Success)
}
