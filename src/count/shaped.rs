//! Counting tours on any board (`docs/REFERENCE.md`, section 9): holes and `(a, b)` leapers. A
//! depth-first search over the shape's graph ([`crate::solve::shaped::Graph`]) with the two cuts
//! that hold on every graph: a free neighbour of the head left with no free neighbour can only be
//! the last square, and a closed tour's start must keep a free neighbour to return through. No
//! symmetry reduction (holes break the board's symmetries), one core. Its slow twin is
//! [`super::reference`], which takes any shape too; on whole boards walked by the knight the
//! bitboard engine gives the same numbers (the tests check both).
//!
//! What is counted follows [`super::CountRequest`]: directed open tours from every start (or one);
//! undirected ones are half of those; closed tours are counted from one square, which every cycle
//! passes through.
//!
//! Before it searches, [`count_shaped`] estimates the nodes the search will visit by Knuth's random
//! probes (the estimator of [`super::estimate`], walked with this search's own cuts, so that the
//! estimate is of the nodes counted here), refuses a count whose estimate passes its limit, and
//! tells its caller how far it has gone every [`PROGRESS_NODES`] nodes.

use super::estimate::PROBES;
use super::{CountError, Counted, Orientation, Starts};
use crate::board::{Board, Closure, Leaper, Shape};
use crate::solve::shaped::Graph;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::ops::Range;
use std::time::{Duration, Instant};

/// What [`count_on`] and [`count_shaped`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapedCount {
    /// The number of tours.
    pub count: u128,
    /// Squares entered by the search.
    pub nodes: u64,
    /// The nodes estimated before the search ([`count_shaped`] only).
    pub estimated_nodes: Option<f64>,
}

/// How a count on any board runs (what it counts is given beside it).
#[derive(Default)]
pub struct ShapedOptions<'a> {
    /// Refuse, before searching, a count whose search is estimated to visit more nodes than this
    /// ([`CountError::ShapedTooManyNodes`]), and stop one that passes it anyway
    /// ([`CountError::NodeLimit`]: the estimate can fall short); `None`: no limit.
    pub max_nodes: Option<u64>,
    /// Told the estimated nodes before the search starts (not when the count is refused: the
    /// refusal says them).
    pub on_estimate: Option<&'a mut dyn FnMut(f64)>,
    /// Told how far the search has gone, every [`PROGRESS_NODES`] nodes.
    pub progress: Option<&'a mut dyn FnMut(&ShapedProgress)>,
}

/// How far a count on any board has gone, for [`ShapedOptions::progress`].
#[derive(Clone, Copy, Debug)]
pub struct ShapedProgress {
    /// Squares entered so far.
    pub nodes: u64,
    /// The nodes estimated before the search.
    pub estimated: f64,
    /// Time since the search began (the estimate left out).
    pub elapsed: Duration,
}

/// Nodes between two calls of [`ShapedOptions::progress`]: about a third of a second at the search's
/// rate, so that a caller can print a line every few seconds without slowing the search.
pub const PROGRESS_NODES: u64 = 1 << 24;

/// Squares the probes of an estimate walk at most in all (after the first probe): on a board of a
/// few hundred squares every one of the [`PROBES`] probes runs, on a board of millions a few, so
/// that the estimate takes at most a fraction of a second besides building the graph.
pub const MAX_PROBED_SQUARES: usize = 1 << 22;

/// Count the tours of `shape`: `closure`, `orientation` and `starts` as [`super::count`] takes
/// them. Refused past `max_nodes` squares entered (`None`: no limit), with no estimate before.
pub fn count_on(
    shape: &Shape,
    closure: Closure,
    orientation: Orientation,
    starts: Starts,
    max_nodes: Option<u64>,
) -> Result<ShapedCount, CountError> {
    let g = Graph::new(shape);
    let roots = roots(&g, closure, starts)?;
    let mut search = Search::new(&g, closure, max_nodes.unwrap_or(u64::MAX));
    let directed = search.search_roots(roots)?;
    Ok(ShapedCount {
        count: tours(g.len(), closure, orientation, starts, directed),
        nodes: search.nodes,
        estimated_nodes: None,
    })
}

