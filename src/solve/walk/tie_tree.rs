//! The tie tree: the walks of every fixed move ordering (`first`, `order:*`; Warnsdorff's rule with
//! a fixed tie-break, as defined in `docs/REFERENCE.md`) from one start of a small board, walked
//! once each and shared.
//!
//! Under a fixed ordering the walk from a start depends on the ordering only at its real ties
//! (two or more candidates of minimum degree), and there only through which of the tied move labels
//! comes first in the ordering. Walks from one start under different orderings therefore share every
//! step up to the first tie they break differently. The tree holds, for each start walked so far,
//! those ties as nodes (the tied labels, the walk's state there) with one child per tied label, and
//! each distinct end as a leaf. A run descends from its start's root, choosing at each node the
//! child its ordering picks ([`Pick`], one table lookup), and only where that child has not been
//! walked yet does it walk on, with the small-board kernel's steps, adding nodes until its end. All
//! 40,320 orderings of 8x8 from every start have 190,608 ties and 69,464 distinct walks among 2.58
//! million runs (13.5 ties a run): a run is a descent of about 13 lookups instead of a walk of
//! about 60 steps.
//!
//! The tree is a cache, kept across batch groups of one board and shared by the solvers of a
//! sweep ([`TieTrees`]): it never decides a result. Threads grow it without a lock (see
//! [`TieTree`]), so that each distinct walk is walked once between them, where a tree each grew
//! nearly every walk once per thread. At [`MAX_ENTRIES`] the solvers take a new tree. Its twin is
//! the small-board kernel walking each run itself ([`super::small::run_lanes`]):
//! `tests/fast_paths.rs` compares the two on thousands of orderings from every start of boards up
//! to 8x8, one solver reusing its tree throughout, and the tests below compare a tree grown by two
//! threads with one grown by one.

use super::chooser::Chooser;
use super::interleave::LaneJob;
use super::small::{Lane, SmallBoard};
use super::Walk;
use crate::board::{Board, Layout};
use crossbeam_utils::CachePadded;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Most nodes and leaves a tree holds before the solvers take a new one: every ordering from every
/// start of 8x8 needs half of it (260,072).
const MAX_ENTRIES: usize = 1 << 19;

/// Nodes (and, apart, leaves) a tree has room for past its limit: the walks that threads were
/// growing when it filled. A walk that finds no room is walked to its end outside the tree.
const SLACK: usize = 1 << 14;

/// Most bytes a tree holds: a node's state (56) and its links (at most 9 of 4 bytes), or a leaf
/// (24), for each of [`MAX_ENTRIES`] and the [`SLACK`] past it.
pub(crate) const MAX_BYTES: u64 = (MAX_ENTRIES + SLACK) as u64 * (56 + 36);

/// Nodes (and leaves) a solver claims from a tree at a time ([`Claim`]).
const CLAIM: usize = 64;

/// A link to nothing yet walked (the links are zeroed when a tree is made).
const NONE: u32 = 0;
/// The tag of a link to a leaf (its index in the low bits).
const LEAF: u32 = 1 << 31;
/// What a lane holds when its walk ended outside a full tree (no leaf has this index).
const OUTSIDE: u32 = u32::MAX;
/// A link to a node holds its labels above this bit and the start of its block of links below.
const LABELS_AT: u32 = 23;
const BLOCK: u32 = (1 << LABELS_AT) - 1;
/// Descents made side by side: each is a chain of dependent loads, which the core overlaps.
const LANES: usize = 8;

// every block a full tree's nodes may take starts below `BLOCK`
const _: () = assert!((MAX_ENTRIES + SLACK) * 9 <= BLOCK as usize);
/// A fixed ordering's choice at every possible tie: for each set of tied labels (a `u8`), the
/// label that comes first in the ordering and its rank among the set's labels.
struct Pick {
    label: [u8; 256],
    rank: [u8; 256],
}

impl Pick {
    /// The choices of the ordering whose slots hold the padded offsets `offsets` (a permutation of
    /// `layout`'s, whose order is the labels').
    fn new(layout: &Layout, offsets: &[isize; 8]) -> Self {
        let mut slot = [0u8; 8];
        for (s, o) in offsets.iter().enumerate() {
            let label = layout.offsets().iter().position(|c| c == o);
            slot[label.expect("the slots are the layout's offsets")] = s as u8;
        }
        let mut pick = Pick {
            label: [0; 256],
            rank: [0; 256],
        };
        for set in 1..256usize {
            // the lowest label of the set against the winner of the rest, found before
            let low = set.trailing_zeros() as u8;
            let rest = set & (set - 1);
            let other = pick.label[rest];
            let w = if rest == 0 || slot[usize::from(low)] < slot[usize::from(other)] {
                low
            } else {
                other
            };
            pick.label[set] = w;
            pick.rank[set] = (set & ((1 << w) - 1)).count_ones() as u8;
        }
        pick
    }
}

