//! The rows of the CSV files, one flat `Serialize` struct per file, and the per-group tally that
//! `summary.csv` is made of. Column names are a contract with pandas/polars/R scripts and `ktour plot`.

use crate::solve::{Outcome, RunSummary};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// One run: a row of `runs.csv`. The names borrow when a sweep writes rows (one rule name per chunk,
/// static method and outcome names: no allocation per row) and are owned when rows are read back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRow<'a> {
    /// Global run number (stable across shards and resumes).
    pub job: u64,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: Cow<'a, str>,
    /// Solver.
    pub method: Cow<'a, str>,
    /// Whether a closed tour was required.
    pub closed: bool,
    /// Start row (0-based).
    pub start_row: u16,
    /// Start column (0-based).
    pub start_col: u16,
    /// Trial number (random rules).
    pub trial: u32,
    /// The run's own PRNG seed: `ktour solve --seed` replays the run alone.
    pub seed: u64,
    /// `found`, `dead-end`, `not-closed`, `budget`, `no-tour-theorem`, `no-tour-exhausted`.
    pub outcome: Cow<'a, str>,
    /// Whether a tour (closed if required) was found.
    pub success: bool,
    /// Squares on the final path.
    pub visited: u32,
    /// Squares entered.
    pub nodes: u64,
    /// Squares left again.
    pub backtracks: u64,
    /// Moves decided by the tie-break rule.
    pub ties: u64,
    /// Wall-clock nanoseconds (timing column: varies between runs of the same spec).
    pub elapsed_ns: u64,
    /// Attempts made (1 without restarts): the one that succeeded, or the limit. `solve` with the
    /// run's seed, rule and `--attempts` replays them.
    #[serde(default = "one_attempt")]
    pub attempt: u32,
}

fn one_attempt() -> u32 {
    1
}

#[cfg(test)]
impl RunRow<'static> {
    /// A row of run `job` for tests: `first` on 3x3 from the corner, a dead end at 7 squares after
    /// 11 nodes, 3 backtracks, 2 ties and 3 attempts.
    pub(crate) fn example(job: u64) -> Self {
        RunRow {
            job,
            rows: 3,
            cols: 3,
            rule: "first".into(),
            method: "warnsdorff".into(),
            closed: false,
            start_row: 0,
            start_col: 0,
            trial: 0,
            seed: 0,
            outcome: "dead-end".into(),
            success: false,
            visited: 7,
            nodes: 11,
            backtracks: 3,
            ties: 2,
            elapsed_ns: 0,
            attempt: 3,
        }
    }
}

/// How a counter of a [`Tally`] adds up across chunks, shards and resumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterKind {
    /// A count or a sum: added.
    Sum,
    /// A largest value: the larger one kept.
    Max,
    /// A sum of wall-clock time: added, but left out of the journal's checksum, because it varies
    /// between runs of the same spec while the journal does not.
    Timing,
    /// A count added after journals were first written: added; read as 0 where a journal has no
    /// column for it, and in the checksum only when not 0, so that older journals read and check
    /// as they did.
    Later,
    /// A largest value added later: the larger kept; 0 when nothing is counted, read as 0 where a
    /// journal has no column for it, and in the checksum only when not 0.
    LaterMax,
    /// A smallest value added later: the smaller kept; `u64::MAX` when nothing is counted (and
    /// where a journal has no column for it), and in the checksum only when not `u64::MAX`.
    LaterMin,
}

impl CounterKind {
    /// The value of a counter that has counted nothing, which every merge leaves as it is.
    pub const fn empty(self) -> u64 {
        match self {
            CounterKind::LaterMin => u64::MAX,
            _ => 0,
        }
    }

    /// Two values of this kind merged.
    pub fn merged(self, a: u64, b: u64) -> u64 {
        match self {
            CounterKind::Max | CounterKind::LaterMax => a.max(b),
            CounterKind::LaterMin => a.min(b),
            CounterKind::Sum | CounterKind::Timing | CounterKind::Later => a + b,
        }
    }
}

/// One counter of a [`Tally`]: its field and column name, and how it adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    /// The field of [`Tally`] and the column of `chunks.csv`.
    pub name: &'static str,
    /// How it adds up.
    pub kind: CounterKind,
}

