// Reader of Dimemas 5 configuration files (#DIMEMAS_CONFIGURATION), of the older SDDFA 2.5 ones
// (which the original Tareador wrote), and of the collectives (communication) definition file
// they may name. Record layouts follow Dimemas' Simulator/input/new_configuration.c; see
// docs/machine-config.md for what each field becomes.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include "replay/dimemas_records.h"
#include "replay/machine_readers.h"
#include "tareador/replay.h"
#include "tracefmt/utf8.h"

namespace tareador::replay {

namespace {

namespace fs = std::filesystem;
using trace::FormatError;
using namespace dimemas;

constexpr std::string_view kHeader = "#DIMEMAS_CONFIGURATION";
constexpr std::string_view kSddfHeader = "SDDFA";

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::string text = trace::read_input_file(path, trace::kMaxSmallFileBytes, "a machine file");
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

// Adds `note` to the machine's notes unless it is there already.
void add_note(Machine& machine, std::string note) {
  for (const std::string& existing : machine.notes)
    if (existing == note) return;
  machine.notes.push_back(std::move(note));
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  while (true) {
    pos = text.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) return words;
    std::size_t end = text.find_first_of(" \t", pos);
    words.push_back(text.substr(pos, end - pos));
    if (end == std::string_view::npos) return words;
    pos = end;
  }
}

// The fields that "node information" and "multi node information" share, from
// simulated_architecture on.
const Layout kNodeTail = {
    {"simulated_architecture", FieldType::String},
    {"number_of_processors", FieldType::Count},
    {"speed_ratio_instrumented_vs_simulated", FieldType::NonNegative},
    {"intra_node_startup", FieldType::NonNegative},
    {"intra_node_bandwidth", FieldType::NonNegative},
    {"intra_node_buses", FieldType::Count},
    {"intra_node_input_links", FieldType::Count},
    {"intra_node_output_links", FieldType::Count},
    {"inter_node_startup", FieldType::NonNegative},
    {"inter_node_input_links", FieldType::Count},
    {"inter_node_output_links", FieldType::Count},
    {"wan_startup", FieldType::NonNegative},
};

Layout with_node_tail(Layout head) {
  head.insert(head.end(), kNodeTail.begin(), kNodeTail.end());
  return head;
}

const Layout kWan = {
    {"wan_name", FieldType::String},
    {"number_of_machines", FieldType::Count},
    {"number_dedicated_connections", FieldType::Count},
    {"function_of_traffic", FieldType::Integer},
    {"max_traffic_value", FieldType::NonNegative},
    {"external_net_bandwidth", FieldType::NonNegative},
    {"communication_group_model", FieldType::Integer},
};
const Layout kEnvironment = {
    {"machine_name", FieldType::String},
    {"machine_id", FieldType::Count},
    {"instrumented_architecture", FieldType::String},
    {"number_of_nodes", FieldType::Count},
    {"network_bandwidth", FieldType::NonNegative},
    {"number_of_buses_on_network", FieldType::Count},
    {"communication_group_model", FieldType::Integer},
};
const Layout kNode13 = with_node_tail({{"machine_id", FieldType::Count}});
const Layout kNode14 =
    with_node_tail({{"machine_id", FieldType::Count}, {"node_id", FieldType::Count}});
const Layout kMultiNode =
    with_node_tail({{"machine_id", FieldType::Count}, {"node_count", FieldType::Count}});
const Layout kMapping = {
    {"tracefile", FieldType::String},
    {"number_of_tasks", FieldType::Count},
    {"mapping_tasks_to_nodes", FieldType::IntArray},
};
const Layout kPredefinedMapping1 = {{"map", FieldType::String}};
const Layout kPredefinedMapping2 = {{"tracefile", FieldType::String}, {"map", FieldType::String}};
const Layout kConfigurationFiles = {
    {"scheduler", FieldType::String},
    {"file_system", FieldType::String},
    {"communication", FieldType::String},
    {"sensitivity", FieldType::String},
};
const Layout kModules = {
    {"type", FieldType::Integer},
    {"value", FieldType::Integer},
    {"execution_ratio", FieldType::Real},
};
const Layout kFileSystem = {
    {"disk_latency", FieldType::NonNegative}, {"disk_bandwidth", FieldType::NonNegative},
    {"block_size", FieldType::NonNegative},   {"concurrent_requests", FieldType::Count},
    {"hit_ratio", FieldType::NonNegative},
};
const Layout kDedicatedConnection = {
    {"connection_id", FieldType::Count},
    {"source_machine", FieldType::Count},
    {"destination_machine", FieldType::Count},
    {"bandwidth", FieldType::NonNegative},
    {"tags", FieldType::IntArray},
    {"first_message_size", FieldType::Count},
    {"first_size_condition", FieldType::Symbol, "<=>"},
    {"operation", FieldType::Symbol, "&|"},
    {"second_message_size", FieldType::Count},
    {"second_size_condition", FieldType::Symbol, "<=>"},
    {"communicators", FieldType::IntArray},
    {"connection_startup", FieldType::NonNegative},
    {"flight_time", FieldType::NonNegative},
};
// Tareador's extension (Dimemas does not read it): the marshalling cost of the cache-aware
// model, seconds per unique cache line a message touches.
const Layout kMarshalling = {
    {"machine_id", FieldType::Count},
    {"line_cost", FieldType::NonNegative},
};
const Layout kAccelerator = {
    {"node_id", FieldType::Count},
    {"latency", FieldType::NonNegative},
    {"memory_latency", FieldType::NonNegative},
    {"bandwidth", FieldType::NonNegative},
    {"num_acc_buses", FieldType::Count},
    {"relative_speed", FieldType::NonNegative},
};

// ---- The collectives (communication) definition file ------------------------------------

constexpr std::string_view kMachineGlobalop = "Machine globalop:";
// Directives Dimemas reads from that file that Tareador does not model.
constexpr std::string_view kIgnoredDirectives[] = {
    "Machine policy:", "Policy:", "Quantum size (bytes):", "Flight time:", "External globalop:"};

class CollectivesReader {
 public:
  CollectivesReader(std::string path, Machine& machine)
      : path_(std::move(path)), machine_(machine) {}