/// A slot written once, by the thread that took it, before the link that leads to it is published.
struct Slot<T>(UnsafeCell<MaybeUninit<T>>);

/// `n` slots, not yet written (nor touched: the pages are the system's until written).
fn slots<T>(n: usize) -> Box<[Slot<T>]> {
    let mut v = Vec::with_capacity(n);
    // SAFETY: a `Slot` is an uninitialised `MaybeUninit`, which needs no initialisation
    unsafe { v.set_len(n) };
    v.into_boxed_slice()
}

/// The ties and ends of the fixed orderings' walks on one board, from every start walked so far,
/// shared by the threads of a sweep.
///
/// A node is a block of links: the node's number first, then one link a tied label, in label
/// order. A link to a node carries the node's labels and the start of its block, so a step of a
/// descent is two loads (the ordering's rank of the labels, then the link), not three.
///
/// Threads grow it without a lock. Links, nodes and leaves are claimed from counters, a batch at a
/// time ([`Claim`]), and never move;
/// a walk grown past a missing link is written in full (its nodes, their states, its leaf) before
/// one compare-and-swap publishes its first link with release ordering, and a descent loads each
/// link with acquire ordering, so whatever a published link leads to is written. Two threads that
/// grow the same missing link grow the same walk; the loser uses the winner's and its own copy is
/// never reached.
pub(crate) struct TieTree {
    board: Board,
    /// Most nodes and leaves held before the solvers take a new tree ([`MAX_ENTRIES`]; less in
    /// tests).
    limit: usize,
    /// The link from each start (by small-board square).
    roots: [AtomicU32; 64],
    links: Box<[AtomicU32]>,
    /// Each node's walk as it stood at the tie (before choosing) and its ties before this one.
    states: Box<[Slot<(Lane, u32)>]>,
    leaves: Box<[Slot<Walk>]>,
    /// Links, nodes and leaves claimed (claimed past the room only by walks that then find none),
    /// each on a cache line of its own, apart from the links that every descent reads.
    links_taken: CachePadded<AtomicUsize>,
    states_taken: CachePadded<AtomicUsize>,
    leaves_taken: CachePadded<AtomicUsize>,
}

/// The slots a solver claimed from a tree and has not used yet: threads meet at the tree's counters
/// once in [`CLAIM`] nodes, not at every node.
#[derive(Debug, Default)]
pub(crate) struct Claim {
    links: Range<usize>,
    states: Range<usize>,
    leaves: Range<usize>,
}

/// A solver's hold on a tree: the tree and what it claimed there.
#[derive(Debug, Default)]
pub(crate) struct Held {
    tree: Option<Arc<TieTree>>,
    claim: Claim,
}

impl Clone for Held {
    /// The same tree, with nothing claimed: two solvers never hand out the same slot.
    fn clone(&self) -> Self {
        Held {
            tree: self.tree.clone(),
            claim: Claim::default(),
        }
    }
}

// SAFETY: a slot is written only by the thread whose counter increment took it, before the link
// to it is published (release); it is read only through a link loaded with acquire ordering.
unsafe impl Sync for TieTree {}

impl std::fmt::Debug for TieTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TieTree")
            .field("board", &self.board)
            .field("entries", &self.entries())
            .finish_non_exhaustive()
    }
}

impl TieTree {
    fn new(board: Board, limit: usize) -> Self {
        let room = limit.min(MAX_ENTRIES) + SLACK;
        // zeroed (`NONE`) by the allocator, which maps fresh pages for an allocation this large
        let links: Box<[u32]> = vec![NONE; room * 9].into_boxed_slice();
        // SAFETY: `AtomicU32` has the size, alignment and bit validity of `u32`
        let links = unsafe { Box::from_raw(Box::into_raw(links) as *mut [AtomicU32]) };
        TieTree {
            board,
            limit,
            roots: std::array::from_fn(|_| AtomicU32::new(NONE)),
            links,
            states: slots(room),
            leaves: slots(room),
            links_taken: CachePadded::new(AtomicUsize::new(0)),
            states_taken: CachePadded::new(AtomicUsize::new(0)),
            leaves_taken: CachePadded::new(AtomicUsize::new(0)),
        }
    }

