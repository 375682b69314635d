#!/usr/bin/env bash
# End-to-end tests of `replay`, through its command line only.
#
# Run by `make check` with REPLAY, GEN_RING, TESTS_DIR and EXAMPLES_DIR set (see Makefile.am);
# by hand, from anywhere:  tests/e2e/run.sh  (defaults: the build in <source>/build).
# Prints one line per case (`ok - name` / `not ok - name: why`) and a summary; exits 0 only
# when every case passes. Scratch files go to a fresh temporary directory, removed on exit.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
REPLAY=${REPLAY:-$top/build/replay/replay}
GEN_RING=${GEN_RING:-$top/build/bench/gen_ring}
TESTS_DIR=${TESTS_DIR:-$top/tests}
EXAMPLES_DIR=${EXAMPLES_DIR:-$top/examples}
FIX=$TESTS_DIR/fixtures/dimemas
NOBUS=$FIX/cfg_4n_nobus.cfg
MN_CFG=$EXAMPLES_DIR/marenostrum.cfg
MN_TOML=$EXAMPLES_DIR/marenostrum.toml
TIMEOUT=20   # seconds any one command may take

for tool in "$REPLAY" "$GEN_RING"; do
  [ -x "$tool" ] || { echo "not ok - setup: $tool is not executable"; exit 1; }
done
command -v python3 >/dev/null || { echo "not ok - setup: python3 is required"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tareador-e2e.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
cd "$WORK" || exit 1

# ---- helpers --------------------------------------------------------------------------------

# run CMD...: runs CMD under a timeout; sets RC, OUT (stdout) and ERR (stderr).
run() {
  timeout "$TIMEOUT" "$@" >"$WORK/.out" 2>"$WORK/.err"
  RC=$?
  OUT=$(cat "$WORK/.out")
  ERR=$(cat "$WORK/.err")
}
replay() { run "$REPLAY" "$@"; }

# Failures of the current case accumulate in WHY; a case passes when WHY stays empty.
WHY=""
fail() { local msg="$*"; WHY="${WHY:+$WHY; }${msg//$'\n'/ | }"; }  # one line per case

# assert_rc EXPECTED: the last run's exit status, telling crashes and hangs apart.
assert_rc() {
  [ "$RC" -eq "$1" ] && return 0
  if [ "$RC" -eq 124 ]; then fail "timed out after ${TIMEOUT}s (expected exit $1)"
  elif [ "$RC" -ge 128 ]; then fail "crashed with signal $((RC - 128)) (expected exit $1): $ERR"
  else fail "exit $RC, expected $1: $(printf '%s' "$ERR" | head -c 400)"; fi
  return 1
}
assert_eq() {  # ACTUAL EXPECTED WHAT
  [ "$1" = "$2" ] || { fail "$3: got '$1', expected '$2'"; return 1; }
}
assert_near() {  # ACTUAL EXPECTED TOLERANCE WHAT
  if ! awk -v a="$1" -v b="$2" -v t="$3" \
      'BEGIN { if (a == "" || b == "") exit 1; d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; then
    fail "$4: got $1, expected $2 (within $3)"; return 1
  fi
}
assert_not_less() {  # ACTUAL MINIMUM WHAT
  awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }' ||
    { fail "$3: got $1, expected at least $2"; return 1; }
}
assert_contains() {  # TEXT NEEDLE WHAT
  case "$1" in *"$2"*) return 0 ;; esac
  fail "$3: '$2' not in: $(printf '%s' "$1" | head -c 400)"; return 1
}
assert_matches() {  # TEXT EXTENDED-REGEX WHAT
  printf '%s\n' "$1" | grep -Eq -- "$2" ||
    { fail "$3: /$2/ not in: $(printf '%s' "$1" | head -c 400)"; return 1; }
}
assert_file() {  # PATH
  [ -s "$1" ] || { fail "$(basename "$1") missing or empty"; return 1; }
}
assert_same_file() {  # A B WHAT
  cmp -s "$1" "$2" || { fail "$3: $(basename "$1") and $(basename "$2") differ"; return 1; }
}

# json FILE EXPR: evaluates the Python expression EXPR on the JSON document `d` in FILE
# (floats printed with repr, i.e. exactly); prints nothing if FILE is not valid JSON.
json() {
  python3 -S - "$1" "$2" <<'EOF' 2>/dev/null
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    v = eval(sys.argv[2], {"d": d})
except Exception:
    sys.exit(1)
print(repr(v) if isinstance(v, float) else v)
EOF
}

# total CFG TRACE [ARGS...]: replays TRACE on CFG with --json and sets TOTAL to
# traces[0].total_time_s (not in a subshell, so that failures are recorded); 1 on failure.
total() {
  local cfg=$1 trace=$2; shift 2
  TOTAL=""
  replay -q --config "$cfg" "$trace" --json "$WORK/.total.json" "$@"
  assert_rc 0 || return 1
  TOTAL=$(json "$WORK/.total.json" 'd["traces"][0]["total_time_s"]') ||
    { fail "no traces[0].total_time_s in the JSON of $(basename "$trace")"; return 1; }
}

# totals CFG TRACE...: replays the TRACEs together on CFG; sets TOTALS to their total_time_s
# (space-separated, in order); 1 on failure.
totals() {
  local cfg=$1; shift
  TOTALS=""
  replay -q --config "$cfg" "$@" --json "$WORK/.totals.json"
  assert_rc 0 || return 1
  TOTALS=$(json "$WORK/.totals.json" '" ".join(repr(t["total_time_s"]) for t in d["traces"])') ||
    { fail "no traces[].total_time_s in the JSON"; return 1; }
}

# tasks_of DIM: the number of tasks in the header of a .dim file.
tasks_of() { head -1 "$1" | sed -E 's/^#DIMEMAS:"[^"]*":[^:]*:([0-9]+)\(.*/\1/'; }

# expected TRACE CONFIG: the time in expected_times.txt.
expected() { awk -v t="$1" -v c="$2" '$1 == t && $2 == c { print $3 }' "$FIX/expected_times.txt"; }

# Fixture traces, and the configurations expected_times.txt gives for each.
fixtures() { awk 'NF == 3 { print $1 }' "$FIX/expected_times.txt" | awk '!seen[$0]++'; }
configs_of() { awk -v t="$1" '$1 == t { print $2 }' "$FIX/expected_times.txt"; }

# A small hand-written .dim without offsets: mkdim FILE NAME TASKS RECORD... (one per line).
mkdim() {
  local file=$1 name=$2 tasks=$3 threads members i; shift 3
  threads=1 members=0
  for ((i = 1; i < tasks; i++)); do threads="$threads,1" members="$members:$i"; done
  {
    printf '#DIMEMAS:"%s":0:%d(%s),1\n' "$name" "$tasks" "$threads"
    printf 'd:1:1:%d:%s\n' "$tasks" "$members"
    printf '%s\n' "$@"
  } >"$file"
}

# The pingpong fixture without offsets, line 6 replaced by $2 (lines 1-2 are the header).
pingpong_with_line6() {
  mkdim "$1" pp 2 \
    1:0:0:0.001 2:0:0:1:-1:1000000:1:1:0 3:0:0:1:-1:1000000:2:1:0 "$2" \
    1:1:0:0 3:1:0:0:-1:1000000:1:1:0 2:1:0:0:-1:1000000:2:1:0 1:1:0:0
}

# The model of pingpong.dim (two 1e6-byte messages one after the other, 1 ms of compute):
# compute + 2 * (latency + 1e6 / (bandwidth * 2^20)).
pingpong_model() {  # COMPUTE LATENCY BANDWIDTH
  awk -v c="$1" -v l="$2" -v b="$3" 'BEGIN { printf "%.17g\n", c + 2 * (l + 1e6 / (b * 1048576)) }'
}

# ---- checkers of the output formats (print one problem per line; nothing when fine) ----------

