// report.h — how the `replay` command shows results: a table for people, JSON for programs.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "tareador/replay.h"

namespace tareador::replay {

// Total time and the per-rank breakdown, as an aligned table; for a tasks trace also the
// speedup over 1 core per node, the parallel efficiency and the parallelism profile.
void print_summary(std::ostream& out, const Result& result);

// {"name", "kind", "path", "total_time_s", "records", "messages", "collectives",
//  "ranks": [{"rank", "compute_s", "communication_s", "waiting_s", "idle_s", "end_s"}], "notes"}
// and for a tasks trace "tasks": {"policy", "instances", "cores", "reference_cores",
//  "one_core_time_s", "speedup", "efficiency", "peak_cores", "busy_core_s",
//  "profile": [{"cores", "time_s", "share"}], "rank_profiles": [[...], ...]}
nlohmann::ordered_json to_json(const Result& result);

}  // namespace tareador::replay
