#include "replay/parallel_launch.h"

// MPI's C API only (its C++ bindings do not build without warnings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdlib>
#include <iostream>
#include <numeric>
#include <string>

namespace tareador::replay {

namespace {

#if defined(OPEN_MPI)
constexpr const char* kReplayMpi = "Open MPI";
#else
constexpr const char* kReplayMpi = "MPICH";
#endif

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

class MpiDistribution final : public Distribution {
 public:
  MpiDistribution(int* argc, char*** argv) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiDistribution() override { MPI_Finalize(); }
  MpiDistribution(const MpiDistribution&) = delete;
  MpiDistribution& operator=(const MpiDistribution&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::string> gather(const std::string& part) const override {
    int length = static_cast<int>(part.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size(), 0);
    std::string all;
    if (rank_ == 0) {
      std::exclusive_scan(lengths.begin(), lengths.end(), offsets.begin(), 0);
      all.resize(static_cast<std::size_t>(offsets.back() + lengths.back()));
    }
    MPI_Gatherv(part.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
                0, MPI_COMM_WORLD);
    std::vector<std::string> parts;
    if (rank_ == 0)
      for (std::size_t r = 0; r < lengths.size(); ++r)
        parts.push_back(
            all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    return parts;
  }

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace

std::unique_ptr<Distribution> parallel_launch(int* argc, char*** argv) {
  if (launched_processes() < 2) return nullptr;
  auto mpi = std::make_unique<MpiDistribution>(argc, argv);
  if (mpi->size() > 1) return mpi;
  // The launcher of another MPI than the one `replay` was built with: each process is alone.
  // Process 0 does all the work, the others none, so that the output is still one run's.
  mpi.reset();
  if (launched_rank() > 0) std::exit(0);
  std::cerr << "replay: started by the launcher of another MPI than " << kReplayMpi
            << ", which it was built with: process 0 replays everything\n";
  return nullptr;
}

}  // namespace tareador::replay
