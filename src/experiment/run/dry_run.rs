//! `ktour sweep --dry-run`: what a sweep (or one shard of it) would do, as a value ([`DryRun`])
//! whose `Display` is the report the command prints. Its runs and the work they bound come from
//! [`super::sweep_cost`]; whether its output fits on the disk and its workers in memory from the
//! sweep's own pre-flight checks (`super::preflight`), so that the answer is the one the sweep
//! would give. Nothing is run or written.

use super::cost::{sweep_cost, SweepCost};
use super::options::SweepOptions;
use super::preflight::check_worker_memory;
use crate::experiment::disk::{check_disk, free_bytes};
use crate::experiment::plan::Plan;
use crate::experiment::spec::Spec;
use crate::experiment::spec_file::RecordLevel;
use crate::experiment::table::restricted_starts_footnote;
use crate::util::words::{bytes_words, duration_words};
use std::fmt;
use std::path::PathBuf;

/// What a sweep would do, and whether it would be refused; `Display` writes the report.
#[derive(Clone, Debug)]
pub struct DryRun {
    /// The spec's name.
    pub name: String,
    /// Where the spec comes from (a file, flags, the built-in default), as the report names it.
    pub spec_label: String,
    /// Its runs, chunks and the work they bound.
    pub cost: SweepCost,
    /// Worker threads.
    pub threads: usize,
    /// The shard `(index, count)` it would run, if not the whole sweep.
    pub shard: Option<(u32, u32)>,
    /// The output folder.
    pub out: PathBuf,
    /// What it would write per run.
    pub record: RecordLevel,
    /// A note for each rule that runs from some starts only (`restricted_starts_footnote`).
    pub footnote: String,
    /// The free bytes at the output folder and the sweep's own verdict on its output (the
    /// refusal's message, if refused); `None` where the free space cannot be found out.
    pub disk: Option<(u64, Result<(), String>)>,
    /// Bytes of memory available.
    pub available: u64,
    /// The sweep's own verdict on its workers' and tallies' memory (the refusal's message, if
    /// refused).
    pub memory: Result<(), String>,
}

impl DryRun {
    /// What `spec` (planned as `plan`, named `spec_label`) would do when run as `opts` says.
    pub fn new(spec: &Spec, spec_label: &str, plan: &Plan, opts: &SweepOptions) -> Self {
        let (i, k) = opts.shard.unwrap_or((1, 1));
        let cost = sweep_cost(
            spec,
            plan,
            &plan.shard(i, k),
            opts.lane_memory,
            opts.symmetry,
        );
        let disk = free_bytes(&opts.out).map(|free| {
            let fits = check_disk(&opts.out, &cost.output).map_err(|e| e.to_string());
            (free, fits)
        });
        let available = crate::memory::available_bytes();
        let memory = check_worker_memory(spec, plan, opts).map_err(|e| e.to_string());
        DryRun {
            name: spec.file.name.clone(),
            spec_label: spec_label.to_string(),
            cost,
            threads: opts.threads.max(1),
            shard: opts.shard,
            out: opts.out.clone(),
            record: spec.file.record,
            footnote: restricted_starts_footnote(spec.file.rules.iter().map(String::as_str)),
            disk,
            available,
            memory,
        }
    }

