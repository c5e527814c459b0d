//! How `ktour solve` makes a tour: the strategy asked for and its options ([`strategy`]), and the
//! `auto` method, which chooses the way for a given board and runs it (this file).
//!
//! `auto`'s policy, step by step:
//! 1. the existence theorems (Schwenk 1991; Conrad et al. 1994; `docs/REFERENCE.md`, section 6) answer
//!    boards and starts that have no tour, without searching;
//! 2. on small boards, Warnsdorff-ordered backtracking: open tours up to [`OPEN_SEARCH_MAX_SQUARES`]
//!    squares, closed tours up to [`CLOSED_SEARCH_MAX_SQUARES`], with at most [`SEARCH_BUDGET`] nodes;
//!    whatever it ends with is the answer, except a budget run out;
//! 3. otherwise, and when that search runs out of budget, divide-and-conquer construction (Parberry
//!    1997; Lin & Wei 2005; [`crate::construct`]);
//! 4. where construction cannot start at the requested square, backtracking after all, with the
//!    caller's budget ([`fallback_budget`]).
//!
//! Closed tours have the lower limit because backtracking seldom closes a tour on boards beyond 12x12
//! within its budget (`results/README.md`), while construction always can. On a board with holes or
//! walked by another leaper, `auto` backtracks ([`Strategy::resolve`]).

pub mod strategy;

pub use strategy::{Ask, Ending, Finished, Plan, PlanError, Resolved, Strategy};

use crate::board::Closure;
use crate::board::{Board, Square};
use crate::construct::{self, ConstructError};
use crate::exists::{self, NoTour};
use crate::solve::{Method, Outcome, Request, Rule, Solution, SolveError, Solver};
use std::time::Instant;

/// Largest board (squares) on which `auto` searches for an open tour before constructing one.
pub const OPEN_SEARCH_MAX_SQUARES: u32 = 2_500;
/// Largest board (squares) on which `auto` searches for a closed tour before constructing one.
pub const CLOSED_SEARCH_MAX_SQUARES: u32 = 144;
/// Most nodes `auto`'s first search may use, whatever budget the caller gave, so that a hopeless
/// search hands over to construction quickly.
pub const SEARCH_BUDGET: u64 = 1_000_000;

/// What `auto` tries first on a board that has a tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstStep {
    /// Warnsdorff-ordered backtracking with this node budget.
    Search {
        /// Node budget.
        budget: u64,
    },
    /// Construction straight away: the board is too large for the search.
    Construct,
}

/// What to try first on `board`, given the caller's node `budget` (0 = unlimited).
pub fn first_step(board: Board, closure: Closure, budget: u64) -> FirstStep {
    let limit = if closure.is_closed() {
        CLOSED_SEARCH_MAX_SQUARES
    } else {
        OPEN_SEARCH_MAX_SQUARES
    };
    if board.len() > limit {
        return FirstStep::Construct;
    }
    let budget = if budget == 0 {
        SEARCH_BUDGET
    } else {
        budget.min(SEARCH_BUDGET)
    };
    FirstStep::Search { budget }
}

/// Node budget of the search that follows a construction unable to start at the requested square:
/// the caller's budget, or [`SEARCH_BUDGET`] when the caller set none (0), since nothing else is left
/// to try.
pub fn fallback_budget(budget: u64) -> u64 {
    if budget == 0 {
        SEARCH_BUDGET
    } else {
        budget
    }
}

/// Which way the answer was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The existence theorems: no tour.
    Theorem,
    /// Backtracking on a small board.
    Search,
    /// Construction: the board was too large for the search, or the search ran out of budget.
    Construction,
    /// Backtracking, because construction could not start at the requested square.
    SearchAfterConstruction,
    /// Backtracking on a board with holes or walked by another leaper, where construction does
    /// not go ([`Strategy::resolve`]).
    AnyBoard,
}

/// What the chosen way produced.
#[derive(Debug)]
pub enum Made {
    /// The theorems rule out a tour (of this kind, from this start).
    NoTour(NoTour),
    /// A search ran, with this budget; its outcome says how it ended.
    Searched {
        /// The run.
        solution: Solution,
        /// Its node budget.
        budget: u64,
    },
    /// Construction built this tour.
    Built {
        /// The tour.
        squares: Vec<Square>,
        /// Time taken, in nanoseconds.
        elapsed_ns: u64,
    },
    /// Construction proved that no tour starts at the requested square
    /// ([`ConstructError::StartImpossible`], which carries the proof).
    Proved(ConstructError),
}

