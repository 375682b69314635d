// The machine description: task mapping, collective-model names and command-line overrides.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "replay/machine_readers.h"
#include "tareador/replay.h"

namespace tareador::replay {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

[[noreturn]] void bad_value(std::string_view key, std::string_view value, const std::string& why) {
  throw std::invalid_argument("bad value for '" + std::string(key) + "': " + trace::excerpt(value) +
                              " " + why);
}

enum class Sign { NonNegative, Positive };

// The whole of `value` as a finite number of the given sign.
double parse_real(std::string_view key, std::string_view value, Sign sign) {
  double number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || end != value.data() + value.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range))
    bad_value(key, value, "is not a number");
  if (ec == std::errc::result_out_of_range) bad_value(key, value, "is out of range");
  if (!std::isfinite(number)) bad_value(key, value, "is not a finite number");
  if (number < 0) bad_value(key, value, "must not be negative");
  if (sign == Sign::Positive && number == 0) bad_value(key, value, "must be positive");
  return number;
}

// The whole of `value` as an integer from `minimum` to `maximum`.
template <typename Int = int>
Int parse_integer(std::string_view key, std::string_view value, Int minimum,
                  Int maximum = std::numeric_limits<Int>::max()) {
  Int number = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || end != value.data() + value.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range))
    bad_value(key, value, "is not an integer");
  if (ec == std::errc::result_out_of_range || number > maximum)
    bad_value(key, value, "is out of range (at most " + std::to_string(maximum) + ")");
  if (number < minimum)
    bad_value(
        key, value,
        minimum == 0 ? "must not be negative" : "must be at least " + std::to_string(minimum));
  return number;
}

struct Override {
  MachineKey key;
  void (*apply)(Machine&, std::string_view key, std::string_view value);
};

using Kind = MachineKey::Kind;

