// message_paths.cpp — the critical paths of a tasks trace across its ranks: the ranks' step
// graphs joined by their messages, matched per channel in the order the traced run issued
// them (docs/replay-tasks.md, "Critical path").
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "tracefmt/step_graph.h"

namespace tareador::trace {

namespace {

constexpr std::uint32_t kNone = MessagePoint::kNone;

// The sends and the receives of a channel, in the order their ranks issued them: message
// points, and receive slots (an immediate receive's point is its wait's).
struct ChannelQueues {
  std::vector<std::uint32_t> sends, receives;
};

// Finds the message points of every instance holding MPI records and pairs sends with
// receives. The traced run was sequential within a rank: an instance ran whole where its
// parent spawned it, so a walk of the records from the main instance, into each child at its
// spawn, meets a rank's messages in the order the rank issued them.
class MessageJoin {
 public:
  explicit MessageJoin(const Trace& trace) : trace_(trace), header_(trace.header()) {
    rank_first_.push_back(0);
    for (const TaskSet& set : header_.task_sets)
      rank_first_.push_back(rank_first_.back() + static_cast<std::uint32_t>(set.instances.size()));
  }

  // The message points, sorted by instance and linked from each send to its receive; empty
  // with `why` set when the messages cannot be paired.
  std::vector<MessagePoint> join() {
    for (int rank = 0; rank < header_.tasks() && why.empty(); ++rank) walk(rank);
    if (why.empty()) pair();
    if (!why.empty()) return {};
    return sorted();
  }

  std::string why;  // what kept the messages apart

 private:
  // An instance being walked: where its records are read, and the point it has reached.
  struct Frame {
    std::uint32_t instance;  // the graph's numbering
    std::optional<RecordCursor> cursor;
    std::unique_ptr<RecordStream> stream;
    std::uint32_t segment = 0;
    double offset = 0;
  };

  void walk(int rank) {
    const TaskSet& set = header_.task_sets[static_cast<std::size_t>(rank)];
    // Per instance: it or an instance it created, directly or not, holds MPI records.
    std::vector<bool> mpi_below(set.instances.size(), false);
    for (std::size_t i = set.instances.size(); i-- > 0;) {
      const TaskInstance& in = set.instances[i];
      if (in.mpi) mpi_below[i] = true;
      if (mpi_below[i] && in.parent > 0) mpi_below[static_cast<std::size_t>(in.parent - 1)] = true;
    }
    if (set.instances.empty() || !mpi_below[0]) return;
    requests_.clear();
    std::vector<Frame> stack;
    enter(stack, rank, 1);
    Record r;
    while (!stack.empty() && why.empty()) {
      Frame& f = stack.back();
      bool more = f.cursor ? trace_.next(rank, *f.cursor, r) : f.stream->next(r);
      if (!more) {
        stack.pop_back();
        continue;
      }
      switch (r.type) {
        case RecordType::Burst:
          f.offset += r.amount;
          break;
        case RecordType::After:
          ++f.segment;
          f.offset = 0;
          break;
        case RecordType::Spawn:
          ++f.segment;
          f.offset = 0;
          if (r.peer >= 1 && static_cast<std::size_t>(r.peer) <= set.instances.size() &&
              mpi_below[static_cast<std::size_t>(r.peer - 1)])
            enter(stack, rank, r.peer);  // (f is stale from here)
          break;
        case RecordType::Send:
        case RecordType::Recv:
          message(f, rank, r);
          break;
        case RecordType::Wait:
          wait(f, r);
          break;
        default:
          break;  // collectives are left out; events and calls are no points
      }
    }
  }

  void enter(std::vector<Frame>& stack, int rank, int id) {
    Frame f;
    f.instance = rank_first_[static_cast<std::size_t>(rank)] + static_cast<std::uint32_t>(id - 1);
    f.cursor = trace_.cursor(rank, id - 1);
    if (!f.cursor) f.stream = trace_.open(rank, id - 1);
    stack.push_back(std::move(f));
  }

  std::uint32_t add_point(const Frame& f) {
    points_.push_back(MessagePoint{f.instance, f.segment, f.offset, kNone});
    return static_cast<std::uint32_t>(points_.size() - 1);
  }

