// The task dependency graph, the profile per task type and the porting hints of one rank.
#include "tasks/taskgraph.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace tareador::tasks {

namespace trace = tareador::trace;

namespace {

// Light colours that black text reads well on (ColorBrewer Set3 and Paired, light halves).
constexpr const char* kPalette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                                    "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3",
                                    "#b2df8a", "#fb9a99", "#cab2d6", "#e5c494"};
constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];
constexpr const char* kMainColor = "#d9d9d9";

std::uint32_t fnv1a(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

// Type index of the main task (instance 1), or -1 when the set has no instance.
int main_type(const trace::TaskSet& set) {
  return set.instances.empty() ? -1 : set.instances.front().type;
}

bool valid_instance(const trace::TaskSet& set, int id) {
  return id >= 1 && static_cast<std::size_t>(id) <= set.instances.size();
}

std::string trim_zero(std::string s) {
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

std::string fixed1(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return trim_zero(buffer);
}

// 1234567 -> "1,234,567".
std::string grouped(double value) {
  long long v = std::llround(value);
  bool negative = v < 0;
  std::string digits = std::to_string(negative ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string percent(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f%%", v);
  return buffer;
}

const trace::TaskObject* find_object(const trace::TaskSet& set, int id) { return set.object(id); }

bool is_stack(const trace::TaskSet& set, int id) {
  const trace::TaskObject* o = find_object(set, id);
  return o && o->kind == "stack";
}

std::string object_description(const trace::TaskSet& set, int id) {
  const trace::TaskObject* o = find_object(set, id);
  if (!o) return object_name(set, id);
  return o->name + " (" + o->kind + ", " + format_bytes(o->size) + ")";
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.close();
  if (!out) throw trace::FormatError(path, 0, "cannot write it");
}

}  // namespace

// ---- Colours and text -------------------------------------------------------------------------

std::size_t palette_size() { return kPaletteSize; }

std::vector<std::string> type_colors(const trace::TaskSet& set) {
  std::vector<std::string> colors(set.types.size(), kPalette[0]);
  int main = main_type(set);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < set.types.size(); ++i)
    if (static_cast<int>(i) != main) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return set.types[a] < set.types[b]; });
  std::vector<bool> used(kPaletteSize, false);
  std::size_t taken = 0;
  for (std::size_t i : order) {
    std::size_t slot = fnv1a(set.types[i]) % kPaletteSize;
    if (taken < kPaletteSize) {
      while (used[slot]) slot = (slot + 1) % kPaletteSize;
      used[slot] = true;
      ++taken;
    }
    colors[i] = kPalette[slot];
  }
  if (main >= 0) colors[static_cast<std::size_t>(main)] = kMainColor;
  return colors;
}

const std::string& type_name(const trace::TaskSet& set, int type) {
  static const std::string unknown = "?";
  return type >= 0 && static_cast<std::size_t>(type) < set.types.size()
             ? set.types[static_cast<std::size_t>(type)]
             : unknown;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string format_bytes(std::int64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes) / 1024.0;
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < 4) {
    v /= 1024.0;
    ++u;
  }
  return fixed1(v) + " " + units[u];
}

std::string format_count(double count) {
  if (count < 10000) return std::to_string(std::llround(count));
  const char* units[] = {"K", "M", "G", "T"};
  double v = count / 1000.0;
  std::size_t u = 0;
  while (v >= 1000.0 && u + 1 < 4) {
    v /= 1000.0;
    ++u;
  }
  return fixed1(v) + " " + units[u];
}

std::string format_kinds(std::uint8_t kinds) {
  std::vector<std::string> names;
  if (kinds & trace::kRaw) names.push_back("raw");
  if (kinds & trace::kWar) names.push_back("war");
  if (kinds & trace::kWaw) names.push_back("waw");
  return names.empty() ? "none" : join(names, "+");
}

std::string object_name(const trace::TaskSet& set, int id) {
  const trace::TaskObject* o = find_object(set, id);
  return o ? o->name : "object#" + std::to_string(id);
}

// ---- The profile -----------------------------------------------------------------------------------

Profile profile(const trace::TaskSet& set) {
  Profile p;
  std::vector<std::string> colors = type_colors(set);
  std::vector<TypeProfile> types(set.types.size());
  for (std::size_t t = 0; t < set.types.size(); ++t) {
    types[t].type = set.types[t];
    types[t].color = colors[t];
  }
  for (const trace::TaskInstance& i : set.instances) {
    if (i.type < 0 || static_cast<std::size_t>(i.type) >= types.size()) continue;
    TypeProfile& tp = types[static_cast<std::size_t>(i.type)];
    ++tp.instances;
    if (i.mpi) ++tp.mpi_instances;
    tp.total += i.instructions;
    tp.max = std::max(tp.max, i.instructions);
    p.instructions += i.instructions;
    ++p.instances;
  }
  for (TypeProfile& tp : types) {
    if (tp.instances == 0) continue;
    tp.mean = tp.total / static_cast<double>(tp.instances);
    tp.share = p.instructions > 0 ? 100.0 * tp.total / p.instructions : 0.0;
    p.types.push_back(tp);
  }
  std::stable_sort(p.types.begin(), p.types.end(), [](const TypeProfile& a, const TypeProfile& b) {
    return a.total != b.total ? a.total > b.total : a.type < b.type;
  });
  return p;
}

