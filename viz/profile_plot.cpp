#include "viz/profile_plot.h"

#include <QPainter>
#include <cmath>

namespace tareador::view {

QColor timeline_colour(std::size_t i) { return QColor::fromRgb(0xff000000u | value_color(i + 1)); }

const std::vector<PlotKind>& plot_kinds() {
  static const std::vector<PlotKind> kinds = {
      {"cores_busy", QT_TRANSLATE_NOOP("ProfilePlot", "cores busy"), &Timeline::cores_busy, 1},
      {"bandwidth", QT_TRANSLATE_NOOP("ProfilePlot", "network MB/s"), &Timeline::bandwidth,
       1e9 / 1048576.0},  // bytes/ns to MB/s
      {"in_flight", QT_TRANSLATE_NOOP("ProfilePlot", "msgs in flight"), &Timeline::in_flight, 1},
  };
  return kinds;
}

ProfilePlot::ProfilePlot(ViewState* state, const PlotKind& kind, QWidget* parent)
    : QWidget(parent), state_(state), kind_(kind) {
  setFixedHeight(64);
  auto repaint = [this] { update(); };
  connect(state_, &ViewState::timelinesChanged, this, repaint);
  connect(state_, &ViewState::rangeChanged, this, repaint);
  connect(state_, &ViewState::selectionChanged, this, repaint);
}

void ProfilePlot::setGutter(int pixels) {
  gutter_ = pixels;
  update();
}

QString ProfilePlot::title() const { return tr(kind_.title); }

std::vector<double> ProfilePlot::values(int timeline) const {
  const Timeline& t = *state_->timelines().at(static_cast<std::size_t>(timeline));
  const Profile& profile = t.*kind_.profile;
  int columns = std::max(1, width() - gutter_);
  std::vector<double> values(static_cast<std::size_t>(columns));
  profile.averages(state_->begin(), state_->end(), columns, values.data());
  for (double& v : values) v *= kind_.scale;
  return values;
}

void ProfilePlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  QRectF plot(gutter_, 4, width() - gutter_, height() - 8);
  p.setPen(QColor(200, 200, 200));
  p.drawRect(plot.adjusted(0, 0, -1, 0));
  QFont font = p.font();
  font.setPixelSize(11);
  p.setFont(font);
  p.setPen(Qt::black);
  p.drawText(QRectF(2, 0, gutter_ - 6, height()), Qt::AlignRight | Qt::AlignVCenter, title());
  const std::vector<TimelinePtr>& timelines = state_->timelines();
  if (timelines.empty()) return;
  std::vector<std::vector<double>> curves;
  double top = 0;
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    curves.push_back(values(static_cast<int>(i)));
    for (double v : curves.back()) top = std::max(top, v);
  }
  // A round top for the scale: 1, 2 or 5 times a power of ten.
  double power = top > 0 ? std::pow(10, std::floor(std::log10(top))) : 1;
  double scale_top = power;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= top) {
      scale_top = m * power;
      break;
    }
  p.setPen(QColor(90, 90, 90));
  p.drawText(QRectF(2, plot.top(), gutter_ - 6, 14), Qt::AlignRight | Qt::AlignTop,
             QString::number(scale_top, scale_top >= 1 ? 'f' : 'g', scale_top >= 1 ? 0 : 3));
  p.drawText(QRectF(2, plot.bottom() - 14, gutter_ - 6, 14), Qt::AlignRight | Qt::AlignBottom, "0");
  if (state_->hasSelection()) {
    double x0 = gutter_ + (state_->selectionBegin() - state_->begin()) /
                              (state_->end() - state_->begin()) * plot.width();
    double x1 = gutter_ + (state_->selectionEnd() - state_->begin()) /
                              (state_->end() - state_->begin()) * plot.width();
    p.fillRect(QRectF(x0, plot.top(), x1 - x0, plot.height()).intersected(plot),
               QColor(70, 130, 255, 45));
  }
  // A step per pixel column, up to where the timeline ends; a filled area when there is one
  // curve. Cosmetic pens without antialiasing: the raster engine's fast path.
  p.save();
  p.setClipRect(plot);
  for (std::size_t i = 0; i < curves.size(); ++i) {
    double last_x = gutter_ + (static_cast<double>(timelines[i]->end_time) - state_->begin()) /
                                  (state_->end() - state_->begin()) * plot.width();
    QPolygonF steps;
    for (std::size_t c = 0; c < curves[i].size() && gutter_ + static_cast<double>(c) < last_x;
         ++c) {
      double y = plot.bottom() - curves[i][c] / scale_top * plot.height();
      steps << QPointF(gutter_ + static_cast<double>(c), y) << QPointF(gutter_ + c + 1.0, y);
    }
    if (steps.isEmpty()) continue;
    QColor colour = timeline_colour(i);
    if (curves.size() == 1) {  // a rectangle per column: cheaper than a polygon of steps
      QColor fill = colour;
      fill.setAlpha(70);
      for (int k = 0; k < steps.size(); k += 2)
        p.fillRect(QRectF(steps[k].x(), steps[k].y(), 1, plot.bottom() - steps[k].y()), fill);
    }
    p.setPen(QPen(colour, 0));
    p.drawPolyline(steps);
  }
  p.restore();
}

}  // namespace tareador::view
