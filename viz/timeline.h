// timeline.h — the data model of tareador-view: Paraver timelines in compact arrays.
//
// A Timeline is one Paraver trace (.prv with its .pcf and .row) held as structure-of-arrays:
// per row a sorted vector of intervals {begin, end, key}, per row its events, and one sorted
// vector of messages. What the viewer asks is answered by binary search or by a level-of-detail
// pyramid, never by walking the whole trace: which intervals overlap [t0, t1), what each pixel
// column shows (the value covering most of it), the profiles plotted under the timeline (cores
// busy, bandwidth in use, messages in flight); statistics walk only their range.
//
// No Qt here: the widgets (viz/*_view.h, viz/main_window.h) draw what this model answers.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tareador::view {

using Time = std::int64_t;  // nanoseconds since the start of the trace

// A bad input: what() is "file:line: message" (just "file: message" when line is 0).
struct LoadError : std::runtime_error {
  LoadError(const std::string& file, std::uint64_t line, const std::string& message);
};

// Called from time to time while loading with the fraction done; returns false to cancel
// (the load then throws LoadCancelled).
using Progress = std::function<bool(double fraction)>;
struct LoadCancelled : std::runtime_error {
  LoadCancelled() : std::runtime_error("cancelled") {}
};

// ---- What the .pcf says ------------------------------------------------------------------

struct EventTypeInfo {
  std::string name;
  std::map<std::uint64_t, std::string> values;  // VALUES labels (may be empty)
};

struct Pcf {
  std::map<int, std::string> state_names;
  std::map<int, std::uint32_t> state_colors;  // 0xRRGGBB
  std::map<std::uint32_t, EventTypeInfo> event_types;

  // Paraver's standard states and Extrae's MPI event types (used when a trace has no .pcf).
  static Pcf standard();
  std::string state_name(int state) const;
  std::uint32_t state_color(int state) const;
  std::string event_type_name(std::uint32_t type) const;
  // "MPI_Send" for (50000001, 1); "" when the .pcf does not name the value.
  std::string event_value_name(std::uint32_t type, std::uint64_t value) const;
};

Pcf read_pcf(const std::string& path);  // throws LoadError

// The labels of each level of a .row file ("THREAD", "TASK", "CPU", ...).
using RowLabels = std::map<std::string, std::vector<std::string>>;
RowLabels read_row_labels(const std::string& path);  // throws LoadError

// ---- What the timeline shows in each row -------------------------------------------------

// How intervals are coloured: by Paraver state, or by the value of one event type (task types,
// user functions, MPI calls...), values nesting as a stack (a non-zero value enters, 0 leaves).
struct Semantic {
  std::uint32_t event_type = 0;  // 0: states
  bool operator<(const Semantic& o) const { return event_type < o.event_type; }
  bool operator==(const Semantic& o) const { return event_type == o.event_type; }
};

// What an interval's key means under a semantic: its name and colour.
struct LegendEntry {
  std::uint64_t value;  // the state or the event value
  std::string name;
  std::uint32_t rgb;
};

// The distinct colours given to event values (value 1 gets the first).
std::uint32_t value_color(std::uint64_t value);

// Where states fall in the per-rank breakdown (the replayer's classes; Paraver numbering).
enum class StateClass { Compute, Communication, Waiting, Other };
StateClass classify_state(int state);

inline constexpr std::uint32_t kNoKey = 0xffffffffu;

// The time each of a few keys covers in a span: all of them while they fit, then the heaviest
// (a lighter key gives its slot to a heavier newcomer). Weights are summed over overlapping
// intervals, so a task row's span counts the time of each of its threads.
template <int Slots>
struct KeyTally {
  std::uint32_t key[Slots];
  float weight[Slots];
  KeyTally() {
    for (int s = 0; s < Slots; ++s) key[s] = kNoKey, weight[s] = 0;
  }
  void add(std::uint32_t k, float w) {
    int lightest = 0;
    for (int s = 0; s < Slots; ++s) {
      if (key[s] == k || key[s] == kNoKey) {
        key[s] = k;
        weight[s] += w;
        return;
      }
      if (weight[s] < weight[lightest]) lightest = s;
    }
    if (w > weight[lightest]) key[lightest] = k, weight[lightest] = w;
  }
  // Adds `fraction` of each key of `other`.
  template <int OtherSlots>
  void add(const KeyTally<OtherSlots>& other, float fraction = 1) {
    for (int s = 0; s < OtherSlots && other.key[s] != kNoKey; ++s)
      add(other.key[s], other.weight[s] * fraction);
  }
  std::uint32_t heaviest() const {
    std::uint32_t best = kNoKey;
    float best_weight = 0;
    for (int s = 0; s < Slots && key[s] != kNoKey; ++s)
      if (weight[s] > best_weight) best = key[s], best_weight = weight[s];
    return best;
  }
};

// What a pixel column gathers: it meets few keys, but overlapping rows (or rows drawn together)
// may bring more than a pyramid bucket keeps.
using ColumnTally = KeyTally<8>;

