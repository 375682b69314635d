#!/usr/bin/env bash
# The annotated source end to end (docs/emit-source.md): task examples traced under the tool,
# `tareador-tasks --emit-source` writes the diff, `patch` applies it to a copy of the source,
# the copy is compiled with -fopenmp and run on 4 threads, and its output must equal the
# sequential program's (each example checks its own result and prints a checksum).
#
# Environment (set by `make check`): TAREADOR, TASKS, TASK_EXAMPLES_BUILD, EXAMPLES_DIR,
# VG_TESTS_BUILD, TESTS_DIR, CC, CXX.
set -u
: "${TAREADOR:?}" "${TASKS:?}" "${TASK_EXAMPLES_BUILD:?}" "${EXAMPLES_DIR:?}" "${TESTS_DIR:?}"
: "${VG_TESTS_BUILD:?}"
. "$TESTS_DIR/vg/common.sh"
cc=${CC:-cc}

if ! echo 'int main(void) { int x = 0;
#pragma omp parallel
#pragma omp single
#pragma omp task depend(inout: x)
x++;
return x != 1; }' >"$scratch/probe.c" ||
  ! "$cc" -fopenmp "$scratch/probe.c" -o "$scratch/probe" >/dev/null 2>&1 || ! "$scratch/probe"; then
  echo "1..0 # SKIP no OpenMP compiler: $cc -fopenmp cannot build and run a task program"
  exit 77
fi
if ! command -v patch >/dev/null; then
  echo "1..0 # SKIP no patch command (Debian package patch)"
  exit 77
fi

# annotate NAME SOURCE_DIR BUILD_DIR [ARGS...]: traces BUILD_DIR/NAME, applies its diff to a
# copy of SOURCE_DIR/NAME.c (or of the files NAME_*.c of a program of several, or NAME.cpp,
# built with $CXX), builds and runs the copy (with $run_args when set: an input larger than the
# traced one, else ARGS; traced with the tool's options $tool_args when set); the diff is
# $scratch/NAME.diff, the copy $scratch/NAME/NAME.c.
annotate() {
  local name=$1 sources=$2 build=$3
  local -a compiler=("$cc") run options=() files=("$1.c")
  shift 3
  run=("$@")
  [ -z "${run_args:-}" ] || read -ra run <<<"$run_args"
  [ -z "${tool_args:-}" ] || read -ra options <<<"$tool_args"
  [ -f "$sources/${files[0]}" ] || { files=("$sources/$name"_*.c) && files=("${files[@]##*/}"); }
  [ -f "$sources/${files[0]}" ] || { files=("$name.cpp"); read -ra compiler <<<"${CXX:-c++}"; }
  local set="$scratch/$name.set" copy="$scratch/$name"
  rm -rf "$set" "$copy"
  mkdir -p "$copy"
  (cd "$sources" && cp "${files[@]}" "$copy/")
  timeout 300 "$TAREADOR" --trace-dir="$set" --task-report=no "${options[@]}" "$build/$name" "$@" \
    >"$set.log" 2>&1 || { echo "trace failed: $(tail -2 "$set.log")"; return 1; }
  "$TASKS" "$set" --emit-source -o "$scratch/$name.diff" 2>"$scratch/$name.notes" ||
    { echo "emit failed: $(cat "$scratch/$name.notes")"; return 1; }
  patch -s -p1 -d "$copy" <"$scratch/$name.diff" || { echo "the diff does not apply"; return 1; }
  "${compiler[@]}" -O1 -fopenmp -I "$TESTS_DIR/../vg-tool" "${files[@]/#/$copy/}" -o "$copy/$name" -lm \
    2>"$copy/cc.log" || { echo "no build: $(head -3 "$copy/cc.log")"; return 1; }
  OMP_NUM_THREADS=4 timeout 60 "$copy/$name" "${run[@]}" >"$copy/parallel.out" 2>&1 ||
    { echo "the parallel run failed: $(cat "$copy/parallel.out")"; return 1; }
  "$build/$name" "${run[@]}" >"$copy/sequential.out" 2>&1
  cmp -s "$copy/parallel.out" "$copy/sequential.out" ||
    { echo "$(cat "$copy/parallel.out") differs from $(cat "$copy/sequential.out")"; return 1; }
}
example() { annotate "$1" "$EXAMPLES_DIR/tasks" "$TASK_EXAMPLES_BUILD" "${@:2}"; }
# checked STATUS NAME MESSAGE: ok MESSAGE when STATUS is 0, else not ok with what NAME's diff adds.
checked() {
  if [ "$1" = 0 ]; then
    ok "$3"
  else
    not_ok "$2" "$(grep '^[-+]' "$scratch/$2.diff" | tr '\n' '|')"
  fi
}
# annotated NAME [ARGS...]: tests/vg/NAME annotated, built and run: ok when it prints the
# sequential result.
annotated() {
  local why
  if why=$(annotate "$1" "$TESTS_DIR/vg" "$VG_TESTS_BUILD" "${@:2}"); then
    ok "$1: the annotated source builds with -fopenmp and computes the sequential result"
  else
    not_ok "$1" "$why"
  fi
}

