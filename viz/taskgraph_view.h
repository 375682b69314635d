// taskgraph_view.h — the task dependency graph, laid out by Graphviz, painted zoomable: wheel or
// +/- to zoom, drag or arrow keys to pan, Home (or the Fit button) to fit the graph to the pane,
// which it does on open and, until the graph is zoomed or panned, whenever the pane is resized.
// A click on a task instance selects it.
#pragma once

#include <QWidget>
#include <map>
#include <memory>

#include "viz/taskgraph.h"

class QToolButton;

namespace tareador::view {

class TaskGraphView : public QWidget {
  Q_OBJECT
 public:
  explicit TaskGraphView(QWidget* parent = nullptr);
  // Nodes are filled with their task type's colour (the timeline's legend, when it has them).
  void setGraph(std::shared_ptr<const TaskGraph> graph, std::map<std::string, QColor> type_colours);
  const TaskGraph* graph() const { return graph_.get(); }
  void setSelected(std::int64_t node);  // -1: none
  std::int64_t selected() const { return selected_; }
  std::int64_t nodeAt(QPointF at) const;
  QPointF toWidget(Point p) const;
  double scale() const { return scale_; }  // pixels per point
  QToolButton* fitButton() const { return fit_button_; }
  // The whole graph in the pane, centred, at most at twice its size.
  void fit();
  // Zooms by `factor` keeping the graph point under `at` in place.
  void zoom(double factor, QPointF at);

 signals:
  void nodeClicked(std::int64_t node);

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void keyPressEvent(QKeyEvent*) override;
  void resizeEvent(QResizeEvent*) override;

 private:
  void pan(QPointF by);
  double fitScale() const;

  std::shared_ptr<const TaskGraph> graph_;
  std::map<std::string, QColor> colours_;
  QToolButton* fit_button_;
  std::int64_t selected_ = -1;
  double scale_ = 1;
  QPointF offset_;
  QPointF press_at_, press_offset_;
  bool dragging_ = false;
  bool following_fit_ = true;  // fitted, and not zoomed or panned since
};

}  // namespace tareador::view
