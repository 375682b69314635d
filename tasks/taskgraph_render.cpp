// The task dependency graph: built from a task set, grouped when large, laid out, written as
// DOT and rendered with Graphviz's library.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/function_property_map.hpp>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "tasks/taskgraph.h"
#include "tasks/taskgraph_layout.h"

namespace tareador::tasks {

namespace trace = tareador::trace;

namespace {

constexpr std::size_t kMaxEdgeObjects = 3;  // object names on an edge label before "+N more"
constexpr const char* kCreationColor = "#3182bd";
// Node sizes as Graphviz gives them to labels in 10-point Helvetica (DejaVu Sans here, about
// 5.2 points a character; a little more, so that the estimate errs on the large side): at least
// 0.75 x 0.5 inch, the text plus margins of 0.11 and 0.055 inch.
constexpr double kCharWidth = 6, kLineHeight = 12;

// A DOT quoted string (lines separated by '\n' become DOT's centred line breaks).
std::string dot_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string html_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void merge_objects(std::vector<int>& into, trace::Span<const int> objects) {
  for (int o : objects)
    if (std::find(into.begin(), into.end(), o) == into.end()) into.push_back(o);
}

// "3-12,20,31-40": instance ids (ascending) as ranges.
std::string id_ranges(const std::vector<int>& ids, const std::string& prefix,
                      std::size_t max_ranges = SIZE_MAX) {
  std::vector<std::string> ranges;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    ranges.push_back(prefix + std::to_string(ids[i]) +
                     (j > i ? "-" + prefix + std::to_string(ids[j]) : std::string()));
    i = j + 1;
  }
  if (ranges.size() > max_ranges)
    return ranges.front() + " ... " + prefix + std::to_string(ids.back());
  return join(ranges, ",");
}

std::vector<std::pair<std::size_t, std::size_t>> edge_list(const TaskGraph& graph) {
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (auto e : boost::make_iterator_range(boost::edges(graph)))
    edges.emplace_back(boost::source(e, graph), boost::target(e, graph));
  return edges;
}

}  // namespace

// ---- Building and grouping ------------------------------------------------------------------------

TaskGraph build_graph(const trace::TaskSet& set, const GraphOptions& options) {
  TaskGraph g;
  std::vector<long> vertex_of(set.instances.size() + 1, -1);
  auto vertex = [&](int id) {
    return id >= 1 && static_cast<std::size_t>(id) < vertex_of.size()
               ? vertex_of[static_cast<std::size_t>(id)]
               : -1;
  };
  for (const trace::TaskInstance& t : set.instances) {
    if (t.id == 1 && !options.with_main) continue;
    if (t.id < 1 || static_cast<std::size_t>(t.id) > set.instances.size()) continue;
    TaskVertex v;
    v.instance = t.id;
    v.type = t.type;
    v.instructions = t.instructions;
    v.mpi = t.mpi;
    vertex_of[static_cast<std::size_t>(t.id)] = static_cast<long>(boost::add_vertex(v, g));
  }
  // Several `after` records between one pair become one edge.
  std::map<std::pair<long, long>, TaskGraph::edge_descriptor> edge_of;
  for (const trace::TaskInstance& t : set.instances) {
    long to = vertex(t.id);
    if (to < 0) continue;
    for (const trace::TaskDependency& d : set.after(t)) {
      long from = vertex(d.from);
      if (from < 0) continue;
      auto found = edge_of.find({from, to});
      if (found == edge_of.end()) {
        TaskEdge e;
        e.kinds = d.kinds;
        e.bytes = d.bytes;
        merge_objects(e.objects, set.objects_of(d));
        edge_of[{from, to}] =
            boost::add_edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), e, g)
                .first;
      } else {
        TaskEdge& e = g[found->second];
        e.kinds |= d.kinds;
        e.bytes += d.bytes;
        merge_objects(e.objects, set.objects_of(d));
      }
    }
  }
  if (options.creation_edges)
    for (const trace::TaskInstance& t : set.instances) {
      long from = vertex(t.id);
      if (from < 0) continue;
      for (int child : set.children(t))
        if (long to = vertex(child); to >= 0) {
          TaskEdge e;
          e.creation = true;
          boost::add_edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), e, g);
        }
    }
  return g;
}