    /// Forget every walk, for walks on `board`: the links taken are zeroed, the rest still are.
    fn empty(&mut self, board: Board) {
        let used = (*self.links_taken.get_mut()).min(self.links.len());
        for link in &mut self.links[..used] {
            *link.get_mut() = NONE;
        }
        for root in &mut self.roots {
            *root.get_mut() = NONE;
        }
        *self.links_taken.get_mut() = 0;
        *self.states_taken.get_mut() = 0;
        *self.leaves_taken.get_mut() = 0;
        self.board = board;
    }

    /// The ties (nodes) and distinct ends (leaves) below the root of `start`, counted by a walk
    /// over the tree.
    #[cfg(test)]
    fn census(&self, start: u32) -> (usize, usize) {
        let mut stack = vec![self.roots[start as usize & 63].load(Ordering::Acquire)];
        let (mut ties, mut ends) = (0, 0);
        while let Some(link) = stack.pop() {
            if link == NONE {
                continue;
            }
            if link & LEAF != 0 {
                ends += 1;
                continue;
            }
            ties += 1;
            let labels = (link >> LABELS_AT) & 0xFF;
            let block = (link & BLOCK) as usize;
            let children = &self.links[block + 1..block + 1 + labels.count_ones() as usize];
            stack.extend(children.iter().map(|l| l.load(Ordering::Acquire)));
        }
        (ties, ends)
    }

    /// Nodes and leaves claimed.
    fn entries(&self) -> usize {
        self.states_taken.load(Ordering::Relaxed) + self.leaves_taken.load(Ordering::Relaxed)
    }

    /// Whether the solvers should take a new tree for this board.
    fn full(&self) -> bool {
        self.entries() > self.limit
    }

    /// The state of node `i`.
    fn state(&self, i: u32) -> (Lane, u32) {
        // SAFETY: node `i` was written before the link that led here was published (see `Sync`)
        unsafe { (*self.states[i as usize].0.get()).assume_init_read() }
    }

    /// The walk of leaf `i`.
    fn leaf(&self, i: u32) -> Walk {
        // SAFETY: as for `state`
        unsafe { (*self.leaves[i as usize].0.get()).assume_init_read() }
    }

    /// Walk `jobs` (all on `layout`'s board, which must be the tree's and fit the small-board
    /// kernel) with the fixed ordering `ch`, through the tree, growing it from the slots of `claim`
    /// (this tree's); calls `done(index, walk, run state)` as each ends, in order. The twin of
    /// [`super::small::run_lanes`] for choosers whose lowest tied slot wins.
    pub(crate) fn run_lanes<C: Chooser>(
        &self,
        claim: &mut Claim,
        layout: &Layout,
        t: &mut SmallBoard,
        ch: &C,
        jobs: impl IntoIterator<Item = (usize, LaneJob<C::Run>)>,
        mut done: impl FnMut(usize, Walk, C::Run),
    ) {
        assert!(C::SLOT_ORDER && !C::PER_RUN, "a fixed ordering");
        assert_eq!(self.board, layout.board(), "the tree's board");
        // the tree's labels are the layout's, whichever ordering walks
        t.prepare(layout, layout.offsets());
        let pick = Pick::new(layout, ch.offsets());
        let mut jobs = jobs.into_iter();
        let mut live = Vec::with_capacity(LANES);
        // the walks that ended outside a full tree, by lane
        let mut outside = [Walk::default(); LANES];
        loop {
            let mut links = [LEAF; LANES];
            for (job, j) in jobs.by_ref().take(LANES) {
                assert!(layout.is_on_board(j.start), "start off the board");
                let mut run = j.run;
                ch.arrive(&mut run, j.start);
                let lane = live.len();
                let start = u32::from(t.square[j.start]);
                links[lane] = self.root(t, claim, start, &pick, &mut outside[lane]);
                live.push((job, run));
            }
            if live.is_empty() {
                return;
            }
            // every lane one step down a round, until all stand on leaves
            loop {
                let mut down = false;
                for (link, outside) in links.iter_mut().zip(&mut outside) {
                    if *link & LEAF == 0 {
                        *link = self.down(t, claim, *link, &pick, outside);
                        down = true;
                    }
                }
                if !down {
                    break;
                }
            }
            for (lane, ((job, run), link)) in live.drain(..).zip(links).enumerate() {
                let walk = match link {
                    OUTSIDE => outside[lane],
                    _ => self.leaf(link & !LEAF),
                };
                done(job, walk, run);
            }
        }
    }

