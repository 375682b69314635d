// replay — simulates traces on a machine, Dimemas style. A thin command over the replay and
// tracefmt libraries: parse options, load, simulate, report.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "analysis/critical.h"
#include "tareador/replay.h"
#include "replay/report.h"
#include "analysis/sweep.h"
#include "tareador/trace.h"

namespace {

namespace replay = tareador::replay;
namespace trace = tareador::trace;

constexpr int kExitBadInput = 1;
constexpr int kExitDeadlock = 2;

struct Options {
  std::string config;
  std::vector<std::string> overrides;
  std::vector<std::string> kinds;
  std::vector<std::string> inputs;
  std::string json_path, prv_path, chrome_path, dim_path, native_path;
  bool validate = false;
  bool ideal = false;
  bool no_save = false;
  bool progress = false, no_progress = false;
  bool quiet = false;
  std::string policy = "fifo";
  std::vector<int> cores_sweep;
  std::string sweep, sweep_out;
  bool csv = false;
  std::vector<std::string> accelerate;  // TYPE=FACTOR
  bool critical = false;
  std::vector<double> factors{2, 10, 100};
  int jobs = 0;
};

// --accelerate TYPE=FACTOR, repeated: the factor of each task type.
std::map<std::string, double> accelerations(const Options& options) {
  std::map<std::string, double> out;
  for (const std::string& item : options.accelerate) {
    std::size_t eq = item.rfind('=');
    double factor = 0;
    try {
      if (eq != std::string::npos && eq > 0) factor = std::stod(item.substr(eq + 1));
    } catch (const std::exception&) {
    }
    if (eq == std::string::npos || eq == 0 || !(factor > 0) || !std::isfinite(factor))
      throw CLI::ValidationError("--accelerate", "'" + item +
                                                     "' is not TYPE=FACTOR with a positive factor");
    out[item.substr(0, eq)] = factor;
  }
  return out;
}

std::vector<const trace::Trace*> pointers(const std::vector<std::unique_ptr<trace::Trace>>& traces) {
  std::vector<const trace::Trace*> out;
  for (const auto& t : traces) out.push_back(t.get());
  return out;
}

std::string output_path(const std::string& path, const std::string& label, std::size_t traces) {
  if (traces == 1) return path;
  std::size_t dot = path.find_last_of('.');
  std::size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return path + "." + label;
  return path.substr(0, dot) + "." + label + path.substr(dot);
}

// Progress on stderr, a few times a second, only where someone watches.
class Progress {
 public:
  Progress(bool enabled, std::string label) : enabled_(enabled), label_(std::move(label)) {}
  ~Progress() {
    if (width_ > 0) std::fprintf(stderr, "\r%*s\r", width_, "");
  }
  // `detail`: what is under way, after the percentage (a sweep's current replay).
  void operator()(double fraction, const std::string& detail = {}) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    if (width_ > 0 && now - last_ < std::chrono::milliseconds(200) && fraction < 1.0) return;
    last_ = now;
    // Padded to the last line's width, so that a shorter line leaves nothing of it behind.
    int width = std::fprintf(stderr, "\rreplaying %s: %5.1f%%%s%s", label_.c_str(),
                             100.0 * fraction, detail.empty() ? "" : ", ", detail.c_str()) - 1;
    if (width < width_) std::fprintf(stderr, "%*s", width_ - width, "");
    width_ = std::max(width, width_);
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  std::string label_;
  int width_ = 0;  // of the widest line shown, 0 before the first
  std::chrono::steady_clock::time_point last_;
};

// ", truncated: ranks 1, 3 (...)": what `--validate` adds for a trace whose run died.
std::string truncation(const trace::TraceHeader& header) {
  if (header.truncated_tasks.empty()) return "";
  std::string ranks;
  for (int task : header.truncated_tasks) ranks += (ranks.empty() ? "" : ", ") + std::to_string(task);
  return ", truncated: rank(s) " + ranks +
         " stop early (their run died; messages and collectives they leave unmatched are not "
         "problems)";
}

int validate_inputs(const Options& options) {
  std::size_t problems = 0;
  for (const std::string& input : options.inputs) {
    std::vector<std::unique_ptr<trace::Trace>> traces;
    try {
      traces = trace::open_traces(input, options.kinds);
    } catch (const trace::FormatError& e) {  // e.g. a tasks stream, checked as it is loaded
      std::cout << e.what() << "\n" << input << ": 1 problem(s)\n";
      ++problems;
      continue;
    }
    for (const auto& t : traces) {
      std::vector<std::string> found = trace::validate(*t);
      for (const std::string& p : found) std::cout << p << "\n";
      std::cout << t->header().path << " (" << t->header().kind << "): "
                << (found.empty() ? "valid" : std::to_string(found.size()) + " problem(s)")
                << truncation(t->header()) << "\n";
      problems += found.size();
    }
  }
  return problems == 0 ? 0 : kExitBadInput;
}

void write_copies(const Options& options, const trace::Trace& t, const replay::Machine& machine,
                  const std::string& label, std::size_t traces) {
  trace::TraceHeader header = t.header();
  if (machine.mips > 0) header.mips = machine.mips;
  if (!options.dim_path.empty()) {
    auto writer = trace::make_dimemas_writer(output_path(options.dim_path, label, traces), header);
    trace::copy_trace(t, *writer);
  }
  if (!options.native_path.empty()) {
    if (header.kind == "dimemas") header.kind = "authentic";
    if (!(header.mips > 0)) header.mips = 1000;
    std::string dir = traces == 1 ? options.native_path : options.native_path + "/" + label;
    auto writer = trace::make_native_writer(dir, header);
    trace::copy_trace(t, *writer);
  }
}

// Where a replay of a trace-set kind is kept in the set (for the viewer): SET/replay/KIND.prv,
// with its .pcf, .row and the JSON summary KIND.json (which says which run of the set it
// replays). Empty for a Dimemas file.
std::string saved_timeline(const trace::TraceHeader& header) {
  if (header.kind == "dimemas") return {};
  return (std::filesystem::path(header.path) / "replay" / (header.kind + ".prv")).string();
}

// Before the first replay is kept in a set: SET/replay/ can be written into, and the replays
// another run of the set left there are removed (they would show beside this run's).
void prepare_saved_timelines(const trace::TraceHeader& header) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(header.path) / "replay";
  try {
    trace::make_output_directory(dir.string());
  } catch (const trace::FormatError& e) {
    throw trace::FormatError(e.file(), 0,
                             e.message() +
                                 " (to replay the set without keeping its timeline there, use "
                                 "--no-save, or --prv elsewhere)");
  }
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const fs::path& json = entry.path();
    if (json.extension() != ".json" || trace::saved_replay_run(json.string()) == header.run) continue;
    for (const char* extension : {".prv", ".pcf", ".row", ".json"})
      fs::remove(fs::path(json).replace_extension(extension), error);
  }
}

