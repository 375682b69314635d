// resources.h — the machine's shared resources (cores, links, buses) as FIFO-queued counters.
// They know nothing of messages or threads: a user is an opaque id, and whoever releases a
// resource learns which queued user gets it next. (The model decides what to do with that.)
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace tareador::replay {

class FifoResource {
 public:
  // `units` = how many users it serves at once; 0 = unlimited.
  explicit FifoResource(int units = 0) : free_(units), unlimited_(units == 0) {}

  // Takes a unit for `user` if one is free; otherwise queues `user` and returns false.
  bool acquire(std::uint32_t user) {
    if (unlimited_) return true;
    if (free_ > 0) {
      --free_;
      return true;
    }
    waiters_.push_back(user);
    return false;
  }

  // Takes a unit if one is free, without queueing.
  bool try_acquire() {
    if (unlimited_) return true;
    if (free_ == 0) return false;
    --free_;
    return true;
  }

  // Queues `user` for the next unit: at the back, or at the front.
  void enqueue(std::uint32_t user, bool front = false) {
    if (front) waiters_.push_front(user);
    else waiters_.push_back(user);
  }

  // Takes `user` out of the queue; false if it was not queued.
  bool remove(std::uint32_t user) {
    for (auto it = waiters_.begin(); it != waiters_.end(); ++it)
      if (*it == user) {
        waiters_.erase(it);
        return true;
      }
    return false;
  }

  // Gives a unit back. If someone was waiting, the unit passes to the first of them, whose id is
  // returned; they now hold it.
  std::optional<std::uint32_t> release() {
    if (unlimited_) return std::nullopt;
    if (waiters_.empty()) {
      ++free_;
      return std::nullopt;
    }
    std::uint32_t next = waiters_.front();
    waiters_.pop_front();
    return next;
  }

  bool limited() const { return !unlimited_; }
  std::size_t queued() const { return waiters_.size(); }

 private:
  int free_;
  bool unlimited_;
  std::deque<std::uint32_t> waiters_;
};

}  // namespace tareador::replay
