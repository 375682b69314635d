// engine.h — the discrete-event simulation of a trace on a machine (internal to replay), with the
// semantics of Dimemas 5.5 (README, The replayer). The engine owns the threads and what they wait
// for; the models it asks are apart: the network (network.h: how long a transfer takes and the
// links and buses it holds), point-to-point matching (matching.h), the CPU schedulers (cores.h) and
// the collectives' durations (collectives.h). Its member functions live in
//  * engine.cpp — construction, the event loop, thread execution, CPU work, time accounting;
//  * engine_p2p.cpp — sends, receives, requests and the transfers the network carries;
//  * engine_collectives.cpp — collectives;
//  * engine_tasks.cpp — task mode (tasks traces: a thread is a task instance on a core);
//  * engine_end.cpp — the end of a run: its summary, or why it cannot finish.
//
// The semantics, in short:
//  * a send costs the sender the startup (network.h) on its CPU; so does a blocking receive,
//    and a wait for each receive it waits for (before it receives); an immediate receive costs
//    nothing;
//  * a message is not matched with a receive when either is posted (Dimemas 5.5): a blocking
//    receive or a wait takes the first message arrived on its channel, and a message that
//    arrives goes to the first receive blocked on its channel;
//  * eager sends ask for their transfer at once; a rendezvous send once its receive is ready: an
//    immediate receive reached before it (sends and receives, not waits, pair in FIFO order per
//    channel), a receive blocked on its channel (even one whose own message is still in
//    flight), or later a receive or wait that finds no message there, or an immediate receive
//    that pairs with it. A blocking rendezvous sender waits until then, not until its transfer
//    starts (a .dim's sends within a task are rendezvous, as Dimemas 5.5 reads them);
//  * an immediate send never blocks its sender: a wait for it completes at once and costs
//    nothing, as in Dimemas (whose traces have no wait for sends). So turning a blocking send
//    into an immediate one with a wait where it was cannot make a run slower;
//  * a collective starts when its last member has arrived and it holds every bus of the
//    network (network.h: it waits for the transfers that hold them, and holds them while it
//    lasts), and lasts the model's fan-in + fan-out;
//  * an immediate collective costs its member a startup (Network::collective_startup_ns) and
//    arrives then; the member goes on, and each wait for it costs the same startup, then blocks
//    until it has ended: the one its request names, or (Dimemas' records, without one) any of
//    the thread's that has ended;
//  * threads that outnumber the cores of their node take turns burst by burst (SharedCores);
//  * simultaneous events go in Dimemas' order: the agenda counts nanoseconds (as Dimemas does:
//    whole nanoseconds added in any order reach the same instant) and is FIFO among equal times,
//    and a thread that goes on after an MPI call queues its next piece of work at once (its next
//    burst, even an empty one, or an empty piece before any other record), so its next call comes
//    after what else happens at that instant; a thread another's call wakes (a rendezvous sender
//    let go, the members of a collective that ends) queues its piece once that event is over, with
//    the others it woke in the order of their nodes; a receiver its message wakes, at once.
// Tasks traces (kind "tasks") run in task mode: each thread is a task instance, which holds a
// core of its node from its start to its end (docs/replay-tasks.md); everything else is the same.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "replay/cores.h"
#include "replay/event_queue.h"
#include "replay/matching.h"
#include "replay/network.h"
#include "replay/resources.h"
#include "tareador/replay.h"

