//! Arguments shared by several subcommands, and the exit-status contract.

use crate::board::{Board, Leaper, Shape, Square};
use anyhow::{bail, Context};
use clap::Args;

/// Exit codes: 0 found / valid, 1 not found (dead end, budget) or invalid tour, 2 invalid input,
/// 3 no tour exists, 4 unknown (`exists` on a board with holes or another leaper that passes every
/// necessary condition), 130 interrupted (sweeps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// A tour was found, or the answer is yes / valid.
    Success = 0,
    /// The search ended without a tour (dead end or budget), or a tour file is not a valid tour.
    NotFound = 1,
    /// Bad input (also what an `Err` from a command maps to).
    InvalidInput = 2,
    /// No tour exists, by theorem or by exhausted search.
    NoTour = 3,
    /// No theorem decides (`exists` on any board): only a search can tell.
    Unknown = 4,
    /// Stopped by Ctrl-C after saving what was done (128 + SIGINT, the shell convention).
    Interrupted = 130,
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(s: ExitStatus) -> Self {
        std::process::ExitCode::from(s as u8)
    }
}

/// `--size N` or `--rows R --cols C`.
#[derive(Debug, Clone, Args)]
pub struct BoardArgs {
    /// Square board side (same as --rows N --cols N).
    #[arg(long, short = 'n', conflicts_with_all = ["rows", "cols"])]
    pub size: Option<u64>,
    /// Board rows.
    #[arg(long, requires = "cols")]
    pub rows: Option<u64>,
    /// Board columns; `A..=B` (with `count --method frontier`) for every board from A to B
    /// columns long.
    #[arg(long, requires = "rows", value_parser = parse_cols, value_name = "C")]
    pub cols: Option<Cols>,
}

/// `--cols`: one length, or a range of lengths `A..=B` (`first < last`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cols {
    /// The first length.
    pub first: u64,
    /// The last length.
    pub last: u64,
}

/// `--cols`: `C` or `A..=B` with `A <= B`.
fn parse_cols(text: &str) -> Result<Cols, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("`{text}` is not a number of columns or a range A..=B"))
    };
    let (first, last) = match text.split_once("..=") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if first > last {
        return Err(format!("the range `{text}` is empty"));
    }
    if first == 0 && first < last {
        return Err(format!(
            "the range `{text}` starts at 0: a board has 1 column or more"
        ));
    }
    Ok(Cols { first, last })
}

impl BoardArgs {
    /// The validated board; `None` when no size was given.
    pub fn board_opt(&self) -> anyhow::Result<Option<Board>> {
        let (r, c) = match (self.size, self.rows, self.cols) {
            (Some(n), _, _) => (n, n),
            (None, Some(r), Some(c)) if c.first == c.last => (r, c.first),
            (None, Some(_), Some(_)) => {
                bail!("--cols takes a range (A..=B) only in `ktour count --method frontier`")
            }
            _ => return Ok(None),
        };
        Ok(Some(Board::new(r, c).context("invalid board size")?))
    }

    /// `--rows R --cols A..=B`: the rows and the range of lengths, when a range was given.
    pub fn lengths(&self) -> Option<(u64, Cols)> {
        match (self.size, self.rows, self.cols) {
            (None, Some(r), Some(c)) if c.first < c.last => Some((r, c)),
            _ => None,
        }
    }

    /// The validated board; an error naming the flags when none was given.
    pub fn board(&self) -> anyhow::Result<Board> {
        match self.board_opt()? {
            Some(b) => Ok(b),
            None => bail!("give the board size: --size N, or --rows R --cols C"),
        }
    }
}

/// `--leaper A,B` and `--mask FILE`: any board (`docs/REFERENCE.md`, section 9).
#[derive(Debug, Clone, Default, Args)]
pub struct ShapeArgs {
    /// Walk with the (A,B) leaper instead of the knight: A,B with 0 < A < B, or knight, camel
    /// (1,3), zebra (2,3), giraffe (1,4).
    #[arg(long, value_name = "A,B")]
    pub leaper: Option<String>,
    /// Holes: a text file, one line a row, `.` a square and `#` a hole; it gives the board size.
    #[arg(long, value_name = "FILE")]
    pub mask: Option<std::path::PathBuf>,
}

impl ShapeArgs {
    /// Whether either flag was given.
    pub fn given(&self) -> bool {
        self.leaper.is_some() || self.mask.is_some()
    }

    /// The leaper (the knight when none was given).
    pub fn leaper(&self) -> anyhow::Result<Leaper> {
        match &self.leaper {
            Some(l) => Ok(l.parse().context("--leaper")?),
            None => Ok(Leaper::KNIGHT),
        }
    }

