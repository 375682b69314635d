#!/usr/bin/env bash
# The offline decomposition search (tareador --potential-tasks=functions, then tareador-search)
# on sequential programs of tests/vg/search/: a Jacobi, a blocked transpose, a blocked
# Cholesky and a report that prints beside independent steps. The search must pass through the
# decomposition their annotated versions use (one task per kernel call), with the instances and
# the speedup the annotated run's replay gives; the recording must be well formed, and bad input
# must fail with file:line.
#
# Environment (set by `make check`): TAREADOR, REPLAY, SEARCH (tareador-search), VG_TESTS_BUILD,
# TESTS_DIR, EXAMPLES_DIR.
set -u
: "${TAREADOR:?}" "${REPLAY:?}" "${SEARCH:?}" "${VG_TESTS_BUILD:?}" "${TESTS_DIR:?}" "${EXAMPLES_DIR:?}"
. "$TESTS_DIR/vg/common.sh"

programs="$VG_TESTS_BUILD/search"
machine="$EXAMPLES_DIR/marenostrum.cfg"
cores=4

# speedup SET: the replayed speedup of the set's tasks on $cores cores (critical path first).
speedup() {
  "$REPLAY" --config "$machine" --kind tasks --policy=cp --cores-sweep=1,$cores --csv "$1" \
    2>/dev/null | awk -F, -v c=$cores '$1 == c { print $3 }'
}

# sorted LIST: the words of a ';'- or blank-separated list, sorted, one line.
sorted() { tr '; ' '\n\n' <<<"$1" | sed '/^$/d' | sort | tr '\n' ' '; }

# program NAME TYPES ITERATION: NAME's recording, search and annotated run; the annotated
# decomposition (task types TYPES) must be the search's iteration ITERATION.
program() {
  local name=$1 types=$2 iteration=$3 pot="$scratch/$1-potential" ann="$scratch/$1-annotated"
  rm -rf "$pot" "$ann"
  if ! timeout 300 "$TAREADOR" --potential-tasks=functions --trace-dir="$pot" "$programs/$name" \
      >"$pot.log" 2>&1; then
    not_ok "$name: recording" "$(tail -3 "$pot.log" | tr '\n' ' ')"
    return
  fi
  local file="$pot/potential.0.txt"
  # Well formed: every node returns, the last line is `end`, main is node 1.
  local nodes returns
  nodes=$(grep -c '^node ' "$file")
  returns=$(grep -c '^return ' "$file")
  if [ "$nodes" -gt 1 ] && [ "$nodes" = "$returns" ] && [ "$(tail -1 "$file")" = end ] &&
      grep -q '^function 0 call main ' "$file"; then
    ok "$name: $nodes calls recorded, every one returns"
  else
    not_ok "$name: recording" "nodes $nodes, returns $returns, last line '$(tail -1 "$file")'"
  fi
  timeout 300 "$TAREADOR" --task-report=no --trace-dir="$ann" "$programs/$name-annotated" \
    >"$ann.log" 2>&1 || { not_ok "$name: annotated run" "$(tail -3 "$ann.log")"; return; }
  if ! "$SEARCH" --cores $cores --csv "$scratch/$name.csv" --svg "$scratch/$name" -q \
      --reference "$ann" "$pot" >"$scratch/$name.out" 2>&1; then
    not_ok "$name: search" "$(tail -3 "$scratch/$name.out" | tr '\n' ' ')"
    return
  fi
  local want_instances want_speedup found
  want_instances=$(grep -c '^task ' "$ann/tasks.0.trc")
  want_speedup=$(speedup "$ann")
  found=$(awk -F, 'NR > 1 { print $1, $2, $3, $5 }' "$scratch/$name.csv" |
    while read -r it sp inst list; do
      [ "$(sorted "$list")" = "$(sorted "$types")" ] && echo "$it $sp $inst"
    done | head -1)
  if [ -z "$found" ]; then
    not_ok "$name: the search passes through {$types}" "$(cut -d, -f1-5 "$scratch/$name.csv" | tr '\n' ' ')"
    return
  fi
  read -r it sp inst <<<"$found"
  [ "$it" = "$iteration" ] && ok "$name: the annotated decomposition is iteration $it" ||
    not_ok "$name: the annotated decomposition's iteration" "$it, not $iteration"
  [ "$inst" = "$want_instances" ] && ok "$name: $inst instances, as the annotated run" ||
    not_ok "$name: instances" "$inst, the annotated run $want_instances"
  # The annotated binary also executes the annotations (a few instructions a task): the
  # speedups agree within 1%.
  if awk -v a="$sp" -v b="$want_speedup" 'BEGIN { d = a - b; exit !(b > 0 && (d < 0 ? -d : d) <= 0.01 * b) }'; then
    ok "$name: speedup $sp on $cores cores, the annotated run's $want_speedup"
  else
    not_ok "$name: speedup" "$sp, the annotated run's replay $want_speedup"
  fi
  grep -q "^reference: .*: its task types are iteration $iteration's" "$scratch/$name.out" &&
    ok "$name: --reference finds the annotated decomposition at iteration $iteration" ||
    not_ok "$name: --reference" "$(grep '^reference' "$scratch/$name.out")"
  grep -q 'default decomposition' "$scratch/$name.speedup.svg" ||
    not_ok "$name: speedup plot" "no default decomposition drawn"
  for plot in speedup instances costs dominant; do
    grep -q '<svg' "$scratch/$name.$plot.svg" || not_ok "$name: $plot plot" "no SVG written"
  done
}

