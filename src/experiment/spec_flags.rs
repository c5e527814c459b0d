//! A spec given as `ktour sweep` flags: each flag sets the key of its name, over a spec file's key
//! when both are given. The flags are written into the spec's TOML and validated as a spec file is,
//! so that a spec from flags is a spec file (the one `--print-spec` writes) and errors name the key.

use super::spec::{Spec, SpecError};
use super::spec_file::SpecFile;
use toml::{Table, Value};

/// Name of a spec from flags alone before its checksum is added: `adhoc-<8 hex digits>`.
pub const ADHOC: &str = "adhoc";

/// Spec keys given as flags, as written on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecFlags {
    /// `--name`.
    pub name: Option<String>,
    /// `--sizes`: `8`, `8,10,12`, `5..=64`, `10..=200 step 10`, or a TOML value.
    pub sizes: Option<String>,
    /// `--boards`: `5x6,8x10`, ranges `10..=50 x 10..=50` (steps `10..=50:2`), or a TOML value.
    pub boards: Option<String>,
    /// `--starts`: a keyword (`all`, `corner`, `corners`, `sample:K`), squares `0,0;1,2`, or a TOML
    /// value.
    pub starts: Option<String>,
    /// `--rules`: names separated by commas.
    pub rules: Option<String>,
    /// `--methods`: names separated by commas.
    pub methods: Option<String>,
    /// `--trials`.
    pub trials: Option<u32>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--budget`: nodes, or `K*squares`.
    pub budget: Option<String>,
    /// `--record`: `summary` or `runs`.
    pub record: Option<String>,
    /// `--closed`.
    pub closed: Option<bool>,
    /// `--attempts`.
    pub attempts: Option<u32>,
    /// `--start-last`: `closing = "start-last"`.
    pub start_last: bool,
    /// `--no-prune`: `prune = false`.
    pub no_prune: bool,
    /// `--leaper`: `A,B` or a name.
    pub leaper: Option<String>,
    /// `--mask FILE`: the file's name and its text, which the spec holds.
    pub mask: Option<(String, String)>,
}

impl SpecFlags {
    /// The keys given, each with its flag's value as TOML (or why the value is not one).
    fn values(&self) -> Vec<(&'static str, Result<Value, String>)> {
        let text = |v: &Option<String>| v.as_ref().map(|s| Value::String(s.clone()));
        let mut given: Vec<(&'static str, Option<Result<Value, String>>)> = vec![
            ("name", text(&self.name).map(Ok)),
            ("sizes", self.sizes.as_deref().map(sizes_value)),
            ("boards", self.boards.as_deref().map(boards_value)),
            ("starts", self.starts.as_deref().map(starts_value)),
            ("rules", self.rules.as_deref().map(names_value)),
            ("methods", self.methods.as_deref().map(names_value)),
            ("closed", self.closed.map(|b| Ok(Value::Boolean(b)))),
            ("trials", self.trials.map(|t| Ok(Value::Integer(t.into())))),
            ("seed", self.seed.map(integer)),
            ("budget", self.budget.as_deref().map(budget_value)),
            ("record", text(&self.record).map(Ok)),
            (
                "attempts",
                self.attempts.map(|a| Ok(Value::Integer(a.into()))),
            ),
            (
                "closing",
                self.start_last.then(|| {
                    Ok(Value::String(
                        crate::solve::Closing::StartLast.name().into(),
                    ))
                }),
            ),
            ("prune", self.no_prune.then_some(Ok(Value::Boolean(false)))),
            ("leaper", text(&self.leaper).map(Ok)),
            (
                "mask",
                self.mask
                    .as_ref()
                    .map(|(_, t)| Ok(Value::String(t.clone()))),
            ),
        ];
        given.drain(..).filter_map(|(k, v)| Some((k, v?))).collect()
    }

    /// Whether no spec key was given as a flag.
    pub fn is_empty(&self) -> bool {
        self.values().is_empty()
    }

    /// The flags given, as they are written on a command line (to repeat them in a hint).
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        let mut add = |flag: &str, value: Option<String>| {
            if let Some(v) = value {
                words.push(format!("--{flag}"));
                words.push(v);
            }
        };
        add("name", self.name.clone());
        add("sizes", self.sizes.clone());
        add("boards", self.boards.clone());
        add("starts", self.starts.clone());
        add("rules", self.rules.clone());
        add("methods", self.methods.clone());
        add("trials", self.trials.map(|t| t.to_string()));
        add("seed", self.seed.map(|s| s.to_string()));
        add("budget", self.budget.clone());
        add("record", self.record.clone());
        add("attempts", self.attempts.map(|a| a.to_string()));
        add("leaper", self.leaper.clone());
        add("mask", self.mask.as_ref().map(|(f, _)| f.clone()));
        if let Some(c) = self.closed {
            words.push(format!("--closed={c}"));
        }
        if self.start_last {
            words.push("--start-last".into());
        }
        if self.no_prune {
            words.push("--no-prune".into());
        }
        words
    }

    /// The spec these flags make over `file` (its text, and its name for errors), or alone:
    /// validated as a spec file is. Without `name` from a file or `--name`, the spec is named
    /// [`ADHOC`] and a checksum of its settings, so that the same settings give the same folder.
    pub fn spec(&self, file: Option<(&str, &str)>) -> Result<Spec, SpecError> {
        let (text, label, unnamed) = self.text(file)?;
        let mut spec = Spec::from_toml(&text, &label)?;
        if unnamed {
            // the name takes no part in a sweep but its folder: a checksum of the rest names it
            let checksum = crc32fast::hash(spec_toml(&spec.file).as_bytes());
            spec.file.name = format!("{ADHOC}-{checksum:08x}");
        }
        Ok(spec)
    }

    /// The members these flags make over `file` (`family.rs`): `(sub-folder, spec)`, one with
    /// an empty folder when the spec has no lists of leapers or masks (then [`SpecFlags::spec`]'s).
    pub fn specs(&self, file: Option<(&str, &str)>) -> Result<Vec<(String, Spec)>, SpecError> {
        let (text, label, _) = self.text(file)?;
        match super::family::members(&text, &label)?.as_slice() {
            [one] if one.folder.is_empty() => Ok(vec![(String::new(), self.spec(file)?)]),
            _ => super::family::member_specs(&text, &label),
        }
    }

    /// The spec's TOML, the label its errors name it by, and whether it was given no name.
    fn text(&self, file: Option<(&str, &str)>) -> Result<(String, String, bool), SpecError> {
        let values = self.values();
        let flags = values
            .iter()
            .map(|(k, _)| format!("--{k}"))
            .collect::<Vec<_>>()
            .join(" ");
        let label = match file {
            Some((_, name)) => format!("{name} with flags {flags}"),
            None => format!("flags {flags}"),
        };
        let mut table = match file {
            Some((text, name)) => toml::from_str::<Table>(text).map_err(|e| SpecError::Toml {
                file: name.to_string(),
                message: e.to_string().trim().replace('\n', " "),
            })?,
            None => Table::new(),
        };
        for (key, value) in values {
            let value = value.map_err(|message| SpecError::Value {
                file: format!("flag --{key}"),
                key: key.to_string(),
                message,
            })?;
            table.insert(key.to_string(), value);
        }
        let unnamed = !table.contains_key("name") && file.is_none();
        if unnamed {
            table.insert("name".into(), Value::String(ADHOC.into()));
        }
        let text = toml::to_string(&table).map_err(|e| SpecError::Toml {
            file: label.clone(),
            message: e.to_string(),
        })?;
        Ok((text, label, unnamed))
    }
}

/// `spec` as a spec file, every key written (defaults too): what `sweep --print-spec` writes, and
/// read back it gives the same spec.
pub fn spec_toml(spec: &SpecFile) -> String {
    let table = Table::try_from(spec).expect("a spec file is a TOML table");
    // one line per key, in the order of the file's fields (a table value stays inline)
    let order = super::spec_file::spec_keys();
    let mut s = String::new();
    for key in order.iter().map(|k| k.key) {
        if let Some(v) = table.get(key) {
            s.push_str(&format!("{key} = {v}\n"));
        }
    }
    s
}

fn integer(n: u64) -> Result<Value, String> {
    i64::try_from(n)
        .map(Value::Integer)
        .map_err(|_| format!("{n} is more than a TOML integer holds ({})", i64::MAX))
}

/// A TOML value written out (`[8, 10]`, `{ from = 5, to = 9 }`), for flags that take one.
fn toml_value(s: &str) -> Result<Value, String> {
    toml::from_str::<Table>(&format!("v = {s}"))
        .map_err(|e| format!("{s:?} is not a TOML value: {}", e.message()))?
        .remove("v")
        .ok_or_else(|| format!("{s:?} is not a TOML value"))
}

fn is_toml(s: &str) -> bool {
    s.trim_start().starts_with(['[', '{'])
}

fn number(s: &str, what: &str, whole: &str) -> Result<Value, String> {
    s.trim()
        .parse::<u32>()
        .map(|n| Value::Integer(n.into()))
        .map_err(|_| format!("{whole:?}: {s:?} is not {what}"))
}

fn sizes_value(s: &str) -> Result<Value, String> {
    if is_toml(s) {
        return toml_value(s);
    }
    if s.contains("..") {
        return Ok(Value::String(s.to_string()));
    }
    let list = s.split(',').map(|n| number(n, "a size", s));
    Ok(Value::Array(list.collect::<Result<_, _>>().map_err(
        |e| format!("{e}; expected sizes like 8,10,12 or a range like 5..=64"),
    )?))
}

/// `--boards`: boards `ROWSxCOLS` and ranges of boards (`10..=50x10..=50`, left to the spec to
/// read, as a string in the list) separated by commas; one range alone is the key's range form.
fn boards_value(s: &str) -> Result<Value, String> {
    if is_toml(s) {
        return toml_value(s);
    }
    let board = |b: &str| -> Result<Value, String> {
        if b.contains("..") {
            return Ok(Value::String(b.trim().to_string()));
        }
        let (r, c) = b
            .split_once('x')
            .ok_or_else(|| format!("{s:?}: {b:?} is not ROWSxCOLS"))?;
        Ok(Value::Array(vec![
            number(r, "a number of rows", s)?,
            number(c, "a number of columns", s)?,
        ]))
    };
    let mut entries = s
        .split(',')
        .map(board)
        .collect::<Result<Vec<Value>, _>>()
        .map_err(|e| {
            format!("{e}; expected boards like 5x6,8x10 or a range like \"10..=50 x 10..=50\"")
        })?;
    Ok(match entries.as_slice() {
        [Value::String(_)] => entries.remove(0),
        _ => Value::Array(entries),
    })
}

fn starts_value(s: &str) -> Result<Value, String> {
    if is_toml(s) {
        return toml_value(s);
    }
    if s.trim_start()
        .starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return Ok(Value::String(s.to_string()));
    }
    let square = |q: &str| -> Result<Value, String> {
        let (r, c) = q
            .split_once(',')
            .ok_or_else(|| format!("{s:?}: {q:?} is not ROW,COL"))?;
        Ok(Value::Array(vec![
            number(r, "a row", s)?,
            number(c, "a column", s)?,
        ]))
    };
    Ok(Value::Array(
        s.split([';', ' '])
            .filter(|q| !q.is_empty())
            .map(square)
            .collect::<Result<_, _>>()
            .map_err(|e| {
                format!(
                    "{e}; expected all, corner, corners, edges, sample:K or squares like 0,0;1,2"
                )
            })?,
    ))
}

fn names_value(s: &str) -> Result<Value, String> {
    if is_toml(s) {
        return toml_value(s);
    }
    // commas inside an ordering's offsets, `order:(1,2)...`, do not separate names
    Ok(Value::Array(
        crate::solve::rules::split_outside_parens(s, ',')
            .into_iter()
            .map(|n| Value::String(n.trim().to_string()))
            .collect(),
    ))
}

fn budget_value(s: &str) -> Result<Value, String> {
    match s.trim().parse::<u64>() {
        Ok(n) => integer(n),
        Err(_) => Ok(Value::String(s.trim().to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags() -> SpecFlags {
        SpecFlags {
            sizes: Some("8".into()),
            ..SpecFlags::default()
        }
    }

    #[test]
    fn flags_alone_make_a_named_spec_of_the_defaults() {
        let s = flags().spec(None).unwrap();
        assert_eq!(s.boards.len(), 1);
        assert!(s.file.name.starts_with("adhoc-") && s.file.name.len() == 14);
        let again = flags().spec(None).unwrap();
        assert_eq!(s.file.name, again.file.name);
        let other = SpecFlags {
            rules: Some("roth".into()),
            ..flags()
        };
        assert_ne!(other.spec(None).unwrap().file.name, s.file.name);
        // a default written out is the same spec, so the same name
        let explicit = SpecFlags {
            rules: Some("first".into()),
            seed: Some(0),
            ..flags()
        };
        assert_eq!(explicit.spec(None).unwrap().file, s.file);
    }

    /// `--leaper` and `--mask` give their keys; the spec holds the mask's text, so `--print-spec`
    /// writes a spec that reads back the same, and the mask is the one board.
    #[test]
    fn leaper_and_mask_flags_give_their_keys() {
        let f = SpecFlags {
            leaper: Some("zebra".into()),
            mask: Some(("m.txt".into(), "....\n.#..\n....\n".into())),
            rules: Some("pohl".into()),
            ..SpecFlags::default()
        };
        let s = f.spec(None).unwrap();
        assert_eq!(s.leaper, crate::board::Leaper::new(2, 3).unwrap());
        let mask = s.mask.as_ref().unwrap();
        assert_eq!(
            (mask.board(), mask.len()),
            (crate::board::Board::new(3, 4).unwrap(), 11)
        );
        assert_eq!(s.boards, [mask.board()]);
        assert_eq!(
            s.starts,
            crate::experiment::spec::StartSet::List(mask.squares().collect())
        );
        let again = Spec::from_toml(&spec_toml(&s.file), "again").unwrap();
        assert_eq!(
            (again.leaper, again.mask.clone()),
            (s.leaper, s.mask.clone())
        );
        assert!(f.words().join(" ").contains("--leaper zebra --mask m.txt"));
        // knight rules on whole boards only; the one board is the mask's
        for (flags, says) in [
            (
                SpecFlags {
                    rules: Some("roth".into()),
                    ..f.clone()
                },
                "whole boards",
            ),
            (
                SpecFlags {
                    sizes: Some("8".into()),
                    ..f.clone()
                },
                "one board",
            ),
            (
                SpecFlags {
                    starts: Some("1,1".into()),
                    ..f.clone()
                },
                "hole",
            ),
            (
                SpecFlags {
                    starts: Some("edges".into()),
                    ..f.clone()
                },
                "edges",
            ),
            (
                SpecFlags {
                    leaper: Some("2,2".into()),
                    ..f.clone()
                },
                "leaper",
            ),
        ] {
            let e = flags.spec(None).unwrap_err().to_string();
            assert!(e.contains(says), "{says}: {e}");
        }
    }

    #[test]
    fn each_flag_form_gives_its_key() {
        let f = SpecFlags {
            name: Some("x".into()),
            sizes: Some("5..=7".into()),
            boards: Some("5x6,6x8".into()),
            starts: Some("0,0;1,2".into()),
            rules: Some(
                "first,roth,order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)|pohl".into(),
            ),
            methods: Some("warnsdorff, backtrack".into()),
            trials: Some(3),
            seed: Some(9),
            budget: Some("2*squares".into()),
            record: Some("runs".into()),
            closed: Some(true),
            attempts: Some(2),
            start_last: true,
            no_prune: true,
            leaper: None,
            mask: None,
        };
        let s = f.spec(None).unwrap();
        let want = Spec::from_toml(
            "name = \"x\"\nsizes = \"5..=7\"\nboards = [[5, 6], [6, 8]]\nstarts = [[0, 0], [1, 2]]\nrules = [\"first\", \"roth\", \"order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)|pohl\"]\nmethods = [\"warnsdorff\", \"backtrack\"]\ntrials = 3\nseed = 9\nbudget = \"2*squares\"\nrecord = \"runs\"\nclosed = true\nattempts = 2\nclosing = \"start-last\"\nprune = false",
            "t",
        )
        .unwrap();
        assert_eq!(s.file, want.file);
        let lists = SpecFlags {
            sizes: Some("8,10".into()),
            starts: Some("sample:3".into()),
            budget: Some("500".into()),
            ..SpecFlags::default()
        };
        let s = lists.spec(None).unwrap();
        assert_eq!(s.boards.len(), 2);
        assert_eq!(s.budget, crate::experiment::Budget::Nodes(500));
        let table = SpecFlags {
            sizes: Some("{ from = 6, to = 10, step = 2 }".into()),
            ..SpecFlags::default()
        };
        assert_eq!(table.spec(None).unwrap().boards.len(), 3);
        // a range of boards alone is the key's range; with boards, an entry of the list
        let range = SpecFlags {
            boards: Some("10..=12:2 x 5..=6".into()),
            ..SpecFlags::default()
        };
        let s = range.spec(None).unwrap();
        let want = Spec::from_toml("name = \"x\"\nboards = \"10..=12:2 x 5..=6\"", "t").unwrap();
        assert_eq!((s.file.boards, s.boards), (want.file.boards, want.boards));
        let mixed = SpecFlags {
            boards: Some("5x6,8..=9x8".into()),
            ..SpecFlags::default()
        };
        let s = mixed.spec(None).unwrap();
        let want = Spec::from_toml("name = \"x\"\nboards = [[5, 6], \"8..=9x8\"]", "t").unwrap();
        assert_eq!((s.file.boards, s.boards), (want.file.boards, want.boards));
        let bad = SpecFlags {
            boards: Some("5x6,8..=x8".into()),
            ..SpecFlags::default()
        };
        let e = bad.spec(None).unwrap_err().to_string();
        assert!(
            e.contains("boards[1]") && e.contains("expected boards like"),
            "{e}"
        );
    }

    #[test]
    fn flags_override_the_file_and_errors_name_the_key() {
        let file = "name = \"f\"\nsizes = [5]\nrules = [\"roth\"]\nseed = 4\n";
        let f = SpecFlags {
            rules: Some("first,pohl".into()),
            ..SpecFlags::default()
        };
        let s = f.spec(Some((file, "f.toml"))).unwrap();
        assert_eq!(s.file.name, "f");
        assert_eq!(s.file.rules, ["first", "pohl"]);
        assert_eq!(s.file.seed, 4);
        for (f, needle) in [
            (
                SpecFlags {
                    rules: Some("first,nope".into()),
                    ..flags()
                },
                "key `rules[1]`",
            ),
            (
                SpecFlags {
                    sizes: Some("8,x".into()),
                    ..SpecFlags::default()
                },
                "flag --sizes: key `sizes`",
            ),
            (
                SpecFlags {
                    record: Some("all".into()),
                    ..flags()
                },
                "record",
            ),
            (
                SpecFlags {
                    trials: Some(0),
                    ..flags()
                },
                "key `trials`",
            ),
            (SpecFlags::default(), "`sizes`"),
        ] {
            let e = f.spec(None).unwrap_err().to_string();
            assert!(e.contains(needle), "{needle}: {e}");
        }
    }

    #[test]
    fn the_printed_spec_reads_back_as_the_same_spec() {
        for f in [
            flags(),
            SpecFlags {
                sizes: Some("{ from = 6, to = 10, step = 2 }".into()),
                boards: Some("5x6".into()),
                starts: Some("1,2".into()),
                rules: Some("order:*".into()),
                budget: Some("3*squares".into()),
                ..SpecFlags::default()
            },
        ] {
            let s = f.spec(None).unwrap();
            let text = spec_toml(&s.file);
            let back = Spec::from_toml(&text, "printed").unwrap();
            assert_eq!(back.file, s.file, "{text}");
            assert_eq!(back.boards, s.boards);
        }
    }
}
