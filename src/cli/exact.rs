//! `ktour exact`: the exact probabilities that pure Warnsdorff with a random tie-break rule
//! completes a tour, closes it, or dead-ends after exactly L squares (see [`crate::exact`]), or,
//! with `--sample K`, a sampled estimate with Wilson 95% intervals. Parsing and printing only.

use super::args::parse_start;
use super::{BoardArgs, ExitStatus};
use crate::board::Square;
use crate::exact::{
    decimal, exact, exact_resumable, sample, Distribution, ExactOptions, ExactReport, ExactRequest,
    Sampled, Starts, DEFAULT_MEMO_LIMIT,
};
use crate::render::{prob_map_svg, ProbPanel};
use crate::solve::{Closing, Rule};
use clap::{Args, ValueEnum};
use num_rational::BigRational;
use serde::Serialize;

/// Output formats of `ktour exact`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExactFormat {
    /// Human-readable: fractions and decimals, the per-start table as a grid.
    Text,
    /// One JSON object.
    Json,
    /// One CSV row per start square.
    Csv,
}

/// Arguments of `ktour exact`.
#[derive(Debug, Args)]
pub struct ExactArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Start square `ROW,COL` (0-based); without it, every square, and the figures for a start
    /// drawn uniformly from them.
    #[arg(long, value_name = "R,C", allow_hyphen_values = true)]
    start: Option<String>,
    /// Tie-break rule with random parts (`random`, `pohl+random`, `roth+random`, `gfg`, `shuffle`,
    /// ...; `ktour rules` lists them). A rule without random parts gives probabilities 0 and 1.
    #[arg(long, default_value = "random")]
    rule: String,
    /// Keep the start for last (HaskellWiki's closing heuristic, as `solve --closed --start-last`):
    /// changes the walk, and so every probability.
    #[arg(long)]
    start_last: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExactFormat::Text)]
    format: ExactFormat,
    /// Refuse, at once and with exit status 2, a tree estimated to pass this many nodes (Knuth's
    /// random-probe estimate of the tree without merging). Plain or like `1e10`; 0 for no limit.
    #[arg(long, default_value = "1e10", value_name = "NODES", value_parser = super::count::parse_nodes)]
    max_nodes: u64,
    /// Instead of the exact walk, K runs of the real solver with random draws: rates with Wilson
    /// 95% intervals (for a tree too large to walk).
    #[arg(long, value_name = "K")]
    sample: Option<u64>,
    /// Seed of the sampled runs (--sample).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Also write a picture of the per-start probabilities (a complete tour, a closed tour) to this
    /// SVG file (with every start, not --start).
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// Also write the per-start table (as --format csv prints it) to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<std::path::PathBuf>,
    /// Do not merge identical sub-states (the same squares visited and the same head): the plain
    /// tree walk, for comparison; same probabilities.
    #[arg(long)]
    no_merge: bool,
    /// Walk the starts one at a time, each start's exact distribution written to DIR/ROW-COL.txt
    /// when it is done and read from there if present: a stopped run, run again, resumes at the
    /// start it was in. `random` and `pohl+random`, symmetric rules, walk one start of each orbit
    /// of the board's symmetries. --max-nodes applies to each start.
    #[arg(long, value_name = "DIR")]
    resume: Option<std::path::PathBuf>,
}

/// A probability in JSON: the exact fraction `p/q` and its decimal.
#[derive(Debug, Serialize)]
struct DeadEndJson {
    squares: usize,
    probability: String,
    probability_decimal: f64,
}

/// One start's figures in JSON.
#[derive(Debug, Serialize)]
struct StartJson {
    start: [u16; 2],
    success: String,
    success_decimal: f64,
    closed: String,
    closed_decimal: f64,
    shortest_dead_end: Option<DeadEndJson>,
}

/// The JSON output of `ktour exact --format json`.
#[derive(Debug, Serialize)]
struct ExactJson {
    rows: u32,
    cols: u32,
    rule: String,
    closing: &'static str,
    /// The start, or null for a start drawn uniformly from every square.
    start: Option<[u16; 2]>,
    success: String,
    success_decimal: f64,
    closed: String,
    closed_decimal: f64,
    shortest_dead_end: Option<DeadEndJson>,
    /// Every dead end of positive probability, shortest first.
    dead_ends: Vec<DeadEndJson>,
    /// Per start square, row by row (without --start).
    #[serde(skip_serializing_if = "Option::is_none")]
    starts: Option<Vec<StartJson>>,
    estimated_nodes: f64,
    nodes: u64,
    leaves: u64,
    branchings: u64,
    merged: u64,
    elapsed_ns: u128,
}

/// The JSON output of `ktour exact --sample K --format json`.
#[derive(Debug, Serialize)]
struct SampleJson {
    rows: u32,
    cols: u32,
    rule: String,
    closing: &'static str,
    start: Option<[u16; 2]>,
    runs: u64,
    seed: u64,
    success_rate: f64,
    success_ci_low: f64,
    success_ci_high: f64,
    closed_rate: f64,
    closed_ci_low: f64,
    closed_ci_high: f64,
    /// The shortest dead end met, and how many runs ended there.
    shortest_dead_end: Option<SampledDeadEnd>,
}

