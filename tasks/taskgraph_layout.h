// taskgraph_layout.h — where the nodes of a task graph go, so that a graph of hundreds of tasks
// reads top-down by dependency depth in a picture of a readable shape (docs/tasks.md, "Layout").
//
// Pure geometry on node sizes and edges (no Graphviz, no trace): the DOT writer turns the result
// into Graphviz input. A graph that fits stays for Graphviz's `dot` to lay out as it is; a wider
// one keeps `dot` with its levels wrapped into rows (rank constraints); one whose edges would
// make `dot` wide again, or a very large one, gets positions computed here.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace tareador::tasks {

struct LayoutInput {
  std::vector<double> width, height;  // of each node, in points (estimated from its label)
  std::vector<std::pair<std::size_t, std::size_t>> edges;  // (from, to), any order, cycles allowed
};

struct Layout {
  enum class Kind {
    Dot,      // Graphviz's dot, unconstrained
    DotRows,  // dot, each of `rows` on one rank, in that order top-down
    Placed,   // the positions below (Graphviz only draws)
  };
  Kind kind = Kind::Dot;
  // DotRows and Placed: the nodes of each row, top-down, each row left to right. A level (the
  // nodes of one depth) is one row, or several when it is wrapped; rows of Placed may also be
  // set side by side in columns when a graph is deep and narrow.
  std::vector<std::vector<std::size_t>> rows;
  // DotRows: edges to add, invisible, that keep the rows in order (from the middle of a row to
  // the middle of the next; column by column between rows of nodes without edges, which makes
  // those a tidy block).
  std::vector<std::pair<std::size_t, std::size_t>> ordering_edges;
  // Placed: the centre of each node in points, y growing downwards, and the extent.
  std::vector<double> x, y;
  double width = 0, height = 0;
};

// Depth of each node: the number of edges on the longest path that reaches it (0: nothing
// before it). Edges that would close a cycle are left out, found by a depth-first search from
// the nodes in order (so that the result is deterministic).
std::vector<int> node_depths(std::size_t nodes,
                             const std::vector<std::pair<std::size_t, std::size_t>>& edges);

// Lays the graph out (deterministic). Graphs of more than `max_nodes` nodes are left to dot
// (they are not drawn; the viewer does not lay them out either).
Layout lay_out(const LayoutInput& input, std::size_t max_nodes = 5000);

}  // namespace tareador::tasks
