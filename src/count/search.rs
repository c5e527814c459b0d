//! The search driver of [`count`](super::count): the roots of a count (one per orbit of (start, first
//! move) for open tours, one per pair of the fixed start's neighbours for closed cycles), split level
//! by level into prefixes that rayon counts in parallel with the bitboard engine, and summed back per
//! root and per start.
//!
//! Source: the relations between directed, undirected and per-start counts are those of the module
//! documentation of `count` and of `docs/REFERENCE.md` (section 7, OEIS A165134 and A001230).

use super::bitboard::{Branch, End, EndgameCache, KnightBits, PathCount};
use super::pool::{cache_bytes, check_cache_memory, Pooled};
use super::progress::ProgressReporter;
use super::{
    estimate, Cache, CountError, CountOptions, CountRequest, CountResult, Counted, Orientation,
    StartCount, Starts, Symmetry,
};
use crate::board::symmetries;
use crate::board::{Closure, Square};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Count tours as `request` says. See the documentation of [`crate::count`] for the definitions.
pub fn count(request: &CountRequest, options: &CountOptions) -> Result<CountResult, CountError> {
    let began = Instant::now();
    let board = request.board;
    let too_large = CountError::TooLarge {
        board,
        squares: board.rows() as u64 * board.cols() as u64,
    };
    let bits = KnightBits::new(board).ok_or(too_large)?;
    if let Cache::Endgame { bits, .. } = options.cache {
        let threads = rayon::current_num_threads();
        check_cache_memory(bits, threads, crate::memory::available_bytes())?;
    }
    let overflow = |closure, orientation| CountError::Overflow {
        board,
        what: Counted::Tours {
            closure,
            orientation,
        },
        bits: u64::BITS,
    };
    let starts: Vec<Square> = match request.starts {
        Starts::All => board.squares().collect(),
        Starts::From(start) => {
            if !board.contains(start.row() as i64, start.col() as i64) {
                return Err(CountError::StartOffBoard { board, start });
            }
            vec![start]
        }
    };
    let (per_start, total, nodes, estimated_nodes) = match request.closure {
        Closure::Open => {
            let wrapped = overflow(Closure::Open, Orientation::Directed);
            let (counts, nodes, estimated) = open_counts(&bits, &starts, options, wrapped)?;
            let directed = checked_sum(counts.iter().copied()).ok_or(wrapped)?;
            let total = match (request.starts, request.orientation) {
                (Starts::From(_), _) | (Starts::All, Orientation::Directed) => directed,
                (Starts::All, Orientation::Undirected) if board.len() == 1 => 1,
                (Starts::All, Orientation::Undirected) => {
                    debug_assert!(directed % 2 == 0, "paths pair up with their reverses");
                    directed / 2
                }
            };
            (counts, total, nodes, estimated)
        }
        Closure::Closed => {
            let (cycles, nodes, estimated) = closed_cycles(
                &bits,
                options,
                overflow(Closure::Closed, Orientation::Undirected),
            )?;
            let directed = overflow(Closure::Closed, Orientation::Directed);
            let per = match request.orientation {
                Orientation::Directed => cycles.checked_mul(2).ok_or(directed)?,
                Orientation::Undirected => cycles,
            };
            let total = match (request.starts, request.orientation) {
                (Starts::All, Orientation::Directed) => {
                    per.checked_mul(board.len() as u64).ok_or(directed)?
                }
                (Starts::From(_), _) | (_, Orientation::Undirected) => per,
            };
            (vec![per; starts.len()], total, nodes, estimated)
        }
    };
    Ok(CountResult {
        count: total,
        per_start: starts
            .iter()
            .zip(per_start)
            .map(|(&start, count)| StartCount { start, count })
            .collect(),
        nodes,
        estimated_nodes,
        elapsed: began.elapsed(),
    })
}

/// The sum of `counts`, or `None` if it passes `u64::MAX`.
fn checked_sum(mut counts: impl Iterator<Item = u64>) -> Option<u64> {
    counts.try_fold(0u64, u64::checked_add)
}

