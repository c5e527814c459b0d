//! The fast pure-Warnsdorff kernel behind [`super::Solver::run`] and [`super::Solver::run_batch`]: the
//! same walk as the plain loop in [`super::warnsdorff`] (Warnsdorff 1823; rules as defined in
//! `docs/REFERENCE.md`), at a few nanoseconds a step. [`super::Solver::solve_plain`] keeps the plain
//! loop as its twin, and `tests/fast_paths.rs` checks the two give identical paths for every rule on
//! every start of boards 5..40.
//!
//! | file | concept |
//! |---|---|
//! | [`mask`] | the degree mask of a step and the per-label tables that build it |
//! | [`chooser`] | how each rule family picks the next slot from the mask ([`Chooser`]) |
//! | [`geometry`] | the distance rules' choosers: the tie decided from the head's row and column, or a per-square class table shared by a process |
//! | [`step`] | one step (survey, then advance) and the single walk that keeps its path |
//! | [`interleave`] | several independent walks side by side in one thread, each in its lane |
//! | [`window`] | the fixed orderings' step in four 8-byte row windows (x86-64), eight walks a thread |
//! | [`small`] | the same walks on boards of at most 64 squares, in register bitboards |
//! | [`tie_tree`] | the fixed orderings' walks of a small board, each distinct walk walked once |
//! | [`dispatch`] | the one place a rule is mapped to its chooser |
//! | [`batch`] | the kernel as the solver's engine ([`Kernel`]): its single fast walk and its batch groups in lanes |
//!
//! One step from the head `h` is one pass over its eight neighbours that both decrements their degrees
//! (the head has just been visited) and builds a 64-bit *degree mask*: bit `8 * (d - 1) + slot` is set
//! when the neighbour in `slot` has degree `d` before the decrement (`d` in 1..=8 for a free square,
//! since the head still counted; border and visited squares hold values of 0xE8 and above and
//! contribute no bit). The bit comes from a per-label table ([`mask::Bits`]: `bits[k][d]`), so
//! building the mask is one `or` from memory per neighbour, and the table also says which slot label
//! `k` sits in. The lowest set bit of the mask is then the minimum degree and, within it, the lowest
//! slot: for a fixed-order rule the slots are the scan order, so `trailing_zeros` alone is the next
//! move, with no compare-and-select chain and no branch. The byte holding that bit lists every slot
//! of minimum degree, which counts ties for free and is all the other rules need: distance rules, `pohl` and
//! `random` branch to their secondary key only on a real tie (or, for many runs of a distance rule,
//! look the winner up in a per-square preference table, branch-free).
//!
//! A single walk is a chain of dependent loads (head -> degrees -> mask table -> next offset -> next
//! head), several times longer than the execution resources a step needs. [`interleave::run_lanes`]
//! therefore walks several independent runs of a batch side by side, each in its own *lane* (its own
//! board of one buffer), so that the out-of-order core overlaps their chains. The speed of each arrangement is
//! measured in `benches/README.md`.
//!
//! ADVICE FOR HACKERS: the kernel writes the degree array exactly as [`crate::state::SearchState::make`]
//! would (head set to [`crate::board::BORDER`], its eight neighbours decremented without branching),
//! so after a walk with a path the search state is the one the plain loop leaves. What must change
//! together: a [`Chooser`]'s `bits()` (which slot each label's bit lands in), its `offsets()` (the
//! padded offset of each slot) and the slot its `choose` returns; [`mask::DEGREE_BIT`] and the
//! sentinel values (any byte above 8 is "not a candidate", and free squares always read 1..=8 here
//! because the head was a free neighbour of each of them). The unchecked indexing rests on one
//! invariant: the head is an on-board square of the padded layout the array was built for, so
//! `head + offset` lies inside the array for every knight offset. The entry points assert it for the
//! start (and that the array and the chooser's offsets belong to the layout); every later head is a
//! square whose degree read 1..=8, which only on-board squares do; a debug assertion checks every
//! access in the test profile.

pub(crate) mod batch;
pub(crate) mod chooser;
pub(crate) mod dispatch;
pub(crate) mod geometry;
pub(crate) mod interleave;
pub(crate) mod mask;
pub(crate) mod small;
pub(crate) mod step;
pub(crate) mod tie_tree;
pub(crate) mod window;

pub(crate) use batch::Kernel;
pub(crate) use chooser::Chooser;
pub(crate) use interleave::{lanes_for, EmptyBoard, MAX_LANES};

/// The end of one walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Walk {
    /// Squares visited, the start included.
    pub visited: u32,
    /// Moves at which the minimum degree was shared.
    pub ties: u64,
    /// The last square (padded index).
    pub head: usize,
}
