//! The validators of the keys' table (`keys.rs`), one per key, and the checks of the whole sweep
//! that no one key owns. [`Spec::validate`] runs them in the table's order on a spec whose fields
//! start empty: each checks its key's value as written (`spec.file`) and sets what it validates,
//! and may read the keys validated above it (the starts read the boards, the methods the rules).

use super::boards::{board_range, expand_sizes};
use super::file::{BoardEntry, Boards, BudgetSpec, KeyError, SpecFile};
use super::keys::KEYS;
use super::{Budget, Spec, SpecError, StartSet};
use crate::board::{Board, Leaper, Shape, ShapeError, Square};
use crate::solve::rules::LabelOrder;
use crate::solve::{Closing, Method, Rule, RuleSeq};
use std::sync::Arc;

type Check = Result<(), KeyError>;

impl Spec {
    /// Validate a parsed spec: each key's validator in the table's order, then the sweep's size.
    pub fn validate(raw: SpecFile, file: &str) -> Result<Spec, SpecError> {
        let mut spec = Spec {
            file: raw,
            boards: Vec::new(),
            starts: StartSet::All,
            rules: Arc::new(Vec::new()),
            rule_labels: Vec::new(),
            methods: Vec::new(),
            budget: Budget::Nodes(0),
            attempts: None,
            closing: Closing::Check,
            prune: true,
            leaper: Leaper::KNIGHT,
            mask: None,
        };
        for key in KEYS {
            (key.check)(&mut spec).map_err(|e| SpecError::of_key(file, e))?;
        }
        plan_size(&spec).map_err(|e| SpecError::of_key(file, e))?;
        Ok(spec)
    }
}

/// `name`: a single plain folder name, so that `results/<name>` does not escape `results/` (`..`),
/// since `--force` empties it.
pub(super) fn name(spec: &mut Spec) -> Check {
    let name = &spec.file.name;
    if name.is_empty()
        || name.starts_with('.')
        || name.ends_with('.')
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(KeyError::new(
            "name",
            format!("{name:?}: expected a folder name of letters, digits, '-', '_' and '.' (not first or last); it names the output folder"),
        ));
    }
    Ok(())
}

/// Adds `board` to the sweep's boards; a board twice would make two summary rows with the same key.
fn add_board(spec: &mut Spec, board: Board, key: &str) -> Check {
    if spec.boards.contains(&board) {
        return Err(KeyError::new(
            key,
            format!("the {board} board is listed twice"),
        ));
    }
    spec.boards.push(board);
    Ok(())
}

/// `sizes`: square boards.
pub(super) fn sizes(spec: &mut Spec) -> Check {
    let Some(sizes) = spec.file.sizes.clone() else {
        return Ok(());
    };
    let err = |m: String| KeyError::new("sizes", m);
    for n in expand_sizes(&sizes).map_err(err)? {
        let board = Board::square(n as u64).map_err(|e| err(e.to_string()))?;
        add_board(spec, board, "sizes")?;
    }
    Ok(())
}

