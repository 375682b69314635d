// replay — simulates traces on a machine, Dimemas style. A thin command: its options become a
// RunRequest, which the analysis library runs (analysis/runs.h).
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>
#include <map>

#include "analysis/runs.h"
#include "cli/command.h"
#include "replay/parallel_launch.h"
#include "tareador/replay.h"
#include "tareador/trace.h"

namespace {

namespace replay = tareador::replay;
namespace trace = tareador::trace;
namespace cli = tareador::cli;

using replay::kExitDeadlock;

struct Options {
  std::string config;
  std::vector<std::string> overrides;
  std::vector<std::string> kinds;
  std::vector<std::string> inputs;
  std::string json_path, prv_path, chrome_path, dim_path, native_path, matrix_prefix;
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
      throw CLI::ValidationError("--accelerate",
                                 "'" + item + "' is not TYPE=FACTOR with a positive factor");
    out[item.substr(0, eq)] = factor;
  }
  return out;
}

// The request the options make: the machine loaded and overridden, the names parsed.
replay::RunRequest request_of(const Options& o) {
  replay::RunRequest r;
  r.inputs = o.inputs;
  r.kinds = o.kinds;
  r.config = o.config;
  if (!o.validate) {
    if (o.config.empty()) throw CLI::RequiredError("--config");
    r.machine = replay::load_machine(o.config);
    for (const std::string& kv : o.overrides) replay::apply_override(r.machine, kv);
    if (o.ideal) replay::make_network_ideal(r.machine);
  }
  r.ideal = o.ideal;
  r.policy = replay::task_policy_from_name(o.policy);
  r.accelerate = accelerations(o);
  r.json_path = o.json_path;
  r.prv_path = o.prv_path;
  r.chrome_path = o.chrome_path;
  r.dim_path = o.dim_path;
  r.native_path = o.native_path;
  r.matrix_prefix = o.matrix_prefix;
  r.files_prefix = o.sweep_out;
  r.keep = !o.no_save;
  r.quiet = o.quiet;
  r.csv = o.csv;
  r.progress = !o.no_progress && (o.progress || isatty(STDERR_FILENO));
  r.cores = o.cores_sweep;
  r.sweep = o.sweep;
  r.factors = o.factors;
  r.jobs = o.jobs;
  return r;
}

// The command, then the check that its standard output was written. Under a parallel launch the
// processes share the replays of a sweep; anything else process 0 does alone.
int run(const Options& o, const replay::Distribution* launch) {
  if (!o.sweep_out.empty() && o.sweep.empty() && !o.critical)
    throw CLI::ValidationError("--sweep-out", "requires --sweep or --critical");
  if (launch && !launch->leader() && o.sweep.empty()) return 0;
  replay::RunRequest request = request_of(o);
  request.distribution = launch;
  int status = o.validate         ? replay::run_validation(request)
               : !o.sweep.empty() ? replay::run_sweeps(request)
               : o.critical       ? replay::run_critical(request)
                                  : replay::run_replays(request);
  trace::flush_stdout();
  return status;
}

// Options of the machine and of how tasks run on it (with the inputs).
void add_machine_options(CLI::App& app, Options& o) {
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
}

// Options that ask for an analysis: sweeps, the critical task.
struct AnalysisOptions {
  CLI::Option *cores_sweep, *sweep, *critical;
};
AnalysisOptions add_analysis_options(CLI::App& app, Options& o) {
  AnalysisOptions a;
  a.cores_sweep =
      app.add_option("--cores-sweep", o.cores_sweep,
                     "tasks traces: replay with each number of cores per node and print the "
                     "speedup table (e.g. 1,2,4,8)")
          ->type_name("N,N,...")
          ->delimiter(',')
          ->check(cli::kPositive)
          ->allow_extra_args(false);
  a.sweep =
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
  app.add_option("--accelerate", o.accelerate,
                 "tasks traces: run the instances of task type TYPE FACTOR times faster "
                 "(repeatable; thesis 6.1)")
      ->type_name("TYPE=FACTOR")
      ->allow_extra_args(false);
  a.critical = app.add_flag(
      "--critical", o.critical,
      "tasks traces: accelerate each task type in turn by each of --factors, on each machine of "
      "--cores-sweep (or the one given), and report the speedups and the critical type; writes "
      "SET/critical.csv and SET/critical-FACTORx.svg (or --sweep-out PREFIX)");
  app.add_option("--factors", o.factors, "acceleration factors of --critical (default 2,10,100)")
      ->delimiter(',')
      ->check(cli::kPositive)
      ->type_name("F1,F2,...");
  app.add_option(
         "-j,--jobs", o.jobs,
         "replays at once in --sweep, --cores-sweep and --critical (default: one per core of this "
         "machine; the output does not depend on it)")
      ->check(cli::kPositive)
      ->type_name("N");
  return a;
}

