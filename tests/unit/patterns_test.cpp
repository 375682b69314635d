// The patterns report (tareador-patterns): the metrics of thesis Table 5.1 on patterns known
// exactly, their averages, patterns.csv / patterns.json, the SVG plots and bad inputs.
#include "patterns/patterns.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <vector>

#include "test_util.h"

namespace tareador {
namespace {

namespace fs = std::filesystem;
using patterns::Direction;
using patterns::Report;
using patterns::Transfer;
using testing::TempDir;
using testing::xml_problem;

const char* kManifest =
    "format = \"tareador-trace-set\"\nversion = 1\nname = \"t\"\nranks = 3\nmips = 1000.0\n"
    "kinds = [\"authentic\"]\n";
const char* kHeader0 = "# tareador patterns v1 rank=0 chunks=4\n";

// The fixture set copied into a temporary directory (the report is written into the set).
std::string copy_fixture(const TempDir& dir) {
  std::string to = dir.path("set");
  fs::copy(testing::fixture("patterns/set"), to, fs::copy_options::recursive);
  return to;
}

void expect_metrics(const std::array<double, 4>& got, std::vector<double> want,
                    const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_DOUBLE_EQ(got[i], want[i]) << what << ", metric " << i;
}

// ---- The metrics of one transfer ---------------------------------------------------------------

TEST(PatternsMetrics, PartCount) {
  EXPECT_EQ(patterns::part_count(0), 1u);
  EXPECT_EQ(patterns::part_count(7), 1u);
  EXPECT_EQ(patterns::part_count(8), 1u);
  EXPECT_EQ(patterns::part_count(32), 4u);
  EXPECT_EQ(patterns::part_count(39), 4u);
  EXPECT_EQ(patterns::part_count(512), 64u);
  EXPECT_EQ(patterns::part_count(1 << 20), 64u);
}

TEST(PatternsMetrics, ProductionQuantiles) {
  // Linear, part i finished at (i+1)/k: the ideal of Table 5.1 (quarter 25%, half 50%, whole
  // 100%) with the first element at 1/k (a part is the finest grain the tool records).
  std::vector<double> linear;
  for (int i = 0; i < 64; ++i) linear.push_back((i + 1) / 64.0);
  expect_metrics(patterns::production_metrics(linear), {1 / 64.0, 0.25, 0.5, 1}, "linear 64");
  // Part i written at i/k.
  expect_metrics(patterns::production_metrics({0, 0.25, 0.5, 0.75}), {0, 0, 0.25, 0.75},
                 "linear i/k");
  // Reversed gives the same quantiles as linear: they do not depend on the address order.
  expect_metrics(patterns::production_metrics({1, 0.75, 0.5, 0.25}), {0.25, 0.25, 0.5, 1},
                 "reversed");
  // All at the very end.
  expect_metrics(patterns::production_metrics({1, 1, 1, 1}), {1, 1, 1, 1}, "end");
  // k = 5: a quarter needs ceil(5/4) = 2 parts, half ceil(5/2) = 3.
  expect_metrics(patterns::production_metrics({0.5, 0.4, 0.3, 0.2, 0.1}), {0.1, 0.2, 0.3, 0.5},
                 "k=5");
  // Parts not written count as produced at the start.
  expect_metrics(patterns::production_metrics({-1, 0.6, -1, -1}), {0, 0, 0, 0.6}, "unwritten");
  // One part: every metric is its time.
  expect_metrics(patterns::production_metrics({0.7}), {0.7, 0.7, 0.7, 0.7}, "one part");
}

TEST(PatternsMetrics, ConsumptionQuantiles) {
  std::vector<double> linear;
  for (int i = 0; i < 64; ++i) linear.push_back(i / 64.0);
  expect_metrics(patterns::consumption_metrics(linear), {0, 0.25, 0.5}, "linear 64");
  expect_metrics(patterns::consumption_metrics({0, 0.25, 0.5, 0.75}), {0, 0.25, 0.5}, "linear");
  expect_metrics(patterns::consumption_metrics({0.75, 0.5, 0.25, 0}), {0, 0.25, 0.5}, "reversed");
  expect_metrics(patterns::consumption_metrics({0, 0, 0, 0}), {0, 0, 0}, "all at the start");
  // k = 5: a quarter of the bytes holds floor(5/4) = 1 whole part, half holds 2.
  expect_metrics(patterns::consumption_metrics({0.1, 0.2, 0.3, 0.4, 0.5}), {0.1, 0.2, 0.3}, "k=5");
  // Parts never read count as needed at the end; nothing read at all: the whole interval.
  expect_metrics(patterns::consumption_metrics({-1, -1, 0.3, -1}), {0.3, 1, 1}, "unread");
  expect_metrics(patterns::consumption_metrics({-1, -1}), {1, 1, 1}, "never read");
  // One part: a quarter or half of the bytes hold no whole part.
  expect_metrics(patterns::consumption_metrics({0.4}), {0.4, 0.4, 0.4}, "one part");
}

// ---- The fixture set -----------------------------------------------------------------------------

TEST(PatternsReport, FixtureMetricsPerTransfer) {
  Report r = patterns::read_report(testing::fixture("patterns/set"));
  EXPECT_EQ(r.name, "patterns-fixture");
  EXPECT_EQ(r.ranks, 3);
  ASSERT_EQ(r.by_rank.size(), 2u);
  EXPECT_EQ(r.by_rank[0].chunks, 4);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "rank 2 has no patterns.2.txt");
  ASSERT_EQ(r.transfers.size(), 8u);
  const Transfer& linear = r.transfers[0];
  EXPECT_EQ(linear.rank, 0);
  EXPECT_EQ(linear.direction, Direction::Send);
  EXPECT_EQ(linear.peer, 1);
  EXPECT_EQ(linear.tag, 1);
  EXPECT_EQ(linear.bytes, 32);
  EXPECT_EQ(linear.interval, 1000u);
  EXPECT_EQ(linear.line, 3u);
  expect_metrics(linear.metrics, {0.25, 0.25, 0.5, 1}, "send linear");
  expect_metrics(r.transfers[1].metrics, {0.99, 0.992, 0.996, 1}, "send at the end");
  expect_metrics(r.transfers[2].metrics, {0.25, 0.25, 0.5, 1}, "send reversed");
  expect_metrics(r.transfers[3].metrics, {0, 0, 0.1, 0.5}, "send partly unwritten");
  EXPECT_EQ(r.transfers[4].direction, Direction::Recv);
  EXPECT_EQ(r.transfers[4].rank, 1);
  expect_metrics(r.transfers[4].metrics, {0, 0.25, 0.5}, "recv linear");
  expect_metrics(r.transfers[5].metrics, {0, 0, 0}, "recv everything at the start");
  expect_metrics(r.transfers[6].metrics, {0, 0.25, 0.5}, "recv reversed");
  expect_metrics(r.transfers[7].metrics, {0.2, 0.4, 0.6}, "recv partly unread");
}

TEST(PatternsReport, FixtureAverages) {
  Report r = patterns::read_report(testing::fixture("patterns/set"));
  EXPECT_EQ(r.send.transfers, 4u);
  EXPECT_EQ(r.send.bytes, 168);
  EXPECT_EQ(r.send.parts, 21u);
  EXPECT_EQ(r.send.missing_parts, 2u);
  expect_metrics(r.send.mean, {1.49 / 4, 1.492 / 4, 2.096 / 4, 3.5 / 4}, "send mean");
  expect_metrics(r.send.weighted, {79.36 / 168, 79.488 / 168, 99.744 / 168, 148.0 / 168},
                 "send weighted");
  expect_metrics(r.send.median, {0.25, 0.25, 0.5, 1}, "send median");
  EXPECT_EQ(r.recv.transfers, 4u);
  EXPECT_EQ(r.recv.missing_parts, 2u);
  expect_metrics(r.recv.mean, {0.05, 0.225, 0.4}, "recv mean");
  expect_metrics(r.recv.weighted, {8.0 / 168, 32.0 / 168, 56.0 / 168}, "recv weighted");
  expect_metrics(r.recv.median, {0, 0.25, 0.5}, "recv median");
  EXPECT_TRUE(std::isnan(r.recv.mean[3]));
  // Per rank: rank 0 only sends, rank 1 only receives.
  EXPECT_EQ(r.by_rank[0].send.transfers, 4u);
  EXPECT_EQ(r.by_rank[0].recv.transfers, 0u);
  EXPECT_TRUE(std::isnan(r.by_rank[0].recv.mean[0]));
  expect_metrics(r.by_rank[1].recv.mean, {0.05, 0.225, 0.4}, "rank 1 recv mean");
}

TEST(PatternsReport, Csv) {
  Report r = patterns::read_report(testing::fixture("patterns/set"));
  std::ostringstream out;
  patterns::write_csv(out, r);
  EXPECT_EQ(out.str(),
            "rank,direction,peer,tag,comm,bytes,interval,parts,missing_parts,"
            "produce_first,produce_quarter,produce_half,produce_whole,"
            "pass_nothing,pass_quarter,pass_half,line\n"
            "0,send,1,1,0,32,1000,4,0,0.250000,0.250000,0.500000,1.000000,,,,3\n"
            "0,send,1,2,0,64,4000,8,0,0.990000,0.992000,0.996000,1.000000,,,,5\n"
            "0,send,1,3,0,32,1000,4,0,0.250000,0.250000,0.500000,1.000000,,,,7\n"
            "0,send,1,4,0,40,500,5,2,0.000000,0.000000,0.100000,0.500000,,,,9\n"
            "1,recv,0,1,0,32,2000,4,0,,,,,0.000000,0.250000,0.500000,3\n"
            "1,recv,0,2,0,64,3000,8,0,,,,,0.000000,0.000000,0.000000,5\n"
            "1,recv,0,3,0,32,2000,4,0,,,,,0.000000,0.250000,0.500000,7\n"
            "1,recv,0,4,0,40,800,5,2,,,,,0.200000,0.400000,0.600000,9\n");
}

TEST(PatternsReport, Json) {
  Report r = patterns::read_report(testing::fixture("patterns/set"));
  nlohmann::ordered_json j = patterns::report_json(r);
  EXPECT_EQ(j["format"], "tareador-patterns");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["name"], "patterns-fixture");
  EXPECT_EQ(j["ranks"], 3);
  EXPECT_EQ(j["files"], nlohmann::ordered_json::array({"patterns.0.txt", "patterns.1.txt"}));
  EXPECT_EQ(j["notes"][0], "rank 2 has no patterns.2.txt");
  const auto& send = j["application"]["send"];
  EXPECT_EQ(send["transfers"], 4);
  EXPECT_EQ(send["bytes"], 168);
  EXPECT_EQ(send["parts_not_written"], 2);
  EXPECT_DOUBLE_EQ(send["mean"]["first"].get<double>(), 1.49 / 4);
  EXPECT_DOUBLE_EQ(send["bytes_weighted"]["whole"].get<double>(), 148.0 / 168);
  EXPECT_DOUBLE_EQ(send["median"]["half"].get<double>(), 0.5);
  const auto& recv = j["application"]["recv"];
  EXPECT_EQ(recv["parts_not_read"], 2);
  EXPECT_DOUBLE_EQ(recv["mean"]["quarter"].get<double>(), 0.225);
  EXPECT_FALSE(recv["mean"].contains("whole"));
  EXPECT_EQ(j["by_rank"].size(), 2u);
  EXPECT_TRUE(j["by_rank"][0]["recv"]["mean"]["nothing"].is_null());
  ASSERT_EQ(j["transfers"].size(), 8u);
  const auto& t = j["transfers"][3];
  EXPECT_EQ(t["rank"], 0);
  EXPECT_EQ(t["direction"], "send");
  EXPECT_EQ(t["peer"], 1);
  EXPECT_EQ(t["tag"], 4);
  EXPECT_EQ(t["bytes"], 40);
  EXPECT_EQ(t["interval"], 500);
  EXPECT_EQ(t["line"], 9);
  EXPECT_DOUBLE_EQ(t["metrics"]["half"].get<double>(), 0.1);
  EXPECT_EQ(t["parts"].dump(), "[0.1,null,0.3,null,0.5]");
  EXPECT_EQ(j["transfers"][7]["metrics"].dump(), "{\"nothing\":0.2,\"quarter\":0.4,\"half\":0.6}");
  EXPECT_FALSE(patterns::report_json(r, false)["transfers"][0].contains("parts"));
}

