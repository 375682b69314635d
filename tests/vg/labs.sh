#!/usr/bin/env bash
# The task study on course-style codes (tests/vg/labs/ and the dot product of examples/tasks/, each
# built -O0 as students compile and -O2): what the labs teach must come out of the tool. A disabled local accumulator makes the
# dot product's tasks independent, an enabled one chains them; recursive sibling tasks have no
# edge through the stack at any optimisation level; porting hints name the program's objects
# only; arrays sized at run time on the stack and C++ vectors carry dependencies; a disabled object's
# bytes keep their writers, thousands of disabled blocks carry no dependency and those between them
# do; a task's scratch buffers are in no clause; bad task names leave a valid set; a code for the earlier API compiles
# and runs unchanged.
#
# Environment (set by `make check`): TAREADOR, REPLAY, TASKS (tareador-tasks), VG_TESTS_BUILD,
# TESTS_DIR, EXAMPLES_DIR.
set -u
: "${TAREADOR:?}" "${REPLAY:?}" "${TASKS:?}" "${VG_TESTS_BUILD:?}" "${TESTS_DIR:?}" "${EXAMPLES_DIR:?}"
. "$TESTS_DIR/vg/common.sh"

labs="$VG_TESTS_BUILD/labs"
machine="$EXAMPLES_DIR/marenostrum.cfg"

# trace DIR PROGRAM [ARGS...]: runs PROGRAM under the tool into DIR (task report included).
trace() {
  local dir=$1
  shift
  rm -rf "$dir"
  timeout 300 "$TAREADOR" --trace-dir="$dir" "$@" >"$dir.log" 2>&1
}

# edges STREAM: "FROM->TO OBJECT-KIND:NAME,..." per dependency, objects by kind and name.
edges() {
  awk '$1 == "object" { name[$2] = $3 ":" $5; next }
       $1 == "task" { t = $2; next }
       $1 == "after" { n = split($5, o, ","); s = "";
                       for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") name[o[i]];
                       print $2 "->" t, s }' "$1"
}

# edge_list SET: its edges on one line, each followed by '|'.
edge_list() { edges "$1/tasks.0.trc" | tr '\n' '|'; }

# speedup SET CORES: the replayed speedup of the set's tasks on CORES cores (critical path first).
speedup() {
  "$REPLAY" --config "$machine" --kind tasks --policy=cp --cores-sweep=1,"$2" --csv "$1" \
    2>/dev/null | awk -F, -v c="$2" '$1 == c { print $3 }'
}

# ---- The dot product (examples/tasks/dot.c, docs/tasks.md's worked example): the accumulator
# disabled, then kept -----------------------------------------------------------------------------
for opt in O0 O2; do
  for mode in disable keep; do
    dir="$scratch/dot-$opt-$mode"
    name="dot $mode (-$opt)"
    if ! trace "$dir" "$labs/dot-$opt" "$mode"; then
      not_ok "$name" "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"
      continue
    fi
    # Edges between two dot_product instances (2 to 17: the only tasks), by what they go through.
    chain=$(edges "$dir/tasks.0.trc" | awk '{ print $2 }' | sort | uniq -c |
            awk '{ print $1, $2 }' | tr '\n' '|')
    s16=$(speedup "$dir" 16)
    if [ "$mode" = disable ]; then
      if [ -z "$chain" ] && grep -q 'updates result while disabled' "$dir/taskreport.0.txt" &&
         ! grep -q 'stack-write' "$dir/taskreport.0.txt" &&
         ! grep 'warning:' "$dir.log" | grep -vq 'compiled with -O2' &&
         awk -v s="$s16" 'BEGIN { exit !(s > 10) }'; then
        ok "$name: the 16 tasks are independent (${s16}x on 16 cores), result is a reduction, no write of the creator's locals, no warning from valgrind"
      else
        not_ok "$name" "edges between tasks: '$chain', speedup '$s16', $(grep -i result "$dir/taskreport.0.txt" | tr '\n' ' ')"
      fi
    else
      if [ "$chain" = "15 stack:result|" ] && awk -v s="$s16" 'BEGIN { exit !(s < 1.2) }'; then
        ok "$name: the tasks chain through result (15 edges, ${s16}x on 16 cores)"
      else
        not_ok "$name" "edges between tasks: '$chain', speedup '$s16'"
      fi
    fi
  done
