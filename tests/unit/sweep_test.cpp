// replay --sweep (analysis/sweep.h): the specification, the replays (against the analytic model
// of tests/fixtures/sweep), the derived figures and the CSV, JSON and SVG outputs.
#include "analysis/sweep.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "plot/svg_plot.h"
#include "test_util.h"

namespace tareador {
namespace {

using replay::parse_sweep;
using replay::SweepResult;
using replay::SweepScale;
using replay::SweepSpec;
using replay::ToleratedReduction;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::Eq;
using testing::fixture;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using testing::TempDir;
using S = ToleratedReduction::Status;

constexpr double kNs = 1e-12;
const double kNaN = std::nan("");

// ---- The specification ----------------------------------------------------------------------

TEST(SweepSpec, LinearRange) {
  SweepSpec s = parse_sweep("bandwidth=10:50:5");
  EXPECT_EQ(s.key, "bandwidth");
  EXPECT_EQ(s.scale, SweepScale::Linear);
  EXPECT_EQ(s.steps, 5);
  EXPECT_EQ(s.low, 10);
  EXPECT_EQ(s.high, 50);
  EXPECT_THAT(s.values, ElementsAre(10, 20, 30, 40, 50));
  EXPECT_THAT(parse_sweep(" latency = 0:1e-5:3 ").values, ElementsAre(0, 5e-6, 1e-5));
  EXPECT_THAT(parse_sweep("bandwidth=0.1:0.3:3:lin").values, ElementsAre(0.1, 0.2, 0.3));
}

TEST(SweepSpec, LogarithmicRangeIsExactOnRoundValues) {
  SweepSpec s = parse_sweep("bandwidth=1:1024:11:log");
  EXPECT_EQ(s.scale, SweepScale::Log);
  EXPECT_THAT(s.values, ElementsAre(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024));
  EXPECT_THAT(parse_sweep("latency=1e-6:1e-3:4:log").values, ElementsAre(1e-6, 1e-5, 1e-4, 1e-3));
}

TEST(SweepSpec, IntegerKeysAreRoundedAndListsSorted) {
  EXPECT_THAT(parse_sweep("cores=1:4:7").values, ElementsAre(1, 2, 3, 4));
  SweepSpec list = parse_sweep("cores= 8,2 ,4,2");
  EXPECT_THAT(list.values, ElementsAre(2, 4, 8));
  EXPECT_EQ(list.steps, 0);
  EXPECT_THAT(parse_sweep("bandwidth=5:5:1").values, ElementsAre(5));
  EXPECT_EQ(replay::format_sweep_value("cores", 4), "4");
  EXPECT_EQ(replay::format_sweep_value("bandwidth", 12.5), "12.5");
  EXPECT_EQ(replay::format_sweep_value("latency", 1e-5), "1e-05");
}

TEST(SweepSpec, BadSpecificationsSayWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"bandwidth", "expected KEY=LO:HI:STEPS[:log] or KEY=V1,V2,..."},
      {"bandwidth=", "no values after '='"},
      {"speed=1:2:3", "unknown machine key 'speed'; keys that can be swept: bandwidth, latency"},
      {"collectives=1:2:3", "its values are names, not numbers"},
      {"bandwidth=1:100", "expected KEY=LO:HI:STEPS[:log]"},
      {"bandwidth=1:100:3:log:x", "expected KEY=LO:HI:STEPS[:log]"},
      {"bandwidth=x:100:3", "LO 'x' is not a number"},
      {"bandwidth=1:inf:3", "HI 'inf' is not a number"},
      {"bandwidth=1:100:2.5", "STEPS must be a whole number, not 2.5"},
      {"bandwidth=1:100:0", "STEPS must be at least 1, not 0"},
      {"bandwidth=1:100:20000", "STEPS must be at most 10000"},
      {"bandwidth=1:100:3:cubic", "the scale is 'log' (or 'lin'), not 'cubic'"},
      {"bandwidth=100:1:3", "LO (100) is greater than HI (1)"},
      {"bandwidth=1:100:1", "a single step is a single value"},
      {"bandwidth=0:100:3:log", "a logarithmic sweep needs LO > 0"},
      {"bandwidth=0:100:3", "bandwidth=0 means instantaneous transfers"},
      {"latency=-1:1:3", "bad value for 'latency': '-1' must not be negative"},
      {"cores=0,1", "bad value for 'cores': '0' must be at least 1"},
      {"cores=1e300", "cores=1e+300 is out of range"},
      {"bandwidth=1,,2", "value '' is not a number"},
  };
  for (const auto& [text, message] : cases) {
    try {
      parse_sweep(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), StartsWith(std::string("--sweep ") + text + ": ")) << text;
      EXPECT_THAT(e.what(), HasSubstr(message)) << text;
    }
  }
}

