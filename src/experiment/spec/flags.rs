//! A spec given as `ktour sweep` flags: each key of the table (`keys.rs`) is a flag of its name (or
//! of its line's), which sets the key over a spec file's. The flags are written into the spec's
//! TOML and validated as a spec file is, so that a spec from flags is a spec file (the one
//! `--print-spec` writes); a value that does not read as its key's type is refused against its
//! flag, with what the key takes. A sweep from flags alone is named from its flags and lands
//! outside any repository ([`sweep_folder`]).

use super::file::SpecFile;
use super::keys::{Key, KEYS};
use super::{Spec, SpecError};
use std::path::PathBuf;
use toml::{Table, Value};

/// What a key's flag takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// A value, once.
    Value,
    /// A file whose text is the value; again for a list (a family).
    File,
    /// Nothing, or `=true`/`=false` (`--closed`).
    Bool,
    /// Nothing: the flag's presence sets the key (`--start-last`).
    Switch,
}

/// A key as a flag of `ktour sweep`.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// The flag's name where it is not the key's (`start-last` for `closing`).
    pub long: Option<&'static str>,
    /// What it takes.
    pub takes: Takes,
    /// The name of its value in `--help`.
    pub value_name: &'static str,
    /// How its value is written, for `--help` and the docs.
    pub syntax: &'static str,
    /// Its value as the key's TOML value.
    pub to_toml: fn(&str) -> Result<Value, String>,
}

impl Flag {
    /// A flag of the key's name taking a value.
    pub const fn value(
        value_name: &'static str,
        syntax: &'static str,
        to_toml: fn(&str) -> Result<Value, String>,
    ) -> Flag {
        Flag {
            long: None,
            takes: Takes::Value,
            value_name,
            syntax,
            to_toml,
        }
    }

    /// A flag of the key's name taking a file, its text the value.
    pub const fn file(value_name: &'static str, syntax: &'static str) -> Flag {
        Flag {
            takes: Takes::File,
            ..Flag::value(value_name, syntax, super::flag_values::text)
        }
    }

    /// `--KEY` or `--KEY=BOOL`.
    pub const fn bool(syntax: &'static str) -> Flag {
        Flag {
            takes: Takes::Bool,
            ..Flag::value("BOOL", syntax, super::flag_values::boolean)
        }
    }

    /// A flag `--LONG` without value, which sets the key to `to_toml("")`.
    pub const fn switch(
        long: &'static str,
        syntax: &'static str,
        to_toml: fn(&str) -> Result<Value, String>,
    ) -> Flag {
        Flag {
            long: Some(long),
            takes: Takes::Switch,
            ..Flag::value("", syntax, to_toml)
        }
    }
}

impl Key {
    /// The name of the key's flag, without `--`.
    pub fn flag_long(&self) -> &'static str {
        self.flag.long.unwrap_or(self.name)
    }
}

/// Spec keys given as flags, as written on the command line: per key given, in the table's order,
/// its values (a file's name for `--mask`; none for a switch).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecFlags {
    given: Vec<(&'static str, Vec<String>)>,
}

impl SpecFlags {
    /// These flags and the key `key` given `values` (a switch: none); `None` if no key is `key`.
    pub fn with(mut self, key: &str, values: &[&str]) -> Option<SpecFlags> {
        let key = Key::named(key)?;
        self.given.retain(|(k, _)| *k != key.name);
        self.given
            .push((key.name, values.iter().map(|v| v.to_string()).collect()));
        let place = |k: &str| KEYS.iter().position(|key| key.name == k);
        self.given.sort_by_key(|(k, _)| place(k));
        Some(self)
    }

