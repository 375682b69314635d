// The race check (races.h).
#include "tasks/races.h"

#include <algorithm>

#include "tasks/support.h"

namespace tareador::tasks {

namespace {

// Order between instances, for the race check. Each instance is a sequence of points: its
// start, one after each of its steps (its spawns and afters, in record order: TaskStep) and
// its end. Every edge goes forward in the traced run's time:
//   point -> next point of the same instance;
//   the point where a spawn is -> start(child)   (a child is created there);
//   end(X) -> start(Y)  for `after X` in Y when X is not Y's descendant (such afters come
//                       first in a section: Y waits before it does anything);
//   end(D) -> the point after `after D` in P, when D is P's descendant (P waits there, like a
//                       taskwait: what P creates after it comes after D).
// Instance i surely ends before j starts when start(j) is reachable from end(i). Instances
// without steps (sets built in memory) get them: afters on other instances, spawns, afters on
// descendants.
class Order {
 public:
  explicit Order(const trace::TaskSet& set) : set_(set) {
    std::size_t n = set.instances.size();
    depth_.assign(n + 1, 0);
    first_.assign(n + 2, 0);
    for (const trace::TaskInstance& t : set.instances) {
      if (valid_instance(set, t.id) && valid_instance(set, t.parent) && t.parent < t.id)
        depth_[static_cast<std::size_t>(t.id)] = depth_[static_cast<std::size_t>(t.parent)] + 1;
    }
    std::vector<std::vector<trace::TaskStep>> steps(n + 1);
    for (std::size_t i = 1; i <= n; ++i) {
      steps[i] = steps_of(set.instance(static_cast<int>(i)));
      first_[i + 1] = first_[i] + steps[i].size() + 2;
    }
    next_.assign(first_[n + 1], {});
    for (std::size_t i = 1; i <= n; ++i) {
      const trace::TaskInstance& t = set.instance(static_cast<int>(i));
      std::size_t points = steps[i].size() + 2;
      for (std::size_t p = 0; p + 1 < points; ++p)
        next_[first_[i] + p].push_back(first_[i] + p + 1);
      for (std::size_t k = 0; k < steps[i].size(); ++k) {
        const trace::TaskStep& step = steps[i][k];
        std::size_t index = static_cast<std::size_t>(step.index);
        if (step.spawn) {
          if (index >= set.children(t).size() || !valid_instance(set, set.children(t)[index]))
            continue;
          next_[first_[i] + k].push_back(start(set.children(t)[index]));
        } else {
          if (index >= set.after(t).size()) continue;
          int from = set.after(t)[index].from;
          if (!valid_instance(set, from) || from == t.id) continue;
          next_[end(from)].push_back(is_ancestor(t.id, from) ? first_[i] + k + 1 : start(t.id));
        }
      }
    }
    // A topological order (Kahn). Points on a cycle, which a valid trace has not, are left
    // out: nothing is ordered through them.
    std::vector<std::uint32_t> pending(next_.size(), 0);
    for (const auto& successors : next_)
      for (std::size_t f : successors) ++pending[f];
    for (std::size_t e = 0; e < next_.size(); ++e)
      if (pending[e] == 0) topological_.push_back(e);
    for (std::size_t head = 0; head < topological_.size(); ++head)
      for (std::size_t f : next_[topological_[head]])
        if (--pending[f] == 0) topological_.push_back(f);
    edges_ = 0;
    for (const auto& successors : next_) edges_ += successors.size();
  }

  // Whether a is b's ancestor (a strict one).
  bool is_ancestor(int a, int b) const {
    while (valid_instance(set_, b) &&
           depth_[static_cast<std::size_t>(b)] > depth_[static_cast<std::size_t>(a)]) {
      b = set_.instance(b).parent;
      if (b == a) return true;
    }
    return false;
  }

