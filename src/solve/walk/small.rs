//! The small-board kernel: the batch walks of [`super::interleave`] on boards of at most 64 squares,
//! with the whole board in registers (the bitboards of chess engines; Warnsdorff's rule and its
//! tie-breaks as defined in `docs/REFERENCE.md`).
//!
//! A walk is a [`BitBoard`] of free squares (bit `row * cols + col`) and the degrees of every square
//! as four bit planes: bit `i` of plane `p` is bit `p` of square `i`'s count of free neighbours. A step
//! from the head `h` takes its free neighbours `N = attacks[h] & free`, decrements all their degrees
//! at once with a borrow through the planes (the head has just been visited), and finds those of
//! minimum degree plane by plane from the top: keep the candidates with a 0 in the plane, if any.
//! A neighbour of the head has at most 7 free neighbours after the decrement, so three planes
//! decide. A lone minimum is the move for every rule; on a real tie the rule's byte-kernel
//! [`Chooser`] picks from the tied slots in its own slot order, so the two kernels share every
//! tie-break. No step stores anything: the chain from one head to the next is loads of constant
//! tables and register arithmetic, where the byte kernel's survey writes eight degrees a step and
//! reads them back. Several walks are interleaved, as in the byte kernel.
//!
//! The byte kernel is its twin: `tests/fast_paths.rs` compares the two on every start of every
//! board of at most 64 squares, for every rule with a chooser, open and closed, and with the slow
//! reference walk.

use super::chooser::Chooser;
use super::interleave::LaneJob;
use super::Walk;
use crate::board::{Attacks, BitBoard, Board, Layout, MAX_BITBOARD_SQUARES};

/// Most squares a board may have for this kernel.
pub(crate) const MAX_SQUARES: u32 = MAX_BITBOARD_SQUARES;

/// Whether `board` fits this kernel.
pub(crate) fn fits(board: Board) -> bool {
    board.len() <= MAX_SQUARES
}

/// A board's constant tables, and the slot targets of the last chooser's slot order.
#[derive(Clone, Debug)]
pub(crate) struct SmallBoard {
    board: Option<Board>,
    /// Each square's on-board knight moves.
    pub(super) attacks: Attacks,
    /// The empty board's degrees as bit planes.
    planes: [BitBoard; 4],
    /// Every square of the board.
    pub(super) all: BitBoard,
    /// Padded index of each square.
    pub(super) padded: [u32; 64],
    /// Square of each padded index (off-board indexes hold [`OFF`]).
    pub(super) square: Vec<u8>,
    /// The padded offsets the slot targets were built for.
    offsets: [isize; 8],
    /// The square in each slot of each square, or the square itself where that move leaves the
    /// board (never a candidate: a head is not free).
    pub(super) targets: [[u8; 8]; 64],
    /// Each square's neighbours by slot as three bit planes: bit `q` of plane `b` of square `h` is
    /// bit `b` of the slot that `q` is in, seen from `h` (for choosers whose slot order decides).
    slots: [[BitBoard; 3]; 64],
}

const OFF: u8 = u8::MAX;

impl Default for SmallBoard {
    fn default() -> Self {
        SmallBoard {
            board: None,
            attacks: Attacks::default(),
            planes: [BitBoard::EMPTY; 4],
            all: BitBoard::EMPTY,
            padded: [0; 64],
            square: Vec::new(),
            offsets: [0; 8],
            targets: [[0; 8]; 64],
            slots: [[BitBoard::EMPTY; 3]; 64],
        }
    }
}

impl SmallBoard {
    /// Build the tables of `layout`'s board (which must fit) and of `offsets`' slot order, unless
    /// they are the last ones built.
    pub(crate) fn prepare(&mut self, layout: &Layout, offsets: &[isize; 8]) {
        let board = layout.board();
        assert!(fits(board), "{board} has more than {MAX_SQUARES} squares");
        if self.board != Some(board) {
            self.board = None;
            self.square.clear();
            self.square.resize(layout.len(), OFF);
            self.attacks = Attacks::knight(board).expect("the board fits");
            self.planes = [BitBoard::EMPTY; 4];
            for (i, sq) in board.squares().enumerate() {
                // row-major, as the bits of a `BitBoard`
                debug_assert_eq!(board.index(sq), i as u32);
                self.padded[i] = layout.pad(sq) as u32;
                self.square[layout.pad(sq)] = i as u8;
                let degree = self.attacks.get(i as u32).len();
                for (p, plane) in self.planes.iter_mut().enumerate() {
                    if degree >> p & 1 == 1 {
                        *plane = plane.with(i as u32);
                    }
                }
            }
            self.all = BitBoard::first(board.len());
            self.board = Some(board);
            self.offsets = [0; 8];
        }
        if self.offsets != *offsets {
            for i in 0..board.len() as usize {
                let p = self.padded[i] as usize;
                for (slot, &o) in offsets.iter().enumerate() {
                    let t = self.square[p.wrapping_add_signed(o)];
                    self.targets[i][slot] = if t == OFF { i as u8 } else { t };
                }
                self.slots[i] = [BitBoard::EMPTY; 3];
                for (slot, &q) in self.targets[i].iter().enumerate() {
                    for (b, plane) in self.slots[i].iter_mut().enumerate() {
                        if slot >> b & 1 == 1 {
                            *plane = plane.with(q.into());
                        }
                    }
                }
            }
            self.offsets = *offsets;
        }
    }
}

