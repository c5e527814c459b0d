//! The fixed orderings' step in four row windows (x86-64 with AVX): the same walk as
//! [`super::step`] for `first` and `order:*` (Warnsdorff 1823; Squirrel & Cull 1996 for the
//! orderings; rules as defined in `docs/REFERENCE.md`), in about a third of its memory operations.
//!
//! The eight neighbours of a head in row `r`, column `c` lie in rows `r-2, r-1, r+1, r+2`, and in
//! each of those rows within columns `c-2..=c+2`. One 8-byte load from column `c-2` of each row
//! holds both of that row's neighbours, so a step is four loads, one vector subtraction per pair of
//! rows (the decrements: a 1 in each neighbour's byte), four stores back, one byte shuffle per pair
//! that puts the neighbours' degrees into eight 16-bit lanes in the ordering's rank, and
//! `phminposuw`, which returns the least lane and the lowest index holding it: the minimum degree,
//! and the first label of the ordering that has it. The byte kernel spends a load and a store per
//! neighbour plus a table load for its degree mask: 26 memory operations a step of its own against
//! 9 here (`benches/README.md`).
//!
//! The windows overlap the next steps' windows (a knight's move shifts them by one or two columns),
//! so a load can find its bytes in two earlier stores and wait for them to reach the cache instead
//! of being forwarded; the walks interleaved ([`MAX_LANES`]) hide that wait, as they hide the chain
//! of dependent loads.
//!
//! The walks side by side need not share an ordering ([`Orders`]): the decrements fall on the same
//! bytes for all, and each walk reads its own shuffles and moves. So a batch of many orderings from
//! one start, which is what a corner sweep of `order:*` hands the kernel, runs eight at a time too,
//! and so does `shuffle`, whose runs each walk the one ordering drawn from their seed, on boards of
//! any size: on boards of at most 64 squares a `shuffle` sweep took a third of the time it took in
//! the small-board kernel, which walks two at a time (`benches/README.md`).
//!
//! Degrees are as in the byte kernel: after the head's decrement a free neighbour reads 0..=7
//! (it counted the head), a visited or border square `BORDER - 8` or more, so a least lane above 8
//! is a dead end. The 8-byte windows reach three bytes past a board's padded array; each walk's
//! board is followed by [`SLACK`] bytes that no walk uses.

use crate::board::{Layout, BORDER};

/// Bytes after each walk's padded board that the windows of its last rows may read and write back
/// unchanged.
pub(crate) const SLACK: usize = 8;

/// Most walks this step interleaves in one thread: with fewer than about eight, a lane's next loads
/// reach its last stores before they are in the cache (`benches/README.md`).
pub(crate) const MAX_LANES: usize = 8;

/// Fewest live walks that take this step: with two or one the byte step is faster (each of its
/// loads finds its byte in a store of the same size, so it never waits for the cache).
pub(crate) const MIN_LANES: usize = 3;
const _: () = assert!(
    MAX_LANES <= 8,
    "`rounds` is written out for eight walks at most"
);

/// Byte of each zero-based label in the pair of windows that holds it: labels 1, 2, 7 and 8 (the
/// rows above) in the first pair (rows `r-2` then `r-1`, eight bytes each, from column `c-2`),
/// labels 3 to 6 (the rows below) in the second (rows `r+1`, `r+2`). `(pair, byte)`.
const LABEL_BYTE: [(usize, u8); 8] = [
    (0, 3),  // 1: (-2, +1)
    (0, 12), // 2: (-1, +2)
    (1, 4),  // 3: (+1, +2)
    (1, 11), // 4: (+2, +1)
    (1, 9),  // 5: (+2, -1)
    (1, 0),  // 6: (+1, -2)
    (0, 8),  // 7: (-1, -2)
    (0, 1),  // 8: (-2, -1)
];

