//! A small constrained Hamiltonian path / cycle search, used to generate the base tours of the
//! divide-and-conquer construction (the "structured" tours of Parberry 1997, generalised) and as the
//! fallback for small boards.
//!
//! The graph is given explicitly (a knight graph, possibly with extra *virtual* edges), together with a
//! set of *required* edges that the path or cycle must contain. The search is a depth-first search with
//! an explicit stack (no recursion) that tries moves in Warnsdorff order (fewest onward moves first,
//! ties by adjacency-list order, i.e. by label order for knight edges), bounded by a node budget.

/// A small undirected graph: adjacency lists plus required edges.
#[derive(Clone, Debug)]
pub struct Graph {
    adj: Vec<Vec<u16>>,
    required: Vec<Vec<u16>>,
}

/// What a search was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A Hamiltonian cycle (returned starting at the given node).
    Cycle,
    /// A Hamiltonian path starting at the given node, ending anywhere.
    Path,
}

/// Why a search returned nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOutcome {
    /// The whole space was explored: no such path or cycle.
    Exhausted,
    /// The node budget ran out first.
    Budget,
}

impl Graph {
    /// A graph with `n` nodes and no edges.
    pub fn new(n: usize) -> Self {
        Graph {
            adj: vec![Vec::new(); n],
            required: vec![Vec::new(); n],
        }
    }