  void read() {
    std::vector<std::string> lines = read_lines(path_);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      line_ = i + 1;
      std::string_view text = trim(lines[i]);
      if (text.empty() || starts_with(text, "#") || starts_with(text, "//")) continue;
      if (starts_with(text, kMachineGlobalop)) {
        machine_globalop(split_words(text.substr(kMachineGlobalop.size())));
      } else if (const std::string_view* directive = ignored_directive(text)) {
        note("'" + std::string(*directive) + "' lines ignored (not modelled)");
      } else if (std::isdigit(static_cast<unsigned char>(text.front()))) {
        generic_line(split_words(text));
      } else {
        fail(
            "unknown line: expected '<glop_id> <FIN_model> <FIN_size> <FOUT_model> <FOUT_size> "
            "[contention]', 'Machine globalop: <machine_id> <glop_id> ...' or one of the "
            "directives Policy:, Machine policy:, Quantum size (bytes):, Flight time:, "
            "External globalop:");
      }
    }
  }

 private:
  static const std::string_view* ignored_directive(std::string_view text) {
    for (const std::string_view& directive : kIgnoredDirectives)
      if (starts_with(text, directive)) return &directive;
    return nullptr;
  }

  // Machine globalop: <machine_id> <glop_id> <FIN_model> <FIN_size> <FOUT_model> <FOUT_size>
  void machine_globalop(const std::vector<std::string_view>& words) {
    if (words.size() != 6)
      fail(
          "'Machine globalop:' needs 6 values (machine_id glop_id FIN_model FIN_size "
          "FOUT_model FOUT_size), found " +
          std::to_string(words.size()));
    if (words[0] != "0")
      fail("machine " + trace::excerpt(words[0]) + " does not exist (only machine 0 is modelled)");
    set(words, 1);
  }

  // <glop_id> <FIN_model> <FIN_size> <FOUT_model> <FOUT_size> [contention]; contention unused.
  void generic_line(const std::vector<std::string_view>& words) {
    if (words.size() != 5 && words.size() != 6)
      fail(
          "expected '<glop_id> <FIN_model> <FIN_size> <FOUT_model> <FOUT_size> [contention]', "
          "found " +
          std::to_string(words.size()) + " values");
    set(words, 0);
  }

