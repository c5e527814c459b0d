//! A frontier count's checkpoint: the states after the last whole row, with what the count had
//! reached there, written to a file at the end of every row so that an interrupted count resumes
//! from it instead of starting over.
//!
//! The file: one header line of text, `ktour-frontier-checkpoint 2` and `key=value` fields (the board
//! as counted, turned; open or closed; the entry's ways bits; folding; whether every length is
//! counted; the pass's modulus, 0 for the exact pass; the squares done; transitions and peak so
//! far; the number of states; the residues of the passes already done, `done=M:R/R/..,M:R/..`,
//! the current pass's tours of the boards cut at each row end so far, `lengths=R/R/..`, `-` for
//! none, and `wrapped=1` if a sum of the pass's ways has wrapped, missing in older files and then
//! taken as 1), then every state as 32 bytes (its key and its ways, each a little-endian `u128`), then
//! the CRC-32 of those bytes. It is written beside its path and renamed
//! over it, so a checkpoint is either the last one whole or the one before.
//!
//! Source: ktour's own format (no published one exists for these states); the states are those of
//! the module documentation of `frontier`.

use super::cells::Key;
use super::gather::{Entry, Ways};
use super::modular::{bound_bits, length_at, within_bound, Residues};
use super::spill::{SpillDir, SpillProblem, States};
use crate::count::CountError;
use num_bigint::BigUint;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &str = "ktour-frontier-checkpoint 2";

/// What identifies the count a checkpoint belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Identity {
    pub(super) rows: u32,
    pub(super) cols: u32,
    pub(super) closed: bool,
    pub(super) ways_bits: u32,
    pub(super) fold: bool,
    /// The tours of the board cut after every row are counted too (no colour rule on the ends).
    pub(super) every_length: bool,
    /// The pass's modulus: 0 for the exact pass, else a prime.
    pub(super) modulus: u64,
}

/// A finished pass of a count: its modulus (`2^bits` for an exact pass that wrapped, else a
/// prime) and the residues of its counts (one, or one a length).
pub(super) type Done = (u128, Vec<u128>);

/// What a checkpoint carries besides the states: the passes done before this one, this pass's
/// tours of the boards cut at the rows' ends so far, and whether a sum of its ways wrapped
/// before the checkpoint (an exact pass resumed after a wrap must still go on modulo primes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Carried {
    pub(super) done: Vec<Done>,
    pub(super) lengths: Vec<u128>,
    pub(super) wrapped: bool,
}

/// Where a resumed count stands (its states given, sorted, to [`read`]'s caller as they are read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Reached {
    /// Squares added.
    pub(super) squares: usize,
    pub(super) transitions: u64,
    pub(super) peak_states: usize,
    pub(super) carried: Carried,
}

/// Why a checkpoint could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unreadable {
    /// It belongs to a count with the same board and closure but other entries (the count started
    /// over with wider ways, or unfolded): not this count's to resume.
    OtherEntries,
    /// Another board or closure, or a file that is not a checkpoint, or damaged.
    Refused(CheckpointProblem),
    /// Its states could not be spilled to disk as they were read.
    Spill(SpillProblem),
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
            "{MAGIC} rows={} cols={} closed={} ways_bits={} fold={} every_length={} modulus={} squares={squares} transitions={transitions} peak={peak} states={states}",
            self.rows, self.cols, self.closed, self.ways_bits, self.fold, self.every_length, self.modulus
        )
    }
}

/// Residues joined by `/`, `-` for none.
fn join(values: &[u128]) -> String {
    if values.is_empty() {
        return "-".to_string();
    }
    let text: Vec<String> = values.iter().map(u128::to_string).collect();
    text.join("/")
}

/// The residues of [`join`].
fn split(text: &str) -> Option<Vec<u128>> {
    if text == "-" {
        return Some(Vec::new());
    }
    text.split('/').map(|v| v.parse().ok()).collect()
}

impl Carried {
    fn fields(&self) -> String {
        let done: Vec<String> = self
            .done
            .iter()
            .map(|(m, r)| format!("{m}:{}", join(r)))
            .collect();
        let done = if done.is_empty() {
            "-".to_string()
        } else {
            done.join(",")
        };
        format!(
            " done={done} lengths={} wrapped={}",
            join(&self.lengths),
            u8::from(self.wrapped)
        )
    }

