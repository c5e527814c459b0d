//! The divide-and-conquer builder: a board cut into bands of blocks, one base tour per block, joined
//! along a spanning tree (each band left to right, bands top to bottom through their first blocks) by
//! the two-edge swaps of Parberry (1997) and Lin & Wei (2005), and written out in tour order.
//!
//! Nothing but the output is proportional to the board: the tour is produced by walking the tree of
//! joined blocks with an explicit stack (its depth is at most bands + blocks per band), writing each
//! square once, so peak memory is the output `Vec<Square>` (4 bytes per square) plus a few kilobytes.
//!
//! ADVICE FOR HACKERS: the walk relies on each join edge being an edge of its block's base tour that no
//! other join uses; `bases::role_edge` and [`BlockTiling::active`] must agree on which roles a block plays.

use super::bases::{self, role_index, Base, Family, Role, Roles, Shape, ALL_ROLES, ROLE_LIST};
use crate::board::Square;

/// One band of blocks: rows `r0..r0 + height`, its column partition `part`.
#[derive(Clone, Copy, Debug)]
pub struct Band {
    /// First row.
    pub r0: u32,
    /// Rows in the band.
    pub height: u8,
    /// Index into [`BlockTiling::parts`].
    pub part: u16,
}

/// A tiling of the board by blocks (bands of blocks, each block toured by one base), the family of
/// their join edges, and the root of the walk. Not to be confused with [`crate::board::Layout`], the
/// padded array of the search.
#[derive(Clone, Debug)]
pub struct BlockTiling {
    /// Join geometry of every block.
    pub family: Family,
    /// The bands, top to bottom.
    pub bands: Vec<Band>,
    /// Column partitions: `(first column, width)` of each block, left to right.
    pub parts: Vec<Vec<(u32, u8)>>,
    /// The block the walk starts in, `(band, block)`.
    pub root: (usize, usize),
    /// Where the walk starts in the root block's base, and its base when it is not the block's usual
    /// cycle (a path for open tours, possibly generated at run time).
    pub root_start: RootStart,
    /// Strips only: blocks `0..mirror_below` of the band are mirror images (columns reversed) of
    /// their bases, with left and right roles swapped, so that a path block can sit in the middle of
    /// a 4-row strip (which has no left caps: a left cap, middles and a right cap would make a closed
    /// tour of 4 x n, which does not exist).
    pub mirror_below: usize,
}

/// How the walk starts.
#[derive(Clone, Debug)]
pub enum RootStart {
    /// The root block uses its usual cycle; start at this local square and go round it.
    Cycle(u8, u8),
    /// The root block uses this path base (from its first square): an open tour.
    Path(&'static Base),
    /// As [`RootStart::Path`], for a base found at run time.
    OwnedPath(Box<Base>),
}

/// Cut `n` into parts drawn from `sizes` (tried in that order at each step), keeping the rest
/// representable. `None` if `n` cannot be written as such a sum.
pub fn split(n: u32, sizes: &[u8]) -> Option<Vec<u8>> {
    let g = sizes.iter().fold(0u32, |g, &s| gcd(g, s as u32));
    // representable[r] for small r by dynamic programming; large r are representable iff g | r (true
    // for every size set used here: consecutive sizes or consecutive even sizes).
    const SMALL: usize = 64;
    let mut small = [false; SMALL];
    small[0] = true;
    for r in 1..SMALL {
        small[r] = sizes
            .iter()
            .any(|&s| s as usize <= r && small[r - s as usize]);
    }
    let ok = |r: u32| {
        if (r as usize) < SMALL {
            small[r as usize]
        } else {
            r % g == 0
        }
    };
    if !ok(n) {
        return None;
    }
    let mut out = Vec::new();
    let mut r = n;
    while r > 0 {
        let s = *sizes.iter().find(|&&s| s as u32 <= r && ok(r - s as u32))?;
        out.push(s);
        r -= s as u32;
    }
    Some(out)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Column partition from widths.
pub fn part_from(widths: &[u8]) -> Vec<(u32, u8)> {
    let mut c0 = 0;
    widths
        .iter()
        .map(|&w| {
            let p = (c0, w);
            c0 += w as u32;
            p
        })
        .collect()
}

/// Bands from heights, all with partition `part` except band `odd` (if any) which gets `odd_part`.
pub fn bands_from(heights: &[u8], part: u16, odd: Option<(usize, u16)>) -> Vec<Band> {
    let mut r0 = 0;
    heights
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let b = Band {
                r0,
                height: h,
                part: match odd {
                    Some((k, p)) if k == i => p,
                    _ => part,
                },
            };
            r0 += h as u32;
            b
        })
        .collect()
}

