//! The failing starts of a sweep: per board x rule x method, the runs of `runs.csv` that found no
//! tour (a dead end, a path that did not close, a spent budget) with the squares they visited.
//! Runs from starts where no tour exists are not failures of the rule: they are counted apart.

use super::output::{Meta, META, RUNS};
use super::record::{FailureRow, RunRow};
use super::spec_file::RecordLevel;
use crate::board::{Leaper, Shape};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Why a folder's failing starts could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum FailuresError {
    /// The sweep recorded summaries only: which starts failed was not written.
    #[error("{dir} holds summaries only (record = \"summary\"), which count failures but do not say which starts failed; run the sweep again with record = \"runs\" in its spec, or --record runs")]
    SummaryOnly {
        /// The folder.
        dir: PathBuf,
    },
    /// Neither `runs.csv` nor `meta.json` is there.
    #[error("{dir} holds no sweep results (no {RUNS} or {META})")]
    NoResults {
        /// The folder.
        dir: PathBuf,
    },
    /// A file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not what a sweep writes.
    #[error("{path}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
}

/// A run that found no tour from a start where one exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedRun {
    /// Start row (0-based).
    pub start_row: u16,
    /// Start column (0-based).
    pub start_col: u16,
    /// Trial (random rules).
    pub trial: u32,
    /// The run's seed (`ktour solve --seed` replays it).
    pub seed: u64,
    /// How it failed: `dead-end`, `not-closed` or `budget`.
    pub outcome: String,
    /// Squares on its final path.
    pub visited: u32,
}

/// The failed runs of one board x rule x method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupFailures {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: String,
    /// Method.
    pub method: String,
    /// Whether closed tours were required.
    pub closed: bool,
    /// Runs recorded.
    pub runs: u64,
    /// The board's squares: `rows * cols` less the holes of the sweep's mask.
    pub squares: u64,
    /// Runs from starts where no tour exists (not failures of the rule).
    pub no_tour: u64,
    /// The failed runs, in job order.
    pub failed: Vec<FailedRun>,
}

/// The mask a sweep ran on, from the `meta.json` in `dir` (its `spec.mask`): `None` for a whole
/// board, or where there is no `meta.json`. A `meta.json` that is not JSON, or a mask that is not
/// one, is refused with a line naming the file.
pub fn sweep_mask(dir: &Path) -> Result<Option<Shape>, String> {
    let path = dir.join(META);
    let Ok(text) = crate::input::read_text(&path) else {
        return Ok(None);
    };
    let bad = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let meta: serde_json::Value = serde_json::from_slice(&text).map_err(|e| bad(&e))?;
    match meta.pointer("/spec/mask").and_then(|m| m.as_str()) {
        // the leaper moves on the squares; which squares there are is the mask's alone
        Some(mask) => Shape::from_mask(mask, Leaper::KNIGHT)
            .map(Some)
            .map_err(|e| bad(&e)),
        None => Ok(None),
    }
}

/// The squares of the `rows` x `cols` board of a sweep run on `mask`: the mask's own when it draws
/// that board (a masked sweep has no other), else every square.
pub fn board_squares(rows: u32, cols: u32, mask: Option<&Shape>) -> u64 {
    match mask {
        Some(m) if (m.board().rows(), m.board().cols()) == (rows, cols) => u64::from(m.len()),
        _ => u64::from(rows) * u64::from(cols),
    }
}