  // Sets the operation named by words[first] from the four words that follow it.
  void set(const std::vector<std::string_view>& words, std::size_t first) {
    std::string_view id_text = words[first];
    int id = -1;
    auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
    if (ec != std::errc() || end != id_text.data() + id_text.size() || id < 0 ||
        id >= trace::kGlobalOpCount)
      fail("unknown global operation id " + trace::excerpt(id_text) + " (expected 0.." +
           std::to_string(trace::kGlobalOpCount - 1) + ")");
    CollectiveCost& cost = machine_.collectives[static_cast<std::size_t>(id)];
    cost.fan_in = phase(words[first + 1], words[first + 2]);
    cost.fan_out = phase(words[first + 3], words[first + 4]);
    if (id == trace::kReduce)
      note("MPI_Reduce settings have no effect (Dimemas 5.5 models MPI_Reduce as constant)");
  }

  CollectivePhase phase(std::string_view model_name, std::string_view size_name) const {
    std::optional<CollectiveModel> model = collective_model_from_name(model_name);
    if (!model)
      fail("unknown model " + trace::excerpt(model_name) + " (expected 0, CTE, LIN or LOG)");
    std::optional<CollectiveSize> size = collective_size_from_name(size_name);
    if (!size)
      fail("unknown size " + trace::excerpt(size_name) + " (expected MIN, MAX, MEAN, 2MAX or S+R)");
    return {*model, *size};
  }

  void note(const std::string& what) {
    add_note(machine_, "collectives file " + path_ + ": " + what);
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(path_, line_, message);
  }

  std::string path_;
  Machine& machine_;
  std::uint64_t line_ = 0;
};

// ---- The configuration file -------------------------------------------------------------

class ConfigReader {
 public:
  explicit ConfigReader(std::string path) : path_(std::move(path)) {}

  Machine read() {
    std::vector<std::string> lines = read_lines(path_);
    std::string_view first = lines.empty() ? std::string_view() : trim(lines[0]);
    sddf_ = first == kSddfHeader;
    if (!sddf_ && !starts_with(first, kHeader))
      throw FormatError(path_, 1,
                        "not a Dimemas configuration: the first line must be '" +
                            std::string(kHeader) + "' (or '" + std::string(kSddfHeader) +
                            "' for the SDDFA 2.5 format)");
    std::uint64_t comment_start = 0;  // line of an open /* comment
    for (std::size_t i = 1; i < lines.size(); ++i) {
      std::string_view text = trim(lines[i]);
      std::uint64_t line = i + 1;
      if (comment_start) {
        if (text.find("*/") != std::string_view::npos) comment_start = 0;
      } else if (starts_with(text, "/*")) {
        if (text.find("*/", 2) == std::string_view::npos) comment_start = line;
      } else if (sddf_ && starts_with(text, "#")) {
        i = define(lines, i);
      } else if (!text.empty() && !starts_with(text, "//")) {
        Record record = RecordScanner(text, path_, line).record();
        dispatch(sddf_ ? from_sddf(std::move(record)) : record);
      }
    }
    if (comment_start) throw FormatError(path_, comment_start, "'/*' comment is never closed");
    if (sddf_)
      add_note(machine_,
               "SDDFA 2.5 configuration: intra-node buses and links unlimited (the "
               "format has none)");
    finish();
    return std::move(machine_);
  }

 private:
  // ---- SDDFA 2.5: record definitions, then values ----
  //
  //   #1:
  //   "environment information" {
  //      char "machine_name"[];    // one declaration per field, in order
  //      ...
  //   };;
  //
  // Values are the records of Dimemas 5, each checked against its definition. The fields of
  // "node information" are found by their names (2.5 names them differently); the other records
  // have the Dimemas 5 layouts.

  struct Definition {
    std::uint64_t line = 0;
    std::vector<std::string> fields;
  };

