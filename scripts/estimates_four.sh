#!/bin/sh
# The four estimates of results/estimates/: open 8x8 and 9x9 (directed, every start), closed 10x10 and
# 12x12 (undirected cycles), each with the default proposal (warnsdorff:2, pruned), seed 1, on 2
# threads under nice, then 9x9 and 12x12 again from seed 2, as a check of the first intervals. Give
# names (8x8-open 12x12-closed-seed2 ...) to run only those. Each output file holds the command, the
# machine, the date, ktour's report and the time and memory of the run. Run from the repository root after `cargo build --release`.
set -eu
only="$*"
out=results/estimates
mkdir -p "$out"
run() {
    name=$1
    shift
    if [ -n "$only" ] && ! echo " $only " | grep -q " $name "; then
        return
    fi
    file="$out/$name.txt"
    {
        echo "command: ktour estimate $*"
        echo "commit: $(git rev-parse --short HEAD)"
        echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(lscpu | grep -E '^CPU family|^Model:' | tr -s ' ' | tr '\n' ' ')"
        echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
        echo
    } >"$file"
    /usr/bin/time -f "time: %e s wall, %U s user, %S s system, %M KiB maximum resident" \
        nice -n 10 target/release/ktour estimate "$@" >>"$file" 2>>"$file"
}
run 8x8-open --rows 8 --cols 8 --samples 4e6 --seed 1 --threads 2
run 9x9-open --rows 9 --cols 9 --samples 3e6 --seed 1 --threads 2
run 10x10-closed --rows 10 --cols 10 --closed --samples 4e6 --seed 1 --threads 2
run 12x12-closed --rows 12 --cols 12 --closed --samples 4e6 --seed 1 --threads 2
run 9x9-open-seed2 --rows 9 --cols 9 --samples 3e6 --seed 2 --threads 2
run 12x12-closed-seed2 --rows 12 --cols 12 --closed --samples 4e6 --seed 2 --threads 2