/// Directed open tours from each of `starts`, the nodes visited and the nodes estimated before the
/// search; `wrapped` if a count passes `u64::MAX`.
fn open_counts(
    bits: &KnightBits,
    starts: &[Square],
    options: &CountOptions,
    wrapped: CountError,
) -> Result<(Vec<u64>, u64, f64), CountError> {
    let board = bits.board();
    if board.len() == 1 {
        return Ok((vec![1; starts.len()], 1, 1.0));
    }
    let group = match options.symmetry {
        Symmetry::Exploit => symmetries(board),
        Symmetry::Ignore => symmetries(board).into_iter().take(1).collect(),
    };
    // One root per orbit of (start, first move); each start sums the roots of its pairs.
    let mut roots: Vec<Root> = Vec::new();
    let mut root_of: HashMap<(u32, u32), usize> = HashMap::new();
    let mut pairs: Vec<Vec<usize>> = Vec::with_capacity(starts.len());
    let has_tours = crate::exists::open_tour(board).is_ok();
    for &start in starts {
        let mut mine = Vec::new();
        if has_tours && crate::exists::parity_allows(board, start, Closure::Open) {
            let s = board.index(start);
            for a in each_bit(bits.attacks(s)) {
                let canonical = group
                    .iter()
                    .map(|g| (g[s as usize] as u32, g[a as usize] as u32))
                    .min()
                    .expect("the group holds the identity");
                let next = roots.len();
                let id = *root_of.entry(canonical).or_insert(next);
                if id == next {
                    let (s, a) = canonical;
                    roots.push(Root {
                        head: a,
                        free: bits.all() & !(1u64 << s) & !(1u64 << a),
                        end: End::Anywhere,
                    });
                }
                mine.push(id);
            }
        }
        pairs.push(mine);
    }
    let what = Counted::Tours {
        closure: Closure::Open,
        orientation: Orientation::Directed,
    };
    let (counts, nodes, estimated) = run_roots(bits, &roots, options, what, wrapped)?;
    let per_start = pairs
        .iter()
        .map(|ids| checked_sum(ids.iter().map(|&id| counts[id])).ok_or(wrapped))
        .collect::<Result<_, _>>()?;
    let starts_placed = starts.len() as u64;
    Ok((
        per_start,
        nodes + starts_placed,
        estimated + starts_placed as f64,
    ))
}

/// Undirected closed tours (cycles), and the nodes visited; `wrapped` if a count passes `u64::MAX`.
fn closed_cycles(
    bits: &KnightBits,
    options: &CountOptions,
    wrapped: CountError,
) -> Result<(u64, u64, f64), CountError> {
    let board = bits.board();
    if crate::exists::closed_tour(board).is_err() {
        return Ok((0, 0, 0.0));
    }
    let all = bits.all();
    // The fixed start: a square of least degree (a corner), so that few pairs of neighbours remain.
    let s = (0..board.len())
        .min_by_key(|&i| bits.attacks(i).count_ones())
        .expect("a board has squares");
    let near: Vec<u32> = each_bit(bits.attacks(s)).collect();
    let mut roots = Vec::new();
    for (i, &a) in near.iter().enumerate() {
        for &b in &near[i + 1..] {
            roots.push(Root {
                head: a,
                free: all & !(1u64 << s) & !(1u64 << a),
                end: End::At(b),
            });
        }
    }
    let what = Counted::Tours {
        closure: Closure::Closed,
        orientation: Orientation::Undirected,
    };
    let (counts, nodes, estimated) = run_roots(bits, &roots, options, what, wrapped)?;
    let cycles = checked_sum(counts.into_iter()).ok_or(wrapped)?;
    Ok((cycles, nodes + 1, estimated + 1.0))
}

/// A state to count from: the path stands on `head`, must visit `free`, and end as `end` says.
type Root = estimate::State;

/// A prefix of a root, counted as one parallel task.
#[derive(Clone, Copy, Debug)]
struct Task {
    root: usize,
    state: Root,
}

