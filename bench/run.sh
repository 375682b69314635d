#!/usr/bin/env bash
# Replay benchmark: records per second and peak memory of `replay` on synthetic 64-rank ring
# traces (bench/gen_ring), with and without Paraver output.
#
#   bench/run.sh [BUILD_DIR] [RECORDS...]     default: ./build, 1000000 10000000
#
# Each case runs REPEAT times (default 5); the best wall time counts (the least disturbed run).
# Traces and outputs go to a scratch directory (BENCH_DIR, default: a fresh mktemp -d).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
shift || true
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1000000 10000000); fi
repeat=${REPEAT:-5}
ranks=64
scratch=${BENCH_DIR:-$(mktemp -d)}
export LD_LIBRARY_PATH="$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
replay="$build/replay/.libs/replay"
[ -x "$replay" ] || replay="$build/replay/replay"
config="$top/tests/fixtures/dimemas/cfg_4n_nobus.cfg"

# best wall seconds and peak RSS (KB) over $repeat runs of the command
measure() {
  local best="" rss=0 line wall kb
  for _ in $(seq "$repeat"); do
    /usr/bin/time -o "$scratch/time" -f "%e %M" "$@" >/dev/null 2>&1
    line=$(tail -1 "$scratch/time")
    wall=${line% *}
    kb=${line#* }
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$wall; fi
    [ "$kb" -gt "$rss" ] && rss=$kb
  done
  echo "$best $rss"
}

printf '%-12s %-10s %10s %14s %10s\n' records output "wall s" "records/s" "peak MB"
for n in "${sizes[@]}"; do
  trace="$scratch/ring-$n.dim"
  [ -f "$trace" ] || "$build/bench/gen_ring" "$ranks" "$n" "$trace" >/dev/null
  records=$(( n / (4 * ranks) * 4 * ranks ))
  for output in none paraver; do
    args=(-c "$config" --set nodes=$ranks -q --no-progress "$trace")
    [ "$output" = paraver ] && args+=(--prv "$scratch/out.prv")
    read -r wall rss < <(measure "$replay" "${args[@]}")
    rate=$(awk -v n="$records" -v t="$wall" 'BEGIN{ if (t > 0) printf "%.1fM", n / t / 1e6; else print "inf" }')
    printf '%-12s %-10s %10s %14s %10.1f\n' "$records" "$output" "$wall" "$rate" "$(awk -v k="$rss" 'BEGIN{print k/1024}')"
  done
done
[ -n "${BENCH_DIR:-}" ] || rm -rf "$scratch"
