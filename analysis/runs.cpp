// What the `replay` command runs (runs.h).
#include "analysis/runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "analysis/comparisons.h"
#include "analysis/critical.h"
#include "analysis/sweep.h"
#include "comm/mpi_matrix.h"
#include "replay/outputs.h"
#include "replay/report.h"

namespace tareador::replay {

namespace {

std::vector<const trace::Trace*> pointers(
    const std::vector<std::unique_ptr<trace::Trace>>& traces) {
  std::vector<const trace::Trace*> out;
  for (const auto& t : traces) out.push_back(t.get());
  return out;
}

// The traces of `input` as replays read them: without the uses of task instances (which they do
// not read).
std::vector<std::unique_ptr<trace::Trace>> open_for_replay(
    const std::string& input, const std::vector<std::string>& kinds = {}) {
  trace::OpenOptions options;
  options.task_uses = false;
  return trace::open_traces(input, kinds, options);
}

// What the command prints is not wanted when the JSON goes to standard output.
bool printing(const RunRequest& r) { return !r.quiet && r.json_path != "-"; }

// ", truncated: ranks 1, 3 (...)": what the validation adds for a trace whose run died.
std::string truncation(const trace::TraceHeader& header) {
  if (header.truncated_tasks.empty()) return "";
  std::string ranks;
  for (int task : header.truncated_tasks)
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(task);
  return ", truncated: rank(s) " + ranks +
         " stop early (their run died; messages and collectives they leave unmatched are not "
         "problems)";
}

// The machine a trace is replayed on: tasks traces on an ideal machine have unbounded cores.
Machine machine_for(const RunRequest& r, const trace::TraceHeader& header) {
  Machine m = r.machine;
  if (header.kind == "tasks" && r.ideal) make_cores_unbounded(m, header);
  return m;
}

void write_copies(const RunRequest& r, const trace::Trace& t, const Machine& machine,
                  const std::string& label, std::size_t traces) {
  if (r.dim_path.empty() && r.native_path.empty()) return;  // (a header may hold millions of tasks)
  trace::TraceHeader header = t.header();
  if (machine.mips > 0) header.mips = machine.mips;
  if (!r.dim_path.empty()) {
    auto writer = trace::make_dimemas_writer(output_path(r.dim_path, label, traces), header);
    trace::copy_trace(t, *writer);
  }
  if (!r.native_path.empty()) {
    if (header.kind == "dimemas") header.kind = "authentic";
    if (!(header.mips > 0)) header.mips = 1000;
    std::string dir = traces == 1 ? r.native_path : r.native_path + "/" + label;
    auto writer = trace::make_native_writer(dir, header);
    trace::copy_trace(t, *writer);
  }
}

// The replay of a tasks trace on 1 core per node, for the speedup (0 if it deadlocks: then a
// note says so).
double one_core_time(const RunRequest& r, const trace::Trace& t, const Machine& machine,
                     Result& result) {
  Machine one = machine;
  apply_override(one, "cores=1");
  ProgressLine progress(r.progress, t.header().name + " (tasks, 1 core per node)");
  SimulationOptions sim;
  sim.policy = r.policy;
  sim.accelerate = r.accelerate;
  sim.progress = [&progress](double f) { progress(f); };
  try {
    return simulate(t, one, sim).total_time;
  } catch (const DeadlockError& e) {
    std::string what = e.what();
    result.notes.push_back("no speedup: the replay on 1 core per node deadlocks (" +
                           what.substr(0, what.find('\n')) + ")");
    return 0;
  }
}

// --cores-sweep of a tasks trace: the sweep of `cores`, shown as speedups over 1 core per node.
nlohmann::ordered_json cores_sweep(const RunRequest& r, const trace::Trace& t) {
  SweepSpec spec = sweep_of_values("cores", std::vector<double>(r.cores.begin(), r.cores.end()));
  SweepOptions options;
  options.policy = r.policy;
  options.accelerate = r.accelerate;
  options.jobs = r.jobs;
  ProgressLine progress(r.progress, t.header().name + " (tasks, cores sweep)");
  options.progress = [&progress](const SweepProgress& p) { progress(p.overall, p.what); };
  SweepResult result = run_sweep({&t}, r.machine, spec, options);
  const SweepSeries& s = result.series.front();
  if (!s.failures.empty()) throw DeadlockError("with " + s.failures.front());
  if (printing(r)) print_cores_sweep(std::cout, result, r.csv);
  return cores_sweep_json(result);
}

// Where the matrices of a trace go: PREFIX with one trace, PREFIX.LABEL with several.
std::string matrix_prefix(const RunRequest& r, const std::string& label, std::size_t traces) {
  return traces == 1 ? r.matrix_prefix : r.matrix_prefix + "." + label;
}

// The files run_replays will write, checked before anything is simulated: an unwritable --json
// or --prv is an error at once, not after the whole replay.
void check_outputs(const RunRequest& r, const std::vector<std::unique_ptr<trace::Trace>>& traces,
                   const std::vector<std::string>& labels) {
  if (!r.json_path.empty() && r.json_path != "-") trace::check_output_file(r.json_path);
  std::vector<std::string> sets;  // kept in: SET/replay/
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const trace::TraceHeader& header = traces[i]->header();
    bool tasks_sweep = header.kind == "tasks" && !r.cores.empty();
    if (!r.prv_path.empty() && !tasks_sweep)
      trace::check_output_file(output_path(r.prv_path, labels[i], traces.size()));
    if (!r.chrome_path.empty() && !tasks_sweep)
      trace::check_output_file(output_path(r.chrome_path, labels[i], traces.size()));
    if (!r.dim_path.empty())
      trace::check_output_file(output_path(r.dim_path, labels[i], traces.size()));
    if (!r.matrix_prefix.empty() && !tasks_sweep)
      trace::check_output_file(matrix_prefix(r, labels[i], traces.size()) + ".csv");
    if (r.prv_path.empty() && r.keep && !tasks_sweep && header.kind != "dimemas" &&
        std::find(sets.begin(), sets.end(), header.path) == sets.end()) {
      prepare_saved_timelines(header);
      sets.push_back(header.path);
    }
  }
}

// What a trace's speedup over its baseline may owe to something other than what its kind
// studies, or "": overlap on a network without link limits when messages were cut into chunks
// (`chunked`: the trace has more messages than its baseline), a tasks replay with --accelerate.
std::string speedup_caution(const RunRequest& r, const trace::TraceHeader& header, bool chunked) {
  if (header.kind.rfind("overlap-", 0) == 0)
    return chunked ? overlap_caution(machine_for(r, header)) : "";
  if (header.kind == "tasks" && !r.accelerate.empty())
    return "the tasks replay has --accelerate: this speedup counts the acceleration as well as "
           "the decomposition (--critical sets each accelerated replay against the plain one)";
  return "";
}

// The speedup of each trace over its baseline of the same input (baseline_index: the overlap
// kinds over authentic-p2p when there is one), printed after the summaries and added to the
// traces' JSON as "speedup": {"over": LABEL, "value": X}.
void compare_with_baselines(const RunRequest& r,
                            const std::vector<std::unique_ptr<trace::Trace>>& traces,
                            const std::vector<std::size_t>& input_of,
                            const std::vector<double>& times,
                            const std::vector<std::string>& labels,
                            nlohmann::ordered_json& json_traces, bool print) {
  bool headed = false;
  std::vector<std::string> explained;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    std::vector<std::string> kinds;  // of the same input, and where trace i is among them
    std::vector<std::size_t> index;
    for (std::size_t j = 0; j < traces.size(); ++j)
      if (input_of[j] == input_of[i]) {
        kinds.push_back(traces[j]->header().kind);
        index.push_back(j);
      }
    const auto at =
        static_cast<std::size_t>(std::find(index.begin(), index.end(), i) - index.begin());
    int base = baseline_index(kinds, at);
    if (base < 0) continue;
    std::size_t b = index[static_cast<std::size_t>(base)];
    if (!(times[i] > 0) || !(times[b] > 0)) continue;
    double speedup = times[b] / times[i];
    json_traces[i]["speedup"] = {{"over", labels[b]}, {"value", speedup}};
    if (!print) continue;
    if (!headed) std::cout << "speedups (time of the baseline / time of the trace):\n";
    headed = true;
    std::cout << fmt::format("  {} over {}: {:.3f}\n", labels[i], labels[b], speedup);
    bool chunked = json_traces[i].value("messages", 0) != json_traces[b].value("messages", 0);
    for (const std::string& why : {baseline_explanation(traces[b]->header().kind),
                                   speedup_caution(r, traces[i]->header(), chunked)})
      if (!why.empty() && std::find(explained.begin(), explained.end(), why) == explained.end()) {
        std::cout << "    (" << why << ")\n";
        explained.push_back(why);
      }
  }
}

