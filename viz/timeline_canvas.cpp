#include "viz/timeline_canvas.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "viz/describe.h"

namespace tareador::view {

namespace {

const QColor kBackground(255, 255, 255);
const QColor kTitleBackground(238, 240, 244);
const QColor kMessageColour(20, 20, 20);
const QColor kHighlightColour(255, 120, 0);
const QColor kSelectionColour(70, 130, 255, 45);
const QColor kEventColour(0, 110, 0);

// Rows thinner than this have no gap between them and no events drawn.
constexpr double kDetailedRow = 6;

QRgb rgb_of(std::uint32_t colour) { return 0xff000000u | colour; }

// The colours of a row set's keys.
std::vector<QRgb> colours_of(const RowSet& rows) {
  std::vector<QRgb> colours;
  for (const LegendEntry& entry : rows.legend) colours.push_back(rgb_of(entry.rgb));
  return colours;
}

// Pixel rows [top, bottom) of row `row` of a band: rounded edges, so rows tile exactly.
std::pair<int, int> row_pixels(const TimelineCanvas::Band& band, std::uint32_t row) {
  int top = static_cast<int>(std::lround(band.rows_top + row * band.row_height));
  int bottom = static_cast<int>(std::lround(band.rows_top + (row + 1) * band.row_height));
  if (band.row_height >= kDetailedRow) --bottom;  // a gap between rows
  return {top, std::max(bottom, top + 1)};
}

}  // namespace

Ticks time_ticks(double begin, double end, double pixels, double min_pixels) {
  Ticks ticks{1, {}};
  double span = end - begin;
  if (span <= 0 || pixels <= 0) return ticks;
  double raw = span * min_pixels / pixels;
  double power = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) {
      ticks.step = m * power;
      break;
    }
  for (double t = std::ceil(begin / ticks.step) * ticks.step; t <= end; t += ticks.step)
    ticks.times.push_back(std::fabs(t) < ticks.step * 1e-9 ? 0 : t);
  return ticks;
}

TimelineCanvas::TimelineCanvas(ViewState* state, QWidget* parent) : QWidget(parent), state_(state) {
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(300, 150);
  auto repaint = [this] { update(); };
  connect(state_, &ViewState::timelinesChanged, this, repaint);
  connect(state_, &ViewState::rangeChanged, this, repaint);
  connect(state_, &ViewState::selectionChanged, this, repaint);
  connect(state_, &ViewState::highlightChanged, this, repaint);
  connect(state_, &ViewState::appearanceChanged, this, repaint);
}

void TimelineCanvas::setGutter(int pixels) {
  gutter_ = pixels;
  update();
}

double TimelineCanvas::xOf(double time) const {
  return gutter_ + (time - state_->begin()) * plotWidth() / (state_->end() - state_->begin());
}

double TimelineCanvas::timeAt(double x) const {
  return state_->begin() + (x - gutter_) * (state_->end() - state_->begin()) / plotWidth();
}

std::vector<TimelineCanvas::Band> TimelineCanvas::bands() const {
  const std::vector<TimelinePtr>& timelines = state_->timelines();
  std::vector<Band> result;
  if (timelines.empty()) return result;
  std::size_t rows = 0;
  for (const TimelinePtr& t : timelines) rows += t->row_count(state_->rowLevel());
  double n = static_cast<double>(timelines.size());
  double available = height() - kRuler - n * kTitle - (n - 1) * kGap;
  // All rows fit: more rows than pixels share pixel lines (paintRows draws them together).
  double row_height =
      std::max(1.0, available) / static_cast<double>(std::max<std::size_t>(rows, 1));
  double y = kRuler;
  for (const TimelinePtr& t : timelines) {
    Band band{y, y + kTitle, row_height,
              static_cast<std::uint32_t>(t->row_count(state_->rowLevel()))};
    result.push_back(band);
    y = band.rows_top + band.rows * row_height + kGap;
  }
  return result;
}

