// The patterns report: reading patterns.N.txt, the metrics of thesis Table 5.1, their averages,
// patterns.json, patterns.csv and the text summary (the plots are in patterns_plot.cpp).
#include "patterns/patterns.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

#include "tareador/trace.h"

namespace fs = std::filesystem;

namespace tareador::patterns {

using trace::FormatError;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kMaxParts = 64;

// ---- Reading ---------------------------------------------------------------------------------

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// std::errc() when all of `text` is an integer of type Int; result_out_of_range when it is
// one outside the type's range.
template <typename Int>
std::errc parse_int(std::string_view text, Int& value) {
  auto [stop, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (stop != text.data() + text.size() || text.empty()) return std::errc::invalid_argument;
  return ec;
}

bool parse_real(std::string_view text, double& value) {
  if (text.empty()) return false;
  auto [stop, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && stop == text.data() + text.size() && std::isfinite(value);
}

class LineParser {
 public:
  LineParser(const std::string& path, std::uint64_t line) : path_(path), line_(line) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(path_, line_, message);
  }

  template <typename Int>
  Int integer(std::string_view text, const char* name) const {
    Int value{};
    std::errc error = parse_int(text, value);
    if (error == std::errc::result_out_of_range)
      fail(std::string("field '") + name + "' is out of range: " + trace::excerpt(text));
    if (error != std::errc())
      fail(std::string("field '") + name + "' is not an integer: " + trace::excerpt(text));
    return value;
  }

  template <typename Int>
  Int count(std::string_view text, const char* name) const {
    if (!text.empty() && text.front() == '-')
      fail(std::string("field '") + name + "' is negative: " + trace::excerpt(text));
    return integer<Int>(text, name);
  }

 private:
  const std::string& path_;
  std::uint64_t line_;
};

// "# tareador patterns v1 rank=0 chunks=4"
void parse_header(const LineParser& p, std::string_view line, int rank, int* chunks) {
  std::vector<std::string_view> f = split(line);
  if (f.size() < 3 || f[0] != "#" || f[1] != "tareador" || f[2] != "patterns")
    p.fail("not a patterns file: the first line must be '# tareador patterns v1 rank=N chunks=C'");
  if (f.size() < 4 || f[3].size() < 2 || f[3][0] != 'v') p.fail("the header has no version (v1)");
  if (f[3] != "v1")
    p.fail("patterns version " + trace::clipped(f[3].substr(1)) +
           " is not supported (this reader knows version 1)");
  bool have_rank = false;
  for (std::size_t i = 4; i < f.size(); ++i) {
    std::size_t eq = f[i].find('=');
    if (eq == std::string_view::npos)
      p.fail("header field " + trace::excerpt(f[i]) + " is not KEY=VALUE");
    std::string_view key = f[i].substr(0, eq), value = f[i].substr(eq + 1);
    if (key == "rank") {
      int r = p.count<int>(value, "rank");
      if (r != rank)
        p.fail("the header says rank " + std::to_string(r) + " but the file is rank " +
               std::to_string(rank) + "'s");
      have_rank = true;
    } else if (key == "chunks") {
      int c = p.count<int>(value, "chunks");
      if (chunks) *chunks = c;
    }  // other keys: later additions that do not change what the records mean
  }
  if (!have_rank) p.fail("the header has no rank=N");
}

}  // namespace

const char* direction_name(Direction d) { return d == Direction::Send ? "send" : "recv"; }

std::size_t metric_count(Direction d) { return d == Direction::Send ? 4 : 3; }

const char* metric_name(Direction d, std::size_t i) {
  return d == Direction::Send ? kProductionMetrics[i] : kConsumptionMetrics[i];
}

std::size_t part_count(std::int64_t bytes) {
  if (bytes < 8) return 1;
  return static_cast<std::size_t>(std::min<std::int64_t>(kMaxParts, bytes / 8));
}

std::array<double, 4> production_metrics(const std::vector<double>& parts) {
  std::vector<double> s;
  s.reserve(parts.size());
  for (double t : parts) s.push_back(t < 0 ? 0.0 : t);
  std::sort(s.begin(), s.end());
  std::array<double, 4> m{};
  if (s.empty()) return {kNaN, kNaN, kNaN, kNaN};
  std::size_t k = s.size();
  m[0] = s[0];
  m[1] = s[(k + 3) / 4 - 1];  // ceil(k / 4) parts produced
  m[2] = s[(k + 1) / 2 - 1];  // ceil(k / 2)
  m[3] = s[k - 1];
  return m;
}

std::array<double, 4> consumption_metrics(const std::vector<double>& parts) {
  std::vector<double> s;
  s.reserve(parts.size());
  for (double t : parts) s.push_back(t < 0 ? 1.0 : t);
  std::sort(s.begin(), s.end());
  if (s.empty()) return {kNaN, kNaN, kNaN, 0};
  std::size_t k = s.size();
  auto passed = [&](std::size_t received) { return received < k ? s[received] : 1.0; };
  return {passed(0), passed(k / 4), passed(k / 2), 0};
}

std::vector<Transfer> read_patterns_file(const std::string& path, int rank, int ranks,
                                         int* chunks) {
  trace::InputFile input = trace::open_input_file(path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(::fdopen(input.fd, "rb"), std::fclose);
  if (!in) {
    ::close(input.fd);
    throw FormatError(path, 0, "cannot be read: " + trace::system_error_text(errno));
  }
  if (chunks) *chunks = 0;
  std::vector<Transfer> out;
  char* data = nullptr;  // getline's buffer
  std::size_t capacity = 0;
  struct Free {
    char*& data;
    ~Free() { std::free(data); }
  } free_data{data};
  std::uint64_t number = 0;
  for (;;) {
    ssize_t length = ::getline(&data, &capacity, in.get());
    if (length < 0) break;
    ++number;
    std::string_view line(data, static_cast<std::size_t>(length));
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LineParser p(path, number);
    if (number == 1) {
      parse_header(p, line, rank, chunks);
      continue;
    }
    std::vector<std::string_view> f = split(line);
    if (f.empty() || f[0].front() == '#') continue;
    Transfer t;
    t.rank = rank;
    t.line = number;
    if (f[0] == "send") t.direction = Direction::Send;
    else if (f[0] == "recv") t.direction = Direction::Recv;
    else p.fail("unknown record " + trace::excerpt(f[0]) + " (expected send or recv)");
    static constexpr const char* kNames[] = {"PEER", "TAG", "COMM", "BYTES", "INTERVAL", "T1"};
    if (f.size() < 7) p.fail(std::string("missing field '") + kNames[f.size() - 1] + "'");
    t.peer = p.count<int>(f[1], "PEER");
    if (ranks > 0 && t.peer >= ranks)
      p.fail("peer " + std::to_string(t.peer) + " is not a rank of the set (" +
             std::to_string(ranks) + (ranks == 1 ? " rank)" : " ranks)"));
    t.tag = p.integer<std::int64_t>(f[2], "TAG");
    t.comm = p.integer<std::int64_t>(f[3], "COMM");
    t.bytes = p.count<std::int64_t>(f[4], "BYTES");
    t.interval = p.count<std::uint64_t>(f[5], "INTERVAL");
    std::size_t k = part_count(t.bytes);
    if (f.size() - 6 != k)
      p.fail(std::to_string(t.bytes) + " bytes make " + std::to_string(k) + " part" +
             (k == 1 ? "" : "s") + " (min(64, BYTES / 8), at least 1) but the line has " +
             std::to_string(f.size() - 6) + " time" + (f.size() - 6 == 1 ? "" : "s"));
    t.parts.reserve(k);
    for (std::size_t i = 0; i < k; ++i) {
      std::string_view v = f[6 + i];
      if (v == "-") {
        t.parts.push_back(-1);
        continue;
      }
      double x = 0;
      if (!parse_real(v, x))
        p.fail("T" + std::to_string(i + 1) +
               " is not a fraction of the interval or '-': " + trace::excerpt(v));
      if (x < 0 || x > 1)
        p.fail("T" + std::to_string(i + 1) + " is " + trace::clipped(v) +
               ", outside the interval (0 to 1)");
      t.parts.push_back(x);
    }
    t.metrics =
        t.direction == Direction::Send ? production_metrics(t.parts) : consumption_metrics(t.parts);
    out.push_back(std::move(t));
  }
  if (std::ferror(in.get())) throw FormatError(path, number, "read error");
  return out;
}

Average average(const std::vector<const Transfer*>& transfers, Direction d) {
  Average a;
  std::size_t n = metric_count(d);
  std::array<double, 4> sum{}, weighted{};
  std::array<std::vector<double>, 4> values;
  for (const Transfer* t : transfers) {
    if (t->direction != d) continue;
    ++a.transfers;
    a.bytes += t->bytes;
    a.parts += t->parts.size();
    for (double x : t->parts) a.missing_parts += x < 0;
    for (std::size_t i = 0; i < n; ++i) {
      sum[i] += t->metrics[i];
      weighted[i] += t->metrics[i] * static_cast<double>(t->bytes);
      values[i].push_back(t->metrics[i]);
    }
  }
  for (std::size_t i = 0; i < 4; ++i) {
    if (i >= n || a.transfers == 0) {
      a.mean[i] = a.weighted[i] = a.median[i] = kNaN;
      continue;
    }
    a.mean[i] = sum[i] / static_cast<double>(a.transfers);
    a.weighted[i] = a.bytes > 0 ? weighted[i] / static_cast<double>(a.bytes) : kNaN;
    std::vector<double>& v = values[i];
    std::sort(v.begin(), v.end());
    std::size_t m = v.size() / 2;
    a.median[i] = v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
  }
  return a;
}

// ---- The set ---------------------------------------------------------------------------------

namespace {

// `dir`, checked to be a directory.
std::string set_directory(const std::string& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error))
    throw FormatError(
        dir, 0,
        fs::exists(dir, error) ? "not a directory (a trace set is one)" : "no such directory");
  return dir;
}

}  // namespace

