// The network and CPU model of the replayer against hand-computed times (Dimemas 5.5 rules).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_util.h"

namespace tareador {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing::machine;
using testing::simulate_dim;
using testing::TempDir;
using testing::transfer;

constexpr double L = 5e-6;     // latency of the test machines
constexpr double BW = 250;     // MB/s
constexpr double kNs = 1e-12;  // comparisons: far below a nanosecond

// Records what the engine reports, to check states and messages.
class Recorder : public replay::TimelineSink {
 public:
  struct Span {
    int task;
    double begin, end;
    replay::State state;
  };
  std::vector<Span> states;
  std::vector<replay::Message> messages;
  int calls = 0;
  double end = -1;

  void state(int task, int, double begin, double e, replay::State s) override {
    states.push_back({task, begin, e, s});
  }
  void event(int, int, double, std::uint64_t, std::uint64_t) override {}
  void message(const replay::Message& m) override { messages.push_back(m); }
  void call(int, int, double, double, const trace::Record&) override { ++calls; }
  void finish(double t) override { end = t; }

  std::vector<Span> of(int task) const {
    std::vector<Span> out;
    for (const Span& s : states)
      if (s.task == task) out.push_back(s);
    return out;
  }
};

TEST(Engine, EagerSendCostsTheSenderOneLatencyAndDoesNotWait) {
  TempDir dir;
  Recorder rec;
  auto r = simulate_dim(dir, 2,
                        "1:0:0:0.001\n2:0:0:1:-1:1000:1:1:0\n1:0:0:0.002\n"
                        "3:1:0:0:-1:1000:1:1:0\n",
                        machine(2, BW, L), &rec);
  EXPECT_NEAR(r.ranks[0].end, 0.001 + L + 0.002, kNs);
  EXPECT_NEAR(r.ranks[1].end, 0.001 + L + transfer(1000, BW), kNs);
  EXPECT_NEAR(r.total_time, 0.003005, kNs);
  // The receiver pays its latency first, then waits for the message.
  auto spans = rec.of(1);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].state, replay::State::Startup);
  EXPECT_NEAR(spans[0].end, L, kNs);
  EXPECT_EQ(spans[1].state, replay::State::WaitingMessage);
  EXPECT_NEAR(spans[1].end, 0.001 + L + transfer(1000, BW), kNs);
  EXPECT_NEAR(r.ranks[1].communication, L, kNs);
  EXPECT_NEAR(r.ranks[1].waiting, 0.001 + transfer(1000, BW), kNs);
  ASSERT_EQ(rec.messages.size(), 1u);
  EXPECT_NEAR(rec.messages[0].logical_send, 0.001, kNs);
  EXPECT_NEAR(rec.messages[0].physical_send, 0.001 + L, kNs);
  EXPECT_NEAR(rec.messages[0].logical_recv, 0, kNs);  // when the receive began
  EXPECT_NEAR(rec.messages[0].physical_recv, 0.001 + L + transfer(1000, BW), kNs);
  EXPECT_EQ(rec.calls, 2);
}

TEST(Engine, BlockingRendezvousSenderWaitsUntilItsReceiveIsPosted) {
  TempDir dir;
  auto r = simulate_dim(dir, 2,
                        "2:0:0:1:-1:1000000:1:1:1\n1:0:0:0.0001\n"
                        "1:1:0:0.002\n3:1:0:0:-1:1000000:1:1:0\n",
                        machine(2, BW, L));
  // The receive is posted after the receiver's latency, at 0.002 + L.
  EXPECT_NEAR(r.ranks[0].end, 0.002 + L + 0.0001, kNs);
  EXPECT_NEAR(r.ranks[0].waiting, 0.002, kNs);
  EXPECT_NEAR(r.ranks[1].end, 0.002 + L + transfer(1e6, BW), kNs);
}

TEST(Engine, ImmediateReceiveIsFreeAndItsWaitCostsOneLatency) {
  TempDir dir;
  auto r = simulate_dim(dir, 2,
                        "1:0:0:0.001\n2:0:0:1:-1:100:1:1:0\n"
                        "3:1:0:0:-1:100:1:1:1\n1:1:0:0.003\n3:1:0:0:-1:100:1:1:2\n",
                        machine(2, BW, L));
  EXPECT_NEAR(r.ranks[1].end, 0.003 + L, kNs);
  EXPECT_NEAR(r.ranks[1].compute, 0.003, kNs);
  EXPECT_NEAR(r.ranks[1].communication, L, kNs);
  EXPECT_NEAR(r.ranks[1].waiting, 0, kNs);
}

