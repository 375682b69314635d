// inputs.h — what the command line or the File menu names, and loading all of it.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "viz/taskgraph.h"
#include "viz/timeline.h"

namespace tareador::view {

// A .prv, or a trace-set directory: every timeline its replays left in SET/replay/ (authentic
// first, then overlap-real, overlap-ideal, overlap-speculative, tasks, then the others by name)
// and its task graphs
// (SET/taskgraph.dot, or SET/taskgraph.N.dot per rank as tareador-tasks writes them); or a .dot
// task graph. Of a set whose manifest names its run, the replays of another run (their summary
// SET/replay/KIND.json names another, or none) and the graphs of ranks it does not have are left
// out, with a warning: the set was written again since.
struct Inputs {
  std::vector<std::pair<std::string, std::string>> timelines;  // (name, .prv path)
  std::vector<std::string> task_graphs;                        // .dot paths
  std::vector<std::string> warnings;                           // what was left out, and why
};
Inputs resolve_inputs(const std::vector<std::string>& paths);  // throws LoadError

// The rank a task graph file is of: N for taskgraph.N.dot, else 0.
std::int64_t rank_of_graph(const std::filesystem::path& dot);

struct Loaded {
  std::vector<std::shared_ptr<const Timeline>> timelines;
  // The task graphs' .dot paths: not read yet, as laying a graph out takes from seconds to
  // minutes (thousands of nodes); the window does it apart (GraphLayouter, viz/loader.h).
  std::vector<std::string> task_graphs;
  std::vector<std::string> warnings;
};
// Loads the timelines, reporting progress over the whole (by file size). Throws LoadError or
// LoadCancelled.
Loaded load_inputs(const Inputs& inputs, const Progress& progress = {});

}  // namespace tareador::view
