#!/usr/bin/env bash
# Communication recording benchmark: tests/vg/commflow (one thread, 8 loads and a store per
# element of its loops) run natively, under `valgrind --tool=none`, under memcheck and under the
# tool's recording modes: --comm exact (every load looked up) and sampled (the default
# reservoir of 1,535,048 loads; and 153,700 with --sample-fraction=0.01), at function and
# thread granularity, and --thread-comm. Prints
# the wall time (best of REPEAT, default 3), the ratio to memcheck (the goal: <= 1.0 x; sampling
# well below), the peak memory and the bytes the recording wrote into the trace set.
#
#   bench/comm.sh [BUILD_DIR] [PASSES]        default: ./build 200 (20 M loads)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
passes=${2:-200}
repeat=${REPEAT:-3}
program="$build/tests/vg/commflow"
[ -x "$program" ] || make -C "$build" tests/vg/commflow >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export VALGRIND_LIB="$build/vg-tool/lib"

# best COMMAND...: "SECONDS PEAK_KB" of the fastest of $repeat runs.
best() {
  local b="" peak="" s e t
  for _ in $(seq "$repeat"); do
    s=$(date +%s.%N)
    /usr/bin/time -f %M -o "$scratch/time" "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    t=$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then
      b=$t
      peak=$(cat "$scratch/time")
    fi
  done
  echo "$b $peak"
}

read -r native native_kb < <(best "$program" "$passes")
read -r none none_kb < <(best valgrind --tool=none "$program" "$passes")
read -r memcheck memcheck_kb < <(best valgrind --tool=memcheck "$program" "$passes")
echo "tests/vg/commflow $passes ($((passes * 100000 + 100000)) loads of its own), best of $repeat:"
row() {
  awk -v name="$1" -v t="$2" -v kb="$3" -v out="${4:-}" -v n="$native" -v m="$memcheck" 'BEGIN {
    printf "  %-36s %7.2f s  %6.1f x native  %5.2f x memcheck  %6.1f MB", name, t, t / n, t / m, kb / 1024
    if (out != "") printf "  writes %s bytes", out
    printf "\n" }'
}
row native "$native" "$native_kb"
row --tool=none "$none" "$none_kb"
row --tool=memcheck "$memcheck" "$memcheck_kb"
for mode in "--comm=function --sample=no" "--comm=function" "--comm=function --sample-fraction=0.01" \
    "--comm=thread --sample=no" "--comm=thread" "--thread-comm=yes"; do
  # shellcheck disable=SC2086
  read -r t kb < <(best valgrind --tool=tareador --task-report=no --trace-dir="$scratch/set" $mode \
    "$program" "$passes")
  row "$mode" "$t" "$kb" "$(cat "$scratch"/set/*comm.0.txt | wc -c)"
done