# check_dim FILE TASKS: a Dimemas file with offsets: `#DIMEMAS:"` header whose offset points at
# the first `s:` line, and it ends with one `s:TASK:OFFSET` line per task, each pointing at the
# start of a record of that task.
check_dim() {
  python3 -S - "$1" "$2" <<'EOF'
import re, sys
data = open(sys.argv[1], "rb").read()
tasks = int(sys.argv[2])
if not data.startswith(b'#DIMEMAS:"'):
    print("does not start with #DIMEMAS:\""); sys.exit()
lines = data.decode().rstrip("\n").split("\n")
m = re.match(r'#DIMEMAS:"[^"]*":1,(\d+):', lines[0])
if not m:
    print("header has no offsets: " + lines[0]); sys.exit()
tail = lines[-tasks:]
for t, line in enumerate(tail):
    m2 = re.fullmatch(r"s:(\d+):(\d+)", line)
    if not m2 or int(m2.group(1)) != t:
        print("expected s:%d:OFFSET among the last %d lines, got %r" % (t, tasks, line)); continue
    off = int(m2.group(2))
    if not (off == 0 or data[off - 1:off] == b"\n") or not re.match(rb"\d+:%d:" % t, data[off:off + 20]):
        print("s:%d:%d does not point at a record of task %d (%r)" % (t, off, t, data[off:off + 20]))
first_s = len("\n".join(lines[:-tasks])) + 1
if int(m.group(1)) != first_s:
    print("header offset %s, but the s: lines start at byte %d" % (m.group(1), first_s))
if lines[-tasks - 1].startswith("s:"):
    print("more s: lines than tasks")
EOF
}

# check_prv FILE JSON: the Paraver header (date; duration = round(total_time_s * 1e9) ns and the
# tasks of the JSON summary's first trace) and records: `c:` lines, 1: (8 fields), 2: (>= 8,
# even), 3: (15 fields), sorted by time, none after the end.
check_prv() {
  python3 -S - "$1" "$2" <<'EOF'
import json, re, sys
path = sys.argv[1]
summary = json.load(open(sys.argv[2]))["traces"][0]
duration, tasks = round(summary["total_time_s"] * 1e9), len(summary["ranks"])
lines = open(path).read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
problems = []
m = re.match(r"^#Paraver \(../../.. at ..:..\):([0-9]+)_ns:", lines[0]) if lines else None
if not m:
    print("bad header: %r" % (lines[0] if lines else "")); sys.exit()
if int(m.group(1)) != duration:
    problems.append("header duration %s ns, expected %d" % (m.group(1), duration))
m2 = re.match(r"^#Paraver [^)]*\):[0-9]+_ns:[^:]*:1:(\d+)\(", lines[0])
if not m2 or int(m2.group(1)) != tasks:
    problems.append("header does not describe 1 application of %d tasks: %r" % (tasks, lines[0]))
last = -1
expected_fields = {"1": 8, "3": 15}
for n, line in enumerate(lines[1:], 2):
    if line.startswith("c:"):
        continue
    f = line.split(":")
    kind = f[0]
    ok_count = (len(f) == expected_fields[kind]) if kind in expected_fields else \
               (kind == "2" and len(f) >= 8 and len(f) % 2 == 0)
    if not ok_count:
        problems.append("line %d: bad record %r" % (n, line)); continue
    if not all(x.isdigit() for x in f):
        problems.append("line %d: non-numeric field in %r" % (n, line)); continue
    t = int(f[5])
    if t < last:
        problems.append("line %d: time %d before the previous record's %d" % (n, t, last))
    last = max(last, t)
    times = [t] + ([int(f[6])] if kind == "1" else []) + ([int(f[11]), int(f[12])] if kind == "3" else [])
    if max(times) > duration:
        problems.append("line %d: time after the trace's end %d: %r" % (n, duration, line))
    if kind == "1" and int(f[6]) < t:
        problems.append("line %d: state ends before it begins: %r" % (n, line))
for p in problems[:5]:
    print(p)
if len(problems) > 5:
    print("... %d problems" % len(problems))
EOF
}

# ---- cases ----------------------------------------------------------------------------------

PASSED=0 FAILED=0
# 12. Tasks traces (tests/fixtures/tasks; mips = 1, so cpu 1000000 lasts 1 s)
TASKS=$TESTS_DIR/fixtures/tasks
tasks_machine() {  # CORES: two nodes of CORES cores, one rank each, an instantaneous network
  printf '%s\n' 'name = "tasks"' '[network]' 'bandwidth = 0.0' 'buses = 0' '[[nodes]]' \
    'count = 2' "cores = $1" 'cpu_ratio = 1.0' 'latency = 0.0' 'input_links = 0' \
    'output_links = 0' '[mapping]' 'tasks_per_node = 1' >"$WORK/tasks$1.toml"
  echo "$WORK/tasks$1.toml"
}
t_tasks_policies() {  # cpwins on 2 cores: fifo 5 s, cp 4 s; 6 s on 1 core
  local cfg; cfg=$(tasks_machine 2)
  replay -q --no-save --config "$cfg" "$TASKS/cpwins" --json "$WORK/fifo.json"; assert_rc 0 || return
  assert_eq "$(json "$WORK/fifo.json" 'd["traces"][0]["total_time_s"]')" 5.0 "fifo time"
  assert_eq "$(json "$WORK/fifo.json" 'd["traces"][0]["tasks"]["speedup"]')" 1.2 "fifo speedup"
  assert_eq "$(json "$WORK/fifo.json" 'd["traces"][0]["tasks"]["profile"][2]["time_s"]')" 1.0 \
    "fifo: 2 cores busy during 1 s"
  replay -q --no-save --config "$cfg" "$TASKS/cpwins" --policy=cp --json "$WORK/cp.json"
  assert_rc 0 || return
  assert_eq "$(json "$WORK/cp.json" 'd["traces"][0]["total_time_s"]')" 4.0 "cp time"
  assert_eq "$(json "$WORK/cp.json" 'd["traces"][0]["tasks"]["efficiency"]')" 0.75 "cp efficiency"
  replay --no-save --config "$cfg" "$TASKS/cpwins" --policy=cp; assert_rc 0 || return
  assert_contains "$OUT" "speedup 1.500" "table"
  assert_contains "$OUT" "cores busy" "profile table"
  replay --no-save --config "$cfg" "$TASKS/cpwins" --policy=lifo; assert_rc 1
}
t_tasks_sweep() {
  local cfg; cfg=$(tasks_machine 1)
  replay --config "$cfg" "$TASKS/cpwins" --policy=cp --cores-sweep=1,2,4 --csv; assert_rc 0 || return
  assert_eq "$OUT" "cores,time_s,speedup,efficiency
1,6.000000000,1.000000,1.000000
2,4.000000000,1.500000,0.750000
4,4.000000000,1.500000,0.375000" "CSV"
  replay --config "$cfg" "$TASKS/nested" --cores-sweep=2,3 --json "$WORK/sweep.json" -q
  assert_rc 0 || return
  assert_eq "$(json "$WORK/sweep.json" '[p["total_time_s"] for p in d["traces"][0]["sweep"]]')" \
    "[6.0, 5.0]" "nested sweep"
}
t_tasks_ideal() {  # unbounded cores: cpwins takes its critical path, c -> d
  local cfg; cfg=$(tasks_machine 1)
  replay -q --no-save --config "$cfg" "$TASKS/cpwins" --ideal --json "$WORK/ideal.json"
  assert_rc 0 || return
  assert_eq "$(json "$WORK/ideal.json" 'd["traces"][0]["total_time_s"]')" 4.0 "time"
  assert_eq "$(json "$WORK/ideal.json" 'd["traces"][0]["tasks"]["cores"]')" "[5]" "cores"
}
t_tasks_mpi() {  # two ranks, MPI inside tasks, 1 core each: the MPI policy preempts
  local cfg; cfg=$(tasks_machine 1)
  replay -q --no-save --config "$cfg" "$TASKS/mpi_preempt" --policy=mpi --json "$WORK/m.json"
  assert_rc 0 || return
  assert_eq "$(json "$WORK/m.json" '[r["end_s"] for r in d["traces"][0]["ranks"]]')" "[5.0, 2.0]" \
    "rank ends"
}
t_tasks_prv() {
  local cfg; cfg=$(tasks_machine 2)
  replay -q --config "$cfg" "$TASKS/nested" --prv "$WORK/n.prv"; assert_rc 0 || return
  assert_contains "$(cat "$WORK/n.row")" "rank 0 core 1" ".row"
  assert_contains "$(cat "$WORK/n.pcf")" "Task type" ".pcf"
  assert_eq "$(grep -c '^3:' "$WORK/n.prv")" 3 "dependencies as communications"
}
t_tasks_critical() {  # cpwins: a, a (1 s), c (2 s) -> d (2 s); 6 s on 1 core, 4 s on 2 (cp)
  local cfg; cfg=$(tasks_machine 1)
  replay --config "$cfg" "$TASKS/cpwins" --policy=cp --critical --cores-sweep=1,2 --factors=2 \
    --csv --sweep-out "$WORK/crit/c" -j 2
  assert_rc 0 || return
  assert_eq "$OUT" "cores,factor,time_s,speedup_main,speedup_a,speedup_c,speedup_d,critical
1,2,6.000000000,1.000000,1.200000,1.200000,1.200000,a+c+d
2,2,4.000000000,1.000000,1.000000,1.333333,1.333333,c+d" "CSV"
  [ -s "$WORK/crit/c.csv" ] && [ -s "$WORK/crit/c-2x.svg" ] || fail "files: $(ls "$WORK/crit")"
  replay -q --no-save --config "$cfg" "$TASKS/cpwins" --policy=cp --set cores=2 --accelerate c=2 \
    --accelerate d=2 --json "$WORK/acc.json"
  assert_rc 0 || return
  assert_eq "$(json "$WORK/acc.json" 'd["traces"][0]["total_time_s"]')" 2.0 "c and d twice as fast"
  replay -q --no-save --config "$cfg" "$TASKS/cpwins" --accelerate x=2; assert_rc 1
  assert_contains "$ERR" "no task type 'x' (its types: main, a, c, d)" "unknown type"
  replay -q --no-save --config "$cfg" "$TASKS/cpwins" --accelerate c=0; assert_rc 1
  assert_contains "$ERR" "'c=0' is not TYPE=FACTOR with a positive factor" "bad factor"
  replay -q --no-save --config "$cfg" "$FIX/pingpong.dim" --critical; assert_rc 1
  assert_contains "$ERR" "pingpong.dim: no tasks trace" "not a tasks trace"
  # Without a tasks trace --accelerate and --cores-sweep would change nothing: refused.
  replay -q --no-save --config "$cfg" "$FIX/pingpong.dim" --accelerate c=2; assert_rc 1
  assert_contains "$ERR" "pingpong.dim: no tasks trace: --accelerate" "--accelerate, not a tasks trace"
  replay -q --no-save --config "$cfg" "$FIX/pingpong.dim" --cores-sweep=1,2; assert_rc 1
  assert_contains "$ERR" "pingpong.dim: no tasks trace: --cores-sweep" "--cores-sweep, not a tasks trace"
  replay -q --no-save --config "$cfg" "$FIX/pingpong.dim" --sweep bandwidth=1,2 --accelerate c=2
  assert_rc 1
  assert_contains "$ERR" "no tasks trace: --accelerate" "--accelerate in a sweep, not a tasks trace"
}
t_tasks_no_conversion() {
  local cfg; cfg=$(tasks_machine 2)
  replay -q --no-save --config "$cfg" "$TASKS/diamond" --dim "$WORK/d.dim"; assert_rc 1
  assert_contains "$ERR" "cannot be converted" "message"
  replay -q --no-save --config "$cfg" "$TASKS/diamond" --native "$WORK/d"; assert_rc 1
}
t_tasks_validate() {
  replay --validate "$TASKS/diamond"; assert_rc 0
  assert_contains "$OUT" "valid" "report"
  cp -r "$TASKS/diamond" "$WORK/bad" && sed -i 's/^spawn 3$/spawn 9/' "$WORK/bad/tasks.0.trc"
  replay --validate "$WORK/bad"; assert_rc 1
  assert_contains "$OUT" "tasks.0.trc:" "file:line"
}

