//! Reading the files ktour is given, bounded: no input, however large or endless, is read forever.
//!
//! A regular file has a size, so it is read whole when that size is within the limit and refused at
//! once when not. Anything else (standard input, a pipe, `/dev/zero`, `/dev/urandom`) may never end:
//! it is checked block by block as it is read ([`StreamCheck`]: is it still the expected format?),
//! so endless garbage is refused after one block, and reading stops with an error at the limit, so
//! an endless stream of plausible bytes ends too. Errors are `io::Error`s, so every caller's
//! existing error type carries them.

use std::io::{self, Read};
use std::path::Path;

/// Bytes a non-regular input is read before it is first checked (or all of it, if it ends first);
/// later blocks are [`BLOCK_BYTES`].
pub const START_BYTES: usize = 64 << 10;
/// Bytes of each later block of a non-regular input, each checked as it arrives.
pub const BLOCK_BYTES: usize = 1 << 20;

/// Checks an input that may never end as it is read, block by block, so that one which cannot be
/// the expected format is refused as soon as that shows.
pub trait StreamCheck {
    /// `bytes` is everything read so far (a longer prefix at each call); `ended` whether the input
    /// ended there. `Err` says why they cannot be (the start of) the expected format.
    fn check(&mut self, bytes: &[u8], ended: bool) -> Result<(), String>;
}

/// Largest input the memory check lets ktour hold: the share of available memory that every memory
/// check allows ([`crate::memory::usable_share`]).
pub fn memory_limit() -> u64 {
    crate::memory::usable_share(crate::memory::available_bytes())
}

/// What [`memory_limit`] is, as errors say it.
pub const MEMORY: &str = "the memory available to hold it";

/// The bytes of the text file `path` (a summary, a journal, `meta.json`), at most what memory
/// allows; a source that is not a regular file must be text ([`Text`]).
pub fn read_text(path: &Path) -> io::Result<Vec<u8>> {
    read_bounded(path, memory_limit(), MEMORY, &mut Text::default())
}

/// The bytes of `path`: at most `limit` of them (`what` says where the limit comes from, for the
/// error). A source that is not a regular file is also checked by `check` as it is read.
pub fn read_bounded(
    path: &Path,
    limit: u64,
    what: &str,
    check: &mut dyn StreamCheck,
) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    read_opened(
        file,
        meta.is_file().then_some(meta.len()),
        limit,
        what,
        check,
    )
}

/// [`read_bounded`] of an opened `source`: a regular file of `regular_len` bytes, or (`None`) a
/// source that may never end.
pub fn read_opened(
    source: impl Read,
    regular_len: Option<u64>,
    limit: u64,
    what: &str,
    check: &mut dyn StreamCheck,
) -> io::Result<Vec<u8>> {
    let Some(len) = regular_len else {
        return read_stream(source, limit, what, check);
    };
    if len > limit {
        return Err(too_large(len, limit, what));
    }
    // A regular file can still grow while read: the limit holds for what is read too.
    let mut bytes = Vec::with_capacity(len as usize);
    source
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64, limit, what));
    }
    Ok(bytes)
}

/// [`read_bounded`] of a source that may never end (standard input, say).
pub fn read_stream(
    mut source: impl Read,
    limit: u64,
    what: &str,
    check: &mut dyn StreamCheck,
) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut block = START_BYTES as u64;
    loop {
        // one byte past the limit tells a stream at the limit from one beyond it
        let want = block.min(limit.saturating_add(1) - bytes.len() as u64);
        let ended = (&mut source).take(want).read_to_end(&mut bytes)? < want as usize;
        check
            .check(&bytes, ended)
            .map_err(|why| io::Error::new(io::ErrorKind::InvalidData, why))?;
        if bytes.len() as u64 > limit {
            // the stream is not over: say so rather than guess its size
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("more than {} ({what}); stopped reading", mib(limit)),
            ));
        }
        if ended {
            return Ok(bytes);
        }
        block = BLOCK_BYTES as u64;
    }
}

fn too_large(len: u64, limit: u64, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{} is more than {} ({what})", mib(len), mib(limit)),
    )
}

fn mib(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} bytes")
    } else {
        format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
    }
}

/// A text stream: UTF-8 with no NUL byte, which no text file of ktour's holds and `/dev/zero` is
/// made of. Each byte is checked once; a character cut at the end of a block is checked whole with
/// the next.
#[derive(Clone, Debug, Default)]
pub struct Text {
    valid_up_to: usize,
}

impl StreamCheck for Text {
    fn check(&mut self, bytes: &[u8], ended: bool) -> Result<(), String> {
        let new = &bytes[self.valid_up_to..];
        if let Some(at) = new.iter().position(|&b| b == 0) {
            let at = self.valid_up_to + at;
            return Err(format!("not a text file: a NUL byte at offset {at}"));
        }
        match std::str::from_utf8(new) {
            Ok(_) => self.valid_up_to = bytes.len(),
            Err(e) if !ended && e.error_len().is_none() => self.valid_up_to += e.valid_up_to(),
            Err(e) => {
                let at = self.valid_up_to + e.valid_up_to();
                return Err(format!("not a text file: invalid UTF-8 at offset {at}"));
            }
        }
        Ok(())
    }
}