// --matrix: the matrix of the replay and, for the traced run (authentic or Dimemas), of its
// records.
void write_matrices(const RunRequest& r, const trace::Trace& t, const comm::Matrix& replayed,
                    const std::string& label, std::size_t traces) {
  const std::string prefix = matrix_prefix(r, label, traces);
  const trace::TraceHeader& h = t.header();
  comm::write_matrix_files(
      prefix, replayed, fmt::format("{} ({}): bytes per pair of ranks, replayed", h.name, h.kind));
  if (h.kind == "authentic" || h.kind == "dimemas")
    comm::write_matrix_files(
        prefix + ".traced", comm::traced_matrix(t),
        fmt::format("{} ({}): bytes per pair of ranks, traced", h.name, h.kind));
}

// One trace replayed with its timeline and copies; its JSON summary.
nlohmann::ordered_json replay_one(const RunRequest& r, const trace::Trace& t,
                                  const std::string& label, std::size_t traces) {
  const Machine m = machine_for(r, t.header());
  write_copies(r, t, m, label, traces);
  std::string prv = r.prv_path.empty() ? (r.keep ? saved_timeline(t.header()) : std::string())
                                       : output_path(r.prv_path, label, traces);
  std::vector<std::unique_ptr<TimelineSink>> sinks;
  if (!prv.empty()) sinks.push_back(make_paraver_sink(prv, t.header(), m));
  if (!r.chrome_path.empty())
    sinks.push_back(make_chrome_sink(output_path(r.chrome_path, label, traces), t.header()));
  comm::Matrix matrix = comm::Matrix::numbered(static_cast<std::size_t>(t.header().tasks()));
  if (!r.matrix_prefix.empty()) sinks.push_back(comm::make_matrix_sink(t.header(), matrix));
  std::unique_ptr<TimelineSink> sink = make_tee_sink(std::move(sinks));
  SimulationOptions sim;
  sim.sink = sink.get();
  sim.policy = r.policy;
  if (t.header().kind == "tasks") sim.accelerate = r.accelerate;
  Result result;
  {
    ProgressLine progress(r.progress, t.header().name + " (" + t.header().kind + ")");
    sim.progress = [&progress](double f) { progress(f); };
    result = simulate(t, m, sim);
  }
  if (result.tasks) result.tasks->one_core_time = one_core_time(r, t, m, result);
  if (!r.matrix_prefix.empty()) write_matrices(r, t, matrix, label, traces);
  if (printing(r)) print_summary(std::cout, result);
  nlohmann::ordered_json json = to_json(result);
  if (r.prv_path.empty() && !prv.empty()) {  // kept in the set: with what it is a replay of
    nlohmann::ordered_json summary = {{"config", r.config}};
    if (!t.header().run.empty()) summary["run"] = t.header().run;
    summary["traces"] = {json};
    write_json(prv.substr(0, prv.size() - 4) + ".json", summary);
  }
  return json;
}