# 13. Sweeps (tests/fixtures/sweep: authentic, overlap-real and overlap-ideal of one message)
SWEEP_FIX=$TESTS_DIR/fixtures/sweep
make_sweep_set() {  # a copy of the fixture set in $WORK/sweep (sweeps write into the set)
  rm -rf "$WORK/sweep" && cp -r "$SWEEP_FIX/set" "$WORK/sweep"
}
. "$here/svg.sh"  # check_svg
t_sweep_bandwidth() {  # times are 8 ms (real 5, ideal 2) + 1 us + 4 MiB / bandwidth
  make_sweep_set
  replay --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep bandwidth=4:64:3:log
  assert_rc 0 || return
  assert_contains "$OUT" "sweep of bandwidth from 4 to 64 MB/s, 3 value(s), logarithmic" "table"
  assert_contains "$OUT" "speedup overlap-real" "table"
  assert_contains "$OUT" "reduction overlap-ideal" "table"
  assert_contains "$OUT" "wrote $WORK/sweep/sweep-bandwidth-reduction.svg" "files listed"
  local f problems
  for f in sweep-bandwidth.csv sweep-bandwidth-time.svg sweep-bandwidth-speedup.svg \
      sweep-bandwidth-reduction.svg; do assert_file "$WORK/sweep/$f"; done
  for f in "$WORK"/sweep/sweep-bandwidth-*.svg; do
    problems=$(check_svg "$f"); [ -z "$problems" ] || fail "$(basename "$f"): $problems"
  done
  assert_contains "$(cat "$WORK/sweep/sweep-bandwidth-speedup.svg")" 'data-name="overlap-ideal"' \
    "speedup plot"
  assert_eq "$(head -1 "$WORK/sweep/sweep-bandwidth.csv")" \
    "bandwidth,time_authentic_s,time_overlap-real_s,time_overlap-ideal_s,speedup_overlap-real_over_authentic,speedup_overlap-ideal_over_authentic,tolerable_reduction_overlap-real_over_authentic,tolerable_reduction_overlap-ideal_over_authentic" \
    "CSV header"
  assert_matches "$(sed -n 2p "$WORK/sweep/sweep-bandwidth.csv")" \
    '^4,1\.008001000,1\.005001000,1\.002001000,1\.002985,1\.005988,,$' "CSV at 4 MB/s"
  assert_eq "$(wc -l <"$WORK/sweep/sweep-bandwidth.csv")" 4 "CSV rows"
}
t_sweep_csv_json() {
  make_sweep_set
  replay --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep bandwidth=4,16 --csv --no-save \
    --json "$WORK/sweep.json"
  assert_rc 0 || return
  assert_eq "$(printf '%s\n' "$OUT" | sed -n 1p | cut -d, -f1-3)" \
    "bandwidth,time_authentic_s,time_overlap-real_s" "CSV on stdout"
  assert_eq "$(printf '%s\n' "$OUT" | wc -l)" 3 "CSV lines"
  [ -e "$WORK/sweep/sweep-bandwidth.csv" ] && fail "--no-save wrote into the set"
  assert_near "$(json "$WORK/sweep.json" 'd["sweeps"][0]["series"][0]["times_s"][1]')" 0.258001 \
    1e-12 "authentic at 16 MB/s"
  assert_eq "$(json "$WORK/sweep.json" '[s["label"] for s in d["sweeps"][0]["speedup"]]')" \
    "['overlap-real', 'overlap-ideal']" "speedups"
  assert_eq "$(json "$WORK/sweep.json" \
    'd["sweeps"][0]["tolerable_reduction"][1]["points"][0]["at_least"]')" 1.0 \
    "reduction beyond the range"
}
t_sweep_jobs() {  # the replays of a sweep run at once; the output is a serial run's
  make_sweep_set
  replay --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep bandwidth=1:1024:11:log --csv \
    --no-save -j 1
  assert_rc 0 || return
  local serial=$OUT
  replay --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep bandwidth=1:1024:11:log --csv \
    --no-save -j 4
  assert_eq "$OUT" "$serial" "-j 4 as -j 1"
  local cfg; cfg=$(tasks_machine 1)
  replay --config "$cfg" "$TASKS/nested" --cores-sweep=1,2,3,4 --csv -j 1
  assert_rc 0 || return
  serial=$OUT
  replay --config "$cfg" "$TASKS/nested" --cores-sweep=1,2,3,4 --csv -j 3
  assert_eq "$OUT" "$serial" "cores sweep, -j 3 as -j 1"
}
t_sweep_mpirun() {  # under mpirun the processes share the replays; process 0 prints
  [ -n "${REPLAY_MPIRUN:-}" ] || { fail "REPLAY_MPIRUN not set (the launcher of replay's MPI)"; return; }
  make_sweep_set
  replay --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep bandwidth=1:1024:11:log --csv \
    --no-save -j 1
  assert_rc 0 || return
  local serial=$OUT
  local out rc=0
  out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_rmaps_base_oversubscribe=1 timeout 120 "$REPLAY_MPIRUN" -np 2 "$REPLAY" \
    --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep bandwidth=1:1024:11:log --csv \
    --no-save --json "$WORK/mpi.json" 2>"$WORK/mpi.err") || rc=$?
  assert_eq "$rc" 0 "exit status ($(head -3 "$WORK/mpi.err" | tr '\n' ' '))" || return
  assert_eq "$out" "$serial" "mpirun -np 2 as one process"
  assert_near "$(json "$WORK/mpi.json" 'd["sweeps"][0]["series"][0]["times_s"][4]')" 0.258001 \
    1e-12 "authentic at 16 MB/s in process 0's JSON"
  # An error is said once, by process 0, as one process says it.
  replay --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep bandwidth=100:1:3 --no-save
  local serial_err=$ERR
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    timeout 120 "$REPLAY_MPIRUN" -np 2 "$REPLAY" --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" \
    --sweep bandwidth=100:1:3 --no-save 2>"$WORK/mpi.err" >/dev/null
  assert_eq "$(grep -c '^replay:' "$WORK/mpi.err")" 1 "error lines under mpirun -np 2" &&
    assert_contains "$(cat "$WORK/mpi.err")" "$serial_err" "the error under mpirun -np 2"
}
t_sweep_out() {
  make_sweep_set
  replay -q --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep latency=0,1e-5 \
    --sweep-out "$WORK/out/lat" --progress
  assert_rc 0 || return
  assert_file "$WORK/out/lat.csv"; assert_file "$WORK/out/lat-time.svg"
  assert_file "$WORK/out/lat-speedup.svg"
  [ -e "$WORK/out/lat-reduction.svg" ] && fail "a reduction plot for a latency sweep"
  [ -e "$WORK/sweep/sweep-latency.csv" ] && fail "--sweep-out also wrote into the set"
  assert_contains "$ERR" "replaying the sweep of latency" "progress"
  assert_contains "$ERR" "(6/6)" "progress"
  assert_eq "$OUT" "" "-q"
}
t_sweep_bad() {  # SPEC MESSAGE...: exit 1 with the messages, nothing written
  make_sweep_set
  local spec=$1 m; shift
  replay --config "$SWEEP_FIX/machine.toml" "$WORK/sweep" --sweep "$spec"; assert_rc 1 || return
  assert_contains "$ERR" "replay: --sweep" "message"
  for m in "$@"; do assert_contains "$ERR" "$m" "message"; done
  [ -z "$(ls "$WORK/sweep" | grep sweep-)" ] || fail "files written"
}
t_sweep_conflicts() {
  make_sweep_set
  local cfg=$SWEEP_FIX/machine.toml
  replay --config "$cfg" "$WORK/sweep" --sweep bandwidth=1,2 --cores-sweep 1,2
  assert_rc 1 && assert_contains "$ERR" "excludes" "--cores-sweep"
  # The option parser's messages are the command's, as every other error.
  assert_contains "$ERR" "replay: --cores-sweep excludes --sweep (replay --help lists the options)" \
    "the command's name"
  replay --config "$cfg" "$WORK/sweep" --sweep bandwidth=1,2 --prv "$WORK/s.prv"
  assert_rc 1 && assert_contains "$ERR" "excludes" "--prv"
  replay --config "$cfg" "$WORK/sweep" --sweep-out "$WORK/x"
  assert_rc 1 && assert_contains "$ERR" "requires --sweep" "--sweep-out alone"
  replay --config "$cfg" "$WORK/sweep" "$WORK/sweep" --sweep bandwidth=1,2 --sweep-out "$WORK/x"
  assert_rc 1 && assert_contains "$ERR" "give one input" "--sweep-out, two inputs"
  replay --config "$cfg" "$WORK/sweep" --sweep bandwidth=1,2 --sweep-out /dev/null/x
  assert_rc 1 && assert_contains "$ERR" "/dev/null" "unwritable --sweep-out"
}
t_sweep_deadlock() {  # every replay deadlocks: the sweep finishes, exit 2
  mkdim "$WORK/dl.dim" dl 2 1:0:0:0.001 3:0:0:1:-1:1000:1:1:0
  replay --config "$NOBUS" "$WORK/dl.dim" --sweep bandwidth=1,2 --no-save; assert_rc 2 || return
  assert_contains "$OUT" "deadlock (dl): bandwidth=2" "table"
  assert_contains "$ERR" "2 replay(s) of the sweep deadlock" "report"
  assert_contains "$ERR" "rank 0 is blocked" "report"
}

