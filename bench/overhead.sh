#!/usr/bin/env bash
# Tool overhead benchmark: one compute-heavy MPI example (examples/mpi/ring, 2 ranks) run
# natively, under `valgrind --tool=none`, under memcheck, under `--tool=tareador` (MPI tracing:
# the target is 1.2 x none) and under `--tool=tareador --overlap=yes` (every load and store
# tracked); prints the wall times (best of REPEAT, default 3), the largest peak memory of a
# rank, and the ratios. Then a short run (the same ring, 4 ranks, SHORT iterations, default 10:
# well under a second natively), where start-up and exit are most of the cost: the median
# user+system CPU seconds of the job under `--tool=none` and under `--tool=tareador`, and their
# ratio (the target: 1.1). With NPB set to the bin/ folder of the NAS Parallel Benchmarks 3.3
# (MPI, class S, 4 ranks: *.S.4, built outside the repository), the same for each of them.
#
#   bench/overhead.sh [BUILD_DIR] [ITERATIONS]        default: ./build 3000
#   NPB=/path/to/NPB3.3-MPI/bin bench/overhead.sh build
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
iterations=${2:-3000}
repeat=${REPEAT:-3}
. "$top/bench/mpi_ring.sh"

# best COMMAND...: "SECONDS PEAK_KB" of the fastest of $repeat runs of `mpirun -np 2 COMMAND`
# (the peak: the larger of the two ranks', measured by /usr/bin/time around each rank).
best() {
  local b="" peak="" s e t
  for _ in $(seq "$repeat"); do
    rm -f "$scratch"/time.*
    s=$(date +%s.%N)
    "$mpirun" -np 2 sh -c '/usr/bin/time -f %M -o "$0/time.$$" "$@"' "$scratch" "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    t=$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then
      b=$t
      peak=$(cat "$scratch"/time.* | sort -n | tail -1)
    fi
  done
  echo "$b $peak"
}

read -r native native_kb < <(best "$program" "$iterations")
read -r none none_kb < <(best valgrind --tool=none "$program" "$iterations")
read -r memcheck memcheck_kb < <(best valgrind --tool=memcheck "$program" "$iterations")
read -r tareador tareador_kb < <(best "$build/vg-tool/tareador" --trace-dir="$scratch/set" "$program" "$iterations")
read -r overlap overlap_kb < <(best "$build/vg-tool/tareador" --trace-dir="$scratch/set" --overlap=yes "$program" "$iterations")
echo "ring, 2 ranks, $iterations iterations ($mpirun), best of $repeat:"
row() {
  awk -v name="$1" -v t="$2" -v kb="$3" -v n="$native" -v o="$none" -v m="$memcheck" 'BEGIN {
    printf "  %-32s %7.2f s  %6.1f x native  %5.2f x none  %5.2f x memcheck  %6.1f MB\n",
      name, t, t / n, t / o, t / m, kb / 1024 }'
}
row native "$native" "$native_kb"
row --tool=none "$none" "$none_kb"
row --tool=memcheck "$memcheck" "$memcheck_kb"
row --tool=tareador "$tareador" "$tareador_kb"
row "--tool=tareador --overlap=yes" "$overlap" "$overlap_kb"

# cpu_median COMMAND...: the median user+system CPU seconds of $repeat runs of `mpirun -np 4
# COMMAND` (the ranks' time: they are the launcher's children).
cpu_median() {
  for _ in $(seq "$repeat"); do
    /usr/bin/time -f "%U %S" -o "$scratch/cpu" "$mpirun" -np 4 "$@" >/dev/null 2>&1
    awk '{ print $1 + $2 }' "$scratch/cpu"
  done | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}
short=${SHORT:-10}
short_none=$(cpu_median valgrind --tool=none "$program" "$short")
short_traced=$(cpu_median "$build/vg-tool/tareador" --trace-dir="$scratch/short" "$program" "$short")
echo "short run: ring, 4 ranks, $short iterations, median CPU seconds of $repeat:"
awk -v o="$short_none" -v t="$short_traced" 'BEGIN {
  printf "  --tool=none %.2f s  --tool=tareador %.2f s  %.2f x none (+%.2f s a rank)\n",
    o, t, t / o, (t - o) / 4 }'
[ -n "${NPB:-}" ] || exit 0
echo "NPB class S, 4 ranks, median CPU seconds of $repeat:"
for benchmark in "$NPB"/*.S.4; do
  none=$(cpu_median valgrind --tool=none "$benchmark")
  traced=$(cpu_median "$build/vg-tool/tareador" --trace-dir="$scratch/npb" "$benchmark")
  awk -v name="$(basename "$benchmark")" -v o="$none" -v t="$traced" 'BEGIN {
    printf "  %-8s --tool=none %.2f s  --tool=tareador %.2f s  %.2f x none (+%.2f s a rank)\n",
      name, o, t, t / o, (t - o) / 4 }'
done
