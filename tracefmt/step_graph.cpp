// step_graph.cpp — the step graph of a rank's task instances (or of several ranks' joined by
// their messages), and the critical paths over it.
#include "tracefmt/step_graph.h"

#include <algorithm>
#include <stdexcept>

namespace tareador::trace {

namespace {
constexpr std::uint64_t kMaxPoints = std::numeric_limits<std::uint32_t>::max();
}

StepGraph::StepGraph(const TaskSet& set) : sets_{&set} { build(); }

StepGraph::StepGraph(std::vector<const TaskSet*> sets, std::vector<MessagePoint> messages)
    : sets_(std::move(sets)), messages_(std::move(messages)) {
  build();
}

void StepGraph::build() {
  rank_first_.push_back(0);
  for (const TaskSet* set : sets_) {
    std::uint64_t instances = std::uint64_t{rank_first_.back()} + set->instances.size();
    if (instances >= kMaxPoints) throw std::length_error("more than 2^32 task instances");
    rank_first_.push_back(static_cast<std::uint32_t>(instances));
  }
  const std::size_t n = rank_first_.back();
  std::uint64_t points = 0;
  first_.reserve(n + 1);
  tail_.reserve(n);
  for (const TaskSet* set : sets_)
    for (const TaskInstance& in : set->instances) {
      first_.push_back(static_cast<std::uint32_t>(points));
      points += in.steps.count + 2;
      if (points > kMaxPoints)
        throw std::length_error("the task instances of a rank have more than 2^32 points");
      double done = 0;  // in step order, as the trace's bursts were summed
      for (const TaskStep& step : set->steps(in)) done += step.instructions;
      tail_.push_back(std::max(0.0, in.instructions - done));
    }
  first_.push_back(static_cast<std::uint32_t>(points));
  if (points + messages_.size() > kMaxPoints)
    throw std::length_error("the task instances and messages have more than 2^32 points");
  owner_.resize(points);
  for (std::size_t i = 0; i < n; ++i)
    std::fill(owner_.begin() + first_[i], owner_.begin() + first_[i + 1],
              static_cast<std::uint32_t>(i));
  // Calls f(instance, its rank, the instance) for every instance.
  auto each_instance = [&](auto f) {
    for (std::size_t r = 0; r < sets_.size(); ++r)
      for (std::uint32_t i = rank_first_[r]; i < rank_first_[r + 1]; ++i) f(i, r, instance(i, r));
  };
  // The afters waiting for each instance's end, grouped by that instance (counting sort).
  waiters_first_.assign(n + 1, 0);
  each_instance([&](std::uint32_t, std::size_t r, const TaskInstance& in) {
    for (const TaskStep& step : sets_[r]->steps(in))
      if (!step.spawn) ++waiters_first_[rank_first_[r] + sets_[r]->after(in)[step.index].from];
  });
  for (std::size_t i = 0; i < n; ++i) waiters_first_[i + 1] += waiters_first_[i];
  waiters_.resize(waiters_first_[n]);
  std::vector<std::uint32_t> fill(waiters_first_.begin(), waiters_first_.end() - 1);
  each_instance([&](std::uint32_t i, std::size_t r, const TaskInstance& in) {
    Span<const TaskStep> steps = sets_[r]->steps(in);
    for (std::size_t k = 0; k < steps.size(); ++k)
      if (!steps[k].spawn) {
        std::size_t source = rank_first_[r] + sets_[r]->after(in)[steps[k].index].from - 1;
        waiters_[fill[source]++] = first_[i] + 1 + static_cast<std::uint32_t>(k);
      }
  });
  // Each instance's message points (they come sorted by instance).
  if (!messages_.empty()) {
    messages_first_.assign(n + 1, 0);
    for (const MessagePoint& m : messages_) {
      if (m.instance >= n || m.segment > first_[m.instance + 1] - first_[m.instance] - 2 ||
          (m.to != MessagePoint::kNone && m.to >= messages_.size()))
        throw std::invalid_argument("a message point outside the task instances");
      ++messages_first_[m.instance + 1];
    }
    for (std::size_t i = 0; i < n; ++i) messages_first_[i + 1] += messages_first_[i];
  }
  // In-edges: a start has one per spawn of it, a step its predecessor and (an after) the end
  // it waits for, an end its predecessor; a message point its predecessor and (a receive) its
  // send.
  pending_.assign(points + messages_.size(), 1);
  for (std::size_t i = 0; i < n; ++i) pending_[first_[i]] = 0;
  each_instance([&](std::uint32_t i, std::size_t r, const TaskInstance& in) {
    Span<const TaskStep> steps = sets_[r]->steps(in);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      if (!steps[k].spawn) ++pending_[first_[i] + 1 + k];
      else ++pending_[first_[rank_first_[r] + sets_[r]->children(in)[steps[k].index] - 1]];
    }
  });
  for (const MessagePoint& m : messages_)
    if (m.to != MessagePoint::kNone) ++pending_[points + m.to];
  order_.reserve(pending_.size());
  std::vector<std::uint32_t> ready;
  for (std::uint32_t v = 0; v < pending_.size(); ++v)
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

std::size_t StepGraph::rank_of(std::uint32_t instance) const {
  if (sets_.size() == 1) return 0;
  auto after = std::upper_bound(rank_first_.begin(), rank_first_.end(), instance);
  return static_cast<std::size_t>(after - rank_first_.begin()) - 1;
}

std::uint32_t StepGraph::owner(std::uint32_t point) const {
  return point < owner_.size() ? owner_[point] : messages_[point - owner_.size()].instance;
}

double StepGraph::segment_instructions(std::uint32_t i, std::uint32_t segment) const {
  std::size_t r = rank_of(i);
  Span<const TaskStep> steps = sets_[r]->steps(instance(i, r));
  return segment < steps.size() ? steps[segment].instructions : tail_[i];
}

template <class F>
void StepGraph::successors(std::uint32_t point, F f) const {
  const auto points = static_cast<std::uint32_t>(owner_.size());
  if (point >= points) {
    message_successors(point - points, f);
    return;
  }
  std::uint32_t i = owner_[point];
  std::size_t r = rank_of(i);
  const TaskSet& set = *sets_[r];
  const TaskInstance& in = instance(i, r);
  std::uint32_t k = point - first_[i];  // 0: the start; k: step k - 1; count + 1: the end
  if (k == in.steps.count + 1) {
    for (std::uint32_t w = waiters_first_[i]; w < waiters_first_[i + 1]; ++w) f(waiters_[w], 0.0);
    return;
  }
  Span<const TaskStep> steps = set.steps(in);
  std::uint32_t next = point + 1;
  double along = k < steps.size() ? steps[k].instructions : tail_[i];
  if (!messages_.empty()) {  // the segment goes through its message points first
    auto begin = messages_.begin() + messages_first_[i];
    auto end = messages_.begin() + messages_first_[i + 1];
    auto m = std::lower_bound(begin, end, k, [](const MessagePoint& p, std::uint32_t segment) {
      return p.segment < segment;
    });
    if (m != end && m->segment == k) {
      next = points + static_cast<std::uint32_t>(m - messages_.begin());
      along = m->offset;
    }
  }
  f(next, along);
  if (k >= 1 && steps[k - 1].spawn) {
    int child = set.children(in)[static_cast<std::size_t>(steps[k - 1].index)];
    f(first_[rank_first_[r] + static_cast<std::uint32_t>(child) - 1], 0.0);
  }
}

// Out of a message point: the rest of its segment (to the next message point or step) and,
// from a send, the message.
template <class F>
void StepGraph::message_successors(std::uint32_t m, F f) const {
  const auto points = static_cast<std::uint32_t>(owner_.size());
  const MessagePoint& here = messages_[m];
  if (m + 1 < messages_.size() && messages_[m + 1].instance == here.instance &&
      messages_[m + 1].segment == here.segment)
    f(points + m + 1, std::max(0.0, messages_[m + 1].offset - here.offset));
  else
    f(first_[here.instance] + here.segment + 1,
      std::max(0.0, segment_instructions(here.instance, here.segment) - here.offset));
  if (here.to != MessagePoint::kNone) f(points + here.to, 0.0);
}

std::vector<std::vector<double>> StepGraph::longest_from_starts(
    const std::vector<std::vector<double>>& seconds) const {
  std::vector<double> longest(pending_.size(), 0.0);
  for (auto v = order_.rbegin(); v != order_.rend(); ++v) {
    std::uint32_t i = owner(*v);
    std::size_t r = rank_of(i);
    double scale = seconds[r][static_cast<std::size_t>(instance(i, r).type)];
    double& here = longest[*v];
    successors(*v, [&](std::uint32_t w, double instructions) {
      here = std::max(here, instructions * scale + longest[w]);
    });
  }
  std::vector<std::vector<double>> paths(sets_.size());
  for (std::size_t r = 0; r < sets_.size(); ++r) {
    paths[r].reserve(rank_first_[r + 1] - rank_first_[r]);
    for (std::uint32_t i = rank_first_[r]; i < rank_first_[r + 1]; ++i)
      paths[r].push_back(longest[first_[i]]);
  }
  return paths;
}

std::vector<double> task_type_seconds(const TaskSet& set, double seconds_per_instruction,
                                      const std::vector<double>& type_speedup) {
  std::size_t types = set.types.size();
  for (const TaskInstance& in : set.instances)
    types = std::max(types, static_cast<std::size_t>(in.type) + 1);
  std::vector<double> seconds(types, seconds_per_instruction);
  if (!type_speedup.empty())
    for (std::size_t t = 0; t < seconds.size() && t < type_speedup.size(); ++t)
      seconds[t] = seconds_per_instruction / type_speedup[t];
  return seconds;
}

std::vector<double> rank_critical_paths(const TaskSet& set, std::vector<double> type_seconds) {
  StepGraph g(set);
  if (!g.acyclic())
    throw std::invalid_argument("the spawn and after edges of the tasks form a cycle");
  return std::move(g.longest_from_starts({std::move(type_seconds)})[0]);
}

std::vector<double> task_critical_paths(const TaskSet& set, double seconds_per_instruction,
                                        const std::vector<double>& type_speedup) {
  return rank_critical_paths(set, task_type_seconds(set, seconds_per_instruction, type_speedup));
}

}  // namespace tareador::trace
