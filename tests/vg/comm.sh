#!/usr/bin/env bash
# Regression tests of the tool's communication recordings: producer->consumer graphs (--comm) of
# programs whose flows are known, exact and sampled (the sample within its stated error of the
# exact graph), and the thread communication (--thread-comm) of pthread and OpenMP programs
# whose sharing pattern is known; tareador-flows draws both; and the MPI version predicted from
# a sequential stencil (halo volumes, messages, the traced MPI version compared).
#
# Environment (set by `make check`): TAREADOR, FLOWS, COMM, REPLAY, VG_TESTS_BUILD, TESTS_DIR,
# EXAMPLES_DIR.
set -u
: "${TAREADOR:?}" "${FLOWS:?}" "${COMM:?}" "${REPLAY:?}" "${VG_TESTS_BUILD:?}" "${TESTS_DIR:?}"
: "${EXAMPLES_DIR:?}"
. "$TESTS_DIR/vg/common.sh"

# record DIR PROGRAM [TOOL OPTIONS...] [-- PROGRAM ARGS]: PROGRAM under the tool into DIR.
record() {
  local dir=$1 program=$2 options=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do options+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  rm -rf "$dir"
  timeout 300 "$TAREADOR" --trace-dir="$dir" --task-report=no "${options[@]}" \
    "$VG_TESTS_BUILD/$program" "$@" >"$dir.log" 2>&1
}

# edge FILE PRODUCER CONSUMER: "BYTES EVENTS ERROR" of that edge of comm.N.txt (labels as
# written, unquoted), or nothing.
edge() {
  awk -v p="$2" -v c="$3" '
    $1 == "node" { label = substr($0, length($1) + length($2) + 3); gsub(/^"|"$/, "", label);
                   id[label] = $2 }
    $1 == "edge" && $2 == id[p] && $3 == id[c] { print $4, $5, $6 }' "$1"
}

# expect_edge NAME FILE PRODUCER CONSUMER "BYTES EVENTS": the edge is exactly that.
expect_edge() {
  local got
  got=$(edge "$2" "$3" "$4" | cut -d' ' -f1,2)
  if [ "$got" = "$5" ]; then ok "$1: $3 -> $4 is $5"
  else not_ok "$1" "$3 -> $4 is '${got:-no edge}', expected $5"; fi
}

# ---- Producer -> consumer, exactly ---------------------------------------------------------------
# commflow.c: produce writes N = 100000 doubles, transform reads each once, consume reads
# transform's 4 times.
dir="$scratch/exact"
if record "$dir" commflow --comm=function --sample=no; then
  f="$dir/comm.0.txt"
  head -1 "$f" | grep -q '^# tareador comm v1 rank=0 granularity=function sample=off$' &&
    ok "comm.0.txt: the header of an exact graph" || not_ok "comm.0.txt header" "$(head -1 "$f")"
  expect_edge "exact, by function" "$f" produce transform "800000 100000"
  expect_edge "exact, by function" "$f" transform consume "3200000 400000"
  [ -z "$(edge "$f" produce consume)" ] && ok "exact: no flow from produce to consume" ||
    not_ok "exact: produce -> consume" "$(edge "$f" produce consume)"
else
  not_ok "commflow --comm=function --sample=no" "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"
fi

# By source line: the loops' lines.
src="$TESTS_DIR/vg/commflow.c"
line_of() { grep -n "$1" "$src" | head -1 | cut -d: -f1; }
record "$scratch/lines" commflow --comm=line --sample=off
expect_edge "exact, by line" "$scratch/lines/comm.0.txt" "commflow.c:$(line_of 'a\[i\] = i')" \
  "commflow.c:$(line_of 'b\[i\] = 2')" "800000 100000"

# ---- Producer -> consumer, sampled ---------------------------------------------------------------
# The default sample (z = 1.959964, r = 0.05, Fe = 0.001: 1,535,048 loads) holds all of this run's
# 500,000 loads: the estimate is the exact graph.
record "$scratch/default" commflow --comm=function
f="$scratch/default/comm.0.txt"
grep -q '^sample 1535048 ' "$f" && ok "the default reservoir holds 1535048 loads" ||
  not_ok "default reservoir" "$(grep '^sample' "$f")"
expect_edge "a sample of every load" "$f" transform consume "3200000 400000"

# z = 3.29 (99.9%), r = 0.1, Fe = 0.01: 107,160 loads of 500,000. Each edge of at least Fe of
# the loads is within its stated error of the exact one.
record "$scratch/sampled" commflow --comm=function --sample-z=3.29 --sample-error=0.1 \
  --sample-fraction=0.01
