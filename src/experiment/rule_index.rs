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

impl<'a> RuleIndex<'a> {
    pub(crate) fn new(rules: &'a [RuleSeq]) -> Self {
        let mut index = RuleIndex {
            by_rank: Vec::new(),
            others: HashMap::new(),
        };
        for (i, r) in rules.iter().enumerate() {
            match r.fixed_order() {
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
        match rule.fixed_order() {
            Some(o) => self.find_order(o),
            None => self.others.get(rule).copied(),
        }
    }

    /// For each label map of `labels` (board symmetries'), the position of `rule`'s mirror image
    /// under it ([`RuleSeq::mirrored`]), if it has one and it is in the list. A fixed order's
    /// images are found by rank alone, with no rule built (an `order:*` sweep has 322,560).
    pub(crate) fn images<const K: usize>(
        &self,
        rule: &RuleSeq,
        labels: &[[u8; 8]; K],
    ) -> [Option<u32>; K] {
        let order = rule.fixed_order();
        std::array::from_fn(|k| match order {
            Some(o) => self.find_order(o.mapped(&labels[k])),
            None => self.find(&rule.mirrored(&labels[k])?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fixed_orders_and_other_rules_by_value() {
        let rules: Vec<RuleSeq> = [
            "order:87654321",
            "pohl",
            "first",
            "roth|first",
            "pohl+order:65432187",
        ]
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
        // the transpose maps 65432187 onto first and back, by rank, and pohl (whose final is
        // first) onto pohl+order:65432187 and back, by hashing; roth|first's image is not listed
        let transpose = [crate::board::Symmetry::of_kind(4).labels()];
        let listed = |r: &str| index.images(&r.parse().unwrap(), &transpose)[0];
        assert_eq!(listed("order:65432187"), Some(2));
        assert_eq!(listed("first"), None);
        assert_eq!(listed("pohl"), Some(4));
        assert_eq!(listed("pohl+order:65432187"), Some(1));
        assert_eq!(listed("roth|first"), None);
        // no fixed order listed: none is found (the rank table is empty)
        let rules: Vec<RuleSeq> = vec!["pohl".parse().unwrap()];
        assert_eq!(RuleIndex::new(&rules).find(&"first".parse().unwrap()), None);
    }
}
