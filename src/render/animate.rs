//! The run replay: one self-contained HTML file (inline CSS, JavaScript and data; no network) that
//! replays a run move by move: the candidates of each decision with their degrees, ties and how the
//! rule broke them, the path growing with visit numbers, undo steps when backtracking. Controls:
//! Play/Pause, Step, Back, Reset, End, a speed slider and a position slider.
//!
//! Boards up to [`MAX_ANIMATE_SIDE`] squares a side (larger ones are refused: the picture would be
//! unreadable and the file large); at most [`MAX_EVENTS`] events (a longer backtracking run is cut
//! and the page says so).
//!
//! The page checks itself when it loads: it replays every event forward and back, then sets
//! `data-status="ok"` on `<html>` (or `error: ...` from a `window.onerror` handler), which
//! `scripts/browser-test.sh` reads from the DOM of a headless Chromium.

use super::escape_xml;
use crate::board::{Board, Square, KNIGHT_DELTAS};
use crate::solve::{Impossibility, Method, Outcome, Request, SolveError, Trace, TraceEvent};
use serde_json::json;

/// Largest board side that can be animated.
pub const MAX_ANIMATE_SIDE: u32 = 40;
/// Most events kept in one animation.
pub const MAX_EVENTS: usize = 250_000;

const TEMPLATE: &str = include_str!("animate.html");

/// One step of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayEvent {
    /// The knight moves to `square`.
    Move {
        /// The square entered.
        square: Square,
        /// The unvisited neighbours of the square moved from, with their degrees (label order).
        candidates: Vec<(Square, u8)>,
        /// Whether two or more candidates shared the minimum degree, so the rule decided.
        tied: bool,
    },
    /// The search leaves `square` again (backtracking).
    Undo {
        /// The square left; always the last square of the path.
        square: Square,
    },
}

/// A run to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The board.
    pub board: Board,
    /// The first square.
    pub start: Square,
    /// Whether a closed tour was asked for.
    pub closed: bool,
    /// Solver name, for the page title.
    pub method: String,
    /// Tie-break rule (`first`, `order:ABCDEFGH`, `pohl`, `roth`, ...); the page explains ties with it.
    pub rule: String,
    /// The events after the start square.
    pub events: Vec<ReplayEvent>,
    /// Whether the run found a tour.
    pub found: bool,
    /// Whether the run was cut short (node budget, or [`MAX_EVENTS`]).
    pub truncated: bool,
    /// How the run ended, in words (shown on the page).
    pub outcome: String,
    /// The board's holes, drawn dark (`docs/REFERENCE.md`, section 9); empty on a whole board.
    pub holes: Vec<Square>,
    /// The leaper, when it is not the knight: the page's labels and degrees read its moves.
    pub leaper: Option<crate::board::Leaper>,
}

/// An animation that cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    /// Board above [`MAX_ANIMATE_SIDE`].
    #[error("animations are limited to boards of at most {MAX_ANIMATE_SIDE}x{MAX_ANIMATE_SIDE} (got {0}); use `ktour render` for a picture of a large run")]
    TooLarge(Board),
    /// The solver refused the request (bad rule for this board, start off the board, memory).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The existence theorems say there is no tour, so the solver did not run.
    #[error("no tour: {0}")]
    NoTour(String),
    /// A square off the board.
    #[error("square {0} is off the {1} board")]
    OffBoard(Square, Board),
    /// A method whose work is not a sequence of moves and undos (`rotate` rewires its path).
    #[error("animations replay moves and undos: warnsdorff, backtrack or naive (got {0}, whose Pósa rotations rewire the path)")]
    Method(Method),
}