QRectF TimelineCanvas::rowRect(int timeline, std::uint32_t row) const {
  std::vector<Band> all = bands();
  const Band& band = all.at(static_cast<std::size_t>(timeline));
  auto [top, bottom] = row_pixels(band, row);
  return QRectF(gutter_, top, plotWidth(), bottom - top);
}

bool TimelineCanvas::rowAt(double y, int& timeline, std::uint32_t& row) const {
  std::vector<Band> all = bands();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Band& band = all[i];
    if (y < band.rows_top || y >= band.rows_top + band.rows * band.row_height) continue;
    timeline = static_cast<int>(i);
    row =
        std::min(band.rows - 1, static_cast<std::uint32_t>((y - band.rows_top) / band.row_height));
    return true;
  }
  return false;
}

std::vector<TimelineCanvas::MessageLine> TimelineCanvas::messageLines(int timeline) const {
  std::vector<MessageLine> lines;
  const Timeline& t = *state_->timelines().at(static_cast<std::size_t>(timeline));
  RowLevel level = state_->rowLevel();
  const Band band = bands().at(static_cast<std::size_t>(timeline));
  double t0 = state_->begin(), t1 = state_->end();
  auto [first, last] =
      t.messages_overlapping(static_cast<Time>(std::floor(t0)), static_cast<Time>(std::ceil(t1)));
  // The level of detail of messages: about kLineBudget lines at most. When more messages are
  // visible, time is cut into buckets wider than a pixel column (at least 16 of them), and each
  // bucket draws one line per pair of rows among its first `per_bucket` messages; the rest of
  // the bucket is skipped.
  constexpr double kLineBudget = 4000;
  double visible = static_cast<double>(last - first);
  double columns = std::clamp(visible / kLineBudget, 1.0, std::max(1.0, plotWidth() / 16.0));
  double buckets = plotWidth() / columns;
  std::size_t per_bucket = visible <= kLineBudget
                               ? last - first
                               : static_cast<std::size_t>(std::ceil(kLineBudget / buckets));
  double bucket_time = columns * (t1 - t0) / plotWidth();
  auto bucket_of = [&](double time) {
    return static_cast<std::int64_t>(
        std::clamp(std::floor((time - t0) / bucket_time), -1.0, buckets + 1));
  };
  auto centre = [&](std::uint32_t row) {
    auto [top, bottom] = row_pixels(band, row);
    return (top + bottom) / 2.0;
  };
  std::unordered_set<std::uint64_t> drawn;
  std::size_t i = first;
  while (i < last) {
    std::int64_t bucket = bucket_of(static_cast<double>(t.messages[i].line_begin()));
    double bucket_end = t0 + static_cast<double>(bucket + 1) * bucket_time;
    drawn.clear();
    std::size_t seen = 0;
    for (; i < last && static_cast<double>(t.messages[i].line_begin()) < bucket_end; ++i) {
      if (++seen > per_bucket) {
        auto next = std::lower_bound(t.messages.begin() + static_cast<long>(i),
                                     t.messages.begin() + static_cast<long>(last), bucket_end,
                                     [](const Message& m, double time) {
                                       return static_cast<double>(m.line_begin()) < time;
                                     });
        i = static_cast<std::size_t>(next - t.messages.begin());
        break;
      }
      const Message& m = t.messages[i];
      if (static_cast<double>(m.line_end()) < t0) continue;
      std::uint32_t from = t.message_row(m, true, level), to = t.message_row(m, false, level);
      if (from == kNoKey || to == kNoKey || from >= band.rows || to >= band.rows) continue;
      std::uint64_t key =
          (static_cast<std::uint64_t>(from) << 40) ^ (static_cast<std::uint64_t>(to) << 18) ^
          static_cast<std::uint64_t>(bucket_of(static_cast<double>(m.physical_recv)) + 1);
      if (!drawn.insert(key).second) continue;
      lines.push_back({i, QLineF(xOf(static_cast<double>(m.physical_send)), centre(from),
                                 xOf(static_cast<double>(m.physical_recv)), centre(to))});
    }
  }
  return lines;
}

