//! The explicit-stack depth-first search behind `backtrack`, `naive` and the exhaustive enumerations.
//! Each stack frame holds the labels of the candidate moves still to try (12 to 16 bytes per square of depth),
//! never a recursion, so a 1000x1000 search leaves the thread's call stack alone.
//!
//! Fixed-order Warnsdorff rules (`first`, `order:*`), the distance rules (`roth`,
//! `roth-original`, `center`, whose key depends only on where a candidate lies, so that each square
//! has one fixed preference order of its eight moves: its *class*), `pohl` (whose ties are
//! resolved when popped), `random` (whose keys are drawn when a node is pushed, exactly as the
//! sorting loop draws them) and `squirrel` (one fixed order per stage; a frame keeps the stage at its
//! square) take a faster twin of the same loop, [`search_ordered`]: making a square
//! also builds its *candidate mask*
//! ([`SearchState::make_ordered`]), one bit per free neighbour at `8 * degree + scan position`, so the
//! candidates in order are the mask's set bits from the lowest, popped lazily, and a frame is the mask
//! still to try, its square and the order of its ties where a rule keeps one (16 bytes). The stranded-square prune is the mask's low byte (degree
//! 0), and the closed-tour test reads one byte: the start's sentinel, lowered by one for every
//! neighbour visited after it, says how many of its neighbours are still free. Both loops visit the
//! same nodes in the same order (pinned by `tests/backtrack_nodes.rs`, and the twin test below).
//!
//! ADVICE FOR HACKERS: a frame belongs to the square on top of the path; `stage` is the tie-breaker's
//! state *before* the knight arrived on that square, restored when the square is left. A frame is pushed
//! only after its square is made, and popped just before its square is unmade; keep the two stacks
//! (frames here, path in the state) in step.

use super::rules::{pohl_sum, preference_classes, DistanceTarget, LabelOrder, SquirrelPlan};
use super::{Observer, Stats, TieBreaker};
use crate::board::{Board, BORDER};
use crate::search::{LaneOffsets, SearchState, MAX_DEGREE};

/// Candidates of one square on the path.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame {
    labels: [u8; 8],
    len: u8,
    next: u8,
    stage: u8,
}

/// Candidates of one square on the path, for [`search_ordered`]: the candidate mask still to try,
/// the square, and what [`Lanes::order`] kept for its ties. Packed to 16 bytes (the memory estimate
/// counts 16 per square).
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
pub(crate) struct MaskFrame {
    mask: u64,
    head: u32,
    order: u32,
}

/// The DFS stacks, reused across runs: one per loop; and the lane orders of the last distance rule.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stack {
    frames: Vec<Frame>,
    masks: Vec<MaskFrame>,
    classes: Option<ClassLanes>,
}

/// Where [`search_ordered`] finds the lane order of a head square, and which candidate of a mask
/// comes next.
trait Lanes {
    /// The lane order of `head`, whose frame keeps `kept` ([`Lanes::order`]; for `squirrel`, the
    /// stage the knight is in there).
    fn at(&self, head: usize, kept: u32) -> &LaneOffsets;

    /// The knight arrives on `q` (the frame of `q` is not pushed yet): a rule whose order changes
    /// along the path (`squirrel`) moves `rule` on and returns what `q`'s order then depends on,
    /// the `kept` of [`Lanes::at`]. Nothing for the other rules.
    #[inline(always)]
    fn arrive(&self, _rule: &mut TieBreaker, _q: usize) -> u32 {
        0
    }

    /// The knight leaves a square back to the one whose frame keeps `kept`: undo [`Lanes::arrive`].
    #[inline(always)]
    fn leave(&self, _rule: &mut TieBreaker, _kept: u32) {}

    /// What the frame of `head` keeps for [`Lanes::pick`], computed when the frame is pushed (the
    /// node survived its prunes), from its full `mask`: nothing for most rules.
    #[inline(always)]
    fn order(&self, _rule: &mut TieBreaker, _state: &SearchState, _head: usize, _mask: u64) -> u32 {
        0
    }

