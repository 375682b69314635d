// The native machine file (TOML; schema in docs/machine-config.md) and load_machine, which
// tells it from a Dimemas configuration by the first line.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "replay/machine_readers.h"
#include "tareador/replay.h"
#include "tracefmt/toml_input.h"

namespace tareador::replay {

namespace {

using trace::FormatError;

// A value as TOML writes it, short (a long string or array is cut).
std::string shown(const toml::node& node) {
  std::ostringstream out;
  node.visit([&](const auto& value) { out << value; });
  return trace::clipped(out.str(), 60);
}

enum class Sign { NonNegative, Positive };

// Reads the keys of one table. Every key asked for is known; finish() rejects the others, so
// the schema is exactly what the reading code asks for.
class TableReader {
 public:
  TableReader(const toml::table& table, std::string name, const std::string& path)
      : table_(table), name_(std::move(name)), path_(path) {}

  // A number of the given sign; `fallback` when absent (required when there is none).
  double real(std::string_view key, std::optional<double> fallback, Sign sign) {
    const toml::node* node = get(key);
    if (!node) return fallback ? *fallback : missing(key);
    std::optional<double> value = node->value<double>();
    if (!node->is_number() || !value || !std::isfinite(*value))
      fail(*node, std::string(key) + " must be a number, found " + shown(*node));
    check_sign(*node, key, *value, sign);
    return *value;
  }

  // An integer from `minimum` to `maximum`; `fallback` when absent.
  template <typename Int = int>
  Int integer(std::string_view key, Int fallback, Int minimum,
              Int maximum = std::numeric_limits<Int>::max()) {
    const toml::node* node = get(key);
    return node ? integer_value<Int>(*node, std::string(key), minimum, maximum) : fallback;
  }

  template <typename Int = int>
  Int integer_value(const toml::node& node, const std::string& what, Int minimum,
                    Int maximum = std::numeric_limits<Int>::max()) const {
    if (!node.is_integer()) fail(node, what + " must be an integer, found " + shown(node));
    std::int64_t value = *node.value<std::int64_t>();
    if (value < minimum)
      fail(node, what + " must be at least " + std::to_string(minimum) + ", found " +
                     std::to_string(value));
    if (value > maximum)
      fail(node, what + " is out of range (at most " + std::to_string(maximum) +
                     "): " + std::to_string(value));
    return static_cast<Int>(value);
  }

  // A string naming a value, turned into it by `parse` (nullopt for an unknown name).
  template <typename Parse>
  auto named(std::string_view key, Parse parse, const std::string& expected)
      -> decltype(parse(std::string_view())) {
    const toml::node* node = get(key);
    if (!node) return std::nullopt;
    std::optional<std::string_view> text = node->value<std::string_view>();
    auto value = text ? parse(*text) : std::nullopt;
    if (!value) fail(*node, std::string(key) + " must be " + expected + ", found " + shown(*node));
    return value;
  }

  std::optional<std::string> string(std::string_view key) {
    const toml::node* node = get(key);
    if (!node) return std::nullopt;
    if (!node->is_string())
      fail(*node, std::string(key) + " must be a string, found " + shown(*node));
    return *node->value<std::string>();
  }

  const toml::table* table(std::string_view key) {
    const toml::node* node = get(key);
    if (node && !node->is_table())
      fail(*node, std::string(key) + " must be a table, found " + shown(*node));
    return node ? node->as_table() : nullptr;
  }

  const toml::array* array(std::string_view key) {
    const toml::node* node = get(key);
    if (node && !node->is_array())
      fail(*node, std::string(key) + " must be an array, found " + shown(*node));
    return node ? node->as_array() : nullptr;
  }

  // Fails on the first key nobody asked for.
  void finish() const {
    for (const auto& [key, node] : table_) {
      if (std::find(known_.begin(), known_.end(), key.str()) != known_.end()) continue;
      std::string expected;
      for (std::string_view name : known_)
        expected += (expected.empty() ? "" : ", ") + std::string(name);
      throw FormatError(path_, key.source().begin.line,
                        "unknown key '" + std::string(key.str()) + "' in " + name_ + " (expected " +
                            expected + ")");
    }
  }

  [[noreturn]] void fail(const toml::node& node, const std::string& message) const {
    throw FormatError(path_, node.source().begin.line, name_ + ": " + message);
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(path_, table_.source().begin.line, name_ + ": " + message);
  }
  const std::string& path() const { return path_; }
  const std::string& name() const { return name_; }

  // The node of `key`, if present; `key` becomes a known key.
  const toml::node* get(std::string_view key) {
    known_.push_back(key);
    return table_.get(key);
  }