#[derive(Debug, Serialize)]
struct SampledDeadEnd {
    squares: usize,
    runs: u64,
}

/// The CSV header of `--format csv`.
const CSV_HEADER: &str = "row,col,success,success_decimal,closed,closed_decimal,shortest_dead_end,shortest_dead_end_probability,shortest_dead_end_decimal";

fn dead_end_json((squares, p): (usize, BigRational)) -> DeadEndJson {
    DeadEndJson {
        squares,
        probability_decimal: decimal(&p),
        probability: p.to_string(),
    }
}

fn start_json(start: Square, d: &Distribution) -> StartJson {
    StartJson {
        start: [start.row(), start.col()],
        success_decimal: decimal(&d.success()),
        success: d.success().to_string(),
        closed_decimal: decimal(&d.closed()),
        closed: d.closed().to_string(),
        shortest_dead_end: d.shortest_dead_end().map(dead_end_json),
    }
}

/// Run `ktour exact`.
pub fn run(args: ExactArgs) -> anyhow::Result<ExitStatus> {
    let board = args.board.board()?;
    let start = args
        .start
        .as_deref()
        .map(|t| parse_start(t, board))
        .transpose()?;
    let rule: Rule = args.rule.parse()?;
    let closing = if args.start_last {
        Closing::StartLast
    } else {
        Closing::Check
    };
    let closing_name = if args.start_last {
        "start-last"
    } else {
        "check"
    };
    if let Some(k) = args.sample {
        if args.resume.is_some() {
            anyhow::bail!("--resume keeps exact walks: drop --sample");
        }
        if k == 0 {
            anyhow::bail!("--sample takes a number of runs, at least 1");
        }
        let s = sample(board, start, rule, closing, k, args.seed)?;
        print_sample(&args, board, start, rule, closing_name, &s)?;
        return Ok(ExitStatus::Success);
    }
    let req = ExactRequest {
        board,
        starts: start.map_or(Starts::All, Starts::From),
        rule,
        closing,
    };
    let opts = ExactOptions {
        memo_limit: if args.no_merge { 0 } else { DEFAULT_MEMO_LIMIT },
        max_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
    };
    if args.svg.is_some() && start.is_some() {
        anyhow::bail!("--svg draws every start square: drop --start");
    }
    let report = match &args.resume {
        Some(dir) => exact_resumable(&req, &opts, dir, |d| {
            let how = if d.read { "read" } else { "walked" };
            eprintln!(
                "{} {how}: {} nodes, {} merged, {:.1} s",
                d.start,
                d.cost.stats.nodes,
                d.cost.stats.merged,
                d.cost.elapsed.as_secs_f64()
            );
        })?,
        None => exact(&req, &opts)?,
    };
    if let Some(path) = &args.svg {
        write_svg(path, &report, board, rule)?;
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, csv_table(&report))
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
    }
    match args.format {
        ExactFormat::Json => {
            let json = exact_json(&report, board, start, rule, closing_name);
            println!("{}", serde_json::to_string(&json)?);
        }
        ExactFormat::Csv => print!("{}", csv_table(&report)),
        ExactFormat::Text => print!("{}", text(&report, board, start, rule, closing_name)),
    }
    Ok(ExitStatus::Success)
}

/// The JSON document of an exact run: the overall figures, the per-start ones without `--start`,
/// and the search's counters.
fn exact_json(
    report: &ExactReport,
    board: crate::board::Board,
    start: Option<Square>,
    rule: Rule,
    closing_name: &'static str,
) -> ExactJson {
    let d = &report.overall;
    ExactJson {
        rows: board.rows(),
        cols: board.cols(),
        rule: rule.to_string(),
        closing: closing_name,
        start: start.map(|s| [s.row(), s.col()]),
        success_decimal: decimal(&d.success()),
        success: d.success().to_string(),
        closed_decimal: decimal(&d.closed()),
        closed: d.closed().to_string(),
        shortest_dead_end: d.shortest_dead_end().map(dead_end_json),
        dead_ends: d
            .dead_ends()
            .map(|(l, p)| dead_end_json((l, p.clone())))
            .collect(),
        starts: start.is_none().then(|| {
            report
                .starts
                .iter()
                .map(|s| start_json(s.start, &s.dist))
                .collect()
        }),
        estimated_nodes: report.estimated_nodes,
        nodes: report.stats.nodes,
        leaves: report.stats.leaves,
        branchings: report.stats.branchings,
        merged: report.stats.merged,
        elapsed_ns: report.elapsed.as_nanos(),
    }
}

