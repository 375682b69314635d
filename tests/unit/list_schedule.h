// list_schedule.h — the classic list scheduling of a task graph, to check task replays against
// (e.g. that `replay --policy=cp` gives the speedups list scheduling gives).
#pragma once

#include <functional>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tareador/trace.h"

namespace tareador::testing {

// The makespan of list scheduling the task instances 2..N of `set` on `cores` identical cores
// with critical-path priority: whenever cores are free, the ready instances with the longest
// path to the end (bottom level: their own time plus the longest bottom level among their
// successors) take them, ties to the lower instance number; an instance is ready when every
// instance it depends on has ended. Times: instructions * `seconds_per_instruction`.
//
// The graph is the classic one: the edges are the `after` dependencies between instances 2..N,
// plus parent -> child for instances created by another task than the main one (the child
// starts after its parent ends). The main task (instance 1) is taken to only create the others
// and wait for them, so its own instructions and its `after`s are not scheduled, nor are the
// `after`s of a parent on its own descendants (taskwaits). For a flat graph whose main task has
// no instructions, this is exactly what the replay does with --policy=cp (main holds no core).
// With `type_speedup` (a factor per type of `set`), each type's instances take that many times
// less (what `replay --accelerate` does).
inline double list_schedule_makespan(const trace::TaskSet& set, int cores,
                                     double seconds_per_instruction,
                                     const std::vector<double>& type_speedup = {}) {
  if (cores < 1) throw std::invalid_argument("list scheduling needs at least one core");
  const std::size_t n = set.instances.size();
  auto descends = [&](int id, int ancestor) {
    for (int a = set.instance(id).parent; a != 0; a = set.instance(a).parent)
      if (a == ancestor) return true;
    return false;
  };
  std::vector<std::vector<int>> successors(n + 1);
  std::vector<int> pending(n + 1, 0);
  auto edge = [&](int from, int to) {
    successors[static_cast<std::size_t>(from)].push_back(to);
    ++pending[static_cast<std::size_t>(to)];
  };
  for (const trace::TaskInstance& inst : set.instances) {
    if (inst.id == 1) continue;
    if (inst.parent != 1) edge(inst.parent, inst.id);
    for (const trace::TaskDependency& d : set.after(inst))
      if (d.from != 1 && !descends(d.from, inst.id)) edge(d.from, inst.id);
  }
  std::vector<double> weight(n + 1, 0.0), level(n + 1, 0.0);
  for (const trace::TaskInstance& inst : set.instances)
    weight[static_cast<std::size_t>(inst.id)] =
        inst.instructions * seconds_per_instruction /
        (type_speedup.empty() ? 1.0 : type_speedup[static_cast<std::size_t>(inst.type)]);

  // Bottom levels, in reverse topological order.
  std::vector<int> order, left = pending, stack;
  for (std::size_t id = 2; id <= n; ++id)
    if (left[id] == 0) stack.push_back(static_cast<int>(id));
  while (!stack.empty()) {
    int id = stack.back();
    stack.pop_back();
    order.push_back(id);
    for (int s : successors[static_cast<std::size_t>(id)])
      if (--left[static_cast<std::size_t>(s)] == 0) stack.push_back(s);
  }
  if (order.size() + 1 != n && n > 0) throw std::invalid_argument("the task graph has a cycle");
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    auto id = static_cast<std::size_t>(*it);
    double longest = 0;
    for (int s : successors[id]) longest = std::max(longest, level[static_cast<std::size_t>(s)]);
    level[id] = weight[id] + longest;
  }

  // Event-driven greedy schedule.
  std::set<std::pair<double, int>> ready;  // (-level, id)
  for (std::size_t id = 2; id <= n; ++id)
    if (pending[id] == 0) ready.emplace(-level[id], static_cast<int>(id));
  using Running = std::pair<double, int>;  // (end, id)
  std::priority_queue<Running, std::vector<Running>, std::greater<>> running;
  int free = cores;
  double now = 0, makespan = 0;
  for (;;) {
    while (free > 0 && !ready.empty()) {
      int id = ready.begin()->second;
      ready.erase(ready.begin());
      running.emplace(now + weight[static_cast<std::size_t>(id)], id);
      --free;
    }
    if (running.empty()) break;
    now = running.top().first;
    while (!running.empty() && running.top().first == now) {
      int id = running.top().second;
      running.pop();
      ++free;
      makespan = std::max(makespan, now);
      for (int s : successors[static_cast<std::size_t>(id)])
        if (--pending[static_cast<std::size_t>(s)] == 0)
          ready.emplace(-level[static_cast<std::size_t>(s)], s);
    }
  }
  return makespan;
}

}  // namespace tareador::testing
