//! The spec file as written: the TOML keys of an experiment and their values, before validation
//! (`spec` turns it into a [`crate::experiment::Spec`]). Kept as written because `meta.json`
//! records it and `--resume` and `merge` compare it. Values that TOML can give in several shapes
//! are deserialized by hand, so that a wrong one is named with what was expected. The keys' defaults
//! are constants listed in one table ([`spec_keys`]), which `sweep --help` and the README print.

use serde::{Deserialize, Serialize};

/// Board sizes: a list, a range string `"A..=B"` (optionally `"A..=B step S"`), or `{from, to, step}`.
/// Deserialized by hand: an untagged enum would accept a table with misspelt keys (its variant
/// cannot deny unknown fields) and say only "did not match any variant" for a bad value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Sizes {
    /// Explicit sizes.
    List(Vec<u32>),
    /// `"5..=64"`, `"5..64"`, `"10..=100 step 10"`.
    Range(String),
    /// `{ from = 5, to = 64, step = 1 }` (inclusive).
    Table {
        /// First size.
        from: u32,
        /// Last size (inclusive).
        to: u32,
        /// Step (default 1).
        #[serde(default = "one")]
        step: u32,
    },
}

fn one() -> u32 {
    1
}

/// The table form of [`Sizes`], which rejects unknown keys.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SizesTable {
    from: u32,
    to: u32,
    #[serde(default = "one")]
    step: u32,
}

