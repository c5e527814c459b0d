//! How large a spec's plan is, counted without building it: the chunk sizing and the rule domains
//! that numbering rests on, and the counts that validation bounds. Below both `spec` (whose
//! validation refuses plans too large to number) and `plan` (which numbers them), so that neither
//! imports the other's arithmetic back.

use crate::board::{Board, Square};
use crate::solve::{Rule, RuleSeq};

/// Target work per chunk, in Warnsdorff steps (squares visited): small enough for even load balance
/// and prompt interrupts, large enough that scheduling a chunk costs nothing by comparison.
pub const CHUNK_STEPS: u64 = 1 << 18;

/// Whether `rule` applies to runs from `start` on `board` (squirrel: n x n, n >= 5, from the corner).
pub fn rule_applies(rule: Rule, board: Board, start: Square) -> bool {
    rule != Rule::Squirrel
        || (board.rows() == board.cols() && board.rows() >= 5 && start == Square::new(0, 0))
}

/// Where `rule` runs from fewer starts than a spec lists, those starts in words ([`rule_applies`]
/// is the definition): its rates are of those runs alone, which tables must say beside rules run
/// from every start.
pub fn start_restriction(rule: Rule) -> Option<&'static str> {
    (rule == Rule::Squirrel).then_some("from the corner (0,0) of n x n boards, n >= 5, only")
}

/// Runs per chunk on `board`: about [`CHUNK_STEPS`] squares of work.
pub(super) fn chunk_runs(board: Board) -> u64 {
    (CHUNK_STEPS / board.len() as u64).clamp(1, 1 << 16)
}

/// The size of a spec's plan, counted without building it ([`crate::experiment::Spec::plan_size`]),
/// so that a plan too large to number or to hold in memory is refused before anything is allocated. `squirrel` groups are counted on
/// every board where they could apply (a sample may miss the corner), so counts are upper bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanSize {
    /// Entries of the boards' start lists.
    pub start_squares: u64,
    /// Groups (board x rule x method).
    pub groups: u64,
    /// Runs.
    pub runs: u64,
    /// Chunks.
    pub chunks: u64,
    /// Runs of the largest group.
    pub largest_group: u64,
}

impl PlanSize {
    /// The size of the plan of these boards, rules, methods and trials, with `starts_on` start
    /// squares on each board (`corner_listed`: whether the starts may hold the corner, where
    /// `squirrel` starts); `None` past `u64`.
    pub(super) fn count(
        boards: &[Board],
        rules: &[RuleSeq],
        methods: usize,
        trials: u32,
        starts_on: impl Fn(Board) -> u64,
        corner_listed: bool,
    ) -> Option<PlanSize> {
        let mut size = PlanSize::default();
        let methods = methods as u64;
        let random = rules.iter().filter(|r| r.is_random()).count() as u64;
        let squirrel = rules.contains(&RuleSeq::One(Rule::Squirrel)) as u64;
        let fixed = rules.len() as u64 - random - squirrel;
        for &board in boards {
            let n_starts = starts_on(board);
            size.start_squares = size.start_squares.checked_add(n_starts)?;
            let squirrel_applies =
                corner_listed && rule_applies(Rule::Squirrel, board, Square::new(0, 0));
            let per_chunk = chunk_runs(board);
            // (rules, runs of each of their groups)
            let kinds = [
                (fixed, n_starts),
                (random, n_starts.checked_mul(trials as u64)?),
                (squirrel * squirrel_applies as u64, 1),
            ];
            for (rules, runs) in kinds {
                let groups = rules.checked_mul(methods)?;
                if groups == 0 {
                    continue;
                }
                size.groups = size.groups.checked_add(groups)?;
                size.runs = size.runs.checked_add(groups.checked_mul(runs)?)?;
                let chunks = groups.checked_mul(runs.div_ceil(per_chunk))?;
                size.chunks = size.chunks.checked_add(chunks)?;
                size.largest_group = size.largest_group.max(runs);
            }
        }
        Some(size)
    }
}
