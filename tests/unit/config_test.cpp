// Machine configuration: the Dimemas and TOML readers, overrides and task mapping.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "replay/machine_readers.h"
#include "tareador/replay.h"
#include "test_util.h"

namespace tareador::replay {
namespace {

using testing::fixture;
using ::testing::HasSubstr;
using testing::TempDir;

const std::string kExamples = std::string(TESTS_DIR) + "/../examples/";

// The FormatError that loading `path` raises (a test failure if it loads).
trace::FormatError load_error(const std::string& path,
                              Machine (*load)(const std::string&) = load_machine) {
  try {
    load(path);
  } catch (const trace::FormatError& e) {
    return e;
  }
  ADD_FAILURE() << path << " loaded without error";
  return trace::FormatError(path, 0, "no error");
}

// The std::invalid_argument message that applying `key_value` raises.
std::string override_error(Machine machine, const std::string& key_value) {
  try {
    apply_override(machine, key_value);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << key_value << " was accepted";
  return {};
}

void expect_every_collective(const Machine& m, CollectiveModel model) {
  for (const CollectiveCost& cost : m.collectives) {
    EXPECT_EQ(cost.fan_in.model, model);
    EXPECT_EQ(cost.fan_out.model, model);
    EXPECT_EQ(cost.fan_in.size, CollectiveSize::Current);
    EXPECT_EQ(cost.fan_out.size, CollectiveSize::Current);
  }
}

void expect_same_node(const Node& a, const Node& b) {
  EXPECT_EQ(a.cores, b.cores);
  EXPECT_DOUBLE_EQ(a.cpu_ratio, b.cpu_ratio);
  EXPECT_DOUBLE_EQ(a.latency, b.latency);
  EXPECT_EQ(a.input_links, b.input_links);
  EXPECT_EQ(a.output_links, b.output_links);
  EXPECT_DOUBLE_EQ(a.intra.latency, b.intra.latency);
  EXPECT_DOUBLE_EQ(a.intra.bandwidth, b.intra.bandwidth);
  EXPECT_EQ(a.intra.buses, b.intra.buses);
  EXPECT_EQ(a.intra.input_links, b.intra.input_links);
  EXPECT_EQ(a.intra.output_links, b.intra.output_links);
}

// Everything but the notes (which say what each format held that is not modelled).
void expect_same_machine(const Machine& a, const Machine& b) {
  EXPECT_EQ(a.name, b.name);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) expect_same_node(a.nodes[i], b.nodes[i]);
  EXPECT_DOUBLE_EQ(a.bandwidth, b.bandwidth);
  EXPECT_EQ(a.buses, b.buses);
  EXPECT_EQ(a.mapping.policy, b.mapping.policy);
  EXPECT_EQ(a.mapping.tasks_per_node, b.mapping.tasks_per_node);
  EXPECT_EQ(a.mapping.nodes, b.mapping.nodes);
  EXPECT_EQ(a.eager_limit, b.eager_limit);
  EXPECT_DOUBLE_EQ(a.mips, b.mips);
  for (int op = 0; op < trace::kGlobalOpCount; ++op) {
    SCOPED_TRACE(std::string(trace::global_op_name(op)));
    const CollectiveCost& x = a.collectives[static_cast<std::size_t>(op)];
    const CollectiveCost& y = b.collectives[static_cast<std::size_t>(op)];
    EXPECT_EQ(x.fan_in.model, y.fan_in.model);
    EXPECT_EQ(x.fan_in.size, y.fan_in.size);
    EXPECT_EQ(x.fan_out.model, y.fan_out.model);
    EXPECT_EQ(x.fan_out.size, y.fan_out.size);
  }
}

bool has_note(const Machine& m, const std::string& phrase) {
  return std::any_of(m.notes.begin(), m.notes.end(), [&](const std::string& note) {
    return note.find(phrase) != std::string::npos;
  });
}

// ---- Dimemas configurations ---------------------------------------------------------------

void expect_fixture_machine(const Machine& m, int buses) {
  ASSERT_EQ(m.nodes.size(), 4u);
  EXPECT_DOUBLE_EQ(m.bandwidth, 250.0);
  EXPECT_EQ(m.buses, buses);
  for (const Node& node : m.nodes) {
    EXPECT_EQ(node.cores, 1);
    EXPECT_DOUBLE_EQ(node.cpu_ratio, 1.0);
    EXPECT_DOUBLE_EQ(node.latency, 5e-6);
    EXPECT_EQ(node.input_links, 1);
    EXPECT_EQ(node.output_links, 1);
    EXPECT_DOUBLE_EQ(node.intra.latency, 0.0);
    EXPECT_DOUBLE_EQ(node.intra.bandwidth, 0.0);
    EXPECT_EQ(node.intra.buses, 0);
    EXPECT_EQ(node.intra.input_links, 1);
    EXPECT_EQ(node.intra.output_links, 1);
  }
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::TasksPerNode);
  EXPECT_EQ(m.mapping.tasks_per_node, 1);
  EXPECT_EQ(m.eager_limit, -1);
  expect_every_collective(m, CollectiveModel::Constant);
  EXPECT_TRUE(has_note(m, "wide area network information: parsed, not modelled"));
  EXPECT_TRUE(has_note(m, "file system parameters: parsed, not modelled"));
  EXPECT_EQ(m.map_tasks(4), (std::vector<int>{0, 1, 2, 3}));
}

TEST(DimemasConfig, FixtureWithOneBus) {
  expect_fixture_machine(load_machine(fixture("dimemas/cfg_4n_1bus.cfg")), 1);
}

TEST(DimemasConfig, FixtureWithoutBuses) {
  expect_fixture_machine(load_machine(fixture("dimemas/cfg_4n_nobus.cfg")), 0);
}

TEST(DimemasConfig, MareNostrumExampleMatchesTheToml) {
  Machine cfg = load_machine(kExamples + "marenostrum.cfg");
  Machine toml = load_machine(kExamples + "marenostrum.toml");
  expect_same_machine(cfg, toml);
  EXPECT_EQ(cfg.name, "MareNostrum");
  ASSERT_EQ(cfg.nodes.size(), 16u);
  EXPECT_EQ(cfg.nodes[0].cores, 4);
  EXPECT_DOUBLE_EQ(cfg.bandwidth, 250.0);
  EXPECT_EQ(cfg.map_tasks(64).back(), 15);
  expect_every_collective(cfg, CollectiveModel::Logarithmic);
}

TEST(DimemasConfig, NodeRecordsCollectivesFileAndNotes) {
  Machine m = load_machine(fixture("config/with_collectives.cfg"));
  EXPECT_EQ(m.name, "pair");
  ASSERT_EQ(m.nodes.size(), 2u);
  EXPECT_EQ(m.buses, 2);
  // 13-field form.
  EXPECT_EQ(m.nodes[0].cores, 2);
  EXPECT_DOUBLE_EQ(m.nodes[0].intra.latency, 1e-7);
  EXPECT_DOUBLE_EQ(m.nodes[0].intra.bandwidth, 1000.0);
  EXPECT_EQ(m.nodes[0].intra.buses, 1);
  EXPECT_EQ(m.nodes[0].intra.input_links, 0);
  EXPECT_DOUBLE_EQ(m.nodes[0].latency, 2e-6);
  // 14-field form (node_id read, nodes numbered in order).
  EXPECT_DOUBLE_EQ(m.nodes[1].cpu_ratio, 0.5);
  EXPECT_DOUBLE_EQ(m.nodes[1].latency, 3e-6);
  EXPECT_EQ(m.nodes[1].input_links, 2);
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::Fill);

