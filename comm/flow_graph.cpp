// The producer->consumer graph: reading comm.N.txt, the matrix, the DOT graph and the report.
#include "comm/flow_graph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

#include "comm/records.h"
#include "tareador/trace.h"

namespace tareador::comm {

namespace {

// "sample SIZE KEPT Z ERROR FRACTION SEED"
FlowSample read_sample(trace::Fields& f) {
  FlowSample s;
  s.size = f.count<std::uint64_t>("SIZE");
  s.kept = f.count<std::uint64_t>("KEPT");
  s.z = f.real("Z");
  s.error = f.real("ERROR");
  s.fraction = f.real("FRACTION");
  s.seed = f.count<std::uint64_t>("SEED");
  f.expect_end("sample");
  if (s.kept > s.size) f.fail("the sample keeps more loads than its size");
  return s;
}

// "edge PRODUCER CONSUMER BYTES EVENTS ERROR", the nodes by the file's ids in `index`.
FlowEdge read_edge(trace::Fields& f, const std::map<std::uint64_t, std::size_t>& index) {
  FlowEdge e;
  for (std::size_t* end : {&e.producer, &e.consumer}) {
    auto id = f.count<std::uint64_t>(end == &e.producer ? "PRODUCER" : "CONSUMER");
    auto it = index.find(id);
    if (it == index.end()) f.fail("node " + std::to_string(id) + " is not declared");
    *end = it->second;
  }
  e.bytes = f.count<std::uint64_t>("BYTES");
  e.events = f.count<std::uint64_t>("EVENTS");
  e.error = f.real("ERROR");
  if (e.error < 0) f.fail("field 'ERROR' is negative");
  f.expect_end("edge");
  return e;
}

// Edges by heaviest first, then by file order.
std::vector<std::size_t> heaviest(const FlowGraph& g, std::size_t max_edges, bool self_edges) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (self_edges || g.edges[i].producer != g.edges[i].consumer) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return g.edges[a].bytes > g.edges[b].bytes;
  });
  if (max_edges > 0 && order.size() > max_edges) order.resize(max_edges);
  return order;
}

std::string dot_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
  return text;
}

// The estimated error of an edge: none when every load was looked up; none that holds under the
// sampled fraction (the normal approximation fails with few samples: an edge seen once in the
// reservoir says 196% at 95% and can be off by far more).
std::string error_text(const FlowGraph& g, const FlowEdge& e) {
  if (!g.sample || e.error <= 0) return "exact";
  if (static_cast<double>(e.events) < g.sample->fraction * static_cast<double>(g.loads))
    return "no bound";
  return "±" + percent(e.error);
}

}  // namespace

std::uint64_t FlowGraph::total_bytes() const {
  return std::accumulate(edges.begin(), edges.end(), std::uint64_t{0},
                         [](std::uint64_t sum, const FlowEdge& e) { return sum + e.bytes; });
}

FlowGraph read_flow_graph(const std::string& path, int rank) {
  RecordFile file(path, "comm", rank);
  FlowGraph g;
  g.granularity = file.header("granularity");
  std::map<std::uint64_t, std::size_t> index;  // the file's node ids -> nodes
  file.read_records("loads, unproduced, sample, node, edge",
                    [&](std::string_view record, trace::Fields& f) {
                      if (record == "loads") {
                        g.loads = f.count<std::uint64_t>("LOADS");
                        f.expect_end("loads");
                      } else if (record == "unproduced") {
                        g.unproduced = f.count<std::uint64_t>("BYTES");
                        f.expect_end("unproduced");
                      } else if (record == "sample") {
                        g.sample = read_sample(f);
                      } else if (record == "node") {
                        auto id = f.count<std::uint64_t>("ID");
                        if (!index.emplace(id, g.nodes.size()).second)
                          f.fail("node " + std::to_string(id) + " is declared twice");
                        g.nodes.push_back(f.name("LABEL"));
                        f.expect_end("node");
                      } else if (record == "edge") {
                        g.edges.push_back(read_edge(f, index));
                      } else {
                        return false;
                      }
                      return true;
                    });
  return g;
}

Matrix flow_matrix(const FlowGraph& g) {
  Matrix m(g.nodes);
  for (const FlowEdge& e : g.edges)
    m.add(e.producer, e.consumer, static_cast<double>(e.bytes), static_cast<double>(e.events));
  return m;
}

