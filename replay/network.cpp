#include "replay/network.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace tareador::replay {

namespace {

constexpr double kBytesPerMB = 1024.0 * 1024.0;

}  // namespace

double ns_per_byte(double bandwidth_mbs) {
  return bandwidth_mbs > 0 ? 1e9 / kBytesPerMB / bandwidth_mbs : 0.0;
}

double startup_seconds(double latency) { return latency < 1e-9 ? 0.0 : latency; }

Network::Network(const Machine& machine, std::vector<int> task_node,
                 std::function<void(std::uint32_t)> started,
                 std::function<void(std::uint32_t)> claimed)
    : machine_(machine),
      task_node_(std::move(task_node)),
      started_(std::move(started)),
      claimed_(std::move(claimed)),
      network_bus_(machine.buses) {
  for (const Node& node : machine_.nodes)
    nodes_.push_back(NodeLinks{FifoResource(node.output_links),
                               FifoResource(node.input_links),
                               FifoResource(node.intra.buses),
                               {}});
  for (int node : task_node_) {
    const IntraNode& intra = machine_.nodes[static_cast<std::size_t>(node)].intra;
    MemoryLinks links;
    links.half_duplex = (intra.input_links == 0) != (intra.output_links == 0);
    links.output = FifoResource(links.half_duplex ? std::max(intra.input_links, intra.output_links)
                                                  : intra.output_links);
    links.input = FifoResource(intra.input_links);
    memory_links_.push_back(std::move(links));
  }
}

double Network::startup_ns(int src_task, int dst_task) const {
  const Node& node = machine_.nodes[static_cast<std::size_t>(node_of(src_task))];
  return startup_seconds(intra_node(src_task, dst_task) ? node.intra.latency : node.latency) * 1e9;
}

