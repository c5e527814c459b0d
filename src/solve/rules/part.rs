//! The parts a rule chain is made of (`docs/REFERENCE.md`, "Tie-break rules"): the tie [`Key`]s and
//! the [`Final`] tie-breaks. The rule table (`table.rs`) names them, the chain (`chain.rs`) puts
//! them together; both read them from here.

use super::LabelOrder;

/// A tie key: a number per candidate, smaller preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// Pohl (1967): the sum of the degrees of the candidate's free neighbours.
    Pohl,
    /// After Roth (1992): distance from the board's centre, farthest preferred.
    Roth,
    /// The control opposite of `roth`: distance from the centre, nearest preferred.
    Center,
}

/// How the candidates still tied after the keys are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Final {
    /// The label listed first in this order (`first` is 1..8, `order:ABCDEFGH`).
    Order(LabelOrder),
    /// Uniform among the tied candidates, a fresh draw at each tie (`random`).
    Random,
    /// The GeeksforGeeks program's tie-break: a uniform random position of this cycle of labels,
    /// then the first tied label met scanning the cycle from there (`gfg`, `gfg:ABCDEFGH`). Not
    /// uniform among the tied moves.
    Gfg(LabelOrder),
    /// One uniformly random ordering drawn when the run starts, then used as `order:` (`shuffle`).
    Shuffle,
}

/// The GeeksforGeeks program's move list, `cx = {1,1,2,2,-1,-1,-2,-2}`, `cy = {2,-2,1,-1,2,-2,1,-1}`
/// with x the column and y the row, in our labels.
pub const GFG_CYCLE: LabelOrder = LabelOrder::digits("41325867");

impl Final {
    /// Whether the final reads the run's PRNG.
    pub fn is_random(self) -> bool {
        !matches!(self, Final::Order(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gfg_cycle_is_the_programs_move_list() {
        // cx (column) and cy (row) of the GeeksforGeeks program
        let cx = [1, 1, 2, 2, -1, -1, -2, -2];
        let cy = [2, -2, 1, -1, 2, -2, 1, -1];
        for (i, &l) in GFG_CYCLE.labels().iter().enumerate() {
            assert_eq!(crate::board::KNIGHT_DELTAS[l as usize], (cy[i], cx[i]));
        }
    }
}
