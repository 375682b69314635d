// The task graph of a decomposition: the segments of the call tree walked in the order the run
// executed them, each belonging to a task instance, through a shadow memory of address
// intervals that keeps, as the tool's own shadow memory does byte by byte, the last writer of
// every byte and its readers since: a read depends on the writer (RAW), a write on the readers
// (WAR) and on the writer (WAW). The stack follows the task mode's rules: an instance's own
// frames are private (a write there makes no writer) and stack writes make no WAR nor WAW.
#include <algorithm>
#include <map>

#include "search/graph.h"

namespace tareador::search {

namespace {

class Shadow {
 public:
  explicit Shadow(bool war) : war_(war) {}

  // The writers of [lo, hi) with the bytes each wrote there; the reader is recorded (for WAR).
  template <typename F>
  void read(std::uint64_t lo, std::uint64_t hi, int reader, F&& writer) {
    if (!war_) {
      auto it = cells_.upper_bound(lo);
      if (it != cells_.begin() && std::prev(it)->second.hi > lo) --it;
      for (; it != cells_.end() && it->first < hi; ++it)
        writer(it->second.writer, std::min(hi, it->second.hi) - std::max(lo, it->first));
      return;
    }
    cover(lo, hi, [&](std::uint64_t start, Cell& c) {
      writer(c.writer, c.hi - start);
      if (std::find(c.readers.begin(), c.readers.end(), reader) == c.readers.end())
        c.readers.push_back(reader);
    });
  }

  // `writer` (-1: nobody, the bytes are forgotten) writes [lo, hi); with `report`, `previous`
  // hears of the readers (war = true) and the writer (false) the bytes had.
  template <typename F>
  void write(std::uint64_t lo, std::uint64_t hi, int writer, bool report, F&& previous) {
    if (report) {
      cover(lo, hi, [&](std::uint64_t start, Cell& c) {
        for (int r : c.readers) previous(r, true, c.hi - start);
        previous(c.writer, false, c.hi - start);
      });
    } else {
      split(lo);
      split(hi);
    }
    cells_.erase(cells_.lower_bound(lo), cells_.lower_bound(hi));
    if (writer < 0) return;
    auto it = cells_.emplace(lo, Cell{hi, writer, {}}).first;
    // One cell for neighbours that say the same: the map stays as small as the data's layout.
    auto next = std::next(it);
    if (next != cells_.end() && next->first == hi && next->second.writer == writer &&
        next->second.readers.empty()) {
      it->second.hi = next->second.hi;
      cells_.erase(next);
    }
    if (it != cells_.begin()) {
      auto prev = std::prev(it);
      if (prev->second.hi == lo && prev->second.writer == writer && prev->second.readers.empty()) {
        prev->second.hi = it->second.hi;
        cells_.erase(it);
      }
    }
  }

 private:
  struct Cell {
    std::uint64_t hi;
    int writer;
    std::vector<int> readers;
  };

  void split(std::uint64_t at) {
    auto it = cells_.upper_bound(at);
    if (it == cells_.begin()) return;
    --it;
    if (it->first < at && it->second.hi > at) {
      Cell right = it->second;
      it->second.hi = at;
      cells_.emplace(at, std::move(right));
    }
  }

  // Calls f on cells covering exactly [lo, hi), made where there were none.
  template <typename F>
  void cover(std::uint64_t lo, std::uint64_t hi, F&& f) {
    split(lo);
    split(hi);
    auto it = cells_.lower_bound(lo);
    for (std::uint64_t at = lo; at < hi; ++it) {
      if (it == cells_.end() || it->first > at)
        it = cells_.emplace_hint(it, at,
                                 Cell{std::min(hi, it == cells_.end() ? hi : it->first), -1, {}});
      f(it->first, it->second);
      at = it->second.hi;
    }
  }

  bool war_;
  std::map<std::uint64_t, Cell> cells_;  // by start
};

class Builder {
 public:
  Builder(const CallTree& tree, const Decomposition& d, std::uint8_t kinds)
      : tree_(tree), d_(d), kinds_(kinds), shadow_((kinds & trace::kWar) != 0) {}

  TaskGraph build() {
    start_instance(0);
    walk(0, 0);
    for (std::size_t i = 0; i < graph_.instances.size(); ++i) finish(static_cast<int>(i));
    return std::move(graph_);
  }

