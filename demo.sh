#!/usr/bin/env bash
# The main job on embedded examples: trace an MPI program under the Valgrind tool with 4 ranks
# and replay its authentic trace on MareNostrum (as the thesis modelled it) and on an ideal
# network; trace a balanced exchange with the overlap study on (its production/consumption
# patterns, a bandwidth sweep of the authentic against the overlapped runs, speculative
# dataflow on rewritten messages, a picture of the timelines); trace the thesis's task example
# and replay its tasks on 1-4 cores; search the task decompositions of a sequential Cholesky
# from one run; record who communicates with whom (flows, threads, a predicted MPI version);
# then ask "what if" questions of a 16-rank trace. Leaves trace sets, Paraver traces, plots and
# JSON summaries in demo-out/. Installs what is missing and builds first.
set -euo pipefail
top=$(cd "$(dirname "$0")" && pwd)
"$top/scripts/build.sh"

replay="$top/build/replay/replay"
trace="$top/examples/traces/jacobi16.dim"
machine="$top/examples/marenostrum.cfg"
out="$top/demo-out"
rm -rf "$out"
mkdir -p "$out"

# ---- 1. Trace a program, replay it ---------------------------------------------------------
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export HWLOC_COMPONENTS=-x86  # hwloc cannot read CPUID under valgrind: do not try
if [ -x "$top/build/examples/mpi/openmpi/imbalance" ]; then
  mpirun=mpirun.openmpi; mpi=openmpi
else
  mpirun=mpiexec.mpich; mpi=mpich
fi
program="$top/build/examples/mpi/$mpi/imbalance"
echo
echo "== $mpirun -np 4 tareador examples/mpi/imbalance 8   (micro-imbalanced: one slow rank per iteration)"
"$mpirun" -np 4 "$top/build/vg-tool/tareador" -q --trace-dir="$out/imbalance" "$program" 8
echo
echo "== its authentic trace on MareNostrum, one rank per node (messages cross Myrinet)"
"$replay" --config "$machine" --set tasks_per_node=1 "$out/imbalance" \
  --prv "$out/imbalance-marenostrum.prv"
echo
echo "== and on an ideal network (no latency, infinite bandwidth): what the imbalance alone costs"
"$replay" --config "$machine" --set tasks_per_node=1 --ideal "$out/imbalance" \
  --prv "$out/imbalance-ideal.prv"

# ---- 2. Overlap: what if messages were chunked and overlapped with computation (thesis ch. 5) ----
echo
echo "== tareador --overlap=yes examples/overlap/ring linear|packed   (balanced exchange, 128 KiB messages in 4 chunks)"
for pattern in linear packed; do
  "$mpirun" -np 4 "$top/build/vg-tool/tareador" -q --overlap=yes --trace-dir="$out/ring-$pattern" \
    "$top/build/examples/overlap/$mpi/ring" "$pattern" 8
done
echo
echo "== the production/consumption patterns of the linear ring (thesis Table 5.1, Fig. 5.11)"
"$top/build/patterns/tareador-patterns" "$out/ring-linear"
for pattern in linear packed; do
  echo
  echo "== $pattern: authentic vs overlap-real, -ideal, -speculative from 10 MB/s to 10 GB/s (thesis Figs. 5.14-5.16)"
  "$replay" --config "$machine" --set tasks_per_node=1 "$out/ring-$pattern" --sweep bandwidth=10:10000:7:log
done
echo
echo "== speculative dataflow (thesis 5.3.1) on the ring revisit (Sweep3D-like: each sweep rewrites the message):"
echo "   the first sweep passes chunks 0-2, which leave ahead, the next rewrites them: mis-speculated, resent"
"$mpirun" -np 4 "$top/build/vg-tool/tareador" -q --overlap=yes --trace-dir="$out/ring-revisit" \
  "$top/build/examples/overlap/$mpi/ring" revisit 8