Hit TimelineCanvas::hitTest(QPointF at) const {
  Hit hit;
  int timeline;
  std::uint32_t row;
  if (at.x() < gutter_ || !rowAt(at.y(), timeline, row)) return hit;
  const Timeline& t = *state_->timelines()[static_cast<std::size_t>(timeline)];
  hit.timeline = timeline;
  hit.level = state_->rowLevel();
  hit.row = row;
  hit.time = timeAt(at.x());
  // A message line within 3 pixels wins, then an event flag within 2, then the interval.
  if (state_->showMessages()) {
    double best = 3.0;
    for (const MessageLine& ml : messageLines(timeline)) {
      QPointF d = ml.line.p2() - ml.line.p1();
      double length2 = d.x() * d.x() + d.y() * d.y();
      double u = length2 > 0
                     ? std::clamp(QPointF::dotProduct(at - ml.line.p1(), d) / length2, 0.0, 1.0)
                     : 0;
      QPointF nearest = ml.line.p1() + u * d;
      double distance = std::hypot(at.x() - nearest.x(), at.y() - nearest.y());
      if (distance <= best) {
        best = distance;
        hit.kind = Hit::Message;
        hit.index = ml.message;
      }
    }
    if (hit.kind == Hit::Message) return hit;
  }
  const Band band = bands()[static_cast<std::size_t>(timeline)];
  if (band.row_height >= kDetailedRow) {
    const Events& events = t.events(hit.level)[row];
    double slack = 2 * (state_->end() - state_->begin()) / plotWidth();
    auto [first, last] =
        events.between(static_cast<Time>(hit.time - slack), static_cast<Time>(hit.time + slack));
    auto [all_first, all_last] =
        events.between(static_cast<Time>(state_->begin()), static_cast<Time>(state_->end()));
    bool drawn = all_last - all_first <= static_cast<std::size_t>(plotWidth() / 4);
    if (drawn && first < last && at.y() < rowRect(timeline, row).top() + band.row_height / 2) {
      hit.kind = Hit::Event;
      hit.index = first;
      return hit;
    }
  }
  return intervalAt(timeline, row, hit.time);
}

Hit TimelineCanvas::intervalAt(int timeline, std::uint32_t row, double time) const {
  const Timeline& t = *state_->timelines().at(static_cast<std::size_t>(timeline));
  Hit hit;
  hit.timeline = timeline;
  hit.level = state_->rowLevel();
  hit.row = row;
  hit.time = time;
  const std::vector<Intervals>& rows = t.rows(hit.level, state_->semantic(t)).intervals;
  if (row >= rows.size()) return Hit();
  std::size_t i = rows[row].at(static_cast<Time>(std::floor(time)));
  if (i < rows[row].size()) {
    hit.kind = Hit::Interval;
    hit.index = i;
  }
  return hit;
}

// ---- Painting --------------------------------------------------------------------------------

void TimelineCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), kBackground);
  if (state_->timelines().empty()) {
    p.setPen(Qt::darkGray);
    p.drawText(rect(), Qt::AlignCenter,
               tr("Open a Paraver trace (.prv) or a trace set (File > Open)"));
    return;
  }
  std::vector<Band> all = bands();
  for (std::size_t i = 0; i < all.size(); ++i) {
    paintRows(p, static_cast<int>(i), all[i]);
    if (state_->showMessages()) paintMessages(p, static_cast<int>(i));
  }
  paintRuler(p);
  paintMarks(p);
}

void TimelineCanvas::paintRuler(QPainter& p) const {
  p.fillRect(QRect(0, 0, width(), kRuler), kBackground);
  p.setPen(QColor(90, 90, 90));
  p.drawLine(gutter_, kRuler - 1, width(), kRuler - 1);
  Ticks ticks = time_ticks(state_->begin(), state_->end(), plotWidth(), 110);
  QFont font = p.font();
  font.setPixelSize(11);
  p.setFont(font);
  for (double t : ticks.times) {
    double x = xOf(t);
    p.drawLine(QPointF(x, kRuler - 7), QPointF(x, kRuler - 1));
    QString label = QString::fromStdString(format_time(t, ticks.step));
    p.drawText(QRectF(x - 60, 2, 120, kRuler - 9), Qt::AlignCenter, label);
  }
  p.drawText(QRect(4, 2, gutter_ - 8, kRuler - 4), Qt::AlignLeft | Qt::AlignVCenter,
             QString::fromStdString(format_duration(state_->end() - state_->begin())));
}

