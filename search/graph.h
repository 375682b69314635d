// graph.h — the task graph of a decomposition of a call tree (search.h), inside the search
// library: its instances with their steps (spawns and waits) as a tasks trace has them.
#pragma once

#include <memory>
#include <vector>

#include "search/search.h"

namespace tareador::search {

struct GraphStep {
  bool spawn = false;
  int instance = 0;         // 0-based: the spawned one, or the one waited for
  double instructions = 0;  // of the waiting instance since its previous step
  std::int64_t bytes = 0;
  std::uint8_t kinds = 0;
};

struct GraphInstance {
  int node = 0;  // the call-tree node (main: 0)
  int function = 0;
  double instructions = 0;  // all of its own work
  double tail = 0;          // instructions after its last step
  std::vector<GraphStep> steps;
  int edges = 0;  // dependencies with other instances, the main task's left out (eq. 6.3)
};

struct TaskGraph {
  std::vector<GraphInstance> instances;  // [0] is the main task
};

TaskGraph task_graph(const CallTree& tree, const Decomposition& d, std::uint8_t kinds);
std::unique_ptr<trace::Trace> graph_trace(const CallTree& tree, const TaskGraph& graph);

}  // namespace tareador::search