/// The failing starts recorded in `dir/runs.csv`, per board x rule x method in the order the sweep
/// ran them (a row written twice, by a resume, counts once).
pub fn read_failures(dir: &Path) -> Result<Vec<GroupFailures>, FailuresError> {
    let path = dir.join(RUNS);
    let bytes = match crate::input::read_text(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(no_runs(dir)),
        Err(source) => return Err(FailuresError::Read { path, source }),
    };
    let mask = sweep_mask(dir).map_err(|message| FailuresError::Malformed {
        path: dir.join(META),
        message,
    })?;
    // rows are taken as read, holding only the failed runs: `runs.csv` may hold millions
    let mut seen = HashSet::new();
    let mut groups = Groups {
        mask,
        groups: Vec::new(),
        index: HashMap::new(),
        last: None,
    };
    let mut reader = csv::Reader::from_reader(&bytes[..]);
    for (i, row) in reader.deserialize::<RunRow>().enumerate() {
        let r = row.map_err(|e| FailuresError::Malformed {
            path: path.clone(),
            // line 1 is the header
            message: format!("line {}: {e}", i + 2),
        })?;
        if !seen.insert(r.job) {
            continue;
        }
        let at = groups.of(&r);
        groups.groups[at].count(&r);
    }
    Ok(in_job_order(groups.groups))
}

/// The groups as their rows are read, and where each is.
struct Groups {
    /// The sweep's shape, which says how many squares a board has.
    mask: Option<Shape>,
    groups: Vec<Building>,
    index: HashMap<(u32, u32, bool, String, String), usize>,
    /// The group of the row before.
    last: Option<usize>,
}

impl Groups {
    /// The group of row `r`, begun at the first row of it.
    fn of(&mut self, r: &RunRow) -> usize {
        let same = |b: &Building| {
            let g = &b.group;
            (g.rows, g.cols, g.closed) == (r.rows, r.cols, r.closed)
                && g.rule == r.rule
                && g.method == r.method
        };
        // a group's rows are consecutive but after a resume: look past the last group only then
        let at = match self.last.filter(|&k: &usize| same(&self.groups[k])) {
            Some(k) => k,
            None => {
                let key = (
                    r.rows,
                    r.cols,
                    r.closed,
                    r.rule.to_string(),
                    r.method.to_string(),
                );
                let (groups, mask) = (&mut self.groups, self.mask.as_ref());
                *self.index.entry(key).or_insert_with(|| {
                    groups.push(Building {
                        first_job: r.job,
                        group: GroupFailures {
                            rows: r.rows,
                            cols: r.cols,
                            rule: r.rule.to_string(),
                            method: r.method.to_string(),
                            closed: r.closed,
                            squares: board_squares(r.rows, r.cols, mask),
                            runs: 0,
                            no_tour: 0,
                            failed: Vec::new(),
                        },
                        jobs: Vec::new(),
                    });
                    groups.len() - 1
                })
            }
        };
        self.last = Some(at);
        at
    }
}

impl Building {
    /// Count row `r` of this group, keeping it when its run failed (a board with no tour aside).
    fn count(&mut self, r: &RunRow) {
        self.first_job = self.first_job.min(r.job);
        self.group.runs += 1;
        if r.success {
            return;
        }
        if r.outcome.starts_with("no-tour") {
            self.group.no_tour += 1;
            return;
        }
        self.jobs.push(r.job);
        self.group.failed.push(FailedRun {
            start_row: r.start_row,
            start_col: r.start_col,
            trial: r.trial,
            seed: r.seed,
            outcome: r.outcome.to_string(),
            visited: r.visited,
        });
    }
}

/// The groups in the order of their first job, each one's failed runs in job order.
fn in_job_order(mut groups: Vec<Building>) -> Vec<GroupFailures> {
    groups.sort_by_key(|b| b.first_job);
    groups
        .into_iter()
        .map(|mut b| {
            let mut runs: Vec<(u64, FailedRun)> = b.jobs.into_iter().zip(b.group.failed).collect();
            runs.sort_by_key(|r| r.0);
            b.group.failed = runs.into_iter().map(|r| r.1).collect();
            b.group
        })
        .collect()
}

/// A group as its rows are read: its first job, and the job of each failed run, to put both in job
/// order at the end.
struct Building {
    first_job: u64,
    group: GroupFailures,
    jobs: Vec<u64>,
}

/// Why `dir` has no `runs.csv`: its sweep recorded summaries only, or it holds no results.
fn no_runs(dir: &Path) -> FailuresError {
    let meta = crate::input::read_text(&dir.join(META))
        .ok()
        .and_then(|text| serde_json::from_slice::<Meta>(&text).ok());
    match meta {
        Some(m) if m.spec.record == RecordLevel::Summary => FailuresError::SummaryOnly {
            dir: dir.to_path_buf(),
        },
        _ => FailuresError::NoResults {
            dir: dir.to_path_buf(),
        },
    }
}