namespace tareador::replay {

inline constexpr std::int32_t kNone = -1;

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

inline constexpr std::uint32_t kNoRun = ~0u;

// What a thread does: one per thread, and in task mode one per task instance. Millions of
// instances may be replayed, so the fields are few and packed: the record a thread is at and
// the state of its calls are in its ThreadRun, which a parked instance gives back, and the
// dependency arcs not yet drawn are kept apart (Engine::arcs_).
struct ThreadSim {
  int task = 0, thread = 0, node = 0;
  std::uint32_t run = kNoRun;  // its ThreadRun (Engine::runs_), kNoRun while it has none
  Phase phase = Phase::Fetch;
  Waiting waiting = Waiting::Nothing;
  State state = State::Idle;
  // Where threads outnumber the cores of their node, each piece of CPU work (a burst, a
  // latency, or the empty one after an MPI call) waits for a core (SharedCores).
  bool on_core = false;     // runs a piece of work on a core of its node
  bool after_call = false;  // its last record was an opaque call (a Dimemas no-op)
  // ---- task mode (a thread is a task instance) ----
  bool created = false, mpi = false;
  bool parked = false;              // gave its run back: `at` is before the record it is at
  std::int32_t blocked_on = kNone;  // request, message, collective or instance
  std::uint32_t generation = 0;     // task mode: timers of older generations are stale
  double state_begin = 0;
  double end = 0;
  double priority = 0;     // task mode: the policy's order (Engine::priority_of)
  trace::RecordCursor at;  // parked: before the record it is at
  int core = -1;           // core of the node it holds, -1 = none
  int state_core = -1;     // core held when the current state began
  int last_core = 0;       // the core it held last (for rows when it holds none)
  // The threads blocked in an `after` on it, in the order they blocked: a list through
  // next_dependent.
  std::int32_t first_dependent = kNone, last_dependent = kNone, next_dependent = kNone;
};

// A thread's run through its records: the record it is at, where it reads them, and its calls
// under way. Every thread of an MPI trace has one throughout. A task instance takes one when
// it goes on and gives it back when it ends or parks: without MPI records, it parks while it
// waits for a core or for another instance to end, keeping only its place in its stream
// (ThreadSim::at), if its trace reads through cursors (trace::RecordCursor); so a replay holds
// runs for the instances under way only.
struct ThreadRun {
  trace::Record record;
  std::unique_ptr<trace::RecordStream> stream;  // none: read through a cursor, `next`
  trace::RecordCursor at, next;                 // before and after `record`
  double call_begin = 0;
  bool in_call = false;  // between call_begin and the end of its MPI call
  // When its last blocking receive began: the logical receive of a message no immediate receive
  // announced (Dimemas keeps it per thread, so a wait without one shows an older time).
  double logical_recv = 0;
  // Task mode: a wish to take a core out of turn (woken from MPI under the MPI policy), and the
  // time left until its timer (ns) when it lost its core to such a wish.
  bool wants_preempt = false;
  bool preempted = false;
  State saved_state = State::Idle;
  double remaining = 0;
  double timer_at = 0;  // when its timer fires, in ns (known while it holds a core)
  // Shared cores: the piece of work it waits to run (ns), in `work_state`.
  double work = 0;
  State work_state = State::Idle;
  // Outstanding requests (trace id -> RequestSim); a thread has few, so a flat list is fastest.
  // (Task mode: those of its rank, Engine::rank_requests_.)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> requests;
  // Immediate collectives started without a request (Dimemas'), under way and ended: a wait
  // takes any that has ended (Dimemas counts them), else it blocks (waits_any_collective) until
  // the next of them ends.
  Queue<std::uint32_t> immediate_collectives, ended_collectives;
  bool waits_any_collective = false;
};

// A pending wake-up of a task-mode thread.
struct TaskTimer {
  std::uint32_t thread = 0;
  std::uint32_t generation = 0;
};

// A receive (its channel, and the thread blocked in it), the request of an immediate send
// (complete at once: a wait for it costs nothing), or of an immediate collective (a wait for it
// waits until the collective has ended). An immediate receive's lives until its wait has
// received a message: the wait receives on its channel.
struct RequestSim {
  bool receive = false;
  std::int32_t collective = kNone;  // CollectiveSim id
  trace::Channel channel{};
  std::int32_t waiter = kNone;  // thread blocked in it
  double startup = 0;           // what a wait for it costs (ns)
};

struct MessageSim {
  Message info{};
  trace::Channel channel{};
  std::uint32_t sender = 0;
  bool rendezvous = false, sender_blocked = false;
  std::uint64_t send_mark = 0;  // the sender's record (RecordStream::mark), for reports
  std::uint64_t serial = 0;     // unique while undelivered; 0 once delivered
  double marshalling = 0;       // s added to its transfer (the cache-aware model)
};

// A send or a receive (blocking or immediate) that has been reached, until the other half of its
// channel reaches it (Dimemas' send_without_recv and recv_without_send queues).
struct ReachedSim {
  bool rendezvous_or_immediate = false;  // a send: rendezvous; a receive: immediate
  std::uint32_t sender = 0;              // a send's thread and record, for reports
  std::uint64_t send_mark = 0;
};

// A message not yet delivered, in the heap that finds the earliest of them.
struct Undelivered {
  double logical_send;
  std::uint32_t message;
  std::uint64_t serial;
  bool operator>(const Undelivered& o) const { return logical_send > o.logical_send; }
};

struct CollectiveSim {
  int comm = 0, op = 0;
  std::uint64_t sequence = 0;
  std::vector<std::uint32_t> members;  // threads, in order of arrival
  std::vector<bool> blocking;          // member waits in it (not an immediate collective)
  std::vector<bool> counted;           // an immediate member without a request (Dimemas')
  std::vector<std::int32_t> waiters;   // immediate members now waiting for it
  std::int32_t root = kNone;           // thread flagged as root
  std::uint32_t representative = 0;    // the root, or the last member to arrive
  double start = 0;
  std::int64_t bytes = 0, bytes_recv = 0;  // the representative's
  bool done = false;
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
  const T& operator[](std::uint32_t id) const { return items_[id]; }

