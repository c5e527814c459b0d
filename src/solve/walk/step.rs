//! One kernel step, in its two halves ([`survey`]: decrement the head's neighbours and build the
//! degree mask; [`advance`]: let the chooser pick and mark the next square), and the single walk
//! that keeps its path ([`walk_with_path`]). Warnsdorff's rule as defined in `docs/REFERENCE.md`;
//! the invariants the unchecked indexing rests on are in the header of [`super`].

use super::chooser::Chooser;
use super::Walk;
use crate::board::{Layout, BORDER};

/// The padded offsets of labels 1..8 written from the stride ([`Layout::knight_offsets`]), so that
/// each address is one addressing mode (`head + stride * {1,2} + const`) rather than eight
/// precomputed pointers that spill.
#[inline(always)]
fn label_offsets(s: isize) -> [isize; 8] {
    crate::board::Layout::offsets_for_stride(s)
}

/// One pass over the neighbours of `head`: decrement their degrees, and return the next square and
/// whether the minimum degree was tied, or `None` at a dead end (which includes a finished tour).
///
/// `deg` holds one or more padded boards of the chooser's layout side by side; `head` indexes it and
/// must be an on-board square of the board starting at `base`, already marked visited; the returned
/// square is marked visited before returning.
#[inline(always)]
fn step<C: Chooser>(
    deg: &mut [u8],
    stride: isize,
    head: usize,
    base: usize,
    ch: &C,
    run: &mut C::Run,
) -> Option<(usize, bool)> {
    let mask = survey(deg, stride, head, ch);
    advance(deg, head, base, ch, run, mask)
}

/// The first half of [`step`]: decrement the degrees of `head`'s neighbours and return the degree
/// mask (0 at a dead end).
#[inline(always)]
pub(super) fn survey<C: Chooser>(deg: &mut [u8], stride: isize, head: usize, ch: &C) -> u64 {
    let bits = ch.bits();
    let mut part = [0u64; 8];
    for (k, &o) in label_offsets(stride).iter().enumerate() {
        let q = head.wrapping_add_signed(o);
        debug_assert!(
            q < deg.len(),
            "neighbour {q} of {head} outside the padded array"
        );
        // SAFETY: `head` is an on-board square of a padded board inside `deg` (the start was, and
        // every later head is a square whose degree read 1..=8, which only on-board free squares
        // do), and the 2-square border means `head + o` is inside that board for every knight
        // offset `o`. The debug assertion above checks it in tests.
        let slot = unsafe { deg.get_unchecked_mut(q) };
        let d = *slot;
        *slot = d.wrapping_sub(1);
        part[k] = bits[k][d as usize];
    }
    // A tree of `or`s (depth 3), not a chain of eight: this is on the loop's critical path.
    ((part[0] | part[1]) | (part[2] | part[3])) | ((part[4] | part[5]) | (part[6] | part[7]))
}

/// The second half of [`step`]: from the degree mask of `head`, choose and mark the next square.
#[inline(always)]
pub(super) fn advance<C: Chooser>(
    deg: &mut [u8],
    head: usize,
    base: usize,
    ch: &C,
    run: &mut C::Run,
    mask: u64,
) -> Option<(usize, bool)> {
    if mask == 0 {
        return None;
    }
    let tz = mask.trailing_zeros();
    let tied = ((mask >> (tz & !7)) & 0xFF) as u32;
    let next = head.wrapping_add_signed(ch.choose(run, deg, head, head - base, tz, tied));
    debug_assert!(
        next < deg.len() && deg[next] <= crate::state::MAX_DEGREE,
        "the kernel chose a square that is not free"
    );
    // SAFETY: as above, `next` is a neighbour of the on-board `head`; the assertion checks it.
    unsafe { *deg.get_unchecked_mut(next) = BORDER };
    Some((next, tied & (tied - 1) != 0))
}

/// What the unchecked accesses of [`step`] rely on, checked once per run: the start is on the board,
/// the board's array is the layout's size, and the chooser's slots are the layout's knight offsets.
pub(super) fn check_entry<C: Chooser>(layout: &Layout, board: &[u8], start: usize, ch: &C) {
    assert_eq!(board.len(), layout.len(), "degree array of another board");
    assert!(layout.is_on_board(start), "start off the board");
    // What the accesses need: every slot offset within two rows and two columns of the head.
    let reach = 2 * layout.stride() as isize + 2;
    assert!(
        ch.offsets().iter().all(|o| o.abs() <= reach),
        "chooser built for another board"
    );
}

/// One walk from padded `start` on a fresh degree array, recording the path in `path` (cleared).
#[inline(never)]
pub(crate) fn walk_with_path<C: Chooser>(
    layout: &Layout,
    deg: &mut [u8],
    start: usize,
    ch: &C,
    run: &mut C::Run,
    path: &mut Vec<u32>,
) -> Walk {
    let squares = layout.board().len() as usize;
    let stride = layout.stride() as isize;
    check_entry(layout, deg, start, ch);
    path.clear();
    path.reserve(squares);
    deg[start] = BORDER;
    path.push(start as u32);
    ch.arrive(run, start);
    let (mut head, mut ties) = (start, 0u64);
    while let Some((next, tied)) = step(deg, stride, head, 0, ch, run) {
        ties += u64::from(tied);
        head = next;
        path.push(next as u32);
        ch.arrive(run, next);
    }
    Walk {
        visited: path.len() as u32,
        ties,
        head,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn label_offsets_are_the_layouts() {
        for (r, c) in [(5, 5), (3, 11), (100, 7)] {
            let layout = Layout::new(Board::new(r, c).unwrap());
            assert_eq!(&label_offsets(layout.stride() as isize), layout.offsets());
        }
    }
}
