// races.h — the race check of the porting hints: pairs of task instances that both write an
// object, some bytes in common, with neither ordered before the other (internal to tasks/).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tasks/taskgraph.h"

namespace tareador::tasks {

// The racing pairs on one object.
struct RaceFinding {
  std::size_t pairs = 0;
  int first = 0, second = 0;    // the first pair, by instance
  std::vector<bool> types;      // per type: in a racing pair
  std::vector<bool> instances;  // per instance id: in a racing pair
  // Some pair's overlap is proven: neither of the two updated the object while it was disabled
  // (the trace counts such bytes once per access, so an instance that updates its own
  // elements several times seems to write more of them than it does).
  bool proven = false;
};

// Object id -> its races. Stops at options.max_work and says so in `notes`.
std::map<int, RaceFinding> find_races(const trace::TaskSet& set, const HintOptions& options,
                                      std::vector<std::string>& notes);

}  // namespace tareador::tasks
