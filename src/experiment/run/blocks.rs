//! The scheduling stage: hands out the chunks of a shard still to run, in order, as blocks
//! ([`Blocks`]), numbered in the order they are taken, which is the order they are written in.
//! Nothing is listed ahead: a block is computed when a worker asks for it, so a shard of 10^8
//! chunks takes no memory.

use crate::experiment::plan::{Chunk, Plan, Shard};
use crate::experiment::size::CHUNK_STEPS;
use crate::solve::MAX_INTERLEAVED_RUNS;

/// Runs handed to the kernel at once when groups are small in runs: four times the lanes it walks
/// side by side, so that as runs of different lengths end, others take their lanes. A block holds
/// at least this many runs, and the worker batches its parts up to it.
pub(super) const BATCH_RUNS: usize = 4 * MAX_INTERLEAVED_RUNS;

/// Most work a block takes to reach [`BATCH_RUNS`] runs: 2^24 steps (16 runs of 1000x1000), a
/// fraction of a second on one core, so that large boards still report progress and stop promptly.
const MAX_BLOCK_STEPS: u64 = 1 << 24;

/// Squares of the board of `chunk`'s runs.
pub(super) fn chunk_squares(plan: &Plan, chunk: &Chunk) -> u64 {
    plan.boards()[chunk.board].len() as u64
}

/// Hands out the chunks of a shard still to run, in order, as blocks: consecutive chunks that a
/// worker takes at once, about [`CHUNK_STEPS`] of work (on small boards a chunk already is) and at
/// least [`BATCH_RUNS`] runs, so that on large boards (a run a chunk) the kernel has runs to
/// interleave, unless that passes [`MAX_BLOCK_STEPS`]: on a huge board a block stays one run, so
/// that a stop and the last blocks of a sweep do not wait for sixteen.
pub(super) struct Blocks<'a> {
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

impl<'a> Blocks<'a> {
    /// The blocks of `shard` of `plan`, passing over the chunks `done` (sorted).
    pub(super) fn new(plan: &'a Plan, shard: Shard, done: &'a [u64]) -> Self {
        Blocks {
            plan,
            shard,
            next: 0,
            done,
            passed: 0,
            seq: 0,
        }
    }

    /// The next block and its number, or `None` when every chunk is handed out.
    pub(super) fn next_block(&mut self) -> Option<(u64, Vec<Chunk>)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::spec::Spec;

    fn spec(text: &str) -> Spec {
        Spec::from_toml(text, "test").unwrap()
    }

    #[test]
    fn blocks_hold_enough_work_and_enough_runs_to_interleave() {
        // the blocks of `shard` of `plan` past the chunks `done`, as chunk numbers
        let blocks = |plan: &Plan, shard: Shard, done: &[u64]| {
            let mut blocks = Blocks::new(plan, shard, done);
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
