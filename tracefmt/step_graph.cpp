// step_graph.cpp — the step graph of a rank's task instances, and the critical paths over it.
#include "tracefmt/step_graph.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tareador::trace {

StepGraph::StepGraph(const TaskSet& set) : set_(set) {
  const std::size_t n = set.instances.size();
  std::uint64_t points = 0;
  first_.reserve(n + 1);
  tail_.reserve(n);
  for (const TaskInstance& in : set.instances) {
    first_.push_back(static_cast<std::uint32_t>(points));
    points += in.steps.count + 2;
    if (points > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("the task instances of a rank have more than 2^32 points");
    double done = 0;  // in step order, as the trace's bursts were summed
    for (const TaskStep& step : set.steps(in)) done += step.instructions;
    tail_.push_back(std::max(0.0, in.instructions - done));
  }
  first_.push_back(static_cast<std::uint32_t>(points));
  owner_.resize(points);
  for (std::size_t i = 0; i < n; ++i)
    std::fill(owner_.begin() + first_[i], owner_.begin() + first_[i + 1],
              static_cast<std::uint32_t>(i));
  // The afters waiting for each instance's end, grouped by that instance (counting sort).
  waiters_first_.assign(n + 1, 0);
  for (const TaskInstance& in : set.instances)
    for (const TaskStep& step : set.steps(in))
      if (!step.spawn) ++waiters_first_[static_cast<std::size_t>(set.after(in)[step.index].from)];
  for (std::size_t i = 0; i < n; ++i) waiters_first_[i + 1] += waiters_first_[i];
  waiters_.resize(waiters_first_[n]);
  std::vector<std::uint32_t> fill(waiters_first_.begin(), waiters_first_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const TaskInstance& in = set.instances[i];
    Span<const TaskStep> steps = set.steps(in);
    for (std::size_t k = 0; k < steps.size(); ++k)
      if (!steps[k].spawn) {
        auto source = static_cast<std::size_t>(set.after(in)[steps[k].index].from - 1);
        waiters_[fill[source]++] = first_[i] + 1 + static_cast<std::uint32_t>(k);
      }
  }
  // In-edges: a start has one per spawn of it, a step its predecessor and (an after) the end
  // it waits for, an end its predecessor.
  pending_.assign(points, 1);
  for (std::size_t i = 0; i < n; ++i) pending_[first_[i]] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const TaskInstance& in = set.instances[i];
    Span<const TaskStep> steps = set.steps(in);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      if (!steps[k].spawn) ++pending_[first_[i] + 1 + k];
      else ++pending_[first_[static_cast<std::size_t>(set.children(in)[steps[k].index] - 1)]];
    }
  }
  order_.reserve(points);
  std::vector<std::uint32_t> ready;
  for (std::uint32_t v = 0; v < points; ++v)
    if (pending_[v] == 0) ready.push_back(v);
  while (!ready.empty()) {
    std::uint32_t v = ready.back();
    ready.pop_back();
    order_.push_back(v);
    successors(v, [&](std::uint32_t w, double) {
      if (--pending_[w] == 0) ready.push_back(w);
    });
  }
}

template <class F>
void StepGraph::successors(std::uint32_t point, F f) const {
  std::uint32_t i = owner_[point];
  const TaskInstance& in = set_.instances[i];
  std::uint32_t k = point - first_[i];  // 0: the start; k: step k - 1; count + 1: the end
  if (k == in.steps.count + 1) {
    for (std::uint32_t w = waiters_first_[i]; w < waiters_first_[i + 1]; ++w) f(waiters_[w], 0.0);
    return;
  }
  Span<const TaskStep> steps = set_.steps(in);
  f(point + 1, k < steps.size() ? steps[k].instructions : tail_[i]);
  if (k >= 1 && steps[k - 1].spawn) {
    int child = set_.children(in)[static_cast<std::size_t>(steps[k - 1].index)];
    f(first_[static_cast<std::size_t>(child - 1)], 0.0);
  }
}

std::vector<double> StepGraph::longest_from_starts(const std::vector<double>& seconds) const {
  std::vector<double> longest(owner_.size(), 0.0);
  for (auto v = order_.rbegin(); v != order_.rend(); ++v) {
    double scale = seconds[static_cast<std::size_t>(set_.instances[owner_[*v]].type)];
    double& here = longest[*v];
    successors(*v, [&](std::uint32_t w, double instructions) {
      here = std::max(here, instructions * scale + longest[w]);
    });
  }
  std::vector<double> paths;
  paths.reserve(set_.instances.size());
  for (std::size_t i = 0; i < set_.instances.size(); ++i) paths.push_back(longest[first_[i]]);
  return paths;
}

std::vector<double> task_critical_paths(const TaskSet& set, double seconds_per_instruction,
                                        const std::vector<double>& type_speedup) {
  StepGraph g(set);
  if (!g.acyclic())
    throw std::invalid_argument("the spawn and after edges of the tasks form a cycle");
  // The seconds of an instruction of each type.
  std::size_t types = set.types.size();
  for (const TaskInstance& in : set.instances)
    types = std::max(types, static_cast<std::size_t>(in.type) + 1);
  std::vector<double> seconds(types, seconds_per_instruction);
  if (!type_speedup.empty())
    for (std::size_t t = 0; t < seconds.size() && t < type_speedup.size(); ++t)
      seconds[t] = seconds_per_instruction / type_speedup[t];
  return g.longest_from_starts(seconds);
}

}  // namespace tareador::trace
