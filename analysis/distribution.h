// distribution.h — the processes of a parallel launch (mpirun, srun) sharing independent work:
// each runs its share, and process 0 gathers what all of them found. The analyses stay free of
// MPI: the command that was launched provides the implementation (replay/parallel_launch.h).
#pragma once

#include <string>
#include <vector>

namespace tareador::replay {

class Distribution {
 public:
  virtual ~Distribution() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  bool leader() const { return rank() == 0; }
  // Job `index` of many is this process's (round robin).
  bool owns(std::size_t index) const {
    return index % static_cast<std::size_t>(size()) == static_cast<std::size_t>(rank());
  }
  // Every process calls it with its part; process 0 gets every part, in rank order, the others
  // nothing.
  virtual std::vector<std::string> gather(const std::string& part) const = 0;
};

}  // namespace tareador::replay