    /// The bit of the next candidate to try among the non-empty `mask` of `head` (the state is the
    /// one right after `head` was made, as every later move has been undone; `order` is what
    /// [`Lanes::order`] kept): the lowest, i.e. least degree, then lane order.
    #[inline(always)]
    fn pick(&self, _state: &SearchState, _head: usize, mask: u64, _order: u32) -> u32 {
        mask.trailing_zeros()
    }
}

/// `random`: label order in lanes, and among candidates of equal least degree the order of keys
/// drawn when the node is pushed, then lane order. The draws are the sorting loop's exactly (one
/// key per candidate, in label order, at the nodes where two candidates share a degree), so both
/// loops give the same search for a seed; the frame keeps each tied lane's rank by (key, lane) among
/// the lanes of its degree, 3 bits a lane.
struct RandomLanes(LaneOffsets);

impl Lanes for RandomLanes {
    #[inline(always)]
    fn at(&self, _: usize, _: u32) -> &LaneOffsets {
        &self.0
    }

    #[inline(always)]
    fn order(&self, rule: &mut TieBreaker, state: &SearchState, head: usize, mask: u64) -> u32 {
        // two candidates share a degree when some byte has two bits: more bits than bytes in use
        let bytes_in_use = 8 - zero_bytes(mask).count_ones();
        if mask.count_ones() <= bytes_in_use {
            return 0;
        }
        random_ranks(&self.0, rule, state, head, mask)
    }

    #[inline(always)]
    fn pick(&self, _: &SearchState, _: usize, mask: u64, order: u32) -> u32 {
        lowest_unless_tied(mask, |base, byte| {
            base + least_lane(byte, |lane| order >> (3 * lane) & 7)
        })
    }
}

/// The bit to try next in the non-empty `mask`: the lowest (least degree, then lane order), unless
/// the least degree is shared, when `tie(base, byte)` picks among its lanes (`byte`: the lanes of
/// that degree, at bit `base` of the mask).
#[inline(always)]
fn lowest_unless_tied(mask: u64, tie: impl FnOnce(u32, u64) -> u32) -> u32 {
    let tz = mask.trailing_zeros();
    let byte = (mask >> (tz & !7)) & 0xFF;
    if byte & (byte - 1) == 0 {
        tz
    } else {
        tie(tz & !7, byte)
    }
}

/// The lane of `byte` with the least `key`, the lowest lane among equal keys.
#[inline(always)]
fn least_lane(byte: u64, key: impl Fn(u32) -> u32) -> u32 {
    let (mut best, mut best_key) = (0, u32::MAX);
    let mut rest = byte;
    while rest != 0 {
        let lane = rest.trailing_zeros();
        rest &= rest - 1;
        let k = key(lane);
        if k < best_key {
            (best, best_key) = (lane, k);
        }
    }
    best
}

/// Draw a key for each candidate of `mask` in lane (label) order, as [`candidates`] does, and return
/// the rank by (key, lane) of each lane among the lanes of its own degree, 3 bits a lane (only ties
/// are ever ranked: a lane alone in its degree is picked without looking).
#[inline(never)]
fn random_ranks(
    lanes: &LaneOffsets,
    rule: &mut TieBreaker,
    state: &SearchState,
    head: usize,
    mask: u64,
) -> u32 {
    // the lanes present in any byte
    let mut present = mask;
    present |= present >> 32;
    present |= present >> 16;
    present |= present >> 8;
    let mut keys = [0u64; 8];
    let mut rest = present & 0xFF;
    while rest != 0 {
        let lane = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let q = head.wrapping_add_signed(lanes.offset(lane));
        // the sorting loop's key, with the lane below it so that equal keys keep lane order
        let key = rule.secondary_key(state, q);
        debug_assert!((0..1 << 32).contains(&key));
        keys[lane] = (key as u64) << 3 | lane as u64;
    }
    let mut order = 0;
    let mut bytes = mask;
    while bytes != 0 {
        let byte = (bytes & 0xFF) as u32;
        bytes >>= 8;
        if byte & byte.wrapping_sub(1) == 0 {
            continue; // no tie in this degree
        }
        let mut rest = byte;
        while rest != 0 {
            let lane = rest.trailing_zeros();
            rest &= rest - 1;
            let mut rank = 0;
            let mut others = byte;
            while others != 0 {
                let other = others.trailing_zeros();
                others &= others - 1;
                rank += u32::from(keys[other as usize] < keys[lane as usize]);
            }
            order |= rank << (3 * lane);
        }
    }
    order
}

