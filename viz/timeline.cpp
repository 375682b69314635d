// The timeline model: intervals with their level of detail, profiles, statistics, row levels.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <thread>

#include "tareador/trace.h"
#include "tracefmt/parallel.h"
#include "viz/timeline.h"

namespace tareador::view {

LoadError::LoadError(const std::string& file, std::uint64_t line, const std::string& message)
    : std::runtime_error(file + (line ? ":" + std::to_string(line) : std::string()) + ": " +
                         message) {}

// ---- .pcf facts ----------------------------------------------------------------------------

Pcf Pcf::standard() {
  Pcf pcf;
  for (const trace::ParaverState& s : trace::paraver_states()) {
    pcf.state_names[s.value] = s.name;
    pcf.state_colors[s.value] = static_cast<std::uint32_t>(s.red << 16 | s.green << 8 | s.blue);
  }
  for (const trace::ParaverEventType& t : trace::paraver_mpi_event_types()) {
    EventTypeInfo& info = pcf.event_types[static_cast<std::uint32_t>(t.type)];
    info.name = t.name;
    for (const auto& [value, name] : t.values) info.values[value] = name;
  }
  return pcf;
}

std::string Pcf::state_name(int state) const {
  auto it = state_names.find(state);
  return it != state_names.end() ? it->second : "State " + std::to_string(state);
}

std::uint32_t Pcf::state_color(int state) const {
  auto it = state_colors.find(state);
  return it != state_colors.end() ? it->second : value_color(static_cast<std::uint64_t>(state) + 1);
}

std::string Pcf::event_type_name(std::uint32_t type) const {
  auto it = event_types.find(type);
  return it != event_types.end() ? it->second.name : "Event type " + std::to_string(type);
}

std::string Pcf::event_value_name(std::uint32_t type, std::uint64_t value) const {
  auto it = event_types.find(type);
  if (it == event_types.end()) return {};
  auto v = it->second.values.find(value);
  return v != it->second.values.end() ? v->second : std::string();
}

std::uint32_t value_color(std::uint64_t value) {
  // Tableau's 20 colours, strong ones first; beyond them, hues spaced by the golden ratio.
  static constexpr std::uint32_t kPalette[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                               0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf,
                                               0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896, 0xc5b0d5,
                                               0xc49c94, 0xf7b6d2, 0xc7c7c7, 0xdbdb8d, 0x9edae5};
  constexpr std::uint64_t kSize = sizeof kPalette / sizeof kPalette[0];
  if (value >= 1 && value <= kSize) return kPalette[value - 1];
  double hue = std::fmod(static_cast<double>(value) * 0.618033988749895, 1.0) * 6;
  double s = 0.65, v = 0.85, f = hue - std::floor(hue);
  double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
  const double* c = rgb[static_cast<int>(hue) % 6];
  auto byte = [](double x) { return static_cast<std::uint32_t>(std::lround(x * 255)); };
  return byte(c[0]) << 16 | byte(c[1]) << 8 | byte(c[2]);
}

StateClass classify_state(int state) {
  switch (state) {
    case 1:
      return StateClass::Compute;  // Running
    case 10:
    case 11:
    case 13:
    case 16:
    case 17:
    case 20:  // sends, receives, collectives,
    case 25:
    case 26:
    case 28:
    case 29:  // RMA, latency, copies, RTT
      return StateClass::Communication;
    case 3:
    case 4:
    case 5:
    case 6:
    case 8:
    case 9:
    case 27:                       // waiting for messages, peers,
      return StateClass::Waiting;  // links
    default:
      return StateClass::Other;  // idle, not created, I/O, ...
  }
}

// ---- Intervals -------------------------------------------------------------------------------

void Intervals::reserve(std::size_t n) {
  begin_.reserve(n);
  end_.reserve(n);
  key_.reserve(n);
  resource_.reserve(n);
}

namespace {

template <typename T, typename Part, typename Field>
void concatenate(std::vector<T>& to, const std::vector<const Part*>& parts, Field field) {
  std::size_t n = 0;
  for (const Part* p : parts) n += (p->*field).size();
  to.clear();
  to.reserve(n);
  for (const Part* p : parts) to.insert(to.end(), (p->*field).begin(), (p->*field).end());
}

}  // namespace

void Intervals::assign(const std::vector<const Intervals*>& parts) {
  concatenate(begin_, parts, &Intervals::begin_);
  concatenate(end_, parts, &Intervals::end_);
  concatenate(key_, parts, &Intervals::key_);
  concatenate(resource_, parts, &Intervals::resource_);
}

namespace {

template <typename T>
void permute(std::vector<T>& v, const std::vector<std::uint32_t>& order) {
  std::vector<T> sorted(v.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = v[order[i]];
  v.swap(sorted);
}

// Below this many intervals a row needs no pyramid: walking them is as cheap.
constexpr std::size_t kLodMinimum = 512;

}  // namespace

void Intervals::finish() {
  if (!std::is_sorted(begin_.begin(), begin_.end())) {
    std::vector<std::uint32_t> order(begin_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return begin_[a] < begin_[b]; });
    permute(begin_, order);
    permute(end_, order);
    permute(key_, order);
    permute(resource_, order);
  }
  reach_.clear();
  if (!std::is_sorted(end_.begin(), end_.end())) {
    reach_.resize(end_.size());
    std::partial_sum(end_.begin(), end_.end(), reach_.begin(),
                     [](Time a, Time b) { return std::max(a, b); });
  }
  lod_.clear();
  if (size() < kLodMinimum) return;
  // Level 0 has buckets of about the mean interval: a pixel column at least that wide is
  // answered by the pyramid, a narrower one walks its few intervals (two per column at most,
  // on average).
  lod_origin_ = begin_.front();
  Time span = std::max<Time>(1, reach().back() - lod_origin_);
  Time mean = std::max<Time>(1, span / static_cast<Time>(size()));
  lod_width_ = 1;
  while (lod_width_ < mean) lod_width_ <<= 1;
  std::size_t buckets = static_cast<std::size_t>(span / lod_width_) + 1;
  std::vector<LodBucket> level(buckets);
  exact_tallies(static_cast<double>(lod_origin_),
                static_cast<double>(lod_origin_) + static_cast<double>(buckets) * lod_width_,
                static_cast<int>(buckets), level.data());
  // Each coarser level merges two buckets' tallies.
  for (;;) {
    std::size_t half = (level.size() + 1) / 2;
    std::vector<LodBucket> up(level.size() > 1 ? half : 0);
    for (std::size_t i = 0; i < up.size(); ++i) {
      up[i] = level[2 * i];
      if (2 * i + 1 < level.size()) up[i].add(level[2 * i + 1]);
    }
    lod_.push_back(std::move(level));
    if (up.empty()) break;
    level = std::move(up);
  }
}

std::pair<std::size_t, std::size_t> Intervals::overlapping(Time t0, Time t1) const {
  const std::vector<Time>& r = reach();
  std::size_t first =
      static_cast<std::size_t>(std::upper_bound(r.begin(), r.end(), t0) - r.begin());
  std::size_t last =
      static_cast<std::size_t>(std::lower_bound(begin_.begin(), begin_.end(), t1) - begin_.begin());
  return {first, std::max(first, last)};
}

std::size_t Intervals::at(Time t) const {
  std::size_t i =
      static_cast<std::size_t>(std::upper_bound(begin_.begin(), begin_.end(), t) - begin_.begin());
  const std::vector<Time>& r = reach();
  while (i > 0 && r[i - 1] > t) {
    --i;
    if (end_[i] > t) return i;
  }
  return size();
}

// Walks the intervals of [t0, t1), adding to each column the time each key covers in it.
template <int Slots>
void Intervals::exact_tallies(double t0, double t1, int columns, KeyTally<Slots>* out) const {
  if (columns <= 0 || t1 <= t0) return;
  double dt = (t1 - t0) / columns;
  auto [first, last] =
      overlapping(static_cast<Time>(std::floor(t0)), static_cast<Time>(std::ceil(t1)));
  for (std::size_t i = first; i < last; ++i) {
    double b = std::max(static_cast<double>(begin_[i]), t0);
    double e = std::min(static_cast<double>(end_[i]), t1);
    if (e <= b) continue;
    int cb = std::min(columns - 1, static_cast<int>((b - t0) / dt));
    int ce = std::min(columns - 1, static_cast<int>((e - t0) / dt));
    std::uint32_t key = key_[i];
    if (cb == ce) {
      out[cb].add(key, static_cast<float>(e - b));
      continue;
    }
    out[cb].add(key, static_cast<float>(t0 + (cb + 1) * dt - b));
    for (int c = cb + 1; c < ce; ++c) out[c].add(key, static_cast<float>(dt));
    out[ce].add(key, static_cast<float>(e - (t0 + ce * dt)));
  }
}

void Intervals::dominant_keys(double t0, double t1, int columns, std::uint32_t* out) const {
  if (columns <= 0) return;
  std::vector<ColumnTally> tallies(static_cast<std::size_t>(columns));
  add_key_times(t0, t1, columns, tallies.data());
  for (int c = 0; c < columns; ++c) out[c] = tallies[static_cast<std::size_t>(c)].heaviest();
}

void Intervals::add_key_times(double t0, double t1, int columns, ColumnTally* tallies) const {
  if (columns <= 0 || empty()) return;
  double dt = (t1 - t0) / columns;
  if (lod_.empty() || dt < static_cast<double>(lod_width_)) {
    exact_tallies(t0, t1, columns, tallies);
    return;
  }
  // The finest level whose buckets are no wider than a column; each column sums the buckets
  // it spans, a partly covered bucket by the part covered.
  std::size_t level = 0;
  while (level + 1 < lod_.size() && static_cast<double>(lod_width_ << (level + 1)) <= dt) ++level;
  const std::vector<LodBucket>& buckets = lod_[level];
  double width = static_cast<double>(lod_width_ << level);
  double origin = static_cast<double>(lod_origin_);
  auto count = static_cast<std::int64_t>(buckets.size());
  for (int c = 0; c < columns; ++c) {
    double a = t0 + c * dt, b = a + dt;
    auto first = static_cast<std::int64_t>(std::floor((a - origin) / width));
    auto last = static_cast<std::int64_t>(std::floor((b - origin) / width));
    for (std::int64_t k = std::max<std::int64_t>(first, 0); k <= last && k < count; ++k) {
      double lo = std::max(a, origin + k * width), hi = std::min(b, origin + (k + 1) * width);
      if (hi > lo)
        tallies[c].add(buckets[static_cast<std::size_t>(k)], static_cast<float>((hi - lo) / width));
    }
  }
}

void RowSet::dominant_keys(std::size_t first, std::size_t last, double t0, double t1, int columns,
                           std::uint32_t* out) const {
  if (columns <= 0) return;
  std::vector<ColumnTally> tallies(static_cast<std::size_t>(columns));
  for (std::size_t r = first; r < last && r < intervals.size(); ++r)
    intervals[r].add_key_times(t0, t1, columns, tallies.data());
  for (int c = 0; c < columns; ++c) out[c] = tallies[static_cast<std::size_t>(c)].heaviest();
}

void Intervals::time_per_key(Time t0, Time t1, std::vector<Time>& totals) const {
  auto [first, last] = overlapping(t0, t1);
  for (std::size_t i = first; i < last; ++i) {
    Time b = std::max(begin_[i], t0), e = std::min(end_[i], t1);
    if (e <= b) continue;
    if (key_[i] >= totals.size()) totals.resize(key_[i] + 1, 0);
    totals[key_[i]] += e - b;
  }
}

void Events::reserve(std::size_t n) {
  time.reserve(n);
  type.reserve(n);
  value.reserve(n);
  resource.reserve(n);
}

void Events::assign(const std::vector<const Events*>& parts) {
  concatenate(time, parts, &Events::time);
  concatenate(type, parts, &Events::type);
  concatenate(value, parts, &Events::value);
  concatenate(resource, parts, &Events::resource);
}

void Events::sort_by_time() {
  if (std::is_sorted(time.begin(), time.end())) return;
  std::vector<std::uint32_t> order(size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return time[a] < time[b]; });
  permute(time, order);
  permute(type, order);
  permute(value, order);
  permute(resource, order);
}

