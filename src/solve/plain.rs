//! The search state's engine: one run on a whole board walked by the knight, its path kept in a
//! [`SearchState`]. It serves pure Warnsdorff's plain loop ([`super::warnsdorff`], Warnsdorff 1823),
//! the two searches on the explicit-stack DFS ([`super::backtrack`], [`super::naive`]) and `rotate`
//! ([`super::rotate`], Pósa 1976); the kernel's single walk writes its path into the same state
//! (`walk/batch.rs`). The existence theorems (`docs/REFERENCE.md`, section 6) answer first unless
//! the caller skips them.

use super::{
    backtrack, dfs, naive, rotate, walk, warnsdorff, Impossibility, Method, Observer, Oracle,
    Outcome, Request, RunSummary, SolveError, SolverOptions, Stats, TieBreaker,
};
use crate::board::Board;
use crate::exists;
use crate::state::SearchState;
use std::time::Instant;

/// The scratch state of runs on the search state, reused across runs (grows to the largest board
/// it meets).
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    state: SearchState,
    frames: dfs::Stack,
    /// For `squirrel`: the orderings in force in the last run, in order.
    orderings: Option<Vec<String>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            state: SearchState::new(Board::new(1, 1).expect("1x1 is a board")),
            frames: dfs::Stack::default(),
            orderings: None,
        }
    }
}

impl Engine {
    /// The search state of the last run (its path, degrees).
    pub(crate) fn state(&self) -> &SearchState {
        &self.state
    }

    /// For `squirrel`: the orderings in force in the last run.
    pub(crate) fn orderings(&self) -> &Option<Vec<String>> {
        &self.orderings
    }

    /// Run `req` (checked, its start on the board), telling `obs` each move; pure Warnsdorff takes
    /// `kernel` when given one, else the plain loop. `rotate` runs under `options`' rotations.
    pub(crate) fn run<O: Observer>(
        &mut self,
        req: &Request,
        obs: &mut O,
        oracle: Oracle,
        kernel: Option<&mut walk::Kernel>,
        options: &SolverOptions,
    ) -> Result<RunSummary, SolveError> {
        let board = req.board;
        let timer = Instant::now();
        self.state.reset(board);
        let mut rule = TieBreaker::new(req.rule, self.state.layout(), req.start, req.seed)?;
        let verdict = match oracle {
            // rotate always closes its path
            Oracle::Consult => exists::tour_from(board, req.start, req.closure_sought()),
            Oracle::Skip => Ok(()),
        };
        if let Err(reason) = verdict {
            self.orderings = None;
            return Ok(RunSummary {
                outcome: Outcome::Impossible(Impossibility::Theorem(reason)),
                closes: false,
                visited: 0,
                stats: Stats::default(),
                attempts: 1,
            });
        }
        let start = self.state.layout().pad(req.start);
        let (outcome, mut stats) = match (req.method, kernel) {
            (Method::Warnsdorff, Some(kernel)) => {
                kernel.walk(&mut self.state, &mut rule, req, start)
            }
            (Method::Warnsdorff, None) => warnsdorff::run(
                &mut self.state,
                &mut rule,
                start,
                req.closure,
                req.closing,
                obs,
            ),
            (Method::Backtrack | Method::Naive, _) => {
                let cfg = if req.method == Method::Backtrack {
                    backtrack::config(req.closure, req.budget, req.prune)
                } else {
                    naive::config(req.closure, req.budget)
                };
                let (state, frames) = (&mut self.state, &mut self.frames);
                backtrack::finish(state, frames, &mut rule, start, cfg, obs)
            }
            (Method::Rotate, _) => rotate::run(
                &mut self.state,
                &mut rule,
                start,
                obs,
                options.rotations,
                options.rotate_progress.as_ref(),
            ),
        };
        stats.elapsed_ns = timer.elapsed().as_nanos() as u64;
        self.orderings = rule.orderings_used();
        Ok(self.summary(outcome, stats))
    }

    /// The summary of the run that just ended as `outcome`, with `stats`, from the path it left.
    fn summary(&self, outcome: Outcome, stats: Stats) -> RunSummary {
        let squares = self.state.board().len() as usize;
        let closes = squares > 2
            && self.state.depth() == squares
            && self
                .state
                .layout()
                .knight_apart(self.state.head(), self.state.first());
        RunSummary {
            outcome,
            closes,
            visited: self.state.depth() as u32,
            stats,
            attempts: 1,
        }
    }
}
