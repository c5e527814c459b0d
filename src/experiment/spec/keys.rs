//! The one table of a spec's keys: per key its name, Rust type, default, help, flag and validator.
//! From it come [`SpecFile`] and its reading (`file.rs`), the flags of `ktour sweep` and their
//! `--help` (`flags.rs`, `cli/sweep.rs`), `--print-spec`, the defaults `sweep --help` lists and the
//! keys' table of `docs/experiments.md` (`doc.rs`). A new key is its line here and its validator
//! in `validate.rs`; the order of the lines is the order keys are written and validated (a key's
//! validator may read the keys above it, validated).

use super::file::{spec_keys, BudgetSpec, KeyError, RecordLevel, Sizes};
use super::flag_values as flag;
use super::flags::Flag;
use super::starts::StartSet;
use super::validate as check;
use super::Spec;

/// One key of a spec.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The key.
    pub name: &'static str,
    /// What it sets (its line's doc comment; also the field's doc and the flag's help).
    pub help: &'static str,
    /// Whether a TOML value reads as the key's type, and if not why (from the line's type).
    pub read: fn(toml::Value) -> Result<(), String>,
    /// What a spec without the key runs, as TOML; `None` where there is no default value.
    pub default: Option<&'static str>,
    /// What a spec without the key does where [`Key::default`] is `None` (or why it is required).
    pub absent: &'static str,
    /// Whether a written spec leaves the key out at its default (keys added after results were
    /// recorded: their `meta.json` stays as it was).
    pub omit_default: bool,
    /// `ktour solve`'s setting where it has one, and why the two differ where they do.
    pub solve: &'static str,
    /// The key as a flag of `ktour sweep`.
    pub flag: Flag,
    /// The validator: checks the key's value in `spec.file` and sets what it validates in `spec`.
    pub check: fn(&mut Spec) -> Result<(), KeyError>,
}

impl Key {
    /// What every line leaves as it is unless it says otherwise.
    const BASE: Key = Key {
        name: "",
        help: "",
        read: |_| Ok(()),
        default: None,
        absent: "",
        omit_default: false,
        solve: "-",
        flag: Flag::value("VALUE", "", flag::text),
        check: |_| Ok(()),
    };

    /// The key named `name`, if there is one.
    pub fn named(name: &str) -> Option<&'static Key> {
        KEYS.iter().find(|k| k.name == name)
    }

    /// The key's default as a TOML value.
    pub fn default_value(&self) -> Option<toml::Value> {
        self.default.map(super::file::toml_value)
    }
}

spec_keys! {
    /// Name of the sweep and of its output folder (letters, digits, '-', '_' and '.').
    name: String = Key {
        absent: "required in a file; from flags alone, a name made of the flags and a checksum of the settings",
        flag: Flag::value("NAME", "a folder name", flag::text),
        check: check::name,
        ..Key::BASE
    };
    /// Square boards n x n.
    sizes: Option<Sizes> = Key {
        absent: "none; `sizes`, `boards` or `mask` gives the boards, and one is required",
        flag: Flag::value("SIZES", "8, 8,10,12, 5..=64, \"10..=200 step 10\" or a TOML value", flag::sizes),
        check: check::sizes,
        ..Key::BASE
    };
    /// Rectangular boards, added to the sizes: [rows, cols] entries, or every board of two ranges
    /// of sides, "ROWS x COLS", each side a size, A..=B or A..B, a step as A..=B:S.
    boards: Option<super::file::Boards> = Key {
        absent: "none; e.g. `[[5, 6], [8, 10]]`, `\"10..=50 x 10..=50\"`, or both in a list",
        flag: Flag::value("BOARDS", "5x6,8x10, \"10..=50 x 10..=50\", both separated by commas, or a TOML value", flag::boards),
        check: check::boards,
        ..Key::BASE
    };
    /// The (a, b) leaper of every run, "A,B" with 0 < A < B <= 16, or a name (knight, camel (1,3),
    /// zebra (2,3), giraffe (1,4)); a list of them is a family of sweeps, one a leaper.
    leaper: Option<String> = Key {
        absent: "the knight",
        omit_default: true,
        solve: "the same, `--leaper`",
        flag: Flag::value("A,B", "A,B or a name; several, camel,zebra, make a family", flag::leapers),
        check: check::leaper,
        ..Key::BASE
    };
    /// Holes: the board drawn in the spec, a line a row, '.' a square and '#' a hole; it is the
    /// sweep's one board. A list of them is a family of sweeps, one a mask.
    mask: Option<String> = Key {
        absent: "no holes",
        omit_default: true,
        solve: "`--mask FILE`",
        flag: Flag::file("FILE", "a text file, its text the key's; again for a family"),
        check: check::mask,
        ..Key::BASE
    };
    /// Start squares of each board: all, corner, corners, edges (one square of each orbit of the
    /// edge squares), sample:K (K distinct squares drawn from the seed), or [row, col] squares.
    starts: StartSet = Key {
        default: Some("\"all\""),
        solve: "one start, `--start 0,0`",
        flag: Flag::value("STARTS", "a keyword, squares ROW,COL separated by ';' (0,0;1,2) or a TOML value", flag::starts),
        check: check::starts,
        ..Key::BASE
    };
    /// Tie-break rules; order:* is all 40,320 orderings, a|b|c tries rules in turn, NAME=RULES
    /// names one in the CSV files.
    rules: Vec<String> = Key {
        default: Some("[\"first\"]"),
        solve: "the same, `first`",
        flag: Flag::value("RULES", "names separated by commas (first,roth,pohl+random)", flag::names),
        check: check::rules,
        ..Key::BASE
    };
    /// Methods: warnsdorff, backtrack, naive, rotate.
    methods: Vec<String> = Key {
        default: Some("[\"warnsdorff\"]"),
        solve: "`auto`, which is no method of a sweep",
        flag: Flag::value("METHODS", "names separated by commas", flag::names),
        check: check::methods,
        ..Key::BASE
    };
    /// Closed tours only.
    closed: bool = Key {
        default: Some("false"),
        solve: "the same, open",
        flag: Flag::bool("--closed=false turns off a spec file's closed = true"),
        ..Key::BASE
    };
    /// Runs per start of a random rule (deterministic rules run once).
    trials: u32 = Key {
        default: Some("1"),
        flag: Flag::value("N", "a number", flag::integer),
        check: check::trials,
        ..Key::BASE
    };
    /// Experiment seed; each run's seed is derived from it.
    seed: u64 = Key {
        default: Some("0"),
        solve: "the same, 0",
        flag: Flag::value("SEED", "a number", flag::integer),
        ..Key::BASE
    };
    /// Node budget of each search: a number (0 = unlimited) or "K*squares" (K times the board's
    /// squares).
    budget: BudgetSpec = Key {
        default: Some("100000"),
        solve: "10^8: one run may take long, but a sweep runs a search from every start and each failure runs to its budget",
        flag: Flag::value("BUDGET", "nodes or K*squares", flag::budget),
        check: check::budget,
        ..Key::BASE
    };
    /// What to write: summary (summary.csv, a row per board x rule x method), or runs (also
    /// runs.csv, a row per run, which `ktour failures` reads).
    record: RecordLevel = Key {
        default: Some("\"summary\""),
        flag: Flag::value("RECORD", "summary or runs", flag::text),
        ..Key::BASE
    };
    /// Attempts per run at most: the rules of a sequence a|b|c in turn, each with its own seed,
    /// until one succeeds.
    attempts: Option<u32> = Key {
        absent: "the rules of the sequence (one for a single rule)",
        omit_default: true,
        solve: "the same, `--attempts`",
        flag: Flag::value("N", "a number", flag::integer),
        check: check::attempts,
        ..Key::BASE
    };
    /// How closed pure-Warnsdorff runs close: check, or start-last (the start kept for last).
    closing: String = Key {
        default: Some("\"check\""),
        omit_default: true,
        solve: "the same, `--start-last` for \"start-last\"",
        flag: Flag::switch("start-last", "closing = \"start-last\"", flag::start_last),
        check: check::closing,
        ..Key::BASE
    };
    /// Whether backtrack prunes stranded squares.
    prune: bool = Key {
        default: Some("true"),
        omit_default: true,
        solve: "the same, `--no-prune` for false",
        flag: Flag::switch("no-prune", "prune = false", flag::no),
        check: check::prune,
        ..Key::BASE
    };
}

