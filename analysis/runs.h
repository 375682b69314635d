// runs.h — what the `replay` command runs, as library calls: the replays of its inputs with
// their outputs, their validation, a sweep of a machine parameter, the critical task. The
// command parses its options into a RunRequest and calls one of these; each prints what the
// command prints and returns its exit status.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tareador/replay.h"

namespace tareador::replay {

inline constexpr int kExitBadInput = 1;  // a malformed trace, configuration or option
inline constexpr int kExitDeadlock = 2;  // a simulated run that cannot finish

struct RunRequest {
  std::vector<std::string> inputs;  // .dim files or trace-set directories
  std::vector<std::string> kinds;   // of a set: only these (empty: every kind)
  std::string config;               // the machine file, as given (for the JSON)
  Machine machine;                  // after --set and --ideal
  bool ideal = false;               // tasks traces also get unbounded cores
  TaskPolicy policy = TaskPolicy::Fifo;
  std::map<std::string, double> accelerate;  // tasks traces: TYPE -> FACTOR
  // Outputs: empty for none; with several traces, each file gets the trace's label.
  std::string json_path, prv_path, chrome_path, dim_path, native_path;
  // Communication matrices (docs/comm-matrix.md): PREFIX[.LABEL].csv and .svg of each replay,
  // and PREFIX[.LABEL].traced.csv and .svg of the records of an authentic or Dimemas trace.
  std::string matrix_prefix;
  std::string files_prefix;  // of an analysis's files (else inside the set, or none)
  bool keep = true;          // keep replays and analysis files in the trace set
  bool quiet = false, csv = false, progress = false;
  std::vector<int> cores;  // tasks traces: replayed with each number of cores per node
  std::string sweep;       // KEY=LO:HI:STEPS[:log] or KEY=V1,V2,...
  std::vector<double> factors{2, 10, 100};  // the critical task's acceleration factors
  int jobs = 0;                             // replays at once in the analyses; 0: one per core
};

// The traces of every input replayed on the machine: the summary of each (table or JSON), its
// timeline (Paraver, Chrome; kept in its trace set unless told otherwise), its copies (.dim,
// native), the speedups over the baselines; tasks traces with `cores` are swept over them.
int run_replays(const RunRequest& request);
// Every record of every trace checked (`replay --validate`); 1 when there is a problem.
int run_validation(const RunRequest& request);
// Every trace of each input at each value of `sweep`: tables or CSV, files, JSON; 2 when some
// replay deadlocked.
int run_sweeps(const RunRequest& request);
// The critical task of each input's tasks trace, on each machine of `cores`.
int run_critical(const RunRequest& request);

}  // namespace tareador::replay
