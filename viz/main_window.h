// main_window.h — the window: the timeline view in the centre, the details of the record
// clicked, the statistics and the task graph in docks; File and View menus, a tool bar, and the
// load's progress in the status bar.
#pragma once

#include <QMainWindow>
#include <memory>

#include "viz/command_line.h"
#include "viz/inputs.h"
#include "viz/view_state.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QTextBrowser;

namespace tareador::view {

class GraphLayouter;
class Loader;
class StatisticsPanel;
class TaskGraphView;
class TimelineView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ViewState* state() const { return state_; }
  TimelineView* view() const { return view_; }
  TaskGraphView* taskGraph() const { return graph_; }
  StatisticsPanel* statistics() const { return statistics_; }

  // Loads in the background; the options apply once the timelines are in.
  void open(const std::vector<std::string>& paths, const Options& options = Options());
  // What a load gave: the timelines at once, the task graphs once laid out in the background.
  void display(const Loaded& loaded);
  bool layingOut() const;  // task graphs are being laid out

  // A record of the timeline was clicked (details, highlight, its task in the graph).
  void pick(const Hit& hit);
  // A task-graph node was clicked (its instance in the timelines).
  void pickTask(std::int64_t node);

 signals:
  void loadFinished(bool ok);
  void graphsLaidOut(bool ok);  // after display(), once every task graph is laid out (or failed)

 private:
  void buildActions();
  void fillColourChoices();
  void openDialog(bool directory);
  void exportDialog();
  void showGraph(std::size_t index);
  void graphLaidOut(std::size_t index, std::shared_ptr<const TaskGraph> graph);

  ViewState* state_;
  TimelineView* view_;
  QTextBrowser* details_;
  StatisticsPanel* statistics_;
  TaskGraphView* graph_;
  QComboBox* graph_choice_;  // one graph per rank
  std::vector<std::shared_ptr<const TaskGraph>> graphs_;
  Loader* loader_;
  GraphLayouter* layouter_;
  QLabel* layout_status_;
  bool layout_failed_ = false;
  QProgressBar* progress_;
  QLabel* cursor_;
  QLabel* selection_;
  QComboBox* rows_;
  QComboBox* colour_by_;
  Options pending_;
};

}  // namespace tareador::view
