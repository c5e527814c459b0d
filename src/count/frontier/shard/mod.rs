//! A frontier count sharded across `K` processes (shards `0..K`, Slurm array tasks or any others)
//! that share one folder and nothing else: each holds only the states whose key hashes to it
//! ([`shard_of`]), and the states are exchanged through the folder after every square added.
//!
//! At square `i` a shard merges the runs the `K` shards wrote for it before `i` (ways of equal
//! states summed), adds the square to those states as the count in one process does (the same
//! step, with the states folded onto their mirror images at a row's end before they are split, so
//! that every key is canonical), splits the successors by the shard their key hashes to, writes one
//! sorted, summed run per shard in the spilled runs' format (`spill.rs`) and publishes each
//! atomically, then a marker saying its runs of square `i + 1` are all there; then it waits until
//! every shard has marked `i + 1` (a barrier). The exchange is a square's, not a row's: a row's
//! squares expanded apart would hold each state once per shard that reached it, and the barriers
//! cost a few milliseconds each, far below a square's work on boards worth sharding. A state's
//! ways all reach one shard, so each sum is the one-process count's, and the count is the sum of
//! the shards' tours: exact when no shard's sum passed the ways' bits, else the same passes modulo
//! primes as in one process (`passes.rs`), each exchanged the same way, recombined by the Chinese
//! remainder theorem ([`collect_shards`]).
//!
//! A shard keeps the runs addressed to it before square `i` until its own runs of square `i + 1`
//! are published, and its marker holds its tally: killed or cancelled, and started again with the
//! same arguments, it resumes from its last marker, and the others only wait for it (at most
//! [`ShardOptions::wait`], then a one-line error; run again, they resume too). The folder's layout
//! is in `folder.rs`.
//!
//! Source: the partitioned (hash-distributed) transfer-matrix count is the method of the frontier
//! module distributed as in bulk-synchronous parallel computation (L. G. Valiant, CACM 1990); the
//! hash is SplitMix64's finalizer (G. L. Steele, D. Lea, C. H. Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014) reduced by a multiply-shift (D. Lemire, "Fast
//! random integer generation in an interval", 2019).

mod folder;

use super::cells::{Key, DONE};
use super::gather::{Entry, Ways};
use super::modular::Modulus;
use super::plan::{Plan, CELLS};
use super::spill::{Spill, SpillProblem, States};
use super::{admit, bound_bits, wide, FrontierCount, FrontierOptions, FrontierProgress};
use super::{PrimeSet, Residues};
use crate::board::{Board, Closure};
use crate::count::CountError;
use crate::util::splitmix::{mix64, GOLDEN_GAMMA};
use folder::{Folder, Tallied};
use num_bigint::BigUint;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a shard waits for the others at a barrier by default: an hour, long enough for the
/// tasks of a batch array to start one after another, short enough that a shard whose peers never
/// come gives its allocation back the same day.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(3600);

/// Bytes of memory a shard's merges take for their files' buffers when its states stay in memory.
const BUFFERS: u64 = 16 << 20;

/// The shard of a state: SplitMix64's finalizer of the key's low 64 bits xor its high 64 bits
/// times the golden ratio's 64-bit constant, reduced to `0..shards` by a multiply-shift. Fixed and
/// documented, so that shards built apart agree on it.
pub fn shard_of(key: u128, shards: u32) -> u32 {
    ((u128::from(mix(key)) * u128::from(shards)) >> 64) as u32
}

/// SplitMix64's finalizer of the key's low 64 bits xor its high 64 bits times the golden ratio's
/// 64-bit constant.
fn mix(key: u128) -> u64 {
    mix64((key as u64) ^ ((key >> 64) as u64).wrapping_mul(GOLDEN_GAMMA))
}

