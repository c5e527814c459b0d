//! Runs a plan, as a list of stages: **pre-flight** (`preflight`: the spec has runs, its output fits
//! on the disk, its workers and tallies in memory; `--dry-run` reports the same checks, [`DryRun`]),
//! the **output folder** opened and what an earlier invocation finished there recovered
//! (`crate::experiment::output`), **blocks** handed out in order (`blocks`), **workers** walking,
//! mirroring and recording each chunk of a block (`worker`, `mirror`), **delivery** writing the
//! blocks in block order and advancing the progress (`deliver`, `progress`), then the summary, the
//! dead ends and `meta.json`. The workers are a rayon pool of `--threads` threads with no writer
//! thread beside them; a [`StopToken`] in the options stops the sweep between blocks (`stop`), and
//! what is done is written. The CSV files are the same whatever the thread count.
//!
//! # Glossary: the slices of a sweep's work
//!
//! From the largest to the smallest. A **sweep** is all the runs of one spec; an **invocation** is
//! one `ktour sweep` of it (a resume is another invocation of the same sweep).
//!
//! - **shard**: every K-th chunk of a sweep (`--shard I/K`), what one machine runs; `ktour merge`
//!   joins the shards' folders.
//! - **group**: every run of one board x rule x method (its starts x trials); a row of
//!   `summary.csv`, and what a tally counts.
//! - **chunk**: consecutive runs of one board, about [`crate::experiment::CHUNK_STEPS`] squares of
//!   work (several small groups, or a share of a large one), numbered the same on every machine;
//!   the unit of the journal (`chunks.csv`), of `--resume` and of `--shard`.
//! - **part**: one group's runs within one chunk ([`crate::experiment::Part`]); a line of the
//!   journal, and what is mirrored (a whole group in one part only).
//! - **block**: consecutive chunks of a shard that a worker takes at once: one chunk on small
//!   boards, more where a chunk holds fewer runs than the kernel interleaves (until 2^24 steps);
//!   the unit of scheduling and of in-order writing, numbered per invocation and written nowhere.
//! - **batch**: the runs a worker hands the kernel at once ([`crate::solve::Solver::run_batch`]):
//!   runs of the chunk's parts in order, at most 256 of one part, added until it holds 32 (four
//!   times the walks the kernel interleaves).
//! - **run**: one walk (or search) from one start square by one rule and method on one board, one
//!   trial of it; a row of `runs.csv`.
//!
//! Merged: a run's number in the sweep is its **job** number (the `job` column;
//! [`crate::experiment::Job`] is a run with its number and request): "job" names a run, not another
//! slice. "Piece" (a part's runs cut to at most 256 for a batch) is no longer a noun of the runner:
//! it is the runs of one part in a batch. Elsewhere: `summary.csv` is formatted in batches and
//! pieces of groups (`output::writers`), slices of rows, not of runs; a "lane" is one of the walks
//! the kernel interleaves, not a slice of the sweep.

mod blocks;
mod cost;
mod deliver;
mod dry_run;
pub mod memory;
mod mirror;
mod options;
mod orbit_memo;
mod preflight;
mod progress;
mod report;
mod stop;
mod worker;

pub use cost::{sweep_cost, SweepCost};
pub use dry_run::DryRun;
pub use options::{SweepOptions, SweepProgress};
pub use preflight::check_worker_memory;
pub use report::{SweepError, SweepReport};
pub use stop::StopToken;

use blocks::Blocks;
use deliver::{BlockResult, Delivered, Delivery, InOrder};
use mirror::Mirrors;
use progress::Progress;
use stop::Halt;
use worker::Worker;

use super::output::{self, OutDir, OutputError};
use super::plan::{Plan, Shard};
use super::record::Tallies;
use super::spec::Spec;
use super::table::SuccessTable;
use crate::solve::TieTrees;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Run (or resume) `spec` into `opts.out`.
pub fn run_sweep(spec: &Spec, opts: &SweepOptions) -> Result<SweepReport, SweepError> {
    run_planned_sweep(spec, &Plan::new(spec)?, opts)
}

