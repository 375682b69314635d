// Threads of one task, as Dimemas 5.5 replays them: they share the cores of their node burst by
// burst, and their messages go from thread to thread. (Every thread starts with a burst: Dimemas
// leaves out a thread that does not.)
#include <gtest/gtest.h>

#include <map>

#include "test_util.h"

namespace tareador {
namespace {

using testing::TempDir;

constexpr double kNs = 1e-9;

// When each thread's last state ends.
class ThreadEnds : public replay::TimelineSink {
 public:
  std::map<std::pair<int, int>, double> end;
  std::vector<replay::Message> messages;

  void state(int task, int thread, double, double e, replay::State) override {
    double& last = end[{task, thread}];
    last = std::max(last, e);
  }
  void event(int, int, double, std::uint64_t, std::uint64_t) override {}
  void message(const replay::Message& m) override { messages.push_back(m); }
  void call(int, int, double, double, const trace::Record&) override {}
  void finish(double) override {}
};

// Replays `body`, the records of one task of `threads` threads, on one node of `cores` cores.
replay::Result simulate_threads(int threads, int cores, const std::string& body,
                                double intra_bandwidth, ThreadEnds* sink = nullptr) {
  TempDir dir;
  std::string header = "#DIMEMAS:\"threads\":0:1(" + std::to_string(threads) + "),1\nd:1:1:1:0\n";
  auto t = trace::open_dimemas(dir.write("t.dim", header + body));
  replay::Machine m = testing::machine(1, 250, 0);
  m.nodes[0].cores = cores;
  m.nodes[0].intra.bandwidth = intra_bandwidth;
  replay::SimulationOptions options;
  options.sink = sink;
  return replay::simulate(*t, m, options);
}

// 1024 bytes at 9.765625 MB/s (10240000 B/s) take 0.1 ms.
constexpr double kTenthMs = 9.765625;

TEST(Threads, TwoThreadsOnOneCoreTakeTurnsBurstByBurst) {
  // Thread 0: 1 ms, 1 ms, an immediate send of 1024 bytes to thread 1, 1 ms.
  // Thread 1: 0.5 ms, the receive of that message, 1 ms.
  //
  // Dimemas 5.5 (FIFO scheduler; between threads of one task every send is a rendezvous, and
  // needs no link):
  //   0      both threads are ready, thread 0 first: it runs its first burst until 1 ms.
  //   1 ms   its next record is a burst: it goes to the back of the ready queue; thread 1 runs
  //          0.5 ms.
  //   1.5 ms thread 1 posts its receive; no send yet: it blocks. Thread 0 runs its second burst.
  //   2.5 ms thread 0 sends: the receive is posted, the transfer starts (0.1 ms). A thread that
  //          goes on from an MPI call queues at the front: thread 0 keeps the core for its third
  //          burst, until 3.5 ms; it ends there.
  //   2.6 ms the message arrives; thread 1 is ready, at the back; the core is busy.
  //   3.5 ms thread 1 runs its last burst: it ends at 4.5 ms.
  // A thread that kept its core until it blocked would end thread 1 at 4.6 ms instead (thread 0
  // running its three bursts first, the receive posted at 3.5 ms).
  ThreadEnds ends;
  replay::Result r = simulate_threads(2, 1,
                                      "1:0:0:0.001\n1:0:0:0.001\n2:0:0:0:1:1024:1:1:2\n"
                                      "1:0:0:0.001\n"
                                      "1:0:1:0.0005\n3:0:1:0:0:1024:1:1:0\n1:0:1:0.001\n",
                                      kTenthMs, &ends);
  EXPECT_NEAR(r.total_time, 0.0045, kNs);
  EXPECT_NEAR((ends.end[{0, 0}]), 0.0035, kNs);
  ASSERT_EQ(ends.messages.size(), 1u);
  EXPECT_NEAR(ends.messages[0].physical_send, 0.0025, kNs);
  EXPECT_NEAR(ends.messages[0].physical_recv, 0.0026, kNs);
  // With a core each: thread 1's receive is posted at 0.5 ms, the send comes at 2 ms.
  EXPECT_NEAR(simulate_threads(2, 2,
                               "1:0:0:0.001\n1:0:0:0.001\n2:0:0:0:1:1024:1:1:2\n1:0:0:0.001\n"
                               "1:0:1:0.0005\n3:0:1:0:0:1024:1:1:0\n1:0:1:0.001\n",
                               kTenthMs)
                  .total_time,
              0.0031, kNs);
}

TEST(Threads, MessagesGoFromThreadToThread) {
  // Threads 1 and 2 send thread 0 a message with the same tag; thread 0 receives thread 2's
  // first (it comes after 1 ms), computes 1 ms, then thread 1's (sent at 0, but a rendezvous
  // between threads: it moves when thread 0 posts its receive, at 2 ms).
  ThreadEnds ends;
  replay::Result r = simulate_threads(3, 3,
                                      "1:0:0:0\n3:0:0:0:2:8:5:1:0\n1:0:0:0.001\n3:0:0:0:1:8:5:1:0\n"
                                      "1:0:1:0\n2:0:1:0:0:8:5:1:2\n"
                                      "1:0:2:0.001\n2:0:2:0:0:8:5:1:0\n",
                                      0, &ends);
  EXPECT_NEAR(r.total_time, 0.002, kNs);
  ASSERT_EQ(ends.messages.size(), 2u);
  for (const replay::Message& m : ends.messages)
    EXPECT_NEAR(m.physical_recv, m.src_thread == 2 ? 0.001 : 0.002, kNs) << m.src_thread;
}

TEST(Threads, AnEagerSendBetweenThreadsIsARendezvous) {
  // The send says eager, but Dimemas 5.5 sends between threads of one task by rendezvous: the
  // transfer (0.1 ms) starts when thread 1 posts its receive at 1 ms.
  replay::Result r = simulate_threads(
      2, 2, "1:0:0:0\n2:0:0:0:1:1024:1:1:0\n1:0:1:0.001\n3:0:1:0:0:1024:1:1:0\n", kTenthMs);
  EXPECT_NEAR(r.total_time, 0.0011, kNs);
  EXPECT_NEAR(r.ranks[0].end, 0.0011, kNs);
}

}  // namespace
}  // namespace tareador
