// profile_plot.h — a quantity over the shared time axis, under the timeline: cores busy (the
// parallelism profile), network bandwidth in use, or messages in flight; one curve per
// timeline, each pixel column the exact average over its time.
#pragma once

#include <QWidget>

#include "viz/view_state.h"

namespace tareador::view {

// A quantity the plots can show: the one registry of them. The view shows one plot per entry,
// in this order, and the View menu toggles each; adding a plot is adding an entry (and the
// Profile it reads to Timeline).
struct PlotKind {
  const char* name;            // how the code and the tests refer to it
  const char* title;           // shown beside the plot and in the menu
  Profile Timeline::*profile;  // what it plots
  double scale;                // from the profile's unit to the plotted one
};
const std::vector<PlotKind>& plot_kinds();

class ProfilePlot : public QWidget {
  Q_OBJECT
 public:
  ProfilePlot(ViewState* state, const PlotKind& kind, QWidget* parent = nullptr);
  const PlotKind& kind() const { return kind_; }
  void setGutter(int pixels);
  QString title() const;
  // The value at each pixel column of the plot for one timeline (in the plotted unit).
  std::vector<double> values(int timeline) const;

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  ViewState* state_;
  const PlotKind& kind_;
  int gutter_ = 80;
};

// The colour of the i-th timeline's curve.
QColor timeline_colour(std::size_t i);

}  // namespace tareador::view