/// `pohl`: label order in lanes, and among candidates of equal least degree the smallest Pohl sum
/// first (then lane order). The sums are computed when a tie is popped, not when the node is made:
/// nodes cut off early never pay for them, and a frame stays a mask. The state is the same each
/// time a node's tie is popped, so the sums are too.
struct PohlLanes(LaneOffsets);

impl Lanes for PohlLanes {
    #[inline(always)]
    fn at(&self, _: usize, _: u32) -> &LaneOffsets {
        &self.0
    }

    #[inline(always)]
    fn pick(&self, state: &SearchState, head: usize, mask: u64, _: u32) -> u32 {
        lowest_unless_tied(mask, |base, byte| {
            pohl_pick(&self.0, state, head, base, byte)
        })
    }
}

/// The bit among the tied `byte` (at bit `base` of the mask) whose candidate has the smallest Pohl sum.
#[inline(never)]
fn pohl_pick(lanes: &LaneOffsets, state: &SearchState, head: usize, base: u32, byte: u64) -> u32 {
    base + least_lane(byte, |lane| {
        pohl_sum(state, head.wrapping_add_signed(lanes.offset(lane as usize)))
    })
}

/// One lane order for the whole run (`first`, `order:*`).
struct FixedLanes(LaneOffsets);

impl Lanes for FixedLanes {
    #[inline(always)]
    fn at(&self, _: usize, _: u32) -> &LaneOffsets {
        &self.0
    }
}

/// `squirrel`: the lane order of the ordering in force, which switches when the knight stands on a
/// switch square; a frame keeps the stage at its square, so leaving a square restores the stage of
/// the one below it (in the rule too, which reports the orderings used). Eight slots (a plan has at
/// most six stages; the last one repeats) so that a stage indexes them without a bounds check.
struct SquirrelLanes([LaneOffsets; 8]);

impl SquirrelLanes {
    fn new(state: &SearchState, plan: &SquirrelPlan) -> Self {
        let last = plan.stages() - 1;
        SquirrelLanes(std::array::from_fn(|stage| {
            state.lane_offsets(plan.ordering_at((stage as u8).min(last)).labels())
        }))
    }
}

impl Lanes for SquirrelLanes {
    #[inline(always)]
    fn at(&self, _: usize, stage: u32) -> &LaneOffsets {
        &self.0[stage as usize & 7]
    }

    #[inline(always)]
    fn arrive(&self, rule: &mut TieBreaker, q: usize) -> u32 {
        rule.arrive(q);
        u32::from(rule.stage())
    }

    #[inline(always)]
    fn leave(&self, rule: &mut TieBreaker, stage: u32) {
        rule.restore_stage(stage as u8);
    }

    #[inline(always)]
    fn order(&self, rule: &mut TieBreaker, _: &SearchState, _: usize, _: u64) -> u32 {
        u32::from(rule.stage())
    }
}

/// A distance rule's lane order per square: `lanes[class[head]]`. Built once per board and rule and
/// kept in the [`Stack`] (the 8x8 all-starts benchmark runs a few hundred nodes per search).
#[derive(Clone, Debug)]
struct ClassLanes {
    key: (Board, DistanceTarget, LabelOrder),
    class: Vec<u8>,
    lanes: Vec<LaneOffsets>,
}

impl Lanes for ClassLanes {
    #[inline(always)]
    fn at(&self, head: usize, _: u32) -> &LaneOffsets {
        &self.lanes[self.class[head] as usize]
    }
}

