//! The spec stage: an experiment spec, a TOML file naming boards, starts, rules, methods and how
//! to record them, read and validated into a [`Spec`] that the plan numbers. Its keys are one
//! table (`keys.rs`), which makes the file's fields (`file.rs`), the flags (`flags.rs`), the
//! validators (`validate.rs`) and the docs (`doc.rs`); a spec with lists of leapers or masks is a
//! family (`family.rs`); `size.rs` counts a plan without building it. Unknown keys are rejected
//! with the key named; every error names the file and the key.

mod boards;
pub(crate) mod doc;
pub(crate) mod family;
pub(crate) mod file;
mod flag_values;
pub(crate) mod flags;
pub(crate) mod keys;
pub(crate) mod size;
mod starts;
mod validate;

pub use file::KeyError;
pub use keys::{Key, SpecFile, KEYS};
pub use starts::StartSet;

use crate::board::{Board, Leaper, Shape, Square};
use crate::solve::{Closing, Method, RuleSeq};
use size::PlanSize;
use std::path::Path;
use std::sync::Arc;

/// The built-in default experiment (`ktour sweep` with no argument), also `experiments/default.toml`.
pub const DEFAULT_SPEC: &str = include_str!("../../../experiments/default.toml");

/// A spec could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not valid TOML.
    #[error("{file}: {message}")]
    Toml {
        /// The file.
        file: String,
        /// The parser's message: the line and column, the line itself and what is wrong, on
        /// lines of their own.
        message: String,
    },
    /// A key whose value is not what is expected: an unknown key, a value of the wrong type, or
    /// one its validator refuses.
    #[error("{file}: key `{key}`: {message}")]
    Value {
        /// The file.
        file: String,
        /// The key.
        key: String,
        /// What is expected.
        message: String,
    },
}

/// A validated node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The same for every board (0 = unlimited).
    Nodes(u64),
    /// This many times the board's squares.
    PerSquare(u64),
}

impl Budget {
    /// The budget on `board`.
    pub fn for_board(self, board: Board) -> u64 {
        match self {
            Budget::Nodes(n) => n,
            // validation refused a product past u64 (wrapping could make it small, or 0 = unlimited)
            Budget::PerSquare(k) => k.saturating_mul(board.len() as u64),
        }
    }
}

/// A validated spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The file as written (kept for meta.json and resume checks).
    pub file: SpecFile,
    /// Boards in sweep order.
    pub boards: Vec<Board>,
    /// Start selection.
    pub starts: StartSet,
    /// Rules in sweep order (`order:*` expanded), each a rule or rules tried in turn; shared with
    /// the plan, since `order:*` is 40,320 of them (a `Vec` behind the `Arc`, which a slice would
    /// have copied).
    pub rules: Arc<Vec<RuleSeq>>,
    /// The names a spec gave rules (`NAME=a|b|c`), by their place in `rules`, in order: what the
    /// CSV files write for them instead of the whole sequence.
    pub rule_labels: Vec<(usize, String)>,
    /// Methods in sweep order.
    pub methods: Vec<Method>,
    /// Node budget of the searches.
    pub budget: Budget,
    /// Attempts per run at most (`None`: as many as each sequence has rules).
    pub attempts: Option<u32>,
    /// How closed pure-Warnsdorff runs close.
    pub closing: Closing,
    /// Whether `backtrack` prunes stranded squares.
    pub prune: bool,
    /// The leaper of every run (the knight unless the spec names another).
    pub leaper: Leaper,
    /// The mask, when the spec draws one: the sweep's one board, with its holes.
    pub mask: Option<Shape>,
}

impl Spec {
    /// The name of rule `i` in the CSV files: its label if the spec gave one, else the rule.
    pub fn rule_name(&self, i: usize) -> String {
        let mut name = String::new();
        self.write_rule_name(i, &mut name);
        name
    }

