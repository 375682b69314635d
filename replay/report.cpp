#include "replay/report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace tareador::replay {

namespace {

void print_tasks(std::ostream& out, const Result& result, const TaskResult& tasks) {
  int min_cores = tasks.cores.empty() ? 0 : tasks.cores.front();
  int max_cores = min_cores;
  for (int c : tasks.cores) {
    min_cores = std::min(min_cores, c);
    max_cores = std::max(max_cores, c);
  }
  std::string cores = min_cores == max_cores ? std::to_string(max_cores)
                                             : fmt::format("{}-{}", min_cores, max_cores);
  fmt::print(out,
             "  tasks: {} instances, policy {}, {} core(s) per node (per-rank columns above "
             "are core-seconds)\n",
             tasks.instances, task_policy_name(tasks.policy), cores);
  if (tasks.one_core_time > 0)
    fmt::print(out,
               "  on 1 core per node    {:.9f} s   speedup {:.3f}   parallel efficiency {:.3f} "
               "(over {} cores)\n",
               tasks.one_core_time, tasks.speedup(result.total_time),
               tasks.efficiency(result.total_time), tasks.reference_cores());
  fmt::print(out, "  parallelism profile: {:.9f} core-seconds busy, at most {} core(s) at once\n",
             tasks.busy, tasks.peak);
  fmt::print(out, "  {:>10}  {:>14}  {:>7}\n", "cores busy", "time s", "share");
  for (std::size_t k = 0; k < tasks.profile.size(); ++k)
    fmt::print(out, "  {:>10}  {:>14.9f}  {:>6.1f}%\n", k, tasks.profile[k],
               result.total_time > 0 ? 100.0 * tasks.profile[k] / result.total_time : 0.0);
}

nlohmann::ordered_json profile_json(const std::vector<double>& profile, double total) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < profile.size(); ++k)
    rows.push_back(
        {{"cores", k}, {"time_s", profile[k]}, {"share", total > 0 ? profile[k] / total : 0.0}});
  return rows;
}

}  // namespace

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
  if (result.tasks) print_tasks(out, result, *result.tasks);
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
  nlohmann::ordered_json doc = {{"name", result.name},
                                {"kind", result.kind},
                                {"path", result.path},
                                {"total_time_s", result.total_time},
                                {"records", result.records},
                                {"messages", result.messages},
                                {"collectives", result.collectives},
                                {"ranks", ranks},
                                {"notes", result.notes}};
  if (result.tasks) {
    const TaskResult& t = *result.tasks;
    nlohmann::ordered_json rank_profiles = nlohmann::ordered_json::array();
    for (const std::vector<double>& p : t.rank_profiles)
      rank_profiles.push_back(profile_json(p, result.total_time));
    doc["tasks"] = {{"policy", task_policy_name(t.policy)},
                    {"instances", t.instances},
                    {"cores", t.cores},
                    {"reference_cores", t.reference_cores()},
                    {"one_core_time_s", t.one_core_time},
                    {"speedup", t.speedup(result.total_time)},
                    {"efficiency", t.efficiency(result.total_time)},
                    {"peak_cores", t.peak},
                    {"busy_core_s", t.busy},
                    {"profile", profile_json(t.profile, result.total_time)},
                    {"rank_profiles", rank_profiles}};
  }
  return doc;
}

}  // namespace tareador::replay
