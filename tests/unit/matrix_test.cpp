// The communication matrix (comm/matrix.h): accumulation, the two normalisations, the MSE of
// eq. 1 with hand-computed values, the CSV round trip and its bad inputs, the SVG heat map.
#include "comm/matrix.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "test_util.h"

namespace tareador {
namespace {

using comm::Matrix;
using comm::Normalisation;
using comm::Quantity;
using testing::TempDir;
using testing::xml_problem;

// 0 -> 1: 10 bytes in 1 message; 1 -> 0: 30 bytes in 3 messages.
Matrix lopsided() {
  Matrix m = Matrix::numbered(2);
  m.add(0, 1, 10);
  m.add(1, 0, 10, 1);
  m.add(1, 0, 20, 2);
  return m;
}

// 20 bytes each way, 2 messages each way.
Matrix even() {
  Matrix m = Matrix::numbered(2);
  m.add(0, 1, 20, 2);
  m.add(1, 0, 20, 2);
  return m;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Matrix, AccumulatesPerPairRowSourceColumnDestination) {
  Matrix m = lopsided();
  EXPECT_EQ(m.labels, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(m.bytes, (std::vector<double>{0, 10, 30, 0}));
  EXPECT_EQ(m.events, (std::vector<double>{0, 1, 3, 0}));
  EXPECT_EQ(m.at(Quantity::bytes, 1, 0), 30);
  EXPECT_EQ(m.total(Quantity::bytes), 40);
  EXPECT_EQ(m.total(Quantity::events), 4);
  EXPECT_THROW(Matrix::numbered(comm::kMaxLabels + 1), std::length_error);
}

TEST(Matrix, NormalisedToTheMaximumOrToTheTotal) {
  Matrix by_max = comm::normalised(lopsided());
  EXPECT_DOUBLE_EQ(by_max.bytes[1], 100.0 / 3);
  EXPECT_DOUBLE_EQ(by_max.bytes[2], 100);
  EXPECT_DOUBLE_EQ(by_max.events[1], 100.0 / 3);
  Matrix by_total = comm::normalised(lopsided(), Normalisation::total);
  EXPECT_EQ(by_total.bytes, (std::vector<double>{0, 0.25, 0.75, 0}));
  EXPECT_EQ(by_total.events, (std::vector<double>{0, 0.25, 0.75, 0}));
  // Nothing communicated stays nothing (no division by zero).
  EXPECT_EQ(comm::normalised(Matrix::numbered(3)).bytes, std::vector<double>(9, 0.0));
}

TEST(Matrix, MseIsEquationOne) {
  // Normalised to 100: a = [0 100/3; 100 0], b = [0 100; 100 0]: (200/3)^2 / 4.
  EXPECT_DOUBLE_EQ(comm::mse(comm::normalised(lopsided()), comm::normalised(even())), 10000.0 / 9);
  // By total: a = [0 .25; .75 0], b = [0 .5; .5 0]: (.0625 + .0625) / 4.
  EXPECT_DOUBLE_EQ(comm::mse(comm::normalised(lopsided(), Normalisation::total),
                             comm::normalised(even(), Normalisation::total)),
                   0.03125);
  // Events: a = [0 1; 3 0] / 4 and b = [0 2; 2 0] / 4 by total, the same here.
  EXPECT_DOUBLE_EQ(comm::mse(comm::normalised(lopsided(), Normalisation::total),
                             comm::normalised(even(), Normalisation::total), Quantity::events),
                   0.03125);
  EXPECT_EQ(comm::mse(even(), even()), 0);
}

TEST(Matrix, MseReachesThePapersBound) {
  // One pair in one matrix, every other pair equally in the other: (N^2 - N) / N^2 * 100^2.
  const std::size_t n = 4;
  Matrix single = Matrix::numbered(n), rest = Matrix::numbered(n);
  single.add(0, 1, 5);
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t d = 0; d < n; ++d)
      if (s != d && !(s == 0 && d == 1)) rest.add(s, d, 7);
  EXPECT_DOUBLE_EQ(comm::mse(comm::normalised(single), comm::normalised(rest)),
                   (16.0 - 4.0) / 16.0 * 10000);
}

TEST(Matrix, MseOfDifferentSizesIsAnError) {
  try {
    comm::mse(Matrix::numbered(2), Matrix::numbered(3));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "the matrices differ in size (2 and 3 labels): the MSE compares equal sizes");
  }
}

TEST(MatrixCsv, WritesDiagonalsAndPairsAndReadsThemBack) {
  Matrix m({"main", "worker,\"a\""});
  m.add(1, 0, 1.5, 2);
  std::ostringstream out;
  comm::write_csv(out, m);
  EXPECT_EQ(out.str(),
            "source,destination,bytes,events\n"
            "main,main,0,0\n"
            "\"worker,\"\"a\"\"\",main,1.5,2\n"
            "\"worker,\"\"a\"\"\",\"worker,\"\"a\"\"\",0,0\n");
  TempDir dir;
  Matrix back = comm::read_csv(dir.write("m.csv", out.str()));
  EXPECT_EQ(back.labels, m.labels);
  EXPECT_EQ(back.bytes, m.bytes);
  EXPECT_EQ(back.events, m.events);
}

TEST(MatrixCsv, BadInputsSayWhereAndWhat) {
  TempDir dir;
  const std::string header = "source,destination,bytes,events\n";
  struct Case {
    std::string text;
    std::uint64_t line;
    std::string message;
  };
  const Case cases[] = {
      {"src,dst,b,e\n", 1, "the header is 'src,dst,b,e', not source,destination,bytes,events"},
      {header + "a,a,0,0\na,b,1,1\n", 3,
       "label 'b' has no diagonal row (every label has one: LABEL,LABEL,BYTES,EVENTS)"},
      {header + "a,a,0,0\na,a,1,1\n", 3, "label 'a' has two diagonal rows"},
      {header + "a,a,0,0\nb,b,0,0\na,b,1,1\na,b,2,2\n", 5, "the pair 'a' -> 'b' is given twice"},
      {header + "a,a,-1,0\n", 2, "bytes '-1' is not a non-negative number"},
      {header + "a,a,0,x\n", 2, "events 'x' is not a non-negative number"},
      {header + "a,a,0\n", 2, "3 fields, not 4 (source,destination,bytes,events)"},
      {header + "\"a,a,0,0\n", 2, "unclosed quoted label"},
  };
  for (const Case& c : cases) {
    std::string path = dir.write("bad.csv", c.text);
    try {
      comm::read_csv(path);
      ADD_FAILURE() << "no error for " << c.text;
    } catch (const trace::FormatError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_EQ(e.line(), c.line) << c.text;
      EXPECT_EQ(e.message(), c.message) << c.text;
    }
  }
}

TEST(MatrixHeatmap, WellFormedWithACellPerCommunicatingPair) {
  comm::HeatmapOptions options;
  options.title = "ring <4 ranks> & more";
  std::ostringstream out;
  comm::write_heatmap_svg(out, lopsided(), options);
  const std::string svg = out.str();
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_EQ(occurrences(svg, "<title>ring &lt;4 ranks&gt; &amp; more</title>"), 1u);
  // Two cells (the zero diagonal stays white), each with its value in its tooltip.
  EXPECT_EQ(occurrences(svg, "-&gt;"), 2u);
  EXPECT_NE(svg.find("<title>0 -&gt; 1: 10 bytes</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>1 -&gt; 0: 30 bytes</title>"), std::string::npos);
  // Linear: 30 is the top of the ramp (dark), 10 a third of the way.
  EXPECT_NE(svg.find("fill=\"#6e0b1d\"><title>1 -&gt; 0"), std::string::npos) << svg;
}

TEST(MatrixHeatmap, GreyLogScaleFromTheSmallestToTheLargestCell) {
  Matrix m = Matrix::numbered(3);
  m.add(0, 1, 10);
  m.add(1, 2, 100);
  m.add(2, 0, 1000);
  comm::HeatmapOptions options;
  options.log_scale = true;
  options.palette = comm::Palette::grey;
  std::ostringstream out;
  comm::write_heatmap_svg(out, m, options);
  const std::string svg = out.str();
  EXPECT_EQ(xml_problem(svg), "");
  // 10 is the bottom of the grey ramp, 100 half way, 1000 black.
  EXPECT_NE(svg.find("fill=\"#ebebeb\"><title>0 -&gt; 1"), std::string::npos) << svg;
  EXPECT_NE(svg.find("fill=\"#767676\"><title>1 -&gt; 2"), std::string::npos) << svg;
  EXPECT_NE(svg.find("fill=\"#000000\"><title>2 -&gt; 0"), std::string::npos) << svg;
  EXPECT_NE(svg.find("bytes (log)"), std::string::npos);
}

TEST(MatrixHeatmap, LargeMatricesAreDrawnInBands) {
  Matrix m = Matrix::numbered(300);
  for (std::size_t i = 0; i < 300; ++i) m.add(i, (i + 1) % 300, 8);
  std::ostringstream out;
  comm::write_heatmap_svg(out, m, {});
  const std::string svg = out.str();
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("(300 labels, in bands of 2)"), std::string::npos);
  // Band k holds ranks 2k and 2k+1: 2k -> 2k+1 stays inside it, 2k+1 -> 2k+2 goes to band k+1.
  EXPECT_NE(svg.find("<title>0..1 -&gt; 0..1: 8 bytes</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>0..1 -&gt; 2..3: 8 bytes</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>298..299 -&gt; 0..1: 8 bytes</title>"), std::string::npos);
  EXPECT_EQ(occurrences(svg, "-&gt;"), 300u);
}

}  // namespace
}  // namespace tareador
