//! The exact tree walk: pure Warnsdorff from one start with every tie of a random final followed
//! down each of its branches (`docs/REFERENCE.md`, sections 3-4), adding up the probability of every
//! way the walk ends: a dead end after `L` squares, a tour that does not close, a closed tour. A
//! random rule is a finite tree of tie choices; a tie whose final draws one of `out_of` equally
//! likely draws splits into the candidates those draws give ([`TieBreaker::odds`], which reads the
//! same definition as [`TieBreaker::choose`]). Keys narrow a tie before the final, as in a run.
//!
//! The walk uses the solvers' incremental state ([`SearchState`], make/unmake in O(8)) and an
//! explicit stack of branching nodes, each holding its outcome distribution so far in a row of one
//! preallocated table: nothing is allocated per node. A node's distribution is a numerator per
//! outcome over a common [`Scale`] (`number.rs`). Identical sub-states are merged (`memo.rs`).

use super::memo::{Entry, Memo, StateKey};
use super::number::{Numer, Overflow, Scale};
use super::shuffle::{Orderings, ORDERINGS};
use crate::board::{Board, Square};
use crate::solve::rules::{Chain, Final, LabelOrder};
use crate::solve::{Closing, Rule, RuleError, TieBreaker};
use crate::state::{SearchState, MAX_DEGREE};

/// What to walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The board.
    pub board: Board,
    /// The start square.
    pub start: Square,
    /// The rule, random parts and all.
    pub rule: Rule,
    /// How a closed walk closes (only `StartLast` changes the walk).
    pub closing: Closing,
    /// Most merged states kept per walk (0: no merging).
    pub memo_limit: usize,
}

/// Counters of a walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Squares entered (make calls), starts and replayed prefixes included.
    pub nodes: u64,
    /// Ends of the walk reached: dead ends and covered boards.
    pub leaves: u64,
    /// Nodes where the final split the walk (counted before a merge).
    pub branchings: u64,
    /// Branching nodes found already walked and merged.
    pub merged: u64,
    /// States stored for merging.
    pub stored: u64,
}

impl WalkStats {
    /// Add another walk's counters.
    pub fn add(&mut self, o: &WalkStats) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.branchings += o.branchings;
        self.merged += o.merged;
        self.stored += o.stored;
    }
}

/// The outcomes of a walk: `L` in `1..squares` for a dead end after `L` squares,
/// [`Outcomes::open`] for a walk that covers the board without closing, [`Outcomes::closed`] for a
/// closed tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcomes {
    squares: usize,
}

impl Outcomes {
    /// The outcomes on a board of `squares` squares.
    pub fn new(squares: usize) -> Self {
        Outcomes { squares }
    }
    /// How many outcome indexes there are (`0` is never used: a walk has its start).
    pub fn len(self) -> usize {
        self.squares + 2
    }
    /// Never: there is always an outcome.
    pub fn is_empty(self) -> bool {
        false
    }
    /// A tour whose ends are not a knight move apart.
    pub fn open(self) -> usize {
        self.squares
    }
    /// A closed tour.
    pub fn closed(self) -> usize {
        self.squares + 1
    }
}

/// A walk's result: a numerator per outcome over `scale`, the outcomes of probability 0 left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value<N> {
    /// The denominator.
    pub scale: Scale,
    /// (outcome, numerator), each outcome at most once.
    pub parts: Vec<(u16, N)>,
}

/// One step of the walk from a node.
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    /// The walk ends here, with this outcome.
    End(u16),
    /// One move (padded square): the only candidate left, or the only branch of a tie that any
    /// draw (or any ordering still in the walk's part, for `shuffle`) takes.
    Forced(usize),
    /// A tie the final splits: `n` moves, each with its draws out of `out_of` (or its part of the
    /// orderings, for `shuffle`).
    Split(Split),
}

/// The branches of a tie.
#[derive(Clone, Copy, Debug)]
pub(super) struct Split {
    pub n: u8,
    pub moves: [u32; 8],
    pub draws: [u8; 8],
    pub out_of: u8,
    pub parts: [(u32, u32); 8],
}

/// A branching node on the stack.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Squares on the path at the node.
    depth: u32,
    split: Split,
    /// The next branch to walk.
    next: u8,
    /// The rule's stage at the node (squirrel).
    stage: u8,
    /// The node's state, when it is to be stored for merging.
    key: Option<StateKey>,
    /// The denominator of the node's distribution so far.
    scale: Scale,
    /// Outcomes in the node's row so far.
    present: u16,
}

