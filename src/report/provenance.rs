//! What was run, for the top of a section: the spec as TOML (`sweep --print-spec`'s text of the
//! `meta.json` spec), the build, machine, threads and times from `meta.json`, the shards of a
//! merged folder, and from `summary.csv` whether every group counted all of its runs (the partial
//! groups named, as the printed table marks them).

use super::ReportError;
use crate::experiment::{spec_toml, Meta, ShardRun, SummaryRow, META};
use std::path::Path;

/// Partial groups named on the page; the rest are counted.
pub const PARTIAL_NAMED: usize = 20;

/// The provenance of one sweep folder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Provenance {
    /// `meta.json` as read, `None` without one.
    pub meta: Option<MetaView>,
    /// Why `meta.json` is not shown, if it is not (missing, not a sweep's).
    pub meta_note: Option<String>,
    /// Groups (board x rule x method) in `summary.csv`.
    pub groups: usize,
    /// Runs those groups counted.
    pub runs: u64,
    /// Seconds in runs, summed over the groups (`elapsed_ns_total`): the workers' time, about the
    /// CPU time the runs took, over every invocation that added to them.
    pub run_seconds: f64,
    /// Groups that did not count every run (`complete` false).
    pub partial: usize,
    /// The first [`PARTIAL_NAMED`] of them, `RxC rule method`.
    pub partial_named: Vec<String>,
}

/// The fields of `meta.json` a page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct MetaView {
    /// The spec, as `sweep --print-spec` writes it.
    pub spec_toml: String,
    /// The spec's name.
    pub name: String,
    /// `complete`, `interrupted`, `failed`, `merged`, ...
    pub status: String,
    /// ktour's version and the commit it was built from.
    pub build: String,
    /// The command line of the last invocation.
    pub command: String,
    /// Worker threads.
    pub threads: usize,
    /// CPU model and logical CPUs.
    pub machine: String,
    /// Host name.
    pub hostname: String,
    /// First start, last start and end (RFC 3339).
    pub times: (String, String, String),
    /// Wall seconds of the last invocation.
    pub elapsed_s: f64,
    /// Runs of the whole sweep.
    pub total_runs: u64,
    /// Shard `(index, count)` of a shard's folder, which holds part of the sweep's groups.
    pub shard: Option<(u32, u32)>,
    /// The folders of a merge, each as its `meta.json` recorded it.
    pub shards: Vec<ShardRun>,
    /// Whether the sweep recorded every run (`record = "runs"` or more).
    pub records_runs: bool,
    /// What an exact value must share with the sweep, if one can describe it.
    pub exact: Option<super::exact::ExactContext>,
}

/// The provenance of the sweep in `dir` whose summary rows are `rows`.
pub fn provenance(dir: &Path, rows: &[SummaryRow]) -> Result<Provenance, ReportError> {
    let mut p = Provenance {
        groups: rows.len(),
        ..Provenance::default()
    };
    for r in rows {
        p.runs += r.runs;
        p.run_seconds += r.elapsed_ns_total as f64 / 1e9;
        if !r.complete {
            p.partial += 1;
            if p.partial_named.len() < PARTIAL_NAMED {
                p.partial_named.push(format!(
                    "{}x{} {} {}{}",
                    r.rows,
                    r.cols,
                    r.rule,
                    r.method,
                    if r.closed { " closed" } else { "" }
                ));
            }
        }
    }
    let path = dir.join(META);
    let text = match crate::input::read_text(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            p.meta_note = Some("no meta.json in the folder: what was run is not recorded".into());
            return Ok(p);
        }
        Err(cause) => return Err(ReportError::Io { path, cause }),
    };
    match serde_json::from_slice::<Meta>(&text) {
        Ok(meta) => p.meta = Some(view(&meta)),
        Err(e) => p.meta_note = Some(format!("meta.json is not a sweep's: {e}")),
    }
    Ok(p)
}

fn view(m: &Meta) -> MetaView {
    MetaView {
        spec_toml: spec_toml(&m.spec),
        name: m.spec.name.clone(),
        status: m.status.clone(),
        build: format!("ktour {} at commit {}", m.ktour_version, m.git_commit),
        command: m.command.clone(),
        threads: m.threads,
        machine: format!("{} ({} logical CPUs)", m.cpu_model, m.cpus),
        hostname: m.hostname.clone(),
        times: (
            m.first_started.clone(),
            m.started.clone(),
            m.finished.clone(),
        ),
        elapsed_s: m.elapsed_s,
        total_runs: m.total_runs,
        shard: m.shard,
        shards: m.shards.clone(),
        records_runs: m.spec.record != crate::experiment::RecordLevel::Summary,
        exact: super::exact::ExactContext::of(m),
    }
}