// --accelerate and --cores-sweep act on tasks traces only: an input without one would replay as
// if they were not given, and answer a what-if with "no change".
void check_tasks_options(const RunRequest& r, const std::string& input,
                         const std::vector<const trace::Trace*>& traces) {
  if (r.accelerate.empty() && r.cores.empty()) return;
  bool tasks = false;
  for (const trace::Trace* t : traces) {
    if (t->header().kind != "tasks") continue;
    check_accelerations(t->header(), r.accelerate);  // before any replay prints its table
    tasks = true;
  }
  if (tasks) return;
  throw trace::FormatError(input, 0,
                           std::string("no tasks trace: ") +
                               (r.accelerate.empty() ? "--cores-sweep" : "--accelerate") +
                               " acts on the task instances of one (trace the program's tasks, "
                               "or replay a set that has them with --kind tasks)");
}

}  // namespace

int run_validation(const RunRequest& r) {
  std::size_t problems = 0;
  for (const std::string& input : r.inputs) {
    std::vector<std::unique_ptr<trace::Trace>> traces;
    try {
      traces = trace::open_traces(input, r.kinds);
    } catch (const trace::FormatError& e) {  // e.g. a tasks stream, checked as it is loaded
      std::cout << e.what() << "\n" << input << ": 1 problem(s)\n";
      ++problems;
      continue;
    }
    for (const auto& t : traces) {
      trace::Validation found = trace::validate(*t);
      for (const std::string& p : found.problems) std::cout << p << "\n";
      for (const std::string& n : found.notes) std::cout << "note: " << n << "\n";
      // What the set says of itself (one-sided calls it could not model, ranks that died): a
      // valid set may still leave out what the program did.
      for (const std::string& n : t->header().notes) std::cout << "note: " << n << "\n";
      std::cout << t->header().path << " (" << t->header().kind << "): "
                << (found.problems.empty() ? "valid"
                                           : std::to_string(found.problems.size()) + " problem(s)")
                << (found.notes.empty() ? ""
                                        : ", " + std::to_string(found.notes.size()) + " note(s)")
                << truncation(t->header()) << "\n";
      problems += found.problems.size();
    }
  }
  return problems == 0 ? 0 : kExitBadInput;
}

