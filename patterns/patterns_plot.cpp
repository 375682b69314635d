// The plots of the patterns report, written as SVG by hand (no plotting library): the scatter of
// thesis Fig. 5.11 and the distribution of the Table 5.1 metrics over the transfers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

#include "patterns/patterns.h"
#include "plot/svg_plot.h"

namespace tareador::patterns {

namespace {

// ---- A small SVG writer ----------------------------------------------------------------------

using replay::svg::escape;

std::string num(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", x);
  std::string s = buffer;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  if (s == "-0") s = "0";
  return s;
}

class Svg {
 public:
  Svg(std::ostream& out, double width, double height, const std::string& title) : out_(out) {
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
         << num(height) << "\" viewBox=\"0 0 " << num(width) << ' ' << num(height)
         << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
         << "<title>" << escape(title) << "</title>\n"
         << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  }
  ~Svg() { out_ << "</svg>\n"; }

  // anchor: start, middle, end
  void text(double x, double y, const std::string& s, const char* anchor = "start",
            double size = 12, const char* extra = "") {
    out_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" text-anchor=\"" << anchor << '"';
    if (size != 12) out_ << " font-size=\"" << num(size) << '"';
    out_ << extra << '>' << escape(s) << "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, const char* stroke, double width = 1,
            const char* extra = "") {
    out_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\""
         << num(y2) << "\" stroke=\"" << stroke << "\" stroke-width=\"" << num(width) << '"'
         << extra << "/>\n";
  }
  void rect(double x, double y, double w, double h, const char* fill, const char* stroke) {
    out_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
         << "\" height=\"" << num(h) << "\" fill=\"" << fill << "\" stroke=\"" << stroke
         << "\"/>\n";
  }
  void circle(double x, double y, double r, const char* fill, double opacity) {
    char o[16];
    std::snprintf(o, sizeof o, "%.2f", opacity);
    out_ << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"" << num(r) << "\" fill=\""
         << fill << "\" fill-opacity=\"" << o << "\"/>\n";
  }
  void polyline(const std::vector<std::pair<double, double>>& points, const char* stroke,
                double width, const char* extra = "") {
    out_ << "<polyline fill=\"none\" stroke=\"" << stroke << "\" stroke-width=\"" << num(width)
         << '"' << extra << " points=\"";
    for (std::size_t i = 0; i < points.size(); ++i)
      out_ << (i ? " " : "") << num(points[i].first) << ',' << num(points[i].second);
    out_ << "\"/>\n";
  }
  void open_group(const std::string& id) { out_ << "<g id=\"" << escape(id) << "\">\n"; }
  void close_group() { out_ << "</g>\n"; }

