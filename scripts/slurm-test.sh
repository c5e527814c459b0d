#!/usr/bin/env bash
# Test scripts/slurm-sweep.sh under a real Slurm on this one machine, and compare its merged result
# with the same sweep run here at once.
#
#   scripts/slurm-test.sh [KTOUR]        # KTOUR: the binary (default target/release/ktour)
#
# - Installs Debian's slurm-wlm and munge with apt-get when missing (as root, or with sudo); when they
#   cannot be installed or their daemons do not start, the test is SKIPPED with a loud message and
#   exit 0.
# - Starts munged, slurmctld and slurmd as plain processes with a generated key and configuration
#   (one node: this machine's CPUs and memory; proctrack/linuxproc, task/none; ports, state, spool
#   and logs in a temporary folder), and stops exactly those processes, by pid, when it ends.
# - Round 1: a job array of four shards and a merge job with afterok; the merge must equal the
#   single run (summary.csv, runs.csv, deadends.csv; timing columns aside).
# - Round 2: a longer sweep; shard 2 is cancelled with scancel while it runs, the afterok merge then
#   never starts (cancelled here); a merge with afterany names the unfinished shard and exits 1;
#   shard 2 submitted again alone resumes, and a new merge equals the single run.
# - Round 3: a family spec (`leaper = [...]`, two members) with no OUT, so that the script asks ktour
#   for the folder (the spec's name line carries a comment with quotes); shard 2 is cancelled in its
#   first member, resubmitted alone (it resumes), and the merge, member by member, equals the single
#   run of each member.
# - Round 4: scripts/slurm-count.sh, a frontier count (6x6 open) on a job array of four shards over a
#   shared folder and a collect job with afterok, equal to the count of one process; then again with
#   shard 2 cancelled with scancel mid-run and submitted again alone: it resumes, and the collected
#   count still equals the single count. The shards must run at once, so this round's partition lets
#   four one-CPU tasks share the node's CPUs (OverSubscribe=FORCE:4) whatever their number.
# Exit: 0 pass (or skip), 1 fail, 2 usage.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
ktour=${1:-${KTOUR:-$root/target/release/ktour}}
[ -x "$ktour" ] || { echo "slurm-test: no ktour binary at $ktour" >&2; exit 2; }
ktour=$(cd "$(dirname "$ktour")" && pwd)/$(basename "$ktour")
sweep_script=$root/scripts/slurm-sweep.sh
started=$(date +%s)

skip() {
  echo "############################################################" >&2
  echo "## SKIP Slurm test: $*" >&2
  echo "## scripts/slurm-sweep.sh was NOT checked under Slurm." >&2
  echo "############################################################" >&2
  exit 0
}
fail() { echo "slurm-test: FAIL: $*" >&2; exit 1; }
say() { echo "slurm-test: [$(( $(date +%s) - started )) s] $*"; }

# --- the packages -------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo -n)
  say "installing slurm-wlm and munge"
  { "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
      --no-install-recommends slurm-wlm munge; } >/dev/null 2>&1 ||
    skip "slurm-wlm and munge are not installed and apt-get could not install them"
fi

# --- the daemons --------------------------------------------------------------------------------
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/run" "$work/state" "$work/spool" "$work/log" "$work/jobs"
chmod 755 "$work" "$work/run"
head -c 1024 /dev/urandom > "$work/munge.key"
chmod 400 "$work/munge.key"
munged -F -f --socket="$work/run/munge.sock" --key-file="$work/munge.key" --log-file="$work/log/munged.log" \
  --pid-file="$work/run/munged.pid" --seed-file="$work/run/munged.seed" >"$work/log/munged.out" 2>&1 &
pids+=($!)

