// taskgraph_view.h — the task dependency graph, laid out by Graphviz, painted zoomable (wheel
// around the cursor, drag to pan, Home to fit); a click on a task instance selects it.
#pragma once

#include <QWidget>
#include <map>
#include <memory>

#include "taskgraph.h"

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
  void fit();

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
  std::shared_ptr<const TaskGraph> graph_;
  std::map<std::string, QColor> colours_;
  std::int64_t selected_ = -1;
  double scale_ = 1;
  QPointF offset_;
  QPointF press_at_, press_offset_;
  bool dragging_ = false, fitted_ = false;
};

}  // namespace tareador::view
