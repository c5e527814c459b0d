//! The base tours of the divide-and-conquer construction: small boards with fixed *join edges* near
//! their corners, in the spirit of Parberry's "structured" tours (I. Parberry, "An efficient algorithm
//! for the knight's tour problem", Discrete Applied Mathematics 73, 1997), generalised to every block
//! size 5..10 and to thin 3- and 4-row strips (whose join edges may be *virtual*: not knight moves, but
//! always removed by a join, as in the block joins of Lin & Wei 2005).
//!
//! The tours are found by ktour's own constrained search ([`super::search`]) and committed in
//! `bases.txt` (`ktour gen-bases` rewrites it; a test re-verifies every one).
//!
//! ADVICE FOR HACKERS: a join between block A (left or above) and block B (right or below) removes A's
//! `Right` (or `Down`) edge `[a0, a1]` and B's `Left` (or `Up`) edge `[b0, b1]` and adds the knight
//! moves `a0-b0` and `a1-b1`. [`role_edge`] and the cross-move test in the unit tests must change
//! together.

use super::search::{Goal, Graph};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The committed base tours.
pub const BASES_TXT: &str = include_str!("bases.txt");

/// A family of blocks sharing one join geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Blocks of 5..10 x 5..10 tiling a board in bands; joins by real knight edges near the corners.
    Grid,
    /// Blocks of a 3-row strip, joined left to right; join edges are virtual.
    Strip3,
    /// Blocks of a 4-row strip, joined left to right; join edges are virtual.
    Strip4,
}

impl Family {
    fn name(self) -> &'static str {
        match self {
            Family::Grid => "grid",
            Family::Strip3 => "strip3",
            Family::Strip4 => "strip4",
        }
    }
    fn parse(s: &str) -> Option<Family> {
        [Family::Grid, Family::Strip3, Family::Strip4]
            .into_iter()
            .find(|f| f.name() == s)
    }
}

/// Where a block is joined to a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// To the block on the right (this block is A).
    Right = 1,
    /// To the block on the left (this block is B).
    Left = 2,
    /// To the block below (this block is A).
    Down = 4,
    /// To the block above (this block is B).
    Up = 8,
}

/// A set of [`Role`]s as a bit mask.
pub type Roles = u8;

/// All four roles.
pub const ALL_ROLES: Roles = 15;

/// The four roles, in [`role_index`] order.
pub const ROLE_LIST: [Role; 4] = [Role::Right, Role::Left, Role::Down, Role::Up];

/// Index of a role in [`ROLE_LIST`] and [`Base::edges`].
pub const fn role_index(role: Role) -> usize {
    match role {
        Role::Right => 0,
        Role::Left => 1,
        Role::Down => 2,
        Role::Up => 3,
    }
}

/// The same edge seen in the mirror image of a `cols`-wide block (columns reversed).
pub fn mirror_edge(e: [(u8, u8); 2], cols: u8) -> [(u8, u8); 2] {
    e.map(|(r, c)| (r, cols - 1 - c))
}

/// The join edge of `role` in a `rows x cols` block of `family`, as local `(row, col)` squares
/// `[x0, x1]`; see the module docs for how two blocks' edges are crossed.
pub fn role_edge(family: Family, rows: u8, cols: u8, role: Role) -> [(u8, u8); 2] {
    let (h, w) = (rows, cols);
    match (family, role) {
        // (0, w-1) is a corner: in a closed tour both its edges are forced, so this one is free.
        (Family::Grid, Role::Right) => [(0, w - 1), (2, w - 2)],
        (Family::Grid, Role::Left) => [(1, 1), (3, 0)],
        // (h-1, 0) is a corner too.
        (Family::Grid, Role::Down) => [(h - 1, 0), (h - 2, 2)],
        (Family::Grid, Role::Up) => [(1, 1), (0, 3)],
        (Family::Strip3, Role::Right) => [(0, w - 1), (1, w - 1)],
        (Family::Strip3, Role::Left) => [(1, 1), (0, 1)],
        (Family::Strip4, Role::Right) => [(1, w - 1), (2, w - 1)],
        (Family::Strip4, Role::Left) => [(3, 0), (0, 0)],
        (_, Role::Down | Role::Up) => panic!("strips have no vertical joins"),
    }
}

/// Whether the base is a cycle (closed) or a path (the root of an open tour).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A Hamiltonian cycle of the block (with its join edges).
    Cycle,
    /// A Hamiltonian path of the block from its first square.
    Path,
}

/// What a base tour must be: the key under which it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaseSpec {
    /// Join geometry.
    pub family: Family,
    /// Block rows.
    pub rows: u8,
    /// Block columns.
    pub cols: u8,
    /// Cycle or path.
    pub shape: Shape,
    /// The join edges the tour contains.
    pub roles: Roles,
    /// For a path: its first square.
    pub start: Option<(u8, u8)>,
}

