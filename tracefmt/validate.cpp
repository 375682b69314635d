// The validator: reads every record and checks what a replay would trip over.
#include <algorithm>
#include <deque>
#include <map>

#include "tareador/trace.h"

namespace tareador::trace {

namespace {

// Records each stream reads before the next stream's turn: reading the streams side by side
// keeps the sends and receives that wait for their partner few.
constexpr int kTurn = 4096;

struct Stream {
  int task = 0, thread = 0;
  std::unique_ptr<RecordStream> records;
  bool done = false;
};

// A send or a receive waiting for its partner: its size, where it is, and whether its thread
// waits until it matches (a blocking receive, a waited one, a send that must meet its receive).
// A receive is `waited` once it is sure to take a message (a blocking one at once, an immediate
// one at its wait), `dropped` when nothing waits for it.
struct Unpaired {
  std::int64_t bytes = 0;
  std::size_t stream = 0;
  std::uint64_t mark = 0;
  bool blocks = false, waited = false, dropped = false;
};

bool blocks(const Record& r) {
  if (r.type == RecordType::Recv) return true;  // at its wait, if immediate
  if (r.immediate()) return false;
  return (r.flags & kRendezvous) && (r.flags & kProtocolFixed);
}

// The sends and receives of one channel. A replay matches them in FIFO order, the receives as
// they take a message (a blocking receive at its call, an immediate one at its wait, as
// Dimemas); MPI matches the receives in the order they were posted. So they pair in the order
// they are posted, the receives that take a message: an immediate receive nothing waits for
// (MPI_Cancel) takes none, and the ones after it pair as if it were not there. A receive
// waits at the front until it is known whether anything waits for it.
struct ChannelState {
  std::uint64_t sends = 0, receives = 0;  // the receives that take a message
  std::string first_send, first_receive;  // file:line of the first of each
  std::deque<Unpaired> unpaired_sends, unpaired_receives;
};

// An immediate receive not yet waited for: where it waits on its channel.
struct Posted {
  ChannelState* channel = nullptr;
  Unpaired* receive = nullptr;
  const Channel* key = nullptr;
};

std::string endpoint(int task, int thread) {
  return "rank " + std::to_string(task) +
         (thread >= 0 ? " thread " + std::to_string(thread) : std::string());
}

std::string describe(const Channel& c) {
  return "from " + endpoint(c.src_task, c.src_thread) + " to " +
         endpoint(c.dst_task, c.dst_thread) + " (tag " + std::to_string(c.tag) + ", comm " +
         std::to_string(c.comm) + ")";
}

// file:line of the `index`-th collective that `task` calls on `comm`.
std::string where_collective(const Trace& trace, int task, int comm, std::size_t index) {
  if (trace.header().kind == "tasks")  // the order of its collectives is the replay's
    return trace.header().task_sets[static_cast<std::size_t>(task)].path;
  auto stream = trace.open(task, 0);
  Record r;
  while (stream->next(r))
    if (r.type == RecordType::GlobalOp && !(r.flags & kCollectiveWait) && r.comm == comm &&
        index-- == 0)
      return stream->where();
  return trace.header().path;
}

// One validation: the streams read side by side, what they leave unpaired checked at the end.
class Validator {
 public:
  Validator(const Trace& trace, std::size_t max_problems)
      : trace_(trace), header_(trace.header()), max_problems_(max_problems) {}

  Validation run() {
    open_streams();
    read_side_by_side();
    for (const auto& [stream_request, posted] : posted_) never_waited(posted);
    posted_.clear();
    check_channels();
    for (const auto& [comm_id, per_thread] : collectives_) check_collectives(comm_id, per_thread);
    return std::move(found_);
  }

 private:
  void report(const std::string& problem) {
    if (found_.problems.size() < max_problems_) found_.problems.push_back(problem);
  }
  void note(const std::string& note) {
    if (found_.notes.size() < max_problems_) found_.notes.push_back(note);
  }

  std::string where(const Unpaired& u) const { return streams_[u.stream].records->where(u.mark); }

  void open_streams() {
    for (int task = 0; task < header_.tasks(); ++task)
      for (int thread = 0; thread < header_.threads[static_cast<std::size_t>(task)]; ++thread) {
        Stream s{task, thread, nullptr, false};
        try {
          s.records = trace_.open(task, thread);
        } catch (const FormatError& e) {
          report(e.what());
          s.done = true;
        }
        streams_.push_back(std::move(s));
      }
  }

