#!/usr/bin/env bash
# Run one ktour sweep as a Slurm job array of K shards, then merge them.
#
#   sbatch --array=1-8 scripts/slurm-sweep.sh experiments/roth-first-failure.toml   # the shards
#   sbatch --dependency=afterok:<array job id> --export=MERGE=1,K=8 \
#          scripts/slurm-sweep.sh experiments/roth-first-failure.toml              # the merge
#
# Each array task runs shard $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT into
# results/<name>/shard-<i>-of-<k>/ with all the cores Slurm gave it. Shards are deterministic, so the K
# tasks cover the sweep exactly once; a task that dies can be re-submitted with --resume (it continues
# where it stopped). The merge job combines the shard folders into results/<name>/merged/, exactly as if
# the sweep had run at once (timing columns aside).
#
#SBATCH --job-name=ktour-sweep
#SBATCH --cpus-per-task=16
#SBATCH --time=04:00:00
#SBATCH --output=ktour-%A_%a.log
set -euo pipefail

spec=${1:?usage: slurm-sweep.sh SPEC.toml}
ktour=${KTOUR:-target/release/ktour}
[ -x "$ktour" ] || cargo build --release
name=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$spec" | head -n 1)
base=results/$name

if [ "${MERGE:-0}" = 1 ]; then
  k=${K:?set K to the number of shards}
  dirs=()
  for i in $(seq 1 "$k"); do dirs+=("$base/shard-$i-of-$k"); done
  exec "$ktour" merge "${dirs[@]}" --out "$base/merged"
fi

i=${SLURM_ARRAY_TASK_ID:?run with sbatch --array=1-K}
k=${SLURM_ARRAY_TASK_COUNT:?run with sbatch --array=1-K}
out=$base/shard-$i-of-$k
resume=()
[ -f "$out/meta.json" ] && resume=(--resume)
exec "$ktour" sweep "$spec" --out "$out" --shard "$i/$k" --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --progress-every 300 "${resume[@]}"
