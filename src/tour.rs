//! Tour files: the JSON record that `solve` writes and `verify` reads, the `r,c` lines format, and the
//! numbered text grid. The JSON field names are a contract with tests, plots and later tools.

use crate::board::{is_closed_tour, Board, Square};
use crate::solve::{Outcome, Solution};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::io::Read as _;

/// Search statistics carried in the JSON `stats` object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsRecord {
    /// Squares entered (make calls), the start included.
    #[serde(default)]
    pub nodes: u64,
    /// Squares left again (unmake calls).
    #[serde(default)]
    pub backtracks: u64,
    /// Wall-clock time of the search, nanoseconds.
    #[serde(default)]
    pub elapsed_ns: u64,
    /// Moves at which more than one candidate shared the minimum degree, so the rule decided.
    #[serde(default)]
    pub ties: u64,
    /// For `rotate`: the Pósa rotations made to close the path (omitted when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotations: u64,
    /// For the `squirrel` rule: the orderings in force, in the order they were used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orderings: Option<Vec<String>>,
}

/// One run, as `solve --format json` writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TourRecord {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Whether `squares` is a closed tour.
    #[serde(default)]
    pub closed: bool,
    /// First square.
    #[serde(default)]
    pub start: Option<Square>,
    /// Squares in visiting order (the partial path when no tour was found).
    pub squares: Vec<Square>,
    /// Whether a tour was found.
    #[serde(default = "yes")]
    pub found: bool,
    /// Solver that produced it.
    #[serde(default)]
    pub method: String,
    /// Tie-break rule.
    #[serde(default)]
    pub rule: String,
    /// Search statistics.
    #[serde(default)]
    pub stats: StatsRecord,
    /// The leaper, `A,B`, when it is not the knight (`docs/REFERENCE.md`, section 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaper: Option<String>,
    /// The board's holes, when it has some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Square>,
}

impl TourRecord {
    /// The shape the record's squares are on: its board, holes and leaper.
    pub fn shape(&self) -> Result<crate::board::Shape, TourFileError> {
        let board = Board::new(self.rows as u64, self.cols as u64)
            .map_err(|e| TourFileError::Shape(e.to_string()))?;
        let leaper = match &self.leaper {
            Some(l) => l
                .parse()
                .map_err(|e: crate::board::ShapeError| TourFileError::Shape(e.to_string()))?,
            None => crate::board::Leaper::KNIGHT,
        };
        crate::board::Shape::new(board, leaper, &self.holes)
            .map_err(|e| TourFileError::Shape(e.to_string()))
    }

    /// The record of a run on `shape`: the shape's leaper and holes written beside the squares, and
    /// `closed` read with its leaper.
    pub fn on_shape(mut self, shape: &crate::board::Shape) -> Self {
        if shape.leaper() != crate::board::Leaper::KNIGHT {
            self.leaper = Some(shape.leaper().to_string());
        }
        self.holes = shape.holes().collect();
        self.closed = self.found && shape.closes(&self.squares);
        self
    }
}

impl From<&Solution> for TourRecord {
    /// The JSON record of a solver's run: `closed` when a tour was found and either closing was
    /// asked for (the solver guarantees it then) or its ends happen to meet.
    fn from(run: &Solution) -> Self {
        let found = run.outcome == Outcome::Found;
        TourRecord {
            rows: run.request.board.rows(),
            cols: run.request.board.cols(),
            closed: found && (run.request.closure.is_closed() || is_closed_tour(&run.squares)),
            start: Some(run.request.start),
            squares: run.squares.clone(),
            found,
            method: run.request.method.to_string(),
            rule: run.request.rule.to_string(),
            stats: StatsRecord {
                nodes: run.stats.nodes,
                backtracks: run.stats.backtracks,
                elapsed_ns: run.stats.elapsed_ns,
                ties: run.stats.ties,
                rotations: run.stats.rotations,
                orderings: run.orderings.clone(),
            },
            leaper: None,
            holes: Vec::new(),
        }
    }
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A tour file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TourFileError {
    /// Not valid JSON, or not the expected fields.
    #[error("malformed tour JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The record's board, holes or leaper do not make a shape.
    #[error("the record's board: {0}")]
    Shape(String),
    /// A line of the `r,c` format that is not two non-negative integers.
    #[error("line {line}: expected `row,col` (two non-negative integers), got {text:?}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line as read.
        text: String,
    },
    /// The `r,c` format carries no board size.
    #[error("a tour given as `r,c` lines needs the board size: pass --rows and --cols")]
    MissingBoard,
    /// An invalid board size in the file.
    #[error("invalid board in tour file: {0}")]
    Board(#[from] crate::board::BoardError),
    /// Fields that contradict each other.
    #[error("inconsistent tour file: {0}")]
    Inconsistent(String),
    /// A binary tour file that is truncated or corrupt.
    #[error("corrupt binary tour file: {0}")]
    Binary(String),
    /// Neither text nor a known binary header.
    #[error("not a tour file: {0}")]
    Unrecognised(String),
}

/// A tour as read from a file, with what the file claims about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedTour {
    /// The board.
    pub board: Board,
    /// The squares in order.
    pub squares: Vec<Square>,
    /// What the file says about closedness, if anything.
    pub claims_closed: Option<bool>,
    /// What the file says about having found a tour, if anything.
    pub claims_found: Option<bool>,
    /// The shape a JSON record names (its holes and leaper); `None` for formats that carry none.
    pub shape: Option<crate::board::Shape>,
}