  void read_side_by_side() {
    Record r;
    for (bool read = true; read;) {
      read = false;
      for (std::size_t i = 0; i < streams_.size(); ++i) {
        Stream& s = streams_[i];
        try {
          for (int n = 0; !s.done && n < kTurn; ++n) {
            if (!s.records->next(r)) {
              s.done = true;
              break;
            }
            read = true;
            if (r.type == RecordType::Send || r.type == RecordType::Recv) message(i, r);
            else if (r.type == RecordType::Wait) waited(i, r.request);
            else if (r.type == RecordType::GlobalOp && !(r.flags & kCollectiveWait))
              collective(s, r);
          }
        } catch (const FormatError& e) {
          report(e.what());
          s.done = true;
        }
      }
    }
  }

  // A send or receive of stream i: counted on its channel (an immediate receive when it is
  // waited for), and paired to check sizes. (In a tasks trace which send a receive matches is
  // only known when replayed: its receives count when posted.)
  void message(std::size_t i, const Record& r) {
    const Stream& s = streams_[i];
    bool send = r.type == RecordType::Send;
    auto channel = channels_.try_emplace(channel_of(r, s.task, s.thread)).first;
    ChannelState& c = channel->second;
    Unpaired self{r.bytes, i, s.records->mark(), blocks(r), !r.immediate(), false};
    if (send || self.waited || header_.kind == "tasks") count(c, send, self);
    if (header_.kind == "tasks") return;
    (send ? c.unpaired_sends : c.unpaired_receives).push_back(self);
    if (!send && !self.waited) {
      Posted posted{&c, &c.unpaired_receives.back(), &channel->first};
      auto [it, added] = posted_.try_emplace({i, r.request}, posted);
      if (!added) {  // its id again, though nothing waited for it: it never takes a message
        never_waited(it->second);
        it->second = posted;
      }
    }
    settle(c);
  }

  void count(ChannelState& c, bool send, const Unpaired& u) {
    if ((send ? c.sends : c.receives)++ == 0) (send ? c.first_send : c.first_receive) = where(u);
  }

  // A wait of stream i: the immediate receive it waits for takes a message.
  void waited(std::size_t i, std::uint64_t request) {
    auto it = posted_.find({i, request});
    if (it == posted_.end()) return;
    it->second.receive->waited = true;
    count(*it->second.channel, false, *it->second.receive);
    settle(*it->second.channel);
    posted_.erase(it);
  }

  // An immediate receive nothing waited for (cancelled by MPI_Cancel, or left pending when the
  // run ended): a replay never gives it a message, and the others pair as if it were not there.
  // (Noted, unless its rank died: the trace stops before its wait, which the notes say.)
  void never_waited(const Posted& posted) {
    if (!died(posted.key->dst_task))
      note(where(*posted.receive) + ": an immediate receive " + describe(*posted.key) +
           " that nothing waits for: a replay gives it no message (the run cancelled it, or "
           "ended before waiting for it: see the rank's notes)");
    posted.receive->dropped = true;
    settle(*posted.channel);
  }

  // Pairs the first sends and receives of `c` (in a deque, the elements stay where they are as
  // it grows and shrinks at its ends: posted_ points to them).
  void settle(ChannelState& c) {
    auto& receives = c.unpaired_receives;
    while (!receives.empty()) {
      if (receives.front().dropped) {
        receives.pop_front();
      } else if (receives.front().waited && !c.unpaired_sends.empty()) {
        pair(c.unpaired_sends.front(), receives.front());
        c.unpaired_sends.pop_front();
        receives.pop_front();
      } else {
        break;
      }
    }
  }

  // A send larger than the receive it matches is an MPI error (MPI_ERR_TRUNCATE).
  void pair(const Unpaired& send, const Unpaired& receive) {
    if (send.bytes <= receive.bytes) return;
    report(where(receive) + ": receive of " + std::to_string(receive.bytes) +
           " bytes matches a message of " + std::to_string(send.bytes) + " bytes sent at " +
           where(send) + ": the message is truncated (an MPI error)");
  }

  void collective(const Stream& s, const Record& r) {
    const Communicator* comm = header_.communicator(r.comm);
    if (comm && std::find(comm->tasks.begin(), comm->tasks.end(), s.task) == comm->tasks.end())
      report(s.records->where() + ": rank " + std::to_string(s.task) +
             " calls a collective on communicator " + std::to_string(r.comm) +
             ", which it is not in");
    collectives_[r.comm][{s.task, s.thread}].push_back(r.op);
  }

  // A rank that died leaves messages and collectives without their partners: those are what
  // its trace lacks, not problems of the trace.
  bool died(int task) const {
    return std::binary_search(header_.truncated_tasks.begin(), header_.truncated_tasks.end(), task);
  }

