//! The worker stage: a worker thread runs the chunks of the blocks it takes, each with its own
//! [`Solver`] scratch state, and hands in a [`BlockResult`] per block: each group's tally of its
//! share of each chunk, and the chunk's CSV lines, formatted here so that writing is only appending
//! bytes. A chunk goes through three steps: walk (its runs, batched across groups for the kernel's
//! interleaved lanes: [`Worker::walk`]), mirror (groups a board symmetry maps onto a group walked
//! before are not walked: `super::mirror`), record (tally every part's runs and add their rows:
//! [`Worker::record`]). A tally is kept per group run, not per run or chunk.

use super::blocks::{chunk_squares, BATCH_RUNS};
use super::deliver::BlockResult;
use super::mirror::{ChunkMirrors, Mirrors};
use super::options::SweepOptions;
use super::orbit_memo::Walked;
use super::SweepError;
use crate::exists;
use crate::experiment::output::ChunkLines;
use crate::experiment::plan::{Chunk, Group, Orbit, Part, Plan};
use crate::experiment::record::{DeadEndLengths, RunRow, Tally};
use crate::experiment::spec::Spec;
use crate::experiment::spec_file::RecordLevel;
use crate::solve::{Outcome, Request, RunSummary, SolveError, Solver, SolverOptions, TieTrees};
use std::borrow::Cow;
use std::sync::Arc;

/// Most runs handed to the kernel at once: a group's share of a chunk may be thousands of runs (a
/// chunk of 8x8 holds 4096), and its requests and summaries would then no longer stay in cache.
const MAX_BATCH_RUNS: u32 = 256;

/// Runs of a part in a batch: the part's place in the chunk, and its runs `from..to`, at most
/// [`MAX_BATCH_RUNS`] of them.
type PartRuns = (usize, u32, u32);

/// What a worker keeps from one block to the next: its solver and its buffers.
pub(super) struct Worker {
    solver: Solver,
    /// The chunk's parts (a group's runs in the chunk).
    parts: Vec<Part>,
    /// The requests and summaries of the runs walked in the chunk, part after part.
    reqs: Vec<Request>,
    out: Vec<RunSummary>,
    /// The chunk's mirror images.
    mirrors: ChunkMirrors,
    /// A mirrored part's requests and runs.
    mirrored_reqs: Vec<Request>,
    mirrored_out: Vec<RunSummary>,
    /// The length of the journal lines of this worker's last block: the next block's room.
    journal_bytes: usize,
}

impl Worker {
    /// A worker for `spec`'s runs as `opts` says, growing the small boards' tie trees in
    /// `tie_trees` with the other workers.
    pub(super) fn new(spec: &Spec, opts: &SweepOptions, tie_trees: &Arc<TieTrees>) -> Self {
        let solver = Solver::with_options(
            SolverOptions::new()
                .lane_memory(opts.lane_memory)
                .shape(spec.leaper, spec.mask.clone())
                .share_tie_trees(tie_trees),
        );
        Worker {
            solver,
            parts: Vec::new(),
            reqs: Vec::new(),
            out: Vec::new(),
            mirrors: ChunkMirrors::default(),
            mirrored_reqs: Vec::new(),
            mirrored_out: Vec::new(),
            journal_bytes: 0,
        }
    }

    /// Run the chunks of block `seq`, then tally each group's share of each chunk and add its
    /// lines. A chunk's lines are added whole or not at all: at the first run that fails, the
    /// chunks before its chunk are done, its chunk and the rest are not.
    pub(super) fn run_block(
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

    /// The work of [`Worker::run_chunk`], whose tallies and lines it takes back if this fails:
    /// find the chunk's parts and their mirrors, walk the parts not mirrored, record every part in
    /// order, and keep the walked groups that have mirrors for them.
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
        self.mirrors.find(plan, &self.parts, mirrors);
        self.walk(plan)?;
        let first = result.parts.len();
        result.parts.extend(
            self.parts
                .iter()
                .map(|p| (p.group.id, Tally::default(), DeadEndLengths::default())),
        );
        self.record(plan, record, &mut result.parts[first..], &mut result.lines)?;
        for (part, (_, tally, dead_ends)) in self.parts.iter().zip(&result.parts[first..]) {
            result.lines.add_part(chunk.id, part, tally, dead_ends);
        }
        result.mirrored += self.mirrors.runs_mirrored(&self.parts);
        self.mirrors.give(mirrors);
        Ok(())
    }