/// What a finished part of the walk hands up to the node above it.
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// An end: outcome and mass (1, or the orderings that reach it).
    End(u16, u64),
    /// A merged state's stored distribution.
    Merged(Entry),
    /// The distribution of the branching node that was frame `row`: its denominator and how many
    /// outcomes its row holds.
    Row {
        row: usize,
        scale: Scale,
        present: u16,
    },
}

/// A walker for one board, start and rule, reused across the tasks of that start.
pub(super) struct Walker<N: Numer> {
    spec: Walk,
    state: SearchState,
    tb: TieBreaker,
    /// For `shuffle`: the orderings, and the part the walk is in.
    orderings: Option<Orderings>,
    part: (u32, u32),
    squares: usize,
    outcomes: Outcomes,
    start: usize,
    /// Row-major index of each padded square (for the merge keys), when merging.
    bit: Vec<u8>,
    set: u128,
    frames: Vec<Frame>,
    /// Row `i` (outcomes.len() numerators) holds frame `i`'s distribution so far; zero = absent.
    rows: Vec<N>,
    /// Row `i`'s outcomes present, in the order added.
    present: Vec<u16>,
    memo: Option<Memo<N>>,
    /// Counters so far.
    pub stats: WalkStats,
}

/// The tie-breaker that decides a walk's ties: the rule's own, except that `shuffle` decides by
/// the orderings the walk carries, so its keys come with label order (any fixed order would do:
/// keys keep a set).
fn tie_breaker(spec: &Walk, layout: &crate::board::Layout) -> Result<TieBreaker, RuleError> {
    let rule = match spec.rule {
        Rule::Chain(Chain {
            keys,
            last: Final::Shuffle,
        }) => Rule::Chain(Chain {
            keys,
            last: Final::Order(LabelOrder::IDENTITY),
        }),
        r => r,
    };
    TieBreaker::new(rule, layout, spec.start, 0)
}

/// Whether the rule's final is `shuffle`.
pub(super) fn is_shuffle(rule: Rule) -> bool {
    matches!(rule, Rule::Chain(c) if c.last == Final::Shuffle)
}

impl<N: Numer> Walker<N> {
    /// A walker for `spec`. Fails if the rule does not apply (squirrel off its domain) or the start
    /// is off the board.
    pub fn new(spec: Walk) -> Result<Self, RuleError> {
        let state = SearchState::new(spec.board);
        let tb = tie_breaker(&spec, state.layout())?;
        let squares = spec.board.len() as usize;
        let outcomes = Outcomes::new(squares);
        let shuffle = is_shuffle(spec.rule);
        let merge = spec.memo_limit > 0 && !shuffle && squares <= 128;
        let mut bit = Vec::new();
        if merge {
            bit = vec![0u8; state.layout().len()];
            for sq in spec.board.squares() {
                bit[state.layout().pad(sq)] = spec.board.index(sq) as u8;
            }
        }
        let start = state.layout().pad(spec.start);
        Ok(Walker {
            spec,
            tb,
            orderings: shuffle.then(Orderings::default),
            part: (0, ORDERINGS as u32),
            squares,
            outcomes,
            start,
            bit,
            set: 0,
            frames: Vec::with_capacity(squares + 1),
            rows: vec![N::default(); (squares + 1) * outcomes.len()],
            present: vec![0; (squares + 1) * outcomes.len()],
            memo: merge.then(|| Memo::new(spec.memo_limit)),
            stats: WalkStats::default(),
            state,
        })
    }

    /// Walk from `start` from now on (the merged states, which belong to one start, are
    /// forgotten). Fails if the rule does not apply from there (squirrel).
    pub fn set_start(&mut self, start: Square) -> Result<(), RuleError> {
        if start != self.spec.start {
            let spec = Walk { start, ..self.spec };
            self.tb = tie_breaker(&spec, self.state.layout())?;
            self.spec = spec;
            self.start = self.state.layout().pad(start);
            if let Some(m) = &mut self.memo {
                m.clear();
            }
        }
        Ok(())
    }

    /// Enter padded square `p`.
    #[inline]
    fn make(&mut self, p: usize) {
        self.state.make(p);
        self.tb.arrive(p);
        if !self.bit.is_empty() {
            self.set |= 1u128 << self.bit[p];
        }
        self.stats.nodes += 1;
    }

    /// Leave the last square.
    #[inline]
    fn unmake(&mut self) {
        let p = self.state.unmake();
        if !self.bit.is_empty() {
            self.set &= !(1u128 << self.bit[p]);
        }
    }

