// The cache-aware marshalling term (replay/marshalling.h): a send's `lines=` read and written by
// the native format, its bad values, the machine's marshal_line_cost (--set, TOML, Dimemas
// extension record) and exact transfer times: strided data costs more than contiguous data of
// the same size, and with the cost at 0 the time is Dimemas's to the bit.
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.h"

namespace tareador {
namespace {

using testing::TempDir;

// A two-rank set: rank 0 sends `send` (a send line), rank 1 receives 4096 bytes.
std::string one_message(const TempDir& dir, const std::string& send) {
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"m\"\nranks = 2\n"
            "mips = 1000.0\nkinds = [\"authentic\"]\n");
  const std::string comm = "\n[[communicator]]\nid = 1\ntasks = [0, 1]\n";
  for (int r = 0; r < 2; ++r)
    dir.write(
        "set/rank-" + std::to_string(r) + ".toml",
        "rank = " + std::to_string(r) + "\nstatus = \"complete\"\nopaque_calls = []\n" + comm);
  dir.write("set/authentic.0.trc",
            "# tareador stream v1 kind=authentic rank=0\n" + send + "\nend\n");
  dir.write("set/authentic.1.trc",
            "# tareador stream v1 kind=authentic rank=1\nrecv 0 5 1 4096\nend\n");
  return dir.path("set");
}

// The time of `set`'s replay with --set marshal_line_cost=`line_cost`.
double time_of(const std::string& set, const std::string& line_cost) {
  replay::Machine m = testing::machine(2, 100, 1e-6);
  replay::apply_override(m, "marshal_line_cost=" + line_cost);
  return replay::simulate(*trace::open_traces(set).front(), m).total_time;
}

TEST(Marshalling, StridedCostsMoreThanContiguousOfTheSameSize) {
  TempDir contiguous_dir, strided_dir;
  // 4096 bytes: 64 lines contiguous; 512 doubles a line apart (a matrix column): 512 lines.
  std::string contiguous = one_message(contiguous_dir, "send 1 5 1 4096 eager");
  std::string strided = one_message(strided_dir, "send 1 5 1 4096 eager lines=512");
  const double base = 1e-6 + testing::transfer(4096, 100), cost = 1e-8;
  EXPECT_DOUBLE_EQ(time_of(contiguous, "1e-8"), base + 64 * cost);
  EXPECT_DOUBLE_EQ(time_of(strided, "1e-8"), base + 512 * cost);
  // Off: the same bits as a machine that never heard of it.
  replay::Machine plain = testing::machine(2, 100, 1e-6);
  const double dimemas = replay::simulate(*trace::open_traces(strided).front(), plain).total_time;
  EXPECT_EQ(time_of(strided, "0"), dimemas);
  EXPECT_EQ(time_of(contiguous, "0"), dimemas);
}

TEST(Marshalling, LinesAreWrittenBackAndCheckedOnRead) {
  TempDir dir;
  auto in = trace::open_traces(one_message(dir, "isend 1 5 1 4096 eager 0 lines=100"));
  trace::TraceHeader header = in.front()->header();
  auto writer = trace::make_native_writer(dir.path("copy"), header);
  trace::copy_trace(*in.front(), *writer);
  writer.reset();
  EXPECT_NE(testing::read_file(dir.path("copy/authentic.0.trc"))
                .find("isend 1 5 1 4096 eager 0 lines=100\n"),
            std::string::npos);

  const std::pair<const char*, const char*> bad[] = {
      {"send 1 5 1 4096 eager lines=63", "lines=63 for 4096 bytes: between 64 and 4096"},
      {"send 1 5 1 4096 eager lines=4097", "lines=4097 for 4096 bytes: between 64 and 4096"},
      {"send 1 5 1 4096 eager lines=x", "expected lines=U (unique cache lines), not 'lines=x'"},
      {"send 1 5 1 4096 eager rows=3", "expected lines=U (unique cache lines), not 'rows=3'"},
      {"send 1 5 1 1000000000000 eager lines=20000000000", "lines=20000000000: at most 2^31 - 1"},
  };
  for (const auto& [line, message] : bad) {
    TempDir d;
    std::string set = one_message(d, line);
    try {
      auto t = trace::open_traces(set);
      trace::validate(*t.front());
      replay::simulate(*t.front(), testing::machine(2, 100, 1e-6));
      ADD_FAILURE() << "no error for " << line;
    } catch (const trace::FormatError& e) {
      EXPECT_EQ(e.file(), set + "/authentic.0.trc") << line;
      EXPECT_EQ(e.line(), 2u) << line;
      EXPECT_EQ(e.message(), message) << line;
    }
  }
}

TEST(Marshalling, TheMachineKeyInEveryConfiguration) {
  TempDir dir;
  std::string cfg = testing::read_file(testing::fixture("dimemas/cfg_4n_nobus.cfg"));
  EXPECT_EQ(replay::load_machine(dir.write("a.cfg", cfg)).marshal_line_cost, 0);
  replay::Machine m = replay::load_machine(
      dir.write("b.cfg", cfg + "\n\"tareador marshalling information\" {0, 2.5e-9};;\n"));
  EXPECT_EQ(m.marshal_line_cost, 2.5e-9);
  try {
    replay::load_machine(
        dir.write("c.cfg", cfg + "\"tareador marshalling information\" {0, -1};;\n"));
    FAIL() << "no error";
  } catch (const trace::FormatError& e) {
    EXPECT_EQ(e.line(), 14u);
  }
  std::string toml = testing::read_file(testing::fixture("sweep/machine.toml"));
  toml.replace(toml.find("buses = 0"), 9, "buses = 0\nmarshal_line_cost = 3e-9");
  EXPECT_EQ(replay::load_machine(dir.write("m.toml", toml)).marshal_line_cost, 3e-9);
  replay::apply_override(m, "marshal_line_cost=0");
  EXPECT_EQ(m.marshal_line_cost, 0);
  EXPECT_THROW(replay::apply_override(m, "marshal_line_cost=-1"), std::invalid_argument);
  m.marshal_line_cost = 1e-9;
  replay::make_network_ideal(m);
  EXPECT_EQ(m.marshal_line_cost, 0);
}

}  // namespace
}  // namespace tareador
