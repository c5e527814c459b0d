//! Closed tours counted from both ends of the board at once (meet in the middle; rows counted
//! from 0, the board turned as the frontier turns it): the frontier runs over the top `r` rows and, the board being the same read upside down, its states after
//! `rows - r` rows are those of the bottom rows seen from below. A closed tour is one partial tour
//! of the top rows, one of the bottom rows and the set `X` of its edges between the two (a knight
//! edge spans two rows, so `X` joins rows `r - 2, r - 1` to rows `r, r + 1`). The top states are
//! carried across `X` by the frontier's own steps over a *band* (rows `r` and `r + 1` taking only
//! their edges upwards: [`Plan::band`]), and each state at the band's end is joined with every
//! bottom state whose degrees on the band's squares complete its degrees to 2 and whose pieces
//! close its pieces into one cycle. The states of a whole count peak two rows below the middle;
//! this one stops at the middle's band.
//!
//! Source: the splitting of a transfer-matrix count at a cut with the two sides' boundary states
//! matched (meet in the middle), a general device of transfer-matrix enumeration; the band, its
//! dropping of states by degree prefixes and the matching of knight frontiers are ktour's own.
//! Its slow twin is the whole count ([`super::count_frontier`]), compared on every board the
//! tests reach.

use super::cells::{Key, DONE, EMPTY, TAIL};
use super::gather::{Entry, Packed68, Pair, Ways};
use super::modular::Modulus;
use super::plan::Plan;
use super::step::Stepping;
use super::{Tally, MAX_WIDTH};
use crate::board::{Board, Closure};
use crate::count::{CountError, Counted, Orientation};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// A count of closed tours from both ends, with the sizes of its lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HalvesCount {
    /// The board, as given.
    pub board: Board,
    /// Closed tours (undirected cycles).
    pub cycles: u128,
    /// The rows of the top part (`r`); the bottom part has the rest.
    pub top_rows: u32,
    /// States after the band, joined one by one.
    pub band_states: usize,
    /// Bottom states they are joined with.
    pub bottom_states: usize,
    /// Pairs of states that were compatible in degrees (each checked for one cycle).
    pub pairs: u64,
    /// State transitions of the steps (the top, the bottom's last rows and the band).
    pub transitions: u64,
    /// The most states any step held.
    pub peak_states: usize,
    /// Time the count took.
    pub elapsed: Duration,
}

impl HalvesCount {
    /// Directed closed tours over all starts: `2 x squares` per cycle, as
    /// [`super::FrontierCount::directed`] counts them.
    pub fn directed(&self) -> num_bigint::BigUint {
        num_bigint::BigUint::from(self.cycles)
            * super::per_tour(Closure::Closed, u64::from(self.board.len()))
    }
}

/// Count the closed tours of `board` from both ends. Its sides are turned so that the shorter is
/// across, at most [`MAX_WIDTH`]; the longer must be at least 4 (two rows a half, the band in
/// the bottom half). Refused with [`CountError::Overflow`] when the count passes `u128`.
pub fn count_closed_halves(
    board: Board,
    progress: &mut dyn FnMut(&HalvesProgress),
) -> Result<HalvesCount, CountError> {
    count_halves(board, true, progress)
}

/// [`count_closed_halves`], dropping the band's states that join nothing if `prune`.
fn count_halves(
    board: Board,
    prune: bool,
    progress: &mut dyn FnMut(&HalvesProgress),
) -> Result<HalvesCount, CountError> {
    let (rows, cols) = super::turned(board);
    if cols > MAX_WIDTH {
        return Err(CountError::TooWide {
            board,
            width: cols,
            max: MAX_WIDTH,
        });
    }
    if cols == 8 {
        halves::<Packed68>(board, rows, cols, prune, progress)
    } else {
        halves::<Pair<u64, u64>>(board, rows, cols, prune, progress)
    }
}