  // For up to 64 instances (bit k: sources[k]), which of them end before each point:
  // reach[p] has bit k when p is reachable from end(sources[k]). One pass over the points.
  void reach_from_ends(const std::vector<int>& sources, std::vector<std::uint64_t>& reach) const {
    reach.assign(next_.size(), 0);
    for (std::size_t k = 0; k < sources.size(); ++k) reach[end(sources[k])] |= 1ull << k;
    for (std::size_t e : topological_) {
      std::uint64_t bits = reach[e];
      if (bits)
        for (std::size_t f : next_[e]) reach[f] |= bits;
    }
  }
  std::size_t size() const { return next_.size() + edges_; }  // the work of one pass

  std::size_t start(int id) const { return first_[static_cast<std::size_t>(id)]; }
  std::size_t end(int id) const { return first_[static_cast<std::size_t>(id) + 1] - 1; }

 private:
  std::vector<trace::TaskStep> steps_of(const trace::TaskInstance& t) const {
    trace::Span<const trace::TaskStep> own = set_.steps(t);
    if (own.size() == t.after.count + t.children.count) return {own.begin(), own.end()};
    std::vector<trace::TaskStep> steps;
    for (std::size_t k = 0; k < set_.after(t).size(); ++k)
      if (!is_ancestor(t.id, set_.after(t)[k].from))
        steps.push_back({false, static_cast<int>(k), 0});
    for (std::size_t k = 0; k < set_.children(t).size(); ++k)
      steps.push_back({true, static_cast<int>(k), 0});
    for (std::size_t k = 0; k < set_.after(t).size(); ++k)
      if (is_ancestor(t.id, set_.after(t)[k].from))
        steps.push_back({false, static_cast<int>(k), 0});
    return steps;
  }

