#!/usr/bin/env python3
"""The leapers' tables, rebuilt from their committed CSVs in seconds.

Reads results/leapers/*/summary.csv and meta.json (written by the sweeps of
experiments/leapers-*.toml) and writes results/leapers/tables.md: for each leaper and rule, pure
Warnsdorff's success over every start, by ranges of n, with the runs the necessary conditions
leave (feasible); the boards where no start succeeded; the largest n with a success.

    python3 scripts/leapers.py

Standard library only. Every Wilson interval in the summaries is recomputed here from its counts
(a second, independent computation) and the script stops if one differs.
"""
import csv
import json
import math
import os
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LEAPERS = os.path.join(ROOT, "results", "leapers")
PARTS = [("camel", "(1,3)"), ("zebra", "(2,3)"), ("giraffe", "(1,4)")]
RANGES = [(5, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, 60), (61, 70), (71, 80), (81, 90), (91, 100)]


def wilson(k, n, z=1.959963984540054):
    """Wilson's 95% score interval for k successes in n trials (Wilson 1927)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def read(part):
    path = os.path.join(LEAPERS, part, "summary.csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        lo, hi = wilson(int(r["successes"]), int(r["runs"]))
        if abs(lo - float(r["success_ci_low"])) > 1e-9 or abs(hi - float(r["success_ci_high"])) > 1e-9:
            sys.exit(f"{part}: {r['rows']}x{r['cols']} {r['rule']}: Wilson interval differs from the CSV's")
    return rows


def meta(part):
    with open(os.path.join(LEAPERS, part, "meta.json")) as f:
        return json.load(f)


def pct(k, n):
    return "-" if n == 0 else f"{100 * k / n:.1f}"


def main():
    out = ["# Leapers: tables", "",
           "Written by `scripts/leapers.py` from `results/leapers/*/summary.csv`; do not edit.",
           "Success % of pure Warnsdorff over every start of every n x n board in the range, among the",
           "feasible runs (those the necessary conditions of `docs/REFERENCE.md`, section 9, do not rule",
           "out); `feasible` is their number. A dash: no feasible run.", ""]
    for part, leap in PARTS:
        rows = read(part)
        if rows is None:
            out += [f"## {part} {leap}", "", "not run", ""]
            continue
        m = meta(part)
        rules = []
        for r in rows:
            if r["rule"] not in rules:
                rules.append(r["rule"])
        by = defaultdict(lambda: [0, 0])  # (rule, range) -> [successes, feasible]
        best = defaultdict(int)
        none = defaultdict(list)  # rule -> n with feasible runs and no success
        feasible_n = set()
        for r in rows:
            n, rule = int(r["rows"]), r["rule"]
            k, f = int(r["successes"]), int(r["feasible_runs"])
            for lo, hi in RANGES:
                if lo <= n <= hi:
                    by[(rule, lo)][0] += k
                    by[(rule, lo)][1] += f
            if f:
                feasible_n.add(n)
                if k:
                    best[rule] = max(best[rule], n)
                else:
                    none[rule].append(n)
        out += [f"## {part} {leap}", "",
                f"Commit `{m.get('git_commit', '?')}`, {sum(int(r['runs']) for r in rows)} runs; "
                f"boards with feasible runs: {len(feasible_n)} of {len({r['rows'] for r in rows})}.", ""]
        head = "| rule | " + " | ".join(f"{lo}-{hi}" for lo, hi in RANGES) + " | largest n with a success | n with none (feasible) |"
        out += [head, "|" + "---|" * (len(RANGES) + 3)]
        for rule in rules:
            cells = [pct(*by[(rule, lo)]) for lo, _ in RANGES]
            missing = none[rule]
            shown = ", ".join(map(str, missing[:12])) + (f" ... ({len(missing)})" if len(missing) > 12 else "")
            out.append(f"| {rule} | " + " | ".join(cells) + f" | {best.get(rule, '-')} | {shown or '-'} |")
        feas = [str(by[(rules[0], lo)][1]) for lo, _ in RANGES]
        out += ["| feasible | " + " | ".join(feas) + " | | |", ""]
    with open(os.path.join(LEAPERS, "tables.md"), "w") as f:
        f.write("\n".join(out))
    print("wrote results/leapers/tables.md")


if __name__ == "__main__":
    main()
