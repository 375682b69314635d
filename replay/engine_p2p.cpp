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

// Point to point follows Dimemas 5.5 (model/communic.c). A message is not matched with a
// receive when either is posted: a receive takes the first message of its channel that has
// arrived, and a message that arrives goes to the first receive blocked on its channel. What
// the posting order decides is when a rendezvous message may go: sends and receives (blocking
// or immediate, not waits) are "reached" in FIFO pairs per channel, and a rendezvous send goes
// at once if its pair is an immediate receive reached before it, or if a receive is blocked on
// its channel; else it waits until a receive or a wait finds no message there, or until an
// immediate receive pairs with it.

bool Engine::issue_send(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  const ThreadRun& run = run_of(t);
  const Record& r = run.record;
  MessageSim m;
  m.sender = ti;
  m.info = Message{t.task, row(t), r.peer, 0, run.call_begin, 0, 0, 0, r.bytes, r.tag, r.comm};
  m.channel = trace::channel_of(r, t.task, t.thread);
  m.marshalling = marshalling_seconds(machine_, r);
  bool rendezvous = r.flags & trace::kRendezvous;
  if (machine_.eager_limit >= 0 && !(r.flags & trace::kProtocolFixed))
    rendezvous = r.bytes >= machine_.eager_limit;
  m.rendezvous = rendezvous;
  m.send_mark = mark(run);
  if (r.immediate() && r.request != 0) {  // complete at once: see skip_send_wait
    RequestSim request;
    request.channel = m.channel;
    add_request(ti, r.request, requests_.add(request));
  }
  m.serial = ++message_count_;
  std::uint32_t mid = messages_.add(m);
  if (sink_) {
    undelivered_.push_back(Undelivered{m.info.logical_send, mid, m.serial});
    std::push_heap(undelivered_.begin(), undelivered_.end(), std::greater<>());
  }

  bool immediate_receive = send_reached(messages_[mid]);
  if (!rendezvous || immediate_receive || arrivals_.has_receives(m.channel)) {
    request_transfer(mid);
    return true;  // a blocking rendezvous send, too, goes on once its transfer is asked for
  }
  rendezvous_.send(m.channel, mid);
  if (r.immediate()) return true;
  messages_[mid].sender_blocked = true;
  block(t, Waiting::SendStart, State::BlockedSend, static_cast<std::int32_t>(mid));
  return false;
}

// Send `m` is reached: it pairs with the first receive reached on its channel that no send
// has paired. True if that is an immediate receive (a rendezvous send may go).
bool Engine::send_reached(const MessageSim& m) {
  std::uint32_t id = reached_sims_.add(ReachedSim{m.rendezvous, m.sender, m.send_mark});
  return paired(id, reached_.send(m.channel, id));
}

// A receive is reached on `channel`: it pairs with the first send reached there that no
// receive has paired. True if that is a rendezvous send.
bool Engine::receive_reached(const trace::Channel& channel, bool immediate) {
  std::uint32_t id = reached_sims_.add(ReachedSim{immediate, 0, 0});
  return paired(id, reached_.receive(channel, id));
}

// Reached entry `id` paired with entry `pair` (kNone: none yet, and `id` waits): both are
// done, and the partner's flag says whether it was a rendezvous send or an immediate receive.
bool Engine::paired(std::uint32_t id, std::int32_t pair) {
  if (pair == kNone) return false;
  auto partner = static_cast<std::uint32_t>(pair);
  bool flag = reached_sims_[partner].rendezvous_or_immediate;
  reached_sims_.remove(id);
  reached_sims_.remove(partner);
  return flag;
}

bool Engine::issue_recv(std::uint32_t ti) {
  ThreadSim& t = threads_[ti];
  ThreadRun& run = run_of(t);
  const Record& r = run.record;
  RequestSim request;
  request.receive = true;
  request.channel = trace::channel_of(r, t.task, t.thread);
  request.startup = network_.startup_ns(r.peer, t.task);
  std::uint32_t rid = requests_.add(request);
  bool rendezvous_send = receive_reached(request.channel, r.immediate());
  if (!r.immediate()) {  // (whatever it paired with: Dimemas ignores it)
    run.logical_recv = run.call_begin;
    return receive_message(ti, rid);
  }
  add_request(ti, r.request, rid);
  if (sink_) immediate_receives_.receive(request.channel, immediate_times_.add(now_));
  if (rendezvous_send) start_rendezvous(request.channel);
  return true;
}

