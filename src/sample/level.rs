//! The states of one step of the forward pass, kept for the backward pass: sorted (state, ways)
//! pairs written compactly in blocks (each key as its difference from the one before, and the
//! ways, as LEB128 varints), in memory or in a file of the sampler's temporary folder. A block
//! starts afresh (its first key whole), so blocks are read independently and in parallel, and a
//! file is streamed back a block at a time.
//!
//! Source: LEB128 is the varint of DWARF (DWARF 4, section 7.6); difference coding of a sorted
//! list is the classical compression of inverted lists (Witten, Moffat and Bell, *Managing
//! Gigabytes*, 1999, chapter 3).

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Mutex;

/// States a block holds at most.
pub(crate) const BLOCK: usize = 1 << 16;

/// Where a block lies in its level's bytes.
#[derive(Clone, Copy, Debug)]
struct BlockAt {
    offset: u64,
    bytes: u32,
}

/// Where a level's bytes are.
enum Store {
    Memory(Vec<u8>),
    /// The file (removed when the level is dropped), behind a lock for its seeks.
    File(PathBuf, Mutex<File>),
}

/// A sorted list of (state key, ways), stored compactly in blocks.
pub(crate) struct Level {
    blocks: Vec<BlockAt>,
    store: Store,
    states: u64,
    bytes: u64,
}

impl Level {
    /// The states it holds.
    pub(crate) fn states(&self) -> u64 {
        self.states
    }

    /// The bytes it takes.
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Its blocks.
    pub(crate) fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Block `b`, decoded: its (key, ways) pairs in order.
    pub(crate) fn block(&self, b: usize) -> std::io::Result<Vec<(u128, u128)>> {
        let mut pairs = Vec::new();
        let mut reader = self.reader(b)?;
        while let Some(pair) = reader.next_pair()? {
            pairs.push(pair);
        }
        Ok(pairs)
    }

    /// Block `b`, to decode a pair at a time (its bytes only in memory: a merge of many runs holds
    /// one block of each, at about 3 bytes a state where decoded pairs take 32).
    pub(crate) fn reader(&self, b: usize) -> std::io::Result<BlockReader> {
        let at = self.blocks[b];
        let bytes = match &self.store {
            Store::Memory(all) => all[at.offset as usize..][..at.bytes as usize].to_vec(),
            Store::File(_, file) => {
                let mut owned = vec![0; at.bytes as usize];
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                file.seek(SeekFrom::Start(at.offset))?;
                file.read_exact(&mut owned)?;
                owned
            }
        };
        Ok(BlockReader {
            bytes,
            at: 0,
            key: 0,
        })
    }
}

/// One block's bytes, decoded a pair at a time.
pub(crate) struct BlockReader {
    bytes: Vec<u8>,
    at: usize,
    key: u128,
}

impl BlockReader {
    /// The next (key, ways) pair, or `None` at the end of the block.
    pub(crate) fn next_pair(&mut self) -> std::io::Result<Option<(u128, u128)>> {
        if self.at == self.bytes.len() {
            return Ok(None);
        }
        let mut rest = &self.bytes[self.at..];
        let delta = varint(&mut rest)?;
        let ways = varint(&mut rest)?;
        self.at = self.bytes.len() - rest.len();
        self.key = self.key.checked_add(delta).ok_or_else(damaged)?;
        Ok(Some((self.key, ways)))
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        if let Store::File(path, _) = &self.store {
            // a file left behind is only disk lost in the temporary folder, which goes too
            let _ = std::fs::remove_file(path);
        }
    }
}

fn damaged() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        "a stored step of the sampler is damaged",
    )
}

/// One LEB128 varint from the front of `bytes`.
fn varint(bytes: &mut &[u8]) -> std::io::Result<u128> {
    let mut x = 0u128;
    for shift in (0..128).step_by(7) {
        let (&b, rest) = bytes.split_first().ok_or_else(damaged)?;
        *bytes = rest;
        x |= u128::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Ok(x);
        }
    }
    Err(damaged())
}