Report read_report(const std::string& dir) {
  trace::SetManifest manifest = trace::read_set_manifest(set_directory(dir), true);
  Report r;
  r.dir = dir;
  r.name = manifest.name;
  r.ranks = manifest.ranks;
  for (int rank = 0; rank < r.ranks; ++rank) {
    std::string path = trace::set_files::patterns(dir, rank);
    std::string name = fs::path(path).filename().string();
    std::error_code error;
    if (!fs::exists(path, error)) {
      r.notes.push_back("rank " + std::to_string(rank) + " has no " + name);
      continue;
    }
    RankPatterns rp;
    rp.rank = rank;
    rp.file = name;
    std::vector<Transfer> transfers = read_patterns_file(path, rank, r.ranks, &rp.chunks);
    for (Transfer& t : transfers) r.transfers.push_back(std::move(t));
    r.by_rank.push_back(rp);
  }
  if (r.by_rank.empty())
    throw FormatError(dir, 0,
                      "no patterns.N.txt in the set (the tool writes them with --overlap=yes)");
  // Files of ranks the manifest does not have.
  std::set<std::string> extra;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    std::string f = entry.path().filename().string();
    static const std::regex kPattern("patterns\\.([0-9]+)\\.txt");
    std::smatch m;
    if (std::regex_match(f, m, kPattern) && (m[1].length() > 8 || std::stol(m[1]) >= r.ranks))
      extra.insert(f);
  }
  for (const std::string& f : extra)
    r.notes.push_back(f + " ignored: the set has " + std::to_string(r.ranks) +
                      (r.ranks == 1 ? " rank" : " ranks"));
  std::vector<const Transfer*> all;
  for (const Transfer& t : r.transfers) all.push_back(&t);
  r.send = average(all, Direction::Send);
  r.recv = average(all, Direction::Recv);
  for (RankPatterns& rp : r.by_rank) {
    std::vector<const Transfer*> mine;
    for (const Transfer& t : r.transfers)
      if (t.rank == rp.rank) mine.push_back(&t);
    rp.send = average(mine, Direction::Send);
    rp.recv = average(mine, Direction::Recv);
  }
  return r;
}

