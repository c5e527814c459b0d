//! `ktour report`: one self-contained HTML page of a sweep's results (no network, no external script
//! or font; the pictures inline SVG), for a sweep folder, a merged one or a folder of sweep folders
//! (a family, the atlas): what was run, the success table, the plots `ktour plot` draws, where the
//! walks died, and the failing starts. Built from the summary files; `runs.csv` and `deadends.csv`
//! are read row by row; what is drawn is capped, and the page says what it left out. The idea is
//! criterion's one HTML report a benchmark run; `docs/report.md` describes the page.
//!
//! One concept a file: the sweep folders of a report (`folder`), the provenance (`provenance`),
//! the success table (`grid`) with the exact values of `ktour exact` (`exact`), the plots
//! (`plots`), the dead-end lengths (`deadends`), the failing starts (`failing`), and the page
//! itself (`page`). This file holds the model a page is written from and its building.

mod deadends;
mod error;
mod exact;
mod failing;
mod folder;
mod grid;
mod page;
mod plots;
mod provenance;

pub use deadends::{bin, dead_ends_svg, read_dead_ends, RuleDeadEnds, BINS, MAX_PANELS};
pub use error::ReportError;
pub use exact::{ExactContext, ExactEntry, ExactStart, ExactValues};
pub use failing::{failing_starts, FailedStart, Failing, MAX_LISTED, MAX_MAPS};
pub use folder::{sweep_folders, MemberDir};
pub use grid::{exact_checks, success_grid, ExactCheck, Grid, GridCell, GridRow, SHOWN};
pub use page::report_html;
pub use plots::{pool_sizes, sweep_plots, Plots, MAX_POINTS};
pub use provenance::{provenance, MetaView, Provenance, PARTIAL_NAMED};

use crate::experiment::{DEADENDS, RUNS, SUMMARY};
use crate::render::read_summary;
use std::path::{Path, PathBuf};

/// How a report is built.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReportOptions {
    /// The folder of `ktour exact`'s JSON values (`results/exact`); `None`: no exact values.
    pub exact: Option<PathBuf>,
}

/// What a page shows: one section a sweep folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The folder as given.
    pub folder: String,
    /// Whether it is a folder of sweep folders (a family).
    pub family: bool,
    /// One a sweep folder.
    pub sections: Vec<Section>,
    /// Where exact values were read from and how many, if anywhere.
    pub exact: Option<(String, usize)>,
}

/// One sweep folder's part of the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The folder's name.
    pub name: String,
    /// The sweep's title (its spec's name, else the folder's).
    pub title: String,
    /// What was run.
    pub provenance: Provenance,
    /// The success table.
    pub grid: Grid,
    /// The per-board sampled rates with an exact value.
    pub exact_checks: Vec<ExactCheck>,
    /// The plots.
    pub plots: Plots,
    /// Dead ends per rule, or why there are none.
    pub dead_ends: Result<Vec<RuleDeadEnds>, String>,
    /// The failing starts, or why they are not known.
    pub failing: Result<Failing, String>,
}

/// The report of `dir`.
pub fn build_report(dir: &Path, opts: &ReportOptions) -> Result<Report, ReportError> {
    let (family, members) = sweep_folders(dir)?;
    let exact = opts.exact.as_deref().map(ExactValues::read);
    let sections = members
        .iter()
        .map(|m| build_section(m, exact.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Report {
        folder: dir.display().to_string(),
        family,
        sections,
        exact: exact.map(|e| (e.source.clone(), e.entries.len())),
    })
}

/// One sweep folder's section.
fn build_section(m: &MemberDir, exact: Option<&ExactValues>) -> Result<Section, ReportError> {
    let summary = read_summary(&m.dir.join(SUMMARY), None)?;
    let provenance = provenance(&m.dir, &summary.rows)?;
    let context = provenance.meta.as_ref().and_then(|v| v.exact.as_ref());
    let pair = exact.zip(context);
    let grid = success_grid(&summary.rows, pair);
    let exact_checks = exact_checks(&summary.rows, pair);
    let plots = sweep_plots(&summary)?;
    let mask = crate::experiment::sweep_mask(&m.dir)
        .map_err(|e| ReportError::malformed(m.dir.join(crate::experiment::META), e))?;
    let dead_path = m.dir.join(DEADENDS);
    let dead_ends = if dead_path.is_file() {
        Ok(read_dead_ends(&dead_path, mask.as_ref())?)
    } else {
        Err("no deadends.csv in the folder".to_string())
    };
    let records = provenance.meta.as_ref().map(|v| v.records_runs);
    let failing = if m.dir.join(RUNS).is_file() {
        Ok(failing_starts(&m.dir, &summary.rows, mask, &summary.title)?)
    } else if records == Some(true) {
        Err("the sweep recorded its runs, but runs.csv is not in the folder".to_string())
    } else {
        Err("the sweep recorded summaries only (record = \"summary\"): which starts failed is not known; `sweep --record runs` records them".to_string())
    };
    Ok(Section {
        name: m.name.clone(),
        title: summary.title,
        provenance,
        grid,
        exact_checks,
        plots,
        dead_ends,
        failing,
    })
}

/// The default folder of exact values: `results/exact` under the current folder, else under the
/// repository ktour was built from; `None` when neither is there.
pub fn default_exact_dir() -> Option<PathBuf> {
    let here = PathBuf::from("results/exact");
    if here.is_dir() {
        return Some(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/exact");
    built.is_dir().then_some(built)
}

/// "1 group", "2 groups": the page's notes count groups (board x rule x method).
fn groups(n: usize) -> String {
    if n == 1 {
        "1 group".to_string()
    } else {
        format!("{n} groups")
    }
}
