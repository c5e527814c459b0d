//! Exact walks of every start in sittings (`ktour exact --resume DIR`): each start is walked on its
//! own and its exact distribution written to a file of its own as soon as it is done, so a run
//! that is stopped loses at most the start it was in, and a later run reads the starts already
//! there instead of walking them again. A start of 10x10 takes minutes where the whole board takes
//! hours (`results/exact/README.md`).
//!
//! Rules that treat every move label alike (`random`, `pohl+random`: the degree, Pohl's key and a
//! uniform draw read no label) give the same distribution from a start and from its images under
//! the board's symmetries (`board::symmetry`), so they walk one start of each orbit, the one of
//! least index, and give it to the others. `tests/exact.rs` checks that symmetry on 8x8.

use super::{exact, Distribution, ExactError, ExactOptions, ExactRequest, StartExact, Starts};
use super::{ExactReport, WalkStats};
use crate::board::{Board, Square, Symmetry};
use crate::solve::{Closing, Rule};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Whether `rule` treats every move label alike, so that its distributions share the board's
/// symmetries: `random` and `pohl+random`.
pub fn label_free(rule: Rule) -> bool {
    rule == Rule::RANDOM || Ok(rule) == "pohl+random".parse::<Rule>()
}

/// The start whose walk gives `start`'s distribution: itself, or for a [`label_free`] rule the
/// image of least index under the board's symmetries.
pub fn walked_for(board: Board, rule: Rule, start: Square) -> Square {
    if !label_free(rule) {
        return start;
    }
    Symmetry::of(board)
        .map(|g| g.apply(board, start))
        .min_by_key(|&s| board.index(s))
        .expect("the identity is a symmetry")
}

/// What a start's file holds besides its distribution.
#[derive(Clone, Copy, Debug, Default)]
pub struct StartCost {
    /// Knuth's estimate of the start's tree without merging.
    pub estimated_nodes: f64,
    /// The walk's counters.
    pub stats: WalkStats,
    /// Wall-clock time of the walk.
    pub elapsed: Duration,
}

/// The file of start `s` in `dir`.
pub fn start_file(dir: &Path, s: Square) -> PathBuf {
    dir.join(format!("{}-{}.txt", s.row(), s.col()))
}

fn closing_name(c: Closing) -> &'static str {
    if c == Closing::StartLast {
        "start-last"
    } else {
        "check"
    }
}

/// The lines that say what a file is of: a file of another board, rule or closing is refused.
fn header(req: &ExactRequest, s: Square) -> String {
    format!(
        "# ktour exact: one start's exact outcome distribution\nboard {}\nrule {}\nclosing {}\nstart {},{}\n",
        req.board,
        req.rule,
        closing_name(req.closing),
        s.row(),
        s.col()
    )
}

/// Write start `s`'s distribution to its file, through a temporary file renamed into place, so
/// that a file there is always whole.
fn write_start(
    dir: &Path,
    req: &ExactRequest,
    s: Square,
    d: &Distribution,
    cost: &StartCost,
) -> Result<(), ExactError> {
    let st = &cost.stats;
    let mut text = header(req, s);
    text += &format!(
        "estimated_nodes {:e}\nnodes {}\nleaves {}\nbranchings {}\nmerged {}\nstored {}\nelapsed_ns {}\n",
        cost.estimated_nodes,
        st.nodes,
        st.leaves,
        st.branchings,
        st.merged,
        st.stored,
        cost.elapsed.as_nanos()
    );
    for (o, p) in d.p.iter().enumerate().filter(|(_, p)| !p.is_zero()) {
        text += &format!("p {o} {p}\n");
    }
    let path = start_file(dir, s);
    let tmp = path.with_extension("tmp");
    let io = |e: std::io::Error| ExactError::ResumeFile {
        path: path.clone(),
        why: e.to_string(),
    };
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)
}

