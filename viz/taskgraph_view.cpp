#include "taskgraph_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <cmath>

namespace tareador::view {

TaskGraphView::TaskGraphView(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(200, 150);
}

void TaskGraphView::setGraph(std::shared_ptr<const TaskGraph> graph, std::map<std::string, QColor> type_colours) {
  graph_ = std::move(graph);
  colours_ = std::move(type_colours);
  selected_ = -1;
  fitted_ = false;
  fit();
}

void TaskGraphView::setSelected(std::int64_t node) {
  selected_ = node;
  update();
}

void TaskGraphView::fit() {
  if (!graph_ || graph_->nodes.empty() || width() <= 0) return;
  double margin = 10;
  scale_ = std::min((width() - 2 * margin) / std::max(1.0, graph_->width),
                    (height() - 2 * margin) / std::max(1.0, graph_->height));
  scale_ = std::min(scale_, 2.0);
  offset_ = QPointF((width() - graph_->width * scale_) / 2, (height() - graph_->height * scale_) / 2);
  fitted_ = true;
  update();
}

QPointF TaskGraphView::toWidget(Point p) const { return offset_ + QPointF(p.x, p.y) * scale_; }

std::int64_t TaskGraphView::nodeAt(QPointF at) const {
  if (!graph_) return -1;
  for (std::size_t i = 0; i < graph_->nodes.size(); ++i) {
    const TaskGraph::Node& n = graph_->nodes[i];
    QPointF c = toWidget(n.centre);
    double dx = (at.x() - c.x()) / (n.width * scale_ / 2), dy = (at.y() - c.y()) / (n.height * scale_ / 2);
    if (n.box ? std::abs(dx) <= 1 && std::abs(dy) <= 1 : dx * dx + dy * dy <= 1) return static_cast<std::int64_t>(i);
  }
  return -1;
}

void TaskGraphView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  if (!graph_ || graph_->nodes.empty()) {
    p.setPen(Qt::darkGray);
    p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
               graph_ && !graph_->note.empty() ? QString::fromStdString(graph_->note)
                                               : tr("No task graph: a trace set shows its taskgraph.dot here"));
    return;
  }
  p.setRenderHint(QPainter::Antialiasing);
  QFont font = p.font();
  font.setPixelSize(std::max(1, static_cast<int>(std::lround(11 * scale_))));
  p.setFont(font);
  bool text = 11 * scale_ >= 5;  // unreadable below: left out
  p.setPen(QPen(QColor(80, 80, 80), std::max(0.5, scale_)));
  for (const TaskGraph::Edge& e : graph_->edges) {
    if (e.curve.empty()) continue;
    QPainterPath path(toWidget(e.curve[0]));
    for (std::size_t i = 1; i + 2 < e.curve.size(); i += 3)
      path.cubicTo(toWidget(e.curve[i]), toWidget(e.curve[i + 1]), toWidget(e.curve[i + 2]));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    if (e.arrow) {  // a head from the curve's end to the tip
      QPointF tip = toWidget(e.tip), from = toWidget(e.curve.back());
      QPointF d = tip - from;
      QPointF normal(-d.y() / 2.5, d.x() / 2.5);
      p.setBrush(QColor(80, 80, 80));
      p.drawPolygon(QPolygonF({tip, from + normal, from - normal}));
    }
    if (text && !e.label.empty()) {
      p.setPen(QColor(90, 90, 90));
      p.drawText(QRectF(toWidget(e.label_at) - QPointF(80 * scale_, 8 * scale_), QSizeF(160 * scale_, 16 * scale_)),
                 Qt::AlignCenter, QString::fromStdString(e.label));
      p.setPen(QPen(QColor(80, 80, 80), std::max(0.5, scale_)));
    }
  }
  for (std::size_t i = 0; i < graph_->nodes.size(); ++i) {
    const TaskGraph::Node& n = graph_->nodes[i];
    auto colour = colours_.find(n.type);
    QColor fill = colour != colours_.end() ? colour->second : QColor(220, 220, 220);
    QRectF box(toWidget(n.centre) - QPointF(n.width * scale_ / 2, n.height * scale_ / 2),
               QSizeF(n.width * scale_, n.height * scale_));
    bool selected = static_cast<std::int64_t>(i) == selected_;
    p.setPen(selected ? QPen(QColor(255, 120, 0), 3) : QPen(Qt::black, std::max(0.5, scale_)));
    p.setBrush(fill);
    if (n.box)
      p.drawRect(box);
    else
      p.drawEllipse(box);
    if (text) {
      p.setPen(fill.lightness() < 110 ? Qt::white : Qt::black);
      p.drawText(box, Qt::AlignCenter, QString::fromStdString(n.label));
    }
  }
}

void TaskGraphView::wheelEvent(QWheelEvent* e) {
  double factor = std::pow(1.25, e->angleDelta().y() / 120.0);
  QPointF at = e->position();
  offset_ = at - (at - offset_) * factor;
  scale_ *= factor;
  update();
  e->accept();
}

void TaskGraphView::mousePressEvent(QMouseEvent* e) {
  press_at_ = e->position();
  press_offset_ = offset_;
  dragging_ = true;
}

void TaskGraphView::mouseMoveEvent(QMouseEvent* e) {
  if (!dragging_) return;
  offset_ = press_offset_ + (e->position() - press_at_);
  update();
}

void TaskGraphView::mouseReleaseEvent(QMouseEvent* e) {
  dragging_ = false;
  if ((e->position() - press_at_).manhattanLength() < 3) {
    std::int64_t node = nodeAt(e->position());
    setSelected(node);
    if (node >= 0) emit nodeClicked(node);
  }
}

void TaskGraphView::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_Home)
    fit();
  else
    QWidget::keyPressEvent(e);
}

void TaskGraphView::resizeEvent(QResizeEvent*) {
  if (!fitted_) fit();
}

}  // namespace tareador::view