impl<'de> Deserialize<'de> for Sizes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Sizes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list like [8, 10], a range like \"5..=64\" or a table { from = 5, to = 64, step = 1 }")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Sizes, E> {
                Ok(Sizes::Range(s.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Sizes, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Sizes::List)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Sizes, A::Error> {
                let t = SizesTable::deserialize(MapAccessDeserializer::new(map))?;
                Ok(Sizes::Table {
                    from: t.from,
                    to: t.to,
                    step: t.step,
                })
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// Rectangular boards: a list whose entries are `[rows, cols]` or ranges of both sides
/// (`"10..=50:2 x 10..=50"`), or one such range alone. Deserialized by hand, as [`Sizes`] is, so
/// that a bad value is named with what was expected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Boards {
    /// `"ROWS x COLS"`, each side a size or a range: every board of the two ranges, rows outer.
    Range(String),
    /// Boards and ranges of boards, in order.
    List(Vec<BoardEntry>),
}

/// One entry of a [`Boards`] list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum BoardEntry {
    /// `[rows, cols]`.
    Board([u32; 2]),
    /// `"ROWS x COLS"` with ranges, as [`Boards::Range`].
    Range(String),
}

impl<'de> Deserialize<'de> for BoardEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::SeqAccessDeserializer;
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = BoardEntry;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a board [rows, cols] or a range of boards like \"10..=50 x 10..=50\"")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<BoardEntry, E> {
                Ok(BoardEntry::Range(s.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<BoardEntry, A::Error> {
                <[u32; 2]>::deserialize(SeqAccessDeserializer::new(seq)).map(BoardEntry::Board)
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl<'de> Deserialize<'de> for Boards {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::SeqAccessDeserializer;
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Boards;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a list like [[5, 6], [8, 10]] or a range of boards like \"10..=50 x 10..=50\"",
                )
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Boards, E> {
                Ok(Boards::Range(s.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Boards, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Boards::List)
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// Start squares: `"all"`, `"corner"`, `"corners"`, `"edges"` (one of each orbit of the edge
/// squares), `"sample:K"`, or a list of `[row, col]`.
/// Deserialized by hand, as [`Sizes`] is, so that a bad value is named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Starts {
    /// A keyword.
    Keyword(String),
    /// Explicit squares (must lie on every board of the sweep).
    List(Vec<[u32; 2]>),
}

impl<'de> Deserialize<'de> for Starts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::SeqAccessDeserializer;
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Starts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"all\", \"corner\", \"corners\", \"sample:K\" or a list of squares like [[0, 0], [2, 3]]")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Starts, E> {
                Ok(Starts::Keyword(s.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Starts, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Starts::List)
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// What to write per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RecordLevel {
    /// Only `summary.csv` (one row per board x rule x method).
    #[default]
    Summary,
    /// Also `runs.csv` (one row per run).
    Runs,
}

/// The experiment file as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// Name; the default output folder is `results/<name>/`.
    pub name: String,
    /// Square board sizes (n x n).
    #[serde(default)]
    pub sizes: Option<Sizes>,
    /// Rectangular boards: `[rows, cols]` entries, ranges of both sides, or one range.
    #[serde(default)]
    pub boards: Option<Boards>,
    /// Start squares (default `"all"`).
    #[serde(default = "all_starts")]
    pub starts: Starts,
    /// Tie-break rules; `order:*` expands to all 40,320 orderings.
    #[serde(default = "first_rule")]
    pub rules: Vec<String>,
    /// Solvers (default `["warnsdorff"]`).
    #[serde(default = "warnsdorff_method")]
    pub methods: Vec<String>,
    /// Closed tours only.
    #[serde(default)]
    pub closed: bool,
    /// Runs per start for random rules (deterministic rules run once).
    #[serde(default = "default_trials")]
    pub trials: u32,
    /// Experiment seed; each run's seed is derived from it (see `ktour::experiment::run_seed`).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Node budget per backtracking run: a number (0 = unlimited) or `"K*squares"` (K times the
    /// board's squares, so the budget scales with the board).
    #[serde(default = "default_budget")]
    pub budget: BudgetSpec,
    /// `summary` or `runs`.
    #[serde(default)]
    pub record: RecordLevel,
    /// Attempts per run at most: the rules of a sequence `a|b|c` in turn, each with its own seed,
    /// until one succeeds (default: the rules in the sequence, so one for a single rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    /// How closed pure-Warnsdorff runs close: `check` or `start-last`.
    #[serde(
        default = "default_closing",
        skip_serializing_if = "is_default_closing"
    )]
    pub closing: String,
    /// Whether `backtrack` prunes stranded squares.
    #[serde(default = "default_prune", skip_serializing_if = "is_default_prune")]
    pub prune: bool,
    /// The leaper, `"A,B"` or a name (`camel`, `zebra`, `giraffe`); the knight when absent
    /// (`docs/REFERENCE.md`, section 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaper: Option<String>,
    /// Holes, drawn in the spec itself: one line a row, `.` a square, `#` a hole. The mask is the
    /// sweep's one board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<String>,
}

/// Starts of a spec without `starts`.
pub const DEFAULT_STARTS: &str = "all";
/// The rule of a spec without `rules`: `solve`'s default rule.
pub const DEFAULT_RULE: &str = "first";
/// The method of a spec without `methods`.
pub const DEFAULT_METHOD: &str = "warnsdorff";
/// Trials of a spec without `trials`.
pub const DEFAULT_TRIALS: u32 = 1;
/// Seed of a spec without `seed`: `solve`'s default seed.
pub const DEFAULT_SEED: u64 = 0;
/// Node budget per search of a spec without `budget`. Lower than `solve`'s 10^8: a sweep runs a
/// search from every start it lists, and each search that fails runs to its budget.
pub const DEFAULT_BUDGET: u64 = 100_000;
/// Node budget of `ktour solve` without `--budget`, which [`DEFAULT_BUDGET`] is compared with.
pub const SOLVE_BUDGET: u64 = 100_000_000;

/// Closing of a spec without `closing`.
pub const DEFAULT_CLOSING: &str = "check";

fn default_closing() -> String {
    DEFAULT_CLOSING.into()
}
fn is_default_closing(c: &str) -> bool {
    c == DEFAULT_CLOSING
}
fn default_prune() -> bool {
    true
}
fn is_default_prune(p: &bool) -> bool {
    *p
}
fn all_starts() -> Starts {
    Starts::Keyword(DEFAULT_STARTS.into())
}
fn first_rule() -> Vec<String> {
    vec![DEFAULT_RULE.into()]
}
fn warnsdorff_method() -> Vec<String> {
    vec![DEFAULT_METHOD.into()]
}
fn default_trials() -> u32 {
    DEFAULT_TRIALS
}
fn default_seed() -> u64 {
    DEFAULT_SEED
}
fn default_budget() -> BudgetSpec {
    BudgetSpec::Nodes(DEFAULT_BUDGET)
}

/// One key of a spec: its default and how it compares with `ktour solve`'s. [`spec_keys`] is the
/// table that `ktour sweep --help` and the README print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecKey {
    /// The key, also the name of `sweep`'s flag.
    pub key: &'static str,
    /// What a spec without the key runs, as TOML; `None` where the key has no default.
    pub default: Option<String>,
    /// Where there is no default: what a spec without the key does.
    pub without: &'static str,
    /// `solve`'s default where it has the setting, and why the two differ where they do.
    pub solve: &'static str,
}

/// Every key of a spec with its default, in the order of [`SpecFile`]'s fields.
pub fn spec_keys() -> Vec<SpecKey> {
    let key = |key, default: Option<String>, without, solve| SpecKey {
        key,
        default,
        without,
        solve,
    };
    let list = |v: &str| Some(format!("[\"{v}\"]"));
    vec![
        key("name", None, "required in a file; from flags alone `adhoc-` and a checksum of the settings", "-"),
        key("sizes", None, "`sizes` or `boards` is required", "-"),
        key(
            "boards",
            None,
            "none (boards are added to `sizes`): `[[5, 6], [8, 10]]`, or every board of two ranges of sides, `\"10..=50 x 10..=50\"` (a step: `10..=50:2`), alone or in the list",
            "-",
        ),
        key("starts", Some(format!("\"{DEFAULT_STARTS}\"")), "", "one start, `--start 0,0`"),
        key("rules", list(DEFAULT_RULE), "", "the same, `first`"),
        key("methods", list(DEFAULT_METHOD), "", "`auto`, which is no method of a sweep"),
        key("closed", Some("false".into()), "", "the same, open"),
        key("trials", Some(DEFAULT_TRIALS.to_string()), "", "-"),
        key("seed", Some(DEFAULT_SEED.to_string()), "", "the same, 0"),
        key(
            "budget",
            Some(DEFAULT_BUDGET.to_string()),
            "",
            "10^8: one run may take long, but a sweep runs a search from every start and each failure runs to its budget",
        ),
        key("record", Some("\"summary\"".into()), "", "-"),
        key(
            "attempts",
            None,
            "the rules of the sequence (one for a single rule)",
            "the same, `--attempts`",
        ),
        key(
            "closing",
            Some(format!("\"{DEFAULT_CLOSING}\"")),
            "",
            "the same, `--start-last` for \"start-last\"",
        ),
        key("prune", Some("true".into()), "", "the same, `--no-prune` for false"),
        key(
            "leaper",
            None,
            "the knight; `\"2,3\"` or a name (`camel`, `zebra`, `giraffe`) for another (a, b) leaper",
            "the same, `--leaper`",
        ),
        key(
            "mask",
            None,
            "no holes; the board drawn in the spec, a line a row, `.` a square and `#` a hole: the sweep's one board",
            "`--mask FILE`",
        ),
    ]
}

/// [`spec_keys`] as the Markdown table of the README.
pub fn spec_keys_markdown() -> String {
    let mut s = String::from("| key | default | `solve`'s default |\n|---|---|---|\n");
    for k in spec_keys() {
        let default = k
            .default
            .map_or(k.without.to_string(), |d| format!("`{d}`"));
        s.push_str(&format!("| `{}` | {default} | {} |\n", k.key, k.solve));
    }
    s
}

/// [`spec_keys`] as plain text, for `ktour sweep --help`.
pub fn spec_keys_text() -> String {
    let mut s = String::from(
        "Spec keys (each also a flag), their defaults, and `solve`'s where it differs:\n",
    );
    for k in spec_keys() {
        let default = k.default.unwrap_or_else(|| k.without.replace('`', ""));
        s.push_str(&format!("  {:<8} {default}\n", k.key));
        if !matches!(k.solve, "-") && !k.solve.starts_with("the same") {
            s.push_str(&format!(
                "  {:<8}   solve: {}\n",
                "",
                k.solve.replace('`', "")
            ));
        }
    }
    s
}

/// A node budget as written in a spec. Deserialized by hand, as [`Sizes`] is, so that a bad value
/// (a negative or fractional budget) is named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum BudgetSpec {
    /// Absolute nodes (0 = unlimited).
    Nodes(u64),
    /// `"K*squares"`.
    Relative(String),
}

