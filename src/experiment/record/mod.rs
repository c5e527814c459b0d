//! The rows of a sweep's CSV files, one serde row type per file, used by its writer and by every
//! reader, and the per-group counts they are made of. Column names are a contract with
//! pandas/polars/R scripts and `ktour plot` (`docs/REFERENCE.md`).
//!
//! | file | row | written by | read by |
//! |------|-----|------------|---------|
//! | `runs.csv` | [`RunRow`] | the `csv` crate's serde writer | `--resume`, `merge`, `failures`, `plot --map` |
//! | `summary.csv` | [`SummaryRow`] | `output::lines` (its serde twin is tested byte for byte) | `plot` |
//! | `deadends.csv` | [`DeadEndRow`] | `output::lines` (the same) | scripts |
//! | `chunks.csv` | [`ChunkRow`] | `output::lines` (the same) | `--resume`, `merge` |
//! | `failures --format csv` | [`FailureRow`] | the `csv` crate's serde writer | scripts |
//!
//! A summary's groups are counted in a [`Tally`] (its counters from one table, `tally`) and held in
//! group order by [`Tallies`]; dead ends by length in [`DeadEndLengths`].

mod chunks;
mod deadends;
mod failures;
mod runs;
mod summary;
mod tallies;
mod tally;

pub use chunks::ChunkRow;
pub use deadends::{DeadEndLengths, DeadEndRow};
pub use failures::FailureRow;
pub use runs::RunRow;
pub use summary::SummaryRow;
pub use tallies::{GroupDeadEnds, Tallies};
pub use tally::{Counter, CounterKind, Tally, COUNTERS};

/// Every row of a CSV read back through `T` from `text`, for the tests' round trips.
#[cfg(test)]
pub(crate) fn read_back<T: serde::de::DeserializeOwned>(text: &[u8]) -> Vec<T> {
    csv::Reader::from_reader(text)
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("rows that read back")
}
