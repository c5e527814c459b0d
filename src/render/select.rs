//! Which rules and methods a plot or a start-square map shows: the `--rules` and `--methods` lists
//! of `ktour plot`, checked against the names the file holds, so that a misspelt name is an error
//! that lists the names there rather than a silently empty picture.

use std::collections::BTreeSet;

/// Rules and methods to keep; `None` keeps all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Rule names, as the CSV writes them (`first`, `order:12345678`).
    pub rules: Option<Vec<String>>,
    /// Method names (`warnsdorff`, `backtrack`).
    pub methods: Option<Vec<String>>,
}

/// A filter names something the file does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no {what} {name:?} in the file; its {what}s: {}", present.join(", "))]
pub struct UnknownName {
    /// `rule` or `method`.
    pub what: &'static str,
    /// The name asked for.
    pub name: String,
    /// The names the file holds, in first-seen order.
    pub present: Vec<String>,
}

impl Filter {
    /// Check every name of the filter against the (rule, method) pairs of the file, in file order.
    pub fn check<'a>(
        &self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), UnknownName> {
        let mut rules = Vec::new();
        let mut methods = Vec::new();
        for (rule, method) in pairs {
            if !rules.iter().any(|r| r == rule) {
                rules.push(rule.to_string());
            }
            if !methods.iter().any(|m| m == method) {
                methods.push(method.to_string());
            }
        }
        for (what, wanted, present) in [
            ("rule", &self.rules, rules),
            ("method", &self.methods, methods),
        ] {
            let Some(wanted) = wanted else { continue };
            let known: BTreeSet<&str> = present.iter().map(String::as_str).collect();
            if let Some(name) = wanted.iter().find(|n| !known.contains(n.as_str())) {
                return Err(UnknownName {
                    what,
                    name: name.clone(),
                    present,
                });
            }
        }
        Ok(())
    }

    /// Whether a row of this rule and method is shown.
    pub fn keeps(&self, rule: &str, method: &str) -> bool {
        let ok = |list: &Option<Vec<String>>, name: &str| match list {
            Some(l) => l.iter().any(|n| n == name),
            None => true,
        };
        ok(&self.rules, rule) && ok(&self.methods, method)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Option<Vec<String>> {
        Some(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn unknown_names_are_refused_with_the_names_present() {
        let pairs = [
            ("first", "warnsdorff"),
            ("roth", "warnsdorff"),
            ("first", "backtrack"),
        ];
        let filter = Filter {
            rules: names(&["roth", "frist"]),
            methods: None,
        };
        let err = filter.check(pairs).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no rule \"frist\" in the file; its rules: first, roth"
        );
        let filter = Filter {
            rules: None,
            methods: names(&["rotate"]),
        };
        assert_eq!(
            filter.check(pairs).unwrap_err().present,
            ["warnsdorff", "backtrack"]
        );
        assert!(Filter::default().check(pairs).is_ok());
    }

    #[test]
    fn keeps_only_what_both_lists_name() {
        let filter = Filter {
            rules: names(&["first", "roth"]),
            methods: names(&["backtrack"]),
        };
        assert!(filter.keeps("first", "backtrack"));
        assert!(!filter.keeps("first", "warnsdorff"));
        assert!(!filter.keeps("pohl", "backtrack"));
        assert!(Filter::default().keeps("anything", "any"));
    }
}
