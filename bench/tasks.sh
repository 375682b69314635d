#!/usr/bin/env bash
# Task tracing benchmark: the blocked Cholesky of examples/tasks (tile tasks over heap tiles, a
# compute kernel) run natively, under `valgrind --tool=none`, `--tool=memcheck` and
# `--tool=tareador` tracing its tasks (read-after-write, then all three kinds of dependencies);
# prints wall times (best of REPEAT, default 3), peak memory, and the ratios. The target:
# dependency tracking costs at most 1.0 x memcheck.
#
#   bench/tasks.sh [BUILD_DIR] [TILES]        default: ./build 8 (8x8 tiles of 16x16 floats)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
tiles=${2:-8}
repeat=${REPEAT:-3}
program="$build/examples/tasks/cholesky"
[ -x "$program" ] || { echo "bench/tasks.sh: build first ($program is missing)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# best COMMAND...: "SECONDS MAX_RSS_KB" of the fastest of $repeat runs (its peak memory).
best() {
  local b="" peak=0 t rss
  for _ in $(seq "$repeat"); do
    /usr/bin/time -f "%e %M" -o "$scratch/time" "$@" >/dev/null 2>&1
    read -r t rss <"$scratch/time"
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; peak=$rss; fi
  done
  echo "$b $peak"
}

read -r native native_kb < <(best "$program" "$tiles")
read -r none none_kb < <(best valgrind --tool=none "$program" "$tiles")
read -r memcheck memcheck_kb < <(best valgrind --tool=memcheck "$program" "$tiles")
read -r raw raw_kb < <(best "$build/vg-tool/tareador" --trace-dir="$scratch/raw" --task-report=no \
  "$program" "$tiles")
read -r all all_kb < <(best "$build/vg-tool/tareador" --trace-dir="$scratch/all" --task-report=no \
  --deps=raw+war+waw "$program" "$tiles")
instances=$(grep -c '^task ' "$scratch/raw/tasks.0.trc")
echo "cholesky, ${tiles}x${tiles} tiles ($instances task instances), best of $repeat:"
awk -v n="$native" -v o="$none" -v m="$memcheck" -v r="$raw" -v a="$all" \
    -v nk="$native_kb" -v ok="$none_kb" -v mk="$memcheck_kb" -v rk="$raw_kb" -v ak="$all_kb" 'BEGIN {
  printf "  %-34s %7s  %8s  %10s\n", "", "seconds", "x memcheck", "peak MB"
  printf "  %-34s %7.2f  %8s  %10.1f\n", "native", n, "", nk / 1024
  printf "  %-34s %7.2f  %8.2f  %10.1f\n", "--tool=none", o, o / m, ok / 1024
  printf "  %-34s %7.2f  %8.2f  %10.1f\n", "--tool=memcheck", m, 1, mk / 1024
  printf "  %-34s %7.2f  %8.2f  %10.1f\n", "--tool=tareador (--deps=raw)", r, r / m, rk / 1024
  printf "  %-34s %7.2f  %8.2f  %10.1f\n", "--tool=tareador --deps=raw+war+waw", a, a / m, ak / 1024 }'