fn halves<E: Entry>(
    board: Board,
    rows: u32,
    cols: u32,
    prune: bool,
    progress: &mut dyn FnMut(&HalvesProgress),
) -> Result<HalvesCount, CountError> {
    let began = Instant::now();
    let top = rows / 2;
    let bottom = rows - top;
    let mut count = Tally::default();
    let overflow = |square: usize| CountError::Overflow {
        board,
        what: Counted::Partial {
            square: square as u32,
        },
        bits: E::WAYS_BITS,
    };
    if rows < 4 || rows * cols % 2 == 1 {
        // a board whose longer side is under 4 (at most 3x3) has no closed tour, nor one of odd area
        return Ok(HalvesCount {
            board,
            cycles: 0,
            top_rows: top,
            band_states: 0,
            bottom_states: 0,
            pairs: 0,
            transitions: 0,
            peak_states: 0,
            elapsed: began.elapsed(),
        });
    }
    // a step sorts its successors in batches of this much at least, whatever its states
    let least = (2 * super::BATCH * std::mem::size_of::<E>()) as u64;
    let available = crate::memory::available_bytes();
    if !crate::memory::fits_in(least, available) {
        return Err(CountError::HalvesMemory {
            board,
            square: 0,
            available_mib: available >> 20,
        });
    }
    let whole = Plan::new(rows, cols);
    let mut peak = 1;
    let mut rows_to = |states: Vec<Vec<E>>,
                       plan: &Plan,
                       squares: std::ops::Range<u32>,
                       keep: Option<&Prefixes>| {
        let steps = Stepping {
            plan,
            board,
            closure: Closure::Closed,
            max_states: usize::MAX,
            fold: false,
            threads: rayon::current_num_threads().max(1),
            modulus: Modulus::EXACT,
            every_length: false,
        };
        let mut states = states;
        for i in squares.start as usize..squares.end as usize {
            let (next, held) = steps
                .add_square(i, states, &mut count)
                .map_err(|e| match e {
                    CountError::FrontierMemory {
                        board,
                        square,
                        available_mib,
                        ..
                    } => CountError::HalvesMemory {
                        board,
                        square,
                        available_mib,
                    },
                    e => e,
                })?;
            peak = peak.max(held);
            progress(&HalvesProgress {
                square: i + 1,
                band: keep.is_some(),
                states: held,
                elapsed: began.elapsed(),
            });
            if count.wrapped {
                return Err(overflow(i));
            }
            states = next;
            if let Some(prefixes) = keep.filter(|_| prune) {
                let at = i - (top * cols) as usize;
                states.par_iter_mut().for_each(|list| {
                    list.retain(|e| prefixes.admits(e.state(), at, plan.w));
                    list.shrink_to_fit();
                });
            }
        }
        Ok(states)
    };
    let first = vec![vec![E::new(
        E::Key::pack(&[DONE; super::CELLS], 0, whole.w),
        E::Ways::ONE,
    )]];
    let top_states = rows_to(first, &whole, 0..top * cols, None)?;
    // the bottom part read from below is the board's own top `bottom` rows
    let faces = if bottom == top {
        Faces::of(&top_states, cols as usize, board, top * cols)?
    } else {
        let more = rows_to(top_states.clone(), &whole, top * cols..bottom * cols, None)?;
        Faces::of(&more, cols as usize, board, bottom * cols)?
    };
    let band = Plan::band(cols, top);
    let prefixes = Prefixes::of(&faces);
    let states = rows_to(
        top_states,
        &band,
        top * cols..(top + 2) * cols,
        Some(&prefixes),
    )?;
    let band_states: usize = states.iter().map(Vec::len).sum();
    let joined = states
        .par_iter()
        .flat_map_iter(|list| list.iter())
        .map(|e| faces.join(e))
        .try_reduce(Joined::default, |a, b| a.add(b));
    let joined = joined.ok_or(CountError::Overflow {
        board,
        what: Counted::Tours {
            closure: Closure::Closed,
            orientation: Orientation::Undirected,
        },
        bits: 128,
    })?;
    Ok(HalvesCount {
        board,
        cycles: joined.cycles,
        top_rows: top,
        band_states,
        bottom_states: faces.faces.len(),
        pairs: joined.pairs,
        transitions: count.transitions,
        peak_states: peak,
        elapsed: began.elapsed(),
    })
}

/// Where a count from both ends stands, after each square.
#[derive(Clone, Copy, Debug)]
pub struct HalvesProgress {
    /// Squares added (row-major, shorter side across), counted from 1.
    pub square: usize,
    /// Whether the square is one of the band's (its edges upwards only).
    pub band: bool,
    /// States after it.
    pub states: usize,
    /// Time since the count began.
    pub elapsed: Duration,
}

/// What joining gave: cycles (a sum of products of ways) and the pairs checked.
#[derive(Clone, Copy, Default)]
struct Joined {
    cycles: u128,
    pairs: u64,
}

impl Joined {
    fn add(self, other: Joined) -> Option<Joined> {
        Some(Joined {
            cycles: self.cycles.checked_add(other.cycles)?,
            pairs: self.pairs + other.pairs,
        })
    }
}

/// A state's two rows as the join reads them: the degree of each of its `2 * cols` squares (2 bits
/// each; `EMPTY` 0, a piece's end 1, `DONE` 2) and the partner of each end (the other end of its
/// piece), squares numbered row `r` first, then row `r + 1`, column by column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Face {
    degrees: u32,
    partner: [u8; 2 * MAX_WIDTH as usize],
}