TEST(Engine, WaitBlocksUntilTheMessageArrives) {
  TempDir dir;
  auto r = simulate_dim(dir, 2,
                        "1:0:0:0.002\n2:0:0:1:-1:1000000:1:1:2\n"
                        "3:1:0:0:-1:1000000:1:1:1\n1:1:0:0.001\n3:1:0:0:-1:1000000:1:1:2\n",
                        machine(2, BW, L));
  EXPECT_NEAR(r.ranks[1].end, 0.002 + L + transfer(1e6, BW), kNs);
  EXPECT_NEAR(r.ranks[1].waiting, 0.002 + transfer(1e6, BW) - 0.001, kNs);
}

// Dimemas does not pair a message with a receive when either is posted: a blocking receive
// takes the first message arrived on its channel, even one an earlier immediate receive would
// take in MPI.
TEST(Engine, AReceiveTakesTheFirstMessageArrivedOnItsChannel) {
  TempDir dir;
  Recorder rec;
  // Rank 0: an immediate receive, a blocking receive and the wait, all from rank 1 with one
  // tag; rank 1 sends 8 bytes, then 1 MB.
  auto r = simulate_dim(dir, 2,
                        "1:0:0:0.001\n3:0:0:1:-1:8:2:1:1\n3:0:0:1:-1:1000000:2:1:0\n"
                        "3:0:0:1:-1:8:2:1:2\n"
                        "1:1:0:0.0001\n2:1:0:0:-1:8:2:1:0\n2:1:0:0:-1:1000000:2:1:0\n",
                        machine(2, BW, L), &rec);
  // The blocking receive takes the 8 bytes (there since 0.1 ms) at 1 ms + L; the wait, at
  // 1 ms + 2L, waits for the 1 MB.
  double megabyte_arrives = 0.0001 + 2 * L + transfer(1e6, BW);
  EXPECT_NEAR(r.ranks[0].end, megabyte_arrives, kNs);
  EXPECT_NEAR(r.ranks[0].waiting, megabyte_arrives - (0.001 + 2 * L), kNs);
  ASSERT_EQ(rec.messages.size(), 2u);
  EXPECT_EQ(rec.messages[0].bytes, 8);
  EXPECT_NEAR(rec.messages[0].logical_recv, 0.001, kNs);  // the immediate receive's time
}

// A rendezvous send goes at once when a receive is blocked on its channel, even one whose own
// message is still in flight: the second of two sends to a blocked receiver is asked for at once
// (it waits for the link the first holds), and its sender does not wait for the second receive.
TEST(Engine, ARendezvousSendGoesWhileItsReceiverIsStillBlocked) {
  TempDir dir;
  auto r = simulate_dim(dir, 2,
                        "1:0:0:0.0001\n3:0:0:1:-1:1000000:0:1:0\n1:0:0:0.0008\n"
                        "3:0:0:1:-1:1000000:0:1:0\n1:0:0:0.001\n"
                        "1:1:0:0.0002\n2:1:0:0:-1:1000000:0:1:1\n2:1:0:0:-1:1000000:0:1:1\n"
                        "1:1:0:0.0001\n",
                        machine(2, BW, L));
  EXPECT_NEAR(r.ranks[1].end, 0.0002 + 2 * L + 0.0001, kNs);
  EXPECT_NEAR(r.ranks[1].waiting, 0, kNs);
  // The second message arrives right after the first (at 0.2 ms + L + 2T), before the second
  // receive is posted.
  EXPECT_NEAR(r.ranks[0].end, 0.0002 + L + 2 * transfer(1e6, BW) + 0.001, kNs);
}

// A blocking rendezvous sender goes on once its transfer is asked for, not when it starts: here
// the transfer waits for the one bus, which another transfer holds.
TEST(Engine, ABlockingRendezvousSenderGoesOnOnceItsTransferIsAskedFor) {
  TempDir dir;
  auto r = simulate_dim(dir, 4,
                        "3:0:0:1:-1:1000000:1:1:0\n"
                        "1:1:0:0.0001\n2:1:0:0:-1:1000000:1:1:1\n1:1:0:0.0001\n"
                        "2:2:0:3:-1:1000000:1:1:0\n3:3:0:2:-1:1000000:1:1:0\n",
                        machine(4, BW, L, 1));
  EXPECT_NEAR(r.ranks[1].end, 0.0001 + L + 0.0001, kNs);
  EXPECT_NEAR(r.ranks[0].end, L + 2 * transfer(1e6, BW), kNs);
}

