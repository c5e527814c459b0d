#!/usr/bin/env python3
"""Per board, the attempt of a rule sequence tried in turn (`a|b|c`) that gave a tour, from the
summary of a sweep with one start a board (experiments/squirrel-*-orderings*.toml).

    python3 scripts/in-turn-attempts.py results/NAME/summary.csv > results/NAME/attempts.csv

Writes `rows,cols,attempts,success,visited` (Unix line ends): the board, the attempt that gave a tour
(or the last attempt, with `success` false, where none did) and the squares its last walk visited,
from `attempts_mean`, `successes` and `visited_mean` of the board's one run. On standard error: the
number of boards, the boards on which every attempt failed, and how many boards each attempt
settled. Standard library only; it stops if a board has more than one run.
"""
import csv
import sys
from collections import Counter


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: in-turn-attempts.py SUMMARY.csv > attempts.csv")
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["rows", "cols", "attempts", "success", "visited"])
    by_attempt, failed = Counter(), []
    for r in rows:
        if int(r["runs"]) != 1:
            sys.exit(f"{r['rows']}x{r['cols']}: {r['runs']} runs, not one")
        attempts = int(float(r["attempts_mean"]))
        ok = int(r["successes"]) == 1
        out.writerow([r["rows"], r["cols"], attempts, "true" if ok else "false",
                      int(float(r["visited_mean"]))])
        if ok:
            by_attempt[attempts] += 1
        else:
            failed.append(f"{r['rows']}x{r['cols']}")
    print(f"{len(rows)} boards; every attempt failed on {len(failed)}: {' '.join(failed)}",
          file=sys.stderr)
    print("tours by attempt: " + ", ".join(f"{a}: {k}" for a, k in sorted(by_attempt.items())),
          file=sys.stderr)


if __name__ == "__main__":
    main()
