// report.h — how the `replay` command shows results: a table for people, JSON for programs.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "replay.h"

namespace tareador::replay {

// Total time and the per-rank breakdown, as an aligned table.
void print_summary(std::ostream& out, const Result& result);

// {"name", "kind", "path", "total_time_s", "records", "messages", "collectives",
//  "ranks": [{"rank", "compute_s", "communication_s", "waiting_s", "idle_s", "end_s"}], "notes"}
nlohmann::ordered_json to_json(const Result& result);

}  // namespace tareador::replay
