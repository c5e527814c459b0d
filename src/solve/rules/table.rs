//! The one table of tie-break rules: every rule's name, the other names it is parsed from, what it
//! does and its source (as defined in `docs/REFERENCE.md`), and its [`Kind`], which says how the plain
//! loop breaks its ties ([`super::TieBreaker`]) and which fast paths it takes. Parsing, display, the
//! catalogue that `ktour rules` prints and the dispatch to the fast paths all read this table, so a
//! new rule is its file and one line here, plus its [`Rule`] variant and its key in the slow twins
//! of `reference.rs` (the compiler points at every `match` on [`Rule`] that must learn it). A rule
//! of a kind that has no fast path takes the plain loops.

use super::roth::{self, Target};
use super::LabelOrder;
use crate::board::Board;
use crate::solve::Rule;
use crate::state::SearchState;

/// How a rule breaks ties.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// One fixed label order for the whole run (`first`, `order:*`): the rule's
    /// [`Rule::Order`] permutation.
    Fixed,
    /// A fresh uniform draw at every tie, from the run's PRNG.
    Random,
    /// Pohl's sum of the candidate's free neighbours' degrees.
    Pohl,
    /// Distance from a point of the board (a key that depends only on where the candidate lies),
    /// equal distances in the given label order.
    Distance(fn(Board) -> Target, LabelOrder),
    /// Orderings switched at fixed squares (`squirrel`).
    Squirrel,
    /// Any other key of a candidate (smaller preferred, then label order), with no fast path: both
    /// Warnsdorff and backtracking take the plain loops, which read the key directly.
    #[cfg_attr(not(test), allow(dead_code))]
    Key(fn(&SearchState, usize) -> i64),
}

/// One line of the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleEntry {
    /// The name on the command line; for the `order:` family, its pattern.
    pub name: &'static str,
    /// Other names it is parsed from.
    pub aliases: &'static [&'static str],
    /// The rule, or `None` for the `order:` family (named by its permutation).
    pub rule: Option<Rule>,
    /// What it does, as `ktour rules` prints it.
    pub about: &'static str,
    /// Where it is defined.
    pub source: &'static str,
    /// How it breaks ties.
    pub kind: Kind,
}

/// The prefix of the `order:` family's names.
pub(crate) const ORDER_PREFIX: &str = "order:";

const TABLE: [RuleEntry; 8] = [
    RuleEntry {
        name: "first",
        aliases: &[],
        rule: Some(Rule::FIRST),
        about: "fixed label order 1..8 (= order:12345678); Squirrel & Cull 1996 labels",
        source: "Squirrel & Cull 1996 (labels)",
        kind: Kind::Fixed,
    },
    RuleEntry {
        name: "order:ABCDEFGH",
        aliases: &[],
        rule: None,
        about: "fixed order: among tied moves take the label listed first; `order:*` in a sweep = all 40,320",
        source: "Squirrel & Cull 1996 (labels and orderings)",
        kind: Kind::Fixed,
    },
    RuleEntry {
        name: "random",
        aliases: &[],
        rule: Some(Rule::Random),
        about: "uniform among tied moves, fresh draw per tie, xoshiro256++ seeded per run (seed, board, start, trial)",
        source: "Blackman & Vigna 2018 (xoshiro256++)",
        kind: Kind::Random,
    },
    RuleEntry {
        name: "pohl",
        aliases: &[],
        rule: Some(Rule::Pohl),
        about: "smallest sum of degrees of the candidate's free neighbours, then label order (Pohl 1967; Squirrel & Cull 1996; Ganzfried 2004)",
        source: "Pohl 1967",
        kind: Kind::Pohl,
    },
    RuleEntry {
        name: "roth",
        aliases: &[],
        rule: Some(Rule::Roth),
        about: "farthest from the board centre ((rows-1)/2, (cols-1)/2), then label order (after A. Roth 1992)",
        source: "Roth 1992",
        kind: Kind::Distance(Target::roth, LabelOrder::IDENTITY),
    },
    RuleEntry {
        name: "roth-original",
        aliases: &[],
        rule: Some(Rule::RothOriginal),
        about: "Roth's Mathematica code: farthest from (Round[rows/2]-3/2, Round[cols/2]-3/2), Mathematica's Round taking halves to even, then order 56781234 (Roth 1992)",
        source: "Roth 1992 (his Mathematica code)",
        kind: Kind::Distance(Target::roth_original, roth::ORIGINAL_ORDER),
    },
    RuleEntry {
        name: "center",
        aliases: &["centre"],
        rule: Some(Rule::Center),
        about: "nearest to the board centre, then label order (control opposite of roth)",
        source: "this project: the control opposite of Roth 1992",
        kind: Kind::Distance(Target::center, LabelOrder::IDENTITY),
    },
    RuleEntry {
        name: "squirrel",
        aliases: &[],
        rule: Some(Rule::Squirrel),
        about: "Squirrel & Cull 1996 switching orderings, n x n with n >= 5 from the corner (0,0); checked by Ganzfried 2004",
        source: "Squirrel & Cull 1996; Ganzfried 2004",
        kind: Kind::Squirrel,
    },
];

/// Every rule, in the order `ktour rules` lists them.
pub(crate) static RULES: &[RuleEntry] = &TABLE;

/// One line per rule for `ktour rules`: name, what it does (with its source).
pub const RULE_CATALOGUE: &[(&str, &str)] = &catalogue();

const fn catalogue() -> [(&'static str, &'static str); TABLE.len()] {
    let mut out = [("", ""); TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        out[i] = (TABLE[i].name, TABLE[i].about);
        i += 1;
    }
    out
}

/// The names `Rule::from_str` accepts, for error messages.
pub(crate) fn rule_names() -> String {
    let names: Vec<&str> = RULES.iter().map(|e| e.name).collect();
    names.join(", ")
}

impl Rule {
    /// The rule's line of the table.
    pub(crate) fn entry(self) -> &'static RuleEntry {
        let family = || match self {
            Rule::Order(_) => RULES.iter().find(|e| e.rule.is_none()),
            _ => None,
        };
        RULES
            .iter()
            .find(|e| e.rule == Some(self))
            .or_else(family)
            .unwrap_or_else(|| panic!("rule {self:?} has no line in the rule table"))
    }

    /// Every rule the table names, in table order (the `order:` family by its one line's example,
    /// `first`): what a test or a listing that means "every rule" iterates.
    pub fn catalogued() -> impl Iterator<Item = Rule> {
        RULES.iter().filter_map(|e| e.rule)
    }

    /// The rule a line of the table names, by name or alias; `None` if no line names it (the
    /// `order:` family is parsed by the caller).
    pub(crate) fn by_name(s: &str) -> Option<Rule> {
        RULES
            .iter()
            .find(|e| e.name == s || e.aliases.contains(&s))
            .and_then(|e| e.rule)
    }
}
