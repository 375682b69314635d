#!/usr/bin/env bash
# Regression tests of the tool's communication recordings: producer->consumer graphs (--comm) of
# programs whose flows are known, exact and sampled (the sample within its stated error of the
# exact graph), and the thread communication (--thread-comm) of pthread and OpenMP programs
# whose sharing pattern is known; tareador-flows draws both.
#
# Environment (set by `make check`): TAREADOR, FLOWS, VG_TESTS_BUILD, TESTS_DIR.
set -u
: "${TAREADOR:?}" "${FLOWS:?}" "${VG_TESTS_BUILD:?}" "${TESTS_DIR:?}"
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
record "$scratch/lines" commflow --comm=line --sample=no
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

# OpenMP: the same ring, thread 1 (main) the team's thread 0.
export OMP_WAIT_POLICY=passive  # a spinning barrier would be communication too
record "$scratch/omp" ompring --thread-comm=yes
pattern "OpenMP ring" "$scratch/omp" "1-2 2-3 3-4 1-4" 1

echo "# comm.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
