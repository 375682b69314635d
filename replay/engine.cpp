// engine.cpp — the discrete-event simulation of a trace on a machine, with the semantics of
// Dimemas 5.5:
//  * a send costs the sender the latency L on its CPU; so does a blocking receive or a wait
//    (before the receive is posted); an immediate receive costs nothing;
//  * a transfer holds an output link of the source node, an input link of the destination node
//    and a bus (when buses are limited), acquired in that order, FIFO; it lasts bytes / bandwidth;
//  * eager sends start their transfer at once; rendezvous sends when the receive is posted, and a
//    blocking rendezvous sender waits until its transfer starts;
//  * messages match on (source, tag, communicator) in FIFO order;
//  * collectives start when the last member arrives and last the model's fan-in + fan-out.
#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <sstream>
#include <unordered_map>

#include "collectives.h"
#include "event_queue.h"
#include "replay.h"
#include "resources.h"

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
  Issue,    // the latency of the current record is paid: the record acts now
  Resume,   // a blocking call completed: it ends, then Fetch
  Blocked,  // waits for the model to wake it
  Done,
};

// What a blocked thread waits for (for deadlock reports).
enum class Waiting : std::uint8_t { Nothing, Core, Request, SendStart, Collective };

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
  // CPU work queued for a core (only where threads outnumber cores).
  bool holds_core = false;
  double pending_cpu = 0;
  State pending_state = State::Idle;
  // Outstanding requests (trace id -> RequestSim); a thread has few, so a flat list is fastest.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> requests;
  std::int32_t blocked_on = kNone;                            // request, message or collective
  std::deque<std::uint32_t> immediate_collectives;             // started, not yet waited for
  std::uint64_t records = 0;
  double end = 0;
};

// Completion of a receive, or of an immediate send, that a thread may wait for.
struct RequestSim {
  bool complete = false;
  bool receive = false;
  std::int32_t waiter = kNone;  // thread blocked on it
  int peer_task = 0, tag = 0, comm = 0;
  double latency = 0;           // what a wait for it costs
};

struct MessageSim {
  Message info{};
  std::uint32_t sender = 0;
  std::int32_t send_request = kNone;  // an immediate rendezvous send, which completes on arrival
  std::int32_t recv_request = kNone;  // the matched receive
  std::int32_t next = kNone;          // next message in its match queue
  bool rendezvous = false, matched = false, requested = false, started = false;
  bool arrived = false, sender_blocked = false, intra = false;
  std::uint8_t held = 0;              // resources held, in acquisition order
  std::uint64_t send_record = 0;      // the sender's record number, for reports
  std::uint64_t serial = 0;           // unique while undelivered; 0 once delivered
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

struct MatchKey {
  std::int32_t dst, src, tag, comm;
  bool operator==(const MatchKey& o) const {
    return dst == o.dst && src == o.src && tag == o.tag && comm == o.comm;
  }
};

struct MatchKeyHash {
  std::size_t operator()(const MatchKey& k) const {
    std::uint64_t a = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.dst)) << 32) |
                      static_cast<std::uint32_t>(k.src);
    std::uint64_t b = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.tag)) << 32) |
                      static_cast<std::uint32_t>(k.comm);
    std::uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x7F4A7C159E3779B9ull + (a << 6));
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
  double start = 0;
  bool started = false, done = false;
  std::uint32_t references = 0;        // immediate members that have not waited for it yet
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

struct NodeResources {
  FifoResource cores, output_link, input_link, intra_output, intra_input, intra_bus;
};

std::string describe(const Record& r) {
  std::ostringstream out;
  switch (r.type) {
    case RecordType::Burst: out << "CPU burst"; break;
    case RecordType::Send:
      out << (r.immediate() ? "immediate " : "") << ((r.flags & trace::kRendezvous) ? "rendezvous " : "")
          << "send of " << r.bytes << " bytes to rank " << r.peer << " (tag " << r.tag
          << ", comm " << r.comm << ")";
      break;
    case RecordType::Recv:
      out << (r.immediate() ? "immediate " : "") << "receive of " << r.bytes
          << " bytes from rank " << r.peer << " (tag " << r.tag << ", comm " << r.comm << ")";
      break;
    case RecordType::Wait: out << "wait"; break;
    case RecordType::GlobalOp:
      out << trace::global_op_name(r.op) << " on comm " << r.comm;
      break;
    case RecordType::Event: out << "event"; break;
    case RecordType::Call: out << "opaque call"; break;
  }
  return out.str();
}

