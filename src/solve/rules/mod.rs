//! Tie-break rules for Warnsdorff's rule, each defined exactly as in the literature
//! (`docs/REFERENCE.md`). A rule is a chain of tie keys applied after the degree, ending in a final
//! tie-break (`chain.rs`), or one of the whole rules that carry their own orderings (`roth-original`,
//! `squirrel`). Every part has one line in `table.rs`, which drives parsing, display and the
//! catalogue; a rule's shape says which fast path it takes (`Rule::kind`).
//!
//! A [`Rule`] is what the user names; a [`TieBreaker`] is the rule prepared for one run on one board
//! (centre distances in doubled integer coordinates, switch squares as padded indexes, the run's PRNG).
//! The search loop scans candidates in the tie-breaker's current label order, so a strict minimum never
//! consults the rule; only a tie calls [`TieBreaker::choose`] (pure Warnsdorff) or
//! [`TieBreaker::tie_key`] (ordering candidates for backtracking).

mod chain;
mod order;
mod part;
mod pohl;
mod random;
mod roth;
mod squirrel;
mod table;

pub(crate) use chain::split_outside_parens;
pub use chain::{Chain, Keys, MAX_KEYS};
pub use order::LabelOrder;
pub use part::{Final, Key, GFG_CYCLE};
pub(crate) use pohl::neighbour_degree_sum as pohl_sum;
pub(crate) use roth::{preference_classes, Target as DistanceTarget};
pub use squirrel::{SquirrelError, SquirrelPlan};
pub(crate) use table::{push_order_name, Kind};
pub use table::{RULE_CATALOGUE, RULE_SYNTAX};

use crate::board::{Layout, Square};
use crate::state::SearchState;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;
use std::str::FromStr;

/// A tie-break rule, as named on the command line and in experiment files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Tie keys after the degree, then a final tie-break (`first`, `pohl`, `pohl+random`, `gfg`...).
    Chain(Chain),
    /// Roth's published Mathematica code: farthest from his off-centre point, then order 5678 1234.
    RothOriginal,
    /// Roth's code with his point rounded half up instead (`Round[n/2]` read as a half-up rounding):
    /// the other reading of his point, which differs on axes of length 1 mod 4.
    RothHalfUp,
    /// Squirrel & Cull (1996): orderings switched at fixed squares; n x n, n >= 5, from the corner.
    Squirrel,
}

