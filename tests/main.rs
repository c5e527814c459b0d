//! The integration tests, as one test binary: each file beside this one is a module of it, so the
//! crate is linked into one test executable instead of one per file (on a 2-core machine the links,
//! each at the test profile's opt-level 3, were most of a fresh `cargo test`'s compile time). Run one
//! file's tests with `cargo test --test integration sweep::`. What several files use is in
//! `support/`, each helper once.

mod atlas;
mod backtrack_nodes;
mod cli;
mod cli_count;
mod construct;
mod count;
mod count_frontier;
mod count_shard;
mod count_spill;
mod count_symmetric;
mod damaged_files;
mod docs;
mod estimate;
mod exact;
mod family_merge;
mod fast_paths;
mod render;
mod report;
mod restarts;
mod results_claims;
mod rules;
mod sample;
mod shapes;
mod solve;
mod startmap;
mod support;
mod sweep;
mod sweep_flags;
mod symmetry;