// ---- patterns.json ---------------------------------------------------------------------------

namespace {

nlohmann::ordered_json number(double x) {
  if (std::isnan(x)) return nullptr;
  return x;
}

nlohmann::ordered_json metrics_json(const std::array<double, 4>& values, Direction d) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < metric_count(d); ++i) j[metric_name(d, i)] = number(values[i]);
  return j;
}

nlohmann::ordered_json average_json(const Average& a, Direction d) {
  nlohmann::ordered_json j;
  j["transfers"] = a.transfers;
  j["bytes"] = a.bytes;
  j["parts"] = a.parts;
  j[d == Direction::Send ? "parts_not_written" : "parts_not_read"] = a.missing_parts;
  j["mean"] = metrics_json(a.mean, d);
  j["bytes_weighted"] = metrics_json(a.weighted, d);
  j["median"] = metrics_json(a.median, d);
  return j;
}

}  // namespace

nlohmann::ordered_json report_json(const Report& report, bool with_parts) {
  nlohmann::ordered_json j;
  j["format"] = "tareador-patterns";
  j["version"] = 1;
  j["name"] = report.name;
  j["ranks"] = report.ranks;
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const RankPatterns& rp : report.by_rank) files.push_back(rp.file);
  j["files"] = files;
  j["notes"] = report.notes;
  nlohmann::ordered_json def;
  def["values"] = "fractions of the interval, 0 to 1 (thesis Table 5.1 shows them as percents)";
  def["send"] = {{"interval", "production interval"},
                 {"first", "needed to produce the first element (the earliest part)"},
                 {"quarter", "needed to produce a quarter of the message"},
                 {"half", "needed to produce half of the message"},
                 {"whole", "needed to produce the whole message"}};
  def["recv"] = {{"interval", "consumption interval"},
                 {"nothing", "can pass before any part is needed"},
                 {"quarter", "can pass upon reception of a quarter of the message"},
                 {"half", "can pass upon reception of half of the message"}};
  def["ideal"] = {
      {"send", metrics_json({kIdealProduction[0], kIdealProduction[1], kIdealProduction[2],
                             kIdealProduction[3]},
                            Direction::Send)},
      {"recv", metrics_json({kIdealConsumption[0], kIdealConsumption[1], kIdealConsumption[2], 0},
                            Direction::Recv)}};
  def["parts"] =
      "per part of the buffer in address order (part i of k covers positions i/k to (i+1)/k): "
      "the fraction of the interval of its last store (send) or first load (recv); null: not "
      "written / not read in the interval";
  j["metrics"] = def;
  j["application"] = {{"send", average_json(report.send, Direction::Send)},
                      {"recv", average_json(report.recv, Direction::Recv)}};
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const RankPatterns& rp : report.by_rank) {
    nlohmann::ordered_json r;
    r["rank"] = rp.rank;
    r["file"] = rp.file;
    r["chunks"] = rp.chunks;
    r["send"] = average_json(rp.send, Direction::Send);
    r["recv"] = average_json(rp.recv, Direction::Recv);
    ranks.push_back(r);
  }
  j["by_rank"] = ranks;
  nlohmann::ordered_json transfers = nlohmann::ordered_json::array();
  for (const Transfer& t : report.transfers) {
    nlohmann::ordered_json x;
    x["rank"] = t.rank;
    x["direction"] = direction_name(t.direction);
    x["peer"] = t.peer;
    x["tag"] = t.tag;
    x["comm"] = t.comm;
    x["bytes"] = t.bytes;
    x["interval"] = t.interval;
    x["line"] = t.line;
    x["metrics"] = metrics_json(t.metrics, t.direction);
    if (with_parts) {
      nlohmann::ordered_json parts = nlohmann::ordered_json::array();
      for (double p : t.parts)
        parts.push_back(p < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p));
      x["parts"] = parts;
    }
    transfers.push_back(x);
  }
  j["transfers"] = transfers;
  return j;
}

