// matrix.h — the communication matrix of every analysis of who communicates with whom (issue 13):
// MPI ranks (replay --matrix), threads, producers and consumers. Row = source (producer), column =
// destination (consumer); per pair, the bytes and the events (messages) that went that way.
//
// Also: the normalisation and the Mean Squared Error of "Communication Detection in Shared
// Memory" (eq. 1) to compare two matrices, a CSV form (written and read back) and an SVG heat map
// (darker or hotter cells communicate more). Everything is deterministic: the same matrix gives
// the same bytes out. docs/comm-matrix.md describes the files.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace tareador::comm {

// Which of a matrix's two quantities.
enum class Quantity { bytes, events };
const char* quantity_name(Quantity q);  // "bytes", "events"

// Matrices are dense: at most this many labels (4096^2 cells of two doubles is 256 MiB).
inline constexpr std::size_t kMaxLabels = 4096;

struct Matrix {
  std::vector<std::string> labels;  // row and column names, in order (n of them)
  std::vector<double> bytes;        // n*n, row-major: [source * n + destination]
  std::vector<double> events;       // n*n, the same layout

  Matrix() = default;
  // An n-by-n matrix of zeros with these labels. Throws std::length_error past kMaxLabels.
  explicit Matrix(std::vector<std::string> labels);
  // An n-by-n matrix of zeros labelled 0 .. n-1 (MPI ranks).
  static Matrix numbered(std::size_t n);

  std::size_t size() const { return labels.size(); }
  // `bytes` bytes in `events` events from `source` to `destination` (indices < size()).
  void add(std::size_t source, std::size_t destination, double bytes, double events = 1);
  double at(Quantity q, std::size_t source, std::size_t destination) const {
    return values(q)[source * size() + destination];
  }
  const std::vector<double>& values(Quantity q) const {
    return q == Quantity::bytes ? bytes : events;
  }
  double total(Quantity q) const;
};

// How a matrix is scaled before two are compared. `max`: the paper's (Section III-D), each
// quantity scaled so that its largest cell is 100 (the MSE of two matrices then lies between 0
// and (N^2 - N) / N^2 * 100^2); `total`: each quantity divided by its total (cells are the
// fraction of all the communication). A quantity that is all zeros stays zeros.
enum class Normalisation { max, total };
Matrix normalised(const Matrix& m, Normalisation how = Normalisation::max);

// Equation 1: the mean over the N*N cells of the squared difference of `q` in `a` and `b`, as
// given (compare normalised matrices). Throws std::invalid_argument when the sizes differ.
double mse(const Matrix& a, const Matrix& b, Quantity q = Quantity::bytes);

// CSV, one row per pair: `source,destination,bytes,events`, after that header. Every label has
// its diagonal row (source = destination), in label order, which declares the labels; the other
// pairs have a row when they communicate. Row-major order. Labels are quoted when they hold a
// comma, a quote or a line break.
void write_csv(std::ostream& out, const Matrix& m);
// The matrix of a CSV written by write_csv. Throws trace::FormatError (path:line) on a malformed
// file: a wrong header, a missing field, a number that is negative or not one, a label without
// its diagonal row, a pair given twice.
Matrix read_csv(const std::string& path);

enum class Palette { colour, grey };
struct HeatmapOptions {
  Quantity quantity = Quantity::bytes;
  bool log_scale = false;  // shades by log10 of the value (between the smallest non-zero and the
                           // largest cell); linear from 0 otherwise
  Palette palette = Palette::colour;
  std::string title;
};
// The heat map as an SVG document: a cell per pair (white when zero), labels on both axes (every
// k-th when there are many), the colour scale with its range. Matrices past kMaxHeatmapCells a
// side are drawn in bands of consecutive labels (their sum), the title says so.
inline constexpr std::size_t kMaxHeatmapCells = 256;
void write_heatmap_svg(std::ostream& out, const Matrix& m, const HeatmapOptions& options);

}  // namespace tareador::comm
