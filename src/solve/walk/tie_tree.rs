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
//! The tree is a cache kept by a solver across batch groups of one board: it never decides a
//! result, and starts afresh at [`MAX_ENTRIES`]. Its twin is the small-board kernel walking each
//! run itself ([`super::small::run_walks`]): `tests/fast_paths.rs` compares the two on thousands of
//! orderings from every start of boards up to 8x8, one solver reusing its tree throughout.

use super::chooser::Chooser;
use super::interleave::WalkJob;
use super::small::{Lane, SmallBoard};
use super::Walk;
use crate::board::{Board, Layout};

/// Most nodes and leaves a tree holds before it starts afresh: every ordering from every start of
/// 8x8 needs half of it (260,072).
const MAX_ENTRIES: usize = 1 << 19;

/// Most bytes a tree holds: a node's state (56) and its links (at most 9 of 4 bytes), or a leaf
/// (24), for each of [`MAX_ENTRIES`] and the entries one round of descents may add past it.
pub(crate) const MAX_BYTES: u64 = (MAX_ENTRIES + LANES * 64) as u64 * (56 + 36);

/// A link to nothing yet walked.
const NONE: u32 = 0;
/// The tag of a link to a leaf (its index in the low bits).
const LEAF: u32 = 1 << 31;
/// A link to a node holds its labels above this bit and the start of its block of links below.
const LABELS_AT: u32 = 23;
const BLOCK: u32 = (1 << LABELS_AT) - 1;
/// Descents made side by side: each is a chain of dependent loads, which the core overlaps.
const LANES: usize = 8;
/// Most links a tree holds before it starts afresh: a block must start below [`BLOCK`] (each lane
/// may add 64 nodes of at most 9 links).
const MAX_LINKS: usize = BLOCK as usize - LANES * 64 * 9;

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

/// The ties and ends of the fixed orderings' walks on one board, from every start walked so far.
///
/// A node is a block of links: the node's number first, then one link a tied label, in label
/// order. A link to a node carries the node's labels and the start of its block, so a step of a
/// descent is two loads (the ordering's rank of the labels, then the link), not three.
#[derive(Clone, Debug)]
pub(crate) struct TieTree {
    board: Option<Board>,
    /// Most nodes and leaves held ([`MAX_ENTRIES`]; less in tests of starting afresh).
    limit: usize,
    /// Times the tree started afresh at its limit.
    restarts: u64,
    /// The link from each start (by small-board square).
    roots: [u32; 64],
    links: Vec<u32>,
    /// Each node's walk as it stood at the tie (before choosing) and its ties before this one.
    states: Vec<(Lane, u32)>,
    leaves: Vec<Walk>,
}

impl Default for TieTree {
    fn default() -> Self {
        TieTree {
            board: None,
            limit: MAX_ENTRIES,
            restarts: 0,
            roots: [NONE; 64],
            links: Vec::new(),
            states: Vec::new(),
            leaves: Vec::new(),
        }
    }
}

impl TieTree {
    /// Forget every walk.
    fn clear(&mut self) {
        self.roots = [NONE; 64];
        self.links.clear();
        self.states.clear();
        self.leaves.clear();
    }

