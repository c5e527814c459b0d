//! What a sweep will cost, before it runs (`ktour sweep --dry-run`): its runs and chunks, the work
//! they bound (squares a pure-Warnsdorff walk can visit, nodes the searches' budgets allow), the
//! memory of its workers, and a rough time for the pure-Warnsdorff part from the per-step costs
//! measured in `benches/README.md`. Nothing is run or written.

use super::memory::TALLY_BYTES;
use super::preflight::{output_size, worker_memory};
use crate::experiment::disk::OutputSize;
use crate::experiment::plan::{Group, Orbits, Plan, Shard};
use crate::experiment::spec::Spec;
use crate::solve::rules::Kind;
use crate::solve::{Method, Rule};

/// Nanoseconds a pure-Warnsdorff step of `rule` takes on one core of a sweep, from the measurements
/// in `benches/README.md` (which says how and where they were taken). Walks interleaved (`lanes` >
/// 1, boards up to about 500x500) and walks one at a time (the default memory rule past that) cost
/// differently per rule, so each has its own figures; `squirrel` walks one run at a time everywhere.
fn step_ns(rule: Rule, lanes: usize) -> f64 {
    let (first, distance, pohl, random) = if lanes > 1 {
        (2.75, 3.35, 6.1, 8.0)
    } else {
        (4.6, 6.4, 4.8, 7.8)
    };
    match rule.kind() {
        Kind::Fixed(_) => first,
        Kind::Distance(..) => distance,
        Kind::Pohl => pohl,
        Kind::Random => random,
        Kind::Squirrel => 4.2,
        // `shuffle`'s drawn orderings take the window step where three walks or more interleave
        Kind::Plain if rule.is_shuffle() && lanes >= 3 => first,
        // no fast path: the plain loop, unmeasured; the slowest kernel figure is the least wrong
        Kind::Plain => random.max(pohl),
    }
}

/// Nanoseconds a pure-Warnsdorff step takes on any board other than a whole one walked by the knight
/// (the search on any board, `solve::shaped`), whatever the rule: 41 ns over the zebra's sizes
/// 5..100 step 5 and the six rules of `experiments/leapers.toml`, one core (`benches/README.md`,
/// 2026-11-24, Xeon family 6, model 207).
const SHAPED_STEP_NS: f64 = 41.0;

/// A pure-Warnsdorff step's cost by rule and by whether walks interleave, each found once (a
/// sweep may have millions of groups and 40,320 rules).
#[derive(Default)]
struct StepCosts(Vec<[Option<f64>; 2]>);

impl StepCosts {
    /// Nanoseconds a step of `group`'s walks takes, `lanes` of them interleaved.
    fn of(&mut self, plan: &Plan, group: &Group, lanes: usize) -> f64 {
        if plan.shape_of(plan.boards()[group.board]).is_some() {
            return SHAPED_STEP_NS;
        }
        if self.0.len() <= group.rule_index {
            self.0.resize(group.rule_index + 1, [None; 2]);
        }
        *self.0[group.rule_index][(lanes > 1) as usize]
            .get_or_insert_with(|| step_ns(group.rule.first(), lanes))
    }
}

/// What a sweep (or one shard of it) will do.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepCost {
    /// Runs.
    pub runs: u64,
    /// Runs whose rows are written from a mirror-image run's walk (`plan::Orbits`), not walked;
    /// not in the walk and search figures below.
    pub mirrored_runs: u64,
    /// Chunks (the units of the journal, resume and shards).
    pub chunks: u64,
    /// Groups (board x rule x method) with runs.
    pub groups: u64,
    /// Runs that walk by pure Warnsdorff (`warnsdorff`, and `rotate`, whose closing rotations come
    /// on top of its walk).
    pub walk_runs: u64,
    /// The squares of the boards of [`SweepCost::walk_runs`], summed: a walk takes at most one
    /// step a square.
    pub walk_steps: u128,
    /// Runs by search (`backtrack`, `naive`).
    pub search_runs: u64,
    /// Nodes the searches' budgets allow, summed (`None`: a budget of 0, unlimited).
    pub search_nodes: Option<u128>,
    /// Estimated seconds of one core for the pure-Warnsdorff runs, if every run went the whole way.
    pub walk_core_seconds: f64,
    /// Bytes a worker needs at most (the largest board and method, lanes and stack included).
    pub worker_bytes: u64,
    /// Bytes the plan holds ([`Plan::bytes`]): its boards and rules, whatever its runs.
    pub plan_bytes: u64,
    /// Bytes of the groups' tallies the runner holds until the summary is written, their dead ends
    /// by length at most included.
    pub tally_bytes: u64,
    /// The least it writes ([`crate::experiment::check_disk`] refuses a sweep that cannot fit it).
    pub output: OutputSize,
}

