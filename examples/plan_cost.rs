//! How long the serial parts of a sweep take on the 8x8 `order:*` yardstick (plan, summary).
use ktour::experiment::{Plan, Spec};
use std::time::Instant;
fn main() {
    let text = std::fs::read_to_string("experiments/orderings-8x8.toml").unwrap();
    let t = Instant::now();
    let spec = Spec::from_toml(&text, "x").unwrap();
    let parse = t.elapsed();
    let t = Instant::now();
    let plan = Plan::new(&spec).unwrap();
    let p = t.elapsed();
    println!(
        "spec {:?}, plan {:?} ({} groups, {} chunks, {} bytes)",
        parse,
        p,
        plan.total_groups(),
        plan.total_chunks(),
        plan.bytes()
    );
}
