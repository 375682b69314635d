// cores.h — the CPU schedulers of a node: who runs on its cores when threads outnumber them.
// They know threads by id only; the engine decides what running means.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "replay/quad_heap.h"
#include "replay/resources.h"

namespace tareador::replay {

// The cores of a node whose threads outnumber them, scheduled as by Dimemas 5.5's FIFO policy: a
// thread asks for a core for each piece of CPU work and gives it back when the piece ends; ready
// threads queue, at the back, or at the front when they go on from an MPI call.
class SharedCores {
 public:
  explicit SharedCores(int cores = 0) : free_(cores) {}

  void queue(std::uint32_t thread, bool front) {
    if (front) ready_.push_front(thread);
    else ready_.push_back(thread);
  }
  void release() { ++free_; }

  // The first ready thread, which now holds a core; none when no core is free or none waits.
  std::optional<std::uint32_t> next() {
    if (free_ == 0 || ready_.empty()) return std::nullopt;
    std::uint32_t thread = ready_.front();
    ready_.pop_front();
    --free_;
    return thread;
  }

 private:
  int free_;
  Queue<std::uint32_t> ready_;
};

// The cores of a node in task mode: task instances wait for a core in priority order (lower
// first) and hold it until they give it back; the lowest free core goes first. The ready
// instances are a 4-ary heap (millions of them may wait at once); those that may take a
// core out of turn (a preemption) are also kept in order apart.
class TaskCores {
 public:
  using Priority = std::tuple<double, int, int>;
  using Entry = std::pair<Priority, std::uint32_t>;
  static constexpr std::int32_t kFree = -1;

  // `cores` of the node; only the first `usable` are ever handed out (more than the instances
  // of the node's ranks would never be used).
  TaskCores(int cores, int usable);

  int cores() const { return cores_; }

  // `thread` waits for a core; with `preempting`, it may also take one out of turn (take()).
  void ready(std::uint32_t thread, const Priority& priority, bool preempting = false);

  // The best ready thread and the lowest free core, which it now holds; none when either lacks.
  std::optional<std::pair<std::uint32_t, int>> next();

  // Gives `thread` the free core `core` (out of turn: a preemption).
  void take(std::uint32_t thread, int core);
  void release(int core);

  // Who holds each core (kFree: nobody).
  const std::vector<std::int32_t>& owners() const { return owner_; }
  int lowest_free() const { return free_.empty() ? -1 : *free_.begin(); }

  // The ready threads that may preempt, best first. Taking one out of turn: erase it here,
  // then take().
  std::set<Entry>& preempting() { return preempting_; }

 private:
  int cores_;
  std::vector<std::int32_t> owner_;
  std::set<int> free_;
  QuadHeap<Entry> heap_;  // the ready threads
  std::set<Entry> preempting_;
  // Per thread: its entries of heap_ that are stale (it took a core out of turn since).
  std::vector<std::uint32_t> stale_;
};

}  // namespace tareador::replay