/// Defines [`Tally`] from one table of counters, with [`Tally::COUNTERS`], [`Tally::counts`] and
/// [`Tally::from_counts`]: the struct, the journal's columns and its checksum all come from this
/// one list, so a counter cannot be added to one of them and forgotten in another.
macro_rules! tally {
    ($(#[$meta:meta])* pub struct Tally { $( $(#[doc = $doc:literal])+ $name:ident: $kind:ident, )+ }) => {
        $(#[$meta])*
        pub struct Tally {
            $( $(#[doc = $doc])+ pub $name: u64, )+
        }

        /// How many counters a [`Tally`] has.
        pub const COUNTERS: usize = [$(stringify!($name)),+].len();

        impl Tally {
            /// Every counter, in field and column order.
            pub const COUNTERS: [Counter; COUNTERS] = [
                $( Counter { name: stringify!($name), kind: CounterKind::$kind }, )+
            ];

            /// The counters' values, in the order of [`Tally::COUNTERS`].
            pub fn counts(&self) -> [u64; COUNTERS] {
                [$(self.$name),+]
            }

            /// The tally of these values, in the order of [`Tally::COUNTERS`] (the inverse of
            /// [`Tally::counts`]).
            pub fn from_counts(counts: [u64; COUNTERS]) -> Tally {
                let [$($name),+] = counts;
                Tally { $($name),+ }
            }
        }
    };
}

tally! {
    /// Counts over a set of runs of one group; adds up across chunks, shards and resumes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct Tally {
        /// Runs.
        runs: Sum,
        /// Runs from starts where colour parity and the existence theorems allow a tour.
        feasible_runs: Sum,
        /// Runs that found a tour.
        successes: Sum,
        /// Pure Warnsdorff dead ends.
        dead_ends: Sum,
        /// Searches stopped by the budget.
        budget_exhausted: Sum,
        /// Runs proved impossible (theorem or exhausted search).
        impossible: Sum,
        /// Sum of squares visited.
        visited_total: Sum,
        /// Sum of nodes.
        nodes_total: Sum,
        /// Sum of backtracks.
        backtracks_total: Sum,
        /// Largest backtrack count of one run.
        backtracks_max: Max,
        /// Sum of ties.
        ties_total: Sum,
        /// Sum of wall-clock nanoseconds (timing column).
        elapsed_ns_total: Timing,
        /// Walks that covered the board but whose ends are not a knight move apart (closed asked).
        not_closed: Later,
        /// Attempts past the first, summed (0 without restarts).
        restarts_total: Later,
        /// Runs whose path is a closed tour (it covers the board and its ends are a knight move
        /// apart), whether or not a closed tour was asked for.
        closed_tours: Later,
        /// Fewest squares on a run's final path (`u64::MAX` when no run is counted).
        visited_min: LaterMin,
        /// Most squares on a run's final path.
        visited_max: LaterMax,
    }
}

impl Default for Tally {
    /// The tally of no run: every counter [`CounterKind::empty`].
    fn default() -> Self {
        Tally::from_counts(Tally::COUNTERS.map(|c| c.kind.empty()))
    }
}

/// The tallies of the groups a sweep has run, by group number, in order (`summary.csv` is written
/// from them as they are read). Only the groups with runs are held (a shard of a sweep of millions
/// of groups holds its own), in two sets of sorted lists, those resumed and those run now: a sweep
/// adds its chunks in run order, so a group is added at the end of its list or to its last entry,
/// never searched for. A group takes its number and its tally (144 bytes), where an ordered map
/// took half as much again, and a group with dead ends its lengths besides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tallies {
    resumed: Lists,
    added: Lists,
}

/// A group's number and its dead-end lengths: (length, runs) pairs, shortest first.
pub type GroupDeadEnds<'a> = (u32, Cow<'a, [(u32, u64)]>);

/// Groups' tallies and dead ends, each list in group order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lists {
    tallies: Vec<(u32, Tally)>,
    /// Only the groups with dead ends, each with the end of its lengths in `lengths`: most groups
    /// have none (a corner sweep's groups of one run that found a tour). One list for all groups'
    /// lengths, not one a group: an `order:*` sweep's 35,000 lists were allocated on the thread
    /// holding the writing turn and freed one by one at the sweep's end.
    dead_ends: Vec<(u32, usize)>,
    /// The dead-end lengths of the groups in `dead_ends`, each group's shortest first.
    lengths: Vec<(u32, u64)>,
}

impl Lists {
    /// Add `dead_ends` of `group`, a group at or after the last one with dead ends.
    fn add_dead_ends(&mut self, group: u32, dead_ends: &DeadEndLengths) {
        let n = self.dead_ends.len();
        match self.dead_ends.last() {
            // its lengths are the last in `lengths`
            Some(&(g, _)) if g == group => {
                let from = n.checked_sub(2).map_or(0, |i| self.dead_ends[i].1);
                merge_lengths(&mut self.lengths, from, &dead_ends.0);
                self.dead_ends[n - 1].1 = self.lengths.len();
            }
            last => {
                debug_assert!(
                    last.map_or(true, |&(g, _)| g < group),
                    "groups in run order"
                );
                self.lengths.extend_from_slice(&dead_ends.0);
                self.dead_ends.push((group, self.lengths.len()));
            }
        }
    }

    /// Each group with dead ends and its lengths, in group order.
    fn dead_ends(&self) -> impl Iterator<Item = (u32, &[(u32, u64)])> + '_ {
        let mut from = 0;
        self.dead_ends.iter().map(move |&(g, to)| {
            let lengths = &self.lengths[from..to];
            from = to;
            (g, lengths)
        })
    }
}

/// Add the (length, runs) pairs of `more` to those of `into` from `from` on, both shortest first.
fn merge_lengths(into: &mut Vec<(u32, u64)>, from: usize, more: &[(u32, u64)]) {
    for &(l, n) in more {
        match into[from..].binary_search_by_key(&l, |&(m, _)| m) {
            Ok(i) => into[from + i].1 += n,
            Err(i) => into.insert(from + i, (l, n)),
        }
    }
}

/// Add `item` of `group` to the last entry of `list` if it is that group's, else push it: groups
/// come in order.
fn add_last<T>(list: &mut Vec<(u32, T)>, group: u32, item: &T, merge: impl Fn(&mut T, &T))
where
    T: Clone,
{
    match list.last_mut() {
        Some((g, t)) if *g == group => merge(t, item),
        last => {
            debug_assert!(
                last.map_or(true, |(g, _)| *g < group),
                "groups in run order"
            );
            list.push((group, item.clone()));
        }
    }
}

/// Two lists in group order merged into one, each entry taken by `take`, a group in both lists
/// merged by `add`.
fn merged<E, T>(
    a: impl Iterator<Item = (u32, E)>,
    b: impl Iterator<Item = (u32, E)>,
    take: impl Fn((u32, E)) -> T,
    add: impl Fn(&mut T, (u32, E)),
) -> impl Iterator<Item = T> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(&(ga, _)), Some(&(gb, _))) => Some(if ga == gb {
            let mut t = take(a.next()?);
            add(&mut t, b.next()?);
            t
        } else if ga < gb {
            take(a.next()?)
        } else {
            take(b.next()?)
        }),
        (Some(_), None) => a.next().map(&take),
        (None, _) => b.next().map(&take),
    })
}

