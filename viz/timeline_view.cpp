#include "viz/timeline_view.h"

#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <algorithm>
#include <vector>

#include "viz/legend_strip.h"
#include "viz/timeline_canvas.h"

namespace tareador::view {

TimelineView::TimelineView(ViewState* state, QWidget* parent) : QWidget(parent), state_(state) {
  canvas_ = new TimelineCanvas(state_);
  legend_ = new LegendStrip(state_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(1);
  layout->addWidget(canvas_, 1);
  for (const PlotKind& kind : plot_kinds()) {
    plots_.push_back(new ProfilePlot(state_, kind));
    layout->addWidget(plots_.back());
  }
  layout->addWidget(legend_);
  connect(state_, &ViewState::timelinesChanged, this, &TimelineView::updateGutter);
  connect(state_, &ViewState::appearanceChanged, this, &TimelineView::updateGutter);
  updateGutter();
}

ProfilePlot* TimelineView::plot(const std::string& name) const {
  for (ProfilePlot* p : plots_)
    if (name == p->kind().name) return p;
  return nullptr;
}

// Wide enough for the longest row label and the plots' titles, within reason.
void TimelineView::updateGutter() {
  QFont font = this->font();
  font.setPixelSize(12);
  QFontMetrics metrics(font);
  int widest = 0;
  for (ProfilePlot* plot : plots_)
    widest = std::max(widest, metrics.horizontalAdvance(plot->title()));
  // Shaping a million labels takes seconds: each is estimated from its characters' advances
  // (ASCII; any other character as the widest), and the few widest are measured.
  int advance[128];
  for (int c = 0; c < 128; ++c) advance[c] = metrics.horizontalAdvance(QChar(c));
  std::vector<std::pair<int, const std::string*>> estimates;
  for (const TimelinePtr& t : state_->timelines())
    for (const std::string& label : t->labels(state_->rowLevel())) {
      int estimate = 0;
      for (unsigned char c : label)
        estimate += c < 128 ? advance[c] : (c & 0xc0) == 0x80 ? 0 : metrics.maxWidth();
      estimates.emplace_back(estimate, &label);
    }
  constexpr std::size_t kMeasured = 32;
  std::size_t measured = std::min(kMeasured, estimates.size());
  std::partial_sort(estimates.begin(), estimates.begin() + static_cast<long>(measured),
                    estimates.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < measured; ++i)
    widest =
        std::max(widest, metrics.horizontalAdvance(QString::fromStdString(*estimates[i].second)));
  int gutter = std::clamp(widest + 12, 60, 220);
  canvas_->setGutter(gutter);
  for (ProfilePlot* plot : plots_) plot->setGutter(gutter);
}

bool TimelineView::exportTo(const QString& path, QSize size, QString* error) {
  QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != "png" && suffix != "svg") {
    *error = path + ": the image format is chosen by the extension: .png or .svg";
    return false;
  }
  if (!isVisible()) {  // lay the widgets out without showing them
    setAttribute(Qt::WA_DontShowOnScreen);
    show();
  }
  if (size != this->size()) resize(size);
  layout()->activate();
  if (suffix == "svg") {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle("tareador-view");
    QPainter painter;
    if (!painter.begin(&svg)) {
      *error = path + ": cannot write the file";
      return false;
    }
    render(&painter);
    painter.end();
    return true;
  }
  QImage image(size, QImage::Format_RGB32);
  image.fill(Qt::white);
  render(&image);
  QImageWriter writer(path, "png");
  if (!writer.write(image)) {
    *error = path + ": " + writer.errorString();
    return false;
  }
  return true;
}

}  // namespace tareador::view
