//! The frontier's states on disk, for counts whose steps hold more states than memory: an external
//! sort-reduce. Under a bound on memory (`--memory`), a step's successors fill a buffer that is
//! sorted and summed by state whenever it fills; when it is still more than half full after that,
//! it is written to a file of the folder `--temp` names as a sorted *run*, and the step's runs are
//! merged (a heap of their heads, equal states' ways summed, at most [`FANIN`] runs at a time and
//! in rounds past that) into the next step's states: kept in memory while they take at most half
//! the bound, else written to one more file that the next step reads as it goes ([`States`]).
//!
//! A file: a header of 40 bytes (the magic `ktour-spill-run1`, the bytes of an entry, the bits of
//! its state and of its ways, a reserved word, the number of entries, all little-endian), then the
//! entries in increasing order of state, each [`Entry::DISK_BYTES`] bytes (its key's and its ways'
//! own bytes). A file is removed when the states it holds are read (its [`RunFile`] dropped), and
//! the count's folder under `--temp` when the count ends; a folder left by a count stopped by force
//! (its `lock` file no longer locked) is removed by the next count there ([`remove_stale`]).
//!
//! Source: the external merge sort (D. E. Knuth, TAOCP vol. 3, section 5.4: runs, then a multiway
//! merge), with the reduction of equal keys during the merge; the bound's accounting is ktour's own.

use super::gather::{Entry, Ways};
use super::modular::Modulus;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A frontier count's bound on memory and where it spills ([`super::FrontierOptions::spill`]).
#[derive(Clone, Copy, Debug)]
pub struct Spill<'a> {
    /// Bytes the states of a step may take in memory: its buffer and what it keeps (the files'
    /// buffers take an eighth of it, at least 512 bytes each).
    pub memory: u64,
    /// The folder the runs are written in: a folder of its own is made there for the count and
    /// removed when it ends.
    pub temp: &'a Path,
}

/// The least `--memory` ([`Spill::memory`]): a couple of hundred states (small enough that tests
/// spill the states of narrow boards).
pub const MIN_MEMORY: u64 = 4 << 10;

/// Runs merged at once; more are merged in rounds.
pub(super) const FANIN: usize = 32;

/// What went wrong with a count's spilling ([`crate::count::CountError::FrontierSpill`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpillProblem {
    /// The folder could not be made or written.
    #[error(
        "folder (--temp) could not be made or written ({0}): name a folder this user can write"
    )]
    NotWritable(std::io::ErrorKind),
    /// The disk has less room than the least a spilling count writes.
    #[error("folder (--temp) has {free_mib} MiB free, but a count that spills under this --memory writes runs of {least_mib} MiB at least: free some space, name a folder on a larger disk, or lower --memory")]
    TooSmall {
        /// The least a run takes.
        least_mib: u64,
        /// Free space there.
        free_mib: u64,
    },
    /// Writing or reading failed while counting.
    #[error("folder (--temp) could not be written or read while counting ({0}); its disk may have filled up")]
    Io(std::io::ErrorKind),
    /// A file there was not as it was written.
    #[error("folder (--temp) holds a run that is cut short or not ktour's (was it changed while counting?)")]
    Damaged,
    /// The bound is too small, or more than memory holds.
    #[error("bound (--memory) of {asked_kib} KiB is below the least, {least_kib} KiB, or above the {usable_mib} MiB of memory usable now")]
    Memory {
        /// The bound asked for.
        asked_kib: u64,
        /// The least allowed.
        least_kib: u64,
        /// Memory usable now (80% of what is available).
        usable_mib: u64,
    },
}

impl From<std::io::Error> for SpillProblem {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::InvalidData {
            SpillProblem::Damaged
        } else {
            SpillProblem::Io(e.kind())
        }
    }
}

/// Refuse a bound below [`MIN_MEMORY`] or past what memory holds now.
pub(super) fn check_memory(memory: u64) -> Result<(), SpillProblem> {
    let usable = crate::memory::usable_share(crate::memory::available_bytes());
    if memory < MIN_MEMORY || memory > usable {
        return Err(SpillProblem::Memory {
            asked_kib: memory >> 10,
            least_kib: MIN_MEMORY >> 10,
            usable_mib: usable >> 20,
        });
    }
    Ok(())
}

