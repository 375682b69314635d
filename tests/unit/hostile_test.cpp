// Hostile inputs (issue 15): sizes a header declares, numbers that cannot be simulated, text
// toml++ must not see, messages that quote a short excerpt and name file:line. (FIFOs, memory
// limits and open-file limits are tested through the commands: tests/e2e/run.sh.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "replay/collectives.h"
#include "test_util.h"
#include "tracefmt/toml_input.h"

namespace tareador {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing::TempDir;

// The error of `body` (a FormatError: "file:line: message"); "" if it throws none.
template <typename Body>
std::string error_of(Body body) {
  try {
    body();
  } catch (const trace::FormatError& e) {
    return e.what();
  }
  return "";
}

// The error reading and replaying the .dim `text` (a deadlock report too).
std::string dim_error(const TempDir& dir, const std::string& text) {
  try {
    return error_of([&] {
      auto t = trace::open_dimemas(dir.write("bad.dim", text));
      replay::simulate(*t, testing::machine(2, 100, 1e-6));
    });
  } catch (const replay::DeadlockError& e) {
    return e.what();
  }
}

const std::string kTwoTasks = "#DIMEMAS:\"x\":0:2(1,1),1\nd:1:1:2:0:1\n";

// ---- Sizes declared in headers, checked before anything is allocated ----------------------

TEST(Hostile, DimThreadsMustFitTheFile) {
  TempDir dir;
  // 43 bytes that used to ask for 12 GB: the file cannot hold 10^7 threads' records.
  EXPECT_EQ(dim_error(dir, "#DIMEMAS:\"x\":0:1(10000000),0\n1:0:0:0.1\n"),
            dir.path("bad.dim") +
                ":1: header: 10000000 threads, more than a file of 39 bytes "
                "can hold (each needs a record or an offset)");
  EXPECT_THAT(dim_error(dir, "#DIMEMAS:\"x\":0:1(20000000),0\n1:0:0:0.1\n"),
              HasSubstr("bad.dim:1: header: 20000000 threads; a trace has at most 2^24 in all"));
  EXPECT_THAT(dim_error(dir, "#DIMEMAS:\"x\":0:20000000(1),0\n"),
              HasSubstr("bad.dim:1: header: 20000000 tasks; a trace has at most 2^24"));
}

TEST(Hostile, NestedConfigArraysStopAtADepth) {
  TempDir dir;
  // 200,000 nested arrays on one line: a stack overflow and quadratic memory before.
  std::string deep = "#DIMEMAS_CONFIGURATION\n\"x\" {";
  for (int i = 0; i < 200000; ++i) deep += "[1] {";
  std::string path = dir.write("deep.cfg", deep + "1};;\n");
  EXPECT_EQ(error_of([&] { replay::load_machine(path); }),
            path + ":2: arrays nested more than 8 deep");
}

TEST(Hostile, MachineCountsHaveLimits) {
  TempDir dir;
  std::string base = "[network]\nbandwidth = 1\n[[nodes]]\n";
  std::string nodes = dir.write("nodes.toml", base + "count = 2147483647\n");
  EXPECT_EQ(error_of([&] { replay::load_machine(nodes); }),
            nodes + ":4: [[nodes]] #1: count is out of range (at most 1048576): 2147483647");
  std::string cores = dir.write("cores.toml", base + "cores = 1048577\n");
  EXPECT_THAT(error_of([&] { replay::load_machine(cores); }),
              HasSubstr("cores.toml:4: [[nodes]] #1: cores is out of range"));
  replay::Machine m = testing::machine(1, 100, 0);
  EXPECT_THROW(replay::apply_override(m, "nodes=1048577"), std::invalid_argument);
  EXPECT_THROW(replay::apply_override(m, "cores=2000000"), std::invalid_argument);
}

TEST(Hostile, SetRanksMustLeaveFiles) {
  TempDir dir;
  auto manifest = [&](int ranks) {
    dir.write("set/manifest.toml",
              "format = \"tareador-trace-set\"\nversion = 2\nname = \"x\"\n"
              "ranks = " +
                  std::to_string(ranks) + "\nmips = 1000.0\nkinds = [\"authentic\"]\n");
  };
  dir.write("set/authentic.0.trc", "end\n");
  dir.write("set/rank-0.toml", "rank = 0\nstatus = \"complete\"\nopaque_calls = []\n");
  // A few bytes cannot ask for 2^24 ranks: ranks that left no file are at most 4096 more than
  // those that did.
  manifest(16777216);
  EXPECT_EQ(error_of([&] { trace::open_traces(dir.path("set")); }),
            dir.path("set/manifest.toml") +
                ": the set has 16777216 ranks but 16777215 of them left no file (no rank manifest, "
                "no stream): at most 4096 more than those that did");
  // A job killed early: its ranks that left nothing are empty and truncated.
  manifest(4097);
  auto traces = trace::open_traces(dir.path("set"));
  EXPECT_EQ(traces.at(0)->header().tasks(), 4097);
  EXPECT_EQ(traces[0]->header().truncated_tasks.size(), 4096u);
}

TEST(Hostile, TruncatedTasksStreamMissesFewSections) {
  TempDir dir;
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 2\nname = \"x\"\nranks = 1\n"
            "mips = 1000.0\nkinds = [\"tasks\"]\n");
  dir.write("set/rank-0.toml",
            "rank = 0\nstatus = \"truncated\"\nreason = \"killed\"\nopaque_calls = []\n");
  dir.write("set/tasks.0.trc", "task 1 main 0\nspawn 2000000000\nendtask\n");
  EXPECT_EQ(error_of([&] { trace::open_traces(dir.path("set")); }),
            dir.path("set/tasks.0.trc") +
                ":2: instance 2000000000 is named here but 1999999999 instances below it have no "
                "section (a truncated stream may lack at most 65536)");
}