// ---- patterns.csv ----------------------------------------------------------------------------

namespace {

std::string fixed(double x, int decimals) {
  if (std::isnan(x)) return "";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, x);
  return buffer;
}

}  // namespace

void write_csv(std::ostream& out, const Report& report) {
  out << "rank,direction,peer,tag,comm,bytes,interval,parts,missing_parts,"
         "produce_first,produce_quarter,produce_half,produce_whole,"
         "pass_nothing,pass_quarter,pass_half,line\n";
  for (const Transfer& t : report.transfers) {
    std::size_t missing = 0;
    for (double p : t.parts) missing += p < 0;
    out << t.rank << ',' << direction_name(t.direction) << ',' << t.peer << ',' << t.tag << ','
        << t.comm << ',' << t.bytes << ',' << t.interval << ',' << t.parts.size() << ',' << missing;
    if (t.direction == Direction::Send) {
      for (std::size_t i = 0; i < 4; ++i) out << ',' << fixed(t.metrics[i], 6);
      out << ",,,";
    } else {
      out << ",,,,";
      for (std::size_t i = 0; i < 3; ++i) out << ',' << fixed(t.metrics[i], 6);
    }
    out << ',' << t.line << '\n';
  }
}

// ---- The text summary ------------------------------------------------------------------------