  // A channel whose sends and receives do not pair up. In an MPI trace the ones left over are
  // known: messages nothing receives (and immediate receives nothing waits for, noted as read)
  // are what a run that ended left behind (a replay ends with them too); a receive its thread
  // waits for would wait forever. In a tasks trace which ones pair is only known when replayed.
  void check_channels() {
    for (const auto& [channel, c] : channels_) {
      if (c.sends == c.receives || died(channel.src_task) || died(channel.dst_task)) continue;
      std::string counts = ": " + std::to_string(c.sends) + " send(s) but " +
                           std::to_string(c.receives) + " receive(s) " + describe(channel);
      bool sends_left = !c.unpaired_sends.empty();
      const std::deque<Unpaired>& left = sends_left ? c.unpaired_sends : c.unpaired_receives;
      if (left.empty()) {
        report((c.sends > c.receives ? c.first_send : c.first_receive) + counts);
        continue;
      }
      auto blocking =
          std::find_if(left.begin(), left.end(), [](const Unpaired& u) { return u.blocks; });
      if (blocking != left.end()) {
        report(where(*blocking) + counts + ": its thread waits for a " +
               (sends_left ? "receive" : "message") + " that never comes");
        continue;
      }
      note(where(left.front()) + counts +
           ": nothing receives this message; a replay ends with it unmatched (nothing waited for "
           "it in the run either, or the trace left its other half out: see the rank's notes)");
    }
  }

  // Every member of a communicator calls the same collectives in the same order.
  void check_collectives(int comm_id,
                         const std::map<std::pair<int, int>, std::vector<int>>& per_thread) {
    const Communicator* comm = header_.communicator(comm_id);
    if (!comm) return;
    // A task's collectives, its threads one after the other. In a tasks trace they are spread
    // over its task instances, whose order is only known when replayed: compare them as
    // multisets.
    std::map<int, std::vector<int>> per_task;
    for (const auto& [stream, ops] : per_thread) {
      std::vector<int>& all = per_task[stream.first];
      all.insert(all.end(), ops.begin(), ops.end());
    }
    if (header_.kind == "tasks")
      for (auto& [task, ops] : per_task) std::sort(ops.begin(), ops.end());
    static const std::vector<int> none;
    const std::vector<int>* reference = nullptr;
    int reference_task = -1;
    for (int task : comm->tasks) {
      auto it = per_task.find(task);
      const std::vector<int>& ops = it == per_task.end() ? none : it->second;
      if (reference == nullptr) {
        reference = &ops;
        reference_task = task;
      } else if (ops != *reference) {
        mismatch(comm_id, task, ops, reference_task, *reference);
      }
    }
  }

  void mismatch(int comm_id, int task, const std::vector<int>& ops, int reference_task,
                const std::vector<int>& reference) {
    std::size_t i = 0;
    while (i < ops.size() && i < reference.size() && ops[i] == reference[i]) ++i;
    bool shorter_died = ops.size() < reference.size() ? died(task) : died(reference_task);
    if ((i == ops.size() || i == reference.size()) && shorter_died) return;
    // Blame the first collective that has no partner: this rank's, unless it has run out.
    bool this_rank = i < ops.size();
    std::string at = where_collective(trace_, this_rank ? task : reference_task, comm_id, i);
    std::string detail =
        i < ops.size() && i < reference.size()
            ? "collective #" + std::to_string(i) + " is " + std::string(global_op_name(ops[i])) +
                  " but " + std::string(global_op_name(reference[i])) + " on rank " +
                  std::to_string(reference_task)
            : std::to_string(ops.size()) + " collective(s) but rank " +
                  std::to_string(reference_task) + " calls " + std::to_string(reference.size());
    report(at + ": on communicator " + std::to_string(comm_id) + ", rank " + std::to_string(task) +
           " calls " + detail);
  }

  const Trace& trace_;
  const TraceHeader& header_;
  std::size_t max_problems_;
  Validation found_;
  std::vector<Stream> streams_;
  std::map<Channel, ChannelState> channels_;
  // The immediate receives not yet waited for, by stream and request.
  std::map<std::pair<std::size_t, std::uint64_t>, Posted> posted_;
  // comm -> (task, thread) -> the operations of the collectives it calls, in order.
  std::map<int, std::map<std::pair<int, int>, std::vector<int>>> collectives_;
};

}  // namespace

Validation validate(const Trace& trace, std::size_t max_problems) {
  return Validator(trace, max_problems).run();
}

}  // namespace tareador::trace
