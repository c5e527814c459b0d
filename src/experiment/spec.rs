//! Experiment specs: a TOML file naming boards, starts, rules, methods and how to record them
//! (its keys in `spec_file`), validated here into a [`Spec`] that the plan numbers. Unknown keys
//! are rejected with the key named; every error names the file and the key.

use super::size::PlanSize;
use super::spec_file::{BoardEntry, Boards, BudgetSpec, Sizes, SpecFile, Starts};
use crate::board::{Board, BoardError, Leaper, Shape, ShapeError, Square, MAX_SIDE};
use crate::solve::rules::LabelOrder;
use crate::solve::{Closing, Method, Rule, RuleSeq};
use std::path::Path;
use std::sync::Arc;

/// The built-in default experiment (`ktour sweep` with no argument), also `experiments/default.toml`.
pub const DEFAULT_SPEC: &str = include_str!("../../experiments/default.toml");

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
    /// Not valid TOML, an unknown key, or a value of the wrong type.
    #[error("{file}: {message}")]
    Toml {
        /// The file.
        file: String,
        /// The parser's message (names the key and the line).
        message: String,
    },
    /// A key whose value is not what is expected.
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

fn parse_budget(b: &BudgetSpec) -> Result<Budget, String> {
    match b {
        BudgetSpec::Nodes(n) => Ok(Budget::Nodes(*n)),
        BudgetSpec::Relative(s) => s
            .strip_suffix("*squares")
            .and_then(|k| k.trim().parse::<u64>().ok())
            .filter(|&k| k > 0)
            .map(Budget::PerSquare)
            .ok_or_else(|| format!("{s:?}: expected a number of nodes (0 = unlimited) or \"K*squares\" with K >= 1")),
    }
}

/// How start squares are chosen on each board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSet {
    /// Every square.
    All,
    /// (0,0).
    Corner,
    /// The four corners (fewer on thin boards).
    Corners,
    /// One square of each orbit of the edge squares under the board's symmetries
    /// ([`StartSet::edge_orbits`]).
    Edges,
    /// K distinct squares drawn per board from the experiment seed.
    Sample(u32),
    /// These squares.
    List(Vec<Square>),
}

impl StartSet {
    /// The distinct corners of `board`, row-major (a board one square wide has two).
    pub fn corners(board: Board) -> Vec<Square> {
        let (r, c) = (board.rows() as u16 - 1, board.cols() as u16 - 1);
        let mut v = vec![
            Square::new(0, 0),
            Square::new(0, c),
            Square::new(r, 0),
            Square::new(r, c),
        ];
        v.sort();
        v.dedup();
        v
    }

    /// How many squares [`StartSet::edge_orbit`] gives on `board`: the top row's left half, and on
    /// a board that is not square the left column's upper half below the corner too.
    pub fn edge_orbits(board: Board) -> u64 {
        let (rows, cols) = (board.rows() as u64, board.cols() as u64);
        let top = cols.div_ceil(2);
        if rows == cols {
            top
        } else {
            top + rows.div_ceil(2) - 1
        }
    }

    /// The `i`-th of the [`StartSet::edge_orbits`] squares of `board`: `(0, c)` for the first
    /// `ceil(cols/2)`, then `(r, 0)` from `r = 1`. Every edge square is the image of exactly one of
    /// them under a symmetry of the board (the square's eight, a rectangle's four), so the edge
    /// orbits are walked once each.
    pub fn edge_orbit(board: Board, i: u64) -> Square {
        let top = (board.cols() as u64).div_ceil(2);
        if i < top {
            Square::new(0, i as u16)
        } else {
            Square::new((i - top + 1) as u16, 0)
        }
    }

