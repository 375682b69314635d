// The task graph's colours and texts, the profile per task type, and the files of a rank
// (taskgraph.h); the hints, the races and the reports are beside (hints.cpp, races.cpp,
// report.cpp).
#include "tasks/taskgraph.h"

#include "tasks/support.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace tareador::tasks {

namespace trace = tareador::trace;

namespace {

// Light colours that black text reads well on (ColorBrewer Set3 and Paired, light halves).
constexpr const char* kPalette[] = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3", "#b2df8a", "#fb9a99", "#cab2d6", "#e5c494"};
constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];
constexpr const char* kMainColor = "#d9d9d9";

std::uint32_t fnv1a(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

}  // namespace

// ---- Colours and text -------------------------------------------------------------------------

std::size_t palette_size() { return kPaletteSize; }

std::vector<std::string> type_colors(const trace::TaskSet& set) {
  std::vector<std::string> colors(set.types.size(), kPalette[0]);
  int main = main_type(set);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < set.types.size(); ++i)
    if (static_cast<int>(i) != main) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return set.types[a] < set.types[b]; });
  std::vector<bool> used(kPaletteSize, false);
  std::size_t taken = 0;
  for (std::size_t i : order) {
    std::size_t slot = fnv1a(set.types[i]) % kPaletteSize;
    if (taken < kPaletteSize) {
      while (used[slot]) slot = (slot + 1) % kPaletteSize;
      used[slot] = true;
      ++taken;
    }
    colors[i] = kPalette[slot];
  }
  if (main >= 0) colors[static_cast<std::size_t>(main)] = kMainColor;
  return colors;
}

const std::string& type_name(const trace::TaskSet& set, int type) {
  static const std::string unknown = "?";
  return type >= 0 && static_cast<std::size_t>(type) < set.types.size()
             ? set.types[static_cast<std::size_t>(type)]
             : unknown;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string format_bytes(std::int64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes) / 1024.0;
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < 4) {
    v /= 1024.0;
    ++u;
  }
  return fixed1(v) + " " + units[u];
}

std::string format_count(double count) {
  if (count < 10000) return std::to_string(std::llround(count));
  const char* units[] = {"K", "M", "G", "T"};
  double v = count / 1000.0;
  std::size_t u = 0;
  while (v >= 1000.0 && u + 1 < 4) {
    v /= 1000.0;
    ++u;
  }
  return fixed1(v) + " " + units[u];
}

std::string format_kinds(std::uint8_t kinds) {
  std::vector<std::string> names;
  if (kinds & trace::kRaw) names.push_back("raw");
  if (kinds & trace::kWar) names.push_back("war");
  if (kinds & trace::kWaw) names.push_back("waw");
  return names.empty() ? "none" : join(names, "+");
}

std::string object_name(const trace::TaskSet& set, int id) {
  const trace::TaskObject* o = set.object(id);
  return o ? o->name : "object#" + std::to_string(id);
}

// ---- The profile -----------------------------------------------------------------------------------

Profile profile(const trace::TaskSet& set) {
  Profile p;
  std::vector<std::string> colors = type_colors(set);
  std::vector<TypeProfile> types(set.types.size());
  for (std::size_t t = 0; t < set.types.size(); ++t) {
    types[t].type = set.types[t];
    types[t].color = colors[t];
  }
  for (const trace::TaskInstance& i : set.instances) {
    if (i.type < 0 || static_cast<std::size_t>(i.type) >= types.size()) continue;
    TypeProfile& tp = types[static_cast<std::size_t>(i.type)];
    ++tp.instances;
    if (i.mpi) ++tp.mpi_instances;
    tp.total += i.instructions;
    tp.max = std::max(tp.max, i.instructions);
    p.instructions += i.instructions;
    ++p.instances;
  }
  for (TypeProfile& tp : types) {
    if (tp.instances == 0) continue;
    tp.mean = tp.total / static_cast<double>(tp.instances);
    tp.share = p.instructions > 0 ? 100.0 * tp.total / p.instructions : 0.0;
    p.types.push_back(tp);
  }
  std::stable_sort(p.types.begin(), p.types.end(), [](const TypeProfile& a, const TypeProfile& b) {
    return a.total != b.total ? a.total > b.total : a.type < b.type;
  });
  return p;
}

