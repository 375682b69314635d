// The search of thesis Fig. 6.21, and its report (CSV, and the plots of Figs. 6.25-6.28).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "plot/svg_plot.h"
#include "search/graph.h"

namespace tareador::search {

Decomposition whole_main(const CallTree& tree) {
  return Decomposition{std::vector<bool>(tree.nodes.size(), false)};
}

void break_function(const CallTree& tree, Decomposition& d, int function) {
  for (std::size_t i = 0; i < tree.nodes.size(); ++i)
    if (tree.nodes[i].function == function) d.broken[i] = true;
}

std::unique_ptr<trace::Trace> task_trace(const CallTree& tree, const Decomposition& d,
                                         std::uint8_t kinds) {
  return graph_trace(tree, task_graph(tree, d, kinds));
}

std::vector<Iteration> run(const CallTree& tree, const Options& options,
                           const std::function<void(const Iteration&, int)>& progress) {
  std::vector<Iteration> iterations;
  Decomposition d = whole_main(tree);
  for (;;) {
    Iteration it{d, evaluate(tree, d, options), {}};
    for (const TypeCost& c : it.evaluation.costs)
      it.tasks.push_back(tree.functions[static_cast<std::size_t>(c.function)].label());
    iterations.push_back(it);
    if (progress) progress(iterations.back(), static_cast<int>(iterations.size()));
    if (it.evaluation.bottleneck < 0) break;
    break_function(
        tree, d, it.evaluation.costs[static_cast<std::size_t>(it.evaluation.bottleneck)].function);
  }
  return iterations;
}

std::size_t best(const std::vector<Iteration>& iterations) {
  std::size_t b = 0;
  for (std::size_t i = 1; i < iterations.size(); ++i) {
    const Evaluation &e = iterations[i].evaluation, &top = iterations[b].evaluation;
    // Speedups equal to 6 digits are equal: the fewest instances then.
    double gain = e.speedup - top.speedup;
    if (gain > 1e-6 * top.speedup ||
        (std::fabs(gain) <= 1e-6 * top.speedup && e.instances < top.instances))
      b = i;
  }
  return b;
}

std::size_t matching_iteration(const std::vector<Iteration>& iterations, const Reference& ref) {
  for (std::size_t i = 0; i < iterations.size(); ++i) {
    std::vector<std::string> types = iterations[i].tasks;
    std::sort(types.begin(), types.end());
    if (types == ref.types) return i;
  }
  return iterations.size();
}

namespace {

std::string fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

const TypeCost* bottleneck(const Iteration& it) {
  const Evaluation& e = it.evaluation;
  return e.bottleneck < 0 ? nullptr : &e.costs[static_cast<std::size_t>(e.bottleneck)];
}

}  // namespace

std::string csv(const CallTree& tree, const std::vector<Iteration>& iterations) {
  std::ostringstream out;
  out << "iteration,speedup,instances,time_s,tasks,bottleneck,length_cost,dependency_cost,"
         "concurrency_cost,dominant\n";
  for (std::size_t i = 0; i < iterations.size(); ++i) {
    const Iteration& it = iterations[i];
    std::string tasks;
    for (const std::string& t : it.tasks) tasks += (tasks.empty() ? "" : ";") + t;
    out << i + 1 << "," << fixed(it.evaluation.speedup, 4) << "," << it.evaluation.instances << ","
        << it.evaluation.time << "," << trace::csv_field(tasks) << ",";
    if (const TypeCost* b = bottleneck(it))
      out << trace::csv_field(tree.functions[static_cast<std::size_t>(b->function)].label()) << ","
          << fixed(b->length_cost, 4) << "," << fixed(b->dependency_cost, 4) << ","
          << fixed(b->concurrency_cost, 4) << "," << b->dominant() << "\n";
    else out << ",,,,\n";
  }
  return out.str();
}

std::vector<std::pair<std::string, std::string>> svg_plots(const CallTree& tree,
                                                           const std::vector<Iteration>& iterations,
                                                           const Options& options,
                                                           const Reference* reference) {
  namespace svg = replay::svg;
  const std::string where = " (" + (tree.name.empty() ? std::string("program") : tree.name) + ", " +
                            std::to_string(options.cores) + " cores)";
  svg::Series speedup{"automatic decomposition", {}, {}}, instances{"task instances", {}, {}};
  svg::Series length{"length", {}, {}}, dependencies{"dependencies", {}, {}},
      concurrency{"concurrency", {}, {}};
  svg::Series dominant[3] = {{"length", {}, {}, false, 0},
                             {"dependencies", {}, {}, false, 1},
                             {"concurrency", {}, {}, false, 2}};
  for (std::size_t i = 0; i < iterations.size(); ++i) {
    double x = static_cast<double>(i + 1);
    speedup.x.push_back(x);
    speedup.y.push_back(iterations[i].evaluation.speedup);
    instances.x.push_back(x);
    instances.y.push_back(iterations[i].evaluation.instances);
    const TypeCost* b = bottleneck(iterations[i]);
    if (b == nullptr) continue;
    for (auto [series, value] :
         {std::pair{&length, b->length_cost}, std::pair{&dependencies, b->dependency_cost},
          std::pair{&concurrency, b->concurrency_cost}}) {
      series->x.push_back(x);
      series->y.push_back(value);
    }
    const std::string kind = b->dominant();
    int k = kind == "length" ? 0 : kind == "dependencies" ? 1 : 2;
    dominant[k].x.push_back(x);
    dominant[k].y.push_back(b->total());
  }
  svg::Plot p1{"Parallelism of each decomposition" + where,
               "iteration",
               "speedup",
               false,
               false,
               {speedup},
               1.0};
  svg::Plot p2{"Task instances of each decomposition" + where,
               "iteration",
               "task instances",
               false,
               true,
               {instances},
               std::nullopt};
  if (reference != nullptr) {
    // The annotated decomposition as a level across the iterations, as the thesis draws it.
    std::vector<double> ends{1, static_cast<double>(std::max<std::size_t>(iterations.size(), 1))};
    double count = reference->instances;
    p1.series.push_back({"default decomposition", ends, {reference->speedup, reference->speedup}});
    p2.series.push_back({"default decomposition", ends, {count, count}});
  }
  svg::Plot p3{
      "Cost distribution of the bottleneck" + where, "iteration", "normalised cost", false, false,
      {length, dependencies, concurrency},           std::nullopt};
  svg::Plot p4{
      "Dominant cost of the bottleneck" + where, "iteration", "cost (eq. 6.7)", false, false,
      {dominant[0], dominant[1], dominant[2]},   std::nullopt};
  return {{"speedup", svg::render(p1)},
          {"instances", svg::render(p2)},
          {"costs", svg::render(p3)},
          {"dominant", svg::render(p4)}};
}

}  // namespace tareador::search
