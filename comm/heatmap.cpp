// The SVG heat map of a communication matrix (matrix.h): a grid of cells shaded by value, the
// labels, a colour bar with the range.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "comm/matrix.h"
#include "plot/svg_plot.h"

namespace tareador::comm {

namespace {

using replay::svg::escape;

struct Rgb {
  double r, g, b;
};
// The colour ramp, from the least to the most communication (light to dark, as in the paper's
// heat maps, where darker cells communicate more); zero stays white.
constexpr std::array<Rgb, 4> kColourRamp = {
    {{255, 245, 214}, {249, 195, 107}, {224, 84, 44}, {110, 11, 29}}};
constexpr std::array<Rgb, 2> kGreyRamp = {{{235, 235, 235}, {0, 0, 0}}};

template <std::size_t N>
Rgb along(const std::array<Rgb, N>& ramp, double t) {
  double at = std::clamp(t, 0.0, 1.0) * (N - 1);
  std::size_t i = std::min(static_cast<std::size_t>(at), N - 2);
  double f = at - static_cast<double>(i);
  const Rgb &a = ramp[i], &b = ramp[i + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

std::string hex(const Rgb& c) {
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 255.0))); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(c.r), byte(c.g), byte(c.b));
}

// Where a value lies on the scale, 0..1: linear from 0 to the largest cell, or logarithmic from
// the smallest non-zero cell to the largest.
struct Scale {
  bool log = false;
  double low = 0, high = 0;

  double position(double v) const {
    if (log) {
      if (high <= low) return 1;
      return (std::log10(v) - std::log10(low)) / (std::log10(high) - std::log10(low));
    }
    return high > 0 ? v / high : 0;
  }
};

Scale scale_of(const std::vector<double>& values, bool log) {
  Scale s;
  s.log = log;
  s.low = std::numeric_limits<double>::infinity();
  for (double v : values)
    if (v > 0) {
      s.low = std::min(s.low, v);
      s.high = std::max(s.high, v);
    }
  if (!std::isfinite(s.low)) s.low = 0;
  if (!log) s.low = 0;
  return s;
}

std::string shade(const HeatmapOptions& options, double t) {
  return hex(options.palette == Palette::grey ? along(kGreyRamp, t) : along(kColourRamp, t));
}

// A matrix past kMaxHeatmapCells labels a side, drawn in bands of `band` consecutive labels.
Matrix in_bands(const Matrix& m, std::size_t band) {
  const std::size_t n = m.size(), cells = (n + band - 1) / band;
  std::vector<std::string> names(cells);
  for (std::size_t k = 0; k < cells; ++k)
    names[k] = m.labels[k * band] + ".." + m.labels[std::min(n, (k + 1) * band) - 1];
  Matrix out(std::move(names));
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t d = 0; d < n; ++d)
      out.add(s / band, d / band, m.bytes[s * n + d], m.events[s * n + d]);
  return out;
}

std::string value_text(double v) { return fmt::format("{:.4g}", v); }