std::pair<std::size_t, std::size_t> Events::between(Time t0, Time t1) const {
  auto first = std::lower_bound(time.begin(), time.end(), t0);
  auto last = std::upper_bound(first, time.end(), t1);
  return {static_cast<std::size_t>(first - time.begin()),
          static_cast<std::size_t>(last - time.begin())};
}

// ---- Profile -------------------------------------------------------------------------------

void Profile::add(Time begin, Time end, double rate) {
  if (end <= begin) return;
  rises_.emplace_back(begin, rate);
  falls_.emplace_back(end, rate);
}

void Profile::reserve(std::size_t n) {
  rises_.reserve(n);
  falls_.reserve(n);
}

// Rises and falls are sorted apart (each is nearly sorted already, and pairs sort faster than
// wider records), then swept together.
void Profile::finish() {
  auto by_time = [](const Change& a, const Change& b) { return a.first < b.first; };
  for (std::vector<Change>* changes : {&rises_, &falls_})
    if (!std::is_sorted(changes->begin(), changes->end(), by_time))
      std::sort(changes->begin(), changes->end(), by_time);
  time_.clear();
  integral_.clear();
  rate_.clear();
  double integral = 0, rate = 0;
  std::size_t r = 0, f = 0;
  while (r < rises_.size() || f < falls_.size()) {
    Time t = r < rises_.size() && (f == falls_.size() || rises_[r].first < falls_[f].first)
                 ? rises_[r].first
                 : falls_[f].first;
    if (!time_.empty()) integral += rate * static_cast<double>(t - time_.back());
    for (; r < rises_.size() && rises_[r].first == t; ++r) rate += rises_[r].second;
    for (; f < falls_.size() && falls_[f].first == t; ++f) rate -= falls_[f].second;
    if (std::fabs(rate) < 1e-9) rate = 0;  // all that was added is taken away: no residue
    time_.push_back(t);
    integral_.push_back(integral);
    rate_.push_back(rate);
  }
  for (std::vector<Change>* changes : {&rises_, &falls_}) {
    changes->clear();
    changes->shrink_to_fit();
  }
}