// The replay of a tasks trace on 1 core per node, for the speedup (0 if it deadlocks: then a
// note says so).
double one_core_time(const trace::Trace& t, const replay::Machine& machine,
                     const replay::SimulationOptions& base, bool show_progress,
                     replay::Result& result) {
  replay::Machine one = machine;
  replay::apply_override(one, "cores=1");
  Progress progress(show_progress, t.header().name + " (tasks, 1 core per node)");
  replay::SimulationOptions sim;
  sim.policy = base.policy;
  sim.accelerate = base.accelerate;
  sim.progress = [&progress](double f) { progress(f); };
  try {
    return replay::simulate(t, one, sim).total_time;
  } catch (const replay::DeadlockError& e) {
    std::string what = e.what();
    result.notes.push_back("no speedup: the replay on 1 core per node deadlocks (" +
                           what.substr(0, what.find('\n')) + ")");
    return 0;
  }
}

// --cores-sweep: the tasks trace replayed with each core count.
nlohmann::ordered_json cores_sweep(const Options& options, const trace::Trace& t,
                                   const replay::Machine& machine, replay::TaskPolicy policy,
                                   bool show_progress) {
  auto replay_with = [&](int cores) {
    replay::Machine m = machine;
    replay::apply_override(m, "cores=" + std::to_string(cores));
    Progress progress(show_progress, t.header().name + " (tasks, " + std::to_string(cores) +
                                         " cores)");
    replay::SimulationOptions sim;
    sim.policy = policy;
    sim.accelerate = accelerations(options);
    sim.progress = [&progress](double f) { progress(f); };
    try {
      return replay::simulate(t, m, sim);
    } catch (const replay::DeadlockError& e) {
      throw replay::DeadlockError("with " + std::to_string(cores) + " core(s) per node: " +
                                  e.what());
    }
  };
  replay::Result one = replay_with(1);
  std::vector<replay::SweepPoint> points;
  for (int cores : options.cores_sweep) {
    replay::Result r = cores == 1 ? one : replay_with(cores);
    replay::SweepPoint p;
    p.cores = cores;
    p.total_time = r.total_time;
    p.speedup = r.total_time > 0 ? one.total_time / r.total_time : 0.0;
    p.efficiency = p.speedup / cores;
    points.push_back(p);
  }
  if (!options.quiet && options.json_path != "-")
    replay::print_sweep(std::cout, one, policy, points, options.csv);
  return replay::sweep_json(one, policy, points);
}

