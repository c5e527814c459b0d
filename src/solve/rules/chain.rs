//! The rule algebra (`docs/REFERENCE.md`, "Tie-break rules"): after the degree, a chain of tie
//! [`Key`]s applied in turn, each keeping only the candidates it ranks best, then a [`Final`]
//! tie-break among those still tied. Written `KEY+KEY+FINAL` (`pohl+random`,
//! `roth+order:87654321`); a chain without a final ends with `first`, so the bare key names of the
//! first wave (`pohl`, `roth`, `center`) keep their meaning. Parsed once, from the rule table.

use super::part::{Final, Key};
use super::table::{self, Part};
use super::{LabelOrder, Rule, RuleError};
use std::fmt;

/// Most keys one chain holds: each key at most once, and `roth` and `center` (one distance, ranked
/// in opposite directions) never together, so two.
pub const MAX_KEYS: usize = 2;

/// The keys of a chain, in the order they apply: the leading entries, the rest `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Keys([Option<Key>; MAX_KEYS]);

impl Keys {
    /// No keys.
    pub const NONE: Keys = Keys([None; MAX_KEYS]);

    /// One key.
    pub const fn one(key: Key) -> Keys {
        let mut k = [None; MAX_KEYS];
        k[0] = Some(key);
        Keys(k)
    }

    /// The keys in order.
    pub fn iter(&self) -> impl Iterator<Item = Key> + '_ {
        self.0.iter().map_while(|k| *k)
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }

    /// The only key, if there is exactly one.
    pub fn single(&self) -> Option<Key> {
        match self.0 {
            [Some(k), None] => Some(k),
            _ => None,
        }
    }
}

/// Keys, then a final tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    /// The keys, in the order they apply.
    pub keys: Keys,
    /// What decides among the candidates the keys leave tied.
    pub last: Final,
}

/// Split `s` at `sep` where it is not inside parentheses (the offsets of `order:(1,2)...`).
pub(crate) fn split_outside_parens(s: &str, sep: char) -> Vec<&str> {
    let (mut parts, mut depth, mut from) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&s[from..i]);
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[from..]);
    parts
}

/// Parse a rule: one whole rule (`squirrel`, `roth-original`) or a chain `KEY+...+FINAL`.
pub(super) fn parse(s: &str) -> Result<Rule, RuleError> {
    let text = s.trim();
    let parts = split_outside_parens(text, '+');
    let mut keys = Keys::NONE;
    let mut n_keys = 0;
    let mut last = None;
    for part in &parts {
        let part = part.trim();
        if part.is_empty() {
            return Err(RuleError::Malformed(
                text.to_string(),
                "an empty part between `+` signs",
            ));
        }
        if last.is_some() {
            return Err(RuleError::Malformed(
                text.to_string(),
                "the final tie-break (first, order:, random, gfg, shuffle) must come last",
            ));
        }
        match table::part(part)? {
            Part::Whole(rule) if parts.len() == 1 => return Ok(rule),
            Part::Whole(_) => {
                return Err(RuleError::Malformed(
                    text.to_string(),
                    "roth-original and squirrel carry their own orderings and take no other part",
                ))
            }
            Part::Final(f) => last = Some(f),
            Part::Family { .. } => unreachable!("a family's name is read as its final"),
            Part::Key(k) => {
                if keys.iter().any(|have| have == k) {
                    return Err(RuleError::Malformed(text.to_string(), "a key used twice"));
                }
                let distances = |k: Key| matches!(k, Key::Roth | Key::Center);
                if distances(k) && keys.iter().any(distances) {
                    return Err(RuleError::Malformed(
                        text.to_string(),
                        "roth and center rank one distance in opposite directions: use one",
                    ));
                }
                if n_keys == MAX_KEYS {
                    return Err(RuleError::Malformed(text.to_string(), "too many keys"));
                }
                keys.0[n_keys] = Some(k);
                n_keys += 1;
            }
        }
    }
    Ok(Rule::Chain(Chain {
        keys,
        last: last.unwrap_or(Final::Order(LabelOrder::IDENTITY)),
    }))
}

impl fmt::Display for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for k in self.keys.iter() {
            f.write_str(sep)?;
            f.write_str(table::key_name(k))?;
            sep = "+";
        }
        // `first` is the default final: written only when it is the whole rule
        if self.last == Final::Order(LabelOrder::IDENTITY) && !self.keys.is_empty() {
            return Ok(());
        }
        f.write_str(sep)?;
        table::write_final(f, self.last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_parse_to_one_canonical_name() {
        for (text, canonical) in [
            ("pohl", "pohl"),
            ("pohl+first", "pohl"),
            ("pohl + random", "pohl+random"),
            ("roth+center", ""),
            ("order:12345678", "first"),
            ("roth+order:87654321", "roth+order:87654321"),
            ("pohl+roth+gfg", "pohl+roth+gfg"),
            ("gfg:41325867", "gfg"),
            ("gfg:12345678", "gfg:12345678"),
            ("centre+shuffle", "center+shuffle"),
            (
                "order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)",
                "order:36274518",
            ),
        ] {
            match text.parse::<Rule>() {
                Ok(rule) => {
                    assert_eq!(rule.to_string(), canonical, "{text}");
                    assert_eq!(canonical.parse::<Rule>(), Ok(rule), "{text}");
                }
                Err(e) => assert!(canonical.is_empty(), "{text}: {e}"),
            }
        }
    }

    #[test]
    fn malformed_chains_are_refused_with_a_reason() {
        for bad in [
            "",
            "+",
            "pohl+",
            "+pohl",
            "pohl+pohl",
            "roth+center",
            "random+pohl",
            "first+random",
            "squirrel+random",
            "pohl+squirrel",
            "pohl+warp",
            "order:(1,2)",
            "gfg:1234",
        ] {
            let e = bad.parse::<Rule>().expect_err(bad).to_string();
            assert!(!e.is_empty() && !e.contains('\n'), "{bad}: {e}");
        }
    }

    proptest::proptest! {
        /// Text made of the algebra's own tokens (and some that are not) never panics the parser,
        /// and whatever parses prints a name that parses back to the same rule.
        #[test]
        fn any_text_parses_or_is_refused(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "pohl", "roth", "center", "centre", "first", "random", "gfg", "shuffle",
                "squirrel", "roth-original", "order:", "gfg:", "87654321", "12345678", "1234",
                "(1,2)", "(2,-1)", "(-2,-1)", "(3,0)", "+", "+", "|", " ", "(", ")", ",", "-", "x",
            ]),
            0..12,
        )) {
            let text: String = parts.concat();
            if let Ok(rule) = text.parse::<Rule>() {
                proptest::prop_assert_eq!(rule.to_string().parse::<Rule>(), Ok(rule));
            }
            if let Ok(seq) = text.parse::<crate::solve::RuleSeq>() {
                proptest::prop_assert_eq!(seq.to_string().parse::<crate::solve::RuleSeq>().ok(), Some(seq));
            }
        }
    }
}