// ---- Porting hints -------------------------------------------------------------------------------

const char* clause_name(Clause c) {
  switch (c) {
    case Clause::In: return "in";
    case Clause::Out: return "out";
    case Clause::InOut: return "inout";
  }
  return "?";
}

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
      for (std::size_t p = 0; p + 1 < points; ++p) next_[first_[i] + p].push_back(first_[i] + p + 1);
      for (std::size_t k = 0; k < steps[i].size(); ++k) {
        const trace::TaskStep& step = steps[i][k];
        std::size_t index = static_cast<std::size_t>(step.index);
        if (step.spawn) {
          if (index >= t.children.size() || !valid_instance(set, t.children[index])) continue;
          next_[first_[i] + k].push_back(start(t.children[index]));
        } else {
          if (index >= t.after.size()) continue;
          int from = t.after[index].from;
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
    if (t.steps.size() == t.after.size() + t.children.size()) return t.steps;
    std::vector<trace::TaskStep> steps;
    for (std::size_t k = 0; k < t.after.size(); ++k)
      if (!is_ancestor(t.id, t.after[k].from)) steps.push_back({false, static_cast<int>(k), 0});
    for (std::size_t k = 0; k < t.children.size(); ++k)
      steps.push_back({true, static_cast<int>(k), 0});
    for (std::size_t k = 0; k < t.after.size(); ++k)
      if (is_ancestor(t.id, t.after[k].from)) steps.push_back({false, static_cast<int>(k), 0});
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
  std::int64_t bytes;  // written, at most the object's size
};

struct RaceFinding {
  std::size_t pairs = 0;
  int first = 0, second = 0;
  std::vector<bool> types;      // per type: in a racing pair
  std::vector<bool> instances;  // per instance id: in a racing pair
};

int lowest_bit(std::uint64_t bits) { return __builtin_ctzll(bits); }

void mark(RaceFinding& f, const trace::TaskSet& set, int id) {
  f.instances[static_cast<std::size_t>(id)] = true;
  int type = set.instance(id).type;
  if (type >= 0 && static_cast<std::size_t>(type) < f.types.size())
    f.types[static_cast<std::size_t>(type)] = true;
}

// Pairs of instances that both write an object, provably some bytes in common (together they
// write more bytes than it has), with neither ordered before the other.
//
// Only a later instance can race with an earlier one that is not its ancestor: an instance
// created after i and not i's descendant was created after i ended, and nothing recorded puts
// it before i. So for each pair (i < j) the question is whether end(i) reaches start(j). The
// earlier members of candidate pairs are taken 64 at a time, and one pass over the events in
// topological order tells, for every event, which of the 64 reach it.
std::map<int, RaceFinding> find_races(const trace::TaskSet& set, const HintOptions& options,
                                      std::vector<std::string>& notes) {
  std::map<int, RaceFinding> found;
  std::map<int, std::int64_t> size_of;
  for (const trace::TaskObject& o : set.objects)
    if (o.kind != "stack" && o.size > 0) size_of[o.id] = o.size;
  // Writers of each object, in instance order (an instance's uses of one object added up).
  std::map<int, std::vector<Writer>> writers;
  for (const trace::TaskInstance& t : set.instances) {
    std::map<int, std::int64_t> mine;
    for (const trace::TaskUse& u : t.uses)
      if (u.written > 0 && size_of.count(u.object)) mine[u.object] += u.written;
    for (const auto& [object, bytes] : mine)
      writers[object].push_back({t.id, std::min(bytes, size_of[object])});
  }
  // Candidates for the earlier member of a pair: some later writer writes enough bytes.
  std::vector<bool> candidate(set.instances.size() + 1, false);
  for (auto& [object, list] : writers) {
    std::stable_sort(list.begin(), list.end(),
                     [](const Writer& a, const Writer& b) { return a.instance < b.instance; });
    std::int64_t most_later = 0;
    for (std::size_t k = list.size(); k-- > 0;) {
      if (list[k].bytes + most_later > size_of[object])
        candidate[static_cast<std::size_t>(list[k].instance)] = true;
      most_later = std::max(most_later, list[k].bytes);
    }
  }
  std::vector<int> sources;
  for (std::size_t i = 1; i < candidate.size(); ++i)
    if (candidate[i]) sources.push_back(static_cast<int>(i));
  if (sources.empty()) return found;
  // The objects each candidate writes (a block looks at those of its members only).
  std::vector<std::vector<int>> writes(set.instances.size() + 1);
  for (const auto& [object, list] : writers)
    for (const Writer& w : list)
      if (candidate[static_cast<std::size_t>(w.instance)])
        writes[static_cast<std::size_t>(w.instance)].push_back(object);

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
  std::vector<int> block, objects;
  for (std::size_t b = 0; b < blocks; ++b) {
    block.assign(sources.begin() + static_cast<long>(64 * b),
                 sources.begin() + static_cast<long>(std::min(sources.size(), 64 * b + 64)));
    order.reach_from_ends(block, reach);
    int low = block.front(), high = block.back();
    objects.clear();
    for (int i : block) {
      const std::vector<int>& mine = writes[static_cast<std::size_t>(i)];
      objects.insert(objects.end(), mine.begin(), mine.end());
    }
    std::sort(objects.begin(), objects.end());
    objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
    for (int object : objects) {
      const std::vector<Writer>& list = writers.at(object);
      std::int64_t size = size_of.at(object);
      // This block's members among the object's writers: (bit, bytes), by instance.
      std::vector<std::pair<int, std::int64_t>> members;
      auto first = std::lower_bound(list.begin(), list.end(), low,
                                    [](const Writer& w, int id) { return w.instance < id; });
      for (auto it = first; it != list.end() && it->instance <= high; ++it) {
        auto at = std::lower_bound(block.begin(), block.end(), it->instance);
        if (at != block.end() && *at == it->instance)
          members.push_back({static_cast<int>(at - block.begin()), it->bytes});
      }
      if (members.empty()) continue;
      std::int64_t least = members.front().second;
      std::uint64_t all = 0;
      for (const auto& [bit, bytes] : members) {
        least = std::min(least, bytes);
        all |= 1ull << bit;
      }
      RaceFinding* finding = nullptr;
      std::uint64_t racing_sources = 0;
      for (auto it = first; it != list.end(); ++it) {
        int j = it->instance;
        // Members created before j ...
        std::uint64_t pairs = all;
        if (j <= high) {
          auto at = std::lower_bound(block.begin(), block.end(), j);
          pairs &= (1ull << (at - block.begin())) - 1;  // fewer than 64 members before j
        }
        if (!pairs) continue;
        // ... that together with j write more than the object ...
        if (least + it->bytes <= size) {
          std::uint64_t enough = 0;
          for (const auto& [bit, bytes] : members)
            if (bytes + it->bytes > size) enough |= 1ull << bit;
          pairs &= enough;
        }
        // ... that do not end before j starts, and are not its ancestors.
        pairs &= ~reach[order.start(j)];
        for (int a = set.instance(j).parent; pairs && a >= low && a < j && valid_instance(set, a);
             a = set.instance(a).parent) {
          if (a > high) continue;
          auto at = std::lower_bound(block.begin(), block.end(), a);
          if (at != block.end() && *at == a) pairs &= ~(1ull << (at - block.begin()));
        }
        if (!pairs) continue;
        if (!finding) {
          finding = &found[object];
          finding->types.resize(set.types.size(), false);
          finding->instances.resize(set.instances.size() + 1, false);
        }
        finding->pairs += static_cast<std::size_t>(__builtin_popcountll(pairs));
        int i = block[static_cast<std::size_t>(lowest_bit(pairs))];
        if (finding->first == 0 ||
            std::make_pair(i, j) < std::make_pair(finding->first, finding->second)) {
          finding->first = i;
          finding->second = j;
        }
        mark(*finding, set, j);
        racing_sources |= pairs;
      }
      for (std::uint64_t bits = racing_sources; bits; bits &= bits - 1) {
        mark(*finding, set, block[static_cast<std::size_t>(lowest_bit(bits))]);
      }
    }
  }
  return found;
}

int code_rank(const std::string& code) {
  return code == "shared-global" ? 0 : code == "race" ? 1 : code == "stack-write" ? 2 : 3;
}

std::vector<std::string> type_names(const trace::TaskSet& set, const std::set<int>& types) {
  std::vector<std::string> names;
  for (int t : types) names.push_back(type_name(set, t));
  return names;
}

// Whether an object is the program's data, which clauses name: not constants (read-only
// memory: literals, code) nor a library's own memory (the C library's internals, say).
bool program_data(const trace::TaskObject* o) {
  return o == nullptr || (o->kind != "const" && o->kind != "library");
}

// Objects of one kind and name (the blocks of one allocation site, a variable of a recursive
// function) are one object in the hints.
using Group = std::pair<std::string, std::string>;  // kind, name

Group group_of(const trace::TaskSet& set, int id) {
  const trace::TaskObject* o = set.object(id);
  return o ? Group{o->kind, o->name} : Group{"?", object_name(set, id)};
}

// Bytes read and written.
struct Bytes {
  std::int64_t read = 0, written = 0;
};

// What the instances of one task type did, before it becomes hints.
struct TypeUses {
  std::size_t instances = 0;
  std::map<Group, ObjectUse> data;             // the program's objects the clauses name
  std::map<Group, std::set<int>> members;      // the objects of each group the type used
  std::map<std::string, Bytes> locals;         // locals of the creating code: most per instance
  std::int64_t stack_read = 0, stack_written = 0;  // all of them, most per instance
  std::size_t stack_writers = 0;               // instances that write such locals
  int first_stack_writer = 0;
  std::set<std::string> disabled;              // objects it used while they were disabled
  std::set<std::string> left_out;              // objects that are not the program's data
};

// One instance's uses added to its type's.
void add_instance(const trace::TaskSet& set, const trace::TaskInstance& t, TypeUses& tu) {
  ++tu.instances;
  std::map<Group, Bytes> data;
  std::map<std::string, Bytes> locals;
  Bytes stack;
  for (const trace::TaskUse& u : t.uses) {
    Bytes b{std::max<std::int64_t>(u.read, 0), std::max<std::int64_t>(u.written, 0)};
    if (b.read == 0 && b.written == 0) continue;
    const trace::TaskObject* o = set.object(u.object);
    std::string name = object_name(set, u.object);
    if (u.disabled) {
      tu.disabled.insert(name);
    } else if (!program_data(o)) {
      tu.left_out.insert(name);
    } else if (o && o->kind == "stack") {
      locals[name].read += b.read;
      locals[name].written += b.written;
      stack.read += b.read;
      stack.written += b.written;
    } else {
      Group g = group_of(set, u.object);
      data[g].read += b.read;
      data[g].written += b.written;
      tu.members[g].insert(u.object);
      tu.data[g].object = tu.data[g].object ? tu.data[g].object : u.object;
    }
  }
  for (const auto& [name, b] : locals) {
    Bytes& most = tu.locals[name];
    most.read = std::max(most.read, b.read);
    most.written = std::max(most.written, b.written);
  }
  tu.stack_read = std::max(tu.stack_read, stack.read);
  tu.stack_written = std::max(tu.stack_written, stack.written);
  if (stack.written > 0 && tu.stack_writers++ == 0) tu.first_stack_writer = t.id;
  for (const auto& [g, b] : data) {
    ObjectUse& ou = tu.data[g];
    ++ou.instances;
    ou.read += b.read;
    ou.written += b.written;
    ou.max_read = std::max(ou.max_read, b.read);
    ou.max_written = std::max(ou.max_written, b.written);
  }
}

// The locals of the creating code that an instance of each type wrote and a later instance
// (or the creating code) read: (type, name).
std::set<std::pair<int, std::string>> locals_read_later(const trace::TaskSet& set) {
  std::set<std::pair<int, std::string>> found;
  for (const trace::TaskInstance& t : set.instances)
    for (const trace::TaskDependency& d : t.after) {
      if (!(d.kinds & trace::kRaw) || !valid_instance(set, d.from)) continue;
      for (int o : d.objects)
        if (is_stack(set, o)) found.insert({set.instance(d.from).type, object_name(set, o)});
    }
  return found;
}

// The hints of one type from what its instances did.
TypeHints type_hints(const trace::TaskSet& set, int type, TypeUses& tu,
                     const std::set<std::pair<int, std::string>>& read_later) {
  TypeHints th;
  th.type = type;
  th.instances = tu.instances;
  th.stack_read = tu.stack_read;
  th.stack_written = tu.stack_written;
  for (auto& [g, ou] : tu.data) {
    ou.clause = ou.read > 0 && ou.written > 0 ? Clause::InOut
                : ou.written > 0              ? Clause::Out
                                              : Clause::In;
    ou.objects = tu.members[g].size();
    for (int id : tu.members[g])
      if (const trace::TaskObject* o = set.object(id)) ou.size += o->size;
    th.objects.push_back(ou);
  }
  for (const auto& [name, b] : tu.locals) {
    if (b.read > 0) th.firstprivate.push_back(name);
    if (b.written > 0)
      (read_later.count({type, name}) ? th.locals_shared : th.locals_private).push_back(name);
  }
  th.disabled.assign(tu.disabled.begin(), tu.disabled.end());
  th.left_out.assign(tu.left_out.begin(), tu.left_out.end());
  return th;
}

// "#pragma omp task in(A) out(B)" (OmpSs) and "#pragma omp task depend(in: A) ..." (OpenMP).
void write_pragmas(const trace::TaskSet& set, TypeHints& th) {
  std::vector<std::string> by_clause[3];
  for (const ObjectUse& ou : th.objects)
    by_clause[static_cast<int>(ou.clause)].push_back(object_name(set, ou.object));
  th.ompss = "#pragma omp task";
  th.openmp = "#pragma omp task";
  for (int c = 0; c < 3; ++c) {
    if (by_clause[c].empty()) continue;
    std::string name = clause_name(static_cast<Clause>(c));
    th.ompss += " " + name + "(" + join(by_clause[c], ", ") + ")";
    th.openmp += " depend(" + name + ": " + join(by_clause[c], ", ") + ")";
  }
}

// Globals written by tasks of several types.
void shared_global_warnings(const trace::TaskSet& set, int main, Hints& hints) {
  for (const trace::TaskObject& o : set.objects) {
    if (o.kind != "global") continue;
    std::set<int> types;
    std::map<int, int> first_writer;  // type -> its first instance that writes o
    for (const trace::TaskInstance& t : set.instances) {
      if (t.type == main) continue;
      for (const trace::TaskUse& u : t.uses)
        if (u.object == o.id && u.written > 0 && !u.disabled) {
          types.insert(t.type);
          first_writer.emplace(t.type, t.id);
        }
    }
    if (types.size() < 2) continue;
    Warning w;
    w.code = "shared-global";
    w.object = o.id;
    w.types = type_names(set, types);
    for (int t : types)
      if (w.instances.size() < 2) w.instances.push_back(first_writer[t]);
    std::sort(w.instances.begin(), w.instances.end());
    w.count = types.size();
    w.message = "global " + o.name + " is written by tasks of " + std::to_string(types.size()) +
                " types (" + join(w.types, ", ") +
                ") that use it directly, not as a parameter: name it in the out()/inout() "
                "clauses of each of them so that the runtime orders them, or protect it "
                "(atomic, critical) if they only accumulate into it";
    hints.warnings.push_back(std::move(w));
  }
}

// Races hidden by the decomposition.
void race_warnings(const trace::TaskSet& set, const HintOptions& options, Hints& hints) {
  for (const auto& [object, f] : find_races(set, options, hints.notes)) {
    Warning w;
    w.code = "race";
    w.object = object;
    std::set<int> types;
    for (std::size_t t = 0; t < f.types.size(); ++t)
      if (f.types[t]) types.insert(static_cast<int>(t));
    std::size_t involved =
        static_cast<std::size_t>(std::count(f.instances.begin(), f.instances.end(), true));
    w.types = type_names(set, types);
    w.instances = {f.first, f.second};
    w.count = f.pairs;
    const trace::TaskInstance& a = set.instance(f.first);
    const trace::TaskInstance& b = set.instance(f.second);
    std::string name = object_name(set, object);
    w.message = object_description(set, object) + " is written by #" + std::to_string(a.id) +
                " (" + type_name(set, a.type) + ") and #" + std::to_string(b.id) + " (" +
                type_name(set, b.type) +
                ") and no dependency orders them: together they write more bytes than it has, "
                "so both write some of the same bytes, and the decomposition lets them run in "
                "either order (" + std::to_string(f.pairs) +
                (f.pairs == 1 ? " such pair" : " such pairs") + " among " +
                std::to_string(involved) + " instances). If they accumulate into " + name +
                " (a disabled object), protect it (atomic, critical, a reduction); otherwise "
                "name it in out()/inout() so that the runtime orders them (tracing with "
                "--deps=raw+waw records such write-after-write dependencies)";
    hints.warnings.push_back(std::move(w));
  }
}

// Tasks that write locals of the code that creates them, which something reads afterwards.
void stack_write_warnings(const trace::TaskSet& set, const std::vector<TypeUses>& uses,
                          Hints& hints) {
  for (const TypeHints& th : hints.types) {
    const TypeUses& tu = uses[static_cast<std::size_t>(th.type)];
    if (th.locals_shared.empty()) continue;
    Warning w;
    w.code = "stack-write";
    for (const trace::TaskObject& o : set.objects)
      if (o.kind == "stack" && o.name == th.locals_shared.front()) {
        w.object = o.id;
        break;
      }
    w.types = {type_name(set, th.type)};
    w.instances = {tu.first_stack_writer};
    w.count = tu.stack_writers;
    w.message = type_name(set, th.type) + " writes " + join(th.locals_shared, ", ") +
                " (locals of the code that creates it), which is read afterwards, in " +
                std::to_string(tu.stack_writers) + " of its " + std::to_string(th.instances) +
                (th.instances == 1 ? " instance" : " instances") + ", e.g. #" +
                std::to_string(tu.first_stack_writer) +
                ": a task gets such variables by value (firstprivate), so these writes would be "
                "lost; make the variable shared and name it in out()/inout() (and wait for the "
                "task before using it), or write the result to an object the clauses name";
    hints.warnings.push_back(std::move(w));
  }
}

// Data passed from one task to another through the stack.
void stack_flow_warnings(const trace::TaskSet& set, Hints& hints) {
  struct StackFlow {
    std::size_t count = 0;
    int from = 0, to = 0;
  };
  std::map<std::tuple<int, int, int>, StackFlow> flows;  // (object, producer type, consumer type)
  for (const trace::TaskInstance& t : set.instances) {
    for (const trace::TaskDependency& d : t.after) {
      if (!(d.kinds & trace::kRaw) || !valid_instance(set, d.from)) continue;
      std::set<int> stacks;
      for (int o : d.objects)
        if (is_stack(set, o)) stacks.insert(o);
      for (int o : stacks) {
        StackFlow& f = flows[{o, set.instance(d.from).type, t.type}];
        if (f.count++ == 0) {
          f.from = d.from;
          f.to = t.id;
        }
      }
    }
  }
  for (const auto& [key, f] : flows) {
    auto [object, producer, consumer] = key;
    Warning w;
    w.code = "stack";
    w.object = object;
    std::set<int> types = {producer, consumer};
    w.types = type_names(set, types);
    w.instances = {f.from, f.to};
    w.count = f.count;
    w.message = type_name(set, consumer) + " reads what " + type_name(set, producer) +
                " wrote on the stack (" + object_name(set, object) +
                ", a local variable of the code around the tasks, which no clause names): " + std::to_string(f.count) +
                (f.count == 1 ? " dependency" : " dependencies") + ", e.g. #" +
                std::to_string(f.from) + " -> #" + std::to_string(f.to) +
                ". Pass the value explicitly (firstprivate, a parameter) or keep it in an "
                "object named in the clauses";
    hints.warnings.push_back(std::move(w));
  }
}

}  // namespace

