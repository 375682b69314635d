// sweep.cpp — replays across a range of one machine parameter and the figures derived from
// them (docs/sweeps.md).
#include "analysis/sweep.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>
#include <utility>

#include "analysis/distribution.h"
#include "plot/svg_plot.h"
#include "replay/machine_readers.h"
#include "tracefmt/parallel.h"

namespace tareador::replay {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxSteps = 10000;

// ---- Keys ---------------------------------------------------------------------------------

// Beyond this, integer values are out of range for every key.
constexpr double kMaxInteger = 1e15;

bool numeric(std::string_view key) {
  const MachineKey* k = machine_key(key);
  return k && k->kind != MachineKey::Kind::Name;
}

std::string sweepable_keys() {
  std::string keys;
  for (const MachineKey& k : machine_keys())
    if (numeric(k.name)) keys += (keys.empty() ? "" : ", ") + k.name;
  return keys;
}

void check_key(const std::string& key) {
  if (!machine_key(key))
    throw std::invalid_argument("unknown machine key '" + key +
                                "'; keys that can be swept: " + sweepable_keys());
  if (!numeric(key))
    throw std::invalid_argument("'" + key +
                                "' cannot be swept: its values are names, not numbers; keys "
                                "that can be swept: " +
                                sweepable_keys());
}

double parse_number(std::string_view text, const char* what) {
  text = trim(text);
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw std::invalid_argument(std::string(what) + " '" + std::string(text) + "' is not a number");
  return v;
}

// 12 significant digits: 2 * 16^0.75 is 16, not 15.999999999999998.
double clean(double v) { return std::stod(fmt::format("{:.12g}", v)); }

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// Sorted, rounded for integer keys, duplicates dropped, each value accepted by the key.
std::vector<double> checked_values(const std::string& key, std::vector<double> values) {
  if (sweep_key_is_integer(key))
    for (double& v : values) {
      if (std::fabs(v) > kMaxInteger)
        throw std::invalid_argument(fmt::format("{}={} is out of range", key, v));
      v = std::round(v);
    }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  Machine probe;
  probe.nodes.assign(1, Node{});
  for (double v : values) {
    if (sweep_key_is_bandwidth(key) && v == 0)
      throw std::invalid_argument(
          key +
          "=0 means instantaneous transfers, not a bandwidth to sweep over; sweep from a "
          "positive bandwidth (--ideal replays the instantaneous network)");
    apply_override(probe, key + "=" + format_sweep_value(key, v));
  }
  return values;
}

// ---- Replays ------------------------------------------------------------------------------

// A trace lent to trace::prefetch for one replay: the prefetcher (its thread and its buffers)
// goes when the replay is done.
class BorrowedTrace final : public trace::Trace {
 public:
  explicit BorrowedTrace(const trace::Trace& trace) : trace_(trace) {}
  const trace::TraceHeader& header() const override { return trace_.header(); }
  std::unique_ptr<trace::RecordStream> open(int task, int thread) const override {
    return trace_.open(task, thread);
  }
  std::uint64_t size_bytes() const override { return trace_.size_bytes(); }
  std::optional<trace::RecordCursor> cursor(int task, int thread) const override {
    return trace_.cursor(task, thread);
  }
  bool next(int task, trace::RecordCursor& at, trace::Record& out) const override {
    return trace_.next(task, at, out);
  }

 private:
  const trace::Trace& trace_;
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Every trace's tasks fit the machine of every swept value (so that a long sweep never stops
// half-way on a mapping that cannot hold them).
void check_mappings(const std::vector<const trace::Trace*>& traces, const Machine& machine,
                    const SweepSpec& spec) {
  for (double value : spec.values) {
    const std::string setting = spec.key + "=" + format_sweep_value(spec.key, value);
    Machine m = machine;
    apply_override(m, setting);
    for (const trace::Trace* t : traces) {
      try {
        m.map_tasks(t->header().tasks());
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("--sweep: with " + setting + ", " + t->header().path + ": " +
                                    e.what());
      }
    }
  }
}

// ---- Figures the outputs share ----------------------------------------------------------

// The series compared with a baseline.
std::vector<std::size_t> compared(const SweepResult& r) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < r.series.size(); ++k)
    if (r.reference_of(k) >= 0) out.push_back(k);
  return out;
}

const SweepSeries& baseline(const SweepResult& r, std::size_t k) {
  return r.series[static_cast<std::size_t>(r.reference_of(k))];
}