/// Count every root: split into at least `options.min_tasks` prefixes, count them in parallel, and sum
/// per root. Returns the tours per root, the total nodes and the nodes estimated before the search;
/// `wrapped` if a count passes `u64::MAX`, [`CountError::TooManyNodes`] (counting `what`) if the
/// estimate passes `options.max_nodes`, [`CountError::CacheTooLarge`] if an endgame cache cannot be
/// allocated.
fn run_roots(
    bits: &KnightBits,
    roots: &[Root],
    options: &CountOptions,
    what: Counted,
    wrapped: CountError,
) -> Result<(Vec<u64>, u64, f64), CountError> {
    let mut done = vec![PathCount::default(); roots.len()];
    let level = split_roots(bits, roots, options.min_tasks, &mut done);
    let split_nodes: u64 = done.iter().map(|c| c.nodes).sum();
    let estimated =
        split_nodes as f64 + estimate::estimate_nodes(bits, level.len(), |i| level[i].state);
    if let Some(tell) = options.on_estimate {
        tell(estimated);
    }
    if let Some(max_nodes) = options.max_nodes {
        if estimated > max_nodes as f64 {
            return Err(CountError::TooManyNodes {
                board: bits.board(),
                what,
                estimated,
                max_nodes,
                cached: !matches!(options.cache, Cache::Off),
            });
        }
    }
    let counted = count_tasks(bits, &level, options)?;
    for (task, c) in level.iter().zip(counted) {
        done[task.root] += c;
    }
    if done.iter().any(|c| c.wrapped) {
        return Err(wrapped);
    }
    let nodes = done.iter().map(|c| c.nodes).sum();
    Ok((
        done.into_iter().map(|c| c.tours).collect(),
        nodes,
        estimated,
    ))
}

/// The roots split a level at a time into the prefixes below them until there are at least
/// `min_tasks` (or nothing is left to split), each prefix a task of its root. The nodes of the
/// levels split, and the tours completed within them, are counted into `done`.
fn split_roots(
    bits: &KnightBits,
    roots: &[Root],
    min_tasks: usize,
    done: &mut [PathCount],
) -> Vec<Task> {
    let mut level: Vec<Task> = roots
        .iter()
        .enumerate()
        .map(|(root, &state)| Task { root, state })
        .collect();
    let mut remaining = bits.board().len();
    while !level.is_empty() && level.len() < min_tasks && remaining > 0 {
        remaining -= 1;
        let mut next = Vec::with_capacity(level.len() * 3);
        for task in level {
            let Root { head, free, end } = task.state;
            let tally = &mut done[task.root];
            tally.nodes += 1;
            if free == 0 {
                // Complete (a fixed end square is only ever entered last). One per task of a level:
                // far from u64::MAX.
                tally.tours += 1;
                continue;
            }
            let Branch::Moves(moves) = bits.branch(head, free, end) else {
                continue;
            };
            for m in each_bit(moves) {
                next.push(Task {
                    root: task.root,
                    state: Root {
                        head: m,
                        free: free & !(1u64 << m),
                        end,
                    },
                });
            }
        }
        level = next;
    }
    level
}

/// Count the paths below each task in parallel, with an endgame cache per thread when
/// `options.cache` asks for one, ticking the progress reporter as each task ends.
fn count_tasks(
    bits: &KnightBits,
    level: &[Task],
    options: &CountOptions,
) -> Result<Vec<PathCount>, CountError> {
    let bar = ProgressReporter::new(options.progress, level.len() as u64);
    let counted: Vec<PathCount> = match options.cache {
        Cache::Off => level
            .par_iter()
            .map(|task| {
                let Root { head, free, end } = task.state;
                let c = bits.count_paths(head, free, end);
                bar.tick();
                c
            })
            .collect(),
        Cache::Endgame {
            max_free,
            bits: size,
        } => {
            let pool = Mutex::new(Vec::new());
            let counted: Result<Vec<PathCount>, CountError> = level
                .par_iter()
                .map_init(
                    || Pooled::take(&pool, || EndgameCache::new(max_free, size)),
                    |cache, task| {
                        // The memory check passed but the allocator said no: the same refusal, not
                        // an abort.
                        let cache = cache.as_mut().map_err(|_| CountError::CacheTooLarge {
                            threads: rayon::current_num_threads(),
                            bits: size,
                            needed_mib: cache_bytes(size, rayon::current_num_threads())
                                .div_ceil(1 << 20),
                            available_mib: crate::memory::available_bytes() >> 20,
                        })?;
                        let Root { head, free, end } = task.state;
                        let c = bits.count_paths_cached(head, free, end, cache.get());
                        bar.tick();
                        Ok(c)
                    },
                )
                .collect();
            counted?
        }
    };
    bar.finish();
    Ok(counted)
}

/// The bit indexes of `mask`, lowest first.
fn each_bit(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bit_lists_bits_in_order() {
        assert_eq!(each_bit(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(each_bit(0).count(), 0);
        assert_eq!(each_bit(u64::MAX).count(), 64);
    }
}