/// The cost of shard `shard` of `plan` (the whole plan is shard 1 of 1) with workers walking as
/// `lane_memory` allows: counted group by group, each group's runs in the shard found without
/// listing its chunks, so that a sweep of 10^9 runs is costed as fast as one of ten.
pub fn sweep_cost(
    spec: &Spec,
    plan: &Plan,
    shard: &Shard,
    lane_memory: f64,
    symmetry: bool,
) -> SweepCost {
    let orbits = symmetry.then(|| Orbits::of(plan)).flatten();
    let mut cost = SweepCost {
        runs: 0,
        mirrored_runs: 0,
        chunks: shard.len(),
        groups: 0,
        walk_runs: 0,
        walk_steps: 0,
        search_runs: 0,
        search_nodes: Some(0),
        walk_core_seconds: 0.0,
        worker_bytes: worker_memory(spec, lane_memory).map_or(0, |(bytes, _)| bytes),
        plan_bytes: plan.bytes() + orbits.as_ref().map_or(0, Orbits::bytes),
        tally_bytes: plan
            .groups_touched_bound(shard)
            .saturating_mul(TALLY_BYTES)
            .saturating_add(plan.dead_end_bytes_bound(shard)),
        output: output_size(plan, shard, spec.file.record),
    };
    let mut step_costs = StepCosts::default();
    let mut lanes_of = (usize::MAX, 1);
    for group in plan.groups() {
        let runs = plan.group_runs_in(&group, shard);
        if runs == 0 {
            continue;
        }
        let board = plan.boards()[group.board];
        if lanes_of.0 != group.board {
            lanes_of = (
                group.board,
                crate::solve::interleaved_lanes(board, lane_memory),
            );
        }
        let lanes = lanes_of.1;
        cost.runs += runs;
        cost.groups += 1;
        // the runner mirrors whole groups whose orbit's canonical group comes before them
        let mirrored = orbits
            .as_ref()
            .filter(|_| runs == group.runs && plan.in_one_chunk(&group))
            .and_then(|o| o.orbit(plan, &group))
            .is_some_and(|o| o.canonical != group.id);
        if mirrored {
            cost.mirrored_runs += runs;
            continue;
        }
        match group.method {
            Method::Warnsdorff | Method::Rotate => {
                // a group's runs (at most 2^32) times a board's squares (at most 10^8) fit in u64,
                // whose conversion to f64 is cheap, unlike u128's (a sixth of a large dry run)
                let squares = runs * board.len() as u64;
                cost.walk_runs += runs;
                cost.walk_steps += squares as u128;
                let ns = step_costs.of(plan, &group, lanes);
                cost.walk_core_seconds += squares as f64 * ns * 1e-9;
            }
            Method::Backtrack | Method::Naive => {
                cost.search_runs += runs;
                let budget = spec.budget.for_board(board);
                cost.search_nodes = match (cost.search_nodes, budget) {
                    (Some(n), b) if b > 0 => Some(n + runs as u128 * b as u128),
                    _ => None,
                };
            }
        }
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All orderings from every start of n x n: 7 runs in 8 are mirrored where a chunk holds whole
    /// groups: several a chunk (5x5, 20x20), one a chunk (30x30, 64x64); none where a group is
    /// split over chunks (70x70: 4,900 starts of 4,900 squares pass a chunk of one group's work).
    #[test]
    fn all_orderings_are_mirrored_seven_in_eight() {
        let spec = Spec::from_toml(
            "name = \"t\"\nsizes = [5, 20, 30, 64, 70]\nrules = [\"order:*\"]\n",
            "t",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        let cost = |symmetry| {
            sweep_cost(
                &spec,
                &plan,
                &plan.shard(1, 1),
                crate::solve::DEFAULT_LANE_MEMORY,
                symmetry,
            )
        };
        let (whole, split) = (40_320 * (25 + 400 + 900 + 4096), 40_320 * 4900);
        assert_eq!(cost(true).mirrored_runs, whole / 8 * 7);
        assert_eq!(cost(true).walk_runs, whole / 8 + split);
        assert_eq!(cost(false).mirrored_runs, 0);
    }

    /// The figures of `benches/README.md`, read back: every start of 1000x1000 with `first`
    /// (10^12 steps) about 38 minutes on 2 cores, and a worker within 2 bytes a square.
    #[test]
    fn every_start_of_1000x1000_costs_what_the_benches_measured() {
        let spec = Spec::from_toml(
            "name = \"t\"\nsizes = [1000]\nstarts = \"all\"\nrules = [\"first\"]\n",
            "t",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        let cost = sweep_cost(
            &spec,
            &plan,
            &plan.shard(1, 1),
            crate::solve::DEFAULT_LANE_MEMORY,
            true,
        );
        assert_eq!(cost.runs, 1_000_000);
        assert_eq!(cost.walk_steps, 1_000_000_000_000);
        assert_eq!(cost.search_nodes, Some(0));
        let minutes_on_two = cost.walk_core_seconds / 2.0 / 60.0;
        assert!((36.0..40.0).contains(&minutes_on_two), "{minutes_on_two}");
        // the lanes' squares plus a 2 MiB stack
        assert!(
            cost.worker_bytes < 2 * 1_000_000 + (3 << 20),
            "{}",
            cost.worker_bytes
        );
    }
}
