#!/bin/sh
# Exact probabilities of pure Warnsdorff under random tie-breaking (`ktour exact`), written to
# results/exact/: per board and rule, the whole result (JSON), the per-start table (CSV) and a
# picture of the per-start probabilities (SVG). Run from the repository root after
# `cargo build --release`. Findings: results/exact/README.md.
set -eu
k=${KTOUR:-target/release/ktour}
out=results/exact
mkdir -p "$out"
one() { # board side, rule, extra flags
  n=$1; rule=$2; shift 2
  name=${n}x${n}-$(echo "$rule" | tr '+' '-')
  "$k" exact -n "$n" --rule "$rule" --format json --svg "$out/$name.svg" --csv "$out/$name.csv" "$@" > "$out/$name.json"
}
for rule in random pohl+random gfg; do
  for n in 5 6 7 8; do one "$n" "$rule"; done
done
# larger boards where the tree allows: pohl+random (a small tree) on 9x9 and 10x10, random and gfg
# on 9x9 (all starts; about 5 x 10^9 nodes without merging) and from the corner of 10x10
for n in 9 10; do one "$n" pohl+random; done
for rule in random gfg; do
  one 9 "$rule" --max-nodes 1e11
  "$k" exact -n 10 --start 0,0 --rule "$rule" --max-nodes 1e11 --format json > "$out/10x10-$rule-corner.json"
done