impl Tallies {
    /// The tallies of journal rows in run order (so their groups come in order), as resumed.
    pub fn of_rows(rows: &[ChunkRow]) -> Tallies {
        let mut t = Tallies::default();
        for r in rows {
            t.add(r.group, &r.tally, &r.dead_ends);
        }
        t.resumed = std::mem::take(&mut t.added);
        t
    }

    /// Count `tally` and `dead_ends` of `group`, a group at or after the last one added (run
    /// order).
    pub fn add(&mut self, group: u32, tally: &Tally, dead_ends: &DeadEndLengths) {
        add_last(&mut self.added.tallies, group, tally, Tally::merge);
        if !dead_ends.is_empty() {
            self.added.add_dead_ends(group, dead_ends);
        }
    }

    /// The number and dead-end lengths (shortest first) of every group with dead ends, in group
    /// order, borrowed unless a group is in both lists (`deadends.csv` needs the lists alone).
    pub fn dead_ends(&self) -> impl Iterator<Item = GroupDeadEnds<'_>> + '_ {
        merged(
            self.resumed.dead_ends(),
            self.added.dead_ends(),
            |(g, d)| (g, Cow::Borrowed(d)),
            |(_, d), (_, more)| merge_lengths(d.to_mut(), 0, more),
        )
    }

    /// Every group's number and tally, in group order (`summary.csv` needs the tallies alone, one
    /// a group).
    pub fn tallies(&self) -> impl Iterator<Item = (u32, Tally)> + '_ {
        merged(
            self.resumed.tallies.iter().map(|(g, t)| (*g, t)),
            self.added.tallies.iter().map(|(g, t)| (*g, t)),
            |(g, t)| (g, *t),
            |(_, t), (_, more)| t.merge(more),
        )
    }
}

impl Tally {
    /// Count one run.
    pub fn add_run(&mut self, s: &RunSummary, feasible: bool) {
        self.runs += 1;
        self.feasible_runs += feasible as u64;
        match s.outcome {
            Outcome::Found => self.successes += 1,
            Outcome::DeadEnd => self.dead_ends += 1,
            Outcome::NotClosed => self.not_closed += 1,
            Outcome::BudgetExhausted => self.budget_exhausted += 1,
            Outcome::Impossible(_) => self.impossible += 1,
        }
        self.restarts_total += u64::from(s.attempts.saturating_sub(1));
        self.closed_tours += s.closes as u64;
        self.visited_min = self.visited_min.min(s.visited as u64);
        self.visited_max = self.visited_max.max(s.visited as u64);
        self.visited_total += s.visited as u64;
        self.nodes_total += s.stats.nodes;
        self.backtracks_total += s.stats.backtracks;
        self.backtracks_max = self.backtracks_max.max(s.stats.backtracks);
        self.ties_total += s.stats.ties;
        self.elapsed_ns_total += s.stats.elapsed_ns;
    }

    /// Count one row of `runs.csv` as [`Tally::add_run`] counted its run, except for what a row does
    /// not hold: whether its start was feasible, and its time (a batch's time shared out). A row
    /// whose outcome is no outcome's name counts as a run of none.
    pub(crate) fn add_row(&mut self, row: &RunRow) {
        self.runs += 1;
        match &*row.outcome {
            "found" => self.successes += 1,
            "dead-end" => self.dead_ends += 1,
            "not-closed" => self.not_closed += 1,
            "budget" => self.budget_exhausted += 1,
            "no-tour-theorem" | "no-tour-exhausted" => self.impossible += 1,
            _ => {}
        }
        self.visited_total += row.visited as u64;
        self.visited_min = self.visited_min.min(row.visited as u64);
        self.visited_max = self.visited_max.max(row.visited as u64);
        self.nodes_total += row.nodes;
        self.backtracks_total += row.backtracks;
        self.backtracks_max = self.backtracks_max.max(row.backtracks);
        self.ties_total += row.ties;
        self.restarts_total += u64::from(row.attempt.saturating_sub(1));
    }

    /// The same counts as `o`, leaving aside what rows do not hold ([`Tally::add_row`]): whether
    /// a start was feasible, the time, whether a path closes.
    pub(crate) fn same_counts(&self, o: &Tally) -> bool {
        let without = |t: &Tally| Tally {
            feasible_runs: 0,
            elapsed_ns_total: 0,
            closed_tours: 0,
            ..*t
        };
        without(self) == without(o)
    }

    /// Add another tally.
    pub fn merge(&mut self, o: &Tally) {
        let mut counts = self.counts();
        for ((n, m), counter) in counts.iter_mut().zip(o.counts()).zip(&Tally::COUNTERS) {
            *n = counter.kind.merged(*n, m);
        }
        *self = Tally::from_counts(counts);
    }
}

/// Dead ends by length: for each `L`, how many runs dead-ended after exactly `L` squares (pure
/// Warnsdorff). Adds up across chunks, shards and resumes like a [`Tally`]; in the journal it is one
/// column, `L:count` pairs joined by `;` (empty when there is none), and per group it becomes
/// `deadends.csv`. A sorted list, not a map: a sweep holds one per group it runs, and most hold
/// none or a few lengths (an empty list takes no allocation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeadEndLengths(Vec<(u32, u64)>);

impl DeadEndLengths {
    /// The bytes its list takes.
    pub fn bytes(&self) -> usize {
        self.0.capacity() * std::mem::size_of::<(u32, u64)>()
    }

    /// Count a dead end after `squares` squares.
    pub fn add(&mut self, squares: u32) {
        self.add_n(squares, 1);
    }

