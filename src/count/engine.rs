//! Which engine counts a request, and what a count is expected to cost: the policy of
//! `ktour count`, kept here so that it is tested without the CLI, which parses and prints.
//!
//! Three engines count tours ([`Engine`]): the bitboard search ([`super::count`]) on a whole board
//! walked by the knight, the frontier method ([`super::frontier`]) when it is asked for, and the
//! plain search on any board ([`super::shaped`]) for holes and other leapers. Each takes only some
//! of the options; a request that gives an engine one it does not take is refused with what to do
//! instead ([`EngineError`]). Before a search starts, Knuth's estimate of its nodes
//! ([`super::estimate`]) turns into an expected time at the engine's node rate
//! ([`Engine::nodes_per_second`]): a count past its limit is refused with it, and a long one says
//! so before it starts ([`long_count_notice`]).
//!
//! Source: ktour's own policy. The node rates are measured: the bitboard search's in
//! `benches/README.md` (1-2 x 10^8 nodes/s a core), the search on any board's on a 10x10 board with
//! 8 holes (10^8 nodes in 2.1 to 2.3 s of one core, on the shared 2-core Xeon of issue 42).

use super::{Orientation, Symmetry};
use crate::board::{Closure, Shape};

/// How a count was asked to count (`--method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Backtracking search.
    Search,
    /// Dynamic programming over a frontier.
    Frontier,
    /// Closed tours from both ends: the frontier over each half, joined at the middle.
    Halves,
}

/// The engine that counts a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The bitboard search over symmetry classes of (start, first move), in parallel
    /// ([`super::count`]): whole boards of at most 64 squares walked by the knight.
    Search,
    /// The frontier method ([`super::frontier`]): whole knight boards at most 8 wide, all starts.
    Frontier,
    /// The frontier from both ends, joined at the middle ([`super::frontier::count_closed_halves`]):
    /// closed tours of whole knight boards at most 8 wide, in memory.
    Halves,
    /// The plain search on any board ([`super::shaped`]): holes and other leapers, one core, no
    /// symmetry, no endgame cache.
    Shaped,
}

/// What a count asks for besides the board and the tours: the options only some engines take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    /// `--method`.
    pub method: Method,
    /// `--start`: tours from one square.
    pub one_start: bool,
    /// `--per-start`: a count for every start square.
    pub per_start: bool,
    /// `--no-symmetry` asks for [`Symmetry::Ignore`].
    pub symmetry: Symmetry,
    /// `--checkpoint`: a file to resume from.
    pub checkpoint: bool,
}

/// Why no engine takes a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A board with holes or another leaper, with what only the bitboard search or the frontier
    /// method takes.
    #[error("on a board with holes or another leaper, count takes --method search without --per-start or --no-symmetry (the frontier method reads knight moves on whole boards)")]
    ShapedTakesSearch,
    /// The frontier method (or the count from both ends) with a start square.
    #[error("--method frontier and --method halves count over all starts only: drop --start/--per-start or use --method search")]
    FrontierAllStarts,
    /// A checkpoint for a search.
    #[error("--checkpoint is for --method frontier: a search keeps no state between rows")]
    CheckpointIsFrontier,
}

/// The engine that counts the tours of `shape` as `asked`, or why none does.
pub fn choose(shape: &Shape, asked: &Asked) -> Result<Engine, EngineError> {
    let engine = match asked.method {
        _ if !shape.is_full_knight() => {
            let whole_board_only = asked.method != Method::Search
                || asked.per_start
                || asked.symmetry == Symmetry::Ignore;
            if whole_board_only {
                return Err(EngineError::ShapedTakesSearch);
            }
            Engine::Shaped
        }
        Method::Frontier | Method::Halves if asked.one_start || asked.per_start => {
            return Err(EngineError::FrontierAllStarts)
        }
        Method::Frontier => Engine::Frontier,
        Method::Halves => Engine::Halves,
        Method::Search => Engine::Search,
    };
    if asked.checkpoint && engine != Engine::Frontier {
        return Err(EngineError::CheckpointIsFrontier);
    }
    Ok(engine)
}