# 14. Hostile inputs (issue 15): exit 1 (2 for a deadlock) with file:line, at once and in bounded
# memory (`ulimit -v` and the timeout are guards, not measurements).
MEMORY_GUARD=1000000  # KB of address space for the commands below: ample for what they read
# guarded CMD...: `run` under the memory guard.
guarded() { run bash -c 'ulimit -v "$0"; exec "$@"' "$MEMORY_GUARD" "$@"; }
make_pingpong_set() {  # DIR: the pingpong fixture as a trace set
  rm -rf "$1"
  replay -q --config "$NOBUS" "$FIX/pingpong.dim" --native "$1"; assert_rc 0
}
t_fifo_inputs() {  # a FIFO is refused, whatever input it stands for, without blocking in open()
  mkfifo "$WORK/fifo.dim" "$WORK/fifo.cfg"
  replay -q --config "$NOBUS" "$WORK/fifo.dim"; assert_rc 1
  assert_contains "$ERR" "fifo.dim: not a regular file (a FIFO)" "trace"
  replay -q --config "$WORK/fifo.cfg" "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "fifo.cfg: not a regular file (a FIFO)" "config"
  replay -q --config /dev/zero "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "/dev/zero: not a regular file (a character device)" "config"
  local file
  for file in authentic.1.trc manifest.toml rank-1.toml; do
    make_pingpong_set "$WORK/fifoset" || return
    rm "$WORK/fifoset/$file" && mkfifo "$WORK/fifoset/$file"
    replay -q --config "$NOBUS" "$WORK/fifoset"; assert_rc 1
    assert_contains "$ERR" "$file: not a regular file (a FIFO)" "$file"
    replay --validate "$WORK/fifoset"; assert_rc 1
    assert_contains "$OUT" "$file: not a regular file (a FIFO)" "--validate, $file"
  done
}
t_declared_sizes() {  # sizes a header declares are checked before anything is allocated
  printf '#DIMEMAS:"x":0:1(10000000),0\n1:0:0:0.1\n' >"$WORK/threads.dim"
  guarded "$REPLAY" -q --config "$NOBUS" "$WORK/threads.dim"; assert_rc 1
  assert_contains "$ERR" "threads.dim:1: header: 10000000 threads, more than a file of" "threads"
  python3 -c 'print("#DIMEMAS_CONFIGURATION\n\"x\" {" + "[1] {" * 200000 + "1};;")' \
    >"$WORK/deep.cfg"
  guarded "$REPLAY" -q --config "$WORK/deep.cfg" "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "deep.cfg:2: arrays nested more than 8 deep" "nesting"
  make_pingpong_set "$WORK/ranks" || return
  sed -i 's/^ranks = .*/ranks = 16777216/' "$WORK/ranks/manifest.toml"
  guarded "$REPLAY" -q --config "$NOBUS" "$WORK/ranks"; assert_rc 1
  assert_contains "$ERR" "manifest.toml: the set has 16777216 ranks but 16777214 of them left no file" "ranks"
  sed 's/"multi node information" {0, 4,/"multi node information" {0, 2147483647,/' "$NOBUS" \
    >"$WORK/nodes.cfg"
  guarded "$REPLAY" -q --config "$WORK/nodes.cfg" "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "nodes.cfg:7: \"multi node information\" field 2 (node_count) must be between 1 and 2^20" "nodes"
  # A 64 MB field makes a short message.
  { printf '#DIMEMAS:"x":0:1(1),0\n1:0:0:'; head -c 67108864 /dev/zero | tr '\0' 'x'; echo; } \
    >"$WORK/long.dim"
  guarded "$REPLAY" -q --config "$NOBUS" "$WORK/long.dim"; assert_rc 1
  assert_contains "$ERR" "long.dim:2: field 'duration' is not a number: 'xxxx" "long field"
  assert_contains "$ERR" "... (67108864 bytes)" "long field"
  [ "${#ERR}" -lt 300 ] || fail "a message of ${#ERR} bytes"
}
t_not_simulated() {  # what cannot be simulated is refused, never a wrong answer with exit 0
  mkdim "$WORK/inf.dim" inf 2 1:0:0:inf 1:1:0:1
  replay -q --config "$NOBUS" "$WORK/inf.dim"; assert_rc 1
  assert_contains "$ERR" "inf.dim:3: field 'duration' is not a finite number: 'inf'" "inf"
  mkdim "$WORK/huge.dim" huge 2 1:0:0:1e300 1:1:0:1
  replay -q --config "$NOBUS" "$WORK/huge.dim" --prv "$WORK/huge.prv"; assert_rc 1
  assert_contains "$ERR" "huge.dim:3: the simulated run would last past 9.2e9 s" "1e300"
  replay -q --config "$NOBUS" "$FIX/pingpong.dim" --set cpu_ratio=5e-324; assert_rc 1
  assert_contains "$ERR" "'5e-324' is out of range (1e-6 to 1e6)" "cpu_ratio"
  make_pingpong_set "$WORK/mips" || return
  sed -i 's/^mips = .*/mips = inf/' "$WORK/mips/manifest.toml"
  replay -q --config "$NOBUS" "$WORK/mips"; assert_rc 1
  assert_contains "$ERR" "manifest.toml:6: mips must be at most 10^9" "mips = inf"
  make_pingpong_set "$WORK/alias" || return
  sed -i 's/^id = 1$/id = 4294967297/' "$WORK/alias/rank-0.toml"
  replay -q --config "$NOBUS" "$WORK/alias"; assert_rc 1
  assert_contains "$ERR" "rank-0.toml:8: communicator id 4294967297 is out of range (32-bit)" "comm id"
  make_pingpong_set "$WORK/allreduce" || return
  local r
  for r in 0 1; do
    printf 'coll MPI_Allreduce 1 -1 9223372036854775807 9223372036854775807\nend\n' \
      >"$WORK/allreduce/authentic.$r.trc"
  done
  replay -q --config "$NOBUS" "$WORK/allreduce" --no-save; assert_rc 1
  assert_matches "$ERR" "authentic\.[01]\.trc:1: the simulated run would last past 9\.2e9 s.*MPI_Allreduce" "2^63 - 1 bytes"
}
t_stdout_errors() {  # output errors are errors
  timeout "$TIMEOUT" "$REPLAY" --config "$NOBUS" "$FIX/pingpong.dim" --json - >/dev/full \
    2>"$WORK/.err"
  RC=$? ERR=$(cat "$WORK/.err")
  assert_rc 1 && assert_contains "$ERR" "standard output: write error: no space left on the device" "stdout"
  timeout "$TIMEOUT" "$REPLAY" --validate "$FIX/pingpong.dim" >/dev/full 2>"$WORK/.err"
  RC=$? ERR=$(cat "$WORK/.err")
  assert_rc 1 && assert_contains "$ERR" "standard output" "--validate"
}
t_outputs_checked_first() {  # an unwritable output is reported before simulating (the trace
  # deadlocks: a replay would exit 2)
  mkdim "$WORK/dl_out.dim" dl_out 2 1:0:0:0.001 3:0:0:1:-1:100:5:1:0
  replay -q --config "$NOBUS" "$WORK/dl_out.dim" --json "$WORK/no/such/dir/x.json"; assert_rc 1
  assert_contains "$ERR" "no/such/dir/x.json: cannot write: no such file or directory" "--json"
  replay -q --config "$NOBUS" "$WORK/dl_out.dim" --prv "$WORK/no/such/dir/x.prv"; assert_rc 1
  assert_contains "$ERR" "no/such/dir/x.prv: cannot write" "--prv"
  make_pingpong_set "$WORK/rdonly" || return
  printf 'not a directory\n' >"$WORK/rdonly/replay"
  replay -q --config "$NOBUS" "$WORK/rdonly"; assert_rc 1
  assert_contains "$ERR" "rdonly/replay: cannot create the directory" "set"
  assert_contains "$ERR" "use --no-save, or --prv elsewhere" "set"
  replay -q --config "$NOBUS" "$WORK/rdonly" --no-save; assert_rc 0
}
t_many_ranks_few_files() {  # a 2,000-rank set replays with 1,024 open files at most
  run "$GEN_RING" 2000 8000 "$WORK/ring2000.dim" 64; assert_rc 0 || return
  replay -q --config "$NOBUS" "$WORK/ring2000.dim" --native "$WORK/ring2000" --set mapping=fill
  assert_rc 0 || return
  local expected
  total "$NOBUS" "$WORK/ring2000.dim" --set mapping=fill || return; expected=$TOTAL
  run bash -c 'ulimit -n 1024; exec "$@"' _ "$REPLAY" -q --config "$NOBUS" "$WORK/ring2000" \
    --set mapping=fill --no-save --json "$WORK/ring2000.json"
  assert_rc 0 || return
  assert_near "$(json "$WORK/ring2000.json" 'd["traces"][0]["total_time_s"]')" "$expected" 1e-9 "time"
  run bash -c 'ulimit -n 1024; exec "$@"' _ "$REPLAY" --validate "$WORK/ring2000"
  assert_rc 0 && assert_contains "$OUT" "valid" "--validate"
}
t_runs_do_not_mix() {  # the replays kept in a set are those of the run the manifest names
  make_pingpong_set "$WORK/runs" || return
  echo 'run = "A"' >>"$WORK/runs/manifest.toml"
  replay -q --config "$NOBUS" "$WORK/runs"; assert_rc 0 || return
  assert_eq "$(json "$WORK/runs/replay/authentic.json" 'd["run"]')" A "run of the replay"
  cp "$WORK/runs/replay/authentic.json" "$WORK/runs/replay/overlap-real.json"
  cp "$WORK/runs/replay/authentic.prv" "$WORK/runs/replay/overlap-real.prv"
  sed -i 's/^run = .*/run = "B"/' "$WORK/runs/manifest.toml"  # the tool wrote the set again
  replay -q --config "$NOBUS" "$WORK/runs"; assert_rc 0 || return
  assert_eq "$(json "$WORK/runs/replay/authentic.json" 'd["run"]')" B "run of the new replay"
  [ ! -e "$WORK/runs/replay/overlap-real.prv" ] && [ ! -e "$WORK/runs/replay/overlap-real.json" ] ||
    fail "the replay of run A was left beside run B's"
}
t_unmatched_send_located() {
  # Every rank ends: the eager message no receive matched is left over, said in a note.
  mkdim "$WORK/unmatched_send.dim" unmatched_send 2 1:0:0:0.001 2:0:0:1:-1:100:5:1:0 1:1:0:0.001
  replay --no-save --config "$NOBUS" "$WORK/unmatched_send.dim"; assert_rc 0 || return
  assert_contains "$OUT" "that no receive matched (the first at $WORK/unmatched_send.dim:4)" "note"
  # A receive posted and never waited for (a program's pending termination message): the run
  # ends all the same, as in Dimemas, after rank 0's two bursts.
  mkdim "$WORK/pending_recv.dim" pending_recv 2 1:0:0:0.001 3:0:0:1:-1:4:77:1:1 1:0:0:0.001 \
    1:1:0:0.001
  replay --no-save --config "$NOBUS" "$WORK/pending_recv.dim"; assert_rc 0 || return
  assert_contains "$OUT" "total simulated time  0.002000000 s" "time"
  assert_contains "$OUT" "rank 0 posted 1 receive(s) from rank 1 (tag 77, comm 1) that no send matched" \
    "note"
}

