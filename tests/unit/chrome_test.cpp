// The Trace Event (Chrome, Perfetto) writer, checked by parsing its output against the format:
// every slice on a named track, slices of a track in time order and never overlapping, each
// flow one start and one end, later or at the same time, and the times of the replay.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "test_util.h"

namespace tareador {
namespace {

using testing::fixture;
using testing::read_file;
using testing::TempDir;
using Json = nlohmann::json;

// Replays `t` on `m` into DIR/out.json and returns the parsed events.
Json replay_to_chrome(const TempDir& dir, const trace::Trace& t, const replay::Machine& m,
                      replay::Result* result = nullptr) {
  std::string path = dir.path("out.json");
  auto sink = replay::make_chrome_sink(path, t.header());
  replay::SimulationOptions options;
  options.sink = sink.get();
  replay::Result r = replay::simulate(t, m, options);
  if (result) *result = r;
  return Json::parse(read_file(path));
}

// The format's rules, and the latest end of a slice (microseconds).
double check_format(const Json& doc) {
  const Json& events = doc.at("traceEvents");
  std::set<std::pair<int, int>> named;  // (pid, tid) with a thread_name
  std::set<int> processes;
  for (const Json& e : events)
    if (e.at("ph") == "M" && e.at("name") == "thread_name")
      named.emplace(e.at("pid").get<int>(), e.at("tid").get<int>());
    else if (e.at("ph") == "M" && e.at("name") == "process_name")
      processes.insert(e.at("pid").get<int>());
  std::map<std::pair<int, int>, double> track_end;  // where each track's last slice ended
  std::map<std::uint64_t, std::vector<const Json*>> flows;
  double last = 0;
  for (const Json& e : events) {
    std::string ph = e.at("ph");
    if (ph == "M") continue;
    EXPECT_TRUE(processes.count(e.at("pid").get<int>())) << e;
    if (ph == "X") {
      auto track = std::make_pair(e.at("pid").get<int>(), e.at("tid").get<int>());
      EXPECT_TRUE(named.count(track)) << "a slice on a track without a name: " << e;
      double ts = e.at("ts"), dur = e.at("dur");
      EXPECT_GE(dur, 0) << e;
      // In time order, and without overlap (beyond the 1 ns of rounding).
      EXPECT_GE(ts + 1e-3, track_end[track]) << "slices out of order or overlapping: " << e;
      track_end[track] = ts + dur;
      last = std::max(last, ts + dur);
    } else if (ph == "s" || ph == "f") {
      flows[e.at("id").get<std::uint64_t>()].push_back(&e);
    }
  }
  for (const auto& [id, pair] : flows) {
    EXPECT_EQ(pair.size(), 2u) << "flow " << id;
    if (pair.size() != 2) continue;
    EXPECT_EQ(pair[0]->at("ph"), "s");
    EXPECT_EQ(pair[1]->at("ph"), "f");
    EXPECT_EQ(pair[1]->at("bp"), "e");
    EXPECT_LE(pair[0]->at("ts").get<double>(), pair[1]->at("ts").get<double>()) << "flow " << id;
  }
  return last;
}

std::size_t count(const Json& doc, const std::string& ph, const std::string& cat) {
  std::size_t n = 0;
  for (const Json& e : doc.at("traceEvents"))
    if (e.at("ph") == ph && e.value("cat", "") == cat) ++n;
  return n;
}

TEST(Chrome, MpiReplayHasStatesCallsAndMessages) {
  TempDir dir;
  auto t = trace::open_dimemas(fixture("dimemas/pingpong.dim"));
  replay::Result r;
  Json doc = replay_to_chrome(dir, *t, testing::machine(4, 250, 5e-6), &r);
  EXPECT_EQ(doc.at("displayTimeUnit"), "ns");
  double last = check_format(doc);
  EXPECT_NEAR(last, r.total_time * 1e6, 1e-3);
  EXPECT_EQ(count(doc, "s", "message"), r.messages);
  EXPECT_GT(count(doc, "X", "mpi"), 0u);
  EXPECT_GT(count(doc, "X", "state"), 0u);
  for (const Json& e : doc.at("traceEvents")) {
    if (e.at("ph") == "X" && e.at("cat") == "mpi") {
      EXPECT_EQ(e.at("name").get<std::string>().rfind("MPI_", 0), 0u) << e;
    }
  }
}

TEST(Chrome, TaskReplayHasInstancesDependenciesAndCoresBusy) {
  // The diamond: a -> b, a -> c, b -> d, c -> d, d -> main; 2 cores: a 0-1 s, b 1-3, c 1-2,
  // d 3-4 (mips = 1).
  TempDir dir;
  auto traces = trace::open_traces(fixture("tasks/diamond"), {"tasks"});
  replay::Machine m = testing::machine(1, 0, 0);
  m.nodes[0].cores = 2;
  Json doc = replay_to_chrome(dir, *traces[0], m);
  check_format(doc);
  EXPECT_EQ(count(doc, "s", "dependency"), 5u);
  std::map<int, std::pair<double, double>> instances;  // instance -> (ts, dur) in s
  for (const Json& e : doc.at("traceEvents"))
    if (e.at("ph") == "X" && e.at("cat") == "task")
      instances[e.at("args").at("instance").get<int>()] = {e.at("ts").get<double>() / 1e6,
                                                           e.at("dur").get<double>() / 1e6};
  ASSERT_EQ(instances.count(5), 1u);
  EXPECT_NEAR(instances[2].first, 0.0, 1e-9);
  EXPECT_NEAR(instances[2].second, 1.0, 1e-9);
  EXPECT_NEAR(instances[5].first, 3.0, 1e-9);
  EXPECT_NEAR(instances[5].second, 1.0, 1e-9);
  EXPECT_GT(count(doc, "C", ""), 0u);
}

TEST(Chrome, AnUnwritablePathIsAnError) {
  auto t = trace::open_dimemas(fixture("dimemas/pingpong.dim"));
  EXPECT_THROW(replay::make_chrome_sink("/nonexistent-dir/out.json", t->header()),
               trace::FormatError);
}

}  // namespace
}  // namespace tareador