  // Environment model 2 = linear, then the file's lines.
  using M = CollectiveModel;
  using S = CollectiveSize;
  const CollectiveCost& allreduce = m.collectives[trace::kAllreduce];
  EXPECT_EQ(allreduce.fan_in.model, M::Logarithmic);
  EXPECT_EQ(allreduce.fan_in.size, S::Max);
  EXPECT_EQ(allreduce.fan_out.model, M::Logarithmic);
  EXPECT_EQ(allreduce.fan_out.size, S::Max);
  const CollectiveCost& bcast = m.collectives[trace::kBcast];
  EXPECT_EQ(bcast.fan_in.model, M::Linear);
  EXPECT_EQ(bcast.fan_in.size, S::Min);
  EXPECT_EQ(bcast.fan_out.model, M::Constant);
  EXPECT_EQ(bcast.fan_out.size, S::TwiceMax);
  EXPECT_EQ(m.collectives[trace::kBarrier].fan_in.model, M::None);
  EXPECT_EQ(m.collectives[trace::kGather].fan_in.model, M::Linear);
  EXPECT_EQ(m.collectives[trace::kGather].fan_out.size, S::Current);

  EXPECT_TRUE(has_note(m, "scheduler file \"sched.cfg\" ignored"));
  EXPECT_TRUE(has_note(m, "trace file \"app.dim\" ignored"));
  EXPECT_TRUE(has_note(m, "'Policy:' lines ignored"));
  EXPECT_TRUE(has_note(m, "'Flight time:' lines ignored"));
  EXPECT_TRUE(has_note(m, "'Quantum size (bytes):' lines ignored"));
}

const std::string kEnvironment = "\"environment information\" {\"m\", 0, \"\", 2, 100.0, 0, 1};;\n";
const std::string kNodes =
    "\"multi node information\" {0, 2, \"\", 1, 1.0, 0.0, 0.0, 0, 1, 1, 5e-6, 1, 1, 0.0};;\n";
const std::string kMapping = "\"predefined mapping information\" {\"1 TASKS_PER_NODE\"};;\n";
const std::string kHeader = "#DIMEMAS_CONFIGURATION\n";
// Header, environment, nodes and mapping on lines 1-4.
const std::string kMinimal = kHeader + kEnvironment + kNodes + kMapping;

TEST(DimemasConfig, CommentsBlankLinesAndIgnoredRecords) {
  TempDir dir;
  Machine m = load_machine(dir.write(
      "c.cfg",
      kHeader + "\n// a comment\n/* a region\n\"bogus\" {};;\n*/\n  \n/* one line */\n" +
          "\"wide area network information\" {\"\", 1, 1, 4, 0.0, 0.0, 1};;\n" +
          "\"environment information\" {\"m\", 0, \"\", 3, 100.0, 0, 3};;\n" +
          "\"node information\" {0, \"\", 1, 1.0, 0.0, 0.0, 0, 1, 1, 0.0, 1, 1, 0.0};;\n" + kNodes +
          "\"mapping information\" {\"\", 3, [3] {2,0,1}};;\n" +
          "\"modules information\" {1, 2, 0.5};;\n" + "\"modules information\" {1, 3, -1.0};;\n" +
          "\"dedicated connection information\" {0, 0, 0, 10.0, [2] {1,2}, 100, <, &, 200, "
          ">, [1] {0}, 0.0, 0.0};;\n" +
          "\"accelerator node information\" {0, 1e-6, 1e-6, 100.0, 1, 1.0};;\n"));
  EXPECT_EQ(m.nodes.size(), 3u);
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::Explicit);
  EXPECT_EQ(m.mapping.nodes, (std::vector<int>{2, 0, 1}));
  expect_every_collective(m, CollectiveModel::Logarithmic);
  EXPECT_EQ(std::count(m.notes.begin(), m.notes.end(), "modules information: parsed, not modelled"),
            1);
  EXPECT_TRUE(has_note(m, "dedicated connection information: parsed, not modelled"));
  EXPECT_TRUE(has_note(m, "accelerator node information: parsed, not modelled"));
}

