// engine.cpp — the discrete-event simulation of a trace on a machine, with the semantics of
// Dimemas 5.5 (docs/replay.md):
//  * a send costs the sender the latency L on its CPU; so does a blocking receive, and a wait
//    for each receive it waits for (before the receive is posted); an immediate receive costs
//    nothing;
//  * an immediate send never blocks its sender: a wait for it completes at once and costs
//    nothing, as in Dimemas (whose traces have no wait for sends, and whose blocking rendezvous
//    send waits only until its transfer starts). So turning a blocking send into an immediate
//    one with a wait where it was cannot make a run slower: the wait never blocks, and the
//    transfer can only start earlier;
//  * a transfer holds an output link of the source node, an input link of the destination node
//    and a bus (when buses are limited), acquired in that order, FIFO; it lasts bytes / bandwidth.
//    A transfer that finds no output link free takes one from a transfer of its node that holds
//    it while it waits for an input link, if its own input link is free (Dimemas 5.5 "steals"
//    it: the other goes to the head of the queue for an output link, and later to the back of
//    the queue for its input link); when a transfer ends it frees its output link, then its
//    input link, then its bus, and whoever each goes to goes on at once. Inside a node the links
//    are each task's own (never taken from another transfer); a message between threads of one
//    task needs none;
//  * eager sends start their transfer at once; rendezvous sends when the receive is posted, and a
//    blocking rendezvous sender waits until its transfer starts; sends between the threads of a
//    task are always rendezvous;
//  * messages match on their channel (trace::Channel: source, tag, communicator, and the threads
//    where the trace names them) in FIFO order;
//  * collectives start when the last member arrives and last the model's fan-in + fan-out;
//  * threads that outnumber the cores of their node take turns burst by burst (Dimemas' FIFO
//    scheduler: "Shared cores" below).
// Tasks traces (kind "tasks") run in task mode: each thread is a task instance, which holds a
// core of its node from its start to its end (docs/replay-tasks.md); everything else is the same.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "replay/collectives.h"
#include "replay/event_queue.h"
#include "replay/marshalling.h"
#include "replay/resources.h"
#include "tareador/replay.h"

namespace tareador::replay {

namespace {

using trace::Record;
using trace::RecordType;

constexpr double kBytesPerMB = 1024.0 * 1024.0;
constexpr std::int32_t kNone = -1;
constexpr std::uint64_t kProgressEvery = 1 << 16;
constexpr std::uint64_t kSafeEvery = 1 << 13;  // records between two safe times for the sink

double transfer_seconds(std::int64_t bytes, double bandwidth_mbs) {
  return bandwidth_mbs > 0 ? static_cast<double>(bytes) / (bandwidth_mbs * kBytesPerMB) : 0.0;
}

// Dimemas ignores startups below a nanosecond.
double latency_seconds(double latency) { return latency < 1e-9 ? 0.0 : latency; }

enum class Phase : std::uint8_t {
  Fetch,    // takes its next record
  Start,    // starts the record it has taken (task mode: once it holds a core)
  Issue,    // the latency of the current record is paid: the record acts now
  Resume,   // a blocking call completed: it ends, then Fetch
  Blocked,  // waits for the model to wake it
  Done,
};

// What a blocked thread waits for (for deadlock reports).
enum class Waiting : std::uint8_t {
  Nothing,
  Core,
  Request,
  SendStart,
  Collective,
  Dependency,  // task mode: an `after` whose source instance has not ended
  Posting,     // task mode: a wait for a request another instance has not posted yet
};

struct ThreadSim {
  int task = 0, thread = 0, node = 0;
  std::unique_ptr<trace::RecordStream> stream;
  Record record;
  Phase phase = Phase::Fetch;
  Waiting waiting = Waiting::Nothing;
  State state = State::Idle;
  double state_begin = 0;
  double call_begin = 0;
  bool in_call = false;  // between call_begin and the end of its MPI call
  // Where threads outnumber the cores of their node, each piece of CPU work (a burst, a
  // latency, or the empty one after an MPI call) waits for a core (CoreQueue).
  bool on_core = false;     // runs a piece of work on a core of its node
  bool after_call = false;  // its last record was an opaque call (a Dimemas no-op)
  double work = 0;          // the piece of work it waits to run, in `work_state`
  State work_state = State::Idle;
  // Outstanding requests (trace id -> RequestSim); a thread has few, so a flat list is fastest.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> requests;
  std::int32_t blocked_on = kNone;             // request, message or collective
  Queue<std::uint32_t> immediate_collectives;  // started, not yet waited for
  std::uint64_t records = 0;
  double end = 0;
  // ---- task mode (a thread is a task instance) ----
  int core = -1;        // core of the node it holds, -1 = none
  int state_core = -1;  // core held when the current state began
  int last_core = 0;    // the core it held last (for rows when it holds none)
  bool created = false, started = false, mpi = false;
  bool preempted = false;      // lost its core in the middle of a timer
  bool wants_preempt = false;  // woken from MPI (policy mpi): may preempt
  double remaining = 0;        // a preempted thread's time left until its timer
  State saved_state = State::Idle;
  std::uint32_t generation = 0;  // timers of older generations are stale
  double timer_at = 0;
  std::tuple<double, int, int> priority{};  // lower = served first
  std::vector<std::uint32_t> dependents;    // threads blocked in an `after` on it
  std::vector<TaskDependencyArc> arcs;      // satisfied dependencies not yet drawn
};

// A pending wake-up of a task-mode thread.
struct TaskTimer {
  std::uint32_t thread = 0;
  std::uint32_t generation = 0;
};

// The cores of one node in task mode.
struct TaskNode {
  int cores = 0;  // the node's cores
  // Thread holding each core, kNone = free: only as many as the instances of the node's ranks
  // (more would never be used).
  std::vector<std::int32_t> owner;
  std::set<int> free;  // free cores, the lowest taken first
  // Threads waiting for a core, best first.
  std::set<std::pair<std::tuple<double, int, int>, std::uint32_t>> ready;
};

// A request a thread may wait for: a receive's, or an immediate send's (complete at once).
struct RequestSim {
  bool complete = false;
  bool receive = false;
  std::int32_t waiter = kNone;  // thread blocked on it
  int peer_task = 0, comm = 0;
  std::int64_t tag = 0;
  double latency = 0;  // what a wait for a receive costs
};

constexpr std::uint8_t kNotQueued = 0xff;

struct MessageSim {
  Message info{};
  std::uint32_t sender = 0;
  std::int32_t recv_request = kNone;  // the matched receive
  std::int32_t next = kNone;          // next message in its match queue
  bool rendezvous = false, matched = false, requested = false, started = false;
  bool arrived = false, sender_blocked = false, intra = false;
  std::uint8_t held = 0;             // resources held, in acquisition order
  std::uint8_t queued = kNotQueued;  // the resource (stage) it is queued for
  std::uint64_t send_mark = 0;       // the sender's record (RecordStream::mark), for reports
  std::uint64_t serial = 0;          // unique while undelivered; 0 once delivered
  double marshalling = 0;            // s added to its transfer (cache-aware model)
};

// A message not yet delivered, in the heap that finds the earliest of them.
struct Undelivered {
  double logical_send;
  std::uint32_t message;
  std::uint64_t serial;
  bool operator>(const Undelivered& o) const { return logical_send > o.logical_send; }
};

struct PostedRecv {
  std::uint32_t thread = 0;
  std::int32_t request = kNone;
  double posted = 0;
  std::int32_t next = kNone;
};

// Messages sent but not received, or receives posted but not matched, for one
// (destination, source, tag, communicator). Never both at once.
struct MatchQueue {
  std::int32_t head = kNone, tail = kNone;
  bool receives = false;  // the queue holds posted receives (else unexpected messages)
};

struct ChannelHash {
  static std::uint64_t pair(std::int32_t a, std::int32_t b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
           static_cast<std::uint32_t>(b);
  }
  std::size_t operator()(const trace::Channel& k) const {
    std::uint64_t a = pair(k.dst_task, k.src_task);
    std::uint64_t b = pair(static_cast<std::int32_t>(k.tag ^ (k.tag >> 32)), k.comm);
    std::uint64_t c = pair(k.dst_thread, k.src_thread);
    std::uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x7F4A7C159E3779B9ull + (a << 6));
    h ^= c * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

struct CollectiveSim {
  int comm = 0, op = 0;
  std::uint64_t sequence = 0;
  std::vector<std::uint32_t> members;  // threads, in order of arrival
  std::vector<bool> blocking;          // member waits in it (not an immediate collective)
  std::vector<std::int32_t> waiters;   // immediate members now waiting for it
  std::int32_t root = kNone;           // thread flagged as root
  std::uint32_t representative = 0;    // the root, or the last member to arrive
  double start = 0;
  bool started = false, done = false;
  std::uint32_t references = 0;  // immediate members that have not waited for it yet
};

// A pool of objects addressed by index, reusing freed slots.
template <typename T>
class Pool {
 public:
  std::uint32_t add(T value) {
    if (!free_.empty()) {
      std::uint32_t id = free_.back();
      free_.pop_back();
      items_[id] = std::move(value);
      return id;
    }
    items_.push_back(std::move(value));
    return static_cast<std::uint32_t>(items_.size() - 1);
  }
  void remove(std::uint32_t id) { free_.push_back(id); }
  T& operator[](std::uint32_t id) { return items_[id]; }

