// replay.h — the discrete-event replayer: a machine description, and the simulation of a trace
// on it, in the manner of Dimemas 5.5.
//
// The machine (nodes, cores, links, buses, network) is kept apart from the simulation that uses
// it; the simulated timeline flows out through a TimelineSink (Paraver writer, statistics).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tareador/trace.h"

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
  double latency = 0;    // s
  double bandwidth = 0;  // MB/s (2^20 B/s); 0 = transfers take no time
  int buses = 0;         // concurrent transfers in the node; 0 = unlimited
  int input_links = 0;   // 0 = unlimited
  int output_links = 0;  // 0 = unlimited
};

struct Node {
  int cores = 1;
  double cpu_ratio = 1;  // simulated CPU speed relative to the traced one: burst / ratio
  IntraNode intra;
  double latency = 0;    // s, startup of messages to other nodes (Dimemas inter_node_startup)
  int input_links = 1;   // links from the network; 0 = unlimited
  int output_links = 1;  // links to the network; 0 = unlimited
};

// Where tasks go (Dimemas "predefined mapping information" / "mapping information").
struct Mapping {
  enum class Policy { TasksPerNode, Fill, Interleaved, Explicit };
  Policy policy = Policy::TasksPerNode;
  int tasks_per_node = 1;
  std::vector<int> nodes;  // Explicit: node of each task
};

// What a machine may hold, checked by its readers and by --set (docs/machine-config.md,
// "Limits"): a replay allocates per node, so a number in a file cannot ask for billions.
inline constexpr int kMaxNodes = 1 << 20;
inline constexpr int kMaxCores = 1 << 20;  // per node
// A node's CPU ratio: a millionfold speed-up or slow-down at most.
inline constexpr double kMinCpuRatio = 1e-6, kMaxCpuRatio = 1e6;
// The longest simulated run, 9.2e9 s (292 years): its times in nanoseconds stay below 2^63, as
// Paraver's need. A replay that would go past it stops with an error at the record that does.
inline constexpr double kMaxSimulatedSeconds = 9.2e9;

struct Machine {
  std::string name;
  std::vector<Node> nodes;
  double bandwidth = 0;  // network, MB/s (2^20 B/s); 0 = transfers take no time
  int buses = 0;         // network buses (concurrent transfers); 0 = unlimited
  Mapping mapping;
  std::int64_t eager_limit = -1;  // >= 0: sends of at least this many bytes use rendezvous and
                                  // smaller ones eager, whatever the trace says; < 0: the trace's
  double mips = 0;                // > 0: overrides the MIPS rate of instruction-counted traces
  // The cache-aware model's marshalling cost: seconds per unique cache line a point-to-point
  // message touches (trace::Record::lines), added to its transfer; 0 = off (Dimemas's model).
  double marshal_line_cost = 0;
  // Per Dimemas global operation id. MPI_Reduce always uses the constant model (as Dimemas 5.5).
  std::array<CollectiveCost, trace::kGlobalOpCount> collectives{};
  std::vector<std::string> notes;  // what the configuration held that is not modelled

  // Node of each of `tasks` tasks; throws std::invalid_argument when they do not fit.
  std::vector<int> map_tasks(int tasks) const;
};

// Reads a Dimemas 5 configuration (#DIMEMAS_CONFIGURATION) or a native TOML machine file
// (see docs/machine-config.md). Throws trace::FormatError with file:line.
Machine load_machine(const std::string& path);
// A machine parameter that apply_override (--set) and the sweeps (--sweep) accept: the one
// table of them (machine.cpp).
struct MachineKey {
  enum class Kind { Real, Integer, Name };
  std::string name, description;
  Kind kind = Kind::Real;  // of its values: a Name is not swept
  std::string unit;        // of its values, "" when they have none
  bool bandwidth = false;  // a bandwidth: sweeps of it give the tolerable reduction
};
const std::vector<MachineKey>& machine_keys();
const MachineKey* machine_key(std::string_view name);  // nullptr when there is none
// Applies "key=value" (bandwidth, latency, buses, cores, cpu_ratio, eager_limit, ...) to every
// node. Throws std::invalid_argument naming the key or value at fault.
void apply_override(Machine& machine, std::string_view key_value);
// Makes the network ideal: no latency, instantaneous transfers, unlimited buses and links,
// inside nodes and between them (so a replay shows the program's own critical path).
void make_network_ideal(Machine& machine);
// For a tasks trace: gives every node at least as many cores as the task instances of the ranks
// mapped to it (so no instance ever waits for a core: "unbounded" cores).
void make_cores_unbounded(Machine& machine, const trace::TraceHeader& header);

// ---- Simulation ---------------------------------------------------------------------------

// How the instances of a tasks trace take the cores of their node (docs/replay-tasks.md).
enum class TaskPolicy {
  Fifo,          // creation order: the lowest instance number first
  CriticalPath,  // the longest remaining path to the end first (spawn and after edges, each
                 // instance weighing its bursts on the simulated machine), ties by number
  Mpi,           // instances with MPI records first, then creation order; an instance blocked
                 // in MPI gives its core away and, woken, preempts one without MPI records
};
std::string_view task_policy_name(TaskPolicy policy);  // "fifo", "cp", "mpi"
// Inverse of task_policy_name; throws std::invalid_argument for another name.
TaskPolicy task_policy_from_name(std::string_view name);

