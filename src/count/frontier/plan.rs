//! The geometry of the frontier count, computed once per board: for every step (square added in
//! row-major order) the window positions of its earlier knight neighbours, of the squares it
//! finalizes, of the edges still undecided, and of the squares that may end an open tour.
//!
//! Source: the row-major transfer-matrix method of the module documentation of `frontier`; the
//! colour rule for the ends of open tours on odd boards is in `docs/REFERENCE.md`, section 6.

/// Cells of the window and the new square on the widest board counted: `2 * 8 + 2`.
pub(crate) const CELLS: usize = 18;

/// The precomputed geometry of every step.
pub(crate) struct Plan {
    /// Rows and columns of the board turned so that its shorter side is across.
    pub(crate) rows: u32,
    pub(crate) cols: u32,
    pub(crate) n: usize,
    pub(crate) w: usize,
    pub(crate) steps: Vec<Step>,
    /// The left-right mirror of a state at the end of a row, cell by cell: the window then holds the
    /// last square of the row before last (finalized, so `DONE`) and the last two rows whole, and
    /// packed cell `k` mirrors onto packed cell `mirror[k]`.
    pub(super) mirror: [usize; CELLS],
}

/// Positions (in the window of the step, new square at `w`) of one step's earlier neighbours and of
/// the squares finalized after it, and for every position the number of its square's edges still
/// undecided after the step.
pub(crate) struct Step {
    pub(crate) back: Vec<usize>,
    pub(super) finalize: Vec<usize>,
    pub(super) undecided: [u8; CELLS],
    /// Whether the square at each position may be an end of an open tour: on a board with an odd
    /// number of squares both ends are on the corners' colour (every move changes colour).
    pub(super) terminal_ok: [bool; CELLS],
    /// The square ends a row before the last: its states may be folded onto their mirror images.
    pub(super) row_end: bool,
}

impl Plan {
    pub(crate) fn new(rows: u32, cols: u32) -> Self {
        Self::build(rows, cols, true)
    }

    /// The plan of a count of every length at once (the boards cut after each row): without the
    /// colour rule on the ends of open tours, which holds on the odd boards only, and which the
    /// counts do not need (it only prunes states that no tour completes).
    pub(super) fn every_length(rows: u32, cols: u32) -> Self {
        Self::build(rows, cols, false)
    }

    /// The plan of the *band* of a count from both ends (`halves.rs`): the squares of rows `top`
    /// and `top + 1` added to the states of the rows above them, each taking only its edges to
    /// those rows. The band's own edges (row `top` to row `top + 1`) are the other half's, so
    /// they are left out; a band square is never finalized nor pruned (its other edges come from
    /// below), and the board is planned two rows longer than the band so that no band square is
    /// a last square. The rows above are planned as on the whole board (their edges are the same).
    pub(super) fn band(cols: u32, top: u32) -> Self {
        let mut plan = Self::build(top + 4, cols, false);
        let (w, cols) = (plan.w, cols as usize);
        let first = top as usize * cols;
        for (i, step) in plan.steps.iter_mut().enumerate().skip(first).take(2 * cols) {
            // position p holds square i + p - w during step i
            let in_band = |p: usize| i + p >= w + first;
            step.back.retain(|&p| !in_band(p));
            step.finalize.retain(|&p| !in_band(p));
            for (p, left) in step.undecided.iter_mut().enumerate().take(w + 1) {
                if in_band(p) {
                    *left = 2;
                }
            }
            step.row_end = false;
        }
        plan
    }

    fn build(rows: u32, cols: u32, colour_rule: bool) -> Self {
        let turned = (rows, cols);
        let (rows, cols) = (rows as i64, cols as i64);
        let n = (rows * cols) as usize;
        let w = (2 * cols + 1) as usize;
        let on_board = |r: i64, c: i64| (0..rows).contains(&r) && (0..cols).contains(&c);
        // last[j]: the index after whose step square j has all its edges decided.
        let mut last: Vec<usize> = (0..n).collect();
        let mut steps: Vec<Step> = (0..n)
            .map(|_| Step {
                back: Vec::new(),
                finalize: Vec::new(),
                undecided: [0; CELLS],
                terminal_ok: [true; CELLS],
                row_end: false,
            })
            .collect();
        for (i, step) in steps.iter_mut().enumerate() {
            let (r, c) = (i as i64 / cols, i as i64 % cols);
            step.row_end = c == cols - 1 && i + 1 < n;
            for (dr, dc) in [(-1, -2), (-1, 2), (-2, -1), (-2, 1)] {
                let (jr, jc) = (r + dr, c + dc);
                if on_board(jr, jc) {
                    let j = (jr * cols + jc) as usize;
                    step.back.push(w - (i - j));
                    last[j] = last[j].max(i);
                }
            }
        }
        for (j, &l) in last.iter().enumerate() {
            // Square j sits at position w - (l - j) during step l (l - j <= w by the geometry).
            steps[l].finalize.push(w - (l - j));
        }
        if colour_rule && n % 2 == 1 {
            for (i, step) in steps.iter_mut().enumerate() {
                for (p, ok) in step.terminal_ok.iter_mut().enumerate().take(w + 1) {
                    // Position p holds square i + p - w during step i.
                    if let Some(j) = (i + p).checked_sub(w) {
                        let (r, c) = (j as i64 / cols, j as i64 % cols);
                        *ok = (r + c) % 2 == 0;
                    }
                }
            }
        }
        // Edge j-i (j < i) is undecided for square j after steps j..i-1, during which square j sits
        // at position w - (s - j).
        let backs: Vec<Vec<usize>> = steps.iter().map(|s| s.back.clone()).collect();
        for (i, back) in backs.iter().enumerate() {
            for &p in back {
                let j = i - (w - p);
                for (s, step) in steps.iter_mut().enumerate().take(i).skip(j) {
                    step.undecided[w - (s - j)] += 1;
                }
            }
        }
        // packed cell 1 + j holds column j of the row before, 1 + cols + j column j of the row
        let mut mirror = [0; CELLS];
        let cols = cols as usize;
        for j in 0..cols {
            mirror[1 + j] = 1 + (cols - 1 - j);
            mirror[1 + cols + j] = 1 + cols + (cols - 1 - j);
        }
        Plan {
            rows: turned.0,
            cols: turned.1,
            n,
            w,
            steps,
            mirror,
        }
    }
}
