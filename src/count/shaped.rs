//! Counting tours on any board (`docs/REFERENCE.md`, section 9): holes and `(a, b)` leapers. A
//! depth-first search over the shape's graph ([`crate::solve::shaped::Graph`]) with the two cuts
//! that hold on every graph: a free neighbour of the head left with no free neighbour can only be
//! the last square, and a closed tour's start must keep a free neighbour to return through. No
//! symmetry reduction (holes break the board's symmetries). Its slow twin is
//! [`super::reference`], which takes any shape too; on whole boards walked by the knight the
//! bitboard engine gives the same numbers (the tests check both).
//!
//! What is counted follows [`super::CountRequest`]: directed open tours from every start (or one);
//! undirected ones are half of those; closed tours are counted from one square, which every cycle
//! passes through.

use super::{CountError, Orientation, Starts};
use crate::board::{Closure, Shape};
use crate::solve::shaped::Graph;

/// What [`count_on`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapedCount {
    /// The number of tours.
    pub count: u128,
    /// Squares entered by the search.
    pub nodes: u64,
}

/// Count the tours of `shape`: `closure`, `orientation` and `starts` as [`super::count`] takes
/// them. Refused past `max_nodes` squares entered (`None`: no limit).
pub fn count_on(
    shape: &Shape,
    closure: Closure,
    orientation: Orientation,
    starts: Starts,
    max_nodes: Option<u64>,
) -> Result<ShapedCount, CountError> {
    let g = Graph::new(shape);
    let n = g.len();
    let vertex = |s| {
        g.vertex(s).ok_or(CountError::StartOffShape {
            board: shape.board(),
            start: s,
        })
    };
    let mut search = Search {
        g: &g,
        seen: vec![false; n],
        free_degree: (0..n as u32)
            .map(|v| g.neighbours(v).iter().filter(|&&m| m != u32::MAX).count() as u8)
            .collect(),
        left: n,
        start: 0,
        closed: closure.is_closed(),
        nodes: 0,
        max_nodes: max_nodes.unwrap_or(u64::MAX),
    };
    let count = match (closure, starts) {
        (Closure::Open, Starts::From(s)) => search.from(vertex(s)?)?,
        (Closure::Open, Starts::All) => {
            let mut total = 0u128;
            for v in 0..n as u32 {
                total += search.from(v)?;
            }
            match orientation {
                // every path of two or more squares is found once from each end
                Orientation::Undirected if n > 1 => total / 2,
                _ => total,
            }
        }
        (Closure::Closed, starts) => {
            let from = match starts {
                Starts::From(s) => vertex(s)?,
                Starts::All => 0,
            };
            let directed = if n < 3 { 0 } else { search.from(from)? };
            match (orientation, starts) {
                (Orientation::Undirected, _) => directed / 2,
                (Orientation::Directed, Starts::From(_)) => directed,
                (Orientation::Directed, Starts::All) => directed * n as u128,
            }
        }
    };
    Ok(ShapedCount {
        count,
        nodes: search.nodes,
    })
}

struct Search<'a> {
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
}

impl Search<'_> {
    /// Directed tours from `v`.
    fn from(&mut self, v: u32) -> Result<u128, CountError> {
        self.start = v;
        self.enter(v)?;
        let n = self.extend(v);
        self.leave(v);
        n
    }

    fn enter(&mut self, v: u32) -> Result<(), CountError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(CountError::NodeLimit {
                max_nodes: self.max_nodes,
            });
        }
        self.seen[v as usize] = true;
        self.left = self.left.checked_sub(1).expect("a square left");
        for &m in self.g.neighbours(v) {
            if m != u32::MAX {
                self.free_degree[m as usize] -= 1;
            }
        }
        Ok(())
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

    /// Tours that extend the path ending at `head`.
    fn extend(&mut self, head: u32) -> Result<u128, CountError> {
        if self.left == 0 {
            let closes = self.g.len() > 2 && self.g.adjacent(head, self.start);
            return Ok(u128::from(!self.closed || closes));
        }
        if self.closed && self.free_degree[self.start as usize] == 0 {
            return Ok(0);
        }
        let nbrs = *self.g.neighbours(head);
        // a free neighbour with no other way in or out must be the next square, and the last
        let stranded = nbrs.iter().filter(|&&m| {
            m != u32::MAX && !self.seen[m as usize] && self.free_degree[m as usize] == 0
        });
        let mut forced = None;
        for &m in stranded {
            if self.left > 1 || forced.is_some() {
                return Ok(0);
            }
            forced = Some(m);
        }
        let mut total = 0u128;
        for m in nbrs {
            if m == u32::MAX || self.seen[m as usize] || forced.is_some_and(|f| f != m) {
                continue;
            }
            self.enter(m)?;
            let n = self.extend(m);
            self.leave(m);
            total += n?;
        }
        Ok(total)
    }
}