done

# ---- An optimised build is named: its registers hide dependencies --------------------------------
o2=$(grep -c 'compiled with -O2: locals kept in registers' "$scratch/dot-O2-keep/taskreport.0.txt")
tool=$(grep -c 'tareador: warning: the program was compiled with -O2' "$scratch/dot-O2-keep.log")
o0=$(cat "$scratch/dot-O0-keep/taskreport.0.txt" "$scratch/dot-O0-keep.log" | grep -c 'compiled with')
emitted=$("$TASKS" "$scratch/dot-O2-keep" --emit-source -o "$scratch/dot-O2.diff" 2>&1 |
          grep -c 'note: rank 0: the program was compiled with -O2')
if [ "$o2" = 1 ] && [ "$tool" = 1 ] && [ "$o0" = 0 ] && [ "$emitted" = 1 ]; then
  ok "dot (-O2): the tool, the task report and --emit-source say the program was compiled with -O2; nothing of the kind at -O0"
else
  not_ok "dot -O2 warning" "-O2: report $o2, tool $tool, --emit-source $emitted (1 each expected); -O0: $o0 (0 expected)"
fi

# ---- Recursive sibling tasks: the same graph at -O0 and -O2, none through the stack ------------
for opt in O0 O2; do
  trace "$scratch/sort-$opt" "$labs/multisort-$opt"
  edges "$scratch/sort-$opt/tasks.0.trc" | cut -d' ' -f1 | sort >"$scratch/sort-$opt.edges"
done
through_stack=$(for opt in O0 O2; do edges "$scratch/sort-$opt/tasks.0.trc"; done | grep -c 'stack:')
instances=$(grep -c '^task' "$scratch/sort-O2/tasks.0.trc" 2>/dev/null)
if [ "$instances" = 134 ] && [ -s "$scratch/sort-O2.edges" ] &&
   cmp -s "$scratch/sort-O0.edges" "$scratch/sort-O2.edges" && [ "$through_stack" = 0 ]; then
  ok "multisort: 133 tasks, the same $(wc -l <"$scratch/sort-O2.edges") edges at -O0 and -O2, none through the stack"
else
  not_ok "multisort" "$instances sections, $through_stack edges through the stack, $(diff "$scratch/sort-O0.edges" "$scratch/sort-O2.edges" | head -5 | tr '\n' ' ')"
fi

# ---- Arrays sized at run time on the stack (a VLA, alloca) carry data between tasks -----------
for opt in O0 O2; do
  dir="$scratch/stackarrays-$opt"
  trace "$dir" "$labs/stackarrays-$opt" 1000
  found=$(edge_list "$dir")
  instances=$(grep -c '^task' "$dir/tasks.0.trc" 2>/dev/null)
  # The recursive halves (instances 6-11) return their sums into locals of their creator,
  # which waits for them; their scratch VLAs make no dependency.
  halves="7->6 stack:left|8->6 stack:right|10->9 stack:left|11->9 stack:right|6->1 stack:left|9->1 stack:right|"
  if [ "$found" = "2->3 stack:alloca@stackarrays.c:58|4->5 stack:alloca@stackarrays.c:59|$halves" ] &&
     [ "$instances" = 11 ]; then
    ok "stack arrays (-$opt): the VLA and the alloca'd buffer each carry one dependency; each recursive task's creator waits for the sum it returns, its scratch VLA makes none"
  else
    not_ok "stack arrays (-$opt)" "$instances sections, edges '$found'"
  fi
done

# ---- C++: the standard library's allocations for the program are its blocks ---------------------
# (-O0: through the containers' own functions; -O2: inlined into main, but for the string's
# characters, which libstdc++ allocates in its own code)
expected_vectors_O0="2->3 heap:vector<...>@vectors.cpp:20|4->5 heap:basic_string<...>::operator+=@vectors.cpp:22|"
expected_vectors_O2="2->3 heap:new@main|4->5 heap:basic_string<...>::_M_mutate@main|"
for opt in O0 O2; do
  dir="$scratch/vectors-$opt"
  trace "$dir" "$labs/vectors-$opt"
  expected="expected_vectors_$opt"
  if [ "$(edge_list "$dir")" = "${!expected}" ]; then
    ok "vectors (-$opt): a vector and a string, each written by one task and read by the next, carry the dependency"
  else
    not_ok "vectors (-$opt)" "edges '$(edge_list "$dir")', expected '${!expected}'"
  fi
