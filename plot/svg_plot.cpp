#include "plot/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tareador::replay::svg {

namespace {

constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
constexpr std::size_t kColourCount = sizeof(kColours) / sizeof(kColours[0]);

// Room around the plotting area, pixels; on the right, the legend's (kLegendRoom for its line
// and marker, about kCharWidth per character of the longest name, at most kMaxLegend of the
// width).
constexpr double kLeft = 78, kTop = 44, kBottom = 58;
constexpr double kLegendRoom = 64, kCharWidth = 7, kMinLegend = 120, kMaxLegend = 0.45;

// Pixel coordinates: two decimals are plenty and keep the output stable.
std::string px(double v) { return fmt::format("{:.2f}", v); }

std::string tick_label(double v) {
  if (std::fabs(v) < 1e-12) return "0";
  return fmt::format("{:.6g}", v);
}

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

// One axis: its range (after padding) and how values map onto pixels.
struct Axis {
  bool log = false;
  double low = 0, high = 1;  // in data units
  double from = 0, to = 1;   // pixels of low and high

  double t(double v) const { return log ? std::log10(v) : v; }
  double pixel(double v) const { return from + (t(v) - t(low)) / (t(high) - t(low)) * (to - from); }
};

// The range of `values` (with `extra` included), padded by 4% of the span on each side in
// the axis's own space; a degenerate range is widened.
Axis make_axis(std::vector<double> values, std::optional<double> extra, bool log) {
  Axis axis;
  axis.log = log;
  if (extra && usable(*extra, log)) values.push_back(*extra);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values)
    if (usable(v, log)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (!std::isfinite(lo)) {  // nothing to show
    lo = log ? 1 : 0;
    hi = log ? 10 : 1;
  }
  if (log) {
    double a = std::log10(lo), b = std::log10(hi);
    if (b - a < 1e-9) {
      a -= 0.5;
      b += 0.5;
    }
    double pad = 0.04 * (b - a);
    axis.low = std::pow(10.0, a - pad);
    axis.high = std::pow(10.0, b + pad);
  } else {
    if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {
      double half = lo == 0 ? 1.0 : std::fabs(lo) * 0.5;
      lo -= half;
      hi += half;
    }
    double pad = 0.04 * (hi - lo);
    axis.low = lo - pad;
    axis.high = hi + pad;
  }
  return axis;
}

enum class Marker { Circle, Square, Triangle, Diamond };

// The style of the series at `position` in its plot.
std::size_t style_of(const Series& s, std::size_t position) {
  return s.style >= 0 ? static_cast<std::size_t>(s.style) : position;
}
const char* colour_of(const Series& s, std::size_t position) {
  return kColours[style_of(s, position) % kColourCount];
}
Marker marker_of(const Series& s, std::size_t position) {
  return static_cast<Marker>(style_of(s, position) % 4);
}

std::string marker(Marker shape, double x, double y, const char* colour) {
  constexpr double r = 3.6;
  switch (shape) {
    case Marker::Circle:
      return fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>", px(x), px(y), px(r),
                         colour);
    case Marker::Square:
      return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                         px(x - r), px(y - r), px(2 * r), px(2 * r), colour);
    case Marker::Triangle:
      return fmt::format("<path d=\"M{},{}L{},{}L{},{}Z\" fill=\"{}\"/>", px(x), px(y - r * 1.2),
                         px(x + r * 1.1), px(y + r * 0.8), px(x - r * 1.1), px(y + r * 0.8),
                         colour);
    case Marker::Diamond:
      return fmt::format("<path d=\"M{},{}L{},{}L{},{}L{},{}Z\" fill=\"{}\"/>", px(x),
                         px(y - r * 1.3), px(x + r), px(y), px(x), px(y + r * 1.3), px(x - r),
                         px(y), colour);
  }
  return {};
}

}  // namespace

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;  // XML 1.0
    }
  }
  return out;
}

std::vector<double> ticks(double low, double high, bool log) {
  std::vector<double> out;
  if (!(high > low)) return out;
  if (log) {
    int first = static_cast<int>(std::floor(std::log10(low) + 1e-9));
    int last = static_cast<int>(std::ceil(std::log10(high) - 1e-9));
    int decades = last - first;
    std::vector<double> multiples =
        decades <= 2 ? std::vector<double>{1, 2, 5} : std::vector<double>{1};
    int stride = std::max(1, (decades + 7) / 8);  // at most about 8 labelled decades
    for (int d = first; d <= last; ++d) {
      if ((d - first) % stride != 0) continue;
      for (double m : multiples) {
        // Exact decimal values (1e-3 rather than 0.0010000000000000002).
        double v = std::stod(fmt::format("{}e{}", m, d));
        if (v >= low * (1 - 1e-12) && v <= high * (1 + 1e-12)) out.push_back(v);
      }
    }
    if (out.size() < 2) {  // less than a decade without a round number: the ends, rounded
      out.clear();
      out.push_back(std::stod(fmt::format("{:.2g}", low * 1.02)));
      out.push_back(std::stod(fmt::format("{:.2g}", high / 1.02)));
      if (!(out[0] < out[1])) out.pop_back();
    }
    return out;
  }
  double raw = (high - low) / 6;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double norm = raw / magnitude;
  double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  for (double k = std::ceil(low / step - 1e-9); k * step <= high + step * 1e-9; k += 1) {
    double v = k * step;
    if (std::fabs(v) < step * 1e-9) v = 0;
    out.push_back(std::stod(fmt::format("{:.12g}", v)));
  }
  return out;
}