/// Read start `s`'s file, if there is one: its distribution and cost. A file of another request,
/// or one whose probabilities do not add up to 1, is an error.
fn read_start(
    dir: &Path,
    req: &ExactRequest,
    s: Square,
) -> Result<Option<(Distribution, StartCost)>, ExactError> {
    let path = start_file(dir, s);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ExactError::ResumeFile {
                path,
                why: e.to_string(),
            })
        }
    };
    let bad = |why: &str| ExactError::ResumeFile {
        path: path.clone(),
        why: why.to_string(),
    };
    let head = header(req, s);
    let Some(body) = text.strip_prefix(&head) else {
        return Err(bad(&format!(
            "not a file of this run (its header differs from:\n{head})"
        )));
    };
    let mut d = Distribution::zero(req.board.len() as usize);
    let mut cost = StartCost::default();
    for line in body.lines() {
        let mut w = line.split_whitespace();
        let (key, a, b) = (w.next().unwrap_or(""), w.next().unwrap_or(""), w.next());
        let int = |a: &str| {
            a.parse::<u64>()
                .map_err(|_| bad(&format!("bad line: {line}")))
        };
        match (key, b) {
            ("estimated_nodes", None) => {
                cost.estimated_nodes = a.parse().map_err(|_| bad(&format!("bad line: {line}")))?
            }
            ("nodes", None) => cost.stats.nodes = int(a)?,
            ("leaves", None) => cost.stats.leaves = int(a)?,
            ("branchings", None) => cost.stats.branchings = int(a)?,
            ("merged", None) => cost.stats.merged = int(a)?,
            ("stored", None) => cost.stats.stored = int(a)?,
            ("elapsed_ns", None) => cost.elapsed = Duration::from_nanos(int(a)?),
            ("p", Some(b)) => {
                let o = int(a)? as usize;
                let p: BigRational = b.parse().map_err(|_| bad(&format!("bad line: {line}")))?;
                *d.p.get_mut(o)
                    .ok_or_else(|| bad(&format!("no outcome {o}")))? = p;
            }
            _ => return Err(bad(&format!("bad line: {line}"))),
        }
    }
    if !d.total().is_one() {
        return Err(ExactError::NotOne(s, d.total()));
    }
    Ok(Some((d, cost)))
}

/// What [`exact_resumable`] reports for each start it walks or reads.
#[derive(Clone, Copy, Debug)]
pub struct StartDone {
    /// The start walked (or read).
    pub start: Square,
    /// Whether it was read from its file rather than walked now.
    pub read: bool,
    /// Its cost.
    pub cost: StartCost,
}

/// [`exact`] of `req`, one start at a time, each start's distribution kept in its file in `dir`
/// (read if there, else walked, with `opts`, and written). `on_start` hears of each start as it is
/// done. The report's counters, time and estimate are the sums over the starts walked, now or in
/// an earlier sitting (each orbit's start once); `big_walks` counts this sitting's only.
pub fn exact_resumable(
    req: &ExactRequest,
    opts: &ExactOptions,
    dir: &Path,
    mut on_start: impl FnMut(&StartDone),
) -> Result<ExactReport, ExactError> {
    std::fs::create_dir_all(dir).map_err(|e| ExactError::ResumeFile {
        path: dir.to_path_buf(),
        why: e.to_string(),
    })?;
    let starts = super::start_squares(req)?;
    let mut walked: Vec<(Square, Distribution)> = Vec::new();
    let (mut stats, mut estimated, mut elapsed) = (WalkStats::default(), 0.0, Duration::ZERO);
    let mut big_walks = 0;
    let mut out = Vec::with_capacity(starts.len());
    for &s in &starts {
        let w = walked_for(req.board, req.rule, s);
        let known = walked.iter().find(|(x, _)| *x == w).map(|(_, d)| d.clone());
        let dist = match known {
            Some(d) => d,
            None => {
                let (d, cost, read) = match read_start(dir, req, w)? {
                    Some((d, cost)) => (d, cost, true),
                    None => {
                        let one = ExactRequest {
                            starts: Starts::From(w),
                            ..*req
                        };
                        let r = exact(&one, opts)?;
                        big_walks += r.big_walks;
                        let cost = StartCost {
                            estimated_nodes: r.estimated_nodes,
                            stats: r.stats,
                            elapsed: r.elapsed,
                        };
                        write_start(dir, req, w, &r.overall, &cost)?;
                        (r.overall, cost, false)
                    }
                };
                stats.add(&cost.stats);
                estimated += cost.estimated_nodes;
                elapsed += cost.elapsed;
                on_start(&StartDone {
                    start: w,
                    read,
                    cost,
                });
                walked.push((w, d.clone()));
                d
            }
        };
        out.push(StartExact { start: s, dist });
    }
    let dists: Vec<Distribution> = out.iter().map(|s| s.dist.clone()).collect();
    Ok(ExactReport {
        overall: Distribution::mean(&dists),
        starts: out,
        estimated_nodes: estimated,
        stats,
        big_walks,
        elapsed,
    })
}
