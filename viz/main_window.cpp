#include "viz/main_window.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "viz/describe.h"
#include "viz/loader.h"
#include "viz/statistics_panel.h"
#include "viz/taskgraph_view.h"
#include "viz/timeline_canvas.h"
#include "viz/timeline_view.h"

namespace tareador::view {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Task types keep the colours the timelines give them (an event type the .pcf calls
// "Task type"); the others get distinct ones.
std::map<std::string, QColor> task_type_colours(const std::vector<TimelinePtr>& timelines,
                                                const TaskGraph& graph) {
  std::map<std::string, QColor> colours;
  for (const TimelinePtr& t : timelines)
    for (const auto& [type, name] : t->colouring_event_types())
      if (lower(name) == "task type")
        for (const LegendEntry& entry : t->rows(RowLevel::Thread, Semantic{type}).legend)
          colours.emplace(entry.name, QColor::fromRgb(0xff000000u | entry.rgb));
  std::uint64_t next = 1;
  for (const TaskGraph::Node& node : graph.nodes)
    if (!colours.count(node.type))
      colours[node.type] = QColor::fromRgb(0xff000000u | value_color(next++));
  return colours;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("tareador-view");
  state_ = new ViewState(this);
  view_ = new TimelineView(state_);
  setCentralWidget(view_);

  details_ = new QTextBrowser;
  details_->setPlaceholderText(tr("Click a state, an event or a message for its details."));
  auto* details_dock = new QDockWidget(tr("Details"), this);
  details_dock->setObjectName("details");
  details_dock->setWidget(details_);
  addDockWidget(Qt::RightDockWidgetArea, details_dock);

  graph_ = new TaskGraphView;
  graph_choice_ = new QComboBox;
  graph_choice_->hide();
  auto* graph_panel = new QWidget;
  auto* graph_layout = new QVBoxLayout(graph_panel);
  graph_layout->setContentsMargins(0, 0, 0, 0);
  graph_layout->addWidget(graph_choice_);
  graph_layout->addWidget(graph_, 1);
  auto* graph_dock = new QDockWidget(tr("Task graph"), this);
  graph_dock->setObjectName("taskgraph");
  graph_dock->setWidget(graph_panel);
  connect(graph_choice_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this](int index) { showGraph(static_cast<std::size_t>(std::max(0, index))); });
  addDockWidget(Qt::RightDockWidgetArea, graph_dock);

  statistics_ = new StatisticsPanel(state_);
  auto* statistics_dock = new QDockWidget(tr("Statistics"), this);
  statistics_dock->setObjectName("statistics");
  statistics_dock->setWidget(statistics_);
  addDockWidget(Qt::RightDockWidgetArea, statistics_dock);
  resizeDocks({details_dock, graph_dock, statistics_dock}, {380, 380, 380}, Qt::Horizontal);

  loader_ = new Loader(this);
  layouter_ = new GraphLayouter(this);
  layout_status_ = new QLabel(tr("laying out the task graph..."));
  layout_status_->hide();
  progress_ = new QProgressBar;
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(220);
  progress_->hide();
  cursor_ = new QLabel;
  selection_ = new QLabel;
  statusBar()->addWidget(cursor_, 1);
  statusBar()->addWidget(selection_, 1);
  statusBar()->addPermanentWidget(layout_status_);
  statusBar()->addPermanentWidget(progress_);

  buildActions();

  TimelineCanvas* canvas = view_->canvas();
  connect(canvas, &TimelineCanvas::clicked, this, &MainWindow::pick);
  connect(canvas, &TimelineCanvas::hovered, this, [this](double time) {
    double resolution = (state_->end() - state_->begin()) / view_->canvas()->plotWidth();
    cursor_->setText(tr("cursor %1").arg(QString::fromStdString(format_time(time, resolution))));
  });
  connect(state_, &ViewState::selectionChanged, this, [this] {
    selection_->setText(state_->hasSelection()
                            ? tr("selection %1 (statistics below)")
                                  .arg(QString::fromStdString(format_duration(
                                      state_->selectionEnd() - state_->selectionBegin())))
                            : QString());
  });
  connect(graph_, &TaskGraphView::nodeClicked, this, &MainWindow::pickTask);
  connect(loader_, &Loader::progress, this, [this](int percent) {
    progress_->show();
    progress_->setValue(percent);
  });
  connect(loader_, &Loader::loaded, this, [this](std::shared_ptr<Loaded> loaded) {
    progress_->hide();
    display(*loaded);
  });
  connect(loader_, &Loader::failed, this, [this](const QString& message) {
    progress_->hide();
    if (pending_.screenshot.isEmpty()) QMessageBox::critical(this, tr("Cannot open"), message);
    else std::fprintf(stderr, "tareador-view: %s\n", qPrintable(message));
    emit loadFinished(false);
  });
  connect(layouter_, &GraphLayouter::laidOut, this, &MainWindow::graphLaidOut);
  connect(layouter_, &GraphLayouter::failed, this, [this](std::size_t index, QString message) {
    layout_failed_ = true;
    auto note = std::make_shared<TaskGraph>(*graphs_.at(index));
    note->note = message.toStdString();
    graphLaidOut(index, note);
    if (pending_.screenshot.isEmpty()) QMessageBox::critical(this, tr("Cannot open"), message);
    else std::fprintf(stderr, "tareador-view: %s\n", qPrintable(message));
  });
  connect(layouter_, &GraphLayouter::finished, this, [this] {
    layout_status_->hide();
    emit graphsLaidOut(!layout_failed_);
  });
  resize(1600, 1000);
}

void MainWindow::buildActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open_trace =
      file->addAction(tr("&Open trace or task graph..."), this, [this] { openDialog(false); });
  open_trace->setShortcut(QKeySequence::Open);
  QAction* open_set = file->addAction(tr("Open trace &set..."), this, [this] { openDialog(true); });
  QAction* export_image = file->addAction(tr("&Export image..."), this, [this] { exportDialog(); });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

