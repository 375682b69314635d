// mpi_distribution.cpp — the module replay-mpi.so: a Distribution over MPI, for the `replay`
// command started by an MPI launcher. A module of its own, loaded only under a launcher
// (replay/parallel_launch.cpp), so that a plain run neither loads nor links the MPI library.
#include "replay/parallel_launch.h"

// MPI's C API only (its C++ bindings do not build without warnings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <numeric>
#include <string>

namespace tareador::replay {

namespace {

#if defined(OPEN_MPI)
constexpr const char* kReplayMpi = "Open MPI";
#else
constexpr const char* kReplayMpi = "MPICH";
#endif

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

}  // namespace tareador::replay

extern "C" {

tareador::replay::Distribution* tareador_replay_mpi_start(int* argc, char*** argv) {
  return new tareador::replay::MpiDistribution(argc, argv);
}

const char* tareador_replay_mpi_name() { return tareador::replay::kReplayMpi; }

}  // extern "C"
