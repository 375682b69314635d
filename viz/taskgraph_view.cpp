#include "viz/taskgraph_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tareador::view {

namespace {
constexpr double kMargin = 10;      // pixels around a fitted graph
constexpr double kMaxFitScale = 2;  // a small graph is not blown up beyond twice its size
constexpr double kMaxScale = 8;     // zooming in stops here (pixels per point)
constexpr double kZoomStep = 1.25;  // per wheel notch or key press
constexpr double kFontSize = 11;    // label text, in points of the graph
}  // namespace

TaskGraphView::TaskGraphView(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(200, 150);
  fit_button_ = new QToolButton(this);
  fit_button_->setText(tr("Fit"));
  fit_button_->setToolTip(tr("Fit the whole graph to the pane (Home)"));
  fit_button_->setFocusPolicy(Qt::NoFocus);
  fit_button_->hide();
  connect(fit_button_, &QToolButton::clicked, this, &TaskGraphView::fit);
}

void TaskGraphView::setGraph(std::shared_ptr<const TaskGraph> graph,
                             std::map<std::string, QColor> type_colours) {
  graph_ = std::move(graph);
  colours_ = std::move(type_colours);
  selected_ = -1;
  fit_button_->setVisible(graph_ && !graph_->nodes.empty());
  fit();
}

void TaskGraphView::setSelected(std::int64_t node) {
  selected_ = node;
  update();
}

double TaskGraphView::fitScale() const {
  if (!graph_) return 1;
  return std::min({(width() - 2 * kMargin) / std::max(1.0, graph_->width),
                   (height() - 2 * kMargin) / std::max(1.0, graph_->height), kMaxFitScale});
}

void TaskGraphView::fit() {
  following_fit_ = true;
  if (!graph_ || graph_->nodes.empty() || width() <= 2 * kMargin || height() <= 2 * kMargin) return;
  scale_ = fitScale();
  offset_ =
      QPointF((width() - graph_->width * scale_) / 2, (height() - graph_->height * scale_) / 2);
  update();
}

void TaskGraphView::zoom(double factor, QPointF at) {
  if (!graph_) return;
  // Between a quarter of the fitted size and kMaxScale.
  double scale = std::clamp(scale_ * factor, std::min(fitScale(), kMaxScale) / 4, kMaxScale);
  offset_ = at - (at - offset_) * (scale / scale_);
  scale_ = scale;
  following_fit_ = false;
  update();
}

void TaskGraphView::pan(QPointF by) {
  offset_ += by;
  following_fit_ = false;
  update();
}

QPointF TaskGraphView::toWidget(Point p) const { return offset_ + QPointF(p.x, p.y) * scale_; }

std::int64_t TaskGraphView::nodeAt(QPointF at) const {
  if (!graph_) return -1;
  for (std::size_t i = 0; i < graph_->nodes.size(); ++i) {
    const TaskGraph::Node& n = graph_->nodes[i];
    QPointF c = toWidget(n.centre);
    double dx = (at.x() - c.x()) / (n.width * scale_ / 2),
           dy = (at.y() - c.y()) / (n.height * scale_ / 2);
    if (n.box ? std::abs(dx) <= 1 && std::abs(dy) <= 1 : dx * dx + dy * dy <= 1)
      return static_cast<std::int64_t>(i);
  }
  return -1;
}

