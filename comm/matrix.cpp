#include "comm/matrix.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string_view>

#include "tareador/trace.h"

namespace tareador::comm {

const char* quantity_name(Quantity q) { return q == Quantity::bytes ? "bytes" : "events"; }

Matrix::Matrix(std::vector<std::string> names) : labels(std::move(names)) {
  if (labels.size() > kMaxLabels)
    throw std::length_error(fmt::format("a communication matrix has at most {} labels, not {}",
                                        kMaxLabels, labels.size()));
  bytes.assign(labels.size() * labels.size(), 0.0);
  events.assign(labels.size() * labels.size(), 0.0);
}

Matrix Matrix::numbered(std::size_t n) {
  if (n > kMaxLabels)
    throw std::length_error(
        fmt::format("a communication matrix has at most {} labels, not {}", kMaxLabels, n));
  std::vector<std::string> names(n);
  for (std::size_t i = 0; i < n; ++i) names[i] = std::to_string(i);
  return Matrix(std::move(names));
}

void Matrix::add(std::size_t source, std::size_t destination, double b, double e) {
  bytes[source * size() + destination] += b;
  events[source * size() + destination] += e;
}

double Matrix::total(Quantity q) const {
  const std::vector<double>& v = values(q);
  return std::accumulate(v.begin(), v.end(), 0.0);
}

namespace {

void scale(std::vector<double>& values, Normalisation how) {
  double reference = 0;
  if (how == Normalisation::max) {
    for (double v : values) reference = std::max(reference, v);
    reference /= 100;
  } else {
    reference = std::accumulate(values.begin(), values.end(), 0.0);
  }
  if (reference > 0)
    for (double& v : values) v /= reference;
}

}  // namespace

Matrix normalised(const Matrix& m, Normalisation how) {
  Matrix out = m;
  scale(out.bytes, how);
  scale(out.events, how);
  return out;
}

double mse(const Matrix& a, const Matrix& b, Quantity q) {
  if (a.size() != b.size())
    throw std::invalid_argument(
        fmt::format("the matrices differ in size ({} and {} labels): the MSE compares equal sizes",
                    a.size(), b.size()));
  if (a.size() == 0) return 0;
  const std::vector<double>& x = a.values(q);
  const std::vector<double>& y = b.values(q);
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += (x[i] - y[i]) * (x[i] - y[i]);
  return sum / static_cast<double>(x.size());
}

// ---- CSV ------------------------------------------------------------------------------------

namespace {

constexpr std::string_view kCsvHeader = "source,destination,bytes,events";

std::string csv_field(const std::string& text) {
  if (text.find_first_of("\n\r") != std::string::npos)
    throw std::invalid_argument("a matrix label holds a line break: " + trace::excerpt(text));
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The fields of one CSV line: comma-separated, a field in double quotes may hold commas and
// doubled quotes. Throws FormatError at `where` when a quoted field is not closed.
std::vector<std::string> split_csv(std::string_view line, const std::string& path,
                                   std::uint64_t number) {
  std::vector<std::string> fields(1);
  std::size_t i = 0;
  while (i < line.size()) {
    char c = line[i++];
    if (c == ',') {
      fields.emplace_back();
    } else if (c == '"' && fields.back().empty()) {
      for (;;) {
        if (i >= line.size()) throw trace::FormatError(path, number, "unclosed quoted label");
        if (line[i] == '"' && (i + 1 >= line.size() || line[i + 1] != '"')) break;
        fields.back() += line[i];
        i += line[i] == '"' ? 2 : 1;
      }
      ++i;
      if (i < line.size() && line[i] != ',')
        throw trace::FormatError(path, number, "text after a quoted label");
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

double parse_amount(const std::string& text, const char* name, const std::string& path,
                    std::uint64_t number) {
  double value = 0;
  auto [stop, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || stop != text.data() + text.size() ||
      !std::isfinite(value) || value < 0)
    throw trace::FormatError(
        path, number,
        fmt::format("{} {} is not a non-negative number", name, trace::excerpt(text)));
  return value;
}

struct CsvRow {
  std::string source, destination;
  double bytes = 0, events = 0;
  std::uint64_t line = 0;
};

std::vector<CsvRow> read_rows(const std::string& path) {
  std::string text = trace::read_input_file(path, trace::kMaxSmallFileBytes, "a matrix CSV");
  if (std::uint64_t bad = trace::first_invalid_utf8_line(text))
    throw trace::FormatError(path, bad, "not UTF-8 text");
  std::vector<CsvRow> rows;
  std::uint64_t number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (number == 1) {
      if (line != kCsvHeader)
        throw trace::FormatError(
            path, 1, fmt::format("the header is {}, not {}", trace::excerpt(line), kCsvHeader));
      continue;
    }
    std::vector<std::string> f = split_csv(line, path, number);
    if (f.size() != 4)
      throw trace::FormatError(
          path, number,
          fmt::format("{} fields, not 4 (source,destination,bytes,events)", f.size()));
    rows.push_back({f[0], f[1], parse_amount(f[2], "bytes", path, number),
                    parse_amount(f[3], "events", path, number), number});
  }
  if (number == 0) throw trace::FormatError(path, 0, "empty: no header");
  return rows;
}

}  // namespace

void write_csv(std::ostream& out, const Matrix& m) {
  std::vector<std::string> names;
  names.reserve(m.size());
  for (const std::string& label : m.labels) names.push_back(csv_field(label));
  out << kCsvHeader << '\n';
  const std::size_t n = m.size();
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t d = 0; d < n; ++d) {
      double b = m.bytes[s * n + d], e = m.events[s * n + d];
      if (s == d || b != 0 || e != 0) out << fmt::format("{},{},{},{}\n", names[s], names[d], b, e);
    }
}

Matrix read_csv(const std::string& path) {
  std::vector<CsvRow> rows = read_rows(path);
  std::vector<std::string> labels;
  std::map<std::string, std::size_t> index;
  for (const CsvRow& row : rows) {
    if (row.source != row.destination) continue;
    if (!index.emplace(row.source, labels.size()).second)
      throw trace::FormatError(path, row.line,
                               "label " + trace::excerpt(row.source) + " has two diagonal rows");
    if (labels.size() == kMaxLabels)
      throw trace::FormatError(path, row.line, fmt::format("more than {} labels", kMaxLabels));
    labels.push_back(row.source);
  }
  Matrix m(std::move(labels));
  std::vector<bool> seen(m.size() * m.size(), false);
  for (const CsvRow& row : rows) {
    auto s = index.find(row.source), d = index.find(row.destination);
    for (auto it : {s, d})
      if (it == index.end())
        throw trace::FormatError(
            path, row.line,
            "label " + trace::excerpt(it == s ? row.source : row.destination) +
                " has no diagonal row (every label has one: LABEL,LABEL,BYTES,EVENTS)");
    std::size_t cell = s->second * m.size() + d->second;
    if (seen[cell])
      throw trace::FormatError(path, row.line,
                               "the pair " + trace::excerpt(row.source) + " -> " +
                                   trace::excerpt(row.destination) + " is given twice");
    seen[cell] = true;
    m.bytes[cell] = row.bytes;
    m.events[cell] = row.events;
  }
  return m;
}

}  // namespace tareador::comm
