#!/usr/bin/env bash
# Replay benchmark: records per second, CPU time and peak memory of `replay` on synthetic
# 64-rank ring traces (bench/gen_ring), with and without Paraver output; with DIMEMAS set, the
# same traces replayed by Dimemas side by side (with -p for its Paraver output), and the ratios.
#
#   bench/run.sh [BUILD_DIR] [RECORDS...]     default: ./build, 1000000 10000000
#   DIMEMAS=/path/to/Dimemas bench/run.sh build 1000000
#
# Dimemas is not part of this project: build it from its public 5.5 release outside the
# repository (github.com/bsc-performance-tools/dimemas: ./bootstrap && ./configure && make,
# then Simulator/Dimemas). Both read bench/ring64.cfg (64 nodes, one task each).
# Each case runs REPEAT times (default 5); the best wall time and the best CPU time count (the
# least disturbed runs). Traces and outputs go to a scratch directory (BENCH_DIR, default: a
# fresh mktemp -d).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
shift || true
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1000000 10000000); fi
repeat=${REPEAT:-5}
ranks=64
scratch=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$scratch"
export LD_LIBRARY_PATH="$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
replay="$build/replay/.libs/replay"
[ -x "$replay" ] || replay="$build/replay/replay"
config="$top/bench/ring64.cfg"
dimemas=${DIMEMAS:-}

# best wall seconds, best CPU seconds (user + system) and peak RSS (KB) over $repeat runs
measure() {
  local best="" cpu_best="" rss=0 wall cpu kb
  for _ in $(seq "$repeat"); do
    /usr/bin/time -o "$scratch/time" -f "%e %U %S %M" "$@" >/dev/null 2>&1
    read -r wall user sys kb < <(tail -1 "$scratch/time")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u + s}')
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$wall; fi
    if [ -z "$cpu_best" ] || awk -v a="$cpu" -v b="$cpu_best" 'BEGIN{exit !(a<b)}'; then cpu_best=$cpu; fi
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  echo "$best $cpu_best $rss"
}

row() {  # program output records wall cpu rss [dimemas wall] [dimemas cpu]
  local rate ratio=""
  rate=$(awk -v n="$3" -v t="$4" 'BEGIN{ if (t > 0) printf "%.1fM", n / t / 1e6; else print "inf" }')
  if [ $# -gt 6 ]; then
    ratio=$(awk -v w="$4" -v c="$5" -v dw="$7" -v dc="$8" \
      'BEGIN{ printf "%s / %s", (w > 0 ? sprintf("%.1fx", dw / w) : "inf"), (c > 0 ? sprintf("%.1fx", dc / c) : "inf") }')
  fi
  printf '%-12s %-8s %-8s %8s %8s %12s %9.1f  %s\n' "$3" "$2" "$1" "$4" "$5" "$rate" \
    "$(awk -v k="$6" 'BEGIN{print k/1024}')" "$ratio"
}

printf '%-12s %-8s %-8s %8s %8s %12s %9s  %s\n' records output program "wall s" "cpu s" \
  "records/s" "peak MB" "Dimemas's time / replay's (wall / cpu)"
for n in "${sizes[@]}"; do
  trace="$scratch/ring-$n.dim"
  [ -f "$trace" ] || "$build/bench/gen_ring" "$ranks" "$n" "$trace" >/dev/null
  records=$(( n / (4 * ranks) * 4 * ranks ))
  for output in none paraver; do
    args=(-c "$config" -q --no-progress "$trace")
    [ "$output" = paraver ] && args+=(--prv "$scratch/out.prv")
    read -r wall cpu rss < <(measure "$replay" "${args[@]}")
    if [ -n "$dimemas" ]; then
      dargs=(--config-file "$config" --dim "$trace")
      [ "$output" = paraver ] && dargs+=(-p "$scratch/dimemas.prv")
      read -r dwall dcpu drss < <(measure "$dimemas" "${dargs[@]}")
      row Dimemas "$output" "$records" "$dwall" "$dcpu" "$drss"
      row replay "$output" "$records" "$wall" "$cpu" "$rss" "$dwall" "$dcpu"
    else
      row replay "$output" "$records" "$wall" "$cpu" "$rss"
    fi
  done
done
[ -n "${BENCH_DIR:-}" ] || rm -rf "$scratch"