 private:
  struct Pending {
    double since_step = 0;
    std::vector<GraphStep> first;      // a task's waits on earlier instances, at its start
    std::map<int, std::size_t> waits;  // instance waited for -> index in first or steps
  };

  void start_instance(int node) {
    GraphInstance in;
    in.node = node;
    in.function = tree_.nodes[static_cast<std::size_t>(node)].function;
    graph_.instances.push_back(in);
    pending_.emplace_back();
  }

  void walk(int node, int instance) {
    const Node& n = tree_.nodes[static_cast<std::size_t>(node)];
    bool breaks = instance == 0 && d_.broken[static_cast<std::size_t>(node)];
    for (int item : n.items) {
      if (item >= 0) {
        segment(n.segments[static_cast<std::size_t>(item)], instance);
        continue;
      }
      int child = -item - 1;
      if (breaks && !d_.broken[static_cast<std::size_t>(child)]) {
        int spawned = static_cast<int>(graph_.instances.size());
        step(0, GraphStep{true, spawned, 0, 0, 0});
        start_instance(child);
        walk(child, spawned);
      } else {
        walk(child, instance);
      }
    }
  }

  void step(int instance, GraphStep s) {
    Pending& p = pending_[static_cast<std::size_t>(instance)];
    s.instructions = p.since_step;
    p.since_step = 0;
    graph_.instances[static_cast<std::size_t>(instance)].steps.push_back(s);
  }

  std::uint64_t frame_top(int instance) const {
    return tree_
        .nodes[static_cast<std::size_t>(graph_.instances[static_cast<std::size_t>(instance)].node)]
        .frame_top;
  }

  void segment(const Segment& s, int instance) {
    for (const auto& [lo, hi] : s.read)
      shadow_.read(lo, hi, instance, [&](int writer, std::uint64_t bytes) {
        depend(instance, writer, trace::kRaw, bytes);
      });
    std::uint64_t own_lo = tree_.stack_lo, own_hi = std::max(own_lo, frame_top(instance));
    for (const auto& [lo, hi] : s.written) {
      // The instance's own frames, the rest of the stack, the rest of memory.
      std::uint64_t cuts[] = {lo, std::clamp(own_lo, lo, hi), std::clamp(own_hi, lo, hi),
                              std::clamp(tree_.stack_hi, lo, hi), hi};
      // Part 1 is the instance's own frames, part 2 the rest of the stack.
      for (int k = 0; k < 4; ++k) {
        std::uint64_t a = cuts[k], b = cuts[k + 1];
        if (a >= b) continue;
        bool stack = k == 1 || k == 2;
        bool report = !stack && (kinds_ & (trace::kWar | trace::kWaw)) != 0;
        shadow_.write(a, b, k == 1 ? -1 : instance, report,
                      [&](int other, bool war, std::uint64_t bytes) {
                        if (war && (kinds_ & trace::kWar))
                          depend(instance, other, trace::kWar, bytes);
                        if (!war && (kinds_ & trace::kWaw))
                          depend(instance, other, trace::kWaw, bytes);
                      });
      }
    }
    for (const auto& [lo, hi] : s.forgotten)
      shadow_.write(lo, hi, -1, false, [](int, bool, std::uint64_t) {});
    pending_[static_cast<std::size_t>(instance)].since_step += s.instructions;
    graph_.instances[static_cast<std::size_t>(instance)].instructions += s.instructions;
  }

  // `instance` depends on `source` through `bytes` bytes; not on itself, nor on the main task
  // (its creator). The main task waits where it is; a task before it starts.
  void depend(int instance, int source, std::uint8_t kind, std::uint64_t bytes) {
    if (source < 0 || source == instance || source == 0) return;
    Pending& p = pending_[static_cast<std::size_t>(instance)];
    GraphInstance& in = graph_.instances[static_cast<std::size_t>(instance)];
    std::vector<GraphStep>& list = instance == 0 ? in.steps : p.first;
    auto [it, fresh] = p.waits.emplace(source, list.size());
    if (fresh) {
      if (instance == 0) {
        step(0, GraphStep{false, source, 0, 0, 0});
      } else {
        list.push_back(GraphStep{false, source, 0, 0, 0});
        ++in.edges;
        ++graph_.instances[static_cast<std::size_t>(source)].edges;
      }
    }
    list[it->second].kinds |= kind;
    list[it->second].bytes += static_cast<std::int64_t>(bytes);
  }

