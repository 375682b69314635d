// The validator: reads every record and checks what a replay would trip over.
#include <algorithm>
#include <map>
#include <tuple>

#include "tracefmt.h"

namespace tareador::trace {

namespace {

struct ChannelCount {
  std::uint64_t sends = 0, receives = 0;
  std::string first_send, first_receive;  // file:line of the first of each
};

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

}  // namespace

std::vector<std::string> validate(const Trace& trace, std::size_t max_problems) {
  const TraceHeader& header = trace.header();
  std::vector<std::string> problems;
  auto report = [&](const std::string& problem) {
    if (problems.size() < max_problems) problems.push_back(problem);
  };
  // (source, destination, tag, comm) -> sends and receives, to find unmatched messages.
  std::map<std::tuple<int, int, int, int>, ChannelCount> channels;
  // comm -> per task: the operations of the collectives it calls, in order.
  std::map<int, std::map<int, std::vector<int>>> collectives;

  Record r;
  for (int task = 0; task < header.tasks(); ++task) {
    for (int thread = 0; thread < header.threads[static_cast<std::size_t>(task)]; ++thread) {
      std::unique_ptr<RecordStream> stream;
      try {
        stream = trace.open(task, thread);
        while (stream->next(r)) {
          if (r.type == RecordType::Send || r.type == RecordType::Recv) {
            bool send = r.type == RecordType::Send;
            auto key = send ? std::make_tuple(task, r.peer, r.tag, r.comm)
                            : std::make_tuple(r.peer, task, r.tag, r.comm);
            ChannelCount& c = channels[key];
            std::uint64_t& count = send ? c.sends : c.receives;
            if (count++ == 0) (send ? c.first_send : c.first_receive) = stream->where();
          } else if (r.type == RecordType::GlobalOp && !(r.flags & kCollectiveWait)) {
            const Communicator* comm = header.communicator(r.comm);
            if (comm && std::find(comm->tasks.begin(), comm->tasks.end(), task) == comm->tasks.end())
              report(stream->where() + ": rank " + std::to_string(task) +
                     " calls a collective on communicator " + std::to_string(r.comm) +
                     ", which it is not in");
            collectives[r.comm][task].push_back(r.op);
          }
        }
      } catch (const FormatError& e) {
        report(e.what());
      }
    }
  }

  for (const auto& [key, c] : channels) {
    if (c.sends == c.receives) continue;
    auto [src, dst, tag, comm] = key;
    std::string channel = "from rank " + std::to_string(src) + " to rank " + std::to_string(dst) +
                          " (tag " + std::to_string(tag) + ", comm " + std::to_string(comm) + ")";
    const std::string& where = c.sends > c.receives ? c.first_send : c.first_receive;
    report(where + ": " + std::to_string(c.sends) + " send(s) but " + std::to_string(c.receives) +
           " receive(s) " + channel);
  }
  // In a tasks trace the collectives of a rank are spread over its task instances, whose
  // order is only known when replayed: compare them as multisets.
  if (header.kind == "tasks")
    for (auto& [comm_id, per_task] : collectives)
      for (auto& [task, ops] : per_task) std::sort(ops.begin(), ops.end());
  for (const auto& [comm_id, per_task] : collectives) {
    const Communicator* comm = header.communicator(comm_id);
    if (!comm) continue;
    const std::vector<int>* reference = nullptr;
    int reference_task = -1;
    for (int task : comm->tasks) {
      auto it = per_task.find(task);
      static const std::vector<int> none;
      const std::vector<int>& ops = it == per_task.end() ? none : it->second;
      if (reference == nullptr) {
        reference = &ops;
        reference_task = task;
        continue;
      }
      if (ops == *reference) continue;
      std::size_t i = 0;
      while (i < ops.size() && i < reference->size() && ops[i] == (*reference)[i]) ++i;
      // Blame the first collective that has no partner: this rank's, unless it has run out.
      bool this_rank = i < ops.size();
      std::string where = where_collective(trace, this_rank ? task : reference_task, comm_id, i);
      std::string detail =
          i < ops.size() && i < reference->size()
              ? "collective #" + std::to_string(i) + " is " + std::string(global_op_name(ops[i])) +
                    " but " + std::string(global_op_name((*reference)[i])) + " on rank " +
                    std::to_string(reference_task)
              : std::to_string(ops.size()) + " collective(s) but rank " +
                    std::to_string(reference_task) + " calls " + std::to_string(reference->size());
      report(where + ": on communicator " + std::to_string(comm_id) + ", rank " +
             std::to_string(task) + " calls " + detail);
    }
  }
  return problems;
}

}  // namespace tareador::trace
