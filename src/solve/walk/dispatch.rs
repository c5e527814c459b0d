//! The one place a rule is mapped to its kernel chooser ([`with_chooser`]), read from the rule's
//! [`Kind`] in the rule table (`rules/table.rs`; rules as defined in `docs/REFERENCE.md`). Both the
//! single walk and the batch groups go through it, with a [`ChooserVisitor`] whose generic method is
//! monomorphised for each chooser. A rule with no chooser gets [`ChooserVisitor::plain`]: the plain
//! loop, the definition the choosers are checked against, so a rule without a fast path is slow
//! rather than wrong.

use super::chooser::{Fixed, Pohl, Random, Squirrel};
use super::geometry::{geometry_tables, tables_pay, Distance, GeometryTables};
use super::mask::{order_bits, set_order_bits, Bits};
use super::Chooser;
use crate::board::{Board, Layout};
use crate::solve::rules::{Kind, LabelOrder};
use crate::solve::Rule;
use std::sync::Arc;

/// Something to do with a rule's chooser.
pub(crate) trait ChooserVisitor {
    /// What it gives.
    type Out;
    /// Walk with `ch`, a chooser for `layout`'s board.
    fn visit<C: Chooser>(self, ch: &C) -> Self::Out;
    /// The rule has no chooser: take the plain loop.
    fn plain(self) -> Self::Out;
}

/// The tables choosers borrow, kept in a solver across runs.
#[derive(Clone, Debug, Default)]
pub(crate) struct ChooserTables {
    /// Mask tables of the last fixed order used.
    order_bits: Option<(LabelOrder, Box<Bits>)>,
    /// Distance-rule tables of the last board and rule they were built for (shared by every solver
    /// of the process that uses the same board and rule: see [`geometry_tables`]).
    pub(crate) geometry: Option<(Board, Rule, Arc<GeometryTables>)>,
}

/// Call `v` with the chooser of `rule` on `layout`'s board (its tables from `tables`), or
/// [`ChooserVisitor::plain`] if the rule has none. `runs` is how many runs of the board `v` walks
/// with it: a distance rule builds its per-square table only where it pays ([`tables_pay`]).
pub(crate) fn with_chooser<V: ChooserVisitor>(
    rule: Rule,
    layout: &Layout,
    tables: &mut ChooserTables,
    runs: usize,
    v: V,
) -> V::Out {
    with_kind(rule.kind(), rule, layout, tables, runs, v)
}

/// [`with_chooser`] for a rule of kind `kind`.
fn with_kind<V: ChooserVisitor>(
    kind: Kind,
    rule: Rule,
    layout: &Layout,
    tables: &mut ChooserTables,
    runs: usize,
    v: V,
) -> V::Out {
    match kind {
        Kind::Fixed(order) => {
            let bits = order_tables(&mut tables.order_bits, order);
            v.visit(&Fixed::new(layout, order, bits))
        }
        Kind::Squirrel => v.visit(&Squirrel::new(layout)),
        Kind::Pohl => v.visit(&Pohl::new(layout)),
        Kind::Random => v.visit(&Random::new(layout)),
        Kind::Distance(..) if tables_pay(layout, runs) => {
            let tables = geometry_tables(&mut tables.geometry, layout, rule);
            v.visit(&tables.chooser(layout))
        }
        Kind::Distance(target, scan) => {
            let bits = order_tables(&mut tables.order_bits, scan);
            v.visit(&Distance::new(layout, target(layout.board()), scan, bits))
        }
        Kind::Plain => v.plain(),
    }
}

/// The mask tables of a fixed order, built once and rewritten in place for the next order.
fn order_tables(cache: &mut Option<(LabelOrder, Box<Bits>)>, order: LabelOrder) -> &Bits {
    match cache {
        Some((o, _)) if *o == order => {}
        Some((o, t)) => {
            set_order_bits(t, order);
            *o = order;
        }
        None => *cache = Some((order, order_bits(order))),
    }
    &cache.as_ref().expect("just filled").1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::walk::geometry::TABLE_RUNS;

    /// Which way the dispatch went.
    struct Which;

    impl ChooserVisitor for Which {
        type Out = &'static str;
        fn visit<C: Chooser>(self, _: &C) -> &'static str {
            std::any::type_name::<C>()
        }
        fn plain(self) -> &'static str {
            "plain"
        }
    }

    #[test]
    fn a_rule_without_a_chooser_takes_the_plain_loop() {
        let layout = Layout::new(Board::square(8).unwrap());
        let mut tables = ChooserTables::default();
        for rule in [
            "pohl+random",
            "gfg",
            "shuffle",
            "pohl+roth",
            "pohl+order:87654321",
        ] {
            let rule: Rule = rule.parse().unwrap();
            assert_eq!(with_chooser(rule, &layout, &mut tables, 1, Which), "plain");
        }
        // and every rule of the table with a chooser takes it
        for rule in [
            "first",
            "order:87654321",
            "random",
            "pohl",
            "roth",
            "center",
            "squirrel",
            "roth+order:87654321",
            "center+order:56781234",
        ] {
            let rule: Rule = rule.parse().unwrap();
            let which = with_chooser(rule, &layout, &mut tables, 1, Which);
            assert!(
                which.contains("chooser::") || which.contains("geometry::"),
                "{rule}: {which}"
            );
        }
        // a distance rule takes its per-square table only for many runs of a board
        for rule in [
            Rule::ROTH,
            Rule::RothOriginal,
            Rule::RothHalfUp,
            Rule::CENTER,
        ] {
            let one = with_chooser(rule, &layout, &mut tables, 1, Which);
            let many = with_chooser(rule, &layout, &mut tables, TABLE_RUNS, Which);
            assert!(one.contains("geometry::Distance"), "{rule}: {one}");
            assert!(many.contains("geometry::Geometry"), "{rule}: {many}");
        }
    }
}