/// The default node budget of a sweep's searches. Lower than `solve`'s [`SOLVE_BUDGET`]: a sweep
/// runs a search from every start it lists, and each search that fails runs to its budget. The
/// table's default of `budget` (a test holds the two equal).
pub const DEFAULT_BUDGET: u64 = 100_000;
/// Node budget of `ktour solve` without `--budget`, which [`DEFAULT_BUDGET`] is compared with.
pub const SOLVE_BUDGET: u64 = 100_000_000;
/// The default seed, `solve`'s too: the table's default of `seed` (a test holds the two equal).
pub const DEFAULT_SEED: u64 = 0;

#[cfg(test)]
mod tests {
    use super::*;

    /// Each default of the table reads as its key's type and is what a spec without the key
    /// runs: written out, it changes nothing; the constants are the table's.
    #[test]
    fn the_defaults_are_what_a_spec_without_the_key_runs() {
        let minimal = "name = \"a\"\nsizes = [8]\n";
        let bare = Spec::from_toml(minimal, "t").unwrap();
        let mut with_defaults = 0;
        for k in KEYS {
            let Some(default) = k.default else { continue };
            (k.read)(k.default_value().unwrap()).unwrap();
            let written = Spec::from_toml(&format!("{minimal}{} = {default}\n", k.name), "t");
            assert_eq!(written.unwrap(), bare, "{}", k.name);
            with_defaults += 1;
        }
        assert_eq!(with_defaults, 10);
        let default = |name| Key::named(name).unwrap().default_value();
        assert_eq!(
            default("budget"),
            Some(toml::Value::Integer(DEFAULT_BUDGET as i64))
        );
        assert_eq!(
            default("seed"),
            Some(toml::Value::Integer(DEFAULT_SEED as i64))
        );
    }

    /// The spec of every committed result (`results/**/meta.json`) reads, and written again it is
    /// the JSON it was: results recorded before the table resume and merge as before.
    #[test]
    fn committed_results_specs_read_and_write_as_they_were() {
        let mut dirs = vec![std::path::PathBuf::from("results")];
        let mut seen = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.file_name().is_some_and(|n| n == "meta.json") {
                    let meta: serde_json::Value =
                        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                    let file: SpecFile = serde_json::from_value(meta["spec"].clone()).unwrap();
                    assert_eq!(
                        serde_json::to_value(&file).unwrap(),
                        meta["spec"],
                        "{path:?}"
                    );
                    seen += 1;
                }
            }
        }
        assert!(seen >= 20, "{seen}");
    }

    /// Every key has a help line and a flag of its own.
    #[test]
    fn every_key_has_help_and_a_flag_of_its_own() {
        let mut longs = std::collections::HashSet::new();
        for k in KEYS {
            assert!(!k.help.trim().is_empty(), "{}", k.name);
            assert!(longs.insert(k.flag_long()), "{}", k.name);
        }
    }
}
