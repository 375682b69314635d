// tareador-comm — communication matrices (CSV, comm/matrix.h): `compare A.csv B.csv` prints
// the MSE of the two normalised matrices (eq. 1 of "Communication Detection in Shared Memory");
// `heatmap M.csv OUT.svg` draws one. A thin command over comm/matrix.h.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "cli/command.h"
#include "comm/matrix.h"
#include "tareador/trace.h"

namespace {

namespace comm = tareador::comm;
namespace trace = tareador::trace;
namespace cli = tareador::cli;

struct Options {
  std::string a, b, input, svg, title;
  comm::Quantity quantity = comm::Quantity::bytes;
  comm::Normalisation normalisation = comm::Normalisation::max;
  bool log = false, grey = false;
};

int compare(const Options& o) {
  comm::Matrix a = comm::read_csv(o.a), b = comm::read_csv(o.b);
  if (a.labels != b.labels && a.size() == b.size())
    std::cout << "note: the labels differ; cells are compared by position\n";
  double error = comm::mse(comm::normalised(a, o.normalisation),
                           comm::normalised(b, o.normalisation), o.quantity);
  std::cout << fmt::format("mse {} {:.6g} ({} labels, {}, normalised to the {})\n",
                           comm::quantity_name(o.quantity), error, a.size(),
                           o.normalisation == comm::Normalisation::max ? "0..100" : "fraction",
                           o.normalisation == comm::Normalisation::max ? "maximum" : "total");
  trace::flush_stdout();
  return 0;
}

int heatmap(const Options& o) {
  comm::Matrix m = comm::read_csv(o.input);
  comm::HeatmapOptions options;
  options.quantity = o.quantity;
  options.log_scale = o.log;
  options.palette = o.grey ? comm::Palette::grey : comm::Palette::colour;
  options.title = o.title.empty() ? o.input : o.title;
  std::ofstream out(o.svg, std::ios::binary | std::ios::trunc);
  comm::write_heatmap_svg(out, m, options);
  out.close();
  if (!out) throw trace::FormatError(o.svg, 0, "cannot write the heat map");
  return 0;
}

void add_quantity(CLI::App& app, Options& o) {
  const std::map<std::string, comm::Quantity> quantities{{"bytes", comm::Quantity::bytes},
                                                         {"events", comm::Quantity::events}};
  app.add_option("--quantity", o.quantity, "bytes (default) or events (messages)")
      ->transform(CLI::CheckedTransformer(quantities))
      ->type_name("bytes|events");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tareador-comm: communication matrices (CSV: source,destination,bytes,events, as written "
      "by replay --matrix): compare two, or draw one as an SVG heat map.",
      "tareador-comm"};
  app.set_version_flag("--version", std::string("tareador-comm (tareador) ") + PACKAGE_VERSION);
  app.require_subcommand(1);
  Options o;
  CLI::App* cmp = app.add_subcommand(
      "compare", "the Mean Squared Error (eq. 1) of two normalised matrices of the same size");
  cmp->add_option("a", o.a, "first matrix")->required()->type_name("A.csv");
  cmp->add_option("b", o.b, "second matrix")->required()->type_name("B.csv");
  add_quantity(*cmp, o);
  const std::map<std::string, comm::Normalisation> how{{"max", comm::Normalisation::max},
                                                       {"total", comm::Normalisation::total}};
  cmp->add_option("--normalise", o.normalisation,
                  "max: each matrix scaled to a largest cell of 100 (the paper's, default); "
                  "total: divided by its total")
      ->transform(CLI::CheckedTransformer(how))
      ->type_name("max|total");
  CLI::App* draw = app.add_subcommand("heatmap", "draw a matrix as an SVG heat map");
  draw->add_option("matrix", o.input, "the matrix")->required()->type_name("M.csv");
  draw->add_option("svg", o.svg, "the picture to write")->required()->type_name("OUT.svg");
  add_quantity(*draw, o);
  draw->add_flag("--log", o.log, "shade by the logarithm of the value");
  draw->add_flag("--grey", o.grey, "grey levels (the paper's) instead of colours");
  draw->add_option("--title", o.title, "the picture's title (default: the matrix's path)");
  app.footer(
      "Exit status: 0 success; 1 bad input (a malformed matrix: file:line; matrices of different "
      "sizes) or a file not written. See docs/comm-matrix.md.");
  return cli::parse_and_run(app, argc, argv, "tareador-comm",
                            [&] { return cmp->parsed() ? compare(o) : heatmap(o); });
}
