#!/usr/bin/env bash
# Run one ktour sweep past one machine: a Slurm job array of K shards, then a merge job.
#
#   scripts/slurm-sweep.sh --estimate experiments/atlas-every-start.toml 64 32   # --time for each shard
#   array=$(sbatch --parsable --array=1-64 --cpus-per-task=32 --time=0:30:00 \
#          scripts/slurm-sweep.sh experiments/atlas-every-start.toml)            # the shards
#   sbatch --dependency=afterok:${array%%;*} --export=ALL,MERGE=1,K=64 \
#          scripts/slurm-sweep.sh experiments/atlas-every-start.toml              # the merge
#
# Where: submit from the repository's root (the spec, the binary and OUT are relative paths, and the
# jobs start in the folder sbatch was called from), and keep the repository, the binary and OUT on a
# filesystem every node sees (a home or project folder, not a node's /tmp). Build once on the cluster,
# on a node like the ones that run the shards: `cargo build --release` (or set KTOUR to a binary).
# `sbatch --parsable` prints the array's job id (`ID` or `ID;CLUSTER`), which the merge depends on.
#
# Each array task runs shard I of K into OUT/shard-I-of-K/ (OUT: the folder `ktour sweep SPEC
# --print-out` names, results/<name> for a spec file) with the CPUs Slurm gave it
# (SLURM_CPUS_PER_TASK; all of the machine's outside Slurm). Shards are deterministic, so the K tasks
# cover the sweep exactly once. A family spec (`leaper = [...]`, `mask = [...]`) runs its members in
# turn, each shard into OUT/shard-I-of-K/MEMBER/. A task that died or was cancelled is submitted again
# alone, `sbatch --array=I --export=ALL,K=K scripts/slurm-sweep.sh SPEC`: it finds its folder and
# resumes where it stopped (K must then be given: the array's size is 1).
#
# The merge combines the shard folders into OUT/merged/ (a family's member by member, into
# OUT/merged/MEMBER/), exactly as if the sweep had run at once (timing columns aside). With
# `--dependency=afterok` it starts only when every shard finished well; if one failed or was cancelled
# it stays pending (reason DependencyNeverSatisfied): cancel it, resubmit the shard, then submit the
# merge again. With `afterany` it runs whatever happened: it names each shard that has not run or not
# finished, merges the others (the merged meta.json says "incomplete") and exits 1.
#
# --estimate SPEC K [CPUS] prints a `--time` for each shard: the dry run's time bound for shard 1 of K
# on CPUS threads (default 2, the CPUs this script asks for), times four for large boards and slower
# machines, whose steps cost more than the benchmarks' (the atlas measured 1.5-5.5x on a 2-core Xeon),
# and at least ten minutes; a shard that runs out of time resumes when submitted again. The default
# below (one hour) is only for a spec without an estimate: pass the estimate's --time to sbatch.
#
# Environment: KTOUR (default target/release/ktour), OUT, K, PROGRESS_EVERY (seconds between the
# progress lines in the job log, default 300).
#
#SBATCH --job-name=ktour-sweep
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
#SBATCH --output=ktour-%A_%a.log
set -euo pipefail

ktour=${KTOUR:-target/release/ktour}
die() { echo "slurm-sweep: $*" >&2; exit 2; }
[ -x "$ktour" ] || die "no ktour binary at $ktour: run cargo build --release, or set KTOUR"

if [ "${1:-}" = --estimate ]; then
  [ $# -ge 3 ] || die "usage: slurm-sweep.sh --estimate SPEC K [CPUS]"
  spec=$2 k=$3 cpus=${4:-2}
  [ -f "$spec" ] || die "no such spec: $spec"
  # a dry run writes nothing: the folder only says where the output would go
  line=$("$ktour" sweep "$spec" --dry-run --shard "1/$k" --threads "$cpus" --out "${TMPDIR:-/tmp}/ktour-estimate" | grep '^time bound:')
  case $line in
    *none*) die "the spec has a search without a node budget: no time bound; set budget" ;;
  esac
  bound=$(echo "$line" | sed 's/^time bound: \([0-9]*\) s.*/\1/')
  secs=$(( bound * 4 ))
  [ "$secs" -ge 600 ] || secs=600
  printf '%s\n#SBATCH --time=%d:%02d:%02d\n' "$line" $((secs / 3600)) $((secs % 3600 / 60)) $((secs % 60))
  exit 0
fi

[ $# -ge 1 ] || die "usage: sbatch --array=1-K slurm-sweep.sh SPEC.toml, or slurm-sweep.sh --estimate SPEC K [CPUS]"
spec=$1
[ -f "$spec" ] || die "no such spec: $spec"
# ktour reads the spec: its name, or a family's, gives the folder (a spec it refuses stops here)
base=${OUT:-$("$ktour" sweep "$spec" --print-out)} || die "ktour refused $spec (above)"

if [ "${MERGE:-0}" = 1 ]; then
  k=${K:-}
  [ -n "$k" ] || die "set K to the number of shards (--export=ALL,MERGE=1,K=...)"
  dirs=()
  missing=0
  for i in $(seq 1 "$k"); do
    d=$base/shard-$i-of-$k
    # a sweep's folder holds meta.json; a family's holds one folder a member, each with its own
    metas=()
    if [ -f "$d/meta.json" ]; then metas=("$d/meta.json"); else
      for m in "$d"/*/meta.json; do [ -f "$m" ] && metas+=("$m"); done
    fi
    if [ "${#metas[@]}" = 0 ]; then
      echo "slurm-sweep: shard $i of $k has not run ($d): submit it with sbatch --array=$i --export=ALL,K=$k" >&2
      missing=1
      continue
    fi
    for m in "${metas[@]}"; do
      if ! grep -q '"status": "complete"' "$m"; then
        status=$(sed -n 's/.*"status": "\([a-z]*\)".*/\1/p' "$m" | head -n 1)
        echo "slurm-sweep: shard $i of $k is $status ($(dirname "$m")): submit it again with sbatch --array=$i --export=ALL,K=$k (it resumes)" >&2
        missing=1
      fi
    done
    dirs+=("$d")
  done
  [ "${#dirs[@]}" -gt 0 ] || die "no shard of $k has run"
  echo "slurm-sweep: merging ${#dirs[@]} of $k shard folders into $base/merged"
  status=0
  "$ktour" merge "${dirs[@]}" --out "$base/merged" --force || status=$?
  [ "$missing" = 0 ] || status=1
  exit "$status"
fi

i=${SLURM_ARRAY_TASK_ID:-}
k=${K:-${SLURM_ARRAY_TASK_COUNT:-}}
[ -n "$i" ] && [ -n "$k" ] || die "run with sbatch --array=1-K (a task submitted again alone: --export=ALL,K=K)"
out=$base/shard-$i-of-$k
# a folder begun before (a sweep's meta.json, or a family's first member folder) is resumed
resume=()
[ -d "$out" ] && [ -n "$(ls -A "$out")" ] && resume=(--resume)
echo "slurm-sweep: shard $i of $k of $spec into $out on $(hostname) with ${SLURM_CPUS_PER_TASK:-$(nproc)} threads${resume:+ (resuming)}"
exec "$ktour" sweep "$spec" --out "$out" --shard "$i/$k" --threads "${SLURM_CPUS_PER_TASK:-$(nproc)}" \
  --progress-every "${PROGRESS_EVERY:-300}" "${resume[@]}"