// The baselines of the compared series, each once, in order.
std::vector<std::string> baselines(const SweepResult& r) {
  std::vector<std::string> out;
  for (std::size_t k : compared(r))
    if (std::find(out.begin(), out.end(), baseline(r, k).label) == out.end())
      out.push_back(baseline(r, k).label);
  return out;
}

// "overlap-real and overlap-ideal": the series compared with `base`.
std::string compared_with(const SweepResult& r, const std::string& base) {
  std::vector<std::string> names;
  for (std::size_t k : compared(r))
    if (baseline(r, k).label == base) names.push_back(r.series[k].label);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// What the speedups of the plot are over: "authentic-p2p", or, when the series have different
// baselines, "authentic-p2p (overlap-real, overlap-ideal), authentic (tasks)".
std::string speedups_over(const SweepResult& r) {
  const std::vector<std::string> bases = baselines(r);
  if (bases.size() == 1) return bases.front();
  std::string out;
  for (const std::string& base : bases)
    out += (out.empty() ? "" : ", ") + base + " (" + compared_with(r, base) + ")";
  return out;
}

// The tolerable reduction is computed in bandwidth sweeps with a kind compared with a baseline.
bool shows_reduction(const SweepResult& r) {
  return sweep_key_is_bandwidth(r.spec.key) && !compared(r).empty();
}

std::vector<ToleratedReduction> reduction_of(const SweepResult& r, std::size_t k) {
  return tolerable_reduction(r.spec.values, baseline(r, k).times, r.series[k].times);
}

std::vector<double> one_core_speedups(const SweepResult& r, const SweepSeries& s) {
  std::vector<double> out;
  for (std::size_t i = 0; i < r.spec.values.size(); ++i) out.push_back(s.one_core_speedup(i));
  return out;
}

std::vector<double> efficiencies(const SweepResult& r, const SweepSeries& s) {
  std::vector<double> out;
  for (std::size_t i = 0; i < r.spec.values.size(); ++i)
    out.push_back(s.efficiency(i, r.spec.values[i]));
  return out;
}

bool has_tasks(const SweepResult& r) {
  for (const SweepSeries& s : r.series)
    if (s.kind == "tasks") return true;
  return false;
}

// ---- Tables -------------------------------------------------------------------------------

struct Column {
  std::string csv_name, table_name;
  std::vector<std::string> csv, table;  // one cell per value
};

std::string fixed(double v, int decimals, const char* unknown) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, decimals) : unknown;
}

// A column of numbers: `decimals` in the CSV (empty where unknown), `shown` in the table.
Column numbers(std::string csv_name, std::string table_name, const std::vector<double>& values,
               int decimals, int shown, const char* unknown) {
  Column c{std::move(csv_name), std::move(table_name), {}, {}};
  for (double v : values) {
    c.csv.push_back(fixed(v, decimals, ""));
    c.table.push_back(fixed(v, shown, unknown));
  }
  return c;
}

std::vector<Column> columns(const SweepResult& r) {
  std::vector<Column> cols;
  const std::string unit = sweep_key_unit(r.spec.key);
  Column value{r.spec.key, unit.empty() ? r.spec.key : r.spec.key + " " + unit, {}, {}};
  for (double v : r.spec.values) value.csv.push_back(format_sweep_value(r.spec.key, v));
  value.table = value.csv;
  cols.push_back(std::move(value));
  for (const SweepSeries& s : r.series)
    cols.push_back(numbers("time_" + s.label + "_s", s.label + " s", s.times, 9, 9, "deadlock"));
  for (std::size_t k : compared(r))
    cols.push_back(numbers("speedup_" + r.series[k].label + "_over_" + baseline(r, k).label,
                           "speedup " + r.series[k].label, sweep_speedup(r, k), 6, 3, "-"));
  if (shows_reduction(r)) {
    using S = ToleratedReduction::Status;
    for (std::size_t k : compared(r)) {
      Column c{"tolerable_reduction_" + r.series[k].label + "_over_" + baseline(r, k).label,
               "reduction " + r.series[k].label,
               {},
               {}};
      for (const ToleratedReduction& t : reduction_of(r, k)) {
        c.csv.push_back(t.status == S::InRange ? fmt::format("{:.6f}", t.value) : "");
        c.table.push_back(t.status == S::InRange   ? fmt::format("{:.3f}", t.value)
                          : t.status == S::AtLeast ? fmt::format(">={:.3f}", t.value)
                          : t.status == S::AtMost  ? fmt::format("<{:.3f}", t.value)
                                                   : "-");
      }
      cols.push_back(std::move(c));
    }
  }
  for (const SweepSeries& s : r.series) {
    if (!r.per_core(s)) continue;
    cols.push_back(numbers("speedup_1core_" + s.label, "speedup/1-core " + s.label,
                           one_core_speedups(r, s), 6, 3, "-"));
    cols.push_back(
        numbers("efficiency_" + s.label, "efficiency " + s.label, efficiencies(r, s), 6, 3, "-"));
  }
  return cols;
}

