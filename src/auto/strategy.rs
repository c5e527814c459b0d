//! How `ktour solve` makes its one tour: the strategy asked for (`--method`: `auto`, `construct`, or
//! a solver), what it means on a board with holes or walked by another leaper, the options that go
//! with it, and the run itself, down to the tour record that is written out. The command line parses
//! and prints; every choice is here.
//!
//! The choices, in the order they are checked:
//! 1. on a mask or another leaper (`docs/REFERENCE.md`, section 9) only the searches run: `auto`
//!    backtracks there, construction and `rotate` are refused, and the start must be a square;
//! 2. construction breaks no ties, so it takes no rule; restarts, the start-last closing and turning
//!    pruning off are options of a chosen search method, rotations of `rotate`;
//! 3. a chosen method answers from the existence theorems first (Schwenk 1991; Conrad et al. 1994),
//!    `auto` as its policy says ([`crate::auto`]).

use super::{construct_from, solve, AutoError, Made, Route};
use crate::board::{is_closed_tour, Board, Closure, Shape, Square};
use crate::construct::ConstructError;
use crate::exists;
use crate::solve::rotate::{RotateProgress, DEFAULT_ROTATIONS};
use crate::solve::{Closing, Method, Outcome, Request, RuleSeq, SolveError, Solver, SolverOptions};
use crate::tour::{StatsRecord, TourRecord};
use std::fmt;
use std::str::FromStr;

/// How the tour is to be made (`--method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Whichever way suits the board ([`crate::auto`]).
    Auto,
    /// Divide-and-conquer construction ([`crate::construct`]).
    Construct,
    /// One of the solvers.
    Search(Method),
}

impl Strategy {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Auto => "auto",
            Strategy::Construct => "construct",
            Strategy::Search(m) => m.name(),
        }
    }

    /// What the strategy means for runs on `shape` (`None`: the whole board walked by the knight)
    /// from `start`: on another shape `auto` backtracks, which [`Resolved::route`] reports, and
    /// construction and `rotate` are refused; the start must be one of its squares.
    pub fn resolve(self, shape: Option<Shape>, start: Square) -> Result<Resolved, PlanError> {
        let shape = shape.filter(|s| !s.is_full_knight());
        let runs = match &shape {
            None => self,
            Some(s) if !s.contains(start) => return Err(PlanError::StartOnHole(start)),
            Some(_) => match self {
                Strategy::Auto => Strategy::Search(Method::Backtrack),
                Strategy::Construct | Strategy::Search(Method::Rotate) => {
                    return Err(PlanError::WholeBoardOnly(self))
                }
                s => s,
            },
        };
        Ok(Resolved {
            asked: self,
            runs,
            shape,
        })
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Strategy::Auto),
            "construct" => Ok(Strategy::Construct),
            m => m
                .parse()
                .map(Strategy::Search)
                .map_err(|e: String| format!("{e}, construct, auto")),
        }
    }
}

/// A strategy resolved for the shape runs are on ([`Strategy::resolve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    asked: Strategy,
    runs: Strategy,
    /// The shape, when it is not the whole board walked by the knight.
    shape: Option<Shape>,
}

impl Resolved {
    /// The strategy that runs.
    pub fn runs(&self) -> Strategy {
        self.runs
    }

    /// The way `auto` chose before running, if it did: backtracking on another shape.
    pub fn route(&self) -> Option<Route> {
        (self.asked != self.runs).then_some(Route::AnyBoard)
    }
}

/// The options of a `ktour solve` run besides its strategy, as the command line gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    /// The board.
    pub board: Board,
    /// The first square.
    pub start: Square,
    /// Whether a closed tour is asked for.
    pub closed: bool,
    /// The tie-break rules, tried in turn by restarts (`first` when none is given).
    pub rules: RuleSeq,
    /// Attempts at most (default: one per rule of `rules`).
    pub attempts: Option<u32>,
    /// Whether closed pure Warnsdorff keeps its start for last.
    pub start_last: bool,
    /// Whether backtracking cuts branches at stranded squares.
    pub prune: bool,
    /// Node budget of the searches (0 = unlimited).
    pub budget: u64,
    /// Pósa rotations `rotate` may make (default [`DEFAULT_ROTATIONS`]).
    pub rotations: Option<u64>,
    /// Seed of the run's PRNG.
    pub seed: u64,
}

