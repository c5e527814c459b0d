//! The seed of one run of a sweep, derived from (experiment seed, board, start, trial), so that any
//! run can be replayed alone with `solve --seed`. Only a rule that reads the PRNG needs it to run;
//! every run's seed is still written in `runs.csv`, so it is derived where it is needed, not for
//! every run ([`super::Plan::requests`]). A leaf module: the plan and the spec (which samples a
//! mask's squares) both read it.

use crate::board::{Board, Square};
use crate::util::splitmix::splitmix64;

/// The seed of one run of a sweep, derived from (experiment seed, board, start, trial) with
/// SplitMix64 (Steele, Lea & Flood 2014; [`splitmix64`]: each part xored into the last output seeds
/// the next) so that any run can be replayed alone with `solve --seed`.
pub fn run_seed(seed: u64, board: Board, start: Square, trial: u32) -> u64 {
    let mut h = splitmix64(seed);
    for part in [
        board.rows() as u64,
        board.cols() as u64,
        start.row() as u64,
        start.col() as u64,
        trial as u64,
    ] {
        h = splitmix64(h ^ part);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seeds written in `runs.csv` files already on disk: a change here would make their runs
    /// replay differently.
    #[test]
    fn seeds_are_those_already_written() {
        let b = Board::square(8).unwrap();
        let s = [
            run_seed(0, b, Square::new(0, 0), 0),
            run_seed(42, b, Square::new(3, 5), 1),
        ];
        assert_eq!(s, [17619342105541713647, 4684234691779547265]);
    }
}