"$replay" --config "$machine" --set tasks_per_node=1 "$out/ring-revisit" --sweep bandwidth=10:10000:7:log
echo
echo "== the timelines of the linear ring at 32 MB/s (communication about as long as computation)"
"$replay" -q --config "$machine" --set tasks_per_node=1 --set bandwidth=32 "$out/ring-linear"
if [ -x "$top/build/viz/tareador-view" ]; then
  "$top/build/viz/tareador-view" --export "$out/ring-linear.png" "$out/ring-linear" 2>/dev/null
  echo "  picture: $out/ring-linear.png (authentic above overlap-real, -ideal and -speculative)"
fi

# ---- 3. Tasks: the thesis's motivating example (section 6.1.1, Fig. 6.1) ----------------------
echo
echo "== tareador --graph-format=svg examples/tasks/fig61   (3 task types over 19 buffers, 11 iterations)"
"$top/build/vg-tool/tareador" -q --trace-dir="$out/fig61" --graph-format=svg \
  "$top/build/examples/tasks/fig61"
echo
echo "== its 33 tasks on 1 to 4 cores, critical path first (the thesis's Table 6.1: 1.00 1.94 3.00 3.00)"
"$replay" --config "$machine" --kind tasks --policy=cp --cores-sweep=1,2,3,4 "$out/fig61"
"$replay" -q --config "$machine" --kind tasks --policy=cp --set cores=4 "$out/fig61" \
  --prv "$out/fig61-4cores.prv" --chrome "$out/fig61-4cores.json"
echo
echo "== 100,000 synthetic task instances on 16 cores, critical path first (bench/gen_tasks; docs/tasks-at-scale.md)"
"$top/build/bench/gen_tasks" 100000 "$out/tasks-100k" >/dev/null
"$replay" --config "$machine" --policy=cp --set cores=16 "$out/tasks-100k"
echo
echo "== which task to optimise? each type 2, 10, 100 times faster on 1 to 4 cores (thesis Fig. 6.3)"
"$replay" --config "$machine" --policy=cp --critical --cores-sweep=1,2,3,4 "$out/fig61"

echo
echo "== the decomposition written back as OpenMP pragmas: tareador-tasks --emit-source (Jacobi)"
"$top/build/vg-tool/tareador" -q --trace-dir="$out/jacobi" --task-report=no \
  "$top/build/examples/tasks/jacobi"
"$top/build/tasks/tareador-tasks" -q "$out/jacobi" --emit-source -o "$out/jacobi.diff"
sed -n '3,$p' "$out/jacobi.diff"

# ---- 4. Which tasks? The decomposition search, from one run of sequential code (thesis 6.3) ----
make -s -C "$top/build" tests/vg/search/cholesky tests/vg/search/cholesky-annotated
echo
echo "== tareador --potential-tasks=functions tests/vg/search/cholesky   (no annotation: every call a potential task)"
"$top/build/vg-tool/tareador" -q --potential-tasks=functions --trace-dir="$out/search" \
  "$top/build/tests/vg/search/cholesky"
"$top/build/vg-tool/tareador" -q --task-report=no --trace-dir="$out/search-annotated" \
  "$top/build/tests/vg/search/cholesky-annotated"
echo
echo "== tareador-search on 4 cores: from main as one task, break the bottleneck until no task is left (Fig. 6.21),"
echo "   compared with the annotated version's decomposition (one task per tile kernel)"
"$top/build/search/tareador-search" -q --cores 4 --csv "$out/search.csv" --svg "$out/search" \
  --reference "$out/search-annotated" "$out/search"

# ---- 5. Communication: producer->consumer flows, threads sharing cache lines ------------------
echo
echo "== tareador --comm=function tests/vg/commflow   (produce -> transform -> consume, sampled)"
make -s -C "$top/build" tests/vg/commflow tests/vg/threadpat
"$top/build/vg-tool/tareador" -q --trace-dir="$out/commflow" --comm=function \
  "$top/build/tests/vg/commflow"
"$top/build/comm/tareador-flows" --top 4 "$out/commflow"
echo
echo "== tareador --thread-comm=yes tests/vg/threadpat ring   (4 threads, each reads the next one's line)"
"$top/build/vg-tool/tareador" -q --trace-dir="$out/threads" --thread-comm=yes \
  "$top/build/tests/vg/threadpat" ring
