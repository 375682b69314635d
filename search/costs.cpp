// A decomposition's replay and the costs of its task types (thesis eqs. 6.1-6.7).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "search/graph.h"
#include "tareador/replay.h"

namespace tareador::search {

namespace {

// The stretches each instance ran on a core, from the replay's timeline.
class RunningSink final : public replay::TimelineSink {
 public:
  struct Event {
    double time;
    bool start;
    int instance;  // 0-based
  };
  std::vector<Event> events;

  void state(int, int, double, double, replay::State) override {}
  void event(int, int, double, std::uint64_t, std::uint64_t) override {}
  void message(const replay::Message&) override {}
  void call(int, int, double, double, const trace::Record&) override {}
  void task_start(int, int core, double time, int instance, int) override {
    stop_core(core, time);
    on_core_[core] = instance - 1;
    events.push_back({time, true, instance - 1});
  }
  void task_stop(int, int core, double time) override { stop_core(core, time); }
  void finish(double) override {}

 private:
  void stop_core(int core, double time) {
    auto it = on_core_.find(core);
    if (it == on_core_.end() || it->second < 0) return;
    events.push_back({time, false, it->second});
    it->second = -1;
  }
  std::map<int, int> on_core_;
};

// Eq. 6.5's terms per instance: the time it ran divided by the instances running meanwhile.
std::vector<double> concurrency_per_instance(std::vector<RunningSink::Event> events,
                                             std::size_t instances) {
  std::stable_sort(events.begin(), events.end(),
                   [](const auto& a, const auto& b) { return a.time < b.time; });
  std::vector<double> shares(instances, 0.0);
  std::multiset<int> running;
  double last = 0;
  for (const auto& e : events) {
    if (!running.empty() && e.time > last)
      for (int i : running)
        shares[static_cast<std::size_t>(i)] +=
            (e.time - last) / static_cast<double>(running.size());
    last = e.time;
    if (e.start) {
      running.insert(e.instance);
    } else if (auto it = running.find(e.instance); it != running.end()) {
      running.erase(it);
    }
  }
  return shares;
}

replay::Machine machine(int cores) {
  replay::Machine m;
  m.name = "tareador-search";
  replay::Node node;
  node.cores = cores;
  m.nodes.push_back(node);
  replay::make_network_ideal(m);
  return m;
}

double replay_time(const trace::Trace& trace, int cores, replay::TimelineSink* sink) {
  replay::SimulationOptions options;
  options.policy = replay::TaskPolicy::CriticalPath;
  options.sink = sink;
  return replay::simulate(trace, machine(cores), options).total_time;
}

}  // namespace

std::vector<double> normalised(const std::vector<double>& values, double p) {
  std::vector<double> powered;
  double sum = 0;
  for (double v : values) {
    powered.push_back(v > 0 ? std::pow(v, p) : 0.0);
    sum += powered.back();
  }
  for (double& v : powered) v = sum > 0 ? v / sum : 0.0;
  return powered;
}

std::string TypeCost::dominant() const {
  if (length_cost >= dependency_cost && length_cost >= concurrency_cost) return "length";
  return dependency_cost >= concurrency_cost ? "dependencies" : "concurrency";
}

Evaluation evaluate(const CallTree& tree, const Decomposition& d, const Options& options) {
  TaskGraph graph = task_graph(tree, d, options.kinds);
  std::unique_ptr<trace::Trace> trace = graph_trace(tree, graph);
  Evaluation e;
  e.instances = static_cast<int>(graph.instances.size());
  RunningSink sink;
  e.time = replay_time(*trace, options.cores, &sink);
  e.one_core_time = replay_time(*trace, 1, nullptr);
  e.speedup = e.time > 0 ? e.one_core_time / e.time : 1.0;
  std::vector<double> shares = concurrency_per_instance(sink.events, graph.instances.size());
  // Per task type, in order of first instance; the main task's own work is no candidate once
  // main is broken.
  std::map<int, std::size_t> index;
  bool main_is_task = !d.broken[0];
  for (std::size_t i = main_is_task ? 0 : 1; i < graph.instances.size(); ++i) {
    const GraphInstance& g = graph.instances[i];
    auto [it, fresh] = index.emplace(g.function, e.costs.size());
    if (fresh) e.costs.push_back(TypeCost{g.function});
    TypeCost& c = e.costs[it->second];
    ++c.instances;
    c.length = std::max(c.length, g.instructions);
    c.dependencies = std::max(c.dependencies, static_cast<double>(g.edges));
    c.concurrency += shares[i];
  }
  std::vector<double> l, dep, con;
  for (const TypeCost& c : e.costs) {
    l.push_back(c.length);
    dep.push_back(c.dependencies);
    con.push_back(c.concurrency);
  }
  l = normalised(l, options.p1);
  dep = normalised(dep, options.p2);
  con = normalised(con, options.p3);
  for (std::size_t k = 0; k < e.costs.size(); ++k) {
    e.costs[k].length_cost = l[k];
    e.costs[k].dependency_cost = dep[k];
    e.costs[k].concurrency_cost = con[k];
    if (e.bottleneck < 0 ||
        e.costs[k].total() > e.costs[static_cast<std::size_t>(e.bottleneck)].total())
      e.bottleneck = static_cast<int>(k);
  }
  return e;
}

Reference read_reference(const std::string& dir, const Options& options) {
  auto traces = trace::open_traces(dir, {"tasks"});
  if (traces.empty() || traces.front()->header().task_sets.empty())
    throw trace::FormatError(dir, 0, "the set has no 'tasks' trace to compare with");
  const trace::Trace& t = *traces.front();
  const trace::TaskSet& set = t.header().task_sets.front();
  Reference r;
  r.path = dir;
  r.instances = static_cast<int>(set.instances.size());
  double time = replay_time(t, options.cores, nullptr);
  r.speedup = time > 0 ? replay_time(t, 1, nullptr) / time : 1.0;
  int main_type = set.instances.empty() ? -1 : set.instances.front().type;
  for (std::size_t k = 0; k < set.types.size(); ++k)
    if (static_cast<int>(k) != main_type) r.types.push_back(set.types[k]);
  std::sort(r.types.begin(), r.types.end());
  return r;
}

}  // namespace tareador::search
