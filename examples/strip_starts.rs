//! Experiment: which starts of a 4 x w path block with its right join edge begin a path (search).
use ktour::construct::bases::{role_edge, Family, Role};
use ktour::construct::search::{Goal, Graph, SearchOutcome};
fn main() {
    for w in 3..=12u8 {
        let mut g = Graph::knight(4, w as usize);
        let [x, y] = role_edge(Family::Strip4, 4, w, Role::Right);
        let idx = |(r, c): (u8, u8)| r as usize * w as usize + c as usize;
        g.require(idx(x), idx(y));
        let mut line = String::new();
        for r in [0u8, 3] {
            for c in 0..w {
                line.push(match g.search(idx((r, c)), Goal::Path, 20_000_000) {
                    Ok(_) => 'S',
                    Err(SearchOutcome::Exhausted) => '.',
                    Err(SearchOutcome::Budget) => '?',
                });
            }
            line.push(' ');
        }
        println!("4x{w}: {line}");
    }
}
