//! Several independent walks of a batch side by side in one thread ([`run_lanes`]), so that the
//! out-of-order core overlaps their chains of dependent loads (see the header of [`super`]), and the
//! empty board each walk starts from ([`EmptyBoard`]). The walks step in lock-step rounds inside
//! [`rounds`], whose heads and tie counts are local arrays indexed by constants: they stay in
//! registers, the squares visited follow from the round number, and the rule's shared tables are
//! read through one pointer. Fixed orderings take the window step of [`super::window`] instead
//! while at least [`window::MIN_LANES`] walks are live (the two leave the same degree array, so a
//! batch's last walks finish in the byte step). How many walks pay, and on which boards:
//! `benches/README.md`.

use super::chooser::Chooser;
use super::step::{advance, check_entry, survey};
use super::window::{self, Orders, Ranked};
use super::Walk;
use crate::board::{Board, Layout, BORDER};

/// The degrees of the empty board. Small boards keep one padded copy (a single `memcpy` per run,
/// which matters on 8x8 where a run is 64 steps); large ones are written row by row from a handful of
/// row templates, so that a sweep worker's memory stays at about one byte per square and walk.
#[derive(Clone, Debug, Default)]
pub(crate) struct EmptyBoard {
    board: Option<Board>,
    stride: usize,
    /// The whole padded board, for boards of at most [`EmptyBoard::FULL_COPY`] padded squares.
    full: Vec<u8>,
    /// Templates for (rows from the top edge, rows from the bottom edge) capped at 2: 9 at most.
    rows: Vec<(u8, u8, Vec<u8>)>,
}

impl EmptyBoard {
    /// Largest padded board kept as one copy (64 KiB: a 250x250 board).
    const FULL_COPY: usize = 1 << 16;

    fn prepare(&mut self, layout: &Layout) {
        if self.board == Some(layout.board()) {
            return;
        }
        let board = layout.board();
        self.board = Some(board);
        self.stride = layout.stride();
        self.rows.clear();
        self.full.clear();
        if layout.len() <= Self::FULL_COPY {
            layout.initial_degrees(&mut self.full);
            return;
        }
        let n = board.rows();
        for r in 0..n {
            let key = (r.min(2) as u8, (n - 1 - r).min(2) as u8);
            if self.rows.iter().any(|t| (t.0, t.1) == key) {
                continue;
            }
            let mut row = vec![BORDER; self.stride];
            for c in 0..board.cols() {
                let sq = crate::board::Square::new(r as u16, c as u16);
                row[c as usize + 2] = board.neighbours(sq).count() as u8;
            }
            self.rows.push((key.0, key.1, row));
        }
    }

    /// Fill `deg` (length `layout.len()`) with the empty board's degrees.
    pub(crate) fn fill(&mut self, layout: &Layout, deg: &mut [u8]) {
        self.prepare(layout);
        if !self.full.is_empty() {
            deg.copy_from_slice(&self.full);
            return;
        }
        let n = layout.board().rows();
        let s = self.stride;
        deg[..2 * s].fill(BORDER);
        deg[(n as usize + 2) * s..].fill(BORDER);
        for r in 0..n {
            let key = (r.min(2) as u8, (n - 1 - r).min(2) as u8);
            let t = &self
                .rows
                .iter()
                .find(|t| (t.0, t.1) == key)
                .expect("prepared")
                .2;
            let at = (r as usize + 2) * s;
            deg[at..at + s].copy_from_slice(t);
        }
    }
}

/// One run handed to [`run_lanes`].
pub(crate) struct LaneJob<R> {
    /// Padded start square.
    pub start: usize,
    /// The rule's per-run state.
    pub run: R,
}

/// Most runs interleaved in one thread, by any step: the window step's lanes.
pub(crate) const MAX_LANES: usize = window::MAX_LANES;

/// Most runs the byte step interleaves (more overlap no further: `benches/README.md`).
const BYTE_WALKS: usize = 4;
const _: () = assert!(
    BYTE_WALKS <= 4,
    "`rounds` is written out for four walks at most"
);

