//! Which groups of a plan are mirror images of each other (`docs/REFERENCE.md`, "Symmetry of runs").
//! A board symmetry `g` maps the run from `s` with a fixed-order rule `R` onto the run from `g(s)`
//! with `R` mirrored ([`crate::solve::Rule::mirrored`]), square by square, with the same outcome
//! and counters. So where a board's start set is kept by `g` and the spec lists both `R` and its
//! mirror, the two groups have the same runs, start by start: a sweep walks the first of them in plan
//! order (the orbit's *canonical* group) and writes the others' rows from its results. All 40,320
//! orderings on a square board fall into 5,040 orbits of 8.
//!
//! What is held: for each rule, the index of its mirror under each of the 8 symmetries (or none),
//! and for each board the set of its symmetries that keep its start set; nothing per run or group.
//! Runs on a mask or with another leaper are not reduced (holes break the symmetry; another
//! leaper's labels are not the knight's), nor `rotate` (its closing is not checked to mirror), nor
//! rules that read the PRNG (a run's seed follows its start square).

use super::{Group, Plan, Starts};
use crate::board::{Board, Square, Symmetry};
use crate::experiment::rule_index::RuleIndex;
use crate::solve::Method;

/// No mirror in the spec's rules.
const NONE: u32 = u32::MAX;

/// The mirror tables of a plan.
#[derive(Clone, Debug)]
pub struct Orbits {
    /// `mirror[r][k]`: the index of rule `r` mirrored by the symmetry of kind `k`, or [`NONE`].
    mirror: Vec<[u32; 8]>,
    /// For each board, the kinds (bits) of its symmetries that keep its start set.
    keep: Vec<u8>,
}

/// A group's place in its orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orbit {
    /// The orbit's canonical group: the first in plan order, the one that is walked.
    pub canonical: u32,
    /// The groups of the orbit in the plan, this one and the canonical one included.
    pub members: u32,
    /// The symmetry that maps this group onto the canonical one: run `i` of this group, from `s`,
    /// is the canonical group's run from `to_canonical.apply(s)`.
    pub to_canonical: Symmetry,
}

/// The label maps of the 8 symmetry kinds.
fn label_maps() -> [[u8; 8]; 8] {
    std::array::from_fn(|k| Symmetry::of_kind(k as u8).labels())
}

/// `mirror[r][k]` for every rule of `rules` (see [`Orbits`]). The images of one rule of each orbit
/// are looked up; the other members' rows follow from them, since mirroring by `j` the image by `k`
/// is mirroring by the product `j k` (the symmetries are a group acting on the labels, and a rule's
/// mirror maps its labels): 5,040 rules' images looked up for `order:*`, not 40,320 (serial work
/// before a sweep's workers start).
fn mirror_table(rules: &[crate::solve::RuleSeq]) -> Vec<[u32; 8]> {
    let index = RuleIndex::new(rules);
    let labels = label_maps();
    // product[j][k]: the kind whose label map is that of `k`, then that of `j`
    let product: [[usize; 8]; 8] = std::array::from_fn(|j| {
        std::array::from_fn(|k| {
            let both = labels[k].map(|l| labels[j][usize::from(l)]);
            let kind = labels.iter().position(|m| *m == both);
            kind.expect("the symmetries are a group")
        })
    });
    const UNSET: u32 = NONE - 1;
    let mut mirror = vec![[UNSET; 8]; rules.len()];
    for (i, rule) in rules.iter().enumerate() {
        if mirror[i][0] != UNSET {
            continue;
        }
        let row = index
            .images(rule, &labels)
            .map(|image| image.unwrap_or(NONE));
        for (k, &member) in row.iter().enumerate() {
            if member != NONE {
                mirror[member as usize] = std::array::from_fn(|j| row[product[j][k]]);
            }
        }
        mirror[i] = row;
    }
    mirror
}

/// Methods whose runs are checked to mirror (tests/symmetry.rs).
fn method_mirrors(m: Method) -> bool {
    matches!(m, Method::Warnsdorff | Method::Backtrack | Method::Naive)
}