// ---- The replays ----------------------------------------------------------------------------

// tests/fixtures/sweep (README): 4 MiB from rank 0 to rank 1 between 4 ms of computation on
// each; latency L = 1 us. While transfers dominate (a chunk takes longer than 1 ms), authentic
// takes 8 ms + L + 4 MiB / B, overlap-real 5 ms + L + 4 MiB / B (the receiver consumes the
// chunks as they arrive), overlap-ideal 2 ms + L + 4 MiB / B (the sender also produces them
// one by one).
constexpr double L = 1e-6;
double transfer_4mib(double bandwidth) { return 4.0 / bandwidth; }  // MB = 2^20 bytes

struct Fixture {
  std::vector<std::unique_ptr<trace::Trace>> traces = trace::open_traces(fixture("sweep/set"));
  replay::Machine machine = replay::load_machine(fixture("sweep/machine.toml"));
  std::vector<const trace::Trace*> pointers() const {
    std::vector<const trace::Trace*> out;
    for (const auto& t : traces) out.push_back(t.get());
    return out;
  }
  SweepResult sweep(const std::string& spec, const replay::SweepOptions& options = {}) const {
    return replay::run_sweep(pointers(), machine, parse_sweep(spec), options);
  }
};

TEST(SweepRun, TimesFollowTheNetworkModel) {
  Fixture f;
  SweepResult r = f.sweep("bandwidth=4:64:3:log");
  ASSERT_THAT(r.spec.values, ElementsAre(4, 16, 64));
  ASSERT_EQ(r.series.size(), 3u);
  EXPECT_EQ(r.name, "sweep-fixture");
  EXPECT_EQ(r.series[0].label, "authentic");
  EXPECT_EQ(r.series[1].label, "overlap-real");
  EXPECT_EQ(r.series[2].label, "overlap-ideal");
  EXPECT_EQ(r.reference_of(0), -1);  // authentic has no baseline; the overlap kinds have it
  EXPECT_EQ(r.reference_of(1), 0);
  EXPECT_EQ(r.reference_of(2), 0);
  EXPECT_FALSE(r.deadlocked());
  EXPECT_NEAR(r.series[0].times[0], 1.008001, kNs);  // 8 ms + 1 us + 4 MiB at 4 MB/s
  for (std::size_t i = 0; i < 3; ++i) {
    const double b = r.spec.values[i];
    EXPECT_NEAR(r.series[0].times[i], 0.008 + L + transfer_4mib(b), kNs) << b;
    EXPECT_NEAR(r.series[1].times[i], 0.005 + L + transfer_4mib(b), kNs) << b;
    EXPECT_NEAR(r.series[2].times[i], 0.002 + L + transfer_4mib(b), kNs) << b;
    EXPECT_NEAR(replay::sweep_speedup(r, 1)[i], r.series[0].times[i] / r.series[1].times[i], kNs);
    EXPECT_NEAR(replay::sweep_speedup(r, 2)[i], r.series[0].times[i] / r.series[2].times[i], kNs);
  }
  // The sweep starts from the machine it is given (here with --set latency=0 applied).
  Fixture g;
  replay::apply_override(g.machine, "latency=0");
  EXPECT_NEAR(g.sweep("bandwidth=16,32").series[0].times[1], 0.008 + 0.125, kNs);
}

