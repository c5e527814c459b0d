//! `ktour gen-bases`: regenerate the base tours of the divide-and-conquer construction with ktour's
//! own constrained search and write them to `src/construct/bases.txt` (see `construct::bases`).

use super::ExitStatus;
use crate::construct::bases;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `ktour gen-bases`.
#[derive(Debug, Args)]
pub struct GenBasesArgs {
    /// Where to write the tours (`-` for standard output).
    #[arg(long, short = 'o', default_value = "src/construct/bases.txt")]
    pub output: PathBuf,
    /// Do not write: compare with the committed tours and exit 1 if they differ.
    #[arg(long)]
    pub check: bool,
}

/// Run `ktour gen-bases`.
pub fn run(args: GenBasesArgs) -> anyhow::Result<ExitStatus> {
    let mut entries = Vec::new();
    for spec in bases::specs() {
        let t = Instant::now();
        let order = bases::generate(&spec)
            .with_context(|| format!("no base tour found for {spec:?} within the search budget"))?;
        eprintln!(
            "{:>7} {:>2}x{:<2} {:?} roles {:04b}: {:.3} s",
            format!("{:?}", spec.family),
            spec.rows,
            spec.cols,
            spec.shape,
            spec.roles,
            t.elapsed().as_secs_f64()
        );
        entries.push((spec, order));
    }
    let text = bases::format_file(&entries);
    if args.check {
        if text == bases::BASES_TXT {
            println!("bases.txt is up to date ({} tours)", entries.len());
            return Ok(ExitStatus::Success);
        }
        println!("bases.txt differs from what the search generates now");
        return Ok(ExitStatus::NotFound);
    }
    if args.output.as_os_str() == "-" {
        print!("{text}");
    } else {
        std::fs::write(&args.output, &text)
            .with_context(|| format!("writing {}", args.output.display()))?;
        eprintln!("wrote {} tours to {}", entries.len(), args.output.display());
    }
    Ok(ExitStatus::Success)
}
