//! The bitboard counting engine: every square of a board of at most 64 squares is one bit of a
//! [`BitBoard`] (row-major, bit `row * cols + col`), knight attacks are the precomputed [`Attacks`], and the degree facts the
//! pruning needs ("this square has no free neighbour", "only one") are computed for all squares at once
//! with eight shifts and a two-bit saturating counter per square. The search is an explicit stack with a
//! fixed 64-frame array: no recursion and no allocation in the loop.
//!
//! The pruning follows the classical degree arguments used for exhaustive knight's tour counts (Löbbing &
//! Wegener 1996 for 8x8 closed tours; McKay 1997, "Knight's tours of an 8x8 chessboard", ANU TR-CS-97-03;
//! the published counts it reproduces are OEIS A165134, A001230, A118067, A079137).
//!
//! ADVICE FOR HACKERS: a path's inner squares need two path neighbours and its last square one. A free
//! square's possible path neighbours are its free neighbours plus the head (if it is adjacent to it).
//! [`KnightBits::branch`] turns that into these rules, and each must stay *sound*: it may only cut a
//! branch that provably holds no tour.
//! - A free square with no possible path neighbour ends the branch; one whose only possible neighbour
//!   is the head must be the next and last square.
//! - A free square with one free neighbour, away from the head, can only be the path's end: two of them
//!   end the branch (and with a fixed end square, one inner square like that ends it).
//! - "Pending" squares (one free neighbour, next to the head) become such ends unless visited now, so
//!   they may force the move. The knight graph is bipartite: the head's free neighbours are pairwise
//!   non-adjacent, so moving to one never changes another's degree.
//! - Colours alternate along the path, so the end's colour follows from the head's colour and the
//!   number of free squares: an end-only square of the other colour ends the branch.
//! - With a fixed end square (closed tours), an inner square with exactly two free neighbours, away
//!   from the head, forces both edges; the end square with one forces that one. A square forced three
//!   times, or the end square forced twice, ends the branch ([`KnightBits::coverage3`] counts them).
//!   In open counts the same rule cost more time than it saved, so it is applied to closed ones only.
//! - Closed tours are counted as paths between two neighbours `a`, `b` of the fixed start, so "the
//!   start's free neighbours must outlast the path" becomes "`b` keeps a possible path neighbour".
//!
//! Every rule is checked in the tests against the plain recursive counter in [`super::reference`],
//! which has no pruning at all, and against the published counts.

use crate::board::{Attacks, BitBoard, Board, KNIGHT_DELTAS};

/// Largest board, in squares, that the bitboard engine handles.
pub const MAX_SQUARES: u32 = crate::board::MAX_BITBOARD_SQUARES;

/// Where the path being counted must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Anywhere: open tours.
    Anywhere,
    /// On this square (a bit index), which must be free: closed tours, where the square is a knight
    /// move from the start.
    At(u32),
}

/// What the degree rules say about a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// No completion of this path exists.
    Dead,
    /// The moves (a mask of free squares adjacent to the head) worth trying; may be empty.
    Moves(u64),
}

/// The result of one exhaustive count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathCount {
    /// Completed paths (tours) found.
    pub tours: u64,
    /// Search nodes visited: one per square placed, the starting state included.
    pub nodes: u64,
    /// `tours` passed `u64::MAX` on the way and is wrong: the caller refuses the count.
    pub wrapped: bool,
}

impl std::ops::AddAssign for PathCount {
    fn add_assign(&mut self, other: PathCount) {
        let (tours, carry) = self.tours.overflowing_add(other.tours);
        self.tours = tours;
        self.wrapped |= carry | other.wrapped;
        // Nodes are visited one by one: u64::MAX of them is centuries away.
        self.nodes += other.nodes;
    }
}