# ---- Jacobi: heap grids named by their variables, the pragma, the region around the loop -------
if why=$(example jacobi 32 4 3); then
  ok "jacobi: the annotated source builds with -fopenmp and computes the sequential result"
else
  not_ok "jacobi" "$why"
fi
# The grids u and v (malloc'd into those variables) as sections of doubles: the interior rows and
# columns the tasks touch, rows 0..33 of 34 (bytes 8 .. 34*34*8-8); the creating code's
# variables the task uses are copied at creation; the region opens before the sweep loop.
task='#pragma omp task firstprivate(src, dst, n, rows) depend(inout: u[1:1154], v[1:1154])'
if grep -qxF "+         $task" "$scratch/jacobi.diff" &&
  grep -A3 -xF '+   #pragma omp parallel' "$scratch/jacobi.diff" | grep -q 'for (int s = 0'; then
  ok "jacobi: the task pragma names u and v as sections; the region holds the sweep loop"
else
  not_ok "jacobi" "unexpected diff: $(grep '^+' "$scratch/jacobi.diff" | tr '\n' '|')"
fi

# ---- Cholesky: one block per malloc, the blocks named by a stand-in; nested tasks (mergesort,
# multisort: a task waits for its children), taskwait-free sparse LU, transpose ---------------------
for example in cholesky sparselu transpose mergesort multisort; do
  if why=$(example "$example"); then
    ok "$example: the annotated source builds with -fopenmp and computes the sequential result"
  else
    not_ok "$example" "$why"
  fi
done
grep -q '^+char tareador_dep_0 __attribute__((weak)); /\* stands for malloc@cholesky.c:[0-9]* in the task clauses \*/$' \
  "$scratch/cholesky.diff" &&
  ok "cholesky: the tiles, which no variable in scope names, have a stand-in" ||
  not_ok "cholesky" "no stand-in declared: $(grep '^+' "$scratch/cholesky.diff" | head -3 | tr '\n' '|')"

# ---- A taskwait where main reads what its tasks wrote, inside the loop that creates them --------
annotated taskwait
if grep -B1 -xF '       total += sum(a, n) - sum(b, n);' "$scratch/taskwait.diff" |
  grep -qxF '+      #pragma omp taskwait'; then
  ok "taskwait: main waits for its tasks right before it sums what they wrote"
else
  not_ok "taskwait" "no taskwait before the sum: $(grep '^+' "$scratch/taskwait.diff" | tr '\n' '|')"
fi

# ---- Results in locals of the creating code: shared, not copied --------------------------------
annotated results
# (u, passed to a function whose task reads it, is a stand-in: its name there is another)
grep -qxF '+      #pragma omp task firstprivate(u, n) shared(residual) depend(out: residual) depend(inout: tareador_dep_0)' \
    "$scratch/results.diff" &&
  grep -qxF '+   #pragma omp task firstprivate(n, u) shared(total) depend(in: tareador_dep_0) depend(inout: total)' "$scratch/results.diff"
