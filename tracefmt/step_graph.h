// step_graph.h — the points of every task instance of a rank and the edges between them
// (internal to tracefmt): an instance is its start, its steps (spawns and afters, in order)
// and its end; along an instance go its instructions, a spawn goes to the child's start, an
// instance's end to every after that waits for it. The loader checks that this is a DAG and
// task_critical_paths finds the longest paths over it.
#pragma once

#include <cstdint>
#include <vector>

#include "tareador/trace.h"

namespace tareador::trace {

class StepGraph {
 public:
  // Orders the graph of `set` topologically (Kahn's algorithm): linear in its points and edges.
  explicit StepGraph(const TaskSet& set);

  bool acyclic() const { return order_.size() == owner_.size(); }
  std::uint32_t start(std::size_t instance) const { return first_[instance]; }
  std::uint32_t end(std::size_t instance) const { return first_[instance + 1] - 1; }
  // False for the points on or after a cycle (never ordered).
  bool ordered(std::uint32_t point) const { return pending_[point] == 0; }

  // For each instance, the longest path from its start to a sink, weighing each instruction
  // of an instance `seconds[type]` (by its type). Only for an acyclic graph.
  std::vector<double> longest_from_starts(const std::vector<double>& seconds) const;

 private:
  // Calls f(point, instructions) for each edge out of `point`.
  template <class F>
  void successors(std::uint32_t point, F f) const;

  const TaskSet& set_;
  std::vector<std::uint32_t> first_;  // each instance's start; its steps follow, then its end
  std::vector<std::uint32_t> owner_;  // per point: its instance (index)
  std::vector<double> tail_;          // per instance: instructions after its last step
  std::vector<std::uint32_t> waiters_first_, waiters_;  // per instance: the afters on it
  std::vector<std::uint32_t> order_;                    // topological
  std::vector<std::int32_t> pending_;  // in-edges not ordered (> 0: on or after a cycle)
};

}  // namespace tareador::trace
