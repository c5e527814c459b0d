//! The pre-flight stage: whether a sweep can run at all, asked before its output folder is touched
//! (so that a sweep that cannot start leaves nothing behind): it has runs, its output fits on its
//! disk (`experiment::disk`, an exact lower bound), and its workers and tallies fit in memory
//! (`super::memory`, an upper bound). The one source of these checks: the sweep asks them here, and
//! `--dry-run` ([`super::DryRun`]) reports the same answers.

use super::memory::{check_tallies, check_workers, worker_bytes};
use super::options::SweepOptions;
use super::SweepError;
use crate::board::Board;
use crate::experiment::disk::{check_disk, OutputSize};
use crate::experiment::plan::{Plan, Shard};
use crate::experiment::spec::Spec;
use crate::experiment::spec_file::RecordLevel;

/// A worker thread's stack (std's and rayon's default), counted with its work in
/// [`check_worker_memory`]: under `ulimit -v`, a thousand threads' stacks are what does not fit.
const WORKER_STACK_BYTES: u64 = 2 << 20;

/// Refuse a sweep that cannot run, and give the shard it runs: a spec without runs, an output that
/// cannot fit on its disk (not asked on a resume, which passed it when it started and whose output
/// is partly there already), workers or tallies that cannot fit in memory. The disk first: its need
/// is exact, the memory's a bound.
pub(super) fn check(spec: &Spec, plan: &Plan, opts: &SweepOptions) -> Result<Shard, SweepError> {
    if plan.total_runs() == 0 {
        return Err(SweepError::NoRuns);
    }
    let (index, count) = opts.shard.unwrap_or((1, 1));
    let shard = plan.shard(index, count);
    if !opts.resume {
        check_disk(&opts.out, &output_size(plan, &shard, spec.file.record))?;
    }
    check_worker_memory(spec, plan, opts)?;
    Ok(shard)
}

/// The most a sweep worker needs, and the board it needs it for: its stack and what the spec's most
/// demanding board and method take (a search's state, or the batch lanes of pure Warnsdorff, as
/// many as `lane_memory` allows). `None` for a spec without boards.
pub(super) fn worker_memory(spec: &Spec, lane_memory: f64) -> Option<(u64, Board)> {
    spec.boards
        .iter()
        .flat_map(|&board| spec.methods.iter().map(move |&m| (board, m)))
        .map(|(board, method)| {
            let lanes = crate::solve::interleaved_lanes(board, lane_memory);
            (
                worker_bytes(board, method, lanes) + WORKER_STACK_BYTES,
                board,
            )
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
        check_workers(board, bytes, threads)?;
        workers = bytes.saturating_mul(threads as u64);
    }
    let (index, count) = opts.shard.unwrap_or((1, 1));
    let shard = plan.shard(index, count);
    let groups = plan.groups_touched_bound(&shard);
    let dead_ends = plan.dead_end_bytes_bound(&shard);
    check_tallies(groups, workers.saturating_add(dead_ends))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::run::StopToken;
    use crate::experiment::SweepProgress;

    fn options(out: std::path::PathBuf, threads: usize, resume: bool) -> SweepOptions {
        SweepOptions {
            out,
            threads,
            resume,
            force: false,
            shard: Some((2, 3)),
            progress: SweepProgress::Hidden,
            command: String::new(),
            lane_memory: crate::solve::DEFAULT_LANE_MEMORY,
            symmetry: true,
            stop: StopToken::new(),
        }
    }

    /// The output's least size counts a journal line per chunk of the shard, and a row per run
    /// only where runs are recorded; the check gives the shard it passed.
    #[test]
    fn the_output_is_counted_per_chunk_and_per_recorded_run() {
        let spec = Spec::from_toml(
            "name = \"p\"\nsizes = [600]\nstarts = \"sample:40\"\nrules = [\"first\"]\nrecord = \"runs\"\n",
            "p",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        let shard = plan.shard(2, 3);
        // a run a chunk on 600x600: chunks 1, 4, ..., 37
        assert_eq!(shard.len(), 13);
        let runs = output_size(&plan, &shard, RecordLevel::Runs);
        assert_eq!((runs.journal_lines, runs.run_rows), (13, 13));
        assert_eq!(output_size(&plan, &shard, RecordLevel::Summary).run_rows, 0);
        let tmp = tempfile::tempdir().unwrap();
        let checked = check(&spec, &plan, &options(tmp.path().join("o"), 1, false)).unwrap();
        assert_eq!(checked.len(), shard.len());
    }

    /// Workers that cannot fit together are refused, naming the board; the largest board and
    /// method set a worker's need.
    #[test]
    fn workers_past_the_memory_are_refused() {
        let spec = Spec::from_toml(
            "name = \"p\"\nsizes = [8, 9000]\nstarts = \"corner\"\nrules = [\"first\"]\n",
            "p",
        )
        .unwrap();
        let plan = Plan::new(&spec).unwrap();
        let (bytes, board) = worker_memory(&spec, 100.0).unwrap();
        assert_eq!(board.rows(), 9000);
        assert!(bytes > 81_000_000, "{bytes}");
        let tmp = tempfile::tempdir().unwrap();
        let mut opts = options(tmp.path().join("o"), 1024, true);
        opts.lane_memory = 100.0;
        // 1024 workers of some 600 MiB: refused on any machine of less than 760 GiB
        let available = crate::memory::available_bytes();
        match check(&spec, &plan, &opts) {
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("9000x9000") && e.contains("--threads"), "{e}");
            }
            Ok(_) => assert!(crate::memory::fits_in(bytes * 1024, available)),
        }
        assert!(!opts.out.exists());
    }
}
