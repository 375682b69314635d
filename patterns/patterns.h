// patterns.h — the production and consumption patterns of a trace set's messages (SPEC 3.4,
// thesis 5.4.2, Table 5.1 and Fig. 5.11), read from the `patterns.N.txt` files the Valgrind tool
// writes with --overlap=yes (docs/trace-format.md), and the report `tareador-patterns` makes of
// them (docs/patterns.md):
//
// - per transfer, the metrics of Table 5.1: for a send, the fraction of its production interval
//   needed to produce the first element, a quarter, half and the whole message; for a receive,
//   the fraction of its consumption interval that can pass upon reception of nothing, a quarter
//   and half of the message;
// - their averages per application and per rank, per transfer and weighted by bytes, and their
//   medians;
// - patterns.json, patterns.csv, a text summary in the layout of Table 5.1, and two SVG plots:
//   the scatter of Fig. 5.11 and the distribution of the metrics over the transfers.
//
// Everything is deterministic: the same set gives the same bytes out.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace tareador::patterns {

enum class Direction { Send, Recv };
const char* direction_name(Direction d);  // "send", "recv"

// The metrics of one direction, by index: a send has four (kProduction), a receive three
// (kConsumption). Values are fractions of the interval (0..1); the text summary shows percents.
inline constexpr std::array<const char*, 4> kProductionMetrics = {"first", "quarter", "half",
                                                                  "whole"};
inline constexpr std::array<const char*, 3> kConsumptionMetrics = {"nothing", "quarter", "half"};
// Their values for the ideal (linear) pattern, as the thesis gives them (Table 5.1).
inline constexpr std::array<double, 4> kIdealProduction = {0, 0.25, 0.5, 1};
inline constexpr std::array<double, 3> kIdealConsumption = {0, 0.25, 0.5};
std::size_t metric_count(Direction d);  // 4 or 3
const char* metric_name(Direction d, std::size_t i);

// One `send` or `recv` line of a patterns.N.txt file.
struct Transfer {
  int rank = 0;
  Direction direction = Direction::Send;
  int peer = 0;
  std::int64_t tag = 0;
  std::int64_t comm = 0;
  std::int64_t bytes = 0;
  std::uint64_t interval = 0;  // instructions
  // Per part of the buffer, in address order: the fraction of the interval at which the part
  // was last written (send) or first read (recv); negative when it was not (`-`).
  std::vector<double> parts;
  std::array<double, 4> metrics{};  // see kProductionMetrics / kConsumptionMetrics
  std::uint64_t line = 0;           // line in its file
};

// The number of parts a message of `bytes` bytes is divided into: min(64, bytes / 8), at least 1
// (docs/trace-format.md).
std::size_t part_count(std::int64_t bytes);

// Production metrics of a send's parts (thesis Table 5.1a). A part not written in the interval
// counts as produced at its start (0). With the parts' times sorted, s[0..k-1]: the first element
// is produced at s[0], a quarter of the message at s[ceil(k/4)-1] (the moment at least a quarter
// of the parts hold their final value), half at s[ceil(k/2)-1], the whole at s[k-1].
std::array<double, 4> production_metrics(const std::vector<double>& parts);
// Consumption metrics of a receive's parts (Table 5.1b). A part never read counts as needed at
// the end (1). Parts are assumed to arrive in the order they are first needed; with the
// first-load times sorted, s[0..k-1], receiving m parts lets the receiver pass until s[m] (1
// when m = k): nothing (m = 0) until s[0], a quarter (m = floor(k/4), the parts held entirely
// within a quarter of the bytes) until s[floor(k/4)], half until s[floor(k/2)]. Index 3 is 0.
std::array<double, 4> consumption_metrics(const std::vector<double>& parts);

// Averages of one direction over a group of transfers.
struct Average {
  std::size_t transfers = 0;
  std::int64_t bytes = 0;
  std::size_t parts = 0, missing_parts = 0;  // parts in all, parts not written / not read
  std::array<double, 4> mean{};              // mean over transfers (each transfer counts once)
  std::array<double, 4> weighted{};  // mean weighted by each transfer's bytes (NaN: no bytes)
  std::array<double, 4> median{};    // median over transfers (mean of the two middle ones)
};

Average average(const std::vector<const Transfer*>& transfers, Direction d);

struct RankPatterns {
  int rank = 0;
  std::string file;  // its patterns.N.txt (empty when the rank has none)
  int chunks = 0;    // the header's chunks= (the tool's --chunks), 0 if absent
  Average send, recv;
};

struct Report {
  std::string dir;                    // the trace set
  std::string name;                   // application name (manifest)
  int ranks = 0;                      // ranks of the set (manifest)
  std::vector<Transfer> transfers;    // by rank, then in file order
  std::vector<RankPatterns> by_rank;  // only the ranks with a patterns file, increasing
  Average send, recv;                 // the application
  std::vector<std::string> notes;     // e.g. "rank 3 has no patterns.3.txt"
};

// Reads one patterns.N.txt file (throws trace::FormatError "file:line: what is wrong").
// `rank` is N: the header must name the same rank; peers must be below `ranks` (0: not checked).
// An empty file holds no transfer. `chunks` (if set) receives the header's chunks= (0: absent).
std::vector<Transfer> read_patterns_file(const std::string& path, int rank, int ranks = 0,
                                         int* chunks = nullptr);

// Reads the manifest and every patterns.N.txt of the set (ranks without one are noted) and
// computes the averages. Throws trace::FormatError; also when no rank has a patterns file.
Report read_report(const std::string& dir);

// The outputs.
nlohmann::ordered_json report_json(const Report& report, bool with_parts = true);
void write_csv(std::ostream& out, const Report& report);
std::string report_text(const Report& report);  // Table 5.1 layout

struct PlotOptions {
  std::size_t max_points = 5000;  // per panel of the scatter, after merging identical points
};
// Fig. 5.11: x = position of the part in the buffer (0..1, the part's centre), y = normalized
// time of its final store (sends, left panel) or first load (receives, right panel).
void write_scatter_svg(std::ostream& out, const Report& report, const PlotOptions& options = {});
// The distribution over transfers of each metric: cumulative fraction of transfers (y) whose
// metric is at most x, one curve per metric, sends left and receives right.
void write_distribution_svg(std::ostream& out, const Report& report);

struct OutputOptions {
  bool with_parts = true;  // the parts' times in patterns.json
  PlotOptions plot;
};
// Writes DIR/patterns.json, DIR/patterns.csv, DIR/patterns-scatter.svg and
// DIR/patterns-distribution.svg; returns the names written. Throws trace::FormatError when a
// file cannot be written.
std::vector<std::string> write_outputs(const Report& report, const OutputOptions& options = {});

}  // namespace tareador::patterns
