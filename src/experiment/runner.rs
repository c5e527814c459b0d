//! Runs a plan: worker threads (a rayon pool) take chunks in order from an atomic counter, each with
//! its own [`Solver`] scratch state, and write results in chunk order ([`Delivery`]: whichever worker
//! finds the writing turn free writes every block whose turn has come), so the CSV files are the same
//! whatever the thread count, and `--threads N` keeps N cores busy, not N plus a writer. Rows are
//! flushed at least every second; Ctrl-C stops taking new chunks, lets the ones in flight finish, and
//! writes what is done.
//!
//! ADVICE FOR HACKERS: crash safety rests on one ordering. A chunk's run rows reach `runs.csv` before
//! its row reaches `chunks.csv` (the journal), so a chunk listed in the journal is complete in
//! `runs.csv`; `--resume` drops run rows of chunks the journal does not list and any torn last line.
//! Chunk rows are therefore kept in memory and written only after `runs.csv` has been flushed.

use super::delivery::{Delivery, Take};
use super::options::{SweepOptions, SweepProgress};
use super::output::{self, ChunkLines, OutDir, Writers};
use super::plan::{Chunk, Plan};
use super::record::{DeadEndLengths, RunRow, Tally};
use super::size::CHUNK_STEPS;
use super::spec::Spec;
use super::spec_file::RecordLevel;
use crate::board::Board;
use crate::exists;
use crate::solve::{Outcome, Request, RunSummary, SolveError, Solver, MAX_INTERLEAVED_RUNS};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What a sweep did.
#[derive(Clone, Debug)]
pub struct SweepReport {
    /// Chunks of this shard done, resumed ones included.
    pub chunks_done: usize,
    /// Chunks of this shard.
    pub chunks_total: usize,
    /// Runs done in this invocation.
    pub runs_done_now: u64,
    /// Runs of this shard, done before this invocation (resume).
    pub runs_resumed: u64,
    /// Whether Ctrl-C stopped it.
    pub interrupted: bool,
    /// Wall-clock time of this invocation.
    pub elapsed: Duration,
    /// The summary rows written.
    pub summary: Vec<super::record::SummaryRow>,
    /// [`super::success_table`] of every group, partial cells marked.
    pub table: String,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// A sweep could not run.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// Output folder problems (other spec's results, I/O).
    #[error(transparent)]
    Output(#[from] output::OutputError),
    /// The workers would not fit in memory together (checked before any run).
    #[error(transparent)]
    Memory(#[from] crate::experiment::memory::SweepMemoryError),
    /// The plan would not fit in memory.
    #[error(transparent)]
    Plan(#[from] super::plan::PlanError),
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {reason}; use fewer --threads")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why.
        reason: rayon::ThreadPoolBuildError,
    },
    /// The spec gives no runs. Validation refuses empty lists, so only a rule with a narrow domain
    /// gets here.
    #[error("the spec gives no runs: `squirrel` runs only on n x n boards with n >= 5, from the corner (0,0)")]
    NoRuns,
    /// A run could not start (memory, rule domain).
    #[error("run {job} ({request}): {source}")]
    Solve {
        /// Global run number.
        job: u64,
        /// The request, described.
        request: String,
        /// Why.
        source: SolveError,
    },
    /// The sweep started and then failed (a write failed, a full disk say, or a run could not
    /// start). The chunks finished before it are in the journal, `meta.json` says `"failed"` where
    /// it could still be written, and `--resume` continues once the cause is fixed.
    #[error("{cause}; the chunks finished before it are saved, and --resume continues once the cause is fixed")]
    Failed {
        /// What went wrong (not a `source`: the message already includes it).
        cause: Box<SweepError>,
    },
}

static STOP: AtomicBool = AtomicBool::new(false);
static HANDLER: std::sync::Once = std::sync::Once::new();

/// Install the Ctrl-C handler once per process: the first Ctrl-C asks sweeps to stop cleanly, the
/// second exits at once (what was flushed survives; `--resume` repairs the rest).
fn install_interrupt_handler() {
    HANDLER.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                eprintln!("\nsecond interrupt: exiting now");
                std::process::exit(130);
            }
            eprintln!("\ninterrupt: finishing the chunks in flight, then writing results (Ctrl-C again to quit at once)");
        });
    });
}

