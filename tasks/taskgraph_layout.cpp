// Layered layout of task graphs: levels by depth, an order within levels by barycentres, and
// the choice between dot as it is, dot with wrapped levels, and positions computed here.
#include "tasks/taskgraph_layout.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace tareador::tasks {

namespace {

// What dot does with default attributes, in points: space between nodes of a rank, between
// ranks, and what an edge passing through a rank costs there (dot routes it through a virtual
// node, which takes a node separation).
constexpr double kNodeSep = 18, kRankSep = 36, kPassingEdge = 20;
// A picture up to this wide (or high) is left as dot draws it, whatever its shape: it reads
// on a screen. Beyond, dot's levels are wrapped when that keeps the estimate within
// kDotAspect, and graphs of more than kDotMaxNodes nodes, or whose wrapped levels dot would
// widen again with the edges passing through them, are placed here aiming at kTargetAspect.
constexpr double kPlainExtent = 1200, kDotAspect = 2, kTargetAspect = 1.5;
constexpr std::size_t kDotMaxNodes = 400;
// Placed layouts: gaps between nodes of a row, rows of one level, levels, and columns.
constexpr double kColumnGap = 16, kRowGap = 14, kLevelGap = 40, kFoldGap = 60;
constexpr int kOrderSweeps = 8;  // barycentre passes, each down then up

using Edges = std::vector<std::pair<std::size_t, std::size_t>>;
using Rows = std::vector<std::vector<std::size_t>>;

// Levels by depth; in each, the nodes without edges in index order, then those with (so that
// where a level is wrapped, no edge crosses the rows of the nodes without).
Rows levels_of(std::size_t n, const std::vector<int>& depth, const Edges& edges) {
  std::vector<bool> linked(n, false);
  for (auto [from, to] : edges) linked[from] = linked[to] = true;
  Rows levels(static_cast<std::size_t>(*std::max_element(depth.begin(), depth.end())) + 1);
  for (bool with_edges : {false, true})
    for (std::size_t v = 0; v < n; ++v)
      if (linked[v] == with_edges) levels[static_cast<std::size_t>(depth[v])].push_back(v);
  return levels;
}

// Orders each level by the mean position of the nodes' neighbours in the level above (down
// sweeps) or below (up sweeps); nodes without such neighbours keep their place, and nodes
// without any edge stay first. Positions are fractions of the level, so that a wrapped level
// (a long line cut into rows) follows the one before it.
void order_levels(Rows& levels, std::size_t n, const std::vector<int>& depth, const Edges& edges) {
  std::vector<std::vector<std::size_t>> above(n), below(n);
  for (auto [from, to] : edges)
    if (depth[to] > depth[from]) {
      below[from].push_back(to);
      above[to].push_back(from);
    }
  std::vector<double> position(n);
  auto place = [&](const std::vector<std::size_t>& level) {
    for (std::size_t i = 0; i < level.size(); ++i)
      position[level[i]] = (static_cast<double>(i) + 0.5) / static_cast<double>(level.size());
  };
  for (const auto& level : levels) place(level);
  auto sweep = [&](std::vector<std::size_t>& level,
                   const std::vector<std::vector<std::size_t>>& neighbours) {
    std::vector<std::tuple<bool, double, std::size_t>> keys;
    for (std::size_t v : level) {
      const auto& near = neighbours[v];
      bool linked = !above[v].empty() || !below[v].empty();
      double key = position[v];
      if (!near.empty()) {
        key = 0;
        for (std::size_t u : near) key += position[u];
        key /= static_cast<double>(near.size());
      }
      keys.emplace_back(linked, key, v);
    }
    std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    for (std::size_t i = 0; i < level.size(); ++i) level[i] = std::get<2>(keys[i]);
    place(level);
  };
  for (int pass = 0; pass < kOrderSweeps; ++pass) {
    for (std::size_t l = 1; l < levels.size(); ++l) sweep(levels[l], above);
    for (std::size_t l = levels.size() - 1; l-- > 0;) sweep(levels[l], below);
  }
}

// Each level cut into as few rows of at most `capacity` nodes as it takes, of even sizes (the
// first ones a node longer).
Rows wrap(const Rows& levels, std::size_t capacity) {
  Rows rows;
  for (const auto& level : levels) {
    std::size_t count = (level.size() + capacity - 1) / capacity;
    for (std::size_t r = 0, begin = 0; r < count; ++r) {
      std::size_t size = level.size() / count + (r < level.size() % count ? 1 : 0);
      rows.emplace_back(level.begin() + static_cast<long>(begin),
                        level.begin() + static_cast<long>(begin + size));
      begin += size;
    }
  }
  return rows;
}

struct Extent {
  double width = 0, height = 0;
  double aspect() const { return width / std::max(1.0, height); }
};

// The size of the picture dot would draw with each row on a rank of its own.
Extent dot_extent(const Rows& rows, const LayoutInput& input) {
  std::vector<std::size_t> row_of(input.width.size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t v : rows[r]) row_of[v] = r;
  std::vector<long> passing(rows.size() + 1, 0);  // differences: edges through each row
  for (auto [from, to] : input.edges) {
    std::size_t a = std::min(row_of[from], row_of[to]), b = std::max(row_of[from], row_of[to]);
    if (b > a + 1) {
      ++passing[a + 1];
      --passing[b];
    }
  }
  Extent e;
  long through = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    through += passing[r];
    double width = kPassingEdge * static_cast<double>(through), height = 0;
    for (std::size_t v : rows[r]) {
      width += input.width[v] + kNodeSep;
      height = std::max(height, input.height[v]);
    }
    e.width = std::max(e.width, width - kNodeSep);
    e.height += height + (r ? kRankSep : 0);
  }
  return e;
}