f="$scratch/sampled/comm.0.txt"
grep -q '^sample 107160 107160 3.290000 0.100000 0.010000 1$' "$f" &&
  ok "the sample size from z, r and Fe: 107160" || not_ok "sample size" "$(grep '^sample' "$f")"
for pair in "produce transform 800000" "transform consume 3200000"; do
  read -r p c exact <<<"$pair"
  read -r bytes events error <<<"$(edge "$f" "$p" "$c")"
  if awk -v b="${bytes:-0}" -v x="$exact" -v e="${error:-0}" \
      'BEGIN { d = b - x; if (d < 0) d = -d; exit !(e > 0 && d <= e * x) }'; then
    ok "sampled: $p -> $c is $bytes bytes, within its stated error ±$error of $exact"
  else
    not_ok "sampled: $p -> $c" "$bytes bytes ±$error, exact $exact"
  fi
done

# ---- Producer -> consumer by task ----------------------------------------------------------------
# taskdeps.c (tests/vg/tasks.sh): fill writes table (64 ints), square reads it and writes the
# heap block, of which each sum reads half.
record "$scratch/tasktype" taskdeps --comm=task-type --sample=no
expect_edge "by task type" "$scratch/tasktype/comm.0.txt" fill square "256 64"
expect_edge "by task type" "$scratch/tasktype/comm.0.txt" square sum "256 64"
record "$scratch/task" taskdeps --comm=task --sample=no
expect_edge "by task instance" "$scratch/task/comm.0.txt" "square #3" "sum #4" "128 32"
expect_edge "by task instance" "$scratch/task/comm.0.txt" "square #3" "sum #5" "128 32"
expect_edge "by task instance" "$scratch/task/comm.0.txt" "inner #7" "outer #6" "4 1"

# ---- tareador-flows draws the graph and the matrix -----------------------------------------------
if "$FLOWS" --top 5 "$scratch/exact" >"$scratch/flows.out" 2>&1; then
  for file in comm.0.dot comm.0.svg comm.0.csv comm.0.heatmap.svg; do
    [ -s "$scratch/exact/$file" ] && ok "tareador-flows wrote $file" || not_ok "$file" "missing"
  done
  grep -q '^transform,consume,3200000,400000$' "$scratch/exact/comm.0.csv" &&
    ok "the matrix holds transform -> consume" || not_ok "comm.0.csv" "no transform -> consume row"
  grep -q '3200000 *400000 .* exact  transform -> consume' "$scratch/flows.out" &&
    ok "the report lists the heaviest edge first" || not_ok "report" "$(sed -n 5p "$scratch/flows.out")"
else
  not_ok "tareador-flows" "$(head -3 "$scratch/flows.out")"
fi
mkdir -p "$scratch/bad"
printf '# tareador comm v1 rank=0 granularity=function sample=off\nloads 1\nedge 1 2 8 1 0\nend\n' \
  >"$scratch/bad/comm.0.txt"
if "$FLOWS" "$scratch/bad" >"$scratch/bad.out" 2>&1; then
  not_ok "tareador-flows on an edge of undeclared nodes" "accepted"
else
  grep -q 'comm.0.txt:3: node 1 is not declared' "$scratch/bad.out" &&
    ok "tareador-flows: an undeclared node is an error at file:line" ||
    not_ok "undeclared node" "$(cat "$scratch/bad.out")"
fi

# ---- Threads: the sharing patterns of threadpat.c -------------------------------------------------
# Four workers (threads 2..5; 1 is main), K = 10000 reads of the line they share; the barrier
# they meet at (and OpenMP's runtime) are a few dozen events a pair. A pair communicates when
# its events, both ways, reach K; it does not below K / 10.
K=10000
# events DIR A B [COLUMN]: the events (column 4; 5: the true ones) from thread A to thread B.
events() {
  awk -v a="$2" -v b="$3" -v col="${4:-4}" '$1 == "pair" && $2 == a && $3 == b { n = $col }
    END { print n + 0 }' "$1/threadcomm.0.txt"
}
# pattern NAME DIR PAIRS FIRST: the worker pairs (threads FIRST..FIRST+3) that communicate are
# exactly PAIRS ("2-3 3-4 ..."), the others do not.
pattern() {
  local name=$1 dir=$2 pairs=" $3 " first=$4 a b both wrong=""
  for ((a = first; a < first + 4; a++)); do
    for ((b = a + 1; b < first + 4; b++)); do
      both=$(($(events "$dir" $a $b) + $(events "$dir" $b $a)))
      if [[ $pairs == *" $a-$b "* ]]; then
        [ "$both" -ge $K ] || wrong+=" $a-$b:$both(<$K)"
      else
        [ "$both" -lt $((K / 10)) ] || wrong+=" $a-$b:$both(>=K/10)"
      fi
    done
  done
  [ -z "$wrong" ] && ok "$name: the threads that communicate are: ${3:-none}" || not_ok "$name" "$wrong"
}
for spec in "ring:2-3 3-4 4-5 2-5" "all:2-3 2-4 2-5 3-4 3-5 4-5" "master:2-3 2-4 2-5" "none:"; do
  name=${spec%%:*}
  record "$scratch/t-$name" threadpat --thread-comm=yes -- "$name"
  pattern "pthreads, $name" "$scratch/t-$name" "${spec#*:}" 2