std::string render(const Plot& plot) {
  const double width = plot.width, height = plot.height;
  std::vector<double> xs, ys;
  for (const Series& s : plot.series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    for (std::size_t i = 0; i < s.y.size() && i < s.x.size(); ++i)
      if (usable(s.x[i], plot.log_x)) ys.push_back(s.y[i]);
  }
  Axis x = make_axis(xs, std::nullopt, plot.log_x);
  Axis y = make_axis(ys, plot.guide_y, plot.log_y);
  std::size_t longest = 0;
  for (const Series& s : plot.series) longest = std::max(longest, s.name.size());
  const double legend =
      std::min(std::max(kMinLegend, kLegendRoom + kCharWidth * static_cast<double>(longest)),
               kMaxLegend * width);
  x.from = kLeft;
  x.to = width - legend;
  y.from = height - kBottom;
  y.to = kTop;

  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" font-family=\"sans-serif\" font-size=\"12\">\n",
      plot.width, plot.height, plot.width, plot.height);
  out += "<title>" + escape(plot.title) + "</title>\n";
  out +=
      fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", plot.width, plot.height);
  out += fmt::format(
      "<text class=\"title\" x=\"{}\" y=\"24\" text-anchor=\"middle\" "
      "font-size=\"15\">{}</text>\n",
      px((x.from + x.to) / 2), escape(plot.title));

  // Grid and ticks.
  out += "<g class=\"axes\" stroke=\"#000\" stroke-width=\"1\">\n";
  for (double v : ticks(x.low, x.high, x.log)) {
    double p = x.pixel(v);
    out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>\n",
                       px(p), px(y.to), px(y.from));
    out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", px(p), px(y.from),
                       px(y.from + 5));
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" stroke=\"none\">{}</text>\n",
                       px(p), px(y.from + 18), escape(tick_label(v)));
  }
  for (double v : ticks(y.low, y.high, y.log)) {
    double p = y.pixel(v);
    out += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" stroke=\"#e4e4e4\"/>\n",
                       px(p), px(x.from), px(x.to));
    out += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\"/>\n", px(p),
                       px(x.from - 5), px(x.from));
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" stroke=\"none\">{}</text>\n",
                       px(x.from - 8), px(p + 4), escape(tick_label(v)));
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\"/>\n",
                     px(x.from), px(y.to), px(x.to - x.from), px(y.from - y.to));
  out += "</g>\n";
  out += fmt::format("<text class=\"x-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     px((x.from + x.to) / 2), px(height - 14), escape(plot.x_label));
  out += fmt::format(
      "<text class=\"y-label\" x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 {0} {1})\">{2}</text>\n",
      px(18), px((y.from + y.to) / 2), escape(plot.y_label));
  if (plot.guide_y && usable(*plot.guide_y, y.log))
    out += fmt::format(
        "<line class=\"guide\" x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" "
        "stroke=\"#888\" stroke-dasharray=\"5,4\"/>\n",
        px(y.pixel(*plot.guide_y)), px(x.from), px(x.to));

  // The series: a path per unbroken run of points, then the markers.
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const Series& s = plot.series[k];
    const char* colour = colour_of(s, k);
    Marker shape = marker_of(s, k);
    out += fmt::format("<g class=\"series\" data-name=\"{}\">\n", escape(s.name));
    std::string d;
    bool pen_down = false;
    std::string markers;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!usable(s.x[i], x.log) || !usable(s.y[i], y.log)) {
        pen_down = false;
        continue;
      }
      double px_ = x.pixel(s.x[i]), py_ = y.pixel(s.y[i]);
      d += fmt::format("{}{},{}", pen_down ? "L" : "M", px(px_), px(py_));
      pen_down = true;
      markers += marker(shape, px_, py_, colour) + "\n";
    }
    if (!d.empty() && s.lines)
      out += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", d,
                         colour);
    out += markers;
    out += "</g>\n";
  }

  // The legend, right of the plot.
  out += "<g class=\"legend\">\n";
  double lx = x.to + 16, ly = y.to + 8;
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const char* colour = colour_of(plot.series[k], k);
    double row = ly + 20.0 * static_cast<double>(k);
    if (plot.series[k].lines)
      out += fmt::format(
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
          "stroke-width=\"2\"/>\n",
          px(lx), px(row), px(lx + 28), px(row), colour);
    out += marker(marker_of(plot.series[k], k), lx + 14, row, colour) + "\n";
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", px(lx + 36), px(row + 4),
                       escape(plot.series[k].name));
  }
  out += "</g>\n</svg>\n";
  return out;
}

}  // namespace tareador::replay::svg