// ---- Plots --------------------------------------------------------------------------------

// A logarithmic y axis when the values span more than 1.5 decades.
bool wide(const std::vector<svg::Series>& series) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const svg::Series& s : series)
    for (double y : s.y)
      if (std::isfinite(y) && y > 0) {
        lo = std::min(lo, y);
        hi = std::max(hi, y);
      }
  return hi > 0 && hi / lo > std::pow(10.0, 1.5);
}

svg::Plot plot_of(const SweepResult& r, const std::string& what, const std::string& y_label) {
  svg::Plot p;
  p.title = r.name + ": " + what + " vs " + r.spec.key;
  const std::string unit = sweep_key_unit(r.spec.key);
  p.x_label = unit.empty() ? r.spec.key : r.spec.key + " (" + unit + ")";
  p.y_label = y_label;
  p.log_x = r.spec.scale == SweepScale::Log;
  return p;
}

}  // namespace

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw trace::FormatError(path, 0, "cannot write this file");
}

// ---- Specs --------------------------------------------------------------------------------

bool sweep_key_is_integer(std::string_view key) {
  const MachineKey* k = machine_key(key);
  return k && k->kind == MachineKey::Kind::Integer;
}

std::string sweep_key_unit(std::string_view key) {
  const MachineKey* k = machine_key(key);
  return k ? k->unit : "";
}

bool sweep_key_is_bandwidth(std::string_view key) {
  const MachineKey* k = machine_key(key);
  return k && k->bandwidth;
}

std::string format_sweep_value(std::string_view key, double value) {
  if (sweep_key_is_integer(key)) return fmt::format("{}", std::llround(value));
  return fmt::format("{}", value);
}

SweepSpec sweep_of_values(const std::string& key, std::vector<double> values) {
  check_key(key);
  if (values.empty()) throw std::invalid_argument("no value to sweep " + key + " over");
  SweepSpec spec;
  spec.key = key;
  spec.values = checked_values(key, std::move(values));
  spec.low = spec.values.front();
  spec.high = spec.values.back();
  return spec;
}

SweepSpec parse_sweep(std::string_view text) {
  const std::string given(text);
  try {
    std::size_t equals = text.find('=');
    if (equals == std::string_view::npos)
      throw std::invalid_argument("expected KEY=LO:HI:STEPS[:log] or KEY=V1,V2,...");
    std::string key(trim(text.substr(0, equals)));
    std::string_view range = trim(text.substr(equals + 1));
    check_key(key);
    if (range.empty()) throw std::invalid_argument("no values after '='");
    if (range.find(':') == std::string_view::npos) {  // a list
      std::vector<double> values;
      for (std::string_view v : split(range, ',')) values.push_back(parse_number(v, "value"));
      return sweep_of_values(key, std::move(values));
    }
    std::vector<std::string_view> parts = split(range, ':');
    if (parts.size() < 3 || parts.size() > 4)
      throw std::invalid_argument("expected KEY=LO:HI:STEPS[:log]");
    SweepSpec spec;
    spec.key = key;
    spec.low = parse_number(parts[0], "LO");
    spec.high = parse_number(parts[1], "HI");
    double steps = parse_number(parts[2], "STEPS");
    if (steps != std::floor(steps))
      throw std::invalid_argument(fmt::format("STEPS must be a whole number, not {}", steps));
    if (steps < 1)
      throw std::invalid_argument(fmt::format("STEPS must be at least 1, not {}", steps));
    if (steps > kMaxSteps)
      throw std::invalid_argument(
          fmt::format("STEPS must be at most {}, not {}", kMaxSteps, steps));
    spec.steps = static_cast<int>(steps);
    if (parts.size() == 4) {
      std::string_view scale = trim(parts[3]);
      if (scale == "log") spec.scale = SweepScale::Log;
      else if (scale != "lin" && scale != "linear")
        throw std::invalid_argument("the scale is 'log' (or 'lin'), not '" + std::string(scale) +
                                    "'");
    }
    if (spec.low > spec.high)
      throw std::invalid_argument(
          fmt::format("LO ({}) is greater than HI ({})", spec.low, spec.high));
    if (spec.steps == 1 && spec.low != spec.high)
      throw std::invalid_argument(
          "a single step is a single value: LO and HI must be equal (or give more steps)");
    if (spec.scale == SweepScale::Log && spec.low <= 0)
      throw std::invalid_argument(fmt::format(
          "a logarithmic sweep needs LO > 0, not {} (values grow by a constant factor)", spec.low));
    std::vector<double> values;
    for (int i = 0; i < spec.steps; ++i) {
      double f = spec.steps == 1 ? 0.0 : static_cast<double>(i) / (spec.steps - 1);
      double v = spec.scale == SweepScale::Log
                     ? std::exp(std::log(spec.low) + f * (std::log(spec.high) - std::log(spec.low)))
                     : spec.low + f * (spec.high - spec.low);
      values.push_back(i == 0 ? spec.low : i == spec.steps - 1 ? spec.high : clean(v));
    }
    spec.values = checked_values(key, std::move(values));
    return spec;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("--sweep " + given + ": " + e.what());
  }
}