 private:
  std::vector<T> items_;
  std::vector<std::uint32_t> free_;
};

// A record as reports name it ("immediate send of 8 bytes to rank 1 (tag 0, comm 0)").
std::string describe(const trace::Record& r);

class Engine {
 public:
  Engine(const trace::Trace& trace, const Machine& machine, const SimulationOptions& options);
  Result run();

 private:
  using RequestList = std::vector<std::pair<std::uint64_t, std::uint32_t>>;

  int node_of(int task) const { return network_.node_of(task); }
  ThreadRun& run_of(const ThreadSim& t) { return runs_[t.run]; }
  const ThreadRun& run_of(const ThreadSim& t) const { return runs_[t.run]; }

  // ---- Thread execution, CPU work (engine.cpp) ----
  void advance(std::uint32_t ti);
  bool take_record(std::uint32_t ti);
  bool fetch(std::uint32_t ti);
  bool start(std::uint32_t ti);
  bool issue(std::uint32_t ti);
  double burst_ns(const ThreadSim& t);
  void set_type_speedups();
  bool compute(std::uint32_t ti, double ns, State state, Phase next, bool front = false);
  bool shares_cores(const ThreadSim& t) const {
    return shared_cores_[static_cast<std::size_t>(t.node)].has_value();
  }
  void queue_work(std::uint32_t ti, double ns, State state, bool front);
  bool queue_next_work(std::uint32_t ti, bool front, bool calls_inline = false);
  bool resume_sharing(std::uint32_t ti);
  void dispatch_cores();
  void release_core(ThreadSim& t);
  bool continue_at(std::uint32_t ti, double time);
  void block(ThreadSim& t, Waiting waiting, State state, std::int32_t on);
  void wake(std::uint32_t ti, bool later = false);
  void ready_readied();
  bool resume(std::uint32_t ti);
  double ready_again(std::uint32_t ti);
  void end_call(ThreadSim& t);
  int row(const ThreadSim& t) const;
  void report_safe_time();
  void set_state(ThreadSim& t, State state);
  void close_state(ThreadSim& t);
  void split_state(ThreadSim& t);
  void report_progress();
  trace::Record current_record(const ThreadSim& t, std::uint64_t* mark = nullptr) const;
  std::string where(const ThreadSim& t) const;
  std::string where(const ThreadSim& t, std::uint64_t mark) const;
  static std::uint64_t mark(const ThreadRun& run);
  [[noreturn]] void fail(const ThreadSim& t, const std::string& message) const;
  double later(double ns, std::uint32_t ti) const;
  void set_now(double ns) {
    now_ns_ = ns;
    now_ = ns / 1e9;
  }
  [[noreturn]] static void time_limit(const std::string& where, const std::string& what);

