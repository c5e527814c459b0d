//! A row of `chunks.csv`, the sweep's journal ([`ChunkRow`]): one group's share of a finished
//! chunk, with its counters, its dead ends by length and a checksum, written flat and read back by
//! `--resume` and `merge`.

use super::tally::COUNTERS;
use super::{CounterKind, DeadEndLengths, Tally};
use serde::{Deserialize, Serialize};

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

#[cfg(test)]
mod tests {
    use super::super::tally::numbered;
    use super::*;

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