TEST(DimemasConfig, PredefinedMappings) {
  TempDir dir;
  auto load_map = [&](const std::string& map) {
    return load_machine(dir.write("m.cfg", kHeader + kEnvironment + kNodes +
                                               "\"predefined mapping information\" {" + map +
                                               "};;\n"))
        .mapping;
  };
  EXPECT_EQ(load_map("\"FILL_NODES\"").policy, Mapping::Policy::Fill);
  EXPECT_EQ(load_map("\"INTERLEAVED\"").policy, Mapping::Policy::Interleaved);
  Mapping three = load_map("\"t.dim\", \"3 TASKS_PER_NODE\"");
  EXPECT_EQ(three.policy, Mapping::Policy::TasksPerNode);
  EXPECT_EQ(three.tasks_per_node, 3);
}

// A bad machine file: its name, content, and the line and phrase its error must have.
struct BadInput {
  const char* name;
  std::string content;
  std::uint64_t line;
  const char* phrase;
};

std::ostream& operator<<(std::ostream& out, const BadInput& c) { return out << c.name; }
using BadConfig = BadInput;

class DimemasBadConfig : public ::testing::TestWithParam<BadConfig> {};

TEST_P(DimemasBadConfig, ReportsFileLineAndCause) {
  TempDir dir;
  const BadConfig& c = GetParam();
  std::string path = dir.write(std::string(c.name) + ".cfg", c.content);
  trace::FormatError e = load_error(path, load_dimemas_config);
  EXPECT_EQ(e.line(), c.line) << e.what();
  EXPECT_THAT(e.what(), HasSubstr(std::string(c.name) + ".cfg"));
  EXPECT_THAT(e.what(), HasSubstr(c.phrase));
}

const std::string kSingleNode =
    "\"node information\" {0, \"\", 1, 1.0, 0.0, 0.0, 0, 1, 1, 0.0, 1, 1, 0.0};;\n";