    fn add_n(&mut self, squares: u32, n: u64) {
        merge_lengths(&mut self.0, 0, &[(squares, n)]);
    }

    /// Add another histogram.
    pub fn merge(&mut self, o: &DeadEndLengths) {
        merge_lengths(&mut self.0, 0, &o.0);
    }

    /// Whether no dead end is counted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// (squares, runs), shortest first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.0.iter().copied()
    }

    /// The journal column's text, handed to `write` in pieces: `L:count` pairs joined by `;`
    /// (the journal's line and its checksum take the pieces without a string or a formatter).
    pub fn write_text(&self, mut write: impl FnMut(&[u8])) {
        for (k, &(l, n)) in self.0.iter().enumerate() {
            if k > 0 {
                write(b";");
            }
            write(itoa::Buffer::new().format(l).as_bytes());
            write(b":");
            write(itoa::Buffer::new().format(n).as_bytes());
        }
    }
}

impl std::fmt::Display for DeadEndLengths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = Vec::new();
        self.write_text(|piece| text.extend_from_slice(piece));
        f.write_str(std::str::from_utf8(&text).expect("digits, ':' and ';'"))
    }
}

impl std::str::FromStr for DeadEndLengths {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let mut out = DeadEndLengths::default();
        for pair in s.split(';').filter(|p| !p.is_empty()) {
            let bad = || format!("{pair:?} is not LENGTH:COUNT");
            let (l, n) = pair.split_once(':').ok_or_else(bad)?;
            let (l, n): (u32, u64) = (l.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
            // written shortest first, each length once
            if n == 0 || out.0.last().is_some_and(|&(last, _)| last >= l) {
                return Err(bad());
            }
            out.0.push((l, n));
        }
        Ok(out)
    }
}

/// A row of `deadends.csv`: how many runs of a group dead-ended after `length` squares. Read with
/// owned names; written with borrowed ones (`DeadEndRow<&str>`: no two strings a row).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeadEndRow<S = String> {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: S,
    /// Solver.
    pub method: S,
    /// Whether closed tours were required.
    pub closed: bool,
    /// Squares on the path when it dead-ended.
    pub length: u32,
    /// Runs that dead-ended there.
    pub count: u64,
}

/// One group's share of a finished chunk: a row of `chunks.csv`, the sweep's journal (what
/// `--resume` and `merge` read). A chunk is finished when the rows of all its groups are there.
/// Flat on disk: the columns are the chunk, the group, the group's first run in the chunk, the
/// counters of [`Tally::COUNTERS`] in order, the dead ends by length, then the check (see
/// [`ChunkRow::header`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkRow {
    /// Chunk number.
    pub chunk: u64,
    /// Group number (row of summary.csv, in plan order).
    pub group: u32,
    /// Global number of the group's first run in the chunk.
    pub job: u64,
    /// The counts of the group's runs in the chunk.
    pub tally: Tally,
    /// The chunk's dead ends by length.
    pub dead_ends: DeadEndLengths,
    /// [`ChunkRow::checksum`] as written, so that a line damaged afterwards (an edit, a
    /// spreadsheet's rewrite, failing storage) is not taken for a finished chunk. An empty one
    /// reads as `None`, which no journal line passes.
    pub check: Option<u32>,
}

impl ChunkRow {
    /// The row for `tally` and `dead_ends` of the runs of `group` in `chunk` from run `job` on,
    /// with its checksum.
    pub fn new(chunk: u64, group: u32, job: u64, t: &Tally, dead_ends: &DeadEndLengths) -> Self {
        let mut row = ChunkRow {
            chunk,
            group,
            job,
            tally: *t,
            dead_ends: dead_ends.clone(),
            check: None,
        };
        row.check = Some(row.checksum());
        row
    }

    /// The header line of `chunks.csv`, newline included.
    pub fn header() -> String {
        let mut columns = vec!["chunk", "group", "job"];
        columns.extend(Tally::COUNTERS.iter().map(|c| c.name));
        columns.push(DEAD_END_COLUMN);
        columns.push("check");
        columns.join(",") + "\n"
    }

    /// CRC-32 of the chunk, the group, the first run and every counter but the timing ones (which
    /// vary between runs of the same spec, while the journal does not, timing aside), as
    /// little-endian integers, then the dead ends' column as written, when not empty.
    pub fn checksum(&self) -> u32 {
        // the integers gathered and hashed in one update: an update of 4 or 8 bytes each took the
        // hasher's byte-wise path, 5% of a small-board sweep's runs (the sum is the same)
        let mut bytes = [0u8; 8 * (3 + COUNTERS)];
        let mut at = 0;
        let mut put = |b: &[u8]| {
            bytes[at..at + b.len()].copy_from_slice(b);
            at += b.len();
        };
        put(&self.chunk.to_le_bytes());
        put(&self.group.to_le_bytes());
        put(&self.job.to_le_bytes());
        for (n, counter) in self.tally.counts().into_iter().zip(&Tally::COUNTERS) {
            let hashed = match counter.kind {
                CounterKind::Timing => false,
                CounterKind::Later | CounterKind::LaterMax | CounterKind::LaterMin => {
                    n != counter.kind.empty()
                }
                CounterKind::Sum | CounterKind::Max => true,
            };
            if hashed {
                put(&n.to_le_bytes());
            }
        }
        let mut h = crc32fast::Hasher::new();
        h.update(&bytes[..at]);
        // the column's text, fed to the hash as it is formatted (no string a row)
        self.dead_ends.write_text(|piece| h.update(piece));
        h.finalize()
    }

    /// The counts.
    pub fn tally(&self) -> Tally {
        self.tally
    }
}

