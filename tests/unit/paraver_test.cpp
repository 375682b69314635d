// The Paraver writer, checked by parsing its output back against the format.
#include <gtest/gtest.h>

#include <fstream>

#include <regex>

#include "test_util.h"

namespace tareador {
namespace {

using testing::fixture;
using testing::read_file;
using testing::TempDir;

struct Prv {
  std::string header;
  std::vector<std::string> communicators;
  std::vector<std::vector<std::int64_t>> records;  // fields of each record line
};

Prv parse_prv(const std::string& path) {
  std::istringstream in(read_file(path));
  Prv prv;
  std::string line;
  std::getline(in, prv.header);
  while (std::getline(in, line)) {
    if (line.rfind("c:", 0) == 0) {
      prv.communicators.push_back(line);
      continue;
    }
    std::vector<std::int64_t> fields;
    std::istringstream parts(line);
    std::string field;
    while (std::getline(parts, field, ':')) fields.push_back(std::stoll(field));
    prv.records.push_back(fields);
  }
  return prv;
}

// Replays the shared ping-pong fixture into `dir`/out.prv.
std::string replay_pingpong(const TempDir& dir, const std::string& name = "out.prv") {
  auto t = trace::open_dimemas(fixture("dimemas/pingpong.dim"));
  replay::Machine m = testing::machine(4, 250, 5e-6);
  std::string path = dir.path(name);
  auto sink = replay::make_paraver_sink(path, t->header(), m);
  replay::SimulationOptions options;
  options.sink = sink.get();
  replay::simulate(*t, m, options);
  return path;
}

TEST(Paraver, HeaderDescribesDurationNodesTasksAndCommunicators) {
  TempDir dir;
  Prv prv = parse_prv(replay_pingpong(dir));
  // 0.008639395 s (20 digits: the header is written before the body, its end time when it is
  // known); two nodes of one CPU; one application of two single-thread tasks.
  EXPECT_EQ(prv.header,
            "#Paraver (01/01/70 at 00:00):00000000000008639395_ns:2(1,1):1:2(1:1,1:2),1");
  ASSERT_EQ(prv.communicators.size(), 1u);
  EXPECT_EQ(prv.communicators[0], "c:1:1:2:1:2");
}

TEST(Paraver, RecordsHaveTheirFieldCountsAndAreSortedByTime) {
  TempDir dir;
  Prv prv = parse_prv(replay_pingpong(dir));
  int states = 0, events = 0, comms = 0;
  std::int64_t last_time = -1;
  for (const auto& r : prv.records) {
    ASSERT_GE(r.size(), 6u);
    switch (r[0]) {
      case 1:
        EXPECT_EQ(r.size(), 8u);
        EXPECT_LT(r[5], r[6]);  // begin < end
        ++states;
        break;
      case 2:
        EXPECT_EQ(r.size() % 2, 0u);  // 6 fields + type:value pairs
        EXPECT_GE(r.size(), 8u);
        ++events;
        break;
      case 3:
        EXPECT_EQ(r.size(), 15u);
        ++comms;
        break;
      default:
        ADD_FAILURE() << "record type " << r[0];
    }
    EXPECT_GE(r[5], last_time);
    last_time = r[5];
  }
  EXPECT_EQ(comms, 2);
  EXPECT_GT(states, 0);
  EXPECT_GT(events, 0);
}

TEST(Paraver, CommunicationRecordsCarryLogicalAndPhysicalTimes) {
  TempDir dir;
  Prv prv = parse_prv(replay_pingpong(dir));
  std::vector<std::int64_t> first;
  for (const auto& r : prv.records)
    if (r[0] == 3) {
      first = r;
      break;
    }
  ASSERT_FALSE(first.empty());
  // 3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
  EXPECT_EQ(first[3], 1);         // task 1 (rank 0) sends
  EXPECT_EQ(first[5], 1000000);   // logical send: after the 1 ms burst
  EXPECT_EQ(first[6], 1005000);   // physical send: after the 5 us latency
  EXPECT_EQ(first[9], 2);         // to task 2 (rank 1)
  EXPECT_EQ(first[11], 0);        // the receive began at 0 (its latency comes after)
  EXPECT_EQ(first[12], 4819697);  // arrival: 1.005 ms + 1e6 B / 250 MB/s
  EXPECT_EQ(first[13], 1000000);  // bytes
  EXPECT_EQ(first[14], 1);        // tag
}

TEST(Paraver, MpiCallsAreExtraeEventsThatOpenAndClose) {
  TempDir dir;
  Prv prv = parse_prv(replay_pingpong(dir));
  // Rank 0: MPI_Send (50000001:1) at 1 ms, closed (value 0) at 1.005 ms.
  bool opened = false, closed = false;
  for (const auto& r : prv.records) {
    if (r[0] != 2 || r[3] != 1) continue;
    for (std::size_t i = 6; i + 1 < r.size(); i += 2) {
      if (r[i] == 50000001 && r[i + 1] == 1 && r[5] == 1000000) opened = true;
      if (r[i] == 50000001 && r[i + 1] == 0 && r[5] == 1005000) closed = true;
    }
  }
  EXPECT_TRUE(opened);
  EXPECT_TRUE(closed);
}

TEST(Paraver, PcfAndRowDescribeStatesEventsAndRows) {
  TempDir dir;
  std::string prv = replay_pingpong(dir);
  std::string pcf = read_file(dir.path("out.pcf"));
  EXPECT_NE(pcf.find("STATES\n0\tIdle\n1\tRunning\n"), std::string::npos);
  EXPECT_NE(pcf.find("26\tStartup Latency\n"), std::string::npos);
  EXPECT_NE(pcf.find("STATES_COLOR\n0\t{117,195,255}\n"), std::string::npos);
  EXPECT_NE(pcf.find("EVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n0      End\n"
                     "1      MPI_Send\n"),
            std::string::npos);
  std::string row = read_file(dir.path("out.row"));
  EXPECT_NE(row.find("LEVEL CPU SIZE 2\n"), std::string::npos);
  EXPECT_NE(row.find("LEVEL NODE SIZE 2\nnode 0\nnode 1\n"), std::string::npos);
  EXPECT_NE(row.find("LEVEL THREAD SIZE 2\nrank 0\nrank 1\n"), std::string::npos);
}

TEST(Paraver, SameInputsGiveByteIdenticalOutput) {
  TempDir dir;
  std::string a = read_file(replay_pingpong(dir, "a.prv"));
  std::string b = read_file(replay_pingpong(dir, "b.prv"));
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

// One node of `cpus` CPUs running `tasks` tasks of `threads` threads each, with the standard
// states.
trace::ParaverLayout one_node_layout(const char* application, int cpus, int tasks, int threads) {
  trace::ParaverLayout layout;
  layout.application = application;
  layout.cpus_per_node = {cpus};
  layout.task_node.assign(static_cast<std::size_t>(tasks), 0);
  layout.threads.assign(static_cast<std::size_t>(tasks), threads);
  layout.states = trace::paraver_states();
  return layout;
}

TEST(Paraver, ManyRecordsInAnyOrderAreSortedThroughTemporaryRuns) {
  TempDir dir;
  trace::ParaverLayout layout = one_node_layout("spill", 2, 2, 1);
  std::string path = dir.path("spill.prv");
  {
    trace::ParaverWriter writer(path, layout);
    constexpr std::uint64_t n = 700000;  // more than two in-memory runs
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t t = (n - i) * 10;  // backwards in time
      writer.state(static_cast<int>(i % 2), static_cast<int>(i % 2), 0, t, t + 5, 1);
    }
    writer.finish(n * 10 + 5);
  }
  Prv prv = parse_prv(path);
  ASSERT_EQ(prv.records.size(), 700000u);
  for (std::size_t i = 1; i < prv.records.size(); ++i)
    ASSERT_LE(prv.records[i - 1][5], prv.records[i][5]) << "line " << i;
}

// A writer that does not finish (the replay failed) leaves no trace rather than part of one:
// its file held a header with no end and some of the records.
TEST(Paraver, AnUnfinishedTraceIsRemoved) {
  TempDir dir;
  std::string path = dir.path("unfinished.prv");
  {
    trace::ParaverWriter writer(path, one_node_layout("unfinished", 1, 1, 1));
    writer.state(0, 0, 0, 10, 20, 1);
    EXPECT_TRUE(std::ifstream(path).good());
  }
  EXPECT_FALSE(std::ifstream(path).good());
}

// Records arrive out of order within a window that the promises (flush_before) follow, as
// from a replay: the output is every record once, ordered by time, task, thread and kind, and
// in arrival order on equal keys, across the batches the writer sorts one by one.
TEST(Paraver, PromisedRecordsComeOutInKeyThenArrivalOrder) {
  TempDir dir;
  trace::ParaverLayout layout = one_node_layout("window", 2, 2, 2);
  struct Written {
    std::int64_t begin, task, thread, kind, end;
  };
  std::vector<Written> written;
  std::string path = dir.path("window.prv");
  {
    trace::ParaverWriter writer(path, layout);
    std::uint64_t seed = 12345;
    auto random = [&](std::uint64_t n) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      return (seed >> 33) % n;
    };
    constexpr std::int64_t n = 150000;  // several of the writer's batches
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t begin = i / 4 + static_cast<std::int64_t>(random(50)) * 7;  // equal keys too
      int task = static_cast<int>(random(2)), thread = static_cast<int>(random(2));
      int value = random(3) == 0 ? 1 : 3;  // running, or waiting (another kind)
      std::int64_t end = begin + 1 + i;    // tells the records apart
      writer.state(task, task, thread, static_cast<std::uint64_t>(begin),
                   static_cast<std::uint64_t>(end), value);
      written.push_back({begin, task, thread, value == 1 ? 0 : 1, end});
      writer.flush_before(static_cast<std::uint64_t>((i + 1) / 4));  // nothing earlier comes
    }
    writer.finish(static_cast<std::uint64_t>(n * 2));
  }
  std::stable_sort(written.begin(), written.end(), [](const Written& x, const Written& y) {
    return std::tie(x.begin, x.task, x.thread, x.kind) <
           std::tie(y.begin, y.task, y.thread, y.kind);
  });
  Prv prv = parse_prv(path);
  ASSERT_EQ(prv.records.size(), written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    const std::vector<std::int64_t>& r = prv.records[i];
    ASSERT_EQ((std::vector<std::int64_t>{r[3], r[4], r[5], r[6]}),
              (std::vector<std::int64_t>{written[i].task + 1, written[i].thread + 1,
                                         written[i].begin, written[i].end}))
        << "record " << i;
  }
}