/// `boards`: boards and ranges of boards, added to the sizes.
pub(super) fn boards(spec: &mut Spec) -> Check {
    let entries = match spec.file.boards.clone() {
        None => return Ok(()),
        Some(Boards::Range(range)) => vec![("boards".to_string(), BoardEntry::Range(range))],
        Some(Boards::List(list)) => list
            .into_iter()
            .enumerate()
            .map(|(i, e)| (format!("boards[{i}]"), e))
            .collect(),
    };
    for (key, entry) in entries {
        let board = |r: u32, c: u32| {
            Board::new(r as u64, c as u64).map_err(|e| KeyError::new(&key, e.to_string()))
        };
        match entry {
            BoardEntry::Board([r, c]) => add_board(spec, board(r, c)?, &key)?,
            BoardEntry::Range(range) => {
                let (rows, cols) = board_range(&range).map_err(|m| KeyError::new(&key, m))?;
                for &r in &rows {
                    for &c in &cols {
                        add_board(spec, board(r, c)?, &key)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// `leaper`: the leaper of every run.
pub(super) fn leaper(spec: &mut Spec) -> Check {
    if let Some(l) = &spec.file.leaper {
        spec.leaper = l
            .parse()
            .map_err(|e: ShapeError| KeyError::new("leaper", e.to_string()))?;
    }
    Ok(())
}

/// `mask`: the holes, drawn; the sweep's one board.
pub(super) fn mask(spec: &mut Spec) -> Check {
    let Some(text) = &spec.file.mask else {
        return Ok(());
    };
    let err = |m: String| KeyError::new("mask", m);
    let shape = Shape::from_mask(text, spec.leaper).map_err(|e| err(e.to_string()))?;
    match spec.boards.as_slice() {
        [] => spec.boards.push(shape.board()),
        [b] if *b == shape.board() => {}
        _ => return Err(err(format!("the mask draws the {} board, and is the sweep's one board: drop sizes and boards, or give only that board", shape.board()))),
    }
    spec.mask = Some(shape);
    Ok(())
}

/// The boards as a whole, once `sizes`, `boards` and `mask` have given them: at least one, and
/// none past 10^8 squares.
fn boards_given(spec: &Spec) -> Check {
    if spec.boards.is_empty() {
        return Err(KeyError::new(
            "sizes",
            "give `sizes` (e.g. \"5..=64\" or [8, 10]) or `boards` (e.g. [[5, 6], [8, 8]])",
        ));
    }
    let largest = spec
        .boards
        .iter()
        .map(|b| b.len() as u64)
        .max()
        .unwrap_or(0);
    if largest > 100_000_000 {
        return Err(KeyError::new(
            "sizes",
            format!("a board of {largest} squares is too large for a sweep (at most 10^8 squares)"),
        ));
    }
    Ok(())
}

/// `starts`: each listed square on every board and listed once, a sample no larger than a board;
/// on a mask, the mask's squares ([`mask_starts`]).
pub(super) fn starts(spec: &mut Spec) -> Check {
    boards_given(spec)?;
    let err = |m: String| KeyError::new("starts", m);
    let starts = spec.file.starts.clone();
    match &starts {
        // K distinct starts: a board with fewer squares would quietly run them all
        StartSet::Sample(n) => {
            if let Some(b) = spec.boards.iter().find(|b| b.len() < *n) {
                return Err(err(format!("\"sample:{n}\" asks for {n} distinct starts, but the {b} board has only {} squares; give K <= {} or \"all\"", b.len(), b.len())));
            }
        }
        // an empty list would run nothing and exit 0
        StartSet::List(list) if list.is_empty() => {
            return Err(err(
                "the list of starts is empty; give at least one [row, col] or \"all\"".into(),
            ))
        }
        StartSet::List(list) => {
            for (i, sq) in list.iter().enumerate() {
                let (r, c) = (sq.row(), sq.col());
                let key = format!("starts[{i}]");
                if let Some(b) = spec
                    .boards
                    .iter()
                    .find(|b| b.try_square(r as i64, c as i64).is_none())
                {
                    return Err(KeyError::new(
                        key,
                        format!("[{r}, {c}] is off the {b} board"),
                    ));
                }
                if let Some(j) = list[..i].iter().position(|s| s == sq) {
                    return Err(KeyError::new(
                        key,
                        format!("[{r}, {c}] is already starts[{j}]"),
                    ));
                }
            }
        }
        StartSet::All | StartSet::Corner | StartSet::Corners | StartSet::Edges => {}
    }
    spec.starts = match &spec.mask {
        None => starts,
        Some(shape) => StartSet::List(mask_starts(shape, starts, spec.file.seed).map_err(err)?),
    };
    Ok(())
}

/// `rules`: each entry a rule or a sequence, perhaps named (`NAME=RULES`), `order:*` expanded. A
/// rule twice (also as `first` and `order:12345678`, or inside `order:*`) would make two summary
/// rows with the same key: compared after parsing, which normalises the spelling. `order:*` is
/// 40,320 distinct rules that collide with any other ordering: it is checked as one entry (hashing
/// each of its orderings would slow every sweep's serial start).
pub(super) fn rules(spec: &mut Spec) -> Check {
    let entries = &spec.file.rules;
    let mut rules = Vec::new();
    let mut rule_labels: Vec<(usize, String)> = Vec::new();
    let mut rule_entry: std::collections::HashMap<RuleSeq, usize> =
        std::collections::HashMap::new();
    let mut all_orders_entry = None;
    for (i, entry) in entries.iter().enumerate() {
        let key = format!("rules[{i}]");
        let (label, name) = split_label(entry).map_err(|e| KeyError::new(&key, e))?;
        if let Some(label) = label {
            if let Some((_, l)) = rule_labels.iter().find(|(_, l)| l == label) {
                return Err(KeyError::new(
                    &key,
                    format!("the name {l:?} is given twice"),
                ));
            }
            rule_labels.push((rules.len(), label.to_string()));
        }
        let repeats = |rule: &RuleSeq, j: usize| {
            let first = &entries[j];
            KeyError::new(
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
            .map_err(|e| KeyError::new(&key, e.to_string()))?;
        if let (Some(_), Some(j)) = (rule.fixed_order(), all_orders_entry) {
            return Err(repeats(&rule, j));
        }
        if let Some(j) = rule_entry.insert(rule.clone(), i) {
            return Err(repeats(&rule, j));
        }
        rules.push(rule);
    }
    if rules.is_empty() {
        return Err(KeyError::new("rules", "give at least one rule"));
    }
    spec.rules = Arc::new(rules);
    spec.rule_labels = rule_labels;
    Ok(())
}

/// `methods`: each once, and each able to run every rule on the sweep's board: naive has no
/// degrees, and rules other than the knight's fixed orderings run on whole boards only
/// (`solve::shaped::refusal`).
pub(super) fn methods(spec: &mut Spec) -> Check {
    let mut methods = Vec::new();
    for (i, name) in spec.file.methods.iter().enumerate() {
        let key = format!("methods[{i}]");
        let method = name.parse::<Method>().map_err(|e| KeyError::new(&key, e))?;
        if let Some(j) = methods.iter().position(|&m| m == method) {
            return Err(KeyError::new(
                key,
                format!("{name:?} is already methods[{j}]"),
            ));
        }
        methods.push(method);
    }
    if methods.is_empty() {
        return Err(KeyError::new("methods", "give at least one method"));
    }
    // naive has no degrees: a rule with keys or random parts would mean nothing to it
    if methods.contains(&Method::Naive) {
        if let Some(r) = spec
            .rules
            .iter()
            .find(|r| r.rules().iter().any(|r| r.needs_degrees()))
        {
            return Err(KeyError::new(
                "rules",
                format!("{r} with naive: naive has no degrees and honours a fixed order (first, order:) only; sweep naive with orderings apart"),
            ));
        }
    }
    let shape = match &spec.mask {
        Some(m) => m.clone(),
        None => Shape::full(spec.boards[0]).with_leaper(spec.leaper),
    };
    for seq in spec.rules.iter() {
        for &rule in seq.rules() {
            for &method in &methods {
                if let Some(why) = crate::solve::shaped::refusal(&shape, method, rule) {
                    return Err(KeyError::new(
                        "rules",
                        format!("{rule} with {method} on {shape}: {why}"),
                    ));
                }
            }
        }
    }
    spec.methods = methods;
    Ok(())
}

/// `trials`: at least 1.
pub(super) fn trials(spec: &mut Spec) -> Check {
    match spec.file.trials {
        0 => Err(KeyError::new("trials", "expected at least 1")),
        _ => Ok(()),
    }
}

/// `budget`: nodes, or `"K*squares"` with K >= 1 whose product with every board's squares is a
/// `u64` (wrapping could make it small, or 0 = unlimited).
pub(super) fn budget(spec: &mut Spec) -> Check {
    let err = |m: String| KeyError::new("budget", m);
    let budget = match &spec.file.budget {
        BudgetSpec::Nodes(n) => Budget::Nodes(*n),
        BudgetSpec::Relative(s) => s
            .strip_suffix("*squares")
            .and_then(|k| k.trim().parse::<u64>().ok())
            .filter(|&k| k > 0)
            .map(Budget::PerSquare)
            .ok_or_else(|| err(format!("{s:?}: expected a number of nodes (0 = unlimited) or \"K*squares\" with K >= 1")))?,
    };
    if let Budget::PerSquare(k) = budget {
        if let Some(b) = spec
            .boards
            .iter()
            .find(|b| k.checked_mul(b.len() as u64).is_none())
        {
            return Err(err(format!(
                "\"{k}*squares\" is more than {} nodes on the {b} board; lower K (0 = unlimited)",
                u64::MAX
            )));
        }
    }
    spec.budget = budget;
    Ok(())
}

/// `attempts`: at least 1 where given.
pub(super) fn attempts(spec: &mut Spec) -> Check {
    match spec.file.attempts {
        Some(0) => Err(KeyError::new("attempts", "expected at least 1")),
        a => {
            spec.attempts = a;
            Ok(())
        }
    }
}

/// `closing`: `check`, or `start-last` for closed pure-Warnsdorff runs.
pub(super) fn closing(spec: &mut Spec) -> Check {
    let closing: Closing = spec
        .file
        .closing
        .parse()
        .map_err(|e| KeyError::new("closing", e))?;
    if closing == Closing::StartLast
        && !(spec.file.closed && spec.methods.contains(&Method::Warnsdorff))
    {
        return Err(KeyError::new(
            "closing",
            "\"start-last\" is an option of closed pure-Warnsdorff runs: give closed = true and the warnsdorff method",
        ));
    }
    spec.closing = closing;
    Ok(())
}

/// `prune`: only backtrack prunes, so `false` needs it.
pub(super) fn prune(spec: &mut Spec) -> Check {
    if !spec.file.prune && !spec.methods.contains(&Method::Backtrack) {
        return Err(KeyError::new(
            "prune",
            "only backtrack prunes: prune = false needs the backtrack method",
        ));
    }
    spec.prune = spec.file.prune;
    Ok(())
}

/// The sweep as a whole: the plan numbers runs within a group and groups in `u32` (see `Chunk`).
/// Mirrored rules size chunks, not runs or groups: looking for them (an index of every rule) is
/// left to the plan.
fn plan_size(spec: &Spec) -> Check {
    let size = spec.plan_size_with(false).ok_or_else(|| {
        KeyError::new(
            "trials",
            "the sweep has more than 2^64 runs; lower sizes, starts, rules or trials",
        )
    })?;
    let limit = u32::MAX as u64;
    if size.largest_group > limit {
        return Err(KeyError::new(
            "trials",
            format!(
                "a board x rule x method would have {} runs (starts x trials), more than the {limit} a group can hold; lower trials or starts",
                size.largest_group
            ),
        ));
    }
    if size.groups > limit {
        return Err(KeyError::new(
            "rules",
            format!(
                "the sweep would have {} groups (boards x rules x methods), more than {limit}; lower sizes, rules or methods",
                size.groups
            ),
        ));
    }
    Ok(())
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
        StartSet::Corners => {
            let (corners, n) = StartSet::corners(board);
            on_shape(corners[..n].to_vec())
        }
        StartSet::List(v) => on_shape(v),
        StartSet::Edges => Err("\"edges\" takes the orbits of a whole board's symmetries, which holes break; give \"all\", a sample or a list".into()),
        StartSet::Sample(k) => {
            use rand::SeedableRng;
            let squares: Vec<Square> = shape.squares().collect();
            if k as usize > squares.len() {
                return Err(format!("sample:{k} asks for more starts than the mask's {} squares", squares.len()));
            }
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(
                crate::experiment::seed::run_seed(seed, board, Square::new(0, 0), u32::MAX),
            );
            let mut idx = rand::seq::index::sample(&mut rng, squares.len(), k as usize).into_vec();
            idx.sort_unstable();
            Ok(idx.into_iter().map(|i| squares[i]).collect())
        }
    }
}

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