  // Reads the definition whose `#N:` label is lines[label]; returns the index of its last line.
  std::size_t define(const std::vector<std::string>& lines, std::size_t label) {
    auto fail = [&](std::size_t i, const std::string& message) {
      throw FormatError(path_, i + 1, "SDDFA record definition: " + message);
    };
    std::size_t i = label + 1;
    while (i < lines.size() && trim(lines[i]).empty()) ++i;
    std::string_view head = i < lines.size() ? trim(lines[i]) : std::string_view();
    std::size_t close = head.find('"', 1);
    if (!starts_with(head, "\"") || close == std::string_view::npos ||
        trim(head.substr(close + 1)) != "{")
      fail(i < lines.size() ? i : label,
           "expected '\"<record name>\" {' after the label " + trace::excerpt(trim(lines[label])));
    std::string name = trace::clipped(head.substr(1, close - 1), 60);
    Definition definition{i + 1, {}};
    for (++i; i < lines.size(); ++i) {
      std::string_view text = trim(lines[i]);
      if (text.empty() || starts_with(text, "//")) continue;
      if (text == "};;") {
        if (!definitions_.emplace(name, std::move(definition)).second)
          fail(i, "\"" + name + "\" is defined twice");
        return i;
      }
      // <type> "<field>"[] ;
      std::size_t open = text.find('"');
      std::size_t end = open == std::string_view::npos ? open : text.find('"', open + 1);
      std::string_view type = trim(text.substr(0, open));
      std::string_view rest = end == std::string_view::npos ? text : trim(text.substr(end + 1));
      if (end == std::string_view::npos ||
          !(type == "int" || type == "double" || type == "float" || type == "long" ||
            type == "char") ||
          !(rest == ";" || rest == "[];"))
        fail(i,
             "expected a field declaration '<int|double|char> \"<name>\"[];' or '};;', "
             "found " +
                 trace::excerpt(text));
      definition.fields.emplace_back(text.substr(open + 1, end - open - 1));
    }
    fail(label, "\"" + name + "\" is not closed by '};;'");
    return i;
  }

  // The SDDFA value `record` as the Dimemas 5 record it stands for.
  Record from_sddf(Record record) const {
    auto it = definitions_.find(record.name);
    if (it == definitions_.end())
      throw FormatError(path_, record.line,
                        "\"" + record.name + "\" has no record definition in this SDDFA file");
    const Definition& definition = it->second;
    if (record.fields.size() != definition.fields.size())
      throw FormatError(path_, record.line,
                        "\"" + record.name + "\" has " + std::to_string(record.fields.size()) +
                            " fields, its definition (line " + std::to_string(definition.line) +
                            ") declares " + std::to_string(definition.fields.size()));
    if (record.name != "node information") return record;
    // Dimemas 2.5 names, and what Dimemas 5 calls them; 2.5 has no intra-node buses or links
    // (unlimited, 0), and the node's number is ignored anyway.
    static const std::pair<std::string_view, std::string_view> kRenamed[] = {
        {"number_of_input_links", "inter_node_input_links"},
        {"number_of_output_links", "inter_node_output_links"},
        {"startup_on_local_communication", "intra_node_startup"},
        {"startup_on_remote_communication", "inter_node_startup"},
        {"memory_bandwidth", "intra_node_bandwidth"},
        {"external_net_startup", "wan_startup"},
    };
    static const std::string_view kZeroIfMissing[] = {
        "node_id", "intra_node_buses", "intra_node_input_links", "intra_node_output_links"};
    Record node{record.name, record.line, {}};
    for (const FieldSpec& spec : kNode14) {
      std::string_view wanted = spec.name;
      auto field = std::find_if(definition.fields.begin(), definition.fields.end(),
                                [&](const std::string& name) {
                                  for (const auto& [old_name, new_name] : kRenamed)
                                    if (name == old_name) return new_name == wanted;
                                  return name == wanted;
                                });
      if (field != definition.fields.end()) {
        node.fields.push_back(
            record.fields[static_cast<std::size_t>(field - definition.fields.begin())]);
      } else if (std::find(std::begin(kZeroIfMissing), std::end(kZeroIfMissing), wanted) !=
                 std::end(kZeroIfMissing)) {
        Value zero;
        zero.kind = Value::Kind::Integer;
        zero.source = "0 (not in the format)";
        node.fields.push_back(zero);
      } else {
        throw FormatError(path_, record.line,
                          "\"node information\": its definition (line " +
                              std::to_string(definition.line) + ") has no field " +
                              std::string(wanted));
      }
    }
    return node;
  }