/// [`run_sweep`] with the spec's plan already made (`Plan::new(spec)`), for a caller that needs it
/// first (the CLI prints the number of runs), so that it is made once.
pub fn run_planned_sweep(
    spec: &Spec,
    plan: &Plan,
    opts: &SweepOptions,
) -> Result<SweepReport, SweepError> {
    let started = Instant::now();
    // before the output folder is touched: a sweep that cannot start leaves nothing behind
    let shard = preflight::check(spec, plan, opts)?;
    let pool = worker_pool(opts.threads)?;
    // the output folder, and what an earlier invocation finished there
    let mut dir = OutDir::open(&opts.out, spec, plan, opts.shard, opts.resume, opts.force)?;
    let resumed = Resumed::recover(&mut dir, plan, &shard)?;
    dir.write_meta(spec, &opts.invocation(), "running", None)?;
    // blocks -> workers -> in-order delivery, until every block is run or the sweep halts
    let writers = dir.writers(spec.file.record)?;
    let progress = Progress::new(plan, &shard, &resumed.done, resumed.runs, opts.progress);
    let shared = Shared::new(spec, plan, opts, &pool);
    let in_order = InOrder::new(
        writers,
        resumed.tallies,
        progress,
        shared.halt.failed.clone(),
    );
    let blocks = Blocks::new(plan, shard, &resumed.done);
    let delivered = shared.run_blocks(&pool, blocks, in_order);
    // the summary and the dead ends, from every group's tally; then the outcome
    let (table, summarized) = summarize(&pool, &dir, plan, &delivered.tallies, shared.scratch());
    let chunks_done = resumed.done.len() as u64 + delivered.written;
    let mut first_error = delivered.first_error;
    if let Err(e) = summarized {
        first_error.get_or_insert(e.into());
    }
    // a write that failed may have been counted: complete and interrupted mean no failure too
    let complete = chunks_done == shard.len() && first_error.is_none();
    let status = match (complete, &first_error) {
        (true, _) => "complete",
        (false, None) if opts.stop.is_stopped() => "interrupted",
        _ => "failed",
    };
    // best effort for meta.json after a failure: the disk may be full
    let meta = dir.write_meta(spec, &opts.invocation(), status, Some(started.elapsed()));
    if let Some(cause) = first_error {
        return Err(SweepError::Failed {
            cause: Box::new(cause),
        });
    }
    meta?;
    let _ = std::io::stderr().flush();
    Ok(SweepReport {
        chunks_done,
        chunks_total: shard.len(),
        runs_done_now: delivered.runs_done_now,
        runs_resumed: resumed.runs,
        runs_mirrored: delivered.runs_mirrored,
        interrupted: !complete,
        elapsed: started.elapsed(),
        table,
        files: dir.files(spec.file.record),
    })
}

/// The sweep's thread pool: `threads` workers (at least one).
fn worker_pool(threads: usize) -> Result<rayon::ThreadPool, SweepError> {
    let threads = threads.max(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ktour-sweep-{i}"))
        .build()
        .map_err(|reason| SweepError::Threads { threads, reason })
}

/// What an earlier invocation finished, of this shard: its chunks (in order), their runs, and
/// every group's tally of them.
struct Resumed {
    done: Vec<u64>,
    runs: u64,
    tallies: Tallies,
}

impl Resumed {
    /// The journal rows of the chunks done before in `dir`, those of `shard`, in run order.
    fn recover(dir: &mut OutDir, plan: &Plan, shard: &Shard) -> Result<Self, SweepError> {
        let mut rows = dir.recover(plan)?;
        rows.retain(|r| shard.contains(r.chunk));
        Ok(Resumed {
            done: output::chunks_of(&rows),
            runs: rows.iter().map(|r| r.tally.runs).sum(),
            tallies: output::tallies_of(&rows),
        })
    }
}

/// What every worker reads: the spec and its plan, the options, the sweep's mirror images and
/// tie trees, and whether to stop.
struct Shared<'a> {
    spec: &'a Spec,
    plan: &'a Plan,
    opts: &'a SweepOptions,
    mirrors: Option<Mirrors>,
    tie_trees: Arc<TieTrees>,
    halt: Halt<'a>,
}

