//! The `ktour` command line: the clap definitions and one module per subcommand. Each subcommand turns
//! its arguments into validated library values once, then calls the library.

mod animate;
mod args;
mod count;
mod estimate;
mod exact;
mod exists;
mod failures;
mod gen_bases;
mod merge;
mod plot;
mod render;
mod report;
mod rules;
mod sample;
mod solve;
mod sweep;
mod verify;

pub use args::{BoardArgs, ExitStatus, ShapeArgs};

use clap::{Parser, Subcommand};

/// ktour: a research harness for the knight's tour problem.
#[derive(Debug, Parser)]
#[command(name = "ktour", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find a knight's tour (or show where a method fails) and print it.
    Solve(solve::SolveArgs),
    /// Check a tour file (JSON, or `r,c` lines with --rows/--cols): prints `valid open tour`,
    /// `valid closed tour`, or the first thing wrong.
    Verify(verify::VerifyArgs),
    /// Say whether a board has an open (or closed) tour, and why, from the theorems.
    Exists(exists::ExistsArgs),
    /// Run an experiment: boards x starts x rules x methods, in parallel, to CSV, from a spec file,
    /// flags, or both. Without either, the built-in default experiment.
    Sweep(sweep::SweepArgs),
    /// List the start squares from which a sweep's runs failed (dead end, budget, with the squares
    /// visited), per board x rule x method, from the folder's runs.csv.
    Failures(failures::FailuresArgs),
    /// Combine the output folders of `sweep --shard` runs into one result.
    Merge(merge::MergeArgs),
    /// Draw a tour JSON as SVG (a failed run shows its dead end, stranded squares and last choices).
    Render(render::RenderArgs),
    /// Plot a sweep's summary CSV: success rate, backtracks and throughput against board size.
    Plot(plot::PlotArgs),
    /// Write a self-contained HTML page replaying a run step by step.
    Animate(animate::AnimateArgs),
    /// Write one self-contained HTML page of a sweep's results (a sweep folder, a merged one or a
    /// family): what was run, the success table, the plots, dead-end lengths and failing starts.
    Report(report::ReportArgs),
    /// Regenerate the base tours of the divide-and-conquer construction (src/construct/bases.txt).
    GenBases(gen_bases::GenBasesArgs),
    /// List the tie-break rules with their sources.
    Rules(rules::RulesArgs),
    /// Count tours exactly: open (directed) or closed (cycles); by search (at most 64 squares) or
    /// `--method frontier` (at most 8 wide).
    Count(count::CountArgs),
    /// Exact probabilities of pure Warnsdorff under a random tie-break rule (the whole tree of tie
    /// choices): a complete tour, a closed tour, a dead end after exactly L squares; or, with
    /// --sample K, a sampled estimate with 95% intervals.
    Exact(exact::ExactArgs),
    /// Estimate the number of tours past what can be counted (sequential importance sampling), with
    /// a 95% interval and the diagnostics of its heavy tail.
    Estimate(estimate::EstimateArgs),
    /// Draw tours uniformly at random from the frontier counts (boards at most 8 wide), in the
    /// formats `solve` writes and `verify` reads.
    Sample(sample::SampleArgs),
}

/// The one line printed for a user error: the error and its causes joined by `: `, each cause left
/// out when the line already ends with it. Library errors that wrap another one (`#[from]`) quote it
/// in their own message and also report it as their source, so `{:#}` printed it twice.
pub fn error_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain().map(|c| c.to_string()) {
        if line.is_empty() {
            line = cause;
        } else if !line.ends_with(&cause) {
            line = format!("{line}: {cause}");
        }
    }
    line
}

/// Run a parsed command line. User errors come back as `Err` (exit 2); outcomes as an [`ExitStatus`].
pub fn run(cli: Cli) -> anyhow::Result<ExitStatus> {
    match cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Exists(a) => exists::run(a),
        Command::Render(a) => render::run(a),
        Command::Plot(a) => plot::run(a),
        Command::Animate(a) => animate::run(a),
        Command::Report(a) => report::run(a),
        Command::GenBases(a) => gen_bases::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Failures(a) => failures::run(a),
        Command::Count(a) => count::run(a),
        Command::Exact(a) => exact::run(a),
        Command::Estimate(a) => estimate::run(a),
        Command::Sample(a) => sample::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_line_prints_each_cause_once() {
        let quoted = crate::tour::parse_tour(b"{\"rows\": 5", None).unwrap_err();
        let err = anyhow::Error::from(quoted).context("t.json");
        let line = error_line(&err);
        assert!(line.starts_with("t.json: malformed tour JSON: "), "{line}");
        assert_eq!(line.matches("EOF while parsing").count(), 1, "{line}");
        // causes that are not quoted are all kept
        let plain = anyhow::anyhow!("inner").context("middle").context("outer");
        assert_eq!(error_line(&plain), "outer: middle: inner");
    }
}