/// The label order of `first` or `order:ABCDEFGH`; `None` for anything else.
pub fn parse_order(rule: &str) -> Option<[u8; 8]> {
    let digits = match rule {
        "first" => "12345678",
        r => r.strip_prefix("order:")?,
    };
    let mut order = [0u8; 8];
    let mut seen = [false; 8];
    if digits.len() != 8 {
        return None;
    }
    for (i, ch) in digits.chars().enumerate() {
        let l = ch.to_digit(10)? as u8;
        if !(1..=8).contains(&l) || seen[l as usize - 1] {
            return None;
        }
        seen[l as usize - 1] = true;
        order[i] = l;
    }
    Some(order)
}

/// Replay Warnsdorff's rule with a fixed label order among ties: pure (stop at the first dead end) or,
/// with `backtrack`, a depth-first search trying candidates by (degree, order), recording undo steps.
/// Stops after `max_events` events (`truncated`). An independent slow twin of [`crate::solve::trace`]
/// for rules `first` and `order:*`, kept for the tests that check the two agree event for event.
pub fn replay_warnsdorff(
    board: Board,
    start: Square,
    order: [u8; 8],
    backtrack: bool,
    closed: bool,
    max_events: usize,
) -> Result<Replay, AnimationError> {
    if !board.contains(start.row() as i64, start.col() as i64) {
        return Err(AnimationError::OffBoard(start, board));
    }
    let total = board.len() as usize;
    let mut visited = vec![false; total];
    let frame = |visited: &[bool], from: Square| Frame::new(board, visited, from, order);
    let mut path = vec![start];
    visited[board.index(start) as usize] = true;
    let mut stack = vec![frame(&visited, start)];
    let mut events = Vec::new();
    let mut found = false;
    let mut truncated = false;
    loop {
        let last = *path.last().unwrap_or(&start);
        let full = path.len() == total;
        if full && (!closed || crate::board::is_knight_move(last, start) || total == 1) {
            found = true;
            break;
        }
        if events.len() >= max_events {
            truncated = true;
            break;
        }
        let Some(top) = stack.last_mut() else { break };
        let exhausted = full || top.next >= top.tries.len() || (!backtrack && top.next > 0);
        if exhausted {
            if !backtrack || path.len() == 1 {
                break;
            }
            stack.pop();
            let sq = path.pop().unwrap_or(start);
            visited[board.index(sq) as usize] = false;
            events.push(ReplayEvent::Undo { square: sq });
            continue;
        }
        let to = top.tries[top.next];
        top.next += 1;
        let min = top.cands.iter().map(|c| c.1).min();
        let tied = top.cands.iter().filter(|c| Some(c.1) == min).count() > 1;
        events.push(ReplayEvent::Move {
            square: to,
            candidates: top.cands.clone(),
            tied,
        });
        visited[board.index(to) as usize] = true;
        path.push(to);
        stack.push(frame(&visited, to));
    }
    Ok(Replay {
        board,
        start,
        closed,
        method: if backtrack { "backtrack" } else { "warnsdorff" }.into(),
        rule: rule_name(order),
        outcome: outcome_words(found, truncated),
        events,
        found,
        truncated,
        holes: Vec::new(),
        leaper: None,
    })
}

/// One frame per square on a replayed path: its candidates (label order) with their degrees, the
/// try order (degree, then the label's place in the order), and the next try.
struct Frame {
    cands: Vec<(Square, u8)>,
    tries: Vec<Square>,
    next: usize,
}

impl Frame {
    fn new(board: Board, visited: &[bool], from: Square, order: [u8; 8]) -> Frame {
        let rank = |to: Square| {
            let d = (
                to.row() as i32 - from.row() as i32,
                to.col() as i32 - from.col() as i32,
            );
            let label = KNIGHT_DELTAS.iter().position(|&k| k == d).unwrap_or(0) as u8 + 1;
            order.iter().position(|&l| l == label).unwrap_or(8)
        };
        let cands: Vec<(Square, u8)> = board
            .neighbours(from)
            .filter(|&c| !visited[board.index(c) as usize])
            .map(|c| {
                let d = board
                    .neighbours(c)
                    .filter(|&n| !visited[board.index(n) as usize])
                    .count() as u8;
                (c, d)
            })
            .collect();
        let mut tries: Vec<(u8, usize, Square)> =
            cands.iter().map(|&(c, d)| (d, rank(c), c)).collect();
        tries.sort();
        Frame {
            cands,
            tries: tries.into_iter().map(|t| t.2).collect(),
            next: 0,
        }
    }
}

