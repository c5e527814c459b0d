//! The frontier sweep that counts the Hamiltonian cycles of a twisted graph ([`Quotient`]) whose
//! net twist generates `Z/k`: vertices are added in the quotient's order, each taking 0, 1 or 2 of
//! its edges to earlier vertices, and the partial edge sets are merged by their frontier state
//! (`cells.rs`) in a hash map from packed state to the number of ways (a `u128`, checked).
//!
//! Source: the transfer-matrix (frontier) method for Hamiltonian cycles, as in `count::frontier`
//! (after Knuth's frontier programs), on an arbitrary graph and vertex order, with the net twist
//! of each path piece carried in its state (Gross and Tucker's voltages, see `quotient.rs`).
//!
//! # ADVICE FOR HACKERS
//! - A vertex is in the frontier from the step that adds it until the step of its last neighbour;
//!   the frontier's vertices, and so the meaning of each cell, depend on the step only.
//! - An edge is taken when its later end is added. Joining the two ends of one piece closes a
//!   cycle: allowed only at the last vertex, when every other vertex is then full, and counted when
//!   the cycle's twist is a generator of `Z/k` (odd for the half-turn; 1 or 3 for the quarter-turn;
//!   anything for `k = 1`).
//! - Parallel edges (a straight and a twisted move between the same two orbits) need no special
//!   case: taking both closes a cycle of two vertices, refused like any early cycle.

use super::cells::{Cells, Packing, EMPTY, FRESH, FULL};
use super::quotient::Quotient;
use super::SymmetricError;
use rustc_hash::FxHashMap;

/// What a sweep found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepResult {
    /// The Hamiltonian cycles of the quotient whose twist generates `Z/k`.
    pub cycles: u128,
    /// The states held after each vertex was added.
    pub states: Vec<usize>,
    /// State transitions (state and choice of edges that survived), over all steps.
    pub transitions: u64,
}

/// The geometry of one step: where the new vertex's earlier edges lead, which vertices leave the
/// frontier, and how many edges each remaining one still has to come.
struct Step {
    /// Frontier cells before the step (the new vertex is cell `before`).
    before: usize,
    /// (cell of the earlier end, twist from it to the new vertex) for each earlier edge.
    edges: Vec<(usize, u8)>,
    /// Cells (of the `before + 1`) whose last edge is this step's: they must be full, and leave.
    leaving: Vec<usize>,
    /// For each cell that stays, in order: its edges still to come.
    to_come: Vec<u8>,
}

/// The steps of a sweep over `q`, and the largest frontier.
fn plan(q: &Quotient) -> Vec<Step> {
    let last = q.last_neighbour();
    let mut frontier: Vec<u32> = Vec::new();
    let mut steps = Vec::with_capacity(q.len());
    for v in 0..q.len() as u32 {
        let edges = q
            .edges
            .iter()
            .filter(|e| e.b == v)
            .map(|e| {
                let cell = frontier
                    .iter()
                    .position(|&u| u == e.a)
                    .expect("in frontier");
                (cell, e.twist)
            })
            .collect();
        let before = frontier.len();
        frontier.push(v);
        let leaving = (0..frontier.len())
            .filter(|&p| last[frontier[p] as usize] == v)
            .collect();
        frontier.retain(|&u| last[u as usize] != v);
        let to_come = frontier
            .iter()
            .map(|&u| q.edges.iter().filter(|e| e.a == u && e.b > v).count() as u8)
            .collect();
        steps.push(Step {
            before,
            edges,
            leaving,
            to_come,
        });
    }
    steps
}

/// Count the Hamiltonian cycles of `q` with a generating twist, giving up when a step holds more
/// than `max_states` states; `report(vertex, states)` is told after each step.
pub fn sweep(
    q: &Quotient,
    max_states: usize,
    mut report: impl FnMut(usize, usize),
) -> Result<SweepResult, SymmetricError> {
    let k = q.rotation.order();
    let width = q.max_frontier();
    let packing = Packing::new(width, k).ok_or(SymmetricError::TooWide {
        board: q.board,
        cells: width,
    })?;
    let steps = plan(q);
    let mut current: FxHashMap<u128, u128> = FxHashMap::default();
    current.insert(0, 1);
    let mut result = SweepResult {
        cycles: 0,
        states: Vec::with_capacity(steps.len()),
        transitions: 0,
    };
    let last_step = steps.len() - 1;
    for (v, step) in steps.iter().enumerate() {
        let mut next: FxHashMap<u128, u128> = FxHashMap::default();
        for (&key, &ways) in &current {
            let cells = packing.unpack(key, step.before);
            for_each_successor(&cells, step, k, v == last_step, |outcome| {
                result.transitions += 1;
                let slot = match outcome {
                    Outcome::State(c) => next.entry(packing.pack(&c)).or_insert(0),
                    Outcome::Cycle => &mut result.cycles,
                };
                *slot = slot
                    .checked_add(ways)
                    .ok_or(SymmetricError::Overflow { board: q.board })?;
                Ok(())
            })?;
            if next.len() > max_states {
                return Err(SymmetricError::TooManyStates {
                    board: q.board,
                    max_states,
                    vertex: v + 1,
                    vertices: q.len(),
                });
            }
        }
        current = next;
        result.states.push(current.len());
        report(v, current.len());
    }
    Ok(result)
}