  // The canvas takes the keys itself (they work wherever the focus is in it); the menu shows
  // them after a tab.
  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* zoom_in = view->addAction(
      tr("Zoom in\t+"), this, [this] { state_->zoom(0.5, (state_->begin() + state_->end()) / 2); });
  QAction* zoom_out = view->addAction(
      tr("Zoom out\t-"), this, [this] { state_->zoom(2, (state_->begin() + state_->end()) / 2); });
  QAction* fit = view->addAction(tr("Fit\tHome"), state_, &ViewState::fit);
  zoom_in->setIconText(tr("Zoom in"));
  zoom_out->setIconText(tr("Zoom out"));
  fit->setIconText(tr("Fit"));
  QAction* messages = view->addAction(tr("Communication lines"));
  messages->setCheckable(true);
  messages->setChecked(state_->showMessages());
  connect(messages, &QAction::toggled, state_, &ViewState::setShowMessages);
  connect(state_, &ViewState::appearanceChanged, messages,
          [this, messages] { messages->setChecked(state_->showMessages()); });
  view->addSeparator();
  for (ProfilePlot* plot : view_->plots()) {
    QAction* toggle = view->addAction(tr("Plot: %1").arg(plot->title()));
    toggle->setCheckable(true);
    toggle->setChecked(true);
    connect(toggle, &QAction::toggled, plot, &QWidget::setVisible);
  }
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Mouse and keys"), this, [this] {
    QMessageBox::information(
        this, tr("Mouse and keys"),
        tr("Wheel: zoom around the cursor (Shift+wheel: pan)\n"
           "Drag: pan\nRight drag or Ctrl+drag: zoom to the region\n"
           "Shift+drag, or drag on the ruler: select a time range (duration, statistics)\n"
           "Click: details of the state, event or message\n"
           "+ / -: zoom, Left / Right: pan, Home: fit, Esc: clear the selection"));
  });

  QToolBar* tools = addToolBar(tr("Tools"));
  tools->setObjectName("tools");
  tools->addAction(open_trace);
  tools->addAction(open_set);
  tools->addAction(export_image);
  tools->addSeparator();
  tools->addAction(zoom_in);
  tools->addAction(zoom_out);
  tools->addAction(fit);
  tools->addAction(messages);
  tools->addSeparator();
  tools->addWidget(new QLabel(tr(" Rows ")));
  rows_ = new QComboBox;
  rows_->addItems({tr("threads"), tr("tasks"), tr("CPUs")});
  tools->addWidget(rows_);
  connect(rows_, qOverload<int>(&QComboBox::currentIndexChanged), state_,
          [this](int index) { state_->setRowLevel(static_cast<RowLevel>(index)); });
  tools->addWidget(new QLabel(tr(" Colour by ")));
  colour_by_ = new QComboBox;
  colour_by_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  tools->addWidget(colour_by_);
  connect(colour_by_, qOverload<int>(&QComboBox::currentIndexChanged), state_, [this](int index) {
    if (index >= 0) state_->setColourBy(colour_by_->itemData(index).toUInt());
  });
  connect(state_, &ViewState::appearanceChanged, this, [this] {
    rows_->setCurrentIndex(static_cast<int>(state_->rowLevel()));
    int index = colour_by_->findData(state_->colourBy());
    if (index >= 0) colour_by_->setCurrentIndex(index);
  });
  fillColourChoices();
}