    /// Whether no spec key was given as a flag.
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
    }

    /// The flags given, as they are written on a command line (to repeat them in a hint).
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        for (name, values) in &self.given {
            let key = Key::named(name).expect("a key");
            let long = key.flag_long();
            match key.flag.takes {
                Takes::Switch => words.push(format!("--{long}")),
                Takes::Bool => words.push(format!("--{long}={}", values.join(""))),
                Takes::Value | Takes::File => {
                    for v in values {
                        words.push(format!("--{long}"));
                        words.push(v.clone());
                    }
                }
            }
        }
        words
    }

    /// The keys given, each with its flag's value as TOML: refused against the flag where the
    /// value is not one its key takes.
    fn values(&self) -> Result<Vec<(&'static Key, Value)>, SpecError> {
        let mut out = Vec::new();
        for (name, values) in &self.given {
            let key = Key::named(name).expect("a key");
            let refuse = |message: String| SpecError::Value {
                file: format!("flag --{}", key.flag_long()),
                key: key.name.to_string(),
                message,
            };
            let value = match key.flag.takes {
                Takes::File => {
                    let mut texts = Vec::new();
                    for path in values {
                        let text = crate::input::read_mask(std::path::Path::new(path))
                            .map_err(|e| refuse(format!("reading {path}: {e}")))?;
                        texts.push(Value::String(text));
                    }
                    match texts.len() {
                        1 => texts.remove(0),
                        _ => Value::Array(texts),
                    }
                }
                _ => {
                    (key.flag.to_toml)(values.first().map_or("", String::as_str)).map_err(refuse)?
                }
            };
            // a list of leapers or masks is a family's, whose members each read one
            let one = match &value {
                Value::Array(v) if key.flag.takes == Takes::File || key.name == "leaper" => {
                    v.first().cloned()
                }
                v => Some(v.clone()),
            };
            if let Some(v) = one {
                (key.read)(v).map_err(|m| {
                    let given = values.join(" ");
                    refuse(format!("{given:?}: {m}"))
                })?;
            }
            out.push((key, value));
        }
        Ok(out)
    }

    /// The spec these flags make over `file` (its text, and its name for errors), or alone:
    /// validated as a spec file is. Without `name` from a file or `--name`, the spec is named from
    /// its flags and a checksum of its settings ([`SpecFlags::toml`]).
    pub fn spec(&self, file: Option<(&str, &str)>) -> Result<Spec, SpecError> {
        let (text, label) = self.toml(file)?;
        Spec::from_toml(&text, &label).map_err(|e| self.against_flag(e))
    }

    /// The members these flags make over `file` (`family.rs`): `(sub-folder, spec)`, one with
    /// an empty folder when the spec has no lists of leapers or masks.
    pub fn specs(&self, file: Option<(&str, &str)>) -> Result<Vec<(String, Spec)>, SpecError> {
        let (text, label) = self.toml(file)?;
        super::family::member_specs(&text, &label).map_err(|e| self.against_flag(e))
    }

    /// An error of a key given by a flag, told against the flag.
    fn against_flag(&self, e: SpecError) -> SpecError {
        match e {
            SpecError::Value { key, message, .. }
                if self.given.iter().any(|(k, _)| {
                    key == *k || key.strip_prefix(k).is_some_and(|r| r.starts_with('['))
                }) =>
            {
                let base = key.split('[').next().unwrap_or_default();
                let long = Key::named(base).map_or(base, |k| k.flag_long());
                SpecError::Value {
                    file: format!("flag --{long}"),
                    key,
                    message,
                }
            }
            e => e,
        }
    }

    /// The spec's TOML (a family's, with its lists) and the label its errors name it by. A spec
    /// from flags alone without `--name` is named by [`readable_name`] and a checksum of its
    /// settings, so that the same settings (defaults written out or not) give the same folder.
    pub fn toml(&self, file: Option<(&str, &str)>) -> Result<(String, String), SpecError> {
        let flags = self
            .given
            .iter()
            .map(|(k, _)| format!("--{}", Key::named(k).expect("a key").flag_long()))
            .collect::<Vec<_>>()
            .join(" ");
        let label = match file {
            Some((_, name)) => format!("{name} with flags {flags}"),
            None => format!("flags {flags}"),
        };
        let mut table = match file {
            Some((text, name)) => super::parse_table(text, name)?,
            None => Table::new(),
        };
        for (key, value) in self.values()? {
            table.insert(key.name.to_string(), value);
        }
        if !table.contains_key("name") && file.is_none() {
            table.insert("name".into(), Value::String(ADHOC.into()));
            let name = adhoc_name(&table, &label);
            table.insert("name".into(), Value::String(name));
        }
        let text = toml::to_string(&table).map_err(|e| SpecError::Toml {
            file: label.clone(),
            message: e.to_string(),
        })?;
        Ok((text, label))
    }
}

/// The name a spec from flags alone has while its checksum is taken.
pub const ADHOC: &str = "adhoc";

