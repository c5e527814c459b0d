//! `ktour rules`: the tie-break rules, one line each, with their sources.

use super::ExitStatus;
use crate::solve::rules::RULE_CATALOGUE;
use clap::Args;

/// Arguments of `ktour rules` (none).
#[derive(Debug, Args)]
pub struct RulesArgs {}

pub fn run(_: RulesArgs) -> anyhow::Result<ExitStatus> {
    let width = RULE_CATALOGUE
        .iter()
        .map(|(n, _)| n.len())
        .max()
        .unwrap_or(0);
    for (name, what) in RULE_CATALOGUE {
        println!("{name:width$}  {what}");
    }
    Ok(ExitStatus::Success)
}