  void dispatch(const Record& record) {
    using Handle = void (ConfigReader::*)(const Record&);
    static const std::pair<const char*, Handle> kHandlers[] = {
        {"wide area network information", &ConfigReader::wan},
        {"environment information", &ConfigReader::environment},
        {"node information", &ConfigReader::node},
        {"multi node information", &ConfigReader::multi_node},
        {"mapping information", &ConfigReader::mapping},
        {"predefined mapping information", &ConfigReader::predefined_mapping},
        {"configuration files", &ConfigReader::configuration_files},
        {"modules information", &ConfigReader::modules},
        {"file system parameters", &ConfigReader::file_system},
        {"dedicated connection information", &ConfigReader::dedicated_connection},
        {"accelerator node information", &ConfigReader::accelerator},
        {"tareador marshalling information", &ConfigReader::marshalling},
    };
    for (const auto& [name, handle] : kHandlers)
      if (record.name == name) return (this->*handle)(record);
    std::string known;
    for (const auto& handler : kHandlers)
      known += (known.empty() ? "\"" : ", \"") + std::string(handler.first) + "\"";
    throw FormatError(path_, record.line,
                      "unknown record \"" + record.name + "\"; expected one of " + known);
  }

  // The layout among `layouts` (of different sizes) that has as many fields as `record`.
  const Layout& layout_for(const Record& record,
                           std::initializer_list<const Layout*> layouts) const {
    std::string expected;
    for (const Layout* layout : layouts) {
      if (layout->size() == record.fields.size()) return *layout;
      expected += (expected.empty() ? "" : " or ") + std::to_string(layout->size()) + " (" +
                  field_names(*layout) + ")";
    }
    throw FormatError(path_, record.line,
                      "\"" + record.name + "\" has " + std::to_string(record.fields.size()) +
                          " fields, expected " + expected);
  }

  // Records that may appear once: `first_line` remembers where.
  static void once(const Fields& fields, std::uint64_t& first_line, const char* what) {
    if (first_line)
      fields.fail("repeats the " + std::string(what) + " of line " + std::to_string(first_line) +
                  " (only one is supported)");
    first_line = fields.line();
  }

  static void require_machine_zero(const Fields& fields, std::size_t i) {
    if (fields.integer(i) != 0)
      fields.field_error(i, "0 (only single-machine configurations are supported)");
  }

  // Dimemas communication_group_model: 1 constant, 2 linear, 3 logarithmic.
  static CollectiveModel group_model(const Fields& fields, std::size_t i) {
    switch (fields.integer(i)) {
      case 1:
        return CollectiveModel::Constant;
      case 2:
        return CollectiveModel::Linear;
      case 3:
        return CollectiveModel::Logarithmic;
      default:
        fields.field_error(i, "1 (constant), 2 (linear) or 3 (logarithmic)");
    }
  }

  // Validates a record Tareador does not model and notes it once.
  void ignore(const Record& record, const Layout& layout) {
    Fields(record, layout, path_);  // throws on a bad field
    note_ignored(record);
  }

  void note_ignored(const Record& record) {
    add_note(machine_, record.name + ": parsed, not modelled");
  }

  void wan(const Record& record) {
    Fields f(record, kWan, path_);
    once(f, wan_line_, "wide area network information");
    if (f.integer(1) != 1) f.field_error(1, "1 (only single-machine configurations are supported)");
    if (f.integer(3) < 1 || f.integer(3) > 4)
      f.field_error(3, "1 (exponential), 2 (logarithmic), 3 (linear) or 4 (constant)");
    group_model(f, 6);
    declared_connections_ = f.integer(2);
    note_ignored(record);
  }

  void environment(const Record& record) {
    Fields f(record, kEnvironment, path_);
    once(f, environment_line_, "environment information (one machine)");
    require_machine_zero(f, 1);
    if (f.integer(3) < 1 || f.integer(3) > kMaxNodes) f.field_error(3, "between 1 and 2^20");
    machine_.name = f.text(0);
    declared_nodes_ = f.integer(3);
    machine_.bandwidth = f.real(4);
    machine_.buses = f.integer(5);
    CollectivePhase phase{group_model(f, 6), CollectiveSize::Current};
    machine_.collectives.fill(CollectiveCost{phase, phase});
  }

