//! The one table of tie-break rules: every part of the rule algebra ([`super::chain`]) and every
//! whole rule, with the names it is parsed from, what it does and its source (as defined in
//! `docs/REFERENCE.md`). Parsing, display and the catalogue that `ktour rules` prints read this
//! table; [`Rule::kind`] says which fast path a rule takes. A new key or final is its file and one
//! line here, plus its variant (the compiler points at every `match` that must learn it) and its
//! branch in the slow twin of `reference.rs`. A rule whose shape has no fast path takes the plain
//! loops.

use super::part::{Final, Key, GFG_CYCLE};
use super::roth::{self, Target};
use super::{LabelOrder, RuleError};
use crate::board::Board;
use crate::solve::Rule;
use std::fmt;

/// Which fast path a rule takes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// One fixed label order for the whole run (`first`, `order:*`).
    Fixed(LabelOrder),
    /// A fresh uniform draw at every tie, from the run's PRNG (`random`).
    Random,
    /// Pohl's sum of the candidate's free neighbours' degrees, then label order 1..8 (`pohl`).
    Pohl,
    /// Distance from a point of the board (a key that depends only on where the candidate lies),
    /// equal distances in the given label order (`roth`, `center`, with any `order:`;
    /// `roth-original`).
    Distance(fn(Board) -> Target, LabelOrder),
    /// Orderings switched at fixed squares (`squirrel`).
    Squirrel,
    /// Any other chain: the plain loops, which read the rule's definition directly.
    Plain,
}

/// What a line of the table names.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Part {
    /// A tie key of a chain.
    Key(Key),
    /// A final tie-break.
    Final(Final),
    /// A family of finals named by a prefix and an ordering (`order:`, `gfg:`).
    Family {
        /// The prefix, `order:` or `gfg:`.
        prefix: &'static str,
        /// The final of an ordering.
        make: fn(LabelOrder) -> Final,
        /// The ordering of a final of this family.
        take: fn(Final) -> Option<LabelOrder>,
    },
    /// A rule that takes no other part.
    Whole(Rule),
}

/// One line of the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleEntry {
    /// The name on the command line; for a family, its pattern.
    pub name: &'static str,
    /// Other names it is parsed from.
    pub aliases: &'static [&'static str],
    /// What it names.
    pub part: Part,
    /// What it does, as `ktour rules` prints it.
    pub about: &'static str,
    /// Where it is defined.
    pub source: &'static str,
}

/// The prefix of the `order:` family's names.
pub(crate) const ORDER_PREFIX: &str = "order:";

