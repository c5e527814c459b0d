//! The explicit-stack depth-first search behind `backtrack`, `naive` and the exhaustive enumerations
//! (backtracking as defined in `docs/REFERENCE.md`). Each stack frame holds the candidate moves
//! still to try, never a recursion, so a 1000x1000 search leaves the thread's call stack alone.
//!
//! | file | concept |
//! |---|---|
//! | this one | the configuration, the outcome, the stacks and the dispatch ([`search`]) |
//! | [`sorted`] | the general loop: candidates collected, keyed and sorted at every node |
//! | [`masks`] | the engine on candidate masks, the faster twin of the general loop |
//! | [`slots`] | each rule family's slot order of the candidates in a mask |
//! | [`label`] | `naive`'s label order without degrees, the faster twin of the general loop's |
//!
//! Fixed-order Warnsdorff rules (`first`, `order:*`), the distance rules (`roth`,
//! `roth-original`, `center`, whose key depends only on where a candidate lies, so that each square
//! has one fixed preference order of its eight moves: its *class*), `pohl` (whose ties are
//! resolved when popped), `random` (whose keys are drawn when a node is pushed, exactly as the
//! sorting loop draws them) and `squirrel` (one fixed order per stage; a frame keeps the stage at its
//! square) take the mask loop: making a square also builds its *candidate mask*, one bit per free
//! neighbour at `8 * degree + slot`, a frame is the mask still to try, its square and the order of
//! its ties where a rule keeps one (16 bytes), the stranded-square prune is the mask's low byte
//! (degree 0), and the closed-tour test reads one byte: the start's sentinel, lowered by one for
//! every neighbour visited after it, says how many of its neighbours are still free. Every other
//! rule takes the general loop. Both loops visit the same nodes in the same order (pinned by
//! `tests/backtrack_nodes.rs`, and the twin test below). `naive`'s label order (one fixed scan
//! order, no degrees read) takes the label loop, unless an observer watches the degrees.
//!
//! ADVICE FOR HACKERS: a frame belongs to the square on top of the path; `stage` is the tie-breaker's
//! state *before* the knight arrived on that square, restored when the square is left. A frame is pushed
//! only after its square is made, and popped just before its square is unmade; keep the two stacks
//! (frames here, path in the state) in step.

mod label;
mod masks;
mod slots;
mod sorted;

use super::{Observer, Stats, TieBreaker};
use crate::board::Closure;
use crate::state::{SearchState, MAX_DEGREE};
use label::{search_label, LabelScratch};
use masks::{search_ordered, MaskFrame};
use slots::{class_slots, ClassSlots, FixedSlots, PohlSlots, RandomSlots, SquirrelSlots};
use sorted::{search_sorted, Frame};

/// The DFS stacks, reused across runs: one per loop; and the slot orders of the last distance rule.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stack {
    frames: Vec<Frame>,
    masks: Vec<MaskFrame>,
    label: LabelScratch,
    classes: Option<ClassSlots>,
}

/// In which order a node's candidates are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CandidateOrder {
    /// The rule's fixed label order (1..8 for `first`), all free neighbours (brute force).
    Label,
    /// Degree, then the rule's key, then the rule's fixed order (Warnsdorff-ordered backtracking).
    Warnsdorff,
}

/// What to search for and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    pub order: CandidateOrder,
    /// Cut a branch as soon as a free square has no free neighbour left (it could only be the end).
    pub prune_stranded: bool,
    /// The last square must be a knight move from the first.
    pub closure: Closure,
    /// Squares entered before giving up; 0 = unlimited.
    pub budget: u64,
}

/// What the search does after meeting a tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Stop,
    Continue,
}

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// `on_tour` asked to stop; the tour is the state's path.
    Stopped,
    /// Every branch was tried.
    Exhausted,
    /// The budget ran out.
    Budget,
}