// Simultaneous events go in Dimemas' order. A thread that goes on after an MPI call takes its
// next call after what else happens at that instant (Dimemas queues an empty piece of work
// first): rank 0's message arrives at once, so rank 1 goes on at the instant rank 0 does, and
// rank 0's irecv lets rank 1's send get to the one bus first.
TEST(Engine, AThreadTakesItsNextCallAfterWhatElseHappensAtTheSameInstant) {
  TempDir dir;
  auto r = simulate_dim(dir, 4,
                        "1:0:0:0.001\n2:0:0:1:-1:0:1:1:0\n3:0:0:3:-1:8:9:1:1\n"
                        "2:0:0:2:-1:1000000:1:1:0\n3:0:0:3:-1:8:9:1:2\n"
                        "3:1:0:0:-1:0:1:1:0\n2:1:0:3:-1:1000000:1:1:0\n"
                        "3:2:0:0:-1:1000000:1:1:0\n"
                        "3:3:0:1:-1:1000000:1:1:0\n2:3:0:0:-1:8:9:1:0\n",
                        machine(4, BW, L, 1));
  double both_send = 0.001 + 2 * L, megabyte = transfer(1e6, BW);
  EXPECT_NEAR(r.ranks[3].end, both_send + megabyte + L, kNs);  // rank 1's message went first
  EXPECT_NEAR(r.ranks[2].end, both_send + 2 * megabyte, kNs);
  EXPECT_NEAR(r.ranks[0].end, both_send + 2 * megabyte + transfer(8, BW), kNs);
}

// A thread woken by another's call (a rendezvous sender a receive lets go) goes on once that
// call's event is over (Dimemas' reload_events): after the receiver, which sends first.
TEST(Engine, ARendezvousSenderLetGoGoesOnAfterItsReceiver) {
  TempDir dir;
  auto r = simulate_dim(dir, 4,
                        "1:0:0:0.001\n3:0:0:1:-1:10:1:1:1\n2:0:0:2:-1:1000000:2:1:0\n"
                        "3:0:0:1:-1:10:1:1:2\n"
                        "2:1:0:0:-1:10:1:1:1\n2:1:0:3:-1:2000000:2:1:0\n"
                        "3:2:0:0:-1:1000000:2:1:0\n1:2:0:0.01\n"
                        "3:3:0:1:-1:2000000:2:1:0\n",
                        machine(4, BW, L, 1));
  double megabyte = transfer(1e6, BW);
  EXPECT_NEAR(r.ranks[2].end, 0.001 + L + megabyte + 0.01, kNs);
  EXPECT_NEAR(r.ranks[3].end, 0.001 + L + 3 * megabyte, kNs);
}

const char* kTwoPairs =
    "2:0:0:1:-1:1000000:1:1:0\n"
    "3:1:0:0:-1:1000000:1:1:0\n"
    "2:2:0:3:-1:1000000:1:1:0\n"
    "3:3:0:2:-1:1000000:1:1:0\n";

TEST(Engine, OneBusSerialisesConcurrentTransfersInFifoOrder) {
  TempDir dir;
  auto r = simulate_dim(dir, 4, kTwoPairs, machine(4, BW, L, 1));
  EXPECT_NEAR(r.ranks[1].end, L + transfer(1e6, BW), kNs);
  EXPECT_NEAR(r.ranks[3].end, L + 2 * transfer(1e6, BW), kNs);
}

TEST(Engine, UnlimitedBusesLetDisjointTransfersOverlap) {
  TempDir dir;
  auto r = simulate_dim(dir, 4, kTwoPairs, machine(4, BW, L, 0));
  EXPECT_NEAR(r.ranks[1].end, L + transfer(1e6, BW), kNs);
  EXPECT_NEAR(r.ranks[3].end, L + transfer(1e6, BW), kNs);
}

const char* kTwoToOne =
    "2:0:0:2:-1:1000000:1:1:0\n"
    "2:1:0:2:-1:1000000:1:1:0\n"
    "3:2:0:0:-1:1000000:1:1:0\n"
    "3:2:0:1:-1:1000000:1:1:0\n";

TEST(Engine, OneInputLinkSerialisesTransfersToANode) {
  TempDir dir;
  auto r = simulate_dim(dir, 3, kTwoToOne, machine(3, BW, L));
  // The second transfer waits for the link; the second receive's latency hides in that wait.
  EXPECT_NEAR(r.ranks[2].end, L + 2 * transfer(1e6, BW), kNs);
}

TEST(Engine, TwoInputLinksReceiveTwoTransfersAtOnce) {
  TempDir dir;
  replay::Machine m = machine(3, BW, L);
  for (auto& node : m.nodes) node.input_links = 2;
  auto r = simulate_dim(dir, 3, kTwoToOne, m);
  // Both arrive at L + T; the second receive still pays its own latency.
  EXPECT_NEAR(r.ranks[2].end, 2 * L + transfer(1e6, BW), kNs);
}