done
# The ring is directed: each worker reads the next one's line, all true communication.
d="$scratch/t-ring"
[ "$(events "$d" 3 2 5)" -ge $K ] && [ "$(events "$d" 4 3 5)" -ge $K ] &&
  [ "$(events "$d" 5 4 5)" -ge $K ] && [ "$(events "$d" 2 5 5)" -ge $K ] &&
  ok "ring: K true events from each worker to the one before it" ||
  not_ok "ring direction" "$(grep pair "$d/threadcomm.0.txt" | tr '\n' '|')"

# False sharing only: each worker writes its own 8 bytes of one line. At 64-byte blocks the
# workers communicate, spatially false; at 8-byte blocks they do not.
record "$scratch/t-false" threadpat --thread-comm=yes -- false
total=0 true=0
for a in 2 3 4 5; do for b in 2 3 4 5; do
  total=$((total + $(events "$scratch/t-false" $a $b)))
  true=$((true + $(events "$scratch/t-false" $a $b 5)))
done; done
[ $total -ge $((3 * K)) ] && [ $((100 * true)) -lt $total ] &&
  ok "false sharing: $total events among the workers, $true of them true (under 1%)" ||
  not_ok "false sharing" "$total events, $true true"
record "$scratch/t-false3" threadpat --thread-comm=yes --comm-granularity=3 -- false
pattern "false sharing at 8-byte blocks" "$scratch/t-false3" "" 2
"$FLOWS" -q "$scratch/t-ring" && [ -s "$scratch/t-ring/threadcomm.0.heatmap.svg" ] &&
  grep -q '^thread 3,thread 2,' "$scratch/t-ring/threadcomm.0.csv" &&
  ok "tareador-flows: the thread matrix and its heat map" || not_ok "thread matrix" "not written"

# Memory that dies (a frame, a freed block, an ended thread's stack) is nobody's once another
# thread gets it: the K accesses of the thread that uses it next are no communication.
for spec in "stack 2 1" "heap 2 3" "cached 2 3"; do
  read -r what from to <<<"$spec"
  record "$scratch/dead-$what" deadmem --thread-comm=yes -- "$what"
  got=$(events "$scratch/dead-$what" "$from" "$to")
  if grep -q "^deadmem $what: " "$scratch/dead-$what.log" && [ "$got" -lt $((K / 10)) ]; then
    ok "dead memory ($what): $got events from thread $from to thread $to, not one a use"
  else
    not_ok "dead memory ($what)" "$got events $from -> $to: $(grep pair "$scratch/dead-$what/threadcomm.0.txt" | tr '\n' '|')"
  fi
done

record "$scratch/dead-many" deadmem --thread-comm=yes -- many
grep -q '^deadmem many: 300$' "$scratch/dead-many.log" &&
  grep -q 'tareador: warning: --thread-comm: the accesses of threads past the 255th are not counted' \
    "$scratch/dead-many.log" && grep -q 'past the 255th' "$scratch/dead-many/rank-0.toml" &&
  ok "300 threads: the accesses past the 255th are not counted, and the run and the set say so" ||
  not_ok "300 threads" "$(tail -3 "$scratch/dead-many.log" | tr '\n' ' ')"

# OpenMP: the same ring, thread 1 (main) the team's thread 0.
export OMP_WAIT_POLICY=passive  # a spinning barrier would be communication too
record "$scratch/omp" ompring --thread-comm=yes
pattern "OpenMP ring" "$scratch/omp" "1-2 2-3 3-4 1-4" 1