/// Largest mask file read (`--mask`): a line a row and a byte a square, so about 10^8 squares, the
/// most a sweep takes.
pub const MASK_LIMIT: u64 = 128 << 20;

/// The text of a mask file, read bounded: a pipe or a device given by mistake (`/dev/zero`) is
/// refused as soon as it cannot be a mask, not read forever.
pub fn read_mask(path: &Path) -> io::Result<String> {
    let bytes = read_bounded(
        path,
        MASK_LIMIT,
        "the most a mask may be: a line a row, a byte a square",
        &mut MaskBytes::default(),
    )?;
    // only ASCII passed the check
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// A mask as it streams: only `.`, `#`, spaces and line ends, so that anything else (`yes`, a
/// binary file) is refused at its first wrong byte, named as [`crate::board::Shape::from_mask`]
/// names it.
#[derive(Clone, Debug, Default)]
pub struct MaskBytes {
    checked: usize,
    line: usize,
    column: usize,
}

impl StreamCheck for MaskBytes {
    fn check(&mut self, bytes: &[u8], _ended: bool) -> Result<(), String> {
        for &b in &bytes[self.checked..] {
            match b {
                b'\n' => (self.line, self.column) = (self.line + 1, 0),
                b'.' | b'#' | b' ' | b'\t' | b'\r' => self.column += 1,
                _ => {
                    return Err(format!(
                        "line {}, column {}: {:?} is neither '.' (a square) nor '#' (a hole)",
                        self.line + 1,
                        self.column + 1,
                        char::from(b)
                    ))
                }
            }
        }
        self.checked = bytes.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless reader repeating `pattern`.
    struct Endless(&'static [u8], usize);

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            for b in buf.iter_mut() {
                *b = self.0[self.1 % self.0.len()];
                self.1 += 1;
            }
            Ok(buf.len())
        }
    }

    #[test]
    fn an_endless_stream_of_nul_bytes_is_refused_after_one_block() {
        let mut zeros = io::repeat(0);
        let err = read_stream(&mut zeros, u64::MAX, "test", &mut Text::default()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("NUL byte at offset 0"), "{err}");
    }

    #[test]
    fn an_endless_stream_of_text_stops_at_the_limit() {
        let err = read_stream(
            Endless(b"0,0\n", 0),
            1 << 20,
            "the test's limit",
            &mut Text::default(),
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "more than 1.0 MiB (the test's limit); stopped reading"
        );
        // a limit below the first block is honoured too
        let err = read_stream(Endless(b"y\n", 0), 100, "tiny", &mut Text::default()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn a_stream_within_the_limit_is_read_whole() {
        let text: Vec<u8> = b"0,0\n".repeat(50_000); // 200 kB: past the first block
        let got = read_stream(
            text.as_slice(),
            text.len() as u64,
            "x",
            &mut Text::default(),
        )
        .unwrap();
        assert_eq!(got, text);
        let short = read_stream(&b"1,2\n"[..], 4, "x", &mut Text::default()).unwrap();
        assert_eq!(short, b"1,2\n");
        assert!(read_stream(&b"1,2\n"[..], 3, "x", &mut Text::default()).is_err());
    }

    #[test]
    fn text_is_checked_block_by_block_and_once() {
        // a multi-byte character cut by the block's end is fine mid-stream, not at the end
        let text = "aé".as_bytes();
        let mut check = Text::default();
        assert!(check.check(&text[..2], false).is_ok());
        assert_eq!(check.valid_up_to, 1);
        assert!(check.check(text, false).is_ok());
        assert_eq!(check.valid_up_to, 3);
        assert!(Text::default().check(&text[..2], true).is_err());
        assert!(Text::default().check(b"\xff\xfe", false).is_err());
        assert!(Text::default().check(b"", true).is_ok());
        // an offset is the stream's, not the block's
        let mut check = Text::default();
        check.check(b"abc", false).unwrap();
        assert_eq!(
            check.check(b"abc\0", false).unwrap_err(),
            "not a text file: a NUL byte at offset 3"
        );
        // a NUL after a first block of text is found when its block arrives
        let mut stream = b"ok\n".repeat(30_000);
        stream.push(0);
        let err = read_stream(stream.as_slice(), u64::MAX, "x", &mut Text::default()).unwrap_err();
        assert!(err.to_string().contains("offset 90000"), "{err}");
    }

    #[test]
    fn a_regular_file_over_the_limit_is_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        std::fs::write(&path, vec![b'x'; 2000]).unwrap();
        let err = read_bounded(&path, 1000, "the limit", &mut Text::default()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "2000 bytes is more than 1000 bytes (the limit)"
        );
        // a regular file is not checked at its start: its size bounds it, and its parser reports
        // what is wrong with it as it does for any file
        std::fs::write(&path, [0u8; 10]).unwrap();
        assert_eq!(
            read_bounded(&path, 1000, "x", &mut Text::default()).unwrap(),
            [0u8; 10]
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_that_never_end_are_refused() {
        for device in ["/dev/zero", "/dev/urandom"] {
            let err =
                read_bounded(Path::new(device), u64::MAX, "x", &mut Text::default()).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{device}: {err}");
        }
    }
}