done

# ---- OpenMP inside tasks: the runtime's state makes no dependency ------------------------------
dir="$scratch/ompblocks"
OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive trace "$dir" "$labs/ompblocks"
if [ "$(grep -c '^task' "$dir/tasks.0.trc" 2>/dev/null)" = 5 ] && [ -z "$(edge_list "$dir")" ]; then
  ok "OpenMP in tasks: four blocks, each an OpenMP loop on 2 threads, are independent"
else
  not_ok "OpenMP in tasks" "edges '$(edge_list "$dir")'; $(tail -2 "$dir.log" | tr '\n' ' ')"
fi

# ---- realloc and free are uses of the block ----------------------------------------------------
for opt in O0 O2; do
  dir="$scratch/heapblocks-$opt"
  trace "$dir" "$labs/heapblocks-$opt"
  raw=$(edge_list "$dir")
  release=$(grep -A1 '^  release' "$dir/taskreport.0.txt" | grep OmpSs)
  trace "$dir-war" --deps=raw+war+waw "$labs/heapblocks-$opt"
  war=$(edge_list "$dir-war")
  if [ "$raw" = "2->1 heap:malloc@heapblocks.c:15|" ] && [[ "$release" == *"out(realloc@heapblocks.c:20)"* ]] &&
     [[ "$war" == *"3->4 heap:realloc@heapblocks.c:20|"* ]]; then
    ok "heap blocks (-$opt): realloc reads what fill wrote, the freeing task writes the block, after its reader with --deps=raw+war+waw"
  else
    not_ok "heap blocks (-$opt)" "edges '$raw', with war '$war'; release: '$release'"
  fi
done

# ---- A counter disabled inside the block of data it counts: its readers keep their producers --
produced="2->6 heap:malloc@counted.c:24|3->7 heap:malloc@counted.c:24|4->8 heap:malloc@counted.c:24|5->9 heap:malloc@counted.c:24|"
chained="6->7 global:total|7->8 global:total|8->9 global:total|"
for opt in O0 O2; do
  dir="$scratch/counted-$opt"
  trace "$dir" "$labs/counted-$opt"
  plain=$(edge_list "$dir" | tr '|' '\n' | sort | tr '\n' '|')
  trace "$dir-stale" "$labs/counted-$opt" stale
  stale=$(edge_list "$dir-stale")
  want=$(echo "$produced$chained" | tr '|' '\n' | sed '/^$/d' | sort | tr '\n' '|')
  if [ "$plain" = "$want" ] && [ "$stale" = "$produced" ] &&
     ! grep -q 'disable' "$dir/rank-0.toml" &&
     grep -q 'names a byte inside malloc@counted.c:24 (1032 bytes): the whole object is disabled' "$dir-stale/rank-0.toml" &&
     grep -q 'total was still disabled when tracing ended' "$dir-stale/rank-0.toml"; then
    ok "a counter disabled inside its data's block (-$opt): each consumer after its producer; warnings for an element that disables its block and for a counter never enabled again"
  else
    not_ok "counted (-$opt)" "edges '$plain', stale '$stale'; warnings: $(grep '^warnings' "$dir-stale/rank-0.toml")"
  fi
done