/// What the window step needs of a fixed ordering on one layout: the shuffles that put the
/// neighbours in rank order, the decrement patterns, each neighbour byte's rank, and per rank the
/// move.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Ranked {
    /// Byte shuffle of each pair of windows: lane `i` (bytes `2i`, `2i+1`) takes the byte of the
    /// label at rank `i` if that pair holds it, and zero (0x80) otherwise.
    shuffle: [[u8; 16]; 2],
    /// 1 in each neighbour's byte of each pair.
    dec: [[u8; 16]; 2],
    /// The rank of the label in each neighbour's byte of each pair, and [`NO_RANK`] in the other
    /// bytes: compared with the chosen rank, it marks the chosen square visited in the windows
    /// before they are stored, not by a byte store of its own (which the next windows would read
    /// across, and wait for), and without leaving the vector registers.
    rank_of: [[u8; 16]; 2],
    /// One record per rank, 64 bytes, so that `phminposuw`'s result shifted right by 10 is the
    /// record's byte offset (the index sits in bits 16..=18, the least value below bit 8). A record
    /// holds only the move's offset, but a plain array of offsets indexed by the result shifted by
    /// 16 compiled to more stack traffic in `rounds` and ran slower (`benches/README.md`).
    rank: [Move; 8],
}

/// A byte of [`Ranked::rank_of`] that holds no neighbour: no rank equals it.
const NO_RANK: u8 = 0xFF;

/// The move to the label at one rank.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Move {
    /// The label's padded offset.
    offset: isize,
}

const _: () = assert!(
    std::mem::size_of::<Move>() == 64,
    "`rounds` finds a rank's record at 64 x the rank"
);

impl Ranked {
    /// The step of the slot-ordered chooser whose slots have padded `offsets` on `layout` (rank
    /// `i` is the label whose knight offset is `offsets[i]`), or `None` if they are not the
    /// layout's eight knight offsets.
    pub(crate) fn new(layout: &Layout, offsets: &[isize; 8]) -> Option<Self> {
        let mut ranked = Ranked {
            shuffle: [[0x80u8; 16]; 2],
            dec: [[0u8; 16]; 2],
            rank_of: [[NO_RANK; 16]; 2],
            rank: [Move::default(); 8],
        };
        for (rank, &o) in offsets.iter().enumerate() {
            let label = layout.offsets().iter().position(|&k| k == o)?;
            let (pair, byte) = LABEL_BYTE[label];
            ranked.shuffle[pair][2 * rank] = byte;
            ranked.dec[pair][byte as usize] = 1;
            ranked.rank_of[pair][byte as usize] = rank as u8;
            ranked.rank[rank].offset = o;
        }
        let labels = ranked.dec.iter().flatten().filter(|&&b| b == 1).count();
        (labels == 8).then_some(ranked)
    }

    /// The padded offset of the label at each rank: the ordering, as a chooser's slots give it.
    pub(crate) fn offsets(&self) -> [isize; 8] {
        self.rank.map(|m| m.offset)
    }
}

/// The orderings of a batch's walks for the window step: `ranked[of_job[i]]` is the ordering of
/// the batch's run `i`. Walks of different orderings interleave as well as walks of one, so a
/// batch of many orderings from one start (Squirrel & Cull's sweep) still runs eight at a time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Orders<'a> {
    pub ranked: &'a [Ranked],
    pub of_job: &'a [u32],
}