// The task types of a tasks trace numbered once for all its ranks (rank 0's in order, then the
// new ones of rank 1, ...): names[k] is type k; of_rank[r][t] is the number of rank r's type t.
struct TaskTypeTable {
  std::vector<std::string> names;
  std::vector<std::vector<int>> of_rank;
};
TaskTypeTable task_type_table(const trace::TraceHeader& header);

// Paraver event types of a task replay (values in the .pcf).
inline constexpr std::uint64_t kTaskTypeEvent = 60000100;      // type number + 1; 0 = no task
inline constexpr std::uint64_t kTaskInstanceEvent = 60000101;  // instance id; 0 = none
inline constexpr std::uint64_t kCoresBusyEvent = 60000102;     // cores of the rank's node held
                                                               // by its instances

// A dependency of a tasks trace (an `after` record) as the replay satisfied it.
struct TaskDependencyArc {
  int task = 0;  // rank
  int src_instance = 0, dst_instance = 0;
  int src_core = 0, dst_core = 0;  // cores of the node (rows of the Paraver trace)
  double src_end = 0;              // the source instance ended
  double satisfied = 0;            // the dependent instance reached its `after` (or the
                                   // source ended, whichever is later)
  double resumed = 0;              // the dependent instance ran again on a core
  std::int64_t bytes = 0;
  std::uint8_t kinds = 0;  // trace::kRaw | kWar | kWaw
};

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
  double logical_send;   // the send call began
  double physical_send;  // the transfer began (resources held)
  double logical_recv;   // the receive was posted
  double physical_recv;  // the last byte arrived
  std::int64_t bytes;
  std::int64_t tag;
  std::int32_t comm;
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
  // Tasks traces: `thread` in the calls above is a core of the rank's node. An instance of
  // global task type `type` (TaskTypeTable) starts (or resumes) on a core, or leaves it.
  virtual void task_start(int task, int core, double time, int instance, int type) {}
  virtual void task_stop(int task, int core, double time) {}
  // The cores of the rank's node its instances hold changed.
  virtual void cores_busy(int task, double time, int cores) {}
  virtual void dependency(const TaskDependencyArc& arc) {}
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

// What a replay of a tasks trace adds to the result.
struct TaskResult {
  TaskPolicy policy = TaskPolicy::Fifo;
  std::vector<int> cores;  // cores of each rank's node
  int instances = 0;       // of all ranks
  // profile[k]: simulated time during which exactly k cores were busy (held by an instance),
  // counting every node; rank_profiles[r][k] the same for the instances of rank r.
  std::vector<double> profile;
  std::vector<std::vector<double>> rank_profiles;
  double busy = 0;  // core-seconds held by instances
  int peak = 0;     // most cores busy at once
  // The same replay with 1 core per node, for the speedup; 0 = not known. simulate() leaves it
  // to the caller (it is another simulation).
  double one_core_time = 0;

  // Cores the speedup is compared with for the parallel efficiency: those of the busiest
  // rank's node, or with unbounded cores (more than instances) the most a rank used at once.
  int reference_cores() const;
  double speedup(double total_time) const;     // one_core_time / total_time (0 if unknown)
  double efficiency(double total_time) const;  // speedup / reference_cores()
};

struct Result {
  std::string name, kind, path;
  double total_time = 0;
  std::vector<RankSummary> ranks;
  std::uint64_t records = 0, messages = 0, collectives = 0;
  std::vector<std::string> notes;
  std::optional<TaskResult> tasks;  // set for a tasks trace
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
  // Tasks traces: how instances take cores.
  TaskPolicy policy = TaskPolicy::Fifo;
  // Tasks traces: the bursts of every instance of a task type (by name, in every rank) run
  // this many times faster (thesis 6.1: what if this code were optimised or accelerated).
  // Types the trace does not have are an error (std::invalid_argument).
  std::map<std::string, double> accelerate;
};

Result simulate(const trace::Trace& trace, const Machine& machine,
                const SimulationOptions& options = {});

// Throws std::invalid_argument, as simulate() would, when `accelerate` names a task type the
// tasks trace of `header` does not have or gives a factor that is not a positive number (checked
// before anything is replayed).
void check_accelerations(const trace::TraceHeader& header,
                         const std::map<std::string, double>& accelerate);

// The MPI call a record stands for ("MPI_Isend", "MPI_Allreduce", an opaque call's name; empty
// for records that are not calls).
std::string_view mpi_call_name(const trace::Record& record, const trace::TraceHeader& header);

// Writes the simulated timeline as a Paraver trace (`prv_path` ends in .prv; .pcf and .row
// are written beside it).
std::unique_ptr<TimelineSink> make_paraver_sink(const std::string& prv_path,
                                                const trace::TraceHeader& header,
                                                const Machine& machine);

// Writes the simulated timeline in the Trace Event format (Chrome's about:tracing, Perfetto UI):
// a process per rank, tracks of states and of MPI calls (task instances) per thread (core),
// messages and task dependencies as flows, cores busy as a counter.
std::unique_ptr<TimelineSink> make_chrome_sink(const std::string& path,
                                               const trace::TraceHeader& header);

// One timeline to every sink of `sinks` (nullptr when there is none).
std::unique_ptr<TimelineSink> make_tee_sink(std::vector<std::unique_ptr<TimelineSink>> sinks);

}  // namespace tareador::replay
