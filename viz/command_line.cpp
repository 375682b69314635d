#include "viz/command_line.h"

#include <QApplication>
#include <QCommandLineParser>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "viz/inputs.h"
#include "viz/timeline_view.h"

namespace tareador::view {

namespace {

[[noreturn]] void usage_error(const QString& message) {
  std::fprintf(stderr, "tareador-view: %s\n", qPrintable(message));
  std::exit(2);
}

std::pair<double, double> time_range(const QString& option, const QString& text) {
  QStringList parts = text.split(':');
  double begin, end;
  if (parts.size() != 2 || !parse_time(parts[0].trimmed().toStdString(), begin) ||
      !parse_time(parts[1].trimmed().toStdString(), end) || end <= begin)
    usage_error(
        QString("--%1 %2: expected T0:T1 with T0 < T1 (ns, or with a unit: 2.5ms, 10us, 1s)")
            .arg(option, text));
  return {begin, end};
}

}  // namespace

Options parse_command_line(const QApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Gantt viewer of Tareador's timelines and any Paraver trace.\n"
      "INPUT is a Paraver trace (.prv, with its .pcf and .row beside it), a trace set directory "
      "(every timeline its replays left in SET/replay/, stacked, and SET/taskgraph.dot), or a "
      "task graph (.dot). Several inputs are stacked on one time axis.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption export_option(
      "export", "Render the view to FILE (.png or .svg) without a display, then exit.", "FILE");
  QCommandLineOption range_option("range", "Show times T0 to T1 (ns, or with a unit: 1.5ms:3ms).",
                                  "T0:T1");
  QCommandLineOption size_option("size", "Size of the exported image (default 1600x900).", "WxH");
  QCommandLineOption select_option(
      "select", "Select times T0 to T1 (their duration and statistics).", "T0:T1");
  QCommandLineOption rows_option("rows", "Rows: threads (default), tasks or cpus.", "LEVEL");
  QCommandLineOption colour_option(
      "colour-by",
      "Colour by an event type's values (its number or .pcf name), or by states (default: by "
      "\"Task type\" where a timeline has it, else by states).",
      "TYPE");
  QCommandLineOption no_messages_option("no-messages", "Do not draw the communication lines.");
  QCommandLineOption screenshot_option(
      "screenshot", "Open the window, load, save a picture of the window to FILE, exit.", "FILE");
  QCommandLineOption pick_option(
      "pick",
      "In the window, show the details of row ROW (counted from 0 down through the stacked "
      "timelines) at time T, as a click there would.",
      "ROW@T");
  parser.addOptions({export_option, range_option, size_option, select_option, rows_option,
                     colour_option, no_messages_option, screenshot_option, pick_option});
  parser.addPositionalArgument("INPUT", "Paraver trace, trace set or task graph.", "INPUT...");
  parser.process(app);

  Options options;
  for (const QString& input : parser.positionalArguments())
    options.inputs.push_back(input.toStdString());
  options.export_path = parser.value(export_option);
  options.screenshot = parser.value(screenshot_option);
  if (!options.export_path.isEmpty() && options.inputs.empty())
    usage_error("--export needs at least one INPUT");
  if (parser.isSet(size_option)) {
    QStringList wh = parser.value(size_option).toLower().split('x');
    bool w_ok = false, h_ok = false;
    if (wh.size() == 2) options.size = QSize(wh[0].toInt(&w_ok), wh[1].toInt(&h_ok));
    if (!w_ok || !h_ok || options.size.width() < 200 || options.size.height() < 150 ||
        options.size.width() > 20000 || options.size.height() > 20000)
      usage_error("--size " + parser.value(size_option) +
                  ": expected WxH, from 200x150 to 20000x20000");
  }
  if (parser.isSet(range_option)) options.range = time_range("range", parser.value(range_option));
  if (parser.isSet(select_option))
    options.selection = time_range("select", parser.value(select_option));
  if (parser.isSet(rows_option)) {
    QString level = parser.value(rows_option).toLower();
    if (level == "threads") options.rows = RowLevel::Thread;
    else if (level == "tasks") options.rows = RowLevel::Task;
    else if (level == "cpus") options.rows = RowLevel::Cpu;
    else usage_error("--rows " + level + ": expected threads, tasks or cpus");
  }
  if (parser.isSet(pick_option)) {
    QStringList parts = parser.value(pick_option).split('@');
    bool row_ok = false;
    double time;
    std::uint32_t row = parts.size() == 2 ? parts[0].toUInt(&row_ok) : 0;
    if (!row_ok || !parse_time(parts[1].trimmed().toStdString(), time))
      usage_error("--pick " + parser.value(pick_option) + ": expected ROW@T (2@3.5ms)");
    options.pick = std::make_pair(row, time);
  }
  options.colour_by = parser.value(colour_option);
  options.messages = !parser.isSet(no_messages_option);
  return options;
}

bool apply_view_options(const Options& options, ViewState& state, QString* error) {
  state.setRowLevel(options.rows);
  state.setShowMessages(options.messages);
  // Colour by the option's event type; by default by task type when a timeline has tasks
  // (each timeline without that event type shows its states).
  QString wanted = options.colour_by.isEmpty() ? QString("task type") : options.colour_by;
  if (wanted.compare("states", Qt::CaseInsensitive) != 0) {
    bool numeric = false;
    std::uint32_t type = wanted.toUInt(&numeric);
    std::uint32_t found = 0;
    for (const TimelinePtr& t : state.timelines())
      for (const auto& [candidate, name] : t->colouring_event_types())
        if ((numeric && candidate == type) ||
            (!numeric && QString::fromStdString(name).compare(wanted, Qt::CaseInsensitive) == 0))
          found = candidate;
    if (found == 0 && !options.colour_by.isEmpty()) {
      *error = "--colour-by " + options.colour_by +
               ": no timeline has that event type with named values";
      return false;
    }
    state.setColourBy(found);
  }
  if (options.range) {
    const auto [begin, end] = *options.range;
    state.setRange(begin, end);
    // The view stays within the run: a range past its end is shown moved, and says so.
    const double slack = 1e-9 * std::max(1.0, end - begin);
    if (std::abs(state.begin() - begin) > slack || std::abs(state.end() - end) > slack)
      std::fprintf(stderr,
                   "tareador-view: warning: --range %s:%s goes past the run, which ends at %s: "
                   "showing %s to %s\n",
                   format_duration(begin).c_str(), format_duration(end).c_str(),
                   format_duration(state.traceEnd()).c_str(),
                   format_duration(state.begin()).c_str(), format_duration(state.end()).c_str());
  }
  if (options.selection) state.setSelection(options.selection->first, options.selection->second);
  return true;
}

int run_export(const Options& options) {
  try {
    // An export draws the timelines only: its task graphs are never read (laying one out
    // takes seconds to minutes for thousands of nodes).
    Loaded loaded = load_inputs(resolve_inputs(options.inputs));
    if (loaded.timelines.empty())
      throw LoadError(options.inputs.front(), 0, "no timeline to show (only task graphs)");
    for (const std::string& w : loaded.warnings)
      std::fprintf(stderr, "tareador-view: warning: %s\n", w.c_str());
    ViewState state;
    state.setTimelines(loaded.timelines);
    QString error;
    TimelineView view(&state);
    if (!apply_view_options(options, state, &error) ||
        !view.exportTo(options.export_path, options.size, &error)) {
      std::fprintf(stderr, "tareador-view: %s\n", qPrintable(error));
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tareador-view: %s\n", e.what());
    return 1;
  }
}

}  // namespace tareador::view
