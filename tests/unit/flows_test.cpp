// The tool's communication recordings as comm/ reads them (flow_graph.h, thread_comm.h): the
// files' records and their errors at file:line, the matrices and the DOT graph; the
// partitioners (partition.h) and the prediction of an MPI version (predict.h) on graphs whose
// cut is known.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "comm/flow_graph.h"
#include "comm/partition.h"
#include "comm/predict.h"
#include "comm/thread_comm.h"
#include "test_util.h"

namespace tareador {
namespace {

using comm::Quantity;
using testing::TempDir;

const char* kFlows =
    "# tareador comm v1 rank=0 granularity=function sample=reservoir\n"
    "loads 1000\n"
    "unproduced 24\n"
    "sample 100 100 1.959964 0.050000 0.001000 7\n"
    "node 3 produce\n"
    "node 8 \"consume \\\"all\\\"\"\n"
    "edge 3 8 4000 500 0.087654\n"
    "edge 8 8 80 10 0.620000\n"
    "end\n";

// The message of the FormatError that reading `text` as comm.0.txt throws.
std::string flow_error(const std::string& text) {
  TempDir dir;
  try {
    comm::read_flow_graph(dir.write("comm.0.txt", text), 0);
  } catch (const trace::FormatError& e) {
    return "line " + std::to_string(e.line()) + ": " + e.message();
  }
  return "no error";
}

TEST(Flows, ReadsEveryRecord) {
  TempDir dir;
  comm::FlowGraph g = comm::read_flow_graph(dir.write("comm.0.txt", kFlows), 0);
  EXPECT_EQ(g.granularity, "function");
  EXPECT_EQ(g.loads, 1000u);
  EXPECT_EQ(g.unproduced, 24u);
  ASSERT_TRUE(g.sample.has_value());
  EXPECT_EQ(g.sample->size, 100u);
  EXPECT_DOUBLE_EQ(g.sample->z, 1.959964);
  EXPECT_EQ(g.sample->seed, 7u);
  EXPECT_EQ(g.nodes, (std::vector<std::string>{"produce", "consume \"all\""}));
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.edges[0].producer, 0u);
  EXPECT_EQ(g.edges[0].consumer, 1u);
  EXPECT_EQ(g.edges[0].bytes, 4000u);
  EXPECT_EQ(g.edges[0].events, 500u);
  EXPECT_DOUBLE_EQ(g.edges[0].error, 0.087654);
  EXPECT_EQ(g.total_bytes(), 4080u);
}

TEST(Flows, MalformedFilesAreErrorsAtTheirLine) {
  EXPECT_EQ(flow_error("# tareador patterns v1 rank=0\n"),
            "line 1: not a comm file: the first line must be '# tareador comm v1 rank=N ...'");
  EXPECT_EQ(flow_error("# tareador comm v2 rank=0 granularity=line\nend\n"),
            "line 1: comm version 2 is not supported (this reader knows version 1)");
  EXPECT_EQ(flow_error("# tareador comm v1 rank=3 granularity=line\nend\n"),
            "line 1: the header says rank 3 but the file is rank 0's");
  EXPECT_EQ(flow_error("# tareador comm v1 rank=0 granularity=line\nnode 1 a\nnode 1 b\nend\n"),
            "line 3: node 1 is declared twice");
  EXPECT_EQ(
      flow_error("# tareador comm v1 rank=0 granularity=line\nnode 1 a\nedge 1 2 8 1 0\nend\n"),
      "line 3: node 2 is not declared");
  EXPECT_EQ(
      flow_error("# tareador comm v1 rank=0 granularity=line\nnode 1 a\nedge 1 1 -8 1 0\nend\n"),
      "line 3: field 'BYTES' is not an integer: '-8'");
  EXPECT_EQ(flow_error("# tareador comm v1 rank=0 granularity=line\nnode 1 a\nedge 1 1 8 1\nend\n"),
            "line 3: missing field 'ERROR'");
  EXPECT_EQ(
      flow_error("# tareador comm v1 rank=0 granularity=line\nloads 5\nflow 1\n"),
      "line 3: unknown record 'flow' (expected loads, unproduced, sample, node, edge or end)");
  EXPECT_EQ(flow_error("# tareador comm v1 rank=0 granularity=line\nloads 5\n"),
            "line 2: the file stops before its 'end' line (the run was cut short)");
  EXPECT_EQ(flow_error("# tareador comm v1 rank=0\nend\n"),
            "line 1: the header has no granularity=");
}

TEST(Flows, MatrixGraphAndReport) {
  TempDir dir;
  comm::FlowGraph g = comm::read_flow_graph(dir.write("comm.0.txt", kFlows), 0);
  comm::Matrix m = comm::flow_matrix(g);
  EXPECT_EQ(m.labels, g.nodes);
  EXPECT_EQ(m.at(Quantity::bytes, 0, 1), 4000);
  EXPECT_EQ(m.at(Quantity::events, 1, 1), 10);
  EXPECT_EQ(m.at(Quantity::bytes, 1, 0), 0);
  comm::FlowDrawOptions draw;
  std::string dot = comm::flow_dot(g, draw);
  EXPECT_NE(dot.find("n0 -> n1 [penwidth=8.00, label=\"4 kB ±8.8%\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n1 -> n1 [penwidth=1.99, label=\"80 B ±62.0%\"]"), std::string::npos) << dot;
  draw.max_edges = 1;
  dot = comm::flow_dot(g, draw);
  EXPECT_EQ(dot.find("n1 -> n1"), std::string::npos);
  EXPECT_NE(dot.find("the 1 heaviest of 2 edges"), std::string::npos);
  std::ostringstream report;
  comm::write_flow_report(report, g, 0);
  EXPECT_NE(
      report.str().find("        4000          500   98.0%    ±8.8%  produce -> consume \"all\""),
      std::string::npos)
      << report.str();
  EXPECT_EQ(comm::human_bytes(999), "999 B");
  EXPECT_EQ(comm::human_bytes(3.2e6), "3.2 MB");
}

TEST(Flows, AnEdgeUnderTheSampledFractionHasNoErrorBound) {
  // The sample is sized for edges of 10% of the loads: the one of 1% gets no error, though its
  // formula gives 62% (a few samples: the normal approximation does not hold).
  std::string flows = kFlows;
  flows.replace(flows.find("0.001000 7"), 10, "0.100000 7");
  TempDir dir;
  comm::FlowGraph g = comm::read_flow_graph(dir.write("comm.0.txt", flows), 0);
  std::ostringstream report;
  comm::write_flow_report(report, g, 0);
  EXPECT_NE(report.str().find("  ±8.8%  produce -> consume"), std::string::npos) << report.str();
  EXPECT_NE(report.str().find("2.0% no bound  consume \"all\" -> consume"), std::string::npos)
      << report.str();
  std::string dot = comm::flow_dot(g, comm::FlowDrawOptions{});
  EXPECT_NE(dot.find("label=\"80 B (no bound)\""), std::string::npos) << dot;
}

TEST(ThreadComm, ReadsPairsAndTellsTrueFromFalse) {
  TempDir dir;
  std::string path = dir.write("threadcomm.0.txt",
                               "# tareador threadcomm v1 rank=0 granularity=6\n"
                               "thread 1 50\nthread 2 900\nthread 4 700\n"
                               "pair 2 4 100 60 800\npair 4 2 30 0 240\nend\n");
  comm::ThreadComm c = comm::read_thread_comm(path, 0);
  EXPECT_EQ(c.granularity, 6u);
  EXPECT_EQ(c.threads, (std::vector<unsigned>{1, 2, 4}));
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_EQ(c.pairs[0].false_events(), 40u);
  comm::Matrix all = comm::thread_matrix(c);
  EXPECT_EQ(all.labels, (std::vector<std::string>{"thread 1", "thread 2", "thread 4"}));
  EXPECT_EQ(all.at(Quantity::events, 1, 2), 100);
  EXPECT_EQ(all.at(Quantity::bytes, 2, 1), 240);
  EXPECT_EQ(comm::thread_matrix(c, comm::ThreadEvents::true_only).at(Quantity::events, 1, 2), 60);
  EXPECT_EQ(comm::thread_matrix(c, comm::ThreadEvents::false_only).at(Quantity::events, 2, 1), 30);
  std::ostringstream report;
  comm::write_thread_report(report, c);
  EXPECT_NE(report.str().find("130 events: 60 true (46.2%), 70 spatially false (53.8%)"),
            std::string::npos)
      << report.str();
  std::string bad = dir.write("threadcomm.1.txt",
                              "# tareador threadcomm v1 rank=1 granularity=6\nthread 1 5\n"
                              "pair 1 3 1 0 8\nend\n");
  try {
    comm::read_thread_comm(bad, 1);
    FAIL() << "a pair of an unlisted thread was accepted";
  } catch (const trace::FormatError& e) {
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.message(), "thread 3 is not listed");
  }
}

