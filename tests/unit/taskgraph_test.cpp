// The task graph (DOT, colours, rendering), the profile per task type and the porting hints.
#include "tasks/taskgraph.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "tasks/taskgraph_layout.h"
#include "test_util.h"

namespace tareador {
namespace {

using testing::TempDir;
using trace::TaskSet;

// Builds task sets by hand: instance 1 is the main task.
class SetBuilder {
 public:
  SetBuilder() { add("main", 0, 0); }
  // Declares an object.
  SetBuilder& object(int id, const std::string& kind, std::int64_t size, const std::string& name) {
    set_.objects.push_back({id, kind, size, name});
    return *this;
  }
  // A new instance of `type` spawned by `parent`; returns its id.
  int add(const std::string& type, int parent, double instructions, bool mpi = false) {
    auto it = std::find(set_.types.begin(), set_.types.end(), type);
    int t = static_cast<int>(it - set_.types.begin());
    if (it == set_.types.end()) set_.types.push_back(type);
    trace::TaskInstance i;
    i.type = t;
    i.parent = parent;
    i.instructions = instructions;
    i.mpi = mpi;
    int id = set_.add_instance(i).id;
    if (parent) set_.add_spawn(parent, id);
    return id;
  }
  SetBuilder& after(int id, int from, std::uint8_t kinds, std::int64_t bytes,
                    std::vector<int> objects) {
    set_.add_after(id, {from, kinds, bytes, {}, {}}, objects);
    return *this;
  }
  SetBuilder& uses(int id, int object, std::int64_t read, std::int64_t written) {
    set_.add_use(id, {object, read, written, false, false, 0, 0});
    return *this;
  }
  // A use of a heap block the instance allocated and freed itself.
  SetBuilder& temporary(int id, int object, std::int64_t read, std::int64_t written) {
    set_.add_use(id, {object, read, written, false, true, 0, 0});
    return *this;
  }
  // A use of bytes [first, end) of the object, while it was disabled or not.
  SetBuilder& uses(int id, int object, std::int64_t read, std::int64_t written, bool disabled,
                   std::int64_t first, std::int64_t end) {
    set_.add_use(id, {object, read, written, disabled, false, first, end});
    return *this;
  }
  // A use of bytes [first, end) of a caller's local (TaskUse::outer), which the reader marks.
  SetBuilder& outer_uses(int id, int object, std::int64_t read, std::int64_t written,
                         std::int64_t first, std::int64_t end) {
    set_.add_use(id, {object, read, written, false, false, first, end, true});
    for (trace::TaskObject& o : set_.objects) o.caller = o.caller || o.id == object;
    return *this;
  }
  SetBuilder& instructions(int id, double n) {
    at(id).instructions = n;
    return *this;
  }
  const TaskSet& set() const { return set_; }

