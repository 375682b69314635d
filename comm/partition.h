// partition.h — cutting a weighted graph into k parts: with METIS (multilevel k-way, balancing
// the node weights and minimising the weight of the cut edges), or into k runs of consecutive
// nodes of equal weight (strips of a grid whose nodes come in row order).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tareador::comm {

struct WeightedEdge {
  std::size_t from = 0, to = 0;
  double weight = 0;
};

struct WeightedGraph {
  std::vector<double> node_weights;  // one per node, > 0
  std::vector<WeightedEdge> edges;   // directed; self edges and repeats allowed (summed)
};

enum class Partitioner { metis, contiguous };
Partitioner partitioner_named(const std::string& name);  // "metis", "contiguous"

// The part (0 .. k-1) of each node. Throws std::invalid_argument when k < 1 or k exceeds the
// nodes, std::runtime_error when METIS fails. METIS runs with a fixed seed: the same graph
// gives the same parts, numbered in the order of their first node.
std::vector<int> partition(const WeightedGraph& g, int k, Partitioner how);

}  // namespace tareador::comm