 private:
  std::vector<T> items_;
  std::vector<std::uint32_t> free_;
};

// The cores of a node whose threads outnumber them (`shared`), scheduled as by Dimemas 5.5's
// FIFO policy: a thread asks for a core for each piece of CPU work and gives it back when the
// piece ends; ready threads queue, at the back, or at the front when they go on from an MPI call.
struct CoreQueue {
  bool shared = false;
  int free = 0;
  Queue<std::uint32_t> ready;
};

struct NodeResources {
  CoreQueue cores;
  FifoResource output_link, input_link, intra_bus;
  // The messages holding its output links (when they are limited), in the order the links were
  // taken: where Dimemas looks for one to take from a transfer waiting for an input link.
  std::vector<std::uint32_t> output_holders;
};

// A task's links to the memory of its node (Dimemas 5.5 gives each task its own): `output` for
// what it sends, `input` for what it receives. Where the node declares links of one kind only,
// each link carries either way (half duplex): `output` then serves both.
struct MemoryLinks {
  FifoResource output, input;
  bool half_duplex = false;

  FifoResource& receiving() { return half_duplex ? output : input; }
};

std::string describe(const Record& r) {
  std::ostringstream out;
  switch (r.type) {
    case RecordType::Burst:
      out << "CPU burst";
      break;
    case RecordType::Send:
      out << (r.immediate() ? "immediate " : "")
          << ((r.flags & trace::kRendezvous) ? "rendezvous " : "") << "send of " << r.bytes
          << " bytes to rank " << r.peer << " (tag " << r.tag << ", comm " << r.comm << ")";
      break;
    case RecordType::Recv:
      out << (r.immediate() ? "immediate " : "") << "receive of " << r.bytes << " bytes from rank "
          << r.peer << " (tag " << r.tag << ", comm " << r.comm << ")";
      break;
    case RecordType::Wait:
      out << "wait";
      break;
    case RecordType::GlobalOp:
      out << trace::global_op_name(r.op) << " on comm " << r.comm;
      break;
    case RecordType::Event:
      out << "event";
      break;
    case RecordType::Call:
      out << "opaque call";
      break;
    case RecordType::Spawn:
      out << "spawn of instance " << r.peer;
      break;
    case RecordType::After:
      out << "after instance " << r.peer;
      break;
  }
  return out.str();
}

class Engine {
 public:
  Engine(const trace::Trace& trace, const Machine& machine, const SimulationOptions& options)
      : trace_(trace),
        header_(trace.header()),
        machine_(machine),
        options_(options),
        sink_(options.sink) {
    if (machine_.nodes.empty()) throw std::invalid_argument("the machine has no nodes");
    task_node_ = machine_.map_tasks(header_.tasks());
    task_mode_ = header_.kind == "tasks";
    if (task_mode_ && header_.task_sets.size() != static_cast<std::size_t>(header_.tasks()))
      throw std::invalid_argument("a tasks trace without its task model");
    mips_ = machine_.mips > 0 ? machine_.mips : header_.mips;
    std::vector<int> threads_on_node(machine_.nodes.size(), 0);
    for (int task = 0; task < header_.tasks(); ++task)
      threads_on_node[static_cast<std::size_t>(node_of(task))] +=
          header_.threads[static_cast<std::size_t>(task)];
    for (std::size_t n = 0; n < machine_.nodes.size(); ++n) {
      const Node& node = machine_.nodes[n];
      // Cores are only a resource where threads outnumber them. (Task mode schedules them
      // itself, below.)
      CoreQueue cores;
      cores.shared = !task_mode_ && threads_on_node[n] > node.cores;
      cores.free = node.cores;
      nodes_.push_back(NodeResources{std::move(cores),
                                     FifoResource(node.output_links),
                                     FifoResource(node.input_links),
                                     FifoResource(node.intra.buses),
                                     {}});
    }
    for (int task = 0; task < header_.tasks(); ++task) {
      const IntraNode& intra = machine_.nodes[static_cast<std::size_t>(node_of(task))].intra;
      MemoryLinks links;
      links.half_duplex = (intra.input_links == 0) != (intra.output_links == 0);
      links.output = FifoResource(
          links.half_duplex ? std::max(intra.input_links, intra.output_links) : intra.output_links);
      links.input = FifoResource(intra.input_links);
      memory_links_.push_back(std::move(links));
    }
    network_bus_ = FifoResource(machine_.buses);
    for (int task = 0; task < header_.tasks(); ++task)
      for (int thread = 0; thread < header_.threads[static_cast<std::size_t>(task)]; ++thread) {
        ThreadSim t;
        t.task = task;
        t.thread = thread;
        t.node = node_of(task);
        t.stream = trace_.open(task, thread);
        threads_.push_back(std::move(t));
      }
    for (std::size_t n = 0; n < nodes_.size(); ++n)
      if (nodes_[n].cores.shared) shared_nodes_.push_back(n);
    collective_counts_.resize(static_cast<std::size_t>(header_.tasks()));
    ranks_.assign(static_cast<std::size_t>(header_.tasks()), RankSummary{});
    total_bytes_ = std::max<std::uint64_t>(trace_.size_bytes(), 1);
    if (task_mode_) set_type_speedups();
    if (task_mode_) setup_tasks();
  }

  Result run() {
    if (task_mode_) return run_tasks();
    for (std::uint32_t i = 0; i < threads_.size(); ++i) {
      if (shares_cores(threads_[i])) queue_next_work(i, false);
      else queue_.push(0.0, EventKind::ThreadReady, i);
    }
    for (;;) {
      if (cores_pending_) dispatch_cores();  // once every event is handled, as Dimemas does
      if (queue_.empty()) break;
      Event e = queue_.pop();
      now_ = e.time;
      switch (e.kind) {
        case EventKind::ThreadReady:
          advance(e.id);
          break;
        case EventKind::TransferDone:
          transfer_done(e.id);
          break;
        case EventKind::CollectiveDone:
          collective_done(e.id);
          break;
        case EventKind::TaskTimer:
          break;
      }
    }
    check_finished();
    return summarize();
  }

 private:
  int node_of(int task) const { return task_node_[static_cast<std::size_t>(task)]; }

  // ---- Thread execution ------------------------------------------------------------------

  // Runs thread `ti` from now_ until it has to wait for time to pass or for another thread.
  void advance(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    if (t.on_core) release_core(t);  // its piece of work has ended
    for (;;) {
      switch (t.phase) {
        case Phase::Blocked:
        case Phase::Done:
          return;
        case Phase::Resume:
          end_call(t);
          if (shares_cores(t)) {
            queue_next_work(ti, true);
            return;
          }
          t.phase = Phase::Fetch;
          continue;
        case Phase::Issue:
          if (!issue(ti)) return;
          continue;
        case Phase::Fetch:
          if (!fetch(ti)) return;
          continue;
        case Phase::Start:
          if (!start(ti)) return;
          continue;
      }
    }
  }

  // Takes the thread's next record; at the end of its stream the thread is done (false).
  bool take_record(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    if (!t.stream->next(t.record)) {
      set_state(t, State::Idle);
      t.phase = Phase::Done;
      t.end = now_;
      if (task_mode_) instance_ended(ti);
      return false;
    }
    if ((++t.records & (kProgressEvery - 1)) == 0) report_progress();
    return true;
  }

  // Takes the next record and starts it. Returns false when the thread must wait.
  bool fetch(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    if (!take_record(ti)) return false;
    if (task_mode_) {
      // An `after` needs no core; anything else runs on one.
      if (t.record.type == RecordType::After) return after(ti);
      if (t.core < 0) {
        t.phase = Phase::Start;
        request_core(ti);
        return false;
      }
    } else if (sink_ && (++records_since_safe_ & (kSafeEvery - 1)) == 0) {
      report_safe_time();
    }
    return start(ti);
  }

  // Starts the record just taken. Returns false when the thread must wait.
  bool start(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    const Record& r = t.record;
    t.phase = Phase::Fetch;  // unless the record says otherwise
    bool after_call = std::exchange(t.after_call, false);
    switch (r.type) {
      case RecordType::Burst:
        return compute(ti, burst_seconds(t), State::Running, Phase::Fetch, after_call);
      case RecordType::Send:
        t.call_begin = now_;
        t.in_call = true;
        return compute(ti, latency_seconds(pair_latency(t.node, node_of(r.peer))), State::Startup,
                       Phase::Issue);
      case RecordType::Recv:
        t.call_begin = now_;
        t.in_call = true;
        if (r.immediate()) {
          t.phase = Phase::Issue;
          return true;
        }
        return compute(ti, latency_seconds(pair_latency(node_of(r.peer), t.node)), State::Startup,
                       Phase::Issue);
      case RecordType::Wait: {
        if (!t.in_call) t.call_begin = now_;  // (in a call: a wait for a late post, again)
        t.in_call = true;
        if (skip_send_wait(t)) {
          t.after_call = after_call;  // as if it were not there
          return true;
        }
        RequestList& list = requests_of(t);
        auto it = find_request(list, r.request);
        if (it == list.end()) {
          if (task_mode_) return wait_for_post(ti);
          fail(t, "wait for an unknown request");
        }
        // Each receive waited for costs its latency, as each wait record does in Dimemas (whose
        // traces have one per message an MPI_Waitall receives).
        return compute(ti, latency_seconds(requests_[it->second].latency), State::Startup,
                       Phase::Issue);
      }
      case RecordType::GlobalOp:
        t.call_begin = now_;
        t.in_call = true;
        t.phase = Phase::Issue;
        return true;
      case RecordType::Event:
        if (sink_) sink_->event(t.task, row(t), now_, r.event_type, r.event_value);
        return true;
      case RecordType::Call:
        if (sink_) sink_->call(t.task, row(t), now_, now_, r);
        t.after_call = true;
        return true;
      case RecordType::Spawn:
        if (!task_mode_) fail(t, "a spawn record outside a tasks trace");
        spawn(ti);
        return true;
      case RecordType::After:
        fail(t, "an after record outside a tasks trace");
    }
    return true;
  }