// A value in at most 5 characters or so, to fit in a cell: 160, 12.5k, 1.31M.
std::string cell_text(double v) {
  static constexpr std::array<std::pair<double, const char*>, 4> kUnits = {
      {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
  for (const auto& [scale, unit] : kUnits)
    if (v >= scale) return fmt::format("{:.3g}{}", v / scale, unit);
  return fmt::format("{:.3g}", v);
}

// At most `max` bytes of `label`, not cutting a UTF-8 character.
std::string shortened(const std::string& label, std::size_t max) {
  if (label.size() <= max) return label;
  while (max > 0 && (static_cast<unsigned char>(label[max]) & 0xC0) == 0x80) --max;
  return label.substr(0, max) + "...";
}

// Pixel geometry of the picture.
struct Layout {
  double cell = 0, left = 0, top = 0, grid = 0, width = 0, height = 0;
  std::size_t label_every = 1;
};

Layout layout_of(const Matrix& m) {
  Layout l;
  const std::size_t n = std::max<std::size_t>(m.size(), 1);
  l.cell = std::clamp(std::floor(560.0 / static_cast<double>(n)), 2.0, 36.0);
  l.label_every = static_cast<std::size_t>(std::ceil(13.0 / l.cell));
  std::size_t longest = 1;
  for (std::size_t i = 0; i < m.size(); i += l.label_every)
    longest = std::max(longest, m.labels[i].size());
  double label_room = std::min(170.0, 7.0 * static_cast<double>(longest)) + 10;
  l.left = 34 + label_room;
  l.top = 62 + label_room;
  l.grid = l.cell * static_cast<double>(m.size());
  l.width = l.left + std::max(l.grid, 120.0) + 130;
  l.height = l.top + std::max(l.grid, 160.0) + 24;
  return l;
}

void write_labels(std::ostream& out, const Matrix& m, const Layout& l) {
  out << "<g class=\"labels\" font-size=\"11\">\n";
  for (std::size_t i = 0; i < m.size(); i += l.label_every) {
    double mid = (static_cast<double>(i) + 0.5) * l.cell;
    std::string label = escape(shortened(m.labels[i], 24));
    out << fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
                       l.left - 6, l.top + mid + 4, label);
    out << fmt::format(
        "<text transform=\"translate({:.2f},{:.2f}) rotate(-90)\" text-anchor=\"start\">{}"
        "</text>\n",
        l.left + mid + 4, l.top - 6, label);
  }
  out << "</g>\n";
  out << fmt::format(
      "<text x=\"{:.2f}\" y=\"46\" text-anchor=\"middle\">destination (consumer)</text>\n",
      l.left + l.grid / 2);
  out << fmt::format(
      "<text transform=\"translate(16,{:.2f}) rotate(-90)\" text-anchor=\"middle\">"
      "source (producer)</text>\n",
      l.top + l.grid / 2);
}

void write_cells(std::ostream& out, const Matrix& m, const Layout& l, const Scale& scale,
                 const HeatmapOptions& options) {
  const std::size_t n = m.size();
  const std::vector<double>& values = m.values(options.quantity);
  out << fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"#ffffff\" "
      "stroke=\"#999999\"/>\n",
      l.left, l.top, l.grid, l.grid);
  out << "<g class=\"cells\">\n";
  const bool numbers = l.cell >= 30;
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t d = 0; d < n; ++d) {
      double v = values[s * n + d];
      if (v <= 0) continue;
      double t = scale.position(v), x = l.left + l.cell * d, y = l.top + l.cell * s;
      out << fmt::format(
          "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\">"
          "<title>{} -&gt; {}: {} {}</title></rect>\n",
          x, y, l.cell, l.cell, shade(options, t), escape(m.labels[s]), escape(m.labels[d]),
          value_text(v), quantity_name(options.quantity));
      if (numbers)
        out << fmt::format(
            "<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" font-size=\"9\" "
            "fill=\"{}\">{}</text>\n",
            x + l.cell / 2, y + l.cell / 2 + 3, t > 0.55 ? "#ffffff" : "#000000", cell_text(v));
    }
  out << "</g>\n";
}

// The colour bar: the ramp from the bottom (low) to the top (high), its two ends labelled.
void write_colour_bar(std::ostream& out, const Layout& l, const Scale& scale,
                      const HeatmapOptions& options) {
  const double x = l.left + std::max(l.grid, 120.0) + 22, h = std::max(l.grid, 160.0);
  out << "<defs><linearGradient id=\"ramp\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">\n";
  for (int k = 0; k <= 10; ++k)
    out << fmt::format("<stop offset=\"{:.1f}\" stop-color=\"{}\"/>\n", k / 10.0,
                       shade(options, k / 10.0));
  out << "</linearGradient></defs>\n";
  out << fmt::format(
      "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"16\" height=\"{:.2f}\" fill=\"url(#ramp)\" "
      "stroke=\"#999999\"/>\n",
      x, l.top, h);
  out << fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"11\">{}</text>\n", x + 22,
                     l.top + 10, value_text(scale.high));
  out << fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"11\">{}</text>\n", x + 22,
                     l.top + h, value_text(scale.low));
  out << fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"11\">{}{}</text>\n", x, l.top - 8,
                     quantity_name(options.quantity), scale.log ? " (log)" : "");
}

}  // namespace

void write_heatmap_svg(std::ostream& out, const Matrix& matrix, const HeatmapOptions& options) {
  std::size_t band = (matrix.size() + kMaxHeatmapCells - 1) / kMaxHeatmapCells;
  const Matrix banded = band > 1 ? in_bands(matrix, band) : Matrix();
  const Matrix& m = band > 1 ? banded : matrix;
  std::string title = options.title;
  if (band > 1) title += fmt::format(" ({} labels, in bands of {})", matrix.size(), band);
  const Layout l = layout_of(m);
  const Scale scale = scale_of(m.values(options.quantity), options.log_scale);
  out << fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"sans-serif\" font-size=\"12\">\n",
      l.width, l.height);
  out << "<title>" << escape(title) << "</title>\n";
  out << fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", l.width,
                     l.height);
  out << fmt::format(
      "<text x=\"{:.2f}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
      l.width / 2, escape(title));
  write_labels(out, m, l);
  write_cells(out, m, l, scale, options);
  write_colour_bar(out, l, scale, options);
  out << "</svg>\n";
}

}  // namespace tareador::comm