/// One shard's part of a sharded count.
#[derive(Clone, Copy, Debug)]
pub struct ShardOptions<'a> {
    /// Shards in all (`K`).
    pub shards: u32,
    /// This shard, `0..shards`.
    pub shard: u32,
    /// The folder the shards share.
    pub shared: &'a Path,
    /// How long to wait at a barrier for the other shards before giving up.
    pub wait: Duration,
    /// Give up when this shard holds more states after a step.
    pub max_states: usize,
    /// The primes of the passes a count past its ways' bits takes.
    pub primes: PrimeSet,
    /// This shard's bound on memory and the folder its own runs spill to past it.
    pub spill: Option<Spill<'a>>,
}

/// Why a sharded count stopped.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// The shard's index is not below the number of shards.
    #[error("--shard {shard} is not below --shards {shards} (shards are numbered 0 to K - 1, K at least 1)")]
    Index {
        /// The index given.
        shard: u32,
        /// The shards given.
        shards: u32,
    },
    /// A file or folder of the shared folder could not be made, written or read.
    #[error("{}: could not be made, written or read ({kind}): name a folder every shard can write", path.display())]
    Io {
        /// What failed.
        path: PathBuf,
        /// How.
        kind: std::io::ErrorKind,
    },
    /// The shared folder holds another count's manifest.
    #[error("{} is of another count ({theirs}), not this shard's ({mine}): give every shard the same arguments, or name a new --shared folder", path.display())]
    OtherArguments {
        /// The manifest.
        path: PathBuf,
        /// Its arguments.
        theirs: String,
        /// This shard's.
        mine: String,
    },
    /// No count was started in the folder.
    #[error("{}: no sharded count here (no manifest): run the shards first", .0.display())]
    NoCount(PathBuf),
    /// The disk of the shared folder has too little room for a step's runs.
    #[error("the shared folder has {free_mib} MiB free, but square {square}'s runs take {need_mib} MiB: free some space or name a folder on a larger disk")]
    Disk {
        /// Free space there.
        free_mib: u64,
        /// What the step writes.
        need_mib: u64,
        /// The square whose states they are.
        square: usize,
    },
    /// Waited past `--wait` for other shards.
    #[error("waited {seconds} s (--wait) for shard(s) {} to {}: start them (each resumes where it stopped); run this shard again to resume it", list(missing), match step { Some(s) => format!("publish their states before square {s} of pass {pass}"), None => format!("finish pass {pass}") })]
    Timeout {
        /// The pass.
        pass: u32,
        /// The square whose states were awaited (`None`: the pass's results).
        step: Option<usize>,
        /// The shards that had not published them.
        missing: Vec<u32>,
        /// How long this shard waited.
        seconds: u64,
    },
    /// Shards have not finished (when collecting).
    #[error("shard(s) {} have not finished pass {pass}: run them (each resumes where it stopped), then collect again", list(missing))]
    Unfinished {
        /// The first pass not finished by all.
        pass: u32,
        /// The shards that have not.
        missing: Vec<u32>,
    },
    /// A file of the folder is not what a shard wrote.
    #[error("{}: not as a shard wrote it (cut short, or not ktour's): was the folder changed while counting?", .0.display())]
    Damaged(PathBuf),
    /// This shard's own runs (`--memory`, `--temp`).
    #[error("{0}")]
    Spill(#[from] SpillProblem),
    /// The count itself.
    #[error(transparent)]
    Count(#[from] CountError),
}

/// Shards as `0, 2, 3`.
fn list(shards: &[u32]) -> String {
    let words: Vec<String> = shards.iter().map(u32::to_string).collect();
    words.join(", ")
}

/// What a shard tells as it counts.
#[derive(Clone, Copy, Debug)]
pub enum ShardEvent<'a> {
    /// A square added to this shard's states.
    Square(&'a FrontierProgress),
    /// It resumed a pass from its marker before `square`.
    Resumed {
        /// The pass.
        pass: u32,
        /// The square it resumed before.
        square: usize,
    },
    /// It has waited `waited` for shards at a barrier.
    Waiting {
        /// The shards it waits for.
        missing: &'a [u32],
        /// How long so far.
        waited: Duration,
    },
}

/// What one shard did, over all passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardDone {
    /// Passes over the board (every shard takes the same).
    pub passes: u32,
    /// State transitions this shard generated.
    pub transitions: u64,
    /// The most states this shard held after a square.
    pub peak_states: u64,
    /// Bytes of runs this shard wrote to the shared folder.
    pub written_bytes: u64,
    /// Time this shard counted and waited, over all its sittings.
    pub elapsed: Duration,
}

