//! ktour: a research harness for the knight's tour problem.
#![deny(missing_docs)]

pub mod board;
pub mod cli;
pub mod count;
pub mod exists;
pub mod experiment;
pub mod render;
pub mod search;
pub mod solve;
pub mod tour;
pub mod verify;