double Network::collective_startup_ns(int task, const std::vector<int>& members) const {
  std::vector<int> nodes;
  nodes.reserve(members.size());
  for (int member : members) nodes.push_back(node_of(member));
  std::sort(nodes.begin(), nodes.end());
  auto spread = static_cast<std::size_t>(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
  const Node& node = machine_.nodes[static_cast<std::size_t>(node_of(task))];
  double latency = 0;
  if (spread > 1) latency = std::max(latency, startup_seconds(node.latency));
  if (spread < members.size()) latency = std::max(latency, startup_seconds(node.intra.latency));
  return latency * 1e9;
}

double Network::duration_ns(int src_task, int dst_task, std::int64_t bytes) const {
  double bandwidth =
      intra_node(src_task, dst_task)
          ? machine_.nodes[static_cast<std::size_t>(node_of(src_task))].intra.bandwidth
          : machine_.bandwidth;
  return ns_per_byte(bandwidth) * static_cast<double>(bytes);
}

// The resource a transfer takes at `stage`: the sender's output link, the receiver's input link,
// a bus. Inside a node (Dimemas 5.5): the links are the ranks' own, taken receiver first when one
// of them is half duplex and the sender has the higher number; a transfer between threads of one
// rank needs no link.
FifoResource& Network::resource(const Transfer& t, int stage) {
  if (!t.intra) {
    switch (stage) {
      case 0:
        return nodes_[static_cast<std::size_t>(node_of(t.src_task))].output;
      case 1:
        return nodes_[static_cast<std::size_t>(node_of(t.dst_task))].input;
      default:
        return network_bus_;
    }
  }
  if (stage == 2) return nodes_[static_cast<std::size_t>(node_of(t.src_task))].intra_bus;
  if (t.src_task == t.dst_task) return no_link_;
  MemoryLinks& sender = memory_links_[static_cast<std::size_t>(t.src_task)];
  MemoryLinks& receiver = memory_links_[static_cast<std::size_t>(t.dst_task)];
  bool receiver_first = (sender.half_duplex || receiver.half_duplex) && t.src_task > t.dst_task;
  return (stage == 0) != receiver_first ? sender.output : receiver.receiving();
}

void Network::request(std::uint32_t id, int src_task, int dst_task) {
  if (transfers_.size() <= id) transfers_.resize(id + 1);
  transfers_[id] = Transfer{src_task, dst_task, intra_node(src_task, dst_task), 0, kNotQueued};
  acquire(id);
}

// Takes the transfer's resources in order; it starts once it holds them all.
void Network::acquire(std::uint32_t id) {
  Transfer& t = transfers_[id];
  while (t.held < kStages) {
    FifoResource& r = resource(t, t.held);
    if (r.try_acquire()) {
      took(id, t.held);
      ++t.held;
      continue;
    }
    if (t.held == 0 && take_output_link(id)) continue;
    r.enqueue(id);  // release() hands it over
    t.queued = t.held;
    return;
  }
  started_(id);
}

// Transfer `id` now holds resource `stage`.
void Network::took(std::uint32_t id, int stage) {
  const Transfer& t = transfers_[id];
  if (stage != 0 || t.intra) return;
  NodeLinks& node = nodes_[static_cast<std::size_t>(node_of(t.src_task))];
  if (node.output.limited()) node.output_holders.push_back(id);
}

// Dimemas 5.5's link stealing, for transfer `id` that found no output link of its node free: the
// first transfer (in the order the links were taken) that holds one while it waits for an input
// link gives it up, if the input link `id` needs is free; it queues at the head for an output
// link. True if `id` now holds an output link and its input link.
bool Network::take_output_link(std::uint32_t id) {
  Transfer& t = transfers_[id];
  if (t.intra) return false;
  NodeLinks& node = nodes_[static_cast<std::size_t>(node_of(t.src_task))];
  auto holder = std::find_if(node.output_holders.begin(), node.output_holders.end(),
                             [this](std::uint32_t h) { return transfers_[h].queued == 1; });
  if (holder == node.output_holders.end() || !resource(t, 1).try_acquire()) return false;
  std::uint32_t victim = *holder;
  Transfer& v = transfers_[victim];
  resource(v, 1).remove(victim);
  v.held = 0;
  v.queued = 0;
  node.output.enqueue(victim, true);
  *holder = id;
  t.held = 2;
  return true;
}

// Transfer `id` gives up resource `stage`; whoever was queued for it takes it and goes on.
void Network::release(std::uint32_t id, int stage) {
  const Transfer& t = transfers_[id];
  FifoResource& r = resource(t, stage);
  if (stage == 0 && !t.intra && r.limited()) {
    auto& holders = nodes_[static_cast<std::size_t>(node_of(t.src_task))].output_holders;
    holders.erase(std::find(holders.begin(), holders.end(), id));
  }
  if (&r == &network_bus_) {
    release_bus();
    return;
  }
  if (auto next = r.release()) hand_over(*next);
}

// Queued transfer `id` now holds the resource it waited for, and goes on.
void Network::hand_over(std::uint32_t id) {
  Transfer& t = transfers_[id];
  t.queued = kNotQueued;
  took(id, t.held);
  ++t.held;
  acquire(id);
}

// A bus of the network comes free: the first queued for one takes it, a transfer or a claim
// (which stays first until it holds them all).
void Network::release_bus() {
  std::optional<std::uint32_t> next = network_bus_.release();
  if (!next) return;
  if (!(*next & kClaim)) {
    hand_over(*next);
    return;
  }
  if (!claim_took_bus(*next & ~kClaim)) network_bus_.enqueue(*next, true);
}

// Collective `id` holds one more bus; true if it holds them all now (then it is claimed).
bool Network::claim_took_bus(std::uint32_t id) {
  if (++claim_buses_[id] < machine_.buses) return false;
  claimed_(id);
  return true;
}

void Network::claim_buses(std::uint32_t id) {
  if (!network_bus_.limited()) {
    claimed_(id);
    return;
  }
  if (claim_buses_.size() <= id) claim_buses_.resize(id + 1);
  claim_buses_[id] = 0;
  // (A bus is free only while no one is queued for one.)
  while (network_bus_.try_acquire())
    if (claim_took_bus(id)) return;
  network_bus_.enqueue(id | kClaim);
}

void Network::release_buses(std::uint32_t id) {
  if (!network_bus_.limited()) return;
  claim_buses_[id] = 0;
  for (int bus = 0; bus < machine_.buses; ++bus) release_bus();
}

void Network::finish(std::uint32_t id) {
  for (int stage = 0; stage < kStages; ++stage) release(id, stage);
  transfers_[id].held = 0;
}

}  // namespace tareador::replay