impl Engine {
    /// The method's name in output (`search` or `frontier`: the search on any board is a search).
    pub fn method_name(self) -> &'static str {
        match self {
            Engine::Search | Engine::Shaped => "search",
            Engine::Frontier => "frontier",
            Engine::Halves => "halves",
        }
    }

    /// The nodes a second one core is taken to visit, for expected times (`None` for the frontier
    /// method, whose work is not counted in nodes): the slower end of what was measured.
    pub const fn nodes_per_second(self) -> Option<f64> {
        match self {
            Engine::Search => Some(1e8),
            Engine::Shaped => Some(4.4e7),
            Engine::Frontier | Engine::Halves => None,
        }
    }

    /// The cores a count runs on, of the `threads` of the thread pool.
    pub fn cores(self, threads: usize) -> usize {
        match self {
            Engine::Shaped => 1,
            Engine::Search | Engine::Frontier | Engine::Halves => threads.max(1),
        }
    }
}

impl Orientation {
    /// The orientation `--undirected` and `--directed` ask for: closed tours are cycles unless
    /// `directed`, open tours directed unless `undirected`.
    pub fn asked(closure: Closure, undirected: bool, directed: bool) -> Orientation {
        match (closure, undirected, directed) {
            (_, true, _) | (Closure::Closed, false, false) => Orientation::Undirected,
            _ => Orientation::Directed,
        }
    }
}

/// Seconds of one core below which a count starts without a word: 10^10 nodes of the bitboard
/// search, over a minute on two cores.
const QUIET_CORE_SECONDS: f64 = 100.0;

/// What a count by `engine` expected to visit `estimated` nodes says before it starts, on
/// `threads` threads, when it takes long (100 s of one core or more): a batch
/// job's log then says at its start what to expect.
pub fn long_count_notice(engine: Engine, estimated: f64, threads: usize) -> Option<String> {
    let rate = engine.nodes_per_second()?;
    if estimated / rate < QUIET_CORE_SECONDS {
        return None;
    }
    let cores = engine.cores(threads);
    let time = time_words(estimated / rate / cores as f64);
    Some(match engine {
        Engine::Shaped => format!(
            "counting: about {} nodes by Knuth's estimate, {time} at {rate:.1e} nodes/s (the search on any board runs on one core); a line every 10 s while it runs",
            nodes_words(estimated)
        ),
        _ => format!(
            "counting: about {estimated:.1e} nodes by Knuth's estimate, {time} on {cores} cores at 10^8 nodes/s each"
        ),
    })
}

/// A node count for messages: `1.2e25`, or more than the largest `f64` where an estimate passed it.
pub fn nodes_words(nodes: f64) -> String {
    if nodes >= f64::MAX {
        "more than 1.7e308".to_string()
    } else {
        format!("{nodes:.1e}")
    }
}