TEST(SweepRun, ReportsProgressOverTheWholeSweep) {
  Fixture f;
  std::vector<replay::SweepProgress> seen;
  replay::SweepOptions options;
  options.jobs = 1;  // one replay at a time: in the serial order
  options.progress = [&](const replay::SweepProgress& p) { seen.push_back(p); };
  f.sweep("bandwidth=4,8,16", options);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front().what, "authentic at bandwidth=4 (1/9)");
  EXPECT_EQ(seen.back().what, "overlap-ideal at bandwidth=16 (9/9)");
  EXPECT_DOUBLE_EQ(seen.back().overall, 1.0);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_LE(seen[i - 1].overall, seen[i].overall);
}

// Replays at once report from their threads, one at a time, and the whole never goes back.
TEST(SweepRun, ProgressOfReplaysAtOnceNeverGoesBack) {
  Fixture f;
  std::vector<replay::SweepProgress> seen;
  replay::SweepOptions options;
  options.jobs = 4;
  options.progress = [&](const replay::SweepProgress& p) { seen.push_back(p); };
  f.sweep("bandwidth=4,8,16", options);
  ASSERT_FALSE(seen.empty());
  EXPECT_THAT(seen.back().what, ::testing::EndsWith("(9/9)"));
  EXPECT_DOUBLE_EQ(seen.back().overall, 1.0);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_LE(seen[i - 1].overall, seen[i].overall);
}

TEST(SweepRun, MachinesThatCannotHoldTheTasksAreRejectedBeforeAnyReplay) {
  Fixture f;
  bool replayed = false;
  replay::SweepOptions options;
  options.progress = [&](const replay::SweepProgress&) { replayed = true; };
  try {
    f.sweep("nodes=2,1", options);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("with nodes=1"));
    EXPECT_THAT(e.what(), HasSubstr("2 tasks do not fit"));
  }
  EXPECT_FALSE(replayed);
}

TEST(SweepRun, DeadlocksLeaveUnknownTimesAndTheReport) {
  TempDir dir;
  auto t = trace::open_dimemas(
      dir.write("dl.dim", testing::dim_header(2) + "1:0:0:0.001\n3:0:0:1:-1:1000:1:1:0\n"));
  SweepResult r =
      replay::run_sweep({t.get()}, testing::machine(2, 100, L), parse_sweep("bandwidth=1,2"));
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].label, "dl");
  EXPECT_TRUE(std::isnan(r.series[0].times[0]));
  EXPECT_TRUE(std::isnan(r.series[0].times[1]));
  ASSERT_EQ(r.series[0].failures.size(), 2u);
  EXPECT_THAT(r.series[0].failures[1], StartsWith("bandwidth=2: deadlock"));
  EXPECT_TRUE(r.deadlocked());
  std::ostringstream csv;
  replay::write_sweep_csv(csv, r);
  EXPECT_EQ(csv.str(), "bandwidth,time_dl_s\n1,\n2,\n");
  EXPECT_EQ(replay::sweep_result_json(r)["series"][0]["times_s"].dump(), "[null,null]");
}

TEST(SweepRun, TasksTracesInACoresSweepHaveSpeedupOverOneCore) {
  auto traces = trace::open_traces(fixture("tasks/cpwins"));
  replay::SweepOptions options;
  options.policy = replay::TaskPolicy::CriticalPath;
  SweepResult r = replay::run_sweep({traces[0].get()}, testing::machine(2, 0, 0),
                                    parse_sweep("cores=2,4"), options);
  const replay::SweepSeries& s = r.series[0];
  ASSERT_TRUE(s.one_core_time.has_value());
  EXPECT_DOUBLE_EQ(*s.one_core_time, 6.0);  // replayed apart: 1 is not swept
  EXPECT_THAT(s.times, ElementsAre(4.0, 4.0));
  EXPECT_DOUBLE_EQ(s.one_core_speedup(0), 1.5);
  EXPECT_DOUBLE_EQ(s.efficiency(1, 4), 0.375);
  std::ostringstream csv;
  replay::write_sweep_csv(csv, r);
  EXPECT_EQ(csv.str(),
            "cores,time_tasks_s,speedup_1core_tasks,efficiency_tasks\n"
            "2,4.000000000,1.500000,0.750000\n"
            "4,4.000000000,1.500000,0.375000\n");
}