 private:
  std::ostream& out_;
};

// A square plot area mapping 0..1 x 0..1 to pixels (y upwards).
struct Panel {
  double left, top, size;
  double x(double v) const { return left + v * size; }
  double y(double v) const { return top + (1 - v) * size; }
};

constexpr double kWidth = 960, kHeight = 560, kPanelSize = 360, kTop = 70;
constexpr Panel kLeft{80, kTop, kPanelSize}, kRight{560, kTop, kPanelSize};

void frame(Svg& svg, const Panel& p, const std::string& title, const std::string& xlabel,
           const std::string& ylabel, bool percent_x, bool percent_y) {
  svg.rect(p.left, p.top, p.size, p.size, "white", "#444");
  for (int i = 0; i <= 4; ++i) {
    double v = i / 4.0;
    if (i > 0 && i < 4) {
      svg.line(p.x(v), p.top, p.x(v), p.top + p.size, "#e4e4e4");
      svg.line(p.left, p.y(v), p.left + p.size, p.y(v), "#e4e4e4");
    }
    static const char* kFractions[] = {"0", "0.25", "0.5", "0.75", "1"};
    static const char* kPercents[] = {"0%", "25%", "50%", "75%", "100%"};
    svg.line(p.x(v), p.top + p.size, p.x(v), p.top + p.size + 4, "#444");
    svg.text(p.x(v), p.top + p.size + 17, percent_x ? kPercents[i] : kFractions[i], "middle", 11);
    svg.line(p.left - 4, p.y(v), p.left, p.y(v), "#444");
    svg.text(p.left - 7, p.y(v) + 4, percent_y ? kPercents[i] : kFractions[i], "end", 11);
  }
  // Redraw the border over the grid.
  svg.rect(p.left, p.top, p.size, p.size, "none", "#444");
  svg.text(p.x(0.5), p.top - 10, title, "middle", 14, " font-weight=\"bold\"");
  svg.text(p.x(0.5), p.top + p.size + 36, xlabel, "middle");
  std::string rotate = " transform=\"rotate(-90 " + num(p.left - 48) + ' ' + num(p.y(0.5)) + ")\"";
  svg.text(p.left - 48, p.y(0.5), ylabel, "middle", 11, rotate.c_str());
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

const char* kSendColor = "#1f77b4";
const char* kRecvColor = "#d62728";

// ---- Fig. 5.11 -------------------------------------------------------------------------------

void scatter_panel(Svg& svg, const Panel& p, const Report& report, Direction d,
                   const PlotOptions& options) {
  bool send = d == Direction::Send;
  frame(svg, p, send ? "Production (sends)" : "Consumption (receives)",
        "position of the part in the buffer (0 = start, 1 = end)",
        send ? "time of the final store (fraction of the interval)"
             : "time of the first load (fraction of the interval)",
        false, false);
  // The ideal (linear) pattern: the part at position x is produced / first needed at x.
  svg.line(p.x(0), p.y(0), p.x(1), p.y(1), "#999", 1, " stroke-dasharray=\"5,4\"");
  // Points merged per pixel, in order of first appearance (transfers in report order, parts in
  // address order), with how many parts fell on each.
  std::map<std::pair<long, long>, std::size_t> index;
  std::vector<std::pair<std::pair<long, long>, std::size_t>> points;
  std::size_t transfers = 0, parts = 0, missing = 0;
  for (const Transfer& t : report.transfers) {
    if (t.direction != d) continue;
    ++transfers;
    std::size_t k = t.parts.size();
    for (std::size_t i = 0; i < k; ++i) {
      ++parts;
      if (t.parts[i] < 0) {
        ++missing;
        continue;
      }
      double x = (static_cast<double>(i) + 0.5) / static_cast<double>(k);
      std::pair<long, long> key{std::lround(x * p.size), std::lround(t.parts[i] * p.size)};
      auto [it, added] = index.emplace(key, points.size());
      if (added) points.push_back({key, 1});
      else ++points[it->second].second;
    }
  }
  if (transfers == 0) {
    svg.text(p.x(0.5), p.y(0.5), send ? "no sends" : "no receives", "middle", 14, " fill=\"#888\"");
    return;
  }
  std::size_t shown = points.size();
  std::vector<std::size_t> chosen;
  if (options.max_points > 0 && shown > options.max_points) {
    // Evenly spaced over the order of first appearance: deterministic.
    for (std::size_t j = 0; j < options.max_points; ++j)
      chosen.push_back(j * shown / options.max_points);
  } else {
    for (std::size_t j = 0; j < shown; ++j) chosen.push_back(j);
  }
  std::size_t most = 1;
  for (std::size_t j : chosen) most = std::max(most, points[j].second);
  svg.open_group(send ? "sends" : "receives");
  for (std::size_t j : chosen) {
    const auto& [key, count] = points[j];
    double opacity = most > 1 ? 0.3 + 0.7 * std::log(static_cast<double>(count)) /
                                          std::log(static_cast<double>(most))
                              : 0.7;
    svg.circle(p.left + static_cast<double>(key.first),
               p.top + p.size - static_cast<double>(key.second), 2.2,
               send ? kSendColor : kRecvColor, opacity);
  }
  svg.close_group();
  double y = p.top + p.size + 58;
  svg.text(p.left, y,
           plural(parts, "part", "parts") + " of " +
               plural(transfers, send ? "send" : "receive", send ? "sends" : "receives") + "; " +
               std::to_string(missing) + (send ? " never written" : " never read") + " (not shown)",
           "start", 11);
  std::string drawn = plural(chosen.size(), "point", "points") +
                      " drawn (parts on the same pixel merged: darker = more)";
  if (chosen.size() < shown) drawn += ", evenly subsampled from " + std::to_string(shown);
  svg.text(p.left, y + 15, drawn, "start", 11);
}

// ---- The distribution over transfers ---------------------------------------------------------

const char* kMetricColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"};

void distribution_panel(Svg& svg, const Panel& p, const Report& report, Direction d) {
  bool send = d == Direction::Send;
  frame(svg, p,
        send ? "Sends: when is a part of the message produced"
             : "Receives: how long can the receiver go on",
        send ? "fraction of the production interval needed"
             : "fraction of the consumption interval that can pass",
        "fraction of the transfers (cumulative)", false, false);
  std::size_t n = metric_count(d);
  std::vector<std::vector<double>> values(n);
  for (const Transfer& t : report.transfers)
    if (t.direction == d)
      for (std::size_t i = 0; i < n; ++i) values[i].push_back(t.metrics[i]);
  std::size_t transfers = values[0].size();
  static const char* kProduction[] = {"first element", "a quarter", "half", "whole message"};
  static const char* kConsumption[] = {"upon nothing", "upon a quarter", "upon half"};
  const double* ideal = send ? kIdealProduction.data() : kIdealConsumption.data();
  double legend_y = p.top + p.size + 58;
  for (std::size_t i = 0; i < n; ++i) {
    const char* color = kMetricColors[i];
    // The ideal value, as a dashed vertical line in the metric's colour.
    svg.line(p.x(ideal[i]), p.top, p.x(ideal[i]), p.top + p.size, color, 1,
             " stroke-dasharray=\"3,4\" stroke-opacity=\"0.6\"");
    double lx = p.left + static_cast<double>(i % 2) * 180;
    double ly = legend_y + static_cast<double>(i / 2) * 16;
    svg.line(lx, ly - 4, lx + 22, ly - 4, color, 2);
    svg.text(lx + 28, ly, send ? kProduction[i] : kConsumption[i], "start", 11);
    if (transfers == 0) continue;
    // The cumulative distribution as a step line; values closer than a tenth of a pixel share
    // a step, so the line stays small however many transfers there are.
    std::vector<double>& v = values[i];
    std::sort(v.begin(), v.end());
    std::vector<std::pair<double, double>> line;
    line.push_back({p.x(0), p.y(0)});
    double total = static_cast<double>(v.size());
    std::size_t j = 0;
    while (j < v.size()) {
      double x = std::round(p.x(v[j]) * 10) / 10;
      std::size_t next = j;
      while (next < v.size() && std::round(p.x(v[next]) * 10) / 10 == x) ++next;
      line.push_back({x, p.y(static_cast<double>(j) / total)});
      line.push_back({x, p.y(static_cast<double>(next) / total)});
      j = next;
    }
    line.push_back({p.x(1), p.y(1)});
    std::string id = std::string(" id=\"") + direction_name(d) + "-" + metric_name(d, i) + "\"";
    svg.polyline(line, color, 2, id.c_str());
  }
  if (transfers == 0) {
    svg.text(p.x(0.5), p.y(0.5), send ? "no sends" : "no receives", "middle", 14, " fill=\"#888\"");
    return;
  }
  svg.text(p.left, legend_y + 36,
           plural(transfers, send ? "send" : "receive", send ? "sends" : "receives") +
               "; dashed: the ideal (linear) pattern",
           "start", 11);
}

std::string title(const Report& report, const char* what) {
  return std::string(what) + (report.name.empty() ? "" : " — " + report.name);
}

}  // namespace

void write_scatter_svg(std::ostream& out, const Report& report, const PlotOptions& options) {
  std::string t = title(report, "Production and consumption patterns (thesis Fig. 5.11)");
  Svg svg(out, kWidth, kHeight, t);
  svg.text(kWidth / 2, 26, t, "middle", 16, " font-weight=\"bold\"");
  svg.text(kWidth / 2, 44,
           "each point: a part of a message's buffer; dashed: the ideal (linear) pattern", "middle",
           11, " fill=\"#555\"");
  scatter_panel(svg, kLeft, report, Direction::Send, options);
  scatter_panel(svg, kRight, report, Direction::Recv, options);
}

void write_distribution_svg(std::ostream& out, const Report& report) {
  std::string t =
      title(report, "Distribution of the patterns over the transfers (thesis Table 5.1)");
  Svg svg(out, kWidth, kHeight, t);
  svg.text(kWidth / 2, 26, t, "middle", 16, " font-weight=\"bold\"");
  svg.text(kWidth / 2, 44,
           "each curve: the share of transfers whose metric is at most x (further right is "
           "later)",
           "middle", 11, " fill=\"#555\"");
  distribution_panel(svg, kLeft, report, Direction::Send);
  distribution_panel(svg, kRight, report, Direction::Recv);
}

}  // namespace tareador::patterns
