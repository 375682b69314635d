// taskgraph.h — what one rank's task decomposition looks like (SPEC 3.3, thesis 4.4.2, 6.1):
//
// - the task dependency graph: Boost.Graph in memory, Graphviz DOT on disk (nodes "TYPE #ID"
//   filled with a colour per type, edges labelled by objects and bytes, optionally creation
//   edges, a legend), runs of like instances grouped when large, laid out top-down by depth in
//   a readable shape (taskgraph_layout.h), rendered to SVG or PNG with Graphviz's library
//   (libgvc; never by running `dot`; taskgraph_render.cpp);
// - the profile per task type (thesis Fig. 6.6): instances, total / mean / max instructions,
//   share of the rank's instructions;
// - the porting hints: per task type the objects its instances read only, write only, read and
//   write, as OmpSs `in/out/inout` and OpenMP `depend` clauses, and warnings about objects that
//   a task uses but that should be passed or protected.
//
// Input: a trace::TaskSet (the tasks stream of one rank, docs/trace-format.md). Everything here
// is deterministic: the same task set gives the same bytes out. Used by `tareador-tasks`; see
// docs/tasks.md for how to read the outputs.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "tareador/trace.h"

namespace tareador::tasks {

// ---- The dependency graph ---------------------------------------------------------------------

struct TaskVertex {
  int instance = 0;         // instance id (1 = the main task); of a group, its first instance
  int type = 0;             // index into TaskSet::types
  double instructions = 0;  // of a group, of all its instances
  bool mpi = false;
  std::vector<int> group;  // a grouped node: the instances it stands for; else empty
};

// One edge per pair (from, to) with at least one `after` record: several records between the
// same pair are merged (kinds or-ed, bytes added, objects in order of first mention). A
// creation edge (parent -> child, from a `spawn` record) carries none of these.
struct TaskEdge {
  std::uint8_t kinds = 0;  // trace::kRaw | kWar | kWaw
  std::int64_t bytes = 0;
  std::vector<int> objects;  // object ids
  bool creation = false;
  std::size_t count = 1;  // edges of the exact graph it stands for (grouping merges them)
};

// Vertices in increasing instance id; out-edges of a vertex in the order of the instances
// that depend on it. Directed from the instance depended on to the one that waits.
using TaskGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, TaskVertex, TaskEdge>;

struct GraphOptions {
  bool with_main = false;       // include the main task (instance 1) and its edges
  bool creation_edges = false;  // add an edge from each instance to each it created
};

TaskGraph build_graph(const trace::TaskSet& set, const GraphOptions& options = {});

// The graph with runs of instances made one node each: consecutive instances of a type (in
// instance order) at the same depth (docs/tasks.md) whose predecessors and successors are the
// same nodes of the grouped graph (kinds of edge told apart), found by splitting runs until
// that holds. Edges between two nodes are merged (kinds or-ed, bytes and counts added).
TaskGraph group_graph(const TaskGraph& graph);

// Fill colour ("#rrggbb") of each task type (indexed like TaskSet::types). The main task is
// grey; the others come from a fixed palette of light colours: a type's preferred colour is
// chosen by a hash of its name, and types (in name order) that would share one move to the
// next free colour, so types of one graph differ (up to the palette size) and a type keeps its
// colour from run to run.
std::vector<std::string> type_colors(const trace::TaskSet& set);
std::size_t palette_size();

// "1.6 KB" (KB = 1024 bytes, MB = 2^20, GB = 2^30; below 1 KB: "17 B").
std::string format_bytes(std::int64_t bytes);
// "950", "12.5 K", "1.2 M", "3 G" (powers of 1000).
std::string format_count(double count);
// "raw", "war+waw", ...
std::string format_kinds(std::uint8_t kinds);
// The name of type index `type`, or "?" when the set has no such type.
const std::string& type_name(const trace::TaskSet& set, int type);
// The items with `separator` between them.
std::string join(const std::vector<std::string>& items, const std::string& separator);
// Name of an object for reports: its NAME, or "object#ID" when the set does not declare it.
std::string object_name(const trace::TaskSet& set, int id);

// Labels as the DOT shows them (lines separated by '\n'): "TYPE #ID" or "TYPE x N" with the
// instances, the instructions, MPI; the objects and bytes of a dependency ("N dependencies:"
// before them when grouped), nothing for a creation.
std::string node_label(const trace::TaskSet& set, const TaskVertex& v);
std::string edge_label(const trace::TaskSet& set, const TaskEdge& e);

// The graph in Graphviz DOT, written with boost::write_graphviz, with what lays it out
// readably (taskgraph_layout.h): nothing for a graph dot draws well as it is; rank constraints
// and invisible edges (style=invis: not dependencies) for wrapped levels; `layout=nop2` and
// node positions otherwise. `title` heads the legend.
void write_dot(std::ostream& out, const trace::TaskSet& set, const TaskGraph& graph,
               const std::string& title);

// Lays a DOT graph out with the engine its `layout` attribute names, else dot, and renders it
// ("svg" or "png") into `path` through libgvc. `stage` (if set) is told what is being done
// ("layout", "render"). A PNG is scaled down to fit 80 x 80 inches (7680 pixels) unless the
// graph sets `size`. Throws std::runtime_error with Graphviz's message on failure.
void render_dot(const std::string& dot, const std::string& format, const std::string& path,
                const std::function<void(const std::string&)>& stage = {});

// ---- The profile per task type (thesis Fig. 6.6) ----------------------------------------------

struct TypeProfile {
  std::string type;
  std::string color;
  std::size_t instances = 0;
  std::size_t mpi_instances = 0;        // instances holding MPI calls
  double total = 0, mean = 0, max = 0;  // instructions
  double share = 0;                     // total / all instructions of the rank, in percent
};

struct Profile {
  std::size_t instances = 0;
  double instructions = 0;         // all instructions of the rank (main task included)
  std::vector<TypeProfile> types;  // every type, main included; by total descending, then name
};

Profile profile(const trace::TaskSet& set);

// ---- Porting hints (thesis 4.4.2) --------------------------------------------------------------

enum class Clause { In, Out, InOut };
const char* clause_name(Clause c);  // "in", "out", "inout"

// How the instances of one type use one of the program's objects, or several of one kind and
// name (the blocks of one allocation site). Locals of the code that creates the tasks are not
// parameters (they are listed apart: firstprivate, private, or a warning when a task writes one
// that is read afterwards); constants and the libraries' memory are no clause's business.
struct ObjectUse {
  int object = 0;              // the first object of the group
  std::size_t objects = 1;     // how many objects of that kind and name the type used
  std::int64_t size = 0;       // their sizes added up
  Clause clause = Clause::In;  // read only / written only / both, over all the type's instances
  std::size_t instances = 0;   // instances of the type that use it
  std::int64_t read = 0, written = 0;          // bytes, summed over those instances
  std::int64_t max_read = 0, max_written = 0;  // bytes, the most one instance read / wrote
};

struct TypeHints {
  int type = 0;  // index into TaskSet::types
  std::size_t instances = 0;
  std::vector<ObjectUse> objects;  // in object declaration order
  // Bytes of the stack outside the instances' own frames (locals of the code that creates
  // them) read and written, at most per instance.
  std::int64_t stack_read = 0, stack_written = 0;
  // Those locals by name: read (passed by value: firstprivate); written and never read, by the
  // task or afterwards (private to the task); read and written, not read afterwards (the
  // task's copy, updated: firstprivate too); written and read afterwards (a warning).
  std::vector<std::string> firstprivate, locals_private, locals_updated, locals_shared;
  // alloca blocks of the code that creates them, used through a pointer: no clause copies them,
  // so they stay shared and that code's function must wait for the task before it returns.
  std::vector<std::string> stack_buffers;
  // Locals of the functions that call the one creating them (TaskObject::caller: a matrix of
  // `main` passed down), reached through pointers: shared, in the clauses (`objects`).
  std::vector<std::string> callers_locals;
  std::vector<std::string> temporaries;  // heap blocks each instance allocated and freed itself
  std::vector<std::string> disabled;     // objects used while disabled: reductions, atomic updates
  std::vector<std::string> left_out;     // used objects that are not the program's data
  std::string ompss;                     // "#pragma omp task in(A) out(B) inout(C)"
  std::string openmp;                    // "#pragma omp task depend(in: A) depend(out: B) ..."
};

struct Warning {
  std::string code;  // "shared-global", "race", "stack-write", "stack"
  int object = 0;
  std::vector<std::string> types;  // task types concerned, in TaskSet::types order
  std::vector<int> instances;      // an example: the instances concerned (at most two)
  std::size_t count = 0;           // how many cases (pairs, dependencies, types) were found
  std::string message;             // one sentence saying what and what to do
};

struct Hints {
  std::vector<TypeHints> types;    // every type but main, in TaskSet::types order
  std::vector<Warning> warnings;   // by object id, then code, then first instance
  std::vector<std::string> notes;  // limits met by the analysis, if any
};

struct HintOptions {
  // The race check passes over the events of the run once per 64 instances it looks at; it
  // stops (and says so in the notes) before its passes visit more than this many events and
  // edges in all, so that huge runs stay fast. Deterministic.
  std::size_t max_work = 200000000;
};

Hints porting_hints(const trace::TaskSet& set, const HintOptions& options = {});

// ---- The report: taskreport.N.txt / .json ------------------------------------------------------

struct Report {
  std::string name;  // application name
  int rank = 0;
  std::string trace;                 // the tasks stream it comes from
  std::size_t nodes = 0, edges = 0;  // of the graph as written
  bool with_main = false;
  std::vector<std::string> files;  // graph files written (names relative to the set)
  Profile profile;
  Hints hints;
  std::vector<std::string> notes;  // e.g. "rank 1 truncated: ...", "graph not rendered: ..."
};

std::string report_text(const trace::TaskSet& set, const Report& report);
nlohmann::ordered_json report_json(const trace::TaskSet& set, const Report& report);

// ---- Everything for one rank, into a trace-set directory ----------------------------------------

struct OutputOptions {
  GraphOptions graph;
  std::string format = "dot";    // "dot" (DOT only), "svg" or "png" (DOT and the rendering)
  std::size_t max_nodes = 2000;  // larger graphs are not rendered (0: no limit)
  bool group = true;             // group instances (group_graph) in graphs larger than:
  std::size_t group_above = 200;
  std::size_t slow_nodes = 200;  // from this many nodes, `progress` hears about the stages
  std::function<void(const std::string&)> progress;  // stage messages (for stderr), or none
  HintOptions hints;
};

// Writes DIR/taskgraph.N.dot (and .svg/.png), DIR/taskreport.N.txt and DIR/taskreport.N.json
// and returns the report. Throws trace::FormatError when a file cannot be written.
Report write_outputs(const std::string& dir, const std::string& name, int rank,
                     const trace::TaskSet& set, const OutputOptions& options,
                     const std::vector<std::string>& notes = {});

}  // namespace tareador::tasks
