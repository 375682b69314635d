#!/usr/bin/env bash
# Tool overhead benchmark: one compute-heavy MPI example (examples/mpi/ring, 2 ranks) run
# natively, under `valgrind --tool=none` and under `--tool=tareador`; prints the wall times
# (best of REPEAT, default 3) and the ratios. The target: tareador <= 1.2 x none.
#
#   bench/overhead.sh [BUILD_DIR] [ITERATIONS]        default: ./build 3000
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
iterations=${2:-3000}
repeat=${REPEAT:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export HWLOC_COMPONENTS=-x86  # hwloc cannot read CPUID under valgrind: do not try
if command -v mpirun.openmpi >/dev/null && [ -x "$build/examples/mpi/openmpi/ring" ]; then
  mpirun=mpirun.openmpi; program="$build/examples/mpi/openmpi/ring"
else
  mpirun=mpiexec.mpich; program="$build/examples/mpi/mpich/ring"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

best() {
  local b="" s e t
  for _ in $(seq "$repeat"); do
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    e=$(date +%s.%N)
    t=$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  echo "$b"
}

native=$(best "$mpirun" -np 2 "$program" "$iterations")
none=$(best "$mpirun" -np 2 valgrind --tool=none "$program" "$iterations")
tareador=$(best "$mpirun" -np 2 "$build/vg-tool/tareador" --trace-dir="$scratch/set" "$program" "$iterations")
echo "ring, 2 ranks, $iterations iterations ($mpirun), best of $repeat:"
awk -v n="$native" -v o="$none" -v t="$tareador" 'BEGIN {
  printf "  native            %7.2f s\n", n
  printf "  --tool=none       %7.2f s   %5.1f x native\n", o, o / n
  printf "  --tool=tareador   %7.2f s   %5.1f x native   %5.2f x none\n", t, t / n, t / o }'
