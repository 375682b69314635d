// network.h — the network model: how long a transfer takes and which resources it holds while
// it lasts (Dimemas 5.5's model). It knows transfers by an id and the ranks at their ends, never
// threads or messages: the engine decides what a transfer that starts or ends means.
//
// A transfer between nodes holds an output link of the source node, an input link of the
// destination node and a bus (when buses are limited), acquired in that order, FIFO; it lasts
// bytes / bandwidth. A transfer that finds no output link free takes one from a transfer of its
// node that holds it while it waits for an input link, if its own input link is free (Dimemas
// 5.5 "steals" it: the other goes to the head of the queue for an output link, and later to the
// back of the queue for its input link). When a transfer ends it frees its output link, then its
// input link, then its bus, and whoever each goes to goes on at once. Inside a node the links
// are each rank's own (never taken from another transfer); a transfer between threads of one
// rank needs none.
//
// A collective holds every bus of the network while it lasts (Dimemas 5.5's
// global_op_get_all_buses): queued FIFO with the transfers, it takes each bus as it comes free
// and starts once it holds them all.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "replay/resources.h"
#include "tareador/replay.h"

namespace tareador::replay {

// Nanoseconds a byte takes at `bandwidth_mbs` MB/s (MB = 2^20 bytes); 0 when the bandwidth is 0
// (instantaneous). The one transfer-time formula (transfers and collectives), in Dimemas'
// arithmetic: a transfer takes this times its bytes, to the last bit of Dimemas' nanoseconds.
double ns_per_byte(double bandwidth_mbs);

// A point-to-point startup as Dimemas charges it: latencies below a nanosecond are none.
double startup_seconds(double latency);

class Network {
 public:
  // `task_node`: the node of each rank. `started(id)` is called when transfer `id` holds all
  // its resources (from request() or, later, from finish() of another transfer), and
  // `claimed(id)` when collective `id` holds every bus.
  Network(const Machine& machine, std::vector<int> task_node,
          std::function<void(std::uint32_t)> started,
          std::function<void(std::uint32_t)> claimed = {});

  int node_of(int task) const { return task_node_[static_cast<std::size_t>(task)]; }
  bool intra_node(int src_task, int dst_task) const {
    return node_of(src_task) == node_of(dst_task);
  }

  // What a point-to-point call between the two ranks costs its caller on the CPU, in
  // nanoseconds (the latency times 1e9, as Dimemas reads it).
  double startup_ns(int src_task, int dst_task) const;

  // What starting a non-blocking collective, or each wait for one, costs a member on `task`'s
  // node (Dimemas 5.5): the latency between nodes unless every member is on one node, or the
  // latency inside a node if some members share one, whichever is larger; in nanoseconds.
  double collective_startup_ns(int task, const std::vector<int>& members) const;

  // How long `bytes` take from `src_task` to `dst_task` once the transfer holds its resources,
  // in nanoseconds.
  double duration_ns(int src_task, int dst_task, std::int64_t bytes) const;

  // Transfer `id` (unused until then) asks for its resources.
  void request(std::uint32_t id, int src_task, int dst_task);

  // Transfer `id` ends: it frees its resources, in order; whoever each goes to goes on.
  void finish(std::uint32_t id);

  // Collective `id` (its own numbering, apart from transfers') claims every bus: it takes the
  // free ones, and each one freed after while it is first in the queue, until it holds them all
  // (at once when buses are unlimited).
  void claim_buses(std::uint32_t id);

  // Collective `id`, which holds every bus, gives them back; whoever each goes to goes on.
  void release_buses(std::uint32_t id);

 private:
  static constexpr std::uint8_t kNotQueued = 0xff;
  static constexpr int kStages = 3;  // output link, input link, bus
  // A collective's claim among the transfers queued for a bus.
  static constexpr std::uint32_t kClaim = 1u << 31;

  struct Transfer {
    int src_task = 0, dst_task = 0;
    bool intra = false;
    std::uint8_t held = 0;             // resources held, in acquisition order
    std::uint8_t queued = kNotQueued;  // the resource (stage) it is queued for
  };

  struct NodeLinks {
    FifoResource output, input, intra_bus;
    // The transfers holding its output links (when they are limited), in the order the links
    // were taken: where a transfer that finds none free looks for one to take.
    std::vector<std::uint32_t> output_holders;
  };

  // A rank's links to the memory of its node (Dimemas 5.5 gives each rank its own): `output`
  // for what it sends, `input` for what it receives. Where the node declares links of one kind
  // only, each link carries either way (half duplex): `output` then serves both.
  struct MemoryLinks {
    FifoResource output, input;
    bool half_duplex = false;

    FifoResource& receiving() { return half_duplex ? output : input; }
  };

  FifoResource& resource(const Transfer& t, int stage);
  void acquire(std::uint32_t id);
  void took(std::uint32_t id, int stage);
  bool take_output_link(std::uint32_t id);
  void release(std::uint32_t id, int stage);
  void hand_over(std::uint32_t id);
  void release_bus();
  bool claim_took_bus(std::uint32_t id);

  const Machine& machine_;
  std::vector<int> task_node_;
  std::function<void(std::uint32_t)> started_, claimed_;
  std::vector<NodeLinks> nodes_;
  std::vector<MemoryLinks> memory_links_;  // per rank
  FifoResource network_bus_;
  FifoResource no_link_;  // unlimited
  std::vector<Transfer> transfers_;
  std::vector<int> claim_buses_;  // per collective claiming them: the buses it holds
};

}  // namespace tareador::replay
