// sweep.h — replaying traces across a range of one machine parameter (SPEC 6, "Sweeps"):
// `replay --sweep KEY=LO:HI:STEPS[:log]`, and the figures derived from it: the time of each
// trace kind, the speedup of each kind over its baseline (thesis Figs. 5.14 and 5.15), the
// coefficient of tolerable bandwidth reduction (Fig. 5.16) and, for tasks traces swept over
// cores, the speedup over one core and the parallel efficiency (Figs. 6.4, 6.16, 6.20).
// docs/sweeps.md describes the outputs.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/comparisons.h"
#include "analysis/distribution.h"
#include "tareador/replay.h"

namespace tareador::replay {

enum class SweepScale { Linear, Log };

// The values one parameter takes in a sweep.
struct SweepSpec {
  std::string key;  // a key of machine_keys()
  SweepScale scale = SweepScale::Linear;
  double low = 0, high = 0;    // as given
  int steps = 0;               // as given (0 for an explicit list)
  std::vector<double> values;  // replayed, ascending, distinct (integer keys rounded)
};

// Parses "KEY=LO:HI:STEPS[:log]" (STEPS values from LO to HI, evenly spaced or, with `log`,
// in geometric progression; integer keys are rounded and duplicates dropped) or
// "KEY=V1,V2,..." (those values). Checks every value against the key (apply_override on a
// default machine) so that a long sweep never stops half-way on a bad value. Throws
// std::invalid_argument with a message that names the fault.
SweepSpec parse_sweep(std::string_view text);
// The sweep of `key` over the given values (sorted, duplicates dropped); checked as above.
SweepSpec sweep_of_values(const std::string& key, std::vector<double> values);

// About a sweepable key: whether its values are integers, its unit (for axis labels, "" when
// it has none), and whether it is a bandwidth (then the tolerable reduction is computed).
bool sweep_key_is_integer(std::string_view key);
std::string sweep_key_unit(std::string_view key);
bool sweep_key_is_bandwidth(std::string_view key);
// "12.5", "4" (integer keys), "1e-05": the text given to apply_override and shown in tables.
std::string format_sweep_value(std::string_view key, double value);

// One trace replayed at every value of the sweep.
struct SweepSeries {
  std::string name, kind, path;
  std::string label;                  // its name in tables and legends (trace_labels)
  std::vector<double> times;          // total simulated time at each value; NaN: deadlocked
  std::vector<std::string> failures;  // "KEY=VALUE: the deadlock report", one per replay that
                                      // deadlocked
  // Tasks traces in a sweep of `cores`: the replay with 1 core per node (NaN if it deadlocked:
  // a note says so); the speedups are over it.
  std::optional<double> one_core_time;
  std::vector<std::string> notes;  // the replays' notes (each once)

  // one_core_time / times[i], and that / cores: NaN when unknown.
  double one_core_speedup(std::size_t i) const;
  double efficiency(std::size_t i, double cores) const;
};

// The sweep of the traces of one input (a trace set or a Dimemas file).
struct SweepResult {
  SweepSpec spec;
  std::string input;  // the path given
  std::string name;   // the application's name
  TaskPolicy policy = TaskPolicy::Fifo;
  std::vector<SweepSeries> series;