    /// "s" after a count of threads other than one.
    fn plural(&self) -> &'static str {
        if self.threads == 1 {
            ""
        } else {
            "s"
        }
    }

    /// The runs, where they would be written, and the runs that mirroring spares.
    fn runs(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cost = &self.cost;
        let of_shard = self
            .shard
            .map_or(String::new(), |(i, k)| format!(" (shard {i}/{k})"));
        writeln!(
            f,
            "dry run of sweep {:?} ({}): nothing is run or written",
            self.name, self.spec_label
        )?;
        writeln!(
            f,
            "runs: {} in {} chunks{of_shard}; output to {} (record = \"{}\")",
            cost.runs,
            cost.chunks,
            self.out.display(),
            match self.record {
                RecordLevel::Summary => "summary",
                RecordLevel::Runs => "runs",
            }
        )?;
        if cost.mirrored_runs > 0 {
            writeln!(
                f,
                "symmetry: {} runs are mirror images of runs walked (a board symmetry maps each onto one of them, rule mirrored), written from those walks; the figures below leave them out (--no-symmetry walks them)",
                cost.mirrored_runs
            )?;
        }
        Ok(())
    }

    /// The walks' and the searches' work, and the rules that run from some starts only.
    fn work(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (cost, threads) = (&self.cost, self.threads);
        if cost.walk_runs > 0 {
            writeln!(
                f,
                "pure Warnsdorff: {} runs, at most {} steps; {} of one core, {} on {threads} thread{}, if every walk went the whole way (per-step costs measured in benches/README.md)",
                cost.walk_runs,
                cost.walk_steps,
                duration_words(cost.walk_core_seconds),
                duration_words(cost.walk_core_seconds / threads as f64),
                self.plural()
            )?;
        }
        if cost.search_runs > 0 {
            match cost.search_nodes {
                Some(nodes) => writeln!(
                    f,
                    "searches: {} runs, at most {nodes} nodes by their budgets ({} of one core at 10^8 nodes/s)",
                    cost.search_runs,
                    duration_words(nodes as f64 / 1e8)
                )?,
                None => writeln!(
                    f,
                    "searches: {} runs with no node budget (budget = 0): their time has no bound",
                    cost.search_runs
                )?,
            }
        }
        f.write_str(&self.footnote)
    }

    /// The least the output takes, and whether it fits on its disk.
    fn output(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let output = &self.cost.output;
        writeln!(
            f,
            "output: at least {} ({} journal lines{}){}",
            bytes_words(output.least_bytes()),
            output.journal_lines,
            if output.run_rows > 0 {
                format!(", {} rows of runs.csv", output.run_rows)
            } else {
                String::new()
            },
            match &self.disk {
                None => String::new(),
                Some((free, fits)) => format!(
                    ", of {} free at {}: {}",
                    bytes_words(*free),
                    self.out.display(),
                    verdict(fits)
                ),
            }
        )
    }

    /// The memory of the plan, the tallies and the workers, and whether it fits.
    fn memory(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (cost, threads) = (&self.cost, self.threads);
        let needed = cost
            .worker_bytes
            .saturating_mul(threads as u64)
            .saturating_add(cost.tally_bytes)
            .saturating_add(cost.plan_bytes);
        writeln!(
            f,
            "memory: plan {} (its boards and rules, whatever the runs), tallies of {} groups about {} MiB, about {} MiB a worker; {} MiB with {threads} worker{}, of {} MiB available: {}",
            bytes_words(cost.plan_bytes),
            cost.groups,
            cost.tally_bytes.div_ceil(1 << 20),
            cost.worker_bytes.div_ceil(1 << 20),
            needed.div_ceil(1 << 20),
            self.plural(),
            self.available >> 20,
            verdict(&self.memory)
        )
    }

    /// One number a batch script can read (scripts/slurm-sweep.sh fills `--time` from it).
    fn time_bound(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (cost, threads) = (&self.cost, self.threads);
        let search_seconds = match (cost.search_runs, cost.search_nodes) {
            (0, _) => Some(0.0),
            (_, nodes) => nodes.map(|n| n as f64 / 1e8),
        };
        match search_seconds {
            Some(search) => writeln!(
                f,
                "time bound: {:.0} s on {threads} thread{} (every walk whole at the per-step cost of benches/README.md, every search to its budget at 10^8 nodes/s; boards past a few 10^5 squares walk several times slower a step)",
                ((cost.walk_core_seconds + search) / threads as f64).ceil(),
                self.plural(),
            ),
            None => writeln!(f, "time bound: none (a search with no node budget)"),
        }
    }
}

impl fmt::Display for DryRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.runs(f)?;
        self.work(f)?;
        self.output(f)?;
        self.memory(f)?;
        self.time_bound(f)
    }
}