 private:
  // Fails for a required key, naming the keys not read yet (likely typos of it).
  [[noreturn]] double missing(std::string_view key) const {
    std::string others;
    for (const auto& [name, node] : table_)
      if (std::find(known_.begin(), known_.end(), name.str()) == known_.end())
        others += (others.empty() ? "" : ", ") + std::string(name.str());
    fail("missing key '" + std::string(key) + "'" +
         (others.empty() ? std::string() : " (found " + others + ")"));
  }

  void check_sign(const toml::node& node, std::string_view key, double value, Sign sign) const {
    if (value < 0) fail(node, std::string(key) + " must not be negative, found " + shown(node));
    if (sign == Sign::Positive && value == 0)
      fail(node, std::string(key) + " must be positive, found " + shown(node));
  }

  const toml::table& table_;
  std::string name_;
  const std::string& path_;
  std::vector<std::string_view> known_;
};

constexpr int kUnlimited = 0;

Node read_node(TableReader& in) {
  Node node;
  node.cores = in.integer("cores", 1, 1, kMaxCores);
  node.cpu_ratio = in.real("cpu_ratio", 1.0, Sign::Positive);
  if (!(node.cpu_ratio >= kMinCpuRatio && node.cpu_ratio <= kMaxCpuRatio))
    in.fail(*in.get("cpu_ratio"),
            "cpu_ratio must be between 1e-6 and 1e6, found " + std::to_string(node.cpu_ratio));
  node.latency = in.real("latency", 0.0, Sign::NonNegative);
  node.input_links = in.integer("input_links", 1, 0);
  node.output_links = in.integer("output_links", 1, 0);
  if (const toml::table* intra = in.table("intra")) {
    TableReader memory(*intra, "[nodes.intra] of " + in.name(), in.path());
    node.intra.latency = memory.real("latency", 0.0, Sign::NonNegative);
    node.intra.bandwidth = memory.real("bandwidth", 0.0, Sign::NonNegative);
    node.intra.buses = memory.integer("buses", kUnlimited, 0);
    node.intra.input_links = memory.integer("input_links", kUnlimited, 0);
    node.intra.output_links = memory.integer("output_links", kUnlimited, 0);
    memory.finish();
  }
  return node;
}

void read_nodes(const toml::array& groups, const std::string& path, Machine& machine) {
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const toml::table* group = groups[i].as_table();
    std::string name = "[[nodes]] #" + std::to_string(i + 1);
    if (!group)
      throw FormatError(path, groups[i].source().begin.line,
                        name + " must be a table of node parameters");
    TableReader in(*group, name, path);
    int count = in.integer("count", 1, 1, kMaxNodes - static_cast<int>(machine.nodes.size()));
    machine.nodes.insert(machine.nodes.end(), static_cast<std::size_t>(count), read_node(in));
    in.finish();
  }
}

// Exactly one of tasks_per_node = N, policy = "fill" | "interleaved", nodes = [node of each task].
void read_mapping(TableReader& in, Machine& machine) {
  const toml::node* per_node = in.get("tasks_per_node");
  const toml::node* policy = in.get("policy");
  const toml::node* nodes = in.get("nodes");
  if ((per_node != nullptr) + (policy != nullptr) + (nodes != nullptr) != 1)
    in.fail(
        "give exactly one of tasks_per_node = N, policy = \"fill\" | \"interleaved\", "
        "nodes = [node of each task]");
  if (per_node) {
    machine.mapping = Mapping{
        Mapping::Policy::TasksPerNode, in.integer_value(*per_node, "tasks_per_node", 1), {}};
  } else if (policy) {
    auto parse = [](std::string_view name) -> std::optional<Mapping::Policy> {
      if (name == "fill") return Mapping::Policy::Fill;
      if (name == "interleaved") return Mapping::Policy::Interleaved;
      return std::nullopt;
    };
    machine.mapping = Mapping{
        *in.named("policy", parse, "\"fill\" or \"interleaved\" (or use tasks_per_node = N)"),
        1,
        {}};
  } else {
    const toml::array* list = nodes->as_array();
    if (!list) in.fail(*nodes, "nodes must be an array of node numbers, found " + shown(*nodes));
    machine.mapping = Mapping{Mapping::Policy::Explicit, 1, {}};
    const int node_count = static_cast<int>(machine.nodes.size());
    for (const toml::node& item : *list) {
      int node =
          in.integer_value(item, "nodes[" + std::to_string(machine.mapping.nodes.size()) + "]", 0);
      if (node >= node_count)
        in.fail(item, "task " + std::to_string(machine.mapping.nodes.size()) +
                          " is mapped to node " + std::to_string(node) +
                          ", which does not exist (nodes 0.." + std::to_string(node_count - 1) +
                          ")");
      machine.mapping.nodes.push_back(node);
    }
  }
}

// One phase of a collective: its model from `model_key`, its size from `size` then `size_key`.
CollectivePhase read_phase(TableReader& in, const char* model_key, const char* size_key,
                           const CollectivePhase& inherited) {
  CollectivePhase phase = inherited;
  if (auto model = in.named(model_key, collective_model_from_name,
                            "\"none\", \"constant\", \"linear\" or \"logarithmic\""))
    phase.model = *model;
  for (const char* key : {"size", size_key})
    if (auto size = in.named(key, collective_size_from_name,
                             "\"current\", \"min\", \"max\", \"mean\", \"2max\" or \"s+r\""))
      phase.size = *size;
  return phase;
}

CollectiveCost read_cost(const toml::node& node, const std::string& name, const std::string& path,
                         const CollectiveCost& inherited) {
  const toml::table* table = node.as_table();
  if (!table)
    throw FormatError(path, node.source().begin.line,
                      name +
                          " must be a table such as { fan_in = \"log\", fan_out = \"log\", "
                          "size = \"max\" }");
  TableReader in(*table, name, path);
  CollectiveCost cost{read_phase(in, "fan_in", "fan_in_size", inherited.fan_in),
                      read_phase(in, "fan_out", "fan_out_size", inherited.fan_out)};
  in.finish();
  return cost;
}

void read_collectives(const toml::table& table, const std::string& path, Machine& machine) {
  CollectiveCost fallback_cost;
  if (const toml::node* fallback = table.get("default"))
    fallback_cost = read_cost(*fallback, "collectives.default", path, fallback_cost);
  machine.collectives.fill(fallback_cost);
  for (const auto& [key, node] : table) {
    if (key.str() == "default") continue;
    int id = trace::global_op_from_name(key.str());
    if (id < 0)
      throw FormatError(path, key.source().begin.line,
                        "[collectives]: unknown collective '" + std::string(key.str()) +
                            "' (expected default or an MPI collective such as MPI_Allreduce)");
    machine.collectives[static_cast<std::size_t>(id)] =
        read_cost(node, "collectives." + std::string(key.str()), path, fallback_cost);
  }
}

}  // namespace

