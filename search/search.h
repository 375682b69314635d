// search.h — the offline search of task decompositions (thesis 6.3, Fig. 6.21) over the potential
// tasks one run recorded (`tareador --potential-tasks=functions`, the set's potential.N.txt):
// the call tree, the task graph of any decomposition of it, its replay, the costs that pick the
// bottleneck (eqs. 6.1-6.8) and the search that breaks bottlenecks until no task is left.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tareador/trace.h"

namespace tareador::search {

// Address intervals [first, second), sorted, disjoint and not touching.
using Spans = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// ---- The recording ----------------------------------------------------------------------------

struct Function {
  std::string name;
  bool region = false;  // an annotated region (tareador_start_task), not a call
  std::string where;    // file:line of its definition, "" when unknown
  // As reports name it: the function's name, "region:NAME" for a region (a function may have
  // the name of the region around its call).
  std::string label() const { return region ? "region:" + name : name; }
};

// A stretch of a node's own work between two of its children: its instructions, the bytes it
// read before writing them and the bytes it wrote; then the heap bytes allocated or freed (what
// they held is forgotten).
struct Segment {
  double instructions = 0;
  Spans read, written, forgotten;
};

struct Node {
  int function = 0;
  int parent = -1;              // index of the calling node; -1 for main
  std::uint64_t frame_top = 0;  // stack pointer before the call: below are its own frames
  std::vector<Segment> segments;
  std::vector<int> children;
  // Its work in order: k >= 0 is segments[k], k < 0 the child node -k - 1.
  std::vector<int> items;
  double total = 0;  // instructions of its subtree
};

struct CallTree {
  std::string path, name;  // the file, and the program
  std::vector<Function> functions;
  std::vector<Node> nodes;                   // in call order; nodes[0] is main
  std::uint64_t stack_lo = 0, stack_hi = 0;  // the traced thread's stack
  bool truncated = false;  // the run died: nodes still open end where the file does
  double mips = 1000;      // of the trace set, for times in seconds
  // What the rank's manifest says of the recording (calls past --potential-max-calls left to
  // their caller, intervals merged): what the search's answers are subject to.
  std::vector<std::string> notes;
};

// Reads a potential.N.txt file (docs/trace-format.md, "Potential tasks"); throws
// trace::FormatError (file:line) on a malformed one.
CallTree read_call_tree(const std::string& path);
// The recording of rank `rank` of a trace set (and the set's MIPS rate and program name).
CallTree read_trace_set(const std::string& dir, int rank = 0);

// ---- Decompositions ---------------------------------------------------------------------------

// Which nodes are broken: a broken node is no task, its children are candidates in its place
// and its own work belongs to the task around it (the main task). A node is a task when it is
// not broken and every node above it is.
struct Decomposition {
  std::vector<bool> broken;  // per node
};
Decomposition whole_main(const CallTree& tree);  // main as one task
// Breaks every node of `function` (a type is broken as a whole, as the thesis does).
void break_function(const CallTree& tree, Decomposition& d, int function);

// The decomposition as the trace a tasks run with these tasks would have left (one rank).
// `kinds`: which dependencies count (trace::kRaw, kWar, kWaw), as tareador --deps does.
std::unique_ptr<trace::Trace> task_trace(const CallTree& tree, const Decomposition& d,
                                         std::uint8_t kinds);

// ---- Costs and the search ---------------------------------------------------------------------

struct Options {
  int cores = 4;
  double p1 = 1, p2 = 1, p3 = 3;  // control parameters of the three costs (eq. 6.8)
  std::uint8_t kinds = trace::kRaw;
};

// One task type of a decomposition: eqs. 6.1, 6.3, 6.5 (length: the longest instance in
// instructions; dependencies: the most edges one instance has with other task instances;
// concurrency: sum over the instances of time / instances running at once), their normalised
// forms (eqs. 6.2, 6.4, 6.6) and their sum (eq. 6.7).
struct TypeCost {
  int function = 0;
  int instances = 0;
  double length = 0, dependencies = 0, concurrency = 0;
  double length_cost = 0, dependency_cost = 0, concurrency_cost = 0;
  double total() const { return length_cost + dependency_cost + concurrency_cost; }
  std::string dominant() const;  // "length", "dependencies" or "concurrency"
};

// The normalised cost of each of `values` with control parameter p: v^p / sum of w^p (0 when
// every value is 0).
std::vector<double> normalised(const std::vector<double>& values, double p);

struct Evaluation {
  int instances = 0;  // task instances, the main task included
  double time = 0, one_core_time = 0, speedup = 0;
  std::vector<TypeCost> costs;  // per task type (not the main task's own work), by function
  int bottleneck = -1;          // index into costs of the largest total, -1 when none
};

// Replays the decomposition (critical-path policy, `cores` cores, an ideal network) and costs
// its task types.
Evaluation evaluate(const CallTree& tree, const Decomposition& d, const Options& options);

struct Iteration {
  Decomposition decomposition;
  Evaluation evaluation;
  std::vector<std::string> tasks;  // the task types, by name
};

// Fig. 6.21 from main as one task: each iteration breaks the bottleneck's type, until no task is
// left. `progress` (optional) hears of each iteration as it ends.
std::vector<Iteration> run(const CallTree& tree, const Options& options,
                           const std::function<void(const Iteration&, int index)>& progress = {});
// The iteration with the highest speedup (the fewest instances among equals).
std::size_t best(const std::vector<Iteration>& iterations);

// A decomposition to compare with (the thesis's "default decomposition"): the tasks trace of an
// annotated run, replayed as the search replays its own.
struct Reference {
  std::string path;
  double speedup = 0;
  int instances = 0;
  std::vector<std::string> types;  // its task types, sorted, the main task left out
};
// Throws trace::FormatError when `dir` has no tasks trace.
Reference read_reference(const std::string& dir, const Options& options);
// The first iteration whose task types are the reference's, or iterations.size().
std::size_t matching_iteration(const std::vector<Iteration>& iterations, const Reference& ref);

// The report: one CSV row per iteration; the four plots of thesis Figs. 6.25-6.28 (speedup,
// instances, cost distribution of the bottleneck, its dominant cost) as one SVG document each.
std::string csv(const CallTree& tree, const std::vector<Iteration>& iterations);
// With `reference`, the first two plots show its speedup and instances too.
std::vector<std::pair<std::string, std::string>> svg_plots(const CallTree& tree,
                                                           const std::vector<Iteration>& iterations,
                                                           const Options& options,
                                                           const Reference* reference = nullptr);

}  // namespace tareador::search