/// `groups` for a reader: each board x rule x method with failed runs, its starts and how far each
/// got, then a line of totals.
pub fn failures_text(groups: &[GroupFailures]) -> String {
    let mut s = String::new();
    let (mut runs, mut failed) = (0, 0);
    for g in groups {
        runs += g.runs;
        failed += g.failed.len() as u64;
        if g.failed.is_empty() {
            continue;
        }
        let _ = write!(
            s,
            "{}x{} {} {}{}: {} of {} runs failed",
            g.rows,
            g.cols,
            g.rule,
            g.method,
            if g.closed { " closed" } else { "" },
            g.failed.len(),
            g.runs
        );
        if g.no_tour > 0 {
            let _ = write!(s, " ({} more from starts with no tour)", g.no_tour);
        }
        s.push('\n');
        let trials = g.failed.iter().any(|f| f.trial > 0);
        for f in &g.failed {
            let _ = write!(
                s,
                "  start {},{}{}: {} after {} of {} squares",
                f.start_row,
                f.start_col,
                if trials {
                    format!(" trial {}", f.trial)
                } else {
                    String::new()
                },
                f.outcome,
                f.visited,
                g.squares
            );
            s.push('\n');
        }
    }
    let with = groups.iter().filter(|g| !g.failed.is_empty()).count();
    let _ = writeln!(
        s,
        "{failed} of {runs} runs failed, in {with} of {} board x rule x method groups",
        groups.len()
    );
    s
}

/// The columns of [`failures_csv`].
pub const FAILURES_HEADER: &str =
    "rows,cols,rule,method,closed,start_row,start_col,trial,seed,outcome,visited,squares";