/// The cached [`ClassLanes`] for `state`'s board and this target, built if needed.
fn class_lanes<'a>(
    cache: &'a mut Option<ClassLanes>,
    state: &SearchState,
    target: DistanceTarget,
    scan: LabelOrder,
) -> Option<&'a ClassLanes> {
    let key = (state.board(), target, scan);
    if !matches!(cache, Some(c) if c.key == key) {
        let (class, orders) = preference_classes(state.layout(), target, scan)?;
        let lanes = orders.iter().map(|o| state.lane_offsets(o)).collect();
        *cache = Some(ClassLanes { key, class, lanes });
    }
    cache.as_ref()
}

/// In which order a node's candidates are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CandidateOrder {
    /// Label order 1..8, all free neighbours (brute force).
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
    pub closed: bool,
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

#[inline]
fn is_neighbour(state: &SearchState, a: usize, b: usize) -> bool {
    state
        .layout()
        .offsets()
        .iter()
        .any(|&o| a.wrapping_add_signed(o) == b)
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

fn candidates(
    state: &SearchState,
    rule: &mut TieBreaker,
    order: CandidateOrder,
    head: usize,
    stats: &mut Stats,
) -> Frame {
    let mut f = Frame {
        stage: 0,
        ..Frame::default()
    };
    let offsets = state.layout().offsets();
    let degrees = state.neighbour_degrees(head);
    match order {
        CandidateOrder::Label => {
            for k in 0..8u8 {
                if degrees[k as usize] <= MAX_DEGREE {
                    f.labels[f.len as usize] = k;
                    f.len += 1;
                }
            }
        }
        CandidateOrder::Warnsdorff => {
            // One packed key per candidate, so that ordering is a sort of plain integers:
            // degree (bits 56..60), the rule's secondary key biased into 48 bits (8..56), position
            // in scan order (3..6), label (0..3). Same order as sorting (degree, key, position).
            let mut keys = [0u64; 8];
            let mut n = 0;
            let mut seen_degrees = 0u16;
            let mut shared = false;
            for (pos, &k) in rule.scan_order().iter().enumerate() {
                let d = degrees[k as usize];
                if d <= MAX_DEGREE {
                    shared |= seen_degrees & (1 << d) != 0;
                    seen_degrees |= 1 << d;
                    keys[n] = u64::from(d) << 56 | (pos as u64) << 3 | u64::from(k);
                    n += 1;
                }
            }
            if shared && rule.has_secondary() {
                for key in &mut keys[..n] {
                    let q = (head as isize + offsets[(*key & 7) as usize]) as usize;
                    let secondary = rule.secondary_key(state, q);
                    // Distances (doubled coordinates, sides <= 65,535) stay below 2^36, Pohl sums
                    // below 2^7, random keys below 2^32: all fit the 48-bit field once biased.
                    debug_assert!(secondary.unsigned_abs() < 1 << 46);
                    let biased = (secondary + (1 << 47)) as u64 & ((1 << 48) - 1);
                    *key |= biased << 8;
                }
            }
            // insertion sort: at most 8 items
            for i in 1..n {
                let mut j = i;
                let key = keys[i];
                while j > 0 && key < keys[j - 1] {
                    keys[j] = keys[j - 1];
                    j -= 1;
                }
                keys[j] = key;
            }
            if n > 1 && keys[0] >> 56 == keys[1] >> 56 {
                stats.ties += 1;
            }
            for (slot, key) in f.labels.iter_mut().zip(&keys[..n]) {
                *slot = (*key & 7) as u8;
            }
            f.len = n as u8;
        }
    }
    f
}

/// Depth-first search from padded square `start` on a freshly reset `state`. Calls `on_tour` for every
/// tour met (closed ones only when `cfg.closed`).
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
    // The mask loop, with the lane order (and tie rule) of each family that has one.
    macro_rules! ordered {
        ($lanes:expr) => {
            return search_ordered(
                state,
                &mut stack.masks,
                $lanes,
                rule,
                start,
                cfg,
                stats,
                obs,
                on_tour,
            )
        };
    }
    if cfg.order == CandidateOrder::Warnsdorff {
        if rule.is_fixed_order() {
            ordered!(&FixedLanes(state.lane_offsets(rule.scan_order())));
        }
        if rule.is_pohl() {
            ordered!(&PohlLanes(state.lane_offsets(rule.scan_order())));
        }
        if rule.is_random() {
            ordered!(&RandomLanes(state.lane_offsets(rule.scan_order())));
        }
        if let Some(plan) = rule.squirrel_plan() {
            ordered!(&SquirrelLanes::new(state, plan));
        }
        if let Some((target, scan)) = rule.distance() {
            if let Some(lanes) = class_lanes(&mut stack.classes, state, target, scan) {
                ordered!(lanes);
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

/// The general loop: candidates collected, keyed and sorted at every node (any rule, any order).
#[allow(clippy::too_many_arguments)]
fn search_sorted<O: Observer>(
    state: &mut SearchState,
    frames: &mut Vec<Frame>,
    rule: &mut TieBreaker,
    start: usize,
    cfg: Config,
    stats: &mut Stats,
    obs: &mut O,
    mut on_tour: impl FnMut(&SearchState) -> Flow,
) -> End {
    let squares = state.board().len() as usize;
    frames.clear();
    state.make(start);
    rule.arrive(start);
    stats.nodes += 1;
    if squares == 1 {
        // The trivial tour; a closed tour needs at least a cycle, which 1x1 does not have.
        if !cfg.closed && on_tour(state) == Flow::Stop {
            return End::Stopped;
        }
        return End::Exhausted;
    }
    let mut first = candidates(state, rule, cfg.order, start, stats);
    first.stage = 0;
    frames.push(first);
    while let Some(top) = frames.last_mut() {
        if top.next < top.len {
            let k = top.labels[top.next as usize];
            top.next += 1;
            if cfg.budget != 0 && stats.nodes >= cfg.budget {
                return End::Budget;
            }
            let head = state.head();
            let q = state.layout().step(head, k as usize);
            let stage = rule.stage();
            obs.on_move(state, head, q);
            state.make(q);
            rule.arrive(q);
            stats.nodes += 1;
            let remaining = squares - state.depth();
            let dead = if remaining == 0 {
                if (!cfg.closed || is_neighbour(state, q, start)) && on_tour(state) == Flow::Stop {
                    return End::Stopped;
                }
                true
            } else {
                // A free square with no free neighbour can only be entered last, from the head.
                (cfg.prune_stranded
                    && remaining > 1
                    && has_stranded_neighbour(state, q))
                    // A closed tour must return to the start through one of its free neighbours.
                    || (cfg.closed && !has_free_neighbour(state, start))
            };
            if dead {
                state.unmake();
                rule.restore_stage(stage);
                stats.backtracks += 1;
                obs.on_undo(state, q);
                continue;
            }
            let mut f = candidates(state, rule, cfg.order, q, stats);
            f.stage = stage;
            frames.push(f);
        } else {
            let stage = top.stage;
            frames.pop();
            if frames.is_empty() {
                return End::Exhausted;
            }
            let q = state.unmake();
            rule.restore_stage(stage);
            stats.backtracks += 1;
            obs.on_undo(state, q);
        }
    }
    End::Exhausted
}

/// Count a tie when the least degree among the candidates of `mask` is shared (the lowest non-empty
/// byte has two bits or more), as [`candidates`] does.
#[inline(always)]
fn count_tie(mask: u64, stats: &mut Stats) {
    // An empty mask has 64 trailing zeros, 64 & 0x38 = 0: byte 0, no tie.
    let byte = (mask >> (mask.trailing_zeros() & 0x38)) & 0xFF;
    stats.ties += u64::from(byte & byte.wrapping_sub(1) != 0);
}

/// [`search_sorted`] with Warnsdorff ordering for a rule whose order at each square is a fixed lane
/// order (`lanes`), on candidate masks: same nodes, same order, same counters (see the module docs).
#[allow(clippy::too_many_arguments)]
fn search_ordered<O: Observer>(
    state: &mut SearchState,
    frames: &mut Vec<MaskFrame>,
    lanes: &impl Lanes,
    rule: &mut TieBreaker,
    start: usize,
    cfg: Config,
    stats: &mut Stats,
    obs: &mut O,
    mut on_tour: impl FnMut(&SearchState) -> Flow,
) -> End {
    debug_assert!(cfg.order == CandidateOrder::Warnsdorff && rule.stage() == 0);
    let squares = state.board().len() as usize;
    frames.clear();
    // the only rule that acts on arriving, `squirrel`, does so through its lanes
    let kept = lanes.arrive(rule, start);
    let mask = state.make_ordered(start, lanes.at(start, kept));
    stats.nodes += 1;
    if squares == 1 {
        if !cfg.closed && on_tour(state) == Flow::Stop {
            return End::Stopped;
        }
        return End::Exhausted;
    }
    // The start's byte is BORDER less one per neighbour visited after it: when it reaches
    // BORDER - (its degree when made), no neighbour is left to close the tour through. Open tours
    // never test it (0 is below every sentinel).
    let start_cut_off = if cfg.closed {
        BORDER - mask.count_ones() as u8
    } else {
        0
    };
    count_tie(mask, stats);
    let order = lanes.order(rule, state, start, mask);
    frames.push(MaskFrame {
        mask,
        head: start as u32,
        order,
    });
    while let Some(top) = frames.last_mut() {
        let mask = top.mask;
        if mask != 0 {
            let (head, kept) = (top.head as usize, top.order);
            let bit = lanes.pick(state, head, mask, kept);
            top.mask = mask & !(1 << bit);
            if cfg.budget != 0 && stats.nodes >= cfg.budget {
                return End::Budget;
            }
            let q = head.wrapping_add_signed(lanes.at(head, kept).offset(bit as usize));
            obs.on_move(state, head, q);
            let arrived = lanes.arrive(rule, q);
            let next = state.make_ordered(q, lanes.at(q, arrived));
            stats.nodes += 1;
            let remaining = squares - state.depth();
            let dead = if remaining == 0 {
                if (!cfg.closed || is_neighbour(state, q, start)) && on_tour(state) == Flow::Stop {
                    return End::Stopped;
                }
                true
            } else {
                let start_dead = state.degree(start) == start_cut_off;
                debug_assert_eq!(
                    start_dead,
                    cfg.closed && !has_free_neighbour(state, start),
                    "start sentinel out of step"
                );
                (cfg.prune_stranded && remaining > 1 && next & 0xFF != 0) || start_dead
            };
            if dead {
                state.unmake();
                lanes.leave(rule, kept);
                stats.backtracks += 1;
                obs.on_undo(state, q);
                continue;
            }
            count_tie(next, stats);
            let order = lanes.order(rule, state, q, next);
            frames.push(MaskFrame {
                mask: next,
                head: q as u32,
                order,
            });
        } else {
            frames.pop();
            let Some(below) = frames.last() else {
                return End::Exhausted;
            };
            let kept = below.order;
            let q = state.unmake();
            lanes.leave(rule, kept);
            stats.backtracks += 1;
            obs.on_undo(state, q);
        }
    }
    End::Exhausted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Square};
    use crate::solve::{NoObserver, Rule};

    type Ends = (End, Stats, Vec<u32>, Option<Vec<String>>);

    /// Both loops from `start` to the first tour (or a budget of 3000 nodes): the end, the
    /// counters, the path and the orderings used.
    fn both_loops(board: Board, start: Square, rule: Rule, closed: bool) -> [Ends; 2] {
        both_loops_within(board, start, rule, closed, 3000)
    }

    fn both_loops_within(
        board: Board,
        start: Square,
        rule: Rule,
        closed: bool,
        budget: u64,
    ) -> [Ends; 2] {
        let cfg = Config {
            order: CandidateOrder::Warnsdorff,
            prune_stranded: true,
            closed,
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
                    for closed in [false, true] {
                        let [slow, fast] = both_loops(board, start, rule, closed);
                        assert_eq!(slow, fast, "{board} {start:?} {rule} closed={closed}");
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
            for closed in [false, true] {
                for budget in [100, 3000, 100_000] {
                    let [slow, fast] =
                        both_loops_within(board, Square::new(0, 0), squirrel, closed, budget);
                    assert_eq!(slow, fast, "{board} closed={closed} budget={budget}");
                    switched_back += usize::from(slow.1.backtracks > 0);
                }
            }
        }
        assert!(switched_back > 10, "too few searches backtracked");
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