void Profile::averages(double t0, double t1, int columns, double* out) const {
  if (columns <= 0) return;
  double dt = (t1 - t0) / columns;
  // The integral at each column boundary, each search starting where the previous ended.
  auto from = time_.begin();
  auto integral_at = [&](double t) {
    from = std::upper_bound(from, time_.end(), t,
                            [](double x, Time y) { return x < static_cast<double>(y); });
    if (from == time_.begin()) return 0.0;
    std::size_t i = static_cast<std::size_t>(from - time_.begin()) - 1;
    return integral_[i] + rate_[i] * (t - static_cast<double>(time_[i]));
  };
  double previous = integral_at(t0);
  for (int c = 0; c < columns; ++c) {
    double next = integral_at(t0 + (c + 1) * dt);
    out[c] = (next - previous) / dt;
    previous = next;
  }
}

// ---- Timeline ------------------------------------------------------------------------------

const std::vector<std::string>& Timeline::labels(RowLevel level) const {
  switch (level) {
    case RowLevel::Task:
      return task_labels;
    case RowLevel::Cpu:
      return cpu_labels;
    default:
      return thread_labels;
  }
}

std::uint32_t Timeline::message_row(const Message& m, bool sender, RowLevel level) const {
  std::uint32_t row = sender ? m.send_row : m.recv_row;
  switch (level) {
    case RowLevel::Task:
      return task_of_thread[row];
    case RowLevel::Cpu: {
      std::uint32_t cpu = sender ? m.send_cpu : m.recv_cpu;
      return cpu ? cpu - 1 : kNoKey;
    }
    default:
      return row;
  }
}

