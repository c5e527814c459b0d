//! The words of a tour picture ([`super`]): the caption above the board, and for a failed run the
//! panel below it that lists the unvisited and stranded squares and the candidates of the last moves
//! (the analysis of [`crate::render::failed`]).

use crate::board::Board;
use crate::render::failed::{CandidateStep, FailedAnalysis};
use crate::tour::TourRecord;

/// The caption lines and the panel lines of a record's picture; the panel is empty unless the run
/// failed on a knight's board with squares left.
pub(super) fn texts(
    board: Board,
    rec: &TourRecord,
    failed: Option<&FailedAnalysis>,
) -> (Vec<String>, Vec<String>) {
    let how = match (rec.method.is_empty(), rec.rule.is_empty()) {
        (true, true) => String::new(),
        (false, true) => format!(", {}", rec.method),
        (true, false) => format!(", rule {}", rec.rule),
        (false, false) => format!(", {} rule {}", rec.method, rec.rule),
    };
    let n = rec.squares.len();
    let total = board.len();
    match failed {
        None => (vec![path_caption(board, rec, &how)], Vec::new()),
        Some(f) if f.unvisited.is_empty() => (
            vec![format!(
                "{board} failed run{how}: all {total} squares visited, but the last, {}, is not a knight move from the first, {}",
                f.dead_end, rec.squares[0]
            )],
            Vec::new(),
        ),
        Some(f) => (
            vec![format!(
                "{board} failed run{how}: dead end at {} after {n} squares ({} of {total} visited)",
                f.dead_end, f.visited
            )],
            failed_panel(f),
        ),
    }
}

/// The caption of a tour, or of a path drawn without the knight's analysis.
fn path_caption(board: Board, rec: &TourRecord, how: &str) -> String {
    let n = rec.squares.len();
    let kind = if rec.closed { "closed" } else { "open" };
    // a board with holes or another leaper says so
    let holes = match rec.holes.len() {
        0 => String::new(),
        1 => " with 1 hole".into(),
        h => format!(" with {h} holes"),
    };
    let leaper = rec
        .leaper
        .as_ref()
        .map_or(String::new(), |l| format!(", ({l})-leaper"));
    // a failed run on any board is drawn without the knight's analysis: as its path
    let found = if rec.found { "tour" } else { "path" };
    format!(
        "{board}{holes}{leaper} {kind} {found}{how}: {n} squares, start {}, end {}",
        rec.squares[0],
        rec.squares[n - 1]
    )
}

/// The panel of a failed run: the unvisited and stranded squares, one line per last move, a key.
fn failed_panel(f: &FailedAnalysis) -> Vec<String> {
    let mut panel = Vec::new();
    let mut stranded: Vec<_> = f.stranded.iter().collect();
    stranded.sort_by_key(|s| s.since);
    let shown: Vec<String> = stranded
        .iter()
        .take(6)
        .map(|s| match s.since {
            Some(k) => format!("{} since #{k}", s.square),
            None => format!("{} (no knight neighbour)", s.square),
        })
        .collect();
    panel.push(format!(
        "{} unvisited (yellow), {} stranded with no free neighbour (red){}{}",
        f.unvisited.len(),
        f.stranded.len(),
        if shown.is_empty() { "" } else { ": " },
        shown.join(", ")
    ));
    panel.extend(f.steps.iter().map(step_line));
    panel.push(
        "discs: degree of each candidate of the last moves (blue: taken, orange: tied minimum)"
            .into(),
    );
    panel
}

/// One of the last moves in words: its candidates with their degrees (`*` on a tied minimum) and
/// the square taken, or why none was.
fn step_line(step: &CandidateStep) -> String {
    let min = step.min_degree();
    let list: Vec<String> = step
        .candidates
        .iter()
        .map(|&(c, d)| {
            let mark = if Some(d) == min && step.tied() {
                "*"
            } else {
                ""
            };
            format!("{c} d{d}{mark}")
        })
        .collect();
    match step.chosen {
        Some(to) => format!(
            "#{} {}: candidates {}{} -> took {to}",
            step.number,
            step.from,
            list.join(", "),
            if step.tied() { " (* tied)" } else { "" }
        ),
        None if list.is_empty() => format!(
            "#{} {}: no free neighbour: dead end",
            step.number, step.from
        ),
        None => format!(
            "#{} {}: stopped with candidates {} left",
            step.number,
            step.from,
            list.join(", ")
        ),
    }
}
