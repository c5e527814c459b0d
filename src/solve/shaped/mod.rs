//! Search on any board (`docs/REFERENCE.md`, section 9): holes and `(a, b)` leapers, for every
//! method but `rotate`. The plain path: the shape's graph built once as adjacency lists (a vertex per
//! square, its neighbours by label), degrees kept up to date as squares are entered and left, an
//! explicit stack for the searches. The fast kernels keep to whole boards walked by the knight
//! ([`Shape::is_full_knight`]); on those, this engine gives the same runs as they do (the tests
//! check it), and `solve::reference` is its slow twin on every shape.
//!
//! Rules: the chains of keys and finals apply to any leaper, with the leaper's labels
//! ([`crate::board::Leaper::deltas`]); `roth`, `roth-original` and `squirrel` are defined on whole
//! boards walked by the knight (Roth's distances, Squirrel & Cull's switch squares) and are refused
//! elsewhere.

use super::rules::{DistanceTarget, Final, Key, LabelOrder};
use super::{
    Closing, Impossibility, Method, Outcome, Request, RequestError, Rule, RunSummary, SolveError,
    Stats, TraceEvent,
};
use crate::board::{Closure, Shape, Square};
use crate::exists;
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// No neighbour by this label.
const NONE: u32 = u32::MAX;

/// Most squares of a board the search on any board takes (as a sweep's boards): its graph and the
/// necessary conditions' walk take about 100 bytes a square, and the walk minutes past this.
pub const MAX_SQUARES: u64 = 100_000_000;

/// A shape's graph: its squares as vertices `0..len`, row by row, and each one's neighbours by label.
#[derive(Clone, Debug)]
pub struct Graph {
    shape: Shape,
    squares: Vec<Square>,
    /// `vertex[board.index(sq)]`, [`NONE`] for holes.
    vertex: Vec<u32>,
    nbr: Vec<[u32; 8]>,
    /// `nbr` with every missing move leading to the sentinel vertex `len` instead of [`NONE`],
    /// so that the search's loops read a degree for all eight labels without a test.
    links: Vec<[u32; 8]>,
    /// The degrees of the empty shape, the sentinel's [`SENTINEL`] last: a run starts from a copy.
    initial: Vec<u32>,
    /// The `center` key of each vertex (doubled squared distance from the board's centre).
    centre: Vec<i64>,
}

/// A degree at or above this is no free square: visited, or the sentinel.
const LIMIT: u32 = 1 << 30;
/// Added to the degree of a square while it is on the path, taken off when it is left: its free
/// neighbours stay counted under it (decremented at most eight times, it stays above [`LIMIT`]).
const VISITED: u32 = 1 << 31;
/// The sentinel vertex's degree: decremented once for each missing move of each square entered
/// (at most 8 x 10^8 a run, the board's limit), it stays above [`LIMIT`].
const SENTINEL: u32 = 3 << 30;