void write_json(const std::string& path, const nlohmann::ordered_json& doc) {
  // (A path that is not UTF-8, as Linux allows, is written with U+FFFD in its place.)
  std::string text = doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (path == "-") {
    std::cout << text << "\n";
    return;
  }
  std::ofstream out(path);
  out << text << "\n";
  out.close();
  if (!out) throw trace::FormatError(path, 0, "cannot write the JSON summary");
}

// The files `run` will write, checked before anything is simulated: an unwritable --json or
// --prv is an error at once, not after the whole replay.
void check_outputs(const Options& options, const std::vector<std::unique_ptr<trace::Trace>>& traces,
                   const std::vector<std::string>& labels) {
  if (!options.json_path.empty() && options.json_path != "-")
    trace::check_output_file(options.json_path);
  std::vector<std::string> sets;  // kept in: SET/replay/
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const trace::TraceHeader& header = traces[i]->header();
    bool tasks_sweep = header.kind == "tasks" && !options.cores_sweep.empty();
    if (!options.prv_path.empty() && !tasks_sweep)
      trace::check_output_file(output_path(options.prv_path, labels[i], traces.size()));
    if (!options.chrome_path.empty() && !tasks_sweep)
      trace::check_output_file(output_path(options.chrome_path, labels[i], traces.size()));
    if (!options.dim_path.empty())
      trace::check_output_file(output_path(options.dim_path, labels[i], traces.size()));
    if (options.prv_path.empty() && !options.no_save && !tasks_sweep && header.kind != "dimemas" &&
        std::find(sets.begin(), sets.end(), header.path) == sets.end()) {
      prepare_saved_timelines(header);
      sets.push_back(header.path);
    }
  }
}

// The speedup of each trace over its baseline of the same input (replay::baseline_index: the
// overlap kinds over authentic-p2p when there is one), printed after the summaries and added to
// the traces' JSON as "speedup": {"over": LABEL, "value": X}.
void compare_with_baselines(const std::vector<std::unique_ptr<trace::Trace>>& traces,
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
    const auto at = static_cast<std::size_t>(std::find(index.begin(), index.end(), i) - index.begin());
    int base = replay::baseline_index(kinds, at);
    if (base < 0) continue;
    std::size_t b = index[static_cast<std::size_t>(base)];
    if (!(times[i] > 0) || !(times[b] > 0)) continue;
    double speedup = times[b] / times[i];
    json_traces[i]["speedup"] = {{"over", labels[b]}, {"value", speedup}};
    if (!print) continue;
    if (!headed) std::cout << "speedups (time of the baseline / time of the trace):\n";
    headed = true;
    std::cout << fmt::format("  {} over {}: {:.3f}\n", labels[i], labels[b], speedup);
    const std::string why = replay::baseline_explanation(traces[b]->header().kind);
    if (!why.empty() && std::find(explained.begin(), explained.end(), why) == explained.end()) {
      std::cout << "    (" << why << ")\n";
      explained.push_back(why);
    }
  }
}

// Where the files of an analysis (`name`: sweep-KEY, critical) go: --sweep-out, else inside the
// trace set (SET/NAME) or beside a Dimemas file (DIR/FILE-NAME); none with --no-save.
std::string output_prefix(const Options& options, const trace::TraceHeader& header,
                          const std::string& name) {
  if (!options.sweep_out.empty()) return options.sweep_out;
  if (options.no_save) return {};
  std::filesystem::path path(header.path);
  if (header.kind == "dimemas")
    return (path.parent_path() / (path.stem().string() + "-" + name)).string();
  return (path / name).string();
}