/// The journal's column of dead ends by length.
const DEAD_END_COLUMN: &str = "dead_end_lengths";

impl Serialize for ChunkRow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut row = s.serialize_struct("ChunkRow", COUNTERS + 4)?;
        row.serialize_field("chunk", &self.chunk)?;
        row.serialize_field("group", &self.group)?;
        row.serialize_field("job", &self.job)?;
        for (n, counter) in self.tally.counts().iter().zip(&Tally::COUNTERS) {
            row.serialize_field(counter.name, n)?;
        }
        row.serialize_field(DEAD_END_COLUMN, &self.dead_ends.to_string())?;
        row.serialize_field("check", &self.check)?;
        row.end()
    }
}

/// A column of `chunks.csv`, as [`ChunkRow`] reads it.
enum ChunkColumn {
    Chunk,
    Group,
    Job,
    Counter(usize),
    DeadEnds,
    Check,
    Other,
}

impl<'de> Deserialize<'de> for ChunkColumn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = ChunkColumn;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a column of chunks.csv")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<ChunkColumn, E> {
                Ok(match name {
                    "chunk" => ChunkColumn::Chunk,
                    "group" => ChunkColumn::Group,
                    "job" => ChunkColumn::Job,
                    "check" => ChunkColumn::Check,
                    DEAD_END_COLUMN => ChunkColumn::DeadEnds,
                    _ => Tally::COUNTERS
                        .iter()
                        .position(|c| c.name == name)
                        .map_or(ChunkColumn::Other, ChunkColumn::Counter),
                })
            }
            fn visit_bytes<E: serde::de::Error>(self, name: &[u8]) -> Result<ChunkColumn, E> {
                match std::str::from_utf8(name) {
                    Ok(name) => self.visit_str(name),
                    Err(_) => Ok(ChunkColumn::Other),
                }
            }
        }
        d.deserialize_identifier(Visitor)
    }
}

/// Read as a derived `Deserialize` reads a struct: columns by name, every one required (a line
/// without its check reads as unchecked, which the journal does not take), unknown ones ignored,
/// none twice.
impl<'de> Deserialize<'de> for ChunkRow {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = ChunkRow;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a row of chunks.csv")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<ChunkRow, A::Error> {
                use serde::de::Error;
                fn once<T, E: Error>(
                    slot: &mut Option<T>,
                    value: T,
                    name: &'static str,
                ) -> Result<(), E> {
                    match slot.replace(value) {
                        Some(_) => Err(E::duplicate_field(name)),
                        None => Ok(()),
                    }
                }
                let (mut chunk, mut group, mut job, mut check) = (None, None, None, None);
                let mut dead_ends: Option<String> = None;
                let mut counts = [None; COUNTERS];
                while let Some(column) = map.next_key::<ChunkColumn>()? {
                    match column {
                        ChunkColumn::Chunk => once(&mut chunk, map.next_value()?, "chunk")?,
                        ChunkColumn::Group => once(&mut group, map.next_value()?, "group")?,
                        ChunkColumn::Job => once(&mut job, map.next_value()?, "job")?,
                        ChunkColumn::Counter(i) => {
                            once(&mut counts[i], map.next_value()?, Tally::COUNTERS[i].name)?
                        }
                        ChunkColumn::Check => once(&mut check, map.next_value()?, "check")?,
                        ChunkColumn::DeadEnds => {
                            once(&mut dead_ends, map.next_value()?, DEAD_END_COLUMN)?
                        }
                        ChunkColumn::Other => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                let mut values = [0; COUNTERS];
                for ((value, count), counter) in values.iter_mut().zip(counts).zip(&Tally::COUNTERS)
                {
                    *value = match (count, counter.kind) {
                        (Some(n), _) => n,
                        (
                            None,
                            k
                            @ (CounterKind::Later | CounterKind::LaterMax | CounterKind::LaterMin),
                        ) => k.empty(),
                        (None, _) => return Err(A::Error::missing_field(counter.name)),
                    };
                }
                // journals from before the column read as without dead ends
                let dead_ends = match dead_ends {
                    Some(text) => text.parse().map_err(A::Error::custom)?,
                    None => DeadEndLengths::default(),
                };
                Ok(ChunkRow {
                    chunk: chunk.ok_or_else(|| A::Error::missing_field("chunk"))?,
                    group: group.ok_or_else(|| A::Error::missing_field("group"))?,
                    job: job.ok_or_else(|| A::Error::missing_field("job"))?,
                    tally: Tally::from_counts(values),
                    dead_ends,
                    check: check.flatten(),
                })
            }
        }
        d.deserialize_struct("ChunkRow", &[], Visitor)
    }
}