case_() {  # NAME FUNCTION ARGS...
  local name=$1; shift
  WHY=""
  "$@"
  if [ -z "$WHY" ]; then
    echo "ok - $name"; PASSED=$((PASSED + 1))
  else
    echo "not ok - $name: $WHY"; FAILED=$((FAILED + 1))
  fi
}

# 1. Command line
t_help() {
  replay --help; assert_rc 0
  assert_contains "$OUT" "Usage" "--help"
  assert_contains "$OUT" "--config" "--help"
  assert_contains "$OUT" "Exit status" "--help"
}
t_version() {
  replay --version; assert_rc 0
  assert_matches "$OUT" "replay.*[0-9]+\.[0-9]+" "--version"
}
t_unknown_option() {
  replay --config "$NOBUS" --no-such-option "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "--no-such-option" "message"
}
t_missing_trace() {
  replay --config "$NOBUS"; assert_rc 1
  assert_matches "$ERR" "[Tt]race" "message"
}
t_out_of_range() {  # a number out of range is said plainly, the bound in words
  replay --config "$NOBUS" -j 0 "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "--jobs: 0: must be more than 0" "-j 0"
  replay --config "$NOBUS" --cores-sweep=2,-1 "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "--cores-sweep: -1: must be more than 0" "--cores-sweep"
}
t_no_such_trace() {  # a path that does not exist says so, whatever kinds are asked for
  for kinds in "" "--kind tasks"; do
    # shellcheck disable=SC2086
    replay --config "$NOBUS" $kinds "$WORK/no/such/set"; assert_rc 1
    assert_contains "$ERR" "no/such/set: cannot open: no such file or directory" "${kinds:-no kind}"
  done
}
t_missing_config() {
  replay "$FIX/pingpong.dim"; assert_rc 1
  assert_contains "$ERR" "--config" "message"
}

