// critical.h — the critical task (thesis 6.1): replaying a tasks trace with each task type in
// turn accelerated by a factor, on each machine, to find the type whose acceleration shortens
// the run most. A type with a small share of the work can decide the parallel time, and which
// type is critical depends on the machine and on the factor (Figs. 6.3-6.5). docs/critical.md
// describes the outputs.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "tareador/replay.h"

namespace tareador::replay {

struct CriticalOptions {
  std::vector<double> factors{2, 10, 100};
  std::vector<int> cores;  // cores per node of each machine; empty: the machine as given
  TaskPolicy policy = TaskPolicy::CriticalPath;
  int jobs = 0;  // replays at once; 0: one per core of this machine
  // Called as replays end: the fraction done and how many of how many.
  std::function<void(double fraction, const std::string& what)> progress;
};

// One machine (cores per node) and one factor.
struct CriticalRow {
  int cores = 0;
  double factor = 1;
  double time = 0;                    // the replay with nothing accelerated
  std::vector<double> speedups;       // per type: time / the time with that type accelerated
  std::vector<std::string> critical;  // the type(s) whose acceleration gives the most (ties)
};

struct CriticalResult {
  std::string name, path;
  TaskPolicy policy = TaskPolicy::CriticalPath;
  std::vector<std::string> types;  // every task type of the trace (all ranks), main included
  std::vector<double> shares;      // each type's share of the instructions of the run
  std::vector<CriticalRow> rows;   // by cores, then by factor
};

// Replays `tasks` (a tasks trace) on `machine` with each number of cores, plain and with each
// type accelerated by each factor; the replays run on `options.jobs` threads and the result is
// the same as one after the other. Throws std::invalid_argument for a trace that is not a tasks
// trace or factors that are not positive, and replay::DeadlockError (naming the machine) when a
// replay cannot finish.
CriticalResult find_critical_task(const trace::Trace& tasks, const Machine& machine,
                                  const CriticalOptions& options);

// The table: per machine and factor, the speedup each type gives and the critical one.
void print_critical(std::ostream& out, const CriticalResult& result);
// cores,factor,time_s,speedup_TYPE...,critical (ties joined with '+').
void write_critical_csv(std::ostream& out, const CriticalResult& result);
// PREFIX.csv and, per factor, PREFIX-FACTORx.svg: the speedup of accelerating each type
// against the cores (Fig. 6.3). Returns the paths written; throws trace::FormatError when a
// file cannot be written.
std::vector<std::string> write_critical_files(const std::string& prefix,
                                              const CriticalResult& result);

}  // namespace tareador::replay