// One row's intervals, sorted by begin, as parallel arrays. `key` indexes the semantic's legend;
// `resource` is, in thread rows, the Paraver CPU the interval ran on (1-based, 0 = none), and in
// rows grouped from threads (CPU, task), the thread row it came from.
class Intervals {
 public:
  void add(Time begin, Time end, std::uint32_t key, std::uint32_t resource) {
    begin_.push_back(begin);
    end_.push_back(end);
    key_.push_back(key);
    resource_.push_back(resource);
  }
  void reserve(std::size_t n);
  void assign(const std::vector<const Intervals*>& parts);  // their concatenation
  // Sorts if needed and builds the search index and the level-of-detail pyramid.
  void finish();

  std::size_t size() const { return begin_.size(); }
  Time begin(std::size_t i) const { return begin_[i]; }
  Time end(std::size_t i) const { return end_[i]; }
  std::uint32_t key(std::size_t i) const { return key_[i]; }
  std::uint32_t resource(std::size_t i) const { return resource_[i]; }
  Time latest_end() const { return empty() ? 0 : reach().back(); }
  bool empty() const { return begin_.empty(); }

  // Indices [first, last) of the intervals that overlap [t0, t1) (some in between may not, when
  // intervals overlap each other, as in CPU rows).
  std::pair<std::size_t, std::size_t> overlapping(Time t0, Time t1) const;
  // The interval covering time t (the latest-starting one if several), or size() if none.
  std::size_t at(Time t) const;

  // The level of detail: for each of `columns` equal columns of [t0, t1), the key of the value
  // covering most of the column (kNoKey where nothing is), written to out[0..columns). Where
  // intervals overlap (task and CPU rows), each key's time is summed over them.
  void dominant_keys(double t0, double t1, int columns, std::uint32_t* out) const;
  // What dominant_keys weighs: the time of each key in each column, added to out[0..columns).
  void add_key_times(double t0, double t1, int columns, ColumnTally* out) const;
  // Time per key spent within [t0, t1), added to `totals` (indexed by key).
  void time_per_key(Time t0, Time t1, std::vector<Time>& totals) const;

 private:
  template <int Slots>
  void exact_tallies(double t0, double t1, int columns, KeyTally<Slots>* out) const;
  const std::vector<Time>& reach() const { return reach_.empty() ? end_ : reach_; }

  std::vector<Time> begin_, end_;
  std::vector<std::uint32_t> key_, resource_;
  std::vector<Time> reach_;  // running maximum of end_, only when ends are not sorted
  // Pyramid: level l has buckets of lod_width_ << l from lod_origin_, each with the time of the
  // few keys covering most of it (a bucket's heaviest key alone would let a key that is a third
  // of every bucket, but never the first, vanish from coarse levels).
  using LodBucket = KeyTally<4>;
  Time lod_origin_ = 0, lod_width_ = 0;
  std::vector<std::vector<LodBucket>> lod_;
};

// One row's events, sorted by time. `resource` as in Intervals.
struct Events {
  std::vector<Time> time;
  std::vector<std::uint32_t> type;
  std::vector<std::uint64_t> value;
  std::vector<std::uint32_t> resource;
  std::size_t size() const { return time.size(); }
  void reserve(std::size_t n);
  void assign(const std::vector<const Events*>& parts);  // their concatenation
  void add(Time t, std::uint32_t event_type, std::uint64_t event_value, std::uint32_t res) {
    time.push_back(t);
    type.push_back(event_type);
    value.push_back(event_value);
    resource.push_back(res);
  }
  void sort_by_time();
  // Indices [first, last) of the events in [t0, t1].
  std::pair<std::size_t, std::size_t> between(Time t0, Time t1) const;
};

struct Message {
  Time logical_send, physical_send, logical_recv, physical_recv;
  std::int64_t size, tag;
  std::uint32_t send_row, recv_row;  // thread rows
  std::uint32_t send_cpu, recv_cpu;  // Paraver CPUs (1-based, 0 = none)
  // A message is drawn from its physical send to its physical receive.
  Time line_begin() const { return physical_send < physical_recv ? physical_send : physical_recv; }
  Time line_end() const { return physical_send < physical_recv ? physical_recv : physical_send; }
};

// Rows are threads (Paraver's THREAD level), tasks (ranks) or CPUs.
enum class RowLevel { Thread, Task, Cpu };

// The intervals of every row of a level under one semantic, and what their keys mean.
struct RowSet {
  std::vector<Intervals> intervals;
  std::vector<LegendEntry> legend;  // indexed by key

  // Rows [first, last) drawn as one (more rows than pixels): per column, the key with the most
  // time summed over them, so that every row counts (kNoKey where none has anything).
  void dominant_keys(std::size_t first, std::size_t last, double t0, double t1, int columns,
                     std::uint32_t* out) const;
};

