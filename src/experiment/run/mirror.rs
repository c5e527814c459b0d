//! Mirror images inside the worker stage: a group that a board symmetry maps onto another group of
//! the sweep (its orbit, `plan::Orbits`, `docs/REFERENCE.md` section 10) is not walked when a member
//! of its orbit was walked before, in an earlier chunk (kept in the sweep's [`OrbitMemo`]) or
//! earlier in the same chunk; its rows are written from that walk, start by start mirrored. Only
//! whole groups are mirrored (a group split over chunks is walked). The memo saves work, it never
//! decides a result: a member that finds nothing walks its runs itself.

use super::orbit_memo::{OrbitMemo, Walked};
use crate::experiment::plan::{Orbit, Orbits, Part, Plan};
use crate::experiment::record::{DeadEndLengths, Tally};
use crate::experiment::spec_file::RecordLevel;
use crate::solve::{Request, RunSummary};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

/// A sweep's mirror-image groups: which they are, and the walked ones kept for the others.
pub(super) struct Mirrors {
    orbits: Orbits,
    memo: OrbitMemo,
}

impl Mirrors {
    /// The mirrors of `plan`'s groups, or `None` where no group has one.
    pub(super) fn of(plan: &Plan) -> Option<Self> {
        Orbits::of(plan).map(|orbits| Mirrors {
            orbits,
            memo: OrbitMemo::default(),
        })
    }
}

/// Where a mirrored part's runs come from.
enum Mirrored {
    /// A member walked in an earlier chunk.
    Kept(Arc<Walked>),
    /// A member walked earlier in the same chunk.
    InChunk,
}

/// A group with mirrors walked in the chunk.
struct Walker {
    /// The chunk's later parts that take its runs.
    takers: u32,
    /// Its place in `ChunkMirrors::walked`, once walked.
    at: Option<usize>,
}

/// A worker's view of one chunk's mirror images (its buffers kept from chunk to chunk).
#[derive(Default)]
pub(super) struct ChunkMirrors {
    /// Per part of the chunk: its orbit, and where its runs are mirrored from, if they are.
    orbits: Vec<Option<Orbit>>,
    mirrored: Vec<Option<Mirrored>>,
    /// The groups with mirrors walked in the chunk: canonical group, runs, members of the orbit.
    walked: Vec<(u32, Arc<Walked>, u32)>,
    /// The same groups by their canonical number: looked up, not searched, for each member (a
    /// chunk of corner runs holds thousands of groups, and a search a member made the chunk's
    /// bookkeeping quadratic).
    walkers: HashMap<u32, Walker>,
}

impl ChunkMirrors {
    /// Find each part's orbit (whole groups with mirrors only), and whether its runs are mirrored
    /// from a group walked in an earlier chunk (kept in the memo) or earlier in this one.
    pub(super) fn find(&mut self, plan: &Plan, parts: &[Part], mirrors: Option<&Mirrors>) {
        self.orbits.clear();
        self.mirrored.clear();
        self.walkers.clear();
        self.walked.clear();
        for p in parts {
            let orbit = mirrors
                .filter(|_| p.from == 0 && p.to as u64 == p.group.runs)
                .and_then(|m| m.orbits.orbit(plan, &p.group));
            let mirrored = match (mirrors, orbit) {
                (Some(m), Some(o)) => match m.memo.take(o.canonical) {
                    Some(w) => Some(Mirrored::Kept(w)),
                    None => match self.walkers.entry(o.canonical) {
                        // walked in this chunk by an earlier member
                        Entry::Occupied(mut walker) => {
                            walker.get_mut().takers += 1;
                            Some(Mirrored::InChunk)
                        }
                        // walked by this one
                        Entry::Vacant(v) => {
                            v.insert(Walker {
                                takers: 0,
                                at: None,
                            });
                            None
                        }
                    },
                },
                _ => None,
            };
            self.orbits.push(orbit);
            self.mirrored.push(mirrored);
        }
    }

    /// Whether part `k`'s runs are written from another member's walk.
    pub(super) fn is_mirrored(&self, k: usize) -> bool {
        self.mirrored[k].is_some()
    }

    /// The runs of parts `parts` (the chunk's) written from another member's walk.
    pub(super) fn runs_mirrored(&self, parts: &[Part]) -> u64 {
        parts
            .iter()
            .zip(&self.mirrored)
            .filter(|(_, m)| m.is_some())
            .map(|(p, _)| (p.to - p.from) as u64)
            .sum()
    }

    /// Part `k`'s orbit, if it is a whole group with mirrors.
    pub(super) fn orbit(&self, k: usize) -> Option<Orbit> {
        self.orbits[k]
    }

    /// The walk part `k`'s runs are written from, if they are mirrored.
    pub(super) fn source(&self, k: usize) -> Option<Arc<Walked>> {
        match (&self.mirrored[k], self.orbits[k]) {
            (Some(Mirrored::Kept(w)), _) => Some(w.clone()),
            (Some(Mirrored::InChunk), Some(o)) => {
                let at = self.walkers.get(&o.canonical).and_then(|w| w.at);
                Some(
                    self.walked[at.expect("a member walked earlier in the chunk")]
                        .1
                        .clone(),
                )
            }
            _ => None,
        }
    }

    /// Keep a walked part with mirrors, of `orbit`, for its orbit's other members: its runs
    /// (`reqs` and their summaries `out`) in the canonical group's order of runs, only where their
    /// rows are written, and its tally. (A run ruled out by a theorem names its start in its
    /// reason, which no file writes: the files have the outcome's name only.)
    #[allow(clippy::too_many_arguments)]
    pub(super) fn keep(
        &mut self,
        plan: &Plan,
        part: &Part,
        orbit: Orbit,
        reqs: &[Request],
        out: &[RunSummary],
        record: RecordLevel,
        (tally, dead_ends): (&Tally, &DeadEndLengths),
    ) {
        let mut runs = Vec::new();
        if record == RecordLevel::Runs {
            runs = out.to_vec();
            for (r, s) in reqs.iter().zip(out) {
                runs[plan.mirrored_run(&part.group, &orbit, r.start)] = *s;
            }
        }
        let walked = Walked {
            runs,
            tally: *tally,
            dead_ends: dead_ends.clone(),
        };
        if let Some(w) = self.walkers.get_mut(&orbit.canonical) {
            w.at = Some(self.walked.len());
        }
        self.walked
            .push((orbit.canonical, Arc::new(walked), orbit.members));
    }

    /// Hand the chunk's walked groups to the memo for the members in later chunks: those of this
    /// chunk are served.
    pub(super) fn give(&mut self, mirrors: Option<&Mirrors>) {
        if let Some(m) = mirrors {
            for (canonical, walked, members) in self.walked.drain(..) {
                let here = self.walkers.get(&canonical).map_or(0, |w| w.takers);
                m.memo.give(canonical, members, here + 1, walked);
            }
        }
    }
}