  double burst_seconds(const ThreadSim& t) {
    const Record& r = t.record;
    double seconds = r.amount;
    if (r.flags & trace::kInstructions) {
      if (!(mips_ > 0)) fail(t, "the trace counts instructions but no MIPS rate is known");
      seconds = r.amount / (mips_ * 1e6);
    }
    double ratio = machine_.nodes[static_cast<std::size_t>(t.node)].cpu_ratio;
    if (task_mode_ && !type_speedup_.empty())
      ratio *= type_speedup_[static_cast<std::size_t>(t.task)]
                            [static_cast<std::size_t>(instance_of(t).type)];
    return ratio > 0 ? seconds / ratio : 0.0;
  }

  // The speedup of each task type of each rank (--accelerate); checks that each named type
  // exists somewhere.
  void set_type_speedups() {
    if (options_.accelerate.empty()) return;
    std::string known;
    for (const auto& [name, factor] : options_.accelerate) {
      if (!(factor > 0) || !std::isfinite(factor))
        throw std::invalid_argument("--accelerate " + name +
                                    ": the factor must be a positive number");
      bool found = false;
      for (const trace::TaskSet& set : header_.task_sets)
        found = found || std::find(set.types.begin(), set.types.end(), name) != set.types.end();
      if (found) continue;
      for (const std::string& type : task_type_table(header_).names)
        known += (known.empty() ? "" : ", ") + type;
      throw std::invalid_argument("--accelerate: the trace has no task type '" + name +
                                  "' (its types: " + known + ")");
    }
    for (const trace::TaskSet& set : header_.task_sets) {
      type_speedup_.emplace_back();
      for (const std::string& type : set.types) {
        auto it = options_.accelerate.find(type);
        type_speedup_.back().push_back(it == options_.accelerate.end() ? 1.0 : it->second);
      }
    }
  }

  double pair_latency(int from_node, int to_node) const {
    const Node& node = machine_.nodes[static_cast<std::size_t>(from_node)];
    return from_node == to_node ? node.intra.latency : node.latency;
  }

  // `seconds` of CPU work in `state` (a burst when Running, else a latency), after which the
  // thread goes on with `next`. On shared cores a burst always queues for a core, even an empty
  // one, at the back unless `front`; a latency at the front (Dimemas: the thread goes on with its
  // call).
  bool compute(std::uint32_t ti, double seconds, State state, Phase next, bool front = false) {
    ThreadSim& t = threads_[ti];
    t.phase = next;
    bool burst = state == State::Running;
    if (shares_cores(t) && (burst || seconds > 0)) {
      queue_work(ti, seconds, state, front || !burst);
      return false;
    }
    if (seconds <= 0) return true;
    set_state(t, state);
    return continue_at(ti, now_ + seconds);
  }

  // ---- Shared cores (Dimemas 5.5's FIFO scheduler) -----------------------------------------
  //
  // A thread takes a core of its node for one piece of CPU work and gives it back when the
  // piece ends; what it does between two pieces takes no time. A burst reached from the end of
  // a piece queues at the back of the ready threads (at the front right after an opaque call,
  // Dimemas' no-op). After an MPI call the thread queues for
  // its next burst (an empty one when the next record is not a burst) at the front if the call
  // went on without blocking or was a rendezvous send whose transfer started, at the back if
  // it was a receive, a wait or a collective that had to wait. Free cores go to the front of
  // the queue once every event of the moment has been handled.

  bool shares_cores(const ThreadSim& t) const {
    return nodes_[static_cast<std::size_t>(t.node)].cores.shared;
  }

  void queue_work(std::uint32_t ti, double seconds, State state, bool front) {
    ThreadSim& t = threads_[ti];
    t.work = seconds;
    t.work_state = state;
    t.waiting = Waiting::Core;
    set_state(t, State::Idle);
    Queue<std::uint32_t>& ready = nodes_[static_cast<std::size_t>(t.node)].cores.ready;
    if (front) ready.push_front(ti);
    else ready.push_back(ti);
    cores_pending_ = true;
  }

  // After an MPI call (or before the first record): the thread queues for its next burst, or
  // for an empty piece of work before a record that is not a burst.
  void queue_next_work(std::uint32_t ti, bool front) {
    ThreadSim& t = threads_[ti];
    do {
      if (!take_record(ti)) return;
    } while (skip_send_wait(t));
    bool burst = t.record.type == RecordType::Burst;
    t.phase = burst ? Phase::Fetch : Phase::Start;
    queue_work(ti, burst ? burst_seconds(t) : 0.0, State::Running, front);
  }

  void dispatch_cores() {
    cores_pending_ = false;
    for (std::size_t n : shared_nodes_) {
      CoreQueue& cores = nodes_[n].cores;
      while (cores.free > 0 && !cores.ready.empty()) {
        std::uint32_t ti = cores.ready.front();
        cores.ready.pop_front();
        --cores.free;
        ThreadSim& t = threads_[ti];
        t.on_core = true;
        t.waiting = Waiting::Nothing;
        set_state(t, t.work_state);
        queue_.push(checked(now_ + t.work, ti), EventKind::ThreadReady, ti);
      }
    }
  }

  void release_core(ThreadSim& t) {
    t.on_core = false;
    ++nodes_[static_cast<std::size_t>(t.node)].cores.free;
    cores_pending_ = true;
  }

  // The thread goes on at `time`: inline when nothing else happens before, else via the queue.
  bool continue_at(std::uint32_t ti, double time) {
    checked(time, ti);
    if (task_mode_) {  // always through the agenda: a preemption may come first
      schedule(ti, time);
      return false;
    }
    if (time < queue_.next_time() && !cores_pending_) {
      now_ = time;
      return true;
    }
    queue_.push(time, EventKind::ThreadReady, ti);
    return false;
  }

  void block(ThreadSim& t, Waiting waiting, State state, std::int32_t on) {
    t.phase = Phase::Blocked;
    t.waiting = waiting;
    t.blocked_on = on;
    set_state(t, state);
    // Task mode: an instance blocked in MPI gives its core away under the MPI policy (else it
    // keeps it, busy waiting).
    if (task_mode_ && t.core >= 0 && options_.policy == TaskPolicy::Mpi) release_task_core(t);
  }

  void wake(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    // On shared cores a rendezvous sender goes on at the front, the others at the back.
    bool front = t.waiting == Waiting::SendStart;
    t.phase = Phase::Resume;
    t.waiting = Waiting::Nothing;
    t.blocked_on = kNone;
    if (task_mode_) {
      resume_on_core(ti, options_.policy == TaskPolicy::Mpi);
      return;
    }
    if (shares_cores(t)) {
      end_call(t);
      queue_next_work(ti, front);
      return;
    }
    queue_.push(now_, EventKind::ThreadReady, ti);
  }

  void end_call(ThreadSim& t) {
    t.in_call = false;
    if (sink_) sink_->call(t.task, row(t), t.call_begin, now_, t.record);
  }

  // The sink's thread of `t`: its thread, or in task mode the core it runs on.
  int row(const ThreadSim& t) const {
    if (!task_mode_) return t.thread;
    return t.core >= 0 ? t.core : t.last_core;
  }

  // Tells the sink the earliest time anything still open began: a thread's current state or
  // call, or an undelivered message's send.
  void report_safe_time() {
    double safe = now_;
    for (const ThreadSim& t : threads_) {
      if (t.phase == Phase::Done) continue;
      safe = std::min(safe, t.state_begin);
      if (t.in_call) safe = std::min(safe, t.call_begin);
    }
    while (!undelivered_.empty() &&
           messages_[undelivered_.front().message].serial != undelivered_.front().serial) {
      std::pop_heap(undelivered_.begin(), undelivered_.end(), std::greater<>());
      undelivered_.pop_back();
    }
    if (!undelivered_.empty()) safe = std::min(safe, undelivered_.front().logical_send);
    sink_->safe_until(safe);
  }

  // The current record acts (its latency is paid). Returns false when the thread blocks.
  bool issue(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    t.phase = Phase::Resume;
    switch (t.record.type) {
      case RecordType::Send:
        return issue_send(ti);
      case RecordType::Recv:
        return issue_recv(ti);
      case RecordType::Wait:
        return issue_wait(ti);
      case RecordType::GlobalOp:
        return issue_collective(ti);
      default:
        return true;
    }
  }

