#!/usr/bin/env bash
# The main job on an embedded example: replay a 16-rank MPI trace on MareNostrum (as the
# thesis modelled it), ask two "what if" questions of it, and leave a Paraver trace and a JSON
# summary in demo-out/. Installs what is missing and builds first.
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
"$top/scripts/build.sh"

replay="$top/build/replay/replay"
trace="$top/examples/traces/jacobi16.dim"
machine="$top/examples/marenostrum.cfg"
out="$top/demo-out"
mkdir -p "$out"

echo
echo "== jacobi16 (16 ranks, halo exchange + allreduce) on MareNostrum: examples/marenostrum.cfg"
"$replay" --config "$machine" "$trace" --prv "$out/jacobi16.prv" --json "$out/jacobi16.json"

total() { "$replay" --config "$machine" "$@" "$trace" --json - | sed -n 's/.*"total_time_s": \(.*\),/\1/p'; }
base=$(total)
whatif() {
  local t
  t=$(total "${@:2}")
  awk -v name="$1" -v t="$t" -v b="$base" 'BEGIN { printf "  %-40s %9.3f ms  (%+.0f%%)\n", name, t * 1e3, (t / b - 1) * 100 }'
}
echo
echo "== what if"
whatif "MareNostrum as configured"
whatif "a network ten times slower (25 MB/s)" --set bandwidth=25
whatif "one bus for all transfers" --set buses=1
whatif "CPUs twice as fast" --set cpu_ratio=2
whatif "1 ms latency" --set latency=1e-3

echo
echo "Outputs in $out:"
echo "  jacobi16.prv (+ .pcf, .row)  Paraver trace of the simulated run (open it with wxParaver)"
echo "  jacobi16.json                summary: total time and per-rank compute / communication / waiting / idle"
