// event_queue.h — the simulator's agenda: events ordered by time, ties in insertion order (so a
// replay is deterministic).
//
// The agenda is the hottest structure of a replay. An event is 16 bytes whose order is one
// unsigned 128-bit comparison: the bits of a non-negative double order like the double, and the
// low word is (sequence, kind, id), in a 4-ary heap (quad_heap.h). Events for
// the instant being handled (a thread woken now) skip the heap: they wait in a FIFO, after the
// heap's events of the same instant, which were all pushed before the instant came.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "replay/quad_heap.h"

namespace tareador::replay {

// TaskTimer: a thread of a tasks trace goes on (its id is a timer token, which a preemption
// makes stale).
enum class EventKind : std::uint8_t { ThreadReady, TransferDone, CollectiveDone, TaskTimer };

struct Event {
  double time;
  EventKind kind;
  std::uint32_t id;  // thread, message, collective or timer index
};

class EventQueue {
 public:
  static constexpr std::uint32_t kMaxId = (1u << 26) - 1;
  static constexpr std::uint64_t kMaxSequence = (1ull << 36) - 1;

  // `time` must be >= 0; `id` at most kMaxId.
  void push(double time, EventKind kind, std::uint32_t id) {
    if (id > kMaxId) throw std::length_error("more than 2^26 simultaneous simulation objects");
    if (next_sequence_ > kMaxSequence) throw std::length_error("more than 2^36 simulation events");
    if (time == now_) {
      now_events_.push_back(Event{time, kind, id});
      ++next_sequence_;
      return;
    }
    std::uint64_t bits;
    std::memcpy(&bits, &time, sizeof bits);
    Key key = (static_cast<Key>(bits) << 64) | (next_sequence_++ << 28) |
              (static_cast<std::uint64_t>(kind) << 26) | id;
    heap_.push(key);
  }

  bool empty() const { return heap_.empty() && next_now_ == now_events_.size(); }

  // Time of the earliest event; +inf when empty.
  double next_time() const {
    if (next_now_ != now_events_.size()) return now_;
    return heap_.empty() ? std::numeric_limits<double>::infinity() : time_of(heap_.top());
  }

  Event pop() {
    if (next_now_ != now_events_.size() && (heap_.empty() || time_of(heap_.top()) != now_)) {
      Event e = now_events_[next_now_++];
      if (next_now_ == now_events_.size()) {
        now_events_.clear();
        next_now_ = 0;
      }
      return e;
    }
    Key top = heap_.pop();
    auto low = static_cast<std::uint64_t>(top);
    now_ = time_of(top);
    return Event{now_, static_cast<EventKind>((low >> 26) & 3u),
                 static_cast<std::uint32_t>(low & kMaxId)};
  }

 private:
  using Key = unsigned __int128;

  static double time_of(Key key) {
    auto bits = static_cast<std::uint64_t>(key >> 64);
    double time;
    std::memcpy(&time, &bits, sizeof time);
    return time;
  }

  QuadHeap<Key> heap_;
  std::uint64_t next_sequence_ = 0;
  double now_ = 0;                 // the time of the last event popped
  std::vector<Event> now_events_;  // events pushed for `now_`, from next_now_ on
  std::size_t next_now_ = 0;
};

}  // namespace tareador::replay