 private:
  trace::TaskInstance& at(int id) { return set_.instances[static_cast<std::size_t>(id - 1)]; }
  TaskSet set_;
};

std::string dot_of(const TaskSet& set, bool with_main = false) {
  std::ostringstream out;
  tasks::write_dot(out, set, tasks::build_graph(set, {with_main}), "test");
  return out.str();
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// main spawns A#2, B#3, C#4; B waits for A through X and Y, C for B (write after read of Z),
// main for C (a taskwait).
SetBuilder three_tasks() {
  SetBuilder b;
  b.object(1, "heap", 4096, "X").object(2, "global", 64, "Y").object(3, "global", 8, "Z");
  int a = b.add("A", 1, 1000), bb = b.add("B", 1, 25000, true), c = b.add("C", 1, 3000000);
  b.after(bb, a, trace::kRaw, 1638, {1, 2});
  b.after(c, bb, trace::kWar, 8, {3});
  b.after(1, c, trace::kRaw | trace::kWaw, 8, {3});
  return b;
}

// ---- The graph -----------------------------------------------------------------------------------

TEST(TaskGraph, OneVertexPerInstanceAndOneEdgePerDependencyWithoutMain) {
  TaskSet set = three_tasks().set();
  tasks::TaskGraph g = tasks::build_graph(set);
  ASSERT_EQ(boost::num_vertices(g), 3u);
  ASSERT_EQ(boost::num_edges(g), 2u);
  std::vector<std::pair<int, int>> edges;
  for (auto e : boost::make_iterator_range(boost::edges(g)))
    edges.push_back({g[boost::source(e, g)].instance, g[boost::target(e, g)].instance});
  EXPECT_EQ(edges, (std::vector<std::pair<int, int>>{{2, 3}, {3, 4}}));

  tasks::TaskGraph with_main = tasks::build_graph(set, {true});
  EXPECT_EQ(boost::num_vertices(with_main), 4u);
  EXPECT_EQ(boost::num_edges(with_main), 3u);
}

TEST(TaskGraph, DotLabelsNodesAndEdges) {
  TaskSet set = three_tasks().set();
  std::string dot = dot_of(set);
  auto colors = tasks::type_colors(set);
  EXPECT_TRUE(contains(dot, "digraph G {")) << dot;
  EXPECT_TRUE(contains(dot, "t2 [label=\"A #2\\n1000 instr\", fillcolor=\"" + colors[1] +
                                "\", type=\"A\", instance=2]"))
      << dot;
  EXPECT_TRUE(contains(dot, "t3 [label=\"B #3\\n25 K instr\\nMPI\", fillcolor=\"" + colors[2] +
                                "\", type=\"B\", instance=3, peripheries=2]"))
      << dot;
  EXPECT_TRUE(contains(dot, "t4 [label=\"C #4\\n3 M instr\""));
  EXPECT_TRUE(contains(dot,
                       "t2->t3  [label=\"X, Y (1.6 KB)\", style=solid, kinds=\"raw\", "
                       "bytes=1638]"))
      << dot;
  EXPECT_TRUE(contains(dot, "t3->t4  [label=\"Z (8 B, war)\", style=dashed, kinds=\"war\""));
  EXPECT_FALSE(contains(dot, "t1")) << "the main task is left out by default";
  // The legend: the graph's label, one row per type shown, and the edge styles.
  EXPECT_TRUE(contains(dot, "label=<<TABLE"));
  EXPECT_TRUE(contains(dot, "<TD BGCOLOR=\"" + colors[1] + "\""));
  EXPECT_TRUE(contains(dot, ">A: 1 instance</TD>"));
  EXPECT_TRUE(contains(dot, "dashed: write after read only"));
  EXPECT_FALSE(contains(dot, "dotted: write after write only"));
  EXPECT_FALSE(contains(dot, ">main: ")) << "no main row when main is not drawn";

  std::string with_main = dot_of(set, true);
  EXPECT_TRUE(contains(with_main, "t1 [label=\"main #1\\n0 instr\", fillcolor=\"#d9d9d9\""));
  EXPECT_TRUE(contains(with_main, "t4->t1  [label=\"Z (8 B, raw+waw)\", style=solid"));
  EXPECT_TRUE(contains(with_main, "dotted: write after write only"));
}

TEST(TaskGraph, MergesRecordsBetweenOnePairAndEscapes) {
  SetBuilder b;
  b.object(1, "global", 8, "a\"b")
      .object(2, "global", 8, "c")
      .object(3, "heap", 8, "d")
      .object(4, "heap", 8, "e");
  int p = b.add("P", 1, 10), q = b.add("Q", 1, 10);
  b.after(q, p, trace::kRaw, 4, {1, 2});
  b.after(q, p, trace::kWaw, 4, {2, 3, 4});
  tasks::TaskGraph g = tasks::build_graph(b.set());
  ASSERT_EQ(boost::num_edges(g), 1u);
  const tasks::TaskEdge& e = g[*boost::edges(g).first];
  EXPECT_EQ(e.kinds, trace::kRaw | trace::kWaw);
  EXPECT_EQ(e.bytes, 8);
  EXPECT_EQ(e.objects, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(tasks::edge_label(b.set(), e), "a\"b, c, d, +1 more (8 B, raw+waw)");
  EXPECT_TRUE(contains(dot_of(b.set()), "[label=\"a\\\"b, c, d, +1 more (8 B, raw+waw)\""));
}

TEST(TaskGraph, EdgeLabelsNameTheObjectsOfOneSiteOnce) {
  // A Mandelbrot lab's rows, chained through the blocks Xlib allocated for the display.
  const std::vector<std::string> sites = {"XOpenDisplay@mandel.c:50", "XOpenDisplay@mandel.c:50",
                                          "XCreateGC@mandel.c:55", "XOpenDisplay@mandel.c:50"};
  SetBuilder b;
  for (int id = 1; id <= 4; ++id) b.object(id, "heap", 64, sites[id - 1]);
  int row = b.add("row", 1, 10);
  b.after(b.add("row", 1, 10), row, trace::kRaw, 44, {1, 2, 3, 4});
  tasks::TaskGraph g = tasks::build_graph(b.set());
  ASSERT_EQ(boost::num_edges(g), 1u);
  EXPECT_EQ(tasks::edge_label(b.set(), g[*boost::edges(g).first]),
            "XOpenDisplay@mandel.c:50 (3 objects), XCreateGC@mandel.c:55 (44 B)");
}

TEST(TaskGraph, ColoursAreDistinctPerTypeAndStableAcrossRuns) {
  SetBuilder b;
  for (int i = 0; i < 16; ++i) b.add("type" + std::to_string(i), 1, 1);
  auto colors = tasks::type_colors(b.set());
  EXPECT_EQ(colors[0], "#d9d9d9");  // main
  std::set<std::string> distinct(colors.begin() + 1, colors.end());
  EXPECT_EQ(distinct.size(), 16u);
  EXPECT_EQ(tasks::palette_size(), 16u);
  EXPECT_EQ(distinct.count("#d9d9d9"), 0u);

  // The same types, found in another order: the same colours.
  SetBuilder c;
  for (int i = 15; i >= 0; --i) c.add("type" + std::to_string(i), 1, 1);
  auto again = tasks::type_colors(c.set());
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(again[static_cast<std::size_t>(16 - i)], colors[static_cast<std::size_t>(i + 1)]);
  // Twice the same input: the same DOT, byte for byte.
  EXPECT_EQ(dot_of(three_tasks().set()), dot_of(three_tasks().set()));
}

TEST(TaskGraph, Formats) {
  EXPECT_EQ(tasks::format_bytes(17), "17 B");
  EXPECT_EQ(tasks::format_bytes(1023), "1023 B");
  EXPECT_EQ(tasks::format_bytes(1024), "1 KB");
  EXPECT_EQ(tasks::format_bytes(1638), "1.6 KB");
  EXPECT_EQ(tasks::format_bytes(3 << 20), "3 MB");
  EXPECT_EQ(tasks::format_count(9999), "9999");
  EXPECT_EQ(tasks::format_count(12500), "12.5 K");
  EXPECT_EQ(tasks::format_count(1.2e9), "1.2 G");
  EXPECT_EQ(tasks::format_kinds(trace::kWar | trace::kWaw), "war+waw");
}

// ---- Rendering with Graphviz's library -------------------------------------------------------------

TEST(TaskGraph, RendersSvgAndPng) {
  TempDir dir;
  std::string dot = dot_of(three_tasks().set());
  tasks::render_dot(dot, "svg", dir.path("g.svg"));
  std::string svg = testing::read_file(dir.path("g.svg"));
  ASSERT_FALSE(svg.empty());
  EXPECT_TRUE(contains(svg, "<svg"));
  EXPECT_TRUE(contains(svg, "A #2"));
  EXPECT_TRUE(contains(svg, "B #3"));
  EXPECT_TRUE(contains(svg, "X, Y (1.6 KB)"));

  std::vector<std::string> stages;
  tasks::render_dot(dot, "png", dir.path("g.png"),
                    [&](const std::string& s) { stages.push_back(s); });
  std::string png = testing::read_file(dir.path("g.png"));
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(stages, (std::vector<std::string>{"layout", "render"}));

  EXPECT_THROW(tasks::render_dot("digraph { a -> ", "svg", dir.path("bad.svg")),
               std::runtime_error);
  EXPECT_THROW(tasks::render_dot(dot, "gif", dir.path("g.gif")), std::runtime_error);
}

// ---- Creation edges, grouping, layout -----------------------------------------------------------

// The tasks set of a trace-set fixture (rank 0).
TaskSet fixture_set(const std::string& name) {
  auto traces = trace::open_traces(testing::fixture(name), {"tasks"});
  return traces.at(0)->header().task_sets.at(0);
}

// Width / height of a PNG (its IHDR chunk), the larger over the smaller.
double png_aspect(const std::string& path) {
  std::string png = testing::read_file(path);
  EXPECT_GE(png.size(), 24u);
  auto at = [&](std::size_t i) {
    return static_cast<double>(
        static_cast<unsigned char>(png[i]) << 24 | static_cast<unsigned char>(png[i + 1]) << 16 |
        static_cast<unsigned char>(png[i + 2]) << 8 | static_cast<unsigned char>(png[i + 3]));
  };
  double width = at(16), height = at(20);
  return std::max(width, height) / std::min(width, height);
}

std::size_t count_of(const std::string& text, const std::regex& pattern) {
  return static_cast<std::size_t>(std::distance(
      std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

const std::regex kNodeLine("\\nt[0-9]+ \\[label=");

TEST(TaskGraph, CreationEdgesAreDashedWhenAsked) {
  SetBuilder b;
  int outer = b.add("outer", 1, 10), inner = b.add("inner", outer, 10),
      after = b.add("next", 1, 10);
  b.object(1, "heap", 8, "X").after(after, inner, trace::kRaw, 8, {1});
  std::string plain = dot_of(b.set());
  EXPECT_FALSE(contains(plain, "creation=true")) << plain;
  EXPECT_FALSE(contains(plain, "A created B"));

  std::ostringstream out;
  tasks::write_dot(out, b.set(), tasks::build_graph(b.set(), {false, true}), "test");
  std::string dot = out.str();
  EXPECT_TRUE(
      contains(dot, "t2->t3  [style=dashed, color=\"#3182bd\", arrowhead=empty, creation=true]"))
      << dot;
  EXPECT_TRUE(contains(dot, "t3->t4  [label=\"X (8 B)\", style=solid")) << "the dependency stays";
  EXPECT_TRUE(contains(dot, "dashed blue: A created B"));
  EXPECT_FALSE(contains(dot, "t1->")) << "no main, no edge from it";

  tasks::TaskGraph with_main = tasks::build_graph(b.set(), {true, true});
  std::size_t creations = 0;
  for (auto e : boost::make_iterator_range(boost::edges(with_main)))
    creations += with_main[e].creation;
  EXPECT_EQ(creations, 3u);  // main -> outer, outer -> inner, main -> next
}

TEST(TaskGraph, GroupsRunsOfInstancesWithTheSameNeighbours) {
  // Four producers at depth 0 feed one consumer each in order (a run: the same groups before
  // and after), then a fifth producer feeds nobody: it stays apart.
  SetBuilder b;
  b.object(1, "heap", 64, "A");
  std::vector<int> producers, consumers;
  for (int i = 0; i < 5; ++i) producers.push_back(b.add("produce", 1, 100));
  for (int i = 0; i < 4; ++i) {
    consumers.push_back(b.add("consume", 1, 10));
    b.after(consumers.back(), producers[static_cast<std::size_t>(i)], trace::kRaw, 8, {1});
  }
  tasks::TaskGraph g = tasks::group_graph(tasks::build_graph(b.set()));
  ASSERT_EQ(boost::num_vertices(g), 3u);
  ASSERT_EQ(boost::num_edges(g), 1u);
  EXPECT_EQ(g[0].group, (std::vector<int>{2, 3, 4, 5}));
  EXPECT_DOUBLE_EQ(g[0].instructions, 400);
  EXPECT_TRUE(g[1].group.empty()) << "producer #6 feeds nothing";
  EXPECT_EQ(g[2].group, (std::vector<int>{7, 8, 9, 10}));
  const tasks::TaskEdge& e = g[*boost::edges(g).first];
  EXPECT_EQ(e.count, 4u);
  EXPECT_EQ(e.bytes, 32);
  EXPECT_EQ(tasks::node_label(b.set(), g[0]), "produce x 4\n#2-#5\n400 instr");
  EXPECT_EQ(tasks::edge_label(b.set(), e), "4 dependencies: A (32 B)");
  std::ostringstream out;
  tasks::write_dot(out, b.set(), g, "test");
  EXPECT_TRUE(contains(out.str(), "instance=2, instances=\"2-5\", count=4]")) << out.str();
  EXPECT_TRUE(contains(out.str(), "produce: 5 instances in 2 nodes"));
}

// The 3D FFT of examples/tasks/fft3d.c traced by the tool: 441 instances in 8 phases.
TEST(TaskGraph, GroupingTheFftGivesOneNodePerPhase) {
  TaskSet set = fixture_set("taskgraph-fft3d");
  tasks::TaskGraph exact = tasks::build_graph(set);
  ASSERT_EQ(boost::num_vertices(exact), 441u);
  ASSERT_EQ(boost::num_edges(exact), 1600u);
  tasks::TaskGraph g = tasks::group_graph(exact);
  ASSERT_EQ(boost::num_vertices(g), 9u);  // start_plan, init, then fft / transposes
  EXPECT_EQ(boost::num_edges(g), 7u);
  std::vector<std::string> labels;
  std::size_t instances = 0, dependencies = 0;
  for (auto v : boost::make_iterator_range(boost::vertices(g))) {
    labels.push_back(
        tasks::node_label(set, g[v]).substr(0, tasks::node_label(set, g[v]).find('\n')));
    instances += std::max<std::size_t>(1, g[v].group.size());
  }
  for (auto e : boost::make_iterator_range(boost::edges(g))) dependencies += g[e].count;
  EXPECT_EQ(labels,
            (std::vector<std::string>{"start_plan #2", "init_grid x 100", "fft_rows x 100",
                                      "transpose_xy x 10", "fft_rows x 100", "transpose_zx x 10",
                                      "fft_rows x 100", "transpose_zx x 10", "transpose_xy x 10"}));
  EXPECT_EQ(instances, 441u);
  EXPECT_EQ(dependencies, 1600u);

  // write_outputs groups past group_above, and says so; the DOT is exact without grouping.
  TempDir dir;
  tasks::OutputOptions options;
  tasks::Report r = tasks::write_outputs(dir.path(""), "fft3d", 0, set, options);
  EXPECT_EQ(r.nodes, 441u);
  EXPECT_EQ(count_of(testing::read_file(dir.path("taskgraph.0.dot")), kNodeLine), 9u);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_EQ(r.notes[0],
            "taskgraph.0.dot groups instances: 441 tasks drawn as 9 nodes (--no-group draws each)");
  options.group = false;
  r = tasks::write_outputs(dir.path(""), "fft3d", 0, set, options);
  EXPECT_TRUE(r.notes.empty());
  std::string dot = testing::read_file(dir.path("taskgraph.0.dot"));
  EXPECT_EQ(count_of(dot, kNodeLine), 441u);
  EXPECT_EQ(count_of(dot, std::regex("->")), 1600u);
  EXPECT_FALSE(contains(dot, "count="));
}

TEST(TaskGraph, DepthsIgnoreTheEdgeThatClosesACycle) {
  // 0 -> 1 -> 2 -> 0 (the last closes a cycle), 0 -> 3, 3 -> 2.
  EXPECT_EQ(tasks::node_depths(4, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {3, 2}}),
            (std::vector<int>{0, 1, 2, 1}));
}

// A layout's extent: the nodes' boxes.
double placed_aspect(const tasks::Layout& layout) {
  EXPECT_EQ(layout.kind, tasks::Layout::Kind::Placed);
  return layout.width / layout.height;
}

TEST(TaskGraph, LayoutKeepsSmallGraphsAndShapesLargeOnes) {
  auto input = [](std::size_t nodes, std::vector<std::pair<std::size_t, std::size_t>> edges) {
    tasks::LayoutInput in;
    in.width.assign(nodes, 80);
    in.height.assign(nodes, 36);
    in.edges = std::move(edges);
    return in;
  };
  // Ten independent nodes read well in a row: dot as it is.
  EXPECT_EQ(tasks::lay_out(input(10, {})).kind, tasks::Layout::Kind::Dot);
  // A hundred: dot with the level wrapped into rows of a readable shape.
  tasks::Layout wrapped = tasks::lay_out(input(100, {}));
  ASSERT_EQ(wrapped.kind, tasks::Layout::Kind::DotRows);
  EXPECT_GT(wrapped.rows.size(), 3u);
  std::size_t in_rows = 0;
  for (const auto& row : wrapped.rows) in_rows += row.size();
  EXPECT_EQ(in_rows, 100u);
  EXPECT_FALSE(wrapped.ordering_edges.empty());
  // A chain of 300: too many for dot; placed in columns, about as wide as high.
  std::vector<std::pair<std::size_t, std::size_t>> chain;
  for (std::size_t i = 0; i + 1 < 300; ++i) chain.push_back({i, i + 1});
  tasks::Layout deep = tasks::lay_out(input(300, chain));
  EXPECT_GE(placed_aspect(deep), 1 / 1.6);
  EXPECT_LE(placed_aspect(deep), 1.6 * 1.6);
  EXPECT_GT(deep.x[299], deep.x[0]) << "the chain continues in the next column";
  // Every node inside the extent, none on another.
  for (std::size_t i = 0; i < 300; ++i) {
    EXPECT_GE(deep.x[i] - 40, 0);
    EXPECT_LE(deep.x[i] + 40, deep.width);
    EXPECT_LE(deep.y[i] + 18, deep.height);
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_FALSE(std::abs(deep.x[i] - deep.x[j]) < 80 && std::abs(deep.y[i] - deep.y[j]) < 36)
          << i << " and " << j << " overlap";
  }
}

// Programs of 100 tasks and more render to a picture at most 4 times as wide as high (or high as
// wide): a recursive multisort (133 tasks, dot with wrapped levels) and the 3D FFT drawn
// instance by instance (441, placed).
TEST(TaskGraph, LargeGraphsRenderToReadableShapes) {
  TempDir dir;
  for (std::string name : {"taskgraph-multisort", "taskgraph-fft3d"}) {
    TaskSet set = fixture_set(name);
    tasks::OutputOptions options;
    options.format = "png";
    options.group = false;
    tasks::Report r = tasks::write_outputs(dir.path(""), name, 0, set, options);
    EXPECT_GE(r.nodes, 100u);
    EXPECT_LE(png_aspect(dir.path("taskgraph.0.png")), 4.0) << name;
    std::string dot = testing::read_file(dir.path("taskgraph.0.dot"));
    EXPECT_TRUE(contains(dot, name == "taskgraph-fft3d" ? "layout=nop2" : "newrank=true")) << name;
  }
}

// ---- The profile --------------------------------------------------------------------------------

TEST(TaskProfile, InstancesTotalMeanMaxShare) {
  SetBuilder b;
  b.instructions(1, 100);
  b.add("A", 1, 300);
  b.add("B", 1, 100, true);
  b.add("A", 1, 500);
  tasks::Profile p = tasks::profile(b.set());
  EXPECT_EQ(p.instances, 4u);
  EXPECT_DOUBLE_EQ(p.instructions, 1000);
  ASSERT_EQ(p.types.size(), 3u);
  EXPECT_EQ(p.types[0].type, "A");  // by total, then name
  EXPECT_EQ(p.types[0].instances, 2u);
  EXPECT_DOUBLE_EQ(p.types[0].total, 800);
  EXPECT_DOUBLE_EQ(p.types[0].mean, 400);
  EXPECT_DOUBLE_EQ(p.types[0].max, 500);
  EXPECT_DOUBLE_EQ(p.types[0].share, 80);
  EXPECT_EQ(p.types[1].type, "B");
  EXPECT_EQ(p.types[1].mpi_instances, 1u);
  EXPECT_DOUBLE_EQ(p.types[1].share, 10);
  EXPECT_EQ(p.types[2].type, "main");
  EXPECT_DOUBLE_EQ(p.types[2].total, 100);
  EXPECT_DOUBLE_EQ(p.types[2].share, 10);
  EXPECT_EQ(p.types[2].color, "#d9d9d9");
}

// ---- Porting hints ------------------------------------------------------------------------------

const tasks::Warning* warning(const tasks::Hints& h, const std::string& code, int object) {
  for (const tasks::Warning& w : h.warnings)
    if (w.code == code && w.object == object) return &w;
  return nullptr;
}

TEST(TaskHints, ClausesPerType) {
  SetBuilder b;
  b.object(1, "heap", 4096, "heap#1@a.c:3")
      .object(2, "global", 64, "B")
      .object(3, "global", 64, "C")
      .object(4, "global", 64, "D")
      .object(5, "stack", 0, "stack");
  int t1 = b.add("work", 1, 10), t2 = b.add("work", 1, 10), t3 = b.add("other", 1, 10);
  b.uses(t1, 1, 512, 0).uses(t1, 2, 0, 64).uses(t1, 4, 8, 0).uses(t1, 5, 16, 0);
  b.uses(t2, 1, 1024, 0).uses(t2, 3, 0, 32).uses(t2, 4, 0, 8).uses(t2, 5, 8, 0);
  b.uses(t3, 1, 8, 0);
  b.uses(1, 2, 64, 64);  // the main task gets no clauses
  tasks::Hints h = tasks::porting_hints(b.set());
  ASSERT_EQ(h.types.size(), 2u);
  const tasks::TypeHints& work = h.types[0];
  EXPECT_EQ(b.set().types[static_cast<std::size_t>(work.type)], "work");
  EXPECT_EQ(work.instances, 2u);
  EXPECT_EQ(work.ompss, "#pragma omp task in(heap#1@a.c:3) out(B, C) inout(D)");
  EXPECT_EQ(work.openmp,
            "#pragma omp task depend(in: heap#1@a.c:3) depend(out: B, C) depend(inout: D)");
  ASSERT_EQ(work.objects.size(), 4u);  // the stack is not a parameter
  EXPECT_EQ(work.objects[0].object, 1);
  EXPECT_EQ(work.objects[0].instances, 2u);
  EXPECT_EQ(work.objects[0].read, 1536);
  EXPECT_EQ(work.objects[0].max_read, 1024);
  EXPECT_EQ(work.objects[0].max_written, 0);
  EXPECT_EQ(work.stack_read, 16);
  EXPECT_EQ(work.stack_written, 0);
  EXPECT_EQ(h.types[1].ompss, "#pragma omp task in(heap#1@a.c:3)");
  EXPECT_EQ(h.types[1].openmp, "#pragma omp task depend(in: heap#1@a.c:3)");
  EXPECT_TRUE(h.warnings.empty()) << h.warnings.front().message;
}

TEST(TaskHints, RaceOnAnAccumulatorWithoutDependencies) {
  // The dot product: each instance reads and writes the 8-byte accumulator, disabled so that
  // no dependency was recorded.
  SetBuilder b;
  b.object(1, "global", 8, "sum").object(2, "heap", 800, "x");
  for (int i = 0; i < 3; ++i) {
    int t = b.add("dot", 1, 100);
    b.uses(t, 1, 8, 8).uses(t, 2, 80, 0);
  }
  b.uses(1, 1, 8, 8);  // main reads the result: its own children, not a race
  tasks::Hints h = tasks::porting_hints(b.set());
  const tasks::Warning* w = warning(h, "race", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->count, 3u);  // (2,3), (2,4), (3,4)
  EXPECT_EQ(w->instances, (std::vector<int>{2, 3}));
  EXPECT_EQ(w->types, (std::vector<std::string>{"dot"}));
  EXPECT_TRUE(contains(w->message,
                       "sum (global, 8 B) is written by #2 (dot) and #3 (dot) and "
                       "no dependency orders them"))
      << w->message;
  EXPECT_EQ(h.warnings.size(), 1u);
  EXPECT_EQ(h.types[0].ompss, "#pragma omp task in(x) inout(sum)");
}

TEST(TaskHints, AReaderOfWhatTasksUpdateWhileDisabledIsNotOrderedByTheClauses) {
  // Four "acc" tasks add into bytes [0, 8) of a block while it is disabled; a "use" task reads
  // them afterwards, with the block enabled: the clauses would not order it after them. A
  // "data" task reads other bytes of the block: no warning for it.
  SetBuilder b;
  b.object(1, "heap", 64, "block");
  for (int i = 0; i < 4; ++i) {
    int t = b.add("acc", 1, 10);
    b.uses(t, 1, 8, 8, true, 0, 8);
  }
  int data = b.add("data", 1, 10), use = b.add("use", 1, 10);
  b.uses(data, 1, 56, 0, false, 8, 64).uses(use, 1, 8, 0, false, 0, 8);
  tasks::Hints h = tasks::porting_hints(b.set());
  const tasks::Warning* w = warning(h, "reduction-read", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->instances, (std::vector<int>{2, use}));
  EXPECT_EQ(w->count, 1u);
  EXPECT_EQ(w->types, (std::vector<std::string>{"acc", "use"}));
  EXPECT_TRUE(contains(w->message,
                       "#7 (use) reads block, which acc tasks update while it is "
                       "disabled (a reduction), from #2 on: the trace orders it after them, "
                       "but in(block) would not"))
      << w->message;
}

TEST(TaskHints, BytesOfATaskAndItsChildrenAreAtMostTheObject) {
  // A parent reads all of a 1 KB array and so does each of its two children: the parent's type
  // used 1 KB of it, not 3.
  SetBuilder b;
  b.object(1, "global", 1024, "a");
  int parent = b.add("parent", 1, 10);
  int first = b.add("child", parent, 10), second = b.add("child", parent, 10);
  b.uses(parent, 1, 1024, 0).uses(first, 1, 1024, 0).uses(second, 1, 1024, 0);
  tasks::Hints h = tasks::porting_hints(b.set());
  for (const tasks::TypeHints& th : h.types) {
    ASSERT_EQ(th.objects.size(), 1u);
    EXPECT_EQ(th.objects[0].max_read, 1024) << b.set().types[static_cast<std::size_t>(th.type)];
  }
}

TEST(TaskHints, NoRaceWhenOrderedOrDisjoint) {
  SetBuilder b;
  b.object(1, "global", 8, "s").object(2, "heap", 64, "tiles");
  int a = b.add("T", 1, 1), c = b.add("T", 1, 1), d = b.add("T", 1, 1);
  for (int t : {a, c, d}) b.uses(t, 1, 8, 8).uses(t, 2, 0, 16);  // tiles: 16 of 64 bytes each
  b.after(c, a, trace::kRaw, 8, {1});
  b.after(d, c, trace::kRaw, 8, {1});  // a -> c -> d: (a, d) ordered through c
  tasks::Hints h = tasks::porting_hints(b.set());
  EXPECT_TRUE(h.warnings.empty()) << h.warnings.front().message;
}

TEST(TaskHints, NoRaceOnALibrarysStateOrConstants) {
  // Unordered tasks that call rand() and printf write the C library's state (its lock, rand's
  // table), which its calls keep consistent: nothing the program could protect or name.
  SetBuilder b;
  b.object(1, "library", 4, "lock").object(2, "library", 128, "randtbl").object(3, "const", 8, "k");
  for (int i = 0; i < 3; ++i) {
    int t = b.add("draw", 1, 1);
    b.uses(t, 1, 4, 4).uses(t, 2, 128, 128).uses(t, 3, 0, 8);
  }
  tasks::Hints h = tasks::porting_hints(b.set());
  EXPECT_TRUE(h.warnings.empty()) << h.warnings.front().message;
}

TEST(TaskHints, OrderThroughNestingAndTaskwaits) {
  // W#2 writes X; P#3 waits for W, then creates C#4 which writes X: ordered through P's start.
  // C's parent P waits for C (a taskwait); Q#5, created later by main, waits for W and writes
  // X: racing with P and C unless Q waits for P too.
  auto build = [](bool q_waits_for_p) {
    SetBuilder b;
    b.object(1, "global", 8, "X");
    int w = b.add("W", 1, 1), p = b.add("P", 1, 1), c = b.add("C", p, 1), q = b.add("Q", 1, 1);
    b.uses(w, 1, 0, 8).uses(c, 1, 0, 8).uses(q, 1, 0, 8).uses(p, 1, 0, 8);
    b.after(p, w, trace::kRaw, 8, {1});
    b.after(p, c, trace::kRaw, 8, {1});
    b.after(q, w, trace::kRaw, 8, {1});
    if (q_waits_for_p) b.after(q, p, trace::kRaw, 8, {1});
    return b;
  };
  SetBuilder racing = build(false);
  tasks::Hints h = tasks::porting_hints(racing.set());
  const tasks::Warning* w = warning(h, "race", 1);
  ASSERT_NE(w, nullptr);
  // W is ordered before P, C and Q; P (C's parent) is not compared with C.
  EXPECT_EQ(w->count, 2u);
  EXPECT_EQ(w->instances, (std::vector<int>{3, 5}));
  EXPECT_EQ(w->types, (std::vector<std::string>{"P", "C", "Q"}));  // of the racing pairs

  SetBuilder ordered = build(true);
  EXPECT_EQ(warning(tasks::porting_hints(ordered.set()), "race", 1), nullptr);
}

TEST(TaskHints, ATaskwaitOrdersWhatTheParentCreatesAfterIt) {
  // P creates C1, waits for it (C1 -> P), then creates C2; both children write all of X.
  auto build = [](bool wait_before_second) {
    SetBuilder b;
    b.object(1, "global", 8, "X");
    int p = b.add("P", 1, 1);
    int c1 = b.add("C", p, 1);
    b.uses(c1, 1, 0, 8);
    if (wait_before_second) b.after(p, c1, trace::kRaw, 8, {1});
    int c2 = b.add("C", p, 1);
    if (!wait_before_second) b.after(p, c1, trace::kRaw, 8, {1});
    b.uses(c2, 1, 0, 8);
    return b;
  };
  SetBuilder ordered = build(true);
  EXPECT_EQ(warning(tasks::porting_hints(ordered.set()), "race", 1), nullptr);
  SetBuilder racing = build(false);  // the wait comes after C2 is created: C1 and C2 race
  tasks::Hints h = tasks::porting_hints(racing.set());
  const tasks::Warning* w = warning(h, "race", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->instances, (std::vector<int>{3, 4}));

  // Without steps (a set that does not say where the afters are), the wait counts at the end.
  TaskSet no_steps = ordered.set();
  for (trace::TaskInstance& i : no_steps.instances) i.steps = {};
  EXPECT_NE(warning(tasks::porting_hints(no_steps), "race", 1), nullptr);
}

TEST(TaskHints, RaceCheckStopsAtItsBudgetAndSaysSo) {
  SetBuilder b;
  b.object(1, "global", 8, "sum");
  for (int i = 0; i < 70; ++i) b.uses(b.add("dot", 1, 1), 1, 8, 8);  // #2..#71
  tasks::Hints all = tasks::porting_hints(b.set());
  EXPECT_TRUE(all.notes.empty());
  ASSERT_NE(warning(all, "race", 1), nullptr);
  EXPECT_EQ(warning(all, "race", 1)->count, 70u * 69u / 2u);
  EXPECT_EQ(warning(all, "race", 1)->instances.size(), 2u);

  tasks::HintOptions options;
  options.max_work = 1;  // one pass: the first 64 instances
  tasks::Hints h = tasks::porting_hints(b.set(), options);
  ASSERT_EQ(h.notes.size(), 1u);
  EXPECT_TRUE(contains(h.notes[0], "the race check stopped at instance #66")) << h.notes[0];
  const tasks::Warning* w = warning(h, "race", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->count, 2400u);  // #2..#65 with every later one: 69 + 68 + ... + 6
}

TEST(TaskHints, RaceCountsAcrossBlocksAndPartialWrites) {
  // 150 writers of a 100-byte object: odd instances write 60 bytes, even ones 30. Pairs that
  // provably overlap: two 60s (60 + 60 > 100); 60 + 30 and 30 + 30 may not. Each instance
  // from the 101st on waits for the one 100 before it.
  SetBuilder b;
  b.object(1, "heap", 100, "h");
  std::vector<int> ids;
  for (int k = 0; k < 150; ++k) {
    int id = b.add("w", 1, 1);
    ids.push_back(id);
    b.uses(id, 1, 0, id % 2 ? 60 : 30);
    if (k >= 100) b.after(id, ids[static_cast<std::size_t>(k - 100)], trace::kRaw, 1, {1});
  }
  // Brute force: i is ordered before j when j reaches i through `after` records.
  auto ordered = [&](int i, int j) {
    std::vector<int> todo = {j};
    while (!todo.empty()) {
      int k = todo.back();
      todo.pop_back();
      for (const trace::TaskDependency& d : b.set().after(b.set().instance(k))) {
        if (d.from == i) return true;
        todo.push_back(d.from);
      }
    }
    return false;
  };
  std::size_t expected = 0;
  for (int i : ids)
    for (int j : ids)
      if (i < j && i % 2 && j % 2 && !ordered(i, j)) ++expected;
  EXPECT_EQ(expected, 75u * 74u / 2u - 25u);
  tasks::Hints h = tasks::porting_hints(b.set());
  const tasks::Warning* w = warning(h, "race", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->count, expected);
  EXPECT_EQ(w->instances, (std::vector<int>{3, 5}));
}

TEST(TaskHints, ALocalTheTaskReadsAndWritesIsItsCopyNotPrivate) {
  // A task sums into main's `total` (read and written) and sets `last` (written only); nothing
  // traced reads them afterwards. Declared inside the task, total would lose the value it
  // reads: it is firstprivate, updated, never "private" as well.
  SetBuilder b;
  b.object(1, "stack", 8, "total").object(2, "stack", 4, "last");
  int t = b.add("sum", 1, 10);
  b.uses(t, 1, 8, 8).uses(t, 2, 0, 4);
  tasks::Hints h = tasks::porting_hints(b.set());
  ASSERT_EQ(h.types.size(), 1u);
  EXPECT_EQ(h.types[0].firstprivate, (std::vector<std::string>{"total"}));
  EXPECT_EQ(h.types[0].locals_updated, (std::vector<std::string>{"total"}));
  EXPECT_EQ(h.types[0].locals_private, (std::vector<std::string>{"last"}));
}

TEST(TaskHints, ACallersArrayIsInTheClausesNotALocal) {
  // main's matrix `a`, which the function creating the tasks reaches through its parameter
  // (object 2, a pointer it reads): each row task updates its rows and reads the next ones. The
  // tasks share the matrix, so it is in their clauses, with no warning that they write a local
  // of the code that creates them; the pointer is that code's local, passed by value.
  SetBuilder b;
  b.object(1, "stack", 512, "a").object(2, "stack", 8, "a");
  int x = b.add("rows", 1, 10), y = b.add("rows", 1, 10);
  b.outer_uses(x, 1, 256, 128, 0, 256).outer_uses(y, 1, 256, 128, 128, 384);
  b.uses(x, 2, 8, 0).uses(y, 2, 8, 0);
  b.after(y, x, trace::kRaw, 128, {1});
  tasks::Hints h = tasks::porting_hints(b.set());
  ASSERT_EQ(h.types.size(), 1u);
  ASSERT_EQ(h.types[0].objects.size(), 1u);
  EXPECT_EQ(h.types[0].objects[0].object, 1);
  EXPECT_EQ(h.types[0].objects[0].clause, tasks::Clause::InOut);
  EXPECT_EQ(h.types[0].callers_locals, (std::vector<std::string>{"a"}));
  EXPECT_EQ(h.types[0].firstprivate, (std::vector<std::string>{"a"}));  // the pointer
  EXPECT_EQ(h.types[0].openmp, "#pragma omp task depend(inout: a)");
  EXPECT_TRUE(h.warnings.empty()) << h.warnings.front().message;
}

TEST(TaskHints, RaceOnOneElementOfALargerObject) {
  // Two sibling guesses of a sudoku write the same 4-byte cell of a 64-byte board (together 8
  // bytes, far fewer than the board's 64): their spans say it is the same cell.
  SetBuilder b;
  b.object(1, "global", 64, "board");
  int x = b.add("guess", 1, 1), y = b.add("guess", 1, 1);
  b.uses(x, 1, 0, 4, false, 4, 8).uses(y, 1, 0, 4, false, 4, 8);
  tasks::Hints h = tasks::porting_hints(b.set());
  const tasks::Warning* w = warning(h, "race", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->count, 1u);
  // Other cells, or spans that meet without proving a common byte (4 + 4 bytes in 24): none.
  SetBuilder c;
  c.object(1, "global", 64, "board");
  int p = c.add("guess", 1, 1), q = c.add("guess", 1, 1), r = c.add("guess", 1, 1);
  c.uses(p, 1, 0, 4, false, 0, 4).uses(q, 1, 0, 4, false, 4, 8);
  c.uses(r, 1, 0, 4, false, 0, 24);
  EXPECT_EQ(warning(tasks::porting_hints(c.set()), "race", 1), nullptr);
}

TEST(TaskHints, ARaceFromUpdatesWhileDisabledIsNotProven) {
  // A updates elements 0 and 2 of a 3-long disabled array twice each (32 bytes counted, once
  // per access, in its 24-byte span), B element 1 once: no byte in common, which the trace
  // cannot prove; the warning says the overlap is not proven. The same bytes written while
  // tracked are proven.
  auto build = [](bool disabled) {
    SetBuilder b;
    b.object(1, "global", 24, "acc");
    int a = b.add("A", 1, 1), c = b.add("B", 1, 1);
    b.uses(a, 1, 32, 32, disabled, 0, 24).uses(c, 1, 8, 8, disabled, 8, 16);
    return b;
  };
  SetBuilder disabled = build(true);
  tasks::Hints h = tasks::porting_hints(disabled.set());
  const tasks::Warning* w = warning(h, "race", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(contains(w->message, "may write some of the same bytes (not proven")) << w->message;
  SetBuilder tracked = build(false);
  tasks::Hints tracked_hints = tasks::porting_hints(tracked.set());
  w = warning(tracked_hints, "race", 1);
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(contains(w->message, "so both write some of the same bytes")) << w->message;
}

TEST(TaskHints, RacesOnTheBlocksOfOneSiteAreOneWarning) {
  // Two blocks of one allocation site and one of another, each written whole by both tasks.
  SetBuilder b;
  b.object(1, "heap", 16, "p").object(2, "heap", 16, "p").object(3, "heap", 16, "q");
  int x = b.add("forces", 1, 1), y = b.add("forces", 1, 1);
  for (int id : {x, y}) b.uses(id, 1, 0, 16).uses(id, 2, 0, 16).uses(id, 3, 0, 16);
  tasks::Hints h = tasks::porting_hints(b.set());
  ASSERT_EQ(h.warnings.size(), 2u);
  EXPECT_EQ(h.warnings[0].object, 1);
  EXPECT_EQ(h.warnings[0].count, 2u);  // a pair on each block
  EXPECT_TRUE(contains(h.warnings[0].message, "(the same on 1 other object named p)"))
      << h.warnings[0].message;
  EXPECT_EQ(h.warnings[1].object, 3);
  EXPECT_FALSE(contains(h.warnings[1].message, "the same on")) << h.warnings[1].message;
}

TEST(TaskHints, FlowsThroughOneVariableOfEachFrameAreOneWarning) {
  // A recursive function's parameter, an object per frame: a flow through each between the
  // same types is one warning.
  SetBuilder b;
  b.object(1, "stack", 4, "start_fil").object(2, "stack", 4, "start_fil");
  int a = b.add("rec", 1, 1), c = b.add("rec", 1, 1), d = b.add("rec", 1, 1),
      e = b.add("rec", 1, 1);
  b.uses(a, 1, 0, 4).uses(c, 1, 4, 0).uses(d, 2, 0, 4).uses(e, 2, 4, 0);
  b.after(c, a, trace::kRaw, 4, {1}).after(e, d, trace::kRaw, 4, {2});
  tasks::Hints h = tasks::porting_hints(b.set());
  std::size_t flows = 0;
  for (const tasks::Warning& w : h.warnings) {
    if (w.code != "stack") continue;
    ++flows;
    EXPECT_TRUE(contains(w.message, "(the same on 1 other object named start_fil)")) << w.message;
  }
  EXPECT_EQ(flows, 1u);
}

TEST(TaskHints, AParentReadingItsChildsResultIsNoStackFlow) {
  // fib: a task reads x, its own local its child task wrote: the child's result needs a
  // taskwait and x shared ([stack-write]), which no value passed could replace; a sibling's
  // read of it is a flow between tasks.
  SetBuilder b;
  b.object(1, "stack", 8, "x");
  int outer = b.add("outer", 1, 1);
  int inner = b.add("inner", outer, 1);
  b.uses(inner, 1, 0, 8).uses(outer, 1, 8, 0);
  b.after(outer, inner, trace::kRaw, 8, {1});
  tasks::Hints h = tasks::porting_hints(b.set());
  EXPECT_EQ(warning(h, "stack", 1), nullptr);
  EXPECT_NE(warning(h, "stack-write", 1), nullptr);
  SetBuilder c;
  c.object(1, "stack", 8, "x");
  int writer = c.add("inner", 1, 1), reader = c.add("outer", 1, 1);
  c.uses(writer, 1, 0, 8).uses(reader, 1, 8, 0);
  c.after(reader, writer, trace::kRaw, 8, {1});
  EXPECT_NE(warning(tasks::porting_hints(c.set()), "stack", 1), nullptr);
}

TEST(TaskHints, BlocksAnInstanceAllocatesAndFreesAreInNoClause) {
  // "smooth" works in a block of its own, freed before it ends; "build" fills one that main
  // frees later (an output); "mixed" frees its block in one instance and keeps it in another.
  SetBuilder b;
  b.object(1, "heap", 64, "malloc@s.c:12").object(2, "heap", 64, "malloc@s.c:12");
  b.object(3, "heap", 64, "malloc@s.c:20").object(4, "heap", 64, "malloc@s.c:30");
  b.object(5, "heap", 64, "malloc@s.c:30").object(6, "global", 64, "a");
  int s1 = b.add("smooth", 1, 1), s2 = b.add("smooth", 1, 1);
  b.temporary(s1, 1, 64, 64).uses(s1, 6, 64, 0).temporary(s2, 2, 64, 64).uses(s2, 6, 64, 0);
  int f = b.add("build", 1, 1);
  b.uses(f, 3, 0, 64);
  int m1 = b.add("mixed", 1, 1), m2 = b.add("mixed", 1, 1);
  b.temporary(m1, 4, 0, 64).uses(m2, 5, 0, 64);
  tasks::Hints h = tasks::porting_hints(b.set());
  ASSERT_EQ(h.types.size(), 3u);
  const tasks::TypeHints& smooth = h.types[0];
  EXPECT_EQ(smooth.ompss, "#pragma omp task in(a)");
  EXPECT_EQ(smooth.temporaries, (std::vector<std::string>{"malloc@s.c:12"}));
  EXPECT_EQ(h.types[1].ompss, "#pragma omp task out(malloc@s.c:20)");
  EXPECT_TRUE(h.types[1].temporaries.empty());
  EXPECT_EQ(h.types[2].ompss, "#pragma omp task out(malloc@s.c:30)");
  EXPECT_TRUE(h.types[2].temporaries.empty()) << "a block of the site is kept: in the clauses";
}

TEST(TaskHints, ATaskThatCreatesTasksNamesWhatTheyUse) {
  // produce's children write x, consume's read x and write y: the runtime orders produce and
  // consume (siblings) only by their own clauses. produce's scratch block, which its child
  // fills, is in none; a grandchild's global is its grandparent's too.
  SetBuilder b;
  b.object(1, "global", 64, "x").object(2, "global", 64, "y").object(3, "heap", 64, "s");
  b.object(4, "global", 8, "g");
  int p = b.add("produce", 1, 1), q = b.add("consume", 1, 1);
  int f = b.add("fill", p, 1), c = b.add("scale", q, 1), d = b.add("deep", c, 1);
  b.temporary(p, 3, 64, 0).uses(f, 1, 0, 64).uses(f, 3, 0, 64);
  b.uses(c, 1, 64, 0).uses(c, 2, 0, 64).uses(d, 4, 8, 0);
  tasks::Hints h = tasks::porting_hints(b.set());
  std::map<std::string, std::string> pragmas;
  for (const tasks::TypeHints& th : h.types) pragmas[b.set().types[th.type]] = th.ompss;
  EXPECT_EQ(pragmas["produce"], "#pragma omp task out(x)");
  EXPECT_EQ(pragmas["fill"], "#pragma omp task out(x, s)");
  EXPECT_EQ(pragmas["consume"], "#pragma omp task in(x, g) out(y)");
  EXPECT_EQ(pragmas["scale"], "#pragma omp task in(x, g) out(y)");
}

TEST(TaskHints, GlobalsWrittenByTypesAndTheStack) {
  SetBuilder b;
  b.object(1, "global", 800, "G").object(2, "stack", 0, "stack").object(3, "heap", 80, "H");
  int p = b.add("produce", 1, 1), c = b.add("consume", 1, 1), u = b.add("update", 1, 1);
  b.uses(p, 1, 0, 8).uses(u, 1, 8, 8).uses(c, 1, 8, 0);
  b.uses(p, 2, 0, 4);  // writes a local of main
  b.after(c, p, trace::kRaw, 4, {2});
  b.after(u, p, trace::kRaw, 8, {1});
  b.after(1, p, trace::kRaw, 4, {2});  // main reads it too (its child's result: no flow)
  tasks::Hints h = tasks::porting_hints(b.set());
  ASSERT_EQ(h.warnings.size(), 3u);
  const tasks::Warning& shared = h.warnings[0];
  EXPECT_EQ(shared.code, "shared-global");
  EXPECT_EQ(shared.object, 1);
  EXPECT_EQ(shared.types, (std::vector<std::string>{"produce", "update"}));
  EXPECT_EQ(shared.instances, (std::vector<int>{2, 4}));
  EXPECT_TRUE(contains(shared.message, "global G is written by tasks of 2 types (produce, update)"))
      << shared.message;
  const tasks::Warning& write = h.warnings[1];
  EXPECT_EQ(write.code, "stack-write");
  EXPECT_EQ(write.types, (std::vector<std::string>{"produce"}));
  EXPECT_EQ(write.instances, (std::vector<int>{2}));
  // The flow through the stack between siblings, produce -> consume (main, produce's parent,
  // waits for the result it reads: stack-write says so).
  EXPECT_EQ(h.warnings[2].code, "stack");
  EXPECT_EQ(h.warnings[2].instances, (std::vector<int>{2, 3}));
  EXPECT_EQ(h.warnings[2].types, (std::vector<std::string>{"produce", "consume"}));
}

// ---- Outputs into a trace set ------------------------------------------------------------------

TEST(TaskOutputs, WritesGraphReportsAndJson) {
  TempDir dir;
  SetBuilder b = three_tasks();
  b.uses(2, 1, 0, 4096).uses(3, 1, 1638, 0).uses(3, 2, 0, 64).uses(4, 3, 8, 8);
  tasks::OutputOptions options;
  options.format = "svg";
  std::vector<std::string> progress;
  options.slow_nodes = 1;
  options.progress = [&](const std::string& m) { progress.push_back(m); };
  tasks::Report r = tasks::write_outputs(dir.path(""), "demo", 3, b.set(), options, {"a note"});
  EXPECT_EQ(r.files, (std::vector<std::string>{"taskgraph.3.dot", "taskgraph.3.svg"}));
  EXPECT_EQ(r.nodes, 3u);
  EXPECT_EQ(r.edges, 2u);
  EXPECT_EQ(progress.size(), 3u);  // layout, rendering, done
  std::ostringstream expected;
  tasks::write_dot(expected, b.set(), tasks::build_graph(b.set()),
                   "demo, rank 3: 3 tasks, 2 dependencies");
  EXPECT_EQ(testing::read_file(dir.path("taskgraph.3.dot")), expected.str());
  EXPECT_TRUE(contains(testing::read_file(dir.path("taskgraph.3.svg")), "C #4"));
  std::string text = testing::read_file(dir.path("taskreport.3.txt"));
  EXPECT_EQ(text, tasks::report_text(b.set(), r));
  EXPECT_TRUE(contains(text, "Tasks of demo, rank 3 (tasks.3.trc)")) << text;
  EXPECT_TRUE(contains(text, "  note: a note\n"));
  EXPECT_TRUE(contains(text, "#pragma omp task in(X) out(Y)")) << text;
  EXPECT_TRUE(contains(text, "#pragma omp task depend(inout: Z)")) << text;
  EXPECT_TRUE(contains(text, "99.")) << text;  // C's share
  auto json = nlohmann::json::parse(testing::read_file(dir.path("taskreport.3.json")));
  EXPECT_EQ(json["format"], "tareador-taskreport");
  EXPECT_EQ(json["rank"], 3);
  EXPECT_EQ(json["graph"]["files"][1], "taskgraph.3.svg");
  EXPECT_EQ(json["types"][0]["name"], "C");
  EXPECT_EQ(json["types"][0]["color"], tasks::type_colors(b.set())[3]);
  EXPECT_EQ(json["hints"][1]["type"], "B");
  EXPECT_EQ(json["hints"][1]["in"], nlohmann::json::array({"X"}));
  EXPECT_EQ(json["hints"][1]["out"], nlohmann::json::array({"Y"}));
  EXPECT_EQ(json["notes"][0], "a note");

  // Past --max-nodes the graph is not rendered, and the report says so.
  options.max_nodes = 2;
  tasks::Report big = tasks::write_outputs(dir.path(""), "demo", 4, b.set(), options);
  EXPECT_EQ(big.files, (std::vector<std::string>{"taskgraph.4.dot"}));
  ASSERT_EQ(big.notes.size(), 1u);
  EXPECT_TRUE(
      contains(big.notes[0], "taskgraph.4.svg not rendered: 3 tasks, more than --max-nodes=2"));
  EXPECT_FALSE(std::filesystem::exists(dir.path("taskgraph.4.svg")));
}

}  // namespace
}  // namespace tareador

namespace tareador {
namespace {

// The hand-written trace set tests/fixtures/taskgraph, read by the trace reader.
TEST(TaskOutputs, FromATraceSet) {
  TempDir dir;
  std::filesystem::copy(testing::fixture("taskgraph"), dir.path("set"));
  auto traces = trace::open_traces(dir.path("set"), {"tasks"});
  ASSERT_EQ(traces.size(), 1u);
  const trace::TraceHeader& h = traces[0]->header();
  ASSERT_EQ(h.task_sets.size(), 1u);
  const TaskSet& set = h.task_sets[0];
  ASSERT_EQ(set.instances.size(), 7u);
  EXPECT_EQ(set.types, (std::vector<std::string>{"main", "init", "compute", "reduce", "acc"}));

  tasks::OutputOptions options;
  tasks::Report r = tasks::write_outputs(dir.path("set"), h.name, 0, set, options);
  EXPECT_EQ(r.nodes, 6u);
  EXPECT_EQ(r.edges, 6u);
  std::string dot = testing::read_file(dir.path("set/taskgraph.0.dot"));
  EXPECT_TRUE(contains(dot, "t3->t5  [label=\"heap#2@blocks.c:13, stack (260 B)\", style=solid"))
      << dot;
  EXPECT_TRUE(contains(dot, "t5->t7  [label=\"total (8 B)\""));
  EXPECT_TRUE(contains(dot, "t3 [label=\"compute #3\\n300 K instr\""));

  ASSERT_EQ(r.profile.types.size(), 5u);
  EXPECT_EQ(r.profile.types[0].type, "compute");
  EXPECT_DOUBLE_EQ(r.profile.types[0].total, 550000);
  EXPECT_DOUBLE_EQ(r.profile.types[0].mean, 275000);
  EXPECT_DOUBLE_EQ(r.profile.types[0].max, 300000);
  EXPECT_DOUBLE_EQ(r.profile.types[0].share, 55);
  EXPECT_EQ(r.profile.types[1].type, "main");
  EXPECT_DOUBLE_EQ(r.profile.types[1].share, 25);

  ASSERT_EQ(r.hints.types.size(), 4u);
  EXPECT_EQ(r.hints.types[1].ompss,
            "#pragma omp task in(heap#1@blocks.c:12) out(heap#2@blocks.c:13)");
  EXPECT_EQ(r.hints.types[3].openmp, "#pragma omp task depend(inout: total)");
  std::vector<std::string> codes;
  for (const tasks::Warning& w : r.hints.warnings) codes.push_back(w.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"shared-global", "race", "stack-write", "stack"}));
  EXPECT_EQ(r.hints.warnings[1].instances, (std::vector<int>{6, 7}));

  auto json = nlohmann::json::parse(testing::read_file(dir.path("set/taskreport.0.json")));
  EXPECT_EQ(json["name"], "blocks");
  EXPECT_EQ(json["trace"], "tasks.0.trc");
  EXPECT_EQ(json["warnings"][1]["code"], "race");
  EXPECT_EQ(json["warnings"][1]["object_name"], "total");
}

}  // namespace
}  // namespace tareador
