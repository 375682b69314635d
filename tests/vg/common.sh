# common.sh — what the tool's test scripts share (sourced by run.sh, tasks.sh, overlap.sh): MPI
# launched as root under valgrind, a scratch directory removed at exit, and the `ok` / `not ok`
# lines with their counts.
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