const Override kOverrides[] = {
    {{"bandwidth", "network bandwidth, MB/s (2^20 B/s); 0 = instantaneous", Kind::Real, "MB/s",
      true},
     [](Machine& m, std::string_view k, std::string_view v) {
       m.bandwidth = parse_real(k, v, Sign::NonNegative);
     }},
    {{"latency", "inter-node message latency of every node, s", Kind::Real, "s", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       double latency = parse_real(k, v, Sign::NonNegative);
       for (Node& n : m.nodes) n.latency = latency;
     }},
    {{"buses", "network buses (concurrent transfers); 0 = unlimited", Kind::Integer, "", false},
     [](Machine& m, std::string_view k, std::string_view v) { m.buses = parse_integer(k, v, 0); }},
    {{"cores", "cores of every node (1 to 2^20)", Kind::Integer, "", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       int cores = parse_integer(k, v, 1, kMaxCores);
       for (Node& n : m.nodes) n.cores = cores;
     }},
    {{"cpu_ratio",
      "CPU speed of every node relative to the traced one (1e-6 to 1e6): burst / ratio", Kind::Real,
      "", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       double ratio = parse_real(k, v, Sign::Positive);
       if (!(ratio >= kMinCpuRatio && ratio <= kMaxCpuRatio))
         bad_value(k, v, "is out of range (1e-6 to 1e6)");
       for (Node& n : m.nodes) n.cpu_ratio = ratio;
     }},
    {{"eager_limit",
      "bytes: sends of at least this size use rendezvous, smaller ones eager; -1 = as traced",
      Kind::Integer, "bytes", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       m.eager_limit = parse_integer<std::int64_t>(k, v, -1);
     }},
    {{"marshal_line_cost",
      "seconds per unique cache line a message's data touches, added to its transfer (the "
      "cache-aware model; 0 = off)",
      Kind::Real, "s", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       m.marshal_line_cost = parse_real(k, v, Sign::NonNegative);
     }},
    {{"mips", "instructions per microsecond of instruction-counted bursts; 0 = the trace's",
      Kind::Real, "instructions/us", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       m.mips = parse_real(k, v, Sign::NonNegative);
       if (m.mips > trace::kMaxMips) bad_value(k, v, "is out of range (at most 10^9)");
     }},
    {{"nodes", "number of nodes (at most 2^20): grows by copying the last node, or shrinks",
      Kind::Integer, "", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       int count = parse_integer(k, v, 1, kMaxNodes);
       Node model = m.nodes.empty() ? Node{} : m.nodes.back();
       m.nodes.resize(static_cast<std::size_t>(count), model);
     }},
    {{"tasks_per_node", "map N consecutive tasks to each node (N TASKS_PER_NODE)", Kind::Integer,
      "", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       m.mapping = Mapping{Mapping::Policy::TasksPerNode, parse_integer(k, v, 1), {}};
     }},
    {{"mapping", "fill | interleaved | N (= tasks_per_node=N)", Kind::Integer, "tasks per node",
      false},
     [](Machine& m, std::string_view k, std::string_view v) {
       std::string policy = lower(v);
       if (policy == "fill") m.mapping = Mapping{Mapping::Policy::Fill, 1, {}};
       else if (policy == "interleaved") m.mapping = Mapping{Mapping::Policy::Interleaved, 1, {}};
       else if (!v.empty() && std::isdigit(static_cast<unsigned char>(v.front())))
         m.mapping = Mapping{Mapping::Policy::TasksPerNode, parse_integer(k, v, 1), {}};
       else
         bad_value(k, v,
                   "is not a mapping (expected fill, interleaved or a number of tasks "
                   "per node)");
     }},
    {{"links", "input and output network links of every node; 0 = unlimited", Kind::Integer, "",
      false},
     [](Machine& m, std::string_view k, std::string_view v) {
       int links = parse_integer(k, v, 0);
       for (Node& n : m.nodes) n.input_links = n.output_links = links;
     }},
    {{"intra_latency", "latency of messages inside a node, s", Kind::Real, "s", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       double latency = parse_real(k, v, Sign::NonNegative);
       for (Node& n : m.nodes) n.intra.latency = latency;
     }},
    {{"intra_bandwidth", "bandwidth inside a node, MB/s; 0 = instantaneous", Kind::Real, "MB/s",
      true},
     [](Machine& m, std::string_view k, std::string_view v) {
       double bandwidth = parse_real(k, v, Sign::NonNegative);
       for (Node& n : m.nodes) n.intra.bandwidth = bandwidth;
     }},
    {{"intra_buses", "concurrent transfers inside a node; 0 = unlimited", Kind::Integer, "", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       int buses = parse_integer(k, v, 0);
       for (Node& n : m.nodes) n.intra.buses = buses;
     }},
    {{"collectives",
      "constant | linear | logarithmic: fan-in and fan-out model of every collective", Kind::Name,
      "", false},
     [](Machine& m, std::string_view k, std::string_view v) {
       std::optional<CollectiveModel> model = collective_model_from_name(v);
       if (!model) bad_value(k, v, "is not a model (expected constant, linear or logarithmic)");
       for (CollectiveCost& cost : m.collectives) cost.fan_in.model = cost.fan_out.model = *model;
     }},
};

std::string valid_keys() {
  std::string keys;
  for (const Override& o : kOverrides) keys += (keys.empty() ? "" : ", ") + o.key.name;
  return keys;
}

}  // namespace

std::optional<CollectiveModel> collective_model_from_name(std::string_view name) {
  std::string key = lower(trim(name));
  if (key == "none" || key == "0") return CollectiveModel::None;
  if (key == "constant" || key == "cte") return CollectiveModel::Constant;
  if (key == "linear" || key == "lin") return CollectiveModel::Linear;
  if (key == "logarithmic" || key == "log") return CollectiveModel::Logarithmic;
  return std::nullopt;
}

std::optional<CollectiveSize> collective_size_from_name(std::string_view name) {
  std::string key = lower(trim(name));
  if (key == "current" || key == "curr") return CollectiveSize::Current;
  if (key == "min") return CollectiveSize::Min;
  if (key == "max") return CollectiveSize::Max;
  if (key == "mean") return CollectiveSize::Mean;
  if (key == "2max") return CollectiveSize::TwiceMax;
  if (key == "s+r") return CollectiveSize::SendPlusRecv;
  return std::nullopt;
}

