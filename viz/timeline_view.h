// timeline_view.h — the view the window centres and --export renders: the stacked timelines,
// the plots under them on the same time axis, and the legend.
#pragma once

#include <QWidget>

#include "viz/profile_plot.h"
#include "viz/view_state.h"

namespace tareador::view {

class LegendStrip;
class TimelineCanvas;

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(ViewState* state, QWidget* parent = nullptr);
  TimelineCanvas* canvas() const { return canvas_; }
  // The plots under the timeline, one per plot_kinds() entry, in its order.
  const std::vector<ProfilePlot*>& plots() const { return plots_; }
  // The plot of the PlotKind named `name` ("cores_busy"), or nullptr.
  ProfilePlot* plot(const std::string& name) const;
  LegendStrip* legend() const { return legend_; }

  // Renders the view at `size` pixels to a PNG or an SVG file (by its extension); the message
  // says why when it cannot.
  bool exportTo(const QString& path, QSize size, QString* error);

 private:
  void updateGutter();

  ViewState* state_;
  TimelineCanvas* canvas_;
  std::vector<ProfilePlot*> plots_;
  LegendStrip* legend_;
};

}  // namespace tareador::view
