# mpi_ring.sh — what the MPI benchmarks share (sourced by overhead.sh and calibration.sh, with
# $build set): MPI launched as root under valgrind, the launcher and examples/mpi/ring of the
# MPI built (Open MPI first), and a scratch directory removed at exit.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export HWLOC_COMPONENTS=-x86  # hwloc cannot read CPUID under valgrind: do not try
if command -v mpirun.openmpi >/dev/null && [ -x "$build/examples/mpi/openmpi/ring" ]; then
  mpirun=mpirun.openmpi; program="$build/examples/mpi/openmpi/ring"
else
  mpirun=mpiexec.mpich; program="$build/examples/mpi/mpich/ring"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
