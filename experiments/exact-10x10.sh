#!/bin/sh
# Exact probabilities of pure Warnsdorff under random tie-breaking from every start of 10x10
# (`ktour exact --resume`), in sittings: each start's exact distribution is written to
# results/exact/10x10-RULE-starts/ROW-COL.txt as soon as it is walked, and a run stopped and run
# again reads those and walks the rest. `random`, a symmetric rule, walks one start of each of the
# 15 orbits of the board's symmetries; `gfg` walks all 100. When every start is done the run writes
# 10x10-RULE.json, .csv and .svg as experiments/exact.sh does for smaller boards (pohl+random's
# 10x10 tree is small: exact.sh walks it). Run from the repository root after
# `cargo build --release`; RULES="random" to run one rule. Findings: results/exact/README.md.
set -eu
k=${KTOUR:-target/release/ktour}
out=results/exact
for rule in ${RULES:-random gfg}; do
  name=10x10-$(echo "$rule" | tr '+' '-')
  "$k" exact -n 10 --rule "$rule" --max-nodes 0 --resume "$out/$name-starts" --format json \
    --svg "$out/$name.svg" --csv "$out/$name.csv" > "$out/$name.json.tmp"
  mv "$out/$name.json.tmp" "$out/$name.json"
done
