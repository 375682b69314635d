// parallel_launch.h — the `replay` command started by an MPI launcher (mpirun, mpiexec, srun):
// its processes share the replays of a sweep over MPI (analysis/distribution.h).
#pragma once

#include <memory>

#include "analysis/distribution.h"

namespace tareador::replay {

// The processes of this launch when a launcher started more than one (MPI is initialised then,
// and finalised with the object); null for a plain run, which never touches MPI.
std::unique_ptr<Distribution> parallel_launch(int* argc, char*** argv);

}  // namespace tareador::replay