  void finish(int instance) {
    Pending& p = pending_[static_cast<std::size_t>(instance)];
    GraphInstance& in = graph_.instances[static_cast<std::size_t>(instance)];
    if (instance != 0) in.steps = std::move(p.first);
    in.tail = p.since_step;
  }

  const CallTree& tree_;
  const Decomposition& d_;
  std::uint8_t kinds_;
  Shadow shadow_;
  TaskGraph graph_;
  std::vector<Pending> pending_;
};

// ---- The graph as a tasks trace ------------------------------------------------------------

class GraphStream final : public trace::RecordStream {
 public:
  explicit GraphStream(const std::vector<trace::Record>& records) : records_(records) {}
  bool next(trace::Record& out) override {
    if (at_ >= records_.size()) return false;
    out = records_[at_++];
    return true;
  }
  std::string where() const override { return "decomposition"; }
  std::uint64_t mark() const override { return at_; }
  std::string where(std::uint64_t mark) const override {
    return "decomposition record " + std::to_string(mark);
  }
  std::uint64_t bytes_read() const override { return at_; }

 private:
  const std::vector<trace::Record>& records_;
  std::size_t at_ = 0;
};

class GraphTrace final : public trace::Trace {
 public:
  GraphTrace(trace::TraceHeader header, std::vector<std::vector<trace::Record>> records)
      : header_(std::move(header)), records_(std::move(records)) {}
  const trace::TraceHeader& header() const override { return header_; }
  std::unique_ptr<trace::RecordStream> open(int task, int thread) const override {
    header_.check_stream(task, thread);
    return std::make_unique<GraphStream>(records_[static_cast<std::size_t>(thread)]);
  }
  std::uint64_t size_bytes() const override {
    std::uint64_t n = 0;
    for (const auto& r : records_) n += r.size();
    return n;
  }

 private:
  trace::TraceHeader header_;
  std::vector<std::vector<trace::Record>> records_;
};

trace::Record burst(double instructions) {
  trace::Record r;
  r.type = trace::RecordType::Burst;
  r.flags = trace::kInstructions;
  r.amount = instructions;
  return r;
}

}  // namespace

TaskGraph task_graph(const CallTree& tree, const Decomposition& d, std::uint8_t kinds) {
  return Builder(tree, d, kinds).build();
}

std::unique_ptr<trace::Trace> graph_trace(const CallTree& tree, const TaskGraph& graph) {
  trace::TraceHeader header;
  header.name = tree.name.empty() ? "decomposition" : tree.name;
  header.kind = "tasks";
  header.path = tree.path;
  header.mips = tree.mips;
  header.threads = {static_cast<int>(graph.instances.size())};
  trace::TaskSet set;
  set.path = tree.path;
  std::map<int, int> type_of;  // function -> type
  std::vector<std::vector<trace::Record>> records;
  for (std::size_t i = 0; i < graph.instances.size(); ++i) {
    const GraphInstance& g = graph.instances[i];
    auto [it, fresh] = type_of.emplace(g.function, static_cast<int>(set.types.size()));
    if (fresh) set.types.push_back(tree.functions[static_cast<std::size_t>(g.function)].label());
    trace::TaskInstance in;
    in.type = it->second;
    in.parent = i == 0 ? 0 : 1;
    in.instructions = g.instructions;
    int id = set.add_instance(in).id;
    std::vector<trace::Record> stream;
    for (const GraphStep& s : g.steps) {
      if (s.instructions > 0) stream.push_back(burst(s.instructions));
      trace::Record r;
      r.peer = s.instance + 1;
      if (s.spawn) {
        r.type = trace::RecordType::Spawn;
        set.add_spawn(id, s.instance + 1, {}, s.instructions);
      } else {
        r.type = trace::RecordType::After;
        r.op = s.kinds;
        r.bytes = s.bytes;
        set.add_after(id, trace::TaskDependency{s.instance + 1, s.kinds, s.bytes, {}, {}}, {},
                      s.instructions);
      }
      stream.push_back(r);
    }
    if (g.tail > 0) stream.push_back(burst(g.tail));
    records.push_back(std::move(stream));
  }
  header.task_sets.push_back(std::move(set));
  return std::make_unique<GraphTrace>(std::move(header), std::move(records));
}

}  // namespace tareador::search