Report write_outputs(const std::string& dir, const std::string& name, int rank,
                     const trace::TaskSet& set, const OutputOptions& options,
                     const std::vector<std::string>& notes) {
  namespace fs = std::filesystem;
  Report r;
  r.name = name;
  r.rank = rank;
  r.trace = set.path.empty() ? "tasks." + std::to_string(rank) + ".trc"
                             : fs::path(set.path).filename().string();
  r.with_main = options.graph.with_main;
  r.notes = notes;

  TaskGraph graph = build_graph(set, options.graph);
  r.nodes = boost::num_vertices(graph);
  std::size_t creations = 0;
  for (auto e : boost::make_iterator_range(boost::edges(graph))) creations += graph[e].creation;
  r.edges = boost::num_edges(graph) - creations;
  const std::string dot_path = trace::set_files::taskgraph(dir, rank, "dot");
  const std::string dot_name = fs::path(dot_path).filename().string();
  bool grouped = options.group && r.nodes > options.group_above;
  if (grouped) {
    graph = group_graph(graph);
    std::size_t drawn = boost::num_vertices(graph);
    if (drawn < r.nodes)
      r.notes.push_back(dot_name + " groups instances: " + std::to_string(r.nodes) +
                        " tasks drawn as " + std::to_string(drawn) +
                        (drawn == 1 ? " node" : " nodes") + " (--no-group draws each)");
  }
  const std::size_t drawn_nodes = boost::num_vertices(graph), drawn_edges = boost::num_edges(graph);
  std::ostringstream dot;
  std::string title = (name.empty() ? std::string() : name + ", ") + "rank " +
                      std::to_string(rank) + ": " + std::to_string(r.nodes) + " tasks, " +
                      std::to_string(r.edges) + " dependencies";
  if (creations) title += ", " + std::to_string(creations) + " creations";
  if (grouped) title += " (grouped)";
  write_dot(dot, set, graph, title);
  write_file(dot_path, dot.str());
  r.files.push_back(dot_name);

  if (options.format != "dot") {
    std::string image = trace::set_files::taskgraph(dir, rank, options.format);
    std::string image_name = fs::path(image).filename().string();
    if (options.max_nodes && drawn_nodes > options.max_nodes) {
      r.notes.push_back(image_name + " not rendered: " + std::to_string(drawn_nodes) +
                        (grouped ? " nodes" : " tasks") + ", more than --max-nodes=" +
                        std::to_string(options.max_nodes) + " (the DOT file is written)");
    } else {
      bool tell = options.progress && drawn_nodes >= options.slow_nodes;
      auto began = std::chrono::steady_clock::now();
      auto stage = [&](const std::string& what) {
        if (!tell) return;
        if (what == "layout")
          options.progress(image_name + ": laying out " + std::to_string(drawn_nodes) +
                           " nodes and " + std::to_string(drawn_edges) +
                           " edges with Graphviz; this may take a while");
        else options.progress(image_name + ": rendering");
      };
      try {
        render_dot(dot.str(), options.format, image, stage);
      } catch (const std::runtime_error& e) {
        throw trace::FormatError(image, 0, e.what());
      }
      if (tell) {
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.1f", seconds);
        options.progress(image_name + ": done in " + buffer + " s");
      }
      r.files.push_back(image_name);
    }
  }

  r.profile = profile(set);
  r.hints = porting_hints(set, options.hints);
  write_file(trace::set_files::taskreport(dir, rank, "txt"), report_text(set, r));
  write_file(trace::set_files::taskreport(dir, rank, "json"), report_json(set, r).dump(2) + "\n");
  return r;
}

}  // namespace tareador::tasks