/// Read a tour in any supported format: binary (starts with [`BIN_MAGIC`]), JSON (starts with `{`) or
/// `r,c` lines. `board` gives the size
/// for formats that do not carry it; when both are present they must agree.
pub fn parse_tour(bytes: &[u8], board: Option<Board>) -> Result<LoadedTour, TourFileError> {
    if bytes.starts_with(BIN_MAGIC) {
        return parse_bin(bytes, board);
    }
    let bytes = without_bom(bytes);
    if bytes.trim_ascii_start().starts_with(b"[") {
        return Err(TourFileError::Unrecognised(
            "a JSON array; a tour record is an object, as `solve --format json` writes it".into(),
        ));
    }
    if is_json(bytes) {
        let rec = parse_record(bytes)?;
        let file_board = Board::new(rec.rows as u64, rec.cols as u64)?;
        if let Some(b) = board {
            if b != file_board {
                return Err(TourFileError::Inconsistent(format!(
                    "the file is for a {file_board} board but {b} was given"
                )));
            }
        }
        let shape = (rec.leaper.is_some() || !rec.holes.is_empty())
            .then(|| rec.shape())
            .transpose()?;
        return Ok(LoadedTour {
            board: file_board,
            squares: rec.squares,
            claims_closed: Some(rec.closed),
            claims_found: Some(rec.found),
            shape,
        });
    }
    let text = utf8(bytes)?;
    let board = board.ok_or(TourFileError::MissingBoard)?;
    Ok(LoadedTour {
        board,
        squares: parse_moves(text)?,
        claims_closed: None,
        claims_found: None,
        shape: None,
    })
}

/// Checks a tour file that may never end (a pipe, a device) as it is read, block by block
/// ([`crate::input::StreamCheck`]): the format shows in the first bytes; `r,c` lines are parsed as
/// they arrive, so a bad line gets the error the whole file would get, and more lines than the
/// board has squares end the stream; a binary file ends where its header says.
#[derive(Clone, Debug)]
pub struct TourStream {
    board: Option<Board>,
    text: crate::input::Text,
    /// Bytes of whole `r,c` lines parsed so far (after any byte-order mark), and their lines.
    parsed: usize,
    lines: usize,
    squares: u64,
    json_checked: bool,
}

impl TourStream {
    /// A check for a tour file read with `board` given (`--rows`/`--cols`), or none.
    pub fn new(board: Option<Board>) -> Self {
        TourStream {
            board,
            text: crate::input::Text::default(),
            parsed: 0,
            lines: 0,
            squares: 0,
            json_checked: false,
        }
    }
}

