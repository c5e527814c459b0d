//! The boards of a spec: its sizes (`"5..=64"`, `[8, 10]`, `{ from, to, step }`) and its ranges of
//! boards (`"10..=50:2 x 10..=50"`) as the sides they list, each range checked before it is listed.

use super::file::Sizes;
use crate::board::{BoardError, MAX_SIDE};

/// About the bytes one board takes while a spec is validated and planned (its entry, its entry in
/// the check for boards listed twice, its place in the plan): what a range of boards is checked
/// against before it is listed.
const BYTES_PER_BOARD: u64 = 128;

/// Sides from `from` to `to` (inclusive) every `step`: checked before anything is listed (a range
/// like "1..=4294967295" would otherwise list four billion sides first).
fn side_range(from: u32, to: u32, step: u32) -> Result<Vec<u32>, String> {
    if step == 0 {
        return Err("step must be at least 1".into());
    }
    if from > to {
        return Err(format!("empty range {from}..={to}"));
    }
    let last = from + (to - from) / step * step;
    if last > MAX_SIDE {
        let n = last as u64;
        return Err(BoardError::TooLarge { rows: n, cols: n }.to_string());
    }
    Ok((from..=to).step_by(step as usize).collect())
}

/// One side's range as written: `A..=B`, `A..B`, or a single size `N` (`single`), each
/// optionally followed by a step, `:S` or ` step S`. `None` if it is none of these.
fn parse_span(s: &str, single: bool) -> Option<(u32, u32, u32)> {
    let (span, step) = match s.split_once(" step ").or_else(|| s.split_once(':')) {
        Some((span, step)) => (span.trim(), step.trim().parse().ok()?),
        None => (s.trim(), 1),
    };
    let number = |t: &str| t.trim().parse::<u32>().ok();
    let (from, to) = if let Some((a, b)) = span.split_once("..=") {
        (number(a)?, number(b)?)
    } else if let Some((a, b)) = span.split_once("..") {
        (number(a)?, number(b)?.checked_sub(1)?)
    } else if single {
        let n = number(span)?;
        (n, n)
    } else {
        return None;
    };
    Some((from, to, step))
}

/// The rows and the columns of a range of boards, `"ROWS x COLS"`, each side a size or a range
/// (see [`parse_span`]); every board of the two is in the sweep, rows outer.
pub(super) fn board_range(s: &str) -> Result<(Vec<u32>, Vec<u32>), String> {
    let bad = || {
        format!(
            "{s:?}: expected boards like \"10..=50 x 10..=50\" (each side a size N, a range A..=B or A..B, a step as A..=B:S)"
        )
    };
    let (rows, cols) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (r, c) = (
        parse_span(rows, true).ok_or_else(bad)?,
        parse_span(cols, true).ok_or_else(bad)?,
    );
    let (rows, cols) = (side_range(r.0, r.1, r.2)?, side_range(c.0, c.1, c.2)?);
    // checked before they are listed: 65535 x 65535 boards would fill memory first
    let count = rows.len() as u64 * cols.len() as u64;
    if !crate::memory::fits_in(
        count.saturating_mul(BYTES_PER_BOARD),
        crate::memory::available_bytes(),
    ) {
        return Err(format!(
            "{s:?} is {count} boards, more than memory holds for a sweep's plan; narrow the ranges"
        ));
    }
    Ok((rows, cols))
}

pub(super) fn expand_sizes(sizes: &Sizes) -> Result<Vec<u32>, String> {
    match sizes {
        Sizes::List(v) if v.is_empty() => Err("the list of sizes is empty".into()),
        Sizes::List(v) => Ok(v.clone()),
        Sizes::Table { from, to, step } => side_range(*from, *to, *step),
        Sizes::Range(s) => {
            let (from, to, step) = parse_span(s, false).ok_or_else(|| {
                format!(
                    "{s:?}: expected a range like \"5..=64\", \"5..65\" or \"10..=100 step 10\""
                )
            })?;
            side_range(from, to, step)
        }
    }
}