TEST(PatternsReport, Text) {
  Report r = patterns::read_report(testing::fixture("patterns/set"));
  std::string text = patterns::report_text(r);
  EXPECT_NE(text.find("patterns-fixture"), std::string::npos) << text;
  EXPECT_NE(text.find("note: rank 2 has no patterns.2.txt"), std::string::npos) << text;
  // mean per transfer: 37.25% 37.30% 52.40% 87.50% (sends), 5.00% 22.50% 40.00% (receives).
  EXPECT_NE(text.find("mean per transfer              4      168 B   37.25%   37.30%   52.40%   "
                      "87.50%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    5.00%   22.50%   40.00%"), std::string::npos) << text;
  EXPECT_NE(text.find("ideal                                          0.00%   25.00%   50.00%  "
                      "100.00%"),
            std::string::npos)
      << text;
}

// ---- The plots -----------------------------------------------------------------------------------

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PatternsPlots, ScatterIsWellFormedAndHasEveryPart) {
  Report r = patterns::read_report(testing::fixture("patterns/set"));
  r.name = "a <b> & \"c\"";  // escaped in the title
  std::ostringstream out;
  patterns::write_scatter_svg(out, r);
  std::string svg = out.str();
  EXPECT_EQ(xml_problem(svg), "") << svg;
  EXPECT_EQ(svg.compare(0, 5, "<?xml"), 0);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(svg.find("a &lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  // 21 parts per direction, 2 not written / not read: 19 points each, all on different pixels.
  EXPECT_EQ(count(svg, "<circle"), 38u);
  EXPECT_NE(svg.find("21 parts of 4 sends; 2 never written"), std::string::npos) << svg;
  EXPECT_NE(svg.find("21 parts of 4 receives; 2 never read"), std::string::npos) << svg;
  // The part of the linear send at position 0.125 finished at 0.25: pixel (80 + 45, 70 + 270).
  EXPECT_NE(svg.find("<circle cx=\"125\" cy=\"340\""), std::string::npos) << svg;
  // Subsampled deterministically.
  patterns::PlotOptions few;
  few.max_points = 5;
  std::ostringstream a, b;
  patterns::write_scatter_svg(a, r, few);
  patterns::write_scatter_svg(b, r, few);
  EXPECT_EQ(a.str(), b.str());
  EXPECT_EQ(count(a.str(), "<circle"), 10u);
  EXPECT_NE(a.str().find("evenly subsampled from 19"), std::string::npos);
  EXPECT_EQ(xml_problem(a.str()), "");
}

TEST(PatternsPlots, ScatterMergesIdenticalPoints) {
  TempDir dir;
  dir.write("set/manifest.toml", kManifest);
  std::string lines = kHeader0;
  for (int i = 0; i < 100; ++i) lines += "send 1 0 0 32 100 0.25 0.5 0.75 1\n";
  dir.write("set/patterns.0.txt", lines);
  Report r = patterns::read_report(dir.path("set"));
  std::ostringstream out;
  patterns::write_scatter_svg(out, r);
  EXPECT_EQ(count(out.str(), "<circle"), 4u);
  EXPECT_NE(out.str().find("no receives"), std::string::npos);
  EXPECT_EQ(xml_problem(out.str()), "");
}

TEST(PatternsPlots, DistributionIsWellFormed) {
  Report r = patterns::read_report(testing::fixture("patterns/set"));
  std::ostringstream out;
  patterns::write_distribution_svg(out, r);
  std::string svg = out.str();
  EXPECT_EQ(xml_problem(svg), "") << svg;
  // One curve per metric and direction.
  EXPECT_EQ(count(svg, "<polyline"), 7u);
  for (const char* id : {"send-first", "send-quarter", "send-half", "send-whole", "recv-nothing",
                         "recv-quarter", "recv-half"})
    EXPECT_NE(svg.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  // "whole" of the sends: 0.5 once, 1 three times: steps at x = 80 + 180 and 80 + 360.
  std::size_t at = svg.find("id=\"send-whole\"");
  std::string curve = svg.substr(at, svg.find("/>", at) - at);
  EXPECT_NE(curve.find("points=\"80,430 260,430 260,340 440,340 440,70 440,70\""),
            std::string::npos)
      << curve;
}

TEST(PatternsPlots, WriteOutputsIntoTheSet) {
  TempDir dir;
  std::string set = copy_fixture(dir);
  Report r = patterns::read_report(set);
  std::vector<std::string> files = patterns::write_outputs(r);
  EXPECT_EQ(files, (std::vector<std::string>{"patterns.json", "patterns.csv",
                                             "patterns-scatter.svg", "patterns-distribution.svg"}));
  for (const std::string& f : files) EXPECT_TRUE(fs::exists(fs::path(set) / f)) << f;
  nlohmann::json j = nlohmann::json::parse(testing::read_file(set + "/patterns.json"));
  EXPECT_EQ(j["transfers"].size(), 8u);
  std::ostringstream csv;
  patterns::write_csv(csv, r);
  EXPECT_EQ(testing::read_file(set + "/patterns.csv"), csv.str());
  EXPECT_EQ(xml_problem(testing::read_file(set + "/patterns-scatter.svg")), "");
  EXPECT_EQ(xml_problem(testing::read_file(set + "/patterns-distribution.svg")), "");
  // Same input, same bytes.
  std::string before = testing::read_file(set + "/patterns.json");
  patterns::write_outputs(patterns::read_report(set));
  EXPECT_EQ(testing::read_file(set + "/patterns.json"), before);
}

// ---- Bad inputs ----------------------------------------------------------------------------------

// Reads a set whose patterns.0.txt is `content` and returns the error message (empty if none).
std::string error_of(const std::string& content) {
  TempDir dir;
  dir.write("set/manifest.toml", kManifest);
  dir.write("set/patterns.0.txt", content);
  try {
    patterns::read_report(dir.path("set"));
  } catch (const trace::FormatError& e) {
    std::string what = e.what();
    std::size_t cut = what.rfind("/patterns.0.txt");
    return cut == std::string::npos ? what : what.substr(cut + 1);
  }
  return "";
}

TEST(PatternsErrors, BadLinesSayFileAndLine) {
  std::string h = kHeader0;
  EXPECT_EQ(error_of(h + "send 1 1 0 32 1000 0.25 0.5 0.75\n"),
            "patterns.0.txt:2: 32 bytes make 4 parts (min(64, BYTES / 8), at least 1) but the "
            "line has 3 times");
  EXPECT_EQ(error_of(h + "\n# c\nsned 1 1 0 32 1000 0.25 0.5 0.75 1\n"),
            "patterns.0.txt:4: unknown record 'sned' (expected send or recv)");
  EXPECT_EQ(error_of(h + "recv 1 1 0 32 1000 0.25 0.5 x 1\n"),
            "patterns.0.txt:2: T3 is not a fraction of the interval or '-': 'x'");
  EXPECT_EQ(error_of(h + "recv 1 1 0 32 1000 0.25 0.5 1.5 1\n"),
            "patterns.0.txt:2: T3 is 1.5, outside the interval (0 to 1)");
  EXPECT_EQ(error_of(h + "send 7 1 0 8 10 1\n"),
            "patterns.0.txt:2: peer 7 is not a rank of the set (3 ranks)");
  EXPECT_EQ(error_of(h + "send 1 1 0 -32 10 1\n"),
            "patterns.0.txt:2: field 'BYTES' is negative: '-32'");
  EXPECT_EQ(error_of(h + "send 1 x 0 8 10 1\n"),
            "patterns.0.txt:2: field 'TAG' is not an integer: 'x'");
  EXPECT_EQ(error_of(h + "send 1 1 0 8 1.5 1\n"),
            "patterns.0.txt:2: field 'INTERVAL' is not an integer: '1.5'");
  EXPECT_EQ(error_of(h + "send 1 1\n"), "patterns.0.txt:2: missing field 'COMM'");
  EXPECT_EQ(error_of(h + "send 1 1 0 8 10\n"), "patterns.0.txt:2: missing field 'T1'");
}

TEST(PatternsErrors, BadHeaders) {
  EXPECT_EQ(error_of("send 1 1 0 8 10 1\n"),
            "patterns.0.txt:1: not a patterns file: the first line must be '# tareador "
            "patterns v1 rank=N chunks=C'");
  EXPECT_EQ(error_of("# tareador patterns v2 rank=0 chunks=4\n"),
            "patterns.0.txt:1: patterns version 2 is not supported (this reader knows version 1)");
  EXPECT_EQ(error_of("# tareador patterns v1 rank=1 chunks=4\n"),
            "patterns.0.txt:1: the header says rank 1 but the file is rank 0's");
  EXPECT_EQ(error_of("# tareador patterns v1 chunks=4\n"),
            "patterns.0.txt:1: the header has no rank=N");
  // An empty file (a rank that died before writing anything) has no transfer.
  EXPECT_EQ(error_of(""), "");
}

TEST(PatternsErrors, BadSets) {
  TempDir dir;
  auto error = [](const std::string& path) -> std::string {
    try {
      patterns::read_report(path);
    } catch (const trace::FormatError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error(dir.path("none")), dir.path("none") + ": no such directory");
  dir.write("set/patterns.0.txt", kHeader0);
  EXPECT_EQ(error(dir.path("set")),
            dir.path("set/manifest.toml") + ": not a trace set: manifest.toml is missing");
  dir.write("empty/manifest.toml", kManifest);
  EXPECT_EQ(error(dir.path("empty")),
            dir.path("empty") +
                ": no patterns.N.txt in the set (the tool writes them with --overlap=yes)");
  dir.write("v0/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 0\nname = \"t\"\nranks = 1\n");
  EXPECT_EQ(error(dir.path("v0")),
            dir.path("v0/manifest.toml") + ":2: trace set version 0 is not a version");
  // Later versions of the set keep `name` and `ranks`: their patterns are read.
  dir.write("v2/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 2\nname = \"t\"\nranks = 1\n");
  dir.write("v2/patterns.0.txt", kHeader0);
  EXPECT_EQ(patterns::read_report(dir.path("v2")).ranks, 1);
  // Files of ranks beyond the manifest's are noted, not read.
  dir.write("extra/manifest.toml", kManifest);
  dir.write("extra/patterns.0.txt", kHeader0);
  dir.write("extra/patterns.5.txt", "garbage\n");
  Report r = patterns::read_report(dir.path("extra"));
  EXPECT_EQ(r.notes, (std::vector<std::string>{"rank 1 has no patterns.1.txt",
                                               "rank 2 has no patterns.2.txt",
                                               "patterns.5.txt ignored: the set has 3 ranks"}));
}

}  // namespace
}  // namespace tareador