/// One board x rule x method: a row of `summary.csv`. New columns go last but `complete`, which
/// stays the last, so that the columns scripts already read keep their positions. Read with owned
/// names; written with borrowed ones (`SummaryRow<&str>`: no two strings a row).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow<S = String> {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Tie-break rule.
    pub rule: S,
    /// Solver.
    pub method: S,
    /// Whether closed tours were required.
    pub closed: bool,
    /// Runs.
    pub runs: u64,
    /// Runs from starts where a tour can exist (colour parity, existence theorems).
    pub feasible_runs: u64,
    /// Runs that found a tour.
    pub successes: u64,
    /// successes / runs.
    pub success_rate: f64,
    /// successes / feasible_runs (empty when no run was feasible).
    pub success_rate_feasible: Option<f64>,
    /// Dead ends (pure Warnsdorff).
    pub dead_ends: u64,
    /// Runs stopped by the budget.
    pub budget_exhausted: u64,
    /// Runs proved impossible.
    pub impossible: u64,
    /// Mean squares visited.
    pub visited_mean: f64,
    /// Mean backtracks per run.
    pub backtracks_mean: f64,
    /// Largest backtracks of one run.
    pub backtracks_max: u64,
    /// Sum of nodes.
    pub nodes_total: u64,
    /// Sum of ties.
    pub ties_total: u64,
    /// Sum of wall-clock nanoseconds (timing column).
    pub elapsed_ns_total: u64,
    /// Walks that covered the board but did not close (closed asked): not in `dead_ends`.
    pub not_closed: u64,
    /// Mean attempts per run (1 without restarts); `successes` are those within the limit.
    pub attempts_mean: f64,
    /// Wilson 95% interval of `success_rate` (successes / runs): its lower end.
    pub success_ci_low: f64,
    /// ... and its upper end.
    pub success_ci_high: f64,
    /// Runs whose path is a closed tour, asked for or not.
    pub closed_tours: u64,
    /// closed_tours / runs.
    pub closed_rate: f64,
    /// Wilson 95% interval of `closed_rate`: its lower end.
    pub closed_ci_low: f64,
    /// ... and its upper end.
    pub closed_ci_high: f64,
    /// Fewest squares on a run's final path: the shortest (empty without runs).
    pub visited_min: Option<u64>,
    /// Most squares on a run's final path: the longest (empty without runs).
    pub visited_max: Option<u64>,
    /// Whether every run of the group is counted: false after an interrupt or a failed write, in a
    /// shard's folder (the other shards hold the rest), and in a merge missing a shard.
    pub complete: bool,
}