/// The count of [`collect_shards`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardedCount {
    /// The count, as one process gives it (its peak: the largest shard's; its time: the shards'
    /// summed, waits included).
    pub count: FrontierCount,
    /// Bytes of runs all shards wrote to the shared folder.
    pub written_bytes: u64,
}

/// The manifest of a count: what every shard must be given alike.
fn manifest(board: Board, closure: Closure, options: &ShardOptions) -> String {
    format!(
        "ktour-shard-manifest 1\nboard={}x{} closed={} shards={} max_states={} primes={}/{}\n",
        board.rows(),
        board.cols(),
        closure.is_closed(),
        options.shards,
        options.max_states,
        options.primes.bits,
        options.primes.skip
    )
}

/// The board turned so that its shorter side is across.
fn plan_of(board: Board) -> Plan {
    let (rows, cols) = (board.rows(), board.cols());
    Plan::new(rows.max(cols), rows.min(cols))
}

/// Refuse an index past the shards, and what one process would refuse.
fn admit_shard(board: Board, plan: &Plan, options: &ShardOptions) -> Result<(), ShardError> {
    if options.shard >= options.shards {
        return Err(ShardError::Index {
            shard: options.shard,
            shards: options.shards,
        });
    }
    let frontier = FrontierOptions {
        max_states: options.max_states,
        spill: options.spill,
        ..FrontierOptions::default()
    };
    Ok(admit(board, plan.cols, &frontier)?)
}

/// The modulus of pass `pass` of a count whose exact pass (of `ways_bits`-bit ways) wrapped:
/// [`Modulus::EXACT`] for pass 0, then the primes of `primes` in turn until the moduli's product
/// passes [`bound_bits`] (`None` from there), as in one process (`passes.rs`).
fn pass_modulus(
    plan: &Plan,
    closure: Closure,
    primes: PrimeSet,
    ways_bits: u32,
    pass: u32,
) -> Option<Modulus> {
    if pass == 0 {
        return Some(Modulus::EXACT);
    }
    let bound = bound_bits(plan.rows, plan.cols, closure.is_closed());
    let mut bits = f64::from(ways_bits);
    for (k, p) in primes.primes().enumerate() {
        if bits > bound {
            return None;
        }
        if k as u32 + 1 == pass {
            return Some(Modulus(p));
        }
        bits += (p as f64).log2();
    }
    None
}

/// The shards' tours of a pass summed, wrapping at 2^128, and whether a sum of ways or this sum
/// wrapped.
fn total(results: &[Tallied]) -> (u128, bool) {
    let mut wrapped = results.iter().any(|t| t.wrapped);
    let mut sum = 0u128;
    for t in results {
        let (s, carry) = sum.overflowing_add(t.tours);
        sum = s;
        wrapped |= carry;
    }
    (sum, wrapped)
}

mod run;
pub use run::count_shard;

/// The count of the shards in `options.shared`, once all have finished: the sum of their tours
/// (over the residues of each pass, recombined, for a count past its ways' bits). Refused with
/// [`ShardError::Unfinished`] while one has not, and when the folder holds another count. Waits
/// for nothing; [`collect_shards_with`] waits up to `options.wait`.
pub fn collect_shards(
    board: Board,
    closure: Closure,
    options: &ShardOptions,
) -> Result<ShardedCount, ShardError> {
    let now = ShardOptions {
        wait: Duration::ZERO,
        ..*options
    };
    collect_shards_with(board, closure, &now, &mut |_, _| {})
}