/// The rule's name as the CLI spells it: `first` for the label order, else `order:LABELS`.
fn rule_name(order: [u8; 8]) -> String {
    if order == [1, 2, 3, 4, 5, 6, 7, 8] {
        "first".into()
    } else {
        format!(
            "order:{}",
            order.iter().map(|l| l.to_string()).collect::<String>()
        )
    }
}

/// How a replay ended, in words.
fn outcome_words(found: bool, truncated: bool) -> String {
    if found {
        "tour found".into()
    } else if truncated {
        "cut at the event limit".into()
    } else {
        "dead end".into()
    }
}

/// Largest node budget of a traced search: every node is at most one move and one undo event, so a
/// trace stays within [`MAX_EVENTS`].
pub const MAX_BUDGET: u64 = (MAX_EVENTS / 2) as u64;

/// THE SEAM where the solver's trace comes in: run `req` with [`crate::solve::trace`] and turn the
/// trace into a [`Replay`]. Refuses boards above [`MAX_ANIMATE_SIDE`] before running anything, and
/// clamps the node budget of the searches to [`MAX_BUDGET`] (0, unlimited, included).
pub fn trace_run(req: &Request) -> Result<Replay, AnimationError> {
    trace_run_on(req, None)
}

/// [`trace_run`] on any board: `shape` (holes, another leaper; its board the request's) is traced
/// by the search on any board, and the page draws its holes.
pub fn trace_run_on(
    req: &Request,
    shape: Option<&crate::board::Shape>,
) -> Result<Replay, AnimationError> {
    if req.board.rows().max(req.board.cols()) > MAX_ANIMATE_SIDE {
        return Err(AnimationError::TooLarge(req.board));
    }
    if req.method == Method::Rotate {
        return Err(AnimationError::Method(req.method));
    }
    let mut req = *req;
    if req.budget == 0 || req.budget > MAX_BUDGET {
        req.budget = MAX_BUDGET;
    }
    let trace = match shape {
        Some(shape) => crate::solve::trace_on(&req, shape)?,
        None => crate::solve::trace(&req)?,
    };
    if let Outcome::Impossible(Impossibility::Theorem(reason)) = trace.solution.outcome {
        return Err(AnimationError::NoTour(reason.to_string()));
    }
    let mut replay = Replay::from_trace(&req, &trace);
    if let Some(shape) = shape {
        replay.holes = shape.holes().collect();
        replay.leaper = Some(shape.leaper()).filter(|&l| l != crate::board::Leaper::KNIGHT);
        if replay.leaper.is_some() {
            replay.outcome = replay.outcome.replace("a knight move", "a move");
        }
    }
    Ok(replay)
}

impl Replay {
    /// The replay of a solver trace.
    pub fn from_trace(req: &Request, trace: &Trace) -> Replay {
        let events = trace
            .events
            .iter()
            .map(|e| match e {
                TraceEvent::Move {
                    square,
                    candidates,
                    tied,
                    ..
                } => ReplayEvent::Move {
                    square: *square,
                    candidates: candidates.clone(),
                    tied: *tied,
                },
                TraceEvent::Undo { square } => ReplayEvent::Undo { square: *square },
            })
            .collect();
        let outcome = trace.solution.outcome;
        Replay {
            board: req.board,
            start: req.start,
            closed: req.closure.is_closed(),
            method: req.method.to_string(),
            rule: req.rule.to_string(),
            events,
            found: outcome == Outcome::Found,
            truncated: outcome == Outcome::BudgetExhausted,
            holes: Vec::new(),
            leaper: None,
            outcome: match outcome {
                Outcome::Found => "tour found".into(),
                Outcome::DeadEnd => "dead end".into(),
                Outcome::NotClosed => {
                    "every square visited, but the ends are not a knight move apart".into()
                }
                Outcome::BudgetExhausted => format!("node budget of {} exhausted", req.budget),
                Outcome::Impossible(_) => "no tour (search exhausted)".into(),
            },
        }
    }
}