/// One walk's board: free squares, degree planes, head.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lane {
    pub(super) free: BitBoard,
    planes: [BitBoard; 4],
    pub(super) head: u32,
}

impl Lane {
    /// A walk standing on `start`, visited.
    pub(super) fn new(t: &SmallBoard, start: u32) -> Self {
        let mut lane = Lane {
            free: t.all,
            planes: t.planes,
            head: start,
        };
        lane.visit(t, start);
        lane
    }

    /// Mark `sq` visited and decrement its free neighbours' degrees.
    #[inline(always)]
    fn visit(&mut self, t: &SmallBoard, sq: u32) {
        self.free = self.free.without(sq);
        let n = t.attacks.get(sq) & self.free;
        // Subtract 1 from every square of `n`: a bit-sliced borrow, from the lowest plane up.
        let mut borrow = n;
        for plane in &mut self.planes {
            let old = *plane;
            *plane = old ^ borrow;
            borrow &= !old;
        }
    }

    /// The degree of square `sq`.
    #[inline(always)]
    fn degree(&self, sq: u32) -> u32 {
        let bit = |p: usize| u32::from(self.planes[p].contains(sq));
        bit(0) | bit(1) << 1 | bit(2) << 2 | bit(3) << 3
    }

    /// The sum of the degrees of the free neighbours of `sq` (Pohl's secondary key).
    #[inline(always)]
    fn neighbour_sum(&self, t: &SmallBoard, sq: u32) -> u32 {
        let n = t.attacks.get(sq) & self.free;
        (0..4).map(|p| (n & self.planes[p]).len() << p).sum()
    }

    /// The free neighbours of the head of minimum degree (none at a dead end, which includes a
    /// finished tour).
    #[inline(always)]
    pub(super) fn least(&self, t: &SmallBoard) -> BitBoard {
        let mut least = t.attacks.get(self.head) & self.free;
        for p in (0..3).rev() {
            // the candidates of degree 0 in this plane, if there are any
            let low = least & !self.planes[p];
            least = if low.is_empty() { least } else { low };
        }
        least
    }

    /// Move to `next` and visit it.
    #[inline(always)]
    pub(super) fn advance(&mut self, t: &SmallBoard, next: u32) {
        self.head = next;
        self.visit(t, next);
    }

    /// One step: the next square chosen and visited, and whether the minimum was tied; `None` at a
    /// dead end (which includes a finished tour).
    #[inline(always)]
    fn step<C: Chooser>(&mut self, t: &SmallBoard, ch: &C, run: &mut C::Run) -> Option<bool> {
        let h = self.head;
        let mut least = self.least(t);
        if least.is_empty() {
            return None;
        }
        let tied = least.has_several();
        let next = if C::SLOT_ORDER {
            // the lowest slot among them, by the same planes: no branch on a tie
            let slots = &t.slots[h as usize & 63];
            for b in (0..3).rev() {
                let low = least & !slots[b];
                least = if low.is_empty() { least } else { low };
            }
            least.lowest()
        } else if tied {
            self.choose(t, ch, run, least)
        } else {
            least.lowest()
        };
        self.advance(t, next);
        ch.arrive(run, t.padded[next as usize & 63] as usize);
        Some(tied)
    }

    /// A real tie among the squares of `least`: the chooser picks from their slots.
    #[cold]
    #[inline(never)]
    fn choose<C: Chooser>(&self, t: &SmallBoard, ch: &C, run: &mut C::Run, least: BitBoard) -> u32 {
        let h = self.head as usize & 63;
        let targets = &t.targets[h];
        let mut slots = 0u32;
        for (slot, &q) in targets.iter().enumerate() {
            slots |= u32::from(least.contains(q.into())) << slot;
        }
        let lowest = slots.trailing_zeros();
        // the byte kernel's mask position: 8 x (degree before this step's decrement - 1) + slot
        let tz = 8 * self.degree(u32::from(targets[lowest as usize])) + lowest;
        let square = t.padded[h] as usize;
        let sum = |slot: usize| self.neighbour_sum(t, u32::from(targets[slot & 7]));
        let to = square.wrapping_add_signed(ch.choose_small(run, sum, square, tz, slots));
        let next = t.square[to];
        debug_assert!(
            next != OFF && least.contains(next.into()),
            "chooser picked a square that is not tied"
        );
        u32::from(next)
    }
}

/// Most walks interleaved: each takes six registers (free set, four planes, head), and a third
/// walk gained nothing (`benches/README.md`).
pub(crate) const MAX_LANES: usize = 2;

const _: () = assert!(
    MAX_LANES <= 4,
    "`rounds` keeps 16 bits of ties a lane in one u64"
);