// States, and every event type with named values of any timeline.
void MainWindow::fillColourChoices() {
  colour_by_->blockSignals(true);
  colour_by_->clear();
  colour_by_->addItem(tr("states"), 0u);
  for (const TimelinePtr& t : state_->timelines())
    for (const auto& [type, name] : t->colouring_event_types())
      if (colour_by_->findData(type) < 0) colour_by_->addItem(QString::fromStdString(name), type);
  colour_by_->setCurrentIndex(std::max(0, colour_by_->findData(state_->colourBy())));
  colour_by_->blockSignals(false);
}

void MainWindow::open(const std::vector<std::string>& paths, const Options& options) {
  pending_ = options;
  progress_->setValue(0);
  progress_->show();
  statusBar()->showMessage(tr("loading..."));
  loader_->start(paths);
}

void MainWindow::display(const Loaded& loaded) {
  statusBar()->clearMessage();
  state_->setTimelines(loaded.timelines);
  fillColourChoices();
  // Each graph shows a note until laid out: the timelines are usable meanwhile.
  graphs_.clear();
  for (const std::string& path : loaded.task_graphs) {
    auto waiting = std::make_shared<TaskGraph>();
    waiting->path = path;
    waiting->rank = static_cast<std::uint32_t>(rank_of_graph(path));
    waiting->note = tr("Laying out the task graph...").toStdString();
    graphs_.push_back(std::move(waiting));
  }
  layout_failed_ = false;
  layouter_->start(loaded.task_graphs);
  layout_status_->setVisible(layouter_->busy());
  graph_choice_->blockSignals(true);
  graph_choice_->clear();
  for (const auto& graph : graphs_) {
    graph_choice_->addItem(tr("rank %1").arg(graph->rank));
    graph_choice_->setItemData(graph_choice_->count() - 1, QString::fromStdString(graph->path),
                               Qt::ToolTipRole);
  }
  graph_choice_->setVisible(graphs_.size() > 1);
  graph_choice_->blockSignals(false);
  showGraph(0);
  QStringList names;
  for (const TimelinePtr& t : loaded.timelines) names << QString::fromStdString(t->name);
  setWindowTitle("tareador-view: " + names.join(", "));
  for (const std::string& w : loaded.warnings)
    std::fprintf(stderr, "tareador-view: warning: %s\n", w.c_str());
  if (!loaded.warnings.empty())
    statusBar()->showMessage(QString::fromStdString(loaded.warnings.front()), 10000);
  QString error;
  bool ok = apply_view_options(pending_, *state_, &error);
  if (ok && pending_.pick) {  // rows are counted down through the stacked timelines
    std::uint32_t row = pending_.pick->first;
    for (std::size_t i = 0; i < loaded.timelines.size(); ++i) {
      std::size_t rows = loaded.timelines[i]->row_count(state_->rowLevel());
      if (row < rows) {
        pick(view_->canvas()->intervalAt(static_cast<int>(i), row, pending_.pick->second));
        break;
      }
      row -= static_cast<std::uint32_t>(rows);
    }
  }
  if (!ok) {
    if (pending_.screenshot.isEmpty()) QMessageBox::warning(this, tr("Option"), error);
    else std::fprintf(stderr, "tareador-view: %s\n", qPrintable(error));
  }
  emit loadFinished(ok);
}

bool MainWindow::layingOut() const { return layouter_->busy(); }

void MainWindow::graphLaidOut(std::size_t index, std::shared_ptr<const TaskGraph> graph) {
  if (index >= graphs_.size()) return;
  graphs_[index] = std::move(graph);
  if (graph_choice_->currentIndex() == static_cast<int>(index)) showGraph(index);
}

void MainWindow::showGraph(std::size_t index) {
  if (index >= graphs_.size()) {
    graph_->setGraph(nullptr, {});
    return;
  }
  if (graph_choice_->currentIndex() != static_cast<int>(index))
    graph_choice_->setCurrentIndex(static_cast<int>(index));
  graph_->setGraph(graphs_[index], task_type_colours(state_->timelines(), *graphs_[index]));
}