/// Bytes of `v` that are zero, as the high bit of each byte (the classic SWAR test, exact).
#[inline(always)]
fn zero_bytes(v: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((v & LOW7) + LOW7) | v | LOW7)
}

/// Whether some neighbour of `p` is free. Free squares hold 0..=8 and every other square a value
/// above `BORDER - 8` = 0xE8, so "free" is exactly "high bit clear" (the state's invariant).
#[inline]
fn has_free_neighbour(state: &SearchState, p: usize) -> bool {
    let d = state.neighbour_degrees(p);
    debug_assert!(d.iter().all(|&x| x <= MAX_DEGREE || x >= 0x80));
    !u64::from_le_bytes(d) & 0x8080_8080_8080_8080 != 0
}

/// Whether some neighbour of `p` has degree 0 (a free square only `p` can still reach).
#[inline]
fn has_stranded_neighbour(state: &SearchState, p: usize) -> bool {
    zero_bytes(u64::from_le_bytes(state.neighbour_degrees(p))) != 0
}

/// Depth-first search from padded square `start` on a freshly reset `state`. Calls `on_tour` for every
/// tour met (closed ones only when `cfg.closure.is_closed()`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<O: Observer>(
    state: &mut SearchState,
    stack: &mut Stack,
    rule: &mut TieBreaker,
    start: usize,
    cfg: Config,
    stats: &mut Stats,
    obs: &mut O,
    on_tour: impl FnMut(&SearchState) -> Flow,
) -> End {
    // The mask loop, with the slot order (and tie rule) of each family that has one.
    macro_rules! ordered {
        ($slots:expr) => {
            return search_ordered(
                state,
                &mut stack.masks,
                $slots,
                rule,
                start,
                cfg,
                stats,
                obs,
                on_tour,
            )
        };
    }
    // The label order of one fixed scan order needs no degrees, unless an observer reads them.
    if cfg.order == CandidateOrder::Label && rule.is_fixed_order() && !O::WATCHES {
        return search_label(state, &mut stack.label, rule, start, cfg, stats, on_tour);
    }
    if cfg.order == CandidateOrder::Warnsdorff {
        if rule.is_fixed_order() {
            ordered!(&FixedSlots(state.slot_offsets(rule.scan_order())));
        }
        if rule.is_pohl() {
            ordered!(&PohlSlots(state.slot_offsets(rule.scan_order())));
        }
        if rule.is_random() {
            ordered!(&RandomSlots(state.slot_offsets(rule.scan_order())));
        }
        if let Some(plan) = rule.squirrel_plan() {
            ordered!(&SquirrelSlots::new(state, plan));
        }
        if let Some((target, scan)) = rule.distance() {
            if let Some(slots) = class_slots(&mut stack.classes, state, target, scan) {
                ordered!(slots);
            }
        }
    }
    search_sorted(
        state,
        &mut stack.frames,
        rule,
        start,
        cfg,
        stats,
        obs,
        on_tour,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};
    use crate::solve::{NoObserver, Rule};

    type Ends = (End, Stats, Vec<u32>, Option<Vec<String>>);

    /// Both loops from `start` to the first tour (or a budget of 3000 nodes): the end, the
    /// counters, the path and the orderings used.
    fn both_loops(board: Board, start: Square, rule: Rule, closure: Closure) -> [Ends; 2] {
        both_loops_within(board, start, rule, closure, 3000)
    }

    fn both_loops_within(
        board: Board,
        start: Square,
        rule: Rule,
        closure: Closure,
        budget: u64,
    ) -> [Ends; 2] {
        let cfg = Config {
            order: CandidateOrder::Warnsdorff,
            prune_stranded: true,
            closure,
            budget,
        };
        let run = |ordered: bool| {
            let mut state = SearchState::new(board);
            let mut rule = TieBreaker::new(rule, state.layout(), start, 0).unwrap();
            let p = state.layout().pad(start);
            let mut stats = Stats::default();
            let (obs, stop) = (&mut NoObserver, |_: &SearchState| Flow::Stop);
            let end = if ordered {
                // through the dispatcher, which must have taken the mask loop
                let mut stack = Stack::default();
                let end = search(
                    &mut state, &mut stack, &mut rule, p, cfg, &mut stats, obs, stop,
                );
                let took_masks = board.len() == 1 || stack.masks.capacity() > 0;
                assert!(
                    took_masks && stack.frames.capacity() == 0,
                    "{board} {start:?}"
                );
                end
            } else {
                search_sorted(
                    &mut state,
                    &mut Vec::new(),
                    &mut rule,
                    p,
                    cfg,
                    &mut stats,
                    obs,
                    stop,
                )
            };
            assert_eq!(state.check_invariants(), Ok(()));
            (end, stats, state.path().to_vec(), rule.orderings_used())
        };
        [run(false), run(true)]
    }

    #[test]
    fn mask_loop_matches_the_sorting_loop() {
        let rules = [
            "first",
            "order:36875124",
            "order:87654321",
            "order:51627384",
            "roth",
            "roth-original",
            "center",
            "pohl",
            "random",
            "roth+order:87654321",
            "center+order:56781234",
            "pohl+order:36875124",
        ];
        for (rows, cols) in [
            (1, 1),
            (3, 3),
            (3, 4),
            (4, 4),
            (5, 5),
            (5, 6),
            (6, 6),
            (7, 7),
            (4, 9),
            (8, 8),
        ] {
            let board = Board::new(rows, cols).unwrap();
            for rule in rules {
                let rule: Rule = rule.parse().unwrap();
                for start in board.squares() {
                    for closure in [Closure::Open, Closure::Closed] {
                        let [slow, fast] = both_loops(board, start, rule, closure);
                        assert_eq!(slow, fast, "{board} {start:?} {rule} {closure:?}");
                    }
                }
            }
        }
    }

    /// `squirrel` (n x n from the corner) switches orderings along the path, so a backtracking
    /// search leaves and re-enters its switch squares: the stage must follow the path both ways.
    /// Budgets up to 10^5 nodes, so that the searches that need it backtrack across switches.
    #[test]
    fn mask_loop_matches_the_sorting_loop_for_squirrel() {
        let squirrel: Rule = "squirrel".parse().unwrap();
        let mut switched_back = 0;
        for n in 5..=20 {
            let board = Board::square(n).unwrap();
            for closure in [Closure::Open, Closure::Closed] {
                for budget in [100, 3000, 100_000] {
                    let [slow, fast] =
                        both_loops_within(board, Square::new(0, 0), squirrel, closure, budget);
                    assert_eq!(slow, fast, "{board} {closure:?} budget={budget}");
                    switched_back += usize::from(slow.1.backtracks > 0);
                }
            }
        }
        assert!(switched_back > 10, "too few searches backtracked");
    }

    /// The end, the counters, the path and the tours met (as paths), in order.
    type Met = (End, Stats, Vec<u32>, Vec<Vec<u32>>);

    /// Both loops of `naive`'s label order from `start`, calling `on_tour` as the search does.
    fn label_loops(
        board: Board,
        start: Square,
        rule: Rule,
        closure: Closure,
        budget: u64,
        flow: Flow,
    ) -> [Met; 2] {
        let cfg = Config {
            order: CandidateOrder::Label,
            prune_stranded: false,
            closure,
            budget,
        };
        let run = |fast: bool| {
            let mut state = SearchState::new(board);
            let mut rule = TieBreaker::new(rule, state.layout(), start, 0).unwrap();
            let p = state.layout().pad(start);
            let mut stats = Stats::default();
            let mut tours = Vec::new();
            let on_tour = |s: &SearchState| {
                assert_eq!(s.check_invariants(), Ok(()));
                tours.push(s.path().to_vec());
                flow
            };
            let end = if fast {
                let mut scratch = LabelScratch::default();
                search_label(&mut state, &mut scratch, &rule, p, cfg, &mut stats, on_tour)
            } else {
                let obs = &mut NoObserver;
                let frames = &mut Vec::new();
                search_sorted(
                    &mut state, frames, &mut rule, p, cfg, &mut stats, obs, on_tour,
                )
            };
            assert_eq!(state.check_invariants(), Ok(()));
            (end, stats, state.path().to_vec(), tours)
        };
        [run(false), run(true)]
    }

    const LABEL_ORDERS: [&str; 4] = [
        "first",
        "order:87654321",
        "order:36274518",
        "order:51627384",
    ];

    /// To the first tour or the budget: the same nodes in the same order, from every start, open and
    /// closed, in four label orders, with budgets that stop searches at every depth.
    #[test]
    fn label_loop_matches_the_sorting_loop() {
        for (rows, cols) in [
            (1, 1),
            (1, 3),
            (2, 3),
            (3, 3),
            (3, 4),
            (4, 4),
            (4, 5),
            (5, 5),
            (3, 7),
            (5, 6),
            (6, 6),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let budgets: &[u64] = if board.len() <= 20 {
                &[0, 1, 2, 17, 3000]
            } else {
                &[1, 2, 17, 3000, 20_000]
            };
            for rule in LABEL_ORDERS {
                let rule: Rule = rule.parse().unwrap();
                for start in board.squares() {
                    for closure in [Closure::Open, Closure::Closed] {
                        for &budget in budgets {
                            let [slow, fast] =
                                label_loops(board, start, rule, closure, budget, Flow::Stop);
                            assert_eq!(slow, fast, "{board} {start:?} {rule} {closure:?} {budget}");
                        }
                    }
                }
            }
        }
    }

    /// Every tour, as `naive::enumerate` asks: the same tours in the same order (5x5 from one
    /// start of each kind on the corners' colour, the other boards from every start).
    #[test]
    fn label_loop_meets_every_tour_the_sorting_loop_meets() {
        let mut tours = 0;
        for (rows, cols) in [(1, 1), (3, 4), (4, 5), (3, 7), (5, 5)] {
            let board = Board::new(rows, cols).unwrap();
            let starts: Vec<Square> = if board.len() == 25 {
                [(0, 0), (0, 2), (1, 1), (2, 2)]
                    .map(|(r, c)| Square::new(r, c))
                    .into()
            } else {
                board.squares().collect()
            };
            // 5x5 in two orders only: its exhaustive searches are most of the test's time
            let orders = if board.len() == 25 { 2 } else { 4 };
            for rule in &LABEL_ORDERS[..orders] {
                let rule: Rule = rule.parse().unwrap();
                for &start in &starts {
                    for closure in [Closure::Open, Closure::Closed] {
                        let [slow, fast] =
                            label_loops(board, start, rule, closure, 0, Flow::Continue);
                        assert_eq!(slow, fast, "{board} {start:?} {rule} {closure:?}");
                        tours += slow.3.len();
                    }
                }
            }
        }
        assert!(tours > 2_000, "too few tours: {tours}");
    }

    #[test]
    fn zero_bytes_finds_exactly_the_zero_bytes() {
        for v in [
            0u64,
            1,
            0x0100,
            0xFF00_0000_0000_0000,
            0x0101_0101_0101_0101,
            0x8000_0000_0000_0080,
            u64::MAX,
        ] {
            let want: u64 = (0..8)
                .filter(|i| (v >> (8 * i)) & 0xFF == 0)
                .map(|i| 0x80 << (8 * i))
                .sum();
            assert_eq!(zero_bytes(v), want, "{v:#x}");
        }
        for b in 0..=255u64 {
            for at in 0..8 {
                let v = (0x0909_0909_0909_0909 & !(0xFF << (8 * at))) | b << (8 * at);
                assert_eq!(zero_bytes(v) != 0, b == 0);
            }
        }
    }
}