/// The sweep's own verdict, in the report's words.
fn verdict(fits: &Result<(), String>) -> String {
    match fits {
        Ok(()) => "fits".to_string(),
        Err(e) => format!("does not fit, the sweep would be refused: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::disk::OutputSize;

    /// A report of known figures, with the machine's own (free disk, available memory) fixed.
    fn report(threads: usize, disk: Option<(u64, Result<(), String>)>) -> DryRun {
        DryRun {
            name: "d".into(),
            spec_label: "flags".into(),
            cost: SweepCost {
                runs: 1312,
                mirrored_runs: 0,
                chunks: 3,
                groups: 8,
                walk_runs: 656,
                walk_steps: 56_384,
                search_runs: 656,
                search_nodes: Some(656_000),
                walk_core_seconds: 0.000_2,
                worker_bytes: 52_428_800,
                plan_bytes: 1000,
                tally_bytes: 3 << 20,
                output: OutputSize {
                    journal_lines: 3,
                    run_rows: 1312,
                },
            },
            threads,
            shard: Some((2, 3)),
            out: PathBuf::from("results/d"),
            record: RecordLevel::Runs,
            footnote: String::new(),
            disk,
            available: 20_000 << 20,
            memory: Ok(()),
        }
    }

    /// Every line of the report, word for word (the command prints this value as it is).
    #[test]
    fn the_report_says_every_figure() {
        let text = report(2, Some((70 << 30, Ok(())))).to_string();
        let want = [
            "dry run of sweep \"d\" (flags): nothing is run or written",
            "runs: 1312 in 3 chunks (shard 2/3); output to results/d (record = \"runs\")",
            "pure Warnsdorff: 656 runs, at most 56384 steps; under a second of one core, under a second on 2 threads, if every walk went the whole way (per-step costs measured in benches/README.md)",
            "searches: 656 runs, at most 656000 nodes by their budgets (under a second of one core at 10^8 nodes/s)",
            "output: at least 62 KiB (3 journal lines, 1312 rows of runs.csv), of 70 GiB free at results/d: fits",
            "memory: plan 1 KiB (its boards and rules, whatever the runs), tallies of 8 groups about 3 MiB, about 50 MiB a worker; 104 MiB with 2 workers, of 20000 MiB available: fits",
            "time bound: 1 s on 2 threads (every walk whole at the per-step cost of benches/README.md, every search to its budget at 10^8 nodes/s; boards past a few 10^5 squares walk several times slower a step)",
        ];
        assert_eq!(text, want.map(|l| format!("{l}\n")).concat());
    }

    /// Refusals are the sweep's own messages; an unknown free space and a search without a budget
    /// are said so; one thread is singular.
    #[test]
    fn refusals_and_unknowns_are_said_as_such() {
        let mut r = report(1, Some((1 << 20, Err("no room".into()))));
        r.cost.search_nodes = None;
        r.memory = Err("no memory".into());
        let text = r.to_string();
        assert!(
            text.contains(
                ", of 1 MiB free at results/d: does not fit, the sweep would be refused: no room\n"
            ),
            "{text}"
        );
        assert!(text.contains("with 1 worker, of 20000 MiB available: does not fit, the sweep would be refused: no memory\n"), "{text}");
        assert!(text.contains(
            "searches: 656 runs with no node budget (budget = 0): their time has no bound\n"
        ));
        assert!(text.ends_with("time bound: none (a search with no node budget)\n"));
        let r = report(1, None);
        assert!(r.to_string().contains("rows of runs.csv)\nmemory: "));
    }

    /// Built from a spec, the report carries the spec's cost and the sweep's own verdicts.
    #[test]
    fn a_dry_run_of_a_spec_costs_it_and_asks_the_sweeps_checks() {
        let spec = Spec::from_toml(
            "name = \"d\"\nsizes = [8, 10]\nstarts = \"all\"\nrules = [\"first\", \"random\"]\nmethods = [\"warnsdorff\", \"backtrack\"]\ntrials = 3\nbudget = 1000\n",
            "d",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let opts = SweepOptions {
            out: tmp.path().join("o"),
            threads: 2,
            resume: false,
            force: false,
            shard: None,
            progress: crate::experiment::SweepProgress::Hidden,
            command: String::new(),
            lane_memory: crate::solve::DEFAULT_LANE_MEMORY,
            symmetry: true,
            stop: Default::default(),
        };
        let dry = DryRun::new(&spec, "d.toml", &plan, &opts);
        assert_eq!((dry.cost.runs, dry.cost.groups), (1312, 8));
        assert_eq!(dry.cost.search_nodes, Some(656_000));
        assert_eq!(dry.disk.as_ref().map(|(_, fits)| fits), Some(&Ok(())));
        assert_eq!(dry.memory, Ok(()));
        assert!(dry.to_string().starts_with(
            "dry run of sweep \"d\" (d.toml): nothing is run or written\nruns: 1312 in "
        ));
        assert!(!opts.out.exists());
    }
}