void TimelineCanvas::paintRows(QPainter& p, int timeline, const Band& band) const {
  const Timeline& t = *state_->timelines()[static_cast<std::size_t>(timeline)];
  RowLevel level = state_->rowLevel();
  const RowSet& rows = t.rows(level, state_->semantic(t));
  const std::vector<std::string>& labels = t.labels(level);
  std::vector<QRgb> colours = colours_of(rows);

  // The title band.
  QRectF title(0, band.title_top, width(), kTitle);
  p.fillRect(title, kTitleBackground);
  QFont font = p.font();
  font.setPixelSize(12);
  font.setBold(true);
  p.setFont(font);
  p.setPen(Qt::black);
  QString heading =
      QString::fromStdString(t.name) + "   " +
      tr("ends at %1")
          .arg(QString::fromStdString(format_duration(static_cast<double>(t.end_time))));
  p.drawText(title.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter, heading);

  // The rows: the level of detail gives a key per pixel column. On a raster device they go
  // into one image; vector devices (SVG) get a rectangle per run of equal colour.
  int columns = plotWidth();
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(columns));
  int band_top = static_cast<int>(std::lround(band.rows_top));
  int band_bottom = static_cast<int>(std::lround(band.rows_top + band.rows * band.row_height));
  bool raster = p.paintEngine() && p.paintEngine()->type() != QPaintEngine::SVG;
  QImage image;
  if (raster && band_bottom > band_top) {
    image = QImage(columns, band_bottom - band_top, QImage::Format_RGB32);
    image.fill(kBackground);
  }
  std::vector<QRgb> line(static_cast<std::size_t>(columns));
  std::uint32_t next = 0;
  for (std::uint32_t r = 0; r < band.rows; r = next) {
    // Rows thinner than a pixel: those starting on the same pixel line are drawn as one, each
    // column showing the state with the most time over them (as a column does over time).
    auto [top, bottom] = row_pixels(band, r);
    next = r + 1;
    while (next < band.rows && row_pixels(band, next).first < bottom) ++next;
    rows.dominant_keys(r, next, state_->begin(), state_->end(), columns, keys.data());
    auto colour = [&](std::uint32_t key) {
      return key < colours.size() ? colours[key] : kBackground.rgb();
    };
    if (raster) {
      for (int x = 0; x < columns; ++x)
        line[static_cast<std::size_t>(x)] = colour(keys[static_cast<std::size_t>(x)]);
      for (int y = std::max(top, band_top); y < std::min(bottom, band_bottom); ++y)
        std::copy(line.begin(), line.end(), reinterpret_cast<QRgb*>(image.scanLine(y - band_top)));
      continue;
    }
    for (int x = 0; x < columns;) {
      int run = x;
      while (run < columns &&
             keys[static_cast<std::size_t>(run)] == keys[static_cast<std::size_t>(x)])
        ++run;
      if (keys[static_cast<std::size_t>(x)] != kNoKey)
        p.fillRect(QRect(gutter_ + x, top, run - x, bottom - top),
                   QColor(colour(keys[static_cast<std::size_t>(x)])));
      x = run;
    }
  }
  if (raster && !image.isNull()) p.drawImage(gutter_, band_top, image);

  // Event flags, where they are few enough to tell apart.
  if (band.row_height >= kDetailedRow) {
    const std::vector<Events>& events = t.events(level);
    p.setPen(kEventColour);
    for (std::uint32_t r = 0; r < band.rows; ++r) {
      auto [first, last] =
          events[r].between(static_cast<Time>(state_->begin()), static_cast<Time>(state_->end()));
      if (last - first > static_cast<std::size_t>(columns / 4)) continue;
      auto [top, bottom] = row_pixels(band, r);
      for (std::size_t i = first; i < last; ++i) {
        double x = xOf(static_cast<double>(events[r].time[i]));
        p.drawLine(QPointF(x, top), QPointF(x, top + (bottom - top) / 3.0));
      }
    }
  }

  // Labels, as many as fit.
  font.setBold(false);
  int pixel_size = static_cast<int>(std::clamp(band.row_height * 0.8, 7.0, 12.0));
  font.setPixelSize(pixel_size);
  p.setFont(font);
  p.setPen(Qt::black);
  std::uint32_t every = std::max<std::uint32_t>(
      1, static_cast<std::uint32_t>(std::ceil((pixel_size + 2) / band.row_height)));
  QFontMetrics metrics(font);
  for (std::uint32_t r = 0; r < band.rows; r += every) {
    auto [top, bottom] = row_pixels(band, r);
    QString label =
        metrics.elidedText(QString::fromStdString(labels[r]), Qt::ElideMiddle, gutter_ - 8);
    p.drawText(QRectF(2, (top + bottom) / 2.0 - pixel_size, gutter_ - 6, 2.0 * pixel_size),
               Qt::AlignRight | Qt::AlignVCenter, label);
  }
}

