//! The failing starts of a sweep that recorded its runs: the start maps `ktour plot --map` draws
//! (every start of a board x rule x method coloured by how its runs ended), for at most [`MAX_MAPS`]
//! of the groups that failed somewhere, chosen from `summary.csv` before `runs.csv` is read; and
//! the failed runs listed (a dead end, a path that did not close, a spent budget; runs from starts
//! where no tour exists are not failures of the rule), at most [`MAX_LISTED`]. `runs.csv` is read
//! row by row, keeping only the rows of the maps drawn and of the list, so that its size does not
//! matter (beyond the job numbers of the failed runs, held so that a row a resume wrote again counts
//! once).

use super::ReportError;
use crate::board::Shape;
use crate::experiment::{RunRow, SummaryRow};
use crate::render::{start_map_svg, start_maps, MapSelection};
use std::collections::HashSet;
use std::path::Path;

/// Most start maps on a page.
pub const MAX_MAPS: usize = 12;
/// Most failed runs listed.
pub const MAX_LISTED: usize = 200;
/// Largest board side mapped (that of `plot --map`).
pub const MAX_SIDE: u32 = crate::render::startmap::MAX_SIDE;

/// A group: board, rule, method, closed.
type GroupKey = (u32, u32, String, String, bool);

/// One failed run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedStart {
    /// Board rows and columns.
    pub board: (u32, u32),
    /// Tie-break rule.
    pub rule: String,
    /// Solver.
    pub method: String,
    /// Closed tours asked for.
    pub closed: bool,
    /// Start (row, col).
    pub start: (u16, u16),
    /// Trial.
    pub trial: u32,
    /// The run's seed (`ktour solve --seed` replays it).
    pub seed: u64,
    /// `dead-end`, `not-closed`, `budget`.
    pub outcome: String,
    /// Squares on its final path.
    pub visited: u32,
}

/// The failing starts of a sweep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Failing {
    /// The start maps as one SVG, when any group failed on a board small enough.
    pub maps_svg: Option<String>,
    /// Maps drawn.
    pub maps: usize,
    /// The first [`MAX_LISTED`] failed runs, in file order.
    pub listed: Vec<FailedStart>,
    /// Failed runs in the file.
    pub failed_runs: u64,
    /// Lines saying what was left out.
    pub notes: Vec<String>,
}

/// The groups of `rows` that failed from some feasible start, in file order.
fn failed_groups(rows: &[SummaryRow]) -> Vec<GroupKey> {
    rows.iter()
        .filter(|r| r.successes < r.feasible_runs)
        .map(|r| (r.rows, r.cols, r.rule.clone(), r.method.clone(), r.closed))
        .collect()
}

/// The failing starts of the sweep in `dir` (its `runs.csv`), `rows` its summary, `mask` its mask.
pub fn failing_starts(
    dir: &Path,
    rows: &[SummaryRow],
    mask: Option<Shape>,
    title: &str,
) -> Result<Failing, ReportError> {
    let path = dir.join(crate::experiment::RUNS);
    let groups = failed_groups(rows);
    let (small, large): (Vec<GroupKey>, Vec<GroupKey>) = groups
        .into_iter()
        .partition(|g| g.0 <= MAX_SIDE && g.1 <= MAX_SIDE);
    let mut out = Failing::default();
    if !large.is_empty() {
        out.notes.push(format!(
            "{} failed on boards over {MAX_SIDE} a side: not mapped (listed below)",
            super::groups(large.len())
        ));
    }
    if small.len() > MAX_MAPS {
        out.notes.push(format!(
            "{} (board x rule x method) failed on boards up to {MAX_SIDE} a side: the first {MAX_MAPS} in the summary's order are mapped",
            super::groups(small.len())
        ));
    }
    let mapped: HashSet<GroupKey> = small.into_iter().take(MAX_MAPS).collect();
    let kept = read_runs(&path, &mapped, &mut out)?;
    if out.failed_runs > out.listed.len() as u64 {
        out.notes.push(format!(
            "{} failed runs: the first {} listed",
            out.failed_runs,
            out.listed.len()
        ));
    }
    if !kept.is_empty() {
        let sel = MapSelection {
            mask,
            ..MapSelection::default()
        };
        let maps = start_maps(&kept, &sel)?;
        out.maps = maps.len();
        out.maps_svg = Some(start_map_svg(
            &maps,
            &format!("start squares by outcome: {title}"),
        ));
    }
    Ok(out)
}

/// Read `path` row by row: count and list the failed runs into `out`, and keep the rows of the
/// `mapped` groups (each job once), which it returns.
fn read_runs(
    path: &Path,
    mapped: &HashSet<GroupKey>,
    out: &mut Failing,
) -> Result<Vec<RunRow<'static>>, ReportError> {
    let mut reader = super::error::csv_stream(path)?;
    let (mut kept, mut seen): (Vec<RunRow<'static>>, HashSet<u64>) = Default::default();
    let mut listed_jobs = HashSet::new();
    for row in reader.deserialize::<RunRow<'static>>() {
        let r = row.map_err(|e| ReportError::malformed(path, e))?;
        let failed = !r.success && !r.outcome.starts_with("no-tour");
        if failed && listed_jobs.insert(r.job) {
            out.failed_runs += 1;
            if out.listed.len() < MAX_LISTED {
                out.listed.push(FailedStart {
                    board: (r.rows, r.cols),
                    rule: r.rule.to_string(),
                    method: r.method.to_string(),
                    closed: r.closed,
                    start: (r.start_row, r.start_col),
                    trial: r.trial,
                    seed: r.seed,
                    outcome: r.outcome.to_string(),
                    visited: r.visited,
                });
            }
        }
        let key = (
            r.rows,
            r.cols,
            r.rule.to_string(),
            r.method.to_string(),
            r.closed,
        );
        if mapped.contains(&key) && seen.insert(r.job) {
            if u32::from(r.start_row) >= r.rows || u32::from(r.start_col) >= r.cols {
                return Err(ReportError::malformed(
                    path,
                    format!(
                        "job {} starts at ({},{}), off its {}x{} board",
                        r.job, r.start_row, r.start_col, r.rows, r.cols
                    ),
                ));
            }
            kept.push(r);
        }
    }
    Ok(kept)
}
