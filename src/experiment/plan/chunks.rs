//! Chunks: the unit of the journal, of `--resume` and of `--shard` (a worker takes them in blocks
//! of one or more, `run::blocks`). A board's runs (all its groups, in order) are cut into chunks of
//! about [`crate::experiment::CHUNK_STEPS`] squares of work, so a chunk may hold many small groups
//! (an `order:*` sweep from the corner: a thousand one-run groups) or a share of a large one (every
//! start of 1000x1000: a run a chunk). A chunk's [`Part`]s are its groups' shares of it. Shard `I/K`
//! takes every K-th chunk; its runs are counted without listing its chunks.

use super::{BoardSpan, Group, Plan};
use crate::experiment::size::corner_only;

/// A range of consecutive runs of one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Chunk number (global, shard-independent).
    pub id: u64,
    /// Index into the plan's boards.
    pub board: usize,
    /// Global number of its first run.
    pub first_job: u64,
    /// One past its last run.
    pub end_job: u64,
}

impl Chunk {
    /// Its runs.
    pub fn runs(&self) -> u64 {
        self.end_job - self.first_job
    }
}

/// One group's share of a chunk: runs `from..to` of `group` (indexes within the group).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The group.
    pub group: Group,
    /// First run, as an index within the group.
    pub from: u32,
    /// One past the last run within the group.
    pub to: u32,
}

impl Part {
    /// Global number of its first run.
    pub fn first_job(&self) -> u64 {
        self.group.first_job + self.from as u64
    }

    /// Its runs.
    pub fn runs(&self) -> u64 {
        (self.to - self.from) as u64
    }
}

/// The chunks of one shard: every `count`-th chunk from chunk `index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The first chunk's number (`index - 1`).
    first: u64,
    /// `count`.
    step: u64,
    /// How many chunks.
    len: u64,
}

impl Shard {
    /// How many chunks the shard has.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the shard has no chunk.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `k`-th chunk number of the shard (`k` below [`Shard::len`]).
    pub fn nth(&self, k: u64) -> u64 {
        self.first + k * self.step
    }

    /// Whether chunk `id` is one of the shard's.
    pub fn contains(&self, id: u64) -> bool {
        id % self.step == self.first && id / self.step < self.len
    }

    /// The chunk numbers, in order.
    pub fn ids(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.len).map(|k| self.nth(k))
    }

    /// How many of the chunks numbered `first..first + n` are the shard's.
    fn count_in(&self, first: u64, n: u64) -> u64 {
        // the k of the first chunk first + k of the shard's residue, then every step-th
        let k0 = (self.first + self.step - first % self.step) % self.step;
        if k0 < n {
            (n - 1 - k0) / self.step + 1
        } else {
            0
        }
    }
}

impl Plan {
    /// Chunk `id` (below [`Plan::total_chunks`]).
    pub fn chunk(&self, id: u64) -> Chunk {
        let b = self.board_of(id, |s| s.first_chunk);
        let span = &self.spans[b];
        let from = (id - span.first_chunk) * span.chunk_runs;
        Chunk {
            id,
            board: b,
            first_job: span.first_job + from,
            end_job: span.first_job + (from + span.chunk_runs).min(span.runs),
        }
    }

    /// The chunk that holds run `job`.
    pub fn chunk_of_job(&self, job: u64) -> Chunk {
        let b = self.board_of(job, |s| s.first_job);
        let span = &self.spans[b];
        self.chunk(span.first_chunk + (job - span.first_job) / span.chunk_runs)
    }