    /// The ties (nodes) and distinct ends (leaves) below the root of `start`, counted by a walk
    /// over the tree.
    #[cfg(test)]
    fn census(&self, start: u32) -> (usize, usize) {
        let mut stack = vec![self.roots[start as usize & 63]];
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
            stack.extend(&self.links[block + 1..block + 1 + labels.count_ones() as usize]);
        }
        (ties, ends)
    }

    /// Nodes and leaves held.
    fn entries(&self) -> usize {
        self.states.len() + self.leaves.len()
    }

    /// Walk `jobs` (all on `layout`'s board, which must fit the small-board kernel) with the fixed
    /// ordering `ch`, through the tree; calls `done(index, walk, run state)` as each ends, in order.
    /// The twin of [`super::small::run_walks`] for choosers whose lowest tied slot wins.
    pub(crate) fn run_walks<C: Chooser>(
        &mut self,
        layout: &Layout,
        t: &mut SmallBoard,
        ch: &C,
        jobs: impl IntoIterator<Item = (usize, WalkJob<C::Run>)>,
        mut done: impl FnMut(usize, Walk, C::Run),
    ) {
        assert!(C::SLOT_ORDER && !C::PER_RUN, "a fixed ordering");
        // the tree's labels are the layout's, whichever ordering walks
        t.prepare(layout, layout.offsets());
        if self.board != Some(layout.board()) {
            self.clear();
            self.board = Some(layout.board());
        }
        let pick = Pick::new(layout, ch.offsets());
        let mut jobs = jobs.into_iter();
        let mut live = Vec::with_capacity(LANES);
        loop {
            if self.entries() > self.limit || self.links.len() > MAX_LINKS {
                self.clear();
                self.restarts += 1;
            }
            let mut links = [LEAF; LANES];
            for (job, j) in jobs.by_ref().take(LANES) {
                assert!(layout.is_on_board(j.start), "start off the board");
                let mut run = j.run;
                ch.arrive(&mut run, j.start);
                links[live.len()] = self.root(t, u32::from(t.square[j.start]), &pick);
                live.push((job, run));
            }
            if live.is_empty() {
                return;
            }
            // every lane one step down a round, until all stand on leaves
            loop {
                let mut down = false;
                for link in &mut links {
                    if *link & LEAF == 0 {
                        *link = self.down(t, *link, &pick);
                        down = true;
                    }
                }
                if !down {
                    break;
                }
            }
            for ((job, run), link) in live.drain(..).zip(links) {
                done(job, self.leaves[(link & !LEAF) as usize], run);
            }
        }
    }

    /// The link from `start`, walked under the ordering of `pick` if it is the first.
    fn root(&mut self, t: &SmallBoard, start: u32, pick: &Pick) -> u32 {
        let s = start as usize & 63;
        if self.roots[s] == NONE {
            self.roots[s] = self.grow(t, Lane::new(t, start), 0, pick);
        }
        self.roots[s]
    }

    /// The link the ordering of `pick` takes from the node of `link`, walked if it is the first.
    #[inline(always)]
    fn down(&mut self, t: &SmallBoard, link: u32, pick: &Pick) -> u32 {
        let labels = ((link >> LABELS_AT) & 0xFF) as usize;
        let block = (link & BLOCK) as usize;
        let at = block + 1 + usize::from(pick.rank[labels]);
        let next = self.links[at];
        if next != NONE {
            return next;
        }
        let (mut lane, ties) = self.states[self.links[block] as usize];
        let label = usize::from(pick.label[labels]);
        lane.advance(t, u32::from(t.targets[lane.head as usize & 63][label]));
        let next = self.grow(t, lane, ties + 1, pick);
        self.links[at] = next;
        next
    }

    /// Walk on from `lane` (with `ties` ties so far) under `pick`, adding each real tie met as a
    /// node and the end as a leaf; gives the link to the first of them.
    fn grow(&mut self, t: &SmallBoard, mut lane: Lane, mut ties: u32, pick: &Pick) -> u32 {
        let (mut first, mut pending) = (NONE, None);
        loop {
            let least = lane.least(t);
            if least != 0 && least & (least - 1) == 0 {
                lane.advance(t, least.trailing_zeros());
                continue;
            }
            let (link, next) = if least == 0 {
                self.leaves.push(Walk {
                    visited: (t.all & !lane.free).count_ones(),
                    ties: u64::from(ties),
                    head: t.padded[lane.head as usize & 63] as usize,
                });
                (LEAF | (self.leaves.len() - 1) as u32, None)
            } else {
                let targets = &t.targets[lane.head as usize & 63];
                // a move off the board targets the head, which is never free
                let labels = (0..8).fold(0u8, |m, l| m | (((least >> targets[l]) & 1) as u8) << l);
                let block = self.links.len();
                self.links.push(self.states.len() as u32);
                self.links
                    .resize(block + 1 + labels.count_ones() as usize, NONE);
                self.states.push((lane, ties));
                let choice = usize::from(labels);
                let at = block + 1 + usize::from(pick.rank[choice]);
                let to = targets[usize::from(pick.label[choice])];
                let link = u32::from(labels) << LABELS_AT | block as u32;
                (link, Some((at, to)))
            };
            match pending {
                Some(at) => self.links[at] = link,
                None => first = link,
            }
            let Some((at, to)) = next else {
                return first;
            };
            pending = Some(at);
            ties += 1;
            lane.advance(t, u32::from(to));
        }
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
    ) -> impl Iterator<Item = (usize, WalkJob<()>)> + 'a {
        starts.into_iter().enumerate().map(|(i, s)| {
            let start = layout.pad(s);
            (i, WalkJob { start, run: () })
        })
    }

    /// A tree held to a couple of thousand entries (about two orderings' walks from every start)
    /// starts afresh again and again, and every walk is still the one the small-board kernel walks
    /// itself: the tree is a cache, never a result.
    #[test]
    fn a_tree_that_starts_afresh_gives_the_kernels_walks() {
        let board = Board::new(8, 8).unwrap();
        let layout = Layout::new(board);
        let mut tables = SmallBoard::default();
        let mut tree = TieTree {
            limit: 2000,
            ..TieTree::default()
        };
        let orders = [
            "12345678", "87654321", "58143627", "31425867", "26481357", "71326548", "12345687",
            "21345678", "81234567",
        ];
        for round in 0..3 {
            for orders in orders {
                let order: LabelOrder = orders.parse().unwrap();
                let bits = order_bits(order);
                let ch = Fixed::new(&layout, order, &bits);
                let all = || jobs(&layout, board.squares());
                let mut want = vec![Walk::default(); 64];
                small::run_walks(&layout, &mut tables, &ch, all(), |i, w, ()| want[i] = w);
                let mut got = vec![Walk::default(); 64];
                tree.run_walks(&layout, &mut tables, &ch, all(), |i, w, ()| got[i] = w);
                assert_eq!(got, want, "{orders}, round {round}");
                assert!(
                    tree.entries() <= 2000 + LANES * 2 * 64,
                    "{}",
                    tree.entries()
                );
            }
        }
        assert!(tree.restarts >= 5, "{}", tree.restarts);
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
        let mut tree = TieTree::default();
        let starts = [Square::new(0, 0), Square::new(0, 1), Square::new(3, 2)];
        let mut paths = vec![HashSet::new(); starts.len()];
        for order in LabelOrder::all().step_by(5) {
            let bits = order_bits(order);
            let ch = Fixed::new(&layout, order, &bits);
            let mut ends = [Walk::default(); 3];
            let batch = jobs(&layout, starts);
            tree.run_walks(&layout, &mut tables, &ch, batch, |i, w, ()| ends[i] = w);
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
        let mut tree = TieTree::default();
        let orders: Vec<LabelOrder> = LabelOrder::all().collect();
        for &order in &orders {
            let bits = order_bits(order);
            let ch = Fixed::new(&layout, order, &bits);
            let batch = jobs(&layout, board.squares());
            tree.run_walks(&layout, &mut tables, &ch, batch, |_, _, ()| {});
        }
        assert_eq!(tree.restarts, 0);
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
