// mpi_matrix.h — the rank-to-rank communication matrix of an MPI trace (issue 13, item 1): of
// the traced run (its records) and of a replay (the transfers the engine simulated, through a
// timeline sink). Point-to-point messages count once each, from sender to receiver; collectives
// are decomposed into the transfers below (docs/comm-matrix.md), the same in both.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "comm/matrix.h"
#include "tareador/replay.h"
#include "tareador/trace.h"

namespace tareador::comm {

// One member's part in a collective: what its record says.
struct CollectivePart {
  int op = 0;
  bool root = false;
  double sent = 0, received = 0;
};

// Decomposition of the collective `op` among `parts` (one per member, in communicator order;
// `tasks` their world ranks) into transfers added to `m`. The root is the member that says so
// (else member 0). Rooted and reducing operations use the binomial tree of the logarithmic
// model (relative rank v receives from v with its lowest set bit cleared); gathers and scatters
// go straight to and from the root; all-to-all operations go between every pair.
void add_collective(Matrix& m, const std::vector<int>& tasks,
                    const std::vector<CollectivePart>& parts);

// Gathers the members' records of each collective (the k-th of a communicator of every member
// is one operation) and decomposes it when the last member's arrives.
class CollectiveGatherer {
 public:
  explicit CollectiveGatherer(const trace::TraceHeader& header) : header_(header) {}
  // Throws std::invalid_argument when `record` is not the operation the other members did, or
  // `task` is not a member of its communicator.
  void add(Matrix& m, int task, const trace::Record& record);
  // Operations some member has not reached (a truncated trace, a deadlock).
  std::uint64_t incomplete() const;

 private:
  struct Pending {
    std::vector<std::vector<CollectivePart>> parts;  // per member, in the order they came
    std::vector<std::size_t> next;                   // per member: parts already decomposed
  };
  const trace::TraceHeader& header_;
  std::map<int, Pending> pending_;  // by communicator id
};

// The matrix of the traced run: every send and every collective of every stream. Throws
// FormatError (the record's file:line) on a collective the members disagree on.
Matrix traced_matrix(const trace::Trace& trace);

// A sink that adds every message the engine delivers and every collective it completes to `m`
// (which must outlive it, labelled with the trace's ranks: Matrix::numbered(header.tasks())).
std::unique_ptr<replay::TimelineSink> make_matrix_sink(const trace::TraceHeader& header, Matrix& m);

// PREFIX.csv and PREFIX.svg (bytes, colour, log scale when the values span more than 100x).
void write_matrix_files(const std::string& prefix, const Matrix& m, const std::string& title);

}  // namespace tareador::comm