std::pair<std::size_t, std::size_t> Timeline::messages_overlapping(Time t0, Time t1) const {
  std::size_t first = static_cast<std::size_t>(
      std::upper_bound(message_reach_.begin(), message_reach_.end(), t0) - message_reach_.begin());
  std::size_t last = static_cast<std::size_t>(
      std::lower_bound(messages.begin(), messages.end(), t1,
                       [](const Message& m, Time t) { return m.line_begin() < t; }) -
      messages.begin());
  return {first, std::max(first, last)};
}

std::vector<std::pair<std::uint32_t, std::string>> Timeline::colouring_event_types() const {
  std::vector<std::pair<std::uint32_t, std::string>> types;
  for (std::uint32_t type : event_types_present_) {
    auto it = pcf.event_types.find(type);
    if (it != pcf.event_types.end() && !it->second.values.empty())
      types.emplace_back(type, it->second.name);
  }
  return types;
}

void Timeline::finish() {
  // Rows are independent, and the messages another job beside them; then the three profiles.
  std::size_t rows = thread_states.intervals.size();
  parallel_for(rows + 1, 0, [&](std::size_t job) {
    if (job < rows) {
      thread_states.intervals[job].finish();
      thread_events[job].sort_by_time();
      return;
    }
    auto by_line = [](const Message& a, const Message& b) {
      return a.line_begin() < b.line_begin();
    };
    if (!std::is_sorted(messages.begin(), messages.end(), by_line))
      std::stable_sort(messages.begin(), messages.end(), by_line);
    message_reach_.resize(messages.size());
    Time reach = 0;
    for (std::size_t i = 0; i < messages.size(); ++i)
      message_reach_[i] = reach = std::max(reach, messages[i].line_end());
  });
  // Communications within a task (a tasks trace's dependencies) are not on the network.
  auto between_tasks = [this](const Message& m) {
    return task_of_thread[m.send_row] != task_of_thread[m.recv_row];
  };
  parallel_for(3, 0, [&](std::size_t job) {
    if (job == 0) {
      for (const Intervals& row : thread_states.intervals)
        for (std::size_t i = 0; i < row.size(); ++i)
          if (row.key(i) == 1) cores_busy.add(row.begin(i), row.end(i), 1);
      cores_busy.finish();
    } else if (job == 1) {
      bandwidth.reserve(messages.size());
      for (const Message& m : messages)
        if (m.physical_recv > m.physical_send && between_tasks(m))
          bandwidth.add(
              m.physical_send, m.physical_recv,
              static_cast<double>(m.size) / static_cast<double>(m.physical_recv - m.physical_send));
      bandwidth.finish();
    } else {
      in_flight.reserve(messages.size());
      for (const Message& m : messages)
        if (between_tasks(m))
          in_flight.add(m.logical_send, std::max(m.logical_recv, m.physical_recv), 1);
      in_flight.finish();
    }
  });
  // The header's end, or the last record's if later.
  for (const Intervals& row : thread_states.intervals)
    end_time = std::max(end_time, row.latest_end());
  for (const Events& row : thread_events)
    if (row.size()) end_time = std::max(end_time, row.time.back());
  for (const Message& m : messages)
    end_time = std::max({end_time, m.line_end(), m.logical_send, m.logical_recv});
  // Event types present, for the "colour by" choices.
  std::vector<std::uint32_t> types;
  for (const Events& e : thread_events)
    for (std::uint32_t type : e.type)
      if (types.empty() || types.back() != type) {
        if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
      }
  std::sort(types.begin(), types.end());
  event_types_present_ = std::move(types);
  // The legend of states: every state the .pcf names, and any other one found.
  std::uint32_t max_state = 0;
  for (const auto& [state, name] : pcf.state_names)
    max_state = std::max(max_state, static_cast<std::uint32_t>(state));
  for (const Intervals& row : thread_states.intervals)
    for (std::size_t i = 0; i < row.size(); ++i) max_state = std::max(max_state, row.key(i));
  thread_states.legend.clear();
  for (std::uint32_t s = 0; s <= max_state; ++s)
    thread_states.legend.push_back(
        {s, pcf.state_name(static_cast<int>(s)), pcf.state_color(static_cast<int>(s))});
}

