// resources.h — the machine's shared resources (cores, links, buses) as FIFO-queued counters.
// They know nothing of messages or threads: a user is an opaque id, and whoever releases a
// resource learns which queued user gets it next. (The model decides what to do with that.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace tareador::replay {

// A double-ended FIFO of small values that allocates nothing until it is used (std::deque
// allocates at construction, and a replay holds one per node, link and thread).
template <typename T>
class Queue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  const T& front() const { return items_[head_]; }
  void push_back(T value) {
    grow();
    items_[(head_ + size_++) & (items_.size() - 1)] = value;
  }
  void push_front(T value) {
    grow();
    head_ = (head_ + items_.size() - 1) & (items_.size() - 1);
    items_[head_] = value;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (items_.size() - 1);
    --size_;
  }
  // Takes the first `value` out, keeping the others in order; false if there is none.
  bool remove(const T& value) {
    std::size_t mask = items_.size() - 1, i = 0;
    while (i < size_ && items_[(head_ + i) & mask] != value) ++i;
    if (i == size_) return false;
    for (; i + 1 < size_; ++i) items_[(head_ + i) & mask] = items_[(head_ + i + 1) & mask];
    --size_;
    return true;
  }

 private:
  // Room for one more: the ring doubles (a power of two), its items moved to the front.
  void grow() {
    if (size_ < items_.size()) return;
    std::vector<T> bigger(std::max<std::size_t>(4, 2 * items_.size()));
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = items_[(head_ + i) & (items_.size() - 1)];
    items_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> items_;
  std::size_t head_ = 0, size_ = 0;
};

class FifoResource {
 public:
  // `units` = how many users it serves at once; 0 = unlimited.
  explicit FifoResource(int units = 0) : free_(units), unlimited_(units == 0) {}

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
  bool remove(std::uint32_t user) { return waiters_.remove(user); }

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

 private:
  int free_;
  bool unlimited_;
  Queue<std::uint32_t> waiters_;
};

}  // namespace tareador::replay