std::string human_bytes(double bytes) {
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  std::size_t unit = 0;
  while (bytes >= 999.5 && unit + 1 < std::size(kUnits)) {
    bytes /= 1000;
    ++unit;
  }
  char text[32];
  if (unit == 0) std::snprintf(text, sizeof text, "%.0f B", bytes);
  else std::snprintf(text, sizeof text, "%.3g %s", bytes, kUnits[unit]);
  return text;
}

std::string flow_dot(const FlowGraph& g, const FlowDrawOptions& options) {
  std::vector<std::size_t> shown = heaviest(g, options.max_edges, options.self_edges);
  std::vector<bool> drawn(g.nodes.size(), false);
  double heaviest_bytes = 1;
  for (std::size_t i : shown) {
    drawn[g.edges[i].producer] = drawn[g.edges[i].consumer] = true;
    heaviest_bytes = std::max(heaviest_bytes, static_cast<double>(g.edges[i].bytes));
  }
  std::ostringstream out;
  out << "digraph comm {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\", "
         "fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9, color=\"#3182bd\"];\n";
  std::string title = "producer -> consumer by " + g.granularity + ": " +
                      human_bytes(static_cast<double>(g.total_bytes()));
  if (g.sample) title += " (estimated from " + std::to_string(g.sample->kept) + " loads)";
  if (shown.size() < g.edges.size())
    title += ", the " + std::to_string(shown.size()) + " heaviest of " +
             std::to_string(g.edges.size()) + " edges";
  out << "  label=" << dot_quoted(title) << ";\n  labelloc=t;\n  fontname=\"Helvetica\";\n";
  for (std::size_t n = 0; n < g.nodes.size(); ++n)
    if (drawn[n]) out << "  n" << n << " [label=" << dot_quoted(g.nodes[n]) << "];\n";
  for (std::size_t i : shown) {
    const FlowEdge& e = g.edges[i];
    // Width from 1 to 8 points with the square root of the bytes: areas follow the bytes.
    double width = 1 + 7 * std::sqrt(static_cast<double>(e.bytes) / heaviest_bytes);
    std::string label = human_bytes(static_cast<double>(e.bytes));
    if (g.sample) {
      std::string error = error_text(g, e);
      label += error.rfind("±", 0) == 0 ? " " + error : " (" + error + ")";
    }
    char w[32];
    std::snprintf(w, sizeof w, "%.2f", width);
    out << "  n" << e.producer << " -> n" << e.consumer << " [penwidth=" << w
        << ", label=" << dot_quoted(label) << "];\n";
  }
  out << "}\n";
  return out.str();
}

void write_flow_report(std::ostream& out, const FlowGraph& g, std::size_t max_edges) {
  double total = static_cast<double>(g.total_bytes());
  out << "producer -> consumer communication by " << g.granularity << ": " << human_bytes(total)
      << " in " << g.edges.size() << " edges, " << g.loads << " loads";
  if (g.sample) {
    char z[32];
    std::snprintf(z, sizeof z, "%.2f", g.sample->z);
    out << "\nsampled: " << g.sample->kept << " loads in the reservoir (size " << g.sample->size
        << "), errors at z = " << z << "; edges under " << percent(g.sample->fraction)
        << " of the loads have no error bound";
  } else {
    out << " (exact)";
  }
  out << "\nbytes nothing recorded had written (the loader's, the kernel's): "
      << human_bytes(static_cast<double>(g.unproduced)) << "\n\n";
  out << "       bytes        loads   share    error  producer -> consumer\n";
  for (std::size_t i : heaviest(g, max_edges, true)) {
    const FlowEdge& e = g.edges[i];
    char row[96];
    std::snprintf(row, sizeof row, "%12llu %12llu %7s ", static_cast<unsigned long long>(e.bytes),
                  static_cast<unsigned long long>(e.events),
                  percent(total > 0 ? static_cast<double>(e.bytes) / total : 0).c_str());
    // "±" is two bytes of UTF-8 and one column: padded by hand.
    std::string error = error_text(g, e);
    std::size_t columns = error.size() - (error.rfind("±", 0) == 0 ? 1 : 0);
    out << row << std::string(columns < 8 ? 8 - columns : 0, ' ') << error << "  "
        << g.nodes[e.producer] << " -> " << g.nodes[e.consumer] << "\n";
  }
  if (max_edges > 0 && g.edges.size() > max_edges)
    out << "(" << g.edges.size() - max_edges << " lighter edges not shown)\n";
}

}  // namespace tareador::comm