  // The series that series `k` is compared with (its speedups and reductions are over it), or
  // -1 (baseline_index).
  int reference_of(std::size_t k) const;
  bool deadlocked() const;  // some replay deadlocked
  // Tasks series of a cores sweep carry speedup over 1 core and efficiency.
  bool per_core(const SweepSeries& s) const;
};

// How the swept replays are reported while they run: `what` is the replay under way and
// `overall` the fraction of the whole sweep done (replays done plus the input consumed by this
// one, over the replays of the sweep).
struct SweepProgress {
  std::string what;  // "overlap-real at bandwidth=12.5 (3/10)"
  double overall = 0;
};

struct SweepOptions {
  TaskPolicy policy = TaskPolicy::Fifo;
  // Tasks traces get unbounded cores (as `replay --ideal` gives them) unless `cores` is swept.
  bool unbounded_cores = false;
  int jobs = 0;  // replays at once; 0: one per core of this machine
  // Under a parallel launch, the processes that share the replays (process 0 gets the result,
  // the others an empty one); null: this process replays them all.
  const Distribution* distribution = nullptr;
  std::map<std::string, double> accelerate;  // tasks traces: SimulationOptions::accelerate
  std::function<void(const SweepProgress&)> progress;
};

// Replays every trace on `machine` with the swept key set to each value in turn (applied after
// whatever `machine` already holds: --set overrides, --ideal). Streams are read ahead on a
// second core (trace::prefetch) during each replay, so pass traces that are not prefetched.
// Before any replay, checks that every trace's tasks fit every swept machine (throws
// std::invalid_argument naming the value, e.g. nodes=1 for 4 tasks). A replay that deadlocks
// leaves NaN and a failure in its series; a malformed trace throws trace::FormatError.
SweepResult run_sweep(const std::vector<const trace::Trace*>& traces, const Machine& machine,
                      const SweepSpec& spec, const SweepOptions& options = {});

// ---- Derived figures ----------------------------------------------------------------------

// times[reference_of(series)] / times[series] at each value (NaN where either is unknown or
// the series has no baseline).
std::vector<double> sweep_speedup(const SweepResult& result, std::size_t series);

// The coefficient of tolerable bandwidth reduction (thesis 5.4.3, Fig. 5.16) at one bandwidth
// B: B / B', where B' is the bandwidth at which the overlapped run takes as long as the
// reference run takes at B.
struct ToleratedReduction {
  enum class Status {
    InRange,  // `value` is the coefficient
    AtLeast,  // the run keeps up down to the lowest swept bandwidth: at least `value`
    AtMost,   // the run is slower even at the highest swept bandwidth: less than `value`
    Unknown,  // a replay it needs deadlocked
  };
  Status status = Status::Unknown;
  double value = 0;
};
// For each value b[i] of `values` (ascending, positive): the target is reference[i]. If the
// run takes no longer than that at b[i], bandwidths are walked down until the first one at
// which it takes longer; otherwise up until the first one at which it takes no longer; B' is
// interpolated between that point and its neighbour, linearly in time and in log(bandwidth).
std::vector<ToleratedReduction> tolerable_reduction(const std::vector<double>& values,
                                                    const std::vector<double>& reference,
                                                    const std::vector<double>& times);

// ---- Outputs ------------------------------------------------------------------------------

// An aligned table: the value, the time of each series, the speedup of each series over its
// baseline, the tolerable reduction (bandwidth keys), the speedup over 1 core and efficiency
// (tasks series in a cores sweep); then what each speedup compares, notes and failures.
void print_sweep_table(std::ostream& out, const SweepResult& result);
// The same columns as CSV (docs/sweeps.md): KEY,time_KIND_s...,speedup_KIND_over_BASE...,
// tolerable_reduction_KIND_over_BASE...,speedup_1core_KIND...,efficiency_KIND...; empty cells
// where a figure is unknown or out of the swept range.
void write_sweep_csv(std::ostream& out, const SweepResult& result);
nlohmann::ordered_json sweep_result_json(const SweepResult& result);

// A sweep of `cores` of one tasks trace (`replay --cores-sweep`): the speedup over 1 core per
// node and the efficiency at each value, aligned or as CSV (cores,time_s,speedup,efficiency),
// and as JSON ({"name", "kind", "path", "policy", "sweep": [{"cores", "total_time_s",
// "speedup", "efficiency"}], "notes"}).
void print_cores_sweep(std::ostream& out, const SweepResult& result, bool csv);
nlohmann::ordered_json cores_sweep_json(const SweepResult& result);

// Creates the directory of PREFIX's files and checks that they can be written there (to fail
// before a long sweep or analysis rather than after it). Throws trace::FormatError naming the
// directory.
void prepare_sweep_files(const std::string& prefix);
// Writes `text` as the file `path`; throws trace::FormatError naming it when it cannot.
void write_text(const std::string& path, const std::string& text);
// Writes PREFIX.csv and the plots PREFIX-time.svg, PREFIX-speedup.svg (when there is a speedup
// to show), PREFIX-reduction.svg (bandwidth sweeps with a kind compared with its baseline) and
// PREFIX-efficiency.svg (tasks traces in a cores sweep), after prepare_sweep_files; titles say
// what the speedups compare. Returns the paths written. Throws trace::FormatError when a file
// cannot be written.
std::vector<std::string> write_sweep_files(const std::string& prefix, const SweepResult& result);

}  // namespace tareador::replay