/// Whether this machine runs the window step (x86-64 with AVX, which brings SSE4.1's
/// `phminposuw` in three-operand form, and `popcnt`).
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Step the `L` walks whose heads are `head` (indexes into `deg`, each an on-board square of its
/// own padded board, already visited, each board followed by [`SLACK`] bytes), walk `i` under the
/// ordering `ranked[i]`, in lock-step rounds until a round in which some end; returns those walks
/// (a bit each) and leaves `round` at the round they ended in. `ties[i]` counts walk `i`'s moves
/// at which the minimum degree was shared. `MIXED` false says every walk has `ranked[0]`'s
/// ordering, whose shuffles then stay in registers.
///
/// # Safety
/// [`available`] must be true, and the heads as said (the windows of an on-board head lie inside
/// its board and slack; every later head is a square whose degree read 0..=8, which only on-board
/// squares do).
///
/// One function on purpose (about 110 lines): the lanes' windows live in vector registers across
/// the rounds, which a split into calls would spill.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,popcnt")]
pub(crate) unsafe fn rounds<const L: usize, const MIXED: bool>(
    deg: &mut [u8],
    stride: usize,
    ranked: [&Ranked; L],
    head: &mut [usize; L],
    ties: &mut [u64; L],
    round: &mut u64,
) -> u32 {
    use std::arch::x86_64::*;
    let load = |a: &[u8; 16]| _mm_loadu_si128(a.as_ptr().cast());
    // the decrements fall on the same bytes whatever the ordering
    let (dec0, dec1) = (load(&ranked[0].dec[0]), load(&ranked[0].dec[1]));
    // one ordering: its shuffles and ranks stay in registers
    let shuffles = (load(&ranked[0].shuffle[0]), load(&ranked[0].shuffle[1]));
    let ranks = (load(&ranked[0].rank_of[0]), load(&ranked[0].rank_of[1]));
    // word 0 (the least lane's value) into every lane
    let spread = _mm_set1_epi16(0x8000u16 as i16);
    // byte 2 (the least lane's index) into every byte
    let index = _mm_set1_epi8(2);
    let visited = _mm_set1_epi8(BORDER as i8);
    let len = deg.len();
    let p = deg.as_mut_ptr();
    // the four windows' first bytes, as offsets from the head
    let (up2, up1) = (p.wrapping_sub(2 * stride + 2), p.wrapping_sub(stride + 2));
    let (down1, down2) = (p.wrapping_add(stride - 2), p.wrapping_add(2 * stride - 2));
    let mut h = *head;
    let mut t = *ties;
    let mut r = *round;
    // One lane's step; at a dead end the head stays and `ended` gets the lane's bit.
    let step = |rk: &Ranked, at: &mut usize, ties: &mut u64, ended: &mut u32, bit: u32| {
        let rk = if MIXED { rk } else { ranked[0] };
        let ((shuf0, shuf1), (rank0, rank1)) = if MIXED {
            (
                (load(&rk.shuffle[0]), load(&rk.shuffle[1])),
                (load(&rk.rank_of[0]), load(&rk.rank_of[1])),
            )
        } else {
            (shuffles, ranks)
        };
        debug_assert!(
            *at >= 2 * stride + 2 && *at + 2 * stride + 6 <= len,
            "window outside the array"
        );
        // SAFETY: the windows of an on-board head are inside its board and slack (above).
        let (a, b, c, d) = (up2.add(*at), up1.add(*at), down1.add(*at), down2.add(*at));
        let x0 = _mm_castpd_si128(_mm_loadh_pd(
            _mm_castsi128_pd(_mm_loadl_epi64(a.cast())),
            b.cast(),
        ));
        let x1 = _mm_castpd_si128(_mm_loadh_pd(
            _mm_castsi128_pd(_mm_loadl_epi64(c.cast())),
            d.cast(),
        ));
        let x0 = _mm_sub_epi8(x0, dec0);
        let x1 = _mm_sub_epi8(x1, dec1);
        let keys = _mm_or_si128(_mm_shuffle_epi8(x0, shuf0), _mm_shuffle_epi8(x1, shuf1));
        let least = _mm_minpos_epu16(keys);
        let got = _mm_cvtsi128_si32(least) as u32;
        // SAFETY: `got >> 10` is 64 x the rank (see `Ranked::rank`), a record of the table.
        let mv = &*rk
            .rank
            .as_ptr()
            .cast::<u8>()
            .add((got >> 10) as usize)
            .cast::<Move>();
        // the chosen square marked from the index in the vector, not from `got`: the stores'
        // data waits for no move of the index to a general register and no load. At a dead end
        // the least lane is a visited or border square: marking it again changes nothing a walk
        // reads, so the stores need no branch
        let chosen = _mm_shuffle_epi8(least, index);
        let mark = |x, rank| _mm_max_epu8(x, _mm_and_si128(_mm_cmpeq_epi8(rank, chosen), visited));
        let (x0, x1) = (mark(x0, rank0), mark(x1, rank1));
        _mm_storel_epi64(a.cast(), x0);
        b.cast::<i64>().write_unaligned(_mm_extract_epi64::<1>(x0));
        _mm_storel_epi64(c.cast(), x1);
        d.cast::<i64>().write_unaligned(_mm_extract_epi64::<1>(x1));
        if got as u16 > 8 {
            *ended |= bit;
            return;
        }
        let same = _mm_cmpeq_epi16(keys, _mm_shuffle_epi8(least, spread));
        // two bits a lane: more than two set is a tie
        *ties += u64::from(_mm_movemask_epi8(same).count_ones() > 2);
        *at = at.wrapping_add_signed(mv.offset);
        debug_assert!(
            *at < len && *p.add(*at) == BORDER,
            "chose a square not free"
        );
    };
    let ended = loop {
        let mut ended = 0u32;
        // written out per lane (not a loop) so that every index is a constant and the heads can
        // stay in registers
        macro_rules! lane {
            ($($i:literal)*) => {$(
                if $i < L {
                    step(ranked[$i % L], &mut h[$i % L], &mut t[$i % L], &mut ended, 1 << $i);
                }
            )*};
        }
        lane!(0 1 2 3 4 5 6 7);
        if ended != 0 {
            break ended;
        }
        r += 1;
    };
    *head = h;
    *ties = t;
    *round = r;
    ended
}

/// Elsewhere [`available`] is false and nothing calls this.
///
/// # Safety
/// Never called.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) unsafe fn rounds<const L: usize, const MIXED: bool>(
    _: &mut [u8],
    _: usize,
    _: [&Ranked; L],
    _: &mut [usize; L],
    _: &mut [u64; L],
    _: &mut u64,
) -> u32 {
    unreachable!("the window step is x86-64 only")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, KNIGHT_DELTAS};
    use crate::solve::rules::LabelOrder;

    #[test]
    fn each_label_sits_where_its_move_lands_in_the_windows() {
        // the pair holds the two rows above (0) or below (1), in row order, eight bytes a row from
        // column c - 2
        for (label, &(dr, dc)) in KNIGHT_DELTAS.iter().enumerate() {
            let pair = usize::from(dr > 0);
            let row_in_pair = match dr {
                -2 | 1 => 0,
                _ => 1,
            };
            let byte = 8 * row_in_pair + (dc + 2) as u8;
            assert_eq!(LABEL_BYTE[label], (pair, byte), "label {}", label + 1);
        }
    }

    #[test]
    fn every_ordering_ranks_its_labels_once() {
        let layout = Layout::new(Board::new(11, 13).unwrap());
        for order in LabelOrder::all().step_by(97) {
            let offsets = order.labels().map(|k| layout.offsets()[k as usize]);
            let ranked = Ranked::new(&layout, &offsets).expect("knight offsets");
            for (rank, &k) in order.labels().iter().enumerate() {
                let (pair, byte) = LABEL_BYTE[k as usize];
                assert_eq!(ranked.shuffle[pair][2 * rank], byte);
                assert_eq!(ranked.shuffle[1 - pair][2 * rank], 0x80);
                assert_eq!(ranked.shuffle[0][2 * rank + 1], 0x80, "high bytes zero");
                assert_eq!(ranked.rank[rank].offset, layout.offsets()[k as usize]);
                let marked: Vec<(usize, usize)> = (0..2)
                    .flat_map(|p| (0..16).map(move |b| (p, b)))
                    .filter(|&(p, b)| ranked.rank_of[p][b] == rank as u8)
                    .collect();
                assert_eq!(marked, [(pair, byte as usize)]);
            }
            let ranked_bytes = ranked.rank_of.iter().flatten().filter(|&&r| r != NO_RANK);
            assert_eq!(
                ranked_bytes.count(),
                8,
                "one byte a rank, the others no rank"
            );
        }
        // offsets of another board, or a label twice, are not an ordering of this one
        let other = Layout::new(Board::new(11, 14).unwrap());
        assert!(Ranked::new(&layout, other.offsets()).is_none());
        let mut twice = *layout.offsets();
        twice[3] = twice[2];
        assert!(Ranked::new(&layout, &twice).is_none());
    }
}