/// Ask a running sweep to stop as if Ctrl-C was pressed (tests, embedding).
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

/// What a worker hands in for a block of consecutive positions of `todo` (or for its part before
/// an error): each chunk's tally, and the CSV lines of all of them, formatted by the worker so that
/// writing them is only appending bytes in order.
struct BlockResult {
    first: usize,
    done: Vec<(Chunk, Tally, DeadEndLengths)>,
    lines: ChunkLines,
}

/// The writing side of a sweep: finished blocks wait here until every block before them is written.
struct InOrder<'a> {
    writers: Writers,
    /// Blocks that finished before their turn, by their first position in `todo`.
    pending: BTreeMap<usize, BlockResult>,
    /// Chunks of `todo` written, in order.
    written: usize,
    tallies: Vec<Tally>,
    /// Each group's dead ends by length.
    dead_ends: Vec<DeadEndLengths>,
    runs_done_now: u64,
    first_error: Option<SweepError>,
    last_flush: Instant,
    bar: &'a ProgressBar,
    /// [`SweepProgress::Lines`]: how often, and when the last line was written.
    lines: Option<(Duration, Instant)>,
    /// Squares of the boards of the runs written in this invocation, and of all it has to run: the
    /// time left is estimated from these, since a size sweep's later runs are larger.
    work: (u64, u64),
    plan: &'a Plan,
}

impl Take<Result<BlockResult, SweepError>> for InOrder<'_> {
    /// Keep a worker's block, write every block whose turn has come, and flush if the last flush
    /// is a second old.
    fn take(&mut self, message: Result<BlockResult, SweepError>) {
        match message {
            Ok(result) => {
                self.pending.insert(result.first, result);
            }
            Err(e) => {
                self.first_error.get_or_insert(e);
                return;
            }
        }
        while let Some(r) = self.pending.remove(&self.written) {
            if let Err(e) = self.writers.write(r.lines) {
                self.first_error.get_or_insert(e.into());
                STOP.store(true, Ordering::SeqCst);
            }
            for (chunk, tally, dead_ends) in &r.done {
                self.work.0 += tally.runs * chunk_squares(self.plan, chunk);
                self.tallies[chunk.group as usize].merge(tally);
                self.dead_ends[chunk.group as usize].merge(dead_ends);
                self.runs_done_now += tally.runs;
                self.bar.inc(tally.runs);
            }
            if r.done.is_empty() {
                break; // an error on the block's first chunk: nothing follows it
            }
            self.written += r.done.len();
        }
        if self.last_flush.elapsed() >= Duration::from_secs(1) {
            if let Err(e) = self.writers.flush() {
                self.first_error.get_or_insert(e.into());
                STOP.store(true, Ordering::SeqCst);
            }
            self.last_flush = Instant::now();
        }
        if let Some((every, last)) = self.lines {
            if last.elapsed() >= every {
                self.progress_line();
                self.lines = Some((every, Instant::now()));
            }
        }
    }
}

impl InOrder<'_> {
    /// One line of progress for a log: runs done, share, time so far and an estimate of the rest
    /// (from the squares of the boards run so far and still to run).
    fn progress_line(&self) {
        let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let elapsed = self.bar.elapsed();
        let (work_done, work_total) = self.work;
        let left = if work_done > 0 {
            let secs = (elapsed.as_secs_f64() * work_total.saturating_sub(work_done) as f64
                / work_done as f64)
                .round();
            format!(
                "about {} left",
                humantime::format_duration(Duration::from_secs(secs as u64))
            )
        } else {
            "time left unknown".to_string()
        };
        eprintln!(
            "progress: {done} of {total} runs ({:.1}%), {} elapsed, {left}",
            100.0 * done as f64 / total.max(1) as f64,
            humantime::format_duration(Duration::from_secs(elapsed.as_secs()))
        );
    }
}