TEST(Engine, MessagesMatchInFifoOrderPerSourceTagAndCommunicator) {
  TempDir dir;
  Recorder rec;
  // Two messages with tag 1 of different sizes; the receives take them in order of sending.
  auto r = simulate_dim(dir, 2,
                        "2:0:0:1:-1:1000000:1:1:0\n2:0:0:1:-1:1000:1:1:0\n"
                        "3:1:0:0:-1:1000000:1:1:0\n3:1:0:0:-1:1000:1:1:0\n",
                        machine(2, BW, L), &rec);
  ASSERT_EQ(rec.messages.size(), 2u);
  EXPECT_EQ(rec.messages[0].bytes, 1000000);
  EXPECT_EQ(rec.messages[1].bytes, 1000);
  // The second transfer waits for the output link: it starts when the first ends.
  EXPECT_NEAR(rec.messages[1].physical_send, rec.messages[0].physical_recv, kNs);
  EXPECT_NEAR(rec.messages[1].physical_recv, L + transfer(1e6, BW) + transfer(1000, BW), kNs);
  EXPECT_NEAR(r.ranks[1].end, 2 * L + transfer(1e6, BW), kNs);
}

std::string barrier_all(int tasks, double late) {
  std::string body;
  for (int t = 0; t < tasks; ++t) {
    if (t == 0) body += "1:0:0:" + std::to_string(late) + "\n";
    body += "10:" + std::to_string(t) + ":0:0:1:0:0:0:0\n";
  }
  return body;
}

TEST(Engine, CollectiveStartsWithTheLastMemberAndTakesFanInPlusFanOut) {
  TempDir dir;
  Recorder rec;
  auto r = simulate_dim(dir, 4, barrier_all(4, 0.001), machine(4, BW, L), &rec);
  // Constant model, no bytes: fan-in L + fan-out L.
  EXPECT_NEAR(r.total_time, 0.001 + 2 * L, kNs);
  EXPECT_NEAR(r.ranks[1].waiting, 0.001, kNs);
  EXPECT_NEAR(r.ranks[1].communication, 2 * L, kNs);
  auto spans = rec.of(2);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].state, replay::State::CollectiveSync);
  EXPECT_EQ(spans[1].state, replay::State::Collective);
  EXPECT_EQ(r.collectives, 1u);
}

std::string collective_all(int tasks, int op, long bytes, int root) {
  std::string body;
  for (int t = 0; t < tasks; ++t)
    body += "10:" + std::to_string(t) + ":0:" + std::to_string(op) +
            ":1:" + (t == root ? "1" : "0") + ":0:" + std::to_string(bytes) + ":" +
            std::to_string(bytes) + "\n";
  return body;
}

// Dimemas 5.5: a collective holds every bus while it lasts, so with one bus it waits for a
// transfer that holds it (and a transfer asking after it waits for it).
TEST(Engine, ACollectiveWaitsForTheBusesATransferHolds) {
  TempDir dir;
  auto r = simulate_dim(dir, 4,
                        "10:0:0:0:1:0:0:0:0\n"
                        "10:1:0:0:1:0:0:0:0\n"
                        "2:2:0:3:-1:1000000:1:1:0\n10:2:0:0:1:0:0:0:0\n"
                        "3:3:0:2:-1:1000000:1:1:1\n10:3:0:0:1:0:0:0:0\n3:3:0:2:-1:1000000:1:1:2\n",
                        machine(4, BW, L, 1));
  // The last member arrives at L; the transfer holds the bus from L to L + T.
  double bus_free = L + transfer(1e6, BW);
  EXPECT_NEAR(r.ranks[0].end, bus_free + 2 * L, kNs);
  EXPECT_NEAR(r.ranks[3].end, bus_free + 3 * L, kNs);  // then the wait's latency
}

replay::Machine with_model(replay::Machine m, replay::CollectiveModel model) {
  for (auto& c : m.collectives) c.fan_in.model = c.fan_out.model = model;
  return m;
}

TEST(Engine, LogarithmicCollectiveTakesLog2PStagesPerPhase) {
  TempDir dir;
  auto m = with_model(machine(4, BW, L), replay::CollectiveModel::Logarithmic);
  auto r = simulate_dim(dir, 4, collective_all(4, trace::kAllreduce, 1000000, -1), m);
  EXPECT_NEAR(r.total_time, 2 * 2 * (L + transfer(1e6, BW)), kNs);
}