impl Graph {
    /// The graph of `shape`.
    pub fn new(shape: &Shape) -> Graph {
        let board = shape.board();
        let squares: Vec<Square> = shape.squares().collect();
        let mut vertex = vec![NONE; board.len() as usize];
        for (v, &sq) in squares.iter().enumerate() {
            vertex[board.index(sq) as usize] = v as u32;
        }
        let nbr: Vec<[u32; 8]> = squares
            .iter()
            .map(|&sq| {
                let mut out = [NONE; 8];
                for (k, n) in shape.neighbours(sq) {
                    out[k] = vertex[board.index(n) as usize];
                }
                out
            })
            .collect();
        let target = DistanceTarget::center(board);
        let centre = squares.iter().map(|&sq| target.key(sq)).collect();
        let sentinel = squares.len() as u32;
        let links = nbr
            .iter()
            .map(|ns: &[u32; 8]| ns.map(|m| if m == NONE { sentinel } else { m }))
            .collect();
        let initial = nbr
            .iter()
            .map(|ns: &[u32; 8]| ns.iter().filter(|&&m| m != NONE).count() as u32)
            .chain([SENTINEL])
            .collect();
        Graph {
            shape: shape.clone(),
            squares,
            vertex,
            nbr,
            links,
            initial,
            centre,
        }
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The vertex of `sq`, if it is a square of the shape.
    pub fn vertex(&self, sq: Square) -> Option<u32> {
        let board = self.shape.board();
        board
            .contains(sq.row() as i64, sq.col() as i64)
            .then(|| self.vertex[board.index(sq) as usize])
            .filter(|&v| v != NONE)
    }

    /// The square of vertex `v`.
    pub fn square(&self, v: u32) -> Square {
        self.squares[v as usize]
    }

    /// The number of vertices (squares).
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Never true: a shape keeps a square.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The neighbours of `v` by label (0-based), [`u32::MAX`] where the label leads off the shape.
    pub fn neighbours(&self, v: u32) -> &[u32; 8] {
        &self.nbr[v as usize]
    }

    /// Whether `u` and `v` are one move apart.
    pub fn adjacent(&self, u: u32, v: u32) -> bool {
        self.nbr[u as usize].contains(&v)
    }
}

/// Why `rule` or `method` cannot run on `shape`, if it cannot.
pub fn refusal(shape: &Shape, method: Method, rule: Rule) -> Option<&'static str> {
    if shape.is_full_knight() {
        return None;
    }
    if method == Method::Rotate {
        return Some("rotate closes paths on whole boards walked by the knight only");
    }
    match rule {
        Rule::RothOriginal | Rule::RothHalfUp | Rule::Squirrel => Some(
            "roth-original, roth-halfup and squirrel are defined on whole boards walked by the knight (Roth's point, Squirrel & Cull's switch squares)",
        ),
        Rule::Chain(c) if c.keys.iter().any(|k| k == Key::Roth) => Some(
            "roth is defined on whole boards walked by the knight; `center` ranks the same distance the other way",
        ),
        _ => None,
    }
}

/// A chain prepared for one run: the order candidates are scanned in, the keys, the final's draws.
struct Chooser {
    scan: [u8; 8],
    pohl: [bool; 2],
    keys: usize,
    last: Last,
}

enum Last {
    Fixed,
    Random(Xoshiro256PlusPlus),
    Gfg {
        at: [u8; 8],
        rng: Xoshiro256PlusPlus,
    },
}

impl Chooser {
    /// `rule` (a chain: [`refusal`] has turned the others away) for a run seeded `seed`; the draws
    /// are those of the fast engine (`rules::random`), so that runs agree with it on whole boards.
    fn new(rule: Rule, seed: u64) -> Chooser {
        let Rule::Chain(chain) = rule else {
            unreachable!("whole rules are refused off the full knight board")
        };
        let mut c = Chooser {
            scan: *LabelOrder::IDENTITY.labels(),
            pohl: [false; 2],
            keys: 0,
            last: Last::Fixed,
        };
        for key in chain.keys.iter() {
            c.pohl[c.keys] = key == Key::Pohl;
            c.keys += 1;
        }
        let rng = || Xoshiro256PlusPlus::seed_from_u64(seed);
        match chain.last {
            Final::Order(o) => c.scan = *o.labels(),
            Final::Random => c.last = Last::Random(rng()),
            Final::Gfg(cycle) => {
                let mut at = [0u8; 8];
                for (i, &l) in cycle.labels().iter().enumerate() {
                    at[l as usize] = i as u8;
                }
                c.last = Last::Gfg { at, rng: rng() };
            }
            Final::Shuffle => {
                c.scan = *LabelOrder::nth_permutation(rng().gen_range(0..40_320)).labels()
            }
        }
        c
    }
}

/// A node of the backtracking stack: the candidates of a square, best first, and the next to try.
#[derive(Clone, Copy, Debug)]
struct Frame {
    cands: [u32; 8],
    len: u8,
    next: u8,
}

/// Scratch state for runs on any board: allocate once per thread, reuse across runs.
#[derive(Clone, Debug, Default)]
pub struct Engine {
    graph: Option<Graph>,
    /// The necessary conditions' reading of the graph's shape, found once per shape.
    facts: Option<exists::ShapeFacts>,
    /// Free neighbours of each vertex, plus [`VISITED`] while it is on the path; the sentinel's
    /// [`SENTINEL`] last. A candidate is a neighbour whose degree is below [`LIMIT`].
    degree: Vec<u32>,
    path: Vec<u32>,
    frames: Vec<Frame>,
    /// The run's moves and undos, when it is traced ([`Engine::run_traced`]).
    trace: Option<Vec<TraceEvent>>,
}