/// A count's folder of runs under `--temp`, removed with what it holds when dropped; counts the
/// runs written.
#[derive(Debug)]
pub(super) struct SpillDir {
    path: PathBuf,
    memory: u64,
    /// Files named so far (names are numbers).
    files: AtomicU64,
    /// Runs written so far (sorted buffers, and merges of a round past [`FANIN`]).
    runs: AtomicU64,
    /// The folder's [`LOCK`] file, locked while the count lives (none where the filesystem has no
    /// locks): a folder whose lock is free is a stopped count's, which the next count removes.
    _lock: Option<std::fs::File>,
}

/// The start of the name of a count's own folder under `--temp`.
const FOLDER: &str = "ktour-spill-";

/// The file in a count's folder that its count holds locked.
const LOCK: &str = "lock";

/// Remove the folders under `temp` that counts stopped by force left behind (killed, or cut off
/// with the machine): those named as a count's whose lock file no process holds. A folder with no
/// lock file (being made, or not ktour's) is left alone. Returns the folders removed.
pub(super) fn remove_stale(temp: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(FOLDER));
        if !ours || !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(lock) = std::fs::File::open(entry.path().join(LOCK)) else {
            continue;
        };
        // taken at once: its holder is gone (a live count's lock is refused, as is any lock
        // on a filesystem that has none, and those folders stay)
        if fs4::FileExt::try_lock(&lock).is_ok() {
            drop(lock);
            removed += usize::from(std::fs::remove_dir_all(entry.path()).is_ok());
        }
    }
    removed
}