/// An unknown or malformed rule name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Not one of the known names.
    #[error("unknown rule {0:?}; known rules and parts: {names}; chains as KEY+KEY+FINAL (see `ktour rules`)", names = table::rule_names())]
    Unknown(String),
    /// `order:` or `gfg:` followed by something that is not an ordering.
    #[error("{0:?} is not an ordering: {1}")]
    BadOrder(String, &'static str),
    /// A chain that breaks the algebra's grammar.
    #[error("{0:?} is not a rule: {1}")]
    Malformed(String, &'static str),
    /// The rule does not apply to this board or start.
    #[error(transparent)]
    Squirrel(#[from] SquirrelError),
}

impl Rule {
    /// `first`: label order 1..8.
    pub const FIRST: Rule = Rule::order(LabelOrder::IDENTITY);
    /// `random`: uniform among the tied moves.
    pub const RANDOM: Rule = Rule::Chain(Chain {
        keys: Keys::NONE,
        last: Final::Random,
    });
    /// `pohl` (= `pohl+first`).
    pub const POHL: Rule = Rule::keyed(Key::Pohl);
    /// `roth` (= `roth+first`).
    pub const ROTH: Rule = Rule::keyed(Key::Roth);
    /// `center` (= `center+first`).
    pub const CENTER: Rule = Rule::keyed(Key::Center);

    /// The fixed order `order:ABCDEFGH`.
    pub const fn order(o: LabelOrder) -> Rule {
        Rule::Chain(Chain {
            keys: Keys::NONE,
            last: Final::Order(o),
        })
    }

    /// One key, then `first`.
    const fn keyed(key: Key) -> Rule {
        Rule::Chain(Chain {
            keys: Keys::one(key),
            last: Final::Order(LabelOrder::IDENTITY),
        })
    }

    /// The ordering, if the rule is one fixed order and nothing else (`first`, `order:*`).
    pub fn fixed_order(self) -> Option<LabelOrder> {
        match self {
            Rule::Chain(Chain {
                keys,
                last: Final::Order(o),
            }) if keys.is_empty() => Some(o),
            _ => None,
        }
    }

    /// What the rule does, as `ktour rules` prints it (for a chain, its last key's line, or its
    /// final's when it has no key).
    pub fn about(self) -> &'static str {
        table::line_of(self).about
    }

    /// Where the rule is defined (as [`Rule::about`]).
    pub fn source(self) -> &'static str {
        table::line_of(self).source
    }

    /// Whether the rule reads the PRNG (`random`, `gfg`, `shuffle` anywhere in it), so that its
    /// trials differ.
    pub fn is_random(self) -> bool {
        matches!(self, Rule::Chain(c) if c.last.is_random())
    }

    /// The rule the runs mirrored by a board symmetry follow, given the symmetry's label map
    /// (`board::Symmetry::labels`): a chain ending in a fixed order, its order mapped label by label,
    /// since its keys (the degree, Pohl's sums, the distance from the board's centre) are equal on
    /// mirrored squares. `None` for the rules that do not map so: a random final (its draws follow
    /// the run's seed, which the start square sets), Roth's original (an off-centre point) and
    /// Squirrel & Cull's (orderings switched at fixed squares).
    pub fn mirrored(self, labels: &[u8; 8]) -> Option<Rule> {
        match self {
            Rule::Chain(Chain {
                keys,
                last: Final::Order(o),
            }) => Some(Rule::Chain(Chain {
                keys,
                last: Final::Order(o.mapped(labels)),
            })),
            _ => None,
        }
    }

    /// Whether the rule has tie keys or a random final: anything but one fixed order of the labels
    /// (what a method without degrees, `naive`, cannot honour).
    pub fn needs_degrees(self) -> bool {
        self.fixed_order().is_none()
    }
}

impl FromStr for Rule {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        chain::parse(s)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Chain(c) => c.fmt(f),
            whole => f.write_str(table::whole_name(*whole)),
        }
    }
}

/// A tie key prepared for a run.
#[derive(Clone, Copy, Debug)]
enum KeyEval {
    /// Sum of the candidate's free neighbours' degrees, smaller first.
    Pohl,
    /// Squared distance (doubled coordinates) from a point; `farthest` picks the largest.
    Distance(roth::Target),
}

/// What decides among the candidates the keys leave tied.
#[derive(Clone, Debug)]
enum Last {
    /// The first candidate in scan order wins.
    Fixed,
    /// Uniform draw.
    Random(Xoshiro256PlusPlus),
    /// Scan the cycle from a random position: `at[label]` is the label's position in the cycle.
    Gfg {
        at: [u8; 8],
        rng: Xoshiro256PlusPlus,
    },
}

/// A candidate's rank under a rule's keys and final, for sorting backtracking candidates (smaller
/// first; equal ranks keep scan order).
pub type TieKey = [i64; MAX_KEYS + 1];

/// A rule prepared for one run: zero allocation, consulted only on ties.
#[derive(Clone, Debug)]
pub struct TieBreaker {
    scan: LabelOrder,
    keys: [Option<KeyEval>; MAX_KEYS],
    last: Last,
    /// The random position of the `gfg` cycle at the current node of a backtracking search.
    gfg_from: u8,
    squirrel: Option<SquirrelPlan>,
}

