#include "viz/describe.h"

#include <algorithm>
#include <cctype>

namespace tareador::view {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString duration(double ns) { return QString::fromStdString(format_duration(ns)); }
QString at(double ns) { return QString::fromStdString(format_instant(ns)); }

QString swatch(std::uint32_t rgb) {
  return QString("<span style='background-color:#%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span> ")
      .arg(rgb, 6, 16, QChar('0'));
}

QString row_line(const QString& name, const QString& value) {
  return "<tr><td style='color:#555;padding-right:8px'>" + name + "</td><td>" + value +
         "</td></tr>";
}

QString bytes(std::int64_t n) {
  if (n >= 1 << 20) return QString("%1 MiB (%2 B)").arg(n / 1048576.0, 0, 'g', 4).arg(n);
  if (n >= 1 << 10) return QString("%1 KiB (%2 B)").arg(n / 1024.0, 0, 'g', 4).arg(n);
  return QString("%1 B").arg(n);
}

bool name_has(const std::string& name, const char* word) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return lower.find(word) != std::string::npos;
}

QString event_text(const Timeline& t, std::uint32_t type, std::uint64_t value) {
  std::string name = t.pcf.event_value_name(type, value);
  return text(t.pcf.event_type_name(type)) + " = " +
         (name.empty() ? QString::number(value) : text(name) + QString(" (%1)").arg(value));
}

// The thread row of a record at a level (grouped rows keep it as the record's resource).
std::uint32_t thread_of(const Hit& hit, std::uint32_t resource) {
  return hit.level == RowLevel::Thread ? hit.row : resource;
}

// Where the interval ran, and what the trace says about that moment: task, call, source line.
QString context(const Timeline& t, const Hit& hit, std::uint32_t thread_row, std::uint32_t cpu,
                Time time) {
  QString html;
  if (hit.level != RowLevel::Thread) html += row_line("thread", text(t.thread_labels[thread_row]));
  if (hit.level != RowLevel::Cpu && cpu > 0 && cpu <= t.cpu_labels.size())
    html += row_line("CPU", text(t.cpu_labels[cpu - 1]));
  // Values in force: every event type with named values (task type, user function, MPI call),
  // task instances, and source locations (Extrae's "... line" types).
  for (std::uint32_t type : t.event_types()) {
    auto known = t.pcf.event_types.find(type);
    if (known == t.pcf.event_types.end()) continue;
    const EventTypeInfo& info = known->second;
    bool named = !info.values.empty(), instance = name_has(info.name, "instance"),
         location = name_has(info.name, "line") || name_has(info.name, "location");
    if (!named && !instance && !location) continue;
    std::uint64_t value = value_in_force(t, thread_row, time, type);
    if (value != 0) {
      std::string name = t.pcf.event_value_name(type, value);
      html += row_line(text(info.name), name.empty() ? QString::number(value) : text(name));
    }
  }
  return html;
}

}  // namespace

std::uint64_t value_in_force(const Timeline& timeline, std::uint32_t thread_row, Time time,
                             std::uint32_t type) {
  const RowSet& values = timeline.rows(RowLevel::Thread, Semantic{type});
  const Intervals& row = values.intervals[thread_row];
  std::size_t i = row.at(time);
  return i < row.size() ? values.legend[row.key(i)].value : 0;
}

QString describe(const ViewState& state, const Hit& hit, bool detailed) {
  if (hit.kind == Hit::Nothing || hit.timeline < 0) return {};
  const Timeline& t = *state.timelines()[static_cast<std::size_t>(hit.timeline)];
  QString html = "<table cellspacing=0>";
  QString where = text(t.name) + " &middot; " + text(t.labels(hit.level)[hit.row]);
  switch (hit.kind) {
    case Hit::Interval: {
      const RowSet& rows = t.rows(hit.level, state.semantic(t));
      const Intervals& intervals = rows.intervals[hit.row];
      std::size_t i = hit.index;
      const LegendEntry& entry = rows.legend[intervals.key(i)];
      html = "<b>" + swatch(entry.rgb) + text(entry.name) + "</b><br>" + where + html;
      html += row_line("begins", at(static_cast<double>(intervals.begin(i))));
      html += row_line("ends", at(static_cast<double>(intervals.end(i))));
      html +=
          row_line("lasts", duration(static_cast<double>(intervals.end(i) - intervals.begin(i))));
      std::uint32_t thread_row = thread_of(hit, intervals.resource(i));
      std::uint32_t cpu = hit.level == RowLevel::Thread ? intervals.resource(i) : 0;
      // What was in force where the cursor is (the state may span several functions).
      Time cursor =
          std::clamp(static_cast<Time>(hit.time), intervals.begin(i), intervals.end(i) - 1);
      html += context(t, hit, thread_row, cpu, cursor);
      if (detailed) {
        const Events& events = t.thread_events[thread_row];
        auto [first, last] =
            events.between(intervals.begin(i), intervals.end(i) - 1);  // [begin, end)
        std::size_t shown = std::min<std::size_t>(last - first, 12);
        for (std::size_t e = first; e < first + shown; ++e)
          html += row_line(e == first ? "events" : "",
                           at(static_cast<double>(events.time[e])) + ": " +
                               event_text(t, events.type[e], events.value[e]));
        if (last - first > shown)
          html += row_line("", QString("... %1 more").arg(last - first - shown));
      }
      break;
    }
    case Hit::Event: {
      const Events& events = t.events(hit.level)[hit.row];
      std::size_t i = hit.index;
      html = "<b>Event</b><br>" + where + html;
      html += row_line("at", at(static_cast<double>(events.time[i])));
      // Every event of that moment on that row (Paraver puts several in one record).
      for (std::size_t e = i; e < events.size() && events.time[e] == events.time[i]; ++e)
        html += row_line("", event_text(t, events.type[e], events.value[e]));
      break;
    }
    case Hit::Message: {
      const Message& m = t.messages[hit.index];
      html = "<b>Message</b><br>" + text(t.name) + html;
      html += row_line("from", text(t.thread_labels[m.send_row]));
      html += row_line("to", text(t.thread_labels[m.recv_row]));
      html += row_line("size", bytes(m.size));
      html += row_line("tag", QString::number(m.tag));
      html += row_line("send call", at(static_cast<double>(m.logical_send)));
      html += row_line("sent", at(static_cast<double>(m.physical_send)));
      html += row_line("receive call", at(static_cast<double>(m.logical_recv)));
      html += row_line("arrived", at(static_cast<double>(m.physical_recv)));
      html +=
          row_line("transfer", duration(static_cast<double>(m.physical_recv - m.physical_send)));
      if (detailed && m.physical_recv > m.physical_send)
        html += row_line(
            "bandwidth",
            QString("%1 MB/s").arg(static_cast<double>(m.size) /
                                       static_cast<double>(m.physical_recv - m.physical_send) *
                                       1e9 / 1048576.0,
                                   0, 'f', 1));
      break;
    }
    case Hit::Nothing:
      break;
  }
  return html + "</table>";
}

}  // namespace tareador::view
