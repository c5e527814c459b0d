//! A sweep's rule list indexed by value ([`RuleIndex`]): the mirror image of a rule under a board
//! symmetry (`docs/REFERENCE.md`, section 10) is looked up in it. A fixed order (all of `order:*`,
//! 40,320 rules) is found by its rank in a table, the others by hashing.

use crate::solve::RuleSeq;
use std::collections::HashMap;

const NONE: u32 = u32::MAX;

/// The position of each rule of a list.
#[derive(Debug)]
pub(crate) struct RuleIndex<'a> {
    by_rank: Vec<u32>,
    others: HashMap<&'a RuleSeq, u32>,
}

/// The one fixed order a rule is, if it is one.
pub(crate) fn fixed(r: &RuleSeq) -> Option<crate::solve::rules::LabelOrder> {
    match r {
        RuleSeq::One(rule) => rule.fixed_order(),
        RuleSeq::Many(_) => None,
    }
}

impl<'a> RuleIndex<'a> {
    pub(crate) fn new(rules: &'a [RuleSeq]) -> Self {
        let mut index = RuleIndex {
            by_rank: Vec::new(),
            others: HashMap::new(),
        };
        for (i, r) in rules.iter().enumerate() {
            match fixed(r) {
                Some(o) => {
                    index.by_rank.resize(40_320, NONE);
                    index.by_rank[o.rank() as usize] = i as u32;
                }
                None => {
                    index.others.insert(r, i as u32);
                }
            }
        }
        index
    }

    /// The position of the rule that is the fixed order `order`, if it is there.
    pub(crate) fn find_order(&self, order: crate::solve::rules::LabelOrder) -> Option<u32> {
        self.by_rank
            .get(order.rank() as usize)
            .copied()
            .filter(|&i| i != NONE)
    }

    /// The position of `rule` in the list, if it is there.
    pub(crate) fn find(&self, rule: &RuleSeq) -> Option<u32> {
        match fixed(rule) {
            Some(o) => self.find_order(o),
            None => self.others.get(rule).copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fixed_orders_and_other_rules_by_value() {
        let rules: Vec<RuleSeq> = ["order:87654321", "pohl", "first", "roth|first"]
            .iter()
            .map(|r| r.parse().unwrap())
            .collect();
        let index = RuleIndex::new(&rules);
        for (i, r) in rules.iter().enumerate() {
            assert_eq!(index.find(r), Some(i as u32), "{r:?}");
        }
        for absent in ["order:12345687", "random", "pohl|first"] {
            assert_eq!(index.find(&absent.parse().unwrap()), None, "{absent}");
        }
        // no fixed order listed: none is found (the rank table is empty)
        let rules: Vec<RuleSeq> = vec!["pohl".parse().unwrap()];
        assert_eq!(RuleIndex::new(&rules).find(&"first".parse().unwrap()), None);
    }
}