/// Knight-move bitboards of one board.
#[derive(Clone, Debug)]
pub struct KnightBits {
    board: Board,
    /// Every square of the board.
    all: BitBoard,
    attacks: Attacks,
    /// For move `k`: square `x` has a neighbour by move `k` at bit `x + d_k`; `(free >> shr[k]) << shl[k]`
    /// moves that bit down to `x` (one of the two is zero).
    shr: [u32; 8],
    shl: [u32; 8],
    /// For move `k`: the squares whose move `k` stays on the board.
    source: [BitBoard; 8],
    /// The squares of the corners' colour (`row + col` even).
    corner_colour: BitBoard,
}

/// One stack frame of the explicit-stack search.
#[derive(Clone, Copy, Default)]
struct Frame {
    free: BitBoard,
    moves: BitBoard,
    /// Cache key of this state, or [`NO_KEY`]; on pop, the tours found since `before` are stored.
    key: u32,
    before: u64,
}

impl KnightBits {
    /// The bitboards of `board`; `None` if it has more than [`MAX_SQUARES`] squares.
    pub fn new(board: Board) -> Option<Self> {
        let attacks = Attacks::knight(board)?;
        let cols = board.cols() as i32;
        let mut shr = [0u32; 8];
        let mut shl = [0u32; 8];
        let mut source = [BitBoard::EMPTY; 8];
        for (k, &(dr, dc)) in KNIGHT_DELTAS.iter().enumerate() {
            let d = dr * cols + dc;
            if d >= 0 {
                shr[k] = d as u32;
            } else {
                shl[k] = (-d) as u32;
            }
        }
        for (k, &(dr, dc)) in KNIGHT_DELTAS.iter().enumerate() {
            source[k] = board
                .squares()
                .filter(|sq| sq.try_offset(dr, dc, board).is_some())
                .map(|sq| board.index(sq))
                .collect();
        }
        let corner_colour = board
            .squares()
            .filter(|&sq| Board::is_corner_colour(sq))
            .map(|sq| board.index(sq))
            .collect();
        Some(KnightBits {
            corner_colour,
            board,
            all: BitBoard::first(board.len()),
            attacks,
            shr,
            shl,
            source,
        })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The mask of every square of the board.
    pub fn all(&self) -> u64 {
        self.all.bits()
    }

    /// The squares of the same colour as square `i`.
    #[inline(always)]
    fn colour_of(&self, i: u32) -> BitBoard {
        if self.corner_colour.contains(i) {
            self.corner_colour
        } else {
            self.all & !self.corner_colour
        }
    }

    /// The knight neighbours of square `i` (a bit index).
    #[inline(always)]
    pub fn attacks(&self, i: u32) -> u64 {
        self.attacks.get(i).bits()
    }

    /// For every square: whether it has at least one free neighbour, and whether at least two
    /// (a saturating two-bit counter, bit-sliced over the board).
    #[inline(always)]
    pub fn coverage(&self, free: BitBoard) -> (BitBoard, BitBoard) {
        let (mut one, mut two) = (BitBoard::EMPTY, BitBoard::EMPTY);
        for k in 0..8 {
            let m = ((free >> self.shr[k]) << self.shl[k]) & self.source[k];
            two |= one & m;
            one |= m;
        }
        (one, two)
    }

    /// For every square: whether at least one, two, three squares of `set` are knight neighbours (a
    /// saturating counter, bit-sliced over the board).
    #[inline(always)]
    pub fn coverage3(&self, set: BitBoard) -> (BitBoard, BitBoard, BitBoard) {
        let (mut one, mut two, mut three) = (BitBoard::EMPTY, BitBoard::EMPTY, BitBoard::EMPTY);
        for k in 0..8 {
            let m = ((set >> self.shr[k]) << self.shl[k]) & self.source[k];
            three |= two & m;
            two |= one & m;
            one |= m;
        }
        (one, two, three)
    }

    /// Whether forced path edges overload a square. `exact2` are inner squares with exactly two
    /// possible path neighbours, none the head: both edges are forced. `last` is the path's known end
    /// square (or 0): it takes one edge, forced if it has one free neighbour.
    #[inline(always)]
    fn overloaded(
        &self,
        free: BitBoard,
        exact2: BitBoard,
        last: BitBoard,
        last_forces: bool,
    ) -> bool {
        let forcing = exact2 | if last_forces { last } else { BitBoard::EMPTY };
        if forcing.is_empty() {
            return false;
        }
        let (_, two, three) = self.coverage3(forcing);
        !(free & three).is_empty() || !(last & two).is_empty()
    }

    /// Apply the degree rules to the state "the path stands on `head`, the squares of `free` are still
    /// to visit, and it must end as `end` says". `head` is not in `free`; `free` is not empty.
    #[inline(always)]
    pub fn branch(&self, head: u32, free: u64, end: End) -> Branch {
        match self.moves(head, BitBoard(free), end) {
            Some(moves) => Branch::Moves(moves.bits()),
            None => Branch::Dead,
        }
    }

    /// [`KnightBits::branch`] on sets: the moves worth trying, `None` for [`Branch::Dead`].
    #[inline(always)]
    fn moves(&self, head: u32, free: BitBoard, end: End) -> Option<BitBoard> {
        debug_assert!(!free.is_empty() && !free.contains(head));
        let near = self.attacks.get(head);
        // Free neighbours of the head with exactly one free neighbour ("pending"): visit now, or it
        // becomes a square that can only be the path's end (it loses the head, and no other candidate
        // is next to it: the knight graph is bipartite).
        match end {
            End::Anywhere => {
                let (one, two) = self.coverage(free);
                let pending = free & near & one & !two;
                let isolated = free & !one;
                if !(isolated & !near).is_empty() {
                    // A square no path can reach.
                    return None;
                }
                if !isolated.is_empty() {
                    // Reachable only from the head, so it is the last square: only if it is alone.
                    return (isolated == free).then_some(isolated);
                }
                // Squares with one free neighbour, away from the head: each can only be the end.
                let ends = free & !two & !near;
                // Colours alternate, so the end's colour is known: the head's if an even number
                // of squares is left, the other one (that of the head's neighbours) if odd.
                let head_colour = self.colour_of(head);
                if free.len() % 2 == 0 {
                    if !(ends & !head_colour).is_empty() {
                        return None;
                    }
                    // No pending square can be the end: each must be visited now.
                    return match (ends.len(), pending.len()) {
                        (e, _) if e >= 2 => None,
                        (_, 0) => Some(free & near),
                        (_, 1) => Some(pending),
                        _ => None,
                    };
                }
                if !(ends & head_colour).is_empty() {
                    return None;
                }
                match (ends.len(), pending.len()) {
                    (e, _) if e >= 2 => None,
                    (1, 0) | (0, 0) | (0, 1) => Some(free & near),
                    (1, 1) | (0, 2) => Some(pending),
                    _ => None,
                }
            }
            End::At(t) => {
                let target = BitBoard::square(t);
                debug_assert!(free.contains(t));
                if free == target {
                    return Some(near & target);
                }
                let (one, two, three) = self.coverage3(free);
                let pending = free & near & one & !two;
                let inner = free & !target;
                // An inner square needs two path neighbours among the free squares and the head.
                if !(inner & !one).is_empty() || !(inner & !two & !near).is_empty() {
                    return None;
                }
                // The end needs one: a free neighbour, or the head.
                if !(target & !one & !near).is_empty() {
                    return None;
                }
                let exact2 = inner & two & !three & !near;
                let last_forces = (target & two).is_empty() && (target & near).is_empty();
                if self.overloaded(free, exact2, target, last_forces) {
                    return None;
                }
                let forced = pending & inner;
                if forced.is_empty() {
                    Some(near & inner)
                } else {
                    forced.is_single().then_some(forced)
                }
            }
        }
    }

    /// Count the paths from `head` that visit every square of `free` once and end as `end` says.
    /// `head` must not be in `free`. Explicit stack, no allocation.
    pub fn count_paths(&self, head: u32, free: u64, end: End) -> PathCount {
        self.count_with(head, BitBoard(free), end, &mut NoCache)
    }

    /// [`KnightBits::count_paths`], reusing and filling `cache` for states with few squares left.
    /// The counts are the same; the nodes are fewer (a cache hit is not searched).
    pub fn count_paths_cached(
        &self,
        head: u32,
        free: u64,
        end: End,
        cache: &mut EndgameCache,
    ) -> PathCount {
        self.count_with(head, BitBoard(free), end, cache)
    }

    fn count_with<C: SubCounts>(
        &self,
        head: u32,
        free: BitBoard,
        end: End,
        cache: &mut C,
    ) -> PathCount {
        debug_assert!(!free.contains(head));
        let mut out = PathCount {
            tours: 0,
            nodes: 1,
            wrapped: false,
        };
        if free.is_empty() {
            // Complete: the end square, if fixed, was in `free` and is only ever entered last.
            out.tours = 1;
            return out;
        }
        let Some(moves) = self.moves(head, free, end) else {
            return out;
        };
        let mut stack = [Frame::default(); 64];
        stack[0] = Frame {
            free,
            moves,
            key: NO_KEY,
            before: 0,
        };
        let mut depth = 1usize;
        while depth > 0 {
            let top = &mut stack[depth - 1];
            if top.moves.is_empty() {
                if top.key != NO_KEY {
                    // Wrapping: a count that wrapped is refused anyway (`out.wrapped`).
                    cache.put(top.key, top.free, out.tours.wrapping_sub(top.before));
                }
                depth -= 1;
                continue;
            }
            let next = top.moves.pop_lowest();
            let free = top.free.without(next);
            out.nodes += 1;
            if free.is_empty() {
                // One per node, like `nodes`: cannot pass u64::MAX in any real run.
                out.tours += 1;
                continue;
            }
            let key = if cache.wants(free) {
                let key = state_key(next, end);
                if let Some(tours) = cache.get(key, free) {
                    // A cached count adds many tours at once: checked, with a sticky flag.
                    let (sum, carry) = out.tours.overflowing_add(tours);
                    out.tours = sum;
                    out.wrapped |= carry;
                    continue;
                }
                key
            } else {
                NO_KEY
            };
            if let Some(moves) = self.moves(next, free, end) {
                stack[depth] = Frame {
                    free,
                    moves,
                    key,
                    before: out.tours,
                };
                depth += 1;
            }
        }
        out
    }
}

/// The part of a cache key besides the free squares: head and end square. Never [`NO_KEY`].
#[inline(always)]
fn state_key(head: u32, end: End) -> u32 {
    let end = match end {
        End::Anywhere => 64,
        End::At(t) => t,
    };
    1 + head + 65 * end
}

/// "Do not cache this frame."
const NO_KEY: u32 = 0;

/// Where sub-counts may be kept: [`NoCache`] (compiled away) or an [`EndgameCache`].
trait SubCounts {
    fn wants(&self, free: BitBoard) -> bool;
    fn get(&mut self, key: u32, free: BitBoard) -> Option<u64>;
    fn put(&mut self, key: u32, free: BitBoard, tours: u64);
}

struct NoCache;

impl SubCounts for NoCache {
    #[inline(always)]
    fn wants(&self, _: BitBoard) -> bool {
        false
    }
    fn get(&mut self, _: u32, _: BitBoard) -> Option<u64> {
        None
    }
    fn put(&mut self, _: u32, _: BitBoard, _: u64) {}
}

/// Counts of the ways to finish from states with few free squares left, keyed by (head, free
/// squares, end square): the number of completions depends on nothing else, and the same endgame is
/// reached by many different prefixes. A direct-mapped table allocated once: a new entry replaces the
/// one in its slot, so memory stays fixed and lookups never allocate.
#[derive(Clone, Debug)]
pub struct EndgameCache {
    slots: Vec<Slot>,
    shift: u32,
    max_free: u32,
    /// Lookups answered from the table.
    pub hits: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    free: BitBoard,
    key: u32,
    tours: u64,
}

impl EndgameCache {
    /// Bytes per slot.
    pub const SLOT_BYTES: u64 = std::mem::size_of::<Slot>() as u64;