  bool issue_send(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    const Record& r = t.record;
    MessageSim m;
    m.sender = ti;
    m.info = Message{t.task, row(t), r.peer, 0, t.call_begin, 0, 0, 0, r.bytes, r.tag, r.comm};
    m.marshalling = marshalling_seconds(machine_, r);
    bool rendezvous = r.flags & trace::kRendezvous;
    if (machine_.eager_limit >= 0 && !(r.flags & trace::kProtocolFixed))
      rendezvous = r.bytes >= machine_.eager_limit;
    // Dimemas 5.5 sends between two threads of one task by rendezvous, whatever else holds.
    if (r.peer == t.task && r.peer_thread >= 0 && r.peer_thread != t.thread) rendezvous = true;
    m.rendezvous = rendezvous;
    m.intra = t.node == node_of(r.peer);
    m.send_mark = t.stream->mark();
    if (r.immediate() && r.request != 0) {  // complete at once: see skip_send_wait
      RequestSim request;
      request.complete = true;
      request.peer_task = r.peer;
      request.tag = r.tag;
      request.comm = r.comm;
      add_request(ti, r.request, requests_.add(request));
    }
    m.serial = ++message_count_;
    std::uint32_t mid = messages_.add(m);
    if (sink_) {
      undelivered_.push_back(Undelivered{m.info.logical_send, mid, m.serial});
      std::push_heap(undelivered_.begin(), undelivered_.end(), std::greater<>());
    }

    MatchQueue& q = match_queue(trace::channel_of(r, t.task, t.thread));
    if (q.head != kNone && q.receives) {
      std::int32_t pid = q.head;
      PostedRecv& p = posted_[static_cast<std::uint32_t>(pid)];
      q.head = p.next;
      if (q.head == kNone) q.tail = kNone;
      match(mid, p);
      posted_.remove(static_cast<std::uint32_t>(pid));
    } else {
      q.receives = false;
      append(q, static_cast<std::int32_t>(mid), messages_[mid].next);
    }
    MessageSim& sent = messages_[mid];
    if (!sent.rendezvous || sent.matched) request_transfer(mid);
    if (r.immediate() || !sent.rendezvous || sent.started) return true;
    sent.sender_blocked = true;
    block(t, Waiting::SendStart, State::BlockedSend, static_cast<std::int32_t>(mid));
    return false;
  }

  // The queue of `key`. Empty queues are dropped now and then, so traces that use ever new
  // tags keep a bounded table.
  MatchQueue& match_queue(const trace::Channel& key) {
    auto it = match_.find(key);
    if (it != match_.end()) return it->second;
    if (match_.size() >= compact_at_) {
      for (auto i = match_.begin(); i != match_.end();)
        i = i->second.head == kNone ? match_.erase(i) : std::next(i);
      compact_at_ = std::max<std::size_t>(kCompactAt, 2 * match_.size());
    }
    return match_[key];
  }

  template <typename Link>
  void append(MatchQueue& q, std::int32_t id, Link& link_of_id) {
    link_of_id = kNone;
    if (q.tail == kNone) {
      q.head = q.tail = id;
    } else if (q.receives) {
      posted_[static_cast<std::uint32_t>(q.tail)].next = id;
      q.tail = id;
    } else {
      messages_[static_cast<std::uint32_t>(q.tail)].next = id;
      q.tail = id;
    }
  }

  // Pairs message `mid` with the posted receive `p`.
  void match(std::uint32_t mid, const PostedRecv& p) {
    MessageSim& m = messages_[mid];
    m.matched = true;
    m.recv_request = p.request;
    m.info.logical_recv = p.posted;
    m.info.dst_thread = row(threads_[p.thread]);
  }

  bool issue_recv(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    const Record& r = t.record;
    RequestSim request;
    request.receive = true;
    request.peer_task = r.peer;
    request.tag = r.tag;
    request.comm = r.comm;
    request.latency = pair_latency(node_of(r.peer), t.node);
    std::uint32_t rid = requests_.add(request);
    if (r.immediate()) add_request(ti, r.request, rid);

    MatchQueue& q = match_queue(trace::channel_of(r, t.task, t.thread));
    PostedRecv p{ti, static_cast<std::int32_t>(rid), now_, kNone};
    if (q.head != kNone && !q.receives) {
      std::uint32_t mid = static_cast<std::uint32_t>(q.head);
      q.head = messages_[mid].next;
      if (q.head == kNone) q.tail = kNone;
      match(mid, p);
      MessageSim& m = messages_[mid];
      if (m.arrived) {
        deliver(mid);
      } else if (!m.requested) {
        request_transfer(mid);  // a rendezvous message waited for this receive
      }
    } else {
      q.receives = true;
      std::uint32_t pid = posted_.add(p);
      append(q, static_cast<std::int32_t>(pid), posted_[pid].next);
    }
    if (r.immediate()) return true;
    return wait_for(ti, rid);
  }

  // A wait for an immediate send: its request is complete from the start (Dimemas' immediate
  // sends never block their sender), so the wait costs nothing and, on shared cores, is no
  // scheduling point: the same as the Dimemas trace, which has no record for it. False if
  // `t.record` is not one.
  bool skip_send_wait(ThreadSim& t) {
    if (t.record.type != RecordType::Wait) return false;
    RequestList& list = requests_of(t);
    auto it = find_request(list, t.record.request);
    if (it == list.end() || requests_[it->second].receive) return false;
    requests_.remove(it->second);
    *it = list.back();
    list.pop_back();
    if (sink_) sink_->call(t.task, row(t), t.in_call ? t.call_begin : now_, now_, t.record);
    t.in_call = false;
    return true;
  }

  bool issue_wait(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    RequestList& list = requests_of(t);
    auto it = find_request(list, t.record.request);
    std::uint32_t rid = it->second;
    *it = list.back();
    list.pop_back();
    return wait_for(ti, rid);
  }

  using RequestList = std::vector<std::pair<std::uint64_t, std::uint32_t>>;
  static RequestList::iterator find_request(RequestList& list, std::uint64_t id) {
    return std::find_if(list.begin(), list.end(),
                        [id](const auto& entry) { return entry.first == id; });
  }

  // The outstanding requests a thread's waits look up: its own, or in task mode its rank's
  // (one instance may post a request and another wait for it).
  RequestList& requests_of(ThreadSim& t) {
    return task_mode_ ? rank_requests_[static_cast<std::size_t>(t.task)] : t.requests;
  }

  // The readers guarantee that an id is not reused while outstanding.
  void add_request(std::uint32_t ti, std::uint64_t id, std::uint32_t rid) {
    ThreadSim& t = threads_[ti];
    requests_of(t).emplace_back(id, rid);
    if (task_mode_) request_posted(t.task, id);
  }

  // Blocks thread `ti` until request `rid` completes (frees it then). False if it blocks.
  bool wait_for(std::uint32_t ti, std::uint32_t rid) {
    RequestSim& request = requests_[rid];
    if (request.complete) {
      requests_.remove(rid);
      return true;
    }
    request.waiter = static_cast<std::int32_t>(ti);
    block(threads_[ti], Waiting::Request, State::WaitingMessage, static_cast<std::int32_t>(rid));
    return false;
  }

  void complete_request(std::int32_t rid) {
    if (rid == kNone) return;
    RequestSim& request = requests_[static_cast<std::uint32_t>(rid)];
    request.complete = true;
    if (request.waiter != kNone) {
      wake(static_cast<std::uint32_t>(request.waiter));
      requests_.remove(static_cast<std::uint32_t>(rid));
    }
  }

  // ---- Transfers -------------------------------------------------------------------------

  // The resource a transfer takes at `stage`: the sender's output link, the receiver's input
  // link, a bus. Inside a node (Dimemas 5.5): the links are the tasks' own, taken receiver first
  // when one of them is half duplex and the sender has the higher number; a message between
  // threads of one task needs no link.
  FifoResource& resource(const MessageSim& m, int stage) {
    int src = m.info.src_task, dst = m.info.dst_task;
    if (!m.intra) {
      switch (stage) {
        case 0:
          return nodes_[static_cast<std::size_t>(node_of(src))].output_link;
        case 1:
          return nodes_[static_cast<std::size_t>(node_of(dst))].input_link;
        default:
          return network_bus_;
      }
    }
    if (stage == 2) return nodes_[static_cast<std::size_t>(node_of(src))].intra_bus;
    if (src == dst) return no_link_;
    MemoryLinks& sender = memory_links_[static_cast<std::size_t>(src)];
    MemoryLinks& receiver = memory_links_[static_cast<std::size_t>(dst)];
    bool receiver_first = (sender.half_duplex || receiver.half_duplex) && src > dst;
    return (stage == 0) != receiver_first ? sender.output : receiver.receiving();
  }

  void request_transfer(std::uint32_t mid) {
    messages_[mid].requested = true;
    acquire_resources(mid);
  }

  // Takes the message's resources in order; starts the transfer once it holds them all.
  void acquire_resources(std::uint32_t mid) {
    MessageSim& m = messages_[mid];
    while (m.held < 3) {
      FifoResource& r = resource(m, m.held);
      if (r.try_acquire()) {
        took(mid, m.held);
        ++m.held;
        continue;
      }
      if (m.held == 0 && take_output_link(mid)) continue;
      r.enqueue(mid);  // release() hands it over
      m.queued = m.held;
      return;
    }
    m.started = true;
    m.info.physical_send = now_;
    double bandwidth =
        m.intra ? machine_.nodes[static_cast<std::size_t>(node_of(m.info.src_task))].intra.bandwidth
                : machine_.bandwidth;
    double arrival = now_ + transfer_seconds(m.info.bytes, bandwidth) + m.marshalling;
    if (!(arrival <= kMaxSimulatedSeconds))
      time_limit(threads_[m.sender].stream->where(m.send_mark),
                 "a transfer of " + std::to_string(m.info.bytes) + " bytes");
    queue_.push(arrival, EventKind::TransferDone, mid);
    if (m.sender_blocked) {
      m.sender_blocked = false;
      wake(m.sender);
    }
  }