// ---- Results ------------------------------------------------------------------------------

double SweepSeries::one_core_speedup(std::size_t i) const {
  if (!one_core_time || i >= times.size() || !(times[i] > 0)) return kNaN;
  return *one_core_time / times[i];  // NaN when either is
}

double SweepSeries::efficiency(std::size_t i, double cores) const {
  return cores > 0 ? one_core_speedup(i) / cores : kNaN;
}

int SweepResult::reference_of(std::size_t k) const {
  std::vector<std::string> kinds;
  for (const SweepSeries& s : series) kinds.push_back(s.kind);
  return k < kinds.size() ? baseline_index(kinds, k) : -1;
}

bool SweepResult::deadlocked() const {
  for (const SweepSeries& s : series)
    if (!s.failures.empty()) return true;
  return false;
}

bool SweepResult::per_core(const SweepSeries& s) const {
  return spec.key == "cores" && s.kind == "tasks" && s.one_core_time.has_value();
}

// One replay of a sweep: a trace at one setting, and what it gave.
struct SweepPoint {
  std::size_t trace = 0;
  std::string setting;  // "key=value"
  double time = kNaN;   // NaN if it deadlocks
  std::vector<std::string> notes;
  std::string failure;  // the deadlock
  std::string error;    // under a parallel launch: why it could not be replayed
};

// The points this process replays: all of them, or under a parallel launch its share.
std::vector<std::size_t> own_points(std::size_t count, const Distribution* distribution) {
  std::vector<std::size_t> own;
  for (std::size_t i = 0; i < count; ++i)
    if (!distribution || distribution->owns(i)) own.push_back(i);
  return own;
}

// Under a parallel launch: process 0 gets the results of the points the others replayed, and
// stops with the first point's error if one could not be replayed.
void gather_points(std::vector<SweepPoint>& points, const Distribution& distribution) {
  nlohmann::json part = nlohmann::json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!distribution.owns(i)) continue;
    const SweepPoint& p = points[i];
    part.push_back({{"i", i},
                    {"time", std::isfinite(p.time) ? nlohmann::json(p.time) : nullptr},
                    {"notes", p.notes},
                    {"failure", p.failure},
                    {"error", p.error}});
  }
  std::vector<std::string> parts = distribution.gather(part.dump());
  for (const std::string& text : parts)
    for (const nlohmann::json& j : nlohmann::json::parse(text)) {
      SweepPoint& p = points[j.at("i").get<std::size_t>()];
      p.time = j.at("time").is_null() ? kNaN : j.at("time").get<double>();
      p.notes = j.at("notes").get<std::vector<std::string>>();
      p.failure = j.at("failure").get<std::string>();
      p.error = j.at("error").get<std::string>();
    }
  if (!distribution.leader()) return;
  for (const SweepPoint& p : points)
    if (!p.error.empty()) throw std::runtime_error(p.error);
}