/// What one choice of edges leads to: a state of the next step, or (at the last vertex) a counted
/// cycle.
enum Outcome {
    State(Cells),
    Cycle,
}

/// Call `emit` with every outcome of adding the step's vertex to `cells`: each set of at most two
/// of its earlier edges that keeps every degree at most 2, closes no cycle early, fills every
/// leaving vertex and leaves every other one enough edges to come.
fn for_each_successor(
    cells: &Cells,
    step: &Step,
    k: u8,
    last: bool,
    mut emit: impl FnMut(Outcome) -> Result<(), SymmetricError>,
) -> Result<(), SymmetricError> {
    let mut grown = *cells;
    grown.label[step.before] = EMPTY;
    grown.pot[step.before] = 0;
    grown.len = step.before + 1;
    let e = step.edges.len();
    // the empty set, each single edge, each pair
    let choices = std::iter::once((None, None))
        .chain((0..e).map(|i| (Some(i), None)))
        .chain((0..e).flat_map(|i| (i + 1..e).map(move |j| (Some(i), Some(j)))));
    for (first, second) in choices {
        let mut c = grown;
        let mut cycle = None;
        let mut alive = true;
        for (n, i) in [first, second].into_iter().flatten().enumerate() {
            let (p, twist) = step.edges[i];
            match join(&mut c, p, step.before, twist, k, FRESH[n]) {
                Join::Merged => {}
                Join::Cycle(t) if last && cycle.is_none() => cycle = Some(t),
                _ => alive = false,
            }
        }
        if alive {
            if let Some(outcome) = finish(c, step, k, cycle) {
                emit(outcome)?;
            }
        }
    }
    Ok(())
}

/// What an edge did.
enum Join {
    /// Two pieces became one.
    Merged,
    /// The two ends of one piece were joined: a cycle of this net twist.
    Cycle(u8),
    /// A vertex would have had three edges.
    Dead,
}

/// Take the edge from cell `a` to cell `b` whose twist from `a` to `b` is `t`; a new piece is
/// labelled `fresh`.
fn join(c: &mut Cells, a: usize, b: usize, t: u8, k: u8, fresh: u8) -> Join {
    if c.label[a] == FULL || c.label[b] == FULL {
        return Join::Dead;
    }
    let (pa, pb) = (c.partner(a), c.partner(b));
    if pa == b {
        // the path from a to b, then the edge back from b to a
        let twist = (c.pot[b] + 2 * k - c.pot[a] - t) % k;
        c.label[a] = FULL;
        c.label[b] = FULL;
        return Join::Cycle(twist);
    }
    // the new piece runs pa -> a -> b -> pb
    let twist = (c.pot[a] + k - c.pot[pa] + t + c.pot[pb] + k - c.pot[b]) % k;
    c.label[pa] = fresh;
    c.label[pb] = fresh;
    c.pot[pa] = 0;
    c.pot[pb] = twist;
    if a != pa {
        c.label[a] = FULL;
    }
    if b != pb {
        c.label[b] = FULL;
    }
    Join::Merged
}

/// The step's end: leaving vertices must be full and leave; at the last vertex a cycle with a
/// generating twist that leaves everything full is counted; otherwise the state is kept when every
/// vertex can still reach degree 2.
fn finish(mut c: Cells, step: &Step, k: u8, cycle: Option<u8>) -> Option<Outcome> {
    for &p in step.leaving.iter().rev() {
        if c.label[p] != FULL {
            return None;
        }
        c.remove(p);
    }
    if let Some(twist) = cycle {
        return (c.len == 0 && generates(twist, k)).then_some(Outcome::Cycle);
    }
    for (p, &to_come) in step.to_come.iter().enumerate() {
        let need = match c.label[p] {
            EMPTY => 2,
            FULL => 0,
            _ => 1,
        };
        if need > to_come {
            return None;
        }
    }
    c.normalize(k);
    Some(Outcome::State(c))
}

/// Whether `t` generates `Z/k` (`gcd(t, k) = 1`; every `t` for `k = 1`): a cycle of the quotient
/// with that twist lifts to a single cycle through every square.
fn generates(t: u8, k: u8) -> bool {
    let (mut a, mut b) = (t, k);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a == 1
}