Hints porting_hints(const trace::TaskSet& set, const HintOptions& options) {
  Hints hints;
  int main = main_type(set);
  // Declaration order of objects (clauses list objects that way).
  std::map<int, std::size_t> declared;
  for (std::size_t k = 0; k < set.objects.size(); ++k) declared.emplace(set.objects[k].id, k);
  auto object_order = [&](int id) {
    auto d = declared.find(id);
    return std::make_pair(d == declared.end() ? set.objects.size() : d->second, id);
  };

  std::vector<TypeUses> uses(set.types.size());
  for (const trace::TaskInstance& t : set.instances)
    if (t.type >= 0 && static_cast<std::size_t>(t.type) < set.types.size() && t.type != main)
      add_instance(set, t, uses[static_cast<std::size_t>(t.type)]);
  std::set<std::pair<int, std::string>> read_later = locals_read_later(set);
  for (std::size_t type = 0; type < set.types.size(); ++type) {
    if (static_cast<int>(type) == main || uses[type].instances == 0) continue;
    TypeHints th = type_hints(set, static_cast<int>(type), uses[type], read_later);
    std::stable_sort(th.objects.begin(), th.objects.end(),
                     [&](const ObjectUse& a, const ObjectUse& b) {
                       return object_order(a.object) < object_order(b.object);
                     });
    write_pragmas(set, th);
    hints.types.push_back(std::move(th));
  }

  shared_global_warnings(set, main, hints);
  race_warnings(set, options, hints);
  stack_write_warnings(set, uses, hints);
  stack_flow_warnings(set, hints);
  std::stable_sort(hints.warnings.begin(), hints.warnings.end(),
                   [&](const Warning& a, const Warning& b) {
                     auto key = [&](const Warning& w) {
                       return std::make_tuple(object_order(w.object), code_rank(w.code),
                                              w.instances.empty() ? 0 : w.instances.front(),
                                              w.instances.size() > 1 ? w.instances[1] : 0);
                     };
                     return key(a) < key(b);
                   });
  return hints;
}

