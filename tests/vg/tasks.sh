#!/usr/bin/env bash
# Regression tests of the tool's task tracing: programs annotated with tareador.h run under the
# tool; their `tasks` streams must hold exactly the instances and dependencies expected
# (tests/vg/expected/*.tasks), and replay.
#
# Environment (set by `make check`): TAREADOR, REPLAY, VG_TESTS_BUILD (tests/vg programs),
# TASK_EXAMPLES_BUILD (examples/tasks), EXAMPLES_BUILD (examples/mpi), TESTS_DIR, EXAMPLES_DIR.
set -u
: "${TAREADOR:?}" "${REPLAY:?}" "${VG_TESTS_BUILD:?}" "${TASK_EXAMPLES_BUILD:?}"
: "${EXAMPLES_BUILD:?}" "${TESTS_DIR:?}" "${EXAMPLES_DIR:?}"
. "$TESTS_DIR/vg/common.sh"

expected="$TESTS_DIR/vg/expected"

# trace DIR PROGRAM [TOOL OPTIONS...]: runs PROGRAM under the tool into DIR (no task report).
trace() {
  local dir=$1 program=$2
  shift 2
  rm -rf "$dir"
  timeout 300 "$TAREADOR" --trace-dir="$dir" --task-report=no "$@" "$program" >"$dir.log" 2>&1
}

# The graph of a tasks stream, readable and independent of the compiler: object ids become
# names, bursts, source lines and the program's uses of its stack go.
graph() {
  awk '$1 == "object" { name[$2] = $5; kind[$2] = $3; next }
       $1 == "cpu" { next }
       $1 == "task" { print $1, $2, $3, $4; next }
       $1 == "spawn" { print $1, $2; next }
       $1 == "after" { n = split($5, o, ","); s = "";
                       for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") name[o[i]];
                       print $1, $2, $3, $4, s; next }
       $1 == "uses" { if (kind[$2] != "stack") print $1, name[$2], $3, $4; next }
       { print }' "$1"
}

# mpi_trace MPI PROGRAM NP DIR [TOOL OPTIONS...]: runs PROGRAM (a path) built for MPI on NP
# ranks under the tool into DIR (log: DIR.log); fails, running nothing, if that MPI or the
# program is missing.
mpi_trace() {
  local mpi=$1 program=$2 np=$3 dir=$4
  shift 4
  command -v "$(launcher "$mpi")" >/dev/null && [ -x "$program" ] || return 1
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np "$np" "$TAREADOR" --trace-dir="$dir" "$@" "$program" \
    >"$dir.log" 2>&1
  return 0
}

# ---- The exact graph of tests/vg/taskdeps.c, for each choice of dependencies -------------------
for deps in raw raw+war raw+waw; do
  name="taskdeps --deps=$deps"
  dir="$scratch/taskdeps-$deps"
  if ! trace "$dir" "$VG_TESTS_BUILD/taskdeps" --deps="$deps"; then
    not_ok "$name" "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"
    continue
  fi
  if diff <(graph "$dir/tasks.0.trc") "$expected/taskdeps.$deps.tasks" >"$scratch/diff"; then
    ok "$name: the dependency graph is the expected one"
  else
    not_ok "$name" "the graph differs: $(head -12 "$scratch/diff" | tr '\n' '|')"
  fi
done

# ---- Readers of a reduction: after every task that added to the bytes they read ---------------
# (tests/vg/reduce.c says which; the tasks that add do not depend on one another; with
# write-after-write, a task that sets the total again comes after them too)
for deps in raw raw+waw; do
  if ! trace "$scratch/reduce-$deps" "$VG_TESTS_BUILD/reduce" --deps=$deps; then
    not_ok "reduce --deps=$deps" "the run failed: $(tail -3 "$scratch/reduce-$deps.log" | tr '\n' ' ')"
  elif diff <(graph "$scratch/reduce-$deps/tasks.0.trc" | grep -v '^uses') "$expected/reduce.$deps.tasks" \
         >"$scratch/diff"; then
    ok "reduce --deps=$deps: a reader of a disabled total depends on the tasks that added to what it reads since it was last set, and waits there for its own children"
  else
    not_ok "reduce --deps=$deps" "the graph differs: $(head -12 "$scratch/diff" | tr '\n' '|')"
  fi
done