  // Message `mid` now holds resource `stage`.
  void took(std::uint32_t mid, int stage) {
    MessageSim& m = messages_[mid];
    if (stage != 0 || m.intra) return;
    NodeResources& node = nodes_[static_cast<std::size_t>(node_of(m.info.src_task))];
    if (node.output_link.limited()) node.output_holders.push_back(mid);
  }

  // Dimemas 5.5's link stealing, for message `mid` that found no output link of its node free:
  // the first transfer (in the order the links were taken) that holds one while it waits for an
  // input link gives it up, if the input link `mid` needs is free; it queues at the head for an
  // output link. True if `mid` now holds an output link and its input link.
  bool take_output_link(std::uint32_t mid) {
    MessageSim& m = messages_[mid];
    if (m.intra) return false;
    NodeResources& node = nodes_[static_cast<std::size_t>(node_of(m.info.src_task))];
    auto holder = std::find_if(node.output_holders.begin(), node.output_holders.end(),
                               [this](std::uint32_t h) { return messages_[h].queued == 1; });
    if (holder == node.output_holders.end() || !resource(m, 1).try_acquire()) return false;
    std::uint32_t victim = *holder;
    MessageSim& v = messages_[victim];
    resource(v, 1).remove(victim);
    v.held = 0;
    v.queued = 0;
    node.output_link.enqueue(victim, true);
    *holder = mid;
    m.held = 2;
    return true;
  }

  // Message `mid` gives up resource `stage`; whoever was queued for it takes it and goes on.
  void release(std::uint32_t mid, int stage) {
    MessageSim& m = messages_[mid];
    FifoResource& r = resource(m, stage);
    if (stage == 0 && !m.intra && r.limited()) {
      auto& holders = nodes_[static_cast<std::size_t>(node_of(m.info.src_task))].output_holders;
      holders.erase(std::find(holders.begin(), holders.end(), mid));
    }
    if (auto next = r.release()) {
      MessageSim& n = messages_[*next];
      n.queued = kNotQueued;
      took(*next, n.held);
      ++n.held;
      acquire_resources(*next);
    }
  }

  // The transfer ends: the message arrives (and is delivered, if its receive is posted), then
  // it frees its output link, its input link and its bus, as Dimemas 5.5 does.
  void transfer_done(std::uint32_t mid) {
    MessageSim& m = messages_[mid];
    m.arrived = true;
    m.info.physical_recv = now_;
    bool matched = m.matched;
    if (matched) arrive(mid);
    for (int stage = 0; stage < 3; ++stage) release(mid, stage);
    messages_[mid].held = 0;
    if (matched) forget(mid);
  }

  // The message has arrived and its receive is posted: the receive completes.
  void deliver(std::uint32_t mid) {
    arrive(mid);
    forget(mid);
  }

  void arrive(std::uint32_t mid) {
    MessageSim& m = messages_[mid];
    if (sink_) sink_->message(m.info);
    complete_request(m.recv_request);
  }

  void forget(std::uint32_t mid) {
    messages_[mid].serial = 0;
    messages_.remove(mid);
  }

  // ---- Collectives -----------------------------------------------------------------------

  bool issue_collective(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    const Record& r = t.record;
    if (r.flags & trace::kCollectiveWait) {
      if (t.immediate_collectives.empty()) fail(t, "wait for a collective that was not started");
      std::uint32_t cid = t.immediate_collectives.front();
      t.immediate_collectives.pop_front();
      CollectiveSim& c = collectives_[cid];
      --c.references;
      if (c.done) {
        release_collective(cid);
        return true;
      }
      c.waiters.push_back(static_cast<std::int32_t>(ti));
      block(t, Waiting::Collective, State::CollectiveSync, static_cast<std::int32_t>(cid));
      return false;
    }
    const trace::Communicator* comm = header_.communicator(r.comm);
    if (std::find(comm->tasks.begin(), comm->tasks.end(), t.task) == comm->tasks.end())
      fail(t,
           "rank " + std::to_string(t.task) + " is not in communicator " + std::to_string(r.comm));
    std::uint64_t sequence = collective_counts_[static_cast<std::size_t>(t.task)][r.comm]++;
    auto key = std::make_pair(r.comm, sequence);
    auto it = open_collectives_.find(key);
    std::uint32_t cid;
    if (it == open_collectives_.end()) {
      CollectiveSim c;
      c.comm = r.comm;
      c.op = r.op;
      c.sequence = sequence;
      cid = collectives_.add(c);
      open_collectives_.emplace(key, cid);
      ++collective_count_;
    } else {
      cid = it->second;
    }
    CollectiveSim& c = collectives_[cid];
    if (c.op != r.op)
      fail(t, std::string("collective #") + std::to_string(sequence) + " on comm " +
                  std::to_string(r.comm) + " is " + std::string(trace::global_op_name(r.op)) +
                  " here but " + std::string(trace::global_op_name(c.op)) + " on rank " +
                  std::to_string(threads_[c.members.front()].task));
    bool immediate = r.flags & trace::kImmediate;
    c.members.push_back(ti);
    c.blocking.push_back(!immediate);
    if (r.peer == t.task) c.root = static_cast<std::int32_t>(ti);
    if (immediate) {
      ++c.references;
      t.immediate_collectives.push_back(cid);
    } else {
      block(t, Waiting::Collective, State::CollectiveSync, static_cast<std::int32_t>(cid));
    }
    if (c.members.size() == comm->tasks.size()) start_collective(cid, ti);
    return immediate;
  }

  void start_collective(std::uint32_t cid, std::uint32_t last) {
    CollectiveSim& c = collectives_[cid];
    open_collectives_.erase(std::make_pair(c.comm, c.sequence));
    c.started = true;
    c.start = now_;
    c.representative = c.root != kNone ? static_cast<std::uint32_t>(c.root) : last;
    std::uint32_t representative = c.representative;
    const Record& r = threads_[representative].record;
    std::vector<int> member_nodes;
    for (std::uint32_t m : c.members) member_nodes.push_back(threads_[m].node);
    double duration = collective_time(machine_, c.op, member_nodes, r.bytes, r.bytes_recv,
                                      threads_[representative].node);
    for (std::size_t i = 0; i < c.members.size(); ++i)
      if (c.blocking[i]) set_state(threads_[c.members[i]], State::Collective);
    queue_.push(checked(now_ + duration, last), EventKind::CollectiveDone, cid);
  }

  // The blocking members go on in the order they arrived, the representative last (as Dimemas
  // releases them).
  void collective_done(std::uint32_t cid) {
    CollectiveSim& c = collectives_[cid];
    c.done = true;
    std::int32_t representative = kNone;
    for (std::size_t i = 0; i < c.members.size(); ++i) {
      if (!c.blocking[i]) continue;
      if (c.members[i] == c.representative)
        representative = static_cast<std::int32_t>(c.members[i]);
      else wake(c.members[i]);
    }
    if (representative != kNone) wake(static_cast<std::uint32_t>(representative));
    for (std::int32_t w : c.waiters) wake(static_cast<std::uint32_t>(w));
    c.waiters.clear();
    release_collective(cid);
  }

  void release_collective(std::uint32_t cid) {
    CollectiveSim& c = collectives_[cid];
    if (c.done && c.references == 0) collectives_.remove(cid);
  }

  // ---- Task mode (tasks traces) ----------------------------------------------------------
  //
  // A thread is a task instance. Only the main instance of each rank exists at first; `spawn`
  // creates one, which then passes its leading `after`s (no core needed: it waits for their
  // sources to end) and asks its node for a core at its first other record. It holds that core
  // until it ends, except while blocked in an `after` (and, under the MPI policy, in MPI).
  // Cores go to the ready instances in policy order once every event of the instant is done.
  // Its continuations go through timers, which a preemption makes stale.