impl TieBreaker {
    /// Prepare `rule` for a run on `layout`'s board from `start`; `seed` feeds the random finals.
    pub fn new(rule: Rule, layout: &Layout, start: Square, seed: u64) -> Result<Self, RuleError> {
        let board = layout.board();
        let mut tb = TieBreaker {
            scan: LabelOrder::IDENTITY,
            keys: [None; MAX_KEYS],
            last: Last::Fixed,
            gfg_from: 0,
            squirrel: None,
        };
        match rule {
            Rule::RothOriginal => {
                tb.scan = roth::ORIGINAL_ORDER;
                tb.keys[0] = Some(KeyEval::Distance(roth::Target::roth_original(board)));
            }
            Rule::RothHalfUp => {
                tb.scan = roth::ORIGINAL_ORDER;
                tb.keys[0] = Some(KeyEval::Distance(roth::Target::roth_half_up(board)));
            }
            Rule::Squirrel => {
                let plan = SquirrelPlan::new(layout, start)?;
                tb.scan = plan.ordering();
                tb.squirrel = Some(plan);
            }
            Rule::Chain(Chain { keys, last }) => {
                for (slot, key) in tb.keys.iter_mut().zip(keys.iter()) {
                    *slot = Some(match key {
                        Key::Pohl => KeyEval::Pohl,
                        Key::Roth => KeyEval::Distance(roth::Target::roth(board)),
                        Key::Center => KeyEval::Distance(roth::Target::center(board)),
                    });
                }
                match last {
                    Final::Order(o) => tb.scan = o,
                    Final::Random => tb.last = Last::Random(random::rng(seed)),
                    Final::Gfg(cycle) => {
                        let mut at = [0u8; 8];
                        for (i, &l) in cycle.labels().iter().enumerate() {
                            at[l as usize] = i as u8;
                        }
                        tb.last = Last::Gfg {
                            at,
                            rng: random::rng(seed),
                        };
                    }
                    Final::Shuffle => tb.scan = random::shuffled(&mut random::rng(seed)),
                }
            }
        }
        Ok(tb)
    }

    /// The label order in which candidates are scanned: the rule's final fixed order.
    #[inline(always)]
    pub fn scan_order(&self) -> &[u8; 8] {
        self.scan.labels()
    }

    /// Whether a tie needs more than the scan order.
    #[inline(always)]
    pub fn has_secondary(&self) -> bool {
        self.keys[0].is_some() || !matches!(self.last, Last::Fixed)
    }