// ---- Numbers that cannot be simulated ------------------------------------------------------

TEST(Hostile, BurstsAreFiniteNumbers) {
  TempDir dir;
  EXPECT_EQ(dim_error(dir, kTwoTasks + "1:0:0:inf\n"),
            dir.path("bad.dim") + ":3: field 'duration' is not a finite number: 'inf'");
  EXPECT_EQ(dim_error(dir, kTwoTasks + "1:0:0:nan\n"),
            dir.path("bad.dim") + ":3: field 'duration' is not a finite number: 'nan'");
  EXPECT_EQ(dim_error(dir, kTwoTasks + "1:0:0:1e400\n"),
            dir.path("bad.dim") + ":3: field 'duration' is out of range: '1e400'");
  EXPECT_EQ(dim_error(dir, kTwoTasks + "1:0:0:abc\n"),
            dir.path("bad.dim") + ":3: field 'duration' is not a number: 'abc'");
}

TEST(Hostile, ARunPastTheLongestTimeStopsAtItsRecord) {
  TempDir dir;
  EXPECT_EQ(dim_error(dir, kTwoTasks + "1:0:0:0.5\n1:0:0:1e300\n1:1:0:1\n"),
            dir.path("bad.dim") +
                ":4: the simulated run would last past 9.2e9 s (292 years: times in nanoseconds "
                "must stay below 2^63) at this record (CPU burst)");
  // Bursts each below the limit, together past it.
  EXPECT_THAT(dim_error(dir, kTwoTasks + "1:0:0:5e9\n1:0:0:5e9\n"),
              HasSubstr("bad.dim:4: the simulated run would last past 9.2e9 s"));
  // All-reduces of 2^63 - 1 bytes: the 2MAX and S+R rules do not overflow, the time is long.
  std::string huge = "10:0:0:11:1:0:0:9223372036854775807:9223372036854775807:1\n";
  EXPECT_THAT(dim_error(dir, kTwoTasks + huge +
                                 "10:1:0:11:1:0:0:9223372036854775807:"
                                 "9223372036854775807:1\n"),
              HasSubstr("at this record (MPI_Allreduce on comm 1)"));
}

