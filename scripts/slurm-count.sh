#!/usr/bin/env bash
# Run one frontier count past one machine: a Slurm job array of K shards over a shared folder, each
# `ktour count --method frontier ... --shards K --shard I --shared DIR`, then a collect job.
#
#   array=$(sbatch --parsable --array=0-15 --cpus-per-task=2 --time=12:00:00 \
#          --export=ALL,SHARED=/project/ktour/9x10-closed,K=16 \
#          scripts/slurm-count.sh --rows 9 --cols 10 --closed)              # the shards
#   sbatch --dependency=afterok:${array%%;*} --export=ALL,SHARED=/project/ktour/9x10-closed,K=16,COLLECT=1 \
#          scripts/slurm-count.sh --rows 9 --cols 10 --closed              # the count
#
# The arguments are `ktour count`'s board and options (the same for every task and the collect job;
# --method frontier, --shards, --shard and --shared are added here). Array indexes are the shards,
# 0 to K-1 (`--array=0-15` for K = 16). SHARED must be a folder every node sees (a project folder,
# not a node's /tmp): the shards exchange their states there after every square (docs/cluster.md,
# "A sharded count", says what it holds and how much disk it needs).
#
# The K tasks must run AT THE SAME TIME: after every square each shard waits for all the others. Ask
# for an allocation they fit in at once (K x --cpus-per-task CPUs free, or a reservation); a shard
# whose peers have not started waits WAIT seconds (default 3600), then exits 2 without losing
# anything. A task that died, timed out or was cancelled is submitted again alone,
# `sbatch --array=I --export=ALL,SHARED=...,K=K scripts/slurm-count.sh ARGS`: it resumes from its
# last published square and the others, waiting, go on. The same script under one job of K tasks
# (`sbatch --ntasks=K --cpus-per-task=C --wrap "srun scripts/slurm-count.sh ARGS"`, shard =
# SLURM_PROCID) is co-scheduled by Slurm itself.
#
# The collect job prints the count as `ktour count` does (add --format json for JSON); with
# `afterok` it starts only when every shard finished well; run by hand it names the shards not done.
#
# Environment: KTOUR (default target/release/ktour), SHARED, K (default: the array's size), COLLECT=1
# for the collect job, WAIT (seconds a shard waits for the others at one exchange, default 3600).
#
#SBATCH --job-name=ktour-count
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
#SBATCH --output=ktour-count-%A_%a.log
set -euo pipefail

ktour=${KTOUR:-target/release/ktour}
die() { echo "slurm-count: $*" >&2; exit 2; }
[ -x "$ktour" ] || die "no ktour binary at $ktour: run cargo build --release, or set KTOUR"
[ -n "${SHARED:-}" ] || die "set SHARED, the folder the shards share (--export=ALL,SHARED=DIR)"
k=${K:-${SLURM_ARRAY_TASK_COUNT:-}}
[ -n "$k" ] || die "set K, the number of shards (the array's size when not given)"
wait_s=${WAIT:-3600}

if [ "${COLLECT:-0}" = 1 ]; then
  exec "$ktour" count --method frontier --shards "$k" --shared "$SHARED" --collect "$@"
fi
shard=${SLURM_ARRAY_TASK_ID:-${SLURM_PROCID:-}}
[ -n "$shard" ] || die "no shard: run as a Slurm array task (--array=0-$((k - 1))) or an srun task"
# the CPUs Slurm gave this task (all of the machine's outside Slurm)
if [ -n "${SLURM_CPUS_PER_TASK:-}" ]; then export RAYON_NUM_THREADS=$SLURM_CPUS_PER_TASK; fi
echo "slurm-count: shard $shard of $k on $(hostname -s), ${RAYON_NUM_THREADS:-all} threads, folder $SHARED"
exec "$ktour" count --method frontier --shards "$k" --shard "$shard" --shared "$SHARED" --wait "$wait_s" "$@"