INSTANTIATE_TEST_SUITE_P(
    Inputs, DimemasBadConfig,
    ::testing::Values(
        BadConfig{"no_header", "\"environment information\" {\"m\", 0, \"\", 2, 1.0, 0, 1};;\n", 1,
                  "first line must be '#DIMEMAS_CONFIGURATION'"},
        BadConfig{"unknown_record", kMinimal + "\"network information\" {1};;\n", 5,
                  "unknown record \"network information\"; expected one of"},
        BadConfig{"too_few_fields",
                  kHeader + "\"environment information\" {\"m\", 0, \"\", 2, 100.0, 0};;\n" +
                      kNodes + kMapping,
                  2, "has 6 fields, expected 7 (machine_name"},
        BadConfig{"bandwidth_not_number",
                  kHeader + "\"environment information\" {\"m\", 0, \"\", 2, fast, 0, 1};;\n" +
                      kNodes + kMapping,
                  2, "field 5 (network_bandwidth) must be a number, found fast"},
        BadConfig{"nodes_not_integer",
                  kHeader + "\"environment information\" {\"m\", 0, \"\", 2.5, 1.0, 0, 1};;\n" +
                      kNodes + kMapping,
                  2, "field 4 (number_of_nodes) must be an integer, found 2.5"},
        BadConfig{"name_not_string",
                  kHeader + "\"environment information\" {7, 0, \"\", 2, 1.0, 0, 1};;\n" + kNodes +
                      kMapping,
                  2, "field 1 (machine_name) must be a double-quoted string, found 7"},
        BadConfig{"negative_bandwidth",
                  kHeader + "\"environment information\" {\"m\", 0, \"\", 2, -1.0, 0, 1};;\n" +
                      kNodes + kMapping,
                  2, "(network_bandwidth) must be non-negative, found -1.0"},
        BadConfig{"negative_buses",
                  kHeader + "\"environment information\" {\"m\", 0, \"\", 2, 1.0, -2, 1};;\n" +
                      kNodes + kMapping,
                  2, "(number_of_buses_on_network) must be non-negative"},
        BadConfig{"negative_latency",
                  kHeader + kEnvironment +
                      "\"multi node information\" {0, 2, \"\", 1, 1.0, 0.0, 0.0, 0, 1, 1, -5e-6, "
                      "1, 1, 0.0};;\n" +
                      kMapping,
                  3, "field 11 (inter_node_startup) must be non-negative, found -5e-6"},
        BadConfig{"zero_cores",
                  kHeader + kEnvironment +
                      "\"multi node information\" {0, 2, \"\", 0, 1.0, 0.0, 0.0, 0, 1, 1, 0.0, 1, "
                      "1, 0.0};;\n" +
                      kMapping,
                  3, "field 4 (number_of_processors) must be at least 1, found 0"},
        BadConfig{"zero_cpu_ratio",
                  kHeader + kEnvironment +
                      "\"multi node information\" {0, 2, \"\", 1, 0.0, 0.0, "
                      "0.0, 0, 1, 1, 0.0, 1, 1, 0.0};;\n" +
                      kMapping,
                  3, "(speed_ratio_instrumented_vs_simulated) must be positive"},
        BadConfig{"node_count_mismatch", kHeader + kEnvironment + kSingleNode + kMapping, 2,
                  "declares 2 nodes but the node records define 1"},
        BadConfig{"missing_environment", kHeader + kNodes + kMapping, 0,
                  "missing \"environment information\" record"},
        BadConfig{"missing_nodes", kHeader + kEnvironment + kMapping, 0,
                  "missing \"node information\" or \"multi node information\" record"},
        BadConfig{"missing_mapping", kHeader + kEnvironment + kNodes, 0,
                  "missing \"mapping information\" or \"predefined mapping information\""},
        BadConfig{
            "mapping_unknown_node",
            kHeader + kEnvironment + kNodes + "\"mapping information\" {\"\", 3, [3] {0,1,2}};;\n",
            4, "puts task 2 on node 2, which does not exist (nodes 0..1)"},
        BadConfig{
            "mapping_array_size",
            kHeader + kEnvironment + kNodes + "\"mapping information\" {\"\", 3, [4] {0,1,1}};;\n",
            4, "declares [4] elements but lists 3"},
        BadConfig{"unknown_predefined_mapping",
                  kHeader + kEnvironment + kNodes +
                      "\"predefined mapping information\" {\"ROUND_ROBIN\"};;\n",
                  4, "must be \"FILL_NODES\", \"<n> TASKS_PER_NODE\" (n >= 1) or \"INTERLEAVED\""},
        BadConfig{"zero_tasks_per_node",
                  kHeader + kEnvironment + kNodes +
                      "\"predefined mapping information\" {\"0 TASKS_PER_NODE\"};;\n",
                  4, "found \"0 TASKS_PER_NODE\""},
        BadConfig{"truncated_record",
                  kHeader + kEnvironment + kNodes +
                      "\"predefined mapping information\" {\"1 "
                      "TASKS_PER_NODE\"\n};;\n",
                  4, "not closed by '};;'"},
        BadConfig{
            "missing_semicolons",
            kHeader + kEnvironment.substr(0, kEnvironment.size() - 3) + "\n" + kNodes + kMapping, 2,
            "not closed by '};;'"},
        BadConfig{"old_node_form",
                  kHeader + kEnvironment +
                      "\"node information\" {0, 0, \"\", 1, 1, 1, 0.0, 0.0, 1.0, 0.0, 0.0};;\n" +
                      kSingleNode + kMapping,
                  3, "old 11-field form, which is not supported; use the 13-field form"},
        BadConfig{"node_field_count",
                  kHeader + kEnvironment + "\"node information\" {0, \"\", 1, 1.0};;\n" + kMapping,
                  3, "has 4 fields, expected 13 (machine_id, simulated_architecture"},
        BadConfig{"second_machine",
                  kHeader + kEnvironment +
                      "\"multi node information\" {1, 2, \"\", 1, 1.0, 0.0, 0.0, 0, 1, 1, 0.0, 1, "
                      "1, 0.0};;\n" +
                      kMapping,
                  3, "field 1 (machine_id) must be 0 (only single-machine"},
        BadConfig{"duplicate_environment", kMinimal + kEnvironment, 5,
                  "repeats the environment information (one machine) of line 2"},
        BadConfig{"bad_group_model",
                  kHeader + "\"environment information\" {\"m\", 0, \"\", 2, 1.0, 0, 4};;\n" +
                      kNodes + kMapping,
                  2, "must be 1 (constant), 2 (linear) or 3 (logarithmic), found 4"},
        BadConfig{"hit_ratio", kMinimal + "\"file system parameters\" {0.0, 0.0, 8.0, 0, 1.5};;\n",
                  5, "(hit_ratio) must be between 0 and 1"},
        BadConfig{"bad_condition",
                  kHeader + "\"wide area network information\" {\"\", 1, 1, 4, 0.0, 0.0, 1};;\n" +
                      kEnvironment + kNodes + kMapping +
                      "\"dedicated connection information\" {0, 0, 0, 10.0, [1] {1}, 100, !, &, "
                      "200, >, [1] {0}, 0.0, 0.0};;\n",
                  6, "(first_size_condition) must be one of <=>, found !"},
        BadConfig{"connection_count",
                  kHeader + "\"wide area network information\" {\"\", 1, 2, 4, 0.0, 0.0, 1};;\n" +
                      kEnvironment + kNodes + kMapping,
                  2, "declares 2 dedicated connections but 0 are defined"},
        BadConfig{"text_after_record",
                  kHeader + kEnvironment + kNodes +
                      "\"predefined mapping information\" {\"FILL_NODES\"};; "
                      "// trailing\n",
                  4, "unexpected text after '};;'"},
        BadConfig{"unclosed_comment", kMinimal + "/* never closed\n", 5,
                  "'/*' comment is never closed"},
        BadConfig{"missing_collectives_file",
                  kMinimal + "\"configuration files\" {\"\", \"\", \"none.txt\", \"\"};;\n", 5,
                  "communication file"}),
    [](const ::testing::TestParamInfo<BadConfig>& info) { return std::string(info.param.name); });

TEST(DimemasConfig, CollectivesFileErrorsPointIntoThatFile) {
  TempDir dir;
  std::string config =
      dir.write("c.cfg", kMinimal + "\"configuration files\" {\"\", \"\", \"coll.txt\", \"\"};;\n");
  struct Case {
    std::string content;
    std::uint64_t line;
    const char* phrase;
  };
  for (const Case& c : {
           Case{"11 LOG MAX LOG MAX\nBroadcast everything\n", 2, "unknown line"},
           Case{"\n11 LOG BIG LOG MAX\n", 2, "unknown size 'BIG' (expected MIN, MAX"},
           Case{"11 SQRT MAX LOG MAX\n", 1, "unknown model 'SQRT' (expected 0, CTE, LIN or LOG)"},
           Case{"16 LOG MAX LOG MAX\n", 1, "unknown global operation id '16' (expected 0..15)"},
           Case{"11 LOG MAX LOG\n", 1, "found 4 values"},
           Case{"Machine globalop: 1 11 LOG MAX LOG MAX\n", 1, "machine '1' does not exist"},
       }) {
    SCOPED_TRACE(c.content);
    dir.write("coll.txt", c.content);
    trace::FormatError e = load_error(config);
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_THAT(e.what(), HasSubstr("coll.txt"));
    EXPECT_THAT(e.what(), HasSubstr(c.phrase));
  }
}

