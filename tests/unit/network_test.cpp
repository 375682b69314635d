// The replayer's units apart from the engine: the network model (exact times, the order links
// are taken and handed over, Dimemas 5.5's link stealing), point-to-point matching and the CPU
// schedulers.
#include <gtest/gtest.h>

#include <vector>

#include "replay/cores.h"
#include "replay/matching.h"
#include "replay/network.h"

namespace {

using tareador::replay::Machine;
using tareador::replay::MatchTable;
using tareador::replay::Network;
using tareador::replay::ns_per_byte;
using tareador::replay::SharedCores;
using tareador::replay::TaskCores;

// `nodes` nodes of one output and one input link each, 100 MB/s between them, 1 GB/s inside.
Machine machine(int nodes) {
  Machine m;
  m.nodes.resize(static_cast<std::size_t>(nodes));
  m.bandwidth = 100;
  for (auto& node : m.nodes) {
    node.latency = 2e-6;
    node.intra.latency = 5e-7;
    node.intra.bandwidth = 1000;
  }
  return m;
}

// A network whose started transfers and claimed collectives are noted in order.
struct Recorded {
  explicit Recorded(const Machine& m, std::vector<int> task_node)
      : network(
            m, std::move(task_node), [this](std::uint32_t id) { started.push_back(id); },
            [this](std::uint32_t id) { claimed.push_back(id); }) {}
  std::vector<std::uint32_t> started, claimed;
  Network network;
};

TEST(Network, TimesAreBytesOverBandwidthAndStartupsAreLatencies) {
  EXPECT_DOUBLE_EQ(ns_per_byte(100) * (1 << 20), 1e7);
  EXPECT_EQ(ns_per_byte(0), 0.0);                                   // no bandwidth: instantaneous
  EXPECT_DOUBLE_EQ(tareador::replay::startup_seconds(5e-10), 0.0);  // Dimemas: below 1 ns
  Machine m = machine(2);
  Recorded r(m, {0, 0, 1});
  EXPECT_DOUBLE_EQ(r.network.duration_ns(0, 2, 1 << 20), 1e7);  // between nodes
  EXPECT_DOUBLE_EQ(r.network.duration_ns(0, 1, 1 << 20), 1e6);  // inside a node
  EXPECT_DOUBLE_EQ(r.network.startup_ns(0, 2), 2000);
  EXPECT_DOUBLE_EQ(r.network.startup_ns(1, 0), 500);
  EXPECT_TRUE(r.network.intra_node(0, 1));
  EXPECT_FALSE(r.network.intra_node(1, 2));
}

TEST(Network, ATransferWaitsForTheOutputLinkInOrder) {
  Machine m = machine(3);
  Recorded r(m, {0, 1, 2});
  r.network.request(0, 0, 1);
  r.network.request(1, 0, 2);  // node 0's only output link is busy
  r.network.request(2, 0, 1);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0}));
  r.network.finish(0);  // the link goes to the first in line
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 1}));
  r.network.finish(1);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(Network, AnInputLinkIsSharedByWhatComesFromEveryNode) {
  Machine m = machine(3);
  Recorded r(m, {0, 1, 2});
  r.network.request(0, 0, 2);
  r.network.request(1, 1, 2);  // holds node 1's output link, waits for node 2's input link
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0}));
  r.network.finish(0);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 1}));
}

// Dimemas 5.5: a transfer that finds its node's output link held by one waiting for an input
// link takes it, if its own input link is free; the other goes back to the head of the queue.
TEST(Network, AWaitingTransferLosesItsOutputLinkToOneThatCanGo) {
  Machine m = machine(3);
  Recorded r(m, {0, 1, 2});
  r.network.request(0, 1, 2);  // node 2's input link busy
  r.network.request(1, 0, 2);  // holds node 0's output link, waits for node 2's input
  r.network.request(2, 0, 1);  // steals node 0's output link: node 1's input is free
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 2}));
  r.network.finish(0);  // node 2's input is free, but 1 waits for node 0's output link again
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 2}));
  r.network.finish(2);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 2, 1}));
}

TEST(Network, LimitedBusesSerialiseTransfersOfDifferentLinks) {
  Machine m = machine(4);
  m.buses = 1;
  Recorded r(m, {0, 1, 2, 3});
  r.network.request(0, 0, 1);
  r.network.request(1, 2, 3);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0}));
  r.network.finish(0);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 1}));
}