SweepResult run_sweep(const std::vector<const trace::Trace*>& traces, const Machine& machine,
                      const SweepSpec& spec, const SweepOptions& options) {
  check_mappings(traces, machine, spec);
  SweepResult result;
  result.spec = spec;
  result.policy = options.policy;
  if (!traces.empty()) {
    result.input = traces.front()->header().path;
    result.name = traces.front()->header().name;
  }
  const bool cores = spec.key == "cores";
  const bool one_in_values =
      std::find(spec.values.begin(), spec.values.end(), 1.0) != spec.values.end();
  // Tasks traces in a cores sweep also need the replay on 1 core, unless 1 is swept.
  auto needs_one_core = [&](const trace::Trace* t) { return cores && t->header().kind == "tasks"; };

  // Every replay of the sweep, run on `options.jobs` threads; their results are gathered in
  // the serial order, so the output does not depend on how many ran at once.
  std::vector<SweepPoint> points;
  std::vector<std::size_t> one_core_point(traces.size(), SIZE_MAX);
  for (std::size_t k = 0; k < traces.size(); ++k) {
    for (double value : spec.values)
      points.push_back(
          SweepPoint{k, spec.key + "=" + format_sweep_value(spec.key, value), kNaN, {}, {}, {}});
    if (needs_one_core(traces[k]) && !one_in_values) {
      one_core_point[k] = points.size();
      points.push_back(SweepPoint{k, "cores=1", kNaN, {}, {}, {}});
    }
  }
  const std::vector<std::string> labels = trace_labels(traces);
  std::mutex progress_lock;
  std::size_t done = 0;
  double reported = 0;  // the fraction of the sweep last reported
  const Distribution* distribution = options.distribution;
  const std::vector<std::size_t> own = own_points(points.size(), distribution);
  parallel_for(own.size(), options.jobs, [&](std::size_t n) {
    SweepPoint& point = points[own[n]];
    const trace::Trace& t = *traces[point.trace];
    const trace::TraceHeader& h = t.header();
    Machine m = machine;
    apply_override(m, point.setting);
    if (h.kind == "tasks" && options.unbounded_cores && !cores) make_cores_unbounded(m, h);
    SimulationOptions sim;
    sim.policy = options.policy;
    if (h.kind == "tasks") sim.accelerate = options.accelerate;
    // "LABEL at SETTING (K/N)": the replay under way (or just done) and how many are done.
    auto report = [&](double fraction, std::size_t count) {
      SweepProgress progress;
      progress.what =
          fmt::format("{} at {} ({}/{})", labels[point.trace], point.setting, count, own.size());
      // Replays at once each report their own fraction: the whole never goes back.
      reported = std::max(reported,
                          (static_cast<double>(done) + fraction) / static_cast<double>(own.size()));
      progress.overall = reported;
      options.progress(progress);
    };
    if (options.progress)
      sim.progress = [&](double f) {
        std::lock_guard<std::mutex> lock(progress_lock);
        report(f, done + 1);
      };
    std::unique_ptr<trace::Trace> ahead = trace::prefetch(std::make_unique<BorrowedTrace>(t));
    try {
      Result r = simulate(*ahead, m, sim);
      point.time = r.total_time;
      point.notes = r.notes;
      // As a single replay does (speedup_caution): chunks sent side by side on a network
      // without links or buses gain from that, not from overlap.
      if (h.kind.rfind("overlap-", 0) == 0 && !overlap_caution(m).empty())
        point.notes.push_back(overlap_caution(m));
    } catch (const DeadlockError& e) {
      point.failure = point.setting + ": " + e.what();
    } catch (const std::exception& e) {
      if (!distribution) throw;
      point.error = e.what();  // every process must reach the gathering
    }
    std::lock_guard<std::mutex> lock(progress_lock);
    ++done;
    if (options.progress) report(0, done);
  });
  if (distribution) {
    gather_points(points, *distribution);
    if (!distribution->leader()) return result;
  }

  std::size_t next = 0;
  for (std::size_t k = 0; k < traces.size(); ++k) {
    const trace::TraceHeader& h = traces[k]->header();
    SweepSeries s;
    s.name = h.name;
    s.kind = h.kind;
    s.path = h.path;
    s.label = labels[k];
    for (; next < points.size() && points[next].trace == k; ++next) {
      const SweepPoint& point = points[next];
      if (next != one_core_point[k]) s.times.push_back(point.time);
      for (const std::string& note : point.notes)
        if (std::find(s.notes.begin(), s.notes.end(), note) == s.notes.end())
          s.notes.push_back(note);
      if (!point.failure.empty()) s.failures.push_back(point.failure);
    }
    if (needs_one_core(traces[k])) {
      if (one_in_values)
        s.one_core_time = s.times[static_cast<std::size_t>(
            std::find(spec.values.begin(), spec.values.end(), 1.0) - spec.values.begin())];
      else s.one_core_time = points[one_core_point[k]].time;
      if (!std::isfinite(*s.one_core_time))
        s.notes.push_back("no speedup over 1 core: the replay on 1 core per node deadlocks");
    }
    result.series.push_back(std::move(s));
  }
  return result;
}

// ---- Derived figures ----------------------------------------------------------------------