    fn parse(fields: &str) -> Option<Carried> {
        let done = text_field(fields, "done")?;
        let done = if done == "-" {
            Vec::new()
        } else {
            done.split(',')
                .map(|pass| {
                    let (m, r) = pass.split_once(':')?;
                    Some((m.parse().ok()?, split(r)?))
                })
                .collect::<Option<Vec<Done>>>()?
        };
        // a file written before the flag was kept may have wrapped: taken as wrapped, a
        // resumed exact pass costs the primes' passes instead of risking a wrong count
        let wrapped = match text_field(fields, "wrapped") {
            None | Some("1") => true,
            Some("0") => false,
            Some(_) => return None,
        };
        Some(Carried {
            done,
            lengths: split(text_field(fields, "lengths")?)?,
            wrapped,
        })
    }
}

/// Write `states`, reached after `squares` squares (a row's end) with `transitions` and `peak`
/// so far, to `path`, by way of a file beside it; `dir` is where states spilled to disk are.
pub(super) fn write<E: Entry>(
    path: &Path,
    id: Identity,
    (squares, transitions, peak): (usize, u64, usize),
    states: &States<E>,
    dir: Option<&SpillDir>,
    carried: &Carried,
) -> Result<(), CountError> {
    let failed = |e: std::io::Error| CountError::FrontierCheckpoint {
        problem: CheckpointProblem::Io(e.kind()),
    };
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    let partial = PathBuf::from(name);
    let file = std::fs::File::create(&partial).map_err(failed)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let header = id.header(squares, transitions, peak, states.len()) + &carried.fields() + "\n";
    out.write_all(header.as_bytes()).map_err(failed)?;
    let mut crc = crc32fast::Hasher::new();
    // a write that fails is the checkpoint's; a read that fails, the spilled states'
    let mut written = Ok(());
    let read = states.for_each(dir, &mut |e| {
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&e.state().widen().to_le_bytes());
        bytes[16..].copy_from_slice(&e.ways().wide().to_le_bytes());
        crc.update(&bytes);
        written = out.write_all(&bytes);
        written
            .as_ref()
            .map_err(|e| std::io::Error::from(e.kind()))
            .copied()
    });
    written.map_err(failed)?;
    read.map_err(|problem| CountError::FrontierSpill { problem })?;
    out.write_all(&crc.finalize().to_le_bytes())
        .map_err(failed)?;
    let file = out.into_inner().map_err(|e| failed(e.into_error()))?;
    file.sync_all().map_err(failed)?;
    std::fs::rename(&partial, path).map_err(failed)
}

/// The header's fields (the text after the magic words), read from the start of `input` up to its
/// newline, or `None` if `input` does not begin with a checkpoint's header.
fn header_fields(input: &mut impl BufRead) -> Option<String> {
    let mut line = String::new();
    // room for the residues of many passes and lengths
    input.take(1 << 20).read_line(&mut line).ok()?;
    let fields = line.strip_suffix('\n')?.strip_prefix(MAGIC)?;
    Some(fields.to_owned())
}

/// The text of the field `name` of a header's `fields`.
fn text_field<'a>(fields: &'a str, name: &str) -> Option<&'a str> {
    fields
        .split_whitespace()
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
}

/// The field `name` of a header's `fields`, a number (`true` and `false` read as 1 and 0).
fn field(fields: &str, name: &str) -> Option<u64> {
    match text_field(fields, name)? {
        "true" => Some(1),
        "false" => Some(0),
        v => v.parse().ok(),
    }
}

/// What a checkpoint says of its count, from its header and its length (its states are not read):
/// for a long count's owner, where it stands between sittings (`ktour count --status`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointStatus {
    /// The board as counted: `rows` long and `cols` wide (the shorter side, turned).
    pub rows: u32,
    /// The board's width as counted.
    pub cols: u32,
    /// Closed tours.
    pub closed: bool,
    /// The tours of the board cut after every row are counted too (`--cols A..=B`).
    pub every_length: bool,
    /// The states are folded onto their mirror images at the rows' ends.
    pub fold: bool,
    /// The pass's modulus: 0 for the exact pass, else a prime.
    pub modulus: u64,
    /// The bits of this pass's ways (64, or 60 beside an 8-wide board's state; 128 in the exact
    /// pass run again with wider ways).
    pub ways_bits: u32,
    /// Squares added (a row's end), of `rows * cols`.
    pub squares: usize,
    /// States held there.
    pub states: usize,
    /// The most states held after a square, this pass so far.
    pub peak_states: usize,
    /// Transitions generated, over the passes so far.
    pub transitions: u64,
    /// The passes done before this one: their moduli (`2^bits` for an exact pass that wrapped,
    /// else a prime) and residues (one a length).
    pub done: Vec<(u128, Vec<u128>)>,
    /// This pass's tours of the boards cut at the rows' ends so far.
    pub lengths: Vec<u128>,
    /// A sum of this pass's ways has wrapped (or the file is older than the flag).
    pub wrapped: bool,
    /// The file's length is its header's, its states' and its checksum's (the checksum itself is
    /// checked only when the count resumes).
    pub whole: bool,
    /// The squares of the count's base beside it, if it has one: the exact pass's states before
    /// its ways wrapped, where each pass modulo a prime starts (the checkpoint's path with `.exact`
    /// added).
    pub base_squares: Option<usize>,
}