fn put_varint(out: &mut Vec<u8>, mut x: u128) {
    while x >= 0x80 {
        out.push(x as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Where a level being written goes.
enum Sink {
    Memory(Vec<u8>),
    File(PathBuf, BufWriter<File>),
}

/// Writes a [`Level`]: pairs in increasing order of key.
pub(crate) struct LevelWriter {
    sink: Sink,
    block: Vec<u8>,
    in_block: usize,
    last: u128,
    blocks: Vec<BlockAt>,
    states: u64,
    bytes: u64,
}

impl LevelWriter {
    /// A level in memory.
    pub(crate) fn memory() -> Self {
        Self::to(Sink::Memory(Vec::new()))
    }

    /// A level in a new file at `path`.
    pub(crate) fn file(path: PathBuf) -> std::io::Result<Self> {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        Ok(Self::to(Sink::File(path, BufWriter::new(file))))
    }

    fn to(sink: Sink) -> Self {
        LevelWriter {
            sink,
            block: Vec::new(),
            in_block: 0,
            last: 0,
            blocks: Vec::new(),
            states: 0,
            bytes: 0,
        }
    }

    /// Add `key` (greater than the last one added) with its `ways`.
    pub(crate) fn push(&mut self, key: u128, ways: u128) -> std::io::Result<()> {
        debug_assert!(self.in_block == 0 || key > self.last, "keys in order");
        let delta = if self.in_block == 0 {
            key
        } else {
            key - self.last
        };
        put_varint(&mut self.block, delta);
        put_varint(&mut self.block, ways);
        self.last = key;
        self.in_block += 1;
        self.states += 1;
        if self.in_block == BLOCK {
            self.close_block()?;
        }
        Ok(())
    }

    fn close_block(&mut self) -> std::io::Result<()> {
        if self.in_block == 0 {
            return Ok(());
        }
        self.blocks.push(BlockAt {
            offset: self.bytes,
            bytes: self.block.len() as u32,
        });
        self.bytes += self.block.len() as u64;
        match &mut self.sink {
            Sink::Memory(all) => all.extend_from_slice(&self.block),
            Sink::File(_, out) => out.write_all(&self.block)?,
        }
        self.block.clear();
        self.in_block = 0;
        Ok(())
    }

    /// The level written.
    pub(crate) fn finish(mut self) -> std::io::Result<Level> {
        self.close_block()?;
        let store = match std::mem::replace(&mut self.sink, Sink::Memory(Vec::new())) {
            Sink::Memory(mut all) => {
                all.shrink_to_fit();
                Store::Memory(all)
            }
            Sink::File(path, out) => {
                let file = out.into_inner().map_err(|e| e.into_error())?;
                Store::File(path, Mutex::new(file))
            }
        };
        Ok(Level {
            blocks: std::mem::take(&mut self.blocks),
            store,
            states: self.states,
            bytes: self.bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs written in memory and to a file read back the same, block by block, across block
    /// boundaries and with keys and ways of every size.
    #[test]
    fn levels_read_back_what_was_written() {
        let pairs: Vec<(u128, u128)> = (0..2 * BLOCK as u128 + 5)
            .map(|k| (k * k * 0x1_0000_0001 + (k << 100), k.pow(3) << (k % 90)))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let writers = [
            LevelWriter::memory(),
            LevelWriter::file(dir.path().join("level")).unwrap(),
        ];
        for mut w in writers {
            for &(k, x) in &pairs {
                w.push(k, x).unwrap();
            }
            let level = w.finish().unwrap();
            assert_eq!((level.states(), level.blocks()), (pairs.len() as u64, 3));
            let back: Vec<_> = (0..level.blocks())
                .flat_map(|b| level.block(b).unwrap())
                .collect();
            assert_eq!(back, pairs);
        }
        assert!(!dir.path().join("level").exists(), "removed when dropped");
        let mut cut: &[u8] = &[0x80];
        assert!(varint(&mut cut).is_err());
    }
}