// ---- The tolerable bandwidth reduction ------------------------------------------------------

// Authentic takes 8 / B; the kinds below as given.
const std::vector<double> kBandwidths = {1, 2, 4, 8};
const std::vector<double> kAuthentic = {8, 4, 2, 1};

TEST(TolerableReduction, InterpolatedInLogBandwidthBetweenSweptPoints) {
  // At 8 MB/s authentic takes 1 s; the kind takes 0.75 s there and 1.5 s at 4 MB/s: 1 s a
  // third of the way from 8 to 4 in log(bandwidth), at 8 * 2^(-1/3) MB/s.
  auto r = replay::tolerable_reduction(kBandwidths, kAuthentic, {6, 3, 1.5, 0.75});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[3].status, S::InRange);
  EXPECT_NEAR(r[3].value, std::cbrt(2.0), 1e-12);
  EXPECT_EQ(r[1].status, S::InRange);  // 4 s a third of the way from 3 s at 2 to 6 s at 1
  EXPECT_NEAR(r[1].value, std::cbrt(2.0), 1e-12);
}

TEST(TolerableReduction, TwiceAsFastNeedsHalfTheBandwidth) {
  auto r = replay::tolerable_reduction(kBandwidths, kAuthentic, {4, 2, 1, 0.5});
  EXPECT_EQ(r[3].status, S::InRange);
  EXPECT_NEAR(r[3].value, 2.0, 1e-12);
  EXPECT_EQ(r[0].status, S::AtLeast);  // keeps up at the lowest bandwidth swept
  EXPECT_EQ(r[0].value, 1.0);
  EXPECT_EQ(r[1].status, S::AtLeast);  // takes 4 s at 1 MB/s: exactly as long, not longer
  EXPECT_EQ(r[1].value, 2.0);
}

TEST(TolerableReduction, SlowerRunsNeedMoreBandwidth) {
  auto r = replay::tolerable_reduction(kBandwidths, kAuthentic, {16, 8, 4, 2});
  EXPECT_EQ(r[0].status, S::InRange);  // takes authentic's 8 s at 2 MB/s
  EXPECT_NEAR(r[0].value, 0.5, 1e-12);
  EXPECT_EQ(r[3].status, S::AtMost);  // slower even at the highest bandwidth swept
  EXPECT_EQ(r[3].value, 1.0);
}

TEST(TolerableReduction, UnknownWhereAReplayItNeedsDeadlocked) {
  auto r = replay::tolerable_reduction(kBandwidths, {8, 4, kNaN, 1}, {6, kNaN, 1.5, 0.75});
  EXPECT_EQ(r[1].status, S::Unknown);  // its own time
  EXPECT_EQ(r[2].status, S::Unknown);  // authentic's
  EXPECT_EQ(r[3].status, S::InRange);  // crosses before the unknown point
  EXPECT_EQ(r[0].status, S::AtLeast);
  auto walk = replay::tolerable_reduction(kBandwidths, kAuthentic, {9, kNaN, 1.5, 0.75});
  EXPECT_EQ(walk[0].status, S::Unknown);  // slower at 1 MB/s, and 2 MB/s is unknown
}

// ---- Outputs --------------------------------------------------------------------------------

// Whether `svg` is well-formed as far as elements go: every tag closed, in order.
std::string unbalanced(const std::string& svg) {
  std::vector<std::string> open;
  for (std::size_t at = svg.find('<'); at != std::string::npos; at = svg.find('<', at + 1)) {
    std::size_t end = svg.find('>', at);
    if (end == std::string::npos) return "unterminated tag";
    std::string tag = svg.substr(at + 1, end - at - 1);
    if (tag[0] == '?') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "unexpected </" + tag.substr(1);
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find(' ')));
    }
  }
  return open.empty() ? "" : "unclosed <" + open.back();
}