/// A length whose count the passes so far settle: the product of their moduli passes its bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Settled {
    /// The board's long side (its width is the status's `cols`).
    pub rows: u32,
    /// The count, recombined from the residues (an exact pass that never wrapped gives it at once).
    pub value: BigUint,
    /// Bits of the moduli's product (`f64::INFINITY` for an exact pass that never wrapped).
    pub bits: f64,
    /// Bits of the board's [`bound_bits`], which the count is below.
    pub bound: f64,
    /// The value is below the bound, as a count is: residues that recombine past it disagree (a
    /// pass miscounted, or the file was damaged), and the count would refuse them.
    pub agrees: bool,
}

impl CheckpointStatus {
    /// The exact pass's, and no sum of its ways has wrapped: its ways are the ways themselves.
    fn exact_unwrapped(&self) -> bool {
        self.modulus == 0 && !self.wrapped
    }

    /// The lengths whose count is known before the count ends: those for which the moduli of the
    /// passes done, and of this pass where it has reached them, multiply past the length's
    /// [`bound_bits`], so that the Chinese remainder theorem gives the count itself. A long
    /// count's early lengths settle passes before its last.
    pub fn settled(&self) -> Vec<Settled> {
        // the exact pass with 128-bit ways is right modulo 2^128, so modulo 2^127
        let power = 1u128 << self.ways_bits.min(127);
        let known = self
            .done
            .iter()
            .map(|(_, r)| r.len())
            .chain([self.lengths.len()])
            .max()
            .unwrap_or(0);
        let mut settled = Vec::new();
        for i in 0..known {
            let rows = length_at(i, self.every_length, self.rows);
            let bound = bound_bits(rows, self.cols, self.closed);
            let mut pairs: Vec<(u128, u128)> = Vec::new();
            for (m, residues) in &self.done {
                match residues.get(i) {
                    Some(&r) => pairs.push((*m, r % m)),
                    None => break,
                }
            }
            if pairs.len() < self.done.len() {
                continue;
            }
            let exact = self.exact_unwrapped();
            let (value, bits) = match self.lengths.get(i) {
                // no sum has passed the ways' bits: the exact pass's value is the count
                Some(&v) if exact => (BigUint::from(v), f64::INFINITY),
                this => {
                    if let Some(&v) = this {
                        let m = if self.modulus == 0 {
                            power
                        } else {
                            u128::from(self.modulus)
                        };
                        // a widened exact pass's residue holds the first's: one power of two
                        pairs.retain(|&(d, _)| !(m.is_power_of_two() && d.is_power_of_two()));
                        pairs.push((m, v % m));
                    }
                    let residues = Residues { pairs };
                    let bits = residues.bits();
                    if bits <= bound {
                        continue;
                    }
                    (residues.value(), bits)
                }
            };
            let agrees = within_bound(&value, bound);
            settled.push(Settled {
                rows,
                value,
                bits,
                bound,
                agrees,
            });
        }
        settled
    }
}

/// The status of the checkpoint at `path`, or why it is none.
pub fn checkpoint_status(path: &Path) -> Result<CheckpointStatus, CheckpointProblem> {
    let file = std::fs::File::open(path).map_err(|e| CheckpointProblem::Io(e.kind()))?;
    let length = file
        .metadata()
        .map_err(|e| CheckpointProblem::Io(e.kind()))?
        .len();
    let fields =
        header_fields(&mut BufReader::new(file)).ok_or(CheckpointProblem::NotACheckpoint)?;
    let mut status = status_of(&fields).ok_or(CheckpointProblem::NotACheckpoint)?;
    let header = (MAGIC.len() + fields.len() + 1) as u64;
    status.whole = length == header + 32 * status.states as u64 + 4;
    let id = Identity {
        rows: status.rows,
        cols: status.cols,
        closed: status.closed,
        ways_bits: status.ways_bits,
        fold: status.fold,
        every_length: status.every_length,
        modulus: status.modulus,
    };
    status.base_squares = base_squares(path, id);
    Ok(status)
}