TaskGraph group_graph(const TaskGraph& graph) {
  const std::size_t n = boost::num_vertices(graph);
  std::vector<int> depth = node_depths(n, edge_list(graph));
  // Blocks: first the runs of consecutive instances of a type at one depth (MPI or not).
  std::vector<std::size_t> block_of(n);
  std::size_t blocks = 0;
  {
    std::map<int, std::size_t> last_of_type;
    for (std::size_t v = 0; v < n; ++v) {
      const TaskVertex& tv = graph[v];
      auto last = last_of_type.find(tv.type);
      if (last != last_of_type.end() && depth[last->second] == depth[v] &&
          graph[last->second].mpi == tv.mpi)
        block_of[v] = block_of[last->second];
      else block_of[v] = blocks++;
      last_of_type[tv.type] = v;
    }
  }
  // Then split until every member of a block has the same blocks before and after it (kind of
  // edge included): where a run's members differ, it is cut into runs that agree.
  for (;;) {
    using Signature = std::vector<std::pair<std::size_t, int>>;  // (block, 2 * creation + out)
    std::vector<Signature> signature(n);
    for (auto e : boost::make_iterator_range(boost::edges(graph))) {
      std::size_t from = boost::source(e, graph), to = boost::target(e, graph);
      int kind = graph[e].creation ? 2 : 0;
      signature[from].push_back({block_of[to], kind + 1});
      signature[to].push_back({block_of[from], kind});
    }
    for (Signature& s : signature) {
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
    }
    std::vector<std::size_t> last_in_block(blocks, SIZE_MAX);
    std::vector<std::size_t> renamed(n);
    std::size_t count = 0;
    for (std::size_t v = 0; v < n; ++v) {
      std::size_t last = last_in_block[block_of[v]];
      renamed[v] = last != SIZE_MAX && signature[last] == signature[v] ? renamed[last] : count++;
      last_in_block[block_of[v]] = v;
    }
    bool stable = count == blocks;
    block_of = std::move(renamed);
    blocks = count;
    if (stable) break;
  }
  // One vertex per block, in the order of their first instances; edges merged per pair of
  // blocks (and kind), in the order they are met.
  TaskGraph grouped;
  std::vector<long> vertex_of_block(blocks, -1);
  for (std::size_t v = 0; v < n; ++v) {
    const TaskVertex& tv = graph[v];
    long& b = vertex_of_block[block_of[v]];
    if (b < 0) {
      TaskVertex first = tv;
      first.group.clear();
      b = static_cast<long>(boost::add_vertex(first, grouped));
      continue;
    }
    TaskVertex& group = grouped[static_cast<std::size_t>(b)];
    if (group.group.empty()) group.group.push_back(group.instance);
    group.group.push_back(tv.instance);
    group.instructions += tv.instructions;
  }
  std::map<std::tuple<long, long, bool>, TaskGraph::edge_descriptor> edge_of;
  for (auto e : boost::make_iterator_range(boost::edges(graph))) {
    const TaskEdge& te = graph[e];
    long from = vertex_of_block[block_of[boost::source(e, graph)]];
    long to = vertex_of_block[block_of[boost::target(e, graph)]];
    if (from == to) continue;  // only through an edge that closes a cycle: nothing to draw
    auto key = std::make_tuple(from, to, te.creation);
    auto found = edge_of.find(key);
    if (found == edge_of.end()) {
      edge_of[key] =
          boost::add_edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), te, grouped)
              .first;
      continue;
    }
    TaskEdge& merged = grouped[found->second];
    merged.kinds |= te.kinds;
    merged.bytes += te.bytes;
    merged.count += te.count;
    merge_objects(merged.objects, {te.objects.data(), te.objects.size()});
  }
  return grouped;
}

// ---- Labels -----------------------------------------------------------------------------------------

std::string node_label(const trace::TaskSet& set, const TaskVertex& v) {
  std::string label = v.group.empty()
                          ? type_name(set, v.type) + " #" + std::to_string(v.instance) + "\n" +
                                format_count(v.instructions) + " instr"
                          : type_name(set, v.type) + " x " + std::to_string(v.group.size()) + "\n" +
                                id_ranges(v.group, "#", 2) + "\n" + format_count(v.instructions) +
                                " instr";
  if (v.mpi) label += "\nMPI";
  return label;
}

