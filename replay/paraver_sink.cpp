// The simulated timeline as a Paraver trace: one row per thread, nodes with their cores, MPI calls
// as Extrae events, messages as communications.
#include <cmath>
#include <map>

#include "replay.h"

namespace tareador::replay {

namespace {

using trace::Record;
using trace::RecordType;

std::uint64_t nanoseconds(double seconds) {
  return static_cast<std::uint64_t>(std::llround(seconds * 1e9));
}

std::string_view send_call(const Record& r) {
  bool rendezvous = r.flags & trace::kRendezvous, fixed = r.flags & trace::kProtocolFixed;
  if (r.immediate()) return fixed ? (rendezvous ? "MPI_Issend" : "MPI_Ibsend") : "MPI_Isend";
  return fixed ? (rendezvous ? "MPI_Ssend" : "MPI_Bsend") : "MPI_Send";
}

class ParaverSink final : public TimelineSink {
 public:
  ParaverSink(const std::string& path, const trace::TraceHeader& header, const Machine& machine)
      : header_(header) {
    std::vector<int> task_node = machine.map_tasks(header.tasks());
    // Only the nodes that run tasks appear, renumbered in order.
    std::map<int, int> used;
    for (int node : task_node) used.emplace(node, 0);
    trace::ParaverLayout layout;
    layout.application = header.name;
    for (auto& [node, index] : used) {
      index = static_cast<int>(layout.cpus_per_node.size());
      layout.cpus_per_node.push_back(machine.nodes[static_cast<std::size_t>(node)].cores);
      layout.node_names.push_back("node " + std::to_string(node));
    }
    std::vector<int> first_cpu;
    int cpus = 0;
    for (int c : layout.cpus_per_node) {
      first_cpu.push_back(cpus);
      cpus += c;
    }
    // Threads take the cores of their node in turn.
    std::vector<int> next_core(layout.cpus_per_node.size(), 0);
    for (int task = 0; task < header.tasks(); ++task) {
      int node = used[task_node[static_cast<std::size_t>(task)]];
      layout.task_node.push_back(node);
      layout.threads.push_back(header.threads[static_cast<std::size_t>(task)]);
      cpu_.emplace_back();
      for (int thread = 0; thread < header.threads[static_cast<std::size_t>(task)]; ++thread) {
        int core = next_core[static_cast<std::size_t>(node)]++ %
                   layout.cpus_per_node[static_cast<std::size_t>(node)];
        cpu_.back().push_back(first_cpu[static_cast<std::size_t>(node)] + core);
      }
    }
    layout.communicators = header.communicators;
    layout.states = trace::paraver_states();
    layout.event_types = trace::paraver_mpi_event_types();
    writer_ = std::make_unique<trace::ParaverWriter>(path, std::move(layout));
  }

  void state(int task, int thread, double begin, double end, State state) override {
    writer_->state(cpu(task, thread), task, thread, nanoseconds(begin), nanoseconds(end),
                   static_cast<int>(state));
  }

  void event(int task, int thread, double time, std::uint64_t type,
             std::uint64_t value) override {
    writer_->event(cpu(task, thread), task, thread, nanoseconds(time), type, value);
  }

  void message(const Message& m) override {
    writer_->communication(trace::ParaverCommunication{
        cpu(m.src_task, m.src_thread), m.src_task, m.src_thread, nanoseconds(m.logical_send),
        nanoseconds(m.physical_send), cpu(m.dst_task, m.dst_thread), m.dst_task, m.dst_thread,
        nanoseconds(m.logical_recv), nanoseconds(m.physical_recv), m.bytes, m.tag});
  }

  void call(int task, int thread, double begin, double end, const Record& record) override {
    auto [type, value] = trace::paraver_mpi_event(call_name(record));
    if (type == 0) return;
    event(task, thread, begin, type, value);
    event(task, thread, end, type, 0);
  }

  void safe_until(double time) override { writer_->flush_before(nanoseconds(time)); }

  void finish(double end_time) override { writer_->finish(nanoseconds(end_time)); }

 private:
  int cpu(int task, int thread) const {
    return cpu_[static_cast<std::size_t>(task)][static_cast<std::size_t>(thread)];
  }

  std::string_view call_name(const Record& r) const {
    switch (r.type) {
      case RecordType::Send: return send_call(r);
      case RecordType::Recv: return r.immediate() ? "MPI_Irecv" : "MPI_Recv";
      case RecordType::Wait: return "MPI_Wait";
      case RecordType::GlobalOp:
        return (r.flags & trace::kCollectiveWait) ? "MPI_Wait" : trace::global_op_name(r.op);
      case RecordType::Call:
        return r.event_value < header_.call_names.size() ? header_.call_names[r.event_value]
                                                         : std::string_view();
      default: return {};
    }
  }

  const trace::TraceHeader& header_;
  std::vector<std::vector<int>> cpu_;  // global CPU of each thread
  std::unique_ptr<trace::ParaverWriter> writer_;
};

}  // namespace

std::unique_ptr<TimelineSink> make_paraver_sink(const std::string& prv_path,
                                                const trace::TraceHeader& header,
                                                const Machine& machine) {
  return std::make_unique<ParaverSink>(prv_path, header, machine);
}

}  // namespace tareador::replay