Machine load_toml_machine(const std::string& path) {
  toml::table root;
  try {
    root = trace::parse_toml_input(path, "a machine file");
  } catch (const trace::TomlSyntaxError& e) {
    throw FormatError(path, e.line(),
                      "not a valid TOML machine file: " + e.description() +
                          " (a Dimemas configuration must start with #DIMEMAS_CONFIGURATION)");
  }
  Machine machine;
  TableReader in(root, "machine file", path);
  machine.name = in.string("name").value_or("");
  machine.mips = in.real("mips", 0.0, Sign::NonNegative);
  if (machine.mips > trace::kMaxMips)
    in.fail(*in.get("mips"), "mips must be at most 10^9 (instructions per microsecond)");

  const toml::table* network = in.table("network");
  if (!network) throw FormatError(path, 0, "missing table [network] (bandwidth, buses)");
  TableReader net(*network, "[network]", path);
  machine.bandwidth = net.real("bandwidth", std::nullopt, Sign::NonNegative);
  machine.buses = net.integer("buses", kUnlimited, 0);
  machine.eager_limit = net.integer<std::int64_t>("eager_limit", -1, -1);
  machine.marshal_line_cost = net.real("marshal_line_cost", 0.0, Sign::NonNegative);
  net.finish();

  const toml::array* nodes = in.array("nodes");
  if (!nodes || nodes->empty())
    throw FormatError(path, 0, "missing [[nodes]]: the machine needs at least one node");
  read_nodes(*nodes, path, machine);

  if (const toml::table* mapping = in.table("mapping")) {
    TableReader map(*mapping, "[mapping]", path);
    read_mapping(map, machine);
    map.finish();
  }
  if (const toml::table* collectives = in.table("collectives"))
    read_collectives(*collectives, path, machine);
  in.finish();
  return machine;
}

Machine load_machine(const std::string& path) {
  std::string text = trace::read_input_file(path, trace::kMaxSmallFileBytes, "a machine file");
  if (is_dimemas_config(std::string_view(text).substr(0, text.find('\n'))))
    return load_dimemas_config(path);
  return load_toml_machine(path);
}

}  // namespace tareador::replay