int run_replays(const RunRequest& r) {
  std::vector<std::unique_ptr<trace::Trace>> traces;
  std::vector<std::size_t> input_of;  // the input each trace comes from
  for (std::size_t n = 0; n < r.inputs.size(); ++n)
    for (auto& t : open_for_replay(r.inputs[n], r.kinds)) {
      input_of.push_back(n);
      // Parse on one core, simulate on another; but a prefetcher keeps the buffers of every
      // replay it served, so the many replays of a cores sweep read directly.
      bool swept = !r.cores.empty() && t->header().kind == "tasks";
      traces.push_back(swept ? std::move(t) : trace::prefetch(std::move(t)));
    }
  if (traces.empty()) throw trace::FormatError(r.inputs.front(), 0, "no trace to replay");
  for (std::size_t n = 0; n < r.inputs.size(); ++n) {
    std::vector<const trace::Trace*> of_input;
    for (std::size_t i = 0; i < traces.size(); ++i)
      if (input_of[i] == n) of_input.push_back(traces[i].get());
    check_tasks_options(r, r.inputs[n], of_input);
  }
  if (!r.dim_path.empty() || !r.native_path.empty())
    for (const auto& t : traces)
      if (t->header().kind == "tasks")
        throw trace::FormatError(t->header().path, 0,
                                 "a tasks trace cannot be converted with --dim or --native (its "
                                 "task instances and dependencies have no equivalent there); "
                                 "choose the other kinds with --kind");
  // OUT.prv for one trace; with several, OUT.LABEL.prv where LABEL tells them apart.
  std::vector<std::string> labels = trace_labels(pointers(traces));
  check_outputs(r, traces, labels);
  nlohmann::ordered_json json_traces = nlohmann::ordered_json::array();
  std::vector<double> times(traces.size(), 0.0);  // 0: not replayed once (a cores sweep)
  for (std::size_t i = 0; i < traces.size(); ++i) {
    if (traces[i]->header().kind == "tasks" && !r.cores.empty()) {
      json_traces.push_back(cores_sweep(r, *traces[i]));
      continue;
    }
    json_traces.push_back(replay_one(r, *traces[i], labels[i], traces.size()));
    times[i] = json_traces.back()["total_time_s"].get<double>();
  }
  compare_with_baselines(r, traces, input_of, times, labels, json_traces, printing(r));
  if (!r.json_path.empty())
    write_json(r.json_path, {{"config", r.config}, {"traces", json_traces}});
  return 0;
}