# ---- Reductions read or set again by the code that set them up -----------------------------------
# (tests/vg/resetsum.c says which: the reader or the writer wrote the total last itself, before
# the tasks added to it; a write of main's forgets the tasks that added before it)
for deps in raw raw+war+waw; do
  if ! trace "$scratch/resetsum-$deps" "$VG_TESTS_BUILD/resetsum" --deps=$deps; then
    not_ok "resetsum --deps=$deps" "the run failed: $(tail -3 "$scratch/resetsum-$deps.log" | tr '\n' ' ')"
  elif diff <(graph "$scratch/resetsum-$deps/tasks.0.trc" | grep -v '^uses') \
         "$expected/resetsum.$deps.tasks" >"$scratch/diff"; then
    ok "resetsum --deps=$deps: the code that set a total and then reads it, or sets it again, depends on the tasks that added to it since"
  else
    not_ok "resetsum --deps=$deps" "the graph differs: $(head -12 "$scratch/diff" | tr '\n' '|')"
  fi
done

# ---- Disables nest: a recursive task's children do not enable what it disabled ----------------
# (tests/vg/nested.c: 14 visit tasks add to `total`, each disabling it around its whole body;
# only the report task that reads it afterwards depends on them, on all 14)
if ! trace "$scratch/nested" "$VG_TESTS_BUILD/nested"; then
  not_ok "nested disables" "the run failed: $(tail -3 "$scratch/nested.log" | tr '\n' ' ')"
