//! Dead ends by length: the histogram a group's runs add up ([`DeadEndLengths`], one column of the
//! journal) and a row of `deadends.csv` ([`DeadEndRow`]).

use serde::{Deserialize, Serialize};

/// Dead ends by length: for each `L`, how many runs dead-ended after exactly `L` squares (pure
/// Warnsdorff). Adds up across chunks, shards and resumes like a [`Tally`](super::Tally); in the
/// journal it is one column, `L:count` pairs joined by `;` (empty when there is none), and per group
/// it becomes `deadends.csv`. A sorted list, not a map: a sweep holds one per group it runs, and
/// most hold none or a few lengths (an empty list takes no allocation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeadEndLengths(pub(super) Vec<(u32, u64)>);

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

/// Add the (length, runs) pairs of `more` to those of `into` from `from` on, both shortest first.
pub(super) fn merge_lengths(into: &mut Vec<(u32, u64)>, from: usize, more: &[(u32, u64)]) {
    for &(l, n) in more {
        match into[from..].binary_search_by_key(&l, |&(m, _)| m) {
            Ok(i) => into[from + i].1 += n,
            Err(i) => into.insert(from + i, (l, n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row as the sweep writes it (borrowed names) reads back to equal values (owned names).
    #[test]
    fn a_written_row_reads_back_equal() {
        let row = DeadEndRow {
            rows: 8,
            cols: 9,
            rule: "order:1,\"2\"",
            method: "warnsdorff",
            closed: true,
            length: 61,
            count: 1 << 40,
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = w.into_inner().unwrap();
        let back: Vec<DeadEndRow> = super::super::read_back(&text);
        assert_eq!(
            back,
            [DeadEndRow {
                rule: row.rule.to_string(),
                method: row.method.to_string(),
                rows: 8,
                cols: 9,
                closed: true,
                length: 61,
                count: 1 << 40,
            }]
        );
    }
}