/// A run in progress: `head` indexes the shared buffer, in the board that starts at `base`.
struct Live<R> {
    head: usize,
    base: usize,
    /// The round of its first step: it has visited `round - born + 1` squares at the start of a
    /// round, since every live walk steps once a round.
    born: u64,
    ties: u64,
    job: usize,
    /// Its ordering, for the window step (an index into [`Orders::ranked`]).
    order: u32,
    run: R,
}

/// Walk `jobs` (all on `layout`'s board; each tagged with the caller's index) interleaved `walks` at
/// a time (at most [`BYTE_WALKS`] in the byte step), each in its own board of `buf`, all sharing the
/// chooser's tables; calls `done(index, walk, run state)` as each one ends (not in order). No paths
/// are kept. With `window`, the walks take the window step, each under its job's ordering (the
/// chooser then serves only for the byte step of a batch's last walks, where all have its ordering).
///
/// One function on purpose (about 85 lines): the interleaved lanes' state is kept across the rounds
/// in this loop's locals.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_lanes<C: Chooser>(
    layout: &Layout,
    empty: &mut EmptyBoard,
    buf: &mut Vec<u8>,
    walks: usize,
    window: Option<Orders<'_>>,
    ch: &C,
    jobs: impl IntoIterator<Item = (usize, LaneJob<C::Run>)>,
    mut done: impl FnMut(usize, Walk, C::Run),
) {
    let padded = layout.len();
    let stride = layout.stride() as isize;
    let width = match window {
        Some(_) => walks.clamp(1, MAX_LANES),
        None => walks.clamp(1, BYTE_WALKS),
    };
    // the byte step can finish a batch's last walks only if they share the chooser's ordering
    let uniform = window.map_or(true, |w| {
        w.ranked.len() == 1 && w.ranked[0].offsets() == *ch.offsets()
    });
    // each board followed by the slack the window step's last rows reach into
    let seat = padded + window::SLACK;
    reserve_lanes(buf, width * seat);
    buf.resize(width * seat, BORDER);
    let mut jobs = jobs.into_iter();
    let mut start_walk =
        |buf: &mut [u8], base: usize, born: u64, (job, j): (usize, LaneJob<C::Run>)| {
            let board = &mut buf[base..base + padded];
            empty.fill(layout, board);
            check_entry(layout, board, j.start, ch);
            board[j.start] = BORDER;
            let mut run = j.run;
            ch.arrive(&mut run, j.start);
            Live {
                head: base + j.start,
                base,
                born,
                ties: 0,
                job,
                order: window.map_or(0, |w| w.of_job[job]),
                run,
            }
        };
    let mut live: Vec<Live<C::Run>> = Vec::with_capacity(width);
    for i in 0..width {
        match jobs.next() {
            Some(j) => live.push(start_walk(buf, i * seat, 0, j)),
            None => break,
        }
    }
    let mut round = 0u64;
    // rows far apart in memory: the walk prefetches the rows it may reach next
    let far = is_large(layout);
    while !live.is_empty() {
        let ended = match (window, live.len()) {
            (Some(w), n) if n >= window::MIN_LANES || !uniform => {
                let row = layout.stride();
                match uniform {
                    true => window_rounds::<false, _>(buf, row, w.ranked, &mut live, &mut round),
                    false => window_rounds::<true, _>(buf, row, w.ranked, &mut live, &mut round),
                }
            }
            (_, 1) if far => rounds::<1, C, true>(buf, stride, ch, &mut live, &mut round),
            (_, 2) if far => rounds::<2, C, true>(buf, stride, ch, &mut live, &mut round),
            (_, 1) => rounds::<1, C, false>(buf, stride, ch, &mut live, &mut round),
            (_, 2) => rounds::<2, C, false>(buf, stride, ch, &mut live, &mut round),
            (_, 3) => rounds::<3, C, false>(buf, stride, ch, &mut live, &mut round),
            _ => rounds::<4, C, false>(buf, stride, ch, &mut live, &mut round),
        };
        // The walks in `ended` ended in this round, every other walk stepped in it; from the last,
        // so that `swap_remove` only moves walks already seen.
        for i in (0..live.len()).rev().filter(|&i| ended & 1 << i != 0) {
            let visited = (round - live[i].born + 1) as u32;
            let base = live[i].base;
            let finished = match jobs.next() {
                Some(j) => std::mem::replace(&mut live[i], start_walk(buf, base, round + 1, j)),
                None => live.swap_remove(i),
            };
            let walk = Walk {
                visited,
                ties: finished.ties,
                head: finished.head - finished.base,
            };
            done(finished.job, walk, finished.run);
        }
        round += 1;
    }
}

