//! `ktour report`: one self-contained HTML page of a sweep's results ([`crate::report`] builds it;
//! this parses the arguments and writes the file).

use super::ExitStatus;
use crate::report::{build_report, default_exact_dir, report_html, ReportOptions};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `ktour report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A sweep's output folder, a merged one, or a folder of sweep folders (a family).
    dir: PathBuf,
    /// The page to write (default: DIR/report.html).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Folder of `ktour exact` JSON values shown beside the sampled rates where board, rule and
    /// starts match (default: results/exact under the current folder, else under the repository
    /// ktour was built from).
    #[arg(long, conflicts_with = "no_exact")]
    exact: Option<PathBuf>,
    /// Show no exact values.
    #[arg(long)]
    no_exact: bool,
}

pub fn run(args: ReportArgs) -> anyhow::Result<ExitStatus> {
    let exact = match (args.exact, args.no_exact) {
        (_, true) => None,
        (Some(dir), false) if !dir.is_dir() => {
            anyhow::bail!("--exact {}: no such folder", dir.display())
        }
        (Some(dir), false) => Some(dir),
        (None, false) => default_exact_dir(),
    };
    let report = build_report(&args.dir, &ReportOptions { exact })?;
    let page = report_html(&report);
    let output = args.output.unwrap_or_else(|| args.dir.join("report.html"));
    std::fs::write(&output, &page).map_err(|e| anyhow::anyhow!("{}: {e}", output.display()))?;
    println!(
        "wrote {} ({} KB, {} sections)",
        output.display(),
        page.len().div_ceil(1024),
        report.sections.len()
    );
    Ok(ExitStatus::Success)
}