impl SpillDir {
    /// A folder of its own under `spill.temp` (made if need be), checked writable and with room
    /// for the least a count that spills writes, with entries of `entry_bytes` in memory and
    /// `disk_bytes` on disk.
    pub(super) fn create(
        spill: &Spill,
        entry_bytes: usize,
        disk_bytes: usize,
    ) -> Result<Self, SpillProblem> {
        let unique = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let name = format!("{FOLDER}{}-{unique}", std::process::id());
        let not_writable = |e: std::io::Error| SpillProblem::NotWritable(e.kind());
        // made under a name the sweep passes over, locked, then named: no sweep of another
        // count sees it unlocked
        let making = spill.temp.join(format!(".{name}"));
        std::fs::create_dir_all(&making).map_err(not_writable)?;
        let lock = std::fs::File::create(making.join(LOCK)).map_err(not_writable)?;
        let lock = fs4::FileExt::try_lock(&lock).is_ok().then_some(lock);
        let path = spill.temp.join(name);
        std::fs::rename(&making, &path).map_err(not_writable)?;
        remove_stale(spill.temp);
        let dir = SpillDir {
            path,
            memory: spill.memory,
            files: AtomicU64::new(0),
            runs: AtomicU64::new(0),
            _lock: lock,
        };
        let probe = dir.path.join("probe");
        std::fs::write(&probe, b"ktour")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| SpillProblem::NotWritable(e.kind()))?;
        // the first file a spilling count writes holds more than a quarter of its states' room
        let least = (dir.entries(entry_bytes) / 4 * disk_bytes) as u64;
        dir.check_room(least)?;
        Ok(dir)
    }

    /// Entries of `entry_bytes` that the bound holds, its files' buffers aside.
    pub(super) fn entries(&self, entry_bytes: usize) -> usize {
        (self.memory / 8 * 7 / entry_bytes as u64) as usize
    }

    /// Bytes of the buffer of each file read or written: an eighth of the bound over the files
    /// of a merge, from 512 bytes (past the eighth under a bound of 128 KiB) to 1 MiB.
    fn buffer(&self) -> usize {
        (self.memory / 8 / (FANIN as u64 + 2)).clamp(512, 1 << 20) as usize
    }

    /// Refuse to write `bytes` that the disk has no room for.
    fn check_room(&self, bytes: u64) -> Result<(), SpillProblem> {
        match crate::experiment::free_bytes(&self.path) {
            Some(free) if free < bytes => Err(SpillProblem::TooSmall {
                least_mib: bytes.div_ceil(1 << 20),
                free_mib: free >> 20,
            }),
            _ => Ok(()),
        }
    }

    /// Runs written so far.
    pub(super) fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// A new file's writer.
    fn writer<E: Entry>(&self) -> Result<RunWriter<E>, SpillProblem> {
        let n = self.files.fetch_add(1, Ordering::Relaxed);
        RunWriter::create(self.path.join(format!("{n}.run")), self.buffer())
    }

    /// The sorted, distinct `entries` written as a run, if the disk has room.
    pub(super) fn write_run<E: Entry>(&self, entries: &[E]) -> Result<RunFile, SpillProblem> {
        self.check_room((HEADER + entries.len() * E::DISK_BYTES) as u64)?;
        let mut out = self.writer()?;
        for e in entries {
            out.push(e)?;
        }
        self.runs.fetch_add(1, Ordering::Relaxed);
        out.finish()
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        // what a count leaves behind is its own folder's; one already gone is no matter
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

const MAGIC: &[u8; 16] = b"ktour-spill-run1";
const HEADER: usize = 40;

/// A file of sorted, distinct entries, removed when dropped.
#[derive(Debug)]
pub(super) struct RunFile {
    path: PathBuf,
    entries: u64,
    /// The largest ways among the entries, where this process wrote them (`None`: adopted).
    largest_ways: Option<u128>,
}

impl RunFile {
    pub(super) fn len(&self) -> usize {
        self.entries as usize
    }

    /// The largest ways among the entries, known without reading the file where this process
    /// wrote it (the exact pass's widening asks before every square: `widen.rs`).
    pub(super) fn largest_ways(&self) -> Option<u128> {
        self.largest_ways
    }
}

impl Drop for RunFile {
    fn drop(&mut self) {
        // an empty path is a run given up by `keep`
        if !self.path.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The header of a file of `entries` entries `E`.
fn header<E: Entry>(entries: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..16].copy_from_slice(MAGIC);
    h[16..20].copy_from_slice(&(E::DISK_BYTES as u32).to_le_bytes());
    h[20..24].copy_from_slice(&E::STATE_BITS.to_le_bytes());
    h[24..28].copy_from_slice(&E::WAYS_BITS.to_le_bytes());
    h[32..40].copy_from_slice(&entries.to_le_bytes());
    h
}

/// Writes a file of entries in order; the header's count is set by [`RunWriter::finish`].
pub(super) struct RunWriter<E> {
    out: BufWriter<std::fs::File>,
    path: PathBuf,
    entries: u64,
    largest_ways: u128,
    bytes: Vec<u8>,
    _entry: PhantomData<E>,
}

impl<E: Entry> RunWriter<E> {
    fn create(path: PathBuf, buffer: usize) -> Result<Self, SpillProblem> {
        let file = std::fs::File::create(&path)?;
        let mut out = BufWriter::with_capacity(buffer, file);
        out.write_all(&header::<E>(0))?;
        Ok(RunWriter {
            out,
            path,
            entries: 0,
            largest_ways: 0,
            bytes: vec![0; E::DISK_BYTES],
            _entry: PhantomData,
        })
    }

    pub(super) fn push(&mut self, e: &E) -> Result<(), SpillProblem> {
        e.encode(&mut self.bytes);
        self.out.write_all(&self.bytes)?;
        self.entries += 1;
        self.largest_ways = self.largest_ways.max(e.ways().wide());
        Ok(())
    }

    /// The file, whole, with its count in the header.
    pub(super) fn finish(self) -> Result<RunFile, SpillProblem> {
        // the file is ours from here: removed if what follows fails
        let run = RunFile {
            path: self.path,
            entries: self.entries,
            largest_ways: Some(self.largest_ways),
        };
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&header::<E>(run.entries))?;
        Ok(run)
    }
}

// A sharded count (`shard/`) writes runs at names of its own in a shared folder and reads runs
// other processes wrote: these three hooks give it the format and the merge without a second one.
impl SpillDir {
    /// A writer of a run at `path` (not one of this folder's numbered files).
    pub(super) fn writer_at<E: Entry>(&self, path: PathBuf) -> Result<RunWriter<E>, SpillProblem> {
        RunWriter::create(path, self.buffer())
    }
}

impl RunFile {
    /// The run at `path`, written by [`RunWriter`] (here or by another process), its header checked
    /// against the entries `E` and the file's length; removed when dropped, like any run.
    pub(super) fn adopt<E: Entry>(path: PathBuf) -> Result<RunFile, SpillProblem> {
        let mut h = [0u8; HEADER];
        let mut file = std::fs::File::open(&path)?;
        file.read_exact(&mut h).map_err(|_| SpillProblem::Damaged)?;
        let entries = u64::from_le_bytes(h[32..40].try_into().expect("8 bytes"));
        let length = file.metadata()?.len();
        if h != header::<E>(entries) || length != HEADER as u64 + entries * E::DISK_BYTES as u64 {
            return Err(SpillProblem::Damaged);
        }
        Ok(RunFile {
            path,
            entries,
            largest_ways: None,
        })
    }

    /// The file's path, the file no longer removed when this is dropped (it is published).
    pub(super) fn keep(mut self) -> PathBuf {
        std::mem::take(&mut self.path)
    }
}

/// Reads a [`RunFile`]'s entries in order, checking its header and its length.
pub(super) struct RunReader<E> {
    input: BufReader<std::fs::File>,
    left: u64,
    bytes: Vec<u8>,
    /// The file, if the reader owns it: removed when the reader is dropped.
    _run: Option<RunFile>,
    _entry: PhantomData<E>,
}

impl<E: Entry> RunReader<E> {
    /// A reader of `run`, which it removes when dropped.
    pub(super) fn open(run: RunFile, dir: &SpillDir) -> Result<Self, SpillProblem> {
        let mut reader = Self::open_at(&run.path, run.entries, dir)?;
        reader._run = Some(run);
        Ok(reader)
    }

    /// A reader of the file of `entries` entries at `path`, which it leaves.
    fn open_at(path: &Path, entries: u64, dir: &SpillDir) -> Result<Self, SpillProblem> {
        let mut input = BufReader::with_capacity(dir.buffer(), std::fs::File::open(path)?);
        let mut h = [0u8; HEADER];
        input
            .read_exact(&mut h)
            .map_err(|_| SpillProblem::Damaged)?;
        if h != header::<E>(entries) {
            return Err(SpillProblem::Damaged);
        }
        Ok(RunReader {
            input,
            left: entries,
            bytes: vec![0; E::DISK_BYTES],
            _run: None,
            _entry: PhantomData,
        })
    }

    /// The next entry, `None` past the last (and the file's end there).
    pub(super) fn next(&mut self) -> Result<Option<E>, SpillProblem> {
        if self.left == 0 {
            return match self.input.read(&mut [0u8; 1])? {
                0 => Ok(None),
                _ => Err(SpillProblem::Damaged),
            };
        }
        self.left -= 1;
        self.input
            .read_exact(&mut self.bytes)
            .map_err(|_| SpillProblem::Damaged)?;
        E::decode(&self.bytes)
            .map(Some)
            .ok_or(SpillProblem::Damaged)
    }
}

/// A step's states: in memory as sorted key ranges (always, without a bound on memory), or in a
/// file.
#[derive(Debug)]
pub(super) enum States<E> {
    Memory(Vec<Vec<E>>),
    Disk(RunFile),
}

impl<E: Entry> States<E> {
    /// States held.
    pub(super) fn len(&self) -> usize {
        match self {
            States::Memory(lists) => lists.iter().map(Vec::len).sum(),
            States::Disk(run) => run.len(),
        }
    }

    /// Entries held in memory.
    pub(super) fn resident(&self) -> usize {
        match self {
            States::Memory(_) => self.len(),
            States::Disk(_) => 0,
        }
    }

    /// Every state in order, to `each`, without taking them (a file is read and kept).
    pub(super) fn for_each(
        &self,
        dir: Option<&SpillDir>,
        each: &mut dyn FnMut(&E) -> std::io::Result<()>,
    ) -> Result<(), SpillProblem> {
        match (self, dir) {
            (States::Memory(lists), _) => {
                for e in lists.iter().flatten() {
                    each(e)?;
                }
            }
            (States::Disk(run), Some(dir)) => {
                let mut reader = RunReader::<E>::open_at(&run.path, run.entries, dir)?;
                while let Some(e) = reader.next()? {
                    each(&e)?;
                }
            }
            (States::Disk(_), None) => unreachable!("states are written to disk only by a spill"),
        }
        Ok(())
    }

    /// The states in chunks of at most `chunk`, each to `each`, taking them: memory is given
    /// back list by list, a file removed once read.
    pub(super) fn drain(
        self,
        dir: &SpillDir,
        chunk: usize,
        each: &mut dyn FnMut(&[E]) -> Result<(), SpillProblem>,
    ) -> Result<(), SpillProblem> {
        let chunk = chunk.max(1);
        match self {
            States::Memory(lists) => {
                for list in lists {
                    for part in list.chunks(chunk) {
                        each(part)?;
                    }
                }
            }
            States::Disk(run) => {
                let mut reader = RunReader::<E>::open(run, dir)?;
                let mut part = Vec::with_capacity(chunk);
                loop {
                    part.clear();
                    while part.len() < chunk {
                        match reader.next()? {
                            Some(e) => part.push(e),
                            None => break,
                        }
                    }
                    if part.is_empty() {
                        break;
                    }
                    each(&part)?;
                }
            }
        }
        Ok(())
    }
}

/// Where a step's merged states go: kept in memory up to `limit` entries, then all of them into a
/// file.
pub(super) struct Sink<'a, E> {
    dir: &'a SpillDir,
    kept: Vec<E>,
    limit: usize,
    file: Option<RunWriter<E>>,
}

