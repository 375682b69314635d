// flow_graph.h — the producer->consumer communication the tool records with --comm=KIND
// (comm.N.txt of a trace set, docs/trace-format.md; the analysis of "Profiling of data-flow
// dependencies in Java programs using reservoir sampling", for native code): which function,
// line, thread, task type or task instance read the bytes which other one wrote, how many bytes
// and how many loads, exactly or estimated from a reservoir sample with each edge's error.
//
// Read, as a matrix (comm/matrix.h), as a DOT graph (edge width by bytes) and as a report.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "comm/matrix.h"

namespace tareador::comm {

struct FlowEdge {
  std::size_t producer = 0, consumer = 0;  // indices into FlowGraph::nodes
  std::uint64_t bytes = 0, events = 0;     // events: loads that met the producer
  double error = 0;                        // relative error at the sample's confidence (0: exact)
};

// The reservoir a sampled graph comes from: its size, how many loads it holds, and the
// confidence (as z), error and edge fraction its size was chosen for.
struct FlowSample {
  std::uint64_t size = 0, kept = 0, seed = 0;
  double z = 0, error = 0, fraction = 0;
};

struct FlowGraph {
  std::string granularity;           // function, line, thread, task-type, task
  std::uint64_t loads = 0;           // loads the run made while recording
  std::uint64_t unproduced = 0;      // bytes loaded that no recorded store wrote
  std::optional<FlowSample> sample;  // absent: every load was looked up
  std::vector<std::string> nodes;
  std::vector<FlowEdge> edges;  // ordered by (producer, consumer) as in the file

  std::uint64_t total_bytes() const;
};

// Reads comm.N.txt of `rank`. Throws trace::FormatError (path:line) when it is malformed: a
// wrong header or rank, an unknown record, a missing or bad field, an edge naming an undeclared
// node, a node declared twice, no `end` line.
FlowGraph read_flow_graph(const std::string& path, int rank);

// The matrix of the graph: its nodes as labels, row = producer, column = consumer.
Matrix flow_matrix(const FlowGraph& g);

struct FlowDrawOptions {
  std::size_t max_edges = 40;  // the heaviest edges by bytes (0: all); the title says how many
  bool self_edges = true;      // a node's communication with itself (its own stores it reloads)
};
// The graph as DOT: a box per node, an edge per flow whose width grows with its bytes, labelled
// with its bytes (and its error when sampled).
std::string flow_dot(const FlowGraph& g, const FlowDrawOptions& options);

// The edges, heaviest first (at most `max_edges`, 0: all): bytes, loads, share of all bytes and
// the estimated error; with the loads, the sample and the bytes nothing recorded had written.
void write_flow_report(std::ostream& out, const FlowGraph& g, std::size_t max_edges);

// "1.5 MB": a byte count for people (powers of 1000, 3 significant digits).
std::string human_bytes(double bytes);

}  // namespace tareador::comm
