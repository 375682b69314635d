// The simulator's agenda: events in time order, ties in the order they were pushed, whether they
// wait in the heap or, pushed for the instant being handled, in its FIFO.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "replay/event_queue.h"
#include "replay/quad_heap.h"

namespace tareador::replay {
namespace {

TEST(EventQueue, TiesComeOutInTheOrderTheyWentIn) {
  EventQueue queue;
  queue.push(1.0, EventKind::ThreadReady, 1);
  queue.push(0.0, EventKind::ThreadReady, 2);
  queue.push(1.0, EventKind::TransferDone, 3);
  EXPECT_EQ(queue.pop().id, 2u);
  queue.push(0.0, EventKind::ThreadReady, 4);  // for the instant being handled
  EXPECT_EQ(queue.next_time(), 0.0);
  EXPECT_EQ(queue.pop().id, 4u);
  Event first = queue.pop();
  EXPECT_EQ(first.id, 1u);
  EXPECT_EQ(first.time, 1.0);
  queue.push(1.0, EventKind::CollectiveDone, 5);  // after 3, pushed before the instant came
  EXPECT_EQ(queue.pop().id, 3u);
  Event last = queue.pop();
  EXPECT_EQ(last.id, 5u);
  EXPECT_EQ(last.kind, EventKind::CollectiveDone);
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.next_time(), std::numeric_limits<double>::infinity());
}

// As a simulation uses it: every event pushed at or after the time of the last one popped, many
// at the same instants. The order must be that of (time, push order).
TEST(EventQueue, RandomAgendaComesOutInTimeThenPushOrder) {
  std::mt19937 random(7);
  EventQueue queue;
  std::map<std::pair<double, std::uint64_t>, std::uint32_t> expected;
  std::uint64_t pushed = 0;
  double now = 0;
  for (int step = 0; step < 200000; ++step) {
    if (expected.empty() || random() % 3 != 0) {
      double time = now + static_cast<double>(random() % 4);  // ties on purpose
      auto id = static_cast<std::uint32_t>(random() % EventQueue::kMaxId);
      queue.push(time, EventKind::ThreadReady, id);
      expected.emplace(std::make_pair(time, pushed++), id);
    } else {
      ASSERT_EQ(queue.next_time(), expected.begin()->first.first);
      Event e = queue.pop();
      ASSERT_EQ(e.time, expected.begin()->first.first);
      ASSERT_EQ(e.id, expected.begin()->second);
      now = e.time;
      expected.erase(expected.begin());
    }
  }
}

// The heap under the agenda and the ready instances: whatever the pushes and pops, and equal
// items among them, it gives back the least of what it holds.
TEST(QuadHeap, PopsTheLeastOfWhatItHolds) {
  std::mt19937 random(11);
  QuadHeap<std::tuple<double, int, std::uint32_t>> heap;
  std::multiset<std::tuple<double, int, std::uint32_t>> expected;
  for (int step = 0; step < 20000; ++step) {
    if (expected.empty() || random() % 5 < 3) {
      std::tuple<double, int, std::uint32_t> item{static_cast<double>(random() % 50),
                                                  static_cast<int>(random() % 3),
                                                  static_cast<std::uint32_t>(random() % 7)};
      heap.push(item);
      expected.insert(item);
    } else {
      ASSERT_EQ(heap.top(), *expected.begin());
      ASSERT_EQ(heap.pop(), *expected.begin());
      expected.erase(expected.begin());
    }
    ASSERT_EQ(heap.size(), expected.size());
  }
  EXPECT_EQ(heap.empty(), expected.empty());
}

}  // namespace
}  // namespace tareador::replay