impl<'a, E: Entry> Sink<'a, E> {
    pub(super) fn new(dir: &'a SpillDir, limit: usize) -> Self {
        Sink {
            dir,
            kept: Vec::new(),
            limit,
            file: None,
        }
    }

    /// The next state, after every one before it.
    pub(super) fn push(&mut self, e: E) -> Result<(), SpillProblem> {
        if let Some(file) = &mut self.file {
            return file.push(&e);
        }
        if self.kept.len() >= self.limit {
            let mut file = self.dir.writer()?;
            for k in &self.kept {
                file.push(k)?;
            }
            file.push(&e)?;
            self.kept = Vec::new();
            self.file = Some(file);
            return Ok(());
        }
        self.kept.push(e);
        Ok(())
    }

    pub(super) fn finish(self) -> Result<States<E>, SpillProblem> {
        match self.file {
            Some(file) => Ok(States::Disk(file.finish()?)),
            None => {
                // grown by doubling: its spare room would stay held through the next step
                let mut kept = self.kept;
                kept.shrink_to_fit();
                Ok(States::Memory(vec![kept]))
            }
        }
    }
}

/// The sorted, distinct `runs` merged into `sink`, the ways of equal states summed modulo `m`
/// (`wrapped` set if a sum wraps): past [`FANIN`] runs, the first ones are merged into longer
/// runs first, [`FANIN`] at a time.
pub(super) fn merge_runs<E: Entry>(
    dir: &SpillDir,
    mut runs: std::collections::VecDeque<RunFile>,
    m: Modulus,
    wrapped: &mut bool,
    sink: &mut Sink<E>,
) -> Result<(), SpillProblem> {
    while runs.len() > FANIN {
        let group: Vec<RunFile> = runs.drain(..FANIN).collect();
        let bytes: usize = group.iter().map(|r| r.len() * E::DISK_BYTES).sum();
        dir.check_room((HEADER + bytes) as u64)?;
        let mut out = dir.writer::<E>()?;
        merge(dir, group, m, wrapped, &mut |e| out.push(&e))?;
        dir.runs.fetch_add(1, Ordering::Relaxed);
        runs.push_back(out.finish()?);
    }
    merge(dir, runs.into(), m, wrapped, &mut |e| sink.push(e))
}

