// command_line.h — tareador-view's options, how they set up a view, and the headless export.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "viz/view_state.h"

class QApplication;

namespace tareador::view {

struct Options {
  std::vector<std::string> inputs;
  QString export_path;  // --export: render and exit
  QString screenshot;   // --screenshot: the window, once loaded, then exit
  QSize size{1600, 900};
  std::optional<std::pair<double, double>> range, selection;  // ns
  std::optional<std::pair<std::uint32_t, double>> pick;       // (row of the stack, ns)
  RowLevel rows = RowLevel::Thread;
  QString colour_by;  // an event type's number or .pcf name; empty: states
  bool messages = true;
};

// Parses argv (exits on --help, --version and usage errors, as Qt's parser does).
Options parse_command_line(const QApplication& app);

// Applies what the options say about the view, once the timelines are in; the message says
// what is wrong (an unknown --colour-by) when it cannot.
bool apply_view_options(const Options& options, ViewState& state, QString* error);

// --export: loads, renders, writes; the exit status (1 with file:line on stderr if an input is
// bad).
int run_export(const Options& options);

}  // namespace tareador::view
