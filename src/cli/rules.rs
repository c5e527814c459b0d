//! `ktour rules`: the parts of the rule algebra and the whole rules, one line each, with their
//! sources, then how parts make a rule.

use super::ExitStatus;
use crate::solve::rules::{RULE_CATALOGUE, RULE_SYNTAX};
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
    println!();
    println!("{RULE_SYNTAX}");
    Ok(ExitStatus::Success)
}