/// A finished `auto` run.
#[derive(Debug)]
pub struct AutoRun {
    /// Which way was taken.
    pub route: Route,
    /// What it produced.
    pub made: Made,
}

/// Why `auto` could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum AutoError {
    /// The search refused the request.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Construction failed for another reason than the start.
    #[error(transparent)]
    Construct(#[from] ConstructError),
}

/// Construction of a tour of `board` from `start`, with a proof that no tour starts there named as
/// such ([`Made::Proved`]). Any other refusal, [`ConstructError::StartUnsupported`] included, is an
/// error.
pub fn construct_from(
    board: Board,
    closure: Closure,
    start: Square,
) -> Result<Made, ConstructError> {
    let timer = Instant::now();
    match construct::construct(board, closure, Some(start)) {
        Ok(squares) => Ok(Made::Built {
            squares,
            elapsed_ns: timer.elapsed().as_nanos() as u64,
        }),
        Err(e @ ConstructError::StartImpossible { .. }) => Ok(Made::Proved(e)),
        Err(e) => Err(e),
    }
}

/// Make a tour of `board` from `start` (closed if `closed`) the `auto` way (see the module docs).
/// `rule` breaks the search's ties; `budget` is the caller's node budget (0 = unlimited), capped at
/// [`SEARCH_BUDGET`] for the first search; `seed` seeds the `random` rule.
pub fn solve(
    board: Board,
    start: Square,
    closure: Closure,
    rule: Rule,
    budget: u64,
    seed: u64,
) -> Result<AutoRun, AutoError> {
    if let Err(reason) = exists::tour_from(board, start, closure) {
        return Ok(AutoRun {
            route: Route::Theorem,
            made: Made::NoTour(reason),
        });
    }
    let search = |budget: u64| -> Result<Made, SolveError> {
        let req = Request {
            board,
            start,
            closure,
            method: Method::Backtrack,
            rule,
            budget,
            seed,
            closing: Default::default(),
            prune: true,
        };
        let solution = Solver::new().solve(&req)?;
        Ok(Made::Searched { solution, budget })
    };
    if let FirstStep::Search { budget } = first_step(board, closure, budget) {
        let made = search(budget)?;
        let ran_out = matches!(&made, Made::Searched { solution, .. }
            if solution.outcome == Outcome::BudgetExhausted);
        if !ran_out {
            return Ok(AutoRun {
                route: Route::Search,
                made,
            });
        }
    }
    match construct_from(board, closure, start) {
        Ok(made) => Ok(AutoRun {
            route: Route::Construction,
            made,
        }),
        // construction does not reach every start (outer-row starts in the middle of long 4-row
        // strips): search is the fallback
        Err(ConstructError::StartUnsupported { .. }) => Ok(AutoRun {
            route: Route::SearchAfterConstruction,
            made: search(fallback_budget(budget))?,
        }),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::verify_tour;

    fn board(rows: u64, cols: u64) -> Board {
        Board::new(rows, cols).unwrap()
    }

    fn first() -> Rule {
        "first".parse().unwrap()
    }

    #[test]
    fn open_tours_are_searched_up_to_2500_squares() {
        let search = FirstStep::Search {
            budget: SEARCH_BUDGET,
        };
        assert_eq!(first_step(board(50, 50), Closure::Open, 0), search); // 2,500: the edge
        assert_eq!(first_step(board(48, 52), Closure::Open, 0), search); // 2,496
        assert_eq!(
            first_step(board(41, 61), Closure::Open, 0),
            FirstStep::Construct
        ); // 2,501
        assert_eq!(
            first_step(board(50, 51), Closure::Open, 0),
            FirstStep::Construct
        ); // 2,550
    }

    #[test]
    fn closed_tours_are_searched_up_to_144_squares() {
        let search = FirstStep::Search {
            budget: SEARCH_BUDGET,
        };
        assert_eq!(first_step(board(12, 12), Closure::Closed, 0), search); // 144: the edge
        assert_eq!(first_step(board(11, 13), Closure::Closed, 0), search); // 143
        assert_eq!(
            first_step(board(5, 29), Closure::Closed, 0),
            FirstStep::Construct
        ); // 145
        assert_eq!(
            first_step(board(10, 16), Closure::Closed, 0),
            FirstStep::Construct
        ); // 160
           // the same board, open: searched
        assert_eq!(first_step(board(10, 16), Closure::Open, 0), search);
    }

    #[test]
    fn the_first_search_budget_is_capped() {
        let b = board(8, 8);
        let budget = |given| match first_step(b, Closure::Open, given) {
            FirstStep::Search { budget } => budget,
            FirstStep::Construct => panic!("8x8 is searched"),
        };
        assert_eq!(budget(0), SEARCH_BUDGET); // unlimited becomes the cap
        assert_eq!(budget(100_000_000), SEARCH_BUDGET);
        assert_eq!(budget(SEARCH_BUDGET + 1), SEARCH_BUDGET);
        assert_eq!(budget(SEARCH_BUDGET), SEARCH_BUDGET);
        assert_eq!(budget(500), 500);
    }

    #[test]
    fn the_fallback_search_keeps_the_callers_budget() {
        assert_eq!(fallback_budget(0), SEARCH_BUDGET);
        assert_eq!(fallback_budget(7), 7);
        assert_eq!(fallback_budget(100_000_000), 100_000_000); // not capped
    }

    #[test]
    fn theorems_answer_before_any_search() {
        let run = solve(board(4, 4), Square::new(0, 0), Closure::Open, first(), 0, 0).unwrap();
        assert_eq!(run.route, Route::Theorem);
        assert!(matches!(run.made, Made::NoTour(_)));
        // both sides odd: no closed tour
        let run = solve(
            board(5, 5),
            Square::new(0, 0),
            Closure::Closed,
            first(),
            0,
            0,
        )
        .unwrap();
        assert_eq!(run.route, Route::Theorem);
        // 5x5 open from a square of the minority colour
        let run = solve(board(5, 5), Square::new(0, 1), Closure::Open, first(), 0, 0).unwrap();
        assert_eq!(run.route, Route::Theorem);
    }

    #[test]
    fn a_small_board_is_searched() {
        let b = board(8, 8);
        let run = solve(b, Square::new(0, 0), Closure::Open, first(), 0, 0).unwrap();
        assert_eq!(run.route, Route::Search);
        let Made::Searched { solution, budget } = run.made else {
            panic!("searched")
        };
        assert_eq!(budget, SEARCH_BUDGET);
        assert_eq!(solution.outcome, Outcome::Found);
        assert_eq!(solution.request.method, Method::Backtrack);
        verify_tour(b, &solution.squares).unwrap();
    }

    #[test]
    fn a_large_board_is_constructed() {
        let b = board(60, 60);
        let run = solve(b, Square::new(0, 0), Closure::Closed, first(), 0, 0).unwrap();
        assert_eq!(run.route, Route::Construction);
        let Made::Built { squares, .. } = run.made else {
            panic!("built")
        };
        assert!(crate::board::is_closed_tour(&squares));
        verify_tour(b, &squares).unwrap();
    }

    #[test]
    fn a_search_out_of_budget_hands_over_to_construction() {
        let b = board(8, 8);
        let run = solve(b, Square::new(0, 0), Closure::Open, first(), 10, 0).unwrap();
        assert_eq!(run.route, Route::Construction);
        let Made::Built { squares, .. } = run.made else {
            panic!("built")
        };
        verify_tour(b, &squares).unwrap();
    }

    #[test]
    fn construction_that_cannot_start_there_hands_back_to_search() {
        // 4 x 100: outer-row starts in the middle of a long strip are beyond the construction. The
        // first search runs out of its 10 nodes, construction refuses, and the fallback search has
        // the caller's budget again.
        let b = board(4, 100);
        let run = solve(b, Square::new(0, 50), Closure::Open, first(), 10, 0).unwrap();
        assert_eq!(run.route, Route::SearchAfterConstruction);
        let Made::Searched { solution, budget } = run.made else {
            panic!("searched")
        };
        assert_eq!(budget, 10);
        assert_eq!(solution.outcome, Outcome::BudgetExhausted);
        // too large to search first: construction, then the fallback with the cap's budget
        let b = board(4, 700);
        let run = solve(b, Square::new(0, 350), Closure::Open, first(), 0, 0).unwrap();
        assert_eq!(run.route, Route::SearchAfterConstruction);
        let Made::Searched { budget, .. } = run.made else {
            panic!("searched")
        };
        assert_eq!(budget, SEARCH_BUDGET);
    }

    #[test]
    fn construction_proves_inner_row_starts_of_4_row_strips_impossible() {
        // 4 x 700 is too large to search; inner-row squares of a 4-row strip start no open tour
        let run = solve(
            board(4, 700),
            Square::new(1, 350),
            Closure::Open,
            first(),
            0,
            0,
        )
        .unwrap();
        assert_eq!(run.route, Route::Construction);
        assert!(matches!(
            run.made,
            Made::Proved(ConstructError::StartImpossible { .. })
        ));
    }
}