# ---- Thousands of blocks disabled at once, between blocks that are not ------------------------
for opt in O0 O2; do
  dir="$scratch/particles-$opt"
  trace "$dir" "$labs/particles-$opt"
  # Pairs and the objects they go through: each forces task reads the positions the first and
  # third moves wrote, and its own particles' (its move); never a force block.
  got=$(edges "$dir/tasks.0.trc" | awk '{ print $1; n = split($2, o, ","); for (i = 1; i <= n; i++) print "via " o[i] }' |
        sort -u | tr '\n' ' ')
  races=$(grep -c '^  \[race\]' "$dir/taskreport.0.txt")
  if [ "$got" = "2->6 2->7 2->8 2->9 3->7 4->6 4->7 4->8 4->9 5->9 via heap:malloc@particles.c:18 " ] &&
     [ "$races" = 1 ] && grep -q '(the same on 39 other objects named malloc@particles.c:19)' "$dir/taskreport.0.txt"; then
    ok "2,000 disabled blocks (-$opt): no dependency through them, every one through the blocks between them; one race warning for the 40 blocks of one site"
  else
    not_ok "particles (-$opt)" "edges '$got'; $races race warnings"
  fi
done

# ---- Scratch buffers a task allocates and frees are in no clause; blocks it keeps are ---------
for opt in O0 O2; do
  dir="$scratch/temporaries-$opt"
  trace "$dir" "$labs/temporaries-$opt"
  report="$dir/taskreport.0.txt"
  pairs=$(edges "$dir/tasks.0.trc" | awk '{ print $1 }' | tr '\n' ' ')
  stage=$(grep -A4 '^  stage (4 instances)' "$report" | tr '\n' '|')
  if grep -q 'OmpSs:  #pragma omp task in(a)$' "$report" &&
     grep -q 'temporaries: malloc@temporaries.c:25 (heap blocks each instance allocates and frees' "$report" &&
     grep -q 'OmpSs:  #pragma omp task in(a) out(malloc@temporaries.c:35)$' "$report" &&
     [[ "$stage" == *'OmpSs:  #pragma omp task in(a)|'*'|    temporaries: malloc@temporaries.c:47 '* ]] &&
     [ "$pairs" = "6->10 7->10 8->10 9->10 12->13 15->16 18->19 21->22 " ]; then
    ok "scratch buffers (-$opt): a block the task allocates and frees (itself or through its children) is a temporary, in no clause of it; a block it keeps is its output"
  else
    not_ok "temporaries (-$opt)" "edges '$pairs'; $(grep -E 'OmpSs|temporaries:' "$report" | tr '\n' ' ')"
  fi
done

# ---- Blocks freed while disabled: the next block at their address is not disabled --------------
for opt in O0 O2; do
  dir="$scratch/freed-$opt"
  trace "$dir" "$labs/freed-$opt"
  # (the 4 counting tasks and main's read of a bin use the bins while disabled)
  if [ "$(edge_list "$dir")" = "6->7 heap:malloc@freed.c:28|" ] && grep -q 'same address' "$dir.log" &&
     [ "$(grep -c 'disabled' "$dir/tasks.0.trc")" = 5 ] &&
     grep -q 'not a variable or a live heap block of the program (freed memory' "$dir/rank-0.toml"; then
    ok "freed while disabled (-$opt): the block malloc puts at the same address carries its dependency; disabling a freed pointer is ignored, with a warning"
  else
    not_ok "freed (-$opt)" "edges '$(edge_list "$dir")'; $(grep -c 'disabled' "$dir/tasks.0.trc") disabled uses; $(grep '^warnings' "$dir/rank-0.toml")"
  fi
done

# ---- Accumulators disabled before tareador_ON, in the program's own mappings, grown by realloc ---
for opt in O0 O2; do
  dir="$scratch/early-$opt"
  trace "$dir" "$labs/early-$opt"
  # (at -O2, only the tool's word on an optimised build)
  if [ -z "$(edge_list "$dir")" ] &&
     grep -Eq '^warnings = \[("the program was compiled with -O2[^"]*")?\]' "$dir/rank-0.toml" &&
     [ "$(grep -c '^uses .* disabled' "$dir/tasks.0.trc")" -ge 8 ]; then
    ok "early (-$opt): accumulators disabled before tareador_ON, in mmap'd memory, and grown by realloc: the tasks that add into them are independent"
  else
    not_ok "early (-$opt)" "edges '$(edge_list "$dir")'; $(grep '^warnings' "$dir/rank-0.toml")"
  fi
done