  void setup_tasks() {
    types_ = task_type_table(header_);
    task_nodes_.resize(machine_.nodes.size());
    std::vector<std::uint64_t> instances(machine_.nodes.size(), 0);
    for (int task = 0; task < header_.tasks(); ++task)
      instances[static_cast<std::size_t>(node_of(task))] +=
          static_cast<std::uint64_t>(header_.threads[static_cast<std::size_t>(task)]);
    for (std::size_t n = 0; n < machine_.nodes.size(); ++n) {
      int cores = machine_.nodes[n].cores;
      if (cores < 1) throw std::invalid_argument("node " + std::to_string(n) + " has no core");
      task_nodes_[n].cores = cores;
      int usable = static_cast<int>(std::min<std::uint64_t>(
          static_cast<std::uint64_t>(cores), std::max<std::uint64_t>(instances[n], 1)));
      task_nodes_[n].owner.assign(static_cast<std::size_t>(usable), kNone);
      for (int c = 0; c < usable; ++c) task_nodes_[n].free.insert(c);
    }
    task_base_.clear();
    std::uint32_t base = 0;
    for (int task = 0; task < header_.tasks(); ++task) {
      task_base_.push_back(base);
      base += static_cast<std::uint32_t>(header_.threads[static_cast<std::size_t>(task)]);
    }
    rank_requests_.resize(static_cast<std::size_t>(header_.tasks()));
    rank_busy_.assign(static_cast<std::size_t>(header_.tasks()), 0);
    rank_profile_.assign(static_cast<std::size_t>(header_.tasks()), std::vector<double>{0.0});
    rank_profile_time_.assign(static_cast<std::size_t>(header_.tasks()), 0.0);
    profile_.assign(1, 0.0);
    if (options_.policy == TaskPolicy::CriticalPath && !(mips_ > 0))
      throw std::invalid_argument("the critical-path policy needs a MIPS rate (--set mips=...)");
    for (int task = 0; task < header_.tasks(); ++task) {
      const trace::TaskSet& set = header_.task_sets[static_cast<std::size_t>(task)];
      std::vector<double> path;
      if (options_.policy == TaskPolicy::CriticalPath) path = remaining_paths(task);
      for (std::size_t i = 0; i < set.instances.size(); ++i) {
        ThreadSim& t = threads_[task_base_[static_cast<std::size_t>(task)] + i];
        t.mpi = set.instances[i].mpi;
        double primary = 0;
        if (options_.policy == TaskPolicy::CriticalPath) primary = -path[i];
        if (options_.policy == TaskPolicy::Mpi) primary = t.mpi ? 0 : 1;
        t.priority = std::make_tuple(primary, static_cast<int>(i) + 1, task);
      }
    }
  }

  // Longest path from the start of each instance of `task` to the end of its run, over the
  // spawn and after edges, with the bursts on this machine (trace::task_critical_paths).
  std::vector<double> remaining_paths(int task) {
    double ratio = machine_.nodes[static_cast<std::size_t>(node_of(task))].cpu_ratio;
    double seconds = ratio > 0 ? 1.0 / (mips_ * 1e6) / ratio : 0.0;
    return trace::task_critical_paths(header_.task_sets[static_cast<std::size_t>(task)], seconds,
                                      type_speedup_.empty()
                                          ? std::vector<double>()
                                          : type_speedup_[static_cast<std::size_t>(task)]);
  }

  Result run_tasks() {
    for (int task = 0; task < header_.tasks(); ++task) {
      if (header_.threads[static_cast<std::size_t>(task)] == 0) continue;
      std::uint32_t main = task_base_[static_cast<std::size_t>(task)];
      threads_[main].created = true;
      schedule(main, 0.0);
    }
    for (;;) {
      // Cores are handed out once everything that happens at this instant has happened.
      if (dispatch_pending_ && (queue_.empty() || queue_.next_time() > now_)) {
        dispatch();
        continue;
      }
      if (queue_.empty()) break;
      Event e = queue_.pop();
      now_ = e.time;
      switch (e.kind) {
        case EventKind::ThreadReady:
          advance(e.id);
          break;
        case EventKind::TransferDone:
          transfer_done(e.id);
          break;
        case EventKind::CollectiveDone:
          collective_done(e.id);
          break;
        case EventKind::TaskTimer: {
          TaskTimer timer = timers_[e.id];
          timers_.remove(e.id);
          if (timer.generation == threads_[timer.thread].generation) advance(timer.thread);
          break;
        }
      }
    }
    check_finished();
    return summarize();
  }

  // Thread `ti` goes on at `time`.
  void schedule(std::uint32_t ti, double time) {
    ThreadSim& t = threads_[ti];
    t.timer_at = time;
    queue_.push(time, EventKind::TaskTimer, timers_.add(TaskTimer{ti, t.generation}));
  }

  // The instance waits for a core of its node.
  void request_core(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    set_state(t, State::Idle);
    t.waiting = Waiting::Core;
    task_nodes_[static_cast<std::size_t>(t.node)].ready.emplace(t.priority, ti);
    dispatch_pending_ = true;
  }

  // A blocked instance can go on: at once on its core, or once it has one again.
  void resume_on_core(std::uint32_t ti, bool may_preempt) {
    ThreadSim& t = threads_[ti];
    if (t.core >= 0) {
      schedule(ti, now_);
      return;
    }
    t.wants_preempt = may_preempt;
    request_core(ti);
  }

  void dispatch() {
    dispatch_pending_ = false;
    for (TaskNode& node : task_nodes_) {
      while (!node.ready.empty() && !node.free.empty()) {
        std::uint32_t ti = node.ready.begin()->second;
        node.ready.erase(node.ready.begin());
        int core = *node.free.begin();
        grant(ti, core);
      }
      if (options_.policy != TaskPolicy::Mpi) continue;
      // Instances woken from MPI take the core of a running instance without MPI.
      for (auto it = node.ready.begin(); it != node.ready.end();) {
        std::uint32_t ti = it->second;
        if (!threads_[ti].wants_preempt) {
          ++it;
          continue;
        }
        std::int32_t victim = kNone;
        for (std::int32_t owner : node.owner) {
          if (owner == kNone || threads_[static_cast<std::uint32_t>(owner)].mpi) continue;
          if (victim == kNone || threads_[static_cast<std::uint32_t>(victim)].priority <
                                     threads_[static_cast<std::uint32_t>(owner)].priority)
            victim = owner;
        }
        if (victim == kNone) break;
        preempt(static_cast<std::uint32_t>(victim));
        it = node.ready.erase(it);
        grant(ti, *node.free.begin());
      }
    }
  }

  void grant(std::uint32_t ti, int core) {
    ThreadSim& t = threads_[ti];
    TaskNode& node = task_nodes_[static_cast<std::size_t>(t.node)];
    node.owner[static_cast<std::size_t>(core)] = static_cast<std::int32_t>(ti);
    node.free.erase(core);
    t.core = t.last_core = core;
    t.waiting = Waiting::Nothing;
    t.wants_preempt = false;
    t.started = true;
    split_state(t);
    busy_changed(t, +1);
    if (sink_) {
      sink_->task_start(t.task, core, now_, t.thread + 1, type_of(t));
      for (TaskDependencyArc& arc : t.arcs) {
        arc.dst_core = core;
        arc.resumed = now_;
        sink_->dependency(arc);
      }
    }
    t.arcs.clear();
    if (t.preempted) {
      t.preempted = false;
      set_state(t, t.saved_state);
      schedule(ti, now_ + t.remaining);
    } else {
      schedule(ti, now_);
    }
  }

  void release_task_core(ThreadSim& t) {
    TaskNode& node = task_nodes_[static_cast<std::size_t>(t.node)];
    node.owner[static_cast<std::size_t>(t.core)] = kNone;
    node.free.insert(t.core);
    if (sink_) sink_->task_stop(t.task, t.core, now_);
    t.last_core = t.core;
    t.core = -1;
    split_state(t);
    busy_changed(t, -1);
    dispatch_pending_ = true;
  }

  // Takes the core of running instance `vi`, which resumes its timer's remaining time later.
  void preempt(std::uint32_t vi) {
    ThreadSim& v = threads_[vi];
    ++v.generation;
    v.remaining = std::max(0.0, v.timer_at - now_);
    v.preempted = true;
    v.saved_state = v.state;
    set_state(v, State::Idle);
    release_task_core(v);
    request_core(vi);
  }

  void busy_changed(const ThreadSim& t, int delta) {
    add_profile(profile_, profile_time_, total_busy_);
    total_busy_ += delta;
    peak_ = std::max(peak_, total_busy_);
    std::size_t task = static_cast<std::size_t>(t.task);
    add_profile(rank_profile_[task], rank_profile_time_[task], rank_busy_[task]);
    rank_busy_[task] += delta;
    if (sink_) sink_->cores_busy(t.task, now_, rank_busy_[task]);
  }

  // `busy` cores were busy from `since` until now.
  void add_profile(std::vector<double>& profile, double& since, int busy) {
    auto k = static_cast<std::size_t>(busy);
    if (profile.size() <= k) profile.resize(k + 1, 0.0);
    profile[k] += now_ - since;
    since = now_;
  }

  void spawn(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    std::uint32_t ci = task_base_[static_cast<std::size_t>(t.task)] +
                       static_cast<std::uint32_t>(t.record.peer - 1);
    ThreadSim& child = threads_[ci];
    if (child.created) fail(t, "instance " + std::to_string(t.record.peer) + " is spawned twice");
    child.created = true;
    schedule(ci, now_);  // its leading `after`s, then a core
  }

  // An `after` record: goes on if its source has ended, else waits for it without a core.
  bool after(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    const Record& r = t.record;
    std::uint32_t si =
        task_base_[static_cast<std::size_t>(t.task)] + static_cast<std::uint32_t>(r.peer - 1);
    ThreadSim& source = threads_[si];
    if (source.phase == Phase::Done) {
      TaskDependencyArc arc{t.task,       source.thread + 1,
                            t.thread + 1, source.last_core,
                            t.core,       source.end,
                            now_,         now_,
                            r.bytes,      static_cast<std::uint8_t>(r.op)};
      if (t.core >= 0) {
        if (sink_) sink_->dependency(arc);
      } else {
        t.arcs.push_back(arc);
      }
      return true;
    }
    t.phase = Phase::Blocked;
    t.waiting = Waiting::Dependency;
    t.blocked_on = static_cast<std::int32_t>(si);
    set_state(t, State::Idle);
    if (t.core >= 0) release_task_core(t);
    source.dependents.push_back(ti);
    return false;
  }

