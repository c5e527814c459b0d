//! Tie-break rules for Warnsdorff's rule, each defined exactly as in the literature (`REFERENCE.md`).
//!
//! A [`Rule`] is what the user names; a [`TieBreaker`] is the rule prepared for one run on one board
//! (centre distances in doubled integer coordinates, switch squares as padded indexes, the run's PRNG).
//! The search loop scans candidates in the tie-breaker's current label order, so a strict minimum never
//! consults the rule; only a tie calls [`TieBreaker::choose`] (pure Warnsdorff) or
//! [`TieBreaker::secondary_key`] (ordering candidates for backtracking). Every rule ends with a fixed
//! label order, so every deterministic rule gives one answer.

mod order;
mod pohl;
mod random;
mod roth;
mod squirrel;

pub use order::LabelOrder;
pub(crate) use pohl::neighbour_degree_sum as pohl_sum;
pub(crate) use roth::{preference_classes, Target as DistanceTarget};
pub use squirrel::{SquirrelError, SquirrelPlan};

use crate::board::{Layout, Square};
use crate::search::SearchState;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
use std::str::FromStr;

/// A tie-break rule, as named on the command line and in experiment files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Fixed label order (`first` is `order:12345678`).
    Order(LabelOrder),
    /// Uniform among tied moves, a fresh draw at every tie, from the run's seeded PRNG.
    Random,
    /// Pohl (1967): smallest sum of degrees of the candidate's free neighbours, then label order.
    Pohl,
    /// After Roth (1992): farthest from the board centre, then label order.
    Roth,
    /// Roth's published Mathematica code: farthest from his off-centre point, then order 5678 1234.
    RothOriginal,
    /// Control opposite of `roth`: nearest to the centre, then label order.
    Center,
    /// Squirrel & Cull (1996): orderings switched at fixed squares; n x n, n >= 5, from the corner.
    Squirrel,
}

/// One line per rule for `ktour rules`: name, what it does, source.
pub const RULE_CATALOGUE: &[(&str, &str)] = &[
    ("first", "fixed label order 1..8 (= order:12345678); Squirrel & Cull 1996 labels"),
    ("order:ABCDEFGH", "fixed order: among tied moves take the label listed first; `order:*` in a sweep = all 40,320"),
    ("random", "uniform among tied moves, fresh draw per tie, xoshiro256++ seeded per run (seed, board, start, trial)"),
    ("pohl", "smallest sum of degrees of the candidate's free neighbours, then label order (Pohl 1967; Squirrel & Cull 1996; Ganzfried 2004)"),
    ("roth", "farthest from the board centre ((rows-1)/2, (cols-1)/2), then label order (after A. Roth 1992)"),
    ("roth-original", "Roth's Mathematica code: farthest from (ceil(rows/2)-3/2, ceil(cols/2)-3/2), then order 56781234 (Roth 1992)"),
    ("center", "nearest to the board centre, then label order (control opposite of roth)"),
    ("squirrel", "Squirrel & Cull 1996 switching orderings, n x n with n >= 5 from the corner (0,0); checked by Ganzfried 2004"),
];

/// The names `Rule::from_str` accepts, for error messages.
pub const RULE_NAMES: &str =
    "first, order:ABCDEFGH, random, pohl, roth, roth-original, center, squirrel";

/// An unknown or malformed rule name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Not one of the known names.
    #[error("unknown rule {0:?}; known rules: {RULE_NAMES}")]
    Unknown(String),
    /// `order:` followed by something that is not a permutation of 1..8.
    #[error("{0:?} is not an ordering: expected order: followed by a permutation of the digits 1-8, e.g. order:34261578")]
    BadOrder(String),
    /// The rule does not apply to this board or start.
    #[error(transparent)]
    Squirrel(#[from] SquirrelError),
}

impl Rule {
    /// `first`.
    pub const FIRST: Rule = Rule::Order(LabelOrder::IDENTITY);

    /// Whether the rule reads the PRNG.
    pub fn is_random(self) -> bool {
        matches!(self, Rule::Random)
    }
}

