#!/bin/sh
# Runs the leapers' sweeps into results/leapers/: the family experiments/leapers.toml (one sweep a
# leaper, into camel/, zebra/ and giraffe/) and the searches of experiments/leapers-small-search-*.toml,
# each under /usr/bin/time, appending its wall time, CPU time and peak memory to
# results/leapers/costs.csv; then writes results/leapers/tables.md (scripts/leapers.py). Run from the
# repository root after `cargo build --release`. A part already complete is skipped; one interrupted
# is resumed.
#
#   sh scripts/leapers-run.sh [PART ...]    # default: leapers small-search-zebra small-search-giraffe
set -eu
k=${KTOUR:-target/release/ktour}
parts=${*:-leapers small-search-zebra small-search-giraffe}
costs=results/leapers/costs.csv
mkdir -p results/leapers
[ -f "$costs" ] || echo "part,wall_s,user_s,sys_s,max_rss_kb,threads,cpu" > "$costs"
cpu=$(awk -F': ' '/^model name/{n=$2} /^cpu family/{f=$2} /^model\t/{m=$2} END{printf "%s (family %s, model %s)", n, f, m}' /proc/cpuinfo)
threads=$(nproc)
for part in $parts; do
  case $part in
    leapers) spec=experiments/leapers.toml; out=results/leapers; metas="camel zebra giraffe" ;;
    *) spec=experiments/leapers-$part.toml; out=results/leapers/$part; metas=. ;;
  esac
  done_all=yes; begun=no
  for m in $metas; do
    if grep -q '"status": "complete"' "$out/$m/meta.json" 2>/dev/null; then begun=yes; else done_all=no; fi
    [ -f "$out/$m/meta.json" ] && begun=yes
  done
  if [ $done_all = yes ]; then
    echo "$part: complete, skipped"
    continue
  fi
  flag=--force
  [ $begun = yes ] && flag=--resume
  t=$(mktemp)
  /usr/bin/time -f "%e,%U,%S,%M" -o "$t" "$k" sweep "$spec" --out "$out" $flag --no-progress
  echo "$part,$(cat "$t"),$threads,\"$cpu\"" >> "$costs"
  rm -f "$t"
done
python3 scripts/leapers.py