// Per thread row, the intervals during which events of `type` hold a non-zero value (values
// nest: 0 returns to the value before). Keys index `legend`, one entry per value met.
std::vector<Intervals> Timeline::event_intervals(std::uint32_t type,
                                                 std::vector<LegendEntry>& legend) const {
  std::map<std::uint64_t, std::uint32_t> key_of;
  std::vector<std::uint64_t> values;
  for (const Events& e : thread_events)
    for (std::size_t i = 0; i < e.size(); ++i)
      if (e.type[i] == type && e.value[i] != 0) key_of.emplace(e.value[i], 0);
  for (auto& [value, key] : key_of) {
    key = static_cast<std::uint32_t>(legend.size());
    std::string name = pcf.event_value_name(type, value);
    legend.push_back({value, name.empty() ? std::to_string(value) : name, value_color(value)});
  }
  std::vector<Intervals> rows(thread_events.size());
  for (std::size_t r = 0; r < thread_events.size(); ++r) {
    const Events& e = thread_events[r];
    std::vector<std::pair<std::uint64_t, std::uint32_t>> stack;  // (value, resource)
    Time since = 0;
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e.type[i] != type) continue;
      if (!stack.empty() && e.time[i] > since)
        rows[r].add(since, e.time[i], key_of[stack.back().first], stack.back().second);
      if (e.value[i] != 0) stack.emplace_back(e.value[i], e.resource[i]);
      else if (!stack.empty()) stack.pop_back();
      since = e.time[i];
    }
    if (!stack.empty() && end_time > since)
      rows[r].add(since, end_time, key_of[stack.back().first], stack.back().second);
    rows[r].finish();
  }
  return rows;
}

