//! A frontier count's checkpoint: the states after the last whole row, with what the count had
//! reached there, written to a file at the end of every row so that an interrupted count resumes
//! from it instead of starting over.
//!
//! The file: one header line of text, `ktour-frontier-checkpoint 1` and `key=value` fields (the board
//! as counted, turned; open or closed; the entry's ways bits; folding; the squares done; transitions
//! and peak so far; the number of states), then every state as 32 bytes (its key and its ways, each
//! a little-endian `u128`), then the CRC-32 of those bytes. It is written beside its path and renamed
//! over it, so a checkpoint is either the last one whole or the one before.
//!
//! Source: ktour's own format (no published one exists for these states); the states are those of
//! the module documentation of `frontier`.

use super::cells::Key;
use super::gather::{Entry, Ways};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

const MAGIC: &str = "ktour-frontier-checkpoint 1";

/// What identifies the count a checkpoint belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Identity {
    pub(super) rows: u32,
    pub(super) cols: u32,
    pub(super) closed: bool,
    pub(super) ways_bits: u32,
    pub(super) fold: bool,
}

/// Where a resumed count stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Reached<E> {
    /// Squares added.
    pub(super) squares: usize,
    pub(super) transitions: u64,
    pub(super) peak_states: usize,
    /// The states after the last of them, sorted.
    pub(super) states: Vec<E>,
}

/// Why a checkpoint could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unreadable {
    /// It belongs to a count with the same board and closure but other entries (the count started
    /// over with wider ways, or unfolded): not this count's to resume.
    OtherEntries,
    /// Another board or closure, or a file that is not a checkpoint, or damaged.
    Refused(CheckpointProblem),
}

/// What is wrong with a checkpoint file ([`crate::count::CountError::FrontierCheckpoint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointProblem {
    /// Its first line is not a checkpoint's header.
    #[error("is not a ktour frontier checkpoint")]
    NotACheckpoint,
    /// It holds another count's states.
    #[error("is of the {} tours of a board {rows} long and {cols} wide (turned), not this count's", if *closed { "closed" } else { "open" })]
    OtherCount {
        /// The board of its count, turned so that `cols <= rows`.
        rows: u32,
        /// Its width.
        cols: u32,
        /// Closed tours were counted.
        closed: bool,
    },
    /// Cut short, a checksum that does not match, or a state that does not fit.
    #[error("is damaged (cut short, its checksum does not match, or a state does not fit)")]
    Damaged,
    /// The system refused to read or write it.
    #[error("could not be read or written ({0})")]
    Io(std::io::ErrorKind),
}

impl Identity {
    fn header(&self, squares: usize, transitions: u64, peak: usize, states: usize) -> String {
        format!(
            "{MAGIC} rows={} cols={} closed={} ways_bits={} fold={} squares={squares} transitions={transitions} peak={peak} states={states}\n",
            self.rows, self.cols, self.closed, self.ways_bits, self.fold
        )
    }
}

/// Write the states after `squares` squares (a row's end) to `path`, by way of a file beside it.
pub(super) fn write<E: Entry>(
    path: &Path,
    id: Identity,
    squares: usize,
    transitions: u64,
    peak: usize,
    lists: &[Vec<E>],
) -> std::io::Result<()> {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    let partial = std::path::PathBuf::from(name);
    let states: usize = lists.iter().map(Vec::len).sum();
    let file = std::fs::File::create(&partial)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(id.header(squares, transitions, peak, states).as_bytes())?;
    let mut crc = crc32fast::Hasher::new();
    for e in lists.iter().flatten() {
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&e.state().widen().to_le_bytes());
        bytes[16..].copy_from_slice(&e.ways().wide().to_le_bytes());
        crc.update(&bytes);
        out.write_all(&bytes)?;
    }
    out.write_all(&crc.finalize().to_le_bytes())?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    std::fs::rename(&partial, path)
}

/// The header's fields (the text after the magic words), read from the start of `input` up to its
/// newline, or `None` if `input` does not begin with a checkpoint's header.
fn header_fields(input: &mut impl BufRead) -> Option<String> {
    let mut line = String::new();
    input.take(1024).read_line(&mut line).ok()?;
    let fields = line.strip_suffix('\n')?.strip_prefix(MAGIC)?;
    Some(fields.to_owned())
}

/// The field `name` of a header's `fields`, a number (`true` and `false` read as 1 and 0).
fn field(fields: &str, name: &str) -> Option<u64> {
    match fields
        .split_whitespace()
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))?
    {
        "true" => Some(1),
        "false" => Some(0),
        v => v.parse().ok(),
    }
}

/// The ways bits and folding of the checkpoint at `path`, if it is one: which attempt of a count
/// wrote it.
pub(super) fn entries_of(path: &Path) -> Option<(u32, bool)> {
    let fields = header_fields(&mut BufReader::new(std::fs::File::open(path).ok()?))?;
    Some((
        field(&fields, "ways_bits")? as u32,
        field(&fields, "fold")? == 1,
    ))
}

/// Read the checkpoint at `path` for the count `id`.
pub(super) fn read<E: Entry>(path: &Path, id: Identity) -> Result<Reached<E>, Unreadable> {
    use CheckpointProblem::{Damaged, NotACheckpoint};
    let refused = Unreadable::Refused;
    let file = std::fs::File::open(path).map_err(|e| refused(CheckpointProblem::Io(e.kind())))?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let fields = header_fields(&mut input).ok_or(refused(NotACheckpoint))?;
    let field = |name: &str| field(&fields, name).ok_or(refused(NotACheckpoint));
    let (rows, cols, closed) = (field("rows")?, field("cols")?, field("closed")? == 1);
    if (rows, cols, closed) != (u64::from(id.rows), u64::from(id.cols), id.closed) {
        return Err(refused(CheckpointProblem::OtherCount {
            rows: rows as u32,
            cols: cols as u32,
            closed,
        }));
    }
    if field("ways_bits")? != u64::from(id.ways_bits) || (field("fold")? == 1) != id.fold {
        return Err(Unreadable::OtherEntries);
    }
    let states = field("states")? as usize;
    let mut crc = crc32fast::Hasher::new();
    let mut list = Vec::with_capacity(states);
    let mut bytes = [0u8; 32];
    for _ in 0..states {
        input.read_exact(&mut bytes).map_err(|_| refused(Damaged))?;
        crc.update(&bytes);
        let state = u128::from_le_bytes(bytes[..16].try_into().expect("16 bytes"));
        let ways = u128::from_le_bytes(bytes[16..].try_into().expect("16 bytes"));
        let fits = |x: u128, bits: u32| bits >= 128 || x >> bits == 0;
        if !fits(state, E::STATE_BITS) || !fits(ways, E::WAYS_BITS) {
            return Err(refused(Damaged));
        }
        let entry = match (E::Key::narrow(state), E::Ways::from_wide(ways)) {
            (Some(s), Some(w)) => E::new(s, w),
            _ => return Err(refused(Damaged)),
        };
        list.push(entry);
    }
    let mut sum = [0u8; 4];
    input.read_exact(&mut sum).map_err(|_| refused(Damaged))?;
    if u32::from_le_bytes(sum) != crc.finalize() || input.read(&mut [0u8; 1]).ok() != Some(0) {
        return Err(refused(Damaged));
    }
    if list.windows(2).any(|w| w[0].state() >= w[1].state()) {
        return Err(refused(Damaged));
    }
    Ok(Reached {
        squares: field("squares")? as usize,
        transitions: field("transitions")?,
        peak_states: field("peak")? as usize,
        states: list,
    })
}