impl crate::input::StreamCheck for TourStream {
    fn check(&mut self, bytes: &[u8], ended: bool) -> Result<(), String> {
        if bytes.starts_with(BIN_MAGIC) {
            if bytes.len() >= BIN_HEADER_LEN {
                let header = BinHeader::parse(bytes).map_err(|e| e.to_string())?;
                if (bytes.len() - BIN_HEADER_LEN) as u64 > header.count.saturating_mul(4) {
                    return Err(header.trailing_bytes().to_string());
                }
            }
            return Ok(());
        }
        if !bytes.is_empty() && BIN_MAGIC.starts_with(bytes) {
            return Ok(()); // a truncated binary header: the parser says so
        }
        self.text.check(bytes, ended).map_err(|why| {
            let magic = String::from_utf8_lossy(BIN_MAGIC);
            TourFileError::Unrecognised(format!(
                "{why} (nor a binary tour, which starts {magic:?})"
            ))
            .to_string()
        })?;
        let text = without_bom(bytes);
        let first = text.trim_ascii_start().first();
        if !ended && (first.is_none() || b"\xEF\xBB\xBF".starts_with(bytes)) {
            return Ok(()); // nothing yet tells the format
        }
        if first == Some(&b'{') || first == Some(&b'[') {
            // JSON: its first block is checked, so that a stream of garbage after a brace ends
            // there; a document that stays well formed is bounded by the caller's limit (checking
            // every block would parse the stream again at each)
            if !std::mem::replace(&mut self.json_checked, true) {
                match serde_json::from_slice::<serde::de::IgnoredAny>(text) {
                    Err(e) if !e.is_eof() => return Err(TourFileError::Json(e).to_string()),
                    _ => {}
                }
            }
            return Ok(());
        }
        let board = self.board.ok_or(TourFileError::MissingBoard.to_string())?;
        let end = match text[self.parsed..].iter().rposition(|&b| b == b'\n') {
            _ if ended => text.len(),
            Some(i) => self.parsed + i + 1,
            None if text.len() - self.parsed > crate::input::START_BYTES => {
                let why = format!(
                    "line {} is longer than {} bytes",
                    self.lines + 1,
                    crate::input::START_BYTES
                );
                return Err(TourFileError::Unrecognised(why).to_string());
            }
            None => return Ok(()),
        };
        // whole lines of checked UTF-8 (the cut is after a newline, never inside a character)
        let lines = std::str::from_utf8(&text[self.parsed..end]).map_err(|e| e.to_string())?;
        for (i, raw) in lines.lines().enumerate() {
            let line = self.lines + i + 1;
            if parse_move_line(raw, line)
                .map_err(|e| e.to_string())?
                .is_some()
            {
                self.squares += 1;
                if self.squares > board.len() as u64 {
                    let why = format!(
                        "more squares than the {} of a {board} board (line {line})",
                        board.len()
                    );
                    return Err(TourFileError::Inconsistent(why).to_string());
                }
            }
        }
        self.lines += lines.lines().count();
        self.parsed = end;
        Ok(())
    }
}

/// Whether `bytes` hold a JSON tour record (text whose first non-blank character is `{`, after a
/// byte-order mark if any).
pub fn is_json(bytes: &[u8]) -> bool {
    without_bom(bytes).trim_ascii_start().starts_with(b"{")
}

/// `bytes` without a leading UTF-8 byte-order mark (some Windows editors write one).
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The JSON tour record in `bytes` (as `solve --format json` writes it), its `start` checked against
/// its first square.
pub fn parse_record(bytes: &[u8]) -> Result<TourRecord, TourFileError> {
    let rec: TourRecord = serde_json::from_str(utf8(without_bom(bytes))?)?;
    if let (Some(start), Some(&first)) = (rec.start, rec.squares.first()) {
        if start != first {
            return Err(TourFileError::Inconsistent(format!(
                "`start` is {start} but the first square is {first}"
            )));
        }
    }
    Ok(rec)
}

fn utf8(bytes: &[u8]) -> Result<&str, TourFileError> {
    std::str::from_utf8(bytes)
        .map_err(|e| TourFileError::Unrecognised(format!("not UTF-8 text ({e})")))
}

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
    fn trailing_bytes(&self) -> TourFileError {
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

/// Parse `r,c` lines; blank lines and `#` comments are skipped.
pub fn parse_moves(text: &str) -> Result<Vec<Square>, TourFileError> {
    let mut squares = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        squares.extend(parse_move_line(raw, i + 1)?);
    }
    Ok(squares)
}

/// The square of line number `line` of the `r,c` format, `raw`; `None` for a blank or comment line.
fn parse_move_line(raw: &str, line: usize) -> Result<Option<Square>, TourFileError> {
    let content = raw.split('#').next().unwrap_or("").trim();
    if content.is_empty() {
        return Ok(None);
    }
    let bad = || TourFileError::BadLine {
        line,
        text: raw.to_string(),
    };
    let (r, c) = content.split_once(',').ok_or_else(bad)?;
    let r: u16 = r.trim().parse().map_err(|_| bad())?;
    let c: u16 = c.trim().parse().map_err(|_| bad())?;
    Ok(Some(Square::new(r, c)))
}

/// One `r,c` line per square.
pub fn format_moves(squares: &[Square]) -> String {
    let mut s = String::with_capacity(squares.len() * 8);
    for sq in squares {
        let _ = writeln!(s, "{},{}", sq.row(), sq.col());
    }
    s
}

