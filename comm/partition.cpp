// Graph partitioning: METIS's k-way partitioner, or consecutive runs.
#include "comm/partition.h"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace tareador::comm {

namespace {

// METIS takes integer weights: scaled so that the largest is 10^6 (and none below 1).
std::vector<idx_t> integer_weights(const std::vector<double>& w) {
  double largest = 0;
  for (double x : w) largest = std::max(largest, x);
  std::vector<idx_t> out;
  out.reserve(w.size());
  for (double x : w)
    out.push_back(
        largest > 0 ? std::max<idx_t>(1, static_cast<idx_t>(std::lround(x / largest * 1e6))) : 1);
  return out;
}

std::vector<int> metis_parts(const WeightedGraph& g, int k) {
  // The undirected graph METIS wants: both directions summed, no self edges, in CSR form.
  std::size_t n = g.node_weights.size();
  std::vector<std::map<std::size_t, double>> adjacent(n);
  for (const WeightedEdge& e : g.edges)
    if (e.from != e.to) {
      adjacent[e.from][e.to] += e.weight;
      adjacent[e.to][e.from] += e.weight;
    }
  std::vector<idx_t> xadj{0}, adjncy;
  std::vector<double> weights;
  for (const auto& row : adjacent) {
    for (const auto& [to, w] : row) {
      adjncy.push_back(static_cast<idx_t>(to));
      weights.push_back(w);
    }
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
  }
  std::vector<idx_t> adjwgt = integer_weights(weights), vwgt = integer_weights(g.node_weights);
  idx_t nvtxs = static_cast<idx_t>(n), ncon = 1, nparts = k, objval = 0;
  std::vector<idx_t> part(n, 0);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;
  options[METIS_OPTION_NCUTS] = 8;  // the best of 8 tries: small graphs, cut matters more than time
  int status = METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr,
                                   adjwgt.empty() ? nullptr : adjwgt.data(), &nparts, nullptr,
                                   nullptr, options, &objval, part.data());
  if (status != METIS_OK)
    throw std::runtime_error("METIS cannot partition the graph (status " + std::to_string(status) +
                             ")");
  // METIS numbers its parts in no particular order: renumbered by their first node, so that the
  // strips of a chain are ranks 0, 1, ... in its order, as an MPI version would number them
  // (and its matrix compares cell by cell with the prediction's).
  std::vector<int> renumbered(static_cast<std::size_t>(k), -1), out;
  int next = 0;
  for (idx_t p : part) {
    int& to = renumbered[static_cast<std::size_t>(p)];
    if (to < 0) to = next++;
    out.push_back(to);
  }
  return out;
}

// Part p holds the nodes whose cumulative weight (at their middle) falls in [p/k, (p+1)/k).
std::vector<int> contiguous_parts(const WeightedGraph& g, int k) {
  double total = 0, before = 0;
  for (double w : g.node_weights) total += w;
  std::vector<int> part;
  for (double w : g.node_weights) {
    int p = static_cast<int>((before + w / 2) / total * k);
    part.push_back(std::min(p, k - 1));
    before += w;
  }
  return part;
}

}  // namespace

Partitioner partitioner_named(const std::string& name) {
  if (name == "metis") return Partitioner::metis;
  if (name == "contiguous") return Partitioner::contiguous;
  throw std::invalid_argument("unknown partitioner '" + name + "' (metis or contiguous)");
}

std::vector<int> partition(const WeightedGraph& g, int k, Partitioner how) {
  std::size_t n = g.node_weights.size();
  if (k < 1 || static_cast<std::size_t>(k) > n)
    throw std::invalid_argument("cannot cut " + std::to_string(n) + " nodes into " +
                                std::to_string(k) + " parts");
  for (double w : g.node_weights)
    if (!(w > 0)) throw std::invalid_argument("node weights must be positive");
  if (k == 1) return std::vector<int>(n, 0);
  return how == Partitioner::metis ? metis_parts(g, k) : contiguous_parts(g, k);
}

}  // namespace tareador::comm