TEST(Hostile, CollectiveSizeRulesDoNotOverflow) {
  const std::int64_t max = INT64_MAX;
  EXPECT_EQ(replay::collective_phase_bytes(replay::CollectiveSize::TwiceMax, true, max, 1),
            2 * static_cast<double>(max));
  EXPECT_EQ(replay::collective_phase_bytes(replay::CollectiveSize::SendPlusRecv, true, max, max),
            2 * static_cast<double>(max));
  EXPECT_EQ(replay::collective_phase_bytes(replay::CollectiveSize::Mean, true, 1, 2), 1.0);
  // 2^64 bytes at 1 MB/s: 2^44 s, not the 37 us a wrapped size gave.
  EXPECT_EQ(replay::collective_phase_ns(replay::CollectiveModel::Constant, 2, 0, 0, 1,
                                        std::ldexp(1.0, 64)),
            std::ldexp(1e9, 44));
}

TEST(Hostile, CpuRatioAndMipsHaveRanges) {
  replay::Machine m = testing::machine(1, 100, 0);
  EXPECT_THROW(replay::apply_override(m, "cpu_ratio=5e-324"), std::invalid_argument);
  EXPECT_THROW(replay::apply_override(m, "cpu_ratio=1e7"), std::invalid_argument);
  EXPECT_THROW(replay::apply_override(m, "mips=1e300"), std::invalid_argument);
  EXPECT_THROW(replay::apply_override(m, "mips=inf"), std::invalid_argument);
  replay::apply_override(m, "cpu_ratio=1e-6");
  EXPECT_EQ(m.nodes[0].cpu_ratio, 1e-6);
  TempDir dir;
  std::string path =
      dir.write("ratio.toml", "[network]\nbandwidth = 1\n[[nodes]]\ncpu_ratio = 5e-324\n");
  EXPECT_THAT(error_of([&] { replay::load_machine(path); }),
              HasSubstr("ratio.toml:4: [[nodes]] #1: cpu_ratio must be between 1e-6 and 1e6"));
}

// A two-rank set whose manifest and rank-0 manifest end with the given lines.
std::string set_with(const TempDir& dir, const std::string& manifest_extra,
                     const std::string& rank0_extra) {
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 2\nname = \"x\"\nranks = 2\n"
            "kinds = [\"authentic\"]\n" +
                manifest_extra);
  const std::string comm = "\n[[communicator]]\nid = 1\ntasks = [0, 1]\n";
  dir.write("set/rank-0.toml",
            "rank = 0\nstatus = \"complete\"\nopaque_calls = []\n" + rank0_extra + comm);
  dir.write("set/rank-1.toml", "rank = 1\nstatus = \"complete\"\nopaque_calls = []\n" + comm);
  dir.write("set/authentic.0.trc", "cpu 5\nsend 1 3 1 8 eager\nend\n");
  dir.write("set/authentic.1.trc", "cpu 5\nend\n");
  return dir.path("set");
}

TEST(Hostile, ManifestNumbersAreChecked) {
  TempDir dir;
  std::string set = set_with(dir, "mips = inf\n", "");
  EXPECT_EQ(error_of([&] { trace::open_traces(set); }),
            dir.path("set/manifest.toml") +
                ":6: mips must be at most 10^9 (instructions per microsecond)");
  set = set_with(dir, "mips = 1000.0\n", "\n[[communicator]]\nid = 4294967297\ntasks = [0]\n");
  EXPECT_EQ(
      error_of([&] { trace::open_traces(set); }),
      dir.path("set/rank-0.toml") + ":6: communicator id 4294967297 is out of range (32-bit)");
}

// ---- Messages ------------------------------------------------------------------------------

TEST(Hostile, UnmatchedSendsAreLocatedAtTheirLine) {
  TempDir dir;
  std::string set = set_with(dir, "mips = 1000.0\n", "");
  auto traces = trace::open_traces(set);
  replay::Result r = replay::simulate(*traces[0], testing::machine(2, 100, 1e-6));
  EXPECT_THAT(r.notes, Contains(HasSubstr("rank 0 sent 1 message(s) to rank 1 (tag 3, comm 1) that "
                                          "no receive matched (the first at " +
                                          dir.path("set/authentic.0.trc") + ":2)")));
}