# 2. Expected times of the fixtures (without -q: stdout must be the JSON alone), and the
# communication records Dimemas writes for some
t_expected_time() {  # TRACE CONFIG SECONDS
  replay --config "$FIX/$2.cfg" "$FIX/$1.dim" --json -
  assert_rc 0 || return
  printf '%s\n' "$OUT" >"$WORK/expected.json"
  local got
  got=$(json "$WORK/expected.json" 'd["traces"][0]["total_time_s"]') ||
    { fail "stdout is not JSON with traces[0].total_time_s: $(head -c 200 <<<"$OUT")"; return; }
  assert_near "$got" "$3" 1e-9 "total_time_s"
}

t_expected_comms() {  # TRACE CONFIG
  local out=$WORK/comms.$1.$2 want got
  replay -q --config "$FIX/$2.cfg" "$FIX/$1.dim" --prv "$out.prv"
  assert_rc 0 || return
  want=$(awk -v t="$1" -v c="$2" '$1 == t && $2 == c { print $3 }' "$FIX/expected_comms.txt" | sort)
  got=$(grep '^3:' "$out.prv" | sort)
  assert_eq "$got" "$want" "communication records"
}

# 3. --dim round trip
t_dim_roundtrip() {  # TRACE
  local trace=$1 cfg problems
  replay -q --config "$NOBUS" "$FIX/$trace.dim" --dim "$WORK/$trace.rt.dim"
  assert_rc 0 || return
  assert_file "$WORK/$trace.rt.dim" || return
  problems=$(check_dim "$WORK/$trace.rt.dim" "$(tasks_of "$FIX/$trace.dim")")
  [ -z "$problems" ] || fail "$trace.rt.dim: $(tr '\n' ' ' <<<"$problems")"
  for cfg in $(configs_of "$trace"); do
    totals "$FIX/$cfg.cfg" "$FIX/$trace.dim" "$WORK/$trace.rt.dim" || continue
    set -- $TOTALS
    assert_near "${2:-}" "$1" 1e-12 "time of the written .dim on $cfg"
  done
  # Writing the written file again gives the same bytes.
  replay -q --config "$NOBUS" "$WORK/$trace.rt.dim" --dim "$WORK/$trace.rt2.dim"
  assert_rc 0 && assert_same_file "$WORK/$trace.rt.dim" "$WORK/$trace.rt2.dim" "--dim of the --dim output"
}

# 4. --native round trip
t_native_roundtrip() {  # TRACE
  local trace=$1 dir=$WORK/$1.set cfg r n
  replay -q --config "$NOBUS" "$FIX/$trace.dim" --native "$dir"
  assert_rc 0 || return
  assert_file "$dir/manifest.toml" || return
  n=$(tasks_of "$FIX/$trace.dim")
  for ((r = 0; r < n; r++)); do
    assert_file "$dir/rank-$r.toml"
    assert_file "$dir/authentic.$r.trc"
  done
  for cfg in $(configs_of "$trace"); do
    totals "$FIX/$cfg.cfg" "$FIX/$trace.dim" "$dir" || continue
    set -- $TOTALS
    assert_near "${2:-}" "$1" 1e-9 "time of the native set on $cfg"
  done
  replay --validate "$dir"; assert_rc 0
  assert_contains "$OUT$ERR" "valid" "--validate"
}

# 5. --prv
t_prv() {  # TRACE CONFIG
  local trace=$1 cfg=$2 out=$WORK/$1.$2 tasks problems
  replay -q --config "$FIX/$cfg.cfg" "$FIX/$trace.dim" --prv "$out.prv" --json "$out.json"
  assert_rc 0 || return
  assert_file "$out.prv" && assert_file "$out.pcf" && assert_file "$out.row" || return
  tasks=$(tasks_of "$FIX/$trace.dim")
  problems=$(check_prv "$out.prv" "$out.json")
  [ -z "$problems" ] || fail "$(basename "$out.prv"): $(tr '\n' ' ' <<<"$problems")"
  assert_contains "$(cat "$out.row")" "LEVEL TASK SIZE $tasks" ".row"
  assert_contains "$(cat "$out.pcf")" "STATES" ".pcf"
}
t_determinism() {  # TRACE CONFIG
  local i ext
  for i in 1 2; do
    replay -q --config "$FIX/$2.cfg" "$FIX/$1.dim" --prv "$WORK/det$i.prv" --json "$WORK/det$i.json"
    assert_rc 0 || return
  done
  for ext in prv pcf row json; do
    assert_same_file "$WORK/det1.$ext" "$WORK/det2.$ext" "two runs"
  done
}

# 6. --set
t_set_model() {  # OVERRIDE COMPUTE LATENCY BANDWIDTH
  local got
  total "$NOBUS" "$FIX/pingpong.dim" --set "$1" || return; got=$TOTAL
  assert_near "$got" "$(pingpong_model "$2" "$3" "$4")" 1e-9 "pingpong with --set $1"
}
t_set_buses() {
  local got
  total "$NOBUS" "$FIX/ring_eq.dim" --set buses=1 || return; got=$TOTAL
  assert_near "$got" "$(expected ring_eq cfg_4n_1bus)" 1e-9 "ring_eq on cfg_4n_nobus with --set buses=1"
}
t_set_bad() {  # OVERRIDE KEY
  replay -q --config "$NOBUS" "$FIX/pingpong.dim" --set "$1"; assert_rc 1
  assert_contains "$ERR" "$2" "message"
}

# 7. Bad inputs: exit 1 with FILE:LINE: (never a crash or a hang)
t_bad_trace() {  # FILE LINE-REGEX: replays FILE, expects an error located at it
  replay -q --config "$NOBUS" "$WORK/$1"; assert_rc 1
  assert_matches "$ERR" "$1:$2: " "message"
}
t_truncated_fixture() {
  head -c "$(($(wc -c <"$FIX/pingpong.dim") / 2))" "$FIX/pingpong.dim" >"$WORK/cut.dim"
  [ "$(tail -c 1 "$WORK/cut.dim")" != "" ] || { fail "the cut fell on a line end"; return; }
  t_bad_trace cut.dim "[0-9]+"
}
t_truncated_line() {  # the last line is cut: its missing fields are reported at that line
  pingpong_with_line6 "$WORK/ok.dim" 1:0:0:0
  head -c 150 "$WORK/ok.dim" >"$WORK/cut2.dim"   # ends with "2:1:0:0:-1" on line 9
  t_bad_trace cut2.dim 9
}
t_bad_config() {  # CFG-FILE LINE-REGEX PHRASE
  replay -q --config "$WORK/$1" "$FIX/pingpong.dim"; assert_rc 1
  assert_matches "$ERR" "$1:$2 " "message"
  assert_contains "$ERR" "$3" "message"
}
t_no_environment() {
  grep -v '"environment information"' "$NOBUS" >"$WORK/noenv.cfg"
  # The whole file is at fault: line 0, which may be left out ("noenv.cfg: ...").
  t_bad_config noenv.cfg "(0:)?" "environment information"
}
t_misspelt_record() {
  sed 's/"multi node information"/"multi nodes information"/' "$NOBUS" >"$WORK/misspelt.cfg"
  t_bad_config misspelt.cfg "7:" "multi nodes information"
}
t_nonexistent_trace() {
  replay -q --config "$NOBUS" "$WORK/no-such-trace.dim"; assert_rc 1
  assert_contains "$ERR" "no-such-trace.dim:" "message"
}
t_not_a_set() {
  mkdir -p "$WORK/notaset" && echo hello >"$WORK/notaset/readme.txt"
  replay -q --config "$NOBUS" "$WORK/notaset"; assert_rc 1
  assert_contains "$ERR" "notaset" "message"
}
t_bad_manifest_version() {
  replay -q --config "$NOBUS" "$FIX/ring.dim" --native "$WORK/badver"; assert_rc 0 || return
  local line
  line=$(grep -n '^version' "$WORK/badver/manifest.toml" | cut -d: -f1)
  sed -i 's/^version = .*/version = 99/' "$WORK/badver/manifest.toml"
  replay -q --config "$NOBUS" "$WORK/badver"; assert_rc 1
  assert_contains "$ERR" "manifest.toml:$line: " "message"
}

