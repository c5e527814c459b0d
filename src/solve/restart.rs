//! Restarts (`docs/REFERENCE.md`, "Restarts"): a run may make up to K attempts, the rules of a
//! sequence `a|b|c` tried in turn, each attempt with its own seed derived from the run's, stopping at
//! the first success (a closed tour when one is asked). One mechanism serves both published uses:
//! the GeeksforGeeks program restarts its random Warnsdorff until the tour closes, and Squirrel &
//! Cull (1996) try 19 orderings in sequence until one gives a tour.

use super::rules::split_outside_parens;
use super::{Request, Rule, RuleError, RunSummary, SolveError, Solver};
use crate::util::splitmix::{mix64, GOLDEN_GAMMA};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// Rules tried in turn: one rule, or several written `a|b|c`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleSeq {
    /// One rule (every sweep of the first wave).
    One(Rule),
    /// Two or more rules, in the order they are tried.
    Many(Arc<[Rule]>),
}

impl RuleSeq {
    /// The ordering, if the sequence is one rule that is one fixed order and nothing else
    /// ([`Rule::fixed_order`]: `first`, `order:*`).
    pub fn fixed_order(&self) -> Option<super::rules::LabelOrder> {
        match self {
            RuleSeq::One(r) => r.fixed_order(),
            RuleSeq::Many(_) => None,
        }
    }

    /// Its name (as [`fmt::Display`] writes it), appended to `out`; a fixed order's directly.
    pub fn write_name(&self, out: &mut String) {
        match self.fixed_order() {
            Some(o) => super::rules::push_order_name(o, out),
            None => {
                use fmt::Write;
                let _ = write!(out, "{self}");
            }
        }
    }

    /// The rules, in order.
    pub fn rules(&self) -> &[Rule] {
        match self {
            RuleSeq::One(r) => std::slice::from_ref(r),
            RuleSeq::Many(v) => v,
        }
    }

    /// The first rule: the one a single attempt uses.
    pub fn first(&self) -> Rule {
        self.rules()[0]
    }

    /// Whether some rule of the sequence reads the PRNG.
    pub fn is_random(&self) -> bool {
        self.rules().iter().any(|r| r.is_random())
    }

    /// Every rule of the sequence mirrored ([`Rule::mirrored`]), or `None` if one does not map.
    pub fn mirrored(&self, labels: &[u8; 8]) -> Option<RuleSeq> {
        Some(match self {
            RuleSeq::One(r) => RuleSeq::One(r.mirrored(labels)?),
            RuleSeq::Many(v) => RuleSeq::Many(
                v.iter()
                    .map(|r| r.mirrored(labels))
                    .collect::<Option<Vec<Rule>>>()?
                    .into(),
            ),
        })
    }

    /// The rule of attempt `i` (0-based): the sequence in turn, again from its start once it is done.
    pub fn of_attempt(&self, i: u32) -> Rule {
        let rules = self.rules();
        rules[i as usize % rules.len()]
    }
}

impl From<Rule> for RuleSeq {
    fn from(r: Rule) -> Self {
        RuleSeq::One(r)
    }
}

impl FromStr for RuleSeq {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Self, RuleError> {
        let rules = split_outside_parens(s, '|')
            .into_iter()
            .map(str::parse)
            .collect::<Result<Vec<Rule>, _>>()?;
        if rules.len() > 1 && rules.contains(&Rule::Squirrel) {
            return Err(RuleError::Malformed(
                s.trim().to_string(),
                "squirrel runs from the corner of n x n boards only and takes no place in a sequence",
            ));
        }
        Ok(match rules.as_slice() {
            [one] => RuleSeq::One(*one),
            _ => RuleSeq::Many(rules.into()),
        })
    }
}

impl fmt::Display for RuleSeq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.rules().iter().enumerate() {
            if i > 0 {
                f.write_str("|")?;
            }
            r.fmt(f)?;
        }
        Ok(())
    }
}

/// The seed of attempt `i` of a run seeded `seed`: the run's own for the first attempt (so that one
/// attempt is exactly the run without restarts), then SplitMix64 (Steele, Lea & Flood 2014) of the
/// seed and the attempt, a fresh stream for each.
pub fn attempt_seed(seed: u64, i: u32) -> u64 {
    if i == 0 {
        return seed;
    }
    // the state of SplitMix64's `i`-th step, with the seed xored in rather than added
    mix64(seed ^ u64::from(i).wrapping_mul(GOLDEN_GAMMA))
}