/// [`count_on`], with Knuth's estimate of the search's nodes made first: refused at once, with the
/// estimate, when it passes `options.max_nodes`; progress told while the search runs.
pub fn count_shaped(
    shape: &Shape,
    closure: Closure,
    orientation: Orientation,
    starts: Starts,
    options: ShapedOptions,
) -> Result<ShapedCount, CountError> {
    let request = (closure, orientation, starts);
    count_reporting(shape, request, options, PROGRESS_NODES)
}

/// [`count_shaped`], telling the progress every `every` nodes (the tests take fewer).
fn count_reporting(
    shape: &Shape,
    (closure, orientation, starts): (Closure, Orientation, Starts),
    options: ShapedOptions,
    every: u64,
) -> Result<ShapedCount, CountError> {
    let g = Graph::new(shape);
    let roots = roots(&g, closure, starts)?;
    let max_nodes = options.max_nodes.unwrap_or(u64::MAX);
    let mut search = Search::new(&g, closure, max_nodes);
    let estimated = search.estimate(roots.clone());
    if estimated > max_nodes as f64 {
        return Err(CountError::ShapedTooManyNodes {
            board: shape.board(),
            holes: shape.board().len() - shape.len(),
            leaper: shape.leaper(),
            what: Counted::Tours {
                closure,
                orientation,
            },
            estimated,
            max_nodes,
        });
    }
    if let Some(tell) = options.on_estimate {
        tell(estimated);
    }
    if let Some(report) = options.progress {
        search.report = Some(Report {
            tell: report,
            estimated,
            began: Instant::now(),
            every,
        });
        search.next_stop = max_nodes.min(every);
    }
    let directed = search.search_roots(roots)?;
    Ok(ShapedCount {
        count: tours(g.len(), closure, orientation, starts, directed),
        nodes: search.nodes,
        estimated_nodes: Some(estimated),
    })
}

/// The squares the search starts from: every square, or one, for open tours; one square for closed
/// tours (every cycle passes through it), none on a shape of fewer than 3 squares (no cycle).
fn roots(g: &Graph, closure: Closure, starts: Starts) -> Result<Range<u32>, CountError> {
    let vertex = |s| {
        g.vertex(s).ok_or(CountError::StartOffShape {
            board: g.shape().board(),
            start: s,
        })
    };
    let one = |v: u32| v..v + 1;
    Ok(match (closure, starts) {
        (Closure::Open, Starts::From(s)) => one(vertex(s)?),
        (Closure::Open, Starts::All) => 0..g.len() as u32,
        (Closure::Closed, Starts::From(s)) if g.len() >= 3 => one(vertex(s)?),
        (Closure::Closed, Starts::From(s)) => vertex(s).map(|v| v..v)?,
        (Closure::Closed, Starts::All) if g.len() >= 3 => 0..1,
        (Closure::Closed, Starts::All) => 0..0,
    })
}

/// The tours asked for, from `directed`, the directed tours from the [`roots`] of a shape of `n`
/// squares.
fn tours(
    n: usize,
    closure: Closure,
    orientation: Orientation,
    starts: Starts,
    directed: u128,
) -> u128 {
    match (closure, orientation, starts) {
        (Closure::Open, _, Starts::From(_)) => directed,
        // every path of two or more squares is found once from each end
        (Closure::Open, Orientation::Undirected, Starts::All) if n > 1 => directed / 2,
        (Closure::Open, _, Starts::All) => directed,
        (Closure::Closed, Orientation::Undirected, _) => directed / 2,
        (Closure::Closed, Orientation::Directed, Starts::From(_)) => directed,
        (Closure::Closed, Orientation::Directed, Starts::All) => directed * n as u128,
    }
}

/// A shape's name from its parts, as [`Shape`] shows it: `8x8`, `8x8 with 4 holes`,
/// `8x8, (1,3)-leaper` (for errors, which keep no shape).
pub(super) fn shape_words(board: Board, holes: u32, leaper: Leaper) -> String {
    let mut words = board.to_string();
    if holes > 0 {
        words += &format!(" with {holes} hole{}", if holes == 1 { "" } else { "s" });
    }
    if leaper != Leaper::KNIGHT {
        words += &format!(", ({leaper})-leaper");
    }
    words
}

/// Where the search tells its progress.
struct Report<'a> {
    tell: &'a mut dyn FnMut(&ShapedProgress),
    estimated: f64,
    began: Instant,
    /// Nodes between reports.
    every: u64,
}