    /// Whether the candidate order is degree, then one fixed label order for the whole run (`first`,
    /// `order:*`, `shuffle` once drawn): no key and no switching orderings.
    #[inline]
    pub fn is_fixed_order(&self) -> bool {
        !self.has_secondary() && self.squirrel.is_none()
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

    /// For the rules of the distance kernel: the target point and the scan order that breaks equal
    /// distances. The fast kernel turns them into per-square preference tables.
    pub(crate) fn distance_target(
        rule: Rule,
        board: crate::board::Board,
    ) -> Option<(roth::Target, LabelOrder)> {
        match rule.kind() {
            Kind::Distance(target, scan) => Some((target(board), scan)),
            _ => None,
        }
    }

    /// Whether this tie-breaker is one `pohl` key, then the scan order.
    pub(crate) fn is_pohl(&self) -> bool {
        matches!(self.keys, [Some(KeyEval::Pohl), None]) && matches!(self.last, Last::Fixed)
    }

    /// Whether ties are broken by fresh random keys and nothing else (`random`).
    pub(crate) fn is_random(&self) -> bool {
        self.keys[0].is_none() && matches!(self.last, Last::Random(_))
    }

    /// The target and tie order of this tie-breaker, if it is one distance key then the scan order
    /// (`roth`, `roth-original`, `center`, with any order): the backtracking search turns them into
    /// per-square slot orders.
    pub(crate) fn distance(&self) -> Option<(roth::Target, LabelOrder)> {
        match (self.keys, &self.last) {
            ([Some(KeyEval::Distance(target)), None], Last::Fixed) => Some((target, self.scan)),
            _ => None,
        }
    }

    /// The squirrel plan, if this tie-breaker is `squirrel` (the fast kernel copies its switches).
    pub(crate) fn squirrel_plan(&self) -> Option<&SquirrelPlan> {
        self.squirrel.as_ref()
    }

    /// The run's PRNG, if this tie-breaker is `random` (the fast kernel draws from the same stream).
    pub(crate) fn take_rng(&mut self) -> Option<Xoshiro256PlusPlus> {
        match &self.last {
            Last::Random(rng) => Some(rng.clone()),
            _ => None,
        }
    }

    /// A key's value for candidate `q`, smaller preferred.
    #[inline]
    fn key_value(key: KeyEval, state: &SearchState, q: usize) -> i64 {
        match key {
            KeyEval::Pohl => pohl::neighbour_degree_sum(state, q) as i64,
            KeyEval::Distance(t) => t.key(state.layout().unpad(q)),
        }
    }

    /// The candidates the keys keep among `tied` (label and padded square of each, in scan order,
    /// all of equal minimum degree): their indexes into `tied`, in scan order, in `keep`; returns
    /// how many. Each key keeps its best candidates in turn, stopping when one is left.
    pub fn keep_after_keys(
        &self,
        state: &SearchState,
        tied: &[(u8, usize)],
        keep: &mut [usize; 8],
    ) -> usize {
        let mut n = tied.len();
        for (i, slot) in keep.iter_mut().enumerate().take(n) {
            *slot = i;
        }
        for key in self.keys.iter().map_while(|k| *k) {
            if n < 2 {
                break;
            }
            let mut best = i64::MAX;
            let mut kept = 0;
            for j in 0..n {
                let i = keep[j];
                let v = Self::key_value(key, state, tied[i].1);
                if v < best {
                    (best, kept) = (v, 0);
                }
                if v == best {
                    keep[kept] = i;
                    kept += 1;
                }
            }
            n = kept;
        }
        n
    }

    /// The winner of a `gfg` final among `keep[..n]` (indexes into `tied`) when the draw is
    /// position `from` (0..8) of the cycle: the first kept label met scanning the cycle from there.
    #[inline]
    fn gfg_winner(at: &[u8; 8], tied: &[(u8, usize)], keep: &[usize], from: u8) -> usize {
        *keep
            .iter()
            .min_by_key(|&&i| (at[tied[i].0 as usize] + 8 - from) % 8)
            .expect("two or more")
    }

    /// Pick among `tied` (label and padded square of each, in scan order, all of equal minimum
    /// degree, at least two); returns the index of the winner. The keys keep their best
    /// candidates in turn; the final decides among those left, drawing only if two or more are.
    pub fn choose(&mut self, state: &SearchState, tied: &[(u8, usize)]) -> usize {
        let mut keep = [0usize; 8];
        let n = self.keep_after_keys(state, tied, &mut keep);
        if n < 2 {
            return keep[0];
        }
        match &mut self.last {
            Last::Fixed => keep[0],
            Last::Random(rng) => keep[random::pick(rng, n)],
            Last::Gfg { at, rng } => {
                let from = random::pick(rng, 8) as u8;
                Self::gfg_winner(at, tied, &keep[..n], from)
            }
        }
    }

    /// How the final decides among the candidates `keep[..n]` (indexes into `tied`, two or more,
    /// as [`TieBreaker::keep_after_keys`] left them), as exact odds: for each draw the final can
    /// make, the candidate [`TieBreaker::choose`] takes. `draws[j]` is how many of the `out_of`
    /// equally likely draws give `keep[j]`: `random` draws an index among the `n` (one draw each,
    /// out of `n`); `gfg` a position of its cycle (out of 8: a candidate gets the positions from
    /// the previous kept label of the cycle, exclusive, to its own); a fixed order makes no draw
    /// (`keep[0]` wins: one draw out of one). A `shuffle` final is a fixed order once drawn.
    pub fn odds(&self, tied: &[(u8, usize)], keep: &[usize], draws: &mut [u8; 8]) -> u8 {
        let n = keep.len();
        draws[..n].fill(0);
        match &self.last {
            Last::Fixed => {
                draws[0] = 1;
                1
            }
            Last::Random(_) => {
                draws[..n].fill(1);
                n as u8
            }
            Last::Gfg { at, .. } => {
                for from in 0..8u8 {
                    let winner = Self::gfg_winner(at, tied, keep, from);
                    let j = keep.iter().position(|&i| i == winner).expect("a kept one");
                    draws[j] += 1;
                }
                8
            }
        }
    }

    /// Start ordering the candidates of a node that has a tie: a `gfg` final draws the position
    /// of its cycle here, once per node.
    #[inline]
    pub fn begin_tie(&mut self) {
        if let Last::Gfg { rng, .. } = &mut self.last {
            self.gfg_from = random::pick(rng, 8) as u8;
        }
    }

    /// The rule's rank of candidate `q` (label `label`) among candidates of equal degree, smaller
    /// preferred, for a node where [`TieBreaker::begin_tie`] was called: each key's value, then the
    /// final's (a fresh uniform draw for `random`, the distance along the cycle for `gfg`, 0 for a
    /// fixed order, whose ties keep scan order).
    #[inline]
    pub fn tie_key(&mut self, state: &SearchState, label: u8, q: usize) -> TieKey {
        let mut out = [0i64; MAX_KEYS + 1];
        for (slot, key) in out.iter_mut().zip(self.keys.iter().map_while(|k| *k)) {
            *slot = Self::key_value(key, state, q);
        }
        out[MAX_KEYS] = match &mut self.last {
            Last::Fixed => 0,
            Last::Random(rng) => random::key(rng),
            Last::Gfg { at, .. } => i64::from((at[label as usize] + 8 - self.gfg_from) % 8),
        };
        out
    }

    /// A fresh uniform key for `random` (the mask loop's ranks of tied slots).
    #[inline]
    pub(crate) fn random_key(&mut self) -> i64 {
        match &mut self.last {
            Last::Random(rng) => random::key(rng),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use table::{Part, RULES};

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
            "pohl+random",
            "roth+center+order:87654321",
            "pohl+gfg",
            "gfg",
            "gfg:12345678",
            "shuffle",
            "pohl+roth",
        ] {
            match name.parse::<Rule>() {
                Ok(r) => assert_eq!(r.to_string(), name),
                // roth and center rank one distance two ways: refused, not silently kept
                Err(e) => assert!(name.contains("roth+center"), "{name}: {e}"),
            }
        }
        assert_eq!("order:12345678".parse::<Rule>().unwrap(), Rule::FIRST);
        assert_eq!("pohl+first".parse::<Rule>().unwrap(), Rule::POHL);
        for order in LabelOrder::all() {
            let rule = Rule::order(order);
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
                matches!(bad.parse::<Rule>(), Err(RuleError::BadOrder(..))),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_line_parses_back_to_its_part() {
        // every line names a part that parses back, under each of its names, and says what it is
        assert_eq!(RULE_CATALOGUE.len(), RULES.len());
        for (entry, line) in RULES.iter().zip(RULE_CATALOGUE) {
            assert_eq!((entry.name, entry.about), *line);
            assert!(!entry.about.is_empty() && !entry.source.is_empty());
            if let Part::Family { prefix, .. } = entry.part {
                assert!(entry.name.starts_with(prefix));
                continue;
            }
            for name in std::iter::once(&entry.name).chain(entry.aliases) {
                let rule: Rule = name.parse().unwrap();
                match entry.part {
                    Part::Whole(r) => assert_eq!(rule, r),
                    Part::Key(k) => assert_eq!(rule, Rule::keyed(k)),
                    Part::Final(f) => assert_eq!(
                        rule,
                        Rule::Chain(Chain {
                            keys: Keys::NONE,
                            last: f
                        })
                    ),
                    Part::Family { .. } => unreachable!(),
                }
                assert_eq!(rule.to_string(), entry.name);
                assert!(std::ptr::eq(table::line_of(rule), entry), "{name}");
            }
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
        // the catalogued rules are the first wave's, each with a line
        for rule in Rule::catalogued() {
            assert_eq!(rule.to_string().parse::<Rule>(), Ok(rule));
            assert!(!rule.about().is_empty());
        }
    }

    #[test]
    fn random_parts_make_a_rule_random() {
        for (name, random, degrees) in [
            ("first", false, false),
            ("order:87654321", false, false),
            ("pohl", false, true),
            ("random", true, true),
            ("pohl+gfg", true, true),
            ("shuffle", true, true),
            ("squirrel", false, true),
            ("roth-original", false, true),
        ] {
            let rule: Rule = name.parse().unwrap();
            assert_eq!(rule.is_random(), random, "{name}");
            assert_eq!(rule.needs_degrees(), degrees, "{name}");
        }
    }
}