impl Face {
    /// The face of `key` at a row's end (packed cell 0 the finalized square, cells `1..=cols` the
    /// row before, `cols + 1..=2 cols` the row), with its two rows swapped if `upside_down` (a
    /// bottom state, whose rows are the band's in the other order).
    fn of<K: Key>(key: K, cols: usize, upside_down: bool) -> Face {
        let mut face = Face {
            degrees: 0,
            partner: [u8::MAX; 2 * MAX_WIDTH as usize],
        };
        let mut seen = [u8::MAX; 16];
        for k in 0..2 * cols {
            let cell = if upside_down {
                (k + cols) % (2 * cols)
            } else {
                k
            };
            let degree = match key.cell(1 + cell) {
                EMPTY => 0,
                DONE => 2,
                TAIL => unreachable!("a closed count has no tails"),
                label => {
                    let first = &mut seen[label as usize];
                    if *first == u8::MAX {
                        *first = k as u8;
                    } else {
                        face.partner[k] = *first;
                        face.partner[*first as usize] = k as u8;
                    }
                    1
                }
            };
            face.degrees |= degree << (2 * k);
        }
        face
    }

    /// The degrees another face needs to make every square's 2.
    fn complement(&self, cols: usize) -> u32 {
        Self::complement_of(self.degrees, cols)
    }

    fn complement_of(degrees: u32, cols: usize) -> u32 {
        let twos = (0..2 * cols).fold(0u32, |t, k| t | 2 << (2 * k));
        // no degree passes 2, so no borrow crosses a square's two bits
        twos - degrees
    }

    /// Whether this face's pieces and `other`'s (whose degrees complement these) close into one
    /// cycle through every end: followed alternately from the first end, they come back to it
    /// only after the last.
    fn closes_one_cycle(&self, other: &Face, ends: u32) -> bool {
        let Some(start) = self.partner.iter().position(|&p| p != u8::MAX) else {
            return false;
        };
        let (mut at, mut seen) = (start, 0);
        loop {
            at = other.partner[self.partner[at] as usize] as usize;
            seen += 2;
            if at == start {
                return seen == ends;
            }
        }
    }
}

/// The degrees the bottom states leave to the band's squares, as prefixes: a band square's
/// degree is final once it is added (its edges to the rows above are decided then, its others are
/// the bottom's), so a state whose band squares so far need degrees that no bottom state leaves
/// them joins nothing and is dropped at once.
struct Prefixes {
    /// For `m + 1` band squares added, the needed degrees of the first `m + 1`, sorted.
    sets: Vec<Vec<u32>>,
}

impl Prefixes {
    fn of(faces: &Faces) -> Prefixes {
        let squares = 2 * faces.cols;
        let sets = (0..squares)
            .map(|m| {
                let mask = if m + 1 == 16 {
                    u32::MAX
                } else {
                    (1 << (2 * (m + 1))) - 1
                };
                let mut set: Vec<u32> = faces
                    .degrees
                    .iter()
                    .map(|&d| Face::complement_of(d, faces.cols) & mask)
                    .collect();
                set.sort_unstable();
                set.dedup();
                set
            })
            .collect();
        Prefixes { sets }
    }

    /// Whether `key`, a state after the step that added band square `m` (counted from 0), can
    /// still be joined: the degrees of band squares `0..=m` are a prefix some bottom state needs.
    fn admits<K: Key>(&self, key: K, m: usize, w: usize) -> bool {
        // after the step, band square j (j <= m) sits at cell w - 1 - (m - j)
        let degrees = (0..=m).fold(0u32, |d, j| {
            let degree = match key.cell(w - 1 - (m - j)) {
                EMPTY => 0,
                DONE => 2,
                _ => 1,
            };
            d | degree << (2 * j)
        });
        self.sets[m].binary_search(&degrees).is_ok()
    }
}

/// The bottom states' faces, sorted by their degrees, with their ways.
struct Faces {
    cols: usize,
    /// Each distinct degrees, and where its faces begin in `faces` (one more: the end).
    degrees: Vec<u32>,
    starts: Vec<usize>,
    /// 32 bytes a face with its ways (a `u128` of ways made it 48).
    faces: Vec<(Face, u64)>,
}