TEST(SweepOutputs, CsvTableAndJson) {
  Fixture f;
  SweepResult r = f.sweep("bandwidth=4,16,64");
  std::ostringstream csv;
  replay::write_sweep_csv(csv, r);
  std::vector<std::string> lines;
  std::istringstream in(csv.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0],
            "bandwidth,time_authentic_s,time_overlap-real_s,time_overlap-ideal_s,"
            "speedup_overlap-real_over_authentic,speedup_overlap-ideal_over_authentic,"
            "tolerable_reduction_overlap-real_over_authentic,"
            "tolerable_reduction_overlap-ideal_over_authentic");
  // At 4 MB/s the kinds keep up below the lowest bandwidth swept: no coefficient.
  EXPECT_EQ(lines[1], "4,1.008001000,1.005001000,1.002001000,1.002985,1.005988,,");
  EXPECT_THAT(lines[3], StartsWith("64,0.070501000,0.067501000,0.064501000,"));

  std::ostringstream table;
  replay::print_sweep_table(table, r);
  EXPECT_THAT(table.str(), HasSubstr("sweep of bandwidth over 3 value(s)"));
  EXPECT_THAT(table.str(), HasSubstr("reduction overlap-ideal"));
  EXPECT_THAT(table.str(), HasSubstr(">=1.000"));
  EXPECT_THAT(table.str(), HasSubstr("thesis Fig. 5.16"));
  EXPECT_THAT(table.str(), HasSubstr("speedup of overlap-real and overlap-ideal: time of "
                                     "authentic / its time, at the same bandwidth"));

  nlohmann::ordered_json j = replay::sweep_result_json(r);
  EXPECT_EQ(j["key"], "bandwidth");
  EXPECT_EQ(j["unit"], "MB/s");
  EXPECT_EQ(j["speedup"][1]["label"], "overlap-ideal");
  EXPECT_EQ(j["speedup"][1]["over"], "authentic");
  EXPECT_EQ(j["tolerable_reduction"][1]["over"], "authentic");
  EXPECT_EQ(j["tolerable_reduction"][0]["points"][0]["at_least"], 1.0);
  EXPECT_TRUE(j["tolerable_reduction"][0]["points"][0]["value"].is_null());
  EXPECT_GT(j["tolerable_reduction"][1]["points"][2]["value"].get<double>(), 1.0);
  EXPECT_THAT(table.str(), Not(HasSubstr("no replay's time changes")));
}

TEST(SweepOutputs, ASweepThatChangesNoTimeSaysSo) {
  // The fixture's ranks all on one node: no message crosses the network the sweep changes.
  Fixture f;
  f.machine.mapping.tasks_per_node = 2;
  for (replay::Node& node : f.machine.nodes) node.cores = 2;
  SweepResult r = f.sweep("bandwidth=4,16,64");
  for (const replay::SweepSeries& s : r.series)
    EXPECT_THAT(s.times, Each(Eq(s.times.front()))) << s.label;
  std::ostringstream table;
  replay::print_sweep_table(table, r);
  EXPECT_THAT(table.str(), HasSubstr("note: no replay's time changes with bandwidth"));
}

// ---- Baselines ------------------------------------------------------------------------------

TEST(SweepBaselines, TheOverlapKindsAreComparedWithAuthenticP2pWhenThereIsOne) {
  const std::vector<std::string> set = {"authentic",           "overlap-real",  "overlap-ideal",
                                        "overlap-speculative", "authentic-p2p", "tasks"};
  EXPECT_EQ(replay::baseline_index(set, 0), -1);
  EXPECT_EQ(replay::baseline_index(set, 1), 4);
  EXPECT_EQ(replay::baseline_index(set, 2), 4);
  EXPECT_EQ(replay::baseline_index(set, 3), 4);
  EXPECT_EQ(replay::baseline_index(set, 4), -1);  // its difference is the collective model's
  EXPECT_EQ(replay::baseline_index(set, 5), 0);
  const std::vector<std::string> kept = {"authentic", "overlap-real", "overlap-ideal",
                                         "overlap-speculative"};
  EXPECT_EQ(replay::baseline_index(kept, 1), 0);
  EXPECT_EQ(replay::baseline_index(kept, 3), 0);
  EXPECT_EQ(replay::baseline_index({"overlap-real"}, 0), -1);
  EXPECT_EQ(replay::baseline_index({"dimemas"}, 0), -1);
  EXPECT_THAT(replay::baseline_explanation("authentic-p2p"), HasSubstr("overlap's alone"));
  EXPECT_EQ(replay::baseline_explanation("authentic"), "");
}

