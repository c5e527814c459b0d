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
    !corner_only(rule) || corner_rules_apply(board, start)
}

/// Whether `rule` runs from the corner (0,0) alone, whatever the starts of a sweep (`squirrel`).
pub(crate) fn corner_only(rule: Rule) -> bool {
    rule == Rule::Squirrel
}

/// Whether the corner-only rules ([`corner_only`]) apply to runs from `start` on `board`.
fn corner_rules_apply(board: Board, start: Square) -> bool {
    board.rows() == board.cols() && board.rows() >= 5 && start == Square::new(0, 0)
}

/// Where `rule` runs from fewer starts than a spec lists, those starts in words ([`rule_applies`]
/// is the definition): its rates are of those runs alone, which tables must say beside rules run
/// from every start.
pub fn start_restriction(rule: Rule) -> Option<&'static str> {
    corner_only(rule).then_some("from the corner (0,0) of n x n boards, n >= 5, only")
}

/// Most work a chunk of one whole group takes where [`CHUNK_STEPS`] holds less than a group.
pub const WHOLE_GROUP_STEPS: u64 = 1 << 24;

/// Runs per chunk on `board`, whose groups run from `starts` starts (times their trials): about
/// [`CHUNK_STEPS`] squares of work, in whole multiples of the starts where a chunk holds several,
/// so that a chunk holds whole groups when the groups of the board are alike (an `order:*` sweep).
/// Where less than a group fits, a sweep with mirror-image rules (`whole_groups`,
/// [`has_mirrors`]) takes one group a chunk up to [`WHOLE_GROUP_STEPS`], so that its groups can
/// be mirrored whole (`plan::Orbits`); other sweeps keep the finer chunks, which balance and stop
/// sooner.
pub(crate) fn chunk_runs(board: Board, starts: u64, whole_groups: bool) -> u64 {
    let runs = (CHUNK_STEPS / board.len() as u64).clamp(1, 1 << 16);
    if (1..=runs).contains(&starts) {
        runs / starts * starts
    } else if whole_groups
        && runs >= 16
        && starts.saturating_mul(board.len() as u64) <= WHOLE_GROUP_STEPS
    {
        starts
    } else {
        runs
    }
}

/// Whether some rule of `rules` has another of them as its mirror image under a symmetry of a
/// square board ([`RuleSeq::mirrored`]): the sweeps whose groups `plan::Orbits` may mirror.
pub(crate) fn has_mirrors(rules: &[RuleSeq]) -> bool {
    let labels: [[u8; 8]; 7] =
        std::array::from_fn(|k| crate::board::Symmetry::of_kind(k as u8 + 1).labels());
    let index = crate::experiment::rule_index::RuleIndex::new(rules);
    rules.iter().any(|rule| {
        index
            .images(rule, &labels)
            .into_iter()
            .flatten()
            .any(|j| rules[j as usize] != *rule)
    })
}

/// The size of a spec's plan, counted without building it ([`crate::experiment::Spec::plan_size`]),
/// so that a plan too large to number or to hold in memory is refused before anything is
/// allocated. Corner-only rules (`squirrel`) are counted on every board where they could apply (a
/// sample may miss the corner), so counts are upper bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanSize {
    /// Boards.
    pub boards: u64,
    /// Rules.
    pub rules: u64,
    /// Start squares the plan holds: a listed set once, a sample per board (every square and the
    /// corners are found from their number, and held nowhere).
    pub held_starts: u64,
    /// Groups (board x rule x method).
    pub groups: u64,
    /// Runs.
    pub runs: u64,
    /// Chunks.
    pub chunks: u64,
    /// Runs of the largest group.
    pub largest_group: u64,
    /// Whether some rule has another as its mirror image (`has_mirrors`), which sizes chunks.
    pub has_mirrors: bool,
}

