// The MPI version predicted from a sequential run's flows between units of work.
#include "comm/predict.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace tareador::comm {

namespace {

// The units: every task type but the main task's, with its instructions and instance count.
struct Units {
  std::map<std::string, std::size_t> index;
  std::vector<std::string> names;
  std::vector<double> instructions;
  std::vector<std::uint64_t> instances;
};

Units units_of(const trace::TaskSet& tasks) {
  Units u;
  if (tasks.instances.empty()) return u;
  int main_type = tasks.instances.front().type;
  for (const trace::TaskInstance& in : tasks.instances) {
    if (in.type == main_type) continue;
    const std::string& name = tasks.types[static_cast<std::size_t>(in.type)];
    auto [it, added] = u.index.emplace(name, u.names.size());
    if (added) {
      u.names.push_back(name);
      u.instructions.push_back(0);
      u.instances.push_back(0);
    }
    u.instructions[it->second] += in.instructions;
    u.instances[it->second]++;
  }
  return u;
}

}  // namespace

double Prediction::bytes_per_iteration() const {
  return matrix.total(Quantity::bytes) / static_cast<double>(iterations);
}

std::size_t Prediction::messages_per_iteration() const {
  return static_cast<std::size_t>(matrix.total(Quantity::events) / static_cast<double>(iterations) +
                                  0.5);
}

Prediction predict(const FlowGraph& flows, const trace::TaskSet& tasks, int parts,
                   Partitioner partitioner) {
  if (flows.granularity != "task-type")
    throw std::invalid_argument(
        "the prediction needs flows between task types (--comm=task-type), "
        "not by " +
        flows.granularity);
  Units units = units_of(tasks);
  WeightedGraph g;
  for (double w : units.instructions) g.node_weights.push_back(std::max(w, 1.0));
  std::vector<std::size_t> unit_of_node(flows.nodes.size(), SIZE_MAX);
  for (std::size_t n = 0; n < flows.nodes.size(); ++n) {
    auto it = units.index.find(flows.nodes[n]);
    if (it != units.index.end()) unit_of_node[n] = it->second;
  }
  for (const FlowEdge& e : flows.edges)
    if (unit_of_node[e.producer] != SIZE_MAX && unit_of_node[e.consumer] != SIZE_MAX)
      g.edges.push_back(
          {unit_of_node[e.producer], unit_of_node[e.consumer], static_cast<double>(e.bytes)});
  Prediction p;
  p.units = units.names;
  p.part = partition(g, parts, partitioner);
  p.iterations = std::max<std::uint64_t>(
      1, units.instances.empty()
             ? 1
             : *std::max_element(units.instances.begin(), units.instances.end()));
  p.instructions.assign(static_cast<std::size_t>(parts), 0);
  for (std::size_t u = 0; u < p.units.size(); ++u)
    p.instructions[static_cast<std::size_t>(p.part[u])] += units.instructions[u];
  p.matrix = Matrix::numbered(static_cast<std::size_t>(parts));
  double steady = p.iterations > 1 ? static_cast<double>(p.iterations - 1) : 1;
  for (const WeightedEdge& e : g.edges) {
    auto from = static_cast<std::size_t>(p.part[e.from]),
         to = static_cast<std::size_t>(p.part[e.to]);
    if (from != to)
      p.matrix.add(from, to, e.weight / steady * static_cast<double>(p.iterations), 0);
  }
  // One message per communicating pair and iteration.
  for (std::size_t from = 0; from < p.matrix.size(); ++from)
    for (std::size_t to = 0; to < p.matrix.size(); ++to)
      if (p.matrix.at(Quantity::bytes, from, to) > 0)
        p.matrix.add(from, to, 0, static_cast<double>(p.iterations));
  return p;
}

void write_prediction_report(std::ostream& out, const Prediction& p) {
  char line[160];
  std::snprintf(
      line, sizeof line,
      "the MPI version on %d ranks: %.0f bytes in the run (%.1f a iteration, %zu messages "
      "a iteration, %llu iterations)\n",
      p.parts(), p.matrix.total(Quantity::bytes), p.bytes_per_iteration(),
      p.messages_per_iteration(), static_cast<unsigned long long>(p.iterations));
  out << line << "\nbytes a iteration from rank (row) to rank (column):\n";
  for (std::size_t from = 0; from < p.matrix.size(); ++from) {
    for (std::size_t to = 0; to < p.matrix.size(); ++to) {
      std::snprintf(line, sizeof line, " %10.1f",
                    p.matrix.at(Quantity::bytes, from, to) / static_cast<double>(p.iterations));
      out << line;
    }
    out << "\n";
  }
  out << "\nrank  instructions  units\n";
  for (int r = 0; r < p.parts(); ++r) {
    std::snprintf(line, sizeof line, "%4d  %12.0f ", r,
                  p.instructions[static_cast<std::size_t>(r)]);
    out << line;
    std::size_t shown = 0, count = 0;
    for (std::size_t u = 0; u < p.units.size(); ++u)
      if (p.part[u] == r && count++ < 6) {
        out << (shown++ ? ", " : " ") << p.units[u];
      }
    if (count > shown) out << ", ... (" << count << " units)";
    out << "\n";
  }
}

void write_predicted_trace(const std::string& dir, const std::string& name, double mips,
                           const Prediction& p) {
  trace::TraceHeader header;
  header.name = name + " (predicted MPI version)";
  header.kind = "authentic";
  header.mips = mips > 0 ? mips : 1000;
  header.threads.assign(static_cast<std::size_t>(p.parts()), 1);
  trace::Communicator world;
  for (int r = 0; r < p.parts(); ++r) world.tasks.push_back(r);
  header.communicators.push_back(world);
  auto writer = trace::make_native_writer(dir, header);
  auto n = static_cast<std::size_t>(p.parts());
  double per = static_cast<double>(p.iterations);
  for (std::size_t r = 0; r < n; ++r) {
    writer->begin(static_cast<int>(r), 0);
    for (std::uint64_t it = 0; it < p.iterations; ++it) {
      trace::Record burst;
      burst.type = trace::RecordType::Burst;
      burst.flags = trace::kInstructions;
      burst.amount = p.instructions[r] / per;
      writer->write(burst);
      std::uint64_t request = 0;
      std::vector<std::uint64_t> requests;
      for (int send = 1; send >= 0; --send)
        for (std::size_t other = 0; other < n; ++other) {
          double bytes = send ? p.matrix.at(Quantity::bytes, r, other)
                              : p.matrix.at(Quantity::bytes, other, r);
          if (other == r || bytes <= 0) continue;
          trace::Record m;
          m.type = send ? trace::RecordType::Send : trace::RecordType::Recv;
          m.flags = trace::kImmediate;
          m.peer = static_cast<std::int32_t>(other);
          m.tag = static_cast<std::int64_t>(it);
          m.bytes = static_cast<std::int64_t>(bytes / per + 0.5);
          m.request = ++request;
          requests.push_back(request);
          writer->write(m);
        }
      for (std::size_t i = 0; i < requests.size(); ++i) {
        trace::Record w;
        w.type = trace::RecordType::Wait;
        w.request = requests[i];
        if (i > 0) w.flags = trace::kJoinedWait;
        writer->write(w);
      }
    }
  }
  writer->finish();
}

}  // namespace tareador::comm