    /// Put the walk at the start, then along `prefix` (padded squares).
    pub fn reset(&mut self, prefix: &[usize]) {
        self.state.reset(self.spec.board);
        self.tb = tie_breaker(&self.spec, self.state.layout()).expect("checked in new");
        self.set = 0;
        self.part = (0, ORDERINGS as u32);
        self.frames.clear();
        self.make(self.start);
        if self.spec.closing == Closing::StartLast {
            self.state.count_as_free_in_degrees(self.start);
        }
        for &p in prefix {
            self.make(p);
        }
    }

    /// The step from the current node.
    pub fn step(&mut self) -> Step {
        let depth = self.state.depth();
        if depth == self.squares {
            let head = self.state.head();
            let closes = self.squares > 2 && self.state.layout().knight_apart(head, self.start);
            let o = if closes {
                self.outcomes.closed()
            } else {
                self.outcomes.open()
            };
            return Step::End(o as u16);
        }
        let head = self.state.head();
        let offsets = self.state.layout().knight_offsets();
        let mut best = u8::MAX;
        let mut tied = [(0u8, 0usize); 8];
        let mut n = 0;
        for &k in self.tb.scan_order() {
            let q = head.wrapping_add_signed(offsets[k as usize]);
            let d = self.state.degree(q);
            if d < best {
                (best, n) = (d, 0);
            }
            if d == best {
                tied[n] = (k, q);
                n += 1;
            }
        }
        if best > MAX_DEGREE {
            return Step::End(depth as u16);
        }
        if n == 1 {
            return Step::Forced(tied[0].1);
        }
        let mut keep = [0usize; 8];
        let kept = self.tb.keep_after_keys(&self.state, &tied[..n], &mut keep);
        if kept == 1 {
            return Step::Forced(tied[keep[0]].1);
        }
        let mut split = Split {
            n: 0,
            moves: [0; 8],
            draws: [0; 8],
            out_of: 1,
            parts: [(0, 0); 8],
        };
        if let Some(orderings) = &mut self.orderings {
            let mut labels = [0u8; 8];
            for j in 0..kept {
                labels[j] = tied[keep[j]].0;
            }
            let mut parts = [(0, 0); 8];
            orderings.split(self.part, &labels[..kept], &mut parts);
            for j in 0..kept {
                if parts[j].1 > parts[j].0 {
                    let i = split.n as usize;
                    split.moves[i] = tied[keep[j]].1 as u32;
                    split.draws[i] = 1;
                    split.parts[i] = parts[j];
                    split.n += 1;
                }
            }
        } else {
            let mut draws = [0u8; 8];
            split.out_of = self.tb.odds(&tied[..n], &keep[..kept], &mut draws);
            for j in 0..kept {
                if draws[j] > 0 {
                    let i = split.n as usize;
                    split.moves[i] = tied[keep[j]].1 as u32;
                    split.draws[i] = draws[j];
                    split.parts[i] = self.part;
                    split.n += 1;
                }
            }
        }
        if split.n == 1 {
            self.part = split.parts[0];
            return Step::Forced(split.moves[0] as usize);
        }
        Step::Split(split)
    }

    /// Take the one move of a [`Step::Forced`].
    pub fn forced(&mut self, q: usize) {
        self.make(q);
    }

    /// The path after the start, as padded squares (a task's prefix).
    pub fn prefix(&self) -> Vec<usize> {
        self.state.path()[1..].iter().map(|&p| p as usize).collect()
    }

    /// Take branch `i` of `split` from the node the walk is at.
    pub fn take(&mut self, split: &Split, i: usize) {
        self.part = split.parts[i];
        self.make(split.moves[i] as usize);
    }

    /// The mass of an end: 1, or the orderings that reach it (`shuffle`).
    #[inline]
    fn mass(&self) -> u64 {
        if self.orderings.is_some() {
            (self.part.1 - self.part.0) as u64
        } else {
            1
        }
    }

