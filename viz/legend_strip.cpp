#include "viz/legend_strip.h"

#include <QPainter>
#include <set>

#include "viz/profile_plot.h"

namespace tareador::view {

namespace {
constexpr int kItemHeight = 16, kSample = 14, kPadding = 4;
}

LegendStrip::LegendStrip(ViewState* state, QWidget* parent) : QWidget(parent), state_(state) {
  setFixedHeight(0);
  connect(state_, &ViewState::timelinesChanged, this, &LegendStrip::rebuild);
  connect(state_, &ViewState::appearanceChanged, this, &LegendStrip::rebuild);
  rebuild();
}

QStringList LegendStrip::names() const {
  QStringList list;
  for (const Item& item : items_) list << item.text;
  return list;
}

// Only what occurs: the entries with time in some timeline, in legend order.
void LegendStrip::rebuild() {
  items_.clear();
  std::set<std::pair<std::string, std::uint32_t>> shown;
  for (const TimelinePtr& t : state_->timelines()) {
    Semantic semantic = state_->semantic(*t);
    const RowSet& rows = t->rows(state_->rowLevel(), semantic);
    RangeStatistics totals = t->statistics(state_->rowLevel(), semantic, 0, t->end_time);
    for (std::size_t k = 0; k < rows.legend.size(); ++k)
      if (totals.per_key[k] > 0 && shown.insert({rows.legend[k].name, rows.legend[k].rgb}).second)
        items_.push_back({QString::fromStdString(rows.legend[k].name),
                          QColor::fromRgb(0xff000000u | rows.legend[k].rgb), false});
  }
  if (state_->showMessages()) items_.push_back({tr("message"), QColor(20, 20, 20), true});
  if (state_->timelines().size() > 1)
    for (std::size_t i = 0; i < state_->timelines().size(); ++i)
      items_.push_back({tr("%1 (plots)").arg(QString::fromStdString(state_->timelines()[i]->name)),
                        timeline_colour(i), true});
  setFixedHeight(heightForWidth(width()));
  update();
}

std::vector<QRect> LegendStrip::place(int width) const {
  std::vector<QRect> places;
  QFontMetrics metrics(font());
  int x = kPadding, y = kPadding;
  for (const Item& item : items_) {
    int w = kSample + 4 + metrics.horizontalAdvance(item.text) + 14;
    if (x > kPadding && x + w > width) {
      x = kPadding;
      y += kItemHeight;
    }
    places.emplace_back(x, y, w, kItemHeight);
    x += w;
  }
  return places;
}

int LegendStrip::heightForWidth(int width) const {
  std::vector<QRect> places = place(width);
  return places.empty() ? 0 : places.back().bottom() + 1 + kPadding;
}

void LegendStrip::resizeEvent(QResizeEvent*) {
  int wanted = heightForWidth(width());
  if (wanted != height()) setFixedHeight(wanted);
}

void LegendStrip::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  std::vector<QRect> places = place(width());
  for (std::size_t i = 0; i < items_.size(); ++i) {
    const Item& item = items_[i];
    QRect sample(places[i].left(), places[i].top() + 2, kSample, kItemHeight - 5);
    if (item.line) {
      p.setPen(QPen(item.colour, 2));
      p.drawLine(sample.left(), sample.center().y(), sample.right(), sample.center().y());
    } else {
      p.fillRect(sample, item.colour);
      p.setPen(QColor(120, 120, 120));
      p.drawRect(sample.adjusted(0, 0, -1, -1));
    }
    p.setPen(Qt::black);
    p.drawText(QRect(sample.right() + 4, places[i].top(), places[i].width(), kItemHeight),
               Qt::AlignLeft | Qt::AlignVCenter, item.text);
  }
}

}  // namespace tareador::view
