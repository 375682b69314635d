// Task graphs: read with cgraph, laid out with Graphviz's dot, copied into plain structs.
#include <graphviz/gvc.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <regex>
#include <unordered_map>

#include "tareador/trace.h"
#include "viz/taskgraph.h"
#include "viz/timeline.h"

namespace tareador::view {

bool TaskGraph::Node::contains(std::int64_t id) const {
  if (instances.empty()) return id == instance;
  for (auto [first, last] : instances)
    if (id >= first && id <= last) return true;
  return false;
}

std::int64_t TaskGraph::node_of_instance(std::uint32_t rank, std::int64_t instance) const {
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].rank == rank && nodes[i].contains(instance)) return static_cast<std::int64_t>(i);
  return -1;
}

namespace {

// Laying out takes seconds beyond this; the panel says so instead.
constexpr int kMaxNodes = 3000;

// cgraph reports errors through one global callback: collect them while we read.
std::mutex graphviz_mutex;
std::string graphviz_errors;
int collect_error(char* message) {
  graphviz_errors += message;
  return 0;
}

std::string attribute(void* object, const char* name) {
  char* value = agget(object, const_cast<char*>(name));
  return value ? value : "";
}

std::string first_word(const std::string& label) {
  std::size_t end = 0;
  while (end < label.size() && !std::isspace(static_cast<unsigned char>(label[end])) &&
         label[end] != '#' && label[end] != '(' && label[end] != ':')
    ++end;
  return label.substr(0, end);
}

// DOT's line breaks in a label (\n, \l, \r: centred, left, right) as plain ones.
std::string line_breaks(const std::string& label) {
  std::string text;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if (label[i] == '\\' && i + 1 < label.size() && std::strchr("nlr", label[i + 1])) {
      if (i + 2 < label.size()) text += '\n';  // a break at the very end adds no line
      ++i;
    } else {
      text += label[i];
    }
  }
  return text;
}

std::int64_t trailing_number(const std::string& text) {
  std::size_t start = text.size();
  while (start > 0 && std::isdigit(static_cast<unsigned char>(text[start - 1]))) --start;
  if (start == text.size() || text.size() - start > 18) return -1;
  return std::stoll(text.substr(start));
}

// "3-102,120": ranges of instance numbers; empty when malformed.
std::vector<std::pair<std::int64_t, std::int64_t>> instance_ranges(const std::string& text) {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  static const std::regex range("([0-9]{1,18})(?:-([0-9]{1,18}))?");
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    std::smatch m;
    std::string item = text.substr(at, end - at);
    if (!std::regex_match(item, m, range)) return {};
    std::int64_t first = std::stoll(m[1]);
    ranges.emplace_back(first, m[2].matched ? std::stoll(m[2]) : first);
    at = end + 1;
  }
  return ranges;
}

// "#rrggbb" or "#rrggbbaa" as ARGB; `fallback` for anything else (a colour name).
std::uint32_t argb(const std::string& colour, std::uint32_t fallback) {
  if (colour.size() != 7 && colour.size() != 9) return fallback;
  if (colour[0] != '#' ||
      colour.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos)
    return fallback;
  auto value = static_cast<std::uint32_t>(std::stoul(colour.substr(1, 6), nullptr, 16));
  std::uint32_t alpha = colour.size() == 9
                            ? static_cast<std::uint32_t>(std::stoul(colour.substr(7), nullptr, 16))
                            : 0xff;
  return alpha << 24 | value;
}

}  // namespace