TEST(DimemasConfig, ReduceLinesAreNotedAsWithoutEffect) {
  TempDir dir;
  dir.write("coll.txt", "10 LOG MAX LOG MAX\n");
  Machine m = load_machine(dir.write(
      "c.cfg", kMinimal + "\"configuration files\" {\"\", \"\", \"coll.txt\", \"\"};;\n"));
  EXPECT_EQ(m.collectives[trace::kReduce].fan_in.model, CollectiveModel::Logarithmic);
  EXPECT_TRUE(has_note(m, "MPI_Reduce settings have no effect"));
}

// ---- SDDFA 2.5 (older Dimemas; the original Tareador's machine files) -----------------------

TEST(SddfConfig, ReadsTheOriginalTareadorsMachine) {
  Machine m = load_machine(fixture("tareador-original/MN_16cores.cfg"));
  ASSERT_EQ(m.nodes.size(), 1u);
  const Node& node = m.nodes[0];
  EXPECT_EQ(node.cores, 16);
  EXPECT_DOUBLE_EQ(node.cpu_ratio, 1e6);
  EXPECT_EQ(node.input_links, 1);
  EXPECT_EQ(node.output_links, 1);
  EXPECT_DOUBLE_EQ(node.latency, 0);
  EXPECT_DOUBLE_EQ(node.intra.latency, 0);
  EXPECT_DOUBLE_EQ(node.intra.bandwidth, 0);
  EXPECT_EQ(node.intra.buses, 0);  // the format has no intra-node buses or links: unlimited
  EXPECT_EQ(node.intra.input_links, 0);
  EXPECT_EQ(node.intra.output_links, 0);
  EXPECT_DOUBLE_EQ(m.bandwidth, 0);
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::Explicit);
  EXPECT_EQ(m.mapping.nodes, std::vector<int>{0});
  expect_every_collective(m, CollectiveModel::Constant);
  EXPECT_TRUE(has_note(m, "modules information: parsed, not modelled"));
  EXPECT_TRUE(has_note(m, "SDDFA 2.5 configuration"));
}

// An SDDFA file: its definitions of the environment and node records, then `values`.
std::string sddf(const std::string& values,
                 const std::string& node_fields =
                     "   int \"machine_id\";\n"
                     "   int \"node_id\";\n"
                     "   char \"simulated_architecture\"[];\n"
                     "   int \"number_of_processors\";\n"
                     "   int \"number_of_input_links\";\n"
                     "   int \"number_of_output_links\";\n"
                     "   double \"startup_on_local_communication\";\n"
                     "   double \"startup_on_remote_communication\";\n"
                     "   double \"speed_ratio_instrumented_vs_simulated\";\n"
                     "   double \"memory_bandwidth\";\n"
                     "   double \"external_net_startup\";\n") {
  return "SDDFA\n/*\n * \"Dimemas Configuration Format:\" \"Version 2.5\"\n */ ;;\n\n"
         "#1:\n\"environment information\" {\n   char \"machine_name\"[];\n"
         "   int \"machine_id\";\n   // a comment\n   char \"instrumented_architecture\"[];\n"
         "   int \"number_of_nodes\";\n   double \"network_bandwidth\";\n"
         "   int \"number_of_buses_on_network\";\n   int \"communication_group_model\";\n};;\n\n"
         "#2:\n\"node information\" {\n" +
         node_fields +
         "};;\n\n"
         "#3:\n\"predefined mapping information\" {\n   char \"map\"[];\n};;\n\n" +
         values;
}

const std::string kSddfValues =
    "\"environment information\" {\"\", 0, \"\", 2, 100.0, 0, 1};;\n"
    "\"node information\" {0, 0, \"\", 4, 1, 1, 1e-6, 5e-6, 2.0, 500.0, 0.0};;\n"
    "\"node information\" {0, 1, \"\", 2, 1, 1, 1e-6, 5e-6, 2.0, 500.0, 0.0};;\n"
    "\"predefined mapping information\" {\"1 TASKS_PER_NODE\"};;\n";

TEST(SddfConfig, NodeFieldsAreFoundByTheirNames) {
  TempDir dir;
  Machine m = load_machine(dir.write("old.cfg", sddf(kSddfValues)));
  ASSERT_EQ(m.nodes.size(), 2u);
  EXPECT_EQ(m.nodes[0].cores, 4);
  EXPECT_EQ(m.nodes[1].cores, 2);
  EXPECT_DOUBLE_EQ(m.nodes[0].intra.latency, 1e-6);
  EXPECT_DOUBLE_EQ(m.nodes[0].latency, 5e-6);
  EXPECT_DOUBLE_EQ(m.nodes[0].cpu_ratio, 2.0);
  EXPECT_DOUBLE_EQ(m.nodes[0].intra.bandwidth, 500.0);
  EXPECT_DOUBLE_EQ(m.bandwidth, 100.0);
}