// Times 2^60 ns apart in one batch, on many rows: the keys do not fit the packed 64-bit sort
// and are sorted whole.
TEST(Paraver, RecordsFarApartInTimeAreSortedToo) {
  TempDir dir;
  trace::ParaverLayout layout = one_node_layout("far", 1, 1000, 1);
  std::string path = dir.path("far.prv");
  constexpr std::uint64_t kFar = std::uint64_t{1} << 60;
  {
    trace::ParaverWriter writer(path, layout);
    for (int i = 0; i < 2000; ++i) {
      std::uint64_t begin = (i % 2 ? kFar : 0) + static_cast<std::uint64_t>(2000 - i);
      writer.state(0, i % 1000, 0, begin, begin + 1, 1);
    }
    writer.finish(kFar + 5000);
  }
  Prv prv = parse_prv(path);
  ASSERT_EQ(prv.records.size(), 2000u);
  for (std::size_t i = 1; i < prv.records.size(); ++i)
    ASSERT_LE(std::make_pair(prv.records[i - 1][5], prv.records[i - 1][3]),
              std::make_pair(prv.records[i][5], prv.records[i][3]))
        << "line " << i;
  EXPECT_EQ(prv.records.front()[5], 2);  // i = 1998: the earliest
  EXPECT_EQ(prv.records.back()[5], static_cast<std::int64_t>(kFar) + 1999);
}

