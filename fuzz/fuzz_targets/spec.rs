#![no_main]
//! Any text as an experiment spec, then (for plans of modest size) the plan and the cost estimate of
//! `--dry-run`: never a panic.
use ktour::experiment::{sweep_cost, Plan, Spec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(spec) = Spec::from_toml(text, "fuzz.toml") else {
        return;
    };
    // a valid spec may plan billions of groups: costing them one by one is slow, not wrong
    if spec
        .plan_size()
        .is_some_and(|size| Plan::bytes_for(&size) < 50_000_000 && size.groups < 1_000_000)
    {
        if let Ok(plan) = Plan::new(&spec) {
            // with the symmetry reduction, as a sweep runs by default: its orbit table is costed too
            let _ = sweep_cost(&spec, &plan, &plan.shard(1, 1), 2.0, true);
        }
    }
});