TEST(Hostile, IntegersOutOfRangeAreSaidSo) {
  TempDir dir;
  EXPECT_EQ(dim_error(dir, kTwoTasks + "2:0:0:1:-1:9223372036854775808:1:1:0\n"),
            dir.path("bad.dim") +
                ":3: field 'size' is out of range (64-bit integers): '9223372036854775808'");
  EXPECT_EQ(dim_error(dir, kTwoTasks + "2:0:0:1:-1:12x:1:1:0\n"),
            dir.path("bad.dim") + ":3: field 'size' is not an integer: '12x'");
  // 2^63 - 1, the largest, is a size.
  auto t = trace::open_dimemas(
      dir.write("max.dim", kTwoTasks + "2:0:0:1:-1:9223372036854775807:1:1:0\n"));
  trace::Record r;
  ASSERT_TRUE(t->open(0, 0)->next(r));
  EXPECT_EQ(r.bytes, INT64_MAX);
}

TEST(Hostile, ErrorsQuoteAShortEscapedExcerpt) {
  TempDir dir;
  std::string field(1 << 20, 'x');
  field[3] = '\x01';
  std::string error = dim_error(dir, kTwoTasks + "1:0:0:" + field + "\n");
  EXPECT_EQ(error, dir.path("bad.dim") + ":3: field 'duration' is not a number: 'xxx\\x01" +
                       std::string(36, 'x') + "'... (1048576 bytes)");
  EXPECT_EQ(trace::excerpt("caf\xc3\xa9\xff"), "'caf\xc3\xa9\\xff'");
  EXPECT_EQ(trace::clipped("abcdef", 3), "abc... (6 bytes)");
}

// ---- TOML that toml++ 3.3.0 must not see ---------------------------------------------------

TEST(Hostile, TomlIsCheckedBeforeTomlPlusPlusReadsIt) {
  using trace::toml_hazard;
  // toml++ 3.3.0 reaches an unreachable point on these (its issue 190, and non-ASCII text
  // where TOML has none), and misdecodes malformed UTF-8.
  EXPECT_EQ(toml_hazard("s = \"\"\"\\\n\xc2\xa7\"\"\"\n").first, 2u);
  EXPECT_EQ(toml_hazard("a = 1\nb = 2 \xc2\xa7\n").first, 2u);
  EXPECT_EQ(toml_hazard("\xcc\xaa").first, 1u);
  // A quote where no string starts: the look-ahead of the value before it reads on.
  EXPECT_EQ(toml_hazard("a = 1\nb = 2E'\xc4\xb6'\n").first, 2u);
  EXPECT_EQ(toml_hazard("a = \"x\"\"\xc4\xb6\"\n").first, 1u);
  EXPECT_EQ(toml_hazard("a = \"\xff\"\n").second, "not valid UTF-8 (a TOML file is UTF-8 text)");
  // Non-ASCII text where TOML allows it: strings of each kind, comments, quoted keys.
  EXPECT_EQ(
      toml_hazard("# caf\xc3\xa9\na = \"\xc3\xa9\" # \xc3\xa9\nb = '\xc3\xa9'\n"
                  "c = \"\"\"\xc3\xa9\n\xc3\xa9\"\"\"\nd = '''\n\xc3\xa9'''\n\"\xc3\xa9\" = 1\n"
                  "e = \"\"\"\\\n  x\xc3\xa9\"\"\"\n")
          .first,
      0u);
  TempDir dir;
  std::string path = dir.write("m.toml", "name = \"x\"\n[network]\nbandwidth = 1 \xc2\xa7\n");
  EXPECT_EQ(error_of([&] { replay::load_machine(path); }),
            path +
                ":3: a non-ASCII character outside a string or a comment (TOML allows them "
                "only there)");
}

}  // namespace
}  // namespace tareador
