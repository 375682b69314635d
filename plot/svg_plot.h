// svg_plot.h — a small SVG line-plot writer for the replayer's sweeps (no plotting dependency):
// axes with ticks and labels, linear or logarithmic axes, lines with markers, a legend and a
// title. The same plot gives the same bytes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tareador::replay::svg {

struct Series {
  std::string name;
  std::vector<double> x, y;  // same length; a point with a non-finite coordinate (or, on a
                             // logarithmic axis, one that is not positive) breaks the line
  bool lines = true;         // false: markers only (a scatter plot)
  int style = -1;            // colour and marker: the same number, the same look in every
                             // plot; -1: the series' position in the plot
};

struct Plot {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = false;
  std::vector<Series> series;
  // A dashed horizontal line across the plot (e.g. speedup 1), always inside the y range.
  std::optional<double> guide_y;
  int width = 760, height = 460;  // pixels, legend included (right of the plot, as wide as
                                  // its longest name needs)
};

// The SVG document.
std::string render(const Plot& plot);

// `text` fit for SVG (XML 1.0) text and attributes: & < > " escaped, control characters dropped.
std::string escape(const std::string& text);

// The tick positions of an axis over [low, high] (low < high): round numbers (1, 2 or 5 times a
// power of ten) on a linear axis; powers of ten on a logarithmic one, with 2 and 5 times them
// when the range spans few decades. Exposed for tests.
std::vector<double> ticks(double low, double high, bool log);

}  // namespace tareador::replay::svg