TEST(SweepBaselines, OverlapSpeedupsOnANetworkWithoutLinksComeWithACaution) {
  replay::Machine m;
  m.bandwidth = 100;
  m.nodes.resize(2);  // one input and one output link each
  EXPECT_EQ(replay::overlap_caution(m), "");
  m.nodes[0].output_links = 0;  // node 0 sends without limit, node 1 receives one at a time
  EXPECT_EQ(replay::overlap_caution(m), "");
  m.nodes[1].input_links = 0;
  EXPECT_THAT(replay::overlap_caution(m), HasSubstr("not from overlap"));
  m.buses = 1;  // one transfer at a time all the same
  EXPECT_EQ(replay::overlap_caution(m), "");
  m.buses = 0;
  m.bandwidth = 0;  // transfers take no time: nothing to gain from sending together
  EXPECT_EQ(replay::overlap_caution(m), "");
}

// The fixture set with an authentic-p2p stream: the authentic run with 1 ms less computation
// on rank 0 (as if its collectives took less time as point-to-point transfers).
TEST(SweepBaselines, OutputsSayWhatEachSpeedupCompares) {
  TempDir dir;
  const std::string set = dir.path("set");
  std::filesystem::copy(fixture("sweep/set"), set);
  dir.write("set/authentic-p2p.0.trc",
            "# tareador stream v1 kind=authentic-p2p rank=0\ncpu 3000000\nsend 1 1 1 4194304 "
            "eager\nend\n");
  std::filesystem::copy_file(set + "/authentic.1.trc", set + "/authentic-p2p.1.trc");
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"sweep-fixture\"\nranks = "
            "2\nmips = 1000.0\nkinds = [\"authentic\", \"overlap-real\", \"overlap-ideal\", "
            "\"authentic-p2p\"]\n");
  std::vector<std::unique_ptr<trace::Trace>> traces = trace::open_traces(set);
  std::vector<const trace::Trace*> pointers;
  for (const auto& t : traces) pointers.push_back(t.get());
  SweepResult r = replay::run_sweep(pointers, replay::load_machine(fixture("sweep/machine.toml")),
                                    parse_sweep("bandwidth=4,16"));
  ASSERT_EQ(r.series.size(), 4u);
  ASSERT_EQ(r.series[3].kind, "authentic-p2p");
  EXPECT_EQ(r.reference_of(1), 3);
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_NEAR(replay::sweep_speedup(r, 1)[i], r.series[3].times[i] / r.series[1].times[i], kNs);
  EXPECT_TRUE(std::isnan(replay::sweep_speedup(r, 3)[0]));

  std::ostringstream csv, table;
  replay::write_sweep_csv(csv, r);
  EXPECT_THAT(csv.str(), StartsWith("bandwidth,time_authentic_s,time_overlap-real_s,"
                                    "time_overlap-ideal_s,time_authentic-p2p_s,"
                                    "speedup_overlap-real_over_authentic-p2p,"
                                    "speedup_overlap-ideal_over_authentic-p2p,"
                                    "tolerable_reduction_overlap-real_over_authentic-p2p,"
                                    "tolerable_reduction_overlap-ideal_over_authentic-p2p\n"));
  replay::print_sweep_table(table, r);
  EXPECT_THAT(table.str(), HasSubstr("speedup of overlap-real and overlap-ideal: time of "
                                     "authentic-p2p / its time"));
  EXPECT_THAT(table.str(), HasSubstr("authentic-p2p is the authentic run with its collectives"));
  EXPECT_THAT(table.str(), Not(HasSubstr("caution")));  // every node has its links
  // Swept to a network without links, the overlap kinds' speedups get the caution of a single
  // replay, once for both kinds.
  std::ostringstream unlimited;
  replay::print_sweep_table(
      unlimited, replay::run_sweep(pointers, replay::load_machine(fixture("sweep/machine.toml")),
                                   parse_sweep("links=0,1")));
  const std::string text = unlimited.str();
  ASSERT_THAT(text, HasSubstr("caution: this network limits neither links nor buses"));
  EXPECT_EQ(text.find("caution:"), text.rfind("caution:"));
  nlohmann::ordered_json j = replay::sweep_result_json(r);
  EXPECT_EQ(j["speedup"].size(), 2u);
  EXPECT_EQ(j["speedup"][0]["over"], "authentic-p2p");
  replay::write_sweep_files(dir.path("out/sweep"), r);
  EXPECT_THAT(testing::read_file(dir.path("out/sweep-speedup.svg")),
              HasSubstr("speedup over authentic-p2p vs bandwidth"));
  EXPECT_THAT(testing::read_file(dir.path("out/sweep-reduction.svg")),
              HasSubstr("tolerable bandwidth reduction over authentic-p2p vs bandwidth"));
}

