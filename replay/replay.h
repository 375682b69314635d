// replay.h — the discrete-event replayer: a machine description, and the simulation of a trace
// on it, in the manner of Dimemas 5.5.
//
// The machine (nodes, cores, links, buses, network) is kept apart from the simulation that uses
// it; the simulated timeline flows out through a TimelineSink (Paraver writer, statistics).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tracefmt.h"

namespace tareador::replay {

// ---- Machine ------------------------------------------------------------------------------

// How one phase (fan-in or fan-out) of a collective scales with the number of participants P.
enum class CollectiveModel { None, Constant, Linear, Logarithmic };
// Which byte count a phase moves (Dimemas: the caller's own count for the phase — bytes sent
// for fan-in, received for fan-out — or MIN, MAX, MEAN, 2MAX, S+R of the two).
enum class CollectiveSize { Current, Min, Max, Mean, TwiceMax, SendPlusRecv };

struct CollectivePhase {
  CollectiveModel model = CollectiveModel::Constant;
  CollectiveSize size = CollectiveSize::Current;
};

struct CollectiveCost {
  CollectivePhase fan_in, fan_out;
};

// Communication inside a node (through memory).
struct IntraNode {
  double latency = 0;      // s
  double bandwidth = 0;    // MB/s (2^20 B/s); 0 = transfers take no time
  int buses = 0;           // concurrent transfers in the node; 0 = unlimited
  int input_links = 0;     // 0 = unlimited
  int output_links = 0;    // 0 = unlimited
};

struct Node {
  int cores = 1;
  double cpu_ratio = 1;       // simulated CPU speed relative to the traced one: burst / ratio
  IntraNode intra;
  double latency = 0;         // s, startup of messages to other nodes (Dimemas inter_node_startup)
  int input_links = 1;        // links from the network; 0 = unlimited
  int output_links = 1;       // links to the network; 0 = unlimited
};

// Where tasks go (Dimemas "predefined mapping information" / "mapping information").
struct Mapping {
  enum class Policy { TasksPerNode, Fill, Interleaved, Explicit };
  Policy policy = Policy::TasksPerNode;
  int tasks_per_node = 1;
  std::vector<int> nodes;  // Explicit: node of each task
};

struct Machine {
  std::string name;
  std::vector<Node> nodes;
  double bandwidth = 0;          // network, MB/s (2^20 B/s); 0 = transfers take no time
  int buses = 0;                 // network buses (concurrent transfers); 0 = unlimited
  Mapping mapping;
  std::int64_t eager_limit = -1; // >= 0: sends of at least this many bytes use rendezvous and
                                 // smaller ones eager, whatever the trace says; < 0: the trace's
  double mips = 0;               // > 0: overrides the MIPS rate of instruction-counted traces
  // Per Dimemas global operation id. MPI_Reduce always uses the constant model (as Dimemas 5.5).
  std::array<CollectiveCost, trace::kGlobalOpCount> collectives{};
  std::vector<std::string> notes;  // what the configuration held that is not modelled

  // Node of each of `tasks` tasks; throws std::invalid_argument when they do not fit.
  std::vector<int> map_tasks(int tasks) const;
};

// Reads a Dimemas 5 configuration (#DIMEMAS_CONFIGURATION) or a native TOML machine file
// (see docs/machine-config.md). Throws trace::FormatError with file:line.
Machine load_machine(const std::string& path);
// The keys accepted by apply_override, with a one-line description each.
const std::vector<std::pair<std::string, std::string>>& override_keys();
// Applies "key=value" (bandwidth, latency, buses, cores, cpu_ratio, eager_limit, ...) to every
// node. Throws std::invalid_argument naming the key or value at fault.
void apply_override(Machine& machine, std::string_view key_value);
// Makes the network ideal: no latency, instantaneous transfers, unlimited buses and links,
// inside nodes and between them (so a replay shows the program's own critical path).
void make_network_ideal(Machine& machine);

// ---- Simulation ---------------------------------------------------------------------------

// What a thread is doing, as shown in the timeline. The numbers are the Paraver state values
// Dimemas uses.
enum class State : int {
  Idle = 0,            // waiting for a core, or not running (before its start, after its end)
  Running = 1,         // computing a burst
  WaitingMessage = 3,  // blocked in a receive or a wait
  BlockedSend = 4,     // a rendezvous send waiting for its receive
  CollectiveSync = 9,  // in a collective, waiting for the other members
  Collective = 13,     // in a collective's fan-in / fan-out
  Startup = 26,        // paying a message's latency on its CPU
};

// A point-to-point message of the simulated run.
struct Message {
  int src_task, src_thread, dst_task, dst_thread;
  double logical_send;    // the send call began
  double physical_send;   // the transfer began (resources held)
  double logical_recv;    // the receive was posted
  double physical_recv;   // the last byte arrived
  std::int64_t bytes;
  std::int32_t tag, comm;
};

// Receives the simulated timeline as it is produced. States of a thread arrive in time order;
// messages arrive when both their transfer and their receive are done.
class TimelineSink {
 public:
  virtual ~TimelineSink() = default;
  virtual void state(int task, int thread, double begin, double end, State state) = 0;
  virtual void event(int task, int thread, double time, std::uint64_t type,
                     std::uint64_t value) = 0;
  virtual void message(const Message& message) = 0;
  // The MPI call of `record` (a Send, Recv, Wait or GlobalOp) ran from `begin` to `end`.
  virtual void call(int task, int thread, double begin, double end,
                    const trace::Record& record) = 0;
  // From now on, nothing reported starts before `time` (so sinks that sort may write out).
  virtual void safe_until(double time) {}
  virtual void finish(double end_time) = 0;
};

struct RankSummary {
  double compute = 0;        // bursts
  double communication = 0;  // latencies paid, collective transfer phases
  double waiting = 0;        // blocked on messages, rendezvous and collective partners
  double idle = 0;           // waiting for a core, and after the rank ended
  double end = 0;            // when its last thread ended
  std::uint64_t records = 0;
};

struct Result {
  std::string name, kind, path;
  double total_time = 0;
  std::vector<RankSummary> ranks;
  std::uint64_t records = 0, messages = 0, collectives = 0;
  std::vector<std::string> notes;
};

// Raised when the simulated run cannot finish: the report names the ranks, the records they
// are blocked in (file:line) and the messages or collectives left unmatched.
class DeadlockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SimulationOptions {
  TimelineSink* sink = nullptr;
  // Called now and then with the fraction of input consumed (0..1).
  std::function<void(double)> progress;
};

Result simulate(const trace::Trace& trace, const Machine& machine,
                const SimulationOptions& options = {});

// Writes the simulated timeline as a Paraver trace (`prv_path` ends in .prv; .pcf and .row
// are written beside it).
std::unique_ptr<TimelineSink> make_paraver_sink(const std::string& prv_path,
                                                const trace::TraceHeader& header,
                                                const Machine& machine);

}  // namespace tareador::replay
