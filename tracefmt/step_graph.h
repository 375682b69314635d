// step_graph.h — the points of every task instance of a rank and the edges between them
// (internal to tracefmt): an instance is its start, its steps (spawns and afters, in order)
// and its end; along an instance go its instructions, a spawn goes to the child's start, an
// instance's end to every after that waits for it. The loader checks that this is a DAG and
// task_critical_paths finds the longest paths over it. The graphs of several ranks can be
// joined by their messages (message_paths.cpp): a message goes from a point of the sending
// instance to a point of the receiving one, both inside a segment between two steps.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "tareador/trace.h"

namespace tareador::trace {

// Where a message leaves (a send) or arrives (a receive) in an instance: `offset`
// instructions into its segment `segment` (the one after its point `segment`: 0 is its start,
// k its step k - 1).
struct MessagePoint {
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t instance = 0;  // in the graph's numbering: the ranks' instances one after another
  std::uint32_t segment = 0;
  double offset = 0;
  std::uint32_t to = kNone;  // a send: the message point of its receive
};

class StepGraph {
 public:
  // Orders the graph of `set` topologically (Kahn's algorithm): linear in its points and edges.
  explicit StepGraph(const TaskSet& set);
  // The graphs of `sets` (instances numbered rank after rank), joined by `messages`, which are
  // sorted by instance and, within one, in record order.
  StepGraph(std::vector<const TaskSet*> sets, std::vector<MessagePoint> messages);

  bool acyclic() const { return order_.size() == owner_.size() + messages_.size(); }
  std::uint32_t start(std::size_t instance) const { return first_[instance]; }
  std::uint32_t end(std::size_t instance) const { return first_[instance + 1] - 1; }
  // False for the points on or after a cycle (never ordered).
  bool ordered(std::uint32_t point) const { return pending_[point] == 0; }

  // For each rank, for each of its instances, the longest path from its start to a sink,
  // weighing each instruction of an instance `seconds[rank][type]` (by its type). Only for an
  // acyclic graph.
  std::vector<std::vector<double>> longest_from_starts(
      const std::vector<std::vector<double>>& seconds) const;

 private:
  void build();
  std::size_t rank_of(std::uint32_t instance) const;
  const TaskInstance& instance(std::uint32_t instance, std::size_t rank) const {
    return sets_[rank]->instances[instance - rank_first_[rank]];
  }
  std::uint32_t owner(std::uint32_t point) const;
  double segment_instructions(std::uint32_t instance, std::uint32_t segment) const;
  // Calls f(point, instructions) for each edge out of `point`.
  template <class F>
  void successors(std::uint32_t point, F f) const;
  template <class F>
  void message_successors(std::uint32_t message, F f) const;

  std::vector<const TaskSet*> sets_;
  std::vector<std::uint32_t> rank_first_;  // per rank: its first instance; then the total
  std::vector<std::uint32_t> first_;       // each instance's start; its steps follow, then its end
  std::vector<std::uint32_t> owner_;       // per point: its instance (index)
  std::vector<double> tail_;               // per instance: instructions after its last step
  std::vector<std::uint32_t> waiters_first_, waiters_;  // per instance: the afters on it
  // Message points are the points after the instances' (owner_.size() + index).
  std::vector<MessagePoint> messages_;
  std::vector<std::uint32_t> messages_first_;  // per instance: its first message point
  std::vector<std::uint32_t> order_;           // topological
  std::vector<std::int32_t> pending_;          // in-edges not ordered (> 0: on or after a cycle)
};

// The seconds of an instruction of each type of `set` (task_critical_paths' arguments).
std::vector<double> task_type_seconds(const TaskSet& set, double seconds_per_instruction,
                                      const std::vector<double>& type_speedup);
// The critical paths of one rank's instances (task_critical_paths), each instruction of a type
// weighing `type_seconds[type]`; throws on a cycle.
std::vector<double> rank_critical_paths(const TaskSet& set, std::vector<double> type_seconds);

}  // namespace tareador::trace