TEST(SweepOutputs, FilesAndPlots) {
  Fixture f;
  SweepResult r = f.sweep("bandwidth=1:1024:11:log");
  TempDir dir;
  const std::string prefix = dir.path("out/sweep");
  std::vector<std::string> written = replay::write_sweep_files(prefix, r);
  EXPECT_THAT(written, ElementsAre(prefix + ".csv", prefix + "-time.svg", prefix + "-speedup.svg",
                                   prefix + "-reduction.svg"));
  for (const std::string& path : written) {
    if (path.size() < 4 || path.substr(path.size() - 4) != ".svg") continue;
    const std::string svg = testing::read_file(path);
    EXPECT_THAT(svg, StartsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ")) << path;
    EXPECT_EQ(unbalanced(svg), "") << path;
    EXPECT_THAT(svg, HasSubstr("data-name=\"overlap-ideal\"")) << path;
    EXPECT_THAT(svg, HasSubstr("bandwidth (MB/s)")) << path;
  }
  const std::string time = testing::read_file(prefix + "-time.svg");
  EXPECT_THAT(time, HasSubstr("data-name=\"authentic\""));
  EXPECT_THAT(time, HasSubstr(">sweep-fixture: execution time vs bandwidth</text>"));
  EXPECT_THAT(testing::read_file(prefix + "-speedup.svg"),
              HasSubstr("speedup over authentic vs bandwidth"));
  // The same kind has the same colour in every plot.
  auto colour = [](const std::string& svg, const std::string& name) {
    std::size_t at = svg.find("stroke=\"#", svg.find("data-name=\"" + name + "\""));
    return svg.substr(at, 16);
  };
  EXPECT_EQ(colour(time, "overlap-real"),
            colour(testing::read_file(prefix + "-reduction.svg"), "overlap-real"));
  EXPECT_EQ(testing::read_file(prefix + ".csv").substr(0, 10), "bandwidth,");

  // No speedup without authentic, no reduction outside bandwidth sweeps.
  Fixture g;
  g.traces.erase(g.traces.begin());
  EXPECT_EQ(replay::write_sweep_files(prefix, g.sweep("latency=0,1e-5")).size(), 2u);
  EXPECT_THROW(replay::write_sweep_files("/dev/null/sweep", r), trace::FormatError);
}

TEST(SvgPlot, TicksAndEscaping) {
  EXPECT_THAT(replay::svg::ticks(0, 10, false), ElementsAre(0, 2, 4, 6, 8, 10));
  EXPECT_THAT(replay::svg::ticks(1, 1000, true), ElementsAre(1, 10, 100, 1000));
  EXPECT_THAT(replay::svg::ticks(1, 100, true), ElementsAre(1, 2, 5, 10, 20, 50, 100));
  replay::svg::Plot p;
  p.title = "a < b & c";
  p.series.push_back({"x\"y", {1, 2, 3}, {1, kNaN, 3}});
  const std::string svg = replay::svg::render(p);
  EXPECT_EQ(unbalanced(svg), "");
  EXPECT_THAT(svg, HasSubstr("a &lt; b &amp; c"));
  EXPECT_THAT(svg, HasSubstr("data-name=\"x&quot;y\""));
  EXPECT_EQ(svg, replay::svg::render(p));  // same plot, same bytes
}

}  // namespace
}  // namespace tareador