std::string edge_label(const trace::TaskSet& set, const TaskEdge& e) {
  if (e.creation) return e.count > 1 ? std::to_string(e.count) + " created" : std::string();
  // Objects of one name (the blocks of one allocation site) are named once, with their count,
  // in the order they first appear.
  std::vector<std::pair<std::string, int>> named;
  std::unordered_map<std::string, std::size_t> index;
  for (int object : e.objects) {
    std::string name = object_name(set, object);
    auto [at, added] = index.try_emplace(name, named.size());
    if (added) named.emplace_back(std::move(name), 1);
    else ++named[at->second].second;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < named.size() && i < kMaxEdgeObjects; ++i)
    names.push_back(named[i].second > 1
                        ? named[i].first + " (" + std::to_string(named[i].second) + " objects)"
                        : named[i].first);
  if (named.size() > kMaxEdgeObjects)
    names.push_back("+" + std::to_string(named.size() - kMaxEdgeObjects) + " more");
  std::string label = join(names, ", ");
  std::string detail = format_bytes(e.bytes);
  if (e.kinds != trace::kRaw) detail += ", " + format_kinds(e.kinds);
  label = label.empty() ? detail : label + " (" + detail + ")";
  return e.count > 1 ? std::to_string(e.count) + " dependencies: " + label : label;
}

// ---- DOT ----------------------------------------------------------------------------------------------

