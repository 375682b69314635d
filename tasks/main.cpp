// tareador-tasks — the task dependency graph, the profile per task type and the porting hints of
// a trace set's `tasks` trace. A thin command over taskgraph.h: parse options, read the set,
// write DIR/taskgraph.N.dot (.svg/.png), DIR/taskreport.N.txt and .json per rank.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "tareador/trace.h"
#include "tasks/emit_source.h"
#include "tasks/taskgraph.h"

namespace {

namespace tasks = tareador::tasks;
namespace trace = tareador::trace;
namespace cli = tareador::cli;

struct Options {
  std::string dir;
  int rank = -1;  // -1: every rank
  bool all = false;
  std::string format = "dot";
  bool with_main = false;
  bool creation_edges = false;
  bool no_group = false;
  std::size_t group_above = 200;
  std::size_t max_nodes = 2000;
  bool quiet = false;
  bool emit_source = false;
  std::string dialect = "openmp";
  std::string output;  // of --emit-source; empty: stdout
  std::string source_dir;
};

// The set's notes about `rank` (its manifest's warnings, a truncation).
std::vector<std::string> rank_notes(const trace::TraceHeader& header, int rank) {
  std::vector<std::string> notes;
  const std::string prefix = "rank " + std::to_string(rank);
  for (const std::string& n : header.notes)
    if (n.compare(0, prefix.size(), prefix) == 0 &&
        (n.size() == prefix.size() || n[prefix.size()] == ' ' || n[prefix.size()] == ':'))
      notes.push_back(n);
  return notes;
}

// Whether the tool found no write-after-read dependencies for `rank` (an older set does not
// say): the creating code's writes to what its pending tasks read are then unseen.
bool traced_without_war(const trace::TraceHeader& header, int rank) {
  const std::vector<std::string>& kinds = header.task_dependencies;
  auto r = static_cast<std::size_t>(rank);
  return r < kinds.size() && !kinds[r].empty() && kinds[r].find("war") == std::string::npos;
}

// --emit-source: the annotated source of one rank's decomposition, as a diff; the rank's notes
// first (an optimised build's trace misses dependencies the generated pragmas then lack).
int emit_source(const Options& o, const trace::TraceHeader& header, int rank) {
  const trace::TaskSet& set = header.task_sets[static_cast<std::size_t>(rank)];
  tasks::EmitOptions options;
  options.dialect = o.dialect == "ompss" ? tasks::Dialect::OmpSs : tasks::Dialect::OpenMP;
  options.source_dir = o.source_dir;
  tasks::EmitResult result = tasks::emit_source(set, options);
  if (o.output.empty()) {
    std::cout << result.diff;
  } else {
    std::ofstream out(o.output, std::ios::binary);
    out << result.diff;
    if (!out.flush()) throw trace::FormatError(o.output, 0, "cannot write the diff");
  }
  if (!o.quiet) {
    for (const std::string& note : rank_notes(header, rank))
      std::cerr << "tareador-tasks: note: " << note << "\n";
    if (traced_without_war(header, rank))
      std::cerr << "tareador-tasks: note: rank " << rank
                << " was traced without --deps=raw+war: where the creating code overwrites "
                   "data a task it created before reads, the annotated source does not wait "
                   "for that task; trace with --deps=raw+war to have a taskwait there\n";
    for (const std::string& note : result.notes)
      std::cerr << "tareador-tasks: note: " << note << "\n";
    if (result.diff.empty())  // (the program's own pragmas cover every task: the notes say so)
      std::cerr << "tareador-tasks: nothing to change in the sources\n";
    else
      std::cerr << "tareador-tasks: apply with: patch -p1 -d " << result.root << " < "
                << (o.output.empty() ? "DIFF" : o.output) << "\n";
  }
  trace::flush_stdout();
  return 0;
}

int run(const Options& o) {
  std::error_code error;
  if (!std::filesystem::is_directory(o.dir, error))
    throw trace::FormatError(o.dir, 0,
                             std::filesystem::exists(o.dir, error)
                                 ? "not a directory (a trace set is one)"
                                 : "no such directory");
  auto traces = trace::open_traces(o.dir, {"tasks"});
  if (traces.empty()) throw trace::FormatError(o.dir, 0, "the set has no 'tasks' trace");
  const trace::TraceHeader& header = traces.front()->header();
  if (header.task_sets.empty())
    throw trace::FormatError(o.dir, 0, "the 'tasks' trace holds no rank");
  int ranks = static_cast<int>(header.task_sets.size());
  if (o.rank >= ranks)
    throw trace::FormatError(o.dir, 0,
                             "no rank " + std::to_string(o.rank) + " (the set has " +
                                 std::to_string(ranks) + (ranks == 1 ? " rank)" : " ranks)"));
  if (o.emit_source) {
    if (o.rank < 0 && ranks > 1 && !o.quiet)
      std::cerr << "tareador-tasks: the annotated source of rank 0 (--rank chooses)\n";
    return emit_source(o, header, std::max(o.rank, 0));
  }
  tasks::OutputOptions options;
  options.graph.with_main = o.with_main;
  options.graph.creation_edges = o.creation_edges;
  options.group = !o.no_group;
  options.group_above = o.group_above;
  options.format = o.format;
  options.max_nodes = o.max_nodes;
  if (!o.quiet)
    options.progress = [](const std::string& message) {
      std::cerr << "tareador-tasks: " << message << std::endl;
    };
  int first = o.rank >= 0 ? o.rank : 0, last = o.rank >= 0 ? o.rank : ranks - 1;
  for (int rank = first; rank <= last; ++rank) {
    const trace::TaskSet& set = header.task_sets[static_cast<std::size_t>(rank)];
    std::vector<std::string> notes = rank_notes(header, rank);
    if (set.instances.empty())
      notes.push_back("rank " + std::to_string(rank) + " has no task instance");
    tasks::Report report = tasks::write_outputs(o.dir, header.name, rank, set, options, notes);
    if (!o.quiet) {
      if (rank != first) std::cout << "\n";
      std::cout << tasks::report_text(set, report);
    }
  }
  trace::flush_stdout();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tareador-tasks: the task dependency graph, the profile per task type and the porting "
      "hints (OmpSs/OpenMP clauses, warnings) of a trace set's tasks trace.\nWrites into "
      "TRACESET_DIR, per rank N: taskgraph.N.dot (and .svg or .png), taskreport.N.txt and "
      "taskreport.N.json; prints the text reports.",
      "tareador-tasks"};
  app.set_version_flag("--version", std::string("tareador-tasks (tareador) ") + PACKAGE_VERSION);
  Options o;
  app.add_option("dir", o.dir, "the trace set (a directory with a tasks trace)")
      ->required()
      ->type_name("TRACESET_DIR");
  auto* rank = app.add_option("-r,--rank", o.rank, "only this rank")
                   ->type_name("N")
                   ->check(cli::kNonNegative);
  auto* all = app.add_flag("--all", o.all, "every rank (the default)");
  rank->excludes(all);
  app.add_option("--graph-format", o.format,
                 "dot: the DOT file only (default); svg, png: also the rendered graph (Graphviz's "
                 "library)")
      ->check(CLI::IsMember({"dot", "svg", "png"}))
      ->type_name("FORMAT");
  app.add_flag("--with-main", o.with_main, "draw the main task and its dependencies too");
  app.add_flag("--creation-edges", o.creation_edges,
               "also draw an edge (dashed, blue) from each task to each task it created");
  auto* group_above = app.add_option("--group-above", o.group_above,
                                     "in graphs of more tasks than this, draw runs of instances of "
                                     "a type at one depth with "
                                     "the same neighbours as one node 'TYPE x N'; default 200")
                          ->type_name("N");
  app.add_flag("--no-group", o.no_group, "never group: one node per task instance")
      ->excludes(group_above);
  app.add_option("--max-nodes", o.max_nodes,
                 "do not render graphs with more tasks than this (layout grows fast with size); "
                 "0: no limit; default 2000")
      ->type_name("N");
  app.add_flag("-q,--quiet", o.quiet, "print nothing (the files are still written)");
  auto* emit = app.add_flag("--emit-source", o.emit_source,
                            "instead: write the annotated source, a unified diff against the "
                            "program's sources that inserts the task pragmas of the traced "
                            "decomposition (docs/emit-source.md)");
  app.add_option("--dialect", o.dialect,
                 "with --emit-source: openmp (depend clauses, default) or ompss (in/out/inout)")
      ->check(CLI::IsMember({"openmp", "ompss"}))
      ->type_name("DIALECT")
      ->needs(emit);
  app.add_option("-o,--output", o.output, "with --emit-source: the diff's file (default: stdout)")
      ->type_name("FILE")
      ->needs(emit);
  app.add_option("--source-dir", o.source_dir,
                 "with --emit-source: where the sources are, when not at the paths the debug "
                 "information gives")
      ->type_name("DIR")
      ->needs(emit);
  app.footer("Exit status: 0 success; 1 bad input (trace set or options) or a file not written.");
  return cli::parse_and_run(app, argc, argv, "tareador-tasks", [&] { return run(o); });
}