TEST(Engine, LinearCollectiveTakesPMinusOneStepsPerPhase) {
  TempDir dir;
  auto m = with_model(machine(4, BW, L), replay::CollectiveModel::Linear);
  auto r = simulate_dim(dir, 4, collective_all(4, trace::kAllreduce, 1000000, -1), m);
  EXPECT_NEAR(r.total_time, 2 * 3 * (L + transfer(1e6, BW)), kNs);
}

TEST(Engine, LogarithmicCollectiveWithOneBusSerialisesEachStage) {
  TempDir dir;
  // P = 4: stage 0 has 2 messages, stage 1 has 1: with one bus, 3 steps per phase.
  auto m = with_model(machine(4, BW, L, 1), replay::CollectiveModel::Logarithmic);
  auto r = simulate_dim(dir, 4, collective_all(4, trace::kAllreduce, 1000000, -1), m);
  EXPECT_NEAR(r.total_time, 2 * 3 * (L + transfer(1e6, BW)), kNs);
}

TEST(Engine, ReduceAlwaysUsesTheConstantModel) {
  TempDir dir;
  auto m = with_model(machine(4, BW, L), replay::CollectiveModel::Logarithmic);
  auto r = simulate_dim(dir, 4, collective_all(4, trace::kReduce, 1000000, 0), m);
  EXPECT_NEAR(r.total_time, 2 * (L + transfer(1e6, BW)), kNs);
}

TEST(Engine, FanInMovesSentBytesAndFanOutReceivedBytes) {
  TempDir dir;
  // Gather-like: 1000 bytes sent, 4000 received by the representative (the root).
  std::string body;
  for (int t = 0; t < 4; ++t)
    body += "10:" + std::to_string(t) + ":0:2:1:" + (t == 0 ? "1" : "0") + ":0:1000:4000\n";
  auto r = simulate_dim(dir, 4, body, machine(4, BW, L));
  EXPECT_NEAR(r.total_time, (L + transfer(1000, BW)) + (L + transfer(4000, BW)), kNs);
}

TEST(Engine, EagerLimitDecidesTheProtocolBySize) {
  TempDir dir;
  const std::string body = "2:0:0:1:-1:1000:1:1:0\n1:1:0:0.002\n3:1:0:0:-1:1000:1:1:0\n";
  replay::Machine m = machine(2, BW, L);
  m.eager_limit = 500;  // 1000 bytes >= 500: rendezvous, the sender waits for the receive
  EXPECT_NEAR(simulate_dim(dir, 2, body, m).ranks[0].end, 0.002 + L, kNs);
  m.eager_limit = 2000;  // eager: the sender goes on after its latency
  EXPECT_NEAR(simulate_dim(dir, 2, body, m).ranks[0].end, L, kNs);
}

TEST(Engine, CpuRatioDividesBursts) {
  TempDir dir;
  replay::Machine m = machine(1, BW, L);
  m.nodes[0].cpu_ratio = 2;
  EXPECT_NEAR(simulate_dim(dir, 1, "1:0:0:0.002\n", m).total_time, 0.001, kNs);
}

TEST(Engine, ThreadsOfANodeShareItsCores) {
  TempDir dir;
  replay::Machine m = machine(1, BW, L);
  m.mapping.tasks_per_node = 2;
  const std::string body = "1:0:0:0.001\n1:0:0:0.001\n1:1:0:0.001\n";
  // One core: the three bursts run one after the other.
  EXPECT_NEAR(simulate_dim(dir, 2, body, m).total_time, 0.003, kNs);
  m.nodes[0].cores = 2;
  EXPECT_NEAR(simulate_dim(dir, 2, body, m).total_time, 0.002, kNs);
}

TEST(Engine, MessagesInsideANodeUseTheIntraNodeMedium) {
  TempDir dir;
  replay::Machine m = machine(1, BW, L);
  m.mapping.tasks_per_node = 2;
  m.nodes[0].cores = 2;
  m.nodes[0].intra.latency = 1e-6;
  m.nodes[0].intra.bandwidth = 1000;
  auto r = simulate_dim(dir, 2, "2:0:0:1:-1:1000000:1:1:0\n3:1:0:0:-1:1000000:1:1:0\n", m);
  EXPECT_NEAR(r.total_time, 1e-6 + transfer(1e6, 1000), kNs);
  m.nodes[0].intra.bandwidth = 0;  // instantaneous
  r = simulate_dim(dir, 2, "2:0:0:1:-1:1000000:1:1:0\n3:1:0:0:-1:1000000:1:1:0\n", m);
  EXPECT_NEAR(r.total_time, 1e-6, kNs);
}