std::vector<double> sweep_speedup(const SweepResult& result, std::size_t series) {
  std::vector<double> out(result.spec.values.size(), kNaN);
  int ref = result.reference_of(series);
  if (ref < 0) return out;
  const std::vector<double>& base = result.series[static_cast<std::size_t>(ref)].times;
  const std::vector<double>& times = result.series[series].times;
  for (std::size_t i = 0; i < out.size() && i < base.size() && i < times.size(); ++i)
    if (std::isfinite(base[i]) && std::isfinite(times[i]) && times[i] > 0)
      out[i] = base[i] / times[i];
  return out;
}

std::vector<ToleratedReduction> tolerable_reduction(const std::vector<double>& values,
                                                    const std::vector<double>& reference,
                                                    const std::vector<double>& times) {
  using S = ToleratedReduction::Status;
  const std::size_t n = std::min({values.size(), reference.size(), times.size()});
  std::vector<ToleratedReduction> out(values.size());
  // The bandwidth between points a and b at which the run takes `target` (linear in time and
  // in log(bandwidth)); `target` lies between times[a] and times[b], which differ.
  auto crossing = [&](std::size_t a, std::size_t b, double target) {
    const double la = std::log(values[a]), lb = std::log(values[b]);
    return std::exp(la + (target - times[a]) / (times[b] - times[a]) * (lb - la));
  };
  for (std::size_t i = 0; i < n; ++i) {
    const double target = reference[i];
    ToleratedReduction& r = out[i];
    if (!std::isfinite(target) || !std::isfinite(times[i]) || !(values[i] > 0)) continue;
    if (times[i] <= target) {  // keeps up at b[i]: how far down does it?
      r = {S::AtLeast, values[i] / values[0]};
      for (std::size_t j = i; j-- > 0;) {
        if (!std::isfinite(times[j])) {
          r = {S::Unknown, 0};
          break;
        }
        if (times[j] > target) {
          r = {S::InRange, values[i] / crossing(j + 1, j, target)};
          break;
        }
      }
    } else {  // slower at b[i]: how much more bandwidth does it need?
      r = {S::AtMost, values[i] / values[n - 1]};
      for (std::size_t j = i + 1; j < n; ++j) {
        if (!std::isfinite(times[j])) {
          r = {S::Unknown, 0};
          break;
        }
        if (times[j] <= target) {
          r = {S::InRange, values[i] / crossing(j - 1, j, target)};
          break;
        }
      }
    }
  }
  return out;
}

// ---- Outputs ------------------------------------------------------------------------------

// Whether no replay's time changes across the sweep: nothing the traces do depends on the key on
// this machine (a network parameter when no message crosses nodes).
bool flat(const SweepResult& r) {
  if (r.spec.values.size() < 2) return false;
  for (const SweepSeries& s : r.series)
    for (double t : s.times)
      if (!std::isfinite(t) || t != s.times.front()) return false;
  return true;
}

void print_sweep_table(std::ostream& out, const SweepResult& r) {
  fmt::print(out, "{}: {}\n", r.name, r.input);
  const std::string unit = sweep_key_unit(r.spec.key);
  const std::string range =
      r.spec.steps > 0
          ? fmt::format(
                "from {} to {}{}, {} value(s){}", format_sweep_value(r.spec.key, r.spec.low),
                format_sweep_value(r.spec.key, r.spec.high), unit.empty() ? "" : " " + unit,
                r.spec.values.size(), r.spec.scale == SweepScale::Log ? ", logarithmic" : "")
          : fmt::format("over {} value(s)", r.spec.values.size());
  fmt::print(out, "  sweep of {} {}{}\n", r.spec.key, range,
             has_tasks(r) ? fmt::format(", policy {}", task_policy_name(r.policy)) : "");
  const std::vector<Column> cols = columns(r);
  std::vector<std::size_t> width;
  for (const Column& c : cols) {
    std::size_t w = c.table_name.size();
    for (const std::string& cell : c.table) w = std::max(w, cell.size());
    width.push_back(w);
  }
  auto row = [&](auto cell) {
    std::string line = " ";
    for (std::size_t c = 0; c < cols.size(); ++c)
      line += fmt::format(" {:>{}}", cell(cols[c]), width[c]);
    fmt::print(out, "{}\n", line);
  };
  row([](const Column& c) { return c.table_name; });
  for (std::size_t i = 0; i < r.spec.values.size(); ++i)
    row([i](const Column& c) { return c.table[i]; });
  for (const std::string& base : baselines(r)) {
    fmt::print(out, "  speedup of {}: time of {} / its time, at the same {}\n",
               compared_with(r, base), base, r.spec.key);
    if (!baseline_explanation(base).empty())
      fmt::print(out, "    ({})\n", baseline_explanation(base));
  }
  if (shows_reduction(r))
    fmt::print(out,
               "  reduction: how many times lower a {} the kind needs to take as long as its "
               "baseline takes at this one (thesis Fig. 5.16); >=x or <x: beyond the swept "
               "range\n",
               r.spec.key);
  if (flat(r))
    fmt::print(out,
               "  note: no replay's time changes with {}: nothing these traces do depends on it "
               "on this machine (a network parameter, when no message crosses nodes: see "
               "tasks_per_node and mapping), so the speedups and reductions say nothing of it\n",
               r.spec.key);
  // The caution on overlap speedups is the machine's, the same for every overlap kind: once.
  bool cautioned = false;
  for (const SweepSeries& s : r.series) {
    for (const std::string& note : s.notes) {
      if (note.rfind("caution:", 0) != 0) fmt::print(out, "  note ({}): {}\n", s.label, note);
      else if (!std::exchange(cautioned, true)) fmt::print(out, "  {}\n", note);
    }
    for (const std::string& f : s.failures)
      fmt::print(out, "  deadlock ({}): {}\n", s.label, first_line(f));
  }
}

