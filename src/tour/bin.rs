//! The compact binary tour format, for boards too large for text: a 32-byte little-endian header
//! and four bytes a square ([`write_bin`] gives the layout). [`BinStream`] reads one as it streams,
//! so a tour of billions of squares is never held whole.

use super::{LoadedTour, TourFileError};
use crate::board::{Board, Square};
use std::io::Read as _;

/// First bytes of a binary tour file.
pub const BIN_MAGIC: &[u8; 8] = b"KTOURBIN";
/// Version of the binary format written by [`write_bin`].
pub const BIN_VERSION: u32 = 1;
/// Bytes before the squares: magic, version, rows, cols, closed flag (+3 padding), count.
pub const BIN_HEADER_LEN: usize = 32;

/// Write a tour in the compact binary format, for huge boards: the 32-byte header
/// (`b"KTOURBIN"`, u32 version = 1, u32 rows, u32 cols, u8 closed, 3 zero bytes, u64 count), then
/// `count` u32 row-major square indexes (`row * cols + col`), all little-endian. Buffer `w` yourself
/// if it is a file; this writes in 64 KiB chunks.
pub fn write_bin<W: std::io::Write>(
    w: &mut W,
    board: Board,
    squares: &[Square],
    closed: bool,
) -> std::io::Result<()> {
    let mut header = Vec::with_capacity(BIN_HEADER_LEN);
    header.extend_from_slice(BIN_MAGIC);
    header.extend_from_slice(&BIN_VERSION.to_le_bytes());
    header.extend_from_slice(&board.rows().to_le_bytes());
    header.extend_from_slice(&board.cols().to_le_bytes());
    header.extend_from_slice(&[closed as u8, 0, 0, 0]);
    header.extend_from_slice(&(squares.len() as u64).to_le_bytes());
    w.write_all(&header)?;
    let mut buf = Vec::with_capacity(1 << 16);
    for chunk in squares.chunks(1 << 14) {
        buf.clear();
        for &s in chunk {
            buf.extend_from_slice(&board.index(s).to_le_bytes());
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

/// The header of a binary tour file ([`write_bin`]), checked on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinHeader {
    /// The board.
    pub board: Board,
    /// The closed flag.
    pub closed: bool,
    /// Squares announced.
    pub count: u64,
}

impl BinHeader {
    /// The header at the start of `bytes`: long enough, this version, a valid board and flag.
    pub fn parse(bytes: &[u8]) -> Result<BinHeader, TourFileError> {
        let bad = |m: String| TourFileError::Binary(m);
        if bytes.len() < BIN_HEADER_LEN {
            return Err(bad(format!(
                "truncated header: {} bytes, the header has {BIN_HEADER_LEN}",
                bytes.len()
            )));
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        let version = u32_at(8);
        if version != BIN_VERSION {
            return Err(bad(format!(
                "unsupported version {version} (this ktour reads {BIN_VERSION})"
            )));
        }
        let board = Board::new(u32_at(12) as u64, u32_at(16) as u64)?;
        let closed = match bytes[20] {
            0 => false,
            1 => true,
            x => return Err(bad(format!("closed flag is {x}, expected 0 or 1"))),
        };
        let count = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
        Ok(BinHeader {
            board,
            closed,
            count,
        })
    }

    /// That `body` bytes follow the header: exactly the announced squares.
    fn check_body(&self, body: u64) -> Result<(), TourFileError> {
        let count = self.count;
        let announced = count.checked_mul(4);
        if announced == Some(body) {
            return Ok(());
        }
        let (size, why) = match announced {
            Some(n) if n > body => (format!("{n} bytes"), "truncated?"),
            Some(n) => (format!("{n} bytes"), "trailing bytes?"),
            None => ("more than 2^64 bytes".to_string(), "a corrupt header?"),
        };
        Err(TourFileError::Binary(format!(
            "the header announces {count} squares ({size}) but {body} bytes follow ({why})"
        )))
    }

    /// A stream that goes on past the announced squares (its length is not known: reading stops).
    pub(super) fn trailing_bytes(&self) -> TourFileError {
        let count = self.count;
        TourFileError::Binary(format!(
            "the header announces {count} squares ({} bytes) but more bytes follow (trailing bytes?)",
            count.saturating_mul(4)
        ))
    }

    /// That the squares fit the board, and the board is `given` (when it is).
    fn check_board(&self, given: Option<Board>) -> Result<(), TourFileError> {
        let board = self.board;
        if self.count > board.len() as u64 {
            let count = self.count;
            return Err(TourFileError::Binary(format!(
                "{count} squares for a {board} board"
            )));
        }
        match given {
            Some(b) if b != board => Err(TourFileError::Inconsistent(format!(
                "the file is for a {board} board but {b} was given"
            ))),
            _ => Ok(()),
        }
    }

    /// The square of the index `k` at `step`; an index past the board is an error, not wrapped.
    fn square(&self, k: u32, step: u64) -> Result<Square, TourFileError> {
        self.board.square_at(k).ok_or_else(|| {
            TourFileError::Binary(format!(
                "square index {k} at step {step} is off the board ({} squares)",
                self.board.len()
            ))
        })
    }
}

/// Read the binary format of [`write_bin`]. Every inconsistency is a [`TourFileError::Binary`] or
/// [`TourFileError::Inconsistent`]; an index past the board is reported, not wrapped.
pub fn parse_bin(bytes: &[u8], board: Option<Board>) -> Result<LoadedTour, TourFileError> {
    let header = BinHeader::parse(bytes)?;
    let body = &bytes[BIN_HEADER_LEN..];
    header.check_body(body.len() as u64)?;
    header.check_board(board)?;
    let mut squares = Vec::with_capacity(header.count as usize);
    for (i, c) in body.chunks_exact(4).enumerate() {
        let k = u32::from_le_bytes(c.try_into().unwrap());
        squares.push(header.square(k, i as u64)?);
    }
    Ok(LoadedTour {
        board: header.board,
        squares,
        claims_closed: Some(header.closed),
        claims_found: None,
        shape: None,
    })
}

/// A binary tour file read as it streams, never held whole (a tour of billions of squares is 4 bytes
/// a square): [`BinStream::open`] reads and checks the header as [`parse_bin`] does (with the body's
/// size, when the file is a regular one and its size is known), [`BinStream::squares`] hands each
/// square on in order as it is read, with the rest of [`parse_bin`]'s checks.
pub struct BinStream<R> {
    header: BinHeader,
    body: std::io::Take<R>,
}

impl<R: std::io::Read> BinStream<R> {
    /// Read the header from `source`; `file_len` is the file's size when it is a regular file (its
    /// body is then checked at once), `given` the board the user named.
    pub fn open(
        mut source: R,
        given: Option<Board>,
        file_len: Option<u64>,
    ) -> Result<BinStream<R>, TourFileError> {
        let mut head = Vec::with_capacity(BIN_HEADER_LEN);
        (&mut source)
            .take(BIN_HEADER_LEN as u64)
            .read_to_end(&mut head)
            .map_err(read_error)?;
        let header = BinHeader::parse(&head)?;
        if let Some(len) = file_len {
            header.check_body(len.saturating_sub(BIN_HEADER_LEN as u64))?;
        }
        header.check_board(given)?;
        // the announced squares (at most the board's, checked above) and one byte more, which
        // tells trailing bytes from none
        let body = source.take(header.count * 4 + 1);
        Ok(BinStream { header, body })
    }

    /// The checked header.
    pub fn header(&self) -> BinHeader {
        self.header
    }

    /// Hand each square to `each`, in order, as it is read. A stream's length is checked as it ends,
    /// and one that goes past the announced squares is stopped there. `each` may have seen squares
    /// before a later fault of the file is found: what they are worth is the caller's to decide once
    /// this returns `Ok`.
    pub fn squares(mut self, mut each: impl FnMut(Square)) -> Result<(), TourFileError> {
        let header = self.header;
        let mut buf = vec![0u8; 1 << 20];
        let (mut filled, mut step, mut read) = (0usize, 0u64, 0u64);
        loop {
            let n = match self.body.read(&mut buf[filled..]) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(read_error(e)),
            };
            read += n as u64;
            filled += n;
            let whole = filled - filled % 4;
            for c in buf[..whole].chunks_exact(4) {
                if step < header.count {
                    each(header.square(u32::from_le_bytes(c.try_into().unwrap()), step)?);
                }
                step += 1;
            }
            buf.copy_within(whole..filled, 0);
            filled -= whole;
            if n == 0 {
                break;
            }
        }
        if read > header.count * 4 {
            return Err(header.trailing_bytes());
        }
        header.check_body(read)
    }
}

fn read_error(e: std::io::Error) -> TourFileError {
    TourFileError::Binary(format!("reading: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::parse_tour;

    #[test]
    fn bin_round_trips_and_rejects_corruption() {
        let b = Board::new(3, 4).unwrap();
        let sq: Vec<Square> = b.squares().collect();
        let mut bytes = Vec::new();
        write_bin(&mut bytes, b, &sq, true).unwrap();
        assert_eq!(bytes.len(), BIN_HEADER_LEN + 4 * 12);
        let t = parse_tour(&bytes, None).unwrap();
        assert_eq!(
            (t.board, t.squares.clone(), t.claims_closed),
            (b, sq, Some(true))
        );
        // Every truncation is an error, never a panic.
        for cut in 0..bytes.len() {
            assert!(parse_tour(&bytes[..cut], None).is_err(), "cut at {cut}");
        }
        // A body of the wrong length says which way it is wrong, in true sizes.
        let message = |v: &[u8]| parse_tour(v, None).unwrap_err().to_string();
        let e = message(&bytes[..bytes.len() - 4]);
        assert!(
            e.contains("(48 bytes) but 44 bytes follow (truncated?)"),
            "{e}"
        );
        let e = message(&[bytes.as_slice(), &[0; 4]].concat());
        assert!(e.contains("but 52 bytes follow (trailing bytes?)"), "{e}");
        let mut v = bytes.clone();
        v[24..32].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        let e = message(&v);
        assert!(e.contains("(more than 2^64 bytes)"), "{e}");
        let mut v = bytes.clone();
        v[8] = 9; // version
        assert!(matches!(
            parse_tour(&v, None),
            Err(TourFileError::Binary(_))
        ));
        let mut v = bytes.clone();
        v[BIN_HEADER_LEN] = 200; // index 200 on a 12-square board
        assert!(matches!(
            parse_tour(&v, None),
            Err(TourFileError::Binary(_))
        ));
        let mut v = bytes.clone();
        v[24] = 0xff; // count
        assert!(matches!(
            parse_tour(&v, None),
            Err(TourFileError::Binary(_))
        ));
        let mut v = bytes.clone();
        v[12] = 0; // rows = 0
        assert!(matches!(parse_tour(&v, None), Err(TourFileError::Board(_))));
        assert!(matches!(
            parse_tour(&bytes, Some(Board::new(4, 3).unwrap())),
            Err(TourFileError::Inconsistent(_))
        ));
    }
}
