// profile_plot.h — a quantity over the shared time axis, under the timeline: cores busy (the
// parallelism profile), network bandwidth in use, or messages in flight; one curve per
// timeline, each pixel column the exact average over its time.
#pragma once

#include <QWidget>

#include "viz/view_state.h"

namespace tareador::view {

class ProfilePlot : public QWidget {
  Q_OBJECT
 public:
  enum class Kind { CoresBusy, Bandwidth, InFlight };
  ProfilePlot(ViewState* state, Kind kind, QWidget* parent = nullptr);
  void setGutter(int pixels);
  QString title() const;
  // The value at each pixel column of the plot for one timeline (in the plotted unit).
  std::vector<double> values(int timeline) const;

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  ViewState* state_;
  Kind kind_;
  int gutter_ = 80;
};

// The colour of the i-th timeline's curve.
QColor timeline_colour(std::size_t i);

}  // namespace tareador::view
