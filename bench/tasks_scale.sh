#!/usr/bin/env bash
# Tasks at scale: CPU seconds (user + sys) and peak memory of loading and replaying synthetic
# tasks trace sets (bench/gen_tasks: the main task spawns N instances, each with up to three
# dependencies on recent siblings) with the critical-path policy on one 16-core node.
#
#   bench/tasks_scale.sh [BUILD_DIR] [INSTANCES...]   default: ./build, 100000 1000000 2000000
#
# Each size runs REPEAT times (default 3); the least CPU time counts, with its peak memory.
# Sets and outputs go to a scratch directory (BENCH_DIR, default: a fresh mktemp -d).
# The targets (issue 14): 2,000,000 instances in under 10 s and 1 GB.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
shift || true
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(100000 1000000 2000000); fi
repeat=${REPEAT:-3}
scratch=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$scratch"
export LD_LIBRARY_PATH="$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
replay="$build/replay/.libs/replay"
[ -x "$replay" ] || replay="$build/replay/replay"
[ -x "$build/bench/gen_tasks" ] || { echo "bench/tasks_scale.sh: build first" >&2; exit 1; }
machine="$scratch/node16.toml"
printf '%s\n' 'name = "one node of 16 cores"' '[network]' 'bandwidth = 0.0' 'buses = 0' \
  '[[nodes]]' 'count = 1' 'cores = 16' 'cpu_ratio = 1.0' 'latency = 0.0' 'input_links = 0' \
  'output_links = 0' '[mapping]' 'tasks_per_node = 1' >"$machine"

# "CPU_SECONDS PEAK_KB" of the run with the least CPU time of $repeat runs
measure() {
  local best="" peak=0 user sys kb cpu
  for _ in $(seq "$repeat"); do
    /usr/bin/time -o "$scratch/time" -f "%U %S %M" "$@" >/dev/null 2>&1
    read -r user sys kb < <(tail -1 "$scratch/time")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    if [ -z "$best" ] || awk -v a="$cpu" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$cpu
      peak=$kb
    fi
  done
  echo "$best $peak"
}

printf '%12s %12s %10s %10s %12s\n' instances "trace MB" "CPU s" "peak MB" "bytes/inst"
for n in "${sizes[@]}"; do
  set_dir="$scratch/tasks-$n"
  [ -d "$set_dir" ] || "$build/bench/gen_tasks" "$n" "$set_dir" >/dev/null
  trace_mb=$(awk -v b="$(stat -c %s "$set_dir/tasks.0.trc")" 'BEGIN { printf "%.0f", b / 1048576 }')
  read -r cpu kb < <(measure "$replay" -q --no-save --no-progress --config "$machine" \
    --policy=cp "$set_dir")
  printf '%12s %12s %10s %10.0f %12.0f\n' "$n" "$trace_mb" "$cpu" \
    "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$(awk -v k="$kb" -v n="$n" 'BEGIN { print k * 1024 / n }')"
done
[ -n "${BENCH_DIR:-}" ] || rm -rf "$scratch"