/// The self-contained HTML page replaying `replay`.
pub fn animation_html(replay: &Replay) -> Result<String, AnimationError> {
    let board = replay.board;
    if board.rows().max(board.cols()) > MAX_ANIMATE_SIDE {
        return Err(AnimationError::TooLarge(board));
    }
    let on = |s: Square| board.contains(s.row() as i64, s.col() as i64);
    if !on(replay.start) {
        return Err(AnimationError::OffBoard(replay.start, board));
    }
    let mut events = Vec::with_capacity(replay.events.len().min(MAX_EVENTS));
    let mut len = 1i64;
    for ev in replay.events.iter().take(MAX_EVENTS) {
        match ev {
            ReplayEvent::Move {
                square,
                candidates,
                tied,
            } => {
                if let Some(bad) = std::iter::once(square)
                    .chain(candidates.iter().map(|c| &c.0))
                    .find(|s| !on(**s))
                {
                    return Err(AnimationError::OffBoard(*bad, board));
                }
                let flat: Vec<u32> = candidates
                    .iter()
                    .flat_map(|&(c, d)| [c.row() as u32, c.col() as u32, d as u32])
                    .collect();
                events.push(json!([0, square.row(), square.col(), *tied as u8, flat]));
                len += 1;
            }
            ReplayEvent::Undo { square } => {
                if !on(*square) {
                    return Err(AnimationError::OffBoard(*square, board));
                }
                events.push(json!([1, square.row(), square.col()]));
                len -= 1;
            }
        }
    }
    let truncated = replay.truncated || replay.events.len() > MAX_EVENTS;
    let data = json!({
        "rows": board.rows(),
        "cols": board.cols(),
        "start": [replay.start.row(), replay.start.col()],
        "closed": replay.closed,
        "method": replay.method,
        "rule": replay.rule,
        "found": replay.found && !truncated,
        "truncated": truncated,
        "outcome": if truncated && !replay.truncated { "cut at the event limit" } else { replay.outcome.as_str() },
        "final_len": len,
        "events": events,
        "holes": replay.holes.iter().map(|h| [h.row(), h.col()]).collect::<Vec<_>>(),
        "deltas": replay.leaper.map(|l| l.deltas().to_vec()),
    });
    // `</` cannot occur outside JSON strings; inside them `<\/` is the same string.
    let data = data.to_string().replace("</", "<\\/");
    let title = format!(
        "ktour: {} {} {} from {}{}",
        board,
        replay.method,
        replay.rule,
        replay.start,
        if replay.closed { " (closed)" } else { "" }
    );
    Ok(TEMPLATE
        .replace("{{TITLE}}", &escape_xml(&title))
        .replace("{{DATA}}", &data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_parse() {
        assert_eq!(parse_order("first"), Some([1, 2, 3, 4, 5, 6, 7, 8]));
        assert_eq!(
            parse_order("order:36875124"),
            Some([3, 6, 8, 7, 5, 1, 2, 4])
        );
        assert_eq!(parse_order("order:11111111"), None);
        assert_eq!(parse_order("order:1234567"), None);
        assert_eq!(parse_order("pohl"), None);
    }

    #[test]
    fn pure_replay_matches_the_reference_vectors() {
        // Squirrel & Cull 1996 p.113: 5x5 from (0,2) with order:36875124 dead-ends after 17 squares.
        let b = Board::square(5).unwrap();
        let order = parse_order("order:36875124").unwrap();
        let r = replay_warnsdorff(b, Square::new(0, 2), order, false, false, MAX_EVENTS).unwrap();
        assert!(!r.found);
        assert_eq!(r.events.len(), 16);
        // p.112: `first` from (0,0) on 8x8 tours, and its second square is (1,2) (visit 2 in row 1).
        let b = Board::square(8).unwrap();
        let r = replay_warnsdorff(
            b,
            Square::new(0, 0),
            [1, 2, 3, 4, 5, 6, 7, 8],
            false,
            false,
            1000,
        )
        .unwrap();
        assert!(r.found);
        assert_eq!(r.events.len(), 63);
        assert!(
            matches!(r.events[0], ReplayEvent::Move { square, .. } if square == Square::new(1, 2))
        );
    }

    #[test]
    fn backtracking_replay_undoes_and_finds() {
        let b = Board::square(5).unwrap();
        let order = parse_order("order:36875124").unwrap();
        let r = replay_warnsdorff(b, Square::new(0, 2), order, true, false, MAX_EVENTS).unwrap();
        assert!(r.found);
        assert!(r
            .events
            .iter()
            .any(|e| matches!(e, ReplayEvent::Undo { .. })));
        let moves = r
            .events
            .iter()
            .filter(|e| matches!(e, ReplayEvent::Move { .. }))
            .count();
        let undos = r.events.len() - moves;
        assert_eq!(moves - undos, 24);
    }

    #[test]
    fn the_solver_trace_matches_the_slow_twin_event_for_event() {
        use crate::solve::{Method, Rule};
        for n in [5u64, 6, 7, 8] {
            let b = Board::square(n).unwrap();
            for rule in ["first", "order:36875124", "order:87654321"] {
                let order = parse_order(rule).unwrap();
                for start in b.squares() {
                    let req = Request::warnsdorff(b, start, rule.parse::<Rule>().unwrap());
                    assert_eq!(req.method, Method::Warnsdorff);
                    let Ok(real) = trace_run(&req) else {
                        continue; // no tour from here by theorem
                    };
                    let twin =
                        replay_warnsdorff(b, start, order, false, false, MAX_EVENTS).unwrap();
                    assert_eq!(real.events, twin.events, "{b} {rule} from {start}");
                    assert_eq!(real.found, twin.found);
                }
            }
        }
    }

    #[test]
    fn traced_backtracking_ends_where_the_path_says() {
        use crate::solve::Method;
        let b = Board::square(5).unwrap();
        let mut req = Request::warnsdorff(b, Square::new(0, 2), "order:36875124".parse().unwrap());
        req.method = Method::Backtrack;
        let r = trace_run(&req).unwrap();
        assert!(r.found);
        let moves = r
            .events
            .iter()
            .filter(|e| matches!(e, ReplayEvent::Move { .. }))
            .count();
        let undos = r.events.len() - moves;
        assert!(undos > 0);
        assert_eq!(moves - undos, 24);
        // The node budget is clamped, so a trace never outgrows the page.
        req.budget = 0;
        req.board = Board::square(30).unwrap();
        req.method = Method::Naive;
        let r = trace_run(&req).unwrap();
        assert!(r.events.len() <= MAX_EVENTS);
    }

    #[test]
    fn html_embeds_the_data_and_refuses_big_boards() {
        let b = Board::square(5).unwrap();
        let r = replay_warnsdorff(
            b,
            Square::new(0, 0),
            [1, 2, 3, 4, 5, 6, 7, 8],
            false,
            false,
            10,
        )
        .unwrap();
        let html = animation_html(&r).unwrap();
        assert!(!html.contains("{{DATA}}") && !html.contains("{{TITLE}}"));
        assert!(html.contains("\"final_len\":"));
        assert!(!html.contains("http://") && !html.contains("https://"));
        let big = Replay {
            board: Board::square(41).unwrap(),
            ..r
        };
        assert!(matches!(
            animation_html(&big),
            Err(AnimationError::TooLarge(_))
        ));
    }
}