const RowSet& Timeline::rows(RowLevel level, Semantic semantic) const {
  if (level == RowLevel::Thread && semantic.event_type == 0) return thread_states;
  std::lock_guard<std::mutex> lock(rows_mutex_);
  std::unique_ptr<RowSet>& cached = rows_[{level, semantic}];
  if (!cached) cached = std::make_unique<RowSet>(build_rows(level, semantic));
  return *cached;
}

const std::vector<Events>& Timeline::events(RowLevel level) const {
  if (level == RowLevel::Thread) return thread_events;
  std::lock_guard<std::mutex> lock(rows_mutex_);
  std::unique_ptr<std::vector<Events>>& cached = grouped_events_[level];
  if (cached) return *cached;
  cached = std::make_unique<std::vector<Events>>(row_count(level));
  for (std::size_t r = 0; r < thread_events.size(); ++r) {
    const Events& e = thread_events[r];
    for (std::size_t i = 0; i < e.size(); ++i) {
      std::uint32_t group = level == RowLevel::Task ? task_of_thread[r] : e.resource[i] - 1;
      if (level == RowLevel::Cpu && (e.resource[i] == 0 || group >= cached->size())) continue;
      (*cached)[group].add(e.time[i], e.type[i], e.value[i], static_cast<std::uint32_t>(r));
    }
  }
  for (Events& e : *cached) e.sort_by_time();
  return *cached;
}

RowSet Timeline::build_rows(RowLevel level, Semantic semantic) const {
  RowSet set;
  std::vector<Intervals> per_thread;
  const std::vector<Intervals>* source = &thread_states.intervals;
  if (semantic.event_type != 0) {
    per_thread = event_intervals(semantic.event_type, set.legend);
    source = &per_thread;
  } else {
    set.legend = thread_states.legend;
  }
  if (level == RowLevel::Thread) {
    set.intervals = std::move(per_thread);
    return set;
  }
  // Tasks and CPUs gather the intervals of their threads; `resource` becomes the thread row.
  set.intervals.resize(row_count(level));
  for (std::size_t r = 0; r < source->size(); ++r) {
    const Intervals& from = (*source)[r];
    for (std::size_t i = 0; i < from.size(); ++i) {
      std::uint32_t cpu = from.resource(i);
      if (level == RowLevel::Cpu && (cpu == 0 || cpu > set.intervals.size())) continue;
      std::size_t group = level == RowLevel::Task ? task_of_thread[r] : cpu - 1;
      set.intervals[group].add(from.begin(i), from.end(i), from.key(i),
                               static_cast<std::uint32_t>(r));
    }
  }
  for (Intervals& row : set.intervals) row.finish();
  return set;
}

std::size_t Timeline::row_count(RowLevel level) const { return labels(level).size(); }