/// [`window::rounds`] for the live walks (at most [`MAX_LANES`]), each under its ordering in
/// `ranked` (`MIXED` false: all under `ranked[0]`).
fn window_rounds<const MIXED: bool, R>(
    deg: &mut [u8],
    stride: usize,
    ranked: &[Ranked],
    live: &mut [Live<R>],
    round: &mut u64,
) -> u32 {
    fn go<const L: usize, const MIXED: bool, R>(
        deg: &mut [u8],
        stride: usize,
        ranked: &[Ranked],
        live: &mut [Live<R>],
        round: &mut u64,
    ) -> u32 {
        let live: &mut [Live<R>; L] = live.try_into().expect("L live walks");
        let orders: [&Ranked; L] = std::array::from_fn(|i| &ranked[live[i].order as usize]);
        let mut head: [usize; L] = std::array::from_fn(|i| live[i].head);
        let mut ties: [u64; L] = std::array::from_fn(|i| live[i].ties);
        // SAFETY: `run_lanes` takes this step only where `window::available`; every head is an
        // on-board square of its own board, each board followed by its slack.
        let ended =
            unsafe { window::rounds::<L, MIXED>(deg, stride, orders, &mut head, &mut ties, round) };
        for (i, walk) in live.iter_mut().enumerate() {
            walk.head = head[i];
            walk.ties = ties[i];
        }
        ended
    }
    match live.len() {
        1 => go::<1, MIXED, R>(deg, stride, ranked, live, round),
        2 => go::<2, MIXED, R>(deg, stride, ranked, live, round),
        3 => go::<3, MIXED, R>(deg, stride, ranked, live, round),
        4 => go::<4, MIXED, R>(deg, stride, ranked, live, round),
        5 => go::<5, MIXED, R>(deg, stride, ranked, live, round),
        6 => go::<6, MIXED, R>(deg, stride, ranked, live, round),
        7 => go::<7, MIXED, R>(deg, stride, ranked, live, round),
        _ => go::<8, MIXED, R>(deg, stride, ranked, live, round),
    }
}

/// Step all `L` live walks once a round until a round in which some end; returns those walks (a bit
/// each), with `round` the round they ended in. Each round first surveys every walk (the degree
/// loads and decrements), then advances every walk: a mispredicted tie branch of one walk then
/// throws away only the cheap second halves of the walks after it, not their surveys.
///
/// The heads and tie counts live in local arrays indexed by constants, so they stay in registers
/// for the whole loop: this is where a sweep spends its time.
#[inline(never)]
fn rounds<const L: usize, C: Chooser, const FAR: bool>(
    deg: &mut [u8],
    stride: isize,
    ch: &C,
    live: &mut [Live<C::Run>],
    round: &mut u64,
) -> u32 {
    let live: &mut [Live<C::Run>; L] = live.try_into().expect("L live walks");
    let mut head: [usize; L] = std::array::from_fn(|i| live[i].head);
    let base: [usize; L] = std::array::from_fn(|i| live[i].base);
    let mut ties: [u64; L] = std::array::from_fn(|i| live[i].ties);
    let mut r = *round;
    let mut mask = [0u64; L];
    // Each phase written out per walk (not a loop) so every index is a constant.
    macro_rules! survey {
        ($i:literal) => {
            if $i < L {
                if FAR {
                    prefetch_rows(deg, stride, head[$i]);
                }
                mask[$i] = survey(deg, stride, head[$i], ch);
            }
        };
    }
    macro_rules! advance {
        ($i:literal, $ended:ident) => {
            if $i < L {
                match advance(deg, head[$i], base[$i], ch, &mut live[$i].run, mask[$i]) {
                    Some((next, tied)) => {
                        head[$i] = next;
                        ties[$i] += u64::from(tied);
                        ch.arrive(&mut live[$i].run, next - base[$i]);
                    }
                    None => $ended |= 1 << $i,
                }
            }
        };
    }
    let ended = loop {
        survey!(0);
        survey!(1);
        survey!(2);
        survey!(3);
        let mut ended = 0u32;
        advance!(0, ended);
        advance!(1, ended);
        advance!(2, ended);
        advance!(3, ended);
        if ended != 0 {
            break ended;
        }
        r += 1;
    };
    for (i, walk) in live.iter_mut().enumerate() {
        walk.head = head[i];
        walk.ties = ties[i];
    }
    *round = r;
    ended
}

