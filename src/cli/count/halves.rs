//! `ktour count --method halves`: closed tours counted from both ends of the board
//! ([`crate::count::frontier::count_closed_halves`]), with its progress lines on standard error.

use super::{CountJson, Printed};
use crate::board::Closure;
use crate::count::engine::Engine;
use crate::count::frontier::{count_closed_halves, HalvesProgress};
use crate::count::{tours_label, CountRequest, Orientation};
use num_bigint::BigUint;

/// The count from both ends of a whole knight's board ([`Engine::Halves`]).
pub(super) fn count_by_halves(request: &CountRequest) -> anyhow::Result<Printed> {
    if request.closure != Closure::Closed {
        anyhow::bail!("--method halves counts closed tours only (it joins cycles at the middle): add --closed, or use --method frontier for open tours");
    }
    let board = request.board;
    let mut last_line = std::time::Duration::ZERO;
    let result = count_closed_halves(board, &mut |p: &HalvesProgress| {
        // a line every 10 s at most: a count of minutes shows it moves
        if p.elapsed >= last_line + std::time::Duration::from_secs(10) {
            last_line = p.elapsed;
            let part = if p.band { " (band)" } else { "" };
            eprintln!(
                "halves: square {}{part}: {} states, {:.1} s",
                p.square,
                p.states,
                p.elapsed.as_secs_f64()
            );
        }
    })?;
    let total = match request.orientation {
        Orientation::Undirected => BigUint::from(result.cycles),
        Orientation::Directed => result.directed(),
    };
    let mut json = CountJson::new(
        request,
        Engine::Halves,
        total.to_string().into(),
        result.transitions,
    );
    json.peak_states = Some(result.peak_states);
    json.elapsed_ns = result.elapsed.as_nanos();
    let kind = tours_label(request.closure, request.orientation);
    Ok(Printed {
        json,
        line: format!(
            "{kind} on {board} (halves): the top {} rows' {} band states joined with {} bottom states ({} pairs), {} transitions, peak {} states, in {:.3} s",
            result.top_rows,
            result.band_states,
            result.bottom_states,
            result.pairs,
            result.transitions,
            result.peak_states,
            result.elapsed.as_secs_f64()
        ),
        count: total.to_string(),
        per_start_table: None,
    })
}