    /// The link from `start`, walked under the ordering of `pick` if it is the first.
    fn root(
        &self,
        t: &SmallBoard,
        claim: &mut Claim,
        start: u32,
        pick: &Pick,
        outside: &mut Walk,
    ) -> u32 {
        let root = &self.roots[start as usize & 63];
        match root.load(Ordering::Acquire) {
            NONE => {
                let grown = self.grow(t, claim, Lane::new(t, start), 0, pick);
                self.publish(root, grown, outside)
            }
            link => link,
        }
    }

    /// The link the ordering of `pick` takes from the node of `link`, walked if it is the first.
    #[inline(always)]
    fn down(
        &self,
        t: &SmallBoard,
        claim: &mut Claim,
        link: u32,
        pick: &Pick,
        outside: &mut Walk,
    ) -> u32 {
        let labels = ((link >> LABELS_AT) & 0xFF) as usize;
        let block = (link & BLOCK) as usize;
        let at = &self.links[block + 1 + usize::from(pick.rank[labels])];
        let next = at.load(Ordering::Acquire);
        if next != NONE {
            return next;
        }
        let (mut lane, ties) = self.state(self.links[block].load(Ordering::Relaxed));
        let label = usize::from(pick.label[labels]);
        lane.advance(t, u32::from(t.targets[lane.head as usize & 63][label]));
        let grown = self.grow(t, claim, lane, ties + 1, pick);
        self.publish(at, grown, outside)
    }

    /// Put the walk `grown` at the empty link `at`, unless another thread put the same walk there
    /// first; gives the link now there, or [`OUTSIDE`] with the walk in `outside` if it ended
    /// outside a full tree.
    #[cold]
    fn publish(&self, at: &AtomicU32, grown: Result<u32, Walk>, outside: &mut Walk) -> u32 {
        match grown {
            Ok(link) => match at.compare_exchange(NONE, link, Ordering::Release, Ordering::Acquire)
            {
                Ok(_) => link,
                Err(theirs) => theirs,
            },
            Err(walk) => {
                *outside = walk;
                OUTSIDE
            }
        }
    }

    /// Take `n` consecutive slots from `claimed`, claiming `batch` more of those counted by
    /// `taken` (of which there are `room`) when it has too few; `None` when the room is used up.
    fn take(
        claimed: &mut Range<usize>,
        taken: &AtomicUsize,
        room: usize,
        n: usize,
        batch: usize,
    ) -> Option<usize> {
        if claimed.len() < n {
            let first = taken.fetch_add(batch, Ordering::Relaxed);
            *claimed = first.min(room)..(first + batch).min(room);
            if claimed.len() < n {
                return None;
            }
        }
        let first = claimed.start;
        claimed.start += n;
        Some(first)
    }