/// `groups` as tidy CSV: one row per failed run ([`FAILURES_HEADER`], the columns of
/// [`FailureRow`]), the header even when no run failed.
pub fn failures_csv(groups: &[GroupFailures]) -> String {
    let mut out = format!("{FAILURES_HEADER}\n").into_bytes();
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(&mut out);
    for g in groups {
        for f in &g.failed {
            let row = FailureRow {
                rows: g.rows,
                cols: g.cols,
                rule: g.rule.as_str(),
                method: g.method.as_str(),
                closed: g.closed,
                start_row: f.start_row,
                start_col: f.start_col,
                trial: f.trial,
                seed: f.seed,
                outcome: f.outcome.as_str(),
                visited: f.visited,
                squares: g.squares,
            };
            w.serialize(row).expect("writes to memory");
        }
    }
    w.flush().expect("writes to memory");
    drop(w);
    String::from_utf8(out).expect("CSV of UTF-8 fields")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "job,rows,cols,rule,method,closed,start_row,start_col,trial,seed,outcome,success,visited,nodes,backtracks,ties,elapsed_ns";

    fn folder(runs: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(RUNS), format!("{HEADER}\n{runs}")).unwrap();
        dir
    }

    #[test]
    fn failed_runs_are_listed_per_group_and_starts_without_a_tour_apart() {
        // out of job order (groups too), one row twice (a resume), a start with no tour
        let dir = folder(
            "2,5,5,first,warnsdorff,false,0,1,0,7,no-tour-theorem,false,1,1,0,0,5\n\
             0,5,5,first,warnsdorff,false,0,0,0,7,found,true,25,25,0,3,5\n\
             1,5,5,first,warnsdorff,false,2,2,0,7,dead-end,false,19,19,0,3,5\n\
             1,5,5,first,warnsdorff,false,2,2,0,7,dead-end,false,19,19,0,3,5\n\
             4,5,5,roth,backtrack,false,0,0,0,7,budget,false,21,99,78,3,5\n\
             3,5,5,roth,warnsdorff,false,0,0,0,7,found,true,25,25,0,3,5\n",
        );
        let groups = read_failures(dir.path()).unwrap();
        assert_eq!(groups.len(), 3);
        assert_eq!((groups[0].runs, groups[0].no_tour), (3, 1));
        assert_eq!(
            groups[0].failed,
            [FailedRun {
                start_row: 2,
                start_col: 2,
                trial: 0,
                seed: 7,
                outcome: "dead-end".into(),
                visited: 19
            }]
        );
        assert!(groups[1].failed.is_empty());
        assert_eq!(groups[2].failed[0].outcome, "budget");
        let text = failures_text(&groups);
        assert!(
            text.starts_with(
                "5x5 first warnsdorff: 1 of 3 runs failed (1 more from starts with no tour)\n  start 2,2: dead-end after 19 of 25 squares\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("2 of 5 runs failed, in 2 of 3 board x rule x method groups\n"),
            "{text}"
        );
        let csv = failures_csv(&groups);
        assert_eq!(
            csv.lines().collect::<Vec<_>>(),
            [
                FAILURES_HEADER,
                "5,5,first,warnsdorff,false,2,2,0,7,dead-end,19,25",
                "5,5,roth,backtrack,false,0,0,0,7,budget,21,25"
            ]
        );
    }

    /// On a masked sweep the squares are the board's own: the text's "of N squares" and the CSV's
    /// `squares` column count the mask's squares, not rows x cols; the CSV reads back through its
    /// row type to the groups' values.
    #[test]
    fn a_masked_board_counts_its_own_squares() {
        let dir = folder(
            "0,3,4,first,warnsdorff,false,0,0,0,7,dead-end,false,5,5,0,3,5\n\
             1,3,4,first,warnsdorff,false,0,1,0,8,dead-end,false,6,6,0,3,5\n",
        );
        // 3x4 with two holes: 10 squares
        let meta = serde_json::json!({"spec": {"name": "m", "mask": "#...\n....\n...#\n"}});
        std::fs::write(dir.path().join(META), meta.to_string()).unwrap();
        let groups = read_failures(dir.path()).unwrap();
        assert_eq!(groups[0].squares, 10);
        let text = failures_text(&groups);
        assert!(
            text.contains("start 0,0: dead-end after 5 of 10 squares"),
            "{text}"
        );
        let csv = failures_csv(&groups);
        let rows: Vec<FailureRow> = csv::Reader::from_reader(csv.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        let want: Vec<(u16, u16, u64, u32, u64)> = vec![(0, 0, 7, 5, 10), (0, 1, 8, 6, 10)];
        assert_eq!(
            rows.iter()
                .map(|r| (r.start_row, r.start_col, r.seed, r.visited, r.squares))
                .collect::<Vec<_>>(),
            want
        );
        assert!(rows
            .iter()
            .all(|r| (r.rows, r.cols, &*r.rule, &*r.outcome) == (3, 4, "first", "dead-end")));
        // a mask of another board (not this sweep's) leaves rows x cols; a damaged meta.json is
        // refused by name
        let meta = serde_json::json!({"spec": {"mask": "....\n....\n"}});
        std::fs::write(dir.path().join(META), meta.to_string()).unwrap();
        assert_eq!(read_failures(dir.path()).unwrap()[0].squares, 12);
        std::fs::write(dir.path().join(META), "{").unwrap();
        let e = read_failures(dir.path()).unwrap_err().to_string();
        assert!(e.contains("meta.json"), "{e}");
    }

    /// The CSV's header is its row type's columns, written even when no run failed.
    #[test]
    fn the_header_is_the_row_types_columns() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(FailureRow::<&str>::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next(), Some(FAILURES_HEADER));
        assert_eq!(failures_csv(&[]), format!("{FAILURES_HEADER}\n"));
    }

    #[test]
    fn folders_without_runs_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_failures(dir.path()).unwrap_err();
        assert!(matches!(e, FailuresError::NoResults { .. }), "{e}");
        let bad = folder("0,5,5,first\n");
        let e = read_failures(bad.path()).unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
    }
}