void TimelineCanvas::paintMessages(QPainter& p, int timeline) const {
  std::vector<MessageLine> lines = messageLines(timeline);
  std::vector<QLineF> segments;
  segments.reserve(lines.size());
  for (const MessageLine& ml : lines) segments.push_back(ml.line);
  p.save();
  p.setClipRect(QRect(gutter_, kRuler, plotWidth(), height() - kRuler));
  p.setRenderHint(QPainter::Antialiasing, lines.size() < 5000);
  p.setPen(QPen(kMessageColour, 0));  // cosmetic: the raster engine's fast path
  p.drawLines(segments.data(), static_cast<int>(segments.size()));
  p.restore();
}

// The highlighted record, the selection and the rectangle being dragged.
void TimelineCanvas::paintMarks(QPainter& p) const {
  p.save();
  p.setClipRect(QRect(gutter_, 0, plotWidth(), height()));
  const Highlight& h = state_->highlight();
  if (h.timeline >= 0 && h.timeline < static_cast<int>(state_->timelines().size()) &&
      h.level == state_->rowLevel()) {
    QRectF row = rowRect(h.timeline, h.row);
    double x0 = xOf(static_cast<double>(h.begin)), x1 = xOf(static_cast<double>(h.end));
    if (x1 - x0 < 4) {  // still visible when it is narrower than a pixel
      double mid = (x0 + x1) / 2;
      x0 = mid - 2;
      x1 = mid + 2;
    }
    p.setPen(QPen(kHighlightColour, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(x0, row.top() - 1, x1 - x0, row.height() + 2));
  }
  if (state_->hasSelection()) {
    double x0 = xOf(state_->selectionBegin()), x1 = xOf(state_->selectionEnd());
    p.fillRect(QRectF(x0, kRuler, x1 - x0, height() - kRuler), kSelectionColour);
    p.setPen(QPen(QColor(40, 90, 220), 1));
    p.drawLine(QPointF(x0, 0), QPointF(x0, height()));
    p.drawLine(QPointF(x1, 0), QPointF(x1, height()));
    QString duration =
        QString::fromStdString(format_duration(state_->selectionEnd() - state_->selectionBegin()));
    QRectF label(std::max(x0, static_cast<double>(gutter_)), kRuler, std::max(x1 - x0, 80.0), 16);
    p.fillRect(
        QRectF(label.left(), label.top(), p.fontMetrics().horizontalAdvance(duration) + 8, 16),
        QColor(255, 255, 255, 220));
    p.drawText(label.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, duration);
  }
  if (drag_ == Drag::Zoom) {
    p.setPen(QPen(Qt::black, 1, Qt::DashLine));
    p.setBrush(QColor(0, 0, 0, 25));
    p.drawRect(QRectF(press_at_, drag_at_).normalized());
  }
  p.restore();
}

// ---- Interaction -----------------------------------------------------------------------------
// Left drag pans; right drag (or Ctrl + left) zooms to the region; Shift + left drag, or a drag
// on the ruler, selects a time range; a click picks the record under the cursor.

void TimelineCanvas::mousePressEvent(QMouseEvent* e) {
  press_at_ = drag_at_ = e->position();
  press_begin_ = state_->begin();
  press_end_ = state_->end();
  bool on_ruler = e->position().y() < kRuler;
  if (e->button() == Qt::RightButton ||
      (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ControlModifier)))
    drag_ = Drag::Zoom;
  else if (e->button() == Qt::LeftButton && (on_ruler || (e->modifiers() & Qt::ShiftModifier)))
    drag_ = Drag::Select;
  else if (e->button() == Qt::LeftButton) drag_ = Drag::Pan;
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* e) {
  drag_at_ = e->position();
  emit hovered(timeAt(e->position().x()));
  switch (drag_) {
    case Drag::Pan: {
      double shift =
          (press_at_.x() - e->position().x()) * (press_end_ - press_begin_) / plotWidth();
      state_->setRange(press_begin_ + shift, press_end_ + shift);
      break;
    }
    case Drag::Select:
      state_->setSelection(timeAt(press_at_.x()), timeAt(e->position().x()));
      break;
    case Drag::Zoom:
      update();
      break;
    case Drag::None:
      break;
  }
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* e) {
  Drag drag = std::exchange(drag_, Drag::None);
  bool moved = std::abs(e->position().x() - press_at_.x()) >= 3;
  if (drag == Drag::Zoom) {
    if (moved) {
      double a = timeAt(press_at_.x()), b = timeAt(e->position().x());
      state_->setRange(std::min(a, b), std::max(a, b));
    }
    update();
  } else if (drag == Drag::Select && !moved) {
    state_->clearSelection();
  } else if (drag == Drag::Pan && !moved) {
    emit clicked(hitTest(e->position()));
  }
}

