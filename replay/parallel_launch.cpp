// parallel_launch.cpp — what a launcher says of this process, and the module that speaks MPI,
// loaded only when a launcher started several processes.
#include "replay/parallel_launch.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

namespace tareador::replay {

namespace {

// What a launcher says of this process (Open MPI, MPICH's Hydra and PMI, PMIx, Slurm): the
// number of processes it started (1 when none did) and this one's number.
int launcher_says(const char* const (&names)[4]) {
  for (const char* name : names)
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}
int launched_processes() {
  return launcher_says({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"});
}
int launched_rank() {
  return launcher_says({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"});
}

// The directory of this executable (in the build tree, where the module is built too).
std::string executable_directory() {
  std::string path(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0) return ".";
  path.resize(static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/'));
}

// replay-mpi.so beside this executable (the build tree) or where it is installed.
void* load_module() {
  std::string tried;
  for (const std::string& directory : {executable_directory(), std::string(TAREADOR_PKGLIBDIR)}) {
    std::string path = directory + "/replay-mpi.so";
    if (void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) return module;
    tried += std::string("\n  ") + ::dlerror();
  }
  throw std::runtime_error(
      "started by an MPI launcher, but the module that speaks MPI "
      "(replay-mpi.so) cannot be loaded:" +
      tried);
}

template <typename Function>
Function* entry(void* module, const char* name) {
  auto* function = reinterpret_cast<Function*>(::dlsym(module, name));
  if (!function)
    throw std::runtime_error(std::string("replay-mpi.so has no ") + name + ": " + ::dlerror());
  return function;
}

}  // namespace

std::unique_ptr<Distribution> parallel_launch(int* argc, char*** argv) {
  if (launched_processes() < 2) return nullptr;
  void* module = load_module();  // kept loaded: the distribution's code is in it
  std::unique_ptr<Distribution> mpi(
      entry<decltype(tareador_replay_mpi_start)>(module, "tareador_replay_mpi_start")(argc, argv));
  if (mpi->size() > 1) return mpi;
  // The launcher of another MPI than the one `replay` was built with: each process is alone.
  // Process 0 does all the work, the others none, so that the output is still one run's.
  mpi.reset();
  if (launched_rank() > 0) std::exit(0);
  std::cerr << "replay: started by the launcher of another MPI than "
            << entry<decltype(tareador_replay_mpi_name)>(module, "tareador_replay_mpi_name")()
            << ", which it was built with: process 0 replays everything\n";
  return nullptr;
}

}  // namespace tareador::replay
