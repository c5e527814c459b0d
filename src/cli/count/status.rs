//! `ktour count --checkpoint FILE --status`: where a long frontier count stands between sittings,
//! read from its checkpoint's header (the passes done and their residues, the pass it is in, the
//! row it reached, the lengths counted so far), without counting. Printing only; the reading is
//! [`crate::count::frontier::checkpoint_status`]'s.

use crate::cli::ExitStatus;
use crate::count::frontier::{checkpoint_status, CheckpointStatus};
use anyhow::Context;
use std::path::Path;

/// Print the status of the checkpoint at `path`.
pub(super) fn run(path: &Path) -> anyhow::Result<ExitStatus> {
    let status =
        checkpoint_status(path).with_context(|| format!("checkpoint {}", path.display()))?;
    print!("{}", describe(&status));
    Ok(ExitStatus::Success)
}

/// The status in lines: the count, the pass and row it reached, each pass done, this pass so far.
fn describe(s: &CheckpointStatus) -> String {
    let tours = if s.closed { "closed" } else { "open" };
    let boards = if s.every_length {
        format!("the boards {} wide and 1 to {} long", s.cols, s.rows)
    } else {
        format!("a board {} long and {} wide", s.rows, s.cols)
    };
    let whole = if s.whole {
        "whole"
    } else {
        "NOT whole: cut short or grown (a resumed count refuses it)"
    };
    let pass = s.done.len();
    let modulus = if s.modulus == 0 {
        format!("exact in {} bits", s.ways_bits)
    } else {
        format!("modulo the prime {}", s.modulus)
    };
    let mut out = format!(
        "checkpoint of the {tours} tours of {boards} ({whole})\n\
         pass {pass} ({modulus}): after row {} of {} (square {} of {}), {} states; peak {} states this pass, {} transitions in all{}\n",
        s.squares / s.cols.max(1) as usize,
        s.rows,
        s.squares,
        s.rows as usize * s.cols as usize,
        s.states,
        s.peak_states,
        s.transitions,
        if s.modulus == 0 && s.wrapped { "; its ways have wrapped: primes' passes follow" } else { "" },
    );
    if let Some(squares) = s.base_squares {
        out += &format!(
            "base: the exact states after row {} (square {squares}), beside the file with .exact added: each prime's pass starts there\n",
            squares / s.cols.max(1) as usize
        );
    }
    let lengths = |n: usize| {
        if s.every_length {
            format!("lengths 1..{n}")
        } else {
            "the board".to_string()
        }
    };
    for (k, (m, residues)) in s.done.iter().enumerate() {
        let by = if m.is_power_of_two() {
            format!("modulo 2^{} (the exact pass, wrapped)", m.trailing_zeros())
        } else {
            format!("modulo the prime {m}")
        };
        out += &format!(
            "pass {k} done, {by}, {}: {}\n",
            lengths(residues.len()),
            join(residues)
        );
    }
    if !s.lengths.is_empty() {
        out += &format!(
            "pass {pass} so far, {}: {}\n",
            lengths(s.lengths.len()),
            join(&s.lengths)
        );
    }
    for settled in s.settled() {
        let how = if settled.bits.is_finite() {
            format!(
                "moduli of {:.1} bits past its bound of {:.1}",
                settled.bits, settled.bound
            )
        } else {
            "the exact pass, not wrapped".to_string()
        };
        out += &if settled.agrees {
            format!(
                "settled: {} x {} = {} ({how})\n",
                s.cols, settled.rows, settled.value
            )
        } else {
            format!(
                "DISAGREE: {} x {}: the residues recombine to {}, past the bound of {:.1} bits (a pass miscounted or the file is damaged; the count will refuse them)\n",
                s.cols, settled.rows, settled.value, settled.bound
            )
        };
    }
    out
}

fn join(values: &[u128]) -> String {
    let text: Vec<String> = values.iter().map(u128::to_string).collect();
    text.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count of every length in its third pass: the passes done, named by their moduli, this
    /// pass's lengths so far, and the lengths the moduli settle (all three here: 8 x 3's bound is
    /// 23.2 bits) or find in disagreement.
    #[test]
    fn a_later_pass_lists_the_passes_done() {
        let mut status = CheckpointStatus {
            rows: 12,
            cols: 8,
            closed: true,
            every_length: true,
            fold: true,
            modulus: 1_152_921_504_606_846_801,
            ways_bits: 60,
            squares: 56,
            states: 135_805_257,
            peak_states: 696_790_791,
            transitions: 9,
            done: vec![
                (1 << 60, vec![0, 5, 7]),
                (1_152_921_504_606_846_883, vec![0, 5, 7]),
            ],
            lengths: vec![0, 5],
            base_squares: Some(40),
            wrapped: true,
            whole: true,
        };
        let text = describe(&status);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "checkpoint of the closed tours of the boards 8 wide and 1 to 12 long (whole)",
                "pass 2 (modulo the prime 1152921504606846801): after row 7 of 12 (square 56 of 96), 135805257 states; peak 696790791 states this pass, 9 transitions in all",
                "base: the exact states after row 5 (square 40), beside the file with .exact added: each prime's pass starts there",
                "pass 0 done, modulo 2^60 (the exact pass, wrapped), lengths 1..3: 0 5 7",
                "pass 1 done, modulo the prime 1152921504606846883, lengths 1..3: 0 5 7",
                "pass 2 so far, lengths 1..2: 0 5",
                "settled: 8 x 1 = 0 (moduli of 180.0 bits past its bound of 2.0)",
                "settled: 8 x 2 = 5 (moduli of 180.0 bits past its bound of 6.0)",
                "settled: 8 x 3 = 7 (moduli of 120.0 bits past its bound of 23.2)",
            ]
        );
        // one residue off: 7 modulo 2^60 and 8 modulo the prime make a number of 120 bits
        status.done[1].1[2] = 8;
        let text = describe(&status);
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with("DISAGREE: 8 x 3: the residues recombine to 13149"),
            "{last}"
        );
    }
}