namespace {

// What the DOT of a graph says besides its nodes and edges: the colours of the types, the
// counts of the legend, the labels and the layout.
struct Drawing {
  std::vector<std::string> colors;            // per type
  std::vector<std::size_t> instances, nodes;  // per type
  bool any_mpi = false, any_group = false, any_creation = false;
  std::uint8_t kinds_seen = 0;
  std::vector<std::string> labels;  // per vertex
  Layout layout;
};

Drawing draw(const trace::TaskSet& set, const TaskGraph& graph) {
  Drawing d;
  d.colors = type_colors(set);
  d.instances.assign(set.types.size(), 0);
  d.nodes.assign(set.types.size(), 0);
  LayoutInput sizes;
  for (auto v : boost::make_iterator_range(boost::vertices(graph))) {
    const TaskVertex& tv = graph[v];
    if (tv.type >= 0 && static_cast<std::size_t>(tv.type) < d.instances.size()) {
      d.instances[static_cast<std::size_t>(tv.type)] += std::max<std::size_t>(1, tv.group.size());
      ++d.nodes[static_cast<std::size_t>(tv.type)];
    }
    d.any_mpi = d.any_mpi || tv.mpi;
    d.any_group = d.any_group || !tv.group.empty();
    d.labels.push_back(node_label(set, tv));
    std::size_t lines = 1, longest = 0, line = 0;
    for (char c : d.labels.back()) {
      if (c == '\n') {
        ++lines;
        line = 0;
      } else {
        longest = std::max(longest, ++line);
      }
    }
    sizes.width.push_back(std::max(54.0, kCharWidth * static_cast<double>(longest) + 16));
    sizes.height.push_back(std::max(36.0, kLineHeight * static_cast<double>(lines) + 8));
  }
  for (auto e : boost::make_iterator_range(boost::edges(graph))) {
    d.kinds_seen |= graph[e].kinds;
    d.any_creation = d.any_creation || graph[e].creation;
  }
  sizes.edges = edge_list(graph);
  d.layout = lay_out(sizes);
  return d;
}

std::string vertex_name(const TaskGraph& graph, std::size_t v) {
  return "t" + std::to_string(graph[v].instance);
}

// The legend: the graph's own label (an HTML table), so that it adds no node. Two columns, the
// swatches and the text; every line of text is in the second, so that the first stays as
// narrow as a swatch.
void write_legend(std::ostream& os, const trace::TaskSet& set, const Drawing& d,
                  const std::string& title) {
  auto row = [&os](const std::string& html) {
    os << "<TR><TD></TD><TD ALIGN=\"LEFT\">" << html << "</TD></TR>\n";
  };
  os << "label=<<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"1\">\n";
  row("<B>" + html_escaped(title) + "</B>");
  for (std::size_t t = 0; t < set.types.size(); ++t) {
    if (!d.instances[t]) continue;
    os << "<TR><TD BGCOLOR=\"" << d.colors[t]
       << "\" BORDER=\"1\" WIDTH=\"18\" HEIGHT=\"12\" FIXEDSIZE=\"TRUE\"> </TD>"
       << "<TD ALIGN=\"LEFT\">" << html_escaped(set.types[t]) << ": " << d.instances[t]
       << (d.instances[t] == 1 ? " instance" : " instances");
    if (d.nodes[t] != d.instances[t])
      os << " in " << d.nodes[t] << (d.nodes[t] == 1 ? " node" : " nodes");
    os << "</TD></TR>\n";
  }
  row("edge A &#8594; B: B waits for A; " +
      std::string(d.layout.kind == Layout::Kind::Dot ? "label" : "tooltip") + ": objects (bytes)");
  std::vector<std::string> styles = {"solid: read after write"};
  if (d.kinds_seen & trace::kWar) styles.push_back("dashed: write after read only");
  if (d.kinds_seen & trace::kWaw) styles.push_back("dotted: write after write only");
  row(html_escaped(join(styles, "; ")));
  if (d.any_creation)
    row("<FONT COLOR=\"" + std::string(kCreationColor) + "\">dashed blue: A created B</FONT>");
  if (d.any_group)
    row("TYPE x N: N instances of a type at one depth, with the same nodes before and after");
  if (d.any_mpi) row("double border: the task makes MPI calls");
  os << "</TABLE>>;\n";
}

void write_graph_attributes(std::ostream& os, const trace::TaskSet& set, const TaskGraph& graph,
                            const Drawing& d, const std::string& title) {
  const Layout& layout = d.layout;
  os << "graph [rankdir=TB, fontname=\"Helvetica\", fontsize=10, labelloc=b, labeljust=l";
  if (layout.kind == Layout::Kind::DotRows) os << ", newrank=true";
  // Positions in points (nop2: Graphviz's `neato -n2`), straight edges from the bottom of a
  // node to the top of the next, drawn under the nodes.
  if (layout.kind == Layout::Kind::Placed)
    os << ", layout=nop2, splines=line, outputorder=edgesfirst";
  os << "];\n";
  os << "node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", fontsize=10];\n";
  os << "edge [fontname=\"Helvetica\", fontsize=8";
  if (layout.kind == Layout::Kind::Placed)
    os << ", tailport=s, headport=n, color=\"#00000099\", arrowsize=0.6";
  os << "];\n";
  if (layout.kind == Layout::Kind::DotRows) {
    // Each row on its rank; invisible edges keep them in order.
    for (const auto& row : layout.rows) {
      os << "{rank=same;";
      for (std::size_t v : row) os << " " << vertex_name(graph, v) << ";";
      os << "}\n";
    }
    for (auto [from, to] : layout.ordering_edges)
      os << vertex_name(graph, from) << "->" << vertex_name(graph, to) << " [style=invis];\n";
  }
  write_legend(os, set, d, title);
}

}  // namespace