program jacobi "relax" 3
program transpose "transpose_block swap_blocks" 3
program cholesky "sgemm ssyrk spotrf strsm" 3
program printing "report step" 2

# A result returned in a register makes no dependency the recording sees: the search finds the
# annotated run's decomposition far faster than that run, and says so.
pot="$scratch/returned-potential" ann="$scratch/returned-annotated"
rm -rf "$pot" "$ann"
timeout 300 "$TAREADOR" --potential-tasks=functions --trace-dir="$pot" "$programs/returned" \
  >"$pot.log" 2>&1
timeout 300 "$TAREADOR" --task-report=no --trace-dir="$ann" "$programs/returned-annotated" \
  >"$ann.log" 2>&1
"$SEARCH" -q --cores $cores --reference "$ann" "$pot" >"$scratch/returned.out" 2>&1
if grep -q "^reference: speedup 1\.000, 9 instances: its task types are iteration 2's$" \
      "$scratch/returned.out" &&
    grep -q "^tareador-search: warning: iteration 2 has the reference's task types but a speedup of 3\.[0-9]* against the annotated run's 1\.000: .* a result a function returns in a register" \
      "$scratch/returned.out"; then
  ok "returned in registers: the search warns that its iteration beats the annotated run"
else
  not_ok "returned in registers" "$(tail -4 "$scratch/returned.out" | tr '\n' ' ')"
fi
# (built -O1, as every program here: the recording warns that inlined functions are no calls)
grep -q "tareador: warning: the program was compiled with -O1: the functions it inlined are no potential tasks" \
  "$pot.log" && ok "an optimised build: the recording warns that inlined functions are no candidates" ||
  not_ok "an optimised build's warning" "$(grep -i warning "$pot.log" | head -2 | tr '\n' ' ')"

# A kernel that is one function: nothing gains, and the search says why.
one="$scratch/onefunction"
rm -rf "$one"
timeout 300 "$TAREADOR" --potential-tasks=functions --trace-dir="$one" "$programs/onefunction" \
  >"$one.log" 2>&1
"$SEARCH" -q --cores $cores "$one" >"$one.out" 2>&1
grep -q '^best: iteration [0-9]*, speedup 1\.00[0-9] ' "$one.out" &&
  grep -q '^no decomposition gains 1%: the work is where the search cannot split it' "$one.out" &&
  ok "one function: no decomposition gains, and the search says why" ||
  not_ok "one function" "$(tail -3 "$one.out" | tr '\n' ' ')"