TEST(Engine, ImmediateCollectiveCompletesAtItsWait) {
  TempDir dir;
  // Rank 0 starts a barrier, computes, then waits; rank 1 joins at 0.002.
  auto r = simulate_dim(dir, 2,
                        "10:0:0:0:1:0:0:0:0:0\n1:0:0:0.001\n10:0:0:0:1:0:0:0:0:2\n"
                        "1:1:0:0.002\n10:1:0:0:1:0:0:0:0:1\n",
                        machine(2, BW, L));
  EXPECT_NEAR(r.ranks[0].end, 0.002 + 2 * L, kNs);
  EXPECT_NEAR(r.ranks[0].compute, 0.001, kNs);
}

TEST(Engine, ADimemasWaitForACollectiveTakesAnyThatHasEnded) {
  // Rank 0 starts a barrier with rank 1 (communicator 1), then one with rank 2 (communicator 2);
  // its first wait ends with the second barrier, which ends first (Dimemas 5.5 counts the
  // non-blocking collectives that ended, whichever they are). Each start and wait costs L.
  TempDir dir;
  auto t = trace::open_dimemas(
      dir.write("t.dim",
                "#DIMEMAS:\"t\":0:3(1,1,1),2\nd:1:1:2:0:1\nd:1:2:2:0:2\n"
                "1:0:0:0.0001\n10:0:0:0:1:0:0:0:0:0\n10:0:0:0:2:0:0:0:0:0\n10:0:0:0:1:0:0:0:0:2\n"
                "1:0:0:0.001\n10:0:0:0:1:0:0:0:0:2\n"
                "1:1:0:0.005\n10:1:0:0:1:0:0:0:0:0\n10:1:0:0:1:0:0:0:0:2\n"
                "1:2:0:0.0002\n10:2:0:0:2:0:0:0:0:0\n10:2:0:0:2:0:0:0:0:2\n"));
  auto r = replay::simulate(*t, machine(3, BW, L));
  // The second barrier ends at 0.0002 + 3 L; rank 0 computes 1 ms after it, then waits (L)
  // until the first ends, at 0.005 + 3 L. (Waiting for the first barrier first: 0.006 + 4 L.)
  EXPECT_NEAR(r.ranks[2].end, 0.0002 + 3 * L, kNs);
  EXPECT_NEAR(r.ranks[0].end, 0.005 + 3 * L, kNs);
  EXPECT_NEAR(r.ranks[0].compute, 0.0011, kNs);
}

// ---- Waits (trace sets: a .dim trace cannot wait for a send) ----------------------------------

// Replays a two-rank trace set with these authentic streams (mips = 1000: `cpu 1000000` lasts
// 1 ms) on two single-core nodes of latency L.
replay::Result simulate_set(const TempDir& dir, const std::string& stream0,
                            const std::string& stream1) {
  auto traces = trace::open_traces(testing::two_rank_set(dir, stream0, stream1));
  return replay::simulate(*traces[0], machine(2, BW, L));
}

TEST(Engine, ATruncatedTraceIsSimulatedAsFarAsItGoes) {
  // Rank 1 died before its receive: rank 0's eager send finds no receive, and rank 0's own
  // receive never comes. Not a deadlock: the trace stops early, and the notes say what it left.
  TempDir dir;
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"w\"\nranks = 2\n"
            "mips = 1000.0\nkinds = [\"authentic\"]\n");
  const std::string comm = "[[communicator]]\nid = 1\ntasks = [0, 1]\n";
  dir.write("set/rank-0.toml", "rank = 0\nstatus = \"complete\"\n" + comm);
  dir.write("set/rank-1.toml", "rank = 1\nstatus = \"running\"\n" + comm);
  dir.write("set/authentic.0.trc",
            "cpu 1000000\nsend 1 1 1 1000 eager\nrecv 1 2 1 1000\ncpu 1000000\nend\n");
  dir.write("set/authentic.1.trc", "cpu 3000000\n");
  auto traces = trace::open_traces(dir.path("set"));
  replay::Result r = replay::simulate(*traces[0], machine(2, BW, L));
  EXPECT_NEAR(r.total_time, 0.003, kNs);  // rank 1's 3 ms; rank 0 waits until then
  EXPECT_NEAR(r.ranks[0].end, 0.003, kNs);
  EXPECT_NEAR(r.ranks[0].compute, 0.001, kNs);
  std::string notes;
  for (const std::string& n : r.notes) notes += n + "\n";
  EXPECT_NE(notes.find("the trace stops early (truncated: rank(s) 1)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("rank 0 posted 1 receive(s) from rank 1 (tag 2, comm 1) that no send "
                       "matched"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("rank 0 sent 1 message(s) to rank 1 (tag 1, comm 1) that no receive "
                       "matched"),
            std::string::npos)
      << notes;
  // The same trace with rank 1 complete is a deadlock.
  dir.write("set/rank-1.toml", "rank = 1\nstatus = \"complete\"\n" + comm);
  dir.write("set/authentic.1.trc", "cpu 3000000\nend\n");
  traces = trace::open_traces(dir.path("set"));
  EXPECT_THROW(replay::simulate(*traces[0], machine(2, BW, L)), replay::DeadlockError);
}