impl<'de> Deserialize<'de> for BudgetSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = BudgetSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a whole number of nodes like 100000 (0 = unlimited) or \"K*squares\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<BudgetSpec, E> {
                Ok(BudgetSpec::Nodes(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<BudgetSpec, E> {
                u64::try_from(v)
                    .map(BudgetSpec::Nodes)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<BudgetSpec, E> {
                Ok(BudgetSpec::Relative(s.to_string()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each default of the table is what a spec without its key runs: written out, it changes
    /// nothing.
    #[test]
    fn the_defaults_table_is_what_a_spec_without_the_key_runs() {
        let minimal = "name = \"a\"\nsizes = [8]\n";
        let bare: SpecFile = toml::from_str(minimal).unwrap();
        let keys = spec_keys();
        // every key of the file is in the table, and nothing else
        let full: SpecFile = toml::from_str(&format!(
            "{minimal}boards = [[5, 6]]\nattempts = 2\nclosing = \"start-last\"\nprune = false\nleaper = \"zebra\"\nmask = \".\""
        ))
        .unwrap();
        let mut fields: Vec<String> = toml::Table::try_from(&full)
            .unwrap()
            .keys()
            .cloned()
            .collect();
        let mut listed: Vec<String> = keys.iter().map(|k| k.key.to_string()).collect();
        fields.sort();
        listed.sort();
        assert_eq!(fields, listed);
        let mut with_defaults = 0;
        for k in keys {
            let Some(default) = k.default else { continue };
            let written: SpecFile =
                toml::from_str(&format!("{minimal}{} = {default}\n", k.key)).unwrap();
            assert_eq!(written, bare, "{}", k.key);
            with_defaults += 1;
        }
        assert_eq!(with_defaults, 10);
    }
}