    /// Walk the runs of the chunk's parts that are not mirrored, into `reqs` and `out`, part after
    /// part, a batch at a time. A batch holds at most [`MAX_BATCH_RUNS`] runs of one part, and the
    /// runs of small parts together until it holds [`BATCH_RUNS`], so that the kernel has runs to
    /// interleave (on large boards a chunk is a single run).
    fn walk(&mut self, plan: &Plan) -> Result<(), SweepError> {
        let mirrors = &self.mirrors;
        let mut part_runs = self.parts.iter().enumerate().flat_map(|(k, p)| {
            let (from, to) = if mirrors.is_mirrored(k) {
                (0, 0)
            } else {
                (p.from, p.to)
            };
            (from..to)
                .step_by(MAX_BATCH_RUNS as usize)
                .map(move |from| (k, from, (from + MAX_BATCH_RUNS).min(to)))
        });
        let mut batch: Vec<PartRuns> = Vec::new();
        self.reqs.clear();
        self.out.clear();
        loop {
            batch.clear();
            let at = self.reqs.len();
            for runs in part_runs.by_ref() {
                let (k, from, to) = runs;
                plan.requests(&self.parts[k].group, from, to, &mut self.reqs);
                batch.push(runs);
                if self.reqs.len() - at >= BATCH_RUNS {
                    break;
                }
            }
            if batch.is_empty() {
                return Ok(());
            }
            let ran = run_batch(
                &mut self.solver,
                &self.parts,
                &batch,
                &self.reqs[at..],
                &mut self.out,
            );
            if let Err(source) = ran {
                return Err(failed_run(
                    plan,
                    &self.parts,
                    &batch,
                    self.out.len() - at,
                    source,
                ));
            }
        }
    }

    /// Tally every part of the chunk in order and add its run rows: walked parts from `out`,
    /// mirrored ones from their orbit's walked group (whose tally is theirs: without run rows to
    /// write, nothing is done per run); a walked part with mirrors is kept for them.
    fn record(
        &mut self,
        plan: &Plan,
        record: RecordLevel,
        tallies: &mut [(u32, Tally, DeadEndLengths)],
        lines: &mut ChunkLines,
    ) -> Result<(), SweepError> {
        let mut at = 0;
        for (k, (_, tally, dead_ends)) in tallies.iter_mut().enumerate() {
            let part = &self.parts[k];
            let orbit = self.mirrors.orbit(k);
            if let (Some(walked), Some(orbit)) = (self.mirrors.source(k), orbit) {
                self.record_mirrored(plan, k, &walked, orbit, record, (tally, dead_ends), lines)?;
                continue;
            }
            let n = (part.to - part.from) as usize;
            let (reqs, out) = (&self.reqs[at..at + n], &self.out[at..at + n]);
            at += n;
            let group = &part.group;
            add_runs(
                plan,
                group,
                part.from,
                reqs,
                out,
                record,
                (tally, dead_ends),
                lines,
            )?;
            if let Some(orbit) = orbit {
                let kept = (&*tally, &*dead_ends);
                self.mirrors
                    .keep(plan, part, orbit, reqs, out, record, kept);
            }
        }
        Ok(())
    }

    /// Record part `k`, mirrored from `walked` of its `orbit`: its tally is the walk's, and its run
    /// rows, if they are written, the walk's runs mirrored start by start.
    #[allow(clippy::too_many_arguments)]
    fn record_mirrored(
        &mut self,
        plan: &Plan,
        k: usize,
        walked: &Walked,
        orbit: Orbit,
        record: RecordLevel,
        (tally, dead_ends): (&mut Tally, &mut DeadEndLengths),
        lines: &mut ChunkLines,
    ) -> Result<(), SweepError> {
        if record != RecordLevel::Runs {
            (*tally, *dead_ends) = (walked.tally, walked.dead_ends.clone());
            return Ok(());
        }
        let part = &self.parts[k];
        self.mirrored_reqs.clear();
        plan.requests(&part.group, part.from, part.to, &mut self.mirrored_reqs);
        self.mirrored_out.clear();
        self.mirrored_out.extend(
            self.mirrored_reqs
                .iter()
                .map(|r| walked.runs[plan.mirrored_run(&part.group, &orbit, r.start)]),
        );
        let (reqs, out) = (&self.mirrored_reqs, &self.mirrored_out);
        add_runs(
            plan,
            &part.group,
            part.from,
            reqs,
            out,
            record,
            (tally, dead_ends),
            lines,
        )
    }
}

/// Run `reqs`, the requests of `batch` (runs of `parts`), a summary each into `out`: through
/// [`Solver::run_batch`], or, where a group has restarts, one [`Solver::run_attempts`] a run (whose
/// summary counts its attempts and every attempt's time).
fn run_batch(
    solver: &mut Solver,
    parts: &[Part],
    batch: &[PartRuns],
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

/// The error of a batch whose run number `ran` (counted from the batch's first, the first without
/// a summary) could not start: the run, named by its job number and request.
fn failed_run(
    plan: &Plan,
    parts: &[Part],
    batch: &[PartRuns],
    ran: usize,
    source: SolveError,
) -> SweepError {
    let (mut at, mut job) = (ran, None);
    for &(k, from, to) in batch {
        let n = (to - from) as usize;
        if at < n {
            job = Some(plan.job_in(&parts[k].group, from + at as u32));
            break;
        }
        at -= n;
    }
    let j = job.expect("the failed run is in the batch");
    SweepError::Solve {
        job: j.job,
        request: describe(&j.request),
        source,
    }
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