  void instance_ended(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    if (t.core >= 0) release_task_core(t);
    // Dependencies satisfied after its last run on a core end on the core it ran on last.
    for (TaskDependencyArc& arc : t.arcs) {
      arc.dst_core = t.last_core;
      arc.resumed = now_;
      if (sink_) sink_->dependency(arc);
    }
    t.arcs.clear();
    for (std::uint32_t di : t.dependents) {
      ThreadSim& d = threads_[di];
      d.arcs.push_back(TaskDependencyArc{d.task, t.thread + 1, d.thread + 1, t.last_core, -1, now_,
                                         now_, now_, d.record.bytes,
                                         static_cast<std::uint8_t>(d.record.op)});
      d.phase = Phase::Fetch;
      d.waiting = Waiting::Nothing;
      d.blocked_on = kNone;
      schedule(di, now_);
    }
    t.dependents.clear();
  }

  // A wait for a request no instance of the rank has posted yet: waits for the post (on its
  // core, as in MPI).
  bool wait_for_post(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    unposted_[std::make_pair(t.task, t.record.request)] = ti;
    block(t, Waiting::Posting, State::WaitingMessage, kNone);
    return false;
  }

  void request_posted(int task, std::uint64_t id) {
    auto it = unposted_.find(std::make_pair(task, id));
    if (it == unposted_.end()) return;
    std::uint32_t wi = it->second;
    unposted_.erase(it);
    ThreadSim& w = threads_[wi];
    w.phase = Phase::Start;  // its wait starts again
    w.waiting = Waiting::Nothing;
    resume_on_core(wi, options_.policy == TaskPolicy::Mpi);
  }

  const trace::TaskInstance& instance_of(const ThreadSim& t) const {
    return header_.task_sets[static_cast<std::size_t>(t.task)]
        .instances[static_cast<std::size_t>(t.thread)];
  }

  // The instance's type, for reports (a long name cut short).
  std::string type_name(const ThreadSim& t) const {
    return trace::clipped(header_.task_sets[static_cast<std::size_t>(t.task)]
                              .types[static_cast<std::size_t>(instance_of(t).type)],
                          60);
  }

  int type_of(const ThreadSim& t) const {
    return types_
        .of_rank[static_cast<std::size_t>(t.task)][static_cast<std::size_t>(instance_of(t).type)];
  }

  std::string task_problem(const ThreadSim& t) {
    std::string who = "rank " + std::to_string(t.task) + " instance " +
                      std::to_string(t.thread + 1) + " (" + type_name(t) + ")";
    if (!t.created)
      return who + " was never created: instance " + std::to_string(instance_of(t).parent) +
             " did not reach its spawn";
    if (t.waiting == Waiting::Core)
      return who + " is waiting for a core at " + t.stream->where() + " in " + describe(t.record) +
             " (every core is held by instances blocked in MPI)";
    return who + " is blocked at " + t.stream->where() + " in " + describe(t.record) + ": " +
           blocked_reason(t);
  }

  TaskResult task_result() {
    TaskResult r;
    r.policy = options_.policy;
    double end = 0;
    for (const ThreadSim& t : threads_) end = std::max(end, t.end);
    double saved = now_;
    now_ = std::max(end, profile_time_);  // the profile runs to the end of the run
    add_profile(profile_, profile_time_, total_busy_);
    for (std::size_t task = 0; task < rank_profile_.size(); ++task)
      add_profile(rank_profile_[task], rank_profile_time_[task], rank_busy_[task]);
    now_ = saved;
    for (int task = 0; task < header_.tasks(); ++task)
      r.cores.push_back(task_nodes_[static_cast<std::size_t>(node_of(task))].cores);
    r.instances = static_cast<int>(threads_.size());
    r.profile = profile_;
    r.rank_profiles = rank_profile_;
    for (std::size_t k = 0; k < profile_.size(); ++k)
      r.busy += static_cast<double>(k) * profile_[k];
    r.peak = peak_;
    return r;
  }

  // ---- Time accounting -------------------------------------------------------------------

  void set_state(ThreadSim& t, State state) {
    if (state == t.state) return;
    close_state(t);
    t.state = state;
    t.state_begin = now_;
    t.state_core = t.core;
  }

  // Accounts for the current state of `t` up to now and reports it to the sink.
  void close_state(ThreadSim& t) {
    double length = now_ - t.state_begin;
    if (length > 0) {
      RankSummary& rank = ranks_[static_cast<std::size_t>(t.task)];
      switch (t.state) {
        case State::Running:
          rank.compute += length;
          break;
        case State::Startup:
        case State::Collective:
          rank.communication += length;
          break;
        case State::WaitingMessage:
        case State::BlockedSend:
        case State::CollectiveSync:
          rank.waiting += length;
          break;
        case State::Idle:
          break;
      }
      if (sink_ && t.state != State::Idle && !task_mode_)
        sink_->state(t.task, t.thread, t.state_begin, now_, t.state);
      // Task mode: the states of an instance show on the core it held (none: not shown).
      if (sink_ && t.state != State::Idle && task_mode_ && t.state_core >= 0)
        sink_->state(t.task, t.state_core, t.state_begin, now_, t.state);
    }
  }

  // Task mode: the core of `t` changes but not its state; the state goes on on the new core.
  void split_state(ThreadSim& t) {
    close_state(t);
    t.state_begin = now_;
    t.state_core = t.core;
  }

  void report_progress() {
    if (!options_.progress) return;
    std::uint64_t read = 0;
    for (const ThreadSim& t : threads_) read += t.stream->bytes_read();
    options_.progress(std::min(1.0, static_cast<double>(read) / static_cast<double>(total_bytes_)));
  }

  [[noreturn]] void fail(const ThreadSim& t, const std::string& message) {
    throw trace::FormatError(t.stream->where(), 0, message);
  }

  // `time`, when the run may reach it: past kMaxSimulatedSeconds (or not a number: a burst of
  // an absurd length on an absurd CPU ratio), the replay stops at the record of thread `ti`.
  double checked(double time, std::uint32_t ti) {
    if (!(time <= kMaxSimulatedSeconds)) {
      const ThreadSim& t = threads_[ti];
      time_limit(t.stream->where(), describe(t.record));
    }
    return time;
  }

  [[noreturn]] static void time_limit(const std::string& where, const std::string& what) {
    throw trace::FormatError(where, 0,
                             "the simulated run would last past 9.2e9 s (292 years: times in "
                             "nanoseconds must stay below 2^63) at this record (" +
                                 what + ")");
  }

  // ---- End of the run --------------------------------------------------------------------

  void check_finished() {
    std::vector<std::string> problems;
    for (const ThreadSim& t : threads_) {
      if (t.phase == Phase::Done) continue;
      if (task_mode_) {
        problems.push_back(task_problem(t));
        continue;
      }
      std::string who = "rank " + std::to_string(t.task) +
                        (header_.threads[static_cast<std::size_t>(t.task)] > 1
                             ? " thread " + std::to_string(t.thread)
                             : "");
      problems.push_back(who + " is blocked at " + t.stream->where() + " in " + describe(t.record) +
                         ": " + blocked_reason(t));
    }
    for (auto& [key, q] : match_) {
      if (q.head == kNone) continue;
      int count = 0;
      std::string first;  // file:line of the first unmatched send
      for (std::int32_t id = q.head; id != kNone;
           id = q.receives ? posted_[static_cast<std::uint32_t>(id)].next
                           : messages_[static_cast<std::uint32_t>(id)].next) {
        if (count++ == 0 && !q.receives) {
          const MessageSim& m = messages_[static_cast<std::uint32_t>(id)];
          first = threads_[m.sender].stream->where(m.send_mark);
        }
      }
      std::string what =
          "(tag " + std::to_string(key.tag) + ", comm " + std::to_string(key.comm) + ")";
      std::string src = endpoint(key.src_task, key.src_thread);
      std::string dst = endpoint(key.dst_task, key.dst_thread);
      if (q.receives)
        problems.push_back(dst + " posted " + std::to_string(count) + " receive(s) from " + src +
                           " " + what + " that no send matched");
      else
        problems.push_back(src + " sent " + std::to_string(count) + " message(s) to " + dst + " " +
                           what + " that no receive matched (the first at " + first + ")");
    }
    for (auto& [key, cid] : open_collectives_) {
      CollectiveSim& c = collectives_[cid];
      problems.push_back(std::string(trace::global_op_name(c.op)) + " #" +
                         std::to_string(c.sequence) + " on comm " + std::to_string(c.comm) +
                         " never completed: " + membership(c));
    }
    if (problems.empty()) return;
    std::sort(problems.begin(), problems.end());
    if (!header_.truncated_tasks.empty()) return end_truncated(problems);
    std::string report = "deadlock: the simulated run cannot finish (" +
                         std::to_string(problems.size()) + " problem(s))";
    constexpr std::size_t kMaxLines = 30;
    for (std::size_t i = 0; i < problems.size() && i < kMaxLines; ++i)
      report += "\n  " + problems[i];
    if (problems.size() > kMaxLines)
      report += "\n  ... and " + std::to_string(problems.size() - kMaxLines) + " more";
    for (const std::string& note : header_.notes) report += "\n  note: " + note;
    throw DeadlockError(report);
  }

