//! `ktour merge`: the output folders of `sweep --shard` runs combined into one result, a family's
//! member by member ([`experiment::merge_folders`]).

use super::args::ExitStatus;
use crate::experiment::{self, MergeReport, Merged};
use clap::Args;
use std::path::{Path, PathBuf};

/// Arguments of `ktour merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard output folders of one spec (of one family: a family's shard folders, merged member by
    /// member into --out/MEMBER).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Folder for the combined result.
    #[arg(long)]
    out: PathBuf,
    /// Replace a result already in --out.
    #[arg(long)]
    force: bool,
}

pub fn run(args: MergeArgs) -> anyhow::Result<ExitStatus> {
    let merged = experiment::merge_folders(&args.dirs, &args.out, args.force)?;
    let mut complete = true;
    match &merged {
        Merged::Sweep(r) => complete &= report(r, "", args.dirs.len(), &args.out),
        Merged::Family(members) => {
            for m in members {
                let label = format!("member {}: ", m.member);
                let out = args.out.join(&m.member);
                complete &= report(&m.report, &label, m.parts.len(), &out);
            }
        }
    }
    Ok(if complete {
        ExitStatus::Success
    } else {
        ExitStatus::NotFound
    })
}

/// Print what one merge did, each line led by `label`; whether it is complete.
fn report(r: &MergeReport, label: &str, folders: usize, out: &Path) -> bool {
    for (dir, chunks) in &r.damaged {
        eprintln!(
            "{label}warning: {} lacks rows of {} chunk{} its {} lists, or holds them altered (chunk {}{}): counted as missing; `sweep --resume` there runs {} again",
            dir.join(experiment::RUNS).display(),
            chunks.len(),
            if chunks.len() == 1 { "" } else { "s" },
            experiment::CHUNKS,
            chunks[0],
            if chunks.len() > 1 { ", ..." } else { "" },
            if chunks.len() == 1 { "it" } else { "them" },
        );
    }
    for file in &r.sorted_in_memory {
        eprintln!(
            "{label}note: the rows of {} are not in job order (a resume ran chunks again): they were sorted in memory",
            file.display()
        );
    }
    eprintln!(
        "{label}merged {folders} folder{}: {} of {} chunks, {} runs -> {}",
        if folders == 1 { "" } else { "s" },
        r.chunks,
        r.total_chunks,
        r.runs,
        out.display()
    );
    if r.chunks < r.total_chunks {
        eprintln!(
            "{label}warning: {} chunks are missing (shards not all run or not finished, or rows lost)",
            r.total_chunks - r.chunks
        );
        return false;
    }
    true
}