// ---- Reports ----------------------------------------------------------------------------------------

std::string report_text(const trace::TaskSet& set, const Report& r) {
  std::ostringstream out;
  out << "Tasks of " << (r.name.empty() ? std::string("the run") : r.name) << ", rank " << r.rank
      << " (" << r.trace << ")\n";
  out << "  " << r.profile.instances << " task instances of " << r.profile.types.size()
      << " types (the main task included), " << grouped(r.profile.instructions)
      << " instructions\n";
  out << "  graph: " << r.nodes << " tasks, " << r.edges << " dependencies"
      << (r.with_main ? " (the main task included)" : " (the main task left out)");
  if (!r.files.empty()) out << ": " << join(r.files, ", ");
  out << "\n";
  for (const std::string& n : r.notes) out << "  note: " << n << "\n";

  out << "\nProfile per task type\n";
  std::size_t width = 4;
  for (const TypeProfile& t : r.profile.types) width = std::max(width, t.type.size());
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s %10s %16s %16s %16s %8s\n", static_cast<int>(width),
                "type", "instances", "total", "mean", "max", "share");
  out << line;
  for (const TypeProfile& t : r.profile.types) {
    std::snprintf(line, sizeof line, "  %-*s %10zu %16s %16s %16s %8s\n", static_cast<int>(width),
                  t.type.c_str(), t.instances, grouped(t.total).c_str(), grouped(t.mean).c_str(),
                  grouped(t.max).c_str(), percent(t.share).c_str());
    out << line;
  }
  out << "  (instructions; share: of all instructions of the rank)\n";

  out << "\nPorting hints (clauses per task type; objects are named as the trace names them)\n";
  if (r.hints.types.empty()) out << "  no annotated task\n";
  for (const TypeHints& th : r.hints.types) {
    out << "\n  " << type_name(set, th.type) << " (" << th.instances
        << (th.instances == 1 ? " instance" : " instances") << ")\n";
    out << "    OmpSs:  " << th.ompss << "\n";
    out << "    OpenMP: " << th.openmp << "\n";
    if (!th.firstprivate.empty())
      out << "    firstprivate: " << join(th.firstprivate, ", ")
          << " (locals of the code that creates it, read: passed by value; "
          << format_bytes(th.stack_read) << " at most)\n";
    if (!th.locals_private.empty())
      out << "    private: " << join(th.locals_private, ", ")
          << " (locals of the code that creates it, written and not read afterwards: declare "
             "them inside the task)\n";
    if (!th.locals_shared.empty())
      out << "    also writes " << join(th.locals_shared, ", ")
          << " (locals of the code that creates it, read afterwards): see the warnings\n";
    if (!th.disabled.empty())
      out << "    updates " << join(th.disabled, ", ")
          << " while disabled (no dependency): a reduction, or an atomic or critical update\n";
    if (!th.left_out.empty()) {
      std::vector<std::string> shown(th.left_out.begin(),
                                     th.left_out.begin() + std::min<std::size_t>(3, th.left_out.size()));
      if (th.left_out.size() > shown.size())
        shown.push_back("and " + std::to_string(th.left_out.size() - shown.size()) + " more");
      out << "    not in the clauses: " << th.left_out.size()
          << (th.left_out.size() == 1 ? " object that is" : " objects that are")
          << " constants or a library's own memory (" << join(shown, ", ") << ")\n";
    }
    if (th.objects.empty()) continue;
    auto shown_name = [&](const ObjectUse& ou) {
      std::string name = object_name(set, ou.object);
      return ou.objects > 1 ? name + " (" + std::to_string(ou.objects) + " objects)" : name;
    };
    std::size_t name_width = 6;
    for (const ObjectUse& ou : th.objects) name_width = std::max(name_width, shown_name(ou).size());
    std::snprintf(line, sizeof line, "    %-6s %-*s %-7s %10s %10s %12s %12s\n", "clause",
                  static_cast<int>(name_width), "object", "kind", "size", "instances",
                  "max read", "max written");
    out << line;
    for (const ObjectUse& ou : th.objects) {
      const trace::TaskObject* o = set.object(ou.object);
      std::snprintf(line, sizeof line, "    %-6s %-*s %-7s %10s %10zu %12s %12s\n",
                    clause_name(ou.clause), static_cast<int>(name_width),
                    shown_name(ou).c_str(), o ? o->kind.c_str() : "?",
                    format_bytes(ou.size).c_str(), ou.instances,
                    ou.max_read ? format_bytes(ou.max_read).c_str() : "-",
                    ou.max_written ? format_bytes(ou.max_written).c_str() : "-");
      out << line;
    }
  }

  out << "\nWarnings\n";
  if (r.hints.warnings.empty()) out << "  none\n";
  for (const Warning& w : r.hints.warnings) out << "  [" << w.code << "] " << w.message << "\n";
  for (const std::string& n : r.hints.notes) out << "  note: " << n << "\n";
  return out.str();
}