impl Engine {
    /// Run on `shape` from now on (the graph is built once here, not per run).
    pub fn set_shape(&mut self, shape: &Shape) {
        if self.graph.as_ref().map(Graph::shape) != Some(shape) {
            self.graph = Some(Graph::new(shape));
            self.facts = Some(exists::ShapeFacts::of(shape));
        }
    }

    /// The graph runs are on; `None` before [`Engine::set_shape`].
    pub fn graph(&self) -> Option<&Graph> {
        self.graph.as_ref()
    }

    /// The path of the last run.
    pub fn path(&self) -> Vec<Square> {
        let g = self.graph.as_ref().expect("a shape");
        self.path.iter().map(|&v| g.square(v)).collect()
    }

    /// Run `req` on the shape set by [`Engine::set_shape`] (`req.board` must be its board),
    /// keeping the path ([`Engine::path`]).
    pub fn run(&mut self, req: &Request) -> Result<RunSummary, SolveError> {
        let graph = self.graph.take().expect("set_shape before run");
        let out = self.run_on(&graph, req);
        self.graph = Some(graph);
        out
    }

    /// [`Engine::run`], recording every move (with the candidates and their degrees) and every undo
    /// for the animation, as the fast engine's trace does.
    pub fn run_traced(
        &mut self,
        req: &Request,
    ) -> Result<(RunSummary, Vec<TraceEvent>), SolveError> {
        self.trace = Some(Vec::new());
        let summary = self.run(req);
        let events = self.trace.take().unwrap_or_default();
        Ok((summary?, events))
    }

    fn run_on(&mut self, g: &Graph, req: &Request) -> Result<RunSummary, SolveError> {
        let shape = g.shape();
        debug_assert_eq!(shape.board(), req.board);
        let Some(start) = g.vertex(req.start) else {
            return Err(SolveError::StartOffShape {
                shape: shape.to_string(),
                start: req.start,
            });
        };
        req.check()?;
        if let Some(why) = refusal(shape, req.method, req.rule) {
            return Err(RequestError {
                method: req.method,
                rule: req.rule,
                why,
            }
            .into());
        }
        let timer = Instant::now();
        let closure = req.closure;
        let facts = self.facts.as_ref().expect("found with the graph");
        if let Err(reason) = exists::shape_tour_with(shape, facts, Some(req.start), closure) {
            self.path.clear();
            return Ok(RunSummary {
                outcome: Outcome::Impossible(Impossibility::Theorem(reason)),
                closes: false,
                visited: 0,
                stats: Stats::default(),
                attempts: 1,
            });
        }
        self.degree.clone_from(&g.initial);
        self.path.clear();
        // Under the start-last closing the start counts as a free neighbour in every degree: its
        // entry is the only one that leaves its neighbours' degrees alone.
        let keep_start = req.closing == Closing::StartLast;
        self.enter(g, start, !keep_start);
        let mut chooser = Chooser::new(req.rule, req.seed);
        let mut stats = Stats {
            nodes: 1,
            ..Stats::default()
        };
        let outcome = match req.method {
            Method::Warnsdorff => self.walk(g, &mut chooser, closure, &mut stats),
            Method::Backtrack | Method::Naive => self.search(g, &mut chooser, req, &mut stats),
            Method::Rotate => unreachable!("refused above"),
        };
        stats.elapsed_ns = timer.elapsed().as_nanos() as u64;
        let closes = self.closes(g);
        Ok(RunSummary {
            outcome,
            closes,
            visited: self.path.len() as u32,
            stats,
            attempts: 1,
        })
    }

    /// Whether the path covers the shape and its ends are one move apart.
    fn closes(&self, g: &Graph) -> bool {
        let n = g.len();
        n > 2 && self.path.len() == n && g.adjacent(self.path[0], self.path[n - 1])
    }

