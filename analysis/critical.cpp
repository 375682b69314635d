// The critical task: every task type accelerated in turn, on every machine (critical.h).
#include "analysis/critical.h"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "analysis/sweep.h"
#include "plot/svg_plot.h"
#include "tracefmt/parallel.h"

namespace tareador::replay {

namespace {

// Speedups this close count as the same (a tie between types).
constexpr double kTie = 1e-9;

std::string factor_text(double factor) { return fmt::format("{:g}", factor); }

// The share of each type (by name, over all ranks) in the instructions of the run.
std::vector<double> type_shares(const trace::TraceHeader& header,
                                const std::vector<std::string>& types) {
  std::vector<double> instructions(types.size(), 0.0);
  double total = 0;
  for (const trace::TaskSet& set : header.task_sets)
    for (const trace::TaskInstance& inst : set.instances) {
      const std::string& name = set.types[static_cast<std::size_t>(inst.type)];
      auto at =
          static_cast<std::size_t>(std::find(types.begin(), types.end(), name) - types.begin());
      instructions[at] += inst.instructions;
      total += inst.instructions;
    }
  for (double& share : instructions) share = total > 0 ? share / total : 0.0;
  return instructions;
}

}  // namespace

CriticalResult find_critical_task(const trace::Trace& tasks, const Machine& machine,
                                  const CriticalOptions& options) {
  const trace::TraceHeader& header = tasks.header();
  if (header.kind != "tasks")
    throw std::invalid_argument("the critical task is found in a tasks trace, not in " +
                                header.kind + " (" + header.path + ")");
  for (double f : options.factors)
    if (!(f > 0) || !std::isfinite(f))
      throw std::invalid_argument("acceleration factors must be positive numbers");
  CriticalResult result;
  result.name = header.name;
  result.path = header.path;
  result.policy = options.policy;
  result.types = task_type_table(header).names;
  result.shares = type_shares(header, result.types);

  // The machines, and every replay: per machine the plain one, then per factor one per type.
  std::vector<Machine> machines;
  std::vector<int> cores = options.cores;
  if (cores.empty()) {
    machines.push_back(machine);
    cores.push_back(machine.nodes.empty() ? 1 : machine.nodes.front().cores);
  }
  for (int c : options.cores) {
    machines.push_back(machine);
    apply_override(machines.back(), "cores=" + std::to_string(c));
  }
  const std::size_t per_machine = 1 + options.factors.size() * result.types.size();
  std::vector<double> times(machines.size() * per_machine);
  std::atomic<std::size_t> done{0};
  parallel_for(times.size(), options.jobs, [&](std::size_t i) {
    std::size_t m = i / per_machine, k = i % per_machine;
    SimulationOptions sim;
    sim.policy = options.policy;
    if (k > 0) {
      double factor = options.factors[(k - 1) / result.types.size()];
      sim.accelerate[result.types[(k - 1) % result.types.size()]] = factor;
    }
    try {
      times[i] = simulate(tasks, machines[m], sim).total_time;
    } catch (const DeadlockError& e) {
      throw DeadlockError("with " + std::to_string(cores[m]) + " core(s) per node: " + e.what());
    }
    std::size_t now = ++done;
    if (options.progress)
      options.progress(static_cast<double>(now) / static_cast<double>(times.size()),
                       std::to_string(now) + "/" + std::to_string(times.size()) + " replays");
  });

  for (std::size_t m = 0; m < machines.size(); ++m)
    for (std::size_t f = 0; f < options.factors.size(); ++f) {
      CriticalRow row;
      row.cores = cores[m];
      row.factor = options.factors[f];
      row.time = times[m * per_machine];
      double best = 0;
      for (std::size_t t = 0; t < result.types.size(); ++t) {
        double accelerated = times[m * per_machine + 1 + f * result.types.size() + t];
        row.speedups.push_back(accelerated > 0 ? row.time / accelerated : 1.0);
        best = std::max(best, row.speedups.back());
      }
      for (std::size_t t = 0; t < result.types.size(); ++t)
        if (row.speedups[t] >= best - kTie) row.critical.push_back(result.types[t]);
      result.rows.push_back(std::move(row));
    }
  return result;
}

void print_critical(std::ostream& out, const CriticalResult& r) {
  out << r.name << " (tasks): " << r.path << "\n";
  out << "  the critical task, policy " << task_policy_name(r.policy)
      << " (speedup of the run when one type's instances run FACTOR times faster)\n";
  std::string head = fmt::format("  {:>6} {:>7} {:>14}", "cores", "factor", "time s");
  std::string shares = fmt::format("  {:>6} {:>7} {:>14}", "", "", "share of work");
  for (std::size_t t = 0; t < r.types.size(); ++t) {
    std::size_t width = std::max<std::size_t>(r.types[t].size(), 8);
    head += fmt::format(" {:>{}}", r.types[t], width);
    shares += fmt::format(" {:>{}}", fmt::format("{:.1f}%", 100 * r.shares[t]), width);
  }
  out << head << "  critical\n" << shares << "\n";
  for (const CriticalRow& row : r.rows) {
    std::string line =
        fmt::format("  {:>6} {:>7} {:>14.9f}", row.cores, factor_text(row.factor) + "x", row.time);
    for (std::size_t t = 0; t < r.types.size(); ++t)
      line +=
          fmt::format(" {:>{}.3f}", row.speedups[t], std::max<std::size_t>(r.types[t].size(), 8));
    std::string critical;
    for (const std::string& c : row.critical) critical += (critical.empty() ? "" : " = ") + c;
    out << line << "  " << critical << "\n";
  }
}

void write_critical_csv(std::ostream& out, const CriticalResult& r) {
  out << "cores,factor,time_s";
  for (const std::string& type : r.types) out << ",speedup_" << type;
  out << ",critical\n";
  for (const CriticalRow& row : r.rows) {
    out << fmt::format("{},{},{:.9f}", row.cores, factor_text(row.factor), row.time);
    for (double s : row.speedups) out << fmt::format(",{:.6f}", s);
    std::string critical;
    for (const std::string& c : row.critical) critical += (critical.empty() ? "" : "+") + c;
    out << "," << critical << "\n";
  }
}

std::vector<std::string> write_critical_files(const std::string& prefix, const CriticalResult& r) {
  prepare_sweep_files(prefix);
  std::vector<std::string> written;
  std::ostringstream csv;
  write_critical_csv(csv, r);
  write_text(prefix + ".csv", csv.str());
  written.push_back(prefix + ".csv");
  std::vector<double> factors;
  for (const CriticalRow& row : r.rows)
    if (std::find(factors.begin(), factors.end(), row.factor) == factors.end())
      factors.push_back(row.factor);
  for (double factor : factors) {
    svg::Plot plot;
    plot.title = r.name + ": the speedup of accelerating each task type " + factor_text(factor) +
                 " times (policy " + std::string(task_policy_name(r.policy)) + ")";
    plot.x_label = "cores";
    plot.y_label = "speedup of the run";
    plot.guide_y = 1.0;
    for (std::size_t t = 0; t < r.types.size(); ++t) {
      svg::Series s{r.types[t], {}, {}};
      s.style = static_cast<int>(t);
      for (const CriticalRow& row : r.rows)
        if (row.factor == factor) {
          s.x.push_back(row.cores);
          s.y.push_back(row.speedups[t]);
        }
      plot.series.push_back(std::move(s));
    }
    std::string path = prefix + "-" + factor_text(factor) + "x.svg";
    write_text(path, svg::render(plot));
    written.push_back(path);
  }
  return written;
}

}  // namespace tareador::replay
