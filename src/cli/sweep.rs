//! `ktour sweep` and `ktour merge`: run an experiment spec (or the built-in default) in parallel, write
//! tidy CSV as it goes, resume after an interruption, and combine shards.

use super::args::{parse_threads, MAX_THREADS};
use super::ExitStatus;
use crate::experiment::{self, Spec, SweepOptions, SweepProgress, DEFAULT_SPEC};
use anyhow::Context;
use clap::{Arg, ArgAction, Args};
use experiment::Takes;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `ktour sweep`.
#[derive(Debug, Args)]
#[command(after_help = experiment::spec_keys_text())]
pub struct SweepArgs {
    /// Experiment spec (TOML). Without it and without spec flags, the built-in default experiment
    /// (experiments/default.toml) runs.
    spec: Option<PathBuf>,
    /// Write the spec to run as TOML (every key, defaults too) to standard output and exit; given
    /// back as the spec file, it runs the same sweep.
    #[arg(long)]
    print_spec: bool,
    /// Print the folder the sweep writes into (a family's folder, holding one a member) and exit:
    /// what a script asks for instead of reading the spec's name itself.
    #[arg(long, conflicts_with = "print_spec")]
    print_out: bool,
    /// Output folder (default: `results/<name>/` for a spec file; for a sweep from flags alone,
    /// `$XDG_DATA_HOME/ktour/sweeps/<name>/` or `~/.local/share/ktour/sweeps/<name>/`, outside the
    /// repository).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads (default: all cores; at most 1024).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Continue an interrupted sweep of the same spec in the output folder.
    #[arg(long, conflicts_with = "force")]
    resume: bool,
    /// Replace whatever the output folder holds.
    #[arg(long)]
    force: bool,
    /// Run only shard I of K (1-based), e.g. --shard 2/8; `ktour merge` combines the shards.
    #[arg(long, value_name = "I/K")]
    shard: Option<String>,
    /// Print what the sweep would do (runs, chunks, the work they bound, a rough time, the workers'
    /// memory) and exit, running and writing nothing.
    #[arg(long)]
    dry_run: bool,
    /// No progress: neither the bar (on a terminal) nor the lines (in a log).
    #[arg(long)]
    no_progress: bool,
    /// When standard error is not a terminal (a batch job's log), a line of progress at most this
    /// often, in seconds, instead of the bar.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    progress_every: f64,
    /// Memory a worker's lanes (its interleaved walks) may take on large boards (over about 500x500), in bytes
    /// per square. The default 2 walks one at a time on 1000x1000; 2.1 allows two there, which is
    /// faster. Results are the same whatever the value.
    #[arg(long, value_name = "BYTES", default_value_t = crate::solve::DEFAULT_LANE_MEMORY, value_parser = parse_lane_memory)]
    lane_memory: f64,
    /// Walk every run, even those a board symmetry maps onto another run of the sweep (fixed
    /// orderings mirrored: `order:*` on n x n walks 1 run in 8 otherwise). The files are the same
    /// either way, timing aside; this is for timing the walks themselves.
    #[arg(long)]
    no_symmetry: bool,
    #[command(flatten)]
    keys: SpecKeyArgs,
}

/// The spec's keys as flags, one a key of the keys' table (`experiment::KEYS`), which gives each
/// its name, value, help and how its value becomes the key's: each sets its key, over the spec
/// file's when one is given; the result is validated as a spec file is.
#[derive(Debug, Default)]
struct SpecKeyArgs {
    flags: experiment::SpecFlags,
}

/// The help heading of the spec's flags.
const KEYS_HEADING: &str = "Spec keys as flags (each replaces the spec file's key)";

/// The flag of `key`, from its line of the table.
fn key_arg(key: &'static experiment::Key) -> Arg {
    let help = match key.flag.syntax {
        "" => experiment::doc_line(key.help),
        syntax => format!("{} [{syntax}]", experiment::doc_line(key.help)),
    };
    let arg = Arg::new(key.flag_long())
        .long(key.flag_long())
        .help(help)
        .help_heading(KEYS_HEADING);
    match key.flag.takes {
        Takes::Value => arg.value_name(key.flag.value_name).action(ArgAction::Set),
        Takes::File => arg
            .value_name(key.flag.value_name)
            .action(ArgAction::Append),
        Takes::Bool => arg
            .value_name("BOOL")
            .num_args(0..=1)
            .require_equals(true)
            .default_missing_value("true")
            .value_parser(["true", "false"]),
        Takes::Switch => arg.action(ArgAction::SetTrue),
    }
}

impl clap::Args for SpecKeyArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        experiment::KEYS
            .iter()
            .fold(cmd, |cmd, key| cmd.arg(key_arg(key)))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for SpecKeyArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = experiment::SpecFlags::default();
        for key in experiment::KEYS {
            let id = key.flag_long();
            let values: Vec<String> = match key.flag.takes {
                Takes::Switch if m.get_flag(id) => Vec::new(),
                Takes::Switch => continue,
                _ => match m.get_many::<String>(id) {
                    Some(v) => v.cloned().collect(),
                    None => continue,
                },
            };
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            flags = flags.with(key.name, &values).expect("a key of the table");
        }
        Ok(SpecKeyArgs { flags })
    }
    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