    /// Walk on from `lane` (with `ties` ties so far) under `pick`, adding each real tie met as a
    /// node and the end as a leaf; gives the link to the first of them, not yet published, or the
    /// whole walk where the tree has no room left.
    fn grow(
        &self,
        t: &SmallBoard,
        claim: &mut Claim,
        mut lane: Lane,
        mut ties: u32,
        pick: &Pick,
    ) -> Result<u32, Walk> {
        let (mut first, mut pending) = (NONE, None::<usize>);
        let mut room = true;
        loop {
            let least = lane.least(t);
            if least.is_single() {
                lane.advance(t, least.lowest());
                continue;
            }
            if least.is_empty() {
                let walk = Walk {
                    visited: (t.all & !lane.free).len(),
                    ties: u64::from(ties),
                    head: t.padded[lane.head as usize & 63] as usize,
                };
                let (taken, leaves) = (&self.leaves_taken, self.leaves.len());
                let leaf = room
                    .then(|| Self::take(&mut claim.leaves, taken, leaves, 1, CLAIM))
                    .flatten();
                let Some(leaf) = leaf else {
                    return Err(walk);
                };
                // SAFETY: this solver's claim handed out the slot once; no link leads to it yet
                unsafe { (*self.leaves[leaf].0.get()).write(walk) };
                let link = LEAF | leaf as u32;
                match pending {
                    Some(at) => self.links[at].store(link, Ordering::Relaxed),
                    None => first = link,
                }
                return Ok(first);
            }
            let targets = &t.targets[lane.head as usize & 63];
            // a move off the board targets the head, which is never free
            let labels = (0..8).fold(0u8, |m, l| {
                m | u8::from(least.contains(targets[l].into())) << l
            });
            let choice = usize::from(labels);
            if room {
                let n = 1 + labels.count_ones() as usize;
                let (states, links) = (self.states.len(), self.links.len());
                let node = Self::take(&mut claim.states, &self.states_taken, states, 1, CLAIM);
                let block = Self::take(&mut claim.links, &self.links_taken, links, n, 9 * CLAIM);
                let taken = node.zip(block);
                match taken {
                    Some((node, block)) => {
                        // SAFETY: as for the leaf
                        unsafe { (*self.states[node].0.get()).write((lane, ties)) };
                        // the block's other links are `NONE` already
                        self.links[block].store(node as u32, Ordering::Relaxed);
                        let link = u32::from(labels) << LABELS_AT | block as u32;
                        match pending {
                            Some(at) => self.links[at].store(link, Ordering::Relaxed),
                            None => first = link,
                        }
                        pending = Some(block + 1 + usize::from(pick.rank[choice]));
                    }
                    None => room = false,
                }
            }
            ties += 1;
            lane.advance(t, u32::from(targets[usize::from(pick.label[choice])]));
        }
    }
}

/// The tie trees of the boards in use, shared by the solvers of a sweep (each solver has its own
/// otherwise): one tree a board, so that threads walking the same board grow one tree between
/// them, not one each.
#[derive(Debug)]
pub struct TieTrees {
    held: Mutex<Shelf>,
    /// Most entries a tree holds ([`MAX_ENTRIES`]; less in tests).
    limit: usize,
    /// Trees made, counted for the tests of starting afresh.
    made: AtomicU64,
}

/// The trees in use, and the memory of the last tree that none was holding any more.
#[derive(Debug, Default)]
struct Shelf {
    trees: Vec<Arc<TieTree>>,
    /// Emptied and used for the next new tree: a sweep over many small boards then allocates
    /// (and zeroes) no tree a board, which the allocator's heap made cost milliseconds each.
    spare: Option<TieTree>,
}

impl Default for TieTrees {
    fn default() -> Self {
        TieTrees::with_limit(MAX_ENTRIES)
    }
}

impl TieTrees {
    fn with_limit(limit: usize) -> Self {
        TieTrees {
            held: Mutex::new(Shelf::default()),
            limit,
            made: AtomicU64::new(0),
        }
    }

    /// The tree a solver that `held` one should walk `board` with, and its claim there: kept if it
    /// is that board's and not full, else the board's tree in use by another solver, or a new one.
    /// Trees no solver holds are dropped, the last one's memory kept for the next.
    pub(crate) fn tree_for<'a>(
        &self,
        held: &'a mut Held,
        board: Board,
    ) -> (&'a TieTree, &'a mut Claim) {
        let Held {
            tree: current,
            claim,
        } = held;
        if !matches!(current, Some(tree) if tree.board == board && !tree.full()) {
            *current = None;
            *claim = Claim::default();
            let mut guard = self.held.lock().unwrap_or_else(|p| p.into_inner());
            let shelf = &mut *guard;
            // a count of one is this list alone, and only this list (under its lock) hands out more
            let mut i = 0;
            while i < shelf.trees.len() {
                if Arc::strong_count(&shelf.trees[i]) > 1 {
                    i += 1;
                } else if let Ok(tree) = Arc::try_unwrap(shelf.trees.swap_remove(i)) {
                    shelf.spare = Some(tree);
                }
            }
            let tree = match shelf.trees.iter().find(|t| t.board == board && !t.full()) {
                Some(tree) => Arc::clone(tree),
                None => {
                    self.made.fetch_add(1, Ordering::Relaxed);
                    let tree = match shelf.spare.take() {
                        Some(mut tree) => {
                            tree.empty(board);
                            tree
                        }
                        None => TieTree::new(board, self.limit),
                    };
                    let tree = Arc::new(tree);
                    shelf.trees.push(Arc::clone(&tree));
                    tree
                }
            };
            *current = Some(tree);
        }
        (current.as_deref().expect("set above"), claim)
    }
}

const _: () =
    assert!(std::mem::size_of::<(Lane, u32)>() <= 56 && std::mem::size_of::<Walk>() <= 56);

