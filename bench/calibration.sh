#!/usr/bin/env bash
# How well a calibrated replay predicts native runs: tareador-calibrate measures this machine's
# MIPS rate on examples/mpi/ring (ITERATIONS), then the ring with twice as many iterations is
# traced, replayed on the calibrated machine, and run natively (median of 3, wall time from
# MPI_Init to MPI_Finalize as a trace covers). With as many ranks as cores, and with twice as
# many (the ranks share the cores: the calibration measures CPU time, the replay shares the
# cores again). Prints predicted and native seconds.
#
#   bench/calibration.sh [BUILD_DIR] [ITERATIONS]        default: ./build 1500
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
iterations=${2:-1500}
. "$top/bench/mpi_ring.sh"
calibrate="$build/vg-tool/tareador-calibrate"
timing_lib=$(sed -n "s/.*LD_PRELOAD='\([^']*\)'.*/\1/p" "$calibrate")
cores=$(nproc)

for ranks in "$cores" $((2 * cores)); do
  "$calibrate" -n "$ranks" -m "$mpirun" -o "$scratch/here.toml" "$program" "$iterations" >/dev/null
  "$mpirun" -np "$ranks" "$build/vg-tool/tareador" -q --trace-dir="$scratch/big" "$program" \
    $((2 * iterations)) >/dev/null 2>&1
  predicted=$("$build/replay/replay" --config "$scratch/here.toml" "$scratch/big" --json - |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["traces"][0]["total_time_s"])')
  native=$(for i in 1 2 3; do
    rm -f "$scratch/native$i"
    env LD_PRELOAD="$timing_lib" TAREADOR_TIMING_FILE="$scratch/native$i" \
      "$mpirun" -np "$ranks" "$program" $((2 * iterations)) >/dev/null 2>&1
    sort -n -k2 "$scratch/native$i" | tail -1 | cut -d' ' -f2
  done | sort -n | sed -n 2p)
  awk -v p="$predicted" -v n="$native" -v i=$((2 * iterations)) -v r="$ranks" -v c="$cores" 'BEGIN {
    printf "ring, %d ranks on %d cores, %d iterations: predicted %.3f s, native %.3f s (%+.1f%%)\n",
      r, c, i, p, n, (p / n - 1) * 100 }'
done