checked $? results "results: a residual the loop tests and a sum printed after tracing are shared and in the depend clauses"
grep -qxF '+   double average;' "$scratch/results.diff" &&
  grep -qxF -- '-   double average = mean(u, n);' "$scratch/results.diff" &&
  grep -qxF '+   average = mean(u, n);' "$scratch/results.diff" &&
  grep -qxF '+   #pragma omp task firstprivate(n, u) shared(s) depend(in: tareador_dep_0) depend(inout: s)' "$scratch/results.diff" &&
  grep -A1 -F 'tareador_end_task("mean");' "$scratch/results.diff" | grep -qxF '+   #pragma omp taskwait'
checked $? results "results: a variable declared in the region and printed after it is declared before it; a function's local its task writes is shared, and waited for before it returns it"

# ---- How course code passes data between tasks: C89 counters, block scopes, a sibling's read,
# a solver loop in a function main calls --------------------------------------------------------
annotated flows
grep -qxF '+   #pragma omp task firstprivate(v) shared(norm) depend(in: v[0:4096]) depend(inout: norm)' "$scratch/flows.diff" &&
  grep -qxF '+      #pragma omp task firstprivate(i, b, v) shared(norm) depend(in: norm) depend(inout: v[0:4096])' "$scratch/flows.diff" &&
  grep -A4 -F 'residual = relax(u, n);' "$scratch/flows.diff" | grep -qxF '+      #pragma omp taskwait'
checked $? flows "flows: counters stay copies, a norm a sibling reads is shared and ordered, the solver in a function waits for each step there"

# ---- Results through pointers into callers' locals; a counter declared inside a task -----------
annotated pointers
grep -B1 -F 'return a + b;' "$scratch/pointers.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -A1 -F 'steps++;' "$scratch/pointers.diff" | grep -qF '#pragma omp taskwait' &&
  grep -qxF '+   #pragma omp task firstprivate(i, x) shared(mean) depend(in: tareador_dep_0) depend(inout: mean)' \
    "$scratch/pointers.diff" &&
  grep -qxF '+   /* i: declared before the task */' "$scratch/pointers.diff"
checked $? pointers "pointers: a caller waits before it adds what its callee's tasks wrote, a solver loop waits each step, a mean divided after tracing is shared, a counter declared in a task is declared before it"

# ---- Disabled flags of recursive functions: shared, and waited for before they are read or returned
annotated searches
grep -B1 -F 'return found;' "$scratch/searches.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -B1 -F 'if (found) marked[quarter] = 1;' "$scratch/searches.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -qxF '+      #pragma omp task firstprivate(quarter, half, target) shared(found)' "$scratch/searches.diff"
checked $? searches "searches: a disabled flag of a function that is not the region's is shared, and waited for before the function reads it or returns it"

# ---- Local arrays the tasks write: shared; ordered only when tasks share their elements --------
annotated partials
grep -qxF '+      #pragma omp task firstprivate(b, size, step) shared(partial)' "$scratch/partials.diff" &&
  grep -B1 -F 'for (b = 0; b < BLOCKS; b++) sum += partial[b];' "$scratch/partials.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -qxF '+   #pragma omp task firstprivate(i, pi) shared(table) depend(out: table)' "$scratch/partials.diff" &&
  grep -qxF '+      #pragma omp task firstprivate(i, k) shared(table) depend(in: table) depend(out: scaled)' "$scratch/partials.diff"
checked $? partials "partials: a local array of partial sums is shared without depend clauses and waited for; a table one task fills for others is shared and ordered"

# ---- C++ reference parameters: shared (orphaned tasks would copy what they refer to); main's
# locals they refer to are in the clauses: `total` by its reference, the vector (named `v` and
# `from`) and the global array (named `to`) by stand-ins ------------------------------------
annotated references
grep -qxF '+      #pragma omp task firstprivate(size) shared(v) depend(in: tareador_dep_1) depend(out: tareador_dep_0)' "$scratch/references.diff" &&
  grep -qxF '+   #pragma omp task shared(to, from) depend(in: tareador_dep_0, tareador_dep_1) depend(out: tareador_dep_2)' "$scratch/references.diff" &&
  grep -qxF '+   #pragma omp task shared(total, to) depend(in: tareador_dep_2) depend(inout: total)' "$scratch/references.diff"
checked $? references "references: a vector, an array and a result passed by C++ reference are shared"

