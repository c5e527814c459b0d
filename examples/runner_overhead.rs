//! Where the sweep runner's time goes on the 8x8 `order:*` slice: the solver alone (`run` per job,
//! and `run_batch` per chunk), the plan's job expansion, and the whole runner on one thread.
//! `cargo run --release --example runner_overhead -- [ORDERINGS]`
use ktour::experiment::{run_sweep, Plan, Spec, SweepOptions, SweepProgress};
use ktour::solve::{Request, RunSummary, Solver};
use std::time::Instant;

fn main() {
    let n: usize = std::env::args().nth(1).map_or(2000, |s| s.parse().unwrap());
    let rules: Vec<String> = ktour::solve::rules::LabelOrder::all()
        .take(n)
        .map(|o| format!("\"order:{o}\""))
        .collect();
    let text = format!(
        "name = \"o\"\nsizes = [8]\nrules = [{}]\nmethods = [\"warnsdorff\"]\n",
        rules.join(", ")
    );
    let spec = Spec::from_toml(&text, "o").unwrap();
    let plan = Plan::new(&spec).unwrap();
    let runs = plan.total_runs() as f64;
    let mut solver = Solver::new();
    for round in 0..3 {
        let t = Instant::now();
        let mut reqs: Vec<Request> = Vec::new();
        for id in 0..plan.total_chunks() {
            for part in plan.parts(&plan.chunk(id)) {
                plan.requests(&part.group, part.from, part.to, &mut reqs);
            }
        }
        let expand = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for r in &reqs {
            std::hint::black_box(solver.run(r).unwrap());
        }
        let run = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut out: Vec<RunSummary> = Vec::new();
        for chunk in reqs.chunks(64) {
            out.clear();
            solver.run_batch(chunk, &mut out).unwrap();
        }
        let batch = t.elapsed().as_secs_f64();
        let tmp = std::env::temp_dir().join("ktour-overhead");
        let opts = SweepOptions {
            out: tmp,
            threads: 1,
            resume: false,
            force: true,
            shard: None,
            progress: SweepProgress::Hidden,
            command: "overhead".into(),
            lane_memory: ktour::solve::DEFAULT_LANE_MEMORY,
            symmetry: true,
            stop: Default::default(),
        };
        let t = Instant::now();
        run_sweep(&spec, &opts).unwrap();
        let sweep = t.elapsed().as_secs_f64();
        let ns = |s: f64| s * 1e9 / runs;
        println!(
            "round {round}: expand {:.0} ns/run, run {:.0} ns/run, run_batch {:.0} ns/run, run_sweep(1 thread) {:.0} ns/run: overhead vs run_batch {:+.1}%",
            ns(expand), ns(run), ns(batch), ns(sweep), 100.0 * (sweep / batch - 1.0)
        );
    }
}
