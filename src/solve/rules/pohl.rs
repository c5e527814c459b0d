//! `pohl`: Pohl's tie-break (I. Pohl, "A method for finding Hamilton paths and knight's tours", CACM
//! 1967), as described by Squirrel & Cull (1996) and Ganzfried (2004): among tied candidates take the
//! one whose free neighbours have the smallest sum of degrees; then label order.
//!
//! Whether the sum is taken before or after stepping onto the candidate makes no difference: stepping
//! lowers each of its free neighbours' degrees by one, i.e. the sum by the candidate's own degree, which
//! all tied candidates share.

use crate::state::SearchState;

/// Sum of the degrees of the free neighbours of `q`.
#[inline]
pub(crate) fn neighbour_degree_sum(state: &SearchState, q: usize) -> u32 {
    state
        .layout()
        .offsets()
        .iter()
        .map(|&o| state.degree((q as isize + o) as usize))
        .filter(|&d| d <= crate::state::MAX_DEGREE)
        .map(u32::from)
        .sum()
}
