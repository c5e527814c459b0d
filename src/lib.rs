//! ktour: a research harness for the knight's tour problem.
#![deny(missing_docs)]

pub mod board;
pub mod cli;
pub mod construct;
pub mod exists;
pub mod search;
pub mod solve;
pub mod tour;
pub mod verify;