/// A walk in progress in one lane (the squares it visited are those not free).
struct Live<R> {
    lane: Lane,
    ties: u64,
    job: usize,
    run: R,
}

/// Walk `jobs` (all on `layout`'s board, which must fit) interleaved, with the chooser `ch`; calls
/// `done(index, walk, run state)` as each ends (not in order). The twin of
/// [`super::interleave::run_lanes`].
pub(crate) fn run_lanes<C: Chooser>(
    layout: &Layout,
    t: &mut SmallBoard,
    ch: &C,
    jobs: impl IntoIterator<Item = (usize, LaneJob<C::Run>)>,
    mut done: impl FnMut(usize, Walk, C::Run),
) {
    t.prepare(layout, ch.offsets());
    let t = &*t;
    let mut jobs = jobs.into_iter();
    let start = |(job, j): (usize, LaneJob<C::Run>)| {
        assert!(layout.is_on_board(j.start), "start off the board");
        let sq = u32::from(t.square[j.start]);
        let mut run = j.run;
        ch.arrive(&mut run, j.start);
        Live {
            lane: Lane::new(t, sq),
            ties: 0,
            job,
            run,
        }
    };
    let mut live: Vec<Live<C::Run>> = jobs.by_ref().take(MAX_LANES).map(start).collect();
    while !live.is_empty() {
        let ended = match live.len() {
            1 => rounds::<1, C>(t, ch, &mut live),
            _ => rounds::<MAX_LANES, C>(t, ch, &mut live),
        };
        for i in (0..live.len()).rev().filter(|&i| ended & 1 << i != 0) {
            let finished = match jobs.next() {
                Some(j) => std::mem::replace(&mut live[i], start(j)),
                None => live.swap_remove(i),
            };
            let walk = Walk {
                visited: (t.all & !finished.lane.free).len(),
                ties: finished.ties,
                head: t.padded[finished.lane.head as usize & 63] as usize,
            };
            done(finished.job, walk, finished.run);
        }
    }
}

/// Step all `L` live walks once a round until a round in which some end; returns those (a bit
/// each). The lanes are a local array indexed by constants, so they can stay in registers.
#[inline(never)]
fn rounds<const L: usize, C: Chooser>(t: &SmallBoard, ch: &C, live: &mut [Live<C::Run>]) -> u32 {
    let live: &mut [Live<C::Run>; L] = live.try_into().expect("L live walks");
    let mut lanes: [Lane; L] = std::array::from_fn(|i| live[i].lane);
    // The lanes' ties of this call, 16 bits each (a call is at most 63 steps), in one register:
    // the lanes' own state already fills most of them.
    let mut ties = 0u64;
    let ended = loop {
        let mut ended = 0u32;
        for i in 0..L {
            match lanes[i].step(t, ch, &mut live[i].run) {
                Some(tied) => ties += u64::from(tied) << (16 * i),
                None => ended |= 1 << i,
            }
        }
        if ended != 0 {
            break ended;
        }
    };
    for (i, walk) in live.iter_mut().enumerate() {
        walk.lane = lanes[i];
        walk.ties += (ties >> (16 * i)) & 0xFFFF;
    }
    ended
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    /// The planes hold every free square's count of free neighbours, counted afresh, after every
    /// visit of a scattering of squares on boards of every shape that fits.
    #[test]
    fn planes_count_free_neighbours() {
        for (rows, cols) in [
            (1, 1),
            (1, 64),
            (3, 4),
            (5, 5),
            (8, 8),
            (4, 16),
            (7, 9),
            (2, 32),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let layout = Layout::new(board);
            let mut t = SmallBoard::default();
            t.prepare(&layout, layout.offsets());
            let mut lane = Lane::new(&t, 0);
            for (i, sq) in board.squares().enumerate().skip(1) {
                if i % 3 == 1 {
                    lane.visit(&t, i as u32);
                }
                for (j, q) in board.squares().enumerate() {
                    if !lane.free.contains(j as u32) {
                        continue;
                    }
                    let want = board
                        .neighbours(q)
                        .filter(|n| lane.free.contains(t.square[layout.pad(*n)].into()))
                        .count();
                    assert_eq!(
                        lane.degree(j as u32) as usize,
                        want,
                        "{board} {q} after {sq}"
                    );
                }
            }
        }
    }

    #[test]
    fn targets_follow_the_slot_order() {
        let board = Board::new(5, 6).unwrap();
        let layout = Layout::new(board);
        let mut t = SmallBoard::default();
        let mut offsets = *layout.offsets();
        offsets.reverse();
        t.prepare(&layout, &offsets);
        let sq = Square::new(2, 2);
        let i = t.square[layout.pad(sq)] as usize;
        for (slot, &o) in offsets.iter().enumerate() {
            let want = t.square[layout.pad(sq).wrapping_add_signed(o)];
            assert_eq!(t.targets[i][slot], want);
        }
        // a corner's moves off the board point at the corner itself
        let corner = t.square[layout.pad(Square::new(0, 0))];
        assert_eq!(
            t.targets[corner as usize]
                .iter()
                .filter(|&&q| q == corner)
                .count(),
            6
        );
    }
}