/// [`super::duration_words`], with times past ten thousand years as powers of ten
/// (`about 3e17 years`) instead of their hundreds of digits.
pub fn time_words(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    if seconds >= 1e4 * YEAR {
        format!("about {:.0e} years", seconds / YEAR)
    } else {
        super::duration_words(seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Leaper};

    fn asked(method: Method) -> Asked {
        Asked {
            method,
            one_start: false,
            per_start: false,
            symmetry: Symmetry::Exploit,
            checkpoint: false,
        }
    }

    #[test]
    fn whole_knight_boards_go_to_the_method_asked_and_others_to_the_plain_search() {
        let board = Board::new(6, 6).unwrap();
        let whole = Shape::full(board);
        assert_eq!(choose(&whole, &asked(Method::Search)), Ok(Engine::Search));
        assert_eq!(
            choose(&whole, &asked(Method::Frontier)),
            Ok(Engine::Frontier)
        );
        let holed = Shape::new(board, Leaper::KNIGHT, &[crate::board::Square::new(2, 2)]).unwrap();
        let zebra = whole.clone().with_leaper(Leaper::new(2, 3).unwrap());
        for shape in [&holed, &zebra] {
            assert_eq!(choose(shape, &asked(Method::Search)), Ok(Engine::Shaped));
            let one = Asked {
                one_start: true,
                ..asked(Method::Search)
            };
            assert_eq!(choose(shape, &one), Ok(Engine::Shaped));
        }
        // the knight named, on a whole board: the bitboard search
        let knight = whole.with_leaper(Leaper::KNIGHT);
        assert_eq!(choose(&knight, &asked(Method::Search)), Ok(Engine::Search));
    }

    #[test]
    fn options_an_engine_does_not_take_are_refused() {
        let board = Board::new(5, 5).unwrap();
        let holed = Shape::new(board, Leaper::KNIGHT, &[crate::board::Square::new(2, 2)]).unwrap();
        let whole = Shape::full(board);
        let shaped_refusals = [
            asked(Method::Frontier),
            Asked {
                per_start: true,
                ..asked(Method::Search)
            },
            Asked {
                symmetry: Symmetry::Ignore,
                ..asked(Method::Search)
            },
        ];
        for a in shaped_refusals {
            assert_eq!(
                choose(&holed, &a),
                Err(EngineError::ShapedTakesSearch),
                "{a:?}"
            );
        }
        for a in [
            Asked {
                one_start: true,
                ..asked(Method::Frontier)
            },
            Asked {
                per_start: true,
                ..asked(Method::Frontier)
            },
        ] {
            assert_eq!(
                choose(&whole, &a),
                Err(EngineError::FrontierAllStarts),
                "{a:?}"
            );
        }
        let checkpoint = |method| Asked {
            checkpoint: true,
            ..asked(method)
        };
        assert_eq!(
            choose(&whole, &checkpoint(Method::Frontier)),
            Ok(Engine::Frontier)
        );
        for shape in [&whole, &holed] {
            assert_eq!(
                choose(shape, &checkpoint(Method::Search)),
                Err(EngineError::CheckpointIsFrontier)
            );
        }
    }

    #[test]
    fn closed_tours_are_cycles_unless_directed() {
        use Orientation::{Directed, Undirected};
        let cases = [
            (Closure::Open, false, false, Directed),
            (Closure::Open, true, false, Undirected),
            (Closure::Closed, false, false, Undirected),
            (Closure::Closed, false, true, Directed),
            (Closure::Closed, true, false, Undirected),
        ];
        for (closure, undirected, directed, want) in cases {
            assert_eq!(Orientation::asked(closure, undirected, directed), want);
        }
    }

    #[test]
    fn long_counts_are_announced_at_their_engines_rate() {
        // the bitboard search: 10^10 nodes and more, on every thread
        assert_eq!(long_count_notice(Engine::Search, 9.9e9, 2), None);
        let search = long_count_notice(Engine::Search, 6e11, 2).unwrap();
        assert_eq!(
            search,
            "counting: about 6.0e11 nodes by Knuth's estimate, about 50 minutes on 2 cores at 10^8 nodes/s each"
        );
        // the search on any board: one core whatever the threads, at its own rate
        assert_eq!(long_count_notice(Engine::Shaped, 4e9, 16), None);
        let shaped = long_count_notice(Engine::Shaped, 4.5e12, 16).unwrap();
        assert!(shaped.contains("about 1.2 days"), "{shaped}");
        assert!(shaped.contains("one core"), "{shaped}");
        assert_eq!(long_count_notice(Engine::Frontier, 1e20, 2), None);
    }

    #[test]
    fn huge_estimates_read_as_powers_of_ten() {
        assert_eq!(nodes_words(f64::MAX), "more than 1.7e308");
        assert_eq!(nodes_words(1.23e25), "1.2e25");
        assert_eq!(time_words(1e25 / 4.4e7), "about 7e9 years");
        assert_eq!(time_words(90.0), "about 1.5 minutes");
    }
}
