//! Tie-break rules for Warnsdorff's rule, each defined exactly as in the literature
//! (`docs/REFERENCE.md`). Every rule has one line in `table.rs`, which drives parsing, display, the
//! catalogue and the dispatch to the fast paths.
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
mod table;

pub use order::LabelOrder;
pub(crate) use pohl::neighbour_degree_sum as pohl_sum;
pub(crate) use roth::{preference_classes, Target as DistanceTarget};
pub use squirrel::{SquirrelError, SquirrelPlan};
pub(crate) use table::Kind;
pub use table::RULE_CATALOGUE;

use crate::board::{Layout, Square};
use crate::state::SearchState;
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

/// An unknown or malformed rule name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Not one of the known names.
    #[error("unknown rule {0:?}; known rules: {}", table::rule_names())]
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

    /// What the rule does, as `ktour rules` prints it.
    pub fn about(self) -> &'static str {
        self.entry().about
    }

    /// Where the rule is defined.
    pub fn source(self) -> &'static str {
        self.entry().source
    }

    /// Whether the rule reads the PRNG.
    pub fn is_random(self) -> bool {
        matches!(self, Rule::Random)
    }
}

impl FromStr for Rule {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(rule) = Rule::by_name(s) {
            return Ok(rule);
        }
        match s.strip_prefix(table::ORDER_PREFIX) {
            Some(digits) => Ok(Rule::Order(
                digits
                    .parse()
                    .map_err(|_| RuleError::BadOrder(s.to_string()))?,
            )),
            None => Err(RuleError::Unknown(s.to_string())),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entry = self.entry();
        match self {
            Rule::Order(o) if entry.rule.is_none() => {
                f.write_str(table::ORDER_PREFIX)?;
                o.fmt(f)
            }
            _ => f.write_str(entry.name),
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
    /// Any other key, read directly.
    Key(fn(&SearchState, usize) -> i64),
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
        let (scan, secondary, squirrel) = match rule.entry().kind {
            Kind::Fixed => match rule {
                Rule::Order(o) => (o, Secondary::Fixed, None),
                _ => unreachable!("only `order:` rules have a fixed order"),
            },
            Kind::Random => (
                LabelOrder::IDENTITY,
                Secondary::Random(random::rng(seed)),
                None,
            ),
            Kind::Pohl => (LabelOrder::IDENTITY, Secondary::Pohl, None),
            Kind::Distance(target, scan) => (scan, Secondary::Distance(target(board)), None),
            Kind::Squirrel => {
                let plan = SquirrelPlan::new(layout, start)?;
                (plan.ordering(), Secondary::Fixed, Some(plan))
            }
            Kind::Key(key) => (LabelOrder::IDENTITY, Secondary::Key(key), None),
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
        match rule.entry().kind {
            Kind::Distance(target, scan) => Some((target(board), scan)),
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
    /// `roth-original`, `center`): the backtracking search turns them into per-square slot orders.
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
            Secondary::Key(key) => key(state, q),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use table::RULES;

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

    /// The index of each variant of [`Rule`]: no wildcard arm, so a new variant does not compile
    /// until it is given an index here, and then [`one_of_each`] must list it.
    fn variant(rule: Rule) -> usize {
        match rule {
            Rule::Order(_) => 0,
            Rule::Random => 1,
            Rule::Pohl => 2,
            Rule::Roth => 3,
            Rule::RothOriginal => 4,
            Rule::Center => 5,
            Rule::Squirrel => 6,
        }
    }
    const VARIANTS: usize = 7;

    /// A rule of every variant (two of the `order:` family: `first` and another order).
    fn one_of_each() -> Vec<Rule> {
        let rules = vec![
            Rule::FIRST,
            "order:34261578".parse().unwrap(),
            Rule::Random,
            Rule::Pohl,
            Rule::Roth,
            Rule::RothOriginal,
            Rule::Center,
            Rule::Squirrel,
        ];
        let mut seen = [false; VARIANTS];
        for &r in &rules {
            seen[variant(r)] = true;
        }
        assert!(seen.iter().all(|&s| s), "one_of_each misses a variant");
        rules
    }

    #[test]
    fn catalogue_covers_every_rule() {
        // every rule has a line, round-trips through its name, and says what it is and where from
        for rule in one_of_each() {
            let entry = rule.entry(); // panics for a rule without a line
            let name = rule.to_string();
            assert_eq!(name.parse::<Rule>(), Ok(rule), "{name}");
            assert!(
                !entry.about.is_empty() && !entry.source.is_empty(),
                "{name}"
            );
            assert!(
                RULE_CATALOGUE.contains(&(entry.name, entry.about)),
                "{name}"
            );
            match entry.rule {
                Some(r) => assert_eq!((r, entry.name), (rule, name.as_str())),
                None => assert!(name.starts_with(table::ORDER_PREFIX), "{name}"),
            }
        }
        // every line names a rule that parses back to it, under each of its names
        assert_eq!(RULE_CATALOGUE.len(), RULES.len());
        for (entry, line) in RULES.iter().zip(RULE_CATALOGUE) {
            assert_eq!((entry.name, entry.about), *line);
            let Some(rule) = entry.rule else {
                assert!(entry.name.starts_with(table::ORDER_PREFIX));
                continue;
            };
            for name in std::iter::once(&entry.name).chain(entry.aliases) {
                assert_eq!(name.parse::<Rule>(), Ok(rule), "{name}");
            }
            assert_eq!(rule.to_string(), entry.name);
            assert!(
                std::ptr::eq(rule.entry(), entry),
                "{} has two lines",
                entry.name
            );
        }
        let mut names: Vec<&str> = RULES
            .iter()
            .flat_map(|e| std::iter::once(&e.name).chain(e.aliases))
            .copied()
            .collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            RULES.iter().map(|e| 1 + e.aliases.len()).sum::<usize>(),
            "a name on two lines"
        );
    }
}