// Positions: uniform columns (the widest node and a gap), rows of one level close together,
// levels further apart; rows centred; the sequence of rows cut into `columns` side by side.
Layout place(const Rows& levels, std::size_t capacity, std::size_t columns,
             const LayoutInput& input) {
  Layout layout;
  layout.kind = Layout::Kind::Placed;
  double pitch = *std::max_element(input.width.begin(), input.width.end()) + kColumnGap;
  double row_height = *std::max_element(input.height.begin(), input.height.end());
  double band = static_cast<double>(capacity) * pitch - kColumnGap;
  std::vector<bool> level_starts;
  for (const auto& level : levels)
    for (std::size_t i = 0; i < level.size(); i += capacity) level_starts.push_back(i == 0);
  layout.rows = wrap(levels, capacity);  // as many rows per level as level_starts counts
  auto gap_before = [&](std::size_t r) { return level_starts[r] ? kLevelGap : kRowGap; };
  double total = 0;
  for (std::size_t r = 0; r < layout.rows.size(); ++r)
    total += row_height + (r ? gap_before(r) : 0);
  double column_height = total / static_cast<double>(columns);
  layout.x.assign(input.width.size(), 0);
  layout.y.assign(input.width.size(), 0);
  std::size_t column = 0;
  double x0 = 0, y = 0;
  for (std::size_t r = 0; r < layout.rows.size(); ++r) {
    if (r > 0 && column + 1 < columns && y + gap_before(r) + row_height / 2 > column_height) {
      ++column;
      x0 += band + kFoldGap;
      y = 0;
    } else if (r > 0) {
      y += gap_before(r);
    }
    const auto& row = layout.rows[r];
    double left = x0 + (band - (static_cast<double>(row.size()) * pitch - kColumnGap)) / 2;
    for (std::size_t i = 0; i < row.size(); ++i) {
      layout.x[row[i]] = left + static_cast<double>(i) * pitch + (pitch - kColumnGap) / 2;
      layout.y[row[i]] = y + row_height / 2;
    }
    y += row_height;
    layout.width = std::max(layout.width, x0 + band);
    layout.height = std::max(layout.height, y);
  }
  return layout;
}

}  // namespace