// Options of what is written and shown.
struct OutputOptions {
  CLI::Option *prv, *chrome, *dim, *native, *matrix, *validate;
};
OutputOptions add_output_options(CLI::App& app, Options& o) {
  OutputOptions out;
  app.add_option("-k,--kind", o.kinds, "replay only this kind of a trace set (repeatable)")
      ->type_name("KIND")
      ->allow_extra_args(false);
  app.add_option("--json", o.json_path, "write a JSON summary to FILE ('-' = stdout)")
      ->type_name("FILE");
  out.prv =
      app.add_option("--prv", o.prv_path,
                     "write the simulated timeline as a Paraver trace (with .pcf and .row); with "
                     "several traces, OUT.KIND.prv")
          ->type_name("OUT.prv");
  out.chrome =
      app.add_option("--chrome", o.chrome_path,
                     "write the simulated timeline in the Trace Event format, for Perfetto UI or "
                     "chrome://tracing; with several traces, OUT.KIND.json")
          ->type_name("OUT.json");
  out.dim = app.add_option("--dim", o.dim_path, "write the input trace in Dimemas format")
                ->type_name("OUT.dim");
  out.native =
      app.add_option("--native", o.native_path, "write the input trace as a native trace set")
          ->type_name("DIR");
  out.matrix =
      app.add_option("--matrix", o.matrix_prefix,
                     "write the communication matrix of each replay (bytes and messages per pair "
                     "of ranks, collectives decomposed) as OUT.csv and an SVG heat map OUT.svg, "
                     "and of the traced run's records as OUT.traced.csv, .svg; with several "
                     "traces, OUT.KIND.csv. See docs/comm-matrix.md")
          ->type_name("OUT");
  out.validate =
      app.add_flag("--validate", o.validate,
                   "check the traces (every record, matching sends and receives, collectives) "
                   "and report file:line of each problem; no simulation");
  app.add_flag("--no-save", o.no_save,
               "do not keep the replay of a trace set in it (SET/replay/KIND.prv, .pcf, .row, "
               ".json: what tareador-view shows; with --sweep, its files); --prv or "
               "--sweep-out write elsewhere instead");
  app.add_flag("--progress", o.progress, "show progress even when stderr is not a terminal");
  app.add_flag("--no-progress", o.no_progress, "never show progress");
  app.add_flag("-q,--quiet", o.quiet, "do not print the summary table");
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // Loading and replaying a large trace builds arrays of hundreds of MB, frees them and builds
  // others: from mmap, every page of each is a fresh page fault (2.6x the peak memory of a
  // 2 M-instance tasks replay, a fifth of its time); from the heap, freed pages are reused.
  mallopt(M_MMAP_MAX, 0);
  std::unique_ptr<replay::Distribution> launch;
  try {
    launch = replay::parallel_launch(&argc, &argv);
  } catch (const std::exception& e) {
    std::cerr << "replay: " << e.what() << "\n";
    return cli::kExitBadInput;
  }
  CLI::App app{
      "replay: rebuilds the timeline of MPI traces on a configurable machine, with the "
      "semantics of Dimemas 5.5.\nTRACE is a Dimemas .dim file or a Tareador trace-set directory "
      "(every kind in it, or those given with --kind).",
      "replay"};
  app.set_version_flag("--version", std::string("replay (tareador) ") + PACKAGE_VERSION);
  Options o;
  add_machine_options(app, o);
  AnalysisOptions a = add_analysis_options(app, o);
  OutputOptions out = add_output_options(app, o);
  a.critical->excludes(a.sweep)
      ->excludes(out.prv)
      ->excludes(out.chrome)
      ->excludes(out.dim)
      ->excludes(out.native)
      ->excludes(out.matrix);
  a.sweep->excludes(a.cores_sweep)
      ->excludes(out.prv)
      ->excludes(out.chrome)
      ->excludes(out.dim)
      ->excludes(out.native)
      ->excludes(out.matrix)
      ->excludes(out.validate);
  app.footer(
      "Exit status: 0 success; 1 bad input (trace, configuration or options); 2 the simulated run "
      "deadlocks (a report names the ranks and records).");
  const bool speaks = !launch || launch->leader();
  return cli::parse_and_run(
      app, argc, argv, "replay",
      [&] {
        try {
          return run(o, launch.get());
        } catch (const replay::DeadlockError& e) {
          if (speaks) std::cerr << "replay: " << e.what() << "\n";
          return kExitDeadlock;
        }
      },
      speaks);
}