#[cfg(test)]
mod tests {
    use super::super::chooser::Fixed;
    use super::super::mask::order_bits;
    use super::super::small;
    use super::*;
    use crate::board::Square;
    use crate::solve::rules::LabelOrder;

    /// The jobs of a batch from `starts` of `layout`'s board, numbered in order.
    fn jobs<'a>(
        layout: &'a Layout,
        starts: impl IntoIterator<Item = Square> + 'a,
    ) -> impl Iterator<Item = (usize, LaneJob<()>)> + 'a {
        starts.into_iter().enumerate().map(|(i, s)| {
            let start = layout.pad(s);
            (i, LaneJob { start, run: () })
        })
    }

    /// The walks from every start of `layout`'s board under `order`: the small-board kernel's, then
    /// `tree`'s (grown from `claim`).
    fn kernel_and_tree(
        layout: &Layout,
        tables: &mut SmallBoard,
        tree: &TieTree,
        claim: &mut Claim,
        order: &str,
    ) -> (Vec<Walk>, Vec<Walk>) {
        let order: LabelOrder = order.parse().unwrap();
        let bits = order_bits(order);
        let ch = Fixed::new(layout, order, &bits);
        let all = || jobs(layout, layout.board().squares());
        let n = layout.board().len() as usize;
        let mut want = vec![Walk::default(); n];
        small::run_lanes(layout, tables, &ch, all(), |i, w, ()| want[i] = w);
        let mut got = vec![Walk::default(); n];
        tree.run_lanes(claim, layout, tables, &ch, all(), |i, w, ()| got[i] = w);
        (want, got)
    }

    /// Trees held to a couple of thousand entries (about two orderings' walks from every start)
    /// are replaced again and again, and every walk is still the one the small-board kernel walks
    /// itself: the tree is a cache, never a result.
    #[test]
    fn trees_that_fill_give_the_kernels_walks() {
        let board = Board::new(8, 8).unwrap();
        let layout = Layout::new(board);
        let mut tables = SmallBoard::default();
        let trees = TieTrees::with_limit(2000);
        let mut held = Held::default();
        let orders = [
            "12345678", "87654321", "58143627", "31425867", "26481357", "71326548", "12345687",
            "21345678", "81234567",
        ];
        for round in 0..3 {
            for order in orders {
                let (tree, claim) = trees.tree_for(&mut held, board);
                let (want, got) = kernel_and_tree(&layout, &mut tables, tree, claim, order);
                assert_eq!(got, want, "{order}, round {round}");
                // one batch past the limit at most: the solvers take a new tree between batches
                // (and its claims)
                let most = 2000 + 64 * 65 + 2 * CLAIM;
                assert!(tree.entries() <= most, "{}", tree.entries());
            }
        }
        assert!(trees.made.load(Ordering::Relaxed) >= 6);
        // the trees no solver holds are gone
        drop(held);
        let mut other = Held::default();
        let five = Board::new(5, 5).unwrap();
        let layout = Layout::new(five);
        let (tree, claim) = trees.tree_for(&mut other, five);
        {
            // the 8x8 tree's memory went to the 5x5 tree, emptied: its walks are the kernel's
            let shelf = trees.held.lock().unwrap();
            assert_eq!(shelf.trees.len(), 1);
            assert!(shelf.spare.is_none());
        }
        for order in ["87654321", "58143627"] {
            let (want, got) = kernel_and_tree(&layout, &mut tables, tree, claim, order);
            assert_eq!(got, want, "{order} on 5x5");
        }
    }

    /// A tree with no room left walks every run outside it, and still gives each its walk; two
    /// threads growing one tree give the walks one thread gives.
    #[test]
    fn a_full_tree_and_a_shared_tree_give_the_kernels_walks() {
        let board = Board::new(6, 6).unwrap();
        let layout = Layout::new(board);
        let orders: Vec<LabelOrder> = LabelOrder::all().step_by(37).collect();
        let want: Vec<Vec<Walk>> = orders
            .iter()
            .map(|&order| {
                let bits = order_bits(order);
                let ch = Fixed::new(&layout, order, &bits);
                let mut want = vec![Walk::default(); 36];
                let mut tables = SmallBoard::default();
                let all = jobs(&layout, board.squares());
                small::run_lanes(&layout, &mut tables, &ch, all, |i, w, ()| want[i] = w);
                want
            })
            .collect();
        let walk_all = |tree: &TieTree, from: usize| {
            let mut tables = SmallBoard::default();
            let mut claim = Claim::default();
            for k in (0..orders.len()).map(|k| (k + from) % orders.len()) {
                let bits = order_bits(orders[k]);
                let ch = Fixed::new(&layout, orders[k], &bits);
                let mut got = vec![Walk::default(); 36];
                let all = jobs(&layout, board.squares());
                let claim = &mut claim;
                tree.run_lanes(claim, &layout, &mut tables, &ch, all, |i, w, ()| got[i] = w);
                assert_eq!(got, want[k], "{:?}", orders[k]);
            }
        };
        // no room at all: a limit of 0 still has the slack, so fill it first
        let full = TieTree::new(board, 0);
        full.states_taken
            .store(full.states.len(), Ordering::Relaxed);
        full.leaves_taken
            .store(full.leaves.len(), Ordering::Relaxed);
        walk_all(&full, 0);
        assert_eq!(full.census(0), (0, 0));
        // room for a few walks only: most runs end outside it
        let small_room = TieTree::new(board, 0);
        small_room
            .states_taken
            .store(small_room.states.len() - 40, Ordering::Relaxed);
        walk_all(&small_room, 0);
        let shared = TieTree::new(board, MAX_ENTRIES);
        std::thread::scope(|s| {
            s.spawn(|| walk_all(&shared, 0));
            s.spawn(|| walk_all(&shared, orders.len() / 2));
        });
        let alone = TieTree::new(board, MAX_ENTRIES);
        walk_all(&alone, 0);
        for start in 0..36 {
            assert_eq!(shared.census(start), alone.census(start), "from {start}");
        }
    }

    /// Claims from one counter, taken in turn by two solvers and by a clone of one, hand out every
    /// slot of the room once, then nothing.
    #[test]
    fn claims_hand_out_each_slot_once() {
        let taken = AtomicUsize::new(0);
        let room = 1000;
        let mut claims = [0..0, 0..0, 0..0];
        let mut seen = vec![0u32; room];
        let mut refused = [false; 3];
        for round in 0.. {
            let k = round % 3;
            match TieTree::take(&mut claims[k], &taken, room, 3, 50) {
                Some(i) => seen[i..i + 3].iter_mut().for_each(|n| *n += 1),
                None => refused[k] = true,
            }
            if refused == [true; 3] {
                break;
            }
        }
        // each batch of 50 hands out 16 blocks of 3 and loses its last 2 slots
        assert!(seen.iter().all(|&n| n <= 1));
        assert_eq!(seen.iter().sum::<u32>(), 20 * 16 * 3);
        let held = Held {
            tree: None,
            claim: Claim {
                links: 5..9,
                ..Claim::default()
            },
        };
        assert!(held.clone().claim.links.is_empty());
    }

    /// One ordering in five of the 40,320, from three starts of 8x8: the tree's distinct ends from
    /// each start are as many as the slow reference walk's distinct paths (a walk is its path), and
    /// each run's end is its reference path's.
    #[test]
    fn the_trees_ends_are_the_distinct_reference_walks() {
        use crate::solve::{reference, Rule};
        use std::collections::HashSet;
        let board = Board::new(8, 8).unwrap();
        let layout = Layout::new(board);
        let mut tables = SmallBoard::default();
        let tree = TieTree::new(board, MAX_ENTRIES);
        let mut claim = Claim::default();
        let starts = [Square::new(0, 0), Square::new(0, 1), Square::new(3, 2)];
        let mut paths = vec![HashSet::new(); starts.len()];
        for order in LabelOrder::all().step_by(5) {
            let bits = order_bits(order);
            let ch = Fixed::new(&layout, order, &bits);
            let mut ends = [Walk::default(); 3];
            let batch = jobs(&layout, starts);
            let claim = &mut claim;
            tree.run_lanes(claim, &layout, &mut tables, &ch, batch, |i, w, ()| {
                ends[i] = w
            });
            for (i, &s) in starts.iter().enumerate() {
                let path = reference::warnsdorff(board, s, Rule::order(order), 0);
                assert_eq!(ends[i].visited as usize, path.len(), "{order:?} from {s}");
                assert_eq!(ends[i].head, layout.pad(*path.last().unwrap()));
                paths[i].insert(path);
            }
        }
        for (i, &s) in starts.iter().enumerate() {
            let sq = u32::from(tables.square[layout.pad(s)]);
            assert_eq!(tree.census(sq).1, paths[i].len(), "from {s}");
            // far fewer walks than orderings: what the tree is for
            assert!(paths[i].len() < 2_000, "{}", paths[i].len());
        }
    }

    /// Every one of the 40,320 orderings from every start of 8x8 (2,580,480 runs) through one
    /// tree, whose ties and ends from each start are counted against a plain walk that recounts
    /// every degree and records its tie-breaks: a tie is a distinct sequence of tie-breaks before
    /// it, an end a distinct whole sequence. About ten seconds:
    /// `cargo test --lib every_ordering_from_every_start -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn every_ordering_from_every_start_of_8x8() {
        use std::collections::HashSet;
        let board = Board::new(8, 8).unwrap();
        let layout = Layout::new(board);
        let mut tables = SmallBoard::default();
        let tree = TieTree::new(board, MAX_ENTRIES);
        let mut claim = Claim::default();
        let orders: Vec<LabelOrder> = LabelOrder::all().collect();
        for &order in &orders {
            let bits = order_bits(order);
            let ch = Fixed::new(&layout, order, &bits);
            let batch = jobs(&layout, board.squares());
            tree.run_lanes(&mut claim, &layout, &mut tables, &ch, batch, |_, _, ()| {});
        }
        assert!(!tree.full());
        // the plain count: each square's moves by label, degrees recounted at every step
        let squares: Vec<Square> = board.squares().collect();
        let moves: Vec<[Option<usize>; 8]> = squares
            .iter()
            .map(|&s| {
                layout.offsets().map(|o| {
                    let q = layout.pad(s).wrapping_add_signed(o);
                    squares.iter().position(|&t| layout.pad(t) == q)
                })
            })
            .collect();
        let degree =
            |s: usize, free: &[bool]| moves[s].iter().flatten().filter(|&&t| free[t]).count();
        let (mut all_ties, mut all_ends) = (0, 0);
        for (start, &square) in squares.iter().enumerate() {
            let (mut ties, mut ends) = (HashSet::new(), HashSet::new());
            for order in &orders {
                let mut free = vec![true; 64];
                free[start] = false;
                let (mut head, mut choices) = (start, Vec::new());
                loop {
                    let candidates = moves[head]
                        .iter()
                        .enumerate()
                        .filter_map(|(l, t)| t.filter(|&t| free[t]).map(|t| (l, t)));
                    let Some(least) = candidates.clone().map(|(_, t)| degree(t, &free)).min()
                    else {
                        break;
                    };
                    let tied: Vec<(usize, usize)> = candidates
                        .filter(|&(_, t)| degree(t, &free) == least)
                        .collect();
                    let rank = |l: usize| order.labels().iter().position(|&k| usize::from(k) == l);
                    let &(label, next) = tied.iter().min_by_key(|(l, _)| rank(*l)).unwrap();
                    if tied.len() > 1 {
                        ties.insert(choices.clone());
                        choices.push(label);
                    }
                    head = next;
                    free[head] = false;
                }
                ends.insert(choices);
            }
            let sq = u32::from(tables.square[layout.pad(square)]);
            assert_eq!(tree.census(sq), (ties.len(), ends.len()), "from {square}");
            all_ties += ties.len();
            all_ends += ends.len();
        }
        println!(
            "8x8, every ordering from every start: {all_ties} ties, {all_ends} distinct walks"
        );
    }

    /// Each set's pick is the first of its labels in the ordering, by a plain scan.
    #[test]
    fn a_pick_is_the_first_tied_label_in_the_ordering() {
        let board = Board::new(8, 8).unwrap();
        let layout = Layout::new(board);
        for orders in ["12345678", "87654321", "58143627", "31425867"] {
            let order: LabelOrder = orders.parse().unwrap();
            let offsets = super::super::chooser::scan_offsets(&layout, order);
            let pick = Pick::new(&layout, &offsets);
            for set in 1..256usize {
                let first = offsets
                    .iter()
                    .map(|o| layout.offsets().iter().position(|c| c == o).unwrap())
                    .find(|&l| set >> l & 1 == 1)
                    .unwrap();
                assert_eq!(usize::from(pick.label[set]), first, "{orders} {set:08b}");
                let rank = (0..first).filter(|&l| set >> l & 1 == 1).count();
                assert_eq!(usize::from(pick.rank[set]), rank, "{orders} {set:08b}");
            }
        }
    }
}
