// timeline_canvas.h — the Gantt chart: a time ruler, then each timeline (a title and its rows)
// stacked on the shared axis, with messages drawn between rows. One widget paints everything
// from the model's level of detail: no widget or scene item per record.
#pragma once

#include <QWidget>
#include <vector>

#include "viz/view_state.h"

namespace tareador::view {

class TimelineCanvas : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kRuler = 26, kTitle = 18, kGap = 4;

  explicit TimelineCanvas(ViewState* state, QWidget* parent = nullptr);

  // The label column on the left; the plots under the canvas use the same.
  int gutter() const { return gutter_; }
  void setGutter(int pixels);

  // Geometry, in widget coordinates.
  double xOf(double time) const;
  double timeAt(double x) const;
  int plotWidth() const { return std::max(1, width() - gutter_); }
  struct Band {  // one timeline's place
    double title_top, rows_top, row_height;
    std::uint32_t rows;
  };
  std::vector<Band> bands() const;
  QRectF rowRect(int timeline, std::uint32_t row) const;
  bool rowAt(double y, int& timeline, std::uint32_t& row) const;
  Hit hitTest(QPointF at) const;
  // The state (or event-value interval) of a row at a time, as a click there would pick it.
  Hit intervalAt(int timeline, std::uint32_t row, double time) const;

  // The line drawn for each visible message of a timeline (a few per pixel column at most).
  struct MessageLine {
    std::size_t message;
    QLineF line;
  };
  std::vector<MessageLine> messageLines(int timeline) const;

 signals:
  void hovered(double time);
  void clicked(const tareador::view::Hit& hit);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void keyPressEvent(QKeyEvent*) override;
  bool event(QEvent*) override;

 private:
  void paintRuler(QPainter& p) const;
  void paintRows(QPainter& p, int timeline, const Band& band) const;
  void paintMessages(QPainter& p, int timeline) const;
  void paintMarks(QPainter& p) const;

  ViewState* state_;
  int gutter_ = 80;
  enum class Drag { None, Pan, Zoom, Select } drag_ = Drag::None;
  QPointF press_at_, drag_at_;
  double press_begin_ = 0, press_end_ = 0;
};

// Ticks of a time axis: a round step (1, 2 or 5 times a power of ten) at least `min_pixels`
// apart, and the times of the ticks within [begin, end].
struct Ticks {
  double step;
  std::vector<double> times;
};
Ticks time_ticks(double begin, double end, double pixels, double min_pixels);

}  // namespace tareador::view