  const trace::TaskSet& set_;
  std::vector<std::vector<std::size_t>> next_;
  std::vector<std::size_t> first_;  // first point of each instance; first_[n + 1]: all points
  std::vector<std::size_t> topological_;
  std::size_t edges_ = 0;
  std::vector<int> depth_;
};

struct Writer {
  int instance;
  std::int64_t bytes;       // written, at most end - first
  std::int64_t first, end;  // the bytes it used lie in [first, end) of the object
  bool per_access;          // `bytes` counts some bytes once per access (disabled updates)
};

// Whether two writers of an object surely write a byte in common: both write inside the union
// of their spans, so they do if together they write more bytes than that union has.
bool surely_overlap(const Writer& a, const Writer& b) {
  if (a.end <= b.first || b.end <= a.first) return false;
  return a.bytes + b.bytes > std::max(a.end, b.end) - std::min(a.first, b.first);
}

int lowest_bit(std::uint64_t bits) { return __builtin_ctzll(bits); }

void mark(RaceFinding& f, const trace::TaskSet& set, int id) {
  f.instances[static_cast<std::size_t>(id)] = true;
  int type = set.instance(id).type;
  if (type >= 0 && static_cast<std::size_t>(type) < f.types.size())
    f.types[static_cast<std::size_t>(type)] = true;
}

}  // namespace

namespace {

// The objects a race can be on (not the locals of the code that creates the tasks, which each
// instance copies, nor an instance's own frames; not a library's state or constants:
// program_data), with the instances that write each, in instance order (an instance's uses of
// one object added up).
struct Writes {
  std::map<int, std::int64_t> size_of;
  std::map<int, std::vector<Writer>> writers;
};

Writes object_writers(const trace::TaskSet& set) {
  Writes w;
  for (const trace::TaskObject& o : set.objects)
    if (!creator_local(&o) && program_data(&o) && o.size > 0) w.size_of[o.id] = o.size;
  for (const trace::TaskInstance& t : set.instances) {
    std::map<int, Writer> mine;
    for (const trace::TaskUse& u : set.uses(t)) {
      if (u.written <= 0 || !w.size_of.count(u.object)) continue;
      const std::int64_t size = w.size_of[u.object];
      // A use without a span (a version 2 set) may be anywhere in the object.
      const bool spanned = u.span_end > u.span_first && u.span_end <= size;
      const std::int64_t first = spanned ? u.span_first : 0, end = spanned ? u.span_end : size;
      auto [it, added] = mine.try_emplace(u.object, Writer{t.id, 0, first, end, false});
      it->second.bytes += u.written;
      it->second.per_access = it->second.per_access || u.disabled;
      it->second.first = std::min(it->second.first, first);
      it->second.end = std::max(it->second.end, end);
    }
    for (auto& [object, writer] : mine) {
      // (a disabled use counts every access, not each byte once)
      writer.bytes = std::min(writer.bytes, writer.end - writer.first);
      w.writers[object].push_back(writer);
    }
  }
  for (auto& [object, list] : w.writers)
    std::stable_sort(list.begin(), list.end(),
                     [](const Writer& a, const Writer& b) { return a.instance < b.instance; });
  return w;
}

// The instances that can be the earlier member of a pair: the span of some later writer of
// one of their objects meets theirs (surely_overlap needs it). In instance order.
std::vector<int> earlier_candidates(const trace::TaskSet& set, const Writes& w,
                                    std::vector<bool>& candidate) {
  candidate.assign(set.instances.size() + 1, false);
  for (const auto& [object, list] : w.writers) {
    // The bytes later writers' spans cover, as disjoint intervals: first -> end.
    std::map<std::int64_t, std::int64_t> covered;
    for (std::size_t k = list.size(); k-- > 0;) {
      const Writer& i = list[k];
      auto next = covered.lower_bound(i.end);  // the first interval starting at or past its end
      if (next != covered.begin() && std::prev(next)->second > i.first)
        candidate[static_cast<std::size_t>(i.instance)] = true;
      // Adds [first, end), merged with the intervals it meets or touches.
      std::int64_t first = i.first, end = i.end;
      auto at = covered.upper_bound(first);
      if (at != covered.begin() && std::prev(at)->second >= first) --at;
      while (at != covered.end() && at->first <= end) {
        first = std::min(first, at->first);
        end = std::max(end, at->second);
        at = covered.erase(at);
      }
      covered.emplace(first, end);
    }
  }
  std::vector<int> sources;
  for (std::size_t i = 1; i < candidate.size(); ++i)
    if (candidate[i]) sources.push_back(static_cast<int>(i));
  return sources;
}

// One block of up to 64 earlier members, on one object they write: every later writer j that
// races with some of them goes into `found`.
struct Block {
  const std::vector<int>& members;          // ascending
  const std::vector<std::uint64_t>& reach;  // Order::reach_from_ends of the members
};

void check_object(const trace::TaskSet& set, const Order& order, const Block& block, int object,
                  const std::vector<Writer>& list, std::map<int, RaceFinding>& found) {
  const std::vector<int>& members = block.members;
  int low = members.front(), high = members.back();
  auto bit_of = [&](int id) -> int {  // -1: not a member
    auto at = std::lower_bound(members.begin(), members.end(), id);
    return at != members.end() && *at == id ? static_cast<int>(at - members.begin()) : -1;
  };
  // This block's members among the object's writers: (bit, writer), by instance.
  std::vector<std::pair<int, const Writer*>> writing;
  auto first = std::lower_bound(list.begin(), list.end(), low,
                                [](const Writer& w, int id) { return w.instance < id; });
  for (auto it = first; it != list.end() && it->instance <= high; ++it)
    if (int bit = bit_of(it->instance); bit >= 0) writing.push_back({bit, &*it});
  if (writing.empty()) return;
  std::uint64_t all = 0;
  for (const auto& [bit, writer] : writing) all |= 1ull << bit;
  RaceFinding* finding = nullptr;
  std::uint64_t racing = 0;
  for (auto it = first; it != list.end(); ++it) {
    int j = it->instance;
    // Members created before j ...
    std::uint64_t pairs = all;
    if (j <= high)
      pairs &=
          (1ull << (std::lower_bound(members.begin(), members.end(), j) - members.begin())) - 1;
    if (!pairs) continue;
    // ... that surely write a byte j writes ...
    std::uint64_t overlapping = 0, exact = 0;
    for (const auto& [bit, writer] : writing)
      if (surely_overlap(*writer, *it)) {
        overlapping |= 1ull << bit;
        if (!writer->per_access && !it->per_access) exact |= 1ull << bit;
      }
    pairs &= overlapping;
    // ... that do not end before j starts, and are not its ancestors.
    pairs &= ~block.reach[order.start(j)];
    for (int a = set.instance(j).parent; pairs && a >= low && a < j && valid_instance(set, a);
         a = set.instance(a).parent)
      if (int bit = a <= high ? bit_of(a) : -1; bit >= 0) pairs &= ~(1ull << bit);
    if (!pairs) continue;
    if (!finding) {
      finding = &found[object];
      finding->types.resize(set.types.size(), false);
      finding->instances.resize(set.instances.size() + 1, false);
    }
    finding->pairs += static_cast<std::size_t>(__builtin_popcountll(pairs));
    finding->proven = finding->proven || (pairs & exact) != 0;
    int i = members[static_cast<std::size_t>(lowest_bit(pairs))];
    if (finding->first == 0 ||
        std::make_pair(i, j) < std::make_pair(finding->first, finding->second)) {
      finding->first = i;
      finding->second = j;
    }
    mark(*finding, set, j);
    racing |= pairs;
  }
  for (std::uint64_t bits = racing; bits; bits &= bits - 1)
    mark(*finding, set, members[static_cast<std::size_t>(lowest_bit(bits))]);
}

}  // namespace

// Pairs of instances that both write an object, provably some bytes in common (together they
// write more bytes than the union of the spans they used has), with neither ordered before the
// other.
//
// Only a later instance can race with an earlier one that is not its ancestor: an instance
// created after i and not i's descendant was created after i ended, and nothing recorded puts
// it before i. So for each pair (i < j) the question is whether end(i) reaches start(j). The
// earlier members of candidate pairs are taken 64 at a time, and one pass over the events in
// topological order tells, for every event, which of the 64 reach it.
std::map<int, RaceFinding> find_races(const trace::TaskSet& set, const HintOptions& options,
                                      std::vector<std::string>& notes) {
  std::map<int, RaceFinding> found;
  const Writes w = object_writers(set);
  std::vector<bool> candidate;
  std::vector<int> sources = earlier_candidates(set, w, candidate);
  if (sources.empty()) return found;
  // The objects each candidate writes (a block looks at those of its members only).
  std::vector<std::vector<int>> writes(set.instances.size() + 1);
  for (const auto& [object, list] : w.writers)
    for (const Writer& writer : list)
      if (candidate[static_cast<std::size_t>(writer.instance)])
        writes[static_cast<std::size_t>(writer.instance)].push_back(object);

  Order order(set);
  std::size_t blocks = (sources.size() + 63) / 64;
  std::size_t affordable =
      std::max<std::size_t>(1, options.max_work / std::max<std::size_t>(1, order.size()));
  if (blocks > affordable) {
    std::size_t stop = affordable * 64;
    notes.push_back("the race check stopped at instance #" + std::to_string(sources[stop]) +
                    " (its work limit): pairs whose first instance comes from there on were "
                    "not checked");
    sources.resize(stop);
    blocks = affordable;
  }
  std::vector<std::uint64_t> reach;
  std::vector<int> members, objects;
  for (std::size_t b = 0; b < blocks; ++b) {
    members.assign(sources.begin() + static_cast<long>(64 * b),
                   sources.begin() + static_cast<long>(std::min(sources.size(), 64 * b + 64)));
    order.reach_from_ends(members, reach);
    objects.clear();
    for (int i : members) {
      const std::vector<int>& mine = writes[static_cast<std::size_t>(i)];
      objects.insert(objects.end(), mine.begin(), mine.end());
    }
    std::sort(objects.begin(), objects.end());
    objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
    for (int object : objects)
      check_object(set, order, Block{members, reach}, object, w.writers.at(object), found);
  }
  return found;
}

}  // namespace tareador::tasks
