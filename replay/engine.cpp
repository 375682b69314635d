// engine.cpp — the engine's construction, its event loop, thread execution and CPU work, and the
// accounting of time (engine.h says what is where).
#include "replay/engine.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <utility>

namespace tareador::replay {

namespace {

using trace::Record;
using trace::RecordType;

constexpr std::uint64_t kProgressEvery = 1 << 16;
constexpr std::uint64_t kSafeEvery = 1 << 13;  // records between two safe times for the sink

// Dimemas lets a thread that starts a non-blocking collective go on at once.
bool starts_immediate_collective(const Record& r) {
  return r.type == RecordType::GlobalOp && r.immediate() && !(r.flags & trace::kCollectiveWait);
}

std::vector<int> task_nodes(const Machine& machine, int tasks) {
  if (machine.nodes.empty()) throw std::invalid_argument("the machine has no nodes");
  return machine.map_tasks(tasks);
}

}  // namespace

Engine::Engine(const trace::Trace& trace, const Machine& machine, const SimulationOptions& options)
    : trace_(trace),
      header_(trace.header()),
      machine_(machine),
      options_(options),
      sink_(options.sink),
      network_(
          machine, task_nodes(machine, trace.header().tasks()),
          [this](std::uint32_t mid) { transfer_started(mid); },
          [this](std::uint32_t cid) { collective_claimed(cid); }) {
  task_mode_ = header_.kind == "tasks";
  if (task_mode_ && header_.task_sets.size() != static_cast<std::size_t>(header_.tasks()))
    throw std::invalid_argument("a tasks trace without its task model");
  mips_ = machine_.mips > 0 ? machine_.mips : header_.mips;
  std::vector<int> threads_on_node(machine_.nodes.size(), 0);
  for (int task = 0; task < header_.tasks(); ++task)
    threads_on_node[static_cast<std::size_t>(node_of(task))] +=
        header_.threads[static_cast<std::size_t>(task)];
  // Cores are only a resource where threads outnumber them. (Task mode schedules them itself.)
  for (std::size_t n = 0; n < machine_.nodes.size(); ++n) {
    int cores = machine_.nodes[n].cores;
    shared_cores_.push_back(!task_mode_ && threads_on_node[n] > cores
                                ? std::optional<SharedCores>(SharedCores(cores))
                                : std::nullopt);
  }
  // The critical paths before the threads: the step graph they need is large at scale.
  if (task_mode_) set_type_speedups();
  if (task_mode_) task_paths_ = critical_paths();
  threads_.reserve(static_cast<std::size_t>(
      std::accumulate(header_.threads.begin(), header_.threads.end(), std::int64_t{0})));
  for (int task = 0; task < header_.tasks(); ++task)
    for (int thread = 0; thread < header_.threads[static_cast<std::size_t>(task)]; ++thread) {
      ThreadSim t;
      t.task = task;
      t.thread = thread;
      t.node = node_of(task);
      // Task instances take their runs as they go (take_run).
      if (!task_mode_) {
        ThreadRun run;
        run.stream = trace_.open(task, thread);
        t.run = runs_.add(std::move(run));
      }
      threads_.push_back(t);
    }
  collective_counts_.resize(static_cast<std::size_t>(header_.tasks()));
  ranks_.assign(static_cast<std::size_t>(header_.tasks()), RankSummary{});
  total_bytes_ = std::max<std::uint64_t>(trace_.size_bytes(), 1);
  if (task_mode_) setup_tasks();
}

Result Engine::run() {
  if (task_mode_) {
    for (int task = 0; task < header_.tasks(); ++task) {
      if (header_.threads[static_cast<std::size_t>(task)] == 0) continue;
      std::uint32_t main = task_base_[static_cast<std::size_t>(task)];
      threads_[main].created = true;
      schedule(main, 0.0);
    }
  } else {
    for (std::uint32_t i = 0; i < threads_.size(); ++i) {
      if (shares_cores(threads_[i])) queue_next_work(i, false);
      else queue_.push(0.0, EventKind::ThreadReady, i);
    }
  }
  for (;;) {
    // Cores are handed out once everything that happens at this instant has happened (shared
    // cores as soon as every event is handled, as Dimemas does).
    if (cores_pending_) dispatch_cores();
    if (dispatch_pending_ && (queue_.empty() || queue_.next_time() > now_ns_)) {
      dispatch();
      continue;
    }
    if (queue_.empty()) break;
    Event e = queue_.pop();
    set_now(e.time);
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
    if (!readied_.empty()) ready_readied();
  }
  check_finished();
  return summarize();
}

// ---- Thread execution ----------------------------------------------------------------------

// Runs thread `ti` from now_ until it has to wait for time to pass or for another thread.
void Engine::advance(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  if (t.run == kNoRun) take_run(ti);
  if (t.on_core) release_core(t);  // its piece of work has ended
  for (;;) {
    switch (t.phase) {
      case Phase::Blocked:
      case Phase::Done:
        return;
      case Phase::Resume:
        if (task_mode_) {
          end_call(t);
          t.phase = Phase::Fetch;
          continue;
        }
        if (shares_cores(t)) {
          if (!resume_sharing(ti)) return;
          continue;
        }
        if (!resume(ti)) return;
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
bool Engine::take_record(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  ThreadRun& run = run_of(t);
  bool taken;
  if (run.stream) {
    taken = run.stream->next(run.record);
  } else {
    run.at = run.next;
    taken = trace_.next(t.task, run.next, run.record);
  }
  if (!taken) {
    set_state(t, State::Idle);
    t.phase = Phase::Done;
    t.end = now_;
    if (task_mode_) instance_ended(ti);
    return false;
  }
  if ((++ranks_[static_cast<std::size_t>(t.task)].records & (kProgressEvery - 1)) == 0)
    report_progress();
  return true;
}

// Takes the next record and starts it. Returns false when the thread must wait.
bool Engine::fetch(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  if (!take_record(ti)) return false;
  if (task_mode_) {
    // An `after` needs no core; anything else runs on one.
    if (run_of(t).record.type == RecordType::After) return after(ti);
    if (t.core < 0) {
      t.phase = Phase::Start;
      request_core(ti);
      park(t);
      return false;
    }
  } else if (sink_ && (++records_since_safe_ & (kSafeEvery - 1)) == 0) {
    report_safe_time();
  }
  return start(ti);
}

// Starts the record just taken. Returns false when the thread must wait.
bool Engine::start(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  ThreadRun& run = run_of(t);
  const Record& r = run.record;
  t.phase = Phase::Fetch;  // unless the record says otherwise
  bool after_call = std::exchange(t.after_call, false);
  switch (r.type) {
    case RecordType::Burst:
      return compute(ti, burst_ns(t), State::Running, Phase::Fetch, after_call);
    case RecordType::Send:
      run.call_begin = now_;
      run.in_call = true;
      return compute(ti, network_.startup_ns(t.task, r.peer), State::Startup, Phase::Issue);
    case RecordType::Recv:
      run.call_begin = now_;
      run.in_call = true;
      if (r.immediate()) {
        t.phase = Phase::Issue;
        return true;
      }
      return compute(ti, network_.startup_ns(r.peer, t.task), State::Startup, Phase::Issue);
    case RecordType::Wait: {
      if (!run.in_call) run.call_begin = now_;  // (in a call: a wait for a late post, again)
      run.in_call = true;
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
      return compute(ti, requests_[it->second].startup, State::Startup, Phase::Issue);
    }
    case RecordType::GlobalOp:
      run.call_begin = now_;
      run.in_call = true;
      // Starting a non-blocking collective, and each wait for one, costs a startup (Dimemas).
      if (r.immediate() || (r.flags & trace::kCollectiveWait))
        return compute(ti, collective_startup_ns(t, r.comm), State::Startup, Phase::Issue);
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

// The current record acts (its latency is paid). Returns false when the thread blocks.
bool Engine::issue(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  t.phase = Phase::Resume;
  switch (run_of(t).record.type) {
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

// How long the burst thread `t` is at takes, in nanoseconds, computed as Dimemas does (the
// duration in ns over the CPU ratio) so that the agenda's instants are Dimemas' to the last bit.
double Engine::burst_ns(const ThreadSim& t) {
  const Record& r = run_of(t).record;
  double ns = r.amount * 1e9;
  if (r.flags & trace::kInstructions) {
    if (!(mips_ > 0)) fail(t, "the trace counts instructions but no MIPS rate is known");
    ns = r.amount / (mips_ * 1e6) * 1e9;
  }
  double ratio = machine_.nodes[static_cast<std::size_t>(t.node)].cpu_ratio;
  if (task_mode_ && !type_speedup_.empty())
    ratio *= type_speedup_[static_cast<std::size_t>(t.task)]
                          [static_cast<std::size_t>(instance_of(t).type)];
  return ratio > 0 ? ns / ratio : 0.0;
}

// The speedup of each task type of each rank (--accelerate); checks that each named type
// exists somewhere.
void check_accelerations(const trace::TraceHeader& header,
                         const std::map<std::string, double>& accelerate) {
  std::string known;
  for (const auto& [name, factor] : accelerate) {
    if (!(factor > 0) || !std::isfinite(factor))
      throw std::invalid_argument("--accelerate " + name +
                                  ": the factor must be a positive number");
    bool found = false;
    for (const trace::TaskSet& set : header.task_sets)
      found = found || std::find(set.types.begin(), set.types.end(), name) != set.types.end();
    if (found) continue;
    for (const std::string& type : task_type_table(header).names)
      known += (known.empty() ? "" : ", ") + type;
    throw std::invalid_argument("--accelerate: the trace has no task type '" + name +
                                "' (its types: " + known + ")");
  }
}

void Engine::set_type_speedups() {
  if (options_.accelerate.empty()) return;
  check_accelerations(header_, options_.accelerate);
  for (const trace::TaskSet& set : header_.task_sets) {
    type_speedup_.emplace_back();
    for (const std::string& type : set.types) {
      auto it = options_.accelerate.find(type);
      type_speedup_.back().push_back(it == options_.accelerate.end() ? 1.0 : it->second);
    }
  }
}

// `seconds` of CPU work in `state` (a burst when Running, else a latency), after which the
// thread goes on with `next`. On shared cores a burst always queues for a core, even an empty
// one, at the back unless `front`; a latency at the front (Dimemas: the thread goes on with its
// call).
bool Engine::compute(std::uint32_t ti, double ns, State state, Phase next, bool front) {
  ThreadSim& t = threads_[ti];
  t.phase = next;
  bool burst = state == State::Running;
  if (shares_cores(t) && (burst || ns > 0)) {
    queue_work(ti, ns, state, front || !burst);
    return false;
  }
  // An empty burst is a piece of work all the same (Dimemas queues it with the others).
  if (ns <= 0 && (!burst || task_mode_)) return true;
  set_state(t, state);
  return continue_at(ti, later(ns, ti));
}

// ---- Shared cores (Dimemas 5.5's FIFO scheduler) -----------------------------------------
//
// A thread takes a core of its node for one piece of CPU work and gives it back when the
// piece ends; what it does between two pieces takes no time. A burst reached from the end of
// a piece queues at the back of the ready threads (at the front right after an opaque call,
// Dimemas' no-op). After an MPI call the thread queues for
// its next burst (an empty one when the next record is not a burst) at the front if the call
// went on without blocking or was a rendezvous send its receive let go, at the back if
// it was a receive, a wait or a collective that had to wait. Free cores go to the front of
// the queue once every event of the moment has been handled.

void Engine::queue_work(std::uint32_t ti, double ns, State state, bool front) {
  ThreadSim& t = threads_[ti];
  ThreadRun& run = run_of(t);
  run.work = ns;
  run.work_state = state;
  t.waiting = Waiting::Core;
  set_state(t, State::Idle);
  shared_cores_[static_cast<std::size_t>(t.node)]->queue(ti, front);
  cores_pending_ = true;
}

// After an MPI call (or before the first record): the thread queues for its next burst, or
// for an empty piece of work before a record that is not a burst. With `calls_inline`, a record
// that is not a burst is not queued for: true when the thread goes on with it at once.
bool Engine::queue_next_work(std::uint32_t ti, bool front, bool calls_inline) {
  ThreadSim& t = threads_[ti];
  do {
    if (!take_record(ti)) return false;
  } while (skip_send_wait(t));
  bool burst = run_of(t).record.type == RecordType::Burst;
  t.phase = burst ? Phase::Fetch : Phase::Start;
  if (!burst && calls_inline) return true;
  queue_work(ti, burst ? burst_ns(t) : 0.0, State::Running, front);
  return false;
}

// The thread goes on after its call on shared cores: it queues at the front for its next piece
// of work (Dimemas' FIFO scheduler takes a thread that kept its core LIFO). After starting a
// non-blocking collective Dimemas goes on at once: with its next call inline, or it queues for
// its next burst at the back (it gave its core up). True if it goes on now.
bool Engine::resume_sharing(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  bool started = starts_immediate_collective(run_of(t).record);
  end_call(t);
  return queue_next_work(ti, !started, started);
}

void Engine::dispatch_cores() {
  cores_pending_ = false;
  for (std::optional<SharedCores>& cores : shared_cores_) {
    if (!cores) continue;
    while (std::optional<std::uint32_t> ti = cores->next()) {
      ThreadSim& t = threads_[*ti];
      const ThreadRun& run = run_of(t);
      t.on_core = true;
      t.waiting = Waiting::Nothing;
      set_state(t, run.work_state);
      queue_.push(later(run.work, *ti), EventKind::ThreadReady, *ti);
    }
  }
}

void Engine::release_core(ThreadSim& t) {
  t.on_core = false;
  shared_cores_[static_cast<std::size_t>(t.node)]->release();
  cores_pending_ = true;
}

// The thread goes on at `time` (ns): inline when nothing else happens before, else via the queue.
bool Engine::continue_at(std::uint32_t ti, double time) {
  if (task_mode_) {  // always through the agenda: a preemption may come first
    schedule(ti, time);
    return false;
  }
  if (time < queue_.next_time() && !cores_pending_ && readied_.empty()) {
    set_now(time);
    return true;
  }
  queue_.push(time, EventKind::ThreadReady, ti);
  return false;
}

void Engine::block(ThreadSim& t, Waiting waiting, State state, std::int32_t on) {
  t.phase = Phase::Blocked;
  t.waiting = waiting;
  t.blocked_on = on;
  set_state(t, state);
  // Task mode: an instance blocked in MPI gives its core away under the MPI policy (else it
  // keeps it, busy waiting).
  if (task_mode_ && t.core >= 0 && options_.policy == TaskPolicy::Mpi) release_task_core(t);
}

// Blocked thread `ti` goes on: at once (Dimemas readies a receiver when its message arrives), or,
// if `later`, once the event being handled is over, with the others readied during it in the
// order of their nodes (Dimemas' reload_events: a rendezvous sender its receive lets go, the
// members of a collective that ends).
void Engine::wake(std::uint32_t ti, bool later) {
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
  if (later) {
    readied_.push_back(ti);
    return;
  }
  if (double at = ready_again(ti); at >= 0) queue_.push(at, EventKind::ThreadReady, ti);
}

void Engine::ready_readied() {
  std::stable_sort(readied_.begin(), readied_.end(), [this](std::uint32_t a, std::uint32_t b) {
    return threads_[a].node < threads_[b].node;
  });
  for (std::uint32_t ti : readied_)
    if (double at = ready_again(ti); at >= 0) queue_.push(at, EventKind::ThreadReady, ti);
  readied_.clear();
}

// The thread goes on after its call; false if not now. Dimemas lets a thread that started a
// non-blocking collective go on at once: its next record of the same instant (another such
// collective, which then queues for the buses) comes before other threads' of that instant.
bool Engine::resume(std::uint32_t ti) {
  bool started_collective = starts_immediate_collective(run_of(threads_[ti]).record);
  double at = ready_again(ti);
  if (at < 0) return false;
  if (started_collective && at == now_ns_) return true;
  return continue_at(ti, at);
}

// Thread `ti` goes on after an MPI call, as Dimemas readies a thread (SCHEDULER_thread_to_ready):
// its next piece of work enters the agenda now, its next burst or, before a record that is not
// a burst, an empty piece; so that record acts after what else happens at this instant. Returns
// when the piece ends (the thread's phase says what then), or -1 when the thread is done.
double Engine::ready_again(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  end_call(t);
  do {
    if (!take_record(ti)) return -1;
  } while (skip_send_wait(t));
  if (run_of(t).record.type != RecordType::Burst) {
    t.phase = Phase::Start;
    return now_ns_;
  }
  t.phase = Phase::Fetch;
  t.after_call = false;
  set_state(t, State::Running);
  return later(burst_ns(t), ti);
}

void Engine::end_call(ThreadSim& t) {
  ThreadRun& run = run_of(t);
  run.in_call = false;
  if (sink_) sink_->call(t.task, row(t), run.call_begin, now_, run.record);
}

// The sink's thread of `t`: its thread, or in task mode the core it runs on.
int Engine::row(const ThreadSim& t) const {
  if (!task_mode_) return t.thread;
  return t.core >= 0 ? t.core : t.last_core;
}

// Tells the sink the earliest time anything still open began: a thread's current state or
// call, or an undelivered message's send.
void Engine::report_safe_time() {
  double safe = now_;
  for (const ThreadSim& t : threads_) {
    if (t.phase == Phase::Done) continue;
    safe = std::min(safe, t.state_begin);
    if (t.run != kNoRun && run_of(t).in_call) safe = std::min(safe, run_of(t).call_begin);
  }
  while (!undelivered_.empty() &&
         messages_[undelivered_.front().message].serial != undelivered_.front().serial) {
    std::pop_heap(undelivered_.begin(), undelivered_.end(), std::greater<>());
    undelivered_.pop_back();
  }
  if (!undelivered_.empty()) safe = std::min(safe, undelivered_.front().logical_send);
  sink_->safe_until(safe);
}

// ---- Time accounting -----------------------------------------------------------------------

void Engine::set_state(ThreadSim& t, State state) {
  if (state == t.state) return;
  close_state(t);
  t.state = state;
  t.state_begin = now_;
  t.state_core = t.core;
}

// Accounts for the current state of `t` up to now and reports it to the sink.
void Engine::close_state(ThreadSim& t) {
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
void Engine::split_state(ThreadSim& t) {
  close_state(t);
  t.state_begin = now_;
  t.state_core = t.core;
}

void Engine::report_progress() {
  if (!options_.progress) return;
  if (task_mode_) {  // the instances that ended (a scan of millions of streams would cost more)
    options_.progress(static_cast<double>(instances_ended_) / static_cast<double>(threads_.size()));
    return;
  }
  std::uint64_t read = 0;
  for (const ThreadSim& t : threads_) read += run_of(t).stream->bytes_read();
  options_.progress(std::min(1.0, static_cast<double>(read) / static_cast<double>(total_bytes_)));
}

// The record `t` is at (a parked instance's is read again), and its mark.
trace::Record Engine::current_record(const ThreadSim& t, std::uint64_t* mark) const {
  if (t.run != kNoRun) {
    if (mark) *mark = Engine::mark(run_of(t));
    return run_of(t).record;
  }
  Record r;
  if (!t.parked) {  // nothing read yet
    if (mark) *mark = trace_.open(t.task, t.thread)->mark();
    return r;
  }
  trace::RecordCursor at = t.at;
  trace_.next(t.task, at, r);
  if (mark) *mark = at.mark;
  return r;
}

// Where the record `t` is at lies in the trace (file:line).
std::string Engine::where(const ThreadSim& t) const {
  if (t.run != kNoRun && run_of(t).stream) return run_of(t).stream->where();
  std::uint64_t mark = 0;
  current_record(t, &mark);
  return where(t, mark);
}

// Where a record of `t` lies, from its mark (RecordStream::mark; a cursor's).
std::string Engine::where(const ThreadSim& t, std::uint64_t mark) const {
  if (t.run != kNoRun && run_of(t).stream) return run_of(t).stream->where(mark);
  return trace_.open(t.task, t.thread)->where(mark);  // (a thread without a stream open)
}

std::uint64_t Engine::mark(const ThreadRun& run) {
  return run.stream ? run.stream->mark() : run.next.mark;
}

void Engine::fail(const ThreadSim& t, const std::string& message) const {
  throw trace::FormatError(where(t), 0, message);
}

// The agenda time `ns` nanoseconds from now, when the run may reach it: past
// kMaxSimulatedSeconds (or not a number: a burst of an absurd length on an absurd CPU ratio),
// the replay stops at the record of thread `ti`.
double Engine::later(double ns, std::uint32_t ti) const {
  double time = now_ns_ + ns;
  if (!(time <= kMaxSimulatedSeconds * 1e9)) {
    const ThreadSim& t = threads_[ti];
    time_limit(where(t), describe(current_record(t)));
  }
  return time;
}

void Engine::time_limit(const std::string& where, const std::string& what) {
  throw trace::FormatError(where, 0,
                           "the simulated run would last past 9.2e9 s (292 years: times in "
                           "nanoseconds must stay below 2^63) at this record (" +
                               what + ")");
}

Result simulate(const trace::Trace& trace, const Machine& machine,
                const SimulationOptions& options) {
  Engine engine(trace, machine, options);
  return engine.run();
}

}  // namespace tareador::replay