TEST(Engine, AWaitForAnImmediateSendCostsNothing) {
  TempDir dir;
  // Rank 0 pays the isend's latency, not the wait's: Dimemas has no wait for a send.
  auto r =
      simulate_set(dir, "cpu 1000000\nisend 1 1 1 1000 eager 5\nwait 5\n", "recv 0 1 1 1000\n");
  EXPECT_NEAR(r.ranks[0].end, 0.001 + L, kNs);
  EXPECT_NEAR(r.ranks[0].communication, L, kNs);
}

TEST(Engine, MovingARendezvousSendEarlierWithAWaitCostsNothing) {
  // The blocking rendezvous send waits until rank 1 posts its receive (2 ms + L) and the
  // transfer starts; then rank 0 computes 1 ms.
  TempDir dir;
  const std::string receiver = "cpu 2000000\nrecv 0 1 1 1000000\n";
  auto blocking = simulate_set(dir, "send 1 1 1 1000000 rdv\ncpu 1000000\n", receiver);
  EXPECT_NEAR(blocking.ranks[0].end, 0.002 + L + 0.001, kNs);
  // The same send posted at the start and waited for where the blocking send was: the wait
  // completes at once (an immediate send never blocks its sender, as in Dimemas); the transfer
  // starts when the receive is posted, as before.
  auto moved = simulate_set(dir, "isend 1 1 1 1000000 rdv 3\nwait 3\ncpu 1000000\n", receiver);
  EXPECT_NEAR(moved.ranks[0].end, L + 0.001, kNs);
  EXPECT_NEAR(moved.ranks[1].end, blocking.ranks[1].end, kNs);
  EXPECT_NEAR(moved.ranks[1].end, 0.002 + L + transfer(1e6, BW), kNs);
}

TEST(Engine, AWaitPaysTheLatencyOfEachReceiveItWaitsFor) {
  // As Dimemas, whose traces have a wait record per message an MPI_Waitall receives; the
  // isend's request in the same wait costs nothing.
  TempDir dir;
  auto r = simulate_set(dir, "isend 1 1 1 10 eager 0\nisend 1 2 1 10 eager 0\nrecv 1 3 1 10\n",
                        "irecv 0 1 1 10 3\nisend 0 3 1 10 eager 5\nirecv 0 2 1 10 4\n"
                        "wait 3 5 4\n");
  // Rank 1: the isend's latency, then one per receive (each message is there by then).
  EXPECT_NEAR(r.ranks[1].communication, 3 * L, kNs);
  EXPECT_NEAR(r.ranks[1].end, 3 * L, kNs);
}

TEST(Engine, ATraceSetsImmediateCollectiveCompletesAtTheWaitForItsRequest) {
  // As the .dim test above (ImmediateCollectiveCompletesAtItsWait): rank 0 computes 1 ms
  // between its MPI_Ibarrier and its wait, rank 1 joins at 2 ms. The start and the wait each
  // cost rank 0 a latency (Dimemas: its members are on two nodes).
  TempDir dir;
  auto r = simulate_set(dir, "icoll MPI_Ibarrier 1 -1 0 0 7\ncpu 1000000\nwait 7\n",
                        "cpu 2000000\ncoll MPI_Barrier 1 -1 0 0\n");
  EXPECT_NEAR(r.ranks[0].end, 0.002 + 2 * L, kNs);
  EXPECT_NEAR(r.ranks[0].compute, 0.001, kNs);
  EXPECT_NEAR(r.ranks[0].communication, 2 * L, kNs);
  EXPECT_NEAR(r.ranks[1].end, 0.002 + 2 * L, kNs);
  // Waited for once it has ended: the wait costs its latency only.
  auto late = simulate_set(dir, "icoll MPI_Ibarrier 1 -1 0 0 7\ncpu 3000000\nwait 7\n",
                           "cpu 2000000\ncoll MPI_Barrier 1 -1 0 0\n");
  EXPECT_NEAR(late.ranks[0].end, 0.003 + 2 * L, kNs);
}

