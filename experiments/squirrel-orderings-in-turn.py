#!/usr/bin/env python3
"""Writes the spec of Squirrel & Cull's orderings tried in turn from the corner of every m x n board,
10 <= m, n < 300 (84,100 boards, listed one by one until specs take a range of boards).

Squirrel & Cull 1996 try fixed orderings in turn until one gives a tour. Their list of 19 orderings
is not in docs/REFERENCE.md; these are the 21 distinct orderings of their switching table (section 5),
in order of first appearance. Findings: results/README.md.

    python3 experiments/squirrel-orderings-in-turn.py > squirrel.toml
    target/release/ktour sweep squirrel.toml --out OUT --no-progress
"""
ORDERINGS = [
    "34261578", "87642135", "51867342", "51342678", "21435678", "51324678", "32481765",
    "54132678", "52431678", "85647123", "15746823", "34625718", "42681357", "86512347",
    "61825437", "71642538", "86753421", "78563421", "15234678", "12453678", "61357284",
]
boards = ",".join(f"[{m},{n}]" for m in range(10, 300) for n in range(10, 300))
print('name = "squirrel-orderings-in-turn"')
print(f"boards = [{boards}]")
print('starts = "corner"')
print('rules = ["' + "|".join("order:" + o for o in ORDERINGS) + '"]')
print('methods = ["warnsdorff"]')
