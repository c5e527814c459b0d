//! The proposal of the sequential importance sampler: how the next square is drawn among the moves
//! the walk may take, and whether moves into states that provably hold no tour are left out.
//!
//! - `uniform`: every allowed move equally likely, Knuth's random probe (D. E. Knuth, "Estimating the
//!   efficiency of backtrack programs", Math. Comp. 29 (1975) 121-136).
//! - `warnsdorff:A`: a move to a square with `d` free neighbours has weight `(d + 1)^-A`, so squares
//!   with few onward moves are preferred, as Warnsdorff's rule prefers them; a randomised Warnsdorff
//!   proposal as in H. Cancela & E. Mordecki, "Counting knight's tours through the randomized
//!   Warnsdorff rule" (2006). `A = 0` is `uniform`; a large `A` is nearly the deterministic rule.
//!
//! Pruning (on unless `--no-prune`) removes a move when the state it leads to has no completion by a
//! degree argument ([`super::walk`] states it); such states hold no tours, so leaving them out changes
//! no expectation: the estimator stays unbiased and wastes fewer walks.

use std::fmt;
use std::str::FromStr;

/// The largest exponent accepted: past it the weights of the degrees 0..8 differ by more than
/// 10^38, the rule is deterministic in all but name, and the weights of the walks overflow sooner.
pub const MAX_EXPONENT: f64 = 40.0;

/// The Warnsdorff exponent used when `warnsdorff` is given without one: of 1, 2, 3 and 4, the
/// narrowest interval at equal time on 6 of the 12 boards of the coverage study, and the one whose
/// intervals held the count at their stated rate on all 12 (`results/estimates/README.md`).
pub const DEFAULT_EXPONENT: f64 = 2.0;

/// How the next square is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proposal {
    /// Uniformly among the allowed moves (Knuth 1975).
    Uniform,
    /// Weight `(d + 1)^-exponent` for a square with `d` free neighbours (Cancela & Mordecki 2006).
    Warnsdorff {
        /// How strongly few onward moves are preferred (0 is uniform).
        exponent: f64,
    },
}

impl Proposal {
    /// The weight of a move to a square with `d` free neighbours, for `d` in 0..=8 (a knight has
    /// at most 8 moves), as a table read in the hot loop.
    pub fn weights(self) -> [f64; 9] {
        let mut table = [1.0; 9];
        if let Proposal::Warnsdorff { exponent } = self {
            for (d, w) in table.iter_mut().enumerate() {
                *w = ((d + 1) as f64).powf(-exponent);
            }
        }
        table
    }
}

impl fmt::Display for Proposal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proposal::Uniform => write!(f, "uniform"),
            Proposal::Warnsdorff { exponent } => write!(f, "warnsdorff:{exponent}"),
        }
    }
}

/// Why a proposal did not parse.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProposalError {
    /// Neither name.
    #[error(
        "unknown proposal {0:?}: give uniform, warnsdorff, or warnsdorff:A with an exponent A"
    )]
    Unknown(String),
    /// The exponent is not a number in range.
    #[error("the exponent of warnsdorff:A must be a number from 0 to {MAX_EXPONENT}, got {0:?}")]
    Exponent(String),
}

impl FromStr for Proposal {
    type Err = ProposalError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, exponent) = match text.split_once(':') {
            Some((name, a)) => (name, Some(a)),
            None => (text, None),
        };
        match (name, exponent) {
            ("uniform", None) => Ok(Proposal::Uniform),
            ("warnsdorff", None) => Ok(Proposal::Warnsdorff {
                exponent: DEFAULT_EXPONENT,
            }),
            ("warnsdorff", Some(a)) => match a.trim().parse::<f64>() {
                Ok(exponent) if (0.0..=MAX_EXPONENT).contains(&exponent) => {
                    Ok(Proposal::Warnsdorff { exponent })
                }
                _ => Err(ProposalError::Exponent(a.to_string())),
            },
            _ => Err(ProposalError::Unknown(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_back() {
        for text in ["uniform", "warnsdorff:2", "warnsdorff:0.5"] {
            assert_eq!(text.parse::<Proposal>().unwrap().to_string(), text);
        }
        assert_eq!(
            "warnsdorff".parse::<Proposal>().unwrap(),
            Proposal::Warnsdorff {
                exponent: DEFAULT_EXPONENT
            }
        );
        for bad in [
            "",
            "warnsdorf",
            "uniform:1",
            "warnsdorff:-1",
            "warnsdorff:x",
            "warnsdorff:NaN",
        ] {
            assert!(bad.parse::<Proposal>().is_err(), "{bad}");
        }
    }

    #[test]
    fn warnsdorff_weights_decrease_with_the_degree() {
        let w = Proposal::Warnsdorff { exponent: 1.0 }.weights();
        assert_eq!(w[0], 1.0);
        assert_eq!(w[3], 0.25);
        assert!(w.windows(2).all(|p| p[0] > p[1]));
        assert_eq!(Proposal::Uniform.weights(), [1.0; 9]);
        assert_eq!(Proposal::Warnsdorff { exponent: 0.0 }.weights(), [1.0; 9]);
    }
}