void MainWindow::pick(const Hit& hit) {
  details_->setHtml(describe(*state_, hit, true));
  if (hit.kind != Hit::Interval) {
    state_->setHighlight(Highlight());
    return;
  }
  const Timeline& t = *state_->timelines()[static_cast<std::size_t>(hit.timeline)];
  const Intervals& row = t.rows(hit.level, state_->semantic(t)).intervals[hit.row];
  state_->setHighlight(
      Highlight{hit.timeline, hit.level, hit.row, row.begin(hit.index), row.end(hit.index)});
  // The task instance running there, in the graph.
  std::uint32_t type = t.task_instance_type();
  if (type == 0) return;
  std::uint32_t thread_row = hit.level == RowLevel::Thread ? hit.row : row.resource(hit.index);
  Time cursor =
      std::clamp(static_cast<Time>(hit.time), row.begin(hit.index), row.end(hit.index) - 1);
  std::uint64_t instance = value_in_force(t, thread_row, cursor, type);
  if (instance == 0) return;
  for (std::size_t g = 0; g < graphs_.size(); ++g) {
    std::int64_t node = graphs_[g]->node_of_instance(t.task_of_thread[thread_row],
                                                     static_cast<std::int64_t>(instance));
    if (node < 0) continue;
    if (graph_->graph() != graphs_[g].get()) showGraph(g);
    graph_->setSelected(node);
    return;
  }
}

void MainWindow::pickTask(std::int64_t node_index) {
  const TaskGraph::Node& node = graph_->graph()->nodes[static_cast<std::size_t>(node_index)];
  QString html = QString("<b>%1</b><br>task type %2, instance %3, rank %4<br>")
                     .arg(QString::fromStdString(node.label).toHtmlEscaped(),
                          QString::fromStdString(node.type).toHtmlEscaped())
                     .arg(node.instance)
                     .arg(node.rank);
  const std::vector<TimelinePtr>& timelines = state_->timelines();
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    std::uint32_t thread_row;
    Time begin, end;
    if (node.instance < 0 ||
        !timelines[i]->find_task_instance(node.rank, static_cast<std::uint64_t>(node.instance),
                                          thread_row, begin, end))
      continue;
    state_->setRowLevel(RowLevel::Thread);
    state_->setHighlight(Highlight{static_cast<int>(i), RowLevel::Thread, thread_row, begin, end});
    // Bring it into view, zooming out only if it does not fit.
    double width = state_->end() - state_->begin(), length = static_cast<double>(end - begin);
    if (length > 0.8 * width)
      state_->setRange(static_cast<double>(begin) - 0.1 * length,
                       static_cast<double>(end) + 0.1 * length);
    else if (static_cast<double>(begin) < state_->begin() ||
             static_cast<double>(end) > state_->end())
      state_->setRange((static_cast<double>(begin + end) - width) / 2,
                       (static_cast<double>(begin + end) + width) / 2);
    html += tr("ran in %1 on %2 from %3 for %4")
                .arg(QString::fromStdString(timelines[i]->name),
                     QString::fromStdString(timelines[i]->thread_labels[thread_row]),
                     QString::fromStdString(format_instant(static_cast<double>(begin))),
                     QString::fromStdString(format_duration(static_cast<double>(end - begin))));
    details_->setHtml(html);
    return;
  }
  details_->setHtml(
      html + tr("not in the timelines shown (they have no \"Task instance\" events for it)"));
}

void MainWindow::openDialog(bool directory) {
  std::vector<std::string> paths;
  if (directory) {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Open a trace set"));
    if (!dir.isEmpty()) paths.push_back(dir.toStdString());
  } else {
    for (const QString& path : QFileDialog::getOpenFileNames(
             this, tr("Open traces or task graphs"), QString(),
             tr("Paraver traces (*.prv);;Task graphs (*.dot);;All files (*)")))
      paths.push_back(path.toStdString());
  }
  if (!paths.empty()) open(paths);
}

void MainWindow::exportDialog() {
  QString path = QFileDialog::getSaveFileName(this, tr("Export the view"), "timeline.png",
                                              tr("PNG image (*.png);;SVG drawing (*.svg)"));
  if (path.isEmpty()) return;
  QString error;
  if (!view_->exportTo(path, view_->size(), &error))
    QMessageBox::critical(this, tr("Cannot export"), error);
}

}  // namespace tareador::view