  void message(const Frame& f, int rank, const Record& r) {
    bool send = r.type == RecordType::Send;
    if (r.peer < 0 || r.peer >= header_.tasks()) {
      why = "rank " + std::to_string(rank) + (send ? " sends to" : " receives from") + " rank " +
            std::to_string(r.peer);
      return;
    }
    ChannelQueues& queues = channels_[channel_of(r, rank, -1)];
    if (send) {
      queues.sends.push_back(add_point(f));
      return;
    }
    auto slot = static_cast<std::uint32_t>(receive_points_.size());
    queues.receives.push_back(slot);
    receive_points_.push_back(r.immediate() ? kNone : add_point(f));
    if (r.immediate()) requests_[r.request] = slot;
  }

  // The wait of an immediate receive is where its message arrives.
  void wait(const Frame& f, const Record& r) {
    auto it = requests_.find(r.request);
    if (it == requests_.end()) return;  // a send's, a collective's
    receive_points_[it->second] = add_point(f);
    requests_.erase(it);
  }

  // The n-th send of a channel goes to its n-th receive (MPI's order on a channel).
  void pair() {
    const Channel* unmatched = nullptr;
    for (const auto& [channel, queues] : channels_)
      if (queues.sends.size() != queues.receives.size() && (!unmatched || channel < *unmatched))
        unmatched = &channel;
    if (unmatched) {
      const ChannelQueues& q = channels_[*unmatched];
      why = "rank " + std::to_string(unmatched->src_task) + " sends " +
            std::to_string(q.sends.size()) + " message(s) to rank " +
            std::to_string(unmatched->dst_task) + " with tag " + std::to_string(unmatched->tag) +
            " on communicator " + std::to_string(unmatched->comm) + ", which receives " +
            std::to_string(q.receives.size());
      return;
    }
    for (const auto& [channel, queues] : channels_)
      for (std::size_t k = 0; k < queues.sends.size(); ++k)
        points_[queues.sends[k]].to = receive_points_[queues.receives[k]];
  }

  // The points by instance (a counting sort: each instance's were found in record order).
  std::vector<MessagePoint> sorted() const {
    std::vector<std::uint32_t> first(rank_first_.back() + 1, 0);
    for (const MessagePoint& p : points_) ++first[p.instance + 1];
    for (std::size_t i = 1; i < first.size(); ++i) first[i] += first[i - 1];
    std::vector<std::uint32_t> place(points_.size());
    for (std::size_t k = 0; k < points_.size(); ++k) place[k] = first[points_[k].instance]++;
    std::vector<MessagePoint> out(points_.size());
    for (std::size_t k = 0; k < points_.size(); ++k) {
      MessagePoint p = points_[k];
      if (p.to != kNone) p.to = place[p.to];
      out[place[k]] = p;
    }
    return out;
  }

  const Trace& trace_;
  const TraceHeader& header_;
  std::vector<std::uint32_t> rank_first_;      // per rank: its first instance in the graph
  std::vector<MessagePoint> points_;           // in the order found
  std::vector<std::uint32_t> receive_points_;  // per receive slot: its point (kNone: not yet)
  std::unordered_map<Channel, ChannelQueues, ChannelHash> channels_;
  std::unordered_map<std::uint64_t, std::uint32_t> requests_;  // of the rank walked: its irecvs
};

}  // namespace

CriticalPaths task_critical_paths(const Trace& trace,
                                  const std::vector<double>& seconds_per_instruction,
                                  const std::vector<std::vector<double>>& type_speedups) {
  const TraceHeader& header = trace.header();
  std::vector<std::vector<double>> seconds;
  for (std::size_t r = 0; r < header.task_sets.size(); ++r)
    seconds.push_back(
        task_type_seconds(header.task_sets[r], seconds_per_instruction.at(r),
                          r < type_speedups.size() ? type_speedups[r] : std::vector<double>()));
  CriticalPaths out;
  MessageJoin join(trace);
  std::vector<MessagePoint> messages = join.join();
  if (!messages.empty()) {
    std::vector<const TaskSet*> sets;
    for (const TaskSet& set : header.task_sets) sets.push_back(&set);
    StepGraph g(std::move(sets), std::move(messages));
    if (g.acyclic()) {
      out.paths = g.longest_from_starts(seconds);
      return out;
    }
    join.why =
        "the messages, paired in the order each rank issued them, make a cycle with the "
        "spawn and after edges";
  }
  if (!join.why.empty())
    out.note = "critical paths without messages (each rank's own): " + join.why;
  for (std::size_t r = 0; r < header.task_sets.size(); ++r)
    out.paths.push_back(rank_critical_paths(header.task_sets[r], std::move(seconds[r])));
  return out;
}

}  // namespace tareador::trace