"$top/build/comm/tareador-flows" "$out/threads"
echo
echo "== tareador --comm=task-type tests/vg/stencil 2 16 4, then its MPI version on 4 ranks, predicted and replayed"
make -s -C "$top/build" tests/vg/stencil
"$top/build/vg-tool/tareador" -q --task-report=no --trace-dir="$out/stencil" --comm=task-type \
  --sample=no "$top/build/tests/vg/stencil" 2 16 4 >/dev/null
"$top/build/comm/tareador-flows" --predict 4 "$out/stencil"
"$replay" --config "$machine" --set tasks_per_node=1 "$out/stencil/predict.4"

# ---- 6. What if, on a 16-rank trace -----------------------------------------------------------

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
echo "== who talks to whom: bytes per pair of ranks (the ring's halo, the allreduce's binomial tree)"
"$replay" -q --config "$machine" "$trace" --matrix "$out/jacobi16-matrix"
"$top/build/comm/tareador-comm" compare "$out/jacobi16-matrix.csv" "$out/jacobi16-matrix.traced.csv"
echo
echo "== what if"
whatif "MareNostrum as configured"
whatif "a network ten times slower (25 MB/s)" --set bandwidth=25
whatif "one bus for all transfers" --set buses=1
whatif "CPUs twice as fast" --set cpu_ratio=2
whatif "1 ms latency" --set latency=1e-3
whatif "marshalling at 10 ns per cache line" --set marshal_line_cost=1e-8

echo
echo "Outputs in $out:"
echo "  imbalance/                        the trace set the tool wrote (docs/trace-format.md)"
echo "  imbalance-{marenostrum,ideal}.prv  Paraver traces of its two replays (+ .pcf, .row)"
echo "  ring-{linear,packed}/             trace sets with the overlap streams; in ring-linear: patterns.json/.csv,"
echo "                                    patterns-{scatter,distribution}.svg; in both: sweep-bandwidth.csv and"
echo "                                    sweep-bandwidth-{time,speedup,reduction}.svg; ring-linear/replay/*.prv: its"
echo "                                    four replays at 32 MB/s (Paraver)"
echo "  ring-revisit/                     the same with rewritten messages: speculation's mis-speculations (rank-N.toml"
echo "                                    [speculation]) and its sweep-bandwidth-*.svg"
[ -x "$top/build/viz/tareador-view" ] &&
  echo "  ring-linear.png                   the four timelines stacked (tareador-view --export; open the set with tareador-view)"
echo "  fig61/                            trace set with the tasks stream, taskgraph.0.dot/.svg, taskreport.0.txt"
echo "  fig61-4cores.prv                  its tasks on 4 cores: one row per core, dependencies as communications"
echo "  fig61-4cores.json                 the same timeline for Perfetto UI / chrome://tracing"
echo "  fig61/critical.csv, critical-*x.svg  the critical task: speedups of accelerating each type"
echo "  tasks-100k/                       a synthetic tasks set of 100,000 instances (bench/tasks_scale.sh: 2 million)"
echo "  jacobi.diff                       examples/tasks/jacobi.c with its task pragmas (patch -p1 -d examples/tasks)"
echo "  search/potential.0.txt            the recorded call tree of the unannotated Cholesky (its potential tasks)"
echo "  search-annotated/                 the annotated Cholesky traced in the task mode (the reference)"
echo "  search.csv, search.*.svg          every decomposition the search tried, and the four plots of Figs. 6.25-6.28"
echo "  commflow/comm.0.svg, .csv, .heatmap.svg  its producer->consumer graph, matrix and heat map"
echo "  threads/threadcomm.0.heatmap.svg   the ring's thread communication matrix"
echo "  stencil/predict.4.csv, .heatmap.svg, predict.4/  the predicted MPI version: matrix and trace set"
echo "  jacobi16.prv (+ .pcf, .row)        Paraver trace of the 16-rank replay (open with wxParaver)"
echo "  jacobi16.json                      summary: total time, per-rank compute/communication/waiting/idle"
echo "  jacobi16-matrix.csv, .svg          its communication matrix and heat map (docs/comm-matrix.md)"