impl BlockTiling {
    /// The roles block `j` of band `i` plays.
    #[inline]
    pub fn active(&self, i: usize, j: usize) -> Roles {
        let last_j = self.parts[self.bands[i].part as usize].len() - 1;
        let mut r = 0;
        if j < last_j {
            r |= Role::Right as u8;
        }
        if j > 0 {
            r |= Role::Left as u8;
        }
        if j == 0 && i + 1 < self.bands.len() {
            r |= Role::Down as u8;
        }
        if j == 0 && i > 0 {
            r |= Role::Up as u8;
        }
        r
    }

    /// The base role playing physical role `phys` for block `j` (left and right swap in mirrored
    /// blocks).
    #[inline]
    fn base_role(&self, j: usize, phys: Role) -> Role {
        match (j < self.mirror_below, phys) {
            (true, Role::Right) => Role::Left,
            (true, Role::Left) => Role::Right,
            (_, r) => r,
        }
    }

    /// The committed cycle base of block `(i, j)`.
    fn cycle_base(
        &self,
        cache: &mut BaseCache,
        i: usize,
        j: usize,
    ) -> Result<&'static Base, String> {
        let h = self.bands[i].height;
        let w = self.parts[self.bands[i].part as usize][j].1;
        let roles = match self.family {
            Family::Grid => ALL_ROLES,
            _ => {
                let active = self.active(i, j);
                ROLE_LIST
                    .iter()
                    .filter(|&&r| active & r as u8 != 0)
                    .fold(0, |acc, &r| acc | self.base_role(j, r) as u8)
            }
        };
        cache.get(self.family, h, w, roles)
    }

    /// Number of squares covered.
    fn squares(&self) -> u64 {
        self.bands
            .iter()
            .map(|b| {
                let p = &self.parts[b.part as usize];
                let width: u64 = p.iter().map(|&(_, w)| w as u64).sum();
                b.height as u64 * width
            })
            .sum()
    }

    /// Write the tour into `out` (cleared first; its capacity is reused). An error names a missing
    /// base, which is a bug in the layout code.
    pub fn build(&self, out: &mut Vec<Square>) -> Result<(), String> {
        out.clear();
        let total = self.squares();
        out.reserve_exact(total as usize);
        let mut cache = BaseCache::default();
        let (ri, rj) = self.root;
        let (root_base, p0, root_closed): (&Base, usize, bool) = match &self.root_start {
            RootStart::Cycle(r, c) => {
                let b = self.cycle_base(&mut cache, ri, rj)?;
                (b, b.pos_of(*r as u32, *c as u32), true)
            }
            RootStart::Path(b) => (b, 0, false),
            RootStart::OwnedPath(b) => (b, 0, false),
        };
        let mut f = Frame::new(self, ri, rj, root_base, p0, 1);
        f.rem = root_base.order.len() - 1 + root_closed as usize;
        let mut stack: Vec<Frame> = Vec::new();
        f.emit(out, f.p);
        loop {
            if f.rem == 0 {
                match stack.pop() {
                    None => break,
                    Some(parent) => {
                        f = parent;
                        // Back from a child: we stand on the far end of the join edge.
                        if !(root_closed && stack.is_empty() && f.rem == 0) {
                            f.emit(out, f.p);
                        }
                        continue;
                    }
                }
            }
            let p2 = f.next(f.p);
            f.rem -= 1;
            let (u, v) = (f.base.order[f.p], f.base.order[p2]);
            let joint = |b: &Base, (r, c): (u8, u8)| {
                b.joint[r as usize * b.spec.cols as usize + c as usize]
            };
            if joint(f.base, u) && joint(f.base, v) {
                if let Some((ni, nj, nb, entry, exit)) = self.join_at(&mut cache, &f, u, v)? {
                    // Cross into the neighbour at `entry`, go round it away from `exit` (its join
                    // edge is gone), come back from `exit` to v.
                    f.p = p2;
                    let pe = nb.pos_of(entry.0 as u32, entry.1 as u32);
                    let px = nb.pos_of(exit.0 as u32, exit.1 as u32);
                    let len = nb.order.len();
                    let d = if (pe + 1) % len == px { -1 } else { 1 };
                    stack.push(f);
                    f = Frame::new(self, ni, nj, nb, pe, d);
                    f.rem = len - 1;
                    f.emit(out, f.p);
                    continue;
                }
            }
            f.p = p2;
            if !(root_closed && stack.is_empty() && f.rem == 0) {
                f.emit(out, f.p);
            }
        }
        if out.len() as u64 != total {
            return Err(format!("walk wrote {} of {total} squares", out.len()));
        }
        Ok(())
    }

    /// If `u -> v` in frame `f`'s block is an active join edge: the neighbour block, its base, and
    /// the local squares there that `u` and `v` cross to.
    fn join_at(
        &self,
        cache: &mut BaseCache,
        f: &Frame<'_>,
        u: Local,
        v: Local,
    ) -> Result<Option<Crossing>, String> {
        let (i, j) = (f.i, f.j);
        let active = self.active(i, j);
        for phys in ROLE_LIST {
            if active & phys as u8 == 0 {
                continue;
            }
            let Some([x0, x1]) = f.base.edges[role_index(self.base_role(j, phys))] else {
                continue;
            };
            let (a, b) = if (x0, x1) == (u, v) {
                (0, 1)
            } else if (x1, x0) == (u, v) {
                (1, 0)
            } else {
                continue;
            };
            let (ni, nj, nphys) = match phys {
                Role::Right => (i, j + 1, Role::Left),
                Role::Left => (i, j - 1, Role::Right),
                Role::Down => (i + 1, 0, Role::Up),
                Role::Up => (i - 1, 0, Role::Down),
            };
            let nb = self.cycle_base(cache, ni, nj)?;
            let y = nb.edges[role_index(self.base_role(nj, nphys))]
                .ok_or_else(|| format!("block ({ni},{nj}) lacks its {nphys:?} join edge"))?;
            return Ok(Some((ni, nj, nb, y[a], y[b])));
        }
        Ok(None)
    }
}