# ---- The MPI version of a sequential stencil (CommAnalyzer) ----------------------------------------
# per_iteration DIR K [PARTITIONER]: "BYTES MESSAGES" a iteration of the predicted version.
per_iteration() {
  "$FLOWS" --predict "$2" --partitioner "${3:-metis}" "$1" >"$1.predict.$2" 2>&1 &&
    sed -n 's/.*(\([0-9.]*\) a iteration, \([0-9]*\) messages a iteration.*/\1 \2/p' "$1.predict.$2"
}
# 2-D, 16 x 16 points (N = 16), 4 iterations: 2 x 2 blocks exchange about 4N words a iteration
# (METIS's parts are close to blocks), 4 strips exactly 6N in 2 (k - 1) messages.
d="$scratch/stencil2"
record "$d" stencil --comm=task-type --sample=no -- 2 16 4
read -r bytes messages <<<"$(per_iteration "$d" 4)"
awk -v b="${bytes:-0}" 'BEGIN { exit !(b >= 0.9 * 512 && b <= 1.1 * 512) }' &&
  ok "2-D stencil in 4 parts by METIS: $bytes bytes a iteration, about 4N words (512 bytes)" ||
  not_ok "2-D stencil, METIS" "${bytes:-nothing} bytes a iteration: $(head -2 "$d.predict.4")"
[ "$(per_iteration "$d" 4 contiguous)" = "768.0 6" ] &&
  ok "2-D stencil in 4 strips: 6N words (768 bytes) in 6 messages a iteration" ||
  not_ok "2-D stencil, strips" "$(head -1 "$d.predict.4")"
# 1-D, 64 points, 10 iterations: k parts exchange 2 (k - 1) messages of one double.
d="$scratch/stencil1"
record "$d" stencil --comm=task-type --sample=no -- 1 64 10
for k in 2 4 8; do
  for how in metis contiguous; do
    expected="$((16 * (k - 1))).0 $((2 * (k - 1)))"
    [ "$(per_iteration "$d" $k $how)" = "$expected" ] &&
      ok "1-D Jacobi in $k parts ($how): 2(k-1) = $((2 * (k - 1))) messages of 8 bytes a iteration" ||
      not_ok "1-D Jacobi, $k parts, $how" "$(head -1 "$d.predict.$k")"
  done
done
per_iteration "$d" 4 contiguous >/dev/null
"$REPLAY" --validate "$d/predict.4" >"$scratch/validate" 2>&1 &&
  ok "the predicted trace set is valid" || not_ok "predicted set" "$(head -3 "$scratch/validate")"
# The traced MPI version of the same stencil: the same matrix (MSE 0), and about the same time
# on MareNostrum with one rank a node.
mpi=""
command -v mpirun.openmpi >/dev/null && [ -x "$VG_TESTS_BUILD/openmpi/jacobi1d" ] && mpi=openmpi
[ -z "$mpi" ] && command -v mpiexec.mpich >/dev/null && [ -x "$VG_TESTS_BUILD/mpich/jacobi1d" ] && mpi=mpich
if [ -n "$mpi" ]; then
  rm -rf "$scratch/mpi"
  timeout 300 "$(launcher "$mpi")" -np 4 "$TAREADOR" -q --trace-dir="$scratch/mpi" \
    "$VG_TESTS_BUILD/$mpi/jacobi1d" 64 10 >"$scratch/mpi.log" 2>&1
  machine=(--config "$EXAMPLES_DIR/marenostrum.cfg" --set tasks_per_node=1)
  "$REPLAY" -q "${machine[@]}" "$scratch/mpi" --no-save --matrix "$scratch/measured" >/dev/null 2>&1
  mse=$("$COMM" compare "$scratch/measured.traced.csv" "$d/predict.4.csv" 2>&1)
  [[ $mse == "mse bytes 0 "* ]] && ok "prediction vs the traced MPI version ($mpi): $mse" ||
    not_ok "prediction vs MPI matrix" "$mse"
  time_of() { "$REPLAY" -q "${machine[@]}" "$1" --no-save --json - | sed -n 's/.*"total_time_s": \(.*\),/\1/p'; }
  measured=$(time_of "$scratch/mpi") predicted=$(time_of "$d/predict.4")
  awk -v m="${measured:-0}" -v p="${predicted:-0}" 'BEGIN { exit !(m > 0 && p >= 0.9 * m && p <= 1.1 * m) }' &&
    ok "replayed: predicted $predicted s, traced MPI version $measured s (within 10%)" ||
    not_ok "predicted vs traced time" "predicted ${predicted:-?} s, traced ${measured:-?} s"
else
  not_ok "the traced MPI version" "no MPI, or tests/vg/*/jacobi1d not built"
fi

echo "# comm.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