  // ---- Point to point (engine_p2p.cpp) ----
  bool issue_send(std::uint32_t ti);
  bool issue_recv(std::uint32_t ti);
  bool issue_wait(std::uint32_t ti);
  bool skip_send_wait(ThreadSim& t);
  bool send_reached(const MessageSim& m);
  bool receive_reached(const trace::Channel& channel, bool immediate);
  bool paired(std::uint32_t id, std::int32_t pair);
  bool receive_message(std::uint32_t ti, std::uint32_t rid);
  void start_rendezvous(const trace::Channel& channel);
  static RequestList::iterator find_request(RequestList& list, std::uint64_t id);
  RequestList& requests_of(ThreadSim& t);
  void add_request(std::uint32_t ti, std::uint64_t id, std::uint32_t rid);
  void request_transfer(std::uint32_t mid);
  void transfer_started(std::uint32_t mid);
  void transfer_done(std::uint32_t mid);
  void deliver(std::uint32_t mid, std::uint32_t rid);

  // ---- Collectives (engine_collectives.cpp) ----
  bool issue_collective(std::uint32_t ti);
  bool wait_collective(std::uint32_t ti, std::uint32_t cid);
  bool wait_any_collective(std::uint32_t ti);
  double collective_startup_ns(const ThreadSim& t, int comm);
  void start_collective(std::uint32_t cid, std::uint32_t last);
  void collective_claimed(std::uint32_t cid);
  void collective_done(std::uint32_t cid);
  void release_collective(std::uint32_t cid);

  // ---- Task mode (engine_tasks.cpp) ----
  void setup_tasks();
  void take_run(std::uint32_t ti);
  void park(ThreadSim& t);
  void release_run(ThreadSim& t);
  static TaskCores::Priority priority_of(const ThreadSim& t) {
    return std::make_tuple(t.priority, t.thread + 1, t.task);
  }
  std::vector<std::vector<double>> critical_paths();
  void schedule(std::uint32_t ti, double time);
  void request_core(std::uint32_t ti);
  void resume_on_core(std::uint32_t ti, bool may_preempt);
  void dispatch();
  void grant(std::uint32_t ti, int core);
  void release_task_core(ThreadSim& t);
  void preempt(std::uint32_t vi);
  void busy_changed(const ThreadSim& t, int delta);
  void add_profile(std::vector<double>& profile, double& since, int busy) const;
  void spawn(std::uint32_t ti);
  bool after(std::uint32_t ti);
  void instance_ended(std::uint32_t ti);
  bool wait_for_post(std::uint32_t ti);
  void request_posted(int task, std::uint64_t id);
  const trace::TaskInstance& instance_of(const ThreadSim& t) const;
  std::string type_name(const ThreadSim& t) const;
  int type_of(const ThreadSim& t) const;
  std::string task_problem(const ThreadSim& t) const;
  TaskResult task_result();

  // ---- The end of the run (engine_end.cpp) ----
  void check_finished();
  void end_truncated(const std::vector<std::string>& problems);
  std::vector<std::string> unmatched() const;
  std::string blocked_reason(const ThreadSim& t, const trace::Record& record) const;
  bool waits_for_collective_transfer(const ThreadSim& t, const trace::Record& record) const;
  std::string membership(const CollectiveSim& c) const;
  Result summarize();

