#!/usr/bin/env bash
# Run one ktour sweep past one machine: a Slurm job array of K shards, then a merge job.
#
#   scripts/slurm-sweep.sh --estimate experiments/atlas-every-start.toml 64 32   # --time for each shard
#   sbatch --array=1-64 --cpus-per-task=32 --time=0:30:00 \
#          scripts/slurm-sweep.sh experiments/atlas-every-start.toml              # the shards
#   sbatch --dependency=afterok:<array job id> --export=ALL,MERGE=1,K=64 \
#          scripts/slurm-sweep.sh experiments/atlas-every-start.toml              # the merge
#
# Each array task runs shard I of K into OUT/shard-I-of-K/ (OUT: results/<name> by default) with the
# CPUs Slurm gave it (SLURM_CPUS_PER_TASK; all of the machine's outside Slurm). Shards are
# deterministic, so the K tasks cover the sweep exactly once. A task that died or was cancelled is
# submitted again alone, `sbatch --array=I --export=ALL,K=K scripts/slurm-sweep.sh SPEC`: it finds
# its folder and resumes where it stopped (K must then be given: the array's size is 1).
#
# The merge combines the shard folders into OUT/merged/, exactly as if the sweep had run at once
# (timing columns aside). With `--dependency=afterok` it starts only when every shard finished well;
# if one failed or was cancelled it stays pending (reason DependencyNeverSatisfied): cancel it,
# resubmit the shard, then submit the merge again. With `afterany` it runs whatever happened: it names
# each shard that has not run or not finished, merges the others (the merged meta.json says
# "incomplete") and exits 1.
#
# --estimate SPEC K [CPUS] prints a `--time` for each shard: the dry run's time bound for shard 1 of K
# on CPUS threads (every walk whole, every search to its budget), times four for large boards and
# slower machines, whose steps cost more than the benchmarks' (the atlas measured 1.5-5.5x on a
# 2-core Xeon), and at least ten minutes; a shard that runs out of time resumes when submitted again.
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
  spec=$2 k=$3 cpus=${4:-1}
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
name=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$spec" | head -n 1)
[ -n "$name" ] || die "$spec has no name"
base=${OUT:-results/$name}

if [ "${MERGE:-0}" = 1 ]; then
  k=${K:-}
  [ -n "$k" ] || die "set K to the number of shards (--export=ALL,MERGE=1,K=...)"
  dirs=()
  missing=0
  for i in $(seq 1 "$k"); do
    d=$base/shard-$i-of-$k
    if [ ! -f "$d/meta.json" ]; then
      echo "slurm-sweep: shard $i of $k has not run ($d): submit it with sbatch --array=$i --export=ALL,K=$k" >&2
      missing=1
      continue
    fi
    if ! grep -q '"status": "complete"' "$d/meta.json"; then
      status=$(sed -n 's/.*"status": "\([a-z]*\)".*/\1/p' "$d/meta.json" | head -n 1)
      echo "slurm-sweep: shard $i of $k is $status ($d): submit it again with sbatch --array=$i --export=ALL,K=$k (it resumes)" >&2
      missing=1
    fi
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
resume=()
[ -f "$out/meta.json" ] && resume=(--resume)
echo "slurm-sweep: shard $i of $k of $spec into $out on $(hostname) with ${SLURM_CPUS_PER_TASK:-$(nproc)} threads${resume:+ (resuming)}"
exec "$ktour" sweep "$spec" --out "$out" --shard "$i/$k" --threads "${SLURM_CPUS_PER_TASK:-$(nproc)}" \
  --progress-every "${PROGRESS_EVERY:-300}" "${resume[@]}"