// Dimemas 5.5: a collective holds every bus while it lasts; it takes the free ones and waits,
// first in line, for the others (a transfer asking after it waits behind it).
TEST(Network, ACollectiveHoldsEveryBusWhileItLasts) {
  Machine m = machine(6);
  m.buses = 2;
  Recorded r(m, {0, 1, 2, 3, 4, 5});
  r.network.request(0, 0, 1);
  r.network.claim_buses(7);  // takes the other bus, waits for transfer 0's
  r.network.request(1, 2, 3);
  EXPECT_TRUE(r.claimed.empty());
  r.network.finish(0);
  EXPECT_EQ(r.claimed, (std::vector<std::uint32_t>{7}));
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0}));
  r.network.release_buses(7);
  r.network.request(2, 4, 5);  // both buses are back
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(Network, ACollectiveWaitsForTheBusInLineWithTransfers) {
  Machine m = machine(4);
  m.buses = 1;
  Recorded r(m, {0, 1, 2, 3});
  r.network.request(0, 0, 1);
  r.network.request(1, 2, 3);  // first in line for the bus
  r.network.claim_buses(0);    // (collectives have their own numbering)
  r.network.finish(0);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_TRUE(r.claimed.empty());
  r.network.finish(1);
  EXPECT_EQ(r.claimed, (std::vector<std::uint32_t>{0}));
}

TEST(Network, WithUnlimitedBusesACollectiveHoldsNothing) {
  Machine m = machine(4);
  Recorded r(m, {0, 1, 2, 3});
  r.network.request(0, 0, 1);
  r.network.claim_buses(3);
  r.network.request(1, 2, 3);
  EXPECT_EQ(r.claimed, (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 1}));
}

TEST(Network, InsideANodeEachRankHasItsOwnLinksAndOneRankNeedsNone) {
  Machine m = machine(1);
  for (auto& node : m.nodes) node.intra.input_links = node.intra.output_links = 1;
  Recorded r(m, {0, 0, 0});
  r.network.request(0, 0, 1);
  r.network.request(1, 2, 1);  // rank 1's input link is busy
  r.network.request(2, 2, 0);  // rank 2's output link is busy
  r.network.request(3, 0, 0);  // between threads of rank 0: no link
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 3}));
  r.network.finish(0);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 3, 1}));
  r.network.finish(1);
  EXPECT_EQ(r.started, (std::vector<std::uint32_t>{0, 3, 1, 2}));
}

tareador::trace::Channel channel(int src, int dst, std::int64_t tag) {
  tareador::trace::Channel c;
  c.src_task = src;
  c.dst_task = dst;
  c.tag = tag;
  return c;
}

TEST(Matching, MessagesAndReceivesMeetInOrderOnTheirChannel) {
  MatchTable table;
  EXPECT_EQ(table.send(channel(0, 1, 7), 10), MatchTable::kNone);  // unexpected
  EXPECT_EQ(table.send(channel(0, 1, 7), 11), MatchTable::kNone);
  EXPECT_EQ(table.send(channel(0, 1, 8), 12), MatchTable::kNone);    // another tag
  EXPECT_EQ(table.receive(channel(0, 1, 7), 3), 10);                 // the oldest first
  EXPECT_EQ(table.receive(channel(0, 1, 9), 4), MatchTable::kNone);  // posted
  EXPECT_EQ(table.receive(channel(0, 1, 9), 5), MatchTable::kNone);
  EXPECT_EQ(table.send(channel(0, 1, 9), 13), 4);
  EXPECT_EQ(table.receive(channel(0, 1, 7), 6), 11);
}

TEST(Matching, PeekingAndTakingLeaveTheOtherKindAlone) {
  MatchTable table;
  EXPECT_FALSE(table.has_receives(channel(0, 1, 7)));  // an unknown channel
  EXPECT_EQ(table.take_message(channel(0, 1, 7)), MatchTable::kNone);
  table.receive(channel(0, 1, 7), 3);
  table.receive(channel(0, 1, 7), 4);
  EXPECT_TRUE(table.has_receives(channel(0, 1, 7)));                   // still there
  EXPECT_EQ(table.take_message(channel(0, 1, 7)), MatchTable::kNone);  // receives wait there
  EXPECT_EQ(table.take_receive(channel(0, 1, 7)), 3);                  // the oldest
  EXPECT_EQ(table.send(channel(0, 1, 7), 10), 4);
  EXPECT_FALSE(table.has_receives(channel(0, 1, 7)));
  EXPECT_EQ(table.take_receive(channel(0, 1, 7)), MatchTable::kNone);
  table.send(channel(0, 1, 7), 11);
  EXPECT_FALSE(table.has_receives(channel(0, 1, 7)));  // messages wait there
  EXPECT_EQ(table.take_message(channel(0, 1, 7)), 11);
}