# ---- A task reads a histogram earlier tasks updated while disabled: a taskwait before its creation
annotated histogram
grep -A1 -xF '+   #pragma omp taskwait' "$scratch/histogram.diff" | grep -qxF '    tareador_start_task("cumulate");'
checked $? histogram "histogram: the task that reads a disabled reduction is created after a taskwait for the updates"

# ---- A merge into a disabled record: a critical section (no atomic update does two statements) -
annotated stats
grep -A3 -xF '+      #pragma omp critical' "$scratch/stats.diff" | grep -qxF '       tareador_disable_object(&all);' &&
  grep -B1 -xF '+      #pragma omp critical' "$scratch/stats.diff" | grep -qxF '+      long total;' &&
  grep -B1 -xF '       running[b] = total;' "$scratch/stats.diff" | grep -qxF '+      }' &&
  grep -qxF '+      #pragma omp task firstprivate(i, b, sum, max) shared(running) depend(in: samples)' "$scratch/stats.diff" &&
  ! grep -q 'omp critical' "$scratch/histogram.diff"
checked $? stats "stats: the merge between tareador_disable_object and tareador_enable_object is a critical section, the total it declares declared before it (histogram's own atomic updates are not); sum and max, whose names only members share after tracing, stay copies"

# ---- Globals hidden at the task by parameters of their names: stand-ins, not the parameters --
annotated shadowed
# (x and y in main's clauses are the global pointers themselves, which the tasks read there)
grep -qxF '+   #pragma omp task firstprivate(n, x, y) depend(in: tareador_dep_1) depend(out: tareador_dep_0)' "$scratch/shadowed.diff" &&
  grep -qxF '+   #pragma omp task firstprivate(n, b, a) depend(in: tareador_dep_2) depend(out: tareador_dep_3)' "$scratch/shadowed.diff" &&
  grep -qxF '+   #pragma omp task shared(s, t) depend(in: tareador_dep_0, x, tareador_dep_3) depend(inout: s, t)' "$scratch/shadowed.diff"
checked $? shadowed "shadowed: globals (heap pointers and arrays) hidden by parameters of their names at the task are stand-ins"

# ---- Buffers swapped after a pass: the blocks by stand-ins, not by their pointers' first names -
annotated swapped
grep -qxF '+      #pragma omp task firstprivate(rows, n, tmp, img) depend(in: tareador_dep_0) depend(out: tareador_dep_1)' "$scratch/swapped.diff" &&
  grep -qxF '+   #pragma omp task firstprivate(n, img) shared(s) depend(in: tareador_dep_1) depend(inout: s)' "$scratch/swapped.diff"
checked $? swapped "swapped: blocks whose pointers are swapped are named by stand-ins, so the task that reads the result follows the tasks that wrote it"

# ---- A solver loop in the region's function: its disabled residual waited for before each test -
annotated solver
grep -A1 -xF '       iter++;' "$scratch/solver.diff" | grep -qxF '+      #pragma omp taskwait'
checked $? solver "solver: main waits for the disabled updates of its residual before each test of the loop"

# ---- Tasks whose recursion created no task under them in the traced run: they wait at their end
# all the same, for the larger inputs where they do --------------------------------------------
run_args=1048576 annotated prefix 128
grep -A1 -xF '    scan(v, n / 2);' "$scratch/prefix.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -qF 'task half calls scan, which creates tasks (none under it in the traced run)' \
    "$scratch/prefix.notes" &&
  ! grep -A1 -F 'v[i] += v[n / 2 - 1];' "$scratch/prefix.diff" | grep -qF taskwait
checked $? prefix "prefix: a half task waits for the tasks its call of scan creates on larger inputs (noted); combine, which calls nothing, does not wait"
if why=$(run_args="256 1 1" example multisort 8 1 1); then
  ok "multisort traced at 8 1 1 (no task under the sorts), run at 256 1 1: the sequential result"
else
  not_ok "multisort at 8 1 1" "$why"
fi

# ---- The creating code overwrites what a pending task reads: seen only with write-after-read ---
tool_args=--deps=raw+war annotated overwrite
grep -A1 -xF '       tareador_end_task("scale");' "$scratch/overwrite.diff" |
  grep -qxF '+      #pragma omp taskwait' &&
  ! grep -qF 'traced without --deps=raw+war' "$scratch/overwrite.notes"