/// The spec `args` name (a file, flags, both, or the built-in default) and how to name it: one
/// spec, or the members of a family (lists of leapers or masks), each with its sub-folder; and the
/// spec's text (a family's with its lists), for `--print-spec`.
struct ReadSpec {
    members: Vec<(String, Spec)>,
    label: String,
    text: String,
}

fn read_spec(args: &SweepArgs) -> anyhow::Result<ReadSpec> {
    let flags = &args.keys.flags;
    let (text, label, members) = match (&args.spec, flags.is_empty()) {
        (Some(path), true) => {
            let text = Spec::read_text(path)?;
            let label = path.display().to_string();
            let members = experiment::member_specs(&text, &label)?;
            (text, label, members)
        }
        (Some(path), false) => {
            let file = Spec::read_text(path)?;
            let label = path.display().to_string();
            let (text, _) = flags.toml(Some((&file, &label)))?;
            let members = flags.specs(Some((&file, &label)))?;
            (text, format!("{label} and flags"), members)
        }
        (None, false) => {
            let (text, _) = flags.toml(None)?;
            (text, "flags".to_string(), flags.specs(None)?)
        }
        (None, true) => {
            let label = "experiments/default.toml (built in)";
            let members = vec![(String::new(), Spec::from_toml(DEFAULT_SPEC, label)?)];
            (
                DEFAULT_SPEC.to_string(),
                "the built-in default experiment".to_string(),
                members,
            )
        }
    };
    Ok(ReadSpec {
        members,
        label,
        text,
    })
}

/// A command-line word quoted for a POSIX shell where it needs it.
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

fn parse_lane_memory(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!(
            "expected a positive number of bytes per square, got {s:?}"
        )),
    }
}

/// `--dry-run`: what the sweep (or its shard) would do, on standard output.
fn print_dry_run(spec: &Spec, spec_label: &str, plan: &experiment::Plan, opts: &SweepOptions) {
    print!("{}", experiment::DryRun::new(spec, spec_label, plan, opts));
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        // up to a year: Duration::from_secs_f64 panics on values it cannot hold
        Ok(v) if v.is_finite() && v > 0.0 && v <= 3.2e7 => Ok(v),
        _ => Err(format!(
            "expected a positive number of seconds (at most a year), got {s:?}"
        )),
    }
}

fn parse_shard(s: &str) -> anyhow::Result<(u32, u32)> {
    let bad = || anyhow::anyhow!("--shard expects I/K with 1 <= I <= K (e.g. 2/8), got {s:?}");
    let (i, k) = s.split_once('/').ok_or_else(bad)?;
    let (i, k): (u32, u32) = (
        i.trim().parse().map_err(|_| bad())?,
        k.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || k == 0 || i > k {
        return Err(bad());
    }
    Ok((i, k))
}

pub fn run(args: SweepArgs) -> anyhow::Result<ExitStatus> {
    let ReadSpec {
        members,
        label: spec_label,
        text,
    } = read_spec(&args)?;
    // a family's members run in turn, each into a folder of its own under the family's
    let from_flags = args.spec.is_none() && !args.keys.flags.is_empty();
    let base = args.out.clone().unwrap_or_else(|| {
        let name = &members[0].1.file.name;
        let family_name = match members[0].0.as_str() {
            "" => name.as_str(),
            folder => name.strip_suffix(&format!("-{folder}")).unwrap_or(name),
        };
        experiment::sweep_folder(family_name, from_flags)
    });
    if args.print_out {
        println!("{}", base.display());
        return Ok(ExitStatus::Success);
    }
    if args.print_spec {
        let text = experiment::family_toml(&text, &members, &base);
        // one write; a reader that stops early (`| head`) is no error
        return match std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(anyhow::Error::from(e).context("writing standard output"))
            }
            _ => Ok(ExitStatus::Success),
        };
    }
    let stop = experiment::StopToken::new();
    if !args.dry_run {
        stop_on_ctrl_c(&stop);
    }
    for (folder, spec) in &members {
        let label = match folder.as_str() {
            "" => spec_label.clone(),
            f => format!("{spec_label}, member {f}"),
        };
        let out = match folder.as_str() {
            "" => base.clone(),
            f => base.join(f),
        };
        let status = run_one(&args, spec, &label, out, &base, &stop)?;
        if status != ExitStatus::Success {
            return Ok(status);
        }
    }
    if from_flags && args.out.is_none() && !args.dry_run {
        // a folder outside the repository, named for the flags: said last, to be found again
        eprintln!("results in {}", base.display());
    }
    Ok(ExitStatus::Success)
}