/// A local square `(row, col)` of a block.
type Local = (u8, u8);

/// Where a join edge leads: the neighbour block `(band, block)`, its base, and the squares `u` and `v`
/// cross to.
type Crossing = (usize, usize, &'static Base, Local, Local);

/// The walk's position in one block.
#[derive(Clone, Copy)]
struct Frame<'a> {
    i: usize,
    j: usize,
    base: &'a Base,
    r0: u32,
    c0: u32,
    /// Position in `base.order`.
    p: usize,
    /// +1 or -1 along `base.order`.
    d: isize,
    /// Edges of this block still to walk.
    rem: usize,
    /// Whether the block is its base mirrored (columns reversed).
    mirror: bool,
}

impl<'a> Frame<'a> {
    fn new(l: &BlockTiling, i: usize, j: usize, base: &'a Base, p: usize, d: isize) -> Frame<'a> {
        let band = l.bands[i];
        Frame {
            i,
            j,
            base,
            r0: band.r0,
            c0: l.parts[band.part as usize][j].0,
            p,
            d,
            rem: 0,
            mirror: j < l.mirror_below,
        }
    }

    #[inline]
    fn next(&self, p: usize) -> usize {
        let n = self.base.order.len() as isize;
        let q = p as isize + self.d;
        (if q < 0 {
            q + n
        } else if q >= n {
            q - n
        } else {
            q
        }) as usize
    }

    #[inline]
    fn emit(&self, out: &mut Vec<Square>, p: usize) {
        let (r, mut c) = self.base.order[p];
        if self.mirror {
            c = self.base.spec.cols - 1 - c;
        }
        out.push(Square::new(
            (self.r0 + r as u32) as u16,
            (self.c0 + c as u32) as u16,
        ));
    }
}

/// (family, rows, cols, roles).
type BaseKey = (Family, u8, u8, Roles);

/// Lookup of committed bases by (family, rows, cols, roles), memoised.
#[derive(Default)]
struct BaseCache {
    table: Vec<(BaseKey, &'static Base)>,
}

impl BaseCache {
    fn get(&mut self, family: Family, h: u8, w: u8, roles: Roles) -> Result<&'static Base, String> {
        let key = (family, h, w, roles);
        if let Some(&(_, b)) = self.table.iter().find(|(k, _)| *k == key) {
            return Ok(b);
        }
        let b = bases::find(family, h, w, Shape::Cycle, roles).ok_or_else(|| {
            format!("no committed {family:?} base cycle for {h}x{w} with roles {roles:04b}")
        })?;
        self.table.push((key, b));
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_uses_only_allowed_sizes_and_refuses_the_impossible() {
        for n in 0..300u32 {
            let even = split(n, &[8, 6, 10]);
            assert_eq!(even.is_some(), n == 0 || (n >= 6 && n % 2 == 0), "{n}");
            if let Some(v) = even {
                assert_eq!(v.iter().map(|&x| x as u32).sum::<u32>(), n);
            }
            let any = split(n, &[8, 6, 10, 7, 9, 5]);
            assert_eq!(any.is_some(), n == 0 || n >= 5, "{n}");
        }
    }
}