    /// Walk the whole subtree below the current node; its distribution, in units of the node's
    /// mass (1, or the orderings of the part it is in: `shuffle`'s values are counts of orderings).
    pub fn walk(&mut self) -> Result<Value<N>, Overflow> {
        let base = self.frames.len();
        debug_assert_eq!(base, 0);
        let mut pending;
        'descend: loop {
            // down: forced moves until an end, a merged state or a tie
            pending = loop {
                match self.step() {
                    Step::End(o) => {
                        self.stats.leaves += 1;
                        break Pending::End(o, self.mass());
                    }
                    Step::Forced(q) => self.make(q),
                    Step::Split(split) => {
                        self.stats.branchings += 1;
                        let head = self.state.head();
                        let key = self
                            .memo
                            .as_ref()
                            .map(|_| (self.set, self.bit[head] as u16));
                        if let (Some(memo), Some(key)) = (&self.memo, key) {
                            if let Some(e) = memo.get(&key) {
                                self.stats.merged += 1;
                                break Pending::Merged(e);
                            }
                        }
                        self.frames.push(Frame {
                            depth: self.state.depth() as u32,
                            split,
                            next: 1,
                            stage: self.tb.stage(),
                            key,
                            scale: Scale::default(),
                            present: 0,
                        });
                        self.take(&split, 0);
                        continue 'descend;
                    }
                }
            };
            // up: hand the finished part to the node above, then its next branch
            loop {
                let Some(top) = self.frames.len().checked_sub(1) else {
                    return Ok(self.value_of(pending));
                };
                self.absorb(top, pending)?;
                let f = self.frames[top];
                while self.state.depth() > f.depth as usize {
                    self.unmake();
                }
                self.tb.restore_stage(f.stage);
                if f.next < f.split.n {
                    self.frames[top].next += 1;
                    self.take(&f.split, f.next as usize);
                    continue 'descend;
                }
                if let (Some(memo), Some(key)) = (&mut self.memo, f.key) {
                    let width = self.outcomes.len();
                    let (row, present) = (
                        &self.rows[top * width..(top + 1) * width],
                        &self.present[top * width..top * width + f.present as usize],
                    );
                    memo.insert(
                        key,
                        f.scale,
                        present.iter().map(|&o| (o, row[o as usize].clone())),
                    );
                    self.stats.stored += 1;
                }
                self.frames.pop();
                pending = Pending::Row {
                    row: top,
                    scale: f.scale,
                    present: f.present,
                };
            }
        }
    }

    /// Add `pending`, the branch of frame `top` just walked, times its odds, to the frame's row.
    fn absorb(&mut self, top: usize, pending: Pending) -> Result<(), Overflow> {
        let width = self.outcomes.len();
        let frame = &mut self.frames[top];
        let i = frame.next as usize - 1;
        let draws = frame.split.draws[i] as u64;
        let odds = Scale::of(frame.split.out_of as u64).expect("out_of is at most 8");
        let (rows_top, rows_below) = self.rows.split_at_mut((top + 1) * width);
        let (present_top, present_below) = self.present.split_at_mut((top + 1) * width);
        let row = &mut rows_top[top * width..];
        let present = &mut present_top[top * width..];
        let mut add = |scale: Scale, o: u16, mut term: N| -> Result<(), Overflow> {
            let scale = scale.times(odds);
            term.mul(draws)?;
            if frame.present == 0 {
                frame.scale = scale;
            } else if frame.scale != scale {
                let to = frame.scale.lcm(scale);
                if to != frame.scale {
                    let up = to.over(frame.scale);
                    for &o in &present[..frame.present as usize] {
                        row[o as usize].rescale(up)?;
                    }
                    frame.scale = to;
                }
                term.rescale(to.over(scale))?;
            }
            let slot = &mut row[o as usize];
            if slot.is_zero() {
                *slot = term;
                present[frame.present as usize] = o;
                frame.present += 1;
            } else {
                slot.add(&term)?;
            }
            Ok(())
        };
        match pending {
            Pending::End(o, mass) => add(Scale::default(), o, N::from_u64(mass))?,
            Pending::Merged(e) => {
                let memo = self.memo.as_ref().expect("merging");
                for (o, v) in memo.values(e) {
                    add(e.scale, *o, v.clone())?;
                }
            }
            Pending::Row {
                row: r,
                scale,
                present: n,
            } => {
                debug_assert_eq!(r, top + 1);
                let below = &mut rows_below[..width];
                for &o in &present_below[..n as usize] {
                    // taking the value leaves the row zero for the next frame there
                    add(scale, o, std::mem::take(&mut below[o as usize]))?;
                }
            }
        }
        Ok(())
    }

    /// The distribution `pending` stands for, taken out of the walker.
    fn value_of(&mut self, pending: Pending) -> Value<N> {
        match pending {
            Pending::End(o, mass) => Value {
                scale: Scale::default(),
                parts: vec![(o, N::from_u64(mass))],
            },
            Pending::Merged(e) => Value {
                scale: e.scale,
                parts: self.memo.as_ref().expect("merging").values(e).to_vec(),
            },
            Pending::Row {
                row: r,
                scale,
                present: n,
            } => {
                let width = self.outcomes.len();
                let parts = (0..n as usize)
                    .map(|j| {
                        let o = self.present[r * width + j];
                        (o, std::mem::take(&mut self.rows[r * width + o as usize]))
                    })
                    .collect();
                Value { scale, parts }
            }
        }
    }
}