// The writer keeps the text of each field's last number and rewrites only its last four digits
// when the rest is the same: numbers of every length, across the lengths' boundaries, equal,
// sharing all but their last digits or not, come out as their decimal text.
TEST(Paraver, NumbersOfEveryLengthAreWrittenExactly) {
  TempDir dir;
  trace::ParaverLayout layout = one_node_layout("numbers", 1, 1, 1);
  std::string path = dir.path("n.prv");
  std::vector<std::uint64_t> times = {0,     7,        9999,      10000,     10001,     19999,
                                      20000, 99999999, 100000000, 100009999, 100010000, 100010001};
  for (std::uint64_t p = 1000000000; p <= 1000000000000000000ull; p *= 10)
    times.insert(times.end(), {p - 1, p, p + 9999, p + 10000});
  times.insert(times.end(), {~std::uint64_t{0} - 10000, ~std::uint64_t{0} - 1});
  std::string expected;
  {
    trace::ParaverWriter writer(path, layout);
    for (std::size_t i = 0; i < times.size(); ++i) {
      std::uint64_t t = times[i], end = i % 2 ? t + 1 : times.back() + 1, value = t / 3;
      writer.event(0, 0, 0, t, t, value);
      writer.state(0, 0, 0, t, end, static_cast<int>(i % 30));
      std::string at = "1:1:1:1:1:" + std::to_string(t) + ":";
      expected += "2" + at.substr(1) + std::to_string(t) + ":" + std::to_string(value) + "\n";
      if (end > t) expected += at + std::to_string(end) + ":" + std::to_string(i % 30) + "\n";
    }
    writer.finish(~std::uint64_t{0});
  }
  std::string text = read_file(path);
  std::size_t body = text.find("\n2:");
  ASSERT_NE(body, std::string::npos);
  EXPECT_EQ(text.substr(body + 1), expected);
}