// --critical: the tasks trace of each input with each task type accelerated in turn, on each
// machine of --cores-sweep (or the one given); a table (or CSV) per input, its files, the JSON.
int critical_inputs(const Options& options, const replay::Machine& machine,
                    replay::TaskPolicy policy, bool show_progress) {
  if (!options.sweep_out.empty() && options.inputs.size() > 1)
    throw CLI::ValidationError("--sweep-out", "names the files of one analysis: give one input");
  const bool print = !options.quiet && options.json_path != "-";
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (std::size_t n = 0; n < options.inputs.size(); ++n) {
    std::vector<std::unique_ptr<trace::Trace>> traces;
    for (auto& t : trace::open_traces(options.inputs[n]))
      if (t->header().kind == "tasks") traces.push_back(std::move(t));
    if (traces.empty())
      throw trace::FormatError(options.inputs[n], 0,
                               "no tasks trace: --critical accelerates the task types of one");
    const replay::Machine* m = &machine;
    replay::Machine unbounded;
    if (options.ideal) {  // as a plain replay: unbounded cores
      unbounded = machine;
      replay::make_cores_unbounded(unbounded, traces.front()->header());
      m = &unbounded;
    }
    const std::string prefix = output_prefix(options, traces.front()->header(), "critical");
    if (!prefix.empty()) replay::prepare_sweep_files(prefix);
    replay::CriticalOptions critical;
    critical.factors = options.factors;
    critical.cores = options.cores_sweep;
    critical.policy = policy;
    critical.jobs = options.jobs;
    replay::CriticalResult result;
    {
      Progress progress(show_progress, "the critical task");
      critical.progress = [&progress](double f, const std::string& what) { progress(f, what); };
      result = replay::find_critical_task(*traces.front(), *m, critical);
    }
    std::vector<std::string> written;
    if (!prefix.empty()) written = replay::write_critical_files(prefix, result);
    if (print && options.csv) {
      replay::write_critical_csv(std::cout, result);
    } else if (print) {
      if (n > 0) std::cout << "\n";
      replay::print_critical(std::cout, result);
      for (const std::string& file : written) std::cout << "  wrote " << file << "\n";
    }
    std::ostringstream csv;
    replay::write_critical_csv(csv, result);
    results.push_back({{"name", result.name}, {"path", result.path}, {"csv", csv.str()}});
  }
  if (!options.json_path.empty())
    write_json(options.json_path, {{"config", options.config}, {"critical", results}});
  return 0;
}

// --sweep: every trace of each input replayed at each value; a table (or CSV) per input, its
// files, and the JSON. Exit 2 when some replay deadlocked (its time is left out).
int sweep_inputs(const Options& options, const replay::Machine& machine,
                 replay::TaskPolicy policy, bool show_progress) {
  const replay::SweepSpec spec = replay::parse_sweep(options.sweep);
  if (!options.sweep_out.empty() && options.inputs.size() > 1)
    throw CLI::ValidationError("--sweep-out",
                               "names the files of one sweep: give one input, or leave it out "
                               "to write each sweep inside its trace set");
  const bool print = !options.quiet && options.json_path != "-";
  nlohmann::ordered_json sweeps = nlohmann::ordered_json::array();
  bool deadlocked = false;
  for (std::size_t n = 0; n < options.inputs.size(); ++n) {
    // Not prefetched: run_sweep reads ahead during each replay and frees the buffers after.
    std::vector<std::unique_ptr<trace::Trace>> traces =
        trace::open_traces(options.inputs[n], options.kinds);
    if (traces.empty()) throw trace::FormatError(options.inputs[n], 0, "no trace to replay");
    const std::string prefix = output_prefix(options, traces.front()->header(), "sweep-" + spec.key);
    if (!prefix.empty()) replay::prepare_sweep_files(prefix);
    replay::SweepResult result;
    {  // the progress line goes before anything is printed
      Progress progress(show_progress, "the sweep of " + spec.key);
      replay::SweepOptions sweep;
      sweep.policy = policy;
      sweep.unbounded_cores = options.ideal;
      sweep.accelerate = accelerations(options);
      sweep.progress = [&progress](const replay::SweepProgress& p) {
        progress(p.overall, p.what);
      };
      result = replay::run_sweep(pointers(traces), machine, spec, sweep);
    }
    std::vector<std::string> written;
    if (!prefix.empty()) written = replay::write_sweep_files(prefix, result);
    if (print && options.csv) {
      if (n > 0) std::cout << "\n";
      replay::write_sweep_csv(std::cout, result);
    } else if (print) {
      if (n > 0) std::cout << "\n";
      replay::print_sweep_table(std::cout, result);
      for (const std::string& file : written) std::cout << "  wrote " << file << "\n";
    }
    for (const replay::SweepSeries& s : result.series)
      if (!s.failures.empty())
        std::cerr << "replay: " << s.label << ": " << s.failures.size()
                  << " replay(s) of the sweep deadlock; the first, with " << s.failures.front()
                  << "\n";
    deadlocked |= result.deadlocked();
    sweeps.push_back(replay::sweep_result_json(result));
  }
  if (!options.json_path.empty())
    write_json(options.json_path, {{"config", options.config}, {"sweeps", sweeps}});
  return deadlocked ? kExitDeadlock : 0;
}