# 8. Deadlocks: exit 2, the report names the rank and the blocked record
t_deadlock_recv() {
  mkdim "$WORK/dl_recv.dim" dl_recv 2 1:0:0:0.001 3:0:0:1:-1:100:5:1:0 1:1:0:0.001
  replay -q --config "$NOBUS" "$WORK/dl_recv.dim"; assert_rc 2
  assert_contains "$ERR" "rank 0" "report"
  assert_contains "$ERR" "dl_recv.dim:4" "report"
}
t_deadlock_collective() {
  mkdim "$WORK/dl_coll.dim" dl_coll 2 1:0:0:0.001 10:0:0:0:1:0:0:0:0 1:0:0:0.001 1:1:0:0.002
  replay -q --config "$NOBUS" "$WORK/dl_coll.dim"; assert_rc 2
  assert_contains "$ERR" "rank 0" "report"
  assert_contains "$ERR" "dl_coll.dim:4" "report"
  assert_matches "$ERR" "rank(\(s\))?:? 1\b" "report (the missing rank)"
}

# 9. --validate
t_validate_unmatched() {  # a message nothing receives is a note, as replay ends with it
  mkdim "$WORK/unmatched.dim" unmatched 2 1:0:0:0.001 2:0:0:1:-1:100:5:1:0 1:1:0:0.001
  replay --validate "$WORK/unmatched.dim"; assert_rc 0
  assert_contains "$OUT" "note: $WORK/unmatched.dim:4: 1 send(s) but 0 receive(s)" "note"
  assert_contains "$OUT" "unmatched.dim (dimemas): valid, 1 note(s)" "summary"
  replay -c "$NOBUS" "$WORK/unmatched.dim"; assert_rc 0
  assert_contains "$OUT$ERR" "channel(s) left unmatched" "replay's notes"
  # a receive that waits for a message nothing sends is a problem: a replay would wait forever
  mkdim "$WORK/unsent.dim" unsent 2 1:0:0:0.001 3:1:0:0:-1:100:5:1:0
  replay --validate "$WORK/unsent.dim"; assert_rc 1
  assert_contains "$OUT" "unsent.dim:4: 0 send(s) but 1 receive(s)" "report"
}
t_validate_collective() {  # --help: "report file:line of each problem"
  mkdim "$WORK/coll_missing.dim" coll_missing 2 1:0:0:0.001 10:0:0:0:1:0:0:0:0 1:0:0:0.001 1:1:0:0.002
  replay --validate "$WORK/coll_missing.dim"; assert_rc 1
  assert_contains "$OUT$ERR" "coll_missing.dim:4" "report"
}
t_validate_truncation() {  # a message larger than its receive: both records named
  mkdim "$WORK/trunc.dim" trunc 2 2:0:0:1:-1:100:5:1:0 3:1:0:0:-1:10:5:1:0
  replay --validate "$WORK/trunc.dim"; assert_rc 1
  assert_contains "$OUT$ERR" "trunc.dim:4: receive of 10 bytes matches a message of 100 bytes" "report"
  assert_contains "$OUT$ERR" "trunc.dim:3: the message is truncated" "report"
}
t_validate_good() {
  replay --validate "$FIX/ring.dim"; assert_rc 0
  assert_contains "$OUT$ERR" "valid" "report"
}

# 9b. --dim keeps the prediction
# dim_keeps_time CFG INPUT [ARGS...]: each trace of INPUT (a .dim, or every kind of a set) and
# the .dim that --dim writes of it replay to the same time (to 1 ns).
t_dim_keeps_time() {
  local cfg=$1 input=$2 kind original; shift 2
  local kinds=dimemas
  [ -d "$input" ] && kinds=$(sed -n 's/^kinds = \[\(.*\)\]/\1/p' "$input/manifest.toml" | tr -d '",')
  for kind in $kinds; do
    local select=()
    [ "$kind" = dimemas ] || select=(--kind "$kind")
    total "$cfg" "$input" "${select[@]}" --no-save --dim "$WORK/kept.dim" "$@" || return
    original=$TOTAL
    total "$cfg" "$WORK/kept.dim" "$@" || return
    assert_near "$TOTAL" "$original" 1e-9 "$kind: time of its .dim"
  done
}

# 10. A trace set with two kinds
make_two_kinds() {
  [ -d "$WORK/two" ] && return 0
  replay -q --config "$NOBUS" "$FIX/ring.dim" --native "$WORK/two"; assert_rc 0 || return 1
  local f
  for f in "$WORK"/two/authentic.*.trc; do cp "$f" "${f/authentic./overlap-ideal.}"; done
  sed -i 's/^kinds = .*/kinds = ["authentic", "overlap-ideal"]/' "$WORK/two/manifest.toml"
}
t_two_kinds_all() {
  make_two_kinds || return
  replay -q --config "$NOBUS" "$WORK/two" --json "$WORK/two.json"; assert_rc 0 || return
  assert_eq "$(json "$WORK/two.json" 'len(d["traces"])')" 2 "traces"
  assert_eq "$(json "$WORK/two.json" 'sorted(t["kind"] for t in d["traces"])')" \
    "['authentic', 'overlap-ideal']" "kinds"
  assert_eq "$(json "$WORK/two.json" 'd["traces"][0]["total_time_s"] == d["traces"][1]["total_time_s"]')" \
    True "equal times"
}
t_two_kinds_one() {
  make_two_kinds || return
  replay -q --config "$NOBUS" "$WORK/two" --kind overlap-ideal --json "$WORK/one.json"; assert_rc 0 || return
  assert_eq "$(json "$WORK/one.json" '[t["kind"] for t in d["traces"]]')" "['overlap-ideal']" "kinds"
}
t_two_kinds_prv() {
  make_two_kinds || return
  replay -q --config "$NOBUS" "$WORK/two" --prv "$WORK/out.prv"; assert_rc 0 || return
  local k ext
  for k in authentic overlap-ideal; do
    for ext in prv pcf row; do assert_file "$WORK/out.$k.$ext"; done
  done
  assert_same_file "$WORK/out.authentic.prv" "$WORK/out.overlap-ideal.prv" "same records, same timeline"
}

# 11. A larger generated trace
t_gen_ring() {
  run "$GEN_RING" 16 20000 "$WORK/gen.dim"; assert_rc 0 || return
  local one two
  total "$MN_CFG" "$WORK/gen.dim" || return; one=$TOTAL
  total "$MN_CFG" "$WORK/gen.dim" --set buses=2 || return; two=$TOTAL
  assert_not_less "$two" "$one" "total with --set buses=2"
}

# 12. The two MareNostrum examples are the same machine
t_toml_vs_cfg() {  # TRACE
  local trace=$1 stem expr=
  stem=$(basename "$trace")
  replay -q --config "$MN_CFG" "$trace" --json "$WORK/$stem.cfg.json"; assert_rc 0 || return
  replay -q --config "$MN_TOML" "$trace" --json "$WORK/$stem.toml.json"; assert_rc 0 || return
  expr='[(t["total_time_s"], [sorted(r.items()) for r in t["ranks"]]) for t in d["traces"]]'
  local a b
  a=$(json "$WORK/$stem.cfg.json" "$expr") b=$(json "$WORK/$stem.toml.json" "$expr")
  [ -n "$a" ] && [ "$a" = "$b" ] ||
    fail "totals differ: cfg $(json "$WORK/$stem.cfg.json" 'd["traces"][0]["total_time_s"]'), toml $(json "$WORK/$stem.toml.json" 'd["traces"][0]["total_time_s"]')"
}

# 13. Several input traces of the same kind: each trace's output files must survive (distinct
# OUT.*.prv / OUT.*.dim), or the run must refuse with exit 1; never one silently overwriting another.
t_outputs_distinct() {
  mkdir -p "$WORK/multi"
  replay -q --config "$NOBUS" "$FIX/pingpong.dim" "$FIX/ring.dim" \
    --prv "$WORK/multi/o.prv" --dim "$WORK/multi/o.dim"
  if [ "$RC" -eq 1 ]; then
    assert_matches "$ERR" "o\.(prv|dim)|--prv|--dim" "message"; return
  fi
  assert_rc 0 || return
  local prv dim
  prv=$(cd "$WORK/multi" && ls -- *.prv 2>/dev/null | tr '\n' ' ')
  dim=$(cd "$WORK/multi" && ls -- *.dim 2>/dev/null | tr '\n' ' ')
  assert_eq "$(wc -w <<<"$prv" | tr -d ' ')" 2 "Paraver traces written for 2 inputs ($prv)"
  assert_eq "$(wc -w <<<"$dim" | tr -d ' ')" 2 "Dimemas traces written for 2 inputs ($dim)"
}