const TABLE: [RuleEntry; 12] = [
    RuleEntry {
        name: "pohl",
        aliases: &[],
        part: Part::Key(Key::Pohl),
        about: "key: smallest sum of degrees of the candidate's free neighbours (Pohl 1967; Squirrel & Cull 1996; Ganzfried 2004)",
        source: "Pohl 1967",
    },
    RuleEntry {
        name: "roth",
        aliases: &[],
        part: Part::Key(Key::Roth),
        about: "key: farthest from the board centre ((rows-1)/2, (cols-1)/2) (after A. Roth 1992)",
        source: "Roth 1992",
    },
    RuleEntry {
        name: "center",
        aliases: &["centre"],
        part: Part::Key(Key::Center),
        about: "key: nearest to the board centre (control opposite of roth)",
        source: "this project: the control opposite of Roth 1992",
    },
    RuleEntry {
        name: "first",
        aliases: &[],
        part: Part::Final(Final::Order(LabelOrder::IDENTITY)),
        about: "final: fixed label order 1..8 (= order:12345678); Squirrel & Cull 1996 labels; the default final",
        source: "Squirrel & Cull 1996 (labels)",
    },
    RuleEntry {
        name: "order:ABCDEFGH",
        aliases: &[],
        part: Part::Family {
            prefix: ORDER_PREFIX,
            make: Final::Order,
            take: |f| match f {
                Final::Order(o) => Some(o),
                _ => None,
            },
        },
        about: "final: fixed order, the label listed first wins; also 8 offsets (drow,dcol); `order:*` in a sweep = all 40,320",
        source: "Squirrel & Cull 1996 (labels and orderings)",
    },
    RuleEntry {
        name: "random",
        aliases: &[],
        part: Part::Final(Final::Random),
        about: "final: uniform among the tied moves, fresh draw per tie, xoshiro256++ seeded per run (seed, board, start, trial)",
        source: "Blackman & Vigna 2018 (xoshiro256++)",
    },
    RuleEntry {
        name: "gfg",
        aliases: &[],
        part: Part::Final(Final::Gfg(GFG_CYCLE)),
        about: "final: scan the cycle 41325867 from a uniformly random position, first tied move met (the GeeksforGeeks program)",
        source: "GeeksforGeeks, Warnsdorff's algorithm for knight's tour",
    },
    RuleEntry {
        name: "gfg:ABCDEFGH",
        aliases: &[],
        part: Part::Family {
            prefix: "gfg:",
            make: Final::Gfg,
            take: |f| match f {
                Final::Gfg(o) => Some(o),
                _ => None,
            },
        },
        about: "final: as gfg, scanning another cycle of the labels",
        source: "GeeksforGeeks (generalised)",
    },
    RuleEntry {
        name: "shuffle",
        aliases: &[],
        part: Part::Final(Final::Shuffle),
        about: "final: one uniformly random ordering drawn per run, then used as order: (Squirrel & Cull's random ordering)",
        source: "Squirrel & Cull 1996",
    },
    RuleEntry {
        name: "roth-original",
        aliases: &[],
        part: Part::Whole(Rule::RothOriginal),
        about: "whole rule: Roth's Mathematica code: farthest from (Round[rows/2]-3/2, Round[cols/2]-3/2), Mathematica's Round taking halves to even, then order 56781234 (Roth 1992)",
        source: "Roth 1992 (his Mathematica code)",
    },
    RuleEntry {
        name: "roth-halfup",
        aliases: &[],
        part: Part::Whole(Rule::RothHalfUp),
        about: "whole rule: roth-original with Round[n/2] taken half up, the other reading of Roth's point (it differs on axes of length 1 mod 4), then order 56781234",
        source: "Roth 1992 (his Mathematica code, half-up reading)",
    },
    RuleEntry {
        name: "squirrel",
        aliases: &[],
        part: Part::Whole(Rule::Squirrel),
        about: "whole rule: Squirrel & Cull 1996 switching orderings, n x n with n >= 5 from the corner (0,0); checked by Ganzfried 2004",
        source: "Squirrel & Cull 1996; Ganzfried 2004",
    },
];

/// Every part and whole rule, in the order `ktour rules` lists them.
pub(crate) static RULES: &[RuleEntry] = &TABLE;

/// One line per part or whole rule for `ktour rules`: name, what it does (with its source).
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

/// How parts make a rule, as `ktour rules` prints it after the table.
pub const RULE_SYNTAX: &str = "\
A rule is KEY+KEY+FINAL: after the degree, each key keeps the candidates it ranks best, in turn;
the final decides among those left. A rule without a final ends with `first` (`pohl` = `pohl+first`);
a final alone is a rule (`random`). roth-original and squirrel stand alone. Examples: pohl+random,
roth+order:87654321, pohl+gfg, center+shuffle.
Rules tried in turn: a|b|c (with `attempts`/--attempts: at most that many attempts, each with its own
seed, until one succeeds; the sequence starts again when it runs out).
Orderings as offsets: order:(drow,dcol)x8 in our coordinates (row down, column right, 0-based), e.g.
order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1). A listing written (x, y) with x the column
and y the row is (y, x) here; one with x the row is as written. 1-based board coordinates do not
change offsets.";

/// The names `Rule::from_str` accepts, for error messages.
pub(crate) fn rule_names() -> String {
    let names: Vec<&str> = RULES.iter().map(|e| e.name).collect();
    names.join(", ")
}

/// The part one `+`-separated piece of a rule names.
pub(super) fn part(s: &str) -> Result<Part, RuleError> {
    for e in RULES {
        match e.part {
            Part::Family { prefix, make, .. } => {
                if let Some(rest) = s.strip_prefix(prefix) {
                    return LabelOrder::parse_listing(rest)
                        .map(|o| Part::Final(make(o)))
                        .map_err(|why| RuleError::BadOrder(s.to_string(), why));
                }
            }
            _ if e.name == s || e.aliases.contains(&s) => return Ok(e.part),
            _ => {}
        }
    }
    Err(RuleError::Unknown(s.to_string()))
}

/// The name of a key.
pub(super) fn key_name(k: Key) -> &'static str {
    RULES
        .iter()
        .find(|e| matches!(e.part, Part::Key(have) if have == k))
        .map(|e| e.name)
        .expect("every key has a line")
}

/// Write a final by its line's name, or its family's prefix and ordering.
pub(super) fn write_final(f: &mut fmt::Formatter<'_>, last: Final) -> fmt::Result {
    for e in RULES {
        match e.part {
            Part::Final(have) if have == last => return f.write_str(e.name),
            Part::Family { prefix, take, .. } => {
                if let Some(o) = take(last).filter(|_| !named(last)) {
                    f.write_str(prefix)?;
                    return fmt::Display::fmt(&o, f);
                }
            }
            _ => {}
        }
    }
    unreachable!("every final has a line or a family")
}

