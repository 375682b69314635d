// tareador-search — the offline search of task decompositions (thesis 6.3) over the potential
// tasks of a trace set (tareador --potential-tasks=functions). A thin command over search.h:
// parse options, run the search with progress, print the iterations and the best one, write the
// CSV and the SVG plots.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "cli/command.h"
#include "search/search.h"

namespace {

namespace search = tareador::search;
namespace trace = tareador::trace;
namespace cli = tareador::cli;

struct Options {
  std::string dir, csv, svg, deps = "raw", reference;
  int rank = 0;
  bool quiet = false;
  search::Options search;
};

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw trace::FormatError(path, 0, "cannot write");
}

std::uint8_t dependency_kinds(const std::string& deps) {
  std::uint8_t kinds = trace::kRaw;
  std::size_t at = 0;
  while (at <= deps.size()) {
    std::size_t plus = deps.find('+', at);
    std::string word = deps.substr(at, plus == std::string::npos ? std::string::npos : plus - at);
    if (word == "war") kinds |= trace::kWar;
    else if (word == "waw") kinds |= trace::kWaw;
    else if (word != "raw")
      throw std::invalid_argument("--deps: '" + word + "' is not raw, war or waw");
    if (plus == std::string::npos) break;
    at = plus + 1;
  }
  return kinds;
}

std::string line(const search::CallTree& tree, const search::Iteration& it, int index) {
  char text[512];
  const search::Evaluation& e = it.evaluation;
  std::string next = "-";
  if (e.bottleneck >= 0) {
    const search::TypeCost& b = e.costs[static_cast<std::size_t>(e.bottleneck)];
    next = tree.functions[static_cast<std::size_t>(b.function)].label() + " (" + b.dominant() + ")";
  }
  std::string tasks;
  for (const std::string& t : it.tasks) tasks += (tasks.empty() ? "" : " ") + t;
  std::snprintf(text, sizeof text, "%4d %8.3f %9d  %-28s %s", index, e.speedup, e.instances,
                next.c_str(), tasks.empty() ? "(sequential)" : tasks.c_str());
  return text;
}

int run(Options& o) {
  o.search.kinds = dependency_kinds(o.deps);
  search::CallTree tree = search::read_trace_set(o.dir, o.rank);
  if (!o.csv.empty()) trace::check_output_file(o.csv);
  if (!o.svg.empty()) trace::check_output_file(o.svg + ".speedup.svg");
  if (!o.quiet)
    std::cerr << "tareador-search: " << tree.nodes.size() << " calls of " << tree.functions.size()
              << " functions" << (tree.truncated ? " (the recording is truncated)" : "") << "\n";
  // Said even when quiet: they change what the answers mean.
  for (const std::string& note : tree.notes) std::cerr << "tareador-search: note: " << note << "\n";
  std::cout << "iter  speedup instances  breaks next                  tasks\n";
  auto progress = [&](const search::Iteration& it, int index) {
    std::cout << line(tree, it, index) << std::endl;
  };
  std::vector<search::Iteration> iterations = search::run(tree, o.search, progress);
  std::size_t b = search::best(iterations);
  char best[160];
  std::snprintf(best, sizeof best, "best: iteration %zu, speedup %.3f on %d cores, %d instances\n",
                b + 1, iterations[b].evaluation.speedup, o.search.cores,
                iterations[b].evaluation.instances);
  std::cout << best;
  if (iterations[b].evaluation.speedup < 1.01)
    std::cout << "no decomposition gains 1%: the work is where the search cannot split it (a "
                 "function with its loops inside, a recursion: docs/search.md, Limits)\n";
  std::optional<search::Reference> reference;
  if (!o.reference.empty()) {
    reference = search::read_reference(o.reference, o.search);
    std::size_t match = search::matching_iteration(iterations, *reference);
    std::snprintf(best, sizeof best, "reference: speedup %.3f, %d instances", reference->speedup,
                  reference->instances);
    std::cout << best
              << (match < iterations.size()
                      ? ": its task types are iteration " + std::to_string(match + 1) + "'s\n"
                      : ": no iteration has its task types\n");
    // The annotated run stores its tasks' results itself; the recording sees results returned
    // in registers nowhere (docs/search.md, Limits): a gap says the search's answer is too rosy.
    if (match < iterations.size()) {
      double found = iterations[match].evaluation.speedup;
      if (std::abs(found - reference->speedup) > 0.1 * reference->speedup) {
        std::snprintf(best, sizeof best, "%.3f against the annotated run's %.3f", found,
                      reference->speedup);
        std::cerr << "tareador-search: warning: iteration " << match + 1 << " has the reference's "
                  << "task types but a speedup of " << best
                  << ": the recording sees dependencies through memory only, and a result a "
                     "function returns in a register (used by its caller at once) makes none; "
                     "trust the annotated run's\n";
      }
    }
  }
  if (!o.csv.empty()) write_file(o.csv, search::csv(tree, iterations));
  if (!o.svg.empty())
    for (const auto& [what, svg] :
         search::svg_plots(tree, iterations, o.search, reference ? &*reference : nullptr))
      write_file(o.svg + "." + what + ".svg", svg);
  trace::flush_stdout();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tareador-search: the search of task decompositions of thesis 6.3 (Fig. 6.21), offline, "
      "over the potential tasks a trace set recorded (tareador --potential-tasks=functions): "
      "from main as one task, replay each decomposition and break its bottleneck (eq. 6.7) until "
      "no task is left; print every decomposition and the best.",
      "tareador-search"};
  app.set_version_flag("--version", std::string("tareador-search (tareador) ") + PACKAGE_VERSION);
  Options o;
  app.add_option("dir", o.dir, "the trace set (with potential.N.txt)")
      ->required()
      ->type_name("SET");
  app.add_option("--cores", o.search.cores, "cores of the machine replayed (default 4)")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--p1", o.search.p1, "control parameter of the length cost (default 1)")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--p2", o.search.p2, "control parameter of the dependency cost (default 1)")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--p3", o.search.p3, "control parameter of the concurrency cost (default 3)")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--deps", o.deps, "dependencies that count: raw[+war][+waw] (default raw)");
  app.add_option("-r,--rank", o.rank, "the rank's recording (default 0)")->check(cli::kNonNegative);
  app.add_option("--csv", o.csv, "write every decomposition tried as CSV")->type_name("FILE");
  app.add_option("--svg", o.svg,
                 "write the four plots as PREFIX.speedup.svg, .instances.svg, .costs.svg and "
                 ".dominant.svg")
      ->type_name("PREFIX");
  app.add_option("--reference", o.reference,
                 "a trace set of the annotated program (task mode): its decomposition's speedup "
                 "and instances, replayed alike, in the report and the plots")
      ->type_name("SET");
  app.add_flag("-q,--quiet", o.quiet, "no summary of the recording on stderr");
  app.footer("Exit status: 0 success; 1 bad input (trace set or options) or a file not written.");
  return cli::parse_and_run(app, argc, argv, "tareador-search", [&] { return run(o); });
}