/// Options that do not go with the strategy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The start is a hole of the mask.
    #[error("--start {},{} is a hole of the mask", .0.row(), .0.col())]
    StartOnHole(Square),
    /// Construction or `rotate` on another shape.
    #[error("--method {0}: construction and rotate work on whole boards walked by the knight; use warnsdorff, backtrack or naive with --leaper or --mask")]
    WholeBoardOnly(Strategy),
    /// A rule given to construction.
    #[error(
        "--rule {0}: construction breaks no ties; give a search method (or auto) to use a rule"
    )]
    RuleWithoutTies(RuleSeq),
    /// Restarts, the start-last closing or pruning off without a chosen search method.
    #[error(
        "--attempts, --start-last and --no-prune are options of a chosen search method, not of {0}"
    )]
    SearchOption(Strategy),
    /// Rotations without `rotate`.
    #[error("--rotations is an option of --method rotate, not of {0}")]
    RotationsWithoutRotate(Strategy),
    /// No attempt allowed.
    #[error("--attempts 0: give at least 1")]
    NoAttempt,
}

/// A `ktour solve` run whose options go together ([`Plan::new`]).
#[derive(Clone, Debug)]
pub struct Plan {
    strategy: Resolved,
    ask: Ask,
    /// The closure sought ([`Method::seeks`] for a chosen method).
    closure: Closure,
    /// Attempts allowed.
    limit: u32,
}

/// How a `ktour solve` run ended.
#[derive(Debug)]
pub enum Ending {
    /// A run to write out: a tour, or the path of a search that found none.
    Run(Box<Finished>),
    /// No tour exists (of this kind, from this start): the theorems' or the construction's proof.
    NoTour(String),
    /// Construction cannot start at the square asked for: a limit of the method, a tour may exist.
    CannotStart(ConstructError),
}

/// A run to write out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Its tour record.
    pub record: TourRecord,
    /// How it ended (a construction: found).
    pub outcome: Outcome,
    /// The node budget the search had (0 for a construction).
    pub budget: u64,
    /// The way `auto` chose, when it chose.
    pub route: Option<Route>,
    /// Attempts made and allowed, when restarts were asked for.
    pub attempts: Option<(u32, u32)>,
}

impl Plan {
    /// Check that the options of `ask` go with `strategy` (in the order of the module's list).
    pub fn new(strategy: Resolved, ask: Ask) -> Result<Plan, PlanError> {
        let runs = strategy.runs;
        if runs == Strategy::Construct && ask.rules != RuleSeq::One(crate::solve::Rule::FIRST) {
            return Err(PlanError::RuleWithoutTies(ask.rules));
        }
        let searching = matches!(runs, Strategy::Search(_));
        if !searching && (ask.attempts.is_some() || ask.start_last || !ask.prune) {
            return Err(PlanError::SearchOption(strategy.asked));
        }
        if ask.rotations.is_some() && runs != Strategy::Search(Method::Rotate) {
            return Err(PlanError::RotationsWithoutRotate(strategy.asked));
        }
        let limit = ask.attempts.unwrap_or(ask.rules.rules().len() as u32);
        if limit == 0 {
            return Err(PlanError::NoAttempt);
        }
        let closure = match runs {
            Strategy::Search(method) => method.seeks(Closure::of(ask.closed)),
            _ => Closure::of(ask.closed),
        };
        Ok(Plan {
            strategy,
            ask,
            closure,
            limit,
        })
    }

    /// Make the tour; `progress` hears of a `rotate` run's rotations.
    pub fn make(&self, progress: RotateProgress) -> Result<Ending, AutoError> {
        match self.strategy.runs {
            Strategy::Auto => self.auto(),
            Strategy::Construct => self.construct(),
            Strategy::Search(method) => self.search(method, progress),
        }
    }

    /// `auto`'s policy.
    fn auto(&self) -> Result<Ending, AutoError> {
        let a = &self.ask;
        let run = solve(
            a.board,
            a.start,
            self.closure,
            a.rules.first(),
            a.budget,
            a.seed,
        )?;
        Ok(self.ending(run.made, Some(run.route)))
    }