/// Squares of the board of `chunk`'s runs.
fn chunk_squares(plan: &Plan, chunk: &Chunk) -> u64 {
    plan.boards[plan.groups[chunk.group as usize].board].len() as u64
}

fn describe(req: &Request) -> String {
    format!(
        "{} from {},{} {} {}",
        req.board,
        req.start.row(),
        req.start.col(),
        req.method,
        req.rule
    )
}

/// Runs handed to the kernel at once when chunks are small in runs: four times the lanes it walks
/// side by side, so that as runs of different lengths end, others take their lanes.
const BATCH_RUNS: usize = 4 * MAX_INTERLEAVED_RUNS;

/// Most work a block takes to reach [`BATCH_RUNS`] runs: 2^24 steps (16 runs of 1000x1000), a
/// fraction of a second on one core, so that large boards still report progress and stop promptly.
const MAX_BLOCK_STEPS: u64 = 1 << 24;

/// Run the chunks of a block, then tally each chunk and add its lines to `lines`. Consecutive chunks
/// go to [`Solver::run_batch`] together until they hold [`BATCH_RUNS`] runs, so that on
/// large boards, where a chunk is a single run (more than 2^18 squares), the kernel still has runs to
/// interleave; chunks that have enough runs go alone, which keeps a batch's buffers small (a whole
/// 8x8 block in one batch would push its jobs, requests and summaries out of cache). Returns
/// the chunks done, in order, and the error of the first run that failed, if any: the chunks before
/// its chunk are done, its chunk and the rest are not. `jobs`, `reqs` and `out` are reused buffers.
#[allow(clippy::too_many_arguments)]
fn run_block(
    plan: &Plan,
    chunks: &[Chunk],
    record: RecordLevel,
    solver: &mut Solver,
    jobs: &mut Vec<super::plan::Job>,
    reqs: &mut Vec<Request>,
    out: &mut Vec<RunSummary>,
    lines: &mut ChunkLines,
) -> (Vec<(Chunk, Tally, DeadEndLengths)>, Option<SweepError>) {
    let mut done = Vec::with_capacity(chunks.len());
    let mut rest = chunks;
    while !rest.is_empty() {
        let mut runs = 0;
        let take = rest
            .iter()
            .take_while(|c| {
                let more = runs < BATCH_RUNS;
                runs += (c.to - c.from) as usize;
                more
            })
            .count();
        let (batch, after) = rest.split_at(take);
        rest = after;
        jobs.clear();
        reqs.clear();
        out.clear();
        for c in batch {
            jobs.extend((c.from..c.to).map(|i| plan.job(c.group, i)));
        }
        reqs.extend(jobs.iter().map(|j| j.request));
        let ran = run_jobs(plan, batch, jobs, reqs, solver, out);
        let mut at = 0;
        for &chunk in batch {
            let n = (chunk.to - chunk.from) as usize;
            if at + n > out.len() {
                break; // the batch stopped at a run of this chunk
            }
            let rule = plan.groups[chunk.group as usize].rule.to_string();
            let (jobs, out) = (&jobs[at..at + n], &out[at..at + n]);
            match add_chunk(lines, &chunk, &rule, jobs, out, record) {
                Ok((tally, dead_ends)) => done.push((chunk, tally, dead_ends)),
                Err(e) => return (done, Some(e)),
            }
            at += n;
        }
        if let Err(source) = ran {
            let j = jobs[out.len().min(jobs.len() - 1)];
            let error = SweepError::Solve {
                job: j.job,
                request: describe(&j.request),
                source,
            };
            return (done, Some(error));
        }
    }
    (done, None)
}