int run_command(const Options& options) {
  if (!options.sweep_out.empty() && options.sweep.empty() && !options.critical)
    throw CLI::ValidationError("--sweep-out", "requires --sweep or --critical");
  if (options.validate) return validate_inputs(options);
  if (options.config.empty()) throw CLI::RequiredError("--config");
  replay::Machine machine = replay::load_machine(options.config);
  for (const std::string& kv : options.overrides) replay::apply_override(machine, kv);
  if (options.ideal) replay::make_network_ideal(machine);

  replay::TaskPolicy policy = replay::task_policy_from_name(options.policy);
  bool show_progress = !options.no_progress && (options.progress || isatty(STDERR_FILENO));
  if (!options.sweep.empty()) return sweep_inputs(options, machine, policy, show_progress);
  if (options.critical) return critical_inputs(options, machine, policy, show_progress);

  std::vector<std::unique_ptr<trace::Trace>> traces;
  std::vector<std::size_t> input_of;  // the input each trace comes from
  for (std::size_t n = 0; n < options.inputs.size(); ++n)
    for (auto& t : trace::open_traces(options.inputs[n], options.kinds)) {
      input_of.push_back(n);
      // Parse on one core, simulate on another; but a prefetcher keeps the buffers of every
      // replay it served, so the many replays of --cores-sweep read directly.
      bool swept = !options.cores_sweep.empty() && t->header().kind == "tasks";
      traces.push_back(swept ? std::move(t) : trace::prefetch(std::move(t)));
    }
  if (traces.empty()) throw trace::FormatError(options.inputs.front(), 0, "no trace to replay");
  if (!options.dim_path.empty() || !options.native_path.empty())
    for (const auto& t : traces)
      if (t->header().kind == "tasks")
        throw trace::FormatError(t->header().path, 0,
                                 "a tasks trace cannot be converted with --dim or --native (its "
                                 "task instances and dependencies have no equivalent there); "
                                 "choose the other kinds with --kind");

  // OUT.prv for one trace; with several, OUT.LABEL.prv where LABEL tells them apart.
  std::vector<std::string> labels = replay::trace_labels(pointers(traces));
  check_outputs(options, traces, labels);
  nlohmann::ordered_json json_traces = nlohmann::ordered_json::array();
  std::vector<double> times(traces.size(), 0.0);  // 0: not replayed once (a cores sweep)
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const trace::Trace* t = traces[i].get();
    bool tasks = t->header().kind == "tasks";
    if (tasks && !options.cores_sweep.empty()) {
      json_traces.push_back(cores_sweep(options, *t, machine, policy, show_progress));
      continue;
    }
    // Tasks traces on an ideal machine have unbounded cores.
    replay::Machine task_machine;
    if (tasks && options.ideal) {
      task_machine = machine;
      replay::make_cores_unbounded(task_machine, t->header());
    }
    const replay::Machine& m = tasks && options.ideal ? task_machine : machine;
    write_copies(options, *t, m, labels[i], traces.size());
    std::string prv = options.prv_path.empty()
                          ? (options.no_save ? std::string() : saved_timeline(t->header()))
                          : output_path(options.prv_path, labels[i], traces.size());
    std::vector<std::unique_ptr<replay::TimelineSink>> sinks;
    if (!prv.empty()) sinks.push_back(replay::make_paraver_sink(prv, t->header(), m));
    if (!options.chrome_path.empty())
      sinks.push_back(replay::make_chrome_sink(
          output_path(options.chrome_path, labels[i], traces.size()), t->header()));
    std::unique_ptr<replay::TimelineSink> sink = replay::make_tee_sink(std::move(sinks));
    replay::SimulationOptions sim;
    sim.sink = sink.get();
    sim.policy = policy;
    if (tasks) sim.accelerate = accelerations(options);
    replay::Result result;
    {
      Progress progress(show_progress, t->header().name + " (" + t->header().kind + ")");
      sim.progress = [&progress](double f) { progress(f); };
      result = replay::simulate(*t, m, sim);
    }
    if (result.tasks)
      result.tasks->one_core_time = one_core_time(*t, m, sim, show_progress, result);
    if (!options.quiet && options.json_path != "-") replay::print_summary(std::cout, result);
    times[i] = result.total_time;
    json_traces.push_back(replay::to_json(result));
    if (options.prv_path.empty() && !prv.empty()) {
      nlohmann::ordered_json summary = {{"config", options.config}};
      if (!t->header().run.empty()) summary["run"] = t->header().run;
      summary["traces"] = {json_traces.back()};
      write_json(prv.substr(0, prv.size() - 4) + ".json", summary);
    }
  }
  compare_with_baselines(traces, input_of, times, labels, json_traces,
                         !options.quiet && options.json_path != "-");
  if (!options.json_path.empty())
    write_json(options.json_path, {{"config", options.config}, {"traces", json_traces}});
  return 0;
}