    /// Construction, after the theorems.
    fn construct(&self) -> Result<Ending, AutoError> {
        let (board, start) = (self.ask.board, self.ask.start);
        if let Err(reason) = exists::tour_from(board, start, self.closure) {
            return Ok(Ending::NoTour(reason.to_string()));
        }
        match construct_from(board, self.closure, start) {
            Err(e @ ConstructError::StartUnsupported { .. }) => Ok(Ending::CannotStart(e)),
            built => Ok(self.ending(built?, None)),
        }
    }

    /// A chosen solver, after the theorems, with restarts.
    fn search(&self, method: Method, progress: RotateProgress) -> Result<Ending, AutoError> {
        let a = &self.ask;
        let verdict = match &self.strategy.shape {
            Some(s) => exists::shape_tour_from(s, Some(a.start), self.closure).map(drop),
            None => exists::tour_from(a.board, a.start, self.closure),
        };
        if let Err(reason) = verdict {
            return Ok(Ending::NoTour(reason.to_string()));
        }
        let req = Request {
            board: a.board,
            start: a.start,
            closure: self.closure,
            method,
            rule: a.rules.first(),
            budget: a.budget,
            seed: a.seed,
            closing: match a.start_last {
                true => Closing::StartLast,
                false => Closing::Check,
            },
            prune: a.prune,
        };
        req.check().map_err(SolveError::from)?;
        let mut options = SolverOptions::new();
        if let Some(s) = &self.strategy.shape {
            options = options.shape(s.leaper(), s.has_holes().then(|| s.clone()));
        }
        if method == Method::Rotate {
            options = options
                .rotations(a.rotations.unwrap_or(DEFAULT_ROTATIONS))
                .rotate_progress(progress);
        }
        let (solution, made) =
            Solver::with_options(options).solve_attempts(&req, &a.rules, self.limit)?;
        let mut record = TourRecord::from(&solution);
        if let Some(s) = &self.strategy.shape {
            record = record.on_shape(s);
        }
        Ok(Ending::Run(Box::new(Finished {
            record,
            outcome: solution.outcome,
            budget: a.budget,
            route: self.strategy.route(),
            attempts: (self.limit > 1).then_some((made, self.limit)),
        })))
    }

    /// How the run ends, given what the way taken (`route`, when `auto` chose it) made.
    fn ending(&self, made: Made, route: Option<Route>) -> Ending {
        let run = |record, outcome, budget| {
            Ending::Run(Box::new(Finished {
                record,
                outcome,
                budget,
                route,
                attempts: None,
            }))
        };
        match made {
            Made::NoTour(reason) => Ending::NoTour(reason.to_string()),
            Made::Proved(e) => Ending::NoTour(e.to_string()),
            Made::Searched { solution, budget } => {
                run(TourRecord::from(&solution), solution.outcome, budget)
            }
            Made::Built {
                squares,
                elapsed_ns,
            } => run(
                built(self.ask.board, self.ask.start, squares, elapsed_ns),
                Outcome::Found,
                0,
            ),
        }
    }
}