/// The first Ctrl-C sets `stop`, so that the sweep stops cleanly; the second exits at once (what
/// was flushed survives; `--resume` repairs the rest).
fn stop_on_ctrl_c(stop: &experiment::StopToken) {
    let token = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if token.stop() {
            eprintln!("\nsecond interrupt: exiting now");
            std::process::exit(130);
        }
        eprintln!("\ninterrupt: finishing the chunks in flight, then writing results (Ctrl-C again to quit at once)");
    });
}

/// One sweep (a spec, or one member of a family) into `out`; `base` is what `--out` names (the
/// family's folder), for the command that resumes it.
/// The sweep's options from the flags: the thread count, the shard, and how progress shows.
fn sweep_options(
    args: &SweepArgs,
    out: PathBuf,
    base: &std::path::Path,
    stop: &experiment::StopToken,
) -> anyhow::Result<SweepOptions> {
    // resuming a family: a member not begun yet starts afresh
    let resume = args.resume && (out == base || out.exists());
    let threads = match args.threads {
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)),
    };
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    Ok(SweepOptions {
        out,
        threads,
        resume,
        force: args.force,
        shard,
        progress: if args.no_progress {
            SweepProgress::Hidden
        } else if std::io::stderr().is_terminal() {
            SweepProgress::Bar
        } else {
            SweepProgress::Lines(Duration::from_secs_f64(args.progress_every))
        },
        command: std::env::args().collect::<Vec<_>>().join(" "),
        lane_memory: args.lane_memory,
        symmetry: !args.no_symmetry,
        stop: stop.clone(),
    })
}

/// The closing line: runs done, time, rate, and how many were mirrored or resumed.
fn summary_line(report: &experiment::SweepReport) -> String {
    let rate = report.runs_done_now as f64 / report.elapsed.as_secs_f64().max(1e-9);
    format!(
        "{} runs in {:.1} s ({:.0} runs/s){}{}",
        report.runs_done_now,
        report.elapsed.as_secs_f64(),
        rate,
        if report.runs_mirrored > 0 {
            format!(
                "; {} of them walked, the other {} mirror images of those (board symmetry; --no-symmetry walks every run)",
                report.runs_done_now - report.runs_mirrored,
                report.runs_mirrored
            )
        } else {
            String::new()
        },
        if report.runs_resumed > 0 {
            format!(
                ", {} resumed from an earlier invocation",
                report.runs_resumed
            )
        } else {
            String::new()
        }
    )
}

/// What an interrupted sweep says: how far it got and the command that resumes it.
fn resume_hint(
    args: &SweepArgs,
    report: &experiment::SweepReport,
    base: &std::path::Path,
) -> String {
    let spec_arg: String = (args.spec.iter().map(|p| p.display().to_string()))
        .chain(args.keys.flags.words())
        .map(|w| format!(" {}", shell_word(&w)))
        .collect();
    let shard_arg = args
        .shard
        .as_ref()
        .map_or(String::new(), |s| format!(" --shard {s}"));
    format!(
        "interrupted after {} of {} chunks; everything finished is saved. Resume with:\n  ktour sweep{spec_arg} --out {}{shard_arg} --resume",
        report.chunks_done,
        report.chunks_total,
        base.display()
    )
}

fn run_one(
    args: &SweepArgs,
    spec: &Spec,
    spec_label: &str,
    out: PathBuf,
    base: &std::path::Path,
    stop: &experiment::StopToken,
) -> anyhow::Result<ExitStatus> {
    let spec_label = spec_label.to_string();
    let opts = sweep_options(args, out, base, stop)?;
    let out = &opts.out;
    let plan = experiment::Plan::new(spec).with_context(|| spec_label.clone())?;
    let plan_runs = plan.total_runs();
    if plan_runs == 0 {
        // before the banner; the library refuses it too
        return Err(experiment::SweepError::NoRuns).with_context(|| spec_label.clone());
    }
    if args.dry_run {
        print_dry_run(spec, &spec_label, &plan, &opts);
        return Ok(ExitStatus::Success);
    }
    eprintln!(
        "sweep {:?} ({spec_label}): {} runs{} on {} thread{} -> {}",
        spec.file.name,
        plan_runs,
        opts.shard
            .map_or(String::new(), |(i, k)| format!(", shard {i}/{k}")),
        opts.threads,
        if opts.threads == 1 { "" } else { "s" },
        out.display()
    );
    let report = experiment::run_planned_sweep(spec, &plan, &opts)
        .with_context(|| format!("sweep into {}", out.display()))?;
    print!("{}", report.table);
    eprintln!("{}", summary_line(&report));
    for f in &report.files {
        eprintln!("wrote {}", f.display());
    }
    if report.interrupted {
        eprintln!("{}", resume_hint(args, &report, base));
        return Ok(ExitStatus::Interrupted);
    }
    Ok(ExitStatus::Success)
}