# Annotated regions are candidates too: the annotated Cholesky recorded as potential tasks gives
# each kernel call a region around it, and the search passes through the regions' decomposition.
regions="$scratch/regions"
timeout 300 "$TAREADOR" --potential-tasks=functions --trace-dir="$regions" \
  "$programs/cholesky-annotated" >"$regions.log" 2>&1
"$SEARCH" -q --cores $cores --csv "$regions.csv" "$regions" >"$regions.out" 2>&1
if [ "$(grep -c '^function [0-9]* region ' "$regions/potential.0.txt")" = 4 ] &&
    awk -F, '$3 == 57 { print $5; exit }' "$regions.csv" | tr ';' '\n' | sort | tr '\n' ' ' |
    grep -q '^region:sgemm region:spotrf region:ssyrk region:strsm $'; then
  ok "annotated regions: four region types, and a decomposition of them with 57 instances"
else
  not_ok "annotated regions" "$(grep '^function' "$regions/potential.0.txt" | tr '\n' ' ') $(cut -d, -f1-5 "$regions.csv" | tr '\n' ' ')"
fi

# The limits: calls past the cap are their caller's work, intervals past the cap are merged,
# and the rank's warnings say so.
capped="$scratch/capped"
if timeout 300 "$TAREADOR" --potential-tasks=functions --potential-max-calls=4 \
    --potential-max-intervals=16 --trace-dir="$capped" "$programs/jacobi" >"$capped.log" 2>&1 &&
    [ "$(grep -c '^node .* 2 [0-9a-f]*$' "$capped/potential.0.txt")" = 4 ] &&
    grep -q "calls of relax after the first 4 are part of their caller's work" "$capped/rank-0.toml" &&
    grep -q "segments had more than 16 intervals" "$capped/rank-0.toml" &&
    [ "$(awk '$1 == "work" { r = w = 0 } $1 == "read" { r += NF - 1 } $1 == "write" { w += NF - 1 }
              { m = r > m ? r : m; m = w > m ? w : m } END { print m }' "$capped/potential.0.txt")" -le 16 ]; then
  ok "the caps: 4 calls of relax, at most 16 intervals a set, both in the warnings"
else
  not_ok "the caps" "$(grep -c '^node' "$capped/potential.0.txt") nodes; $(grep warnings "$capped/rank-0.toml")"
fi
# ... and the search says so, even when quiet: its answers are subject to them.
"$SEARCH" -q --cores $cores "$capped" >"$capped.out" 2>&1
if grep -q "^tareador-search: note: rank 0: potential tasks: calls of relax after the first 4" \
    "$capped.out"; then
  ok "the caps: the search notes them"
else
  not_ok "the caps: the search notes them" "$(head -3 "$capped.out" | tr '\n' ' ')"
fi

# refused NAME MESSAGE SET: tareador-search on SET fails with status 1 and MESSAGE.
refused() {
  local out="$scratch/refused.out" status
  "$SEARCH" -q "$3" >"$out" 2>&1
  status=$?
  if [ $status = 1 ] && grep -qF "$2" "$out"; then
    ok "$1: status 1, $2"
  else
    not_ok "$1" "status $status: $(cat "$out")"
  fi
}

# Bad input: a recording with a broken line names file:line; a set of the task mode has none.
bad="$scratch/bad"
cp -r "$scratch/jacobi-potential" "$bad"
sed -i '5s/.*/work many/' "$bad/potential.0.txt"
refused "a malformed recording" "bad/potential.0.txt:5: instructions 'many' is not a number" "$bad"
refused "a set without a recording" "jacobi-annotated/potential.0.txt: cannot open" \
  "$scratch/jacobi-annotated"

echo "# $passed passed, $failed failed"
[ "$failed" -eq 0 ]