    fn enter(&mut self, g: &Graph, v: u32, update: bool) {
        if let (Some(events), Some(&from)) = (self.trace.as_mut(), self.path.last()) {
            // the free neighbours of the square left, with their degrees before this move
            let candidates: Vec<(Square, u8)> = g.links[from as usize]
                .iter()
                .filter(|&&m| self.degree[m as usize] < LIMIT)
                .map(|&m| (g.square(m), self.degree[m as usize] as u8))
                .collect();
            let min = candidates.iter().map(|c| c.1).min().unwrap_or(0);
            let tied = candidates.iter().filter(|c| c.1 == min).count() > 1;
            events.push(TraceEvent::Move {
                from: g.square(from),
                square: g.square(v),
                candidates,
                tied,
            });
        }
        self.degree[v as usize] += VISITED;
        self.path.push(v);
        if update {
            for &m in &g.links[v as usize] {
                self.degree[m as usize] -= 1;
            }
        }
    }

    fn leave(&mut self, g: &Graph) {
        let v = self.path.pop().expect("a square to leave");
        if let Some(events) = self.trace.as_mut() {
            events.push(TraceEvent::Undo {
                square: g.square(v),
            });
        }
        self.degree[v as usize] -= VISITED;
        for &m in &g.links[v as usize] {
            self.degree[m as usize] += 1;
        }
    }

    /// A key's value for candidate `q`, smaller preferred: Pohl's sum of its free neighbours'
    /// degrees, or its distance from the centre.
    fn key(&self, g: &Graph, pohl: bool, q: u32) -> i64 {
        if pohl {
            g.links[q as usize]
                .iter()
                .map(|&m| self.degree[m as usize])
                .filter(|&d| d < LIMIT)
                .map(i64::from)
                .sum()
        } else {
            g.centre[q as usize]
        }
    }

    /// The free neighbours of `v`, `(label, vertex)` in the chooser's scan order.
    fn free(&self, g: &Graph, v: u32, scan: &[u8; 8], out: &mut [(u8, u32); 8]) -> usize {
        let mut len = 0;
        let links = &g.links[v as usize];
        for &l in scan {
            let m = links[l as usize];
            if self.degree[m as usize] < LIMIT {
                out[len] = (l, m);
                len += 1;
            }
        }
        len
    }

    /// Pure Warnsdorff: the free neighbour of least degree, ties to the rule.
    fn walk(&mut self, g: &Graph, c: &mut Chooser, closure: Closure, stats: &mut Stats) -> Outcome {
        loop {
            let cur = *self.path.last().expect("the start");
            // one pass in scan order: the candidates of least degree so far, restarted at each new
            // minimum (a visited square or the sentinel is above LIMIT, never equal to it)
            let links = &g.links[cur as usize];
            let mut keep = [(0u8, 0u32); 8];
            let (mut kept, mut min) = (0, LIMIT);
            for &l in &c.scan {
                let m = links[l as usize];
                let d = self.degree[m as usize];
                if d < min {
                    (min, kept) = (d, 0);
                }
                if d == min {
                    keep[kept] = (l, m);
                    kept += 1;
                }
            }
            if kept == 0 {
                break;
            }
            if kept > 1 {
                stats.ties += 1;
            }
            for k in 0..c.keys {
                if kept < 2 {
                    break;
                }
                let best = keep[..kept]
                    .iter()
                    .map(|&(_, q)| self.key(g, c.pohl[k], q))
                    .min()
                    .expect("a candidate");
                let mut j = 0;
                for i in 0..kept {
                    if self.key(g, c.pohl[k], keep[i].1) == best {
                        keep[j] = keep[i];
                        j += 1;
                    }
                }
                kept = j;
            }
            let choice = if kept == 1 {
                keep[0]
            } else {
                match &mut c.last {
                    Last::Fixed => keep[0],
                    Last::Random(rng) => keep[rng.gen_range(0..kept)],
                    Last::Gfg { at, rng } => {
                        let from = rng.gen_range(0..8usize) as u8;
                        *keep[..kept]
                            .iter()
                            .min_by_key(|&&(l, _)| (at[l as usize] + 8 - from) % 8)
                            .expect("two or more")
                    }
                }
            };
            self.enter(g, choice.1, true);
            stats.nodes += 1;
        }
        if self.path.len() < g.len() {
            Outcome::DeadEnd
        } else if closure.is_closed() && !self.closes(g) {
            Outcome::NotClosed
        } else {
            Outcome::Found
        }
    }