# ---- the run --------------------------------------------------------------------------------

case_ "--help" t_help
case_ "--version" t_version
case_ "unknown option exits 1" t_unknown_option
case_ "missing TRACE exits 1" t_missing_trace
case_ "a path that does not exist is reported as such" t_no_such_trace
case_ "numbers out of range are reported plainly" t_out_of_range
case_ "missing --config exits 1" t_missing_config

while read -r trace cfg seconds; do
  [ -n "${seconds:-}" ] || continue
  case_ "expected time: $trace on $cfg" t_expected_time "$trace" "$cfg" "$seconds"
done <"$FIX/expected_times.txt"

awk '!/^#/ && NF == 3 { print $1, $2 }' "$FIX/expected_comms.txt" | sort -u >"$WORK/comm_cases"
while read -r trace cfg; do
  case_ "Dimemas' communication records: $trace on $cfg" t_expected_comms "$trace" "$cfg"
done <"$WORK/comm_cases"

for trace in $(fixtures); do case_ "--dim round trip: $trace" t_dim_roundtrip "$trace"; done
for trace in $(fixtures); do case_ "--native round trip: $trace" t_native_roundtrip "$trace"; done
for trace in $(fixtures); do case_ "--prv: $trace" t_prv "$trace" cfg_4n_nobus; done
case_ "--prv: ring_eq on cfg_4n_1bus" t_prv ring_eq cfg_4n_1bus
case_ "determinism: ring" t_determinism ring cfg_4n_nobus
case_ "determinism: ring_eq on cfg_4n_1bus" t_determinism ring_eq cfg_4n_1bus

case_ "--set bandwidth=500" t_set_model bandwidth=500 0.001 5e-6 500
case_ "--set latency=1e-5" t_set_model latency=1e-5 0.001 1e-5 250
case_ "--set cpu_ratio=2" t_set_model cpu_ratio=2 0.0005 5e-6 250
case_ "--set buses=1 = cfg_4n_1bus" t_set_buses
case_ "--set bandwidth=fast exits 1" t_set_bad bandwidth=fast bandwidth
case_ "--set nosuchkey=1 exits 1" t_set_bad nosuchkey=1 nosuchkey

case_ "bad input: truncated fixture" t_truncated_fixture
case_ "bad input: truncated last line" t_truncated_line
pingpong_with_line6 "$WORK/fields.dim" 2:0:0:1:-1:1000000:1:1
case_ "bad input: missing field" t_bad_trace fields.dim 6
pingpong_with_line6 "$WORK/extra.dim" 1:0:0:0:5
case_ "bad input: extra field" t_bad_trace extra.dim 6
pingpong_with_line6 "$WORK/type7.dim" 7:0:0:1
case_ "bad input: unknown record type" t_bad_trace type7.dim 6
pingpong_with_line6 "$WORK/negative.dim" 2:0:0:1:-1:-5:1:1:0
case_ "bad input: negative size" t_bad_trace negative.dim 6
pingpong_with_line6 "$WORK/comm.dim" 10:0:0:0:9:1:0:0:0
case_ "bad input: collective on an unknown communicator" t_bad_trace comm.dim 6
case_ "bad input: config without environment" t_no_environment
case_ "bad input: config with a misspelt record" t_misspelt_record
case_ "bad input: non-existent trace" t_nonexistent_trace
case_ "bad input: directory that is not a trace set" t_not_a_set
case_ "bad input: trace set of an unknown version" t_bad_manifest_version

case_ "hostile: FIFOs and devices as inputs" t_fifo_inputs
case_ "hostile: sizes declared in headers, long fields" t_declared_sizes
case_ "hostile: numbers that cannot be simulated" t_not_simulated
case_ "hostile: standard output errors" t_stdout_errors
case_ "hostile: unwritable outputs before simulating" t_outputs_checked_first
case_ "hostile: 2,000 ranks under ulimit -n 1024" t_many_ranks_few_files
case_ "hostile: replays of another run of the set" t_runs_do_not_mix
case_ "unmatched: a send and a posted receive left over, at their file:line" t_unmatched_send_located

case_ "deadlock: receive without a send" t_deadlock_recv
case_ "deadlock: collective a member never calls" t_deadlock_collective

case_ "--validate: unmatched send" t_validate_unmatched
case_ "--validate: collective a member never calls" t_validate_collective
case_ "--validate: truncated message" t_validate_truncation
case_ "--validate: good fixture" t_validate_good

case_ "two kinds: all replayed" t_two_kinds_all
case_ "two kinds: --kind overlap-ideal" t_two_kinds_one
case_ "two kinds: --prv per kind" t_two_kinds_prv

case_ "gen_ring 16x20000 on MareNostrum, buses=2 not faster" t_gen_ring
case_ "MareNostrum TOML = Dimemas cfg: ring fixture" t_toml_vs_cfg "$FIX/ring.dim"
case_ "MareNostrum TOML = Dimemas cfg: gen_ring" t_toml_vs_cfg "$WORK/gen.dim"

case_ "two inputs of one kind: outputs do not overwrite each other" t_outputs_distinct

ORIGINAL=$TESTS_DIR/fixtures/tareador-original
case_ "--dim keeps the time: gen_ring on MareNostrum" t_dim_keeps_time "$MN_CFG" "$WORK/gen.dim"
case_ "--dim keeps the time: gen_ring, 4 ranks per core" t_dim_keeps_time "$MN_CFG" "$WORK/gen.dim" \
  --set cores=1
for trace in $(fixtures); do
  case_ "--dim keeps the time: native $trace" t_dim_keeps_time "$NOBUS" "$WORK/$trace.set"
done
case_ "--dim keeps the time: two kinds" t_dim_keeps_time "$NOBUS" "$WORK/two"
case_ "--dim keeps the time: original Tareador's 3D FFT" t_dim_keeps_time \
  "$ORIGINAL/cfg_1n4c.cfg" "$ORIGINAL/3dfft_tareador.dim"
for setting in eager_limit=-1 eager_limit=0 tasks_per_node=2; do
  case_ "--dim keeps the time: sweep set, $setting" t_dim_keeps_time \
    "$SWEEP_FIX/machine.toml" "$SWEEP_FIX/set" --set "$setting"
done

case_ "tasks: fifo and cp policies, speedup, profile" t_tasks_policies
case_ "tasks: --cores-sweep (table and CSV)" t_tasks_sweep
case_ "tasks: --ideal has unbounded cores" t_tasks_ideal
case_ "tasks: MPI inside tasks on two ranks, --policy=mpi" t_tasks_mpi
case_ "tasks: --prv rows per core, task types, dependencies" t_tasks_prv
case_ "tasks: --critical, --accelerate" t_tasks_critical
case_ "tasks: no --dim or --native" t_tasks_no_conversion
case_ "tasks: --validate" t_tasks_validate

case_ "sweep: bandwidth, table, CSV and plots in the set" t_sweep_bandwidth
case_ "sweep: -j N gives the output of -j 1" t_sweep_jobs
case_ "sweep: under mpirun -np 2, the output of one process" t_sweep_mpirun
case_ "sweep: --csv, --json, --no-save" t_sweep_csv_json
case_ "sweep: --sweep-out, progress" t_sweep_out
case_ "sweep: no '='" t_sweep_bad bandwidth "expected KEY=LO:HI:STEPS[:log]"
case_ "sweep: unknown key" t_sweep_bad speed=1:2:3 "unknown machine key 'speed'" "bandwidth, latency"
case_ "sweep: bad STEPS" t_sweep_bad bandwidth=1:100:x "STEPS 'x' is not a number"
case_ "sweep: LO > HI" t_sweep_bad bandwidth=100:1:3 "LO (100) is greater than HI (1)"
case_ "sweep: logarithmic from 0" t_sweep_bad bandwidth=0:100:3:log "needs LO > 0"
case_ "sweep: bandwidth 0" t_sweep_bad bandwidth=0,10 "instantaneous"
case_ "sweep: negative latency" t_sweep_bad latency=-1:0:2 "must not be negative"
case_ "sweep: tasks that do not fit" t_sweep_bad nodes=1:2:2 "with nodes=1" "do not fit"
case_ "sweep: conflicting options" t_sweep_conflicts
case_ "sweep: deadlocks" t_sweep_deadlock

echo "# $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