/// The hand-off of blocks from the workers to the writing turn.
type Handoff = Delivery<Result<BlockResult, SweepError>, InOrder>;

impl<'a> Shared<'a> {
    /// The workers' shared state: the orbits of mirror-image groups found on `pool` (unless
    /// `opts.symmetry` is off), and tie trees that the workers walking one small board grow
    /// between them.
    fn new(
        spec: &'a Spec,
        plan: &'a Plan,
        opts: &'a SweepOptions,
        pool: &rayon::ThreadPool,
    ) -> Self {
        Shared {
            spec,
            plan,
            opts,
            mirrors: opts
                .symmetry
                .then(|| pool.install(|| Mirrors::of(plan)))
                .flatten(),
            tie_trees: Arc::new(TieTrees::default()),
            halt: Halt::new(&opts.stop),
        }
    }

    /// Run `blocks` on every thread of `pool`, each finished block handed to `in_order`, until
    /// every block is run or the sweep halts; what was delivered.
    fn run_blocks(&self, pool: &rayon::ThreadPool, blocks: Blocks, in_order: InOrder) -> Delivered {
        let (blocks, delivery) = (Mutex::new(blocks), Delivery::new(in_order));
        pool.scope(|scope| {
            for _ in 0..pool.current_num_threads() {
                let (blocks, delivery) = (&blocks, &delivery);
                scope.spawn(move |_| self.work(blocks, delivery));
            }
        });
        delivery.into_turn().finish()
    }

    /// One worker thread: take the next block until none is left or the sweep halts, run it and
    /// hand it in (what finished before an error too).
    fn work(&self, blocks: &Mutex<Blocks>, delivery: &Handoff) {
        let mut worker = Worker::new(self.spec, self.opts, &self.tie_trees);
        let record = self.spec.file.record;
        while !self.halt.now() {
            let taken = blocks
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .next_block();
            let Some((seq, chunks)) = taken else {
                break;
            };
            let mirrors = self.mirrors.as_ref();
            let (result, error) = worker.run_block(self.plan, seq, &chunks, record, mirrors);
            delivery.deliver(Ok(result));
            if let Some(e) = error {
                delivery.deliver(Err(e));
                self.halt.failed.stop();
                break;
            }
        }
    }

    /// What only the runs needed (the orbits and the memo, the tie trees), to be freed.
    fn scratch(self) -> impl Send {
        (self.mirrors, self.tie_trees)
    }
}

