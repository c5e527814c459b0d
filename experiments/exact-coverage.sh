#!/bin/sh
# How often a sampled sweep's Wilson 95% interval holds the exact probability: the sweep
# `ktour sweep --sizes 7,8 --rules random,pohl+random --starts corner --trials T` run with seeds
# 1..S (default T = 4000, S = 100), each interval (success and closed tour, summary.csv) set against
# the exact value from the corner (results/exact/NxN-RULE.csv, row 0,0). A 95% interval holds the
# true value in about 95% of samples, not in every one: this counts the misses. Writes
# results/exact/coverage.csv (one row per seed, board, rule and figure) and prints the coverage per
# case. Run from the repository root after `cargo build --release`. Findings: results/exact/README.md.
set -eu
k=${KTOUR:-target/release/ktour}
trials=${TRIALS:-4000}
seeds=${SEEDS:-100}
out=results/exact/coverage.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the exact corner values: n, rule, success, closed (decimals of the committed fractions)
for n in 7 8; do
  for rule in random pohl+random; do
    file=results/exact/${n}x${n}-$(echo "$rule" | tr '+' '-').csv
    awk -F, -v n="$n" -v r="$rule" '$1 == 0 && $2 == 0 { print n "," r "," $4 "," $6 }' "$file"
  done
done > "$tmp/exact.csv"
echo "seed,n,rule,figure,rate,ci_low,ci_high,exact,covered" > "$out"
seed=1
while [ "$seed" -le "$seeds" ]; do
  "$k" sweep --sizes 7,8 --rules random,pohl+random --starts corner --trials "$trials" \
    --seed "$seed" --no-progress --out "$tmp/s" > /dev/null
  awk -F, -v seed="$seed" '
    NR == FNR { success[$1 "," $2] = $3; closed[$1 "," $2] = $4; next }
    FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
      key = $col["rows"] "," $col["rule"]
      row(seed, key, "success", $col["success_rate"], $col["success_ci_low"], $col["success_ci_high"], success[key])
      row(seed, key, "closed", $col["closed_rate"], $col["closed_ci_low"], $col["closed_ci_high"], closed[key])
    }
    function row(seed, key, what, rate, lo, hi, p) {
      print seed "," key "," what "," rate "," lo "," hi "," p "," ((lo <= p + 0 && p + 0 <= hi) ? 1 : 0)
    }' "$tmp/exact.csv" "$tmp/s/summary.csv" >> "$out"
  rm -rf "$tmp/s"
  seed=$((seed + 1))
done
# coverage per case
awk -F, 'NR > 1 { key = $2 "x" $2 " " $3 " " $4 " (exact " $8 ")"; n[key]++; c[key] += $9 }
  END { for (key in n) printf "%s: %d of %d intervals hold it\n", key, c[key], n[key] }' "$out" | sort