  void marshalling(const Record& record) {
    Fields f(record, kMarshalling, path_);
    once(f, marshalling_line_, "marshalling information (one machine)");
    require_machine_zero(f, 0);
    machine_.marshal_line_cost = f.real(1);
  }

  void node(const Record& record) {
    if (record.fields.size() == 11)
      throw FormatError(path_, record.line,
                        "\"node information\" has the old 11-field form, which is not supported; "
                        "use the 13-field form {" +
                            field_names(kNode13) + "}");
    Fields f(record, layout_for(record, {&kNode13, &kNode14}), path_);
    require_machine_zero(f, 0);
    if (machine_.nodes.size() >= static_cast<std::size_t>(kMaxNodes))
      f.fail("is one node too many (a machine has at most 2^20)");
    machine_.nodes.push_back(node_from(f, record.fields.size() - kNodeTail.size()));
  }

  void multi_node(const Record& record) {
    Fields f(record, kMultiNode, path_);
    require_machine_zero(f, 0);
    if (f.integer(1) < 1 || f.integer(1) > kMaxNodes - static_cast<int>(machine_.nodes.size()))
      f.field_error(1, "between 1 and 2^20 (nodes in all)");
    machine_.nodes.insert(machine_.nodes.end(), static_cast<std::size_t>(f.integer(1)),
                          node_from(f, 2));
  }

  // The node described by the kNodeTail fields starting at `first`; wan_startup is not used.
  static Node node_from(const Fields& f, std::size_t first) {
    Node node;
    node.cores = f.integer(first + 1);
    if (node.cores < 1) f.field_error(first + 1, "at least 1");
    if (node.cores > kMaxCores) f.field_error(first + 1, "at most 2^20");
    node.cpu_ratio = f.real(first + 2);
    if (node.cpu_ratio <= 0) f.field_error(first + 2, "positive (bursts last burst / ratio)");
    if (!(node.cpu_ratio >= kMinCpuRatio && node.cpu_ratio <= kMaxCpuRatio))
      f.field_error(first + 2, "between 1e-6 and 1e6 (bursts last burst / ratio)");
    node.intra.latency = f.real(first + 3);
    node.intra.bandwidth = f.real(first + 4);
    node.intra.buses = f.integer(first + 5);
    node.intra.input_links = f.integer(first + 6);
    node.intra.output_links = f.integer(first + 7);
    node.latency = f.real(first + 8);
    node.input_links = f.integer(first + 9);
    node.output_links = f.integer(first + 10);
    return node;
  }

  void mapping(const Record& record) {
    Fields f(record, kMapping, path_);
    once(f, mapping_line_, "mapping (mapping information / predefined mapping information)");
    note_trace_name(record, f.text(0));
    machine_.mapping = Mapping{Mapping::Policy::Explicit, 1, f.integers(2)};
  }

  void predefined_mapping(const Record& record) {
    Fields f(record, layout_for(record, {&kPredefinedMapping1, &kPredefinedMapping2}), path_);
    once(f, mapping_line_, "mapping (mapping information / predefined mapping information)");
    std::size_t map = record.fields.size() - 1;
    if (map == 1) note_trace_name(record, f.text(0));
    std::string_view text = trim(f.text(map));
    std::vector<std::string_view> words = split_words(text);
    int per_node = 0;
    if (text == "FILL_NODES") {
      machine_.mapping = Mapping{Mapping::Policy::Fill, 1, {}};
    } else if (text == "INTERLEAVED") {
      machine_.mapping = Mapping{Mapping::Policy::Interleaved, 1, {}};
    } else if (words.size() == 2 && words[1] == "TASKS_PER_NODE" &&
               std::from_chars(words[0].data(), words[0].data() + words[0].size(), per_node).ptr ==
                   words[0].data() + words[0].size() &&
               per_node >= 1) {
      machine_.mapping = Mapping{Mapping::Policy::TasksPerNode, per_node, {}};
    } else {
      f.field_error(map, "\"FILL_NODES\", \"<n> TASKS_PER_NODE\" (n >= 1) or \"INTERLEAVED\"");
    }
  }

  void note_trace_name(const Record& record, const std::string& file) {
    if (!file.empty())
      add_note(machine_, record.name + ": trace file \"" + trace::clipped(file, 60) +
                             "\" ignored (the trace to replay is given on the command line)");
  }