void TaskGraphView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  if (!graph_ || graph_->nodes.empty()) {
    p.setPen(Qt::darkGray);
    p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
               graph_ && !graph_->note.empty()
                   ? QString::fromStdString(graph_->note)
                   : tr("No task graph: a trace set shows its taskgraph.dot here"));
    return;
  }
  p.setRenderHint(QPainter::Antialiasing);
  QFont font = p.font();
  font.setPixelSize(std::max(1, static_cast<int>(std::lround(kFontSize * scale_))));
  p.setFont(font);
  bool text = kFontSize * scale_ >= 5;  // unreadable below: left out
  double line_width = std::max(0.5, scale_);
  for (const TaskGraph::Edge& e : graph_->edges) {
    if (e.curve.empty()) continue;
    QColor colour = QColor::fromRgba(e.colour);
    QPen pen(colour, line_width);
    pen.setStyle(e.line == TaskGraph::Line::Dashed   ? Qt::DashLine
                 : e.line == TaskGraph::Line::Dotted ? Qt::DotLine
                                                     : Qt::SolidLine);
    p.setPen(pen);
    QPainterPath path(toWidget(e.curve[0]));
    for (std::size_t i = 1; i + 2 < e.curve.size(); i += 3)
      path.cubicTo(toWidget(e.curve[i]), toWidget(e.curve[i + 1]), toWidget(e.curve[i + 2]));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    if (e.arrow) {  // a head from the curve's end to the tip
      QPointF tip = toWidget(e.tip), from = toWidget(e.curve.back());
      QPointF d = tip - from;
      QPointF normal(-d.y() / 2.5, d.x() / 2.5);
      p.setPen(QPen(colour, line_width));
      p.setBrush(colour);
      p.drawPolygon(QPolygonF({tip, from + normal, from - normal}));
    }
    if (text && !e.label.empty()) {
      p.setPen(QColor(90, 90, 90));
      p.drawText(QRectF(toWidget(e.label_at) - QPointF(80 * scale_, 8 * scale_),
                        QSizeF(160 * scale_, 16 * scale_)),
                 Qt::AlignCenter, QString::fromStdString(e.label));
    }
  }
  for (std::size_t i = 0; i < graph_->nodes.size(); ++i) {
    const TaskGraph::Node& n = graph_->nodes[i];
    auto colour = colours_.find(n.type);
    QColor fill = colour != colours_.end() ? colour->second : QColor(220, 220, 220);
    QRectF box(toWidget(n.centre) - QPointF(n.width * scale_ / 2, n.height * scale_ / 2),
               QSizeF(n.width * scale_, n.height * scale_));
    bool selected = static_cast<std::int64_t>(i) == selected_;
    p.setPen(selected ? QPen(QColor(255, 120, 0), 3) : QPen(Qt::black, line_width));
    p.setBrush(fill);
    if (n.box && n.rounded) p.drawRoundedRect(box, 6 * scale_, 6 * scale_);
    else if (n.box) p.drawRect(box);
    else p.drawEllipse(box);
    if (text) {
      p.setPen(fill.lightness() < 110 ? Qt::white : Qt::black);
      p.drawText(box, Qt::AlignCenter, QString::fromStdString(n.label));
    }
  }
}

void TaskGraphView::wheelEvent(QWheelEvent* e) {
  zoom(std::pow(kZoomStep, e->angleDelta().y() / 120.0), e->position());
  e->accept();
}

void TaskGraphView::mousePressEvent(QMouseEvent* e) {
  press_at_ = e->position();
  press_offset_ = offset_;
  dragging_ = true;
}

void TaskGraphView::mouseMoveEvent(QMouseEvent* e) {
  if (!dragging_) return;
  pan(press_offset_ + (e->position() - press_at_) - offset_);
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
  QPointF centre(width() / 2.0, height() / 2.0);
  double step_x = width() / 8.0, step_y = height() / 8.0;
  switch (e->key()) {
    case Qt::Key_Home:
    case Qt::Key_F:
    case Qt::Key_0:
      fit();
      break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoom(kZoomStep, centre);
      break;
    case Qt::Key_Minus:
      zoom(1 / kZoomStep, centre);
      break;
    case Qt::Key_Left:
      pan({step_x, 0});
      break;
    case Qt::Key_Right:
      pan({-step_x, 0});
      break;
    case Qt::Key_Up:
      pan({0, step_y});
      break;
    case Qt::Key_Down:
      pan({0, -step_y});
      break;
    default:
      QWidget::keyPressEvent(e);
      return;
  }
  e->accept();
}

void TaskGraphView::resizeEvent(QResizeEvent*) {
  fit_button_->adjustSize();
  fit_button_->move(width() - fit_button_->width() - 4, 4);
  if (following_fit_) fit();
}

}  // namespace tareador::view