TEST(SddfConfig, ReportsFileLineAndCause) {
  const std::string kNoRatio =
      "   int \"machine_id\";\n   char \"simulated_architecture\"[];\n"
      "   int \"number_of_processors\";\n";
  struct Case {
    std::string content;
    std::uint64_t line;
    const char* phrase;
  };
  for (const Case& c : {
           // the values begin at line 38
           Case{sddf(kSddfValues + "\"file system parameters\" {0.0, 0.0, 8.0, 0, 1.0};;\n"), 42,
                "\"file system parameters\" has no record definition in this SDDFA file"},
           Case{sddf("\"environment information\" {\"\", 0, \"\", 2, 100.0, 0};;\n"), 38,
                "has 6 fields, its definition (line 7) declares 7"},
           Case{sddf("", "   int \"machine_id\"\n"), 20, "expected a field declaration"},
           Case{sddf("", "   string \"machine_id\";\n"), 20, "expected a field declaration"},
           Case{sddf("\"node information\" {0, \"\", 4};;\n", kNoRatio), 30,
                "its definition (line 19) has no field speed_ratio_instrumented_vs_simulated"},
           Case{"SDDFA\n#1:\n\"environment information\" {\n   int \"machine_id\";\n", 2,
                "\"environment information\" is not closed by '};;'"},
           Case{"SDDFA\n#1:\nenvironment {\n};;\n", 3, "expected '\"<record name>\" {'"},
       }) {
    SCOPED_TRACE(c.content);
    TempDir dir;
    trace::FormatError e = load_error(dir.write("old.cfg", c.content));
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_THAT(e.what(), HasSubstr("old.cfg"));
    EXPECT_THAT(e.what(), HasSubstr(c.phrase));
  }
}

// ---- TOML machine files ---------------------------------------------------------------------

TEST(TomlMachine, GroupsMappingAndCollectives) {
  Machine m = load_machine(fixture("config/groups.toml"));
  EXPECT_EQ(m.name, "groups");
  EXPECT_DOUBLE_EQ(m.mips, 1500.0);
  EXPECT_DOUBLE_EQ(m.bandwidth, 1000.0);
  EXPECT_EQ(m.buses, 4);
  EXPECT_EQ(m.eager_limit, 65536);
  ASSERT_EQ(m.nodes.size(), 3u);
  EXPECT_EQ(m.nodes[1].cores, 8);
  EXPECT_DOUBLE_EQ(m.nodes[1].cpu_ratio, 2.0);
  EXPECT_DOUBLE_EQ(m.nodes[1].intra.bandwidth, 5000.0);
  EXPECT_EQ(m.nodes[1].intra.buses, 2);
  EXPECT_EQ(m.nodes[1].input_links, 1);
  Node defaults;
  defaults.latency = 4e-6;
  defaults.input_links = 2;
  defaults.output_links = 0;
  expect_same_node(m.nodes[2], defaults);
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::Explicit);
  EXPECT_EQ(m.map_tasks(4), (std::vector<int>{0, 0, 1, 2}));

  using M = CollectiveModel;
  using S = CollectiveSize;
  const CollectiveCost& gather = m.collectives[trace::kGather];  // the default
  EXPECT_EQ(gather.fan_in.model, M::Linear);
  EXPECT_EQ(gather.fan_out.model, M::Logarithmic);
  EXPECT_EQ(gather.fan_in.size, S::Max);
  EXPECT_EQ(gather.fan_out.size, S::Max);
  const CollectiveCost& allreduce = m.collectives[trace::kAllreduce];
  EXPECT_EQ(allreduce.fan_in.model, M::Logarithmic);
  EXPECT_EQ(allreduce.fan_in.size, S::Max);
  EXPECT_EQ(allreduce.fan_out.model, M::Logarithmic);
  EXPECT_EQ(allreduce.fan_out.size, S::SendPlusRecv);
  const CollectiveCost& bcast = m.collectives[trace::kBcast];
  EXPECT_EQ(bcast.fan_in.model, M::None);
  EXPECT_EQ(bcast.fan_in.size, S::Mean);
  EXPECT_EQ(bcast.fan_out.size, S::Mean);
}

TEST(TomlMachine, MinimalFileUsesDefaults) {
  TempDir dir;
  Machine m = load_machine(dir.write("m.toml", "[network]\nbandwidth = 0\n[[nodes]]\n"));
  ASSERT_EQ(m.nodes.size(), 1u);
  expect_same_node(m.nodes[0], Node{});
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::TasksPerNode);
  EXPECT_EQ(m.mapping.tasks_per_node, 1);
  expect_every_collective(m, CollectiveModel::Constant);
}

TEST(TomlMachine, MappingPolicies) {
  TempDir dir;
  auto mapping = [&](const std::string& table) {
    return load_machine(dir.write("m.toml",
                                  "[network]\nbandwidth = 1\n[[nodes]]\ncount = 2\n"
                                  "[mapping]\n" +
                                      table))
        .mapping;
  };
  EXPECT_EQ(mapping("policy = \"fill\"").policy, Mapping::Policy::Fill);
  EXPECT_EQ(mapping("policy = \"interleaved\"").policy, Mapping::Policy::Interleaved);
  EXPECT_EQ(mapping("tasks_per_node = 3").tasks_per_node, 3);
}

using BadToml = BadInput;

class TomlBadMachine : public ::testing::TestWithParam<BadToml> {};

TEST_P(TomlBadMachine, ReportsFileLineAndCause) {
  TempDir dir;
  const BadToml& c = GetParam();
  trace::FormatError e = load_error(dir.write(std::string(c.name) + ".toml", c.content));
  EXPECT_EQ(e.line(), c.line) << e.what();
  EXPECT_THAT(e.what(), HasSubstr(std::string(c.name) + ".toml"));
  EXPECT_THAT(e.what(), HasSubstr(c.phrase));
}

const std::string kTomlNetwork = "[network]\nbandwidth = 250.0\n";  // lines 1-2