void write_dot(std::ostream& out, const trace::TaskSet& set, const TaskGraph& graph,
               const std::string& title) {
  const Drawing d = draw(set, graph);
  // Wrapped and placed graphs have too many edges for their labels: those become tooltips
  // (an SVG shows them under the mouse).
  const char* edge_text = d.layout.kind == Layout::Kind::Dot ? "label" : "tooltip";
  auto vertex_writer = [&](std::ostream& os, TaskGraph::vertex_descriptor v) {
    const TaskVertex& tv = graph[v];
    std::string color = tv.type >= 0 && static_cast<std::size_t>(tv.type) < d.colors.size()
                            ? d.colors[static_cast<std::size_t>(tv.type)]
                            : std::string("#ffffff");
    os << " [label=" << dot_quoted(d.labels[v]) << ", fillcolor=\"" << color
       << "\", type=" << dot_quoted(type_name(set, tv.type)) << ", instance=" << tv.instance;
    if (!tv.group.empty())
      os << ", instances=\"" << id_ranges(tv.group, "") << "\", count=" << tv.group.size();
    if (tv.mpi) os << ", peripheries=2";
    if (d.layout.kind == Layout::Kind::Placed) {
      char pos[64];
      std::snprintf(pos, sizeof pos, "%.1f,%.1f", d.layout.x[v], d.layout.height - d.layout.y[v]);
      os << ", pos=\"" << pos << "\"";
    }
    os << "]";
  };
  auto edge_writer = [&](std::ostream& os, TaskGraph::edge_descriptor e) {
    const TaskEdge& te = graph[e];
    std::string text = edge_label(set, te);
    os << " [";
    if (!text.empty()) os << edge_text << "=" << dot_quoted(text) << ", ";
    if (te.creation) {
      os << "style=dashed, color=\"" << kCreationColor << "\", arrowhead=empty, creation=true";
    } else {
      const char* style = (te.kinds & trace::kRaw)   ? "solid"
                          : (te.kinds & trace::kWar) ? "dashed"
                                                     : "dotted";
      os << "style=" << style << ", kinds=\"" << format_kinds(te.kinds) << "\", bytes=" << te.bytes;
    }
    if (te.count > 1) os << ", count=" << te.count;
    os << "]";
  };
  auto graph_writer = [&](std::ostream& os) { write_graph_attributes(os, set, graph, d, title); };
  boost::write_graphviz(
      out, graph, vertex_writer, edge_writer, graph_writer,
      boost::make_function_property_map<TaskGraph::vertex_descriptor, std::string>(
          [&graph](std::size_t v) { return vertex_name(graph, v); }));
}

// ---- Rendering with libgvc ----------------------------------------------------------------------------

namespace {
std::mutex graphviz_mutex;  // Graphviz reports errors through one global callback
std::string graphviz_errors;
int collect_graphviz_error(char* message) {
  graphviz_errors += message;
  return 0;
}
std::string graphviz_message(const std::string& fallback) {
  std::string m = graphviz_errors;
  while (!m.empty() && std::isspace(static_cast<unsigned char>(m.back()))) m.pop_back();
  for (std::size_t at; (at = m.find('\n')) != std::string::npos;) m[at] = ' ';
  return m.empty() ? fallback : m;
}
}  // namespace

void render_dot(const std::string& dot, const std::string& format, const std::string& path,
                const std::function<void(const std::string&)>& stage) {
  if (format != "svg" && format != "png")
    throw std::runtime_error("cannot render to '" + format + "' (svg or png)");
  std::lock_guard<std::mutex> lock(graphviz_mutex);
  graphviz_errors.clear();
  agusererrf previous = agseterrf(collect_graphviz_error);
  agerrlevel_t previous_level = agseterr(AGERR);
  // One context for the process, never freed: Graphviz 2.42's text layout (the pango plugin)
  // keeps a pointer to a font name that a context owns, so a second context would read what
  // the first one freed.
  static GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  auto cleanup = [&](bool laid_out) {
    if (g && laid_out) gvFreeLayout(gvc, g);
    if (g) agclose(g);
    agseterrf(previous);
    agseterr(previous_level);
  };
  if (!g) {
    std::string message = graphviz_message("not a DOT graph");
    cleanup(false);
    throw std::runtime_error("Graphviz cannot read the graph: " + message);
  }
  // A bitmap of a large graph: at most 80 x 80 inches (7680 pixels at 96 dpi), which keeps the
  // renderer's memory bounded (SVG has no such limit).
  if (format == "png") {
    char* size = agget(g, const_cast<char*>("size"));
    if (size == nullptr || *size == '\0')
      agsafeset(g, const_cast<char*>("size"), const_cast<char*>("80,80"), const_cast<char*>(""));
  }
  // The engine the graph names (nop2 where write_dot placed the nodes), else dot.
  char* engine = agget(g, const_cast<char*>("layout"));
  if (stage) stage("layout");
  if (gvLayout(gvc, g, engine && *engine ? engine : "dot") != 0) {
    std::string message = graphviz_message("layout failed");
    cleanup(false);
    throw std::runtime_error("Graphviz cannot lay the graph out: " + message);
  }
  if (stage) stage("render");
  if (gvRenderFilename(gvc, g, format.c_str(), path.c_str()) != 0) {
    std::string message = graphviz_message("rendering failed");
    cleanup(true);
    throw std::runtime_error(path + ": Graphviz cannot render " + format + ": " + message);
  }
  cleanup(true);
}

}  // namespace tareador::tasks