RangeStatistics Timeline::statistics(RowLevel level, Semantic semantic, Time t0, Time t1) const {
  const RowSet& set = rows(level, semantic);
  RangeStatistics stats;
  stats.per_key.assign(set.legend.size(), 0);
  for (const Intervals& row : set.intervals) {
    stats.per_row.emplace_back();  // as long as the row's keys need: empty rows cost nothing
    row.time_per_key(t0, t1, stats.per_row.back());
    for (std::size_t k = 0; k < stats.per_row.back().size() && k < stats.per_key.size(); ++k)
      stats.per_key[k] += stats.per_row.back()[k];
  }
  Time length = std::max<Time>(0, t1 - t0);
  stats.row_time.assign(set.intervals.size(), level == RowLevel::Task ? 0 : length);
  if (level == RowLevel::Task)
    for (std::uint32_t task : task_of_thread)
      if (task < stats.row_time.size()) stats.row_time[task] += length;
  for (Time time : stats.row_time) stats.all_rows_time += time;
  return stats;
}

std::uint32_t Timeline::task_instance_type() const {
  for (std::uint32_t type : event_types_present_) {
    std::string name = pcf.event_type_name(type);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (name == "task instance") return type;
  }
  return 0;
}

bool Timeline::find_task_instance(std::uint32_t task, std::uint64_t instance,
                                  std::uint32_t& thread_row, Time& begin, Time& end) const {
  std::uint32_t type = task_instance_type();
  if (type == 0) return false;
  const RowSet& instances = rows(RowLevel::Thread, Semantic{type});
  auto entry = std::lower_bound(instances.legend.begin(), instances.legend.end(), instance,
                                [](const LegendEntry& e, std::uint64_t v) { return e.value < v; });
  if (entry == instances.legend.end() || entry->value != instance) return false;
  auto key = static_cast<std::uint32_t>(entry - instances.legend.begin());
  for (std::uint32_t r = 0; r < instances.intervals.size(); ++r) {
    if (task_of_thread[r] != task) continue;
    const Intervals& row = instances.intervals[r];
    for (std::size_t i = 0; i < row.size(); ++i)
      if (row.key(i) == key) {
        // An instance that others interrupt (nested tasks) spans to its last piece.
        thread_row = r;
        begin = row.begin(i);
        end = row.end(i);
        for (std::size_t j = i + 1; j < row.size(); ++j)
          if (row.key(j) == key) end = row.end(j);
        return true;
      }
  }
  return false;
}

// ---- Time ------------------------------------------------------------------------------------

namespace {

struct Unit {
  double ns;
  const char* name;
};

Unit unit_for(double ns) {
  double magnitude = std::fabs(ns);
  if (magnitude >= 1e9) return {1e9, "s"};
  if (magnitude >= 1e6) return {1e6, "ms"};
  if (magnitude >= 1e3) return {1e3, "\u00b5s"};
  return {1, "ns"};
}

}  // namespace

std::string format_time(double ns, double resolution) {
  Unit unit = unit_for(resolution * 10);
  int decimals = 0;
  for (double step = resolution / unit.ns; decimals < 9 && step < 0.999; step *= 10) ++decimals;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f %s", decimals, ns / unit.ns, unit.name);
  return text;
}

std::string format_instant(double ns) {
  Unit unit = unit_for(ns);
  int decimals = static_cast<int>(std::lround(std::log10(unit.ns)));
  char text[64];
  std::snprintf(text, sizeof text, "%.*f %s", decimals, ns / unit.ns, unit.name);
  return text;
}

std::string format_duration(double ns) {
  Unit unit = unit_for(ns);
  char text[64];
  std::snprintf(text, sizeof text, "%.4g %s", ns / unit.ns, unit.name);
  return text;
}

bool parse_time(const std::string& text, double& ns) {
  const char* start = text.c_str();
  char* rest = nullptr;
  double value = std::strtod(start, &rest);
  if (rest == start) return false;
  std::string unit(rest);
  static const std::pair<const char*, double> kUnits[] = {
      {"", 1}, {"ns", 1}, {"us", 1e3}, {"\u00b5s", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  for (const auto& [name, scale] : kUnits)
    if (unit == name) {
      ns = value * scale;
      return std::isfinite(ns);
    }
  return false;
}

}  // namespace tareador::view
