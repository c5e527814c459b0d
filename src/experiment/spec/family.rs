//! A spec with lists of leapers or masks (`leaper = ["zebra", "giraffe"]`, `mask = ["...", "..."]`):
//! a family of sweeps, one a member, each a spec of its own with one leaper and one mask, run into a
//! folder of its own under the family's (`results/NAME/zebra/`). Every member is a whole sweep:
//! resumed, sharded and merged as any other, its `meta.json` holding its own spec; the CSV columns
//! stay those of every sweep. (`docs/REFERENCE.md`, section 9.)

use super::{Spec, SpecError};
use toml::{Table, Value};

/// One member of a family: the folder it goes in under the family's (empty for a spec without
/// lists) and its spec's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The sub-folder: the leaper's name or `A-B`, `mask1`..., joined by `-` when both vary.
    pub folder: String,
    /// The member's spec, as TOML.
    pub text: String,
}

/// The members of the spec `text` (`file` names it in errors): one per leaper and mask of its
/// lists, in the order given, masks within leapers; a spec without lists is its own one member.
pub fn members(text: &str, file: &str) -> Result<Vec<Member>, SpecError> {
    let table: Table = super::parse_table(text, file)?;
    let list = |key: &str| match table.get(key) {
        Some(Value::Array(values)) => Some(values.clone()),
        _ => None,
    };
    let (leapers, masks) = (list("leaper"), list("mask"));
    if leapers.is_none() && masks.is_none() {
        return Ok(vec![Member {
            folder: String::new(),
            text: text.to_string(),
        }]);
    }
    let bad = |key: &str, message: String| SpecError::Value {
        file: file.to_string(),
        key: key.to_string(),
        message,
    };
    for (key, values) in [("leaper", &leapers), ("mask", &masks)] {
        if let Some(v) = values {
            if v.is_empty() {
                return Err(bad(key, "the list is empty; give at least one".into()));
            }
            if let Some(i) = v.iter().position(|x| !x.is_str()) {
                return Err(bad(&format!("{key}[{i}]"), "expected a string".into()));
            }
        }
    }
    let name = table
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let one = |v: &Option<Vec<Value>>| {
        v.clone()
            .map_or(vec![None], |v| v.into_iter().map(Some).collect())
    };
    let mut out: Vec<Member> = Vec::new();
    for leaper in one(&leapers) {
        for (m, mask) in one(&masks).into_iter().enumerate() {
            let mut t = table.clone();
            let mut parts = Vec::new();
            if let Some(l) = &leaper {
                let text = l.as_str().expect("checked");
                let parsed: crate::board::Leaper = text
                    .parse()
                    .map_err(|e: crate::board::ShapeError| bad("leaper", e.to_string()))?;
                parts.push(
                    parsed
                        .name()
                        .map_or(format!("{}-{}", parsed.a(), parsed.b()), str::to_string),
                );
                t.insert("leaper".into(), l.clone());
            }
            if let Some(mask) = &mask {
                parts.push(format!("mask{}", m + 1));
                t.insert("mask".into(), mask.clone());
            }
            let folder = parts.join("-");
            if let Some(prev) = out.iter().find(|p| p.folder == folder) {
                return Err(bad(
                    "leaper",
                    format!("{folder:?} is listed twice ({})", prev.folder),
                ));
            }
            t.insert("name".into(), Value::String(format!("{name}-{folder}")));
            let text = toml::to_string(&t).map_err(|e| SpecError::Toml {
                file: file.to_string(),
                message: e.to_string(),
            })?;
            out.push(Member { folder, text });
        }
    }
    Ok(out)
}

/// The spec to print for `text`, whose members are `members` ([`member_specs`]), every key
/// written: a spec without lists as [`super::flags::spec_toml`] writes it; a family as its first
/// member with the family's name and lists, then a comment line per member naming it and the
/// folder it goes in under `out`. Read back, either gives the same members.
pub fn family_toml(text: &str, members: &[(String, Spec)], out: &std::path::Path) -> String {
    let first = &members[0].1.file;
    let single = members.len() == 1 && members[0].0.is_empty();
    let Ok(family) = toml::from_str::<Table>(text) else {
        return super::flags::spec_toml(first);
    };
    if single {
        return super::flags::spec_toml(first);
    }
    let mut s = String::new();
    for (key, value) in first.values() {
        let value = match key.name {
            "name" | "leaper" | "mask" => family.get(key.name).cloned().or(value),
            _ => value,
        };
        super::flags::push_key(&mut s, key, value.as_ref());
    }
    for (folder, spec) in members {
        s.push_str(&format!(
            "# member {folder}: name = {:?}, into {}\n",
            spec.file.name,
            out.join(folder).display()
        ));
    }
    s
}

/// The members' specs, validated.
pub fn member_specs(text: &str, file: &str) -> Result<Vec<(String, Spec)>, SpecError> {
    members(text, file)?
        .into_iter()
        .map(|m| {
            let label = if m.folder.is_empty() {
                file.to_string()
            } else {
                format!("{file} ({})", m.folder)
            };
            Ok((m.folder, Spec::from_toml(&m.text, &label)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_make_one_member_each_and_a_spec_without_is_itself() {
        let text = "name = \"l\"\nsizes = \"8..=9\"\nleaper = [\"zebra\", \"1,4\", \"3,4\"]\nrules = [\"pohl\"]\n";
        let specs = member_specs(text, "l.toml").unwrap();
        let folders: Vec<&str> = specs.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(folders, ["zebra", "giraffe", "3-4"]);
        assert_eq!(specs[1].1.leaper, crate::board::Leaper::new(1, 4).unwrap());
        assert_eq!(specs[2].1.file.name, "l-3-4");
        let both = "name = \"m\"\nleaper = [\"knight\", \"zebra\"]\nmask = [\"...\\n.#.\\n...\", \"....\\n....\"]\n";
        let m = members(both, "m.toml").unwrap();
        let folders: Vec<&str> = m.iter().map(|m| m.folder.as_str()).collect();
        assert_eq!(
            folders,
            ["knight-mask1", "knight-mask2", "zebra-mask1", "zebra-mask2"]
        );
        let single = "name = \"s\"\nsizes = [8]\nleaper = \"zebra\"\n";
        assert_eq!(
            members(single, "s.toml").unwrap(),
            vec![Member {
                folder: String::new(),
                text: single.into()
            }]
        );
        for (bad, says) in [
            ("name = \"x\"\nsizes = [8]\nleaper = []\n", "empty"),
            (
                "name = \"x\"\nsizes = [8]\nleaper = [\"zebra\", \"2,3\"]\n",
                "twice",
            ),
            (
                "name = \"x\"\nsizes = [8]\nleaper = [\"zebra\", 3]\n",
                "leaper[1]",
            ),
            (
                "name = \"x\"\nsizes = [8]\nleaper = [\"zebra\", \"2,2\"]\n",
                "leaper",
            ),
        ] {
            let e = member_specs(bad, "x.toml").unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
