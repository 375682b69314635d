// parallel_launch.h — the `replay` command started by an MPI launcher (mpirun, mpiexec, srun):
// its processes share the replays of a sweep over MPI (analysis/distribution.h).
#pragma once

#include <memory>

#include "analysis/distribution.h"

namespace tareador::replay {

// The processes of this launch when a launcher started more than one (MPI is initialised then,
// and finalised with the object); null for a plain run, which never loads MPI. Throws
// std::runtime_error when the module that speaks MPI cannot be loaded.
std::unique_ptr<Distribution> parallel_launch(int* argc, char*** argv);

}  // namespace tareador::replay

// The entry points of the module replay-mpi.so (replay/mpi_distribution.cpp), which
// parallel_launch() loads: C names, for dlsym.
extern "C" {
// MPI_Init, then the processes of MPI_COMM_WORLD (MPI_Finalize when deleted).
tareador::replay::Distribution* tareador_replay_mpi_start(int* argc, char*** argv);
// The MPI the module was built with ("Open MPI", "MPICH").
const char* tareador_replay_mpi_name();
}
