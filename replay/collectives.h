// collectives.h — the Dimemas model of a collective's duration (internal to replay).
#pragma once

#include <cstdint>
#include <vector>

#include "tareador/replay.h"

namespace tareador::replay {

// Time of one phase (fan-in or fan-out) among `participants`, in nanoseconds, each message
// costing `latency` (s) + `bytes` / `bandwidth`; with limited `buses` a logarithmic phase's
// stages are serialised by groups of `buses` messages.
double collective_phase_ns(CollectiveModel model, int participants, int buses, double latency,
                           double bandwidth_mbs, double bytes);

// Bytes a phase moves given the representative member's sent and received counts (a double:
// 2MAX and S+R of 64-bit counts do not overflow).
double collective_phase_bytes(CollectiveSize size, bool fan_in, std::int64_t sent,
                              std::int64_t received);

// Duration of collective `op` in nanoseconds on the tasks `task_nodes` (the node of each
// member), whose representative (root, else last to arrive) sent `sent` and received
// `received` bytes: the busiest node's intra-node part plus the network part among the nodes
// used.
double collective_ns(const Machine& machine, int op, const std::vector<int>& task_nodes,
                     std::int64_t sent, std::int64_t received, int representative_node);

}  // namespace tareador::replay
