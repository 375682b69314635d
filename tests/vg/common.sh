# common.sh — what the tool's test scripts share (sourced by run.sh, faults.sh, tasks.sh,
# overlap.sh, speculate.sh, labs.sh): MPI launched as root under valgrind, a scratch directory
# removed at exit, the `ok` / `not ok` lines with their counts, and the overlap study's runs.
# Open MPI refuses root (CI runs as root), oversubscribed cores, and ptrace-based copies.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export HWLOC_COMPONENTS=-x86  # hwloc cannot read CPUID under valgrind: do not try

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $1: $2"; failed=$((failed + 1)); }

launcher() { [ "$1" = openmpi ] && echo mpirun.openmpi || echo mpiexec.mpich; }

# run MPI EXAMPLE RANKS DIR [ARGS...]: mpirun -np RANKS tareador EXAMPLE (of EXAMPLES_BUILD),
# into DIR.
run() {
  local mpi=$1 example=$2 ranks=$3 dir=$4
  shift 4
  rm -rf "$dir"
  timeout 300 "$(launcher "$mpi")" -np "$ranks" "$TAREADOR" --trace-dir="$dir" \
    "$EXAMPLES_BUILD/$mpi/$example" "$@" >"$dir.log" 2>&1
}

# ---- The overlap study (overlap.sh, speculate.sh; $machine: the machine file) -------------------

# overlap_trace MPI NP DIR PROGRAM [ARGS...]: PROGRAM under the tool with --overlap=yes and
# the options in $TOOL_OPTIONS, into DIR.
overlap_trace() {
  local mpi=$1 np=$2 dir=$3
  shift 3
  rm -rf "$dir"
  # shellcheck disable=SC2086
  timeout 600 "$(launcher "$mpi")" -np "$np" "$TAREADOR" -q --trace-dir="$dir" --overlap=yes \
    ${TOOL_OPTIONS:-} "$@" >"$dir.log" 2>&1
}

# The kinds replay_times prints and check compares, in this order (authentic first).
KINDS="authentic overlap-real overlap-ideal"

# replay_times DIR [REPLAY OPTIONS...]: the simulated seconds of each of $KINDS (one rank per
# node).
replay_times() {
  local dir=$1
  shift
  "$REPLAY" -q --no-progress --config "$machine" --set tasks_per_node=1 "$@" "$dir" --json - |
    python3 -c '
import json, sys
t = {x["kind"]: x["total_time_s"] for x in json.load(sys.stdin)["traces"]}
print(" ".join(str(t[k]) for k in sys.argv[1].split()))' "$KINDS"
}

# replay_time INPUT [REPLAY OPTIONS...]: the simulated seconds of one trace (one rank per node).
replay_time() {
  local input=$1
  shift
  "$REPLAY" -q --no-progress --no-save --config "$machine" --set tasks_per_node=1 "$@" "$input" \
    --json - | python3 -c 'import json, sys; print(json.load(sys.stdin)["traces"][0]["total_time_s"])'
}

# check NAME PYTHON-EXPRESSION: ok when it holds, over the times $TIMES of $KINDS: a (authentic),
# r, i, p (overlap-real, -ideal, -speculative, when in $KINDS) and s, the speedups of the
# overlap kinds over authentic by short name (s['real'], s['speculative'], ...).
check() {
  local verdict
  verdict=$(python3 -c "
t = dict(zip('$KINDS'.split(), (float(x) for x in '$TIMES'.split())))
a = t['authentic']
r, i, p = (t.get('overlap-' + k) for k in ('real', 'ideal', 'speculative'))
s = {k[len('overlap-'):]: a / v for k, v in t.items() if k != 'authentic'}
print('%s (authentic %.6f s; speedups %s)' % ('ok' if ($2) else 'no', a,
      ', '.join('%s %.2f' % x for x in s.items())))")
  case "$verdict" in
    ok*) ok "$1 ${verdict#ok }" ;;
    *) not_ok "$1" "${verdict:-no times}" ;;
  esac
}

# ring_at_balance PATTERN: examples/overlap/ring (4 ranks, 4 chunks, 16 iterations of 32 KiB
# messages) of the first MPI ($mpi), replayed at the bandwidth at which one message takes as
# long as one burst (the burst's time: the ideal network's run over the iterations): the times
# of $KINDS.
ring_at_balance() {
  local pattern=$1 dir="$scratch/ring-$1"
  TOOL_OPTIONS="--chunks=4 --chunk-min=0" overlap_trace "$mpi" 4 "$dir" "$OVERLAP_EXAMPLES_BUILD/$mpi/ring" "$pattern" 16 4096 16 ||
    { echo "the run failed: $(tail -3 "$dir.log" | tr '\n' ' ')"; return 1; }
  local burst bandwidth
  burst=$(replay_times "$dir" --ideal | awk '{ print $1 / 17 }')  # 16 bursts and a shorter check
  bandwidth=$(awk -v t="$burst" 'BEGIN { print 4096 * 8 / 1048576 / t }')
  replay_times "$dir" --set bandwidth="$bandwidth" --set latency=0
}

# check_at_balance NAME PATTERN PYTHON-EXPRESSION: check (above) on ring_at_balance PATTERN.
check_at_balance() {
  if TIMES=$(ring_at_balance "$2"); then
    check "$1" "$3"
  else
    not_ok "ring $2" "$TIMES"
  fi
}