  const trace::Trace& trace_;
  const trace::TraceHeader& header_;
  const Machine& machine_;
  const SimulationOptions& options_;
  TimelineSink* sink_;
  Network network_;
  // Point to point, Dimemas 5.5's queues, each per channel in FIFO order (engine_p2p.cpp):
  MatchTable reached_;  // sends and receives reached (ReachedSim ids) pair
  Pool<ReachedSim> reached_sims_;
  MatchTable rendezvous_;          // rendezvous messages waiting for their receive to be ready
  MatchTable immediate_receives_;  // the times of immediate receives not yet delivered to
  Pool<double> immediate_times_;
  MatchTable arrivals_;  // messages arrived, and receives (RequestSim ids) waiting
  double mips_ = 0;
  std::vector<std::optional<SharedCores>> shared_cores_;  // per node: where threads outnumber
  bool cores_pending_ = false;          // a core was freed or a thread queued for one
  std::vector<std::string> end_notes_;  // what the run left unfinished (truncated, unmatched)
  std::vector<std::vector<double>> type_speedup_;  // [rank][type]: --accelerate; empty: none
  std::vector<ThreadSim> threads_;
  // Runs are taken only where the event loop enters a thread (advance) or gives it a core
  // (grant), never below: a ThreadRun& stays valid until the engine is back in its loop.
  Pool<ThreadRun> runs_;
  std::vector<std::uint32_t> readied_;  // woken to go on once the current event is over
  // The agenda counts nanoseconds, as Dimemas does: durations of whole nanoseconds then add up
  // to the same instant whatever their order (in seconds, 0.003271667 + 330e-9 + 370e-9 and
  // 0.003271667 + 333e-9 + 367e-9 differ in the last bit), so simultaneous events tie as in
  // Dimemas.
  EventQueue queue_;
  double now_ns_ = 0;
  double now_ = 0;  // now_ns_ in seconds, the unit of everything else
  Pool<RequestSim> requests_;
  Pool<MessageSim> messages_;
  Pool<CollectiveSim> collectives_;
  std::map<std::pair<int, std::uint64_t>, std::uint32_t> open_collectives_;
  std::map<std::pair<int, int>, double> collective_startups_;  // (comm, node) -> ns
  // Per communicator, the node of each arrival at its collectives since one of them last ended:
  // what a collective's duration counts when it gets the buses, as Dimemas 5.5 counts its
  // communicator's nodes and tasks per node (with non-blocking collectives in flight together,
  // theirs add up, and the end of one empties them for the others).
  std::map<int, std::vector<int>> comm_arrivals_;
  std::vector<std::unordered_map<int, std::uint64_t>> collective_counts_;  // per rank, per comm
  std::vector<RankSummary> ranks_;
  std::uint64_t message_count_ = 0, collective_count_ = 0;
  std::vector<Undelivered> undelivered_;  // min-heap; delivered ones are dropped lazily
  std::uint64_t records_since_safe_ = 0;
  std::uint64_t total_bytes_ = 1;
  // Task mode.
  bool task_mode_ = false;
  TaskTypeTable types_;
  std::vector<TaskCores> task_cores_;       // per machine node
  std::vector<std::uint32_t> task_base_;    // thread of each rank's instance 1
  std::vector<RequestList> rank_requests_;  // outstanding requests of each rank
  std::map<std::pair<int, std::uint64_t>, std::uint32_t> unposted_;  // waits before their post
  // Per thread: its satisfied dependencies not yet drawn (only for a timeline sink).
  std::unordered_map<std::uint32_t, std::vector<TaskDependencyArc>> arcs_;
  Pool<TaskTimer> timers_;
  bool dispatch_pending_ = false;
  std::uint64_t instances_ended_ = 0;            // task mode: for progress reports
  std::vector<std::vector<double>> task_paths_;  // critical_paths(), until setup_tasks
  int total_busy_ = 0, peak_ = 0;
  std::vector<int> rank_busy_;
  std::vector<double> profile_;
  double profile_time_ = 0;
  std::vector<std::vector<double>> rank_profile_;
  std::vector<double> rank_profile_time_;
};

}  // namespace tareador::replay