impl FromStr for Rule {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "first" => Rule::FIRST,
            "random" => Rule::Random,
            "pohl" => Rule::Pohl,
            "roth" => Rule::Roth,
            "roth-original" => Rule::RothOriginal,
            "center" | "centre" => Rule::Center,
            "squirrel" => Rule::Squirrel,
            _ => match s.strip_prefix("order:") {
                Some(digits) => Rule::Order(
                    digits
                        .parse()
                        .map_err(|_| RuleError::BadOrder(s.to_string()))?,
                ),
                None => return Err(RuleError::Unknown(s.to_string())),
            },
        })
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Order(o) if *o == LabelOrder::IDENTITY => f.write_str("first"),
            Rule::Order(o) => {
                f.write_str("order:")?;
                o.fmt(f)
            }
            Rule::Random => f.write_str("random"),
            Rule::Pohl => f.write_str("pohl"),
            Rule::Roth => f.write_str("roth"),
            Rule::RothOriginal => f.write_str("roth-original"),
            Rule::Center => f.write_str("center"),
            Rule::Squirrel => f.write_str("squirrel"),
        }
    }
}

/// What breaks a tie once the scan order has put the candidates in order.
#[derive(Clone, Debug)]
enum Secondary {
    /// Nothing: the first candidate in scan order wins.
    Fixed,
    /// Uniform draw.
    Random(Xoshiro256PlusPlus),
    /// Sum of the candidate's free neighbours' degrees, smaller first.
    Pohl,
    /// Squared distance (doubled coordinates) from a point; `farthest` picks the largest.
    Distance(roth::Target),
}

/// A rule prepared for one run: zero allocation, consulted only on ties.
#[derive(Clone, Debug)]
pub struct TieBreaker {
    scan: LabelOrder,
    secondary: Secondary,
    squirrel: Option<SquirrelPlan>,
}

impl TieBreaker {
    /// Prepare `rule` for a run on `layout`'s board from `start`; `seed` feeds `random`.
    pub fn new(rule: Rule, layout: &Layout, start: Square, seed: u64) -> Result<Self, RuleError> {
        let board = layout.board();
        let (scan, secondary, squirrel) = match rule {
            Rule::Order(o) => (o, Secondary::Fixed, None),
            Rule::Random => (
                LabelOrder::IDENTITY,
                Secondary::Random(random::rng(seed)),
                None,
            ),
            Rule::Pohl => (LabelOrder::IDENTITY, Secondary::Pohl, None),
            Rule::Roth => (
                LabelOrder::IDENTITY,
                Secondary::Distance(roth::Target::roth(board)),
                None,
            ),
            Rule::RothOriginal => (
                roth::ORIGINAL_ORDER,
                Secondary::Distance(roth::Target::roth_original(board)),
                None,
            ),
            Rule::Center => (
                LabelOrder::IDENTITY,
                Secondary::Distance(roth::Target::center(board)),
                None,
            ),
            Rule::Squirrel => {
                let plan = SquirrelPlan::new(layout, start)?;
                (plan.ordering(), Secondary::Fixed, Some(plan))
            }
        };
        Ok(TieBreaker {
            scan,
            secondary,
            squirrel,
        })
    }

    /// The label order in which candidates are scanned: the rule's final fixed order.
    #[inline(always)]
    pub fn scan_order(&self) -> &[u8; 8] {
        self.scan.labels()
    }

    /// Whether a tie needs more than the scan order.
    #[inline(always)]
    pub fn has_secondary(&self) -> bool {
        !matches!(self.secondary, Secondary::Fixed)
    }

    /// Whether the candidate order is degree, then one fixed label order for the whole run (`first`,
    /// `order:*`): no secondary key and no switching orderings.
    #[inline]
    pub fn is_fixed_order(&self) -> bool {
        matches!(self.secondary, Secondary::Fixed) && self.squirrel.is_none()
    }

    /// Called after the knight arrives on padded square `p` (the start included): switches the
    /// squirrel ordering when `p` is the current ordering's switch square.
    #[inline(always)]
    pub fn arrive(&mut self, p: usize) {
        if let Some(plan) = &mut self.squirrel {
            if plan.arrive(p) {
                self.scan = plan.ordering();
            }
        }
    }

    /// Rule state to save before a move and restore after undoing it (the squirrel stage).
    #[inline(always)]
    pub fn stage(&self) -> u8 {
        self.squirrel.as_ref().map_or(0, |p| p.stage())
    }

    /// Restore a saved [`TieBreaker::stage`].
    #[inline(always)]
    pub fn restore_stage(&mut self, stage: u8) {
        if let Some(plan) = &mut self.squirrel {
            plan.set_stage(stage);
            self.scan = plan.ordering();
        }
    }

