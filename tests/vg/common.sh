# common.sh — what the tool's test scripts share (sourced by run.sh, faults.sh, tasks.sh,
# overlap.sh, labs.sh): MPI launched as root under valgrind, a scratch directory removed at
# exit, and the `ok` / `not ok` lines with their counts.
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