TaskGraph layout_task_graph(const std::string& dot_path, std::uint32_t rank) {
  trace::InputFile input;  // a regular file, opened without blocking (a FIFO is refused)
  try {
    input = trace::open_input_file(dot_path);
  } catch (const trace::FormatError& e) {
    throw LoadError(dot_path, 0, e.message());
  }
  std::unique_ptr<FILE, int (*)(FILE*)> file(::fdopen(input.fd, "r"), std::fclose);
  if (!file) {
    ::close(input.fd);
    throw LoadError(dot_path, 0, trace::system_error_text(errno));
  }
  std::lock_guard<std::mutex> lock(graphviz_mutex);
  graphviz_errors.clear();
  agusererrf previous = agseterrf(collect_error);
  agreadline(0);  // the lexer counts lines across reads: restart for this file
  Agraph_t* graph = agread(file.get(), nullptr);
  agseterrf(previous);
  if (!graph) {
    // "syntax error in line 3 near 'x'": keep the line for file:line.
    std::smatch m;
    std::uint64_t line = 0;
    if (std::regex_search(graphviz_errors, m, std::regex("line ([0-9]+)")))
      line = std::stoull(m[1]);
    std::string message = graphviz_errors;
    while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back())))
      message.pop_back();
    if (message.rfind("Error: ", 0) == 0) message.erase(0, 7);
    throw LoadError(dot_path, line, message.empty() ? "not a DOT graph" : message);
  }
  TaskGraph result;
  result.path = dot_path;
  result.rank = rank;
  int count = agnnodes(graph);
  if (count > kMaxNodes) {
    result.note = std::to_string(count) +
                  " task instances: too many to lay out (the panel shows up to " +
                  std::to_string(kMaxNodes) + ")";
    agclose(graph);
    return result;
  }
  GVC_t* context = gvContext();
  agerrlevel_t level = agseterr(AGERR);  // layout warnings (an HTML label's cells) are noise here
  std::string engine = attribute(graph, "layout");
  int failed = gvLayout(context, graph, engine.empty() ? "dot" : engine.c_str());
  agseterr(level);
  if (failed != 0) {
    agclose(graph);
    gvFreeContext(context);
    throw LoadError(dot_path, 0, "Graphviz could not lay the graph out");
  }
  boxf bb = GD_bb(graph);
  result.width = bb.UR.x - bb.LL.x;
  result.height = bb.UR.y - bb.LL.y;
  auto flip = [&](pointf p) { return Point{p.x - bb.LL.x, bb.UR.y - p.y}; };
  std::unordered_map<Agnode_t*, std::size_t> index_of;
  for (Agnode_t* n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
    TaskGraph::Node node;
    node.name = agnameof(n);
    node.label = ND_label(n) && ND_label(n)->text ? line_breaks(ND_label(n)->text) : node.name;
    node.type = attribute(n, "type");
    if (node.type.empty()) node.type = first_word(node.label);
    std::string instance = attribute(n, "instance");
    node.instance = trailing_number(instance.empty() ? node.name : instance);
    node.instances = instance_ranges(attribute(n, "instances"));
    if (!node.instances.empty()) node.instance = node.instances.front().first;
    std::int64_t node_rank = trailing_number(attribute(n, "rank"));
    node.rank = node_rank >= 0 ? static_cast<std::uint32_t>(node_rank) : rank;
    node.centre = flip(ND_coord(n));
    node.width = ND_width(n) * 72;
    node.height = ND_height(n) * 72;
    std::string shape = attribute(n, "shape");
    node.box = shape == "box" || shape == "rect" || shape == "rectangle" || shape == "square";
    node.rounded = attribute(n, "style").find("rounded") != std::string::npos;
    index_of[n] = result.nodes.size();
    result.nodes.push_back(node);
  }
  for (Agnode_t* n = agfstnode(graph); n; n = agnxtnode(graph, n))
    for (Agedge_t* e = agfstout(graph, n); e; e = agnxtout(graph, e)) {
      std::string style = attribute(e, "style");
      if (style.find("invis") != std::string::npos) continue;
      TaskGraph::Edge edge;
      edge.line = style.find("dashed") != std::string::npos   ? TaskGraph::Line::Dashed
                  : style.find("dotted") != std::string::npos ? TaskGraph::Line::Dotted
                                                              : TaskGraph::Line::Solid;
      edge.colour = argb(attribute(e, "color"), edge.colour);
      edge.from = index_of[agtail(e)];
      edge.to = index_of[aghead(e)];
      if (splines* spl = ED_spl(e); spl && spl->size > 0) {
        const bezier& b = spl->list[0];
        for (int i = 0; i < b.size; ++i) edge.curve.push_back(flip(b.list[i]));
        edge.arrow = b.eflag != 0;
        edge.tip = flip(b.ep);
      }
      if (textlabel_t* label = ED_label(e); label && label->text) {
        edge.label = label->text;
        edge.label_at = flip(label->pos);
      }
      result.edges.push_back(edge);
    }
  gvFreeLayout(context, graph);
  agclose(graph);
  gvFreeContext(context);
  return result;
}

}  // namespace tareador::view