checked $? overwrite "overwrite: traced with war, main waits for the task reading the coefficient before setting the next one"
"$TAREADOR" --trace-dir="$scratch/overwrite-raw.set" --task-report=no "$VG_TESTS_BUILD/overwrite" \
  >"$scratch/overwrite-raw.log" 2>&1 &&
  "$TASKS" "$scratch/overwrite-raw.set" --emit-source -o "$scratch/overwrite-raw.diff" \
    2>"$scratch/overwrite-raw.notes" &&
  grep -qxF 'dependencies = "raw"' "$scratch/overwrite-raw.set/rank-0.toml" &&
  grep -qF 'note: rank 0 was traced without --deps=raw+war: where the creating code overwrites data a task it created before reads, the annotated source does not wait for that task' \
    "$scratch/overwrite-raw.notes" &&
  ! grep -qF 'taskwait' "$scratch/overwrite-raw.diff"
checked $? overwrite-raw "overwrite: traced without war, the annotation says it cannot see the overwrite (the rank manifest says which dependencies were found)"

# ---- alloca in a task's code moves the creating function's stack pointer: the creating code is
# still found by its frame (the wait before the sum, where the trace says it reads the results) --
annotated allocasite
sum=$(grep -n -F 'for (i = 0; i < 4; i++) s += part[i];' "$TESTS_DIR/vg/allocasite.c" | cut -d: -f1)
[ "$(awk '$1 == "after" { print $NF }' "$scratch/allocasite.set/tasks.0.trc" | sed 's/.*\///' | sort -u)" = "allocasite.c:$sum" ] &&
  ! awk '$1 == "spawn" { print $NF }' "$scratch/allocasite.set/tasks.0.trc" | grep -vq '/allocasite\.c:' &&
  grep -B1 -xF '    for (i = 0; i < 4; i++) s += part[i];' "$scratch/allocasite.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -qE '^\+ *#pragma omp task .*shared\(part\)' "$scratch/allocasite.diff"
checked $? allocasite "allocasite: with alloca in the leaves' code and in main, the leaves are waited for where sum4 adds them up (part shared) and the outer tasks are created in main"

# ---- The program's own OpenMP: no region nested in its region, no task around its task ---------
annotated ownomp
[ "$(grep -c '^+.*#pragma omp' "$scratch/ownomp.diff")" = 1 ] &&
  grep -qxF '+      #pragma omp task depend(in: part) depend(inout: total)' "$scratch/ownomp.diff" &&
  grep -qE 'ownomp.c:[0-9]+: the code that creates the tasks is already in the program.s parallel region' \
    "$scratch/ownomp.notes" &&
  grep -qE 'ownomp.c:[0-9]+: task fill is already an OpenMP task in the source' "$scratch/ownomp.notes"
checked $? ownomp "ownomp: the program's parallel region and task are kept, not nested in new ones (noted); its other task gets a pragma"
# With a task pragma of its own over the other task too: nothing to change, and said so.
mkdir -p "$scratch/ownomp2" && cp -r "$scratch/ownomp.set" "$scratch/ownomp2.set"
sed 's|^ *\/\* (the test puts a task pragma .*|#pragma omp task|' "$TESTS_DIR/vg/ownomp.c" \
  >"$scratch/ownomp2/ownomp.c"
sed -i -E 's#[^ ]*/ownomp\.c:#/nowhere/ownomp.c:#g' "$scratch/ownomp2.set/tasks.0.trc"
"$TASKS" "$scratch/ownomp2.set" --emit-source --source-dir="$scratch/ownomp2" \
  >"$scratch/ownomp2.diff" 2>"$scratch/ownomp2.notes"
[ $? = 0 ] && [ ! -s "$scratch/ownomp2.diff" ] &&
  grep -qxF 'tareador-tasks: nothing to change in the sources' "$scratch/ownomp2.notes" &&
  grep -qF 'ownomp.c:35: task total is already an OpenMP task' "$scratch/ownomp2.notes"
checked $? ownomp2 "ownomp with all its tasks its own: an empty diff, and nothing to change said"