// Receive `rid` of thread `ti` (a blocking receive, or the wait of an immediate one) takes the
// first message arrived on its channel; without one it lets the first rendezvous message
// waiting there go, and blocks until a message arrives. False if it blocks.
bool Engine::receive_message(std::uint32_t ti, std::uint32_t rid) {
  RequestSim& request = requests_[rid];
  request.waiter = static_cast<std::int32_t>(ti);
  std::int32_t mid = arrivals_.receive(request.channel, rid);
  if (mid != kNone) {
    deliver(static_cast<std::uint32_t>(mid), rid);
    return true;
  }
  start_rendezvous(request.channel);
  block(threads_[ti], Waiting::Request, State::WaitingMessage, static_cast<std::int32_t>(rid));
  return false;
}

// The first rendezvous message waiting on `channel` goes; its blocking sender goes on.
void Engine::start_rendezvous(const trace::Channel& channel) {
  std::int32_t found = rendezvous_.take_message(channel);
  if (found == kNone) return;
  auto mid = static_cast<std::uint32_t>(found);
  request_transfer(mid);
  MessageSim& m = messages_[mid];
  if (m.sender_blocked) {
    m.sender_blocked = false;
    wake(m.sender, true);
  }
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
  if (it == list.end() || requests_[it->second].receive ||
      requests_[it->second].collective != kNone)
    return false;
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
  if (std::int32_t cid = requests_[rid].collective; cid != kNone) {
    requests_.remove(rid);
    return wait_collective(ti, static_cast<std::uint32_t>(cid));
  }
  return receive_message(ti, rid);
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

void Engine::request_transfer(std::uint32_t mid) {
  const MessageSim& m = messages_[mid];
  network_.request(mid, m.info.src_task, m.info.dst_task);
}

// The network gave message `mid` its links and bus: its transfer starts.
void Engine::transfer_started(std::uint32_t mid) {
  MessageSim& m = messages_[mid];
  m.info.physical_send = now_;
  double arrival = now_ns_ + network_.duration_ns(m.info.src_task, m.info.dst_task, m.info.bytes) +
                   m.marshalling * 1e9;
  if (!(arrival <= kMaxSimulatedSeconds * 1e9))
    time_limit(where(threads_[m.sender], m.send_mark),
               "a transfer of " + std::to_string(m.info.bytes) + " bytes");
  queue_.push(arrival, EventKind::TransferDone, mid);
}

// The transfer ends: it frees its links and bus (Network::finish; Dimemas frees them first),
// then the message arrives: the first receive blocked on its channel takes it, else it waits
// for one.
void Engine::transfer_done(std::uint32_t mid) {
  MessageSim& m = messages_[mid];
  m.info.physical_recv = now_;
  network_.finish(mid);
  std::int32_t rid = arrivals_.send(m.channel, mid);
  if (rid == kNone) return;
  auto receive = static_cast<std::uint32_t>(rid);
  auto waiter = static_cast<std::uint32_t>(requests_[receive].waiter);
  deliver(mid, receive);
  wake(waiter);
}

// Receive `rid` takes message `mid`: the sink sees the message, both are done. Its logical
// receive is when the first immediate receive on the channel not yet delivered to was posted
// (whatever receive takes it, as Dimemas), else when the receiver's last blocking receive began
// (its call, before its latency).
void Engine::deliver(std::uint32_t mid, std::uint32_t rid) {
  MessageSim& m = messages_[mid];
  const ThreadSim& receiver = threads_[static_cast<std::uint32_t>(requests_[rid].waiter)];
  if (sink_) {
    std::int32_t posted = immediate_receives_.take_receive(m.channel);
    m.info.logical_recv = run_of(receiver).logical_recv;
    if (posted != kNone) {
      m.info.logical_recv = immediate_times_[static_cast<std::uint32_t>(posted)];
      immediate_times_.remove(static_cast<std::uint32_t>(posted));
    }
    m.info.dst_thread = row(receiver);
    sink_->message(m.info);
  }
  requests_.remove(rid);
  m.serial = 0;
  messages_.remove(mid);
}

}  // namespace tareador::replay
