//! A run recorded move by move, for the animation: each move with the candidates that were considered
//! (and their degrees), whether the minimum was tied, and each undo of a backtracking search.

use super::{Observer, Oracle, Request, Solution, SolveError, Solver};
use crate::board::Square;
use crate::state::{SearchState, MAX_DEGREE};

/// One step of a traced run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TraceEvent {
    /// The knight moved from `from` to `square`.
    Move {
        /// Square moved from.
        from: Square,
        /// Square moved to.
        square: Square,
        /// Free neighbours of `from` with their degrees, in label order.
        candidates: Vec<(Square, u8)>,
        /// Whether more than one candidate had the minimum degree.
        tied: bool,
    },
    /// The search left `square` again.
    Undo {
        /// The square left.
        square: Square,
    },
}

/// A traced run.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Events in order.
    pub events: Vec<TraceEvent>,
    /// The result.
    pub solution: Solution,
}

struct Recorder {
    events: Vec<TraceEvent>,
}

impl Observer for Recorder {
    fn on_move(&mut self, state: &SearchState, from: usize, to: usize) {
        let layout = state.layout();
        let candidates: Vec<(Square, u8)> = layout
            .offsets()
            .iter()
            .map(|&o| (from as isize + o) as usize)
            .filter(|&q| state.degree(q) <= MAX_DEGREE)
            .map(|q| (layout.unpad(q), state.degree(q)))
            .collect();
        let min = candidates.iter().map(|c| c.1).min().unwrap_or(0);
        let tied = candidates.iter().filter(|c| c.1 == min).count() > 1;
        self.events.push(TraceEvent::Move {
            from: layout.unpad(from),
            square: layout.unpad(to),
            candidates,
            tied,
        });
    }

    fn on_undo(&mut self, state: &SearchState, square: usize) {
        self.events.push(TraceEvent::Undo {
            square: state.layout().unpad(square),
        });
    }
}

/// Run `req` and record every move and undo. Keep the board small and the budget bounded: the trace
/// grows with the number of nodes.
pub fn trace(req: &Request) -> Result<Trace, SolveError> {
    let mut solver = Solver::new();
    let mut rec = Recorder { events: Vec::new() };
    let summary = solver.run_observed(req, &mut rec, Oracle::Consult)?;
    Ok(Trace {
        events: rec.events,
        solution: solver.solution(req, summary),
    })
}

/// [`trace`] on any board: `shape` (its board the request's), traced by the search on any board.
pub fn trace_on(req: &Request, shape: &crate::board::Shape) -> Result<Trace, SolveError> {
    let mut engine = super::shaped::Engine::default();
    engine.set_shape(shape);
    let (summary, events) = engine.run_traced(req)?;
    let squares = match summary.outcome {
        super::Outcome::Impossible(super::Impossibility::Theorem(_)) => Vec::new(),
        _ => engine.path(),
    };
    Ok(Trace {
        events,
        solution: Solution {
            request: *req,
            outcome: summary.outcome,
            squares,
            stats: summary.stats,
            orderings: None,
        },
    })
}