/// What a header's `fields` say (`whole` left false: the header alone cannot tell), or `None` if
/// one is missing or unreadable: the one reading of a header, for [`read`], [`passes_of`] and
/// [`checkpoint_status`].
fn status_of(fields: &str) -> Option<CheckpointStatus> {
    let field = |name: &str| field(fields, name);
    let carried = Carried::parse(fields)?;
    Some(CheckpointStatus {
        rows: field("rows")? as u32,
        cols: field("cols")? as u32,
        closed: field("closed")? == 1,
        every_length: field("every_length")? == 1,
        fold: field("fold")? == 1,
        modulus: field("modulus")?,
        ways_bits: field("ways_bits")? as u32,
        squares: field("squares")? as usize,
        states: field("states")? as usize,
        peak_states: field("peak")? as usize,
        transitions: field("transitions")?,
        done: carried.done,
        lengths: carried.lengths,
        wrapped: carried.wrapped,
        whole: false,
        base_squares: None,
    })
}

/// The passes done of the count `id` (its modulus aside) that the checkpoint at `path` holds
/// states of, if it is one of this count's: the passes before its own to skip.
pub(super) fn passes_of(path: &Path, id: Identity) -> Option<Vec<Done>> {
    status_of_count(path, id).map(|s| s.done)
}

/// The status of the checkpoint at `path` if it holds states of the count `id` (the same board,
/// closure and layout; its pass and ways aside).
fn status_of_count(path: &Path, id: Identity) -> Option<CheckpointStatus> {
    let fields = header_fields(&mut BufReader::new(std::fs::File::open(path).ok()?))?;
    let s = status_of(&fields)?;
    let same = (s.rows, s.cols, s.closed, s.every_length, s.fold)
        == (id.rows, id.cols, id.closed, id.every_length, id.fold);
    same.then_some(s)
}

/// The status of the checkpoint at `path` if it holds states of the count and pass `id` (its
/// ways' bits aside): its ways' bits (a pass that widened its ways resumes in the wider entries)
/// and the squares it reached.
pub(super) fn status_of_pass(path: &Path, id: Identity) -> Option<CheckpointStatus> {
    status_of_count(path, id).filter(|s| s.modulus == id.modulus)
}

/// Where an exact pass keeps its last checkpoint from before a sum of its ways wrapped: `path`
/// with `.exact` added. Its states are exact, so each pass modulo a prime starts from them,
/// reduced, instead of from the empty board, and counts only the rows after them.
pub(super) fn base_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".exact");
    PathBuf::from(name)
}

/// Keep the checkpoint at `path` as the count's base ([`base_path`]) if it is an exact pass's
/// that has not wrapped: called before an exact pass writes its first checkpoint after a wrap.
/// A second name for the same file (a copy where links are refused), so that a count stopped
/// here still resumes from `path`.
pub(super) fn keep_base(path: &Path, id: Identity) -> Result<(), CountError> {
    let failed = |e: std::io::Error| CountError::FrontierCheckpoint {
        problem: CheckpointProblem::Io(e.kind()),
    };
    let Some(s) = status_of_count(path, id) else {
        return Ok(());
    };
    if !s.exact_unwrapped() {
        return Ok(());
    }
    let base = base_path(path);
    match std::fs::remove_file(&base) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(failed(e)),
        _ => {}
    }
    if std::fs::hard_link(path, &base).is_err() {
        let mut partial = base.clone().into_os_string();
        partial.push(".partial");
        std::fs::copy(path, &partial).map_err(failed)?;
        std::fs::rename(&partial, &base).map_err(failed)?;
    }
    Ok(())
}

/// The squares of the count `id`'s base ([`base_path`] of `path`), if it holds one: an exact
/// pass's states that never wrapped.
pub(super) fn base_squares(path: &Path, id: Identity) -> Option<usize> {
    let s = status_of_count(&base_path(path), id)?;
    s.exact_unwrapped().then_some(s.squares)
}