host=$(hostname -s)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
# ports of their own, so that a Slurm already on this machine is left alone
port=$(( 20000 + RANDOM % 20000 ))
user=$(id -un)
cat > "$work/slurm.conf" <<EOF
ClusterName=ktourtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$work/run/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
KillWait=5
NodeName=$host CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=ktourtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
PartitionName=ktourshare Nodes=$host Default=NO MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
export SLURM_CONF=$work/slurm.conf
for _ in $(seq 50); do [ -S "$work/run/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/run/munge.sock" ] || skip "munged did not start: $(tail -n 3 "$work/log/munged.out")"
slurmctld -D -c -i >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
up=0
for _ in $(seq 100); do
  if [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; then up=1; break; fi
  sleep 0.2
done
[ "$up" = 1 ] || skip "slurmctld and slurmd did not come up: $(tail -n 3 "$work/log/slurmctld.log" "$work/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
say "Slurm $(sinfo -V | awk '{print $2}') up: one node, $(nproc) CPUs, $memory MB"

# --- helpers ------------------------------------------------------------------------------------
submit() { # sbatch ARGS...: the job id
  sbatch --parsable --chdir="$work/jobs" --cpus-per-task=1 \
    --export=ALL,KTOUR="$ktour",OUT="$out",PROGRESS_EVERY=1 "$@" | cut -d';' -f1
}
submit_merge() { # DEPENDENCY LOG: the merge job of the four shards of $spec in $out; its id
  submit --dependency="$1" --export=ALL,KTOUR="$ktour",OUT="$out",MERGE=1,K=4 \
    --output="$work/jobs/$2-%j.log" "$sweep_script" "$spec"
}
wait_jobs() { # JOBID...: until none is pending or running, at most 120 s
  for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$(IFS=,; echo "$*")" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  fail "jobs $* still queued after 120 s: $(squeue)"
}
same() { # DIR DIR: the same summary, runs and dead ends, timing columns aside
  python3 - "$1" "$2" <<'EOF' || fail "the merged result differs from the single run ($1 vs $2)"
import csv, sys
def rows(d, f):
    with open(f"{d}/{f}", newline="") as h:
        r = list(csv.reader(h))
    keep = [i for i, c in enumerate(r[0]) if not c.startswith("elapsed")]
    return [[row[i] for i in keep] for row in r]
for f in ["summary.csv", "runs.csv", "deadends.csv"]:
    a, b = rows(sys.argv[1], f), rows(sys.argv[2], f)
    if a != b:
        sys.exit(f"{f}: {len(a)} and {len(b)} rows, first difference at row "
                 f"{next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))}")
    print(f"slurm-test: {f}: {len(a) - 1} rows identical, timing aside")
EOF
}
status_of() { sed -n 's/.*"status": "\([a-z]*\)".*/\1/p' "$1/meta.json" | head -n 1; }
cancel_when_begun() { # JOURNAL TASK: scancel TASK once JOURNAL has a line past its header (a chunk
  # finished), waiting at most 60 s; fails if it never had one
  for _ in $(seq 1200); do
    [ -f "$1" ] && [ "$(wc -l < "$1")" -gt 1 ] && break
    sleep 0.05
  done
  [ -f "$1" ] || return 1
  scancel "$2"
}

# --- round 1: four shards and a merge -----------------------------------------------------------
spec=$work/small.toml
cat > "$spec" <<'EOF'
name = "slurm-small"
sizes = "5..=24"
starts = "all"
rules = ["first", "roth", "random", "pohl+random"]
methods = ["warnsdorff", "backtrack"]
trials = 2
seed = 7
budget = 5000
record = "runs"
EOF
out=$work/out-small
array=$(submit --array=1-4 --output="$work/jobs/small-%A_%a.log" "$sweep_script" "$spec")
merge=$(submit_merge afterok:"$array" small-merge)
"$ktour" sweep "$spec" --out "$work/single-small" --no-progress >/dev/null 2>&1 || fail "the single run failed"
wait_jobs "$array" "$merge"
[ "$(status_of "$out/merged")" = complete ] || fail "round 1: the merge is not complete: $(cat "$work"/jobs/small-merge-*.log)"
grep -q 'shard 3 of 4' "$work"/jobs/small-"$array"_3.log || fail "round 1: no progress line in the job log"
same "$out/merged" "$work/single-small"
say "round 1 passed: 4 array tasks and an afterok merge equal the single run"

# --- round 2: a shard cancelled mid-run, a merge that names it, the shard resumed -----------------
spec=$work/large.toml
cat > "$spec" <<'EOF'
name = "slurm-large"
sizes = "20..=50"
starts = "all"
rules = ["first", "roth", "random", "pohl+random", "gfg"]
methods = ["warnsdorff"]
trials = 4
seed = 11
record = "runs"
EOF
out=$work/out-large
array=$(submit --array=1-4 --output="$work/jobs/large-%A_%a.log" "$sweep_script" "$spec")
merge=$(submit_merge afterok:"$array" large-merge)
# cancel shard 2 as soon as it has finished a chunk
journal=$out/shard-2-of-4/chunks.csv
cancel_when_begun "$journal" "${array}_2" || fail "round 2: shard 2 never started"
say "round 2: cancelled shard 2 after $(( $(wc -l < "$journal") - 1 )) journal lines"
"$ktour" sweep "$spec" --out "$work/single-large" --no-progress >/dev/null 2>&1 &
single=$!
wait_jobs "$array"
# afterok never holds now: the merge stays pending, and is cancelled like a user would
reason=$(squeue -h -j "$merge" -o %r 2>/dev/null || true)
[ -n "$reason" ] || fail "round 2: the afterok merge ran although shard 2 was cancelled"
scancel "$merge"
[ "$(status_of "$out/shard-2-of-4")" != complete ] || fail "round 2: shard 2 finished before it was cancelled"
partial=$(submit_merge afterany:"$array" large-partial)
wait_jobs "$partial"
grep -q 'shard 2 of 4 is' "$work/jobs/large-partial-$partial.log" ||
  fail "round 2: the merge with a shard unfinished did not name it: $(cat "$work/jobs/large-partial-$partial.log")"
[ "$(status_of "$out/merged")" = incomplete ] || fail "round 2: the partial merge is not marked incomplete"
say "round 2: a merge with shard 2 unfinished names it and is marked incomplete"
again=$(submit --array=2 --export=ALL,KTOUR="$ktour",OUT="$out",K=4,PROGRESS_EVERY=1 \
  --output="$work/jobs/large-again-%A_%a.log" "$sweep_script" "$spec")
merge=$(submit_merge afterok:"$again" large-merge2)
wait_jobs "$again" "$merge"
wait "$single" || fail "the single run failed"
grep -q '(resuming)' "$work"/jobs/large-again-"$again"_2.log || fail "round 2: the resubmitted shard did not resume"
[ "$(status_of "$out/merged")" = complete ] || fail "round 2: the final merge is not complete: $(cat "$work"/jobs/large-merge2-*.log)"
same "$out/merged" "$work/single-large"
say "round 2 passed: the cancelled shard resumed, and the merge equals the single run"
# --- round 3: a family, its folder named by ktour, a shard cancelled and resubmitted ---------------
spec=$work/family.toml
cat > "$spec" <<'EOF'
name = "slurm-family" # the "main" one
sizes = "20..=44"
starts = "all"
leaper = ["zebra", "giraffe"]
rules = ["first", "random", "pohl+random"]
methods = ["warnsdorff"]
trials = 4
seed = 13
record = "runs"
EOF
out=$work/jobs/results/slurm-family
named=$(cd "$work/jobs" && "$ktour" sweep "$spec" --print-out) || fail "round 3: ktour refused the family spec"
[ "$named" = results/slurm-family ] || fail "round 3: ktour names the family's folder $named"
submit_family() { # ARGS...: a job of the family spec without OUT; its id
  sbatch --parsable --chdir="$work/jobs" --cpus-per-task=1 "$@" "$sweep_script" "$spec" | cut -d';' -f1
}
array=$(submit_family --array=1-3 --export=ALL,KTOUR="$ktour",PROGRESS_EVERY=1 \
  --output="$work/jobs/family-%A_%a.log")
journal=$out/shard-2-of-3/zebra/chunks.csv
cancel_when_begun "$journal" "${array}_2" || fail "round 3: shard 2 never started its first member"
say "round 3: cancelled shard 2 in its first member after $(( $(wc -l < "$journal") - 1 )) journal lines"
"$ktour" sweep "$spec" --out "$work/single-family" --no-progress >/dev/null 2>&1 &
single=$!
wait_jobs "$array"
[ "$(status_of "$out/shard-2-of-3/zebra")" != complete ] || fail "round 3: shard 2 finished before it was cancelled"
again=$(submit_family --array=2 --export=ALL,KTOUR="$ktour",K=3,PROGRESS_EVERY=1 \
  --output="$work/jobs/family-again-%A_%a.log")
merge=$(submit_family --dependency=afterok:"$again" --export=ALL,KTOUR="$ktour",MERGE=1,K=3 \
  --output="$work/jobs/family-merge-%j.log")
wait_jobs "$again" "$merge"
wait "$single" || fail "the single run of the family failed"
grep -q '(resuming)' "$work"/jobs/family-again-"$again"_2.log ||
  fail "round 3: the resubmitted shard did not resume: $(cat "$work"/jobs/family-again-"$again"_2.log)"
for member in zebra giraffe; do
  [ "$(status_of "$out/merged/$member")" = complete ] ||
    fail "round 3: member $member's merge is not complete: $(cat "$work"/jobs/family-merge-*.log)"
  same "$out/merged/$member" "$work/single-family/$member"
done
say "round 3 passed: a family's shards, one cancelled and resumed, merge member by member equal to the single run"

# --- round 4: a frontier count on four array tasks over a shared folder, one cancelled -----------
count_script=$root/scripts/slurm-count.sh
board=(--rows 6 --cols 6)
"$ktour" count --method frontier "${board[@]}" >"$work/single-count.out" 2>/dev/null &
single=$!
submit_count() { # SHARED ARGS...: a job of slurm-count.sh over SHARED; its id
  local shared=$1
  shift
  sbatch --parsable --chdir="$work/jobs" --partition=ktourshare --cpus-per-task=1 \
    --export=ALL,KTOUR="$ktour",SHARED="$shared",K=4,WAIT=120 "$@" "$count_script" "${board[@]}" | cut -d';' -f1
}
shared=$work/count-whole
array=$(submit_count "$shared" --array=0-3 --output="$work/jobs/count-%A_%a.log")
collect=$(submit_count "$shared" --dependency=afterok:"$array" --export=ALL,KTOUR="$ktour",SHARED="$shared",K=4,COLLECT=1 \
  --output="$work/jobs/count-collect-%j.log")
wait_jobs "$array" "$collect"
wait "$single" || fail "round 4: the single count failed"
want=$(tail -n 1 "$work/single-count.out")
got=$(tail -n 1 "$work/jobs/count-collect-$collect.log")
[ -n "$want" ] && [ "$got" = "$want" ] ||
  fail "round 4: the collected count '$got' is not the single count '$want': $(tail -n 3 "$work"/jobs/count-*.log)"
say "round 4: 4 array tasks, collected with afterok, count $got tours as one process does"
shared=$work/count-cancelled
array=$(submit_count "$shared" --array=0-3 --output="$work/jobs/count-b-%A_%a.log")
marker=$shared/pass-0/step-12/2.done
for _ in $(seq 1200); do [ -f "$marker" ] && break; sleep 0.05; done
[ -f "$marker" ] || fail "round 4: shard 2 never published square 12: $(cat "$work"/jobs/count-b-*.log)"
scancel "${array}_2"
for _ in $(seq 300); do [ -z "$(squeue -h -j "${array}_2" 2>/dev/null)" ] && break; sleep 0.1; done
[ ! -f "$shared/pass-0/2.result" ] || fail "round 4: shard 2 finished before it was cancelled"
say "round 4: cancelled shard 2 after square $(ls -d "$shared"/pass-0/step-*/2.done | sed 's/.*step-\([0-9]*\).*/\1/' | sort -n | tail -n 1)"
again=$(submit_count "$shared" --array=2 --output="$work/jobs/count-again-%A_%a.log")
wait_jobs "$array" "$again"
grep -q 'resumed pass 0 before square' "$work"/jobs/count-again-"$again"_2.log ||
  fail "round 4: the resubmitted shard did not resume: $(cat "$work"/jobs/count-again-"$again"_2.log)"
got=$(KTOUR="$ktour" SHARED="$shared" K=4 COLLECT=1 "$count_script" "${board[@]}" | tail -n 1) ||
  fail "round 4: collecting after the resumed shard failed"
[ "$got" = "$want" ] || fail "round 4: after the cancelled shard resumed, the count '$got' is not '$want'"
say "round 4 passed: a cancelled shard resubmitted alone resumed, and the collected count equals the single count"
say "PASS"