std::vector<int> Machine::map_tasks(int tasks) const {
  if (tasks < 0) throw std::invalid_argument("negative number of tasks: " + std::to_string(tasks));
  if (nodes.empty()) throw std::invalid_argument("the machine has no nodes");
  const int node_count = static_cast<int>(nodes.size());
  std::vector<int> node_of(static_cast<std::size_t>(tasks));
  switch (mapping.policy) {
    case Mapping::Policy::TasksPerNode: {
      const int per_node = mapping.tasks_per_node;
      if (per_node < 1)
        throw std::invalid_argument("tasks per node must be at least 1, not " +
                                    std::to_string(per_node));
      if (static_cast<std::int64_t>(per_node) * node_count < tasks)
        throw std::invalid_argument(std::to_string(tasks) + " tasks do not fit " +
                                    std::to_string(per_node) + " tasks per node on " +
                                    std::to_string(node_count) + " nodes");
      for (int task = 0; task < tasks; ++task)
        node_of[static_cast<std::size_t>(task)] = task / per_node;
      break;
    }
    case Mapping::Policy::Fill: {
      // One task per core, node after node; what does not fit piles onto the last node.
      int node = 0, placed = 0;
      for (int task = 0; task < tasks; ++task) {
        if (placed == nodes[static_cast<std::size_t>(node)].cores && node + 1 < node_count) {
          ++node;
          placed = 0;
        }
        node_of[static_cast<std::size_t>(task)] = node;
        ++placed;
      }
      break;
    }
    case Mapping::Policy::Interleaved:
      for (int task = 0; task < tasks; ++task)
        node_of[static_cast<std::size_t>(task)] = task % node_count;
      break;
    case Mapping::Policy::Explicit:
      if (static_cast<int>(mapping.nodes.size()) < tasks)
        throw std::invalid_argument("the mapping places " + std::to_string(mapping.nodes.size()) +
                                    " tasks but the trace has " + std::to_string(tasks));
      for (int task = 0; task < tasks; ++task) {
        int node = mapping.nodes[static_cast<std::size_t>(task)];
        if (node < 0 || node >= node_count)
          throw std::invalid_argument("the mapping puts task " + std::to_string(task) +
                                      " on node " + std::to_string(node) + " but the machine has " +
                                      std::to_string(node_count) + " nodes");
        node_of[static_cast<std::size_t>(task)] = node;
      }
      break;
  }
  return node_of;
}

const std::vector<MachineKey>& machine_keys() {
  static const std::vector<MachineKey> keys = [] {
    std::vector<MachineKey> list;
    for (const Override& o : kOverrides) list.push_back(o.key);
    return list;
  }();
  return keys;
}

const MachineKey* machine_key(std::string_view name) {
  for (const MachineKey& k : machine_keys())
    if (k.name == name) return &k;
  return nullptr;
}

void apply_override(Machine& machine, std::string_view key_value) {
  std::size_t equals = key_value.find('=');
  if (equals == std::string_view::npos)
    throw std::invalid_argument("expected key=value, got '" + std::string(key_value) +
                                "' (keys: " + valid_keys() + ")");
  std::string_view key = trim(key_value.substr(0, equals));
  std::string_view value = trim(key_value.substr(equals + 1));
  for (const Override& o : kOverrides)
    if (key == o.key.name) return o.apply(machine, key, value);
  throw std::invalid_argument("unknown machine key '" + std::string(key) +
                              "'; valid keys: " + valid_keys());
}

void make_cores_unbounded(Machine& machine, const trace::TraceHeader& header) {
  std::vector<int> task_node = machine.map_tasks(header.tasks());
  std::vector<int> instances(machine.nodes.size(), 0);
  for (int task = 0; task < header.tasks(); ++task)
    instances[static_cast<std::size_t>(task_node[static_cast<std::size_t>(task)])] +=
        header.threads[static_cast<std::size_t>(task)];
  for (std::size_t n = 0; n < machine.nodes.size(); ++n)
    machine.nodes[n].cores = std::max(machine.nodes[n].cores, std::max(instances[n], 1));
}

void make_network_ideal(Machine& machine) {
  machine.bandwidth = 0;
  machine.buses = 0;
  machine.marshal_line_cost = 0;
  for (Node& node : machine.nodes) {
    node.latency = 0;
    node.input_links = node.output_links = 0;
    node.intra = IntraNode{};
  }
}

}  // namespace tareador::replay