impl Orbits {
    /// The tables of `plan`, or `None` when no group of it has a mirror; computed on the current
    /// rayon pool (a sweep's own, so that `--threads 1` stays one thread).
    pub fn of(plan: &Plan) -> Option<Orbits> {
        if plan.mask.is_some()
            || plan.leaper != crate::board::Leaper::KNIGHT
            || !plan.methods.iter().any(|&m| method_mirrors(m))
        {
            return None;
        }
        let mirror = mirror_table(&plan.rules);
        let any = mirror
            .iter()
            .enumerate()
            .any(|(i, row)| row.iter().any(|&j| j != NONE && j != i as u32));
        if !any {
            return None;
        }
        let keep = plan
            .boards
            .iter()
            .enumerate()
            .map(|(b, &board)| keeping(&plan.starts, b, board, plan.spans[b].starts))
            .collect();
        Some(Orbits { mirror, keep })
    }

    /// The bytes the tables hold.
    pub fn bytes(&self) -> u64 {
        (self.mirror.capacity() * std::mem::size_of::<[u32; 8]>() + self.keep.capacity()) as u64
    }

    /// The orbit of `group` in `plan`, when it has other members.
    pub fn orbit(&self, plan: &Plan, group: &Group) -> Option<Orbit> {
        if !method_mirrors(group.method) || group.rule.is_random() {
            return None;
        }
        let keep = self.keep[group.board];
        let row = &self.mirror[group.rule_index];
        let (mut best, mut to_canonical, mut members) = (NONE, Symmetry::IDENTITY, 0);
        for k in 0..8u8 {
            let r = row[k as usize];
            if keep & (1 << k) == 0 || r == NONE {
                continue;
            }
            members += 1;
            if r < best {
                (best, to_canonical) = (r, Symmetry::of_kind(k));
            }
        }
        if members < 2 {
            return None;
        }
        let canonical = plan
            .group_at(group.board, best as usize, group.method_index)
            .id;
        Some(Orbit {
            canonical,
            members,
            to_canonical,
        })
    }
}

/// The kinds of the symmetries of `board` that keep its start set (the `b`-th board's, `count`
/// starts), as bits; the identity always.
fn keeping(starts: &Starts, b: usize, board: Board, count: u64) -> u8 {
    let mut keep = 0u8;
    for g in Symmetry::of(board) {
        let kept = starts.is_every_square()
            || (0..count).all(|i| {
                let image = g.apply(board, starts.nth(b, board, i));
                starts.index_of(b, board, image).is_some()
            });
        if kept {
            keep |= 1 << g.kind();
        }
    }
    keep
}

impl Plan {
    /// The run of `orbit`'s canonical group that run from `start` of `group`, a member, mirrors:
    /// its index there.
    pub fn mirrored_run(&self, group: &Group, orbit: &Orbit, start: Square) -> usize {
        let board = self.boards[group.board];
        self.start_index(group.board, orbit.to_canonical.apply(board, start))
            .expect("the orbit's symmetries keep the starts") as usize
    }

    /// Whether every run of `group` is in one chunk (a chunk's share of it is the whole group,
    /// which is what the runner mirrors).
    pub fn in_one_chunk(&self, group: &Group) -> bool {
        let span = &self.spans[group.board];
        let first = group.first_job - span.first_job;
        group.runs > 0 && first / span.chunk_runs == (first + group.runs - 1) / span.chunk_runs
    }