# ---- Tareador calls inside #ifdef TRACE: the pragmas and braces outside the conditionals -------
annotated ifdefs
grep -A1 -xF '       work(b);' "$scratch/ifdefs.diff" | grep -qxF '+      }' &&
  grep -B3 -xF '       work(b);' "$scratch/ifdefs.diff" | grep -qxF ' #endif' &&
  grep -qE 'ifdefs.c:27: the task work starts or ends inside a preprocessor conditional' \
    "$scratch/ifdefs.notes"
checked $? ifdefs "ifdefs: a task started inside #ifdef TRACE gets its pragma after the #endif, so that the OpenMP build without TRACE has it (noted)"

# A stand-in in a file that includes tareador.h inside #ifdef TRACE: declared after the #endif,
# so that the OpenMP build without TRACE has it.
annotated standin
grep -A1 -xF ' #endif' "$scratch/standin.diff" | grep -q '^+char tareador_dep_0 '
checked $? standin "standin: a stand-in is declared after the #endif around the include of tareador.h"

# Tasks that call a function of another file, which updates a disabled histogram there: that
# file, which the trace does not name, gets the critical section; the diff patches both.
annotated otherfile
grep -A3 -xF '+      #pragma omp critical' "$scratch/otherfile.diff" | grep -qF 'hist[img[i] >> 4]++;' &&
  grep -qxF -- '--- a/otherfile_kern.c' "$scratch/otherfile.diff" &&
  grep -qxF -- '--- a/otherfile_main.c' "$scratch/otherfile.diff"
checked $? otherfile "otherfile: a disabled update in a function of another file the tasks call is a critical section"

# ---- Buffers of the creating frame reached through pointers (an alloca block, a caller's array):
# no copy of them goes into the task, so the function that creates it waits before it returns --
annotated frames
grep -A2 -xF '    tareador_end_task("alloca");' "$scratch/frames.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -A2 -xF '    tareador_end_task("caller");' "$scratch/frames.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -qF 'task alloca uses alloca@frames.c:' "$scratch/frames.notes"
checked $? frames "frames: a task reading an alloca block or a caller's array through a pointer is waited for before its creator returns"
# The report's hints say the same: the alloca block is no firstprivate local.
report=$("$TASKS" "$scratch/frames.set" 2>&1)
line=$(grep -n 'alloca(M' "$TESTS_DIR/vg/frames.c" | cut -d: -f1)
if grep -qE "^    stack buffers: alloca@frames\.c:$line \(" <<<"$report" &&
  ! grep -E '^    firstprivate:' <<<"$report" | grep -qF 'alloca@'; then
  ok "frames: the porting hints list the alloca block as a stack buffer, not as firstprivate"
else
  not_ok frames "hints: $(grep -E '^    (firstprivate|stack buffers):' <<<"$report" | tr '\n' '|')"
fi

# ---- Arrays of main, which the functions main calls create tasks on through their parameters:
# the tasks share them, so the clauses must order them (the sums came out wrong without): the
# vector by its pointer, the matrix (whose rows the source does not size) by a stand-in --------
annotated callers
grep -qxF '+         #pragma omp task firstprivate(size, blocks, n, v) depend(inout: v[0:4096])' \
    "$scratch/callers.diff" &&
  grep -qxF '+         #pragma omp task depend(inout: tareador_dep_0)' "$scratch/callers.diff"
checked $? callers "callers: arrays of main its callees' tasks use through parameters are in the depend clauses"
report=$("$TASKS" "$scratch/callers.set" 2>&1)
if grep -qE '^    through a pointer: v \(' <<<"$report" && grep -qE '^    inout +v +stack ' <<<"$report" &&
  grep -qE '^    through a pointer: a \(' <<<"$report" && ! grep -qF '[stack' <<<"$report"; then
  ok "callers: the report names main's arrays in the clauses, with no warning of locals written"
else
  not_ok "callers report" "$(grep -E '^    (through|inout|firstprivate)|\[stack' <<<"$report" | tr '\n' '|')"
fi