nlohmann::ordered_json report_json(const trace::TaskSet& set, const Report& r) {
  using json = nlohmann::ordered_json;
  json doc;
  doc["format"] = "tareador-taskreport";
  doc["version"] = 1;
  doc["name"] = r.name;
  doc["rank"] = r.rank;
  doc["trace"] = r.trace;
  doc["instances"] = r.profile.instances;
  doc["instructions"] = r.profile.instructions;
  doc["graph"] = {{"files", r.files},
                  {"nodes", r.nodes},
                  {"edges", r.edges},
                  {"with_main", r.with_main}};
  json types = json::array();
  for (const TypeProfile& t : r.profile.types)
    types.push_back({{"name", t.type},
                     {"color", t.color},
                     {"instances", t.instances},
                     {"mpi_instances", t.mpi_instances},
                     {"instructions", {{"total", t.total}, {"mean", t.mean}, {"max", t.max}}},
                     {"share", t.share}});
  doc["types"] = types;
  json hints = json::array();
  for (const TypeHints& th : r.hints.types) {
    json clauses = {{"in", json::array()}, {"out", json::array()}, {"inout", json::array()}};
    json objects = json::array();
    for (const ObjectUse& ou : th.objects) {
      const trace::TaskObject* o = set.object(ou.object);
      clauses[clause_name(ou.clause)].push_back(object_name(set, ou.object));
      objects.push_back({{"id", ou.object},
                         {"name", object_name(set, ou.object)},
                         {"kind", o ? o->kind : std::string("?")},
                         {"objects", ou.objects},
                         {"size", ou.size},
                         {"clause", clause_name(ou.clause)},
                         {"instances", ou.instances},
                         {"read", ou.read},
                         {"written", ou.written},
                         {"max_read", ou.max_read},
                         {"max_written", ou.max_written}});
    }
    json h = {{"type", type_name(set, th.type)},
              {"instances", th.instances},
              {"ompss", th.ompss},
              {"openmp", th.openmp},
              {"stack_read", th.stack_read},
              {"stack_written", th.stack_written},
              {"firstprivate", th.firstprivate},
              {"private", th.locals_private},
              {"locals_written", th.locals_shared},
              {"disabled", th.disabled},
              {"left_out", th.left_out}};
    h["in"] = clauses["in"];
    h["out"] = clauses["out"];
    h["inout"] = clauses["inout"];
    h["objects"] = objects;
    hints.push_back(h);
  }
  doc["hints"] = hints;
  json warnings = json::array();
  for (const Warning& w : r.hints.warnings)
    warnings.push_back({{"code", w.code},
                        {"object", w.object},
                        {"object_name", object_name(set, w.object)},
                        {"types", w.types},
                        {"instances", w.instances},
                        {"count", w.count},
                        {"message", w.message}});
  doc["warnings"] = warnings;
  std::vector<std::string> notes = r.notes;
  notes.insert(notes.end(), r.hints.notes.begin(), r.hints.notes.end());
  doc["notes"] = notes;
  return doc;
}