TEST(Engine, AProgramThatNeedsANonBlockingCollectivesOverlapToProgressEnds) {
  // Rank 0 receives, between its MPI_Ibarrier and its wait, what rank 1 sends synchronously
  // before its own MPI_Ibarrier (legal MPI: blocking at the call, the replay would deadlock).
  TempDir dir;
  auto r = simulate_set(dir, "icoll MPI_Ibarrier 1 -1 0 0 1\nrecv 1 5 1 8\nwait 1\n",
                        "send 0 5 1 8 sync\nicoll MPI_Ibarrier 1 -1 0 0 1\nwait 1\n");
  // Rank 0's receive is posted at 2 L (the barrier's start, the receive's latency); rank 1's
  // send goes then, and rank 1 joins the barrier at 3 L (its start's latency); it ends 2 L later,
  // long after the message has arrived.
  EXPECT_NEAR(r.ranks[1].end, 5 * L, kNs);
  EXPECT_NEAR(r.ranks[0].end, 5 * L, kNs);
  EXPECT_NEAR(r.ranks[0].communication, 3 * L, kNs);
}

TEST(Engine, WaitsForImmediateCollectivesMayComeInAnyOrder) {
  // Rank 0 waits for its allreduce before its barrier; each wait finds its own: the allreduce
  // ends when rank 1 reaches it after 3 ms, the barrier long before.
  TempDir dir;
  auto r = simulate_set(dir,
                        "icoll MPI_Ibarrier 1 -1 0 0 1\nicoll MPI_Iallreduce 1 -1 8 8 2\n"
                        "wait 2\ncpu 1000000\nwait 1\n",
                        "cpu 2000000\ncoll MPI_Barrier 1 -1 0 0\ncpu 1000000\n"
                        "coll MPI_Allreduce 1 -1 8 8\n");
  EXPECT_GT(r.ranks[1].end, 0.003);
  EXPECT_NEAR(r.ranks[0].end, r.ranks[1].end + 0.001 + L, kNs);
}

// The report of the deadlock that simulating `body` on `tasks` tasks must end in.
std::string deadlock_report(int tasks, const std::string& body) {
  TempDir dir;
  try {
    simulate_dim(dir, tasks, body, machine(tasks, BW, L));
  } catch (const replay::DeadlockError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no deadlock reported";
  return "";
}

TEST(Engine, ReceiveWithoutSendIsADeadlockNamingTheRankAndRecord) {
  std::string report = deadlock_report(2, "1:0:0:0.001\n3:1:0:0:-1:10:7:1:0\n");
  EXPECT_THAT(report, HasSubstr("rank 1 is blocked at"));
  EXPECT_THAT(report, HasSubstr("t.dim:4"));
  EXPECT_THAT(report, HasSubstr("waiting for a message from rank 0 (tag 7, comm 1)"));
}

TEST(Engine, LeftoversOfARunThatEndsAreNotes) {
  // Every rank ends: an eager message no receive matched, a receive posted and never waited
  // for (rank 1, tag 4) are left over, and the run ends when its last burst does.
  TempDir dir;
  replay::Result r =
      simulate_dim(dir, 2, "2:0:0:1:-1:10:3:1:0\n1:0:0:0.001\n3:1:0:0:-1:8:4:1:1\n1:1:0:0.002\n",
                   machine(2, BW, L));
  EXPECT_DOUBLE_EQ(r.total_time, 0.002);
  EXPECT_THAT(r.notes, Contains(HasSubstr("the run ends with 2 channel(s) left unmatched")));
  EXPECT_THAT(r.notes, Contains(HasSubstr("rank 0 sent 1 message(s) to rank 1 (tag 3, comm 1)")));
  EXPECT_THAT(r.notes, Contains(HasSubstr("rank 1 posted 1 receive(s) from rank 0 (tag 4, comm 1) "
                                          "that no send matched")));
}

TEST(Engine, CollectiveWithAMissingMemberNamesIt) {
  EXPECT_THAT(deadlock_report(3, "10:0:0:0:1:0:0:0:0\n10:1:0:0:1:0:0:0:0\n1:2:0:0.001\n"),
              HasSubstr("MPI_Barrier #0 on comm 1 never completed: 2 of 3 arrived; missing "
                        "rank(s) 2"));
}

TEST(Engine, MismatchedCollectivesAreAnInputError) {
  TempDir dir;
  EXPECT_THROW(simulate_dim(dir, 2, "10:0:0:0:1:0:0:0:0\n10:1:0:1:1:0:0:0:0\n", machine(2, BW, L)),
               trace::FormatError);
}

TEST(Engine, RanksThatDoNotFitTheMachineAreRejected) {
  TempDir dir;
  EXPECT_THROW(simulate_dim(dir, 3, "1:0:0:0\n", machine(2, BW, L)), std::invalid_argument);
}

}  // namespace
}  // namespace tareador
