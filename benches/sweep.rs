//! The experiment runner against calling the solver directly in a loop on the same jobs (its
//! overhead), and with 1 vs 2 worker threads (its scaling). The yardstick is a slice of the 8x8
//! `order:*` sweep: every start, pure Warnsdorff. All variants run in one process, so the ratios hold
//! on a noisy machine.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ktour::experiment::{run_sweep, Plan, Spec, SweepOptions, SweepProgress};
use ktour::solve::Solver;
use std::hint::black_box;

/// The first `orderings` of `order:*`, all 64 starts of 8x8.
fn spec(orderings: usize) -> Spec {
    let rules: Vec<String> = ktour::solve::rules::LabelOrder::all()
        .take(orderings)
        .map(|o| format!("\"order:{o}\""))
        .collect();
    let text = format!(
        "name = \"bench\"\nsizes = [8]\nstarts = \"all\"\nrules = [{}]\nmethods = [\"warnsdorff\"]\n",
        rules.join(", ")
    );
    Spec::from_toml(&text, "bench").unwrap()
}

fn runner(c: &mut Criterion) {
    let spec = spec(2_000);
    let plan = Plan::new(&spec).unwrap();
    let runs = plan.total_runs();
    let tmp = tempfile::tempdir().unwrap();
    let mut g = c.benchmark_group("sweep_8x8_order_slice");
    g.sample_size(10);
    g.throughput(Throughput::Elements(runs));
    g.bench_function("direct_loop", |b| {
        let mut solver = Solver::new();
        b.iter(|| {
            let mut found = 0u64;
            for id in 0..plan.total_chunks() {
                for part in plan.parts(&plan.chunk(id)) {
                    for i in part.from..part.to {
                        let s = solver.run(&plan.job_in(&part.group, i).request).unwrap();
                        found += (s.outcome == ktour::solve::Outcome::Found) as u64;
                    }
                }
            }
            black_box(found)
        })
    });
    for threads in [1usize, 2] {
        g.bench_with_input(
            BenchmarkId::new("run_sweep_threads", threads),
            &threads,
            |b, &t| {
                let opts = SweepOptions {
                    out: tmp.path().join(format!("t{t}")),
                    threads: t,
                    resume: false,
                    force: true,
                    shard: None,
                    progress: SweepProgress::Hidden,
                    command: "bench".into(),
                    lane_memory: ktour::solve::DEFAULT_LANE_MEMORY,
                    symmetry: true,
                    stop: Default::default(),
                };
                b.iter(|| {
                    let r = run_sweep(&spec, &opts).unwrap();
                    assert_eq!(r.runs_done_now, runs);
                    black_box(r.table.len())
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, runner);
criterion_main!(benches);
