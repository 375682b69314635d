#include "replay/cores.h"

namespace tareador::replay {

TaskCores::TaskCores(int cores, int usable)
    : cores_(cores), owner_(static_cast<std::size_t>(usable), kFree) {
  for (int c = 0; c < usable; ++c) free_.insert(c);
}

std::optional<std::pair<std::uint32_t, int>> TaskCores::next() {
  if (ready_.empty() || free_.empty()) return std::nullopt;
  std::uint32_t thread = ready_.begin()->second;
  ready_.erase(ready_.begin());
  int core = *free_.begin();
  take(thread, core);
  return std::make_pair(thread, core);
}

void TaskCores::take(std::uint32_t thread, int core) {
  owner_[static_cast<std::size_t>(core)] = static_cast<std::int32_t>(thread);
  free_.erase(core);
}

void TaskCores::release(int core) {
  owner_[static_cast<std::size_t>(core)] = kFree;
  free_.insert(core);
}

}  // namespace tareador::replay