    /// The orderings in force so far, for the squirrel rule (`None` for other rules).
    pub fn orderings_used(&self) -> Option<Vec<String>> {
        self.squirrel.as_ref().map(|p| p.orderings_used())
    }

    /// For the distance rules (`roth`, `roth-original`, `center`): the target point and the scan order
    /// that breaks equal distances. The fast kernel turns them into per-square preference tables.
    pub(crate) fn distance_target(
        rule: Rule,
        board: crate::board::Board,
    ) -> Option<(roth::Target, LabelOrder)> {
        match rule {
            Rule::Roth => Some((roth::Target::roth(board), LabelOrder::IDENTITY)),
            Rule::RothOriginal => Some((roth::Target::roth_original(board), roth::ORIGINAL_ORDER)),
            Rule::Center => Some((roth::Target::center(board), LabelOrder::IDENTITY)),
            _ => None,
        }
    }

    /// Whether this tie-breaker is `pohl`.
    pub(crate) fn is_pohl(&self) -> bool {
        matches!(self.secondary, Secondary::Pohl)
    }

    /// Whether ties are broken by fresh random keys (`random`).
    pub(crate) fn is_random(&self) -> bool {
        matches!(self.secondary, Secondary::Random(_))
    }

    /// The target and tie order of this tie-breaker, if it is a distance rule (`roth`,
    /// `roth-original`, `center`): the backtracking search turns them into per-square lane orders.
    pub(crate) fn distance(&self) -> Option<(roth::Target, LabelOrder)> {
        match self.secondary {
            Secondary::Distance(target) => Some((target, self.scan)),
            _ => None,
        }
    }

    /// The squirrel plan, if this tie-breaker is `squirrel` (the fast kernel copies its switches).
    pub(crate) fn squirrel_plan(&self) -> Option<&SquirrelPlan> {
        self.squirrel.as_ref()
    }

    /// The run's PRNG, if this tie-breaker is `random` (the fast kernel draws from the same stream).
    pub(crate) fn take_rng(&mut self) -> Option<Xoshiro256PlusPlus> {
        match &self.secondary {
            Secondary::Random(rng) => Some(rng.clone()),
            _ => None,
        }
    }

    /// Pick among `tied` (padded squares, in scan order, all of equal minimum degree, at least two);
    /// returns the index of the winner.
    pub fn choose(&mut self, state: &SearchState, tied: &[usize]) -> usize {
        match &mut self.secondary {
            Secondary::Fixed => 0,
            Secondary::Random(rng) => random::pick(rng, tied.len()),
            _ => {
                let mut best = 0;
                let mut best_key = i64::MAX;
                for (i, &q) in tied.iter().enumerate() {
                    let key = self.secondary_key(state, q);
                    if key < best_key {
                        best = i;
                        best_key = key;
                    }
                }
                best
            }
        }
    }

    /// The rule's key for candidate `q` (smaller is preferred); candidates with equal keys keep scan
    /// order. `random` draws a fresh key.
    #[inline]
    pub fn secondary_key(&mut self, state: &SearchState, q: usize) -> i64 {
        match &mut self.secondary {
            Secondary::Fixed => 0,
            Secondary::Random(rng) => random::key(rng),
            Secondary::Pohl => pohl::neighbour_degree_sum(state, q) as i64,
            Secondary::Distance(t) => t.key(state.layout().unpad(q)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "first",
            "order:34261578",
            "random",
            "pohl",
            "roth",
            "roth-original",
            "center",
            "squirrel",
        ] {
            let r: Rule = name.parse().unwrap();
            assert_eq!(r.to_string(), name);
        }
        assert_eq!("order:12345678".parse::<Rule>().unwrap(), Rule::FIRST);
        for order in LabelOrder::all() {
            let rule = Rule::Order(order);
            assert_eq!(rule.to_string().parse::<Rule>().unwrap(), rule);
        }
        let e = "warp".parse::<Rule>().unwrap_err().to_string();
        assert!(e.contains("known rules"), "{e}");
        for bad in [
            "order:1234567",
            "order:11345678",
            "order:12345679",
            "order:",
        ] {
            assert!(
                matches!(bad.parse::<Rule>(), Err(RuleError::BadOrder(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn catalogue_covers_every_rule() {
        for (name, _) in RULE_CATALOGUE {
            if *name != "order:ABCDEFGH" {
                name.parse::<Rule>().unwrap();
            }
        }
    }
}