impl PlanSize {
    /// The size of the plan of these boards, rules, methods and trials, with `starts_on` start
    /// squares on each board (`corner_listed`: whether the starts may hold the corner, where
    /// corner-only rules start), holding `held_starts` start squares; `None` past `u64`.
    /// `mirrors`: whether some rule has another as its mirror image ([`has_mirrors`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn count(
        boards: &[Board],
        rules: &[RuleSeq],
        mirrors: bool,
        methods: usize,
        trials: u32,
        starts_on: impl Fn(Board) -> u64,
        corner_listed: bool,
        held_starts: u64,
    ) -> Option<PlanSize> {
        let methods = methods as u64;
        let mut size = PlanSize {
            boards: boards.len() as u64,
            rules: rules.len() as u64,
            held_starts,
            ..PlanSize::default()
        };
        // runs of one start under each rule that runs from every start, and of the corner under
        // each corner-only rule, with how many rules of each kind and the most runs of one
        let (mut per_start, mut corner_runs) = (0u64, 0u64);
        let (mut others, mut corner_rules) = (0u64, 0u64);
        let (mut most_per_start, mut most_corner) = (0u64, 0u64);
        for rule in rules {
            let runs = if rule.is_random() { trials as u64 } else { 1 };
            if corner_only(rule.first()) {
                (corner_rules, corner_runs) = (corner_rules + 1, corner_runs.checked_add(runs)?);
                most_corner = most_corner.max(runs);
            } else {
                (others, per_start) = (others + 1, per_start.checked_add(runs)?);
                most_per_start = most_per_start.max(runs);
            }
        }
        size.has_mirrors = mirrors;
        for &board in boards {
            let n_starts = starts_on(board);
            let corner = corner_listed && corner_rules_apply(board, Square::new(0, 0));
            let (corner_rules, corner_runs, most_corner) = if corner {
                (corner_rules, corner_runs, most_corner)
            } else {
                (0, 0, 0)
            };
            let groups = methods.checked_mul(others + corner_rules)?;
            let runs =
                methods.checked_mul(n_starts.checked_mul(per_start)?.checked_add(corner_runs)?)?;
            size.groups = size.groups.checked_add(groups)?;
            size.runs = size.runs.checked_add(runs)?;
            size.chunks = size.chunks.checked_add(runs.div_ceil(chunk_runs(
                board,
                n_starts,
                size.has_mirrors,
            )))?;
            size.largest_group = size
                .largest_group
                .max(n_starts.checked_mul(most_per_start)?)
                .max(most_corner);
        }
        Some(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk is about 2^18 steps, a whole number of starts where it holds several, and never
    /// empty or past 2^16 runs.
    #[test]
    fn chunks_hold_whole_starts_of_about_2_18_steps() {
        let b = |n| Board::square(n).unwrap();
        for whole in [false, true] {
            assert_eq!(chunk_runs(b(8), 64, whole), 4096);
            assert_eq!(chunk_runs(b(5), 25, whole), 10475);
            assert_eq!(chunk_runs(b(5), 1, whole), 10485);
            assert_eq!(chunk_runs(b(100), 10_000, whole), 26);
            assert_eq!(chunk_runs(b(1000), 4, whole), 1);
            assert_eq!(chunk_runs(Board::new(1, 1).unwrap(), 1, whole), 1 << 16);
            assert_eq!(chunk_runs(b(70), 4900, whole), 53);
        }
        // a sweep with mirror images takes one group a chunk where less than one fits
        assert_eq!(chunk_runs(b(30), 900, false), 291);
        assert_eq!(chunk_runs(b(30), 900, true), 900);
        assert_eq!(chunk_runs(b(64), 4096, true), 4096);
    }

    #[test]
    fn mirrors_are_found_among_the_rules() {
        let rules = |v: &[&str]| -> Vec<RuleSeq> { v.iter().map(|r| r.parse().unwrap()).collect() };
        // the transpose maps first onto 65432187
        assert!(has_mirrors(&rules(&["first", "random", "order:65432187"])));
        assert!(has_mirrors(&rules(&["pohl+order:65432187", "pohl"])));
        assert!(!has_mirrors(&rules(&[
            "first",
            "pohl",
            "roth",
            "random",
            "order:21345678"
        ])));
        // either way round
        assert!(has_mirrors(&rules(&["order:65432187", "random", "first"])));
        assert!(has_mirrors(&rules(&[
            "pohl",
            "roth",
            "pohl+order:65432187"
        ])));
    }

    /// Against every pair compared under every symmetry, on lists of a few random orderings (half
    /// of them given the mirror image of one of theirs) and on the whole of `order:*`.
    #[test]
    fn mirrors_are_found_as_by_comparing_every_pair() {
        use crate::solve::rules::LabelOrder;
        use crate::solve::Rule;
        use rand::{Rng, SeedableRng};
        let labels: Vec<[u8; 8]> = (1..8)
            .map(|k| crate::board::Symmetry::of_kind(k).labels())
            .collect();
        let every_pair = |rules: &[RuleSeq]| {
            rules.iter().any(|a| {
                rules
                    .iter()
                    .any(|b| a != b && labels.iter().any(|l| a.mirrored(l).as_ref() == Some(b)))
            })
        };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut with, mut without) = (0, 0);
        for _ in 0..3000 {
            let mut rules: Vec<RuleSeq> = (0..rng.gen_range(1..5))
                .map(|_| {
                    let o = LabelOrder::nth_permutation(rng.gen_range(0..40_320));
                    RuleSeq::One(Rule::order(o))
                })
                .collect();
            // half the lists get a mirror image of one of their rules, anywhere in the list
            if rng.gen() {
                let a = rules[rng.gen_range(0..rules.len())].clone();
                if let Some(m) = a.mirrored(&labels[rng.gen_range(0..7)]) {
                    rules.insert(rng.gen_range(0..=rules.len()), m);
                }
            }
            let expected = every_pair(&rules);
            assert_eq!(has_mirrors(&rules), expected, "{rules:?}");
            if expected {
                with += 1;
            } else {
                without += 1;
            }
        }
        assert!(with > 0 && without > 0, "{with} {without}");
        let all: Vec<RuleSeq> = LabelOrder::all()
            .map(|o| RuleSeq::One(Rule::order(o)))
            .collect();
        assert!(has_mirrors(&all));
    }
}