Report write_outputs(const std::string& dir, const std::string& name, int rank,
                     const trace::TaskSet& set, const OutputOptions& options,
                     const std::vector<std::string>& notes) {
  namespace fs = std::filesystem;
  Report r;
  r.name = name;
  r.rank = rank;
  r.trace = set.path.empty() ? "tasks." + std::to_string(rank) + ".trc"
                             : fs::path(set.path).filename().string();
  r.with_main = options.graph.with_main;
  r.notes = notes;

  TaskGraph graph = build_graph(set, options.graph);
  r.nodes = boost::num_vertices(graph);
  std::size_t creations = 0;
  for (auto e : boost::make_iterator_range(boost::edges(graph))) creations += graph[e].creation;
  r.edges = boost::num_edges(graph) - creations;
  const std::string dot_path = trace::set_files::taskgraph(dir, rank, "dot");
  const std::string dot_name = fs::path(dot_path).filename().string();
  bool grouped = options.group && r.nodes > options.group_above;
  if (grouped) {
    graph = group_graph(graph);
    r.notes.push_back(dot_name + " groups instances: " + std::to_string(r.nodes) +
                      " tasks drawn as " + std::to_string(boost::num_vertices(graph)) +
                      " nodes (--no-group draws each)");
  }
  const std::size_t drawn_nodes = boost::num_vertices(graph), drawn_edges = boost::num_edges(graph);
  std::ostringstream dot;
  std::string title = (name.empty() ? std::string() : name + ", ") + "rank " +
                      std::to_string(rank) + ": " + std::to_string(r.nodes) + " tasks, " +
                      std::to_string(r.edges) + " dependencies";
  if (creations) title += ", " + std::to_string(creations) + " creations";
  if (grouped) title += " (grouped)";
  write_dot(dot, set, graph, title);
  write_file(dot_path, dot.str());
  r.files.push_back(dot_name);

  if (options.format != "dot") {
    std::string image = trace::set_files::taskgraph(dir, rank, options.format);
    std::string image_name = fs::path(image).filename().string();
    if (options.max_nodes && drawn_nodes > options.max_nodes) {
      r.notes.push_back(image_name + " not rendered: " + std::to_string(drawn_nodes) +
                        (grouped ? " nodes" : " tasks") + ", more than --max-nodes=" +
                        std::to_string(options.max_nodes) + " (the DOT file is written)");
    } else {
      bool tell = options.progress && drawn_nodes >= options.slow_nodes;
      auto began = std::chrono::steady_clock::now();
      auto stage = [&](const std::string& what) {
        if (!tell) return;
        if (what == "layout")
          options.progress(image_name + ": laying out " + std::to_string(drawn_nodes) +
                           " nodes and " + std::to_string(drawn_edges) +
                           " edges with Graphviz; this may take a while");
        else
          options.progress(image_name + ": rendering");
      };
      try {
        render_dot(dot.str(), options.format, image, stage);
      } catch (const std::runtime_error& e) {
        throw trace::FormatError(image, 0, e.what());
      }
      if (tell) {
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.1f", seconds);
        options.progress(image_name + ": done in " + buffer + " s");
      }
      r.files.push_back(image_name);
    }
  }

  r.profile = profile(set);
  r.hints = porting_hints(set, options.hints);
  write_file(trace::set_files::taskreport(dir, rank, "txt"), report_text(set, r));
  write_file(trace::set_files::taskreport(dir, rank, "json"),
             report_json(set, r).dump(2) + "\n");
  return r;
}

}  // namespace tareador::tasks
