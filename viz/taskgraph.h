// taskgraph.h — a task dependency graph (Graphviz DOT) laid out by Graphviz's library.
//
// The DOT of a trace set (taskgraph.N.dot, written by tareador-tasks for rank N) has one node per
// task instance, or per group of instances (`instances="3-102"`). The viewer reads a node's task
// type from its `type` attribute (else the first word of its label), its instance numbers from
// its `instances` or `instance` attribute (else the digits ending its name, as in `t12`) and its
// rank from its `rank` attribute (else `rank`, given from the file name): a timeline's "Task
// instance" events carry that number on the threads of that rank. The graph is laid out by the
// engine its `layout` attribute names (nop2 where tareador-tasks placed the nodes), else dot;
// invisible edges (style=invis: layout hints) are left out. No Qt here.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tareador::view {

struct Point {
  double x, y;
};

struct TaskGraph {
  struct Node {
    std::string name, label, type;
    std::int64_t instance = -1;  // the first instance it stands for; -1: unknown
    // The instances of a grouped node, as ranges [first, last]; empty for one instance.
    std::vector<std::pair<std::int64_t, std::int64_t>> instances;
    std::uint32_t rank = 0;
    Point centre;  // points (1/72 inch), y growing downwards
    double width, height;
    bool box;              // drawn as a box, else as an ellipse
    bool rounded = false;  // a box with rounded corners
    bool contains(std::int64_t id) const;
  };
  enum class Line { Solid, Dashed, Dotted };
  struct Edge {
    std::size_t from, to;
    std::vector<Point> curve;  // cubic Bezier: start, then three points per segment
    bool arrow = false;        // an arrow head from the curve's end to `tip`
    Point tip{0, 0};
    std::string label;
    Point label_at{0, 0};
    Line line = Line::Solid;
    std::uint32_t colour = 0xff505050;  // ARGB, from a "#rrggbb[aa]" colour
  };
  std::string path;
  std::uint32_t rank = 0;  // the rank of the file (its nodes may say otherwise)
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  double width = 0, height = 0;
  std::string note;  // why there is nothing to show (too large to lay out), or empty

  // The node of a task instance (its own or its group's), or -1.
  std::int64_t node_of_instance(std::uint32_t rank, std::int64_t instance) const;
};

// Reads and lays out a DOT file (Graphviz's dot layout). Throws LoadError.
TaskGraph layout_task_graph(const std::string& dot_path, std::uint32_t rank = 0);

}  // namespace tareador::view