    /// The place of `sq` among the starts of board `b` (the run from it in a group of one trial
    /// a start), if it is one.
    pub fn start_index(&self, b: usize, sq: Square) -> Option<u32> {
        self.starts
            .index_of(b, self.boards[b], sq)
            .map(|i| i as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::spec::Spec;

    fn plan(text: &str) -> Plan {
        Plan::new(&Spec::from_toml(text, "t").unwrap()).unwrap()
    }

    /// The mirror table from one rule of each orbit equals every rule's images looked up one by
    /// one, on lists of fixed orders (all of them, random subsets, shuffled), chains with keys,
    /// distance rules, random rules and rules tried in turn.
    #[test]
    fn the_mirror_table_equals_every_rules_images_looked_up() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let all: Vec<String> = crate::solve::rules::LabelOrder::all()
            .map(|o| format!("order:{o}"))
            .collect();
        let others = [
            "first",
            "roth",
            "pohl",
            "random",
            "center",
            "roth+order:87654321",
            "pohl+order:56781234",
            "roth+pohl+first",
            "first|order:87654321",
            "order:87654321|order:12345678",
            "roth|random",
            "squirrel",
        ];
        let mut lists = vec![all.clone()];
        for _ in 0..20 {
            let n = rng.gen_range(1..400);
            let mut list: Vec<String> = all.choose_multiple(&mut rng, n).cloned().collect();
            list.extend(others.choose_multiple(&mut rng, 4).map(|s| s.to_string()));
            list.shuffle(&mut rng);
            lists.push(list);
        }
        let labels = label_maps();
        for list in lists {
            let rules: Vec<crate::solve::RuleSeq> =
                list.iter().map(|r| r.parse().unwrap()).collect();
            let index = RuleIndex::new(&rules);
            let want: Vec<[u32; 8]> = rules
                .iter()
                .map(|r| index.images(r, &labels).map(|i| i.unwrap_or(NONE)))
                .collect();
            assert_eq!(mirror_table(&rules), want, "{list:?}");
        }
    }

    /// All orderings on a square board from every start: orbits of 8, each group in one, its
    /// canonical member first; the mirror of each run's start is a start.
    #[test]
    fn orderings_on_a_square_board_fall_into_orbits_of_eight() {
        let p = plan("name = \"t\"\nsizes = [6]\nrules = [\"order:*\"]\n");
        let orbits = Orbits::of(&p).unwrap();
        let mut canonical = std::collections::HashMap::new();
        for group in p.groups() {
            let o = orbits.orbit(&p, &group).unwrap();
            assert_eq!(o.members, 8);
            assert!(o.canonical <= group.id);
            *canonical.entry(o.canonical).or_insert(0) += 1;
        }
        assert_eq!(canonical.len(), 5040);
        assert!(canonical.values().all(|&n| n == 8));
    }

    /// Orbits shrink to what the starts and the rules keep: the corner of a square board is kept
    /// by the identity and the transpose; a rectangle's corner by the identity only; a rule whose
    /// mirror is not in the spec, random rules, rotate and other leapers have none.
    #[test]
    fn orbits_follow_the_starts_and_the_rules() {
        let p = plan("name = \"t\"\nsizes = [8]\nboards = [[5, 7]]\nstarts = \"corner\"\nrules = [\"order:*\"]\n");
        let orbits = Orbits::of(&p).unwrap();
        for group in p.groups() {
            let o = orbits.orbit(&p, &group);
            match p.boards()[group.board].rows() {
                8 => assert_eq!(o.map(|o| o.members), Some(2)),
                _ => assert_eq!(o, None),
            }
        }
        let p = plan("name = \"t\"\nsizes = [8]\nstarts = \"corners\"\nrules = [\"first\", \"order:65432187\", \"random\", \"pohl\"]\nmethods = [\"warnsdorff\", \"rotate\"]\n");
        let orbits = Orbits::of(&p).unwrap();
        let members: Vec<Option<u32>> = p
            .groups()
            .map(|g| orbits.orbit(&p, &g).map(|o| o.members))
            .collect();
        // first and 65432187 are mirrors (by the transpose); `pohl` is
        // `pohl+first`, whose mirrors are not listed; rotate is not reduced
        assert_eq!(
            members,
            [Some(2), None, Some(2), None, None, None, None, None]
        );
        for text in [
            "name = \"t\"\nsizes = [8]\nrules = [\"first\", \"random\"]\n",
            "name = \"t\"\nsizes = [8]\nrules = [\"order:*\"]\nleaper = \"zebra\"\n",
            "name = \"t\"\nsizes = [8]\nrules = [\"order:*\"]\nmethods = [\"rotate\"]\nclosed = true\n",
        ] {
            assert!(Orbits::of(&plan(text)).is_none(), "{text}");
        }
    }
}