int run_sweeps(const RunRequest& r) {
  const SweepSpec spec = parse_sweep(r.sweep);
  if (!r.files_prefix.empty() && r.inputs.size() > 1)
    throw std::invalid_argument(
        "--sweep-out names the files of one sweep: give one input, or leave it out to write "
        "each sweep inside its trace set");
  nlohmann::ordered_json sweeps = nlohmann::ordered_json::array();
  bool deadlocked = false;
  // Under a parallel launch every process replays its share; process 0 alone reports.
  const bool leader = !r.distribution || r.distribution->leader();
  for (std::size_t n = 0; n < r.inputs.size(); ++n) {
    // Not prefetched: run_sweep reads ahead during each replay and frees the buffers after.
    std::vector<std::unique_ptr<trace::Trace>> traces = open_for_replay(r.inputs[n], r.kinds);
    if (traces.empty()) throw trace::FormatError(r.inputs[n], 0, "no trace to replay");
    check_tasks_options(r, r.inputs[n], pointers(traces));
    const std::string prefix =
        analysis_prefix(r.files_prefix, r.keep, traces.front()->header(), "sweep-" + spec.key);
    if (!prefix.empty() && leader) prepare_sweep_files(prefix);
    SweepResult result;
    {  // the progress line goes before anything is printed
      ProgressLine progress(r.progress && leader, "the sweep of " + spec.key);
      SweepOptions sweep;
      sweep.policy = r.policy;
      sweep.unbounded_cores = r.ideal;
      sweep.accelerate = r.accelerate;
      sweep.jobs = r.jobs;
      sweep.distribution = r.distribution;
      sweep.progress = [&progress](const SweepProgress& p) { progress(p.overall, p.what); };
      result = run_sweep(pointers(traces), r.machine, spec, sweep);
    }
    if (!leader) continue;
    std::vector<std::string> written;
    if (!prefix.empty()) written = write_sweep_files(prefix, result);
    if (printing(r)) {
      if (n > 0) std::cout << "\n";
      if (r.csv) {
        write_sweep_csv(std::cout, result);
      } else {
        print_sweep_table(std::cout, result);
        for (const std::string& file : written) std::cout << "  wrote " << file << "\n";
      }
    }
    for (const SweepSeries& s : result.series)
      if (!s.failures.empty())
        std::cerr << "replay: " << s.label << ": " << s.failures.size()
                  << " replay(s) of the sweep deadlock; the first, with " << s.failures.front()
                  << "\n";
    deadlocked |= result.deadlocked();
    sweeps.push_back(sweep_result_json(result));
  }
  if (!r.json_path.empty() && leader)
    write_json(r.json_path, {{"config", r.config}, {"sweeps", sweeps}});
  return deadlocked ? kExitDeadlock : 0;
}

int run_critical(const RunRequest& r) {
  if (!r.files_prefix.empty() && r.inputs.size() > 1)
    throw std::invalid_argument("--sweep-out names the files of one analysis: give one input");
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (std::size_t n = 0; n < r.inputs.size(); ++n) {
    std::vector<std::unique_ptr<trace::Trace>> traces;
    for (auto& t : open_for_replay(r.inputs[n]))
      if (t->header().kind == "tasks") traces.push_back(std::move(t));
    if (traces.empty())
      throw trace::FormatError(r.inputs[n], 0,
                               "no tasks trace: --critical accelerates the task types of one (the "
                               "run of a program annotated with tareador.h; a set recorded with "
                               "--potential-tasks is tareador-search's)");
    const trace::Trace& t = *traces.front();
    const std::string prefix = analysis_prefix(r.files_prefix, r.keep, t.header(), "critical");
    if (!prefix.empty()) prepare_sweep_files(prefix);
    CriticalOptions critical;
    critical.factors = r.factors;
    critical.cores = r.cores;
    critical.policy = r.policy;
    critical.jobs = r.jobs;
    CriticalResult result;
    {
      ProgressLine progress(r.progress, "the critical task");
      critical.progress = [&progress](double f, const std::string& what) { progress(f, what); };
      result = find_critical_task(t, machine_for(r, t.header()), critical);
    }
    std::vector<std::string> written;
    if (!prefix.empty()) written = write_critical_files(prefix, result);
    if (printing(r)) {
      if (n > 0) std::cout << "\n";
      if (r.csv) {
        write_critical_csv(std::cout, result);
      } else {
        print_critical(std::cout, result);
        for (const std::string& file : written) std::cout << "  wrote " << file << "\n";
      }
    }
    std::ostringstream csv;
    write_critical_csv(csv, result);
    results.push_back({{"name", result.name}, {"path", result.path}, {"csv", csv.str()}});
  }
  if (!r.json_path.empty()) write_json(r.json_path, {{"config", r.config}, {"critical", results}});
  return 0;
}

}  // namespace tareador::replay