INSTANTIATE_TEST_SUITE_P(
    Inputs, TomlBadMachine,
    ::testing::Values(
        BadToml{"syntax", kTomlNetwork + "[[nodes]]\ncores = = 4\n", 4,
                "not a valid TOML machine file"},
        BadToml{"unknown_key", kTomlNetwork + "busses = 2\n[[nodes]]\n", 3,
                "unknown key 'busses' in [network] (expected bandwidth, buses, eager_limit, "
                "marshal_line_cost)"},
        BadToml{"misspelt_required_key", "[network]\nbandwith = 250.0\n[[nodes]]\n", 1,
                "[network]: missing key 'bandwidth' (found bandwith)"},
        BadToml{"unknown_top_key", kTomlNetwork + "[[nodes]]\n[mapings]\n", 4,
                "unknown key 'mapings'"},
        BadToml{"wrong_type", "[network]\nbandwidth = \"fast\"\n[[nodes]]\n", 2,
                "[network]: bandwidth must be a number, found 'fast'"},
        BadToml{"negative", kTomlNetwork + "[[nodes]]\nlatency = -1e-6\n", 4,
                "latency must not be negative"},
        BadToml{"zero_cores", kTomlNetwork + "[[nodes]]\ncount = 2\ncores = 0\n", 5,
                "[[nodes]] #1: cores must be at least 1, found 0"},
        BadToml{"real_cores", kTomlNetwork + "[[nodes]]\ncores = 1.5\n", 4,
                "cores must be an integer, found 1.5"},
        BadToml{"intra_unknown", kTomlNetwork + "[[nodes]]\n[nodes.intra]\nlatancy = 0\n", 5,
                "unknown key 'latancy' in [nodes.intra]"},
        BadToml{"missing_network", "[[nodes]]\n", 0, "missing table [network]"},
        BadToml{"missing_nodes", kTomlNetwork, 0, "missing [[nodes]]"},
        BadToml{"two_policies",
                kTomlNetwork + "[[nodes]]\n[mapping]\npolicy = \"fill\"\n"
                               "tasks_per_node = 2\n",
                4, "give exactly one of tasks_per_node"},
        BadToml{"unknown_policy", kTomlNetwork + "[[nodes]]\n[mapping]\npolicy = \"random\"\n", 5,
                "policy must be \"fill\" or \"interleaved\""},
        BadToml{"mapping_unknown_node",
                kTomlNetwork + "[[nodes]]\ncount = 2\n[mapping]\n"
                               "nodes = [0, 1, 2]\n",
                6, "task 2 is mapped to node 2, which does not exist (nodes 0..1)"},
        BadToml{"unknown_collective",
                kTomlNetwork + "[[nodes]]\n[collectives]\n"
                               "MPI_Allsum = { fan_in = \"log\" }\n",
                5, "unknown collective 'MPI_Allsum'"},
        BadToml{"bad_model",
                kTomlNetwork + "[[nodes]]\n[collectives]\n"
                               "default = { fan_in = \"tree\" }\n",
                5, "fan_in must be \"none\", \"constant\", \"linear\" or \"logarithmic\""},
        BadToml{"bad_size",
                kTomlNetwork + "[[nodes]]\n[collectives]\n"
                               "Bcast = { size = \"huge\" }\n",
                5, "size must be \"current\""},
        BadToml{"collective_key",
                kTomlNetwork + "[[nodes]]\n[collectives]\n"
                               "Bcast = { fanin = \"log\" }\n",
                5, "unknown key 'fanin' in collectives.Bcast"}),
    [](const ::testing::TestParamInfo<BadToml>& info) { return std::string(info.param.name); });

TEST(MachineFile, MissingFile) {
  trace::FormatError e = load_error("/nonexistent/machine.toml");
  EXPECT_EQ(e.line(), 0u);
  EXPECT_THAT(e.what(), HasSubstr("/nonexistent/machine.toml: cannot open"));
}

TEST(MachineFile, DimemasFileWithoutItsHeaderIsNotTakenForToml) {
  TempDir dir;
  trace::FormatError e = load_error(dir.write("c.cfg", kEnvironment + kNodes + kMapping));
  EXPECT_EQ(e.line(), 1u);
  EXPECT_THAT(e.what(), HasSubstr("must start with #DIMEMAS_CONFIGURATION"));
}

// ---- Overrides ------------------------------------------------------------------------------

TEST(Overrides, EveryKeyIsListedWithADescription) {
  std::vector<std::string> keys;
  for (const MachineKey& k : machine_keys()) {
    keys.push_back(k.name);
    EXPECT_FALSE(k.description.empty()) << k.name;
    EXPECT_EQ(machine_key(k.name), &k) << k.name;
  }
  for (const char* key :
       {"bandwidth", "latency", "buses", "cores", "cpu_ratio", "eager_limit", "mips", "nodes",
        "tasks_per_node", "mapping", "links", "intra_latency", "intra_bandwidth", "collectives"})
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
}

TEST(Overrides, ApplyToTheMachineAndEveryNode) {
  Machine m = testing::machine(2, 100.0, 1e-6);
  for (const char* setting :
       {"bandwidth=250.5", "latency=2e-6", "buses=3", "cores = 4", "cpu_ratio=0.5",
        "eager_limit=8192", "mips=2000", "links=2", "intra_latency=1e-7", "intra_bandwidth=3000",
        "intra_buses=1", "collectives=logarithmic"})
    apply_override(m, setting);
  EXPECT_DOUBLE_EQ(m.bandwidth, 250.5);
  EXPECT_EQ(m.buses, 3);
  EXPECT_EQ(m.eager_limit, 8192);
  EXPECT_DOUBLE_EQ(m.mips, 2000);
  for (const Node& node : m.nodes) {
    EXPECT_DOUBLE_EQ(node.latency, 2e-6);
    EXPECT_EQ(node.cores, 4);
    EXPECT_DOUBLE_EQ(node.cpu_ratio, 0.5);
    EXPECT_EQ(node.input_links, 2);
    EXPECT_EQ(node.output_links, 2);
    EXPECT_DOUBLE_EQ(node.intra.latency, 1e-7);
    EXPECT_DOUBLE_EQ(node.intra.bandwidth, 3000);
    EXPECT_EQ(node.intra.buses, 1);
  }
  for (const CollectiveCost& cost : m.collectives) {
    EXPECT_EQ(cost.fan_in.model, CollectiveModel::Logarithmic);
    EXPECT_EQ(cost.fan_out.model, CollectiveModel::Logarithmic);
  }
  apply_override(m, "eager_limit=-1");
  EXPECT_EQ(m.eager_limit, -1);
}

