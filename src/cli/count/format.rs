//! The output formats of `ktour count`, shared by the plain counts (`mod.rs`, `frontier.rs`), the
//! sharded ones (`shard.rs`) and the symmetric ones (`symmetric.rs`), which `mod.rs` hands its
//! flags to.

use clap::ValueEnum;

/// Output formats of `ktour count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountFormat {
    /// Human-readable; the last line is the count alone.
    Text,
    /// One JSON object.
    Json,
    /// OEIS b-file lines, `n a(n)` with `n` the columns: one, or one a length of `--cols A..=B`.
    Bfile,
}
