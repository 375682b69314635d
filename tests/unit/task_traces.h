// task_traces.h — tasks trace sets written by the unit tests, and their task-level replays.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "test_util.h"

namespace tareador::testing {

// A trace set of kind "tasks": one stream body per rank (the header line is added, so the
// body's first line is line 2 of the file). mips = 1: `cpu 1000000` lasts 1 s.
inline std::string tasks_set(const TempDir& dir, const std::vector<std::string>& streams,
                             bool truncated = false) {
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"t\"\nranks = " +
                std::to_string(streams.size()) + "\nmips = 1.0\nkinds = [\"tasks\"]\n");
  std::string comm;
  if (streams.size() > 1) {
    comm = "\n[[communicator]]\nid = 1\ntasks = [";
    for (std::size_t r = 0; r < streams.size(); ++r) comm += (r ? ", " : "") + std::to_string(r);
    comm += "]\n";
  }
  for (std::size_t r = 0; r < streams.size(); ++r) {
    std::string rank = std::to_string(r);
    dir.write("set/rank-" + rank + ".toml",
              "rank = " + rank + "\nstatus = \"" + (truncated ? "truncated" : "complete") +
                  "\"\nreason = \"killed by SIGKILL\"\nopaque_calls = []\n" + comm);
    dir.write("set/tasks." + rank + ".trc",
              "# tareador stream v1 kind=tasks rank=" + rank + "\n" + streams[r]);
  }
  return dir.path("set");
}

inline std::unique_ptr<trace::Trace> open_tasks(const std::string& set) {
  auto traces = trace::open_traces(set, {"tasks"});
  EXPECT_EQ(traces.size(), 1u);
  return std::move(traces.front());
}

// Every rank on its own node of `cores` cores; an instantaneous network.
inline replay::Machine task_machine(int ranks, int cores) {
  replay::Machine m = machine(ranks, 0, 0);
  for (replay::Node& node : m.nodes) node.cores = cores;
  return m;
}

inline replay::Result replay_tasks(const trace::Trace& t, int cores, replay::TaskPolicy policy,
                                   replay::TimelineSink* sink = nullptr) {
  replay::SimulationOptions options;
  options.policy = policy;
  options.sink = sink;
  return replay::simulate(t, task_machine(t.header().tasks(), cores), options);
}

}  // namespace tareador::testing