  void configuration_files(const Record& record) {
    Fields f(record, kConfigurationFiles, path_);
    once(f, files_line_, "configuration files");
    const char* ignored[] = {"scheduler", "file system", nullptr, "random"};
    for (std::size_t i = 0; i < 4; ++i)
      if (ignored[i] && !trim(f.text(i)).empty())
        add_note(machine_, "configuration files: " + std::string(ignored[i]) + " file \"" +
                               trace::clipped(f.text(i), 60) + "\" ignored");
    std::string communication(trim(f.text(2)));
    if (!communication.empty()) {
      fs::path file(communication);
      if (file.is_relative()) file = fs::path(path_).parent_path() / file;
      collectives_file_ = file.string();
    }
  }

  void modules(const Record& record) { ignore(record, kModules); }

  void file_system(const Record& record) {
    Fields f(record, kFileSystem, path_);
    once(f, file_system_line_, "file system parameters");
    if (f.real(4) > 1) f.field_error(4, "between 0 and 1");
    note_ignored(record);
  }

  void dedicated_connection(const Record& record) {
    ignore(record, kDedicatedConnection);
    ++defined_connections_;
  }

  void accelerator(const Record& record) { ignore(record, kAccelerator); }

  // Checks what spans records, then applies the collectives file over the environment's
  // default model.
  void finish() {
    if (!environment_line_)
      throw FormatError(path_, 0,
                        "missing \"environment information\" record (network bandwidth, buses, "
                        "number of nodes)");
    if (machine_.nodes.empty())
      throw FormatError(path_, 0,
                        "missing \"node information\" or \"multi node information\" record: the "
                        "machine has no nodes");
    if (!mapping_line_)
      throw FormatError(path_, 0,
                        "missing \"mapping information\" or \"predefined mapping information\" "
                        "record (where the tasks run)");
    if (static_cast<std::size_t>(declared_nodes_) != machine_.nodes.size())
      throw FormatError(path_, environment_line_,
                        "\"environment information\" declares " + std::to_string(declared_nodes_) +
                            " nodes but the node records define " +
                            std::to_string(machine_.nodes.size()));
    if (wan_line_ && declared_connections_ != defined_connections_)
      throw FormatError(path_, wan_line_,
                        "\"wide area network information\" declares " +
                            std::to_string(declared_connections_) + " dedicated connections but " +
                            std::to_string(defined_connections_) + " are defined");
    const std::vector<int>& explicit_nodes = machine_.mapping.nodes;
    for (std::size_t task = 0; task < explicit_nodes.size(); ++task)
      if (explicit_nodes[task] < 0 ||
          static_cast<std::size_t>(explicit_nodes[task]) >= machine_.nodes.size())
        throw FormatError(path_, mapping_line_,
                          "\"mapping information\" puts task " + std::to_string(task) +
                              " on node " + std::to_string(explicit_nodes[task]) +
                              ", which does not exist (nodes 0.." +
                              std::to_string(machine_.nodes.size() - 1) + ")");
    if (!collectives_file_.empty()) {
      std::error_code error;
      if (!fs::exists(collectives_file_, error))
        throw FormatError(
            path_, files_line_,
            "communication file \"" + trace::clipped(collectives_file_, 200) + "\" does not exist");
      CollectivesReader(collectives_file_, machine_).read();
    }
  }

  std::string path_;
  Machine machine_;
  bool sddf_ = false;                              // the SDDFA 2.5 format
  std::map<std::string, Definition> definitions_;  // its record definitions
  std::uint64_t wan_line_ = 0, environment_line_ = 0, mapping_line_ = 0, files_line_ = 0,
                file_system_line_ = 0, marshalling_line_ = 0;
  int declared_nodes_ = 0;
  int declared_connections_ = 0, defined_connections_ = 0;
  std::string collectives_file_;
};

}  // namespace

Machine load_dimemas_config(const std::string& path) { return ConfigReader(path).read(); }

bool is_dimemas_config(std::string_view first_line) {
  std::string_view first = trim(first_line);
  return starts_with(first, kHeader) || first == kSddfHeader;
}

}  // namespace tareador::replay