# ---- Porting hints name the program's objects only -------------------------------------------
for opt in O0 O2; do
  dir="$scratch/libc-$opt"
  trace "$dir" "$labs/libc-$opt"
  pragma=$(grep 'OmpSs:' "$dir/taskreport.0.txt")
  named=$(echo "$pragma" | sed 's/.*task//; s/[a-z]*(//g; s/[),]/ /g' | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')
  if [[ "$named" =~ ^in\ malloc@libc\.c:[0-9]+\ out\ $ ]] &&
     grep -q 'not in the clauses: [0-9]* objects that are constants or a library' "$dir/taskreport.0.txt" &&
     [ -z "$(edges "$dir/tasks.0.trc")" ] &&
     grep -q "runtime libraries' own state" "$dir/rank-0.toml"; then
    ok "libc (-$opt): the clauses name in, out and the copy's block only; no dependency through the C library"
  else
    not_ok "libc (-$opt)" "clauses of '$named' ($pragma); edges: $(edge_list "$dir")"
  fi
done

# ---- Bad task names: a valid set, valid UTF-8 everywhere, each note once ------------------------
tasks_command="$TASKS"
for opt in O0 O2; do
  dir="$scratch/names-$opt"
  name="bad task names (-$opt)"
  if ! trace "$dir" "$labs/names-$opt"; then
    not_ok "$name" "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"
    continue
  fi
  if "$REPLAY" --validate "$dir" >"$scratch/validate" 2>&1 &&
     "$REPLAY" -q --config "$machine" --kind tasks --json "$scratch/names.json" "$dir" >/dev/null 2>&1 &&
     "$tasks_command" --quiet --graph-format=svg "$dir" >/dev/null 2>&1 &&
     python3 - "$dir" "$scratch/names.json" <<'PY'
import glob, json, os, sys, tomllib
d = sys.argv[1]
for path in glob.glob(os.path.join(d, "*")) + [sys.argv[2]]:
    if os.path.isfile(path):
        open(path, encoding="utf-8").read()          # every file is UTF-8
for path in glob.glob(os.path.join(d, "*.toml")):
    tomllib.load(open(path, "rb"))
json.load(open(os.path.join(d, "taskreport.0.json")))
# The type: what is between the id and the parent and the two source sites.
types = [l.split(" ", 2)[2].rsplit(" ", 3)[0] for l in open(os.path.join(d, "tasks.0.trc")) if l.startswith("task ")]
expected = {"unnamed", '"caf\ufffd cr\ufffdme"', "x" * 200, '"copy \\"block\\" \\\\ 1"', "main",
            "outer", "inner"}
assert set(types) == expected, set(types) ^ expected
warnings = [w for w in tomllib.load(open(os.path.join(d, "rank-0.toml"), "rb"))["warnings"]
            if not w.startswith("the program was compiled with")]
# NULL, the two unreadable names, not UTF-8, too long, the two misnamed ends: each said once;
# past the first three misnamed ends, one line says more follow.
assert len(warnings) == len(set(warnings)) and len(warnings) == 8, warnings
assert sum("only the first 3" in w for w in warnings) == 1, warnings
PY
  then
    ok "$name: NULL, unreadable, Latin-1, 300-byte and quoted names and misnamed ends give a valid UTF-8 set that replay and tareador-tasks read, each said once"
  else
    not_ok "$name" "$(head -3 "$scratch/validate" | tr '\n' ' ') $(grep '^task' "$dir/tasks.0.trc" | tr '\n' '|')"
  fi
done

# ---- The earlier API, unchanged ------------------------------------------------------------------
dir="$scratch/oldapi"
trace "$dir" "$labs/oldapi"
if grep -q '^norm' "$dir.log" &&
   [ "$(edges "$dir/tasks.0.trc" | cut -d' ' -f1 | sort | tr '\n' ' ')" = "2->3 2->4 2->5 2->6 3->7 4->7 5->7 6->7 " ]; then
  ok "oldapi: <tareador_hooks.h>, tareador_end_task() and -ltareador: init -> 4 relax -> norm"
else
  not_ok "oldapi" "$(tail -2 "$dir.log" | tr '\n' ' ') edges: $(edge_list "$dir")"
fi

echo "# $passed passed, $failed failed"
[ "$failed" -eq 0 ]