/// One merge of `runs` into `out` (a heap of their heads).
fn merge<E: Entry>(
    dir: &SpillDir,
    runs: Vec<RunFile>,
    m: Modulus,
    wrapped: &mut bool,
    out: &mut dyn FnMut(E) -> Result<(), SpillProblem>,
) -> Result<(), SpillProblem> {
    let mut readers = runs
        .into_iter()
        .map(|r| RunReader::<E>::open(r, dir))
        .collect::<Result<Vec<_>, _>>()?;
    let mut heads = BinaryHeap::with_capacity(readers.len());
    let mut held: Vec<Option<E>> = Vec::with_capacity(readers.len());
    for (i, r) in readers.iter_mut().enumerate() {
        let head = r.next()?;
        if let Some(e) = head {
            heads.push(Reverse((e.state(), i)));
        }
        held.push(head);
    }
    let mut pending: Option<E> = None;
    while let Some(Reverse((state, i))) = heads.pop() {
        let e = held[i].take().ok_or(SpillProblem::Damaged)?;
        match &mut pending {
            Some(p) if p.state() == state => p.add_ways(e.ways(), m, wrapped),
            _ => {
                if let Some(p) = pending.replace(e) {
                    out(p)?;
                }
            }
        }
        let next = readers[i].next()?;
        if let Some(n) = next {
            // a run out of order would sum states apart
            if n.state() <= state {
                return Err(SpillProblem::Damaged);
            }
            heads.push(Reverse((n.state(), i)));
        }
        held[i] = next;
    }
    if let Some(p) = pending {
        out(p)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::gather::{Packed68, Pair};
    use super::*;
    use std::collections::{BTreeMap, VecDeque};

    fn dir(temp: &Path, memory: u64) -> SpillDir {
        SpillDir::create(&Spill { memory, temp }, 16, 16).unwrap()
    }

    /// Entries written to a run are read back as they were, for both layouts; a file whose header
    /// is not its own, or that is cut short, is refused as damaged.
    #[test]
    fn runs_read_back_what_was_written_and_refuse_damage() {
        let tmp = tempfile::tempdir().unwrap();
        let d = dir(tmp.path(), MIN_MEMORY);
        let pairs: Vec<Pair<u64, u64>> = (0..1000u64)
            .map(|i| Pair::new(i * 3 + (1 << 63), u64::MAX - i))
            .collect();
        let packed: Vec<Packed68> = (0..1000u128)
            .map(|i| Packed68::new(i << 58 | 5, (1 << 60) - 1 - i as u64))
            .collect();
        fn back<E: Entry>(d: &SpillDir, run: RunFile) -> Vec<E> {
            let mut r = RunReader::<E>::open(run, d).unwrap();
            let mut out = Vec::new();
            while let Some(e) = r.next().unwrap() {
                out.push(e);
            }
            out
        }
        let run = d.write_run(&pairs).unwrap();
        assert_eq!(back::<Pair<u64, u64>>(&d, run), pairs);
        let run = d.write_run(&packed).unwrap();
        assert_eq!(back::<Packed68>(&d, run), packed);
        assert_eq!(d.runs(), 2);
        // read back and dropped: removed (the folder's lock file stays)
        assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 1);
        // another layout, a cut, a changed byte of the header
        let run = d.write_run(&pairs).unwrap();
        assert!(matches!(
            RunReader::<Pair<u64, u128>>::open(run, &d),
            Err(SpillProblem::Damaged)
        ));
        let run = d.write_run(&pairs).unwrap();
        let bytes = std::fs::read(&run.path).unwrap();
        std::fs::write(&run.path, &bytes[..bytes.len() - 3]).unwrap();
        let mut r = RunReader::<Pair<u64, u64>>::open(run, &d).unwrap();
        let read: Result<Vec<_>, _> = (0..1000).map(|_| r.next()).collect();
        assert_eq!(read, Err(SpillProblem::Damaged));
        let run = d.write_run(&pairs).unwrap();
        let mut bytes = std::fs::read(&run.path).unwrap();
        bytes[3] ^= 1;
        std::fs::write(&run.path, &bytes).unwrap();
        assert!(RunReader::<Pair<u64, u64>>::open(run, &d).is_err());
    }

    /// Many runs (past the fan-in, so merged in rounds) of overlapping states merge into the
    /// sorted sums a map gives, kept in memory under the sink's limit and in a file past it.
    #[test]
    fn merged_runs_are_the_sums_of_their_states() {
        let tmp = tempfile::tempdir().unwrap();
        let d = dir(tmp.path(), MIN_MEMORY);
        let mut want = BTreeMap::new();
        let mut runs = VecDeque::new();
        for r in 0..(2 * FANIN + 5) as u64 {
            let mut run: Vec<Pair<u64, u64>> = (0..50u64)
                .map(|i| Pair::new((i * 7919 + r * 13) % 701, r * 100 + i))
                .collect();
            run.sort_by_key(|e| e.state());
            run.dedup_by_key(|e| e.state());
            for e in &run {
                *want.entry(e.state()).or_insert(0u64) += e.ways();
            }
            runs.push_back(d.write_run(&run).unwrap());
        }
        let want: Vec<Pair<u64, u64>> = want.into_iter().map(|(s, w)| Pair::new(s, w)).collect();
        let files = runs.len() as u64;
        for limit in [usize::MAX, 100] {
            let copies: VecDeque<RunFile> = runs
                .iter()
                .map(|r| {
                    let n = d.files.fetch_add(1, Ordering::Relaxed);
                    let path = d.path.join(format!("{n}.run"));
                    std::fs::copy(&r.path, &path).unwrap();
                    RunFile {
                        path,
                        entries: r.entries,
                        largest_ways: r.largest_ways,
                    }
                })
                .collect();
            let mut sink = Sink::new(&d, limit);
            let mut wrapped = false;
            merge_runs(&d, copies, Modulus::EXACT, &mut wrapped, &mut sink).unwrap();
            let mut got = Vec::new();
            let states = sink.finish().unwrap();
            assert_eq!(matches!(states, States::Disk(_)), limit == 100);
            states
                .for_each(Some(&d), &mut |e| {
                    got.push(*e);
                    Ok(())
                })
                .unwrap();
            assert_eq!((got, wrapped), (want.clone(), false), "limit {limit}");
        }
        // two rounds of FANIN merged before the last merge, each a run
        assert_eq!(d.runs(), files + 4);
    }

    /// A folder that cannot be made, and a bound whose least run passes the free space, are
    /// refused with one line; the count's folder is removed with what it holds.
    #[test]
    fn unwritable_folders_and_small_disks_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("a-file");
        std::fs::write(&file, b"x").unwrap();
        let refused = SpillDir::create(
            &Spill {
                memory: MIN_MEMORY,
                temp: &file.join("below"),
            },
            16,
            16,
        )
        .unwrap_err();
        assert!(matches!(refused, SpillProblem::NotWritable(_)), "{refused}");
        let huge = Spill {
            memory: 1 << 62,
            temp: tmp.path(),
        };
        let refused = SpillDir::create(&huge, 16, 16).unwrap_err();
        assert!(
            matches!(refused, SpillProblem::TooSmall { .. }),
            "{refused}"
        );
        assert!(!refused.to_string().contains('\n'));
        let d = dir(tmp.path(), MIN_MEMORY);
        let path = d.path.clone();
        let _run = d.write_run(&[Pair::new(1u64, 1u64)]).unwrap();
        drop(d);
        assert!(!path.exists());
        assert!(check_memory(MIN_MEMORY - 1).is_err() && check_memory(u64::MAX).is_err());
    }

    /// A count's folder left by a count stopped by force (its lock free, its runs there) is
    /// removed by the next count under the same `--temp`; a live count's folder, a folder with no
    /// lock file and one not named as a count's are left.
    #[test]
    fn the_folders_of_stopped_counts_are_removed_by_the_next() {
        let tmp = tempfile::tempdir().unwrap();
        let live = dir(tmp.path(), MIN_MEMORY);
        let _run = live.write_run(&[Pair::new(1u64, 1u64)]).unwrap();
        let stale = tmp.path().join(format!("{FOLDER}1-2"));
        std::fs::create_dir(&stale).unwrap();
        std::fs::write(stale.join(LOCK), b"").unwrap();
        std::fs::write(stale.join("0.run"), [0u8; 4096]).unwrap();
        let unlocked = tmp.path().join(format!("{FOLDER}3-4"));
        let other = tmp.path().join("results");
        for kept in [&unlocked, &other] {
            std::fs::create_dir(kept).unwrap();
            std::fs::write(kept.join(LOCK), b"").unwrap();
        }
        std::fs::remove_file(unlocked.join(LOCK)).unwrap();
        let next = dir(tmp.path(), MIN_MEMORY);
        assert!(!stale.exists());
        for kept in [&live.path, &next.path, &unlocked, &other] {
            assert!(kept.exists(), "{kept:?}");
        }
        assert_eq!(remove_stale(tmp.path()), 0);
        // a count gone without its drop: its lock released, its folder left
        let mut live = live;
        let path = live.path.clone();
        drop(live._lock.take());
        std::mem::forget(live);
        assert_eq!(remove_stale(tmp.path()), 1);
        assert!(!path.exists() && next.path.exists());
    }
}