void write_sweep_csv(std::ostream& out, const SweepResult& r) {
  const std::vector<Column> cols = columns(r);
  for (std::size_t c = 0; c < cols.size(); ++c)
    out << (c ? "," : "") << trace::csv_field(cols[c].csv_name);
  out << "\n";
  for (std::size_t i = 0; i < r.spec.values.size(); ++i) {
    for (std::size_t c = 0; c < cols.size(); ++c)
      out << (c ? "," : "") << trace::csv_field(cols[c].csv[i]);
    out << "\n";
  }
}

// NaN (unknown: a replay deadlocked) is written as null.
nlohmann::ordered_json sweep_result_json(const SweepResult& r) {
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  for (const SweepSeries& s : r.series) {
    nlohmann::ordered_json j = {{"name", s.name},
                                {"kind", s.kind},
                                {"label", s.label},
                                {"path", s.path},
                                {"times_s", s.times}};
    if (r.per_core(s)) {
      j["one_core_time_s"] = *s.one_core_time;
      j["speedup_1core"] = one_core_speedups(r, s);
      j["efficiency"] = efficiencies(r, s);
    }
    j["failures"] = s.failures;
    j["notes"] = s.notes;
    series.push_back(std::move(j));
  }
  nlohmann::ordered_json doc = {{"name", r.name},
                                {"input", r.input},
                                {"key", r.spec.key},
                                {"unit", sweep_key_unit(r.spec.key)},
                                {"scale", r.spec.scale == SweepScale::Log ? "log" : "linear"},
                                {"values", r.spec.values},
                                {"policy", task_policy_name(r.policy)},
                                {"series", series}};
  if (compared(r).empty()) return doc;
  nlohmann::ordered_json speedups = nlohmann::ordered_json::array();
  for (std::size_t k : compared(r))
    speedups.push_back({{"label", r.series[k].label},
                        {"over", baseline(r, k).label},
                        {"values", sweep_speedup(r, k)}});
  doc["speedup"] = speedups;
  if (!shows_reduction(r)) return doc;
  using S = ToleratedReduction::Status;
  nlohmann::ordered_json reductions = nlohmann::ordered_json::array();
  for (std::size_t k : compared(r)) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const ToleratedReduction& t : reduction_of(r, k)) {
      nlohmann::ordered_json p = {{"value", nullptr}};
      if (t.status == S::InRange) p["value"] = t.value;
      if (t.status == S::AtLeast) p["at_least"] = t.value;
      if (t.status == S::AtMost) p["less_than"] = t.value;
      points.push_back(std::move(p));
    }
    reductions.push_back(
        {{"label", r.series[k].label}, {"over", baseline(r, k).label}, {"points", points}});
  }
  doc["tolerable_reduction"] = reductions;
  return doc;
}