    /// A table of `2^bits` slots ([`Self::SLOT_BYTES`] each) for states with at most `max_free` free
    /// squares; an error, not an abort, if the allocator refuses (`2^30` slots are 24 GiB).
    pub fn new(max_free: u32, bits: u32) -> Result<Self, std::collections::TryReserveError> {
        assert!((1..=30).contains(&bits), "cache size 2^{bits} out of range");
        let mut slots = Vec::new();
        slots.try_reserve_exact(1 << bits)?;
        slots.resize(1 << bits, Slot::default());
        Ok(EndgameCache {
            slots,
            shift: 64 - bits,
            max_free,
            hits: 0,
        })
    }

    #[inline(always)]
    fn slot(&self, key: u32, free: BitBoard) -> usize {
        let h = (free.bits() ^ u64::from(key).rotate_left(40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> self.shift) as usize
    }
}

impl SubCounts for EndgameCache {
    #[inline(always)]
    fn wants(&self, free: BitBoard) -> bool {
        free.len() <= self.max_free
    }

    #[inline(always)]
    fn get(&mut self, key: u32, free: BitBoard) -> Option<u64> {
        let slot = self.slots[self.slot(key, free)];
        (slot.key == key && slot.free == free).then(|| {
            self.hits += 1;
            slot.tours
        })
    }