namespace {

std::string bytes_text(std::int64_t bytes) {
  static const char* kUnits[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024 && unit < 4) {
    v /= 1024;
    ++unit;
  }
  char buffer[32];
  if (unit == 0) std::snprintf(buffer, sizeof buffer, "%lld B", static_cast<long long>(bytes));
  else std::snprintf(buffer, sizeof buffer, "%.1f %s", v, kUnits[unit]);
  return buffer;
}

std::string percent(double x) {
  if (std::isnan(x)) return "-";
  return fixed(100 * x, 2) + "%";
}

std::string pad(const std::string& s, std::size_t width, bool left = false) {
  if (s.size() >= width) return s;
  return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

void table(std::ostringstream& out, const Average& a, Direction d) {
  std::size_t n = metric_count(d);
  static const char* kProductionHeads[] = {"1 elem", "quarter", "half", "whole"};
  static const char* kConsumptionHeads[] = {"nothing", "quarter", "half"};
  out << pad("", 24, true) << pad("transfers", 10) << pad("bytes", 11);
  for (std::size_t i = 0; i < n; ++i)
    out << pad(d == Direction::Send ? kProductionHeads[i] : kConsumptionHeads[i], 9);
  out << "\n" << pad("  ideal", 24, true) << pad("", 21);
  for (std::size_t i = 0; i < n; ++i)
    out << pad(percent(d == Direction::Send ? kIdealProduction[i] : kIdealConsumption[i]), 9);
  out << "\n";
  if (a.transfers == 0) {
    out << "  (no " << (d == Direction::Send ? "send" : "receive") << ")\n";
    return;
  }
  const std::pair<const char*, const std::array<double, 4>*> rows[] = {
      {"  mean per transfer", &a.mean},
      {"  weighted by bytes", &a.weighted},
      {"  median", &a.median}};
  bool first = true;
  for (const auto& [label, values] : rows) {
    out << pad(label, 24, true);
    if (first) out << pad(std::to_string(a.transfers), 10) << pad(bytes_text(a.bytes), 11);
    else out << pad("", 21);
    first = false;
    for (std::size_t i = 0; i < n; ++i) out << pad(percent((*values)[i]), 9);
    out << "\n";
  }
}

}  // namespace

std::string report_text(const Report& report) {
  std::ostringstream out;
  out << "Production and consumption patterns of " << (report.name.empty() ? "?" : report.name)
      << " (" << report.dir << ")\n";
  out << report.ranks << (report.ranks == 1 ? " rank" : " ranks") << ", " << report.by_rank.size()
      << " with patterns; " << report.send.transfers << " send"
      << (report.send.transfers == 1 ? "" : "s") << " (" << report.send.missing_parts << " of "
      << report.send.parts << " parts never written), " << report.recv.transfers << " receive"
      << (report.recv.transfers == 1 ? "" : "s") << " (" << report.recv.missing_parts << " of "
      << report.recv.parts << " parts never read)\n";
  for (const std::string& n : report.notes) out << "note: " << n << "\n";
  out << "\nPotential for advancing sends (thesis Table 5.1a): percent of the production interval\n"
         "needed to produce a part of the message\n";
  table(out, report.send, Direction::Send);
  out << "\nPotential for postponing receives (thesis Table 5.1b): percent of the consumption\n"
         "interval that can pass upon reception of a part of the message\n";
  table(out, report.recv, Direction::Recv);
  if (report.by_rank.size() > 1) {
    out << "\nPer rank (mean per transfer)\n"
        << pad("rank", 6) << pad("sends", 7) << pad("1 elem", 9) << pad("quarter", 9)
        << pad("half", 9) << pad("whole", 9) << " |" << pad("recvs", 7) << pad("nothing", 9)
        << pad("quarter", 9) << pad("half", 9) << "\n";
    for (const RankPatterns& rp : report.by_rank) {
      out << pad(std::to_string(rp.rank), 6) << pad(std::to_string(rp.send.transfers), 7);
      for (std::size_t i = 0; i < 4; ++i) out << pad(percent(rp.send.mean[i]), 9);
      out << " |" << pad(std::to_string(rp.recv.transfers), 7);
      for (std::size_t i = 0; i < 3; ++i) out << pad(percent(rp.recv.mean[i]), 9);
      out << "\n";
    }
  }
  return out.str();
}

// ---- Everything, into the set ----------------------------------------------------------------

namespace {

template <typename Write>
void write_file(const std::string& path, Write write) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw FormatError(path, 0, "cannot be written");
  write(out);
  out.flush();
  if (!out) throw FormatError(path, 0, "write failed");
}

}  // namespace

std::vector<std::string> write_outputs(const Report& report, const OutputOptions& options) {
  auto path = [&](const char* name) { return (fs::path(report.dir) / name).string(); };
  write_file(path("patterns.json"), [&](std::ostream& out) {
    out << report_json(report, options.with_parts).dump(1) << "\n";
  });
  write_file(path("patterns.csv"), [&](std::ostream& out) { write_csv(out, report); });
  write_file(path("patterns-scatter.svg"),
             [&](std::ostream& out) { write_scatter_svg(out, report, options.plot); });
  write_file(path("patterns-distribution.svg"),
             [&](std::ostream& out) { write_distribution_svg(out, report); });
  return {"patterns.json", "patterns.csv", "patterns-scatter.svg", "patterns-distribution.svg"};
}

}  // namespace tareador::patterns