/// The record of a tour of `board` built by construction from `start`.
fn built(board: Board, start: Square, squares: Vec<Square>, elapsed_ns: u64) -> TourRecord {
    TourRecord {
        rows: board.rows(),
        cols: board.cols(),
        closed: is_closed_tour(&squares),
        start: Some(start),
        squares,
        found: true,
        method: "construct".into(),
        rule: "-".into(),
        stats: StatsRecord {
            elapsed_ns,
            ..StatsRecord::default()
        },
        leaper: None,
        holes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Leaper;
    use crate::solve::Rule;
    use crate::verify::verify_tour;

    fn sq(r: u16, c: u16) -> Square {
        Square::new(r, c)
    }

    fn ask(board: Board) -> Ask {
        Ask {
            board,
            start: sq(0, 0),
            closed: false,
            rules: RuleSeq::One(Rule::FIRST),
            attempts: None,
            start_last: false,
            prune: true,
            budget: 0,
            rotations: None,
            seed: 0,
        }
    }

    fn board(n: u64) -> Board {
        Board::square(n).unwrap()
    }

    /// A mask of `b` (8x8 or larger) with one hole, (7,6): open tours of it start at the corner.
    fn holed(b: Board) -> Shape {
        Shape::new(b, Leaper::KNIGHT, &[sq(7, 6)]).unwrap()
    }

    fn plan(strategy: Strategy, ask: Ask) -> Result<Plan, PlanError> {
        Plan::new(strategy.resolve(None, ask.start).unwrap(), ask)
    }

    fn run(strategy: Strategy, ask: Ask) -> Finished {
        match plan(strategy, ask).unwrap().make(progress()).unwrap() {
            Ending::Run(f) => *f,
            other => panic!("{other:?}"),
        }
    }

    fn progress() -> RotateProgress {
        RotateProgress(std::sync::Arc::new(|_| {}))
    }

    #[test]
    fn strategies_are_the_methods_construct_and_auto() {
        for s in [
            "auto",
            "construct",
            "warnsdorff",
            "backtrack",
            "naive",
            "rotate",
        ] {
            assert_eq!(s.parse::<Strategy>().unwrap().to_string(), s);
        }
        assert_eq!(
            "backtrack".parse::<Strategy>().unwrap(),
            Strategy::Search(Method::Backtrack)
        );
        let e = "magic".parse::<Strategy>().unwrap_err();
        assert!(
            e.ends_with("known: warnsdorff, backtrack, naive, rotate, construct, auto"),
            "{e}"
        );
    }

    #[test]
    fn on_another_shape_auto_backtracks_and_construction_is_refused() {
        let b = board(8);
        let shapes = [
            holed(b),
            Shape::full(b).with_leaper(Leaper::new(1, 4).unwrap()),
        ];
        for shape in shapes {
            let auto = Strategy::Auto
                .resolve(Some(shape.clone()), sq(0, 0))
                .unwrap();
            assert_eq!(auto.runs(), Strategy::Search(Method::Backtrack));
            assert_eq!(auto.route(), Some(Route::AnyBoard));
            let naive = Strategy::Search(Method::Naive);
            let chosen = naive.resolve(Some(shape.clone()), sq(0, 0)).unwrap();
            assert_eq!((chosen.runs(), chosen.route()), (naive, None));
            for refused in [Strategy::Construct, Strategy::Search(Method::Rotate)] {
                assert_eq!(
                    refused.resolve(Some(shape.clone()), sq(0, 0)),
                    Err(PlanError::WholeBoardOnly(refused))
                );
            }
        }
        // a start on a hole is refused whatever the strategy
        let e = Strategy::Search(Method::Warnsdorff).resolve(Some(holed(b)), sq(7, 6));
        assert_eq!(e, Err(PlanError::StartOnHole(sq(7, 6))));
        assert_eq!(
            e.unwrap_err().to_string(),
            "--start 7,6 is a hole of the mask"
        );
        // the whole board walked by the knight, given as a mask, is no other shape
        let whole = Strategy::Construct
            .resolve(Some(Shape::full(b)), sq(0, 0))
            .unwrap();
        assert_eq!((whole.runs(), whole.route()), (Strategy::Construct, None));
    }

    #[test]
    fn options_go_with_their_strategy() {
        let b = board(8);
        let first_or = |rules: &str| Ask {
            rules: rules.parse().unwrap(),
            ..ask(b)
        };
        let e = plan(Strategy::Construct, first_or("pohl")).unwrap_err();
        assert_eq!(e, PlanError::RuleWithoutTies("pohl".parse().unwrap()));
        assert!(plan(Strategy::Construct, first_or("first")).is_ok());
        assert!(plan(Strategy::Auto, first_or("pohl")).is_ok());
        let search_only = [
            Ask {
                attempts: Some(3),
                ..ask(b)
            },
            Ask {
                start_last: true,
                ..ask(b)
            },
            Ask {
                prune: false,
                ..ask(b)
            },
        ];
        for a in search_only {
            for s in [Strategy::Auto, Strategy::Construct] {
                assert_eq!(plan(s, a.clone()).unwrap_err(), PlanError::SearchOption(s));
            }
            assert!(plan(Strategy::Search(Method::Backtrack), a.clone()).is_ok());
            // auto on another shape backtracks, so the search's options are its own
            let on_mask = Strategy::Auto.resolve(Some(holed(b)), sq(0, 0)).unwrap();
            assert!(Plan::new(on_mask, a).is_ok());
        }
        let rotations = Ask {
            rotations: Some(5),
            ..ask(b)
        };
        let warnsdorff = Strategy::Search(Method::Warnsdorff);
        assert_eq!(
            plan(warnsdorff, rotations.clone()).unwrap_err().to_string(),
            "--rotations is an option of --method rotate, not of warnsdorff"
        );
        assert!(plan(Strategy::Search(Method::Rotate), rotations).is_ok());
        let none = Ask {
            attempts: Some(0),
            ..ask(b)
        };
        assert_eq!(plan(warnsdorff, none).unwrap_err(), PlanError::NoAttempt);
    }

    #[test]
    fn a_chosen_method_answers_from_the_theorems_first() {
        let closed = Ask {
            closed: true,
            ..ask(board(5))
        };
        for s in [
            Strategy::Construct,
            Strategy::Search(Method::Warnsdorff),
            Strategy::Auto,
        ] {
            let ending = plan(s, closed.clone()).unwrap().make(progress()).unwrap();
            assert!(matches!(ending, Ending::NoTour(_)), "{s}: {ending:?}");
        }
        // rotate seeks a closed tour even when an open one is asked for
        let open = ask(board(5));
        let ending = plan(Strategy::Search(Method::Rotate), open)
            .unwrap()
            .make(progress());
        assert!(matches!(ending.unwrap(), Ending::NoTour(_)));
    }

    #[test]
    fn construction_writes_its_own_record_and_says_where_it_cannot_start() {
        let b = board(10);
        let f = run(
            Strategy::Construct,
            Ask {
                closed: true,
                ..ask(b)
            },
        );
        assert_eq!((f.outcome, f.budget, f.route), (Outcome::Found, 0, None));
        let r = &f.record;
        assert_eq!((r.method.as_str(), r.rule.as_str()), ("construct", "-"));
        assert!(r.found && r.closed);
        assert_eq!(r.start, Some(sq(0, 0)));
        verify_tour(b, &r.squares).unwrap();
        // outer-row starts in the middle of a long 4-row strip are beyond the construction
        let strip = Ask {
            start: sq(0, 20),
            ..ask(Board::new(4, 40).unwrap())
        };
        let ending = plan(Strategy::Construct, strip)
            .unwrap()
            .make(progress())
            .unwrap();
        assert!(matches!(
            ending,
            Ending::CannotStart(ConstructError::StartUnsupported { .. })
        ));
    }

    #[test]
    fn searches_write_the_solvers_record_with_attempts_and_shape() {
        let b = board(8);
        let f = run(Strategy::Auto, ask(b));
        assert_eq!((f.route, f.outcome), (Some(Route::Search), Outcome::Found));
        assert_eq!(f.record.method, "backtrack");
        // restarts: the attempts made and allowed, the last attempt's rule in the record
        let restarts = Ask {
            rules: "first|pohl".parse().unwrap(),
            attempts: Some(4),
            ..ask(board(7))
        };
        let f = run(Strategy::Search(Method::Warnsdorff), restarts);
        let (made, limit) = f.attempts.unwrap();
        assert_eq!(limit, 4);
        assert_eq!(f.outcome == Outcome::Found, made <= 4 && f.record.found);
        // one attempt: none reported
        let f = run(Strategy::Search(Method::Warnsdorff), ask(b));
        assert_eq!((f.attempts, f.outcome), (None, Outcome::Found));
        // on a mask: backtracking, the holes in the record
        let shape = holed(b);
        let auto = Strategy::Auto
            .resolve(Some(shape.clone()), sq(0, 0))
            .unwrap();
        let f = match Plan::new(auto, ask(b)).unwrap().make(progress()).unwrap() {
            Ending::Run(f) => *f,
            other => panic!("{other:?}"),
        };
        assert_eq!(f.route, Some(Route::AnyBoard));
        assert_eq!(f.record.holes, vec![sq(7, 6)]);
        assert_eq!(f.record.shape().unwrap(), shape);
        assert!(f.record.found);
    }

    #[test]
    fn a_request_that_does_not_go_together_is_the_solvers_error() {
        let a = Ask {
            rules: "pohl".parse().unwrap(),
            ..ask(board(8))
        };
        let e = plan(Strategy::Search(Method::Naive), a)
            .unwrap()
            .make(progress())
            .unwrap_err();
        assert!(matches!(e, AutoError::Solve(SolveError::Request(_))), "{e}");
    }
}
