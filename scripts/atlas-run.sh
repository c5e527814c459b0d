#!/bin/sh
# Runs the atlas's sweeps (experiments/atlas-*.toml) into results/atlas/PART/, each under
# /usr/bin/time, appending its wall time, CPU time and peak memory to results/atlas/costs.csv; then
# rebuilds the tables and figures (scripts/atlas.py). Run from the repository root after
# `cargo build --release`. A part already complete is skipped; one interrupted is resumed.
#
#   sh scripts/atlas-run.sh [PART ...]    # default: every part, smallest first
set -eu
k=${KTOUR:-target/release/ktour}
parts=${*:-corner edges rectangles closed start-maps every-start sampled repair corner-10000}
costs=results/atlas/costs.csv
mkdir -p results/atlas
[ -f "$costs" ] || echo "part,wall_s,user_s,sys_s,max_rss_kb,threads,cpu" > "$costs"
cpu=$(awk -F': ' '/^model name/{n=$2} /^cpu family/{f=$2} /^model\t/{m=$2} END{printf "%s (family %s, model %s)", n, f, m}' /proc/cpuinfo)
threads=$(nproc)
for part in $parts; do
  out=results/atlas/$part
  if grep -q '"status": "complete"' "$out/meta.json" 2>/dev/null; then
    echo "$part: complete, skipped"
    continue
  fi
  flag=--force
  [ -f "$out/meta.json" ] && flag=--resume
  t=$(mktemp)
  /usr/bin/time -f "%e,%U,%S,%M" -o "$t" "$k" sweep "experiments/atlas-$part.toml" --out "$out" $flag --no-progress
  echo "$part,$(cat "$t"),$threads,\"$cpu\"" >> "$costs"
  rm -f "$t"
done
python3 scripts/atlas.py --figures --ktour "$k"