    /// The parts of `chunk`, in order: each group's share of it.
    pub fn parts<'p>(&'p self, chunk: &Chunk) -> impl Iterator<Item = Part> + 'p {
        let (first, index) = self.group_of_job(chunk.first_job);
        let mut next = Some((
            first.rule_index,
            self.methods
                .iter()
                .position(|&m| m == first.method)
                .expect("a method of the plan"),
            index,
        ));
        let mut left = chunk.runs();
        let board = chunk.board;
        std::iter::from_fn(move || {
            while let Some((r, m, from)) = next {
                if left == 0 {
                    return None;
                }
                let group = self.group_at(board, r, m);
                next = if m + 1 < self.methods.len() {
                    Some((r, m + 1, 0))
                } else if r + 1 < self.rules.len() {
                    Some((r + 1, 0, 0))
                } else {
                    None
                };
                if group.runs == 0 {
                    continue; // a corner-only rule off its domain: no groups here
                }
                let to = (from as u64 + left).min(group.runs);
                left -= to - from as u64;
                return Some(Part {
                    group,
                    from,
                    to: to as u32,
                });
            }
            None
        })
    }

    /// The chunks of shard `index` of `count` (1-based): every `count`-th chunk.
    pub fn shard(&self, index: u32, count: u32) -> Shard {
        let (first, step) = ((index - 1) as u64, count as u64);
        Shard {
            first,
            step,
            len: Shard {
                first,
                step,
                len: 0,
            }
            .count_in(0, self.chunks),
        }
    }

    /// The runs of board `b` that `shard` has.
    pub fn board_runs_in(&self, b: usize, shard: &Shard) -> u64 {
        let span = &self.spans[b];
        let n = span.runs.div_ceil(span.chunk_runs);
        runs_in_chunks(span, shard, 0, n, 0, span.runs)
    }

    /// The runs of `group` that `shard` has.
    pub fn group_runs_in(&self, group: &Group, shard: &Shard) -> u64 {
        if shard.step == 1 {
            return group.runs;
        }
        let span = &self.spans[group.board];
        let (a, b) = (
            group.first_job - span.first_job,
            group.first_job - span.first_job + group.runs,
        );
        if a == b {
            return 0;
        }
        let (ka, kb) = (a / span.chunk_runs, (b - 1) / span.chunk_runs);
        runs_in_chunks(span, shard, ka, kb + 1, a, b)
    }

    /// The shard's runs on board `b`, and the chunks it takes there: a bound on the groups it
    /// touches, which is what the runner's tallies hold ([`Plan::groups_touched_bound`]).
    fn board_groups_bound(&self, b: usize, shard: &Shard) -> u64 {
        let span = &self.spans[b];
        let methods = self.methods.len() as u64;
        let groups = methods * self.kept_before(span, self.rules.len());
        let chunks = shard.count_in(span.first_chunk, span.runs.div_ceil(span.chunk_runs));
        // a chunk of p runs touches at most p / (fewest runs of a group) + 1 groups
        let fewest = (0..self.rules.len())
            .map(|r| self.runs_of(span, r))
            .filter(|&n| n > 0)
            .min()
            .unwrap_or(1);
        groups.min(chunks.saturating_mul(span.chunk_runs / fewest + 1))
    }

    /// At most how many bytes the dead ends by length of the groups `shard` touches take: a group
    /// ends at no more distinct lengths than it has runs or its board has squares, 16 bytes each
    /// (every start of 200x200 under `random`: 24,227 lengths). Only walks dead-end.
    pub fn dead_end_bytes_bound(&self, shard: &Shard) -> u64 {
        use crate::solve::Method;
        if !self
            .methods
            .iter()
            .any(|m| matches!(m, Method::Warnsdorff | Method::Rotate))
        {
            return 0;
        }
        // the most runs a group of a rule has per start (rules that run from every start) and at
        // the corner (corner-only rules), found once rather than per rule and board: an `order:*`
        // sweep has 40,320 rules ([`Plan::runs_of`] is the same count for one rule)
        let (mut per_start, mut at_corner) = (0, 0);
        for rule in self.rules.iter() {
            let runs = if rule.is_random() {
                self.trials as u64
            } else {
                1
            };
            if corner_only(rule.first()) {
                at_corner = at_corner.max(runs);
            } else {
                per_start = per_start.max(runs);
            }
        }
        (0..self.boards.len())
            .map(|b| {
                let span = &self.spans[b];
                let board = self.boards[b];
                let squares = board.rows() as u64 * board.cols() as u64;
                let corner = if span.corner { at_corner } else { 0 };
                let most = (span.starts * per_start).max(corner);
                let (groups, runs) = if shard.step == 1 {
                    let groups =
                        self.methods.len() as u64 * self.kept_before(span, self.rules.len());
                    (groups, most)
                } else {
                    // a shard takes every step-th chunk: a group's runs there are at most its
                    // share of them and two chunks more
                    let share = most / shard.step + 2 * span.chunk_runs;
                    (self.board_groups_bound(b, shard), most.min(share))
                };
                groups.saturating_mul(runs.min(squares).saturating_mul(16))
            })
            .fold(0u64, u64::saturating_add)
    }

    /// At most how many groups the runs of `shard` touch: all of them for the whole sweep, fewer
    /// for one shard of many. The runner holds a tally for each.
    pub fn groups_touched_bound(&self, shard: &Shard) -> u64 {
        if shard.step == 1 {
            return self.groups;
        }
        (0..self.boards.len())
            .map(|b| self.board_groups_bound(b, shard))
            .sum()
    }
}