TEST(Matching, PendingSaysWhatNoOneMatched) {
  MatchTable table;
  table.send(channel(0, 1, 1), 0);
  table.send(channel(0, 1, 1), 1);
  table.receive(channel(2, 1, 1), 0);
  table.receive(channel(0, 1, 5), 1);
  table.send(channel(0, 1, 5), 2);  // matched: not pending
  std::vector<MatchTable::Pending> pending = table.pending();
  ASSERT_EQ(pending.size(), 2u);
  if (pending[0].receives) std::swap(pending[0], pending[1]);
  EXPECT_FALSE(pending[0].receives);
  EXPECT_EQ(pending[0].ids, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(pending[0].channel.tag, 1);
  EXPECT_TRUE(pending[1].receives);
  EXPECT_EQ(pending[1].channel.src_task, 2);
}

// Traces that use ever new tags keep a bounded table: empty channels are dropped.
TEST(Matching, ManyChannelsUsedOnceLeaveNothingPending) {
  MatchTable table;
  for (std::uint32_t i = 0; i < 20000; ++i) {
    table.send(channel(0, 1, i), i);
    EXPECT_EQ(table.receive(channel(0, 1, i), i), static_cast<std::int32_t>(i));
  }
  EXPECT_TRUE(table.pending().empty());
}

// Channels that still hold messages survive the table's growth (which drops empty ones), their
// queues in order.
TEST(Matching, WaitingChannelsKeepTheirQueuesAsTheTableGrows) {
  MatchTable table;
  for (std::uint32_t i = 0; i < 3000; ++i) {
    table.send(channel(0, 1, i % 1000), i);          // three messages on each of 1000 channels
    table.send(channel(2, 1, 5000 + i), 10000 + i);  // and a channel used once, left empty
    table.receive(channel(2, 1, 5000 + i), 10000 + i);
  }
  for (std::uint32_t i = 0; i < 3000; ++i)
    EXPECT_EQ(table.receive(channel(0, 1, i % 1000), i), static_cast<std::int32_t>(i));
  EXPECT_TRUE(table.pending().empty());
}

TEST(Cores, SharedCoresServeReadyThreadsFirstInFirstOut) {
  SharedCores cores(1);
  cores.queue(1, false);
  cores.queue(2, false);
  cores.queue(3, true);  // back from an MPI call: at the front
  EXPECT_EQ(cores.next(), 3u);
  EXPECT_EQ(cores.next(), std::nullopt);  // the only core is taken
  cores.release();
  EXPECT_EQ(cores.next(), 1u);
  cores.release();
  EXPECT_EQ(cores.next(), 2u);
}

TEST(Cores, TaskCoresGiveTheLowestFreeCoreToTheBestReadyInstance) {
  TaskCores cores(8, 2);  // two instances at most: two usable cores
  EXPECT_EQ(cores.cores(), 8);
  cores.ready(5, {0.0, 2, 0});
  cores.ready(6, {-1.0, 3, 0});  // lower priority value: served first
  cores.ready(7, {0.0, 1, 0});
  auto first = cores.next();
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, std::make_pair(6u, 0));
  auto second = cores.next();
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, std::make_pair(7u, 1));
  EXPECT_FALSE(cores.next());
  cores.release(0);
  EXPECT_EQ(cores.owners(), (std::vector<std::int32_t>{TaskCores::kFree, 7}));
  EXPECT_EQ(cores.lowest_free(), 0);
  auto third = cores.next();
  ASSERT_TRUE(third);
  EXPECT_EQ(*third, std::make_pair(5u, 0));
}

// Under the MPI policy an instance woken from MPI may take a core out of turn: it leaves the
// queue of those that may preempt, and its place in the heap is skipped later, once.
TEST(Cores, TaskCoresSkipAnInstanceThatTookACoreOutOfTurn) {
  TaskCores cores(2, 2);
  cores.ready(1, {0.0, 1, 0});
  cores.ready(2, {0.0, 2, 0}, true);
  cores.ready(3, {0.0, 3, 0});
  ASSERT_EQ(cores.preempting().size(), 1u);
  EXPECT_EQ(cores.preempting().begin()->second, 2u);
  cores.preempting().erase(cores.preempting().begin());
  cores.take(2, 1);  // out of turn, on core 1
  EXPECT_EQ(cores.next(), std::make_optional(std::make_pair(1u, 0)));
  EXPECT_FALSE(cores.next());  // both cores held
  cores.release(1);
  EXPECT_EQ(cores.next(), std::make_optional(std::make_pair(3u, 1))) << "2's old entry skipped";
  cores.release(0);
  cores.ready(2, {0.0, 2, 0});  // 2 waits again: served once
  EXPECT_EQ(cores.next(), std::make_optional(std::make_pair(2u, 0)));
  cores.release(0);
  EXPECT_FALSE(cores.next());
}

}  // namespace