    #[inline(always)]
    fn put(&mut self, key: u32, free: BitBoard, tours: u64) {
        let i = self.slot(key, free);
        self.slots[i] = Slot { free, key, tours };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn bits(r: u64, c: u64) -> KnightBits {
        KnightBits::new(Board::new(r, c).unwrap()).unwrap()
    }

    #[test]
    fn coverage_agrees_with_popcount_of_attacks() {
        for (r, c) in [(5, 5), (3, 7), (8, 8), (6, 4), (1, 9)] {
            let kb = bits(r, c);
            // A few pseudo-random free sets.
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let free = BitBoard(x & kb.all());
                let (one, two) = kb.coverage(free);
                let (one3, two3, three) = kb.coverage3(free);
                assert_eq!((one, two), (one3, two3));
                for i in 0..kb.board().len() {
                    let d = (kb.attacks(i) & free.bits()).count_ones();
                    assert_eq!(one.contains(i), d >= 1, "{r}x{c} square {i}");
                    assert_eq!(two.contains(i), d >= 2, "{r}x{c} square {i}");
                    assert_eq!(three.contains(i), d >= 3, "{r}x{c} square {i}");
                }
            }
        }
    }

    #[test]
    fn attacks_match_board_neighbours() {
        let kb = bits(7, 9);
        let b = kb.board();
        for sq in b.squares() {
            let want = b.neighbours(sq).fold(0u64, |m, n| m | 1u64 << b.index(n));
            assert_eq!(kb.attacks(b.index(sq)), want, "{sq}");
        }
        assert_eq!(bits(8, 8).all(), u64::MAX);
        assert!(KnightBits::new(Board::new(5, 13).unwrap()).is_none());
    }

    #[test]
    fn path_counts_remember_passing_u64_max() {
        let count = |tours| PathCount {
            tours,
            nodes: 1,
            wrapped: false,
        };
        let mut sum = count(u64::MAX - 1);
        sum += count(1);
        assert!(!sum.wrapped, "u64::MAX itself is a count");
        sum += count(1);
        assert!(sum.wrapped);
        // and it sticks
        let mut total = count(0);
        total += sum;
        assert!(total.wrapped);
    }

    #[test]
    fn five_by_five_from_the_corner() {
        let kb = bits(5, 5);
        let start = kb.board().index(Square::new(0, 0));
        let got = kb.count_paths(start, kb.all() & !(1 << start), End::Anywhere);
        assert_eq!(got.tours, 304);
        assert!(got.nodes > 304);
    }
}