/// Run `reqs` (the runs of `jobs`, of the chunks `batch`), appending one summary each to `out`:
/// through [`Solver::run_batch`], or, for a group with restarts, one [`Solver::run_attempts`] a run
/// (whose summary counts its attempts and every attempt's time).
fn run_jobs(
    plan: &Plan,
    batch: &[Chunk],
    jobs: &[super::plan::Job],
    reqs: &[Request],
    solver: &mut Solver,
    out: &mut Vec<RunSummary>,
) -> Result<(), crate::solve::SolveError> {
    if jobs.iter().all(|j| j.attempts == 1) {
        return solver.run_batch(reqs, out);
    }
    let mut at = 0;
    for c in batch {
        let group = &plan.groups[c.group as usize];
        for req in &reqs[at..at + (c.to - c.from) as usize] {
            out.push(
                solver
                    .run_attempts(req, &group.rule, group.attempts)?
                    .summary,
            );
        }
        at += (c.to - c.from) as usize;
    }
    Ok(())
}

/// Tally one chunk's runs (and its dead ends by length) and add its lines: its runs' rows if runs
/// are recorded (straight into the CSV buffer, borrowing the names: no allocation per row), then
/// its journal row.
fn add_chunk(
    lines: &mut ChunkLines,
    chunk: &Chunk,
    rule: &str,
    jobs: &[super::plan::Job],
    out: &[RunSummary],
    record: RecordLevel,
) -> Result<(Tally, DeadEndLengths), SweepError> {
    let mut tally = Tally::default();
    let mut dead_ends = DeadEndLengths::default();
    // a chunk is one group: one rule, one method; its runs are feasible by the theorem of the
    // closure the solver seeks (`rotate` always closes), as the solver judges them
    let (board, closure) = (jobs[0].request.board, jobs[0].request.closure_sought());
    let board_ok = exists::tour(board, closure).is_ok();
    let method = jobs[0].request.method.name();
    for (job, s) in jobs.iter().zip(out) {
        let feasible = board_ok && exists::parity_allows(board, job.request.start, closure);
        tally.add_run(s, feasible);
        if s.outcome == Outcome::DeadEnd {
            dead_ends.add(s.visited);
        }
        if record == RecordLevel::Runs {
            let r = &job.request;
            lines.add_run(&RunRow {
                job: job.job,
                rows: r.board.rows(),
                cols: r.board.cols(),
                rule: Cow::Borrowed(rule),
                method: Cow::Borrowed(method),
                closed: r.closure.is_closed(),
                start_row: r.start.row(),
                start_col: r.start.col(),
                trial: job.trial,
                seed: r.seed,
                outcome: Cow::Borrowed(s.outcome.name()),
                success: s.outcome == Outcome::Found,
                visited: s.visited,
                nodes: s.stats.nodes,
                backtracks: s.stats.backtracks,
                ties: s.stats.ties,
                elapsed_ns: s.stats.elapsed_ns,
                attempt: s.attempts,
            })?;
        }
    }
    lines.add_chunk(chunk, &tally, &dead_ends)?;
    Ok((tally, dead_ends))
}

/// Consecutive positions of `todo` that a worker takes at once: about [`CHUNK_STEPS`] of work, so that
/// the one-chunk groups of small boards (one per ordering in an `order:*` sweep) do not each pay for a
/// hand-off to the writing turn, and at least [`BATCH_RUNS`] runs, so that on large boards (a run a
/// chunk) the kernel has runs to interleave, unless that passes [`MAX_BLOCK_STEPS`]: on a huge board
/// a block stays one run, so that Ctrl-C and the last blocks of a sweep do not wait for sixteen.
fn blocks(plan: &Plan, todo: &[Chunk]) -> Vec<std::ops::Range<usize>> {
    let mut blocks = Vec::new();
    let (mut start, mut work, mut runs) = (0, 0u64, 0usize);
    for (i, c) in todo.iter().enumerate() {
        let squares = chunk_squares(plan, c);
        work += (c.to - c.from) as u64 * squares;
        runs += (c.to - c.from) as usize;
        if work >= CHUNK_STEPS && (runs >= BATCH_RUNS || work >= MAX_BLOCK_STEPS) {
            blocks.push(start..i + 1);
            (start, work, runs) = (i + 1, 0, 0);
        }
    }
    if start < todo.len() {
        blocks.push(start..todo.len());
    }
    blocks
}