impl Faces {
    /// The faces of `states`, refused with [`CountError::HalvesMemory`] (at `square`) where
    /// memory cannot hold them beside the states.
    fn of<E: Entry>(
        states: &[Vec<E>],
        cols: usize,
        board: Board,
        square: u32,
    ) -> Result<Faces, CountError> {
        let held: usize = states.iter().map(Vec::len).sum();
        let needed = (held * std::mem::size_of::<(Face, u64)>()) as u64;
        let available = crate::memory::available_bytes();
        if !crate::memory::fits_in(needed, available) {
            return Err(CountError::HalvesMemory {
                board,
                square,
                available_mib: available >> 20,
            });
        }
        let mut faces: Vec<(Face, u64)> = states
            .par_iter()
            .flatten()
            .map(|e| {
                let ways =
                    u64::try_from(e.ways().wide()).expect("the halves' entries hold u64 ways");
                (Face::of(e.state(), cols, true), ways)
            })
            .collect();
        faces.par_sort_unstable_by_key(|(f, _)| f.degrees);
        let (mut degrees, mut starts) = (Vec::new(), Vec::new());
        for (i, (f, _)) in faces.iter().enumerate() {
            if degrees.last() != Some(&f.degrees) {
                degrees.push(f.degrees);
                starts.push(i);
            }
        }
        starts.push(faces.len());
        Ok(Faces {
            cols,
            degrees,
            starts,
            faces,
        })
    }

    /// The cycles a band state `e` closes with the bottom states (None past `u128`).
    fn join<E: Entry>(&self, e: &E) -> Option<Joined> {
        let face = Face::of(e.state(), self.cols, false);
        let ends = (0..2 * self.cols)
            .filter(|&k| face.degrees >> (2 * k) & 3 == 1)
            .count() as u32;
        let mut joined = Joined::default();
        if ends == 0 {
            // the top's pieces closed within it and the band: no single cycle of the board
            return Some(joined);
        }
        let Ok(at) = self.degrees.binary_search(&face.complement(self.cols)) else {
            return Some(joined);
        };
        let ways = e.ways().wide();
        let mut sum = 0u128;
        for (other, other_ways) in &self.faces[self.starts[at]..self.starts[at + 1]] {
            joined.pairs += 1;
            if face.closes_one_cycle(other, ends) {
                sum = sum.checked_add(ways.checked_mul(u128::from(*other_ways))?)?;
            }
        }
        joined.cycles = sum;
        Some(joined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::frontier::count_frontier;

    #[test]
    fn halves_count_what_the_whole_count_counts() {
        // even and odd lengths, 3 to 8 wide, both turns; the 8-wide entry on 8 x 4 (no tours)
        let boards = [
            (4, 5),
            (6, 5),
            (5, 6),
            (6, 6),
            (8, 5),
            (7, 6),
            (6, 7),
            (10, 3),
            (12, 3),
            (9, 4),
            (8, 4),
            (5, 5),
        ];
        let mut some = 0;
        for (rows, cols) in boards {
            let board = Board::new(rows, cols).unwrap();
            let whole = count_frontier(board, Closure::Closed).unwrap().undirected;
            let halves = count_closed_halves(board, &mut |_| {}).unwrap();
            assert_eq!(
                num_bigint::BigUint::from(halves.cycles),
                whole,
                "{rows}x{cols}"
            );
            some += usize::from(halves.cycles > 0);
        }
        assert_eq!(some, 8, "the boards with closed tours");
    }

    #[test]
    fn the_wide_entries_join_as_the_narrow_ones() {
        // the 8-wide boards' u128 keys on boards with tours that a test can count
        for (rows, cols) in [(6u32, 6u32), (8, 5), (7, 6)] {
            let board = Board::new(rows.into(), cols.into()).unwrap();
            let narrow = halves::<Pair<u64, u64>>(board, rows, cols, true, &mut |_| {}).unwrap();
            let wide = halves::<Packed68>(board, rows, cols, true, &mut |_| {}).unwrap();
            assert!(narrow.cycles > 0);
            assert_eq!(
                (wide.cycles, wide.band_states, wide.pairs),
                (narrow.cycles, narrow.band_states, narrow.pairs),
                "{rows}x{cols}"
            );
        }
    }

    #[test]
    fn the_band_drops_only_states_that_join_nothing() {
        // the same count with the band's prefixes admitting every state
        let board = Board::new(6, 6).unwrap();
        let pruned = count_closed_halves(board, &mut |_| {}).unwrap();
        let all = halves_unpruned(board);
        assert_eq!(pruned.cycles, all.cycles);
        assert!(pruned.band_states < all.band_states, "{pruned:?} {all:?}");
        assert_eq!(
            pruned.pairs, all.pairs,
            "a dropped state joined some bottom state"
        );
    }

    fn halves_unpruned(board: Board) -> HalvesCount {
        count_halves(board, false, &mut |_| {}).unwrap()
    }
}
