// engine_tasks.cpp — task mode: a thread of a tasks trace is a task instance, which runs on a
// core of its node (TaskCores) in the order of the task policy (engine.h).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "replay/engine.h"

namespace tareador::replay {

using trace::Record;

// ---- Task mode (tasks traces) ----------------------------------------------------------
//
// A thread is a task instance. Only the main instance of each rank exists at first; `spawn`
// creates one, which then passes its leading `after`s (no core needed: it waits for their
// sources to end) and asks its node for a core at its first other record. It holds that core
// until it ends, except while blocked in an `after` (and, under the MPI policy, in MPI).
// Cores go to the ready instances in policy order once every event of the instant is done.
// Its continuations go through timers, which a preemption makes stale.

void Engine::setup_tasks() {
  types_ = task_type_table(header_);
  std::vector<std::uint64_t> instances(machine_.nodes.size(), 0);
  for (int task = 0; task < header_.tasks(); ++task)
    instances[static_cast<std::size_t>(node_of(task))] +=
        static_cast<std::uint64_t>(header_.threads[static_cast<std::size_t>(task)]);
  for (std::size_t n = 0; n < machine_.nodes.size(); ++n) {
    int cores = machine_.nodes[n].cores;
    if (cores < 1) throw std::invalid_argument("node " + std::to_string(n) + " has no core");
    int usable = static_cast<int>(std::min<std::uint64_t>(
        static_cast<std::uint64_t>(cores), std::max<std::uint64_t>(instances[n], 1)));
    task_cores_.emplace_back(cores, usable);
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
  for (int task = 0; task < header_.tasks(); ++task) {
    const trace::TaskSet& set = header_.task_sets[static_cast<std::size_t>(task)];
    std::vector<double> path;
    if (options_.policy == TaskPolicy::CriticalPath)
      path = std::move(task_paths_[static_cast<std::size_t>(task)]);
    for (std::size_t i = 0; i < set.instances.size(); ++i) {
      ThreadSim& t = threads_[task_base_[static_cast<std::size_t>(task)] + i];
      t.mpi = set.instances[i].mpi;
      double primary = 0;
      if (options_.policy == TaskPolicy::CriticalPath) primary = -path[i];
      if (options_.policy == TaskPolicy::Mpi) primary = t.mpi ? 0 : 1;
      t.priority = primary;
    }
  }
}

// Thread `ti` goes on: it takes a run. A new instance opens its stream (or a cursor at its
// start), a parked one reads again the record it is at.
void Engine::take_run(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  ThreadRun run;
  if (t.parked) {
    run.at = run.next = t.at;
    trace_.next(t.task, run.next, run.record);
    t.parked = false;
  } else if (std::optional<trace::RecordCursor> start = trace_.cursor(t.task, t.thread)) {
    run.next = *start;
  } else {
    run.stream = trace_.open(t.task, t.thread);
  }
  t.run = runs_.add(std::move(run));
}

// An instance that waits for a core or for another instance to end gives its run back, if it
// can come back to the record it is at (a cursor) and has no MPI calls under way.
void Engine::park(ThreadSim& t) {
  if (t.mpi || run_of(t).stream) return;
  t.at = run_of(t).at;
  t.parked = true;
  runs_.remove(t.run);
  t.run = kNoRun;
}

// An instance that ended gives its run back, and closes its stream.
void Engine::release_run(ThreadSim& t) {
  run_of(t).stream.reset();
  runs_.remove(t.run);
  t.run = kNoRun;
}

// Under the critical-path policy, per rank: the longest path from the start of each instance
// to the end of the run, over the spawn and after edges and the messages between ranks, with
// the bursts on this machine (trace::task_critical_paths); else nothing.
std::vector<std::vector<double>> Engine::critical_paths() {
  if (options_.policy != TaskPolicy::CriticalPath) return {};
  if (!(mips_ > 0))
    throw std::invalid_argument("the critical-path policy needs a MIPS rate (--set mips=...)");
  std::vector<double> seconds;
  for (int task = 0; task < header_.tasks(); ++task) {
    double ratio = machine_.nodes[static_cast<std::size_t>(node_of(task))].cpu_ratio;
    seconds.push_back(ratio > 0 ? 1.0 / (mips_ * 1e6) / ratio : 0.0);
  }
  trace::CriticalPaths paths = trace::task_critical_paths(trace_, seconds, type_speedup_);
  if (!paths.note.empty()) end_notes_.push_back(paths.note);
  return std::move(paths.paths);
}

// Thread `ti` goes on at `time` (ns, the agenda's unit).
void Engine::schedule(std::uint32_t ti, double time) {
  ThreadSim& t = threads_[ti];
  if (t.run != kNoRun) run_of(t).timer_at = time;
  queue_.push(time, EventKind::TaskTimer, timers_.add(TaskTimer{ti, t.generation}));
}

// The instance waits for a core of its node.
void Engine::request_core(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  set_state(t, State::Idle);
  t.waiting = Waiting::Core;
  task_cores_[static_cast<std::size_t>(t.node)].ready(ti, priority_of(t), run_of(t).wants_preempt);
  dispatch_pending_ = true;
}

// A blocked instance can go on: at once on its core, or once it has one again.
void Engine::resume_on_core(std::uint32_t ti, bool may_preempt) {
  ThreadSim& t = threads_[ti];
  if (t.core >= 0) {
    schedule(ti, now_ns_);
    return;
  }
  run_of(t).wants_preempt = may_preempt;
  request_core(ti);
}

void Engine::dispatch() {
  dispatch_pending_ = false;
  for (TaskCores& node : task_cores_) {
    while (auto next = node.next()) grant(next->first, next->second);
    if (options_.policy != TaskPolicy::Mpi) continue;
    // Instances woken from MPI take the core of a running instance without MPI.
    std::set<TaskCores::Entry>& ready = node.preempting();
    for (auto it = ready.begin(); it != ready.end();) {
      std::uint32_t ti = it->second;
      std::int32_t victim = kNone;
      for (std::int32_t owner : node.owners()) {
        if (owner == TaskCores::kFree || threads_[static_cast<std::uint32_t>(owner)].mpi) continue;
        if (victim == kNone || priority_of(threads_[static_cast<std::uint32_t>(victim)]) <
                                   priority_of(threads_[static_cast<std::uint32_t>(owner)]))
          victim = owner;
      }
      if (victim == kNone) break;
      preempt(static_cast<std::uint32_t>(victim));
      it = ready.erase(it);
      int core = node.lowest_free();
      node.take(ti, core);
      grant(ti, core);
    }
  }
}

void Engine::grant(std::uint32_t ti, int core) {
  ThreadSim& t = threads_[ti];
  if (t.run == kNoRun) take_run(ti);  // (it may lose the core before it goes on: preempt)
  ThreadRun& run = run_of(t);
  t.core = t.last_core = core;
  t.waiting = Waiting::Nothing;
  run.wants_preempt = false;
  split_state(t);
  busy_changed(t, +1);
  if (sink_) {
    sink_->task_start(t.task, core, now_, t.thread + 1, type_of(t));
    auto arcs = arcs_.find(ti);
    if (arcs != arcs_.end()) {
      for (TaskDependencyArc& arc : arcs->second) {
        arc.dst_core = core;
        arc.resumed = now_;
        sink_->dependency(arc);
      }
      arcs_.erase(arcs);
    }
  }
  if (run.preempted) {
    run.preempted = false;
    set_state(t, run.saved_state);
    schedule(ti, later(run.remaining, ti));
  } else {
    schedule(ti, now_ns_);
  }
}

void Engine::release_task_core(ThreadSim& t) {
  task_cores_[static_cast<std::size_t>(t.node)].release(t.core);
  if (sink_) sink_->task_stop(t.task, t.core, now_);
  t.last_core = t.core;
  t.core = -1;
  split_state(t);
  busy_changed(t, -1);
  dispatch_pending_ = true;
}

// Takes the core of running instance `vi`, which resumes its timer's remaining time later.
void Engine::preempt(std::uint32_t vi) {
  ThreadSim& v = threads_[vi];
  ThreadRun& run = run_of(v);
  ++v.generation;
  run.remaining = std::max(0.0, run.timer_at - now_ns_);
  run.preempted = true;
  run.saved_state = v.state;
  set_state(v, State::Idle);
  release_task_core(v);
  request_core(vi);
}

void Engine::busy_changed(const ThreadSim& t, int delta) {
  add_profile(profile_, profile_time_, total_busy_);
  total_busy_ += delta;
  peak_ = std::max(peak_, total_busy_);
  std::size_t task = static_cast<std::size_t>(t.task);
  add_profile(rank_profile_[task], rank_profile_time_[task], rank_busy_[task]);
  rank_busy_[task] += delta;
  if (sink_) sink_->cores_busy(t.task, now_, rank_busy_[task]);
}

// `busy` cores were busy from `since` until now.
void Engine::add_profile(std::vector<double>& profile, double& since, int busy) const {
  auto k = static_cast<std::size_t>(busy);
  if (profile.size() <= k) profile.resize(k + 1, 0.0);
  profile[k] += now_ - since;
  since = now_;
}

void Engine::spawn(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  int id = run_of(t).record.peer;
  std::uint32_t ci =
      task_base_[static_cast<std::size_t>(t.task)] + static_cast<std::uint32_t>(id - 1);
  ThreadSim& child = threads_[ci];
  if (child.created) fail(t, "instance " + std::to_string(id) + " is spawned twice");
  child.created = true;
  schedule(ci, now_ns_);  // its leading `after`s, then a core
}

// An `after` record: goes on if its source has ended, else waits for it without a core.
bool Engine::after(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  const Record& r = run_of(t).record;
  std::uint32_t si =
      task_base_[static_cast<std::size_t>(t.task)] + static_cast<std::uint32_t>(r.peer - 1);
  ThreadSim& source = threads_[si];
  if (source.phase == Phase::Done) {
    TaskDependencyArc arc{t.task,       source.thread + 1,
                          t.thread + 1, source.last_core,
                          t.core,       source.end,
                          now_,         now_,
                          r.bytes,      static_cast<std::uint8_t>(r.op)};
    // Drawn when it has a core (only a timeline draws them).
    if (sink_ && t.core >= 0) sink_->dependency(arc);
    else if (sink_) arcs_[ti].push_back(arc);
    return true;
  }
  t.phase = Phase::Blocked;
  t.waiting = Waiting::Dependency;
  t.blocked_on = static_cast<std::int32_t>(si);
  set_state(t, State::Idle);
  if (t.core >= 0) release_task_core(t);
  if (source.last_dependent == kNone) source.first_dependent = static_cast<std::int32_t>(ti);
  else
    threads_[static_cast<std::uint32_t>(source.last_dependent)].next_dependent =
        static_cast<std::int32_t>(ti);
  source.last_dependent = static_cast<std::int32_t>(ti);
  park(t);
  return false;
}

void Engine::instance_ended(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  ++instances_ended_;
  release_run(t);
  if (t.core >= 0) release_task_core(t);
  // Dependencies satisfied after its last run on a core end on the core it ran on last.
  if (auto arcs = arcs_.find(ti); arcs != arcs_.end()) {
    for (TaskDependencyArc& arc : arcs->second) {
      arc.dst_core = t.last_core;
      arc.resumed = now_;
      sink_->dependency(arc);
    }
    arcs_.erase(arcs);
  }
  for (std::int32_t di = t.first_dependent; di != kNone;) {
    ThreadSim& d = threads_[static_cast<std::uint32_t>(di)];
    if (sink_) {
      Record after = current_record(d);
      arcs_[static_cast<std::uint32_t>(di)].push_back(
          TaskDependencyArc{d.task, t.thread + 1, d.thread + 1, t.last_core, -1, now_, now_, now_,
                            after.bytes, static_cast<std::uint8_t>(after.op)});
    }
    d.phase = Phase::Fetch;
    d.waiting = Waiting::Nothing;
    d.blocked_on = kNone;
    schedule(static_cast<std::uint32_t>(di), now_ns_);
    di = std::exchange(d.next_dependent, kNone);
  }
  t.first_dependent = t.last_dependent = kNone;
}

// A wait for a request no instance of the rank has posted yet: waits for the post (on its
// core, as in MPI).
bool Engine::wait_for_post(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  unposted_[std::make_pair(t.task, run_of(t).record.request)] = ti;
  block(t, Waiting::Posting, State::WaitingMessage, kNone);
  return false;
}

void Engine::request_posted(int task, std::uint64_t id) {
  auto it = unposted_.find(std::make_pair(task, id));
  if (it == unposted_.end()) return;
  std::uint32_t wi = it->second;
  unposted_.erase(it);
  ThreadSim& w = threads_[wi];
  w.phase = Phase::Start;  // its wait starts again
  w.waiting = Waiting::Nothing;
  resume_on_core(wi, options_.policy == TaskPolicy::Mpi);
}

const trace::TaskInstance& Engine::instance_of(const ThreadSim& t) const {
  return header_.task_sets[static_cast<std::size_t>(t.task)]
      .instances[static_cast<std::size_t>(t.thread)];
}

// The instance's type, for reports (a long name cut short).
std::string Engine::type_name(const ThreadSim& t) const {
  return trace::clipped(header_.task_sets[static_cast<std::size_t>(t.task)]
                            .types[static_cast<std::size_t>(instance_of(t).type)],
                        60);
}

int Engine::type_of(const ThreadSim& t) const {
  return types_
      .of_rank[static_cast<std::size_t>(t.task)][static_cast<std::size_t>(instance_of(t).type)];
}

std::string Engine::task_problem(const ThreadSim& t) const {
  std::string who = "rank " + std::to_string(t.task) + " instance " + std::to_string(t.thread + 1) +
                    " (" + type_name(t) + ")";
  if (!t.created)
    return who + " was never created: instance " + std::to_string(instance_of(t).parent) +
           " did not reach its spawn";
  Record record = current_record(t);
  if (t.waiting == Waiting::Core)
    return who + " is waiting for a core at " + where(t) + " in " + describe(record) +
           " (every core is held by instances blocked in MPI)";
  return who + " is blocked at " + where(t) + " in " + describe(record) + ": " +
         blocked_reason(t, record);
}

TaskResult Engine::task_result() {
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
    r.cores.push_back(task_cores_[static_cast<std::size_t>(node_of(task))].cores());
  r.instances = static_cast<int>(threads_.size());
  r.profile = profile_;
  r.rank_profiles = rank_profile_;
  for (std::size_t k = 0; k < profile_.size(); ++k) r.busy += static_cast<double>(k) * profile_[k];
  r.peak = peak_;
  return r;
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