/// A worker thread's stack (std's and rayon's default), counted with its work in
/// [`check_worker_memory`]: under `ulimit -v`, a thousand threads' stacks are what does not fit.
const WORKER_STACK_BYTES: u64 = 2 << 20;

/// The most a sweep worker needs, and the board it needs it for: its stack and what the spec's most
/// demanding board and method take (a search's state, or the batch lanes of pure Warnsdorff, as
/// many as `lane_memory` allows). `None` for a spec without boards.
pub(super) fn worker_memory(spec: &Spec, lane_memory: f64) -> Option<(u64, Board)> {
    spec.boards
        .iter()
        .flat_map(|&board| spec.methods.iter().map(move |&m| (board, m)))
        .map(|(board, method)| {
            let lanes = crate::solve::interleaved_lanes(board, lane_memory);
            let bytes =
                crate::experiment::memory::worker_bytes(board, method, lanes) + WORKER_STACK_BYTES;
            (bytes, board)
        })
        .max_by_key(|&(bytes, _)| bytes)
}

/// Refuse a sweep whose workers would not fit in memory together (`worker_memory` each). A single
/// run's own check cannot see the other workers. `--dry-run` asks it too.
pub fn check_worker_memory(spec: &Spec, opts: &SweepOptions) -> Result<(), SweepError> {
    if let Some((bytes, board)) = worker_memory(spec, opts.lane_memory) {
        crate::experiment::memory::check_workers(board, bytes, opts.threads.max(1))?;
    }
    Ok(())
}

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
    if plan.total_runs() == 0 {
        return Err(SweepError::NoRuns);
    }
    check_worker_memory(spec, opts)?;
    // before the output folder is touched: a sweep that cannot start leaves nothing behind
    let threads = opts.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ktour-sweep-{i}"))
        .build()
        .map_err(|reason| SweepError::Threads { threads, reason })?;
    let (shard_index, shard_count) = opts.shard.unwrap_or((1, 1));
    let mine = plan.shard(shard_index, shard_count);
    let mut dir = OutDir::open(&opts.out, spec, plan, opts.shard, opts.resume, opts.force)?;
    let done = dir.recover(plan)?; // chunk id -> tally and dead ends, from the journal
    let mut tallies = vec![Tally::default(); plan.groups.len()];
    let mut dead_ends = vec![DeadEndLengths::default(); plan.groups.len()];
    let mut runs_resumed = 0;
    for (&id, (t, d)) in &done {
        let group = plan.chunks[id as usize].group as usize;
        tallies[group].merge(t);
        dead_ends[group].merge(d);
        runs_resumed += t.runs;
    }
    let todo: Vec<Chunk> = mine
        .iter()
        .copied()
        .filter(|c| !done.contains_key(&c.id))
        .collect();
    dir.write_meta(spec, opts, "running", None)?;
    let record = spec.file.record;
    let writers = dir.writers(record)?;

    let total_runs: u64 = mine.iter().map(|c| (c.to - c.from) as u64).sum();
    let bar = match opts.progress {
        SweepProgress::Bar => {
            ProgressBar::with_draw_target(Some(total_runs), ProgressDrawTarget::stderr_with_hz(4))
        }
        // a hidden bar still counts: progress lines read it
        SweepProgress::Hidden | SweepProgress::Lines(_) => {
            ProgressBar::with_draw_target(Some(total_runs), ProgressDrawTarget::hidden())
        }
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} runs ({per_sec}, ETA {eta})",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_position(runs_resumed);
    bar.reset_eta();

    install_interrupt_handler();
    STOP.store(false, Ordering::SeqCst);
    let next = AtomicUsize::new(0);
    let blocks = blocks(plan, &todo);
    let delivery = Delivery::new(InOrder {
        writers,
        pending: BTreeMap::new(),
        written: 0,
        tallies,
        dead_ends,
        runs_done_now: 0,
        first_error: None,
        last_flush: Instant::now(),
        bar: &bar,
        lines: match opts.progress {
            SweepProgress::Lines(every) => Some((every, Instant::now())),
            _ => None,
        },
        work: (
            0,
            todo.iter()
                .map(|c| (c.to - c.from) as u64 * chunk_squares(plan, c))
                .sum(),
        ),
        plan,
    });
    pool.scope(|scope| {
        for _ in 0..threads {
            let (todo, blocks, next, delivery) = (&todo, &blocks, &next, &delivery);
            scope.spawn(move |_| {
                let mut solver = Solver::new();
                solver.set_lane_memory(opts.lane_memory);
                let (mut jobs, mut reqs, mut out) = (Vec::new(), Vec::new(), Vec::new());
                loop {
                    if STOP.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some(block) = blocks.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        break;
                    };
                    let mut lines = ChunkLines::default();
                    let (done, error) = run_block(
                        plan,
                        &todo[block.clone()],
                        record,
                        &mut solver,
                        &mut jobs,
                        &mut reqs,
                        &mut out,
                        &mut lines,
                    );
                    // what finished before an error is still written
                    delivery.deliver(Ok(BlockResult {
                        first: block.start,
                        done,
                        lines,
                    }));
                    if let Some(e) = error {
                        delivery.deliver(Err(e));
                        STOP.store(true, Ordering::SeqCst);
                        break;
                    }
                }
            });
        }
    });
    let InOrder {
        mut writers,
        written,
        tallies,
        dead_ends,
        runs_done_now,
        mut first_error,
        ..
    } = delivery.into_turn();
    // From here on a failure (a full disk shows at this flush at the latest) still ends with
    // `meta.json` saying so, not "running".
    if let Err(e) = writers.flush() {
        first_error.get_or_insert(e.into());
    }
    drop(writers);
    bar.finish_and_clear();
    let chunks_done = mine.len() - todo.len() + written;
    // on the sweep's own threads, so that `--threads 1` stays one thread
    let summary = pool.install(|| output::summary_rows(plan, &tallies));
    // the table is made while the summary is written: both are serial work at the end of a sweep;
    // it has every group, so that a size range with groups not yet run is marked partial
    let (summary_written, table) = pool.install(|| {
        rayon::join(
            || dir.write_summary(&summary),
            || super::success_table(&output::every_group_row(plan, &tallies)),
        )
    });
    if let Err(e) = summary_written.and_then(|()| dir.write_deadends(plan, &dead_ends)) {
        first_error.get_or_insert(e.into());
    }
    // a write that failed may have been counted: complete and interrupted mean no failure too
    let complete = chunks_done == mine.len() && first_error.is_none();
    let status = if complete {
        "complete"
    } else if first_error.is_none() && STOP.load(Ordering::SeqCst) {
        "interrupted"
    } else {
        "failed"
    };
    let meta = dir.write_meta(spec, opts, status, Some(started.elapsed()));
    STOP.store(false, Ordering::SeqCst);
    if let Some(cause) = first_error {
        // best effort for meta.json here: the disk may be full
        return Err(SweepError::Failed {
            cause: Box::new(cause),
        });
    }
    meta?;
    let _ = std::io::stderr().flush();
    Ok(SweepReport {
        chunks_done,
        chunks_total: mine.len(),
        runs_done_now,
        runs_resumed,
        interrupted: !complete,
        elapsed: started.elapsed(),
        summary,
        table,
        files: dir.files(record),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> Spec {
        Spec::from_toml(text, "test").unwrap()
    }

    /// The library refuses a spec without runs as the CLI does, before touching the folder.
    #[test]
    fn a_spec_without_runs_is_an_error_not_an_empty_result() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let opts = SweepOptions {
            out: out.clone(),
            threads: 1,
            resume: false,
            force: false,
            shard: None,
            progress: SweepProgress::Hidden,
            command: String::new(),
            lane_memory: crate::solve::DEFAULT_LANE_MEMORY,
        };
        let squirrel_off_its_domain =
            spec("name = \"t\"\nsizes = [4, 6]\nrules = [\"squirrel\"]\nstarts = [[1, 2]]\n");
        assert!(matches!(
            run_sweep(&squirrel_off_its_domain, &opts),
            Err(SweepError::NoRuns)
        ));
        assert!(!out.exists());
    }

    /// A second writer into a folder in use is refused, with the folder named, before it reads
    /// or writes anything there; once the first has ended, a resume goes on.
    #[test]
    fn a_folder_in_use_is_refused_until_its_writer_ends() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let spec = spec("name = \"t\"\nsizes = [5, 6]\nrules = [\"first\", \"roth\"]\n");
        let plan = Plan::new(&spec).unwrap();
        let opts = |resume| SweepOptions {
            out: out.clone(),
            threads: 1,
            resume,
            force: false,
            shard: None,
            progress: SweepProgress::Hidden,
            command: String::new(),
            lane_memory: crate::solve::DEFAULT_LANE_MEMORY,
        };
        let refused = |resume| match run_sweep(&spec, &opts(resume)) {
            Err(SweepError::Output(e @ output::OutputError::Locked { .. })) => e.to_string(),
            other => panic!("{:?}", other.map(|r| r.chunks_done)),
        };
        // a sweep under way holds its folder open
        let first = OutDir::open(&out, &spec, &plan, None, false, false).unwrap();
        let message = refused(false);
        assert!(message.contains(&out.display().to_string()), "{message}");
        assert!(!message.contains('\n'), "{message}");
        drop(first);
        let done = run_sweep(&spec, &opts(false)).unwrap();
        let journal = std::fs::read(out.join(output::CHUNKS)).unwrap();
        // a resume under way, then one more, refused without touching the files
        let second = OutDir::open(&out, &spec, &plan, None, true, false).unwrap();
        refused(true);
        assert_eq!(std::fs::read(out.join(output::CHUNKS)).unwrap(), journal);
        drop(second);
        let resumed = run_sweep(&spec, &opts(true)).unwrap();
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

    #[test]
    fn blocks_hold_enough_work_and_enough_runs_to_interleave() {
        // 8x8, one chunk (64 runs) per ordering: 64 chunks make 2^18 steps
        let small = Plan::new(&spec(
            "name = \"s\"\nsizes = [8]\nrules = [\"order:*\"]\nmethods = [\"warnsdorff\"]",
        ))
        .unwrap();
        let todo = small.shard(1, 1);
        let b = blocks(&small, &todo);
        assert_eq!(b[0], 0..64);
        // 600x600: a run a chunk, each past 2^18 steps alone; a block still takes enough runs
        // to keep the kernel's lanes busy
        let large = Plan::new(&spec(
            "name = \"l\"\nsizes = [600]\nstarts = \"sample:40\"\nrules = [\"first\"]\nmethods = [\"warnsdorff\"]",
        ))
        .unwrap();
        let todo = large.shard(1, 1);
        assert!(todo.iter().all(|c| c.to - c.from == 1));
        let b = blocks(&large, &todo);
        assert_eq!(b, vec![0..16, 16..32, 32..40]);
        // 2048x2048: four runs reach 2^24 steps; 5000x5000: one run does
        for (n, per_block) in [(2048, 4), (5000, 1)] {
            let huge = Plan::new(&spec(&format!(
                "name = \"h\"\nsizes = [{n}]\nstarts = \"sample:8\"\nrules = [\"first\"]\nmethods = [\"warnsdorff\"]"
            )))
            .unwrap();
            let b = blocks(&huge, &huge.shard(1, 1));
            assert!(b.iter().all(|r| r.len() == per_block), "{n}: {b:?}");
        }
        // every chunk is in exactly one block, in order
        for (plan, todo) in [(&small, small.shard(1, 1)), (&large, large.shard(1, 1))] {
            let b = blocks(plan, &todo);
            assert_eq!(b.first().unwrap().start, 0);
            assert_eq!(b.last().unwrap().end, todo.len());
            assert!(b.windows(2).all(|w| w[0].end == w[1].start));
        }
    }
}