void print_cores_sweep(std::ostream& out, const SweepResult& r, bool csv) {
  const SweepSeries& s = r.series.front();
  if (csv) {
    fmt::print(out, "cores,time_s,speedup,efficiency\n");
    for (std::size_t i = 0; i < r.spec.values.size(); ++i)
      fmt::print(out, "{},{:.9f},{:.6f},{:.6f}\n", std::llround(r.spec.values[i]), s.times[i],
                 s.one_core_speedup(i), s.efficiency(i, r.spec.values[i]));
    return;
  }
  fmt::print(out, "{} ({}): {}\n", s.name, s.kind, s.path);
  fmt::print(out, "  cores sweep, policy {} (speedup over 1 core per node)\n",
             task_policy_name(r.policy));
  fmt::print(out, "  {:>6}  {:>14}  {:>8}  {:>10}\n", "cores", "time s", "speedup", "efficiency");
  for (std::size_t i = 0; i < r.spec.values.size(); ++i)
    fmt::print(out, "  {:>6}  {:>14.9f}  {:>8.3f}  {:>10.3f}\n", std::llround(r.spec.values[i]),
               s.times[i], s.one_core_speedup(i), s.efficiency(i, r.spec.values[i]));
  for (const std::string& note : s.notes) fmt::print(out, "  note: {}\n", note);
}

nlohmann::ordered_json cores_sweep_json(const SweepResult& r) {
  const SweepSeries& s = r.series.front();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.spec.values.size(); ++i)
    rows.push_back({{"cores", std::llround(r.spec.values[i])},
                    {"total_time_s", s.times[i]},
                    {"speedup", s.one_core_speedup(i)},
                    {"efficiency", s.efficiency(i, r.spec.values[i])}});
  return {{"name", s.name}, {"kind", s.kind},
          {"path", s.path}, {"policy", task_policy_name(r.policy)},
          {"sweep", rows},  {"notes", s.notes}};
}

void prepare_sweep_files(const std::string& prefix) {
  std::string dir = std::filesystem::path(prefix).parent_path().string();
  trace::make_output_directory(dir.empty() ? "." : dir);
}

std::vector<std::string> write_sweep_files(const std::string& prefix, const SweepResult& r) {
  prepare_sweep_files(prefix);
  std::vector<std::string> written;
  auto put = [&](const std::string& suffix, const std::string& text) {
    write_text(prefix + suffix, text);
    written.push_back(prefix + suffix);
  };
  // A plot of `series`, its y axis logarithmic when they span decades; none without series.
  auto plot = [&](const std::string& suffix, svg::Plot p) {
    if (p.series.empty()) return;
    p.log_y = wide(p.series);
    put(suffix, svg::render(p));
  };
  std::ostringstream csv;
  write_sweep_csv(csv, r);
  put(".csv", csv.str());

  // Each trace has the same colour and marker in every plot: its position in the sweep.
  const std::vector<double>& x = r.spec.values;
  auto line = [&](std::size_t k, std::string name, std::vector<double> y) {
    svg::Series s{std::move(name), x, std::move(y)};
    s.style = static_cast<int>(k);
    return s;
  };
  svg::Plot time = plot_of(r, "execution time", "time (s)");
  for (std::size_t k = 0; k < r.series.size(); ++k)
    time.series.push_back(line(k, r.series[k].label, r.series[k].times));
  plot("-time.svg", std::move(time));

  // Over each kind's baseline (named), or over 1 core (tasks traces in a cores sweep).
  const std::string over = compared(r).empty() ? "" : " over " + speedups_over(r);
  svg::Plot speedup = plot_of(r, "speedup" + over, "speedup");
  speedup.guide_y = 1.0;
  for (std::size_t k : compared(r))
    speedup.series.push_back(line(k, r.series[k].label, sweep_speedup(r, k)));
  for (std::size_t k = 0; k < r.series.size(); ++k)
    if (r.per_core(r.series[k]))
      speedup.series.push_back(
          line(k, r.series[k].label + " over 1 core", one_core_speedups(r, r.series[k])));
  plot("-speedup.svg", std::move(speedup));

  if (shows_reduction(r)) {
    svg::Plot reduction =
        plot_of(r, "tolerable bandwidth reduction" + over, "bandwidth reduction (times)");
    reduction.guide_y = 1.0;
    for (std::size_t k : compared(r)) {
      std::vector<double> y;
      for (const ToleratedReduction& t : reduction_of(r, k))
        y.push_back(t.status == ToleratedReduction::Status::InRange ? t.value : kNaN);
      reduction.series.push_back(line(k, r.series[k].label, std::move(y)));
    }
    plot("-reduction.svg", std::move(reduction));
  }

  svg::Plot efficiency = plot_of(r, "parallel efficiency", "efficiency");
  efficiency.guide_y = 1.0;
  for (std::size_t k = 0; k < r.series.size(); ++k)
    if (r.per_core(r.series[k]))
      efficiency.series.push_back(line(k, r.series[k].label, efficiencies(r, r.series[k])));
  plot("-efficiency.svg", std::move(efficiency));
  return written;
}

}  // namespace tareador::replay