// Two cliques of 4 nodes, heavy inside, one light edge between them.
comm::WeightedGraph two_cliques() {
  comm::WeightedGraph g;
  g.node_weights.assign(8, 1);
  for (std::size_t base : {0u, 4u})
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t b = 0; b < 4; ++b)
        if (a != b) g.edges.push_back({base + a, base + b, 100});
  g.edges.push_back({3, 4, 1});
  return g;
}

TEST(Partition, MetisCutsTheLightEdge) {
  std::vector<int> part = comm::partition(two_cliques(), 2, comm::Partitioner::metis);
  ASSERT_EQ(part.size(), 8u);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(part[i], part[0]);
  for (std::size_t i = 5; i < 8; ++i) EXPECT_EQ(part[i], part[4]);
  EXPECT_NE(part[0], part[4]);
  EXPECT_EQ(comm::partition(two_cliques(), 2, comm::Partitioner::metis), part);  // seeded
}

TEST(Partition, MetisPartsAreNumberedInTheOrderOfTheirFirstNode) {
  // A chain of 16 nodes in 4 parts: strips, ranks 0..3 along the chain (as an MPI version of
  // a 1-D Jacobi numbers them), whatever numbers METIS gave them.
  comm::WeightedGraph chain;
  chain.node_weights.assign(16, 1);
  for (std::size_t i = 0; i + 1 < 16; ++i) {
    chain.edges.push_back({i, i + 1, 8});
    chain.edges.push_back({i + 1, i, 8});
  }
  EXPECT_EQ(comm::partition(chain, 4, comm::Partitioner::metis),
            (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
}

TEST(Partition, ContiguousRunsOfEqualWeight) {
  comm::WeightedGraph g;
  g.node_weights = {1, 1, 2, 1, 1, 2};  // total 8: parts of weight 4
  EXPECT_EQ(comm::partition(g, 2, comm::Partitioner::contiguous),
            (std::vector<int>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(comm::partition(g, 1, comm::Partitioner::metis), std::vector<int>(6, 0));
  EXPECT_THROW(comm::partition(g, 7, comm::Partitioner::contiguous), std::invalid_argument);
  EXPECT_THROW(comm::partition(g, 0, comm::Partitioner::metis), std::invalid_argument);
  EXPECT_THROW(comm::partitioner_named("scotch"), std::invalid_argument);
}

// A 1-D chain of 4 units, 3 instances each (the first reads only initial data): each unit loads
// 8 bytes of each neighbour in each of the 2 steady iterations.
TEST(Predict, ChainInTwoParts) {
  comm::FlowGraph flows;
  flows.granularity = "task-type";
  flows.nodes = {"main", "u0", "u1", "u2", "u3"};
  for (std::size_t u = 1; u < 4; ++u) {
    flows.edges.push_back({u, u + 1, 16, 2, 0});
    flows.edges.push_back({u + 1, u, 16, 2, 0});
  }
  flows.edges.push_back({0, 1, 800, 100, 0});  // the main task's initialisation: left out
  trace::TaskSet tasks;
  tasks.types = {"main", "u0", "u1", "u2", "u3"};
  tasks.instances.push_back({});  // instance 1: the main task, type 0
  for (int it = 0; it < 3; ++it)
    for (int u = 1; u <= 4; ++u) {
      trace::TaskInstance in;
      in.type = u;
      in.instructions = 100;
      tasks.instances.push_back(in);
    }
  comm::Prediction p = comm::predict(flows, tasks, 2, comm::Partitioner::contiguous);
  EXPECT_EQ(p.part, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(p.iterations, 3u);
  EXPECT_EQ(p.instructions, (std::vector<double>{600, 600}));
  // 8 bytes each way a iteration, 3 iterations; one message each way a iteration.
  EXPECT_EQ(p.matrix.at(Quantity::bytes, 0, 1), 24);
  EXPECT_EQ(p.matrix.at(Quantity::bytes, 1, 0), 24);
  EXPECT_EQ(p.matrix.at(Quantity::events, 0, 1), 3);
  EXPECT_DOUBLE_EQ(p.bytes_per_iteration(), 16);
  EXPECT_EQ(p.messages_per_iteration(), 2u);

  TempDir dir;
  comm::write_predicted_trace(dir.path("set"), "chain", 1000, p);
  auto traces = trace::open_traces(dir.path("set"));
  ASSERT_EQ(traces.size(), 1u);
  EXPECT_TRUE(trace::validate(*traces[0]).problems.empty());
  EXPECT_EQ(testing::read_file(dir.path("set/authentic.1.trc")),
            "# tareador stream v1 kind=authentic rank=1\n"
            "cpu 200\nisend 0 0 0 8 eager 1\nirecv 0 0 0 8 2\nwait 1 2\n"
            "cpu 200\nisend 0 1 0 8 eager 1\nirecv 0 1 0 8 2\nwait 1 2\n"
            "cpu 200\nisend 0 2 0 8 eager 1\nirecv 0 2 0 8 2\nwait 1 2\nend\n");

  flows.granularity = "function";
  EXPECT_THROW(comm::predict(flows, tasks, 2, comm::Partitioner::metis), std::invalid_argument);
}

}  // namespace
}  // namespace tareador