/// How a run with restarts ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempted {
    /// The last attempt's summary (the successful one, if any). Its `elapsed_ns` is the time of
    /// every attempt; its other counters are the last attempt's.
    pub summary: RunSummary,
    /// Attempts made, 1-based: the successful one, or the limit.
    pub attempts: u32,
    /// The request of the last attempt (its rule and seed), which `solve` replays alone.
    pub last: Request,
}

impl Solver {
    /// Run `req` with the rules of `seq` in turn, up to `limit` attempts (at least one), each with
    /// [`attempt_seed`]; stop at the first that finds a tour, or as soon as the theorems say none
    /// exists. The path of the last attempt stays in the solver.
    pub fn run_attempts(
        &mut self,
        req: &Request,
        seq: &RuleSeq,
        limit: u32,
    ) -> Result<Attempted, SolveError> {
        let mut elapsed = 0;
        let mut i = 0;
        loop {
            let last = Request {
                rule: seq.of_attempt(i),
                seed: attempt_seed(req.seed, i),
                ..*req
            };
            let mut summary = self.run(&last)?;
            elapsed += summary.stats.elapsed_ns;
            i += 1;
            let settled = matches!(
                summary.outcome,
                super::Outcome::Found | super::Outcome::Impossible(_)
            );
            if settled || i >= limit.max(1) {
                summary.stats.elapsed_ns = elapsed;
                summary.attempts = i;
                return Ok(Attempted {
                    summary,
                    attempts: i,
                    last,
                });
            }
        }
    }
}

impl Solver {
    /// [`Solver::run_attempts`] with the path: the last attempt's solution (its request is that
    /// attempt's, so its rule and seed replay it alone) and the attempts made.
    pub fn solve_attempts(
        &mut self,
        req: &Request,
        seq: &RuleSeq,
        limit: u32,
    ) -> Result<(super::Solution, u32), SolveError> {
        let a = self.run_attempts(req, seq, limit)?;
        Ok((self.solution(&a.last, a.summary), a.attempts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fixed order's name, and other rules', as `write_name` writes it and as `Display` does.
    #[test]
    fn names_written_directly_are_the_displayed_names() {
        let others = [
            "pohl",
            "random",
            "roth+order:87654321",
            "gfg",
            "first|pohl",
            "squirrel",
        ];
        let orders = crate::solve::rules::LabelOrder::all().map(|o| RuleSeq::One(Rule::order(o)));
        let others = others.iter().map(|r| r.parse::<RuleSeq>().unwrap());
        let mut name = String::from("x");
        for rule in orders.chain(others) {
            name.truncate(1);
            rule.write_name(&mut name);
            assert_eq!(name[1..], rule.to_string());
        }
    }

    #[test]
    fn sequences_round_trip_and_refuse_squirrel_inside() {
        let seq: RuleSeq =
            "order:12345678|pohl+random|order:(2,1)(2,-1)(1,2)(1,-2)(-1,2)(-1,-2)(-2,1)(-2,-1)"
                .parse()
                .unwrap();
        assert_eq!(seq.to_string(), "first|pohl+random|order:45362718");
        assert_eq!(seq.to_string().parse::<RuleSeq>().unwrap(), seq);
        assert!(seq.is_random());
        assert_eq!(seq.of_attempt(4), "pohl+random".parse().unwrap());
        assert_eq!("pohl".parse::<RuleSeq>().unwrap(), RuleSeq::One(Rule::POHL));
        assert!("first|squirrel".parse::<RuleSeq>().is_err());
        assert!("first||pohl".parse::<RuleSeq>().is_err());
    }

    #[test]
    fn attempt_seeds_are_those_already_written() {
        // computed apart from this code (a few lines of Python) from the formula before it moved
        // to `util::splitmix`: a change would replay restarted runs differently
        assert_eq!(attempt_seed(0, 1), 16294208416658607535);
        assert_eq!(attempt_seed(0, 2), 7960286522194355700);
        assert_eq!(attempt_seed(17619342105541713647, 1), 5237550715179540333);
        assert_eq!(attempt_seed(17619342105541713647, 7), 268502599659657229);
        // seeded 0, the attempts are SplitMix64's own stream from 0
        let mut g = crate::util::splitmix::SplitMix64::new(0);
        for i in 1..10 {
            assert_eq!(attempt_seed(0, i), g.next());
        }
    }

    #[test]
    fn attempt_seeds_differ_and_the_first_is_the_runs() {
        assert_eq!(attempt_seed(42, 0), 42);
        let seeds: std::collections::HashSet<u64> =
            (0..1000).map(|i| attempt_seed(42, i)).collect();
        assert_eq!(seeds.len(), 1000);
    }
}
