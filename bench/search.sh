#!/usr/bin/env bash
# Decomposition search benchmark: recording the potential tasks of the blocked Cholesky of
# examples/tasks (`tareador --potential-tasks=functions`) against `valgrind --tool=memcheck` and
# the plain task mode (`tareador`, read-after-write), wall time and peak memory; then
# `tareador-search` on the recording: seconds per decomposition tried, and its peak memory.
#
#   bench/search.sh [BUILD_DIR] [TILES] [CORES]      default: ./build 8 4
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
tiles=${2:-8}
cores=${3:-4}
runs=${REPEAT:-3}
program="$build/examples/tasks/cholesky"
[ -x "$program" ] || { echo "bench/search.sh: build first ($program is missing)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fastest NAME COMMAND...: runs COMMAND $runs times; NAME gets "SECONDS PEAK_KB" of the fastest.
fastest() {
  local name=$1 seconds kb
  shift
  for run in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/$name.$run" "$@" >/dev/null 2>&1
  done
  read -r seconds kb < <(sort -n "$work/$name".* | head -1)
  printf -v "$name" '%s %s' "$seconds" "$kb"
}

fastest memcheck valgrind --tool=memcheck "$program" "$tiles"
fastest tasks "$build/vg-tool/tareador" --trace-dir="$work/tasks" --task-report=no "$program" "$tiles"
fastest potential "$build/vg-tool/tareador" --potential-tasks=functions --trace-dir="$work/pot" \
  "$program" "$tiles"
/usr/bin/time -f "%e %M" -o "$work/search.time" "$build/search/tareador-search" -q \
  --cores "$cores" "$work/pot" >"$work/search.out"
nodes=$(grep -c '^node ' "$work/pot/potential.0.txt")
bytes=$(stat -c %s "$work/pot/potential.0.txt")
tried=$(grep -c '^ *[0-9]' "$work/search.out")
echo "cholesky, ${tiles}x${tiles} tiles: $nodes potential tasks, a recording of $bytes bytes (best of $runs):"
read -r m mk <<<"$memcheck"
read -r t tk <<<"$tasks"
read -r p pk <<<"$potential"
read -r s sk <"$work/search.time"
awk -v m="$m" -v mk="$mk" -v t="$t" -v tk="$tk" -v p="$p" -v pk="$pk" 'BEGIN {
  printf "  %-40s %7s  %10s  %8s\n", "", "seconds", "x memcheck", "peak MB"
  printf "  %-40s %7.2f  %10.2f  %8.1f\n", "--tool=memcheck", m, 1, mk / 1024
  printf "  %-40s %7.2f  %10.2f  %8.1f\n", "tareador (task mode, --deps=raw)", t, t / m, tk / 1024
  printf "  %-40s %7.2f  %10.2f  %8.1f\n", "tareador --potential-tasks=functions", p, p / m, pk / 1024 }'
awk -v s="$s" -v sk="$sk" -v n="$tried" -v c="$cores" 'BEGIN {
  printf "  tareador-search --cores %d: %d decompositions in %.2f s (%.3f s each), peak %.1f MB\n",
         c, n, s, s / n, sk / 1024 }'
