// engine_collectives.cpp — collectives: members meet (by communicator and call count), the
// collective starts when the last arrives and it holds the network's buses, and lasts what
// collectives.h says (engine.h).
#include <algorithm>
#include <string>

#include "replay/collectives.h"
#include "replay/engine.h"

namespace tareador::replay {

using trace::Record;

bool Engine::issue_collective(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  ThreadRun& run = run_of(t);
  const Record& r = run.record;
  if (r.flags & trace::kCollectiveWait) return wait_any_collective(ti);
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
  comm_arrivals_[r.comm].push_back(t.node);
  c.blocking.push_back(!immediate);
  c.counted.push_back(immediate && r.request == 0);
  if (c.root == kNone) {  // the sizes of the root, else of the last member
    c.bytes = r.bytes;
    c.bytes_recv = r.bytes_recv;
  }
  if (r.peer == t.task) c.root = static_cast<std::int32_t>(ti);
  if (immediate) {
    ++c.references;
    if (r.request != 0) {  // a Wait for its request waits for it
      RequestSim request;
      request.collective = static_cast<std::int32_t>(cid);
      request.startup = collective_startup_ns(t, r.comm);
      add_request(ti, r.request, requests_.add(request));
    } else {
      run.immediate_collectives.push_back(cid);
    }
  } else {
    block(t, Waiting::Collective, State::CollectiveSync, static_cast<std::int32_t>(cid));
  }
  if (c.members.size() == comm->tasks.size()) start_collective(cid, ti);
  return immediate;
}

// Thread `ti` waits for immediate collective `cid`, which it started. False if it blocks until
// the collective ends.
bool Engine::wait_collective(std::uint32_t ti, std::uint32_t cid) {
  CollectiveSim& c = collectives_[cid];
  --c.references;
  if (c.done) {
    release_collective(cid);
    return true;
  }
  c.waiters.push_back(static_cast<std::int32_t>(ti));
  block(threads_[ti], Waiting::Collective, State::CollectiveSync, static_cast<std::int32_t>(cid));
  return false;
}

// Dimemas' wait for an immediate collective (kCollectiveWait): it takes one of the thread's that
// has ended, else it blocks until the next of them ends. False if it blocks.
bool Engine::wait_any_collective(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  ThreadRun& run = run_of(t);
  if (!run.ended_collectives.empty()) {
    std::uint32_t cid = run.ended_collectives.front();
    run.ended_collectives.pop_front();
    --collectives_[cid].references;
    release_collective(cid);
    return true;
  }
  if (run.immediate_collectives.empty()) fail(t, "wait for a collective that was not started");
  run.waits_any_collective = true;
  block(t, Waiting::Collective, State::CollectiveSync,
        static_cast<std::int32_t>(run.immediate_collectives.front()));
  return false;
}

// What starting a non-blocking collective on `comm`, or waiting for one, costs thread `t`.
double Engine::collective_startup_ns(const ThreadSim& t, int comm) {
  auto [it, fresh] = collective_startups_.try_emplace(std::make_pair(comm, t.node), 0.0);
  if (fresh) it->second = network_.collective_startup_ns(t.task, header_.communicator(comm)->tasks);
  return it->second;
}

// The last member has arrived: the collective claims the network's buses (network.h), and
// starts once it holds them.
void Engine::start_collective(std::uint32_t cid, std::uint32_t last) {
  CollectiveSim& c = collectives_[cid];
  open_collectives_.erase(std::make_pair(c.comm, c.sequence));
  c.representative = c.root != kNone ? static_cast<std::uint32_t>(c.root) : last;
  network_.claim_buses(cid);
}

void Engine::collective_claimed(std::uint32_t cid) {
  CollectiveSim& c = collectives_[cid];
  c.start = now_;
  std::uint32_t representative = c.representative;
  double duration = collective_ns(machine_, c.op, comm_arrivals_[c.comm], c.bytes, c.bytes_recv,
                                  threads_[representative].node);
  for (std::size_t i = 0; i < c.members.size(); ++i)
    if (c.blocking[i]) set_state(threads_[c.members[i]], State::Collective);
  queue_.push(later(duration, representative), EventKind::CollectiveDone, cid);
}

// The blocking members go on in the order they arrived, the representative last (as Dimemas
// releases them), once this event is over (wake: in the order of their nodes, unless they share
// cores).
void Engine::collective_done(std::uint32_t cid) {
  CollectiveSim& c = collectives_[cid];
  c.done = true;
  network_.release_buses(cid);     // first, as Dimemas (its resources event comes first)
  comm_arrivals_[c.comm].clear();  // (once those the buses went to have counted them)
  std::int32_t representative = kNone;
  for (std::size_t i = 0; i < c.members.size(); ++i) {
    if (!c.blocking[i]) continue;
    if (c.members[i] == c.representative) representative = static_cast<std::int32_t>(c.members[i]);
    else wake(c.members[i], true);
  }
  if (representative != kNone) wake(static_cast<std::uint32_t>(representative), true);
  for (std::int32_t w : c.waiters) wake(static_cast<std::uint32_t>(w), true);
  c.waiters.clear();
  for (std::size_t i = 0; i < c.members.size(); ++i) {
    if (!c.counted[i]) continue;
    ThreadRun& run = run_of(threads_[c.members[i]]);
    run.immediate_collectives.remove(cid);
    if (run.waits_any_collective) {
      run.waits_any_collective = false;
      --c.references;
      wake(c.members[i], true);
    } else {
      run.ended_collectives.push_back(cid);
    }
  }
  release_collective(cid);
}

void Engine::release_collective(std::uint32_t cid) {
  CollectiveSim& c = collectives_[cid];
  if (c.done && c.references == 0) collectives_.remove(cid);
}

}  // namespace tareador::replay