    /// How many start squares this gives on `board`, without listing them.
    pub fn count_on(&self, board: Board) -> u64 {
        match self {
            StartSet::All => board.len() as u64,
            StartSet::Corner => 1,
            StartSet::Corners => StartSet::corners(board).len() as u64,
            StartSet::Edges => StartSet::edge_orbits(board),
            StartSet::Sample(k) => (*k as u64).min(board.len() as u64),
            StartSet::List(v) => v.len() as u64,
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
        let raw: SpecFile = toml::from_str(text).map_err(|e| SpecError::Toml {
            file: file.to_string(),
            message: e.to_string().trim().replace('\n', " "),
        })?;
        Spec::validate(raw, file)
    }

    /// The size of this spec's plan, counted without building it; `None` past `u64`.
    pub fn plan_size(&self) -> Option<PlanSize> {
        self.plan_size_with(super::size::has_mirrors(&self.rules))
    }

    /// [`Spec::plan_size`], given whether some rule has another as its mirror image.
    fn plan_size_with(&self, mirrors: bool) -> Option<PlanSize> {
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

    /// Validate a parsed spec.
    pub fn validate(raw: SpecFile, file: &str) -> Result<Spec, SpecError> {
        let err = |key: &str, message: String| SpecError::Value {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        // a single plain folder name: `results/<name>` must not escape `results/` (".."), and
        // `--force` empties it
        if raw.name.is_empty()
            || raw.name.starts_with('.')
            || raw.name.ends_with('.')
            || !raw
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(err(
                "name",
                format!("{:?}: expected a folder name of letters, digits, '-', '_' and '.' (not first or last); it names the output folder", raw.name),
            ));
        }
        let mut boards: Vec<Board> = Vec::new();
        // a board twice would make two summary rows with the same key
        let mut seen = std::collections::HashSet::new();
        let mut add_board = |board: Board, key: &str| {
            if !seen.insert(board) {
                return Err(err(key, format!("the {board} board is listed twice")));
            }
            boards.push(board);
            Ok(())
        };
        if let Some(sizes) = &raw.sizes {
            for n in expand_sizes(sizes).map_err(|m| err("sizes", m))? {
                add_board(
                    Board::square(n as u64).map_err(|e| err("sizes", e.to_string()))?,
                    "sizes",
                )?;
            }
        }
        if let Some(given) = &raw.boards {
            let entries = match given {
                Boards::Range(range) => {
                    vec![("boards".to_string(), BoardEntry::Range(range.clone()))]
                }
                Boards::List(list) => list
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (format!("boards[{i}]"), e.clone()))
                    .collect(),
            };
            for (key, entry) in entries {
                match entry {
                    BoardEntry::Board([r, c]) => add_board(
                        Board::new(r as u64, c as u64).map_err(|e| err(&key, e.to_string()))?,
                        &key,
                    )?,
                    BoardEntry::Range(range) => {
                        let (rows, cols) = board_range(&range).map_err(|m| err(&key, m))?;
                        for &r in &rows {
                            for &c in &cols {
                                let board = Board::new(r as u64, c as u64)
                                    .map_err(|e| err(&key, e.to_string()))?;
                                add_board(board, &key)?;
                            }
                        }
                    }
                }
            }
        }
        let leaper: Leaper = match &raw.leaper {
            Some(l) => l
                .parse()
                .map_err(|e: ShapeError| err("leaper", e.to_string()))?,
            None => Leaper::KNIGHT,
        };
        let mask = match &raw.mask {
            Some(text) => {
                let shape =
                    Shape::from_mask(text, leaper).map_err(|e| err("mask", e.to_string()))?;
                match boards.as_slice() {
                    [] => boards.push(shape.board()),
                    [b] if *b == shape.board() => {}
                    _ => {
                        return Err(err(
                            "mask",
                            format!("the mask draws the {} board, and is the sweep's one board: drop sizes and boards, or give only that board", shape.board()),
                        ))
                    }
                }
                Some(shape)
            }
            None => None,
        };
        if boards.is_empty() {
            return Err(err(
                "sizes",
                "give `sizes` (e.g. \"5..=64\" or [8, 10]) or `boards` (e.g. [[5, 6], [8, 8]])"
                    .into(),
            ));
        }
        let starts = match &raw.starts {
            Starts::Keyword(k) => match k.as_str() {
                "all" => StartSet::All,
                "corner" => StartSet::Corner,
                "corners" => StartSet::Corners,
                "edges" => StartSet::Edges,
                _ => match k.strip_prefix("sample:").map(str::parse::<u32>) {
                    // K distinct starts: a board with fewer squares would quietly run them all
                    Some(Ok(n)) if n > 0 => match boards.iter().find(|b| b.len() < n) {
                        Some(b) => {
                            return Err(err(
                                "starts",
                                format!("{k:?} asks for {n} distinct starts, but the {b} board has only {} squares; give K <= {} or \"all\"", b.len(), b.len()),
                            ))
                        }
                        None => StartSet::Sample(n),
                    },
                    _ => {
                        return Err(err(
                            "starts",
                            format!("{k:?}: expected \"all\", \"corner\", \"corners\", \"edges\", \"sample:K\" (K > 0) or a list of [row, col]"),
                        ))
                    }
                },
            },
            // an empty list would run nothing and exit 0
            Starts::List(list) if list.is_empty() => {
                return Err(err(
                    "starts",
                    "the list of starts is empty; give at least one [row, col] or \"all\"".into(),
                ))
            }
            Starts::List(list) => {
                let mut squares = Vec::new();
                for (i, [r, c]) in list.iter().enumerate() {
                    for b in &boards {
                        if b.try_square(*r as i64, *c as i64).is_none() {
                            return Err(err(
                                &format!("starts[{i}]"),
                                format!("[{r}, {c}] is off the {b} board"),
                            ));
                        }
                    }
                    let square = Square::new(*r as u16, *c as u16);
                    if let Some(j) = squares.iter().position(|&s| s == square) {
                        return Err(err(
                            &format!("starts[{i}]"),
                            format!("[{r}, {c}] is already starts[{j}]"),
                        ));
                    }
                    squares.push(square);
                }
                StartSet::List(squares)
            }
        };
        // On a mask, the starts are its squares: listed, holes refused.
        let starts = match (&mask, starts) {
            (None, starts) => starts,
            (Some(shape), starts) => {
                StartSet::List(mask_starts(shape, starts, raw.seed).map_err(|m| err("starts", m))?)
            }
        };
        // A rule twice (also as `first` and `order:12345678`, or inside `order:*`) would make two
        // summary rows with the same key: compared after parsing, which normalises the spelling.
        // `order:*` is 40,320 distinct rules that collide with any other ordering: it is checked as
        // one entry (hashing each of its orderings would slow every sweep's serial start).
        let mut rules = Vec::new();
        let mut rule_labels: Vec<(usize, String)> = Vec::new();
        let mut rule_entry: std::collections::HashMap<RuleSeq, usize> =
            std::collections::HashMap::new();
        let mut all_orders_entry = None;
        for (i, entry) in raw.rules.iter().enumerate() {
            let key = format!("rules[{i}]");
            let (label, name) = split_label(entry).map_err(|e| err(&key, e))?;
            if let Some(label) = label {
                if let Some((_, l)) = rule_labels.iter().find(|(_, l)| l == label) {
                    return Err(err(&key, format!("the name {l:?} is given twice")));
                }
                rule_labels.push((rules.len(), label.to_string()));
            }
            let repeats = |rule: &RuleSeq, j: usize| {
                let first = &raw.rules[j];
                err(
                    &key,
                    format!("{name:?} repeats rule {rule} of rules[{j}] ({first:?})"),
                )
            };
            if name == "order:*" {
                let earlier = rule_entry
                    .iter()
                    .filter_map(|(r, &j)| Some((r.fixed_order()?, j)))
                    .min_by_key(|&(o, _)| *o.labels())
                    .or(all_orders_entry.map(|j| (LabelOrder::nth_permutation(0), j)));
                if let Some((o, j)) = earlier {
                    return Err(repeats(&RuleSeq::One(Rule::order(o)), j));
                }
                all_orders_entry = Some(i);
                rules.extend(LabelOrder::all().map(|o| RuleSeq::One(Rule::order(o))));
                continue;
            }
            let rule = name
                .parse::<RuleSeq>()
                .map_err(|e| err(&key, e.to_string()))?;
            if let (Some(_), Some(j)) = (rule.fixed_order(), all_orders_entry) {
                return Err(repeats(&rule, j));
            }
            if let Some(j) = rule_entry.insert(rule.clone(), i) {
                return Err(repeats(&rule, j));
            }
            rules.push(rule);
        }
        let mut methods = Vec::new();
        for (i, name) in raw.methods.iter().enumerate() {
            let key = format!("methods[{i}]");
            let method = name.parse::<Method>().map_err(|e| err(&key, e))?;
            if let Some(j) = methods.iter().position(|&m| m == method) {
                return Err(err(&key, format!("{name:?} is already methods[{j}]")));
            }
            methods.push(method);
        }
        if rules.is_empty() {
            return Err(err("rules", "give at least one rule".into()));
        }
        if methods.is_empty() {
            return Err(err("methods", "give at least one method".into()));
        }
        if raw.trials == 0 {
            return Err(err("trials", "expected at least 1".into()));
        }
        if raw.attempts == Some(0) {
            return Err(err("attempts", "expected at least 1".into()));
        }
        // naive has no degrees: a rule with keys or random parts would mean nothing to it
        if methods.contains(&Method::Naive) {
            if let Some(r) = rules
                .iter()
                .find(|r| r.rules().iter().any(|r| r.needs_degrees()))
            {
                return Err(err(
                    "rules",
                    format!("{r} with naive: naive has no degrees and honours a fixed order (first, order:) only; sweep naive with orderings apart"),
                ));
            }
        }
        let closing: Closing = raw.closing.parse().map_err(|e| err("closing", e))?;
        if closing == Closing::StartLast && !(raw.closed && methods.contains(&Method::Warnsdorff)) {
            return Err(err(
                "closing",
                "\"start-last\" is an option of closed pure-Warnsdorff runs: give closed = true and the warnsdorff method".into(),
            ));
        }
        if !raw.prune && !methods.contains(&Method::Backtrack) {
            return Err(err(
                "prune",
                "only backtrack prunes: prune = false needs the backtrack method".into(),
            ));
        }
        let largest = boards.iter().map(|b| b.len() as u64).max().unwrap_or(0);
        if largest > 100_000_000 {
            return Err(err(
                "sizes",
                format!(
                    "a board of {largest} squares is too large for a sweep (at most 10^8 squares)"
                ),
            ));
        }
        // Knight rules on whole boards only (`solve::shaped::refusal`).
        let shape = match &mask {
            Some(m) => m.clone(),
            None => Shape::full(boards[0]).with_leaper(leaper),
        };
        for seq in &rules {
            for &rule in seq.rules() {
                for &method in &methods {
                    if let Some(why) = crate::solve::shaped::refusal(&shape, method, rule) {
                        return Err(err(
                            "rules",
                            format!("{rule} with {method} on {shape}: {why}"),
                        ));
                    }
                }
            }
        }
        let budget = parse_budget(&raw.budget).map_err(|m| err("budget", m))?;
        if let Budget::PerSquare(k) = budget {
            // a product past u64 would wrap to a small budget, or to 0 = unlimited
            if let Some(b) = boards
                .iter()
                .find(|b| k.checked_mul(b.len() as u64).is_none())
            {
                return Err(err(
                    "budget",
                    format!(
                        "\"{k}*squares\" is more than {} nodes on the {b} board; lower K (0 = unlimited)",
                        u64::MAX
                    ),
                ));
            }
        }
        let spec = Spec {
            attempts: raw.attempts,
            prune: raw.prune,
            leaper,
            mask,
            file: raw,
            boards,
            starts,
            rules: Arc::new(rules),
            rule_labels,
            methods,
            budget,
            closing,
        };
        // The plan numbers runs within a group and groups in u32 (see `Chunk`).
        // mirrored rules size chunks, not runs or groups: looking for them (an index of every
        // rule) is left to the plan
        let size = spec.plan_size_with(false).ok_or_else(|| {
            err(
                "trials",
                "the sweep has more than 2^64 runs; lower sizes, starts, rules or trials".into(),
            )
        })?;
        let limit = u32::MAX as u64;
        if size.largest_group > limit {
            return Err(err(
                "trials",
                format!(
                    "a board x rule x method would have {} runs (starts x trials), more than the {limit} a group can hold; lower trials or starts",
                    size.largest_group
                ),
            ));
        }
        if size.groups > limit {
            return Err(err(
                "rules",
                format!(
                    "the sweep would have {} groups (boards x rules x methods), more than {limit}; lower sizes, rules or methods",
                    size.groups
                ),
            ));
        }
        Ok(spec)
    }
}

/// The starts of a sweep on a mask, as a list of its squares: every square for `all`, a sample of
/// its squares drawn from the experiment seed for `sample:K`; a corner or listed start on a hole,
/// and `edges` (whose orbits are those of the whole board), are refused.
fn mask_starts(shape: &Shape, starts: StartSet, seed: u64) -> Result<Vec<Square>, String> {
    let board = shape.board();
    let on_shape = |v: Vec<Square>| match v.iter().find(|&&s| !shape.contains(s)) {
        Some(s) => Err(format!("{s} is a hole of the mask")),
        None => Ok(v),
    };
    match starts {
        StartSet::All => Ok(shape.squares().collect()),
        StartSet::Corner => on_shape(vec![Square::new(0, 0)]),
        StartSet::Corners => on_shape(StartSet::corners(board)),
        StartSet::List(v) => on_shape(v),
        StartSet::Edges => Err("\"edges\" takes the orbits of a whole board's symmetries, which holes break; give \"all\", a sample or a list".into()),
        StartSet::Sample(k) => {
            use rand::SeedableRng;
            let squares: Vec<Square> = shape.squares().collect();
            if k as usize > squares.len() {
                return Err(format!("sample:{k} asks for more starts than the mask's {} squares", squares.len()));
            }
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(
                super::seed::run_seed(seed, board, Square::new(0, 0), u32::MAX),
            );
            let mut idx = rand::seq::index::sample(&mut rng, squares.len(), k as usize).into_vec();
            idx.sort_unstable();
            Ok(idx.into_iter().map(|i| squares[i]).collect())
        }
    }
}

/// About the bytes one board takes while a spec is validated and planned (its entry, its entry in
/// the check for boards listed twice, its place in the plan): what a range of boards is checked
/// against before it is listed.
const BYTES_PER_BOARD: u64 = 128;

/// Sides from `from` to `to` (inclusive) every `step`: checked before anything is listed (a range
/// like "1..=4294967295" would otherwise list four billion sides first).
/// A rules entry split into its name, if it gives one (`NAME=RULES`), and its rules. A name is
/// letters, digits, `_`, `-` and `.`, and no rule's own name, so that a CSV's rule column never
/// reads as another rule; `order:*` (40,320 rules) takes none.
fn split_label(entry: &str) -> Result<(Option<&str>, &str), String> {
    let Some((label, rules)) = entry.split_once('=') else {
        return Ok((None, entry));
    };
    let (label, rules) = (label.trim(), rules.trim());
    let allowed = |c: char| c.is_ascii_alphanumeric() || "_-.".contains(c);
    if label.is_empty() || !label.chars().all(allowed) {
        return Err(format!(
            "{entry:?}: a name before `=` is letters, digits, `_`, `-` and `.` (NAME=RULES)"
        ));
    }
    if label.parse::<RuleSeq>().is_ok() {
        return Err(format!(
            "{entry:?}: the name {label:?} is itself a rule; give another"
        ));
    }
    if rules == "order:*" {
        return Err(format!(
            "{entry:?}: `order:*` is 40,320 rules, each named by itself; it takes no name"
        ));
    }
    Ok((Some(label), rules))
}

fn side_range(from: u32, to: u32, step: u32) -> Result<Vec<u32>, String> {
    if step == 0 {
        return Err("step must be at least 1".into());
    }
    if from > to {
        return Err(format!("empty range {from}..={to}"));
    }
    let last = from + (to - from) / step * step;
    if last > MAX_SIDE {
        let n = last as u64;
        return Err(BoardError::TooLarge { rows: n, cols: n }.to_string());
    }
    Ok((from..=to).step_by(step as usize).collect())
}

/// One side's range as written: `A..=B`, `A..B`, or a single size `N` (`single`), each
/// optionally followed by a step, `:S` or ` step S`. `None` if it is none of these.
fn parse_span(s: &str, single: bool) -> Option<(u32, u32, u32)> {
    let (span, step) = match s.split_once(" step ").or_else(|| s.split_once(':')) {
        Some((span, step)) => (span.trim(), step.trim().parse().ok()?),
        None => (s.trim(), 1),
    };
    let number = |t: &str| t.trim().parse::<u32>().ok();
    let (from, to) = if let Some((a, b)) = span.split_once("..=") {
        (number(a)?, number(b)?)
    } else if let Some((a, b)) = span.split_once("..") {
        (number(a)?, number(b)?.checked_sub(1)?)
    } else if single {
        let n = number(span)?;
        (n, n)
    } else {
        return None;
    };
    Some((from, to, step))
}

/// The rows and the columns of a range of boards, `"ROWS x COLS"`, each side a size or a range
/// (see [`parse_span`]); every board of the two is in the sweep, rows outer.
fn board_range(s: &str) -> Result<(Vec<u32>, Vec<u32>), String> {
    let bad = || {
        format!(
            "{s:?}: expected boards like \"10..=50 x 10..=50\" (each side a size N, a range A..=B or A..B, a step as A..=B:S)"
        )
    };
    let (rows, cols) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (r, c) = (
        parse_span(rows, true).ok_or_else(bad)?,
        parse_span(cols, true).ok_or_else(bad)?,
    );
    let (rows, cols) = (side_range(r.0, r.1, r.2)?, side_range(c.0, c.1, c.2)?);
    // checked before they are listed: 65535 x 65535 boards would fill memory first
    let count = rows.len() as u64 * cols.len() as u64;
    if !crate::memory::fits_in(
        count.saturating_mul(BYTES_PER_BOARD),
        crate::memory::available_bytes(),
    ) {
        return Err(format!(
            "{s:?} is {count} boards, more than memory holds for a sweep's plan; narrow the ranges"
        ));
    }
    Ok((rows, cols))
}

fn expand_sizes(sizes: &Sizes) -> Result<Vec<u32>, String> {
    match sizes {
        Sizes::List(v) if v.is_empty() => Err("the list of sizes is empty".into()),
        Sizes::List(v) => Ok(v.clone()),
        Sizes::Table { from, to, step } => side_range(*from, *to, *step),
        Sizes::Range(s) => {
            let (from, to, step) = parse_span(s, false).ok_or_else(|| {
                format!(
                    "{s:?}: expected a range like \"5..=64\", \"5..65\" or \"10..=100 step 10\""
                )
            })?;
            side_range(from, to, step)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Spec, SpecError> {
        Spec::from_toml(text, "test.toml")
    }

    #[test]
    fn default_spec_is_valid() {
        parse(DEFAULT_SPEC).unwrap();
    }

    /// `edges` takes one square of each orbit of the edge squares: every edge square is the image
    /// of exactly one of them under the board's symmetries (eight on a square, four on a rectangle).
    #[test]
    fn edge_orbits_cover_the_edge_once() {
        for (rows, cols) in [
            (5, 5),
            (8, 8),
            (9, 9),
            (5, 6),
            (6, 9),
            (7, 4),
            (1, 5),
            (3, 3),
        ] {
            let board = Board::new(rows, cols).unwrap();
            let (r, c) = (rows as u16 - 1, cols as u16 - 1);
            let images = |sq: Square| {
                let (a, b) = (sq.row(), sq.col());
                let mut v = vec![(a, b), (r - a, b), (a, c - b), (r - a, c - b)];
                if rows == cols {
                    v.extend([(b, a), (c - b, a), (b, r - a), (c - b, r - a)]);
                }
                v
            };
            let reps: Vec<Square> = (0..StartSet::edge_orbits(board))
                .map(|i| StartSet::edge_orbit(board, i))
                .collect();
            assert_eq!(StartSet::Edges.count_on(board), reps.len() as u64);
            let mut seen = std::collections::HashMap::new();
            for (i, &sq) in reps.iter().enumerate() {
                for image in images(sq) {
                    if let Some(j) = seen.insert(image, i) {
                        assert_eq!(j, i, "{rows}x{cols}: {image:?} in the orbits of two");
                    }
                }
            }
            for a in 0..=r {
                for b in 0..=c {
                    let edge = a == 0 || b == 0 || a == r || b == c;
                    assert_eq!(seen.contains_key(&(a, b)), edge, "{rows}x{cols}: ({a},{b})");
                }
            }
        }
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