/// Widest board (in characters per line) that [`format_grid`] prints.
pub const MAX_GRID_WIDTH: usize = 400;

/// The grid of 1-based visit numbers, `.` for unvisited squares; `None` if a line would be wider than
/// [`MAX_GRID_WIDTH`] characters.
pub fn format_grid(board: Board, squares: &[Square]) -> Option<String> {
    format_grid_with_holes(board, squares, &[])
}

/// [`format_grid`] of a board with holes, each drawn `#`.
pub fn format_grid_with_holes(
    board: Board,
    squares: &[Square],
    holes: &[Square],
) -> Option<String> {
    let width = (board.len() as f64).log10().floor() as usize + 1;
    if (width + 1) * board.cols() as usize > MAX_GRID_WIDTH {
        return None;
    }
    const HOLE: u32 = u32::MAX;
    let mut number = vec![0u32; board.len() as usize];
    for &h in holes {
        number[board.index(h) as usize] = HOLE;
    }
    for (i, &sq) in squares.iter().enumerate() {
        number[board.index(sq) as usize] = i as u32 + 1;
    }
    let mut s = String::new();
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            let n = number[(r * board.cols() + c) as usize];
            if c > 0 {
                s.push(' ');
            }
            if n == 0 {
                let _ = write!(s, "{:>width$}", ".");
            } else if n == HOLE {
                let _ = write!(s, "{:>width$}", "#");
            } else {
                let _ = write!(s, "{n:>width$}");
            }
        }
        s.push('\n');
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_skipped_and_a_json_array_is_named() {
        let board = Board::new(5, 5).unwrap();
        let json = br#"{"rows":5,"cols":5,"squares":[[0,0],[1,2]]}"#;
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), json].concat();
        assert_eq!(
            parse_tour(&with_bom, None).unwrap(),
            parse_tour(json, None).unwrap()
        );
        let lines = parse_tour(b"\xEF\xBB\xBF0,0\n1,2\n", Some(board)).unwrap();
        assert_eq!(lines.squares, [Square::new(0, 0), Square::new(1, 2)]);
        let err = parse_tour(b" [1,2,3]", Some(board))
            .unwrap_err()
            .to_string();
        assert!(err.contains("a JSON array"), "{err}");
    }

    /// `check` fed the prefixes of `bytes` ending at `cuts` (in order), then all of it, ended.
    fn check_in_blocks(check: &mut TourStream, bytes: &[u8], cuts: &[usize]) -> Result<(), String> {
        use crate::input::StreamCheck;
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        for cut in cuts {
            check.check(&bytes[..cut], false)?;
        }
        check.check(bytes, true)
    }

    #[test]
    fn a_streamed_file_is_refused_where_it_stops_being_a_tour_file() {
        let eight = Board::new(8, 8).unwrap();
        let board = Some(eight);
        let mut lines = "0,0\n".repeat(100);
        lines.push_str("1;2\n");
        let large = Some(Board::new(12, 12).unwrap());
        let err = check_in_blocks(
            &mut TourStream::new(large),
            lines.as_bytes(),
            &[50, 203, 399],
        )
        .unwrap_err();
        assert_eq!(
            err,
            "line 101: expected `row,col` (two non-negative integers), got \"1;2\""
        );
        let err = check_in_blocks(
            &mut TourStream::new(board),
            &lines.as_bytes()[..400],
            &[130],
        )
        .unwrap_err();
        assert_eq!(
            err,
            "inconsistent tour file: more squares than the 64 of a 8x8 board (line 65)"
        );
        let err = check_in_blocks(&mut TourStream::new(None), b"0,0\n", &[]).unwrap_err();
        assert!(err.contains("needs the board size"), "{err}");
        // a line that does not end within the first block is no `r,c` line
        let long = vec![b'7'; crate::input::START_BYTES + 1];
        let err = check_in_blocks(&mut TourStream::new(board), &long, &[long.len()]).unwrap_err();
        assert!(err.contains("line 1 is longer than"), "{err}");
        // binary: the header's count bounds the stream
        let mut bin = Vec::new();
        write_bin(&mut bin, eight, &[Square::new(0, 0)], false).unwrap();
        assert!(check_in_blocks(&mut TourStream::new(None), &bin, &[3, 31, 33]).is_ok());
        bin.push(0);
        let err = check_in_blocks(&mut TourStream::new(None), &bin, &[]).unwrap_err();
        assert!(
            err.contains("announces 1 squares (4 bytes) but more bytes follow (trailing bytes?)"),
            "{err}"
        );
        // JSON: garbage after the brace ends the first block
        let err = check_in_blocks(&mut TourStream::new(None), b"{\n{\n{\n", &[]).unwrap_err();
        assert!(err.starts_with("malformed tour JSON"), "{err}");
        let err = check_in_blocks(&mut TourStream::new(None), b"\xEF\xBB\xBF\0", &[]).unwrap_err();
        assert!(err.contains("NUL byte at offset 3"), "{err}");
    }

    proptest::proptest! {
        /// No false refusal: a tour file that parses (in any format, with comments, blank lines,
        /// CRLF and a byte-order mark) passes the stream check at every block, wherever the blocks
        /// are cut.
        #[test]
        fn a_tour_file_that_parses_passes_the_stream_check_in_any_blocks(
            rows in 1u16..12,
            cols in 1u16..12,
            picks in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..150),
            noise in proptest::collection::vec(0u8..4, 150),
            format in 0u8..4,
            cuts in proptest::collection::vec(proptest::prelude::any::<usize>(), 0..6),
            bom: bool,
            give_board: bool,
        ) {
            let board = Board::new(rows.into(), cols.into()).unwrap();
            let n = board.len();
            let squares: Vec<Square> = picks
                .iter()
                .take(n as usize)
                .map(|&p| board.square_at(u32::from(p) % n).unwrap())
                .collect();
            let record = TourRecord {
                rows: rows.into(),
                cols: cols.into(),
                closed: false,
                start: squares.first().copied(),
                squares: squares.clone(),
                found: false,
                method: "warnsdorff".into(),
                rule: "first".into(),
                stats: StatsRecord::default(),
                leaper: None,
                holes: Vec::new(),
            };
            let mut bytes = if bom && format != 3 { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
            match format {
                0 => {
                    for (s, how) in squares.iter().zip(&noise) {
                        let (r, c) = (s.row(), s.col());
                        bytes.extend_from_slice(match how {
                            0 => format!("{r},{c}\n"),
                            1 => format!(" {r} , {c} \r\n"),
                            2 => format!("# a comment, with 1,2\n{r},{c}\n"),
                            _ => format!("\n{r},{c} # note\n"),
                        }.as_bytes());
                    }
                }
                1 => bytes.extend(serde_json::to_vec(&record).unwrap()),
                2 => bytes.extend(serde_json::to_vec_pretty(&record).unwrap()),
                _ => write_bin(&mut bytes, board, &squares, false).unwrap(),
            }
            let given = (format == 0 || give_board).then_some(board);
            proptest::prop_assert!(parse_tour(&bytes, given).is_ok());
            let checked = check_in_blocks(&mut TourStream::new(given), &bytes, &cuts);
            proptest::prop_assert!(checked.is_ok(), "{:?}", checked);
        }
    }

    #[test]
    fn moves_round_trip_and_errors_name_the_line() {
        let sq = vec![Square::new(0, 0), Square::new(2, 1), Square::new(4, 2)];
        assert_eq!(parse_moves(&format_moves(&sq)).unwrap(), sq);
        let err = parse_moves("0,0\n1,x\n").unwrap_err().to_string();
        assert!(err.starts_with("line 2:"), "{err}");
        assert!(parse_moves("0,0\n-1,2\n").is_err());
        assert!(parse_moves("0 0\n").is_err());
    }

    #[test]
    fn json_requires_the_contract_fields() {
        assert!(parse_tour(br#"{"rows":5,"cols":5}"#, None).is_err());
        assert!(parse_tour(br#"{"rows":5,"cols":5,"squares":[[0,0],[1,2]"#, None).is_err());
        assert!(parse_tour(br#"{"rows":0,"cols":5,"squares":[]}"#, None).is_err());
        let t = parse_tour(
            br#"{"rows":5,"cols":5,"squares":[[0,0],[1,2]],"start":[0,0]}"#,
            None,
        )
        .unwrap();
        assert_eq!(t.squares.len(), 2);
        assert!(matches!(
            parse_tour(
                br#"{"rows":5,"cols":5,"squares":[[0,0]],"start":[1,1]}"#,
                None
            ),
            Err(TourFileError::Inconsistent(_))
        ));
    }

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

    #[test]
    fn grid_numbers_squares() {
        let b = Board::new(1, 3).unwrap();
        let g = format_grid(b, &[Square::new(0, 2)]).unwrap();
        assert_eq!(g, ". . 1\n");
        assert!(format_grid(Board::new(2, 1000).unwrap(), &[]).is_none());
    }
}
