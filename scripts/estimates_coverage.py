#!/usr/bin/env python3
"""Coverage study of `ktour estimate`: on boards whose counts ktour computes exactly, many seeded
estimates per board and proposal; how often the 95% intervals hold the true count, and the relative
width at equal time.

Writes OUT/coverage-runs.csv (one row per estimate) and OUT/coverage.csv (one row per board and
proposal). Run from the repository root after `cargo build --release`; every estimate runs on one
thread under `nice -n 10`, one at a time, so that its seconds measure its CPU time.

    python3 scripts/estimates_coverage.py --seeds 100 --samples 10000 --out results/estimates
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time

KTOUR = os.path.join("target", "release", "ktour")

# (rows, cols, closed): open tours directed from every start, closed tours as undirected cycles,
# as `ktour count` counts them; all counted in seconds by the frontier method.
BOARDS = [
    (5, 5, False), (4, 6, False), (3, 12, False), (5, 6, False), (4, 8, False), (6, 6, False),
    (3, 12, True), (5, 6, True), (6, 6, True), (6, 7, True), (5, 8, True), (6, 8, True),
]

# (proposal, pruned)
PROPOSALS = [("uniform", False), ("uniform", True), ("warnsdorff:1", True), ("warnsdorff:2", True),
             ("warnsdorff:3", True),
             ("warnsdorff:4", True)]


def run(args):
    return subprocess.run(["nice", "-n", "10", KTOUR, *args], check=True, capture_output=True,
                          text=True).stdout


def true_count(rows, cols, closed):
    args = ["count", "--rows", str(rows), "--cols", str(cols), "--method", "frontier"]
    return int(run(args + (["--closed"] if closed else [])).strip().splitlines()[-1])


def estimate(rows, cols, closed, proposal, pruned, seed, samples):
    args = ["estimate", "--rows", str(rows), "--cols", str(cols), "--samples", str(samples),
            "--seed", str(seed), "--threads", "1", "--proposal", proposal, "--format", "json"]
    if closed:
        args.append("--closed")
    if not pruned:
        args.append("--no-prune")
    return json.loads(run(args))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=100)
    p.add_argument("--samples", type=int, default=10000)
    p.add_argument("--out", default="results/estimates")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    runs_path = os.path.join(a.out, "coverage-runs.csv")
    fields = ["rows", "cols", "closed", "truth", "proposal", "pruned", "seed", "samples", "hits",
              "estimate", "low", "high", "rel_half_width", "batch_rel_half_width", "covers",
              "batch_covers", "ess", "top1_share", "seconds"]
    summary = []
    began = time.time()
    with open(runs_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for rows, cols, closed in BOARDS:
            truth = true_count(rows, cols, closed)
            for proposal, pruned in PROPOSALS:
                recs = []
                for seed in range(a.seeds):
                    e = estimate(rows, cols, closed, proposal, pruned, seed, a.samples)
                    s = e["summary"]
                    rel = 1.959963984540054 * s["relative_se"] if s["hits"] else float("nan")
                    brel = s["batch_relative_half_width"]
                    rec = dict(rows=rows, cols=cols, closed=closed, truth=truth, proposal=proposal,
                               pruned=pruned, seed=seed, samples=a.samples, hits=s["hits"],
                               estimate=s["estimate"], low=s["low"], high=s["high"],
                               rel_half_width=rel, batch_rel_half_width=brel,
                               covers=s["low"] <= truth <= s["high"],
                               batch_covers=brel is not None and s["hits"] > 0
                               and abs(truth / s["estimate"] - 1) <= brel,
                               ess=s["ess"], top1_share=s["top1_share"], seconds=e["seconds"])
                    w.writerow(rec)
                    recs.append(rec)
                f.flush()
                summary.append(summarise(rows, cols, closed, truth, proposal, pruned, recs))
                print(f"{rows}x{cols} {'closed' if closed else 'open'} {proposal} "
                      f"pruned={pruned}: cover {summary[-1]['coverage']:.2f} "
                      f"({time.time() - began:.0f} s)", file=sys.stderr)
    with open(os.path.join(a.out, "coverage.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0].keys()))
        w.writeheader()
        w.writerows(summary)
    print(f"done in {time.time() - began:.0f} s", file=sys.stderr)


def summarise(rows, cols, closed, truth, proposal, pruned, recs):
    n = len(recs)
    cover = sum(r["covers"] for r in recs) / n
    bcover = sum(r["batch_covers"] for r in recs) / n
    finite = [r["rel_half_width"] for r in recs if not math.isnan(r["rel_half_width"])]
    secs = statistics.mean(r["seconds"] for r in recs)
    ests = [r["estimate"] for r in recs]
    # the spread of the estimates themselves: what the intervals should match
    true_rel_sd = statistics.pstdev(ests) / truth if truth else float("nan")
    mean_est = statistics.mean(ests)
    return dict(
        rows=rows, cols=cols, closed=closed, truth=truth, proposal=proposal, pruned=pruned,
        seeds=n, samples=recs[0]["samples"],
        coverage=round(cover, 3),
        coverage_se=round(math.sqrt(cover * (1 - cover) / n), 3),
        batch_coverage=round(bcover, 3),
        zero_hit_runs=sum(r["hits"] == 0 for r in recs),
        missed_low=sum(r["high"] < truth for r in recs),
        missed_high=sum(r["low"] > truth for r in recs),
        mean_estimate_over_truth=round(mean_est / truth, 4),
        median_rel_half_width=round(statistics.median(finite), 4) if finite else float("nan"),
        true_rel_sd=round(true_rel_sd, 4),
        mean_seconds=round(secs, 4),
        # the relative half-width of an estimate given one CPU-second, from the spread of the
        # estimates (not their own intervals): 1.96 x sd/truth x sqrt(seconds per estimate)
        rel_half_width_per_cpu_second=round(1.959963984540054 * true_rel_sd * math.sqrt(secs), 5),
        median_top1_share=round(statistics.median(r["top1_share"] for r in recs
                                                  if r["hits"]), 3) if any(r["hits"] for r in recs)
        else float("nan"),
    )


if __name__ == "__main__":
    main()
