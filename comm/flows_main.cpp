// tareador-flows — the communication the tool recorded into a trace set with --comm and
// --thread-comm: the producer->consumer graph (DOT, SVG) and matrix, the thread matrix, their
// heat maps and reports; with --predict K, the MPI version of the run on K ranks (its matrix and
// a synthetic trace set). A thin command over flow_graph.h, thread_comm.h and predict.h.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "cli/command.h"
#include "comm/flow_graph.h"
#include "comm/matrix.h"
#include "comm/predict.h"
#include "comm/thread_comm.h"
#include "tareador/trace.h"
#include "tasks/taskgraph.h"

namespace {

namespace comm = tareador::comm;
namespace trace = tareador::trace;
namespace cli = tareador::cli;

struct Options {
  std::string dir;
  int rank = 0;
  std::size_t top = 40;
  std::string format = "svg";
  bool log_scale = false;
  bool quiet = false;
  int predict = 0;  // ranks of the predicted MPI version (0: none)
  std::string partitioner = "metis";
  std::string predicted_set;
};

// `path` with its ".txt" replaced by `suffix`.
std::string beside(const std::string& path, const std::string& suffix) {
  return path.substr(0, path.size() - 4) + suffix;
}

template <typename Write>
void write_file(const std::string& path, Write write) {
  std::ofstream out(path);
  if (!out) throw trace::FormatError(path, 0, "cannot be written");
  write(out);
  if (!out.flush()) throw trace::FormatError(path, 0, "write failed");
}

void write_heatmap(const std::string& path, const comm::Matrix& m, comm::Quantity q,
                   const Options& o, const std::string& title) {
  comm::HeatmapOptions h;
  h.quantity = q;
  h.log_scale = o.log_scale;
  h.title = title;
  write_file(path, [&](std::ostream& out) { comm::write_heatmap_svg(out, m, h); });
}

void flows(const std::string& path, const Options& o) {
  comm::FlowGraph g = comm::read_flow_graph(path, o.rank);
  comm::FlowDrawOptions draw;
  draw.max_edges = o.top;
  std::string dot = comm::flow_dot(g, draw);
  write_file(beside(path, ".dot"), [&](std::ostream& out) { out << dot; });
  if (o.format != "dot") tareador::tasks::render_dot(dot, o.format, beside(path, "." + o.format));
  comm::Matrix m = comm::flow_matrix(g);
  write_file(beside(path, ".csv"), [&](std::ostream& out) { comm::write_csv(out, m); });
  write_heatmap(beside(path, ".heatmap.svg"), m, comm::Quantity::bytes, o,
                "bytes from producer (row) to consumer (column) by " + g.granularity);
  if (!o.quiet) comm::write_flow_report(std::cout, g, o.top);
}

void threads(const std::string& path, const Options& o) {
  comm::ThreadComm c = comm::read_thread_comm(path, o.rank);
  comm::Matrix m = comm::thread_matrix(c);
  write_file(beside(path, ".csv"), [&](std::ostream& out) { comm::write_csv(out, m); });
  std::string block = std::to_string(1u << c.granularity) + "-byte blocks";
  write_heatmap(beside(path, ".heatmap.svg"), m, comm::Quantity::events, o,
                "communication events between threads, " + block);
  write_heatmap(beside(path, ".true.heatmap.svg"),
                comm::thread_matrix(c, comm::ThreadEvents::true_only), comm::Quantity::events, o,
                "true communication events (the same bytes), " + block);
  if (!o.quiet) comm::write_thread_report(std::cout, c);
}

// The MPI version on o.predict ranks: the matrix, its heat map, the synthetic trace set.
void predict(const std::string& path, const Options& o) {
  auto traces = trace::open_traces(o.dir, {"tasks"});
  if (traces.empty()) throw trace::FormatError(o.dir, 0, "the set has no 'tasks' trace");
  const trace::TraceHeader& header = traces.front()->header();
  if (static_cast<std::size_t>(o.rank) >= header.task_sets.size())
    throw trace::FormatError(o.dir, 0, "the tasks trace has no rank " + std::to_string(o.rank));
  comm::FlowGraph g = comm::read_flow_graph(path, o.rank);
  comm::Prediction p = comm::predict(g, header.task_sets[static_cast<std::size_t>(o.rank)],
                                     o.predict, comm::partitioner_named(o.partitioner));
  std::string base = o.dir + "/predict." + std::to_string(o.predict);
  write_file(base + ".csv", [&](std::ostream& out) { comm::write_csv(out, p.matrix); });
  write_heatmap(base + ".heatmap.svg", p.matrix, comm::Quantity::bytes, o,
                "predicted bytes from rank (row) to rank (column), " + o.partitioner);
  std::string set = o.predicted_set.empty() ? base : o.predicted_set;
  comm::write_predicted_trace(set, header.name, header.mips, p);
  if (!o.quiet) {
    comm::write_prediction_report(std::cout, p);
    std::cout << "\nits trace set: " << set << " (replay it on any machine)\n";
  }
}

int run(const Options& o) {
  std::error_code error;
  if (!std::filesystem::is_directory(o.dir, error))
    throw trace::FormatError(o.dir, 0, "not a directory (a trace set is one)");
  std::string flow_path = trace::set_files::comm(o.dir, o.rank);
  std::string thread_path = trace::set_files::thread_comm(o.dir, o.rank);
  bool have_flows = std::filesystem::exists(flow_path, error);
  bool have_threads = std::filesystem::exists(thread_path, error);
  if (!have_flows && !have_threads)
    throw trace::FormatError(o.dir, 0,
                             "rank " + std::to_string(o.rank) +
                                 " recorded no communication (run the tool with --comm=KIND or "
                                 "--thread-comm=yes)");
  if (o.predict > 0) {
    if (!have_flows)
      throw trace::FormatError(flow_path, 0, "no such file: --predict needs --comm=task-type");
    predict(flow_path, o);
    trace::flush_stdout();
    return 0;
  }
  if (have_flows) flows(flow_path, o);
  if (have_flows && have_threads && !o.quiet) std::cout << "\n";
  if (have_threads) threads(thread_path, o);
  trace::flush_stdout();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tareador-flows: the communication recorded into a trace set by the tool's --comm "
      "(producer->consumer) and --thread-comm (between threads, per block of memory).\nWrites "
      "beside comm.N.txt: comm.N.dot (and .svg or .png), comm.N.csv, comm.N.heatmap.svg; beside "
      "threadcomm.N.txt: threadcomm.N.csv, threadcomm.N.heatmap.svg, "
      "threadcomm.N.true.heatmap.svg; prints the reports.",
      "tareador-flows"};
  app.set_version_flag("--version", std::string("tareador-flows (tareador) ") + PACKAGE_VERSION);
  Options o;
  app.add_option("dir", o.dir, "the trace set")->required()->type_name("TRACESET_DIR");
  app.add_option("-r,--rank", o.rank, "the rank (default 0)")
      ->type_name("N")
      ->check(cli::kNonNegative);
  app.add_option("--top", o.top,
                 "draw and list the N heaviest producer->consumer edges (0: all; default 40)")
      ->type_name("N");
  app.add_option("--graph-format", o.format,
                 "svg (default), png: the graph rendered beside its DOT; dot: the DOT only")
      ->check(CLI::IsMember({"dot", "svg", "png"}))
      ->type_name("FORMAT");
  app.add_flag("--log", o.log_scale, "heat maps shaded by the logarithm of the values");
  app.add_option("--predict", o.predict,
                 "the MPI version on K ranks of a run recorded with --comm=task-type --sample=no "
                 "(tasks naming the units of work): writes predict.K.csv, predict.K.heatmap.svg "
                 "and the trace set predict.K/")
      ->type_name("K")
      ->check(cli::kPositive);
  app.add_option("--partitioner", o.partitioner,
                 "metis (default: balanced parts, least traffic cut) or contiguous (units in "
                 "their order: strips)")
      ->check(CLI::IsMember({"metis", "contiguous"}))
      ->type_name("NAME");
  app.add_option("--predicted-set", o.predicted_set, "write the predicted trace set there instead")
      ->type_name("DIR");
  app.add_flag("-q,--quiet", o.quiet, "print nothing (the files are still written)");
  app.footer("Exit status: 0 success; 1 bad input (trace set or options) or a file not written.");
  return cli::parse_and_run(app, argc, argv, "tareador-flows", [&] { return run(o); });
}