/// Read the checkpoint at `path` for the count `id`, telling `expect` how many states it holds
/// and giving them in order to `push` (which has them all, and only then, when the checkpoint is
/// whole).
pub(super) fn read<E: Entry>(
    path: &Path,
    id: Identity,
    expect: &mut dyn FnMut(usize),
    push: &mut dyn FnMut(E) -> Result<(), SpillProblem>,
) -> Result<Reached, Unreadable> {
    read_as(path, id, None, expect, push)
}

/// Read the base of the count `id` ([`base_path`] of `path`) for its pass modulo the prime `p`:
/// the exact pass's states with their ways and tours reduced modulo `p`, and no transitions
/// (the pass generates only those after the base).
pub(super) fn read_base<E: Entry>(
    path: &Path,
    id: Identity,
    p: u64,
    expect: &mut dyn FnMut(usize),
    push: &mut dyn FnMut(E) -> Result<(), SpillProblem>,
) -> Result<Reached, Unreadable> {
    read_as(&base_path(path), id, Some(p), expect, push)
}

/// [`read`], or with `reduce`, [`read_base`]: an exact pass's file that never wrapped, its ways
/// and tours taken modulo the prime.
fn read_as<E: Entry>(
    path: &Path,
    id: Identity,
    reduce: Option<u64>,
    expect: &mut dyn FnMut(usize),
    push: &mut dyn FnMut(E) -> Result<(), SpillProblem>,
) -> Result<Reached, Unreadable> {
    use CheckpointProblem::{Damaged, NotACheckpoint};
    let refused = Unreadable::Refused;
    let file = std::fs::File::open(path).map_err(|e| refused(CheckpointProblem::Io(e.kind())))?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let fields = header_fields(&mut input).ok_or(refused(NotACheckpoint))?;
    let s = status_of(&fields).ok_or(refused(NotACheckpoint))?;
    if (s.rows, s.cols, s.closed) != (id.rows, id.cols, id.closed) {
        return Err(refused(CheckpointProblem::OtherCount {
            rows: s.rows,
            cols: s.cols,
            closed: s.closed,
        }));
    }
    let entries = match reduce {
        // the base's ways are exact in whatever bits they had; they are reduced as they are read
        Some(_) => (s.fold, s.every_length) == (id.fold, id.every_length) && s.exact_unwrapped(),
        None => {
            (s.ways_bits, s.fold, s.every_length, s.modulus)
                == (id.ways_bits, id.fold, id.every_length, id.modulus)
        }
    };
    if !entries {
        return Err(Unreadable::OtherEntries);
    }
    let p = reduce.map(u128::from);
    let states = s.states;
    expect(states);
    let mut crc = crc32fast::Hasher::new();
    let mut last: Option<E::Key> = None;
    let mut bytes = [0u8; 32];
    for _ in 0..states {
        input.read_exact(&mut bytes).map_err(|_| refused(Damaged))?;
        crc.update(&bytes);
        let state = u128::from_le_bytes(bytes[..16].try_into().expect("16 bytes"));
        let ways = u128::from_le_bytes(bytes[16..].try_into().expect("16 bytes"));
        let fits = |x: u128, bits: u32| bits >= 128 || x >> bits == 0;
        let ways = p.map_or(ways, |p| ways % p);
        if !fits(state, E::STATE_BITS) || !fits(ways, E::WAYS_BITS) {
            return Err(refused(Damaged));
        }
        let entry = match (E::Key::narrow(state), E::Ways::from_wide(ways)) {
            (Some(s), Some(w)) => E::new(s, w),
            _ => return Err(refused(Damaged)),
        };
        if last.is_some_and(|k| k >= entry.state()) {
            return Err(refused(Damaged));
        }
        last = Some(entry.state());
        push(entry).map_err(Unreadable::Spill)?;
    }
    let mut sum = [0u8; 4];
    input.read_exact(&mut sum).map_err(|_| refused(Damaged))?;
    if u32::from_le_bytes(sum) != crc.finalize() || input.read(&mut [0u8; 1]).ok() != Some(0) {
        return Err(refused(Damaged));
    }
    // a base carries no passes done and no transitions of the prime's pass; its tours reduced
    let (transitions, carried) = match p {
        None => (
            s.transitions,
            Carried {
                done: s.done,
                lengths: s.lengths,
                wrapped: s.wrapped,
            },
        ),
        Some(p) => (
            0,
            Carried {
                lengths: s.lengths.iter().map(|v| v % p).collect(),
                ..Carried::default()
            },
        ),
    };
    Ok(Reached {
        squares: s.squares,
        transitions,
        peak_states: s.peak_states,
        carried,
    })
}
