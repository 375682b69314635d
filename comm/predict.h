// predict.h — from a sequential run to its MPI version ("CommAnalyzer: automated estimation of
// communication cost ... of a sequential program", its idea on the tool's graphs): the units of
// work of a sequential run (task types: each annotated task names the unit it works on, a loop
// iteration or a block of data, and runs once per outer iteration), the bytes flowing between
// them (--comm=task-type --sample=no), their instructions (the tasks trace), cut into k parts
// (partition.h) give the communication of the SPMD version with one part per rank: the k x k
// matrix, its volume, its messages per iteration; and a synthetic trace set of it that `replay`
// simulates on any machine: the predicted parallel time of code with no MPI version yet.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "comm/flow_graph.h"
#include "comm/matrix.h"
#include "comm/partition.h"
#include "tareador/trace.h"

namespace tareador::comm {

struct Prediction {
  std::vector<std::string> units;    // the task types cut into parts
  std::vector<int> part;             // of each unit
  std::uint64_t iterations = 1;      // instances of the most frequent unit
  std::vector<double> instructions;  // of each part, in the whole run
  // Ranks "0" .. "k-1"; bytes: what each part loads of what another part stored (the cut
  // edges), a steady iteration's times the iterations; events: messages, one per pair and
  // iteration. The first instance of a unit reads the initial data, which no unit wrote (the
  // run holds iterations - 1 steady ones); its MPI version exchanges that halo too.
  Matrix matrix;

  int parts() const { return static_cast<int>(instructions.size()); }
  double bytes_per_iteration() const;
  std::size_t messages_per_iteration() const;
};

// The prediction for `parts` ranks from the flows by task type of a run and the task set of the
// same run. Flows from or to what is no unit (the main task, code outside tasks: the
// initialisation) are left out. Throws std::invalid_argument when the graph is not by task
// type, or has fewer units than parts.
Prediction predict(const FlowGraph& flows, const trace::TaskSet& tasks, int parts,
                   Partitioner partitioner);

// The units of each part, the matrix per iteration and the totals.
void write_prediction_report(std::ostream& out, const Prediction& p);

// The SPMD version as a native trace set in `dir` (kind authentic, `parts` ranks, `mips` as the
// run's): per iteration, each rank computes its part's share of instructions, then sends each
// other part what it loads from it (immediate sends and receives, tag = iteration) and waits
// for them all.
void write_predicted_trace(const std::string& dir, const std::string& name, double mips,
                           const Prediction& p);

}  // namespace tareador::comm
