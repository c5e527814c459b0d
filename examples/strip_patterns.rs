//! Experiment: find join patterns for thin strips (3 or 4 rows): `cargo run --release --example
//! strip_patterns 3`. For each pair of join edges (right `R1 R2`, left `L1 L2`, crossing by knight
//! moves) it lists the widths with a middle block (M), a left cap (l), a right cap (r) and a root path
//! (p). The patterns in `src/construct/bases.rs` (`role_edge`) were chosen from its output.
use ktour::construct::search::{Goal, Graph};
fn adj(a: (i32, i32), b: (i32, i32)) -> bool {
    let (dr, dc) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
}
fn main() {
    let rows: i32 = std::env::args().nth(1).unwrap().parse().unwrap();
    let budget = 200_000;
    // R squares local to A relative to its right edge: (r, k) means col w-1-k; L squares (r, c).
    let mut sq = vec![];
    for r in 0..rows {
        for k in 0..2 {
            sq.push((r, k));
        }
    }
    for &r1 in &sq {
        for &r2 in &sq {
            if r1 >= r2 {
                continue;
            }
            for &l1 in &sq {
                for &l2 in &sq {
                    if l1 == l2 {
                        continue;
                    }
                    // global: A col = -1-k, B col = c
                    let g = |x: (i32, i32)| (x.0, -1 - x.1);
                    if !(adj(g(r1), l1) && adj(g(r2), l2)) {
                        continue;
                    }
                    let mut line = format!("R1={r1:?} R2={r2:?} L1={l1:?} L2={l2:?}:");
                    let mut score = 0;
                    for w in 3..=12i32 {
                        let idx = |p: (i32, i32)| (p.0 * w + p.1) as usize;
                        let ridx = |p: (i32, i32)| (p.0 * w + w - 1 - p.1) as usize;
                        let mut res = String::new();
                        for (name, left, right) in
                            [("M", true, true), ("l", false, true), ("r", true, false)]
                        {
                            let mut gr = Graph::knight(rows as usize, w as usize);
                            let mut ok = true;
                            if right {
                                ok &= gr.require(ridx(r1), ridx(r2));
                            }
                            if left {
                                ok &= gr.require(idx(l1), idx(l2));
                            }
                            let found = ok
                                && gr
                                    .search(
                                        if left { idx(l1) } else { ridx(r1) },
                                        Goal::Cycle,
                                        budget,
                                    )
                                    .is_ok();
                            if found {
                                res.push_str(name);
                                score += 1;
                            }
                        }
                        // open root with right join
                        let mut gr = Graph::knight(rows as usize, w as usize);
                        if gr.require(ridx(r1), ridx(r2))
                            && (0..(rows * w) as usize)
                                .any(|s| gr.search(s, Goal::Path, budget).is_ok())
                        {
                            res.push('p');
                        }
                        line.push_str(&format!(" {w}:{res}"));
                    }
                    let min_score: i32 = std::env::args().nth(2).map_or(6, |a| a.parse().unwrap());
                    if score > min_score {
                        println!("{score} {line}");
                    }
                }
            }
        }
    }
}
