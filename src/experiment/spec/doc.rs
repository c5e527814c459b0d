//! The keys' table (`keys.rs`) in words: the Markdown table of `docs/experiments.md` (between its
//! `<!-- spec-keys:begin -->` and `<!-- spec-keys:end -->` marks, held equal by a test that
//! `KTOUR_BLESS=1 cargo test --test integration documented_keys` rewrites it with) and the list of
//! defaults that `ktour sweep --help` ends with.

use super::flags::Takes;
use super::keys::KEYS;

/// The marks around the keys' table in `docs/experiments.md`.
pub const DOC_MARKS: (&str, &str) = ("<!-- spec-keys:begin -->", "<!-- spec-keys:end -->");

/// A key's help on one line (its doc comment's lines joined).
pub fn one_line(help: &str) -> String {
    help.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The key's flag as written (`--sizes SIZES`, `--start-last`, `--closed[=BOOL]`).
fn flag_words(key: &super::Key) -> String {
    let long = key.flag_long();
    match key.flag.takes {
        super::flags::Takes::Value | Takes::File => format!("--{long} {}", key.flag.value_name),
        Takes::Bool => format!("--{long}[=BOOL]"),
        Takes::Switch => format!("--{long}"),
    }
}

/// The keys as a Markdown table: key, default (or what a spec without it does), flag, what it
/// sets, and `ktour solve`'s setting.
pub fn spec_keys_markdown() -> String {
    let mut s = String::from(
        "| key | default | flag | what it sets | `solve`'s default |\n|---|---|---|---|---|\n",
    );
    for k in KEYS {
        let default = k.default.map_or(k.absent.to_string(), |d| format!("`{d}`"));
        let flag = match k.flag.syntax {
            "" => format!("`{}`", flag_words(k)),
            syntax => format!("`{}`: {}", flag_words(k), syntax.replace('|', "\\|")),
        };
        s.push_str(&format!(
            "| `{}` | {} | {flag} | {} | {} |\n",
            k.name,
            default.replace('|', "\\|"),
            one_line(k.help).replace('|', "\\|"),
            k.solve
        ));
    }
    s
}

/// The keys' defaults as plain text, for `ktour sweep --help`.
pub fn spec_keys_text() -> String {
    let mut s = String::from(
        "Spec keys (each also a flag), their defaults, and `solve`'s where it differs:\n",
    );
    for k in KEYS {
        let default = k
            .default
            .map_or_else(|| k.absent.replace('`', ""), str::to_string);
        s.push_str(&format!("  {:<8} {default}\n", k.name));
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

/// `page` with the text between [`DOC_MARKS`] replaced by [`spec_keys_markdown`]; `None` where
/// the page lacks the marks.
pub fn with_keys_table(page: &str) -> Option<String> {
    let (begin, end) = DOC_MARKS;
    let start = page.find(begin)? + begin.len();
    let stop = start + page[start..].find(end)?;
    Some(format!(
        "{}\n\n{}\n{}",
        &page[..start],
        spec_keys_markdown(),
        &page[stop..]
    ))
}
