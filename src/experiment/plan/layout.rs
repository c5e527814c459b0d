//! How [`Plan::new`] lays a spec out, by counting alone: the runs of the rules before each rule,
//! the rules' names in one string, and each board's span of groups, runs and chunks with the plan's
//! totals. Nothing is listed per run, so a plan's memory does not grow with its runs.

use super::starts::Starts;
use super::{BoardSpan, Plan, PlanError, RulesBefore};
use crate::board::{Board, Square};
use crate::experiment::size::{chunk_runs, corner_only, rule_applies};
use crate::experiment::spec::Spec;
use crate::solve::RuleSeq;

/// The boards' spans and the plan's totals, as [`Plan::new`] counts them board by board.
pub(super) struct Spans {
    pub(super) spans: Vec<BoardSpan>,
    pub(super) groups: u64,
    pub(super) runs: u64,
    pub(super) chunks: u64,
}

impl Plan {
    /// For each rule, the runs of the rules before it (and the whole list's at the end): a run's
    /// number then finds its rule by a search rather than a list of runs.
    pub(super) fn rules_before(
        rules: &[RuleSeq],
        trials: u32,
        too_big: &dyn Fn() -> PlanError,
    ) -> Result<Vec<RulesBefore>, PlanError> {
        let mut before = Vec::new();
        before
            .try_reserve_exact(rules.len() + 1)
            .map_err(|_| too_big())?;
        let mut sum = RulesBefore::default();
        for rule in rules.iter() {
            before.push(sum);
            let runs = if rule.is_random() { trials as u64 } else { 1 };
            if corner_only(rule.first()) {
                sum.corner_runs += runs;
                sum.corner_rules += 1;
            } else {
                sum.per_start += runs;
            }
        }
        before.push(sum);
        Ok(before)
    }

    /// The rules' names, one string and where each name ends.
    pub(super) fn rule_names(
        spec: &Spec,
        n_rules: usize,
        too_big: &dyn Fn() -> PlanError,
    ) -> Result<(String, Vec<usize>), PlanError> {
        let (mut rule_names, mut rule_name_ends) = (String::new(), Vec::new());
        rule_name_ends
            .try_reserve_exact(n_rules)
            .map_err(|_| too_big())?;
        // room for as many names as long as an ordering's, which are most of a long list: grown
        // by doubling, the names were copied each time
        rule_names
            .try_reserve("order:12345678".len() * n_rules)
            .map_err(|_| too_big())?;
        for i in 0..n_rules {
            spec.write_rule_name(i, &mut rule_names);
            rule_name_ends.push(rule_names.len());
        }
        rule_names.shrink_to_fit();
        Ok((rule_names, rule_name_ends))
    }

    /// Each board's span of groups, runs and chunks, and the totals (groups, runs, chunks).
    pub(super) fn board_spans(
        spec: &Spec,
        boards: &[Board],
        starts: &Starts,
        rules: &[RuleSeq],
        sum: RulesBefore,
        whole_groups: bool,
        too_big: &dyn Fn() -> PlanError,
    ) -> Result<Spans, PlanError> {
        let methods = spec.methods.len() as u64;
        let mut spans = Vec::new();
        spans
            .try_reserve_exact(boards.len())
            .map_err(|_| too_big())?;
        let (mut groups, mut runs, mut chunks) = (0u64, 0u64, 0u64);
        for (b, &board) in boards.iter().enumerate() {
            let n_starts = starts.count(b, board);
            // corner-only rules (squirrel) keep just that start: they run where it is a start
            let corner = starts.has_corner(b)
                && rules.iter().any(|r| {
                    corner_only(r.first()) && rule_applies(r.first(), board, Square::new(0, 0))
                });
            let kept = sum.per_start_rules(rules) + if corner { sum.corner_rules } else { 0 };
            let board_runs =
                methods * (n_starts * sum.per_start + if corner { sum.corner_runs } else { 0 });
            let per_chunk = chunk_runs(board, n_starts, whole_groups);
            spans.push(BoardSpan {
                first_group: groups,
                first_job: runs,
                first_chunk: chunks,
                runs: board_runs,
                starts: n_starts,
                chunk_runs: per_chunk,
                corner,
            });
            groups += methods * kept;
            runs += board_runs;
            chunks += board_runs.div_ceil(per_chunk);
        }
        Ok(Spans {
            spans,
            groups,
            runs,
            chunks,
        })
    }
}

impl RulesBefore {
    /// How many of `rules` run from every start, given that these are all of them.
    fn per_start_rules(&self, rules: &[RuleSeq]) -> u64 {
        rules.len() as u64 - self.corner_rules
    }
}