// Rows sort by task, then thread, then kind, however few bits their numbers take.
TEST(Paraver, RecordsAtOneTimeSortByTaskThreadAndKind) {
  TempDir dir;
  trace::ParaverLayout layout = one_node_layout("rows", 1, 5, 4096);
  std::string path = dir.path("rows.prv");
  std::vector<std::vector<std::int64_t>> expected;
  {
    trace::ParaverWriter writer(path, layout);
    for (int task = 4; task >= 0; --task)
      for (int thread : {4095, 2048, 3, 1, 0}) {
        writer.state(0, task, thread, 100, 200, 3);
        writer.state(0, task, thread, 100, 300, 1);
        writer.event(0, task, thread, 100, 5, 6);
      }
    writer.finish(300);
  }
  for (int task = 0; task <= 4; ++task)
    for (int thread : {0, 1, 3, 2048, 4095}) {
      expected.push_back({2, 1, 1, task + 1, thread + 1, 100, 5, 6});
      expected.push_back({1, 1, 1, task + 1, thread + 1, 100, 300, 1});
      expected.push_back({1, 1, 1, task + 1, thread + 1, 100, 200, 3});
    }
  EXPECT_EQ(parse_prv(path).records, expected);
}

TEST(Paraver, EventsOfOneThreadAtOneTimeShareALine) {
  TempDir dir;
  trace::ParaverLayout layout;
  layout.application = "events";
  layout.cpus_per_node = {1};
  layout.task_node = {0};
  layout.threads = {1};
  std::string path = dir.path("e.prv");
  {
    trace::ParaverWriter writer(path, layout);
    writer.event(0, 0, 0, 100, 7, 1);
    writer.event(0, 0, 0, 100, 8, 2);
    writer.event(0, 0, 0, 50, 9, 3);
    writer.finish(200);
  }
  Prv prv = parse_prv(path);
  ASSERT_EQ(prv.records.size(), 2u);
  EXPECT_EQ(prv.records[0], (std::vector<std::int64_t>{2, 1, 1, 1, 1, 50, 9, 3}));
  EXPECT_EQ(prv.records[1], (std::vector<std::int64_t>{2, 1, 1, 1, 1, 100, 7, 1, 8, 2}));
}

}  // namespace
}  // namespace tareador