/// `--svg`: two maps of the board, the chance of a complete and of a closed tour from each start.
fn write_svg(
    path: &std::path::Path,
    report: &ExactReport,
    board: crate::board::Board,
    rule: Rule,
) -> anyhow::Result<()> {
    let panel = |title: &str, f: &dyn Fn(&Distribution) -> BigRational| ProbPanel {
        title: title.to_string(),
        rows: board.rows(),
        cols: board.cols(),
        values: report.starts.iter().map(|s| decimal(&f(&s.dist))).collect(),
    };
    let d = &report.overall;
    let title = format!(
        "{board}, {rule}: exact probability from each start (uniform start: tour {:.4}, closed {:.4})",
        decimal(&d.success()),
        decimal(&d.closed())
    );
    let svg = prob_map_svg(
        &[
            panel("complete tour", &|d| d.success()),
            panel("closed tour", &|d| d.closed()),
        ],
        &title,
    );
    std::fs::write(path, svg).map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))
}

/// One CSV row per start square (the table `results/exact/` holds).
pub fn csv_table(report: &ExactReport) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for s in &report.starts {
        let d = &s.dist;
        let (l, p) = match d.shortest_dead_end() {
            Some((l, p)) => (l.to_string(), p),
            None => (String::new(), BigRational::from_integer(0.into())),
        };
        out += &format!(
            "{},{},{},{},{},{},{},{},{}\n",
            s.start.row(),
            s.start.col(),
            d.success(),
            decimal(&d.success()),
            d.closed(),
            decimal(&d.closed()),
            l,
            p,
            decimal(&p)
        );
    }
    out
}

fn text(
    report: &ExactReport,
    board: crate::board::Board,
    start: Option<Square>,
    rule: Rule,
    closing: &str,
) -> String {
    let d = &report.overall;
    let from = match start {
        Some(s) => format!("from {s}"),
        None => format!("from a start drawn uniformly ({} squares)", board.len()),
    };
    let mut out = format!("exact: pure Warnsdorff on {board}, rule {rule}, {from}");
    if closing != "check" {
        out += &format!(", closing {closing}");
    }
    out.push('\n');
    let line = |name: &str, p: &BigRational| format!("{name:<18} {:.6}  = {p}\n", decimal(p));
    out += &line("complete tour", &d.success());
    out += &line("closed tour", &d.closed());
    match d.shortest_dead_end() {
        Some((l, p)) => {
            out += &format!(
                "shortest dead end  after {l} squares, probability {:.6} = {p}\n",
                decimal(&p)
            )
        }
        None => out += "shortest dead end  none: every walk completes\n",
    }
    out += "dead ends (squares: probability):";
    for (l, p) in d.dead_ends() {
        out += &format!(" {l}: {:.6}", decimal(p));
    }
    out.push('\n');
    if start.is_none() {
        out += "complete tour from each start (row by row):\n";
        for row in report.starts.chunks(board.cols() as usize) {
            let cells: Vec<String> = row
                .iter()
                .map(|s| format!("{:.4}", decimal(&s.dist.success())))
                .collect();
            out += &cells.join(" ");
            out.push('\n');
        }
    }
    out += &format!(
        "walk: {} nodes ({:.2e} estimated without merging), {} ends, {} ties split, {} merged, {:.3} s\n",
        report.stats.nodes,
        report.estimated_nodes,
        report.stats.leaves,
        report.stats.branchings,
        report.stats.merged,
        report.elapsed.as_secs_f64()
    );
    out
}

fn print_sample(
    args: &ExactArgs,
    board: crate::board::Board,
    start: Option<Square>,
    rule: Rule,
    closing: &'static str,
    s: &Sampled,
) -> anyhow::Result<()> {
    let (rate, (lo, hi)) = s.success();
    let (crate_, (clo, chi)) = s.closed_rate();
    match args.format {
        ExactFormat::Json | ExactFormat::Csv => {
            let json = SampleJson {
                rows: board.rows(),
                cols: board.cols(),
                rule: rule.to_string(),
                closing,
                start: start.map(|s| [s.row(), s.col()]),
                runs: s.runs,
                seed: args.seed,
                success_rate: rate,
                success_ci_low: lo,
                success_ci_high: hi,
                closed_rate: crate_,
                closed_ci_low: clo,
                closed_ci_high: chi,
                shortest_dead_end: s
                    .shortest_dead_end()
                    .map(|(squares, runs)| SampledDeadEnd { squares, runs }),
            };
            if args.format == ExactFormat::Json {
                println!("{}", serde_json::to_string(&json)?);
            } else {
                println!("runs,success_rate,success_ci_low,success_ci_high,closed_rate,closed_ci_low,closed_ci_high");
                println!("{},{rate},{lo},{hi},{crate_},{clo},{chi}", s.runs);
            }
        }
        ExactFormat::Text => {
            let from = match start {
                Some(s) => format!("from {s}"),
                None => "from a start drawn uniformly".to_string(),
            };
            println!(
                "sampled: pure Warnsdorff on {board}, rule {rule}, {from}: {} runs (seed {})",
                s.runs, args.seed
            );
            println!("complete tour      {rate:.6}  (95% Wilson interval {lo:.6} to {hi:.6})");
            println!("closed tour        {crate_:.6}  (95% Wilson interval {clo:.6} to {chi:.6})");
            if let Some((l, n)) = s.shortest_dead_end() {
                println!("shortest dead end  after {l} squares ({n} runs)");
            }
        }
    }
    Ok(())
}