// A quantity over time kept as its integral at each change, so that its average over any
// range costs two binary searches: the profiles plotted under the timeline.
class Profile {
 public:
  // `rate` per nanosecond during [begin, end) (an empty range adds nothing).
  void add(Time begin, Time end, double rate);
  void reserve(std::size_t n);
  void finish();
  // The averages over `columns` equal columns of [t0, t1) into out[0..columns), in one pass.
  void averages(double t0, double t1, int columns, double* out) const;

 private:
  using Change = std::pair<Time, double>;
  std::vector<Change> rises_, falls_;  // until finish(), each sorted on its own
  std::vector<Time> time_;
  std::vector<double> integral_, rate_;  // at time_[i], and the rate from there on
};

// Time per row and key within a range, under one semantic and row level.
struct RangeStatistics {
  std::vector<std::vector<Time>> per_row;  // [row][key], up to the row's largest key (0 after)
  std::vector<Time> per_key;
  // The time a row's threads had in the range, what its shares are of: the range's length
  // times the threads of a task row (they run side by side), the length in other rows.
  std::vector<Time> row_time;
  Time all_rows_time = 0;  // their sum
};

// ---- A timeline ------------------------------------------------------------------------

class Timeline {
 public:
  std::string path;   // the .prv
  std::string name;   // what the viewer calls it (the trace-set kind, or the file name)
  Time end_time = 0;  // from the header (or the last record, if later)
  Pcf pcf;
  std::vector<std::string> warnings;  // e.g. a missing .pcf

  // Thread rows are Paraver's (application, task, thread) in header order; each knows its task.
  std::vector<std::string> thread_labels, task_labels, cpu_labels;
  std::vector<std::uint32_t> task_of_thread;
  RowSet thread_states;  // what the .prv holds: keys are Paraver states
  std::vector<Events> thread_events;
  std::vector<Message> messages;  // sorted by line_begin() after finish()

  const std::vector<std::string>& labels(RowLevel level) const;
  std::size_t row_count(RowLevel level) const;
  // The rows of a level under a semantic, and their events (built on first use, then kept;
  // safe to call from several threads).
  const RowSet& rows(RowLevel level, Semantic semantic) const;
  const std::vector<Events>& events(RowLevel level) const;
  const std::vector<std::uint32_t>& event_types() const { return event_types_present_; }
  // Event types that can colour the timeline: present, with named values in the .pcf.
  std::vector<std::pair<std::uint32_t, std::string>> colouring_event_types() const;

  // Messages whose line may overlap [t0, t1): indices [first, last) into `messages`.
  std::pair<std::size_t, std::size_t> messages_overlapping(Time t0, Time t1) const;
  // The row of a message's end at a level; kNoKey when it has none (no CPU).
  std::uint32_t message_row(const Message& m, bool sender, RowLevel level) const;

  RangeStatistics statistics(RowLevel level, Semantic semantic, Time t0, Time t1) const;

  // Task instances: events of the type the .pcf calls "Task instance" (the value is the
  // instance number), on the thread rows of the task (rank) that ran them. The type, or 0.
  std::uint32_t task_instance_type() const;
  // Where instance `instance` of task `task` ran; false if this timeline does not have it.
  bool find_task_instance(std::uint32_t task, std::uint64_t instance, std::uint32_t& thread_row,
                          Time& begin, Time& end) const;

  // Plotted under the timeline: threads Running; bytes per ns on the network (each message
  // from its physical send to its physical receive); messages sent and not yet received (from
  // the send call to the later of the arrival and the receive call).
  Profile cores_busy, bandwidth, in_flight;

  // Once the arrays are filled: sorts and indexes them, builds the legend and the profiles.
  void finish();

 private:
  RowSet build_rows(RowLevel level, Semantic semantic) const;
  std::vector<Intervals> event_intervals(std::uint32_t type,
                                         std::vector<LegendEntry>& legend) const;
  std::vector<Time> message_reach_;  // running maximum of line_end() over `messages`
  std::vector<std::uint32_t> event_types_present_;
  mutable std::mutex rows_mutex_;
  mutable std::map<std::pair<RowLevel, Semantic>, std::unique_ptr<RowSet>> rows_;
  mutable std::map<RowLevel, std::unique_ptr<std::vector<Events>>> grouped_events_;
};

// Reads PATH.prv with its .pcf and .row beside it (a missing .pcf or .row is a warning, not an
// error: Paraver's standard names are used). Throws LoadError, or LoadCancelled.
std::unique_ptr<Timeline> load_paraver(const std::string& prv_path, const Progress& progress = {});

// ---- Time ----------------------------------------------------------------------------------

// A ruler's labels: "1.5 ms", "250 ns", "2 s"; the unit comes from `resolution` (the step
// between labels), so that all the labels of a ruler share it, with the decimals it needs.
std::string format_time(double ns, double resolution);
// A moment to the nanosecond, in the unit of its magnitude: "2.501117 ms".
std::string format_instant(double ns);
std::string format_duration(double ns);  // with its natural unit and 4 significant digits
// "2.5ms", "1e6", "3us": a number of nanoseconds, or with a unit (ns, us, ms, s).
bool parse_time(const std::string& text, double& ns);

}  // namespace tareador::view