/// [`collect_shards`], waiting up to `options.wait` in all for the shards: for the folder's
/// manifest (the shards may start after the collector), then for each pass's results, telling
/// `waiting` every ten seconds which shards it waits for. Past the wait, the shards still missing
/// are [`ShardError::Unfinished`]; a zero wait reads what is there.
pub fn collect_shards_with(
    board: Board,
    closure: Closure,
    options: &ShardOptions,
    waiting: &mut dyn FnMut(&[u32], Duration),
) -> Result<ShardedCount, ShardError> {
    let plan = plan_of(board);
    admit_shard(board, &plan, options)?;
    let began = Instant::now();
    let left = || options.wait.saturating_sub(began.elapsed());
    let path = options.shared.join("manifest");
    // the manifest is published whole (written aside, then linked into place) by the first shard
    let theirs = loop {
        match std::fs::read_to_string(&path) {
            Ok(theirs) => break theirs,
            Err(_) if !left().is_zero() => {
                std::thread::sleep(left().min(Duration::from_millis(100)));
            }
            Err(_) => return Err(ShardError::NoCount(options.shared.to_path_buf())),
        }
    };
    let mine = manifest(board, closure, options);
    if theirs != mine {
        return Err(ShardError::OtherArguments {
            path,
            theirs: theirs.lines().nth(1).unwrap_or("").to_string(),
            mine: mine.lines().nth(1).unwrap_or("").to_string(),
        });
    }
    let folder = Folder {
        path: options.shared.to_path_buf(),
        shards: options.shards,
        me: 0,
    };
    let mut results = |pass| {
        if !options.wait.is_zero() {
            folder
                .barrier(pass, None, left(), waiting)
                .map_err(|e| match e {
                    ShardError::Timeout { missing, .. } => ShardError::Unfinished { pass, missing },
                    e => e,
                })?;
        }
        match folder.results(pass)? {
            Ok(results) => Ok(results),
            Err(missing) => Err(ShardError::Unfinished { pass, missing }),
        }
    };
    let first = results(0)?;
    let ways_bits = first[0].ways_bits;
    let mut all = first.clone();
    let (sum, wrapped) = total(&first);
    let mut passes = 1;
    let undirected = if !wrapped {
        BigUint::from(sum)
    } else {
        let power = 1u128 << ways_bits;
        let mut pairs = vec![(power, sum % power)];
        while let Some(m) = pass_modulus(&plan, closure, options.primes, ways_bits, passes) {
            let shards = results(passes)?;
            let residue = shards.iter().fold(0u128, |r, t| {
                (r + u128::from(m.reduce(t.tours))) % u128::from(m.0)
            });
            pairs.push((u128::from(m.0), residue));
            all.extend(shards);
            passes += 1;
        }
        Residues { pairs }.value()
    };
    Ok(ShardedCount {
        count: FrontierCount {
            board,
            closure,
            undirected,
            peak_states: all.iter().map(|t| t.peak).max().unwrap_or(0) as usize,
            transitions: all.iter().map(|t| t.transitions).sum(),
            passes,
            spilled_runs: 0,
            elapsed: Duration::from_millis(all.iter().map(|t| t.millis).sum()),
        },
        written_bytes: all.iter().map(|t| t.written).sum(),
    })
}

/// The first states of a pass: the empty board's one state on the shard it hashes to, none on
/// the others.
fn first_states<E: Entry>(plan: &Plan, folder: &Folder) -> States<E> {
    let key = E::Key::pack(&[DONE; CELLS], 0, plan.w);
    let mine = shard_of(key.widen(), folder.shards) == folder.me;
    let state = mine.then(|| E::new(key, E::Ways::ONE));
    States::Memory(vec![state.into_iter().collect()])
}

/// Whether `plan`'s states take the wide entries.
fn wide_entries(plan: &Plan) -> bool {
    wide(plan.cols)
}

#[cfg(test)]
mod tests;