    /// The knight graph of an `rows x cols` board; node `r * cols + c`, neighbours in label order.
    pub fn knight(rows: usize, cols: usize) -> Self {
        let mut g = Graph::new(rows * cols);
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                for (dr, dc) in crate::board::KNIGHT_DELTAS {
                    let (r2, c2) = (r + dr, c + dc);
                    if r2 >= 0 && c2 >= 0 && (r2 as usize) < rows && (c2 as usize) < cols {
                        g.adj[r as usize * cols + c as usize]
                            .push((r2 as usize * cols + c2 as usize) as u16);
                    }
                }
            }
        }
        g
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.adj.len()
    }

    /// Never true in practice; present for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.adj.is_empty()
    }

    /// Whether `a` and `b` are adjacent.
    pub fn has_edge(&self, a: usize, b: usize) -> bool {
        self.adj[a].contains(&(b as u16))
    }

    /// Add the edge `a - b` if absent (a virtual edge when it is not a knight move).
    pub fn add_edge(&mut self, a: usize, b: usize) {
        if !self.has_edge(a, b) {
            self.adj[a].push(b as u16);
            self.adj[b].push(a as u16);
        }
    }

    /// Require the edge `a - b` (adding it if absent). Returns `false` if a node would have more than
    /// two required edges, which no path or cycle can satisfy.
    pub fn require(&mut self, a: usize, b: usize) -> bool {
        self.add_edge(a, b);
        if self.required[a].contains(&(b as u16)) {
            return true;
        }
        self.required[a].push(b as u16);
        self.required[b].push(a as u16);
        self.required[a].len() <= 2 && self.required[b].len() <= 2
    }

    /// Search for a Hamiltonian path or cycle from `start` containing every required edge, trying at
    /// most `budget` nodes. For [`Goal::Path`] a required edge may not be left dangling at the end.
    pub fn search(&self, start: usize, goal: Goal, budget: u64) -> Result<Vec<u16>, SearchOutcome> {
        let n = self.len();
        if self.required.iter().any(|r| r.len() > 2) {
            return Err(SearchOutcome::Exhausted);
        }
        let cycle = goal == Goal::Cycle;
        let mut visited = vec![false; n];
        let mut path: Vec<u16> = Vec::with_capacity(n);
        // For each depth, the candidates still to try (stored in one flat buffer).
        let mut cands: Vec<u16> = Vec::with_capacity(n * 8);
        let mut frames: Vec<(usize, usize)> = Vec::with_capacity(n); // (begin, next) into cands
        let mut nodes = 0u64;
        // Unvisited neighbours of every node, kept up to date on every visit and unvisit.
        let mut deg: Vec<u8> = self.adj.iter().map(|a| a.len() as u8).collect();
        let visit = |v: usize, deg: &mut Vec<u8>, on: bool| self.visit_degrees(v, deg, on);
        visited[start] = true;
        visit(start, &mut deg, true);
        path.push(start as u16);
        if n == 1 {
            return if cycle {
                Err(SearchOutcome::Exhausted)
            } else {
                Ok(path)
            };
        }
        let begin = cands.len();
        self.candidates(start, None, start, &visited, &deg, cycle, n - 1, &mut cands);
        frames.push((begin, begin));
        loop {
            let Some(&mut (begin, ref mut next)) = frames.last_mut() else {
                return Err(SearchOutcome::Exhausted);
            };
            if *next >= cands.len() {
                // Exhausted this depth: backtrack.
                cands.truncate(begin);
                frames.pop();
                let u = path.pop().unwrap() as usize;
                visited[u] = false;
                visit(u, &mut deg, false);
                if frames.is_empty() {
                    return Err(SearchOutcome::Exhausted);
                }
                continue;
            }
            let v = cands[*next] as usize;
            *next += 1;
            nodes += 1;
            if nodes > budget {
                return Err(SearchOutcome::Budget);
            }
            let u = *path.last().unwrap() as usize;
            visited[v] = true;
            visit(v, &mut deg, true);
            path.push(v as u16);
            if path.len() == n {
                if self.completes(&path, cycle) {
                    return Ok(path);
                }
                visited[v] = false;
                visit(v, &mut deg, false);
                path.pop();
                continue;
            }
            let b = cands.len();
            self.candidates(
                v,
                Some(u),
                start,
                &visited,
                &deg,
                cycle,
                n - path.len(),
                &mut cands,
            );
            frames.push((b, b));
        }
    }

    /// Count `v`'s visit (`on`) or unvisit in the unvisited-neighbour degrees of its neighbours.
    fn visit_degrees(&self, v: usize, deg: &mut [u8], on: bool) {
        for &w in &self.adj[v] {
            if on {
                deg[w as usize] -= 1;
            } else {
                deg[w as usize] += 1;
            }
        }
    }

    /// Whether a path through every node is an answer: it closes when a cycle is wanted, and every
    /// required edge at its last node and at its start is one of the path's (or the closing edge).
    fn completes(&self, path: &[u16], cycle: bool) -> bool {
        let (start, v) = (path[0] as usize, *path.last().unwrap() as usize);
        let u = path[path.len() - 2] as usize;
        let closes = !cycle || self.has_edge(v, start);
        let req_ok = self.required[v]
            .iter()
            .all(|&r| r as usize == u || (cycle && r as usize == start));
        let start_ok = !cycle
            || self.required[start]
                .iter()
                .all(|&r| r as usize == v || path.get(1).map(|&p| p as usize) == Some(r as usize));
        let end_ok = cycle || self.required[start].len() <= 1;
        closes && req_ok && start_ok && end_ok
    }

    /// Push onto `out` the moves from `u` (reached from `prev`) allowed by the required edges, in
    /// Warnsdorff order. `left` is the number of unvisited nodes.
    #[allow(clippy::too_many_arguments)]
    fn candidates(
        &self,
        u: usize,
        prev: Option<usize>,
        start: usize,
        visited: &[bool],
        deg: &[u8],
        cycle: bool,
        left: usize,
        out: &mut Vec<u16>,
    ) {
        // The required edges of u not yet used (the one it was entered by is used).
        let mut req_u = self.required[u]
            .iter()
            .map(|&r| r as usize)
            .filter(|&r| Some(r) != prev);
        let (r0, r1) = (req_u.next(), req_u.next());
        let forced: Option<usize> = match (prev, cycle, r0, r1) {
            (_, _, None, _) => None,
            // Entered by a free edge but two required ones remain: u would need degree three.
            (Some(_), _, Some(_), Some(_)) => return,
            (Some(_), _, Some(r), None) => Some(r),
            // The start of a path is an end: it can leave by one required edge, not two.
            (None, false, Some(_), Some(_)) => return,
            // The start of a cycle leaves by its first required edge and returns by the other.
            (None, _, Some(r), _) => Some(r),
        };
        // Pruning: an unvisited neighbour of u with no other way in must be next, and last; a cycle
        // must keep a way back to its start.
        if cycle && left > 1 && deg[start] == 0 {
            return;
        }
        // An unvisited neighbour of u whose other neighbours are all visited can only be entered
        // now, from u, and then never left: fatal unless it is the last square.
        if left > 1
            && self.adj[u]
                .iter()
                .any(|&w| !visited[w as usize] && deg[w as usize] == 0)
        {
            return;
        }
        let mut keyed: [(u8, u16); 16] = [(0, 0); 16];
        let mut k = 0;
        debug_assert!(self.adj[u].len() <= keyed.len());
        for &v in &self.adj[u] {
            let v = v as usize;
            if visited[v] {
                continue;
            }
            if let Some(f) = forced {
                if f != v {
                    continue;
                }
            }
            // Entering v by a non-required edge: its required edges must still be usable.
            let mut ok = true;
            let mut free_req = 0;
            for &r in &self.required[v] {
                let r = r as usize;
                if r == u {
                    continue;
                }
                free_req += 1;
                if visited[r] && !(cycle && r == start && left == 1) {
                    ok = false;
                }
            }
            if !ok || free_req > 1 {
                continue;
            }
            // Warnsdorff key: unvisited neighbours of v.
            keyed[k] = (deg[v], v as u16);
            k += 1;
        }
        // Stable sort by degree keeps adjacency (label) order among ties.
        let slice = &mut keyed[..k];
        slice.sort_by_key(|&(d, _)| d);
        out.extend(slice.iter().map(|&(_, v)| v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adjacent(g: &Graph, p: &[u16], closed: bool) -> bool {
        p.windows(2)
            .all(|w| g.has_edge(w[0] as usize, w[1] as usize))
            && (!closed || g.has_edge(p[0] as usize, p[p.len() - 1] as usize))
    }

    #[test]
    fn finds_a_5x5_open_tour_and_a_6x6_closed_tour() {
        let g = Graph::knight(5, 5);
        let p = g.search(0, Goal::Path, 1_000_000).unwrap();
        assert_eq!(p.len(), 25);
        assert!(adjacent(&g, &p, false));
        let g = Graph::knight(6, 6);
        let p = g.search(0, Goal::Cycle, 1_000_000).unwrap();
        assert_eq!(p.len(), 36);
        assert!(adjacent(&g, &p, true));
    }

    #[test]
    fn exhausts_when_there_is_none() {
        let g = Graph::knight(4, 4);
        assert_eq!(
            g.search(0, Goal::Path, u64::MAX),
            Err(SearchOutcome::Exhausted)
        );
        let g = Graph::knight(3, 4);
        // 3x4 from (1,1) has no open tour (REFERENCE: exists.rs docs).
        assert_eq!(
            g.search(5, Goal::Path, u64::MAX),
            Err(SearchOutcome::Exhausted)
        );
    }

    #[test]
    fn honours_required_edges() {
        let mut g = Graph::knight(6, 6);
        // (1,1)-(3,0) and (1,1)-(0,3).
        assert!(g.require(7, 18));
        assert!(g.require(7, 3));
        let p = g.search(0, Goal::Cycle, 10_000_000).unwrap();
        assert!(adjacent(&g, &p, true));
        let pos = |x: u16| p.iter().position(|&y| y == x).unwrap();
        let near = |a: u16, b: u16| {
            let (i, j) = (pos(a), pos(b));
            i.abs_diff(j) == 1 || i.abs_diff(j) == 35
        };
        assert!(near(7, 18) && near(7, 3));
    }
}