else
  deps=$(awk '$1 == "task" { type = $3 } $1 == "after" { n[type]++ }
              END { for (t in n) printf "%s %d|", t, n[t] }' "$scratch/nested/tasks.0.trc")
  if [ "$deps" = "report 14|" ]; then
    ok "nested disables: the visit tasks make no dependency through what each disabled, the report depends on all 14"
  else
    not_ok "nested disables" "dependencies per task type: $deps (want: report 14|)"
  fi
fi

# ---- The same binary gives the same tasks stream, bursts included ------------------------------
trace "$scratch/again" "$VG_TESTS_BUILD/taskdeps" --deps=raw
if cmp -s "$scratch/again/tasks.0.trc" "$scratch/taskdeps-raw/tasks.0.trc"; then
  ok "taskdeps twice: identical tasks streams"
else
  not_ok "taskdeps twice" "the streams differ"
fi
grep -q '^kinds = \["authentic", "tasks"\]' "$scratch/again/manifest.toml" &&
  grep -q 'status = "complete"' "$scratch/again/rank-0.toml" &&
  [ "$(tail -1 "$scratch/again/tasks.0.trc")" = end ] &&
  ok "taskdeps: the set lists the tasks kind and is complete" ||
  not_ok "taskdeps" "manifest, rank manifest or end of stream wrong"

# ---- A code that declares the API itself and links -ltareador ----------------------------------
trace "$scratch/lib" "$VG_TESTS_BUILD/tasklib"
if [ "$(graph "$scratch/lib/tasks.0.trc" | grep '^after')" = "after 2 raw 64 data" ]; then
  ok "tasklib (-ltareador): consume depends on produce through data"
else
  not_ok "tasklib (-ltareador)" "$(graph "$scratch/lib/tasks.0.trc" | tr '\n' '|')"
fi

# ---- Thesis 6.1.1 (Fig. 6.1): 33 instances, a critical path of 11, list-scheduling speedups ------
fig61="$scratch/fig61"
rm -rf "$fig61"
timeout 300 "$TAREADOR" --trace-dir="$fig61" --graph-format=svg "$TASK_EXAMPLES_BUILD/fig61" \
  >"$fig61.log" 2>&1 || not_ok "fig61" "the run failed: $(tail -3 "$fig61.log" | tr '\n' ' ')"
# The oracle: the graph of the stream, its critical path in tasks (the main task left out: it
# only creates the others), and list scheduling of that graph by critical path (longest
# remaining path in instructions first, ties to the older instance) on 1..4 cores: the main
# task holds a core while it runs, and each task exists from its creation point in it.
python3 - "$fig61/tasks.0.trc" >"$scratch/fig61.oracle" <<'PY'
import sys
work, preds, release, clock = {}, {}, {}, 0
for line in open(sys.argv[1]):
    f = line.split()
    if not f: continue
    if f[0] == "task": current = int(f[1]); work[current] = 0; preds[current] = set()
    elif f[0] == "cpu": work[current] += int(f[1])
    elif f[0] == "after": preds[current].add(int(f[1]))
    elif f[0] == "spawn": release[int(f[1])] = work[current]  # main's instructions so far
tasks = sorted(t for t in work if t != 1)
succs = {t: [u for u in tasks if t in preds[u]] for t in tasks}
length, rest = {}, {}
for t in sorted(tasks, reverse=True):  # creation order is a topological order
    length[t] = 1 + max([length[u] for u in succs[t]], default=0)
    rest[t] = work[t] + max([rest[u] for u in succs[t]], default=0)
def makespan(cores):
    free = [work[1]] + [0] * (cores - 1)  # the main task on the first core
    done, time, left = {}, 0, set(tasks)
    while left:
        ready = [t for t in left if release[t] <= time and all(done.get(p, time + 1) <= time for p in preds[t])]
        for t in sorted(ready, key=lambda t: (-rest[t], t)):
            idle = [c for c in range(cores) if free[c] <= time]
            if not idle: break
            done[t] = free[idle[0]] = time + work[t]
            left.discard(t)
        time = min([x for x in list(done.values()) + free + list(release.values()) if x > time],
                   default=time)
    return max(list(done.values()) + free)
t1 = makespan(1)
print(len(tasks), max(length.values()), *["%.3f" % (t1 / makespan(p)) for p in range(1, 5)])
PY
read -r instances path s1 s2 s3 s4 <"$scratch/fig61.oracle"
if [ "$instances" = 33 ] && [ "$path" = 11 ]; then
  ok "fig61: 33 task instances, critical path of 11 tasks"
else
  not_ok "fig61" "$instances instances, critical path $path (expected 33 and 11)"
fi
"$REPLAY" --config "$EXAMPLES_DIR/marenostrum.cfg" --kind tasks --policy=cp \
  --cores-sweep=1,2,3,4 --csv "$fig61" >"$scratch/sweep" 2>"$scratch/sweep.err"
replayed=$(awk -F, '$1 ~ /^[0-9]+$/ { printf "%s%.3f", sep, $3; sep = " " }' "$scratch/sweep")
if [ "$replayed" = "$s1 $s2 $s3 $s4" ]; then
  ok "fig61 --policy=cp on 1-4 cores: speedups $replayed, as list scheduling of its graph"
else
  not_ok "fig61 --policy=cp" "replay gives '$replayed', list scheduling '$s1 $s2 $s3 $s4': $(head -8 "$scratch/sweep" "$scratch/sweep.err" | tr '\n' '|')"
fi
nodes=$(grep -c '\[label="comp' "$fig61/taskgraph.0.dot" 2>/dev/null)
if [ "$nodes" = 33 ] && grep -q '<svg' "$fig61/taskgraph.0.svg" 2>/dev/null &&
   grep -q 'comp1' "$fig61/taskreport.0.txt" 2>/dev/null; then
  ok "fig61: the tool wrote taskgraph.0.dot (33 nodes), its SVG and the report"
else
  not_ok "fig61 report" "$nodes nodes; $(ls "$fig61" | tr '\n' ' '); $(tail -3 "$fig61.log" | tr '\n' ' ')"
fi

# ---- An MPI code with tasks gives a replayable tasks trace, with each MPI --------------------------
for mpi in openmpi mpich; do
  dir="$scratch/ring-$mpi"
  mpi_trace "$mpi" "$EXAMPLES_BUILD/$mpi/mpi_ring_tasks" 2 "$dir" || continue
  name="mpirun -np 2 tareador mpi_ring_tasks ($mpi)"
  if ! grep -q '"tasks"' "$dir/manifest.toml" 2>/dev/null ||
     [ "$(tail -1 "$dir/tasks.1.trc" 2>/dev/null)" != end ]; then
    not_ok "$name" "no complete tasks trace: $(tail -3 "$dir.log" | tr '\n' ' ')"
    continue
  fi
  # Per rank: 12 instances, interior independent of the exchanges, the MPI call in exchange.
  if [ "$(grep -c '^task' "$dir/tasks.0.trc")" = 13 ] &&
     graph "$dir/tasks.0.trc" | awk '$1 == "task" { t = $3 } t == "interior" && $1 == "after" && $5 != "interior" { bad = 1 }
                                     t == "exchange" && $1 == "isend" { sends++ } END { exit bad || sends != 4 }'; then
    ok "$name: 12 instances per rank, sends inside exchange, interior independent"
  else
    not_ok "$name" "unexpected graph: $(graph "$dir/tasks.0.trc" | grep -v uses | head -20 | tr '\n' '|')"
  fi
  for policy in fifo cp mpi; do
    if "$REPLAY" --validate "$dir" >"$scratch/validate" 2>&1 &&
       "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" --kind tasks --policy=$policy \
         --set cores=2 --json - "$dir" >"$scratch/replay.json" 2>&1 &&
       python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["traces"][0]; assert t["total_time_s"] > 0' \
         "$scratch/replay.json" 2>/dev/null; then
      ok "$name: valid, replays with --policy=$policy on 2 cores"
    else
      not_ok "$name --policy=$policy" "$(head -5 "$scratch/validate" "$scratch/replay.json" | tr '\n' ' ')"
    fi
  done
done

# ---- One task posts non-blocking calls, another waits: the data is there at the wait ----------
# (tests/vg/splittasks.c: use after complete, refill after complete, not only after post; and
# complete after post, through the request variables they write and read)
for mpi in openmpi mpich; do
  program="$VG_TESTS_BUILD/$mpi/splittasks"
  dir="$scratch/split-$mpi"
  mpi_trace "$mpi" "$program" 3 "$dir" --task-report=no --deps=raw+war || continue
  name="splittasks ($mpi)"
  if ! grep -q 'splittasks: ok' "$dir.log"; then
    not_ok "$name" "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"
  # (The request variables' bytes are the MPI's: 3 x 8 in Open MPI, 3 x 4 in MPICH.)
  elif ! diff <(graph "$dir/tasks.1.trc" | grep -v '^uses' |
                  sed -E 's/^(after [0-9]+ raw) [0-9]+ requests$/\1 3-handles requests/') \
         "$expected/splittasks.raw+war.tasks" >"$scratch/diff"; then
    not_ok "$name" "the graph differs: $(head -12 "$scratch/diff" | tr '\n' '|')"
  elif "$REPLAY" --validate "$dir" >"$scratch/validate" 2>&1 &&
       "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" --kind tasks --set cores=2 "$dir" \
         >"$scratch/replay" 2>&1; then
    ok "$name: the tasks that use what arrives, or reuse a buffer, come after the wait, and the wait after its post; valid, replayed"
  else
    not_ok "$name" "$(head -5 "$scratch/validate" "$scratch/replay" | tr '\n' ' ')"
  fi
  # With the default dependencies, on one core a rank, critical path first: the wait must not
  # take the core before its post has run (it would wait for a request never posted).
  mpi_trace "$mpi" "$program" 3 "$dir-raw" --task-report=no
  if "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" --kind tasks --set cores=1 \
      --set tasks_per_node=1 --policy=cp "$dir-raw" >"$scratch/replay" 2>&1; then
    ok "$name: the wait after its post, on one core critical path first"
  else
    not_ok "$name: on one core, critical path first" "$(head -5 "$scratch/replay" | tr '\n' ' ')"
  fi
done

# ---- Critical path first sees the messages: a send is as urgent as the stages it feeds --------
# (tests/vg/relay.c: a block through 3 ranks, each with work of its own created first. Each rank
# alone, the send is the shortest task and runs after the local work, which the next ranks wait
# for; across ranks its path holds their stages.)
for mpi in openmpi mpich; do
  dir="$scratch/relay-$mpi"
  mpi_trace "$mpi" "$VG_TESTS_BUILD/$mpi/relay" 3 "$dir" --task-report=no || continue
  name="relay ($mpi)"
  times=""
  for policy in fifo cp; do
    times="$times $("$REPLAY" --config "$EXAMPLES_DIR/marenostrum.cfg" --kind tasks --set tasks_per_node=1 \
                      --policy=$policy --cores-sweep=1 --csv "$dir" 2>&1 | awk -F, '$1 == 1 { print $2 }')"
  done
  read -r fifo cp <<<"$times"
  if ! grep -q 'relay: ok' "$dir.log"; then
    not_ok "$name" "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"
  elif [ -n "$cp" ] && awk -v f="$fifo" -v c="$cp" 'BEGIN { exit !(f > 0 && c <= f * (1 + 1e-9)) }'; then
    ok "$name: on one core a rank, critical path first ($cp s) no slower than creation order ($fifo s)"
  else
    not_ok "$name" "on one core, --policy=cp '$cp' s, --policy=fifo '$fifo' s"
  fi
done

# ---- The statuses MPI fills for a task: the code after it reads them --------------------------
# (tests/vg/mpistatus.c: main reads the tag of a receive in task "get" and of a wait in task
# "finish")
for mpi in openmpi mpich; do
  dir="$scratch/status-$mpi"
  mpi_trace "$mpi" "$VG_TESTS_BUILD/$mpi/mpistatus" 1 "$dir" --task-report=no --read-var-info=yes ||
    continue
  deps=$(graph "$dir/tasks.0.trc" 2>/dev/null | awk '$1 == "task" { t = $3 } $1 == "after" { print t, $2, $3, $5 }' |
           tr '\n' '|')
  if ! grep -q 'mpistatus: ok' "$dir.log"; then
    not_ok "statuses ($mpi)" "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"
  elif [ "$deps" = "main 2 raw got|main 3 raw done|" ]; then
    ok "statuses ($mpi): the code that reads what a receive or a wait put in its status comes after the task"
  else
    not_ok "statuses ($mpi)" "dependencies: $deps"
  fi
done

# ---- Annotations out of place --------------------------------------------------------------------
trace "$scratch/misuse" "$VG_TESTS_BUILD/taskmisuse"
if [ "$(graph "$scratch/misuse/tasks.0.trc" 2>/dev/null | grep '^task' | tr '\n' '|')" = "task 2 a 1|task 3 b 1|task 4 c 1|task 1 main 0|" ] &&
   grep -q 'no task open' "$scratch/misuse/rank-0.toml" &&
   grep -q 'ends task \\"a\\"' "$scratch/misuse/rank-0.toml" &&
   grep -q 'task \\"c\\" (instance 4) was still open' "$scratch/misuse/rank-0.toml" &&
   [ "$(tail -1 "$scratch/misuse/tasks.0.trc")" = end ]; then
  ok "annotations out of place: ignored outside ON/OFF, warned about, the trace complete"
else
  not_ok "annotations out of place" "$(grep -A6 '^warnings' "$scratch/misuse/rank-0.toml" | tr '\n' ' ') $(grep '^task' "$scratch/misuse/tasks.0.trc" | tr '\n' '|')"
fi

# ---- Tracing switched on again after tareador_OFF: said once, the first region traced ----------
dir="$scratch/phases"
rm -rf "$dir"
timeout 300 "$TAREADOR" --trace-dir="$dir" --task-report=no "$VG_TESTS_BUILD/taskphases" >"$dir.log" 2>&1
code=$?
if [ $code = 0 ] && grep -qx '2.5' "$dir.log" && [ "$(grep -c '^task' "$dir/tasks.0.trc")" = 3 ] &&
   [ "$(grep -c 'tareador_ON after tareador_OFF' "$dir.log")" = 1 ] &&
   "$REPLAY" --validate "$dir" >/dev/null 2>&1; then
  ok "tareador_ON after tareador_OFF: the first region traced (2 tasks), said once, the program's own output"
else
  not_ok "tareador_ON after tareador_OFF" "exit $code: $(grep -v '^==' "$dir.log" | tail -3 | tr '\n' ' ')"
fi

# ---- A program that does not end through tareador_OFF ---------------------------------------------
# Returning from main or calling exit() completes the trace there; abort() and a crash leave it
# truncated. Either way the program's exit status is kept and the set validates and replays.
for how in return:0:complete exit:3:complete abort:134:truncated segv:139:truncated; do
  IFS=: read -r end status kind <<<"$how"
  dir="$scratch/exit-$end"
  rm -rf "$dir"
  timeout 300 "$TAREADOR" -q --trace-dir="$dir" --task-report=no "$VG_TESTS_BUILD/taskexit" "$end" \
    >"$dir.log" 2>&1
  code=$?
  if [ "$code" = "$status" ] && grep -q "status = \"$kind\"" "$dir/rank-0.toml" 2>/dev/null &&
     ! grep -q 'impossible\|Assertion' "$dir.log" &&
     "$REPLAY" --validate "$dir" >/dev/null 2>&1 &&
     "$REPLAY" -q --config "$EXAMPLES_DIR/marenostrum.cfg" --kind tasks "$dir" >/dev/null 2>&1; then
    ok "tasks ended by $end: exit status $code, a $kind set that validates and replays"
  else
    not_ok "tasks ended by $end" "exit $code (expected $status); $(tail -3 "$dir.log" | tr '\n' ' '); $(cat "$dir/rank-0.toml" 2>/dev/null | head -3 | tr '\n' ' ')"
  fi
done

echo "# $passed passed, $failed failed"
[ "$failed" -eq 0 ]
