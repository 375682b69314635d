// tareador-patterns — the production and consumption patterns of a trace set's messages (thesis
// Table 5.1 and Fig. 5.11). A thin command over patterns.h: read DIR/patterns.N.txt (written by
// the tool with --overlap=yes), write DIR/patterns.json, patterns.csv, patterns-scatter.svg and
// patterns-distribution.svg, print the summary.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "cli/command.h"
#include "patterns/patterns.h"
#include "tareador/trace.h"

namespace {

namespace patterns = tareador::patterns;
namespace cli = tareador::cli;

struct Options {
  std::string dir;
  bool quiet = false;
  bool no_parts = false;
  std::size_t max_points = 5000;
};

int run(const Options& o) {
  patterns::Report report = patterns::read_report(o.dir);
  patterns::OutputOptions options;
  options.with_parts = !o.no_parts;
  options.plot.max_points = o.max_points;
  std::vector<std::string> files = patterns::write_outputs(report, options);
  if (!o.quiet) {
    std::cout << patterns::report_text(report) << "\nwritten into " << o.dir << ":";
    for (const std::string& f : files) std::cout << " " << f;
    std::cout << "\n";
  }
  tareador::trace::flush_stdout();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tareador-patterns: the production and consumption patterns of the messages of a trace "
      "set traced with --overlap=yes (thesis Table 5.1 and Fig. 5.11).\nReads "
      "TRACESET_DIR/patterns.N.txt; writes into TRACESET_DIR patterns.json, patterns.csv (one "
      "row per transfer), patterns-scatter.svg and patterns-distribution.svg; prints the "
      "summary.",
      "tareador-patterns"};
  app.set_version_flag("--version", std::string("tareador-patterns (tareador) ") + PACKAGE_VERSION);
  Options o;
  app.add_option("dir", o.dir, "the trace set (a directory with patterns.N.txt files)")
      ->required()
      ->type_name("TRACESET_DIR");
  app.add_option("--max-points", o.max_points,
                 "at most this many points per panel of the scatter (after merging the parts "
                 "that fall on the same pixel; evenly subsampled beyond); 0: no limit; default "
                 "5000")
      ->type_name("N");
  app.add_flag("--no-parts", o.no_parts,
               "leave each transfer's per-part times out of patterns.json (smaller file)");
  app.add_flag("-q,--quiet", o.quiet, "print nothing (the files are still written)");
  app.footer(
      "Exit status: 0 success; 1 bad input (trace set or options) or a file not written.\n"
      "See docs/patterns.md for the metrics and how to read the plots.");
  return cli::parse_and_run(app, argc, argv, "tareador-patterns", [&] { return run(o); });
}