    /// The candidates of the square just entered, best first: `naive` in the rule's label order;
    /// `backtrack` by degree, then the rule's keys, then its final (scan order, or a fresh draw).
    fn frame(&self, g: &Graph, c: &mut Chooser, method: Method) -> Frame {
        let cur = *self.path.last().expect("a square");
        let mut free = [(0u8, 0u32); 8];
        let len = self.free(g, cur, &c.scan, &mut free);
        let mut frame = Frame {
            cands: [NONE; 8],
            len: len as u8,
            next: 0,
        };
        if method == Method::Backtrack && len > 1 {
            let from = match &mut c.last {
                Last::Gfg { rng, .. } => rng.gen_range(0..8usize) as u8,
                _ => 0,
            };
            let mut ranked = [([0i64; 4], 0u32); 8];
            for (i, &(l, q)) in free[..len].iter().enumerate() {
                let mut rank = [i64::from(self.degree[q as usize]), 0, 0, 0];
                for k in 0..c.keys {
                    rank[1 + k] = self.key(g, c.pohl[k], q);
                }
                rank[3] = match &mut c.last {
                    Last::Fixed => i as i64,
                    Last::Random(rng) => i64::from(rng.next_u32()),
                    Last::Gfg { at, .. } => i64::from((at[l as usize] + 8 - from) % 8),
                };
                ranked[i] = (rank, q);
            }
            ranked[..len].sort_by_key(|&(rank, _)| rank);
            for (slot, &(_, q)) in frame.cands.iter_mut().zip(&ranked[..len]) {
                *slot = q;
            }
        } else {
            for (slot, &(_, q)) in frame.cands.iter_mut().zip(&free[..len]) {
                *slot = q;
            }
        }
        frame
    }

    /// `backtrack` and `naive`: depth-first search with an explicit stack, the node budget checked
    /// before each square is entered; `backtrack` cuts a branch when a free neighbour of the square
    /// entered is stranded (unless it can be the last square), both when a closed tour can no
    /// longer return to the start.
    fn search(&mut self, g: &Graph, c: &mut Chooser, req: &Request, stats: &mut Stats) -> Outcome {
        let n = g.len();
        let closed = req.closure.is_closed();
        let start = self.path[0];
        if n == 1 {
            return if closed {
                Outcome::Impossible(Impossibility::Exhausted)
            } else {
                Outcome::Found
            };
        }
        let prune = req.method == Method::Backtrack && req.prune;
        self.frames.clear();
        let first = self.frame(g, c, req.method);
        self.frames.push(first);
        while let Some(top) = self.frames.last_mut() {
            if top.next == top.len {
                self.frames.pop();
                if !self.frames.is_empty() {
                    self.leave(g);
                    stats.backtracks += 1;
                }
                continue;
            }
            let q = top.cands[top.next as usize];
            top.next += 1;
            if req.budget != 0 && stats.nodes >= req.budget {
                return Outcome::BudgetExhausted;
            }
            self.enter(g, q, true);
            stats.nodes += 1;
            let left = n - self.path.len();
            let dead = if left == 0 {
                if !closed || g.adjacent(q, start) {
                    return Outcome::Found;
                }
                true
            } else {
                // a free square's degree is its count; visited ones and the sentinel are far above 0
                let stranded = || {
                    g.links[q as usize]
                        .iter()
                        .any(|&m| self.degree[m as usize] == 0)
                };
                // the start is on the path: its free neighbours are counted under VISITED
                (prune && left > 1 && stranded())
                    || (closed && self.degree[start as usize] == VISITED)
            };
            if dead {
                self.leave(g);
                stats.backtracks += 1;
            } else {
                let next = self.frame(g, c, req.method);
                self.frames.push(next);
            }
        }
        Outcome::Impossible(Impossibility::Exhausted)
    }
}