/// The name of a spec from flags alone, `table` (named [`ADHOC`]): [`readable_name`] of its
/// settings and a checksum of them, each member's spec with every key written, so that the same
/// settings (defaults written out or not) give the same name. A spec that does not read is left
/// to validation to refuse (its name is then [`ADHOC`] and a checksum of its text).
fn adhoc_name(table: &Table, label: &str) -> String {
    let text = toml::to_string(table).unwrap_or_default();
    let unread = || format!("{ADHOC}-{:08x}", crc32fast::hash(text.as_bytes()));
    let Ok(members) = super::family::members(&text, label) else {
        return unread();
    };
    let mut all = String::new();
    let mut first = None;
    for m in members {
        match toml::from_str::<Table>(&m.text).map(SpecFile::from_table) {
            Ok(Ok(mut f)) => {
                f.name = ADHOC.into();
                all += &spec_toml(&f);
                first.get_or_insert(f);
            }
            _ => return unread(),
        }
    }
    let Some(first) = first else { return unread() };
    let checksum = crc32fast::hash(all.as_bytes());
    format!("{}{checksum:08x}", readable_name(&first, table))
}

/// Most characters of a name's words ([`readable_name`]), before its checksum.
const NAME_WORDS: usize = 40;

/// The words of a spec's name from flags alone: the values of its keys that are not their
/// defaults, in the table's order (a family's lists from `family`, the spec with them), each
/// character that is not a letter or a digit a `-`, at most 40 characters, ending
/// in `-`: with a checksum after them, a folder name a person can find again (`5-8-first-roth-`).
pub fn readable_name(file: &SpecFile, family: &Table) -> String {
    fn words(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Array(a) => a.iter().map(words).collect::<Vec<_>>().join("-"),
            Value::Table(t) => t.values().map(words).collect::<Vec<_>>().join("-"),
            v => v.to_string(),
        }
    }
    let mut name = String::new();
    for (key, value) in file.values() {
        let value = match key.name {
            "leaper" | "mask" => family.get(key.name).cloned().or(value),
            _ => value,
        };
        if key.name == "name" {
            continue;
        }
        let word = match value {
            None => continue,
            Some(v) if key.default_value().as_ref() == Some(&v) => continue,
            Some(_) if key.name == "mask" => key.name.to_string(),
            Some(Value::Boolean(b)) => format!("{}-{b}", key.name),
            Some(v) => words(&v),
        };
        for c in word.chars() {
            let c = if c.is_ascii_alphanumeric() { c } else { '-' };
            if !(c == '-' && (name.is_empty() || name.ends_with('-'))) {
                name.push(c);
            }
        }
        if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    if name.len() > NAME_WORDS {
        name.truncate(NAME_WORDS);
        name = name.trim_end_matches('-').to_string();
        name.push('-');
    }
    name
}

/// Where a sweep goes without `--out`: a spec file's to `results/<name>/` beside the experiments
/// it belongs to; a sweep from flags alone (`from_flags`) to `<data>/ktour/sweeps/<name>/`, where
/// `<data>` is `$XDG_DATA_HOME`, else `$HOME/.local/share`, so that a quick sweep never writes
/// into the repository it is run from (`ktour-sweeps/<name>/` in the current folder where neither
/// is set).
pub fn sweep_folder(name: &str, from_flags: bool) -> PathBuf {
    if !from_flags {
        return PathBuf::from("results").join(name);
    }
    let absolute = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    match (absolute("XDG_DATA_HOME"), absolute("HOME")) {
        (Some(data), _) => data.join("ktour").join("sweeps").join(name),
        (None, Some(home)) => home.join(".local/share/ktour/sweeps").join(name),
        (None, None) => PathBuf::from("ktour-sweeps").join(name),
    }
}

/// One key of a spec file as `--print-spec` writes it: `name = value`, or, without a value, a
/// comment saying what its absence means.
pub(super) fn push_key(s: &mut String, key: &Key, value: Option<&Value>) {
    match value {
        Some(v) => s.push_str(&format!("{} = {v}\n", key.name)),
        None => s.push_str(&format!(
            "# {}: {}\n",
            key.name,
            key.absent.replace('`', "")
        )),
    }
}

