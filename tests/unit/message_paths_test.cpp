// The critical paths of a tasks trace across its ranks (trace::task_critical_paths over a
// Trace): messages join the ranks' step graphs, so a send's path holds the work its message
// enables on the receiving rank; and the critical-path policy that orders instances by them.
#include <gtest/gtest.h>

#include <algorithm>

#include "task_traces.h"

namespace tareador {
namespace {

using replay::TaskPolicy;
using testing::open_tasks;
using testing::replay_tasks;
using testing::tasks_set;
using testing::TempDir;

// Rank 0: "send" computes 1 s, sends to rank 1 (tag 5), computes 1 s; "work" computes 3 s.
const std::string kSender =
    "task 2 send 1\ncpu 1000000\nsend 1 5 1 8 eager\ncpu 1000000\nendtask\n"
    "task 3 work 1\ncpu 3000000\nendtask\n"
    "task 1 main 0\nspawn 2\nspawn 3\nendtask\nend\n";

// Per rank, the paths of its instances (mips = 1: 1e-6 s per instruction).
std::vector<std::vector<double>> paths(const trace::Trace& t, std::string* note = nullptr) {
  trace::CriticalPaths cp = trace::task_critical_paths(t, {1e-6, 1e-6});
  if (note) *note = cp.note;
  return cp.paths;
}

TEST(MessagePaths, SendHoldsTheWorkItsMessageEnables) {
  // Rank 1: "recv" receives, then computes 3 s. send: 1 s to its send point, then the longer
  // of its own last 1 s and the 3 s after the receive: 4 s; main and recv as long.
  TempDir dir;
  auto t = open_tasks(tasks_set(dir, {kSender,
                                      "task 2 recv 1\nrecv 0 5 1 8\ncpu 3000000\nendtask\n"
                                      "task 1 main 0\nspawn 2\nendtask\nend\n"}));
  std::string note;
  EXPECT_EQ(paths(*t, &note), (std::vector<std::vector<double>>{{4, 4, 3}, {3, 3}}));
  EXPECT_EQ(note, "");
  // Each rank alone: send 2 s.
  EXPECT_EQ(trace::task_critical_paths(t->header().task_sets[0], 1e-6),
            (std::vector<double>{3, 2, 3}));
}

TEST(MessagePaths, ImmediateReceiveArrivesAtItsWait) {
  // Rank 1: "post" posts the receive (request 7) and computes 2 s; "finish", after post,
  // computes 1 s, waits for request 7, computes 3 s. The message arrives at the wait: send
  // 1 + 3 = 4 s (at the irecv it would be 1 + 2 + 1 + 3 = 7 s).
  TempDir dir;
  auto t = open_tasks(tasks_set(
      dir, {kSender,
            "object 1 global 8 buf\ntask 2 post 1\nirecv 0 5 1 8 7\ncpu 2000000\nuses 1 0 8\n"
            "endtask\ntask 3 finish 1\nafter 2 raw 8 1\ncpu 1000000\nwait 7\ncpu 3000000\n"
            "endtask\ntask 1 main 0\nspawn 2\nspawn 3\nendtask\nend\n"}));
  EXPECT_EQ(paths(*t), (std::vector<std::vector<double>>{{4, 4, 3}, {6, 6, 4}}));
}

TEST(MessagePaths, MessagesPairInTheOrderTheTracedRunIssuedThem) {
  // Rank 0's main sends tag 1 after spawning "first", which sends tag 1 too: the traced run
  // sent first's message first (a child runs where it is spawned), so it meets rank 1's first
  // receive, which 5 s of work follow; main's meets the second one (1 s).
  TempDir dir;
  auto t = open_tasks(tasks_set(
      dir,
      {"task 2 first 1\nsend 1 1 1 8 eager\nendtask\n"
       "task 1 main 0\nspawn 2\nsend 1 1 1 8 eager\nendtask\nend\n",
       "task 1 main 0\nrecv 0 1 1 8\ncpu 5000000\nrecv 0 1 1 8\ncpu 1000000\nendtask\nend\n"}));
  EXPECT_EQ(paths(*t), (std::vector<std::vector<double>>{{6, 6}, {6}}));
}

TEST(MessagePaths, UnpairedMessagesLeaveEachRankItsOwnPaths) {
  TempDir dir;
  auto t = open_tasks(tasks_set(dir, {kSender, "task 1 main 0\ncpu 1000000\nendtask\nend\n"}));
  std::string note;
  EXPECT_EQ(paths(*t, &note), (std::vector<std::vector<double>>{{3, 2, 3}, {1}}));
  EXPECT_EQ(note,
            "critical paths without messages (each rank's own): rank 0 sends 1 message(s) to "
            "rank 1 with tag 5 on communicator 1, which receives 0");
  // The replay says so too.
  replay::Result r = replay_tasks(*t, 1, TaskPolicy::CriticalPath);
  EXPECT_NE(std::find(r.notes.begin(), r.notes.end(), note), r.notes.end());
}

TEST(MessagePaths, ACycleOfMessagesLeavesEachRankItsOwnPaths) {
  // Each rank receives before it sends: paired so, the messages wait for each other (the run
  // deadlocks; a wildcard receive resolved otherwise than FIFO order could look alike).
  TempDir dir;
  auto t = open_tasks(
      tasks_set(dir, {"task 1 main 0\nrecv 1 1 1 8\nsend 1 1 1 8 eager\nendtask\nend\n",
                      "task 1 main 0\nrecv 0 1 1 8\nsend 0 1 1 8 eager\nendtask\nend\n"}));
  std::string note;
  EXPECT_EQ(paths(*t, &note), (std::vector<std::vector<double>>{{0}, {0}}));
  EXPECT_NE(note.find("make a cycle"), std::string::npos) << note;
}

TEST(MessagePaths, CriticalPathPolicyRunsTheSendFirst) {
  // One core per rank, an instantaneous network. Each rank alone, work's 3 s outweigh send's
  // 2 s: work 0-3, send 3-5 (its message at 4), rank 1 4-7. Across ranks send weighs 4 s: send
  // 0-2 (message at 1), work 2-5, rank 1 1-4.
  TempDir dir;
  auto t = open_tasks(tasks_set(dir, {kSender,
                                      "task 2 recv 1\nrecv 0 5 1 8\ncpu 3000000\nendtask\n"
                                      "task 1 main 0\nspawn 2\nendtask\nend\n"}));
  replay::Result r = replay_tasks(*t, 1, TaskPolicy::CriticalPath);
  EXPECT_DOUBLE_EQ(r.ranks[0].end, 5.0);
  EXPECT_DOUBLE_EQ(r.ranks[1].end, 4.0);
  EXPECT_DOUBLE_EQ(r.total_time, 5.0);
}

}  // namespace
}  // namespace tareador