std::vector<int> node_depths(std::size_t nodes, const Edges& edges) {
  std::vector<std::vector<std::size_t>> out(nodes);
  for (std::size_t e = 0; e < edges.size(); ++e) out[edges[e].first].push_back(e);
  // Depth-first search: an edge to a node still on the stack would close a cycle.
  enum State : unsigned char { kNew, kOpen, kDone };
  std::vector<State> state(nodes, kNew);
  std::vector<bool> kept(edges.size(), true);
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // (node, next out-edge)
  for (std::size_t start = 0; start < nodes; ++start) {
    if (state[start] != kNew) continue;
    stack.push_back({start, 0});
    state[start] = kOpen;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == out[v].size()) {
        state[v] = kDone;
        stack.pop_back();
        continue;
      }
      std::size_t e = out[v][next++];
      std::size_t to = edges[e].second;
      if (state[to] == kOpen) kept[e] = false;
      else if (state[to] == kNew) {
        state[to] = kOpen;
        stack.push_back({to, 0});
      }
    }
  }
  // Longest paths, in topological order (Kahn).
  std::vector<std::size_t> incoming(nodes, 0);
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (kept[e]) ++incoming[edges[e].second];
  std::vector<int> depth(nodes, 0);
  std::vector<std::size_t> ready;
  for (std::size_t v = nodes; v-- > 0;)
    if (incoming[v] == 0) ready.push_back(v);
  while (!ready.empty()) {
    std::size_t v = ready.back();
    ready.pop_back();
    for (std::size_t e : out[v]) {
      if (!kept[e]) continue;
      std::size_t to = edges[e].second;
      depth[to] = std::max(depth[to], depth[v] + 1);
      if (--incoming[to] == 0) ready.push_back(to);
    }
  }
  return depth;
}

Layout lay_out(const LayoutInput& input, std::size_t max_nodes) {
  std::size_t n = input.width.size();
  if (n == 0 || n > max_nodes) return {};
  std::vector<int> depth = node_depths(n, input.edges);
  Rows levels = levels_of(n, depth, input.edges);
  order_levels(levels, n, depth, input.edges);

  Extent plain = dot_extent(levels, input);
  bool wide = plain.width > kPlainExtent && plain.aspect() > kDotAspect;
  bool tall = plain.height > kPlainExtent && plain.aspect() < 1 / kDotAspect;
  if (!wide && !tall) return {};
  std::size_t widest = 0;
  for (const auto& level : levels) widest = std::max(widest, level.size());
  if (wide && n <= kDotMaxNodes)
    for (std::size_t capacity = widest - 1; capacity >= 1; --capacity) {
      Rows rows = wrap(levels, capacity);
      Extent e = dot_extent(rows, input);
      if (e.aspect() > kDotAspect) continue;
      if (e.aspect() < 1 / kDotAspect) break;
      Layout layout;
      layout.kind = Layout::Kind::DotRows;
      layout.rows = std::move(rows);
      std::vector<bool> linked(n, false);
      for (auto [from, to] : input.edges) linked[from] = linked[to] = true;
      auto unlinked = [&](const std::vector<std::size_t>& row) {
        return std::none_of(row.begin(), row.end(), [&](std::size_t v) { return linked[v]; });
      };
      for (std::size_t r = 0; r + 1 < layout.rows.size(); ++r) {
        const auto &a = layout.rows[r], &b = layout.rows[r + 1];
        if (unlinked(a) && !unlinked(b))
          layout.ordering_edges.emplace_back(a[a.size() / 2], b[b.size() / 2]);
        else
          for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            layout.ordering_edges.emplace_back(a[i], b[i]);
      }
      return layout;
    }

  // Placed: the row capacity and number of columns whose picture comes closest to the target
  // shape (the least wrapping among equals).
  double pitch = *std::max_element(input.width.begin(), input.width.end()) + kColumnGap;
  double row_height = *std::max_element(input.height.begin(), input.height.end());
  std::size_t best_capacity = widest, best_columns = 1;
  double best_score = INFINITY;
  for (std::size_t capacity = widest; capacity >= 1; --capacity) {
    double height = -kLevelGap;
    for (const auto& level : levels) {
      double rows = std::ceil(static_cast<double>(level.size()) / static_cast<double>(capacity));
      height += kLevelGap + rows * row_height + (rows - 1) * kRowGap;
    }
    double width = static_cast<double>(capacity) * pitch - kColumnGap;
    for (std::size_t columns = 1;; ++columns) {
      double c = static_cast<double>(columns);
      double aspect = (c * width + (c - 1) * kFoldGap) / (height / c);
      double score = std::abs(std::log(aspect / kTargetAspect));
      if (score < best_score - 1e-9) {
        best_score = score;
        best_capacity = capacity;
        best_columns = columns;
      }
      if (aspect >= kTargetAspect) break;  // more columns only make it wider
    }
  }
  return place(levels, best_capacity, best_columns, input);
}

}  // namespace tareador::tasks
