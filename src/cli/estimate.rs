//! `ktour estimate`: an estimate of the number of tours with a 95% interval and the diagnostics of
//! its heavy tail, by sequential importance sampling ([`crate::estimate`]). Parsing and printing only.

use super::args::parse_threads;
use super::{BoardArgs, ExitStatus};
use crate::board::Closure;
use crate::estimate::{estimate, Estimate, EstimateRequest, Proposal, Summary};
use anyhow::Context;
use clap::{Args, ValueEnum};

/// Output formats of `ktour estimate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EstimateFormat {
    /// The estimate, the intervals and the diagnostics in words; the last line is the estimate alone.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `ktour estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Estimate closed tours (undirected cycles, as `count --closed`); else directed open tours from
    /// every start (as `count`).
    #[arg(long)]
    closed: bool,
    /// Random walks (plain or like 1e6), at most 50,000,000.
    #[arg(long, default_value = "100000", value_name = "K", value_parser = parse_samples)]
    samples: u64,
    /// Seed of the walks: the same seed gives the same estimate on any number of threads.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// How moves are drawn: uniform (Knuth 1975), or warnsdorff:A (weight (d+1)^-A for a square with
    /// d onward moves; warnsdorff alone is A = 2).
    #[arg(long, default_value = "warnsdorff", value_name = "P")]
    proposal: String,
    /// Do not leave out moves into states that hold no tour (for comparison; same expectation).
    #[arg(long)]
    no_prune: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EstimateFormat::Text)]
    format: EstimateFormat,
}

/// A number of walks, plain (1000000) or like 1e6.
fn parse_samples(text: &str) -> Result<u64, String> {
    let wrong =
        || format!("`{text}` is not a number of walks: write it plain (1000000) or like 1e6");
    if let Ok(n) = text.parse::<u64>() {
        return Ok(n);
    }
    let (mantissa, exponent) = text.split_once(['e', 'E']).ok_or_else(wrong)?;
    let n = mantissa.parse::<f64>().map_err(|_| wrong())?
        * 10f64.powi(exponent.parse::<i32>().map_err(|_| wrong())?);
    if !(0.0..1e18).contains(&n) || n.fract() != 0.0 {
        return Err(wrong());
    }
    Ok(n as u64)
}

pub fn run(args: EstimateArgs) -> anyhow::Result<ExitStatus> {
    let board = args.board.board()?;
    let proposal: Proposal = args.proposal.parse().context("--proposal")?;
    let request = EstimateRequest {
        board,
        closure: Closure::of(args.closed),
        samples: args.samples,
        seed: args.seed,
        proposal,
        prune: !args.no_prune,
        progress: true,
    };
    let result = match args.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .context("starting the threads")?
            .install(|| estimate(&request))?,
        None => estimate(&request)?,
    };
    match args.format {
        EstimateFormat::Json => println!("{}", serde_json::to_string(&result)?),
        EstimateFormat::Text => print_text(&result),
    }
    Ok(ExitStatus::Success)
}

/// A non-negative number in scientific notation with 5 significant digits, any size.
fn sci(log10: f64) -> String {
    if log10 == f64::NEG_INFINITY {
        return "0".into();
    }
    let exponent = log10.floor();
    let mantissa = 10f64.powf(log10 - exponent);
    format!("{mantissa:.4}e{exponent}")
}

fn print_text(e: &Estimate) {
    let s = &e.summary;
    let what = if e.closed {
        "closed tours (undirected cycles)"
    } else {
        "open tours (directed, every start)"
    };
    let pruned = if e.prune { "pruned" } else { "not pruned" };
    println!(
        "estimate: {what} of {}x{}, proposal {}, {pruned}",
        e.rows, e.cols, e.proposal
    );
    println!(
        "walks: {} in {:.2} s on {} threads (seed {}); {:.3}% found a tour",
        s.samples,
        e.seconds,
        e.threads,
        e.seed,
        100.0 * s.hits as f64 / s.samples as f64
    );
    if s.hits == 0 {
        println!("no walk found a tour: the estimate is 0, with no interval (take more walks)");
        println!("0");
        return;
    }
    let low = if s.low > 0.0 {
        s.low.log10()
    } else {
        f64::NEG_INFINITY
    };
    println!(
        "95% interval (normal): [{}, {}], +-{:.2}%",
        sci(low),
        sci(s.log10_estimate + (1.0 + s.relative_half_width()).log10()),
        100.0 * s.relative_half_width()
    );
    if let Some(h) = s.batch_relative_half_width {
        println!("95% interval (32 batch means, t): +-{:.2}%", 100.0 * h);
    }
    print_diagnostics(e);
    println!("{}", sci(s.log10_estimate));
}

fn print_diagnostics(e: &Estimate) {
    let s = &e.summary;
    println!(
        "effective sample size: {:.0} ({:.2}% of the walks)",
        s.ess,
        100.0 * s.ess / s.samples as f64
    );
    println!(
        "largest 1% of the walks carry {:.1}% of the sum, the largest one {:.2}%",
        100.0 * s.top1_share,
        100.0 * s.max_share
    );
    println!(
        "sd of ln(weight) over the walks that found a tour: {:.2} (log-normal rule of thumb: K well past exp(sd^2) = {})",
        s.ln_sd,
        sci(s.ln_sd.powi(2) / std::f64::consts::LN_10)
    );
    println!("how it moves with K:");
    println!(
        "{:>12}  {:>11}  {:>9}  {:>12}",
        "K", "estimate", "+-95%", "ESS"
    );
    for stage in &e.stages {
        print_stage(stage);
    }
}

fn print_stage(s: &Summary) {
    println!(
        "{:>12}  {:>11}  {:>8.2}%  {:>12.0}",
        s.samples,
        sci(s.log10_estimate),
        100.0 * s.relative_half_width(),
        s.ess
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_parse_plain_or_scientific() {
        assert_eq!(parse_samples("1000"), Ok(1000));
        assert_eq!(parse_samples("1e6"), Ok(1_000_000));
        assert_eq!(parse_samples("2.5e3"), Ok(2500));
        for bad in ["", "x", "1.5", "1e-3", "-1", "1e30"] {
            assert!(parse_samples(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sci_prints_any_size() {
        assert_eq!(sci(3.0), "1.0000e3");
        assert_eq!(sci(1234.5f64.log10()), "1.2345e3");
        assert_eq!(sci(400.5), "3.1623e400");
        assert_eq!(sci(f64::NEG_INFINITY), "0");
    }
}