/// `spec` as a spec file, every key written (defaults too) in the table's order, a key without a
/// value as a comment saying what that means: what `sweep --print-spec` writes, and read back it
/// gives the same spec.
pub fn spec_toml(spec: &SpecFile) -> String {
    let mut s = String::new();
    for (key, value) in spec.values() {
        push_key(&mut s, key, value.as_ref());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flags from `(key, value)` pairs.
    fn given(pairs: &[(&str, &str)]) -> SpecFlags {
        pairs.iter().fold(SpecFlags::default(), |f, (k, v)| {
            let values: &[&str] = if v.is_empty() { &[] } else { &[v] };
            f.with(k, values).unwrap()
        })
    }

    #[test]
    fn flags_alone_make_a_named_spec_of_the_defaults() {
        let s = given(&[("sizes", "8")]).spec(None).unwrap();
        assert_eq!(s.boards.len(), 1);
        assert!(
            s.file.name.starts_with("8-") && s.file.name.len() == 10,
            "{}",
            s.file.name
        );
        let again = given(&[("sizes", "8")]).spec(None).unwrap();
        assert_eq!(s.file.name, again.file.name);
        let other = given(&[("sizes", "8"), ("rules", "roth")])
            .spec(None)
            .unwrap();
        assert!(
            other.file.name.starts_with("8-roth-"),
            "{}",
            other.file.name
        );
        assert_ne!(other.file.name, s.file.name);
        // a default written out is the same spec, so the same name
        let explicit = given(&[("sizes", "8"), ("rules", "first"), ("seed", "0")]);
        assert_eq!(explicit.spec(None).unwrap().file, s.file);
        // the words are at most 40 characters, then the checksum
        let long = given(&[
            ("sizes", "5..=64"),
            ("rules", "first,roth,pohl,random,center,squirrel"),
        ]);
        let name = long.spec(None).unwrap().file.name;
        assert!(
            name.len() <= 40 + 9 && name.starts_with("5-64-first-roth-pohl"),
            "{name}"
        );
    }

    /// A mask in a file of its own, for `--mask`.
    fn mask_file(dir: &std::path::Path, name: &str, text: &str) -> String {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    /// `--leaper` and `--mask` give their keys; the spec holds the mask's text, and the mask is the
    /// one board.
    #[test]
    fn leaper_and_mask_flags_give_their_keys() {
        let dir = tempfile::tempdir().unwrap();
        let m = mask_file(dir.path(), "m.txt", "....\n.#..\n....\n");
        let f = given(&[("leaper", "zebra"), ("mask", &m), ("rules", "pohl")]);
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
            super::super::StartSet::List(mask.squares().collect())
        );
        assert!(f
            .words()
            .join(" ")
            .contains(&format!("--leaper zebra --mask {m}")));
        // knight rules on whole boards only; the one board is the mask's
        for (more, says) in [
            (("rules", "roth"), "whole boards"),
            (("sizes", "8"), "one board"),
            (("starts", "1,1"), "hole"),
            (("starts", "edges"), "edges"),
            (("leaper", "2,2"), "leaper"),
        ] {
            let flags = f.clone().with(more.0, &[more.1]).unwrap();
            let e = flags.spec(None).unwrap_err().to_string();
            assert!(e.contains(says), "{says}: {e}");
        }
    }

    #[test]
    fn each_flag_form_gives_its_key() {
        let f = given(&[
            ("name", "x"),
            ("sizes", "5..=7"),
            ("boards", "5x6,6x8"),
            ("starts", "0,0;1,2"),
            (
                "rules",
                "first,roth,order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)|pohl",
            ),
            ("methods", "warnsdorff, backtrack"),
            ("trials", "3"),
            ("seed", "9"),
            ("budget", "2*squares"),
            ("record", "runs"),
            ("closed", "true"),
            ("attempts", "2"),
            ("closing", ""),
            ("prune", ""),
        ]);
        assert_eq!(
            f.words().join(" "),
            "--name x --sizes 5..=7 --boards 5x6,6x8 --starts 0,0;1,2 --rules first,roth,order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)|pohl --methods warnsdorff, backtrack --closed=true --trials 3 --seed 9 --budget 2*squares --record runs --attempts 2 --start-last --no-prune"
        );
        let s = f.spec(None).unwrap();
        let want = Spec::from_toml(
            "name = \"x\"\nsizes = \"5..=7\"\nboards = [[5, 6], [6, 8]]\nstarts = [[0, 0], [1, 2]]\nrules = [\"first\", \"roth\", \"order:(1,2)(1,-2)(-1,2)(-1,-2)(2,1)(2,-1)(-2,1)(-2,-1)|pohl\"]\nmethods = [\"warnsdorff\", \"backtrack\"]\ntrials = 3\nseed = 9\nbudget = \"2*squares\"\nrecord = \"runs\"\nclosed = true\nattempts = 2\nclosing = \"start-last\"\nprune = false",
            "t",
        )
        .unwrap();
        assert_eq!(s, want);
        let s = given(&[("sizes", "8,10"), ("starts", "sample:3"), ("budget", "500")])
            .spec(None)
            .unwrap();
        assert_eq!(s.boards.len(), 2);
        assert_eq!(s.budget, crate::experiment::Budget::Nodes(500));
        let table = given(&[("sizes", "{ from = 6, to = 10, step = 2 }")]);
        assert_eq!(table.spec(None).unwrap().boards.len(), 3);
        // a range of boards alone is the key's range; with boards, an entry of the list
        let s = given(&[("boards", "10..=12:2 x 5..=6")])
            .spec(None)
            .unwrap();
        let want = Spec::from_toml("name = \"x\"\nboards = \"10..=12:2 x 5..=6\"", "t").unwrap();
        assert_eq!((s.file.boards, s.boards), (want.file.boards, want.boards));
        let s = given(&[("boards", "5x6,8..=9x8")]).spec(None).unwrap();
        let want = Spec::from_toml("name = \"x\"\nboards = [[5, 6], \"8..=9x8\"]", "t").unwrap();
        assert_eq!((s.file.boards, s.boards), (want.file.boards, want.boards));
        let e = given(&[("boards", "5x6,8..=x8")])
            .spec(None)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("boards[1]") && e.contains("expected boards like"),
            "{e}"
        );
    }

    /// Flags replace the file's keys; an error of a key a flag gave is told against the flag,
    /// and a value the key cannot take names the flag and what the key takes.
    #[test]
    fn flags_override_the_file_and_errors_name_the_flag() {
        let file = "name = \"f\"\nsizes = [5]\nrules = [\"roth\"]\nseed = 4\n";
        let s = given(&[("rules", "first,pohl")])
            .spec(Some((file, "f.toml")))
            .unwrap();
        assert_eq!(s.file.name, "f");
        assert_eq!(s.file.rules, ["first", "pohl"]);
        assert_eq!(s.file.seed, 4);
        for (pairs, needle) in [
            (&[("sizes", "8"), ("rules", "first,nope")][..], "flag --rules: key `rules[1]`"),
            (&[("sizes", "8,x")][..], "flag --sizes: key `sizes`"),
            (
                &[("sizes", "8"), ("record", "everything")][..],
                "flag --record: key `record`: \"everything\": unknown variant `everything`, expected `summary` or `runs`",
            ),
            (&[("sizes", "8"), ("trials", "x")][..], "flag --trials"),
            (&[("sizes", "8"), ("trials", "0")][..], "flag --trials: key `trials`"),
            (&[("sizes", "8"), ("closing", "")][..], "flag --start-last"),
            (&[("rules", "first")][..], "`sizes`"),
        ] {
            let e = given(pairs).spec(None).unwrap_err().to_string();
            assert!(e.contains(needle) && !e.contains("line"), "{needle}: {e}");
        }
    }

    /// `--leaper` with several leapers, and `--mask` given again, make a family as lists in a
    /// spec do: its members are those of the spec with the lists.
    #[test]
    fn leaper_and_mask_lists_make_a_family() {
        let f = given(&[
            ("sizes", "8"),
            ("leaper", "camel,zebra,1,4"),
            ("rules", "pohl"),
        ]);
        let members = f.specs(None).unwrap();
        let folders: Vec<&str> = members.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(folders, ["camel", "zebra", "giraffe"]);
        let (text, _) = f.toml(None).unwrap();
        let name = &members[0].1.file.name;
        let family = name.strip_suffix("-camel").unwrap();
        let want = crate::experiment::member_specs(
            &format!("name = \"{family}\"\nsizes = [8]\nleaper = [\"camel\", \"zebra\", \"1,4\"]\nrules = [\"pohl\"]\n"),
            "t",
        )
        .unwrap();
        assert_eq!(members, want, "{text}");
        let dir = tempfile::tempdir().unwrap();
        let a = mask_file(dir.path(), "a.txt", "....\n.#..\n....\n");
        let b = mask_file(dir.path(), "b.txt", ".....\n.....\n..#..\n");
        let f = SpecFlags::default()
            .with("mask", &[&a, &b])
            .unwrap()
            .with("rules", &["pohl"])
            .unwrap();
        let members = f.specs(None).unwrap();
        let folders: Vec<&str> = members.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(folders, ["mask1", "mask2"]);
        assert_eq!(
            members[1].1.boards,
            [crate::board::Board::new(3, 5).unwrap()]
        );
    }

    /// What `--print-spec` writes is every key, and read back it is the same spec (so the same
    /// plan), or the same family: from flags, with leapers, masks and lists of them.
    #[test]
    fn the_printed_spec_reads_back_as_the_same_spec() {
        let dir = tempfile::tempdir().unwrap();
        let m = mask_file(
            dir.path(),
            "m.txt",
            "......\n.#....\n....#.\n......\n......\n",
        );
        let m2 = mask_file(dir.path(), "m2.txt", ".....\n.....\n..#..\n.....\n");
        for f in [
            given(&[("sizes", "8")]),
            given(&[
                ("sizes", "{ from = 6, to = 10, step = 2 }"),
                ("boards", "5x6"),
                ("starts", "1,2"),
                ("rules", "order:*"),
                ("budget", "3*squares"),
            ]),
            given(&[
                ("sizes", "8..=9"),
                ("leaper", "zebra"),
                ("rules", "pohl"),
                ("attempts", "2"),
            ]),
            given(&[
                ("mask", &m),
                ("rules", "first,pohl"),
                ("methods", "warnsdorff,backtrack"),
                ("prune", ""),
            ]),
            given(&[
                ("sizes", "8"),
                ("leaper", "camel,2,5"),
                ("rules", "pohl+random"),
                ("trials", "2"),
            ]),
            SpecFlags::default()
                .with("mask", &[&m, &m2])
                .unwrap()
                .with("leaper", &["zebra,giraffe"])
                .unwrap()
                .with("rules", &["pohl"])
                .unwrap(),
            given(&[
                ("sizes", "8"),
                ("closed", "true"),
                ("closing", ""),
                ("starts", "corners"),
            ]),
        ] {
            let (text, label) = f.toml(None).unwrap();
            let members = f.specs(None).unwrap();
            let printed =
                crate::experiment::family_toml(&text, &members, std::path::Path::new("out"));
            for key in KEYS {
                assert!(
                    printed.contains(&format!("{} = ", key.name))
                        || printed.contains(&format!("# {}: ", key.name)),
                    "{label}: {} missing from\n{printed}",
                    key.name
                );
            }
            let back = crate::experiment::member_specs(&printed, "printed").unwrap();
            assert_eq!(back, members, "{label}:\n{printed}");
            for ((_, a), (_, b)) in back.iter().zip(&members) {
                let (pa, pb) = (
                    crate::experiment::Plan::new(a).unwrap(),
                    crate::experiment::Plan::new(b).unwrap(),
                );
                assert_eq!(pa.total_runs(), pb.total_runs());
                assert_eq!(
                    pa.groups().collect::<Vec<_>>(),
                    pb.groups().collect::<Vec<_>>()
                );
            }
        }
    }

    /// Every committed experiment, printed, reads back as the same members (the same plans).
    #[test]
    fn every_experiment_prints_as_itself() {
        for entry in std::fs::read_dir("experiments").unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                continue;
            }
            let label = path.display().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let members = crate::experiment::member_specs(&text, &label).unwrap();
            let printed =
                crate::experiment::family_toml(&text, &members, std::path::Path::new("out"));
            let back = crate::experiment::member_specs(&printed, "printed").unwrap();
            assert_eq!(back, members, "{label}:\n{printed}");
        }
    }

    /// A sweep from flags alone lands in the data folder; a spec file's in `results/`.
    #[test]
    fn quick_sweeps_land_outside_the_repository() {
        assert_eq!(sweep_folder("x", false), PathBuf::from("results/x"));
        let quick = sweep_folder("x", true);
        assert!(
            quick.ends_with("ktour/sweeps/x") || quick == std::path::Path::new("ktour-sweeps/x"),
            "{quick:?}"
        );
    }
}