    /// [`Spec::rule_name`], appended to `out`.
    pub fn write_rule_name(&self, i: usize, out: &mut String) {
        match self.rule_labels.binary_search_by_key(&i, |(j, _)| *j) {
            Ok(k) => out.push_str(&self.rule_labels[k].1),
            Err(_) => self.rules[i].write_name(out),
        }
    }

    /// The attempts a run of `seq` makes at most.
    pub fn attempts_of(&self, seq: &RuleSeq) -> u32 {
        self.attempts.unwrap_or(seq.rules().len() as u32)
    }
}

/// Largest spec file read: specs are a few hundred bytes, and a bound keeps a pipe or device given
/// by mistake from being read forever.
pub const SPEC_LIMIT: u64 = 16 << 20;

impl Spec {
    /// Read and validate a spec file.
    pub fn from_path(path: &Path) -> Result<Spec, SpecError> {
        Spec::from_toml(&Spec::read_text(path)?, &path.display().to_string())
    }

    /// The text of a spec file, read bounded.
    pub fn read_text(path: &Path) -> Result<String, SpecError> {
        let file = path.display().to_string();
        let read = |path| -> std::io::Result<String> {
            let bytes = crate::input::read_bounded(
                path,
                SPEC_LIMIT,
                "the most a spec may be: it is a short TOML file",
                &mut crate::input::Text::default(),
            )?;
            String::from_utf8(bytes)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        };
        read(path).map_err(|source| SpecError::Read { file, source })
    }

    /// Parse and validate spec text; `file` names it in errors.
    pub fn from_toml(text: &str, file: &str) -> Result<Spec, SpecError> {
        let raw = SpecFile::from_table(parse_table(text, file)?)
            .map_err(|e| SpecError::of_key(file, e))?;
        Spec::validate(raw, file)
    }

    /// The size of this spec's plan, counted without building it; `None` past `u64`.
    pub fn plan_size(&self) -> Option<PlanSize> {
        self.plan_size_with(size::has_mirrors(&self.rules))
    }

    /// [`Spec::plan_size`], given whether some rule has another as its mirror image.
    pub(crate) fn plan_size_with(&self, mirrors: bool) -> Option<PlanSize> {
        let corner_listed = match &self.starts {
            StartSet::List(v) => v.contains(&Square::new(0, 0)),
            _ => true,
        };
        // the plan holds a listed set once and a sample per board; it finds the others
        let held_starts = match &self.starts {
            StartSet::List(v) => v.len() as u64,
            StartSet::Sample(_) => self.boards.iter().map(|&b| self.starts.count_on(b)).sum(),
            StartSet::All | StartSet::Corner | StartSet::Corners | StartSet::Edges => 0,
        };
        PlanSize::count(
            &self.boards,
            &self.rules,
            mirrors,
            self.methods.len(),
            self.file.trials,
            |board| self.starts.count_on(board),
            corner_listed,
            held_starts,
        )
    }
}

impl SpecError {
    /// The error `e` of a key of `file`.
    pub fn of_key(file: &str, e: KeyError) -> SpecError {
        SpecError::Value {
            file: file.to_string(),
            key: e.key,
            message: e.message,
        }
    }
}