class Engine {
 public:
  Engine(const trace::Trace& trace, const Machine& machine, const SimulationOptions& options)
      : trace_(trace), header_(trace.header()), machine_(machine), options_(options),
        sink_(options.sink) {
    if (machine_.nodes.empty()) throw std::invalid_argument("the machine has no nodes");
    task_node_ = machine_.map_tasks(header_.tasks());
    mips_ = machine_.mips > 0 ? machine_.mips : header_.mips;
    std::vector<int> threads_on_node(machine_.nodes.size(), 0);
    for (int task = 0; task < header_.tasks(); ++task)
      threads_on_node[static_cast<std::size_t>(node_of(task))] +=
          header_.threads[static_cast<std::size_t>(task)];
    for (std::size_t n = 0; n < machine_.nodes.size(); ++n) {
      const Node& node = machine_.nodes[n];
      // Cores are only a resource where threads outnumber them.
      int cores = threads_on_node[n] > node.cores ? node.cores : 0;
      nodes_.push_back(NodeResources{FifoResource(cores), FifoResource(node.output_links),
                                     FifoResource(node.input_links),
                                     FifoResource(node.intra.output_links),
                                     FifoResource(node.intra.input_links),
                                     FifoResource(node.intra.buses)});
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
    collective_counts_.resize(static_cast<std::size_t>(header_.tasks()));
    ranks_.assign(static_cast<std::size_t>(header_.tasks()), RankSummary{});
    total_bytes_ = std::max<std::uint64_t>(trace_.size_bytes(), 1);
  }

  Result run() {
    for (std::uint32_t i = 0; i < threads_.size(); ++i) queue_.push(0.0, EventKind::ThreadReady, i);
    while (!queue_.empty()) {
      Event e = queue_.pop();
      now_ = e.time;
      switch (e.kind) {
        case EventKind::ThreadReady: advance(e.id); break;
        case EventKind::TransferDone: transfer_done(e.id); break;
        case EventKind::CollectiveDone: collective_done(e.id); break;
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
    for (;;) {
      if (t.holds_core) release_core(t);
      switch (t.phase) {
        case Phase::Blocked:
        case Phase::Done: return;
        case Phase::Resume:
          end_call(t);
          t.phase = Phase::Fetch;
          continue;
        case Phase::Issue:
          if (!issue(ti)) return;
          continue;
        case Phase::Fetch:
          if (!fetch(ti)) return;
          continue;
      }
    }
  }

  // Takes the next record and starts it. Returns false when the thread must wait.
  bool fetch(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    if (!t.stream->next(t.record)) {
      set_state(t, State::Idle);
      t.phase = Phase::Done;
      t.end = now_;
      return false;
    }
    if ((++t.records & (kProgressEvery - 1)) == 0) report_progress();
    if (sink_ && (++records_since_safe_ & (kSafeEvery - 1)) == 0) report_safe_time();
    const Record& r = t.record;
    switch (r.type) {
      case RecordType::Burst:
        return compute(ti, burst_seconds(t), State::Running, Phase::Fetch);
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
        t.call_begin = now_;
        t.in_call = true;
        auto it = find_request(t, r.request);
        if (it == t.requests.end()) fail(t, "wait for an unknown request");
        double latency = (r.flags & trace::kJoinedWait) ? 0.0 : requests_[it->second].latency;
        return compute(ti, latency_seconds(latency), State::Startup, Phase::Issue);
      }
      case RecordType::GlobalOp:
        t.call_begin = now_;
        t.in_call = true;
        t.phase = Phase::Issue;
        return true;
      case RecordType::Event:
        if (sink_) sink_->event(t.task, t.thread, now_, r.event_type, r.event_value);
        return true;
      case RecordType::Call:
        if (sink_) sink_->call(t.task, t.thread, now_, now_, r);
        return true;
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
    return ratio > 0 ? seconds / ratio : 0.0;
  }

  double pair_latency(int from_node, int to_node) const {
    const Node& node = machine_.nodes[static_cast<std::size_t>(from_node)];
    return from_node == to_node ? node.intra.latency : node.latency;
  }

  // `seconds` of CPU work in `state`, after which the thread goes on with `next`.
  bool compute(std::uint32_t ti, double seconds, State state, Phase next) {
    ThreadSim& t = threads_[ti];
    t.phase = next;
    if (seconds <= 0) return true;
    FifoResource& cores = nodes_[static_cast<std::size_t>(t.node)].cores;
    if (!cores.acquire(ti)) {
      set_state(t, State::Idle);
      t.waiting = Waiting::Core;
      t.pending_cpu = seconds;
      t.pending_state = state;
      return false;
    }
    t.holds_core = cores.limited();
    set_state(t, state);
    return continue_at(ti, now_ + seconds);
  }

  void release_core(ThreadSim& t) {
    t.holds_core = false;
    if (auto next = nodes_[static_cast<std::size_t>(t.node)].cores.release()) {
      ThreadSim& w = threads_[*next];
      w.holds_core = true;
      w.waiting = Waiting::Nothing;
      set_state(w, w.pending_state);
      queue_.push(now_ + w.pending_cpu, EventKind::ThreadReady, *next);
    }
  }

  // The thread goes on at `time`: inline when nothing else happens before, else via the queue.
  bool continue_at(std::uint32_t ti, double time) {
    if (time < queue_.next_time()) {
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
  }

  void wake(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    t.phase = Phase::Resume;
    t.waiting = Waiting::Nothing;
    t.blocked_on = kNone;
    queue_.push(now_, EventKind::ThreadReady, ti);
  }

  void end_call(ThreadSim& t) {
    t.in_call = false;
    if (sink_) sink_->call(t.task, t.thread, t.call_begin, now_, t.record);
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
      case RecordType::Send: return issue_send(ti);
      case RecordType::Recv: return issue_recv(ti);
      case RecordType::Wait: return issue_wait(ti);
      case RecordType::GlobalOp: return issue_collective(ti);
      default: return true;
    }
  }

  bool issue_send(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    const Record& r = t.record;
    MessageSim m;
    m.sender = ti;
    m.info = Message{t.task, t.thread, r.peer, 0, t.call_begin, 0, 0, 0, r.bytes, r.tag, r.comm};
    bool rendezvous = r.flags & trace::kRendezvous;
    if (machine_.eager_limit >= 0 && !(r.flags & trace::kProtocolFixed))
      rendezvous = r.bytes >= machine_.eager_limit;
    m.rendezvous = rendezvous;
    m.intra = t.node == node_of(r.peer);
    m.send_record = t.records;
    if (r.immediate() && r.request != 0) {  // Dimemas immediate sends cannot be waited for
      RequestSim request;
      request.complete = !rendezvous;  // eager: the buffer is free once sent
      request.peer_task = r.peer;
      request.tag = r.tag;
      request.comm = r.comm;
      request.latency = pair_latency(t.node, node_of(r.peer));
      std::uint32_t rid = requests_.add(request);
      add_request(t, r.request, rid);
      // Only a rendezvous send completes later; an eager one's request may be waited for (and
      // its slot reused) while the transfer still runs.
      if (rendezvous) m.send_request = static_cast<std::int32_t>(rid);
    }
    m.serial = ++message_count_;
    std::uint32_t mid = messages_.add(m);
    if (sink_) {
      undelivered_.push_back(Undelivered{m.info.logical_send, mid, m.serial});
      std::push_heap(undelivered_.begin(), undelivered_.end(), std::greater<>());
    }

    MatchQueue& q = match_queue(MatchKey{r.peer, t.task, r.tag, r.comm});
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
  MatchQueue& match_queue(const MatchKey& key) {
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
    m.info.dst_thread = threads_[p.thread].thread;
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
    if (r.immediate()) add_request(t, r.request, rid);

    MatchQueue& q = match_queue(MatchKey{t.task, r.peer, r.tag, r.comm});
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

  bool issue_wait(std::uint32_t ti) {
    ThreadSim& t = threads_[ti];
    auto it = find_request(t, t.record.request);
    std::uint32_t rid = it->second;
    *it = t.requests.back();
    t.requests.pop_back();
    return wait_for(ti, rid);
  }

  using RequestList = std::vector<std::pair<std::uint64_t, std::uint32_t>>;
  static RequestList::iterator find_request(ThreadSim& t, std::uint64_t id) {
    return std::find_if(t.requests.begin(), t.requests.end(),
                        [id](const auto& entry) { return entry.first == id; });
  }

  // The readers guarantee that an id is not reused while outstanding.
  static void add_request(ThreadSim& t, std::uint64_t id, std::uint32_t rid) {
    t.requests.emplace_back(id, rid);
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

  FifoResource& resource(const MessageSim& m, int stage) {
    NodeResources& src = nodes_[static_cast<std::size_t>(node_of(m.info.src_task))];
    NodeResources& dst = nodes_[static_cast<std::size_t>(node_of(m.info.dst_task))];
    switch (stage) {
      case 0: return m.intra ? src.intra_output : src.output_link;
      case 1: return m.intra ? dst.intra_input : dst.input_link;
      default: return m.intra ? src.intra_bus : network_bus_;
    }
  }

  void request_transfer(std::uint32_t mid) {
    messages_[mid].requested = true;
    acquire_resources(mid);
  }

  // Takes the message's resources in order; starts the transfer once it holds them all.
  void acquire_resources(std::uint32_t mid) {
    MessageSim& m = messages_[mid];
    while (m.held < 3) {
      if (!resource(m, m.held).acquire(mid)) return;  // queued; release() hands it over
      ++m.held;
    }
    m.started = true;
    m.info.physical_send = now_;
    double bandwidth =
        m.intra ? machine_.nodes[static_cast<std::size_t>(node_of(m.info.src_task))].intra.bandwidth
                : machine_.bandwidth;
    queue_.push(now_ + transfer_seconds(m.info.bytes, bandwidth), EventKind::TransferDone, mid);
    if (m.sender_blocked) {
      m.sender_blocked = false;
      wake(m.sender);
    }
  }

  void transfer_done(std::uint32_t mid) {
    std::uint32_t handed[3];
    int handed_count = 0;
    for (int stage = 2; stage >= 0; --stage)
      if (auto next = resource(messages_[mid], stage).release()) handed[handed_count++] = *next;
    MessageSim& m = messages_[mid];
    m.held = 0;
    m.arrived = true;
    m.info.physical_recv = now_;
    complete_request(m.send_request);
    if (m.matched) deliver(mid);
    for (int i = 0; i < handed_count; ++i) {
      ++messages_[handed[i]].held;
      acquire_resources(handed[i]);
    }
  }

  // The message has arrived and its receive is posted: the receive completes.
  void deliver(std::uint32_t mid) {
    MessageSim& m = messages_[mid];
    if (sink_) sink_->message(m.info);
    complete_request(m.recv_request);
    m.serial = 0;
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
      fail(t, "rank " + std::to_string(t.task) + " is not in communicator " + std::to_string(r.comm));
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
    std::uint32_t representative = c.root != kNone ? static_cast<std::uint32_t>(c.root) : last;
    const Record& r = threads_[representative].record;
    std::vector<int> member_nodes;
    for (std::uint32_t m : c.members) member_nodes.push_back(threads_[m].node);
    double duration = collective_time(machine_, c.op, member_nodes, r.bytes, r.bytes_recv,
                                      threads_[representative].node);
    for (std::size_t i = 0; i < c.members.size(); ++i)
      if (c.blocking[i]) set_state(threads_[c.members[i]], State::Collective);
    queue_.push(now_ + duration, EventKind::CollectiveDone, cid);
  }

  void collective_done(std::uint32_t cid) {
    CollectiveSim& c = collectives_[cid];
    c.done = true;
    for (std::size_t i = 0; i < c.members.size(); ++i)
      if (c.blocking[i]) wake(c.members[i]);
    for (std::int32_t w : c.waiters) wake(static_cast<std::uint32_t>(w));
    c.waiters.clear();
    release_collective(cid);
  }

  void release_collective(std::uint32_t cid) {
    CollectiveSim& c = collectives_[cid];
    if (c.done && c.references == 0) collectives_.remove(cid);
  }

  // ---- Time accounting -------------------------------------------------------------------

  void set_state(ThreadSim& t, State state) {
    if (state == t.state) return;
    double length = now_ - t.state_begin;
    if (length > 0) {
      RankSummary& rank = ranks_[static_cast<std::size_t>(t.task)];
      switch (t.state) {
        case State::Running: rank.compute += length; break;
        case State::Startup:
        case State::Collective: rank.communication += length; break;
        case State::WaitingMessage:
        case State::BlockedSend:
        case State::CollectiveSync: rank.waiting += length; break;
        case State::Idle: break;
      }
      if (sink_ && t.state != State::Idle)
        sink_->state(t.task, t.thread, t.state_begin, now_, t.state);
    }
    t.state = state;
    t.state_begin = now_;
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

  // ---- End of the run --------------------------------------------------------------------

  void check_finished() {
    std::vector<std::string> problems;
    for (const ThreadSim& t : threads_) {
      if (t.phase == Phase::Done) continue;
      std::string who = "rank " + std::to_string(t.task) +
                        (header_.threads[static_cast<std::size_t>(t.task)] > 1
                             ? " thread " + std::to_string(t.thread)
                             : "");
      problems.push_back(who + " is blocked at " + t.stream->where() + " in " +
                         describe(t.record) + ": " + blocked_reason(t));
    }
    for (auto& [key, q] : match_) {
      if (q.head == kNone) continue;
      int count = 0;
      std::uint64_t first_record = 0;
      for (std::int32_t id = q.head; id != kNone;
           id = q.receives ? posted_[static_cast<std::uint32_t>(id)].next
                           : messages_[static_cast<std::uint32_t>(id)].next) {
        if (count++ == 0 && !q.receives)
          first_record = messages_[static_cast<std::uint32_t>(id)].send_record;
      }
      std::string what = "(tag " + std::to_string(key.tag) + ", comm " + std::to_string(key.comm) + ")";
      if (q.receives)
        problems.push_back("rank " + std::to_string(key.dst) + " posted " + std::to_string(count) +
                           " receive(s) from rank " + std::to_string(key.src) + " " + what +
                           " that no send matched");
      else
        problems.push_back("rank " + std::to_string(key.src) + " sent " + std::to_string(count) +
                           " message(s) to rank " + std::to_string(key.dst) + " " + what +
                           " that no receive matched (the first in its record #" +
                           std::to_string(first_record) + ")");
    }
    for (auto& [key, cid] : open_collectives_) {
      CollectiveSim& c = collectives_[cid];
      problems.push_back(std::string(trace::global_op_name(c.op)) + " #" +
                         std::to_string(c.sequence) + " on comm " + std::to_string(c.comm) +
                         " never completed: " + membership(c));
    }
    if (problems.empty()) return;
    std::sort(problems.begin(), problems.end());
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

  std::string blocked_reason(const ThreadSim& t) {
    switch (t.waiting) {
      case Waiting::Request: {
        const RequestSim& r = requests_[static_cast<std::uint32_t>(t.blocked_on)];
        return std::string(r.receive ? "waiting for a message from" : "waiting for its send to") +
               " rank " + std::to_string(r.peer_task) + " (tag " + std::to_string(r.tag) +
               ", comm " + std::to_string(r.comm) + ")";
      }
      case Waiting::SendStart:
        return "waiting for rank " + std::to_string(t.record.peer) +
               " to post the receive of its rendezvous send";
      case Waiting::Collective:
        return "waiting for the collective's members: " +
               membership(collectives_[static_cast<std::uint32_t>(t.blocked_on)]);
      case Waiting::Core: return "waiting for a core";
      case Waiting::Nothing: break;
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
    for (const ThreadSim& t : threads_) {
      RankSummary& rank = ranks_[static_cast<std::size_t>(t.task)];
      rank.end = std::max(rank.end, t.end);
      rank.records += t.records;
      result.records += t.records;
      result.total_time = std::max(result.total_time, t.end);
    }
    for (RankSummary& rank : ranks_)
      rank.idle = std::max(0.0, result.total_time - rank.compute - rank.communication - rank.waiting);
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
  FifoResource network_bus_;
  std::vector<ThreadSim> threads_;
  EventQueue queue_;
  double now_ = 0;
  Pool<RequestSim> requests_;
  Pool<MessageSim> messages_;
  Pool<PostedRecv> posted_;
  Pool<CollectiveSim> collectives_;
  static constexpr std::size_t kCompactAt = 4096;
  std::unordered_map<MatchKey, MatchQueue, MatchKeyHash> match_;
  std::size_t compact_at_ = kCompactAt;
  std::map<std::pair<int, std::uint64_t>, std::uint32_t> open_collectives_;
  std::vector<std::unordered_map<int, std::uint64_t>> collective_counts_;  // per task, per comm
  std::vector<RankSummary> ranks_;
  std::uint64_t message_count_ = 0, collective_count_ = 0;
  std::vector<Undelivered> undelivered_;  // min-heap; delivered ones are dropped lazily
  std::uint64_t records_since_safe_ = 0;
  std::uint64_t total_bytes_ = 1;
};

}  // namespace

Result simulate(const trace::Trace& trace, const Machine& machine,
                const SimulationOptions& options) {
  Engine engine(trace, machine, options);
  return engine.run();
}

}  // namespace tareador::replay