/// Ask for the lines of the rows three and four above and below `head`, at its column: the rows
/// the next step's survey may read that this one does not. On a large board they lie a row of
/// memory apart each, and the walk's climb down a side would otherwise wait for each in turn.
#[inline(always)]
fn prefetch_rows(deg: &[u8], stride: isize, head: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = deg.as_ptr().wrapping_add(head);
        for rows in [-6, -5, -4, -3, 3, 4, 5, 6] {
            // SAFETY: a prefetch reads nothing and cannot fault, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_offset(rows * stride).cast()) };
        }
    }
}

/// Empty `buf` with room for `len` bytes. A new allocation of more than a few huge pages is
/// advised onto them before it is first written (Linux, where transparent huge pages are on
/// `madvise`): a walk on n = 10,000 steps a row of 10 KB at a time down the board's sides, and with
/// 4 KiB pages each such step missed the TLB (`benches/README.md`).
fn reserve_lanes(buf: &mut Vec<u8>, len: usize) {
    buf.clear();
    if buf.capacity() < len {
        *buf = Vec::with_capacity(len);
        advise_huge_pages(buf);
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(buf: &mut Vec<u8>) {
    const HUGE: usize = 2 << 20;
    if buf.capacity() < 4 * HUGE {
        return;
    }
    // the whole pages inside the allocation
    let start = (buf.as_mut_ptr() as usize).next_multiple_of(4096);
    let end = (buf.as_mut_ptr() as usize + buf.capacity()) & !4095;
    // SAFETY: the range lies inside `buf`'s allocation, page-aligned; the advice changes no
    // contents, and a refusal (no transparent huge pages) only leaves the pages small.
    unsafe {
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &mut Vec<u8>) {}

/// Whether `layout`'s board is *large*: four walks' degree arrays would not stay small (cache
/// resident, 1 MiB together at most), so memory rather than throughput decides how it is walked.
pub(crate) fn is_large(layout: &Layout) -> bool {
    const SMALL: usize = 1 << 20;
    BYTE_WALKS * layout.len() > SMALL
}

/// How many runs to interleave on `board`: [`MAX_LANES`] on boards that are not large
/// ([`is_large`]; the byte step takes four of them), else as many as fit in `bytes_per_square` of
/// the board (a walk takes its padded degree array), at least one.
/// Sweeps default to 2 ([`crate::solve::DEFAULT_LANE_MEMORY`], the memory target of a worker): one
/// walk on 1000x1000, where two would need 2.016.
pub(crate) fn lanes_for(layout: &Layout, bytes_per_square: f64) -> usize {
    if is_large(layout) {
        let fit = bytes_per_square * layout.board().len() as f64 / layout.len() as f64;
        (fit as usize).clamp(1, MAX_LANES)
    } else {
        MAX_LANES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_matches_the_layout() {
        let mut e = EmptyBoard::default();
        for (r, c) in [
            (1, 1),
            (3, 4),
            (5, 5),
            (8, 8),
            (13, 7),
            (2, 9),
            (300, 251),
            (257, 300),
        ] {
            let layout = Layout::new(Board::new(r, c).unwrap());
            let mut want = Vec::new();
            layout.initial_degrees(&mut want);
            let mut got = vec![0u8; layout.len()];
            e.fill(&layout, &mut got);
            assert_eq!(got, want, "{r}x{c}");
        }
    }
}
