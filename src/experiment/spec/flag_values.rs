//! How each form of a `ktour sweep` flag's value becomes its key's TOML value (the keys' table,
//! `keys.rs`, names one per key): lists separated by commas, boards `ROWSxCOLS`, squares `ROW,COL`,
//! a TOML value written out where a list or a table is wanted.

use toml::Value;

/// The text as a TOML string.
pub(crate) fn text(s: &str) -> Result<Value, String> {
    Ok(Value::String(s.to_string()))
}

/// A whole number.
pub(crate) fn integer(s: &str) -> Result<Value, String> {
    match s.trim().parse::<u64>() {
        Ok(n) => integer_value(n),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

/// `--closed[=BOOL]`.
pub(crate) fn boolean(s: &str) -> Result<Value, String> {
    match s.trim() {
        "true" => Ok(Value::Boolean(true)),
        "false" => Ok(Value::Boolean(false)),
        _ => Err(format!("{s:?}: expected true or false")),
    }
}

/// `--start-last`: `closing = "start-last"`.
pub(crate) fn start_last(_: &str) -> Result<Value, String> {
    Ok(Value::String(
        crate::solve::Closing::StartLast.name().into(),
    ))
}

/// A switch that turns its key off (`--no-prune`: `prune = false`).
pub(crate) fn no(_: &str) -> Result<Value, String> {
    Ok(Value::Boolean(false))
}

/// `--leaper`: one leaper (`A,B` or a name), or several separated by commas (`camel,zebra`,
/// `zebra,1,4`: two numbers in a row are one leaper), a list, which makes a family; or a TOML list.
pub(crate) fn leapers(s: &str) -> Result<Value, String> {
    if is_toml(s) {
        return toml_value(s);
    }
    let mut list = Vec::new();
    let mut words = s.split(',').map(str::trim).peekable();
    while let Some(w) = words.next() {
        let numeric = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
        if numeric(w) {
            match words.next() {
                Some(b) if numeric(b) => list.push(format!("{w},{b}")),
                _ => {
                    return Err(format!(
                    "{s:?}: a leaper A,B is two numbers; expected leapers like 2,3 or camel,zebra"
                ))
                }
            }
        } else {
            list.push(w.to_string());
        }
    }
    Ok(match list.len() {
        1 => Value::String(list.remove(0)),
        _ => Value::Array(list.into_iter().map(Value::String).collect()),
    })
}

fn integer_value(n: u64) -> Result<Value, String> {
    i64::try_from(n)
        .map(Value::Integer)
        .map_err(|_| format!("{n} is more than a TOML integer holds ({})", i64::MAX))
}

/// A TOML value written out (`[8, 10]`, `{ from = 5, to = 9 }`), for flags that take one.
fn toml_value(s: &str) -> Result<Value, String> {
    super::file::parse_value(s)
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

pub(crate) fn sizes(s: &str) -> Result<Value, String> {
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
pub(crate) fn boards(s: &str) -> Result<Value, String> {
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

pub(crate) fn starts(s: &str) -> Result<Value, String> {
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

pub(crate) fn names(s: &str) -> Result<Value, String> {
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

pub(crate) fn budget(s: &str) -> Result<Value, String> {
    match s.trim().parse::<u64>() {
        Ok(n) => integer_value(n),
        Err(_) => Ok(Value::String(s.trim().to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Leapers separated by commas: two numbers in a row are one leaper, several make a list.
    #[test]
    fn leaper_lists_pair_their_numbers() {
        let s = |v: &str| Value::String(v.into());
        assert_eq!(leapers("2,3"), Ok(s("2,3")));
        assert_eq!(leapers("zebra"), Ok(s("zebra")));
        assert_eq!(
            leapers("camel, zebra,1,4"),
            Ok(Value::Array(vec![s("camel"), s("zebra"), s("1,4")]))
        );
        assert!(leapers("1,zebra").is_err());
        assert!(leapers("1,2,3").is_err());
    }
}
