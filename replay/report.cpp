#include "report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace tareador::replay {

void print_summary(std::ostream& out, const Result& result) {
  fmt::print(out, "{} ({}): {}\n", result.name, result.kind, result.path);
  fmt::print(out, "  total simulated time  {:.9f} s   ({} records, {} messages, {} collectives)\n",
             result.total_time, result.records, result.messages, result.collectives);
  fmt::print(out, "  {:>6}  {:>14}  {:>16}  {:>14}  {:>14}  {:>14}\n", "rank", "compute s",
             "communication s", "waiting s", "idle s", "end s");
  for (std::size_t i = 0; i < result.ranks.size(); ++i) {
    const RankSummary& r = result.ranks[i];
    fmt::print(out, "  {:>6}  {:>14.9f}  {:>16.9f}  {:>14.9f}  {:>14.9f}  {:>14.9f}\n", i,
               r.compute, r.communication, r.waiting, r.idle, r.end);
  }
  for (const std::string& note : result.notes) fmt::print(out, "  note: {}\n", note);
}

nlohmann::ordered_json to_json(const Result& result) {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < result.ranks.size(); ++i) {
    const RankSummary& r = result.ranks[i];
    ranks.push_back({{"rank", i},
                     {"compute_s", r.compute},
                     {"communication_s", r.communication},
                     {"waiting_s", r.waiting},
                     {"idle_s", r.idle},
                     {"end_s", r.end},
                     {"records", r.records}});
  }
  return {{"name", result.name},
          {"kind", result.kind},
          {"path", result.path},
          {"total_time_s", result.total_time},
          {"records", result.records},
          {"messages", result.messages},
          {"collectives", result.collectives},
          {"ranks", ranks},
          {"notes", result.notes}};
}

}  // namespace tareador::replay