    /// The shape: the mask's board and holes, or `board`'s whole board, walked by the leaper. A
    /// board size given beside a mask must be the mask's.
    pub fn shape(&self, board: Option<Board>) -> anyhow::Result<Shape> {
        let leaper = self.leaper()?;
        let Some(path) = &self.mask else {
            let board = board.ok_or_else(|| {
                anyhow::anyhow!(
                    "give the board size: --size N, or --rows R --cols C, or --mask FILE"
                )
            })?;
            let max = crate::solve::shaped::MAX_SQUARES;
            if leaper != Leaper::KNIGHT && board.len() as u64 > max {
                bail!("the {board} board has {} squares; another leaper is walked by the search on any board, which takes at most {max} (10^8)", board.len());
            }
            return Ok(Shape::full(board).with_leaper(leaper));
        };
        let text = crate::input::read_mask(path)
            .with_context(|| format!("reading the mask {}", path.display()))?;
        let shape = Shape::from_mask(&text, leaper)
            .with_context(|| format!("--mask {}", path.display()))?;
        if let Some(b) = board.filter(|&b| b != shape.board()) {
            bail!(
                "--mask {} draws a {} board, but the size given is {b}",
                path.display(),
                shape.board()
            );
        }
        Ok(shape)
    }
}

/// Parse `R,C` (0-based, row 0 on top) and check it lies on `board`.
pub fn parse_start(text: &str, board: Board) -> anyhow::Result<Square> {
    let bad = || anyhow::anyhow!("--start expects ROW,COL (0-based integers), got {text:?}");
    let (r, c) = text.split_once(',').ok_or_else(bad)?;
    let r: i64 = r.trim().parse().map_err(|_| bad())?;
    let c: i64 = c.trim().parse().map_err(|_| bad())?;
    board.try_square(r, c).ok_or_else(|| {
        anyhow::anyhow!(
            "--start {r},{c} is off the {board} board (rows 0..{}, cols 0..{})",
            board.rows() - 1,
            board.cols() - 1
        )
    })
}

/// A tour file as opened: its bytes, or a binary tour to read as it streams.
pub enum TourInput {
    /// The whole file (JSON, `r,c` lines, or a binary tour when not streamed).
    Bytes(Vec<u8>),
    /// A binary tour ([`crate::tour::BinStream`]), its magic not yet consumed.
    Binary {
        /// The file from its first byte.
        source: Box<dyn std::io::Read>,
        /// Its size when it is a regular file.
        file_len: Option<u64>,
    },
}

/// The tour file `path`, or standard input when `path` is `-`. A binary tour is left to stream when
/// `stream_binary` (it can be far larger than memory as bytes); anything else is read whole, at most
/// what memory allows, and from a source that may never end (a pipe, a device) only while it reads
/// as a tour file for `board` (given by `--rows`/`--cols`, or not).
pub fn open_tour_input(
    path: &std::path::Path,
    board: Option<crate::board::Board>,
    stream_binary: bool,
) -> anyhow::Result<TourInput> {
    use crate::input::{memory_limit, read_opened, MEMORY};
    use std::io::Read;
    let (name, mut source, file_len): (String, Box<dyn Read>, Option<u64>) =
        if path.as_os_str() == "-" {
            (
                "standard input".into(),
                Box::new(std::io::stdin().lock()),
                None,
            )
        } else {
            let name = path.display().to_string();
            let file = std::fs::File::open(path).with_context(|| format!("reading {name}"))?;
            let meta = file.metadata().with_context(|| format!("reading {name}"))?;
            (name, Box::new(file), meta.is_file().then_some(meta.len()))
        };
    // the first bytes tell a binary tour; they are read again, from memory
    let mut magic = Vec::with_capacity(crate::tour::BIN_MAGIC.len());
    (&mut source)
        .take(crate::tour::BIN_MAGIC.len() as u64)
        .read_to_end(&mut magic)
        .with_context(|| format!("reading {name}"))?;
    let is_binary = magic == crate::tour::BIN_MAGIC;
    let source = Box::new(std::io::Cursor::new(magic).chain(source));
    if stream_binary && is_binary {
        return Ok(TourInput::Binary { source, file_len });
    }
    let check = &mut crate::tour::TourStream::new(board);
    read_opened(source, file_len, memory_limit(), MEMORY, check)
        .map(TourInput::Bytes)
        .with_context(|| format!("reading {name}"))
}

/// The bytes of the tour file `path`, or of standard input when `path` is `-` (as
/// [`open_tour_input`] reads them, a binary tour included).
pub fn read_tour_input(
    path: &std::path::Path,
    board: Option<crate::board::Board>,
) -> anyhow::Result<Vec<u8>> {
    match open_tour_input(path, board, false)? {
        TourInput::Bytes(bytes) => Ok(bytes),
        TourInput::Binary { .. } => unreachable!("binary tours are streamed only when asked"),
    }
}

/// Most `--threads`: far past any machine's cores (workers are CPU-bound, more only share them), and
/// fixed, so that a command line that runs on one machine runs on another; 100,000 threads made
/// a sweep look hung.
pub const MAX_THREADS: usize = 1024;

/// A `--threads` value: 1 to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        _ => Err(format!(
            "expected a number of threads from 1 to {MAX_THREADS}, got {s:?}"
        )),
    }
}