# ---- A pointer the creating loop moves on, read by the task: copied, so no wait in the loop ----
annotated walkers
awk '/^[+ ].*for \(int b = 0/,/^[+ ]   }$/' "$scratch/walkers.diff" | grep -q 'omp taskwait'
walked=$?
grep -qE '^\+ *#pragma omp task firstprivate\(p\)' "$scratch/walkers.diff" &&
  grep -qE '^\+ *#pragma omp task firstprivate\(row\)' "$scratch/walkers.diff" && [ "$walked" = 1 ] &&
  ! grep -q 'through a pointer' "$scratch/walkers.notes"
checked $? walkers "walkers: a pointer the loop moves on (p += B, a row pointer per iteration) is firstprivate, with no taskwait in the loops"

# ---- A disabled counter the leaves of a task tree add into, in the function the tasks call: a
# critical section there (the update creates no task) -------------------------------------------
run_args=16 annotated leaves 3
grep -A3 -xF '+      #pragma omp critical' "$scratch/leaves.diff" | grep -qxF '       tareador_disable_object(&leaves);' &&
  grep -B1 -xF '       return;' "$scratch/leaves.diff" | grep -qxF '+      }'
checked $? leaves "leaves: the leaves' update of a disabled counter, in the function the tasks call, is a critical section"

# ---- Tasks writing their own elements of an array of the creating function's activation (a
# function called by tasks, a recursive one): no depend clause serialises them ---------------------
run_args=6 annotated activations 2
grep -qxF '+      #pragma omp task firstprivate(i, base) shared(part)' "$scratch/activations.diff" &&
  grep -qxF '+      #pragma omp task firstprivate(d, k, i) shared(part)' "$scratch/activations.diff" &&
  grep -B1 -F 'for (i = 0; i < 4; i++) s += part[i] * (i + 1);' "$scratch/activations.diff" | grep -qxF '+   #pragma omp taskwait' &&
  grep -B1 -F '*out = part[0] + 3 * part[1];' "$scratch/activations.diff" | grep -qxF '+   #pragma omp taskwait'
checked $? activations "activations: each activation's array, whose elements its tasks write apart, is shared without depend clauses and waited for before the sum"

# ---- OmpSs: the same decomposition, clauses in the OmpSs syntax ---------------------------------
if "$TASKS" "$scratch/jacobi.set" --emit-source --dialect=ompss -q >"$scratch/ompss.diff" &&
  grep -qxF '+         #pragma omp task firstprivate(src, dst, n, rows) inout(u[1;1154], v[1;1154])' \
    "$scratch/ompss.diff"; then
  ok "jacobi --dialect=ompss: inout(u[..], v[..])"
else
  not_ok "jacobi --dialect=ompss" "$(grep '^+' "$scratch/ompss.diff" | tr '\n' '|')"
fi

# ---- Bad input: a set traced before the sources were recorded, a source that moved ---------------
cp -r "$scratch/jacobi.set" "$scratch/old.set"
sed -i -E 's/^(task [0-9]+ [^ ]+ [0-9]+) .*/\1/' "$scratch/old.set/tasks.0.trc"
"$TASKS" "$scratch/old.set" --emit-source >/dev/null 2>"$scratch/old.err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'records no source lines' "$scratch/old.err"; then
  ok "a trace without source lines: exit 1 and why"
else
  not_ok "a trace without source lines" "rc $rc: $(cat "$scratch/old.err")"
fi
rm -rf "$scratch/old.set"
cp -r "$scratch/jacobi.set" "$scratch/old.set"
sed -i -E 's#[^ ]*/jacobi\.c:#/nowhere/jacobi.c:#g' "$scratch/old.set/tasks.0.trc"
"$TASKS" "$scratch/old.set" --emit-source >/dev/null 2>"$scratch/old.err"
rc=$?
if [ $rc -eq 1 ] && grep -q '/nowhere/jacobi.c: cannot read the source file' "$scratch/old.err" &&
  "$TASKS" "$scratch/old.set" --emit-source --source-dir="$EXAMPLES_DIR/tasks" -q |
  grep -q '^+++ b/jacobi.c$'; then
  ok "sources not where the debug information says: an error naming them, --source-dir finds them"
else
  not_ok "moved sources" "rc $rc: $(cat "$scratch/old.err")"
fi

echo "# $passed passed, $failed failed"
[ "$failed" -eq 0 ]
