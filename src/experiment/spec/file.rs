//! The spec file as written: the values of an experiment's keys before validation (`validate`
//! turns them into a [`crate::experiment::Spec`]), kept as written because `meta.json` records
//! them and `--resume` and `merge` compare them. [`SpecFile`] itself is made from the keys' table
//! (`keys.rs`) by [`spec_keys`]; here are its reading and writing and the values that TOML can give
//! in several shapes, deserialized by hand so that a wrong one is named with what was expected.

use super::keys::Key;
pub use super::keys::SpecFile;
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

/// Declares the spec's keys once ([`super::keys`] invokes it): from one line per key, with its Rust
/// type and its [`Key`], it makes [`SpecFile`] (a field per key, in the table's order), its reading
/// (unknown keys refused, a missing key its default, each value read as its key's type so that a
/// wrong one is named with its key) and its writing (a key at its default left out where its line
/// says so), and [`super::keys::KEYS`].
macro_rules! spec_keys {
    ($( $(#[doc = $doc:literal])* $field:ident : $ty:ty = $key:expr ; )*) => {
        /// The experiment file as written: one field per line of [`KEYS`], in its order.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SpecFile {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        /// Every key of a spec, in the order `--print-spec` writes them and validation checks them.
        pub const KEYS: &[Key] = &[
            $( Key {
                name: stringify!($field),
                help: concat!($($doc),*),
                read: $crate::experiment::spec::file::reads_as::<$ty>,
                ..$key
            }, )*
        ];

        impl SpecFile {
            /// The keys of `table` as the file's fields: each read as its key's type, a missing
            /// one its default; unknown keys are refused.
            pub fn from_table(
                mut table: toml::Table,
            ) -> Result<SpecFile, $crate::experiment::spec::file::KeyError> {
                $crate::experiment::spec::file::refuse_unknown(&table, KEYS)?;
                Ok(SpecFile {
                    $( $field: $crate::experiment::spec::file::take(&mut table, {
                        const I: usize = key_index(stringify!($field));
                        &KEYS[I]
                    })?, )*
                })
            }
        }

        impl SpecFile {
            /// Every key with its value as TOML, in the table's order (`None`: no value, which
            /// TOML cannot write).
            pub fn values(&self) -> Vec<(&'static Key, Option<toml::Value>)> {
                vec![ $( ({
                    const I: usize = key_index(stringify!($field));
                    &KEYS[I]
                }, toml::Value::try_from(&self.$field).ok()), )* ]
            }
        }

        impl serde::Serialize for SpecFile {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let mut st = s.serialize_struct("SpecFile", KEYS.len())?;
                $(
                    let key = {
                        const I: usize = key_index(stringify!($field));
                        &KEYS[I]
                    };
                    if $crate::experiment::spec::file::left_out(key, &self.$field) {
                        st.skip_field(stringify!($field))?;
                    } else {
                        st.serialize_field(stringify!($field), &self.$field)?;
                    }
                )*
                st.end()
            }
        }

        /// The place of the key `name` in [`KEYS`].
        const fn key_index(name: &str) -> usize {
            let mut i = 0;
            while i < KEYS.len() {
                if $crate::experiment::spec::file::const_eq(KEYS[i].name, name) {
                    return i;
                }
                i += 1;
            }
            panic!("a key of the table")
        }
    };
}
pub(crate) use spec_keys;

/// `a == b` in a constant.
pub(super) const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl<'de> Deserialize<'de> for SpecFile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // `meta.json` writes a key without a value as null: absent
        let given = std::collections::BTreeMap::<String, Option<toml::Value>>::deserialize(d)?;
        let table = given
            .into_iter()
            .filter_map(|(k, v)| Some((k, v?)))
            .collect();
        SpecFile::from_table(table).map_err(serde::de::Error::custom)
    }
}

/// A key whose value is not what is expected: the key (or its entry, `rules[1]`) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("key `{key}`: {message}")]
pub struct KeyError {
    /// The key, or the entry of its list.
    pub key: String,
    /// What is expected.
    pub message: String,
}

impl KeyError {
    /// The error `message` of `key`.
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        KeyError {
            key: key.into(),
            message: message.into(),
        }
    }
}

/// Whether `value` reads as a `T` (a key's [`Key::read`]), and if not why.
pub(crate) fn reads_as<T: serde::de::DeserializeOwned>(value: toml::Value) -> Result<(), String> {
    T::deserialize(value).map(drop).map_err(|e| message(&e))
}

/// A TOML error's message without its trailing line break.
fn message(e: &toml::de::Error) -> String {
    e.message().trim().to_string()
}

/// Refuses a key of `table` that no line of `keys` names.
pub(crate) fn refuse_unknown(table: &toml::Table, keys: &[Key]) -> Result<(), KeyError> {
    match table
        .keys()
        .find(|k| !keys.iter().any(|key| key.name == *k))
    {
        Some(k) => Err(KeyError::new(
            k.as_str(),
            format!(
                "unknown key; the keys are {}",
                keys.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            ),
        )),
        None => Ok(()),
    }
}

/// The value of `key` in `table`, taken out and read as a `T`; its default where absent.
pub(crate) fn take<T: serde::de::DeserializeOwned>(
    table: &mut toml::Table,
    key: &Key,
) -> Result<T, KeyError> {
    match table.remove(key.name) {
        Some(v) => T::deserialize(v).map_err(|e| KeyError::new(key.name, message(&e))),
        None => match key.default {
            Some(text) => {
                Ok(T::deserialize(toml_value(text)).expect("the table's defaults read (tested)"))
            }
            // an `Option` reads "nothing" as `None`; a key that has to be given does not
            None => T::deserialize(serde::de::value::UnitDeserializer::<toml::de::Error>::new())
                .map_err(|_| {
                    KeyError::new(key.name, format!("the key is required: {}", key.absent))
                }),
        },
    }
}

/// Whether `value` of `key` is left out of a written spec: an absent or default value of a key
/// whose line says so ([`Key::omit_default`]), which keeps files written before the key existed
/// the same.
pub(crate) fn left_out<T: Serialize>(key: &Key, value: &T) -> bool {
    key.omit_default
        && match toml::Value::try_from(value) {
            // `None` is no TOML value
            Err(_) => true,
            Ok(v) => key.default.map(toml_value) == Some(v),
        }
}

/// A TOML value written out (`[8, 10]`, `"all"`).
pub(crate) fn toml_value(text: &str) -> toml::Value {
    parse_value(text).expect("a TOML value (tested)")
}

/// A TOML value written out, or why it is none.
pub(crate) fn parse_value(text: &str) -> Result<toml::Value, String> {
    toml::from_str::<toml::Table>(&format!("v = {text}"))
        .map_err(|e| format!("{text:?} is not a TOML value: {}", message(&e)))?
        .remove("v")
        .ok_or_else(|| format!("{text:?} is not a TOML value"))
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