/// The runs in `a..b` (board-local run numbers) of the shard's chunks among the board's chunks
/// `ka..kb` (those `a..b` overlaps), counted without listing them: every chunk but the first and
/// the last holds `chunk_runs` of them.
fn runs_in_chunks(span: &BoardSpan, shard: &Shard, ka: u64, kb: u64, a: u64, b: u64) -> u64 {
    if ka >= kb {
        return 0;
    }
    let p = span.chunk_runs;
    let overlap = |k: u64| (b.min((k + 1) * p)).saturating_sub(a.max(k * p));
    let mine = |k: u64| shard.contains(span.first_chunk + k);
    let count = |k0: u64, n: u64| shard.count_in(span.first_chunk + k0, n);
    if kb - ka == 1 {
        return if mine(ka) { overlap(ka) } else { 0 };
    }
    let ends = [ka, kb - 1]
        .iter()
        .filter(|&&k| mine(k))
        .map(|&k| overlap(k))
        .sum::<u64>();
    ends + count(ka + 1, kb - ka - 2) * p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::spec::Spec;

    /// The dead ends' memory bound: 16 bytes a run or a square, whichever is fewer, for each group
    /// that walks; none for searches; a shard's share and two chunks for a shard of many, and
    /// never less than what the shard's groups can hold (their runs there, one length each).
    #[test]
    fn dead_ends_are_bounded_by_runs_and_squares() {
        let plan = |methods: &str| {
            let text = format!("name = \"t\"\nsizes = [10, 60]\nrules = [\"first\", \"random\"]\nmethods = [{methods}]\ntrials = 3");
            Plan::new(&Spec::from_toml(&text, "t").unwrap()).unwrap()
        };
        let walks = plan("\"warnsdorff\"");
        // per board: first has a run a start, random three; min with the squares
        let whole = 16 * ((100 + 100) + (3600 + 3600));
        assert_eq!(walks.dead_end_bytes_bound(&walks.shard(1, 1)), whole);
        assert_eq!(
            plan("\"backtrack\"").dead_end_bytes_bound(&walks.shard(1, 1)),
            0
        );
        for count in [2, 7] {
            for index in 1..=count {
                let shard = walks.shard(index, count);
                let bound = walks.dead_end_bytes_bound(&shard);
                // what the shard's groups can hold: their runs there, at most their squares
                let mut runs: std::collections::BTreeMap<u32, (u64, u64)> = Default::default();
                for id in (0..walks.total_chunks()).filter(|&id| shard.contains(id)) {
                    for part in walks.parts(&walks.chunk(id)) {
                        let squares = walks.boards()[part.group.board].len() as u64;
                        let e = runs.entry(part.group.id).or_insert((0, squares));
                        e.0 += (part.to - part.from) as u64;
                    }
                }
                let least: u64 = runs.values().map(|&(r, sq)| 16 * r.min(sq)).sum();
                assert!(
                    bound <= whole && bound >= least,
                    "{index}/{count}: bound {bound}, whole {whole}, least {least}"
                );
            }
        }
    }

    /// The closed-form counts of a shard's runs are those of its chunks listed one by one.
    #[test]
    fn shard_counts_are_those_of_its_chunks() {
        let spec = Spec::from_toml(
            "name = \"t\"\nsizes = [5, 9, 60, 200]\nrules = [\"first\", \"random\", \"squirrel\"]\nmethods = [\"warnsdorff\", \"backtrack\"]\ntrials = 3\nstarts = \"sample:20\"",
            "t",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        for count in 1..=5 {
            for index in 1..=count {
                let shard = plan.shard(index, count);
                let listed: Vec<Chunk> = (0..plan.total_chunks())
                    .filter(|id| id % count as u64 == (index - 1) as u64)
                    .map(|id| plan.chunk(id))
                    .collect();
                assert_eq!(shard.len(), listed.len() as u64);
                assert!(shard.ids().eq(listed.iter().map(|c| c.id)));
                for b in 0..plan.boards().len() {
                    let runs: u64 = listed
                        .iter()
                        .filter(|c| c.board == b)
                        .map(Chunk::runs)
                        .sum();
                    assert_eq!(
                        plan.board_runs_in(b, &shard),
                        runs,
                        "board {b} {index}/{count}"
                    );
                }
                let mut touched = std::collections::BTreeSet::new();
                for g in 0..plan.total_groups() as u32 {
                    let group = plan.group(g);
                    let runs: u64 = listed
                        .iter()
                        .flat_map(|c| plan.parts(c))
                        .filter(|p| p.group.id == g)
                        .map(|p| p.runs())
                        .sum();
                    assert_eq!(plan.group_runs_in(&group, &shard), runs, "group {g}");
                    if runs > 0 {
                        touched.insert(g);
                    }
                }
                assert!(touched.len() as u64 <= plan.groups_touched_bound(&shard));
            }
        }
    }
}