impl<S> SummaryRow<S> {
    /// The row for a group's tally, `group_runs` being the runs the whole sweep has in the group.
    pub fn new(
        rows: u32,
        cols: u32,
        rule: S,
        method: S,
        closed: bool,
        t: &Tally,
        group_runs: u64,
    ) -> Self {
        let per_run = |x: u64| {
            if t.runs == 0 {
                0.0
            } else {
                x as f64 / t.runs as f64
            }
        };
        let success_ci = crate::util::wilson::wilson95(t.successes, t.runs);
        let closed_ci = crate::util::wilson::wilson95(t.closed_tours, t.runs);
        SummaryRow {
            rows,
            cols,
            rule,
            method,
            closed,
            runs: t.runs,
            feasible_runs: t.feasible_runs,
            successes: t.successes,
            success_rate: per_run(t.successes),
            success_rate_feasible: (t.feasible_runs > 0)
                .then(|| t.successes as f64 / t.feasible_runs as f64),
            dead_ends: t.dead_ends,
            budget_exhausted: t.budget_exhausted,
            impossible: t.impossible,
            visited_mean: per_run(t.visited_total),
            backtracks_mean: per_run(t.backtracks_total),
            backtracks_max: t.backtracks_max,
            nodes_total: t.nodes_total,
            ties_total: t.ties_total,
            elapsed_ns_total: t.elapsed_ns_total,
            complete: t.runs == group_runs,
            not_closed: t.not_closed,
            attempts_mean: if t.runs == 0 {
                0.0
            } else {
                1.0 + per_run(t.restarts_total)
            },
            success_ci_low: success_ci.0,
            success_ci_high: success_ci.1,
            closed_tours: t.closed_tours,
            closed_rate: per_run(t.closed_tours),
            closed_ci_low: closed_ci.0,
            closed_ci_high: closed_ci.1,
            visited_min: (t.runs > 0).then_some(t.visited_min),
            visited_max: (t.runs > 0).then_some(t.visited_max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solve::{Impossibility, Stats};

    /// A run and its `runs.csv` row count alike in a tally, for every outcome: resume and merge
    /// check rows against the journal this way, and a row names its outcome by `Outcome::name`.
    #[test]
    fn a_row_counts_as_its_run_for_every_outcome() {
        let theorem = crate::exists::tour(Board::new(3, 3).unwrap(), crate::board::Closure::Open)
            .unwrap_err();
        let outcomes = [
            Outcome::Found,
            Outcome::DeadEnd,
            Outcome::NotClosed,
            Outcome::BudgetExhausted,
            Outcome::Impossible(Impossibility::Theorem(theorem)),
            Outcome::Impossible(Impossibility::Exhausted),
        ];
        let tallies = |outcome: Outcome, name: &str| {
            let run = RunSummary {
                outcome,
                closes: false,
                visited: 7,
                stats: Stats {
                    nodes: 11,
                    backtracks: 3,
                    ties: 2,
                    ..Stats::default()
                },
                attempts: 3,
            };
            let row = RunRow {
                outcome: name.to_string().into(),
                success: outcome == Outcome::Found,
                ..RunRow::example(0)
            };
            let (mut from_run, mut from_row) = (Tally::default(), Tally::default());
            from_run.add_run(&run, true);
            from_row.add_row(&row);
            (from_run, from_row)
        };
        for outcome in outcomes {
            let (from_run, from_row) = tallies(outcome, outcome.name());
            assert!(from_row.same_counts(&from_run), "{outcome:?}");
        }
        // an outcome misnamed, or named as another kind, does not add up
        let (from_run, from_row) = tallies(Outcome::Found, "fund");
        assert!(!from_row.same_counts(&from_run));
        let (from_run, from_row) = tallies(Outcome::DeadEnd, Outcome::BudgetExhausted.name());
        assert!(!from_row.same_counts(&from_run));
    }

    /// A tally whose counters all differ, so that a counter read or written in another's place
    /// shows.
    fn numbered() -> Tally {
        Tally::from_counts(std::array::from_fn(|i| 10 + i as u64))
    }

    /// The journal's columns and checksums are pinned (a change would make the journals already
    /// on disk unreadable): a row written now reads back intact.
    #[test]
    fn journal_rows_are_written_as_before() {
        let t = Tally {
            runs: 10,
            feasible_runs: 9,
            successes: 8,
            dead_ends: 1,
            budget_exhausted: 1,
            impossible: 0,
            visited_total: 250,
            nodes_total: 300,
            backtracks_total: 40,
            backtracks_max: 12,
            ties_total: 7,
            elapsed_ns_total: 5555,
            not_closed: 0,
            restarts_total: 0,
            closed_tours: 0,
            visited_min: u64::MAX,
            visited_max: 0,
        };
        let header = "chunk,group,job,runs,feasible_runs,successes,dead_ends,budget_exhausted,impossible,visited_total,nodes_total,backtracks_total,backtracks_max,ties_total,elapsed_ns_total,not_closed,restarts_total,closed_tours,visited_min,visited_max,dead_end_lengths,check\n";
        assert_eq!(ChunkRow::header(), header);
        let row = ChunkRow::new(3, 1, 40, &t, &DeadEndLengths::default());
        assert_eq!(row.check, Some(2526763667));
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            format!(
                "{header}3,1,40,10,9,8,1,1,0,250,300,40,12,7,5555,0,0,0,18446744073709551615,0,,2526763667\n"
            )
        );
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let back: Vec<ChunkRow> = r.deserialize().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, std::slice::from_ref(&row));
        // a journal without the later counters and dead ends reads and checks as it did
        let before = "chunk,group,job,runs,feasible_runs,successes,dead_ends,budget_exhausted,impossible,visited_total,nodes_total,backtracks_total,backtracks_max,ties_total,elapsed_ns_total,check\n3,1,40,10,9,8,1,1,0,250,300,40,12,7,5555,2526763667\n";
        let mut r = csv::Reader::from_reader(before.as_bytes());
        let back: Vec<ChunkRow> = r.deserialize().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, std::slice::from_ref(&row));
        // a line without its check reads as unchecked
        let unchecked = header.to_string()
            + "3,1,40,10,9,8,1,1,0,250,300,40,12,7,5555,0,0,0,18446744073709551615,0,,\n";
        let mut r = csv::Reader::from_reader(unchecked.as_bytes());
        let back: Vec<ChunkRow> = r.deserialize().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, [ChunkRow { check: None, ..row }]);
        // a line without one of the counters is not a row
        let short = header.replace("ties_total,", "")
            + "3,1,40,10,9,8,1,1,0,250,300,40,12,5555,0,0,0,18446744073709551615,0,,1\n";
        let mut r = csv::Reader::from_reader(short.as_bytes());
        assert!(r.deserialize::<ChunkRow>().next().unwrap().is_err());
    }

    /// Every counter is in the journal's header, in its columns and in its checksum (but timing
    /// ones, which vary between runs of a spec): a counter left out of one of them would let a
    /// damaged journal line pass, or lose that count on resume.
    #[test]
    fn every_counter_is_listed_written_and_checked() {
        let t = numbered();
        assert_eq!(Tally::from_counts(t.counts()), t);
        let header = ChunkRow::header();
        let columns: Vec<&str> = header.trim_end().split(',').collect();
        assert_eq!(columns.len(), COUNTERS + 5);
        // the struct's fields are the table's counters, in order
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(t).unwrap();
        let fields = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let names: Vec<&str> = Tally::COUNTERS.iter().map(|c| c.name).collect();
        assert_eq!(
            fields
                .lines()
                .next()
                .unwrap()
                .split(',')
                .collect::<Vec<_>>(),
            names
        );
        assert_eq!(columns[3..3 + COUNTERS], names[..]);
        let row = ChunkRow::new(7, 2, 90, &t, &DeadEndLengths::default());
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let values: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        for (i, counter) in Tally::COUNTERS.iter().enumerate() {
            assert_eq!(values[3 + i], t.counts()[i].to_string(), "{}", counter.name);
            let mut counts = t.counts();
            counts[i] += 1;
            let changed = ChunkRow {
                tally: Tally::from_counts(counts),
                ..row.clone()
            };
            assert_eq!(
                changed.checksum() != row.checksum(),
                counter.kind != CounterKind::Timing,
                "{} in the checksum",
                counter.name
            );
        }
    }

    /// Tallies resumed and run now come out in group order, a group in both summed, its dead ends
    /// by length too.
    #[test]
    fn tallies_resumed_and_run_now_come_out_in_group_order() {
        let runs = |n| Tally {
            runs: n,
            ..Tally::default()
        };
        let ends = |l: u32| {
            let mut d = DeadEndLengths::default();
            d.add(l);
            d
        };
        let rows: Vec<ChunkRow> = [(0, 1), (2, 2), (2, 3), (5, 4)]
            .iter()
            .enumerate()
            .map(|(i, &(g, n))| {
                ChunkRow::new(i as u64, g, 10 * i as u64, &runs(n), &ends(n as u32))
            })
            .collect();
        let mut t = Tallies::of_rows(&rows);
        for (g, n) in [(1, 10), (2, 20), (2, 30), (6, 40)] {
            t.add(g, &runs(n), &ends(if n == 30 { 3 } else { n as u32 }));
        }
        // a group without dead ends, resumed and run now: it has a tally and no dead-end entry
        t.add(7, &runs(2), &DeadEndLengths::default());
        let want = [
            (0, 1, "1:1"),
            (1, 10, "10:1"),
            (2, 55, "2:1;3:2;20:1"),
            (5, 4, "4:1"),
            (6, 40, "40:1"),
            (7, 2, ""),
        ];
        // the tallies and the dead ends each in group order, group 2 merged in both
        let tallies: Vec<(u32, u64)> = t.tallies().map(|(g, t)| (g, t.runs)).collect();
        let ends: Vec<(u32, String)> = t
            .dead_ends()
            .map(|(g, d)| (g, DeadEndLengths(d.into_owned()).to_string()))
            .collect();
        assert_eq!(tallies, want.map(|(g, n, _)| (g, n)));
        let with_ends = want.iter().filter(|w| !w.2.is_empty());
        assert_eq!(
            ends,
            with_ends
                .map(|&(g, _, d)| (g, d.to_string()))
                .collect::<Vec<_>>()
        );
    }

    /// The dead ends held in one list for all groups give, group by group, what a map of one
    /// [`DeadEndLengths`] a group merged with [`DeadEndLengths::merge`] gives: random groups in
    /// run order, each added several times (a group spanning chunks), some resumed, some run now.
    #[test]
    fn dead_ends_in_one_list_match_a_list_a_group() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..300 {
            let mut model: std::collections::BTreeMap<u32, DeadEndLengths> = Default::default();
            let mut add = |group: u32, rng: &mut rand_xoshiro::Xoshiro256PlusPlus| {
                let mut d = DeadEndLengths::default();
                for _ in 0..rng.gen_range(0..4) {
                    d.add(rng.gen_range(1..12));
                }
                if !d.is_empty() {
                    model.entry(group).or_default().merge(&d);
                }
                d
            };
            let (mut rows, mut group) = (Vec::new(), 0);
            for i in 0..rng.gen_range(0..20) {
                group += rng.gen_range(0..3);
                let d = add(group, &mut rng);
                rows.push(ChunkRow::new(i, group, 0, &Tally::default(), &d));
            }
            let mut t = Tallies::of_rows(&rows);
            let mut group = rng.gen_range(0..10);
            for _ in 0..rng.gen_range(0..20) {
                group += rng.gen_range(0..3);
                let d = add(group, &mut rng);
                t.add(group, &Tally::default(), &d);
            }
            let got: Vec<(u32, Vec<(u32, u64)>)> =
                t.dead_ends().map(|(g, d)| (g, d.into_owned())).collect();
            let want: Vec<(u32, Vec<(u32, u64)>)> =
                model.into_iter().map(|(g, d)| (g, d.0)).collect();
            assert_eq!(got, want);
        }
    }

    /// Merging adds every counter, but keeps the larger of the largest values.
    #[test]
    fn merge_adds_every_counter() {
        let (a, b) = (
            numbered(),
            Tally::from_counts(std::array::from_fn(|i| 100 * i as u64)),
        );
        let mut sum = a;
        sum.merge(&b);
        for (i, counter) in Tally::COUNTERS.iter().enumerate() {
            let (x, y) = (a.counts()[i], b.counts()[i]);
            let want = match counter.kind {
                CounterKind::Max | CounterKind::LaterMax => x.max(y),
                CounterKind::LaterMin => x.min(y),
                CounterKind::Sum | CounterKind::Timing | CounterKind::Later => x + y,
            };
            assert_eq!(sum.counts()[i], want, "{}", counter.name);
        }
    }

    /// The checksum is the CRC-32 of the fields' little-endian bytes and the dead ends' text as
    /// its definition says, on rows of random counters (the later ones sometimes at their empty
    /// values, which it leaves out) and random dead ends.
    #[test]
    fn checksums_hash_the_fields_as_defined() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..2000 {
            let counts = std::array::from_fn(|i| match rng.gen_range(0..3) {
                0 => Tally::COUNTERS[i].kind.empty(),
                1 => rng.gen_range(0..100),
                _ => rng.gen(),
            });
            let mut dead_ends = DeadEndLengths::default();
            for _ in 0..rng.gen_range(0..4) {
                dead_ends.add(rng.gen_range(1..5000));
            }
            let row = ChunkRow::new(
                rng.gen(),
                rng.gen(),
                rng.gen(),
                &Tally::from_counts(counts),
                &dead_ends,
            );
            let mut bytes = Vec::new();
            bytes.extend(row.chunk.to_le_bytes());
            bytes.extend(row.group.to_le_bytes());
            bytes.extend(row.job.to_le_bytes());
            for (n, c) in counts.iter().zip(&Tally::COUNTERS) {
                let kept = match c.kind {
                    CounterKind::Timing => false,
                    CounterKind::Sum | CounterKind::Max => true,
                    _ => *n != c.kind.empty(),
                };
                if kept {
                    bytes.extend(n.to_le_bytes());
                }
            }
            bytes.extend(dead_ends.to_string().bytes());
            assert_eq!(row.checksum(), crc32fast::hash(&bytes), "{row:?}");
        }
    }

    /// Dead ends by length go through the journal and its checksum, and a damaged column is no row.
    #[test]
    fn dead_end_lengths_round_trip_through_the_journal() {
        let mut d = DeadEndLengths::default();
        for l in [17, 40, 17, 3] {
            d.add(l);
        }
        assert_eq!(d.to_string(), "3:1;17:2;40:1");
        assert_eq!("3:1;17:2;40:1".parse::<DeadEndLengths>(), Ok(d.clone()));
        for bad in ["3", "3:x", "3:0", "3:1;3:2", "a:1"] {
            assert!(bad.parse::<DeadEndLengths>().is_err(), "{bad}");
        }
        let row = ChunkRow::new(1, 0, 0, &numbered(), &d);
        let plain = ChunkRow::new(1, 0, 0, &numbered(), &DeadEndLengths::default());
        assert_ne!(row.checksum(), plain.checksum());
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let back: Vec<ChunkRow> = r.deserialize().collect::<Result<_, _>>().unwrap();
        assert_eq!(back, [row]);
        let mut merged = d.clone();
        merged.merge(&d);
        assert_eq!(merged.to_string(), "3:2;17:4;40:2");
    }
}