/// The depth-first search: the path's squares, the free neighbours of every square, and the nodes.
struct Search<'a, 'r> {
    g: &'a Graph,
    seen: Vec<bool>,
    /// Free neighbours of each square.
    free_degree: Vec<u8>,
    /// Squares not on the path.
    left: usize,
    start: u32,
    closed: bool,
    nodes: u64,
    max_nodes: u64,
    /// The node count past which [`Search::passed_stop`] runs: `max_nodes`, or the next report.
    next_stop: u64,
    report: Option<Report<'r>>,
}

/// What the search does at a path's head, by the cuts of the module documentation.
enum Branch {
    /// Every square is on the path: a tour if this is true.
    Complete(bool),
    /// No tour extends the path.
    Dead,
    /// Only this square can come next.
    Only(u32),
    /// Every free neighbour can come next.
    Any,
}

impl<'a> Search<'a, '_> {
    fn new(g: &'a Graph, closure: Closure, max_nodes: u64) -> Self {
        let n = g.len();
        Search {
            g,
            seen: vec![false; n],
            free_degree: (0..n as u32)
                .map(|v| g.neighbours(v).iter().filter(|&&m| m != u32::MAX).count() as u8)
                .collect(),
            left: n,
            start: 0,
            closed: closure.is_closed(),
            nodes: 0,
            max_nodes,
            next_stop: max_nodes,
            report: None,
        }
    }

    /// Directed tours from every square of `roots`.
    fn search_roots(&mut self, roots: Range<u32>) -> Result<u128, CountError> {
        let mut total = 0u128;
        for v in roots {
            self.start = v;
            total += self.descend(v)?;
        }
        Ok(total)
    }

    /// Tours through `v` added to the path: entered, extended, left.
    fn descend(&mut self, v: u32) -> Result<u128, CountError> {
        self.enter(v)?;
        let n = self.extend(v);
        self.leave(v);
        n
    }

    fn enter(&mut self, v: u32) -> Result<(), CountError> {
        self.nodes += 1;
        if self.nodes > self.next_stop {
            self.passed_stop()?;
        }
        self.place(v);
        Ok(())
    }

    /// The limit on nodes, or a report, is due: [`CountError::NodeLimit`], or tell the progress
    /// and set the next stop.
    #[cold]
    fn passed_stop(&mut self) -> Result<(), CountError> {
        if self.nodes > self.max_nodes {
            return Err(CountError::NodeLimit {
                max_nodes: self.max_nodes,
            });
        }
        if let Some(report) = &mut self.report {
            (report.tell)(&ShapedProgress {
                nodes: self.nodes,
                estimated: report.estimated,
                elapsed: report.began.elapsed(),
            });
            // the next multiple of `every`: reports at the same nodes whatever the limit
            let next = (self.nodes / report.every + 1) * report.every;
            self.next_stop = self.max_nodes.min(next);
        }
        Ok(())
    }

    /// `v` on the path (not counted as a node: the estimate's probes place squares too).
    fn place(&mut self, v: u32) {
        self.seen[v as usize] = true;
        self.left = self.left.checked_sub(1).expect("a square left");
        for &m in self.g.neighbours(v) {
            if m != u32::MAX {
                self.free_degree[m as usize] -= 1;
            }
        }
    }

    fn leave(&mut self, v: u32) {
        self.seen[v as usize] = false;
        self.left += 1;
        for &m in self.g.neighbours(v) {
            if m != u32::MAX {
                self.free_degree[m as usize] += 1;
            }
        }
    }

    /// What can follow the path ending at `head`: the search and the estimate's probes both read
    /// it, so that the estimate is of this search's nodes.
    #[inline(always)]
    fn branch(&self, head: u32) -> Branch {
        if self.left == 0 {
            let closes = self.g.len() > 2 && self.g.adjacent(head, self.start);
            return Branch::Complete(!self.closed || closes);
        }
        if self.closed && self.free_degree[self.start as usize] == 0 {
            return Branch::Dead;
        }
        // a free neighbour with no other way in or out must be the next square, and the last
        let mut forced = None;
        for &m in self.g.neighbours(head) {
            if m != u32::MAX && !self.seen[m as usize] && self.free_degree[m as usize] == 0 {
                if self.left > 1 || forced.is_some() {
                    return Branch::Dead;
                }
                forced = Some(m);
            }
        }
        forced.map_or(Branch::Any, Branch::Only)
    }

    /// Tours that extend the path ending at `head`.
    fn extend(&mut self, head: u32) -> Result<u128, CountError> {
        match self.branch(head) {
            Branch::Complete(tour) => Ok(u128::from(tour)),
            Branch::Dead => Ok(0),
            Branch::Only(m) => self.descend(m),
            Branch::Any => {
                let mut total = 0u128;
                for m in *self.g.neighbours(head) {
                    if m != u32::MAX && !self.seen[m as usize] {
                        total += self.descend(m)?;
                    }
                }
                Ok(total)
            }
        }
    }

    /// Knuth's estimate (see [`super::estimate`]) of the nodes of the searches from `roots`: the
    /// mean of [`PROBES`] random walks from roots drawn uniformly (fewer past
    /// [`MAX_PROBED_SQUARES`]), times the roots. The same shape gives the same estimate.
    fn estimate(&mut self, roots: Range<u32>) -> f64 {
        if roots.is_empty() {
            return 0.0;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x6b_74_6f_75_72); // "ktour" in ASCII
        let mut path = Vec::new();
        let (mut sum, mut probes, mut walked) = (0.0, 0u32, 0usize);
        while probes < PROBES && (probes == 0 || walked < MAX_PROBED_SQUARES) {
            self.start = rng.gen_range(roots.clone());
            sum += self.probe(&mut rng, &mut path);
            walked += path.len();
            probes += 1;
        }
        (sum / f64::from(probes) * roots.len() as f64).min(f64::MAX)
    }

    /// One random walk down the search tree from `self.start`: `1 + d1 + d1*d2 + ...`, where
    /// `d1, d2, ...` are the children of the nodes on the way; the path is left empty again.
    fn probe(&mut self, rng: &mut impl Rng, path: &mut Vec<u32>) -> f64 {
        let mut head = self.start;
        path.clear();
        path.push(head);
        self.place(head);
        let (mut nodes, mut width) = (1.0, 1.0);
        let mut next = [0u32; 8];
        while width < f64::MAX {
            let d = match self.branch(head) {
                Branch::Complete(_) | Branch::Dead => 0,
                Branch::Only(m) => {
                    next[0] = m;
                    1
                }
                Branch::Any => {
                    let mut d = 0;
                    for &m in self.g.neighbours(head) {
                        if m != u32::MAX && !self.seen[m as usize] {
                            next[d] = m;
                            d += 1;
                        }
                    }
                    d
                }
            };
            if d == 0 {
                break;
            }
            width *= d as f64;
            nodes += width;
            head = next[rng.gen_range(0..d)];
            path.push(head);
            self.place(head);
        }
        for &v in path.iter().rev() {
            self.leave(v);
        }
        nodes.min(f64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn mask(text: &str) -> Shape {
        Shape::from_mask(text, Leaper::KNIGHT).unwrap()
    }

    /// Every node of the search tree counted by walking it with `branch`, as the probes read it.
    fn tree_nodes(search: &mut Search, head: u32) -> u64 {
        let children: Vec<u32> = match search.branch(head) {
            Branch::Complete(_) | Branch::Dead => Vec::new(),
            Branch::Only(m) => vec![m],
            Branch::Any => search
                .g
                .neighbours(head)
                .iter()
                .copied()
                .filter(|&m| m != u32::MAX && !search.seen[m as usize])
                .collect(),
        };
        let mut nodes = 1;
        for m in children {
            search.place(m);
            nodes += tree_nodes(search, m);
            search.leave(m);
        }
        nodes
    }

    #[test]
    fn the_probes_walk_the_tree_the_search_counts() {
        for (shape, closure) in [
            (mask("....\n.#..\n....\n....\n"), Closure::Open),
            (mask(".....\n.....\n..#..\n.....\n"), Closure::Open),
            (Shape::full(Board::new(3, 4).unwrap()), Closure::Open),
            (Shape::full(Board::new(5, 6).unwrap()), Closure::Closed),
        ] {
            let counted = count_on(&shape, closure, Orientation::Directed, Starts::All, None)
                .unwrap()
                .nodes;
            let g = Graph::new(&shape);
            let mut search = Search::new(&g, closure, u64::MAX);
            let mut walked = 0;
            for v in roots(&g, closure, Starts::All).unwrap() {
                search.start = v;
                search.place(v);
                walked += tree_nodes(&mut search, v);
                search.leave(v);
            }
            assert_eq!(walked, counted, "{shape} {closure}");
            assert_eq!(search.left, g.len(), "every square left again");
        }
    }

    #[test]
    fn estimates_come_near_the_nodes_searched() {
        for (shape, closure) in [
            (mask(".....\n.....\n..#..\n.....\n.....\n"), Closure::Open),
            (
                mask("......\n.#....\n......\n....#.\n......\n"),
                Closure::Open,
            ),
            (Shape::full(Board::new(5, 6).unwrap()), Closure::Closed),
            (
                Shape::full(Board::new(5, 5).unwrap()).with_leaper(Leaper::new(2, 3).unwrap()),
                Closure::Open,
            ),
        ] {
            let counted = count_shaped(
                &shape,
                closure,
                Orientation::Directed,
                Starts::All,
                ShapedOptions::default(),
            )
            .unwrap();
            let (nodes, estimated) = (counted.nodes as f64, counted.estimated_nodes.unwrap());
            assert!(
                (nodes / 2.0..nodes * 2.0).contains(&estimated),
                "{shape} {closure}: {estimated:.3e} estimated, {nodes} searched"
            );
        }
    }

    #[test]
    fn counts_past_their_estimated_limit_are_refused_before_searching() {
        let shape = mask("......\n.#....\n......\n....#.\n......\n");
        let mut told = None;
        let refused = count_shaped(
            &shape,
            Closure::Open,
            Orientation::Directed,
            Starts::All,
            ShapedOptions {
                max_nodes: Some(1000),
                on_estimate: Some(&mut |e| told = Some(e)),
                ..ShapedOptions::default()
            },
        );
        let Err(CountError::ShapedTooManyNodes { estimated, .. }) = refused else {
            panic!("{refused:?}");
        };
        assert_eq!(told, None, "the refusal says the estimate");
        assert!(estimated > 1e6, "{estimated}");
        let message = refused.unwrap_err().to_string();
        assert!(message.contains("5x6 with 2 holes"), "{message}");
        assert!(message.contains("--max-nodes 1000"), "{message}");
    }

    #[test]
    fn long_counts_tell_their_progress_and_count_the_same() {
        let shape = mask("......\n.#....\n......\n....#.\n......\n");
        let plain = count_on(
            &shape,
            Closure::Open,
            Orientation::Directed,
            Starts::All,
            None,
        )
        .unwrap();
        let every = 1 << 18;
        let (mut reports, mut told) = (Vec::new(), None);
        let counted = count_reporting(
            &shape,
            (Closure::Open, Orientation::Directed, Starts::All),
            ShapedOptions {
                max_nodes: Some(2 * plain.nodes),
                on_estimate: Some(&mut |e| told = Some(e)),
                progress: Some(&mut |p| reports.push(p.nodes)),
            },
            every,
        )
        .unwrap();
        assert_eq!(told, counted.estimated_nodes);
        assert_eq!((counted.count, counted.nodes), (plain.count, plain.nodes));
        let want: Vec<u64> = (1..=(plain.nodes - 1) / every)
            .map(|k| k * every + 1)
            .collect();
        assert!(want.len() > 10, "{}", plain.nodes);
        assert_eq!(reports, want);
    }

    #[test]
    fn starts_off_the_shape_and_tiny_shapes() {
        let shape = mask("#..\n...\n");
        let off = count_on(
            &shape,
            Closure::Open,
            Orientation::Directed,
            Starts::From(Square::new(0, 0)),
            None,
        );
        assert!(
            matches!(off, Err(CountError::StartOffShape { .. })),
            "{off:?}"
        );
        let one = mask(".\n");
        for closure in [Closure::Open, Closure::Closed] {
            let c = count_shaped(
                &one,
                closure,
                Orientation::Undirected,
                Starts::All,
                ShapedOptions::default(),
            )
            .unwrap();
            assert_eq!(c.count, u128::from(closure == Closure::Open), "{closure}");
        }
    }
}
