// The rank-to-rank matrix of MPI traces (comm/mpi_matrix.h): point-to-point messages, the
// collectives decomposed into their transfers with exact per-pair bytes, the same matrix from
// the trace's records and from the replay's sink, and a collective the members disagree on.
#include "comm/mpi_matrix.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace tareador {
namespace {

using comm::Matrix;
using testing::TempDir;

// Bytes per pair of a 4-rank matrix, row-major, as the test writes them.
using Cells = std::vector<double>;

// The matrix of the records of `body` (Dimemas records of 4 tasks), and the one the replay's
// sink builds; the test checks they agree and returns one.
Matrix matrix_of(const std::string& body) {
  TempDir dir;
  auto t = trace::open_dimemas(dir.write("t.dim", testing::dim_header(4) + body));
  Matrix traced = comm::traced_matrix(*t);
  Matrix replayed = Matrix::numbered(4);
  auto sink = comm::make_matrix_sink(t->header(), replayed);
  testing::simulate_dim(dir, 4, body, testing::machine(4, 100, 1e-6), sink.get());
  EXPECT_EQ(traced.bytes, replayed.bytes) << body;
  EXPECT_EQ(traced.events, replayed.events) << body;
  return traced;
}

// `op` on communicator 1 by every task; `root` (or -1) has the root flag; task i sends
// sent[i] and receives received[i] bytes.
std::string collective(int op, int root, Cells sent, Cells received) {
  std::string body;
  for (int i = 0; i < 4; ++i)
    body += "10:" + std::to_string(i) + ":0:" + std::to_string(op) +
            ":1:" + (i == root ? "1" : "0") + ":0:" + std::to_string(static_cast<int>(sent[i])) +
            ":" + std::to_string(static_cast<int>(received[i])) + "\n";
  return body;
}

TEST(MpiMatrix, SendsCountFromSenderToReceiver) {
  Matrix m = matrix_of(
      "2:0:0:1:-1:100:7:1:0\n2:0:0:1:-1:50:7:1:0\n3:1:0:0:-1:100:7:1:0\n3:1:0:0:-1:50:7:1:0\n"
      "2:3:0:2:-1:10:7:1:0\n3:2:0:3:-1:10:7:1:0\n");
  EXPECT_EQ(m.bytes, (Cells{0, 150, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0}));
  EXPECT_EQ(m.events, (Cells{0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}));
}

TEST(MpiMatrix, BcastIsABinomialTreeFromTheRoot) {
  // Root 2: relative ranks 0..3 are tasks 2, 3, 0, 1; relative 1 and 2 receive from 0, and 3
  // from 2: 2 -> 3, 2 -> 0, 0 -> 1, 1000 bytes each.
  Matrix m = matrix_of(collective(trace::kBcast, 2, {0, 0, 1000, 0}, {1000, 1000, 0, 1000}));
  EXPECT_EQ(m.bytes, (Cells{0, 1000, 0, 0,  //
                            0, 0, 0, 0,     //
                            1000, 0, 0, 1000, 0, 0, 0, 0}));
  EXPECT_EQ(m.total(comm::Quantity::events), 3);
}

TEST(MpiMatrix, AllreduceIsAReductionToMemberZeroThenItsBroadcast) {
  Matrix m = matrix_of(collective(trace::kAllreduce, -1, {8, 8, 8, 8}, {8, 8, 8, 8}));
  // Up: 1 -> 0, 2 -> 0, 3 -> 2; down: 0 -> 1, 0 -> 2, 2 -> 3.
  EXPECT_EQ(m.bytes, (Cells{0, 8, 8, 0, 8, 0, 0, 0, 8, 0, 0, 8, 0, 0, 8, 0}));
  EXPECT_EQ(m.total(comm::Quantity::events), 6);
}

TEST(MpiMatrix, GatherScatterAndAlltoallGoStraightBetweenMembers) {
  Matrix gather = matrix_of(collective(trace::kGather, 0, {4, 5, 6, 7}, {22, 0, 0, 0}));
  EXPECT_EQ(gather.bytes, (Cells{0, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0}));
  Matrix scatter = matrix_of(collective(trace::kScatter, 3, {0, 0, 0, 40}, {10, 10, 10, 10}));
  EXPECT_EQ(scatter.bytes, (Cells{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 10, 10, 0}));
  // Each member sends a quarter of what it sends in all to each other member.
  Matrix all = matrix_of(collective(trace::kAlltoall, -1, {40, 80, 40, 40}, {50, 50, 50, 50}));
  EXPECT_EQ(all.bytes, (Cells{0, 10, 10, 10, 20, 0, 20, 20, 10, 10, 0, 10, 10, 10, 10, 0}));
  EXPECT_EQ(all.total(comm::Quantity::events), 12);
}

TEST(MpiMatrix, BarrierHasMessagesAndNoBytes) {
  Matrix m = matrix_of(collective(trace::kBarrier, -1, {0, 0, 0, 0}, {0, 0, 0, 0}));
  EXPECT_EQ(m.total(comm::Quantity::bytes), 0);
  EXPECT_EQ(m.events, (Cells{0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0}));
}

TEST(MpiMatrix, MembersThatDisagreeAreAnErrorAtTheRecord) {
  TempDir dir;
  std::string body = collective(trace::kBcast, 0, {8, 0, 0, 0}, {0, 8, 8, 8});
  body.replace(body.find("10:3:0:1:"), 9, "10:3:0:11:");  // task 3 calls MPI_Allreduce
  std::string path = dir.write("t.dim", testing::dim_header(4) + body);
  auto t = trace::open_dimemas(path);
  try {
    comm::traced_matrix(*t);
    FAIL() << "no error";
  } catch (const trace::FormatError& e) {
    EXPECT_EQ(e.file(), path + ":6");
    EXPECT_EQ(e.message(),
              "collective 1 of communicator 1: task 0 calls MPI_Bcast, task 3 calls "
              "MPI_Allreduce");
  }
}

}  // namespace
}  // namespace tareador