/// The TOML table of spec text; `file` names it in errors, which keep the parser's lines (the
/// place, the line quoted and a mark under what is wrong).
pub(crate) fn parse_table(text: &str, file: &str) -> Result<toml::Table, SpecError> {
    toml::from_str(text).map_err(|e| SpecError::Toml {
        file: file.to_string(),
        message: e.to_string().trim_end().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::file::BudgetSpec;
    use super::*;

    fn parse(text: &str) -> Result<Spec, SpecError> {
        Spec::from_toml(text, "test.toml")
    }

    #[test]
    fn default_spec_is_valid() {
        parse(DEFAULT_SPEC).unwrap();
    }

    /// A rule or sequence may be named (`NAME=RULES`): the CSV files write the name; a name is
    /// refused where it would read as a rule, repeats, or names `order:*`.
    #[test]
    fn named_rules() {
        let s = parse(
            "name = \"a\"\nsizes = [8]\nrules = [\"pohl\", \"sc = order:87654321|roth\", \"o.1=order:12345678\"]",
        )
        .unwrap();
        let names: Vec<String> = (0..s.rules.len()).map(|i| s.rule_name(i)).collect();
        assert_eq!(names, ["pohl", "sc", "o.1"]);
        assert_eq!(s.rules[1].to_string(), "order:87654321|roth");
        for (rules, says) in [
            ("\"x=pohl\", \"x=roth\"", "given twice"),
            ("\"first=pohl|roth\"", "is itself a rule"),
            ("\"a b=pohl|roth\"", "letters, digits"),
            ("\"=pohl\"", "letters, digits"),
            ("\"all=order:*\"", "takes no name"),
            ("\"x=\"", "rules[0]"),
        ] {
            let e = parse(&format!("name = \"a\"\nsizes = [8]\nrules = [{rules}]"))
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{rules}: {e}");
        }
    }

    #[test]
    fn ranges_and_lists() {
        let s = parse("name = \"a\"\nsizes = \"5..=8\"").unwrap();
        assert_eq!(s.boards.len(), 4);
        let s = parse("name = \"a\"\nsizes = \"10..=30 step 10\"").unwrap();
        assert_eq!(
            s.boards.iter().map(|b| b.rows()).collect::<Vec<_>>(),
            [10, 20, 30]
        );
        let s = parse("name = \"a\"\nsizes = \"5..8\"\nboards = [[3, 4]]").unwrap();
        assert_eq!(s.boards.len(), 4);
        let s = parse("name = \"a\"\nsizes = { from = 6, to = 12, step = 3 }").unwrap();
        assert_eq!(s.boards.len(), 3);
        let s = parse("name = \"a\"\nsizes = [8]\nrules = [\"order:*\", \"roth\"]").unwrap();
        assert_eq!(s.rules.len(), 40_321);
    }

    /// A range of boards lists every board of its two ranges, rows outer, each side a size, a
    /// range or a range with a step; ranges and boards mix in a list, in order.
    #[test]
    fn board_ranges_list_every_board_rows_outer() {
        let sides = |s: &Spec| {
            s.boards
                .iter()
                .map(|b| (b.rows(), b.cols()))
                .collect::<Vec<_>>()
        };
        let s = parse("name = \"a\"\nboards = \"10..=12:2 x 5..7\"").unwrap();
        assert_eq!(sides(&s), [(10, 5), (10, 6), (12, 5), (12, 6)]);
        let s = parse("name = \"a\"\nboards = \"10..=20 step 5 X 7\"").unwrap();
        assert_eq!(sides(&s), [(10, 7), (15, 7), (20, 7)]);
        let s = parse("name = \"a\"\nboards = [[5, 6], \"8 x 8..=9\", [3, 4]]").unwrap();
        assert_eq!(sides(&s), [(5, 6), (8, 8), (8, 9), (3, 4)]);
        let s = parse("name = \"a\"\nboards = \"10..=50 x 10..=50\"\nstarts = \"corner\"").unwrap();
        assert_eq!(s.boards.len(), 1681);
        // sizes take the step after a colon too
        let s = parse("name = \"a\"\nsizes = \"10..=30:10\"").unwrap();
        assert_eq!(sides(&s), [(10, 10), (20, 20), (30, 30)]);
        for (boards, needle) in [
            ("\"10..=5 x 8\"", "empty range"),
            ("\"10 by 8\"", "expected boards like"),
            ("\"x\"", "expected boards like"),
            ("\"8 x\"", "expected boards like"),
            ("\"a..=b x 5\"", "expected boards like"),
            ("\"5..=8:0 x 5\"", "step must be at least 1"),
            ("\"0..=3 x 4\"", "at least 1"),
            ("\"5..=70000 x 5\"", "65535"),
            ("\"1..=65535 x 1..=65535\"", "more than memory holds"),
            ("[[5, 6], \"8 x 9..=z\"]", "boards[1]"),
            ("\"7..=8 x 8\"", "listed twice"),
        ] {
            let e = parse(&format!("name = \"a\"\nsizes = [8]\nboards = {boards}"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("`boards") && e.contains(needle) && !e.contains('\n'),
                "{boards}: {e}"
            );
        }
    }

    #[test]
    fn errors_name_the_file_and_key() {
        let e = parse("name = \"a\"\nsizes = [8]\nsizez = 3")
            .unwrap_err()
            .to_string();
        assert!(e.contains("test.toml") && e.contains("sizez"), "{e}");
        let e = parse("name = \"a\"\nsizes = [8]\nrules = [\"first\", \"nope\"]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("rules[1]") && e.contains("known rules"), "{e}");
        let e = parse("name = \"a\"\nsizes = \"8..=5\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`sizes`"), "{e}");
        let e = parse("name = \"a\"\nsizes = [8]\nstarts = \"some\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`starts`"), "{e}");
        let e = parse("name = \"a\"\nsizes = [8]\nstarts = [[9, 0]]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("starts[0]") && e.contains("off the 8x8"), "{e}");
        let e = parse("name = \"a\"").unwrap_err().to_string();
        assert!(e.contains("`sizes`"), "{e}");
        let e = parse("sizes = [8]").unwrap_err().to_string();
        assert!(e.contains("name"), "{e}");
        let e = parse("name = \"a\"\nsizes = [0]").unwrap_err().to_string();
        assert!(e.contains("at least 1"), "{e}");
        let e = parse("name = \"a/b\"\nsizes = [8]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`name`"), "{e}");
        let e = parse("name = \"a\"\nsizes = [8]\nbudget = \"lots\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`budget`"), "{e}");
        let s = parse("name = \"a\"\nsizes = [8]\nbudget = \"3*squares\"").unwrap();
        assert_eq!(s.budget.for_board(s.boards[0]), 192);
        let e = parse("name = \"a\"\nsizes = [8]\nmethods = [\"dfs\"]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("methods[0]"), "{e}");
    }

    #[test]
    fn misspelt_keys_of_the_sizes_table_are_refused() {
        let e = parse("name = \"a\"\nsizes = { from = 5, to = 9, stpe = 2 }")
            .unwrap_err()
            .to_string();
        assert!(e.contains("stpe") && e.contains("`step`"), "{e}");
        let e = parse("name = \"a\"\nsizes = 5").unwrap_err().to_string();
        assert!(e.contains("a range like"), "{e}");
    }

    /// `sample:K` asks for K distinct starts: a board with fewer squares is refused, naming the
    /// first such board, instead of quietly running all its squares.
    #[test]
    fn a_sample_larger_than_a_board_is_refused() {
        let e = parse("name = \"a\"\nsizes = [8]\nstarts = \"sample:100000\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`starts`") && e.contains("8x8") && e.contains("64 squares"),
            "{e}"
        );
        let e = parse("name = \"a\"\nsizes = [20, 5, 6]\nstarts = \"sample:30\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("5x5 board has only 25"), "{e}");
        parse("name = \"a\"\nsizes = [8]\nstarts = \"sample:64\"").unwrap();
    }

    #[test]
    fn bad_starts_and_budgets_are_named() {
        for (line, needle) in [
            ("starts = 5", "\"sample:K\" or a list of squares"),
            ("starts = [[-1, 0]]", "integer `-1`"),
            ("budget = 1.5", "a whole number of nodes"),
            (
                "budget = -3",
                "integer `-3`, expected a whole number of nodes",
            ),
        ] {
            let e = parse(&format!("name = \"a\"\nsizes = [8]\n{line}"))
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "{line}: {e}");
        }
        let ok = parse("name = \"a\"\nsizes = [8]\nstarts = [[0, 0]]\nbudget = 0").unwrap();
        assert_eq!(ok.file.budget, BudgetSpec::Nodes(0));
        let ok = parse("name = \"a\"\nsizes = [8]\nstarts = \"corner\"\nbudget = \"2*squares\"");
        assert_eq!(
            ok.unwrap().file.budget,
            BudgetSpec::Relative("2*squares".into())
        );
    }

    #[test]
    fn names_are_plain_folder_names() {
        for name in [".", "..", ".hidden", "a.", "a\\\\b", ""] {
            let e = parse(&format!("name = \"{name}\"\nsizes = [8]"))
                .unwrap_err()
                .to_string();
            assert!(e.contains("`name`"), "{name}: {e}");
        }
        parse("name = \"v1.2_b-c\"\nsizes = [8]").unwrap();
        for entry in std::fs::read_dir("experiments").unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                // a family's lists (`leaper = [...]`) make one spec a member
                let text = Spec::read_text(&path).unwrap();
                crate::experiment::member_specs(&text, &path.display().to_string()).unwrap();
            }
        }
    }

    #[test]
    fn duplicates_and_empty_starts_are_refused() {
        for (body, key, what) in [
            (
                "rules = [\"first\", \"order:12345678\"]",
                "rules[1]",
                "rules[0]",
            ),
            ("rules = [\"order:*\", \"order:*\"]", "rules[1]", "rules[0]"),
            ("rules = [\"order:*\", \"first\"]", "rules[1]", "rules[0]"),
            (
                "rules = [\"first\", \"roth\", \"order:*\"]",
                "rules[2]",
                "rule first of rules[0]",
            ),
            (
                "rules = [\"order:87654321\", \"order:21345678\", \"order:*\"]",
                "rules[2]",
                "rule order:21345678 of rules[1]",
            ),
            (
                "rules = [\"roth\", \"order:87654321\", \"order:*\"]",
                "rules[2]",
                "rules[1]",
            ),
            (
                "methods = [\"rotate\", \"backtrack\", \"rotate\"]",
                "methods[2]",
                "methods[0]",
            ),
            (
                "starts = [[0, 0], [1, 2], [0, 0]]",
                "starts[2]",
                "starts[0]",
            ),
            ("starts = []", "`starts`", "empty"),
            ("boards = [[8, 8]]", "boards[0]", "8x8"),
        ] {
            let e = parse(&format!("name = \"a\"\nsizes = [8]\n{body}"))
                .unwrap_err()
                .to_string();
            assert!(e.contains(key) && e.contains(what), "{body}: {e}");
        }
        let e = parse("name = \"a\"\nsizes = [8, 9, 8]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`sizes`") && e.contains("8x8"), "{e}");
        // the same board turned is another board
        parse("name = \"a\"\nboards = [[5, 6], [6, 5]]").unwrap();
    }

    #[test]
    fn budgets_past_u64_are_refused() {
        // 2^58 + 1 times 64 squares wraps to 64; 2^58 times 64 wraps to 0 = unlimited
        for k in [288230376151711745u64, 288230376151711744] {
            let e = parse(&format!(
                "name = \"a\"\nsizes = [5, 8]\nbudget = \"{k}*squares\""
            ))
            .unwrap_err()
            .to_string();
            assert!(e.contains("`budget`") && e.contains("8x8"), "{e}");
        }
        let s =
            parse("name = \"a\"\nsizes = [8]\nbudget = \"288230376151711743*squares\"").unwrap();
        assert_eq!(s.budget.for_board(s.boards[0]), u64::MAX - 63);
    }

    #[test]
    fn groups_of_more_than_u32_runs_are_refused() {
        // 25 starts x 2^32 - 1 trials: run numbers within a group are u32
        let e = parse("name = \"a\"\nsizes = [5]\nrules = [\"random\"]\ntrials = 4294967295")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`trials`") && e.contains("107374182375 runs"),
            "{e}"
        );
        let s =
            parse("name = \"a\"\nsizes = [5]\nrules = [\"random\"]\ntrials = 171798691").unwrap();
        assert_eq!(s.plan_size().unwrap().largest_group, 4294967275);
    }
}