/// The fixed orders that have a line of their own (`first`), with their names: found once, not by
/// a pass over the table for each of an `order:*` sweep's 40,320 names.
static NAMED_ORDERS: std::sync::LazyLock<Vec<(LabelOrder, &'static str)>> =
    std::sync::LazyLock::new(|| {
        RULES
            .iter()
            .filter_map(|e| match e.part {
                Part::Final(Final::Order(o)) => Some((o, e.name)),
                _ => None,
            })
            .collect()
    });

/// The name of the fixed order `o` ([`write_final`]'s), appended to `out` without the formatting
/// machinery or a second pass over the table: an `order:*` sweep names 40,320 orders before it
/// starts.
pub(crate) fn push_order_name(o: LabelOrder, out: &mut String) {
    match NAMED_ORDERS.iter().find(|&&(have, _)| have == o) {
        Some(&(_, name)) => out.push_str(name),
        None => {
            out.push_str(ORDER_PREFIX);
            out.push_str(o.as_digits(&mut [0; 8]));
        }
    }
}

/// Whether a final has a line of its own (`first`, `gfg`), which its name wins over the family's.
fn named(last: Final) -> bool {
    RULES
        .iter()
        .any(|e| matches!(e.part, Part::Final(have) if have == last))
}

/// The name of a whole rule.
pub(super) fn whole_name(rule: Rule) -> &'static str {
    RULES
        .iter()
        .find(|e| matches!(e.part, Part::Whole(have) if have == rule))
        .map(|e| e.name)
        .expect("every whole rule has a line")
}

/// The line of a whole rule, a key or a final (its family's line when it has none of its own).
pub(super) fn line_of(rule: Rule) -> &'static RuleEntry {
    let find = |p: &dyn Fn(&Part) -> bool| RULES.iter().find(|e| p(&e.part));
    let found = match rule {
        Rule::Chain(chain) => match chain.keys.iter().last() {
            Some(k) => find(&|p| matches!(p, Part::Key(have) if *have == k)),
            None => {
                find(&|p| matches!(p, Part::Final(have) if *have == chain.last)).or_else(|| {
                    find(&|p| matches!(p, Part::Family { take, .. } if take(chain.last).is_some()))
                })
            }
        },
        whole => find(&|p| matches!(p, Part::Whole(have) if *have == whole)),
    };
    found.expect("every rule has a line")
}

impl Rule {
    /// Which fast path the rule takes: its shape, not its name, so `roth+order:87654321` takes the
    /// distance kernel like `roth`.
    pub(crate) fn kind(self) -> Kind {
        match self {
            Rule::RothOriginal => Kind::Distance(Target::roth_original, roth::ORIGINAL_ORDER),
            Rule::RothHalfUp => Kind::Distance(Target::roth_half_up, roth::ORIGINAL_ORDER),
            Rule::Squirrel => Kind::Squirrel,
            Rule::Chain(chain) => match (chain.keys.single(), chain.last) {
                (None, Final::Order(o)) if chain.keys.is_empty() => Kind::Fixed(o),
                (None, Final::Random) if chain.keys.is_empty() => Kind::Random,
                (Some(Key::Pohl), Final::Order(LabelOrder::IDENTITY)) => Kind::Pohl,
                (Some(Key::Roth), Final::Order(o)) => Kind::Distance(Target::roth, o),
                (Some(Key::Center), Final::Order(o)) => Kind::Distance(Target::center, o),
                _ => Kind::Plain,
            },
        }
    }

    /// Whether the rule is `shuffle` alone: one ordering drawn from the run's seed, then used as a
    /// fixed order, so that a batch can walk it as one (the window step).
    pub(crate) fn is_shuffle(self) -> bool {
        matches!(self, Rule::Chain(chain) if chain.keys.is_empty() && matches!(chain.last, Final::Shuffle))
    }

    /// The rules the first wave named, one per line of its table, in that table's order (the
    /// `order:` family by `first`): what a test or a listing that means "every rule" iterates.
    pub fn catalogued() -> impl Iterator<Item = Rule> {
        [
            Rule::FIRST,
            Rule::RANDOM,
            Rule::POHL,
            Rule::ROTH,
            Rule::RothOriginal,
            Rule::RothHalfUp,
            Rule::CENTER,
            Rule::Squirrel,
        ]
        .into_iter()
    }
}
