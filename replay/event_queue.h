// event_queue.h — the simulator's agenda: events ordered by time, ties in insertion order (so a
// replay is deterministic).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace tareador::replay {

enum class EventKind : std::uint8_t { ThreadReady, TransferDone, CollectiveDone };

struct Event {
  double time;
  std::uint64_t sequence;
  EventKind kind;
  std::uint32_t id;  // thread, message or collective index
};

class EventQueue {
 public:
  void push(double time, EventKind kind, std::uint32_t id) {
    heap_.push_back(Event{time, next_sequence_++, kind, id});
    sift_up(heap_.size() - 1);
  }

  bool empty() const { return heap_.empty(); }
  // Time of the earliest event; +inf when empty.
  double next_time() const {
    return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.front().time;
  }

  Event pop() {
    Event top = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    return top;
  }

 private:
  static bool before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.sequence < b.sequence);
  }

  void sift_up(std::size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      std::size_t parent = (i - 1) / 2;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  void sift_down(std::size_t i) {
    Event e = heap_[i];
    std::size_t n = heap_.size();
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], e)) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace tareador::replay