/// A base tour: its spec, the squares in order, and the inverse (position of each square).
#[derive(Clone, Debug)]
pub struct Base {
    /// What it is.
    pub spec: BaseSpec,
    /// Local squares in tour order.
    pub order: Vec<(u8, u8)>,
    /// `pos[r * cols + c]`: position of `(r, c)` in `order`.
    pub pos: Vec<u16>,
    /// The join edge of each role (indexed by [`role_index`]) that this tour contains, in local
    /// coordinates: [`role_edge`] for committed bases; a run-time root may differ (see
    /// [`Base::with_edges`]).
    pub edges: [Option<[(u8, u8); 2]>; 4],
    /// `joint[r * cols + c]`: whether `(r, c)` is an end of one of the role edges (a fast filter for
    /// the builder's inner loop).
    pub joint: Vec<bool>,
}

/// Every base the construction uses, in file order.
pub fn specs() -> Vec<BaseSpec> {
    let mut v = Vec::new();
    let spec = |family, rows, cols, shape, roles, start| BaseSpec {
        family,
        rows,
        cols,
        shape,
        roles,
        start,
    };
    for h in 5..=10u8 {
        for w in 5..=10u8 {
            if (h as u32 * w as u32) % 2 == 0 {
                v.push(spec(Family::Grid, h, w, Shape::Cycle, ALL_ROLES, None));
            }
        }
    }
    // Odd bands 11 high: only for an odd side of 11 with the start in its middle row.
    for w in [6u8, 8, 10] {
        v.push(spec(Family::Grid, 11, w, Shape::Cycle, ALL_ROLES, None));
    }
    for h in [5u8, 7, 9] {
        for w in [5u8, 7, 9] {
            let roles = Role::Right as u8 | Role::Down as u8;
            v.push(spec(Family::Grid, h, w, Shape::Path, roles, Some((0, 0))));
        }
    }
    let (r, l) = (Role::Right as u8, Role::Left as u8);
    // 3-row strips: closed = left cap 3x4, middles 3x4, right cap 3x8 or 3x10; open (odd length) =
    // root path 3x5, middles, right cap.
    v.push(spec(Family::Strip3, 3, 4, Shape::Cycle, r, None));
    v.push(spec(Family::Strip3, 3, 4, Shape::Cycle, l | r, None));
    v.push(spec(Family::Strip3, 3, 8, Shape::Cycle, l, None));
    v.push(spec(Family::Strip3, 3, 10, Shape::Cycle, l, None));
    v.push(spec(Family::Strip3, 3, 5, Shape::Path, r, Some((0, 0))));
    // 4-row strips (open only): root path 4x3..4x6, middles 4x4, right cap 4x5.
    for w in 3..=6 {
        v.push(spec(Family::Strip4, 4, w, Shape::Path, r, Some((0, 0))));
    }
    v.push(spec(Family::Strip4, 4, 4, Shape::Cycle, l | r, None));
    // Right caps 4x5..4x8: also the mirrored left ends of strips whose path block is in the middle.
    for w in 5..=8 {
        v.push(spec(Family::Strip4, 4, w, Shape::Cycle, l, None));
    }
    v
}

/// The search graph of a spec: the knight graph of the block with its role edges required.
pub fn spec_graph(spec: &BaseSpec) -> Graph {
    let (h, w) = (spec.rows, spec.cols);
    let mut g = Graph::knight(h as usize, w as usize);
    for role in ROLE_LIST {
        if spec.roles & role as u8 != 0 {
            let [a, b] = role_edge(spec.family, h, w, role);
            let idx = |(r, c): (u8, u8)| r as usize * w as usize + c as usize;
            let ok = g.require(idx(a), idx(b));
            assert!(ok, "role edges of {spec:?} overlap");
        }
    }
    g
}

/// Node budget per search attempt in [`generate`].
pub const GEN_BUDGET: u64 = 20_000_000;

/// Find a base tour for `spec` with the constrained search; `None` if every attempt ran out.
pub fn generate(spec: &BaseSpec) -> Option<Vec<(u8, u8)>> {
    let g = spec_graph(spec);
    let w = spec.cols as usize;
    let n = g.len();
    let starts: Vec<usize> = match (spec.shape, spec.start) {
        (Shape::Path, Some((r, c))) => vec![r as usize * w + c as usize],
        _ => (0..n).collect(),
    };
    let goal = match spec.shape {
        Shape::Cycle => Goal::Cycle,
        Shape::Path => Goal::Path,
    };
    for s in starts {
        if let Ok(p) = g.search(s, goal, GEN_BUDGET) {
            let mut order: Vec<(u8, u8)> = p
                .iter()
                .map(|&i| ((i as usize / w) as u8, (i as usize % w) as u8))
                .collect();
            if goal == Goal::Cycle {
                // Store cycles from their lowest square, for a canonical file.
                let k = (0..order.len()).min_by_key(|&i| order[i]).unwrap();
                order.rotate_left(k);
            }
            return Some(order);
        }
    }
    None
}