  // A trace that stops early (its run died) cannot finish: what was traced is simulated, the
  // threads left waiting end when the simulation runs out of events, and the notes say what
  // never completed because of the truncation.
  void end_truncated(const std::vector<std::string>& problems) {
    for (ThreadSim& t : threads_) {
      if (t.phase == Phase::Done) continue;
      close_state(t);
      t.state = State::Idle;
      t.end = now_;
      t.phase = Phase::Done;
    }
    std::string ranks;
    for (int task : header_.truncated_tasks)
      ranks += (ranks.empty() ? "" : ", ") + std::to_string(task);
    truncation_notes_.push_back("the trace stops early (truncated: rank(s) " + ranks +
                                "): the simulation ends at " + std::to_string(now_) + " s, with " +
                                std::to_string(problems.size()) +
                                " thing(s) that could not complete because of it");
    constexpr std::size_t kMaxLines = 30;
    for (std::size_t i = 0; i < problems.size() && i < kMaxLines; ++i)
      truncation_notes_.push_back("  " + problems[i]);
    if (problems.size() > kMaxLines)
      truncation_notes_.push_back("  ... and " + std::to_string(problems.size() - kMaxLines) +
                                  " more");
  }

  static std::string endpoint(int task, int thread) {
    return "rank " + std::to_string(task) +
           (thread >= 0 ? " thread " + std::to_string(thread) : std::string());
  }

  std::string blocked_reason(const ThreadSim& t) {
    switch (t.waiting) {
      case Waiting::Request: {  // (only receives block)
        const RequestSim& r = requests_[static_cast<std::uint32_t>(t.blocked_on)];
        return "waiting for a message from rank " + std::to_string(r.peer_task) + " (tag " +
               std::to_string(r.tag) + ", comm " + std::to_string(r.comm) + ")";
      }
      case Waiting::SendStart:
        return "waiting for rank " + std::to_string(t.record.peer) +
               " to post the receive of its rendezvous send";
      case Waiting::Collective:
        return "waiting for the collective's members: " +
               membership(collectives_[static_cast<std::uint32_t>(t.blocked_on)]);
      case Waiting::Core:
        return "waiting for a core";
      case Waiting::Dependency: {
        const ThreadSim& source = threads_[static_cast<std::uint32_t>(t.blocked_on)];
        return "waiting for instance " + std::to_string(source.thread + 1) + " (" +
               type_name(source) + ") to end";
      }
      case Waiting::Posting:
        return "waiting for request " + std::to_string(t.record.request) +
               ", which no instance has posted yet";
      case Waiting::Nothing:
        break;
    }
    return "not finished";
  }

  std::string membership(CollectiveSim& c) {
    const trace::Communicator* comm = header_.communicator(c.comm);
    std::vector<bool> arrived(static_cast<std::size_t>(header_.tasks()), false);
    for (std::uint32_t m : c.members) arrived[static_cast<std::size_t>(threads_[m].task)] = true;
    std::string missing;
    for (int task : comm->tasks)
      if (!arrived[static_cast<std::size_t>(task)])
        missing += (missing.empty() ? "" : ", ") + std::to_string(task);
    return std::to_string(c.members.size()) + " of " + std::to_string(comm->tasks.size()) +
           " arrived; missing rank(s) " + missing;
  }

  Result summarize() {
    Result result;
    result.name = header_.name;
    result.kind = header_.kind;
    result.path = header_.path;
    result.notes = header_.notes;
    result.notes.insert(result.notes.end(), machine_.notes.begin(), machine_.notes.end());
    result.notes.insert(result.notes.end(), truncation_notes_.begin(), truncation_notes_.end());
    for (const ThreadSim& t : threads_) {
      RankSummary& rank = ranks_[static_cast<std::size_t>(t.task)];
      rank.end = std::max(rank.end, t.end);
      rank.records += t.records;
      result.records += t.records;
      result.total_time = std::max(result.total_time, t.end);
    }
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      RankSummary& rank = ranks_[r];
      // Task mode: in core-seconds of the rank's node.
      double capacity =
          task_mode_ ? result.total_time *
                           task_nodes_[static_cast<std::size_t>(node_of(static_cast<int>(r)))].cores
                     : result.total_time;
      rank.idle = std::max(0.0, capacity - rank.compute - rank.communication - rank.waiting);
    }
    if (task_mode_) result.tasks = task_result();
    result.ranks = ranks_;
    result.messages = message_count_;
    result.collectives = collective_count_;
    if (sink_) sink_->finish(result.total_time);
    if (options_.progress) options_.progress(1.0);
    return result;
  }

  const trace::Trace& trace_;
  const trace::TraceHeader& header_;
  const Machine& machine_;
  const SimulationOptions& options_;
  TimelineSink* sink_;
  std::vector<int> task_node_;
  double mips_ = 0;
  std::vector<NodeResources> nodes_;
  std::vector<std::size_t> shared_nodes_;          // nodes whose threads outnumber their cores
  bool cores_pending_ = false;                     // a core was freed or a thread queued for one
  std::vector<std::string> truncation_notes_;      // what a truncated trace left unfinished
  std::vector<std::vector<double>> type_speedup_;  // [rank][type]: --accelerate; empty: none
  FifoResource network_bus_;
  FifoResource no_link_;                   // unlimited
  std::vector<MemoryLinks> memory_links_;  // per task
  std::vector<ThreadSim> threads_;
  EventQueue queue_;
  double now_ = 0;
  Pool<RequestSim> requests_;
  Pool<MessageSim> messages_;
  Pool<PostedRecv> posted_;
  Pool<CollectiveSim> collectives_;
  static constexpr std::size_t kCompactAt = 4096;
  std::unordered_map<trace::Channel, MatchQueue, ChannelHash> match_;
  std::size_t compact_at_ = kCompactAt;
  std::map<std::pair<int, std::uint64_t>, std::uint32_t> open_collectives_;
  std::vector<std::unordered_map<int, std::uint64_t>> collective_counts_;  // per task, per comm
  std::vector<RankSummary> ranks_;
  std::uint64_t message_count_ = 0, collective_count_ = 0;
  std::vector<Undelivered> undelivered_;  // min-heap; delivered ones are dropped lazily
  std::uint64_t records_since_safe_ = 0;
  std::uint64_t total_bytes_ = 1;
  // Task mode.
  bool task_mode_ = false;
  TaskTypeTable types_;
  std::vector<TaskNode> task_nodes_;        // per machine node
  std::vector<std::uint32_t> task_base_;    // thread of each rank's instance 1
  std::vector<RequestList> rank_requests_;  // outstanding requests of each rank
  std::map<std::pair<int, std::uint64_t>, std::uint32_t> unposted_;  // waits before their post
  Pool<TaskTimer> timers_;
  bool dispatch_pending_ = false;
  int total_busy_ = 0, peak_ = 0;
  std::vector<int> rank_busy_;
  std::vector<double> profile_;
  double profile_time_ = 0;
  std::vector<std::vector<double>> rank_profile_;
  std::vector<double> rank_profile_time_;
};

}  // namespace

Result simulate(const trace::Trace& trace, const Machine& machine,
                const SimulationOptions& options) {
  Engine engine(trace, machine, options);
  return engine.run();
}

std::string_view task_policy_name(TaskPolicy policy) {
  switch (policy) {
    case TaskPolicy::Fifo:
      return "fifo";
    case TaskPolicy::CriticalPath:
      return "cp";
    case TaskPolicy::Mpi:
      return "mpi";
  }
  return "fifo";
}

TaskPolicy task_policy_from_name(std::string_view name) {
  for (TaskPolicy p : {TaskPolicy::Fifo, TaskPolicy::CriticalPath, TaskPolicy::Mpi})
    if (name == task_policy_name(p)) return p;
  throw std::invalid_argument("unknown task policy '" + std::string(name) + "' (fifo, cp or mpi)");
}

int TaskResult::reference_cores() const {
  int cores = 0;
  for (int c : this->cores) cores = std::max(cores, c);
  if (cores >= instances) {  // unbounded: what the ranks used
    cores = 0;
    for (const std::vector<double>& profile : rank_profiles)
      for (std::size_t k = profile.size(); k-- > 0;)
        if (profile[k] > 0) {
          cores = std::max(cores, static_cast<int>(k));
          break;
        }
  }
  return std::max(cores, 1);
}

double TaskResult::speedup(double total_time) const {
  return one_core_time > 0 && total_time > 0 ? one_core_time / total_time : 0.0;
}

double TaskResult::efficiency(double total_time) const {
  return speedup(total_time) / reference_cores();
}

TaskTypeTable task_type_table(const trace::TraceHeader& header) {
  TaskTypeTable table;
  std::map<std::string, int> number;
  for (const trace::TaskSet& set : header.task_sets) {
    table.of_rank.emplace_back();
    for (const std::string& name : set.types) {
      auto [it, fresh] = number.emplace(name, static_cast<int>(table.names.size()));
      if (fresh) table.names.push_back(name);
      table.of_rank.back().push_back(it->second);
    }
  }
  return table;
}

}  // namespace tareador::replay
