//! Runs a plan: worker threads (a rayon pool) take blocks of chunks in order, computed as they are
//! taken (nothing is listed ahead), each worker with its own [`Solver`] scratch state, and write
//! results in block order ([`Delivery`]: whichever worker finds the writing turn free writes every
//! block whose turn has come), so the CSV files are the same whatever the thread count, and
//! `--threads N` keeps N cores busy, not N plus a writer. A tally is kept per group run, not per
//! run or chunk. Rows are flushed at least every second; Ctrl-C stops taking new chunks, lets the
//! ones in flight finish, and writes what is done.
//!
//! ADVICE FOR HACKERS: crash safety rests on one ordering. A chunk's run rows reach `runs.csv` before
//! its row reaches `chunks.csv` (the journal), so a chunk listed in the journal is complete in
//! `runs.csv`; `--resume` drops run rows of chunks the journal does not list and any torn last line.
//! Chunk rows are therefore kept in memory and written only after `runs.csv` has been flushed.

use super::delivery::{Delivery, Take};
use super::disk::OutputSize;
use super::options::{SweepOptions, SweepProgress};
use super::orbit_memo::{OrbitMemo, Walked};
use super::output::{self, ChunkLines, OutDir, Writers};
use super::plan::{Chunk, Group, Orbit, Orbits, Part, Plan, Shard};
use super::record::{DeadEndLengths, RunRow, Tallies, Tally};
use super::size::CHUNK_STEPS;
use super::spec::Spec;
use super::spec_file::RecordLevel;
use crate::board::Board;
use crate::exists;
use crate::solve::{
    Outcome, Request, RunSummary, SolveError, Solver, SolverOptions, TieTrees, MAX_INTERLEAVED_RUNS,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a sweep did.
#[derive(Clone, Debug)]
pub struct SweepReport {
    /// Chunks of this shard done, resumed ones included.
    pub chunks_done: u64,
    /// Chunks of this shard.
    pub chunks_total: u64,
    /// Runs done in this invocation.
    pub runs_done_now: u64,
    /// Runs of this shard, done before this invocation (resume).
    pub runs_resumed: u64,
    /// Of the runs done now, those whose rows were written from a mirror-image run's walk
    /// (`plan::Orbits`), not walked themselves.
    pub runs_mirrored: u64,
    /// Whether Ctrl-C stopped it.
    pub interrupted: bool,
    /// Wall-clock time of this invocation.
    pub elapsed: Duration,
    /// [`super::success_table`] of every group, partial cells marked (the rows written are in
    /// `summary.csv`: a sweep of millions of groups does not hold them).
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
    /// The groups' tallies would not fit beside the workers (checked before any run).
    #[error(transparent)]
    Tallies(#[from] crate::experiment::memory::TallyMemoryError),
    /// The output cannot fit on its disk (checked before any run).
    #[error(transparent)]
    Disk(#[from] super::disk::DiskError),
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

/// What a worker hands in for a block of chunks (or for its part before an error): each group's
/// tally of them, and the CSV lines of all of them, formatted by the worker so that writing them is
/// only appending bytes in order.
struct BlockResult {
    /// The block's number, in the order the blocks were taken (and are written).
    seq: u64,
    /// Its chunks that finished.
    chunks: u64,
    /// Whether all of them did (no run failed to start).
    whole: bool,
    /// Each group's tally and dead ends of those chunks, in order (a group may come twice, in two
    /// chunks).
    parts: Vec<(u32, Tally, DeadEndLengths)>,
    /// Their runs, and the squares of the boards of their runs.
    runs: u64,
    /// Of them, those written from a mirror-image run's walk.
    mirrored: u64,
    work: u64,
    lines: ChunkLines,
}

/// The writing side of a sweep: finished blocks wait here until every block before them is written.
struct InOrder<'a> {
    writers: Writers,
    /// Blocks that finished before their turn, by number.
    pending: BTreeMap<u64, BlockResult>,
    /// The number of the next block to write.
    next: u64,
    /// A block stopped short (a run failed to start): nothing after it is written.
    stopped: bool,
    /// Chunks written, in this invocation.
    written: u64,
    tallies: Tallies,
    runs_done_now: u64,
    runs_mirrored: u64,
    first_error: Option<SweepError>,
    last_flush: Instant,
    bar: &'a ProgressBar,
    /// [`SweepProgress::Lines`]: how often, and when the last line was written.
    lines: Option<(Duration, Instant)>,
    /// Squares of the boards of the runs written in this invocation, and of all it has to run: the
    /// time left is estimated from these, since a size sweep's later runs are larger.
    work: (u128, u128),
}

impl Take<Result<BlockResult, SweepError>> for InOrder<'_> {
    /// Keep a worker's block, write every block whose turn has come, and flush if the last flush
    /// is a second old.
    fn take(&mut self, message: Result<BlockResult, SweepError>) {
        match message {
            Ok(result) => {
                self.pending.insert(result.seq, result);
            }
            Err(e) => {
                self.first_error.get_or_insert(e);
                return;
            }
        }
        while !self.stopped {
            let Some(r) = self.pending.remove(&self.next) else {
                break;
            };
            if let Err(e) = self.writers.write(r.lines) {
                self.first_error.get_or_insert(e.into());
                STOP.store(true, Ordering::SeqCst);
            }
            for (group, tally, dead_ends) in &r.parts {
                self.tallies.add(*group, tally, dead_ends);
            }
            self.work.0 += r.work as u128;
            self.runs_done_now += r.runs;
            self.runs_mirrored += r.mirrored;
            self.bar.inc(r.runs);
            self.written += r.chunks;
            self.stopped = !r.whole;
            self.next += 1;
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
    plan.boards()[chunk.board].len() as u64
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

/// Runs handed to the kernel at once when groups are small in runs: four times the lanes it walks
/// side by side, so that as runs of different lengths end, others take their lanes.
const BATCH_RUNS: usize = 4 * MAX_INTERLEAVED_RUNS;

/// Most runs handed to the kernel at once: a group's share of a chunk may be thousands of runs (a
/// chunk of 8x8 holds 4096), and its requests and summaries would then no longer stay in cache.
const MAX_BATCH_RUNS: u32 = 256;

/// Most work a block takes to reach [`BATCH_RUNS`] runs: 2^24 steps (16 runs of 1000x1000), a
/// fraction of a second on one core, so that large boards still report progress and stop promptly.
const MAX_BLOCK_STEPS: u64 = 1 << 24;

/// What a worker keeps from one block to the next: its solver and its buffers.
struct Worker {
    solver: Solver,
    parts: Vec<Part>,
    reqs: Vec<Request>,
    out: Vec<RunSummary>,
    /// Per part of the chunk: its orbit, and where its runs are mirrored from, if they are.
    orbits: Vec<Option<Orbit>>,
    mirrored: Vec<Option<Mirrored>>,
    /// The groups with mirrors walked in the chunk: canonical group, runs, members of the orbit.
    walked: Vec<(u32, Arc<Walked>, u32)>,
    /// The same groups by their canonical number: looked up, not searched, for each member (a
    /// chunk of corner runs holds thousands of groups, and a search a member made the chunk's
    /// bookkeeping quadratic).
    walkers: HashMap<u32, Walker>,
    /// A mirrored group's requests and runs.
    mirrored_reqs: Vec<Request>,
    mirrored_out: Vec<RunSummary>,
    /// The length of the journal lines of this worker's last block: the next block's room.
    journal_bytes: usize,
}

/// A group with mirrors walked in the chunk.
struct Walker {
    /// The chunk's later parts that take its runs.
    takers: u32,
    /// Its place in the worker's `walked`, once walked.
    at: Option<usize>,
}

/// Where a mirrored group's runs come from.
enum Mirrored {
    /// A member walked in an earlier chunk.
    Kept(Arc<Walked>),
    /// A member walked earlier in the same chunk.
    InChunk,
}

/// A sweep's mirror-image groups: which they are, and the walked ones kept for the others.
struct Mirrors {
    orbits: Orbits,
    memo: OrbitMemo,
}

impl Worker {
    /// Run the chunks of a block, then tally each group's share of each chunk and add its lines.
    /// A group's runs go to [`Solver::run_batch`] in pieces of at most [`MAX_BATCH_RUNS`], and
    /// the runs of small groups together until they hold [`BATCH_RUNS`], so that the kernel has
    /// runs to interleave (on large boards a chunk is a single run). A chunk's lines are added
    /// whole or not at all: at the first run that fails, the chunks before its chunk are done, its
    /// chunk and the rest are not.
    fn run_block(
        &mut self,
        plan: &Plan,
        seq: u64,
        chunks: &[Chunk],
        record: RecordLevel,
        mirrors: Option<&Mirrors>,
    ) -> (BlockResult, Option<SweepError>) {
        let mut result = BlockResult {
            seq,
            chunks: 0,
            whole: true,
            parts: Vec::new(),
            runs: 0,
            mirrored: 0,
            work: 0,
            lines: ChunkLines::with_journal_capacity(self.journal_bytes),
        };
        for chunk in chunks {
            if let Err(e) = self.run_chunk(plan, chunk, record, mirrors, &mut result) {
                result.whole = false;
                return (result, Some(e));
            }
            result.chunks += 1;
            result.runs += chunk.runs();
            result.work += chunk.runs() * chunk_squares(plan, chunk);
        }
        self.journal_bytes = result.lines.journal_len();
        (result, None)
    }

    /// Run one chunk into `result` (its tallies and lines); on an error, its tallies and lines are
    /// taken back.
    fn run_chunk(
        &mut self,
        plan: &Plan,
        chunk: &Chunk,
        record: RecordLevel,
        mirrors: Option<&Mirrors>,
        result: &mut BlockResult,
    ) -> Result<(), SweepError> {
        let (mark, first) = (result.lines.mark()?, result.parts.len());
        let ran = self.add_chunk(plan, chunk, record, mirrors, result);
        if ran.is_err() {
            result.lines.rollback(mark)?;
            result.parts.truncate(first);
        }
        ran
    }

    /// The work of [`Worker::run_chunk`], whose tallies and lines it takes back if this fails.
    /// Groups mirrored from a group walked before (`mirrors`, or earlier in this chunk) are not
    /// walked; the runs of the others are walked first, in batches across groups; then every
    /// group's runs are tallied and written in order; then the walked groups that have mirrors are
    /// kept for them.
    fn add_chunk(
        &mut self,
        plan: &Plan,
        chunk: &Chunk,
        record: RecordLevel,
        mirrors: Option<&Mirrors>,
        result: &mut BlockResult,
    ) -> Result<(), SweepError> {
        self.parts.clear();
        self.parts.extend(plan.parts(chunk));
        let first = result.parts.len();
        result.parts.extend(
            self.parts
                .iter()
                .map(|p| (p.group.id, Tally::default(), DeadEndLengths::default())),
        );
        self.find_mirrors(plan, mirrors);
        // pieces (part, from, to) of at most MAX_BATCH_RUNS runs of the parts to walk, batched
        // until BATCH_RUNS
        let mirrored = &self.mirrored;
        let mut pieces = self.parts.iter().enumerate().flat_map(|(k, p)| {
            let (from, to) = if mirrored[k].is_some() {
                (0, 0)
            } else {
                (p.from, p.to)
            };
            (from..to)
                .step_by(MAX_BATCH_RUNS as usize)
                .map(move |from| (k, from, (from + MAX_BATCH_RUNS).min(to)))
        });
        let mut batch: Vec<(usize, u32, u32)> = Vec::new();
        self.reqs.clear();
        self.out.clear();
        loop {
            batch.clear();
            let at = self.reqs.len();
            for piece in pieces.by_ref() {
                let (k, from, to) = piece;
                plan.requests(&self.parts[k].group, from, to, &mut self.reqs);
                batch.push(piece);
                if self.reqs.len() - at >= BATCH_RUNS {
                    break;
                }
            }
            if batch.is_empty() {
                break;
            }
            let ran = run_pieces(
                &mut self.solver,
                &self.parts,
                &batch,
                &self.reqs[at..],
                &mut self.out,
            );
            if let Err(source) = ran {
                // the run that failed is the first without a summary
                let (mut at, mut job) = (self.out.len() - at, None);
                for &(k, from, to) in &batch {
                    let n = (to - from) as usize;
                    if at < n {
                        job = Some(plan.job_in(&self.parts[k].group, from + at as u32));
                        break;
                    }
                    at -= n;
                }
                let j = job.expect("the failed run is in the batch");
                return Err(SweepError::Solve {
                    job: j.job,
                    request: describe(&j.request),
                    source,
                });
            }
        }
        // every part in order: walked runs from `out`, mirrored ones from their orbit's walked
        // group (whose tally is theirs: without run rows to write, nothing is done per run)
        self.walked.clear();
        let mut at = 0;
        for k in 0..self.parts.len() {
            let part = &self.parts[k];
            let (_, tally, dead_ends) = &mut result.parts[first + k];
            let orbit = self.orbits[k];
            let walked = match (&self.mirrored[k], orbit) {
                (Some(Mirrored::Kept(w)), _) => Some(w.clone()),
                (Some(Mirrored::InChunk), Some(o)) => {
                    let at = self.walkers.get(&o.canonical).and_then(|w| w.at);
                    Some(
                        self.walked[at.expect("a member walked earlier in the chunk")]
                            .1
                            .clone(),
                    )
                }
                _ => None,
            };
            if let (Some(walked), Some(orbit)) = (walked, orbit) {
                if record != RecordLevel::Runs {
                    (*tally, *dead_ends) = (walked.tally, walked.dead_ends.clone());
                    continue;
                }
                self.mirrored_reqs.clear();
                plan.requests(&part.group, part.from, part.to, &mut self.mirrored_reqs);
                self.mirrored_out.clear();
                self.mirrored_out.extend(
                    self.mirrored_reqs
                        .iter()
                        .map(|r| walked.runs[plan.mirrored_run(&part.group, &orbit, r.start)]),
                );
                add_runs(
                    plan,
                    &part.group,
                    part.from,
                    &self.mirrored_reqs,
                    &self.mirrored_out,
                    record,
                    (tally, dead_ends),
                    &mut result.lines,
                )?;
                continue;
            }
            let n = (part.to - part.from) as usize;
            let (reqs, out) = (&self.reqs[at..at + n], &self.out[at..at + n]);
            at += n;
            add_runs(
                plan,
                &part.group,
                part.from,
                reqs,
                out,
                record,
                (tally, dead_ends),
                &mut result.lines,
            )?;
            // a walked group with mirrors, in its canonical group's order of runs (a run ruled
            // out by a theorem names its start in its reason, which no file writes: the files
            // have the outcome's name only)
            let Some(orbit) = orbit else {
                continue;
            };
            // the runs themselves only where their rows are written
            let mut runs = Vec::new();
            if record == RecordLevel::Runs {
                runs = out.to_vec();
                for (r, s) in reqs.iter().zip(out) {
                    runs[plan.mirrored_run(&part.group, &orbit, r.start)] = *s;
                }
            }
            let walked = Walked {
                runs,
                tally: *tally,
                dead_ends: dead_ends.clone(),
            };
            if let Some(w) = self.walkers.get_mut(&orbit.canonical) {
                w.at = Some(self.walked.len());
            }
            self.walked
                .push((orbit.canonical, Arc::new(walked), orbit.members));
        }
        for (part, (_, tally, dead_ends)) in self.parts.iter().zip(&result.parts[first..]) {
            result.lines.add_part(chunk.id, part, tally, dead_ends);
        }
        result.mirrored += self
            .parts
            .iter()
            .zip(&self.mirrored)
            .filter(|(_, m)| m.is_some())
            .map(|(p, _)| (p.to - p.from) as u64)
            .sum::<u64>();
        // kept for the members in later chunks: those of this chunk are served
        if let Some(m) = mirrors {
            for (canonical, walked, members) in self.walked.drain(..) {
                let here = self.walkers.get(&canonical).map_or(0, |w| w.takers);
                m.memo.give(canonical, members, here + 1, walked);
            }
        }
        Ok(())
    }

    /// Each part's orbit (whole groups with mirrors only), and whether its runs are mirrored from
    /// a group walked in an earlier chunk (kept in the memo) or earlier in this one.
    fn find_mirrors(&mut self, plan: &Plan, mirrors: Option<&Mirrors>) {
        self.orbits.clear();
        self.mirrored.clear();
        self.walkers.clear();
        for p in &self.parts {
            let orbit = mirrors
                .filter(|_| p.from == 0 && p.to as u64 == p.group.runs)
                .and_then(|m| m.orbits.orbit(plan, &p.group));
            let mirrored = match (mirrors, orbit) {
                (Some(m), Some(o)) => match m.memo.take(o.canonical) {
                    Some(w) => Some(Mirrored::Kept(w)),
                    None => match self.walkers.entry(o.canonical) {
                        // walked in this chunk by an earlier member
                        Entry::Occupied(mut walker) => {
                            walker.get_mut().takers += 1;
                            Some(Mirrored::InChunk)
                        }
                        // walked by this one
                        Entry::Vacant(v) => {
                            v.insert(Walker {
                                takers: 0,
                                at: None,
                            });
                            None
                        }
                    },
                },
                _ => None,
            };
            self.orbits.push(orbit);
            self.mirrored.push(mirrored);
        }
    }
}

/// Run `reqs`, the requests of `batch` (pieces `(part, from, to)` of `parts`), a summary each into
/// `out`: through [`Solver::run_batch`], or, where a group has restarts, one
/// [`Solver::run_attempts`] a run (whose summary counts its attempts and every attempt's time).
fn run_pieces(
    solver: &mut Solver,
    parts: &[Part],
    batch: &[(usize, u32, u32)],
    reqs: &[Request],
    out: &mut Vec<RunSummary>,
) -> Result<(), SolveError> {
    if batch.iter().all(|&(k, ..)| parts[k].group.attempts == 1) {
        return solver.run_batch(reqs, out);
    }
    let mut at = 0;
    for &(k, from, to) in batch {
        let group = &parts[k].group;
        for req in &reqs[at..at + (to - from) as usize] {
            out.push(
                solver
                    .run_attempts(req, &group.rule, group.attempts)?
                    .summary,
            );
        }
        at += (to - from) as usize;
    }
    Ok(())
}

/// Tally runs `from..` of `group` (their requests and summaries), and their dead ends by length,
/// and, if runs are recorded, add their rows (straight into the CSV buffer, borrowing the names:
/// no allocation per row). What is the same for the group (whether its board has a tour, its
/// names) is found once.
#[allow(clippy::too_many_arguments)]
fn add_runs(
    plan: &Plan,
    group: &Group,
    from: u32,
    reqs: &[Request],
    out: &[RunSummary],
    record: RecordLevel,
    (tally, dead_ends): (&mut Tally, &mut DeadEndLengths),
    lines: &mut ChunkLines,
) -> Result<(), SweepError> {
    // feasible by the theorem of the closure the solver seeks (`rotate` always closes), as the
    // solver judges them
    let Some(first) = reqs.first() else {
        return Ok(());
    };
    let (board, closure) = (first.board, first.closure_sought());
    // on any board, feasible = not ruled out by the necessary conditions
    let shape = plan.shape_of(board).map(|s| {
        let facts = exists::ShapeFacts::of(&s);
        (s, facts)
    });
    let board_ok = match &shape {
        None => exists::tour(board, closure).is_ok(),
        Some((shape, facts)) => exists::shape_tour_with(shape, facts, None, closure).is_ok(),
    };
    for (r, s) in reqs.iter().zip(out) {
        let feasible = board_ok
            && match &shape {
                None => exists::parity_allows(board, r.start, closure),
                Some((shape, facts)) => {
                    exists::shape_tour_with(shape, facts, Some(r.start), closure).is_ok()
                }
            };
        tally.add_run(s, feasible);
        if s.outcome == Outcome::DeadEnd {
            dead_ends.add(s.visited);
        }
    }
    if record == RecordLevel::Runs {
        let (rule, method) = (plan.rule_name(group), group.method.name());
        for (i, (r, s)) in (from..).zip(reqs.iter().zip(out)) {
            lines.add_run(&RunRow {
                job: group.first_job + i as u64,
                rows: board.rows(),
                cols: board.cols(),
                rule: Cow::Borrowed(rule),
                method: Cow::Borrowed(method),
                closed: r.closure.is_closed(),
                start_row: r.start.row(),
                start_col: r.start.col(),
                trial: plan.trial_of(group, i),
                seed: plan.seed_of(group, i),
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
    Ok(())
}

/// Hands out the chunks of a shard still to run, in order, as blocks: consecutive chunks that a
/// worker takes at once, about [`CHUNK_STEPS`] of work (on small boards a chunk already is) and at
/// least [`BATCH_RUNS`] runs, so that on large boards (a run a chunk) the kernel has runs to
/// interleave, unless that passes [`MAX_BLOCK_STEPS`]: on a huge board a block stays one run, so
/// that Ctrl-C and the last blocks of a sweep do not wait for sixteen. Nothing is listed ahead: a
/// shard of 10^8 chunks takes no memory.
struct Blocks<'a> {
    plan: &'a Plan,
    shard: Shard,
    /// The shard's next chunk, by its place in the shard.
    next: u64,
    /// The chunks already done (resumed), in order, and how far they have been passed.
    done: &'a [u64],
    passed: usize,
    /// The next block's number.
    seq: u64,
}

impl Blocks<'_> {
    /// The next block and its number, or `None` when every chunk is handed out.
    fn next_block(&mut self) -> Option<(u64, Vec<Chunk>)> {
        let mut block = Vec::new();
        let (mut work, mut runs) = (0u64, 0u64);
        while self.next < self.shard.len() {
            let id = self.shard.nth(self.next);
            self.next += 1;
            self.passed += self.done[self.passed..].partition_point(|&d| d < id);
            if self.done.get(self.passed) == Some(&id) {
                continue;
            }
            let c = self.plan.chunk(id);
            work += c.runs() * chunk_squares(self.plan, &c);
            runs += c.runs();
            block.push(c);
            if work >= CHUNK_STEPS && (runs >= BATCH_RUNS as u64 || work >= MAX_BLOCK_STEPS) {
                break;
            }
        }
        if block.is_empty() {
            return None;
        }
        self.seq += 1;
        Some((self.seq - 1, block))
    }
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

/// Refuse a sweep whose workers would not fit in memory together (`worker_memory` each), or whose
/// tallies (one per group its shard runs) would not fit beside them. A single run's own check
/// cannot see the other workers. `--dry-run` asks it too.
pub fn check_worker_memory(
    spec: &Spec,
    plan: &Plan,
    opts: &SweepOptions,
) -> Result<(), SweepError> {
    let threads = opts.threads.max(1);
    let mut workers = 0;
    if let Some((bytes, board)) = worker_memory(spec, opts.lane_memory) {
        crate::experiment::memory::check_workers(board, bytes, threads)?;
        workers = bytes.saturating_mul(threads as u64);
    }
    let (index, count) = opts.shard.unwrap_or((1, 1));
    let shard = plan.shard(index, count);
    let groups = plan.groups_touched_bound(&shard);
    let dead_ends = plan.dead_end_bytes_bound(&shard);
    crate::experiment::memory::check_tallies(groups, workers.saturating_add(dead_ends))?;
    Ok(())
}

/// The least that `shard` of `plan` writes: a journal line per chunk, and a row per run if runs
/// are recorded.
pub(super) fn output_size(plan: &Plan, shard: &Shard, record: RecordLevel) -> OutputSize {
    OutputSize {
        journal_lines: shard.len(),
        run_rows: match record {
            RecordLevel::Runs => (0..plan.boards().len())
                .map(|b| plan.board_runs_in(b, shard))
                .sum(),
            RecordLevel::Summary => 0,
        },
    }
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
    let (shard_index, shard_count) = opts.shard.unwrap_or((1, 1));
    let mine = plan.shard(shard_index, shard_count);
    // before the output folder is touched: a sweep that cannot start leaves nothing behind. The
    // disk first: its need is exact, the memory's a bound
    if !opts.resume {
        // a resumed sweep passed this when it started, and part of its output is there already
        super::disk::check_disk(&opts.out, &output_size(plan, &mine, spec.file.record))?;
    }
    check_worker_memory(spec, plan, opts)?;
    let threads = opts.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ktour-sweep-{i}"))
        .build()
        .map_err(|reason| SweepError::Threads { threads, reason })?;
    let mut dir = OutDir::open(&opts.out, spec, plan, opts.shard, opts.resume, opts.force)?;
    // the journal rows of the chunks done before, in run order (those of this shard)
    let mut resumed = dir.recover(plan)?;
    resumed.retain(|r| mine.contains(r.chunk));
    let done = output::chunks_of(&resumed);
    let runs_resumed: u64 = resumed.iter().map(|r| r.tally.runs).sum();
    let tallies = output::tallies_of(&resumed);
    drop(resumed);
    dir.write_meta(spec, opts, "running", None)?;
    let record = spec.file.record;
    let writers = dir.writers(record)?;

    let (mut total_runs, mut total_work) = (0u64, 0u128);
    for (b, board) in plan.boards().iter().enumerate() {
        let runs = plan.board_runs_in(b, &mine);
        total_runs += runs;
        total_work += runs as u128 * board.len() as u128;
    }
    let done_work: u128 = done
        .iter()
        .map(|&id| {
            let c = plan.chunk(id);
            c.runs() as u128 * chunk_squares(plan, &c) as u128
        })
        .sum();
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

    let mirrors = opts
        .symmetry
        .then(|| pool.install(|| Orbits::of(plan)))
        .flatten()
        .map(|orbits| Mirrors {
            orbits,
            memo: OrbitMemo::default(),
        });
    install_interrupt_handler();
    STOP.store(false, Ordering::SeqCst);
    let blocks = Mutex::new(Blocks {
        plan,
        shard: mine,
        next: 0,
        done: &done,
        passed: 0,
        seq: 0,
    });
    let delivery = Delivery::new(InOrder {
        writers,
        pending: BTreeMap::new(),
        next: 0,
        stopped: false,
        written: 0,
        tallies,
        runs_done_now: 0,
        runs_mirrored: 0,
        first_error: None,
        last_flush: Instant::now(),
        bar: &bar,
        lines: match opts.progress {
            SweepProgress::Lines(every) => Some((every, Instant::now())),
            _ => None,
        },
        work: (0, total_work - done_work),
    });
    // the workers walking one small board grow its tie tree between them
    let tie_trees = Arc::new(TieTrees::default());
    pool.scope(|scope| {
        for _ in 0..threads {
            let (blocks, delivery, mirrors) = (&blocks, &delivery, mirrors.as_ref());
            let tie_trees = &tie_trees;
            scope.spawn(move |_| {
                let options = SolverOptions::new()
                    .lane_memory(opts.lane_memory)
                    .shape(spec.leaper, spec.mask.clone())
                    .share_tie_trees(tie_trees);
                let mut worker = Worker {
                    solver: Solver::with_options(options),
                    parts: Vec::new(),
                    reqs: Vec::new(),
                    out: Vec::new(),
                    orbits: Vec::new(),
                    mirrored: Vec::new(),
                    walked: Vec::new(),
                    walkers: HashMap::new(),
                    mirrored_reqs: Vec::new(),
                    mirrored_out: Vec::new(),
                    journal_bytes: 0,
                };
                loop {
                    if STOP.load(Ordering::SeqCst) {
                        break;
                    }
                    let taken = blocks
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .next_block();
                    let Some((seq, chunks)) = taken else {
                        break;
                    };
                    let (result, error) = worker.run_block(plan, seq, &chunks, record, mirrors);
                    // what finished before an error is still written
                    delivery.deliver(Ok(result));
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
        runs_done_now,
        runs_mirrored,
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
    let chunks_done = done.len() as u64 + written;
    // on the sweep's own threads, so that `--threads 1` stays one thread; the table is made as
    // the summary is written, from every group, so that a size range with groups not yet run is
    // marked partial
    let mut table = super::table::SuccessTable::with_capacity(plan.series());
    // side by side, so that each file's serial parts (gathering its groups, writing its pieces,
    // finishing the table) overlap the other's formatting; what only the runs needed (the orbit
    // table, the tie trees) is freed beside them, by whichever thread is free first, not after
    // them on this one
    let summary = || {
        let written = dir.write_summary(plan, &tallies, |group, tally| {
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
        let freed = move || drop((mirrors, tie_trees));
        rayon::join(
            || rayon::join(summary, || dir.write_deadends(plan, &tallies)),
            freed,
        )
        .0
    });
    if let Err(e) = summary_written.and(deadends_written) {
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
        runs_mirrored,
        interrupted: !complete,
        elapsed: started.elapsed(),
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
            symmetry: true,
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
            symmetry: true,
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
        // the blocks of `shard` of `plan` past the chunks `done`, as chunk numbers
        let blocks = |plan: &Plan, shard: Shard, done: &[u64]| {
            let mut blocks = Blocks {
                plan,
                shard,
                next: 0,
                done,
                passed: 0,
                seq: 0,
            };
            let mut all = Vec::new();
            while let Some((seq, block)) = blocks.next_block() {
                assert_eq!(seq, all.len() as u64);
                all.push(block.iter().map(|c| c.id).collect::<Vec<u64>>());
            }
            all
        };
        // 8x8: a chunk of 4096 runs (64 orderings) is 2^18 steps, a block alone
        let small = Plan::new(&spec(
            "name = \"s\"\nsizes = [8]\nrules = [\"order:*\"]\nmethods = [\"warnsdorff\"]",
        ))
        .unwrap();
        assert_eq!(small.chunk(0).runs(), 4096);
        let b = blocks(&small, small.shard(1, 1), &[]);
        assert_eq!(b.len() as u64, small.total_chunks());
        assert!(b.iter().enumerate().all(|(i, b)| b == &[i as u64]));
        // 600x600: a run a chunk, each past 2^18 steps alone; a block still takes enough runs
        // to keep the kernel's lanes busy
        let large = Plan::new(&spec(
            "name = \"l\"\nsizes = [600]\nstarts = \"sample:40\"\nrules = [\"first\"]\nmethods = [\"warnsdorff\"]",
        ))
        .unwrap();
        assert!((0..40).all(|id| large.chunk(id).runs() == 1));
        let b = blocks(&large, large.shard(1, 1), &[]);
        let per_block = BATCH_RUNS as u64;
        assert!(per_block < 40, "a block and a part at least");
        let want: Vec<Vec<u64>> = (0..40)
            .collect::<Vec<u64>>()
            .chunks(per_block as usize)
            .map(<[u64]>::to_vec)
            .collect();
        assert_eq!(b, want);
        // chunks done before are passed over; a shard's blocks hold its chunks alone
        let b = blocks(&large, large.shard(1, 1), &[1, 5, 17, 39]);
        let flat: Vec<u64> = b.concat();
        assert_eq!(
            flat,
            (0..40)
                .filter(|i| ![1, 5, 17, 39].contains(i))
                .collect::<Vec<_>>()
        );
        assert_eq!(b[0].len() as u64, per_block);
        let b = blocks(&large, large.shard(2, 3), &[4]);
        assert_eq!(
            b.concat(),
            (0..40)
                .filter(|i| i % 3 == 1 && *i != 4)
                .collect::<Vec<_>>()
        );
        // 2048x2048: four runs reach 2^24 steps; 5000x5000: one run does
        for (n, per_block) in [(2048, 4), (5000, 1)] {
            let huge = Plan::new(&spec(&format!(
                "name = \"h\"\nsizes = [{n}]\nstarts = \"sample:8\"\nrules = [\"first\"]\nmethods = [\"warnsdorff\"]"
            )))
            .unwrap();
            let b = blocks(&huge, huge.shard(1, 1), &[]);
            assert!(b.iter().all(|r| r.len() == per_block), "{n}: {b:?}");
        }
    }
}