fn shape_name(s: Shape) -> &'static str {
    match s {
        Shape::Cycle => "cycle",
        Shape::Path => "path",
    }
}

fn roles_name(r: Roles) -> String {
    let mut s = String::new();
    for (role, ch) in ROLE_LIST.iter().zip(['R', 'L', 'D', 'U']) {
        if r & *role as u8 != 0 {
            s.push(ch);
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// One line of `bases.txt`: `family rows cols shape roles : squares`, each square two hex digits.
pub fn format_base(spec: &BaseSpec, order: &[(u8, u8)]) -> String {
    let mut s = format!(
        "{} {} {} {} {} :",
        spec.family.name(),
        spec.rows,
        spec.cols,
        shape_name(spec.shape),
        roles_name(spec.roles)
    );
    for &(r, c) in order {
        let _ = write!(s, " {r:x}{c:x}");
    }
    s
}

/// Parse one non-comment line of `bases.txt`.
pub fn parse_base(line: &str) -> Result<Base, String> {
    let (head, body) = line.split_once(':').ok_or("missing ':'")?;
    let f: Vec<&str> = head.split_whitespace().collect();
    if f.len() != 5 {
        return Err(format!("expected 5 header fields, got {head:?}"));
    }
    let family = Family::parse(f[0]).ok_or_else(|| format!("unknown family {:?}", f[0]))?;
    let rows: u8 = f[1].parse().map_err(|_| "bad rows")?;
    let cols: u8 = f[2].parse().map_err(|_| "bad cols")?;
    let shape = match f[3] {
        "cycle" => Shape::Cycle,
        "path" => Shape::Path,
        s => return Err(format!("unknown shape {s:?}")),
    };
    let mut roles = 0;
    for ch in f[4].chars() {
        roles |= match ch {
            'R' => Role::Right as u8,
            'L' => Role::Left as u8,
            'D' => Role::Down as u8,
            'U' => Role::Up as u8,
            '-' => 0,
            _ => return Err(format!("unknown role {ch:?}")),
        };
    }
    let mut order = Vec::new();
    for tok in body.split_whitespace() {
        let v = u8::from_str_radix(tok, 16).map_err(|_| format!("bad square {tok:?}"))?;
        if tok.len() != 2 {
            return Err(format!("bad square {tok:?}"));
        }
        order.push((v >> 4, v & 15));
    }
    let start = (shape == Shape::Path)
        .then(|| order.first().copied())
        .flatten();
    let spec = BaseSpec {
        family,
        rows,
        cols,
        shape,
        roles,
        start,
    };
    Base::new(spec, order)
}

impl Base {
    /// Check `order` against `spec` (a Hamiltonian cycle or path of the block using knight moves and
    /// the spec's role edges, containing every role edge) and build the lookup tables.
    pub fn new(spec: BaseSpec, order: Vec<(u8, u8)>) -> Result<Base, String> {
        let mut edges = [None; 4];
        for role in ROLE_LIST {
            if spec.roles & role as u8 != 0 {
                edges[role_index(role)] = Some(role_edge(spec.family, spec.rows, spec.cols, role));
            }
        }
        Base::with_edges(spec, order, edges)
    }

    /// As [`Base::new`] with explicit join edges per role (`spec.roles` is not consulted).
    pub fn with_edges(
        spec: BaseSpec,
        order: Vec<(u8, u8)>,
        edges: [Option<[(u8, u8); 2]>; 4],
    ) -> Result<Base, String> {
        let (h, w) = (spec.rows as usize, spec.cols as usize);
        let n = h * w;
        if order.len() != n {
            return Err(format!("{} squares for a {h}x{w} block", order.len()));
        }
        let mut pos = vec![u16::MAX; n];
        for (i, &(r, c)) in order.iter().enumerate() {
            if r as usize >= h || c as usize >= w {
                return Err(format!("square ({r},{c}) off the {h}x{w} block"));
            }
            let k = r as usize * w + c as usize;
            if pos[k] != u16::MAX {
                return Err(format!("square ({r},{c}) repeated"));
            }
            pos[k] = i as u16;
        }
        let role_edges: Vec<[(u8, u8); 2]> = edges.iter().flatten().copied().collect();
        let mut joint = vec![false; n];
        for &[a, b] in &role_edges {
            for (r, c) in [a, b] {
                if r as usize >= h || c as usize >= w {
                    return Err(format!("join edge square ({r},{c}) off the {h}x{w} block"));
                }
                joint[r as usize * w + c as usize] = true;
            }
        }
        let is_role = |a: (u8, u8), b: (u8, u8)| {
            role_edges
                .iter()
                .any(|&[x, y]| (x, y) == (a, b) || (x, y) == (b, a))
        };
        let knight = |a: (u8, u8), b: (u8, u8)| {
            let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
            (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
        };
        let closed = spec.shape == Shape::Cycle;
        let steps = n - 1 + closed as usize;
        let mut used = 0;
        for i in 0..steps {
            let (a, b) = (order[i], order[(i + 1) % n]);
            if is_role(a, b) {
                used += 1;
            } else if !knight(a, b) {
                return Err(format!(
                    "({},{}) -> ({},{}) is not a knight move",
                    a.0, a.1, b.0, b.1
                ));
            }
        }
        if used != role_edges.len() {
            return Err(format!(
                "contains {used} of its {} join edges",
                role_edges.len()
            ));
        }
        Ok(Base {
            spec,
            order,
            pos,
            edges,
            joint,
        })
    }

    /// Position in `order` of local square `(r, c)`.
    #[inline]
    pub fn pos_of(&self, r: u32, c: u32) -> usize {
        self.pos[(r * self.spec.cols as u32 + c) as usize] as usize
    }
}

/// All committed bases, parsed and checked once.
pub fn all() -> &'static [Base] {
    static BASES: OnceLock<Vec<Base>> = OnceLock::new();
    BASES.get_or_init(|| {
        BASES_TXT
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .enumerate()
            .map(|(i, l)| {
                parse_base(l).unwrap_or_else(|e| panic!("bases.txt entry {}: {e}", i + 1))
            })
            .collect()
    })
}

/// The committed base for `family`, size and shape with (at least, for the grid) `roles`.
pub fn find(
    family: Family,
    rows: u8,
    cols: u8,
    shape: Shape,
    roles: Roles,
) -> Option<&'static Base> {
    all().iter().find(|b| {
        let s = &b.spec;
        s.family == family
            && s.rows == rows
            && s.cols == cols
            && s.shape == shape
            && if family == Family::Grid {
                s.roles & roles == roles
            } else {
                s.roles == roles
            }
    })
}

/// The text of `bases.txt` for the given tours.
pub fn format_file(entries: &[(BaseSpec, Vec<(u8, u8)>)]) -> String {
    let mut s = String::from(
        "# ktour base tours for the divide-and-conquer construction (src/construct/bases.rs).\n\
         # Written by `ktour gen-bases`; do not edit by hand.\n\
         # family rows cols shape roles : squares in order, each as two hex digits (row, col)\n",
    );
    for (spec, order) in entries {
        s.push_str(&format_base(spec, order));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn knight(a: (i32, i32), b: (i32, i32)) -> bool {
        let (dr, dc) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
        (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
    }

    #[test]
    fn role_edges_cross_by_knight_moves() {
        for h in 5..=10u8 {
            for w in 5..=10u8 {
                // Horizontal: A is h x w at cols 0..w, B at cols w.. (any size).
                let [a0, a1] = role_edge(Family::Grid, h, w, Role::Right);
                let [b0, b1] = role_edge(Family::Grid, h, 5, Role::Left);
                let g = |(r, c): (u8, u8), dr: i32, dc: i32| (r as i32 + dr, c as i32 + dc);
                assert!(knight(g(a0, 0, 0), g(b0, 0, w as i32)));
                assert!(knight(g(a1, 0, 0), g(b1, 0, w as i32)));
                let [a0, a1] = role_edge(Family::Grid, h, w, Role::Down);
                let [b0, b1] = role_edge(Family::Grid, 5, w, Role::Up);
                assert!(knight(g(a0, 0, 0), g(b0, h as i32, 0)));
                assert!(knight(g(a1, 0, 0), g(b1, h as i32, 0)));
            }
        }
        for (fam, rows) in [(Family::Strip3, 3), (Family::Strip4, 4)] {
            for w in 3..=10u8 {
                let [a0, a1] = role_edge(fam, rows, w, Role::Right);
                let [b0, b1] = role_edge(fam, rows, 4, Role::Left);
                let g = |(r, c): (u8, u8), dc: i32| (r as i32, c as i32 + dc);
                assert!(knight(g(a0, 0), g(b0, w as i32)));
                assert!(knight(g(a1, 0), g(b1, w as i32)));
            }
        }
    }
}