// The command, then the check that its standard output was written.
int run(const Options& options) {
  int status = run_command(options);
  trace::flush_stdout();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "replay: rebuilds the timeline of MPI traces on a configurable machine, with the "
      "semantics of Dimemas 5.5.\nTRACE is a Dimemas .dim file or a Tareador trace-set directory "
      "(every kind in it, or those given with --kind).", "replay"};
  app.set_version_flag("--version", std::string("replay (tareador) ") + PACKAGE_VERSION);
  Options o;
  app.add_option("traces", o.inputs, "Dimemas .dim traces or trace-set directories")
      ->required()
      ->type_name("TRACE");
  app.add_option("-c,--config", o.config,
                 "machine: a Dimemas configuration (#DIMEMAS_CONFIGURATION) or a TOML machine file")
      ->type_name("CFG");
  std::string keys;
  for (const replay::MachineKey& k : replay::machine_keys())
    keys += "\n    " + k.name + ": " + k.description;
  // One value per occurrence, so that `--set k=v TRACE` leaves TRACE alone.
  app.add_option("-s,--set", o.overrides, "override a machine parameter (repeatable):" + keys)
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app.add_flag("--ideal", o.ideal,
               "an ideal network: no latency, instantaneous transfers, unlimited buses and links "
               "(after --set); for tasks traces also unbounded cores");
  app.add_option("--policy", o.policy,
                 "tasks traces: how task instances take cores: fifo (creation order), cp "
                 "(critical path first), mpi (instances with MPI first; blocked in MPI they give "
                 "their core away and preempt others when woken)")
      ->type_name("POLICY")
      ->check(CLI::IsMember({"fifo", "cp", "mpi"}));
  CLI::Option* cores_sweep =
      app.add_option("--cores-sweep", o.cores_sweep,
                     "tasks traces: replay with each number of cores per node and print the "
                     "speedup table (e.g. 1,2,4,8)")
          ->type_name("N,N,...")
          ->delimiter(',')
          ->check(CLI::PositiveNumber)
          ->allow_extra_args(false);
  CLI::Option* sweep =
      app.add_option("--sweep", o.sweep,
                     "replay every trace at each value of a machine parameter (after --set and "
                     "--ideal): STEPS values from LO to HI, evenly spaced or with :log in "
                     "geometric progression (bandwidth=1:1024:11:log), or the values listed "
                     "(cores=1,2,4,8). Prints the time of each kind, the speedup of each over "
                     "authentic and, for bandwidth, the tolerable bandwidth reduction; writes "
                     "the CSV and SVG plots to SET/sweep-KEY.csv, -time.svg, -speedup.svg, "
                     "-reduction.svg (beside a .dim file: NAME-sweep-KEY.*). See docs/sweeps.md")
          ->type_name("KEY=LO:HI:STEPS[:log]");
  app.add_option("--sweep-out", o.sweep_out,
                 "write the files of --sweep (PREFIX.csv, PREFIX-time.svg, ...) or --critical "
                 "(PREFIX.csv, PREFIX-2x.svg, ...) there instead")
      ->type_name("PREFIX");
  app.add_flag("--csv", o.csv, "print the table of --cores-sweep or --sweep as CSV");
  app.add_option("-k,--kind", o.kinds, "replay only this kind of a trace set (repeatable)")
      ->type_name("KIND")
      ->allow_extra_args(false);
  app.add_option("--json", o.json_path, "write a JSON summary to FILE ('-' = stdout)")
      ->type_name("FILE");
  CLI::Option* prv =
      app.add_option("--prv", o.prv_path,
                     "write the simulated timeline as a Paraver trace (with .pcf and .row); with "
                     "several traces, OUT.KIND.prv")
          ->type_name("OUT.prv");
  CLI::Option* chrome =
      app.add_option("--chrome", o.chrome_path,
                     "write the simulated timeline in the Trace Event format, for Perfetto UI or "
                     "chrome://tracing; with several traces, OUT.KIND.json")
          ->type_name("OUT.json");
  CLI::Option* dim =
      app.add_option("--dim", o.dim_path, "write the input trace in Dimemas format")
          ->type_name("OUT.dim");
  CLI::Option* native =
      app.add_option("--native", o.native_path, "write the input trace as a native trace set")
          ->type_name("DIR");
  app.add_option("--accelerate", o.accelerate,
                 "tasks traces: run the instances of task type TYPE FACTOR times faster "
                 "(repeatable; thesis 6.1)")
      ->type_name("TYPE=FACTOR")
      ->allow_extra_args(false);
  CLI::Option* critical = app.add_flag(
      "--critical", o.critical,
      "tasks traces: accelerate each task type in turn by each of --factors, on each machine of "
      "--cores-sweep (or the one given), and report the speedups and the critical type; writes "
      "SET/critical.csv and SET/critical-FACTORx.svg (or --sweep-out PREFIX)");
  app.add_option("--factors", o.factors, "acceleration factors of --critical (default 2,10,100)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber)
      ->type_name("F1,F2,...");
  app.add_option("-j,--jobs", o.jobs,
                 "replays at once in --critical (default: one per core of this machine)")
      ->check(CLI::PositiveNumber)
      ->type_name("N");
  CLI::Option* validate =
      app.add_flag("--validate", o.validate,
                   "check the traces (every record, matching sends and receives, collectives) "
                   "and report file:line of each problem; no simulation");
  critical->excludes(sweep)->excludes(prv)->excludes(chrome)->excludes(dim)->excludes(native);
  sweep->excludes(cores_sweep)->excludes(prv)->excludes(chrome)->excludes(dim)->excludes(native)->excludes(
      validate);
  app.add_flag("--no-save", o.no_save,
               "do not keep the replay of a trace set in it (SET/replay/KIND.prv, .pcf, .row, "
               ".json: what tareador-view shows; with --sweep, its files); --prv or "
               "--sweep-out write elsewhere instead");
  app.add_flag("--progress", o.progress, "show progress even when stderr is not a terminal");
  app.add_flag("--no-progress", o.no_progress, "never show progress");
  app.add_flag("-q,--quiet", o.quiet, "do not print the summary table");
  app.footer(
      "Exit status: 0 success; 1 bad input (trace, configuration or options); 2 the simulated run "
      "deadlocks (a report names the ranks and records).");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitBadInput;  // --help and --version exit 0
  }
  try {
    return run(o);
  } catch (const replay::DeadlockError& e) {
    std::cerr << "replay: " << e.what() << "\n";
    return kExitDeadlock;
  } catch (const trace::FormatError& e) {
    std::cerr << "replay: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const CLI::Error& e) {
    std::cerr << "replay: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "replay: " << e.path1().string() << ": " << trace::system_error_text(e.code().value())
              << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "replay: out of memory\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "replay: " << e.what() << "\n";
    return kExitBadInput;
  }
}