TEST(Overrides, NodesGrowByCopyingTheLastAndShrink) {
  Machine m = testing::machine(2, 100.0, 1e-6);
  m.nodes[1].cores = 8;
  apply_override(m, "nodes=5");
  ASSERT_EQ(m.nodes.size(), 5u);
  EXPECT_EQ(m.nodes[0].cores, 1);
  EXPECT_EQ(m.nodes[4].cores, 8);
  apply_override(m, "nodes=1");
  EXPECT_EQ(m.nodes.size(), 1u);
}

TEST(Overrides, MappingKeys) {
  Machine m = testing::machine(2, 100.0, 1e-6);
  apply_override(m, "mapping=fill");
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::Fill);
  apply_override(m, "mapping=interleaved");
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::Interleaved);
  apply_override(m, "mapping=3");
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::TasksPerNode);
  EXPECT_EQ(m.mapping.tasks_per_node, 3);
  m.mapping = Mapping{Mapping::Policy::Explicit, 1, {0, 1}};
  apply_override(m, "tasks_per_node=2");
  EXPECT_EQ(m.mapping.policy, Mapping::Policy::TasksPerNode);
  EXPECT_EQ(m.mapping.tasks_per_node, 2);
  EXPECT_TRUE(m.mapping.nodes.empty());
}

TEST(Overrides, BadKeysAndValuesSayWhy) {
  Machine m = testing::machine(2, 100.0, 1e-6);
  EXPECT_THAT(override_error(m, "bandwith=1"),
              HasSubstr("unknown machine key 'bandwith'; valid keys: bandwidth, latency"));
  EXPECT_THAT(override_error(m, "bandwidth"), HasSubstr("expected key=value"));
  EXPECT_THAT(override_error(m, "bandwidth=fast"),
              HasSubstr("'bandwidth': 'fast' is not a number"));
  EXPECT_THAT(override_error(m, "bandwidth=250MB"), HasSubstr("is not a number"));
  EXPECT_THAT(override_error(m, "bandwidth=inf"), HasSubstr("is not a finite number"));
  EXPECT_THAT(override_error(m, "bandwidth="), HasSubstr("is not a number"));
  EXPECT_THAT(override_error(m, "latency=-1e-6"),
              HasSubstr("'latency': '-1e-6' must not be negative"));
  EXPECT_THAT(override_error(m, "cores=0"), HasSubstr("'cores': '0' must be at least 1"));
  EXPECT_THAT(override_error(m, "cores=2.5"), HasSubstr("'cores': '2.5' is not an integer"));
  EXPECT_THAT(override_error(m, "buses=99999999999"), HasSubstr("is out of range"));
  EXPECT_THAT(override_error(m, "cpu_ratio=0"), HasSubstr("'cpu_ratio': '0' must be positive"));
  EXPECT_THAT(override_error(m, "eager_limit=-2"), HasSubstr("must be at least -1"));
  EXPECT_THAT(override_error(m, "nodes=0"), HasSubstr("'nodes': '0' must be at least 1"));
  EXPECT_THAT(override_error(m, "mapping=random"), HasSubstr("expected fill, interleaved"));
  EXPECT_THAT(override_error(m, "collectives=tree"),
              HasSubstr("expected constant, linear or logarithmic"));
}

// ---- Task mapping ---------------------------------------------------------------------------

TEST(MapTasks, TasksPerNode) {
  Machine m = testing::machine(3, 1, 0);
  m.mapping.tasks_per_node = 2;
  EXPECT_EQ(m.map_tasks(5), (std::vector<int>{0, 0, 1, 1, 2}));
  EXPECT_EQ(m.map_tasks(6), (std::vector<int>{0, 0, 1, 1, 2, 2}));
  EXPECT_TRUE(m.map_tasks(0).empty());
  EXPECT_THROW(m.map_tasks(7), std::invalid_argument);
}

TEST(MapTasks, FillPutsLeftoversOnTheLastNode) {
  Machine m = testing::machine(2, 1, 0);
  m.nodes[0].cores = 2;
  m.nodes[1].cores = 3;
  m.mapping.policy = Mapping::Policy::Fill;
  EXPECT_EQ(m.map_tasks(4), (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(m.map_tasks(7), (std::vector<int>{0, 0, 1, 1, 1, 1, 1}));
}

TEST(MapTasks, Interleaved) {
  Machine m = testing::machine(2, 1, 0);
  m.mapping.policy = Mapping::Policy::Interleaved;
  EXPECT_EQ(m.map_tasks(5), (std::vector<int>{0, 1, 0, 1, 0}));
}

TEST(MapTasks, ExplicitNeedsEveryTaskOnAnExistingNode) {
  Machine m = testing::machine(2, 1, 0);
  m.mapping = Mapping{Mapping::Policy::Explicit, 1, {1, 1, 0}};
  EXPECT_EQ(m.map_tasks(2), (std::vector<int>{1, 1}));
  EXPECT_EQ(m.map_tasks(3), (std::vector<int>{1, 1, 0}));
  EXPECT_THROW(m.map_tasks(4), std::invalid_argument);
  m.mapping.nodes = {0, 2};
  EXPECT_THROW(m.map_tasks(2), std::invalid_argument);
}

TEST(MapTasks, NeedsNodes) {
  Machine m;
  EXPECT_THROW(m.map_tasks(1), std::invalid_argument);
}

}  // namespace
}  // namespace tareador::replay
