#include "replay/collectives.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "replay/network.h"

namespace tareador::replay {

namespace {

int ceil_log2(int n) {
  int stages = 0;
  while ((1 << stages) < n) ++stages;
  return stages;
}

// Stages of a binomial tree over `participants` when only `buses` messages fly at once: at
// stage i the messages are those of senders 2^i-1, 2^i-1 + 2^(i+1), ... below participants-1
// (Dimemas compute_contention_stage).
int contended_stages(int participants, int buses) {
  int stages = ceil_log2(participants);
  if (buses == 0) return stages;
  int total = 0;
  for (int i = 0; i < stages; ++i) {
    int messages = 0;
    for (int j = (1 << i) - 1; j < participants - 1; j += 1 << (i + 1)) ++messages;
    total += (messages + buses - 1) / buses;
  }
  return total;
}

}  // namespace

double collective_phase_ns(CollectiveModel model, int participants, int buses, double latency,
                           double bandwidth_mbs, double bytes) {
  // Dimemas' arithmetic (calcula_fan): the startup in ns plus the bytes times ns per byte.
  double message = latency * 1e9 + bytes * ns_per_byte(bandwidth_mbs);
  switch (model) {
    case CollectiveModel::None:
      return 0;
    case CollectiveModel::Constant:
      return message;
    case CollectiveModel::Linear:
      return message * std::max(participants - 1, 0);
    case CollectiveModel::Logarithmic:
      return message * contended_stages(participants, buses);
  }
  return 0;
}

double collective_phase_bytes(CollectiveSize size, bool fan_in, std::int64_t sent,
                              std::int64_t received) {
  double s = static_cast<double>(sent), r = static_cast<double>(received);
  switch (size) {
    case CollectiveSize::Current:
      return fan_in ? s : r;
    case CollectiveSize::Min:
      return std::min(s, r);
    case CollectiveSize::Max:
      return std::max(s, r);
    // Dimemas divides integers: the mean of 1 and 2 bytes is 1.
    case CollectiveSize::Mean:
      return std::floor((s + r) / 2);
    case CollectiveSize::TwiceMax:
      return 2 * std::max(s, r);
    case CollectiveSize::SendPlusRecv:
      return s + r;
  }
  return 0;
}

double collective_ns(const Machine& machine, int op, const std::vector<int>& task_nodes,
                     std::int64_t sent, std::int64_t received, int representative_node) {
  CollectiveCost cost = machine.collectives[static_cast<std::size_t>(op)];
  if (op == trace::kReduce) {  // Dimemas 5.5 models MPI_Reduce as constant whatever the table
    cost.fan_in.model = CollectiveModel::Constant;
    cost.fan_out.model = CollectiveModel::Constant;
  }
  double in_bytes = collective_phase_bytes(cost.fan_in.size, true, sent, received);
  double out_bytes = collective_phase_bytes(cost.fan_out.size, false, sent, received);
  struct Phases {
    double in = 0, out = 0;
  };
  auto phases = [&](int participants, int buses, double latency, double bandwidth) {
    return Phases{
        collective_phase_ns(cost.fan_in.model, participants, buses, latency, bandwidth, in_bytes),
        collective_phase_ns(cost.fan_out.model, participants, buses, latency, bandwidth,
                            out_bytes)};
  };

  std::map<int, int> members_per_node;
  for (int node : task_nodes) ++members_per_node[node];

  Phases intra;  // the busiest node's share, over memory
  for (auto [node, members] : members_per_node) {
    const IntraNode& medium = machine.nodes[static_cast<std::size_t>(node)].intra;
    Phases p = phases(members, 0, medium.latency, medium.bandwidth);
    if (p.in + p.out > intra.in + intra.out) intra = p;
  }
  Phases network;  // (none when no node is counted, as in Dimemas)
  if (machine.nodes.size() > 1 && !members_per_node.empty())
    network = phases(static_cast<int>(members_per_node.size()), machine.buses,
                     machine.nodes[static_cast<std::size_t>(representative_node)].latency,
                     machine.bandwidth);
  // Summed in Dimemas' order, so that the instant it ends is Dimemas' to the last bit.
  return intra.in + intra.out + network.in + network.out;
}

}  // namespace tareador::replay
