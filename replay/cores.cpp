#include "replay/cores.h"

namespace tareador::replay {

TaskCores::TaskCores(int cores, int usable)
    : cores_(cores), owner_(static_cast<std::size_t>(usable), kFree) {
  for (int c = 0; c < usable; ++c) free_.insert(c);
}

void TaskCores::ready(std::uint32_t thread, const Priority& priority, bool preempting) {
  heap_.push(Entry(priority, thread));
  if (preempting) preempting_.emplace(priority, thread);
}

std::optional<std::pair<std::uint32_t, int>> TaskCores::next() {
  while (!heap_.empty() && !free_.empty()) {
    Entry best = heap_.pop();
    if (best.second < stale_.size() && stale_[best.second] > 0) {
      --stale_[best.second];  // it took a core out of turn: not waiting here any more
      continue;
    }
    if (!preempting_.empty()) preempting_.erase(best);
    int core = *free_.begin();
    owner_[static_cast<std::size_t>(core)] = static_cast<std::int32_t>(best.second);
    free_.erase(core);
    return std::make_pair(best.second, core);
  }
  return std::nullopt;
}

void TaskCores::take(std::uint32_t thread, int core) {
  owner_[static_cast<std::size_t>(core)] = static_cast<std::int32_t>(thread);
  free_.erase(core);
  // Its entry in the heap is stale now (entries of one thread are alike: any one may go).
  if (stale_.size() <= thread) stale_.resize(static_cast<std::size_t>(thread) + 1, 0);
  ++stale_[thread];
}

void TaskCores::release(int core) {
  owner_[static_cast<std::size_t>(core)] = kFree;
  free_.insert(core);
}

}  // namespace tareador::replay