/// Write `summary.csv` and `deadends.csv` from every group's `tallies`, and make the table of
/// success rates as the summary is written, from every group, so that a size range with groups
/// not yet run is marked partial. On the sweep's own threads (`--threads 1` stays one thread), the
/// two files side by side, so that each file's serial parts (gathering its groups, writing its
/// rows, finishing the table) overlap the other's formatting; `scratch` is dropped beside them, by
/// whichever thread is free first, not after them on this one.
fn summarize(
    pool: &rayon::ThreadPool,
    dir: &OutDir,
    plan: &Plan,
    tallies: &Tallies,
    scratch: impl Send,
) -> (String, Result<(), OutputError>) {
    let mut table = SuccessTable::with_capacity(plan.series());
    let summary = || {
        let written = dir.write_summary(plan, tallies, |group, tally| {
            let board = plan.boards()[group.board];
            let t = tally.copied().unwrap_or_default();
            table.add_numbered(
                plan.series_of(group),
                board,
                plan.rule_name(group),
                group.method.name(),
                t.successes,
                t.feasible_runs,
                t.runs == group.runs,
            );
        });
        (written, table.finish())
    };
    let ((summary_written, table), deadends_written) = pool.install(|| {
        let freed = move || drop(scratch);
        rayon::join(
            || rayon::join(summary, || dir.write_deadends(plan, tallies)),
            freed,
        )
        .0
    });
    (table, summary_written.and(deadends_written))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn spec(text: &str) -> Spec {
        Spec::from_toml(text, "test").unwrap()
    }

    /// One thread, no progress, into `out`.
    fn options(out: &Path, resume: bool) -> SweepOptions {
        SweepOptions {
            out: out.to_path_buf(),
            threads: 1,
            resume,
            force: false,
            shard: None,
            progress: SweepProgress::Hidden,
            command: String::new(),
            lane_memory: crate::solve::DEFAULT_LANE_MEMORY,
            symmetry: true,
            stop: StopToken::new(),
        }
    }

    /// The rows of each CSV file of a folder without their timing columns.
    fn files_without_timing(dir: &Path) -> Vec<(&'static str, Vec<Vec<String>>)> {
        [
            output::RUNS,
            output::CHUNKS,
            output::SUMMARY,
            output::DEADENDS,
        ]
        .into_iter()
        .map(|name| {
            let mut r = csv::Reader::from_path(dir.join(name)).unwrap();
            let timing: Vec<bool> = r
                .headers()
                .unwrap()
                .iter()
                .map(|h| h.starts_with("elapsed"))
                .collect();
            let rows = r
                .records()
                .map(|rec| {
                    let rec = rec.unwrap();
                    rec.iter()
                        .zip(&timing)
                        .filter(|(_, &t)| !t)
                        .map(|(f, _)| f.to_string())
                        .collect()
                })
                .collect();
            (name, rows)
        })
        .collect()
    }

    fn status(dir: &Path) -> String {
        let meta = std::fs::read_to_string(dir.join(output::META)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&meta).unwrap();
        v["status"].as_str().unwrap().to_string()
    }

    /// The library refuses a spec without runs as the CLI does, before touching the folder.
    #[test]
    fn a_spec_without_runs_is_an_error_not_an_empty_result() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let squirrel_off_its_domain =
            spec("name = \"t\"\nsizes = [4, 6]\nrules = [\"squirrel\"]\nstarts = [[1, 2]]\n");
        assert!(matches!(
            run_sweep(&squirrel_off_its_domain, &options(&out, false)),
            Err(SweepError::NoRuns)
        ));
        assert!(!out.exists());
    }

    /// A sweep stopped through its token, before it starts or while it runs, ends interrupted with
    /// what it did kept (`meta.json` says so, and the caller's token alone says it was asked);
    /// a resume completes it to the files of a sweep never stopped, timing aside.
    #[test]
    fn a_stop_token_interrupts_a_sweep_and_a_resume_completes_it() {
        let tmp = tempfile::tempdir().unwrap();
        // 26,620 runs of 30x30 to 40x40 in a few hundred blocks: long enough to stop part way
        let spec = spec(
            "name = \"t\"\nsizes = \"30..=40\"\nstarts = \"all\"\nrules = [\"first\", \"roth\"]\nrecord = \"runs\"\n",
        );
        let whole = tmp.path().join("whole");
        let done = run_sweep(&spec, &options(&whole, false)).unwrap();
        assert!(!done.interrupted);
        assert_eq!(status(&whole), "complete");
        let expected = files_without_timing(&whole);

        // asked before it starts: nothing runs, the folder is made and resumable
        let before = tmp.path().join("before");
        let opts = options(&before, false);
        opts.stop.stop();
        let stopped = run_sweep(&spec, &opts).unwrap();
        assert!(stopped.interrupted);
        assert_eq!((stopped.chunks_done, stopped.runs_done_now), (0, 0));
        assert_eq!(status(&before), "interrupted");
        let resumed = run_sweep(&spec, &options(&before, true)).unwrap();
        assert!(!resumed.interrupted);
        assert_eq!(resumed.runs_done_now, done.runs_done_now);
        assert_eq!(files_without_timing(&before), expected);

        // asked while it runs, as soon as its first rows reach runs.csv: it ends between blocks.
        // A loaded machine may let a sweep finish before the stop is seen: tried a few times.
        let header = std::fs::read_to_string(whole.join(output::RUNS))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .len() as u64
            + 1;
        let part_way = (0..5).find_map(|attempt| {
            let out = tmp.path().join(format!("while{attempt}"));
            let opts = options(&out, false);
            let report = std::thread::scope(|s| {
                let (token, runs) = (opts.stop.clone(), out.join(output::RUNS));
                s.spawn(move || {
                    while std::fs::metadata(&runs).map_or(0, |m| m.len()) <= header {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                    token.stop();
                });
                run_sweep(&spec, &opts).unwrap()
            });
            report.interrupted.then_some((out, report))
        });
        let (out, stopped) = part_way.expect("a stop while running ends the sweep part way");
        assert!(0 < stopped.chunks_done && stopped.chunks_done < stopped.chunks_total);
        assert!(0 < stopped.runs_done_now && stopped.runs_done_now < done.runs_done_now);
        assert_eq!(status(&out), "interrupted");
        let resumed = run_sweep(&spec, &options(&out, true)).unwrap();
        assert!(!resumed.interrupted);
        assert_eq!(resumed.runs_resumed, stopped.runs_done_now);
        assert_eq!(
            resumed.runs_resumed + resumed.runs_done_now,
            done.runs_done_now
        );
        assert_eq!(files_without_timing(&out), expected);
    }

    /// A second writer into a folder in use is refused, with the folder named, before it reads
    /// or writes anything there; once the first has ended, a resume goes on.
    #[test]
    fn a_folder_in_use_is_refused_until_its_writer_ends() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let spec = spec("name = \"t\"\nsizes = [5, 6]\nrules = [\"first\", \"roth\"]\n");
        let plan = Plan::new(&spec).unwrap();
        let refused = |resume| match run_sweep(&spec, &options(&out, resume)) {
            Err(SweepError::Output(e @ output::OutputError::Locked { .. })) => e.to_string(),
            other => panic!("{:?}", other.map(|r| r.chunks_done)),
        };
        // a sweep under way holds its folder open
        let first = OutDir::open(&out, &spec, &plan, None, false, false).unwrap();
        let message = refused(false);
        assert!(message.contains(&out.display().to_string()), "{message}");
        assert!(!message.contains('\n'), "{message}");
        drop(first);
        let done = run_sweep(&spec, &options(&out, false)).unwrap();
        let journal = std::fs::read(out.join(output::CHUNKS)).unwrap();
        // a resume under way, then one more, refused without touching the files
        let second = OutDir::open(&out, &spec, &plan, None, true, false).unwrap();
        refused(true);
        assert_eq!(std::fs::read(out.join(output::CHUNKS)).unwrap(), journal);
        drop(second);
        let resumed = run_sweep(&spec, &options(&out, true)).unwrap();
        assert_eq!(resumed.chunks_done, done.chunks_total);
        assert_eq!(resumed.runs_done_now, 0);
        // a merge into a folder in use is refused too
        let merged = tmp.path().join("merged");
        let busy = OutDir::open(&merged, &spec, &plan, None, false, false).unwrap();
        assert!(matches!(
            crate::experiment::merge(std::slice::from_ref(&out), &merged, false),
            Err(output::OutputError::Locked { .. })
        ));
        drop(busy);
        crate::experiment::merge(std::slice::from_ref(&out), &merged, false).unwrap();
    }
}