void TimelineCanvas::wheelEvent(QWheelEvent* e) {
  QPoint delta = e->angleDelta();
  if (delta.x() != 0 || (e->modifiers() & Qt::ShiftModifier)) {
    int amount = delta.x() != 0 ? delta.x() : delta.y();
    state_->pan(-amount / 120.0 * 0.1);
  } else if (delta.y() != 0) {
    state_->zoom(std::pow(0.8, delta.y() / 120.0), timeAt(e->position().x()));
  }
  e->accept();
}

void TimelineCanvas::keyPressEvent(QKeyEvent* e) {
  double centre = (state_->begin() + state_->end()) / 2;
  switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      state_->zoom(0.5, centre);
      break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
      state_->zoom(2.0, centre);
      break;
    case Qt::Key_Left:
      state_->pan(-0.2);
      break;
    case Qt::Key_Right:
      state_->pan(0.2);
      break;
    case Qt::Key_Home:
      state_->fit();
      break;
    case Qt::Key_Escape:
      state_->clearSelection();
      state_->setHighlight(Highlight());
      break;
    default:
      QWidget::keyPressEvent(e);
      return;
  }
  e->accept();
}

bool TimelineCanvas::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    Hit hit = hitTest(help->pos());
    std::vector<Band> all = bands();
    if (hit.kind != Hit::Nothing) {
      QToolTip::showText(help->globalPos(), describe(*state_, hit, false), this);
    } else {  // on a timeline's title: where it comes from
      QToolTip::hideText();
      for (std::size_t i = 0; i < all.size(); ++i)
        if (help->pos().y() >= all[i].title_top && help->pos().y() < all[i].rows_top)
          QToolTip::showText(help->globalPos(),
                             QString::fromStdString(state_->timelines()[i]->path), this);
    }
    return true;
  }
  return QWidget::event(e);
}

}  // namespace tareador::view
