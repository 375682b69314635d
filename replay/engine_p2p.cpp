// engine_p2p.cpp — point to point: sends, receives and the requests waits look up; messages
// matched by the MatchTable and carried by the Network (engine.h).
#include <algorithm>
#include <functional>
#include <string>

#include "replay/engine.h"
#include "replay/marshalling.h"

namespace tareador::replay {

using trace::Record;
using trace::RecordType;

bool Engine::issue_send(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  const ThreadRun& run = run_of(t);
  const Record& r = run.record;
  MessageSim m;
  m.sender = ti;
  m.info = Message{t.task, row(t), r.peer, 0, run.call_begin, 0, 0, 0, r.bytes, r.tag, r.comm};
  m.marshalling = marshalling_seconds(machine_, r);
  bool rendezvous = r.flags & trace::kRendezvous;
  if (machine_.eager_limit >= 0 && !(r.flags & trace::kProtocolFixed))
    rendezvous = r.bytes >= machine_.eager_limit;
  // Dimemas 5.5 sends between two threads of one task by rendezvous, whatever else holds.
  if (r.peer == t.task && r.peer_thread >= 0 && r.peer_thread != t.thread) rendezvous = true;
  m.rendezvous = rendezvous;
  m.send_mark = mark(run);
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

  std::int32_t rid = match_.send(trace::channel_of(r, t.task, t.thread), mid);
  if (rid != kNone) match(mid, static_cast<std::uint32_t>(rid));
  MessageSim& sent = messages_[mid];
  if (!sent.rendezvous || sent.matched) request_transfer(mid);
  if (r.immediate() || !sent.rendezvous || sent.started) return true;
  sent.sender_blocked = true;
  block(t, Waiting::SendStart, State::BlockedSend, static_cast<std::int32_t>(mid));
  return false;
}

// Pairs message `mid` with the posted receive `rid`.
void Engine::match(std::uint32_t mid, std::uint32_t rid) {
  MessageSim& m = messages_[mid];
  const RequestSim& receive = requests_[rid];
  m.matched = true;
  m.recv_request = static_cast<std::int32_t>(rid);
  m.info.logical_recv = receive.posted;
  m.info.dst_thread = row(threads_[receive.poster]);
}

bool Engine::issue_recv(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  const Record& r = run_of(t).record;
  RequestSim request;
  request.receive = true;
  request.peer_task = r.peer;
  request.tag = r.tag;
  request.comm = r.comm;
  request.startup = network_.startup(r.peer, t.task);
  request.poster = ti;
  request.posted = now_;
  std::uint32_t rid = requests_.add(request);
  if (r.immediate()) add_request(ti, r.request, rid);

  std::int32_t found = match_.receive(trace::channel_of(r, t.task, t.thread), rid);
  if (found != kNone) {
    auto mid = static_cast<std::uint32_t>(found);
    match(mid, rid);
    MessageSim& m = messages_[mid];
    if (m.arrived) {
      deliver(mid);
    } else if (!m.requested) {
      request_transfer(mid);  // a rendezvous message waited for this receive
    }
  }
  if (r.immediate()) return true;
  return wait_for(ti, rid);
}

// A wait for an immediate send: its request is complete from the start (Dimemas' immediate
// sends never block their sender), so the wait costs nothing and, on shared cores, is no
// scheduling point: the same as the Dimemas trace, which has no record for it. False if
// the record it is at is not one.
bool Engine::skip_send_wait(ThreadSim& t) {
  ThreadRun& run = run_of(t);
  if (run.record.type != RecordType::Wait) return false;
  RequestList& list = requests_of(t);
  auto it = find_request(list, run.record.request);
  if (it == list.end() || requests_[it->second].receive) return false;
  requests_.remove(it->second);
  *it = list.back();
  list.pop_back();
  if (sink_) sink_->call(t.task, row(t), run.in_call ? run.call_begin : now_, now_, run.record);
  run.in_call = false;
  return true;
}

bool Engine::issue_wait(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  RequestList& list = requests_of(t);
  auto it = find_request(list, run_of(t).record.request);
  std::uint32_t rid = it->second;
  *it = list.back();
  list.pop_back();
  return wait_for(ti, rid);
}

Engine::RequestList::iterator Engine::find_request(RequestList& list, std::uint64_t id) {
  return std::find_if(list.begin(), list.end(),
                      [id](const auto& entry) { return entry.first == id; });
}

// The outstanding requests a thread's waits look up: its own, or in task mode its rank's
// (one instance may post a request and another wait for it).
Engine::RequestList& Engine::requests_of(ThreadSim& t) {
  return task_mode_ ? rank_requests_[static_cast<std::size_t>(t.task)] : run_of(t).requests;
}

// The readers guarantee that an id is not reused while outstanding.
void Engine::add_request(std::uint32_t ti, std::uint64_t id, std::uint32_t rid) {
  ThreadSim& t = threads_[ti];
  requests_of(t).emplace_back(id, rid);
  if (task_mode_) request_posted(t.task, id);
}

// Blocks thread `ti` until request `rid` completes (frees it then). False if it blocks.
bool Engine::wait_for(std::uint32_t ti, std::uint32_t rid) {
  RequestSim& request = requests_[rid];
  if (request.complete) {
    requests_.remove(rid);
    return true;
  }
  request.waiter = static_cast<std::int32_t>(ti);
  block(threads_[ti], Waiting::Request, State::WaitingMessage, static_cast<std::int32_t>(rid));
  return false;
}

void Engine::complete_request(std::int32_t rid) {
  if (rid == kNone) return;
  RequestSim& request = requests_[static_cast<std::uint32_t>(rid)];
  request.complete = true;
  if (request.waiter != kNone) {
    wake(static_cast<std::uint32_t>(request.waiter));
    requests_.remove(static_cast<std::uint32_t>(rid));
  }
}

void Engine::request_transfer(std::uint32_t mid) {
  MessageSim& m = messages_[mid];
  m.requested = true;
  network_.request(mid, m.info.src_task, m.info.dst_task);
}

// The network gave message `mid` its links: its transfer starts, and a blocking rendezvous
// sender goes on.
void Engine::transfer_started(std::uint32_t mid) {
  MessageSim& m = messages_[mid];
  m.started = true;
  m.info.physical_send = now_;
  double arrival =
      now_ + network_.duration(m.info.src_task, m.info.dst_task, m.info.bytes) + m.marshalling;
  if (!(arrival <= kMaxSimulatedSeconds))
    time_limit(where(threads_[m.sender], m.send_mark),
               "a transfer of " + std::to_string(m.info.bytes) + " bytes");
  queue_.push(arrival, EventKind::TransferDone, mid);
  if (m.sender_blocked) {
    m.sender_blocked = false;
    wake(m.sender);
  }
}

// The transfer ends: the message arrives (and is delivered, if its receive is posted), then
// it frees its links and bus (Network::finish).
void Engine::transfer_done(std::uint32_t mid) {
  MessageSim& m = messages_[mid];
  m.arrived = true;
  m.info.physical_recv = now_;
  bool matched = m.matched;
  if (matched) arrive(mid);
  network_.finish(mid);
  if (matched) forget(mid);
}

// The message has arrived and its receive is posted: the receive completes.
void Engine::deliver(std::uint32_t mid) {
  arrive(mid);
  forget(mid);
}

void Engine::arrive(std::uint32_t mid) {
  MessageSim& m = messages_[mid];
  if (sink_) sink_->message(m.info);
  complete_request(m.recv_request);
}

void Engine::forget(std::uint32_t mid) {
  messages_[mid].serial = 0;
  messages_.remove(mid);
}

}  // namespace tareador::replay
