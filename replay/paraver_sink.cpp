// The simulated timeline as a Paraver trace: one row per thread, nodes with their cores, MPI calls
// as Extrae events, messages as communications.
#include <algorithm>
#include <cmath>
#include <map>

#include "tareador/replay.h"

namespace tareador::replay {

namespace {

using trace::Record;
using trace::RecordType;

// llround, without its library call for the times of a replay (they are on the hot path).
std::uint64_t nanoseconds(double seconds) {
  double ns = seconds * 1e9;
  if (!(ns >= 0 && ns < 0x1p63)) return static_cast<std::uint64_t>(std::llround(ns));
  // Truncated; the difference below is exact. (Signed conversions: one instruction each, where
  // unsigned ones test the sign first.)
  auto whole = static_cast<std::int64_t>(ns);
  return static_cast<std::uint64_t>(whole + (ns - static_cast<double>(whole) >= 0.5));
}

class ParaverSink final : public TimelineSink {
 public:
  ParaverSink(const std::string& path, const trace::TraceHeader& header, const Machine& machine)
      : header_(header) {
    std::vector<int> task_node = machine.map_tasks(header.tasks());
    // Only the nodes that run tasks appear, renumbered in order.
    std::map<int, int> used;
    std::map<int, std::int64_t> threads_on;  // per node
    for (int task = 0; task < header.tasks(); ++task) {
      used.emplace(task_node[static_cast<std::size_t>(task)], 0);
      threads_on[task_node[static_cast<std::size_t>(task)]] +=
          header.threads[static_cast<std::size_t>(task)];
    }
    trace::ParaverLayout layout;
    layout.application = header.name;
    for (auto& [node, index] : used) {
      index = static_cast<int>(layout.cpus_per_node.size());
      // Its cores; but of a node of more cores than it has threads (and than any real node has
      // cores), only as many as its threads use: a Paraver trace lists its CPUs one by one.
      std::int64_t cores = machine.nodes[static_cast<std::size_t>(node)].cores;
      layout.cpus_per_node.push_back(
          static_cast<int>(std::min(cores, std::max<std::int64_t>(threads_on[node], 256))));
      layout.node_names.push_back("node " + std::to_string(node));
    }
    std::vector<int> first_cpu;
    int cpus = 0;
    for (int c : layout.cpus_per_node) {
      first_cpu.push_back(cpus);
      cpus += c;
    }
    // Tasks traces: a row per core of the rank's node ("rank R core C"), which shows the
    // instances that run on it. The replay takes the lowest free core, so no more cores are
    // used than instances run on the node (with unbounded cores, far fewer than there are);
    // finish() keeps the rows that were used.
    if (header.kind == "tasks") {
      std::map<int, int> instances;  // per node
      for (int task = 0; task < header.tasks(); ++task)
        instances[task_node[static_cast<std::size_t>(task)]] +=
            header.threads[static_cast<std::size_t>(task)];
      for (int task = 0; task < header.tasks(); ++task) {
        int node = used[task_node[static_cast<std::size_t>(task)]];
        int cores =
            std::min({layout.cpus_per_node[static_cast<std::size_t>(node)],
                      std::max(1, instances[task_node[static_cast<std::size_t>(task)]]), kMaxRows});
        rows_used_.push_back(1);
        layout.task_node.push_back(node);
        layout.threads.push_back(cores);
        layout.thread_names.emplace_back();
        cpu_.emplace_back();
        for (int core = 0; core < cores; ++core) {
          cpu_.back().push_back(first_cpu[static_cast<std::size_t>(node)] + core);
          layout.thread_names.back().push_back("rank " + std::to_string(task) + " core " +
                                               std::to_string(core));
        }
      }
    }
    // Threads take the cores of their node in turn.
    if (header.tasks() > (1 << 20))
      throw trace::FormatError(header.path, 0,
                               std::to_string(header.tasks()) +
                                   " tasks; a Paraver timeline holds at most 2^20 (replay it "
                                   "without one: --no-save, no --prv)");
    for (int task = 0; task < header.tasks() && header.kind != "tasks"; ++task)
      if (header.threads[static_cast<std::size_t>(task)] > kMaxRows)
        throw trace::FormatError(
            header.path, 0,
            "task " + std::to_string(task) + " has " +
                std::to_string(header.threads[static_cast<std::size_t>(task)]) +
                " threads; a Paraver timeline holds at most 4096 per task "
                "(replay it without one: --no-save, no --prv)");
    std::vector<int> next_core(layout.cpus_per_node.size(), 0);
    for (int task = 0; task < header.tasks() && header.kind != "tasks"; ++task) {
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
    if (header.kind == "tasks") {
      TaskTypeTable types = task_type_table(header);
      trace::ParaverEventType type{kTaskTypeEvent, "Task type", {{0, "End"}}};
      for (std::size_t k = 0; k < types.names.size(); ++k)
        type.values.emplace_back(k + 1, types.names[k]);
      layout.event_types.push_back(std::move(type));
      layout.event_types.push_back({kTaskInstanceEvent, "Task instance", {}});
      layout.event_types.push_back({kCoresBusyEvent, "Cores busy (instances of the rank)", {}});
    }
    writer_ = std::make_unique<trace::ParaverWriter>(path, std::move(layout));
  }

  // The row of `thread` of `task`: in a tasks trace a core, folded past the rows Paraver takes.
  int row(int task, int thread) {
    if (rows_used_.empty()) return thread;
    thread %= kMaxRows;
    int& used = rows_used_[static_cast<std::size_t>(task)];
    used = std::max(used, thread + 1);
    return thread;
  }

  void state(int task, int thread, double begin, double end, State state) override {
    thread = row(task, thread);
    writer_->state(cpu(task, thread), task, thread, nanoseconds(begin), nanoseconds(end),
                   static_cast<int>(state));
  }

  void event(int task, int thread, double time, std::uint64_t type, std::uint64_t value) override {
    thread = row(task, thread);
    writer_->event(cpu(task, thread), task, thread, nanoseconds(time), type, value);
  }

  void message(const Message& m) override {
    int src = row(m.src_task, m.src_thread), dst = row(m.dst_task, m.dst_thread);
    writer_->communication(trace::ParaverCommunication{
        cpu(m.src_task, src), m.src_task, src, nanoseconds(m.logical_send),
        nanoseconds(m.physical_send), cpu(m.dst_task, dst), m.dst_task, dst,
        nanoseconds(m.logical_recv), nanoseconds(m.physical_recv), m.bytes, m.tag});
  }

  void call(int task, int thread, double begin, double end, const Record& record) override {
    auto [type, value] = mpi_event(mpi_call_name(record, header_));
    if (type == 0) return;
    thread = row(task, thread);
    writer_->call(cpu(task, thread), task, thread, nanoseconds(begin), nanoseconds(end), type,
                  value);
  }

  // A run of an instance on a core is written when it is known not to be empty: an instance
  // that only spawns and then waits holds its core for no time, and shows nothing.
  void task_start(int task, int core, double time, int instance, int type) override {
    TaskRun& run = run_of(task, core);
    flush_run(task, core, run);
    run = TaskRun{true, time, instance, type};
  }

  void task_stop(int task, int core, double time) override {
    TaskRun& run = run_of(task, core);
    if (run.pending && nanoseconds(run.time) == nanoseconds(time)) {
      run.pending = false;  // an empty run
      return;
    }
    flush_run(task, core, run);
    event(task, core, time, kTaskTypeEvent, 0);
    event(task, core, time, kTaskInstanceEvent, 0);
  }

  // The last count of an instant wins.
  void cores_busy(int task, double time, int cores) override {
    auto index = static_cast<std::size_t>(task);
    if (busy_.size() <= index) busy_.resize(index + 1);
    Busy& b = busy_[index];
    if (b.pending && nanoseconds(b.time) != nanoseconds(time)) flush_busy(task, b);
    b = Busy{true, time, cores, b.written};
  }

  // A dependency as a communication within the rank: from the source's core when it ended to
  // the dependent's core (logical receive: the dependency is satisfied; physical: it runs
  // again). Size: the bytes causing it; tag: its kinds (1 raw, 2 war, 4 waw).
  void dependency(const TaskDependencyArc& a) override {
    int src = row(a.task, a.src_core), dst = row(a.task, a.dst_core);
    writer_->communication(trace::ParaverCommunication{
        cpu(a.task, src), a.task, src, nanoseconds(a.src_end), nanoseconds(a.src_end),
        cpu(a.task, dst), a.task, dst, nanoseconds(a.satisfied), nanoseconds(a.resumed), a.bytes,
        a.kinds});
  }

  void safe_until(double time) override { writer_->flush_before(nanoseconds(time)); }

  void finish(double end_time) override {
    for (std::size_t task = 0; task < runs_.size(); ++task)
      for (std::size_t core = 0; core < runs_[task].size(); ++core)
        flush_run(static_cast<int>(task), static_cast<int>(core), runs_[task][core]);
    for (std::size_t task = 0; task < busy_.size(); ++task)
      if (busy_[task].pending) flush_busy(static_cast<int>(task), busy_[task]);
    for (std::size_t task = 0; task < rows_used_.size(); ++task)
      writer_->shrink_threads(static_cast<int>(task), rows_used_[task]);
    writer_->finish(nanoseconds(end_time));
  }

 private:
  // The Extrae event of a call's name, looked up once per name: the names are the program's
  // string literals and the header's, so their addresses tell them apart.
  std::pair<std::uint64_t, std::uint64_t> mpi_event(std::string_view name) {
    for (const auto& [known, event] : mpi_events_)
      if (known.data() == name.data() && known.size() == name.size()) return event;
    mpi_events_.emplace_back(name, trace::paraver_mpi_event(name));
    return mpi_events_.back().second;
  }

  int cpu(int task, int thread) const {
    return cpu_[static_cast<std::size_t>(task)][static_cast<std::size_t>(thread)];
  }

  struct TaskRun {
    bool pending = false;
    double time = 0;
    int instance = 0, type = 0;
  };
  struct Busy {
    bool pending = false;
    double time = 0;
    int cores = 0;
    int written = -1;
  };

  TaskRun& run_of(int task, int core) {
    auto t = static_cast<std::size_t>(task), c = static_cast<std::size_t>(core);
    if (runs_.size() <= t) runs_.resize(t + 1);
    if (runs_[t].size() <= c) runs_[t].resize(c + 1);
    return runs_[t][c];
  }

  void flush_run(int task, int core, TaskRun& run) {
    if (!run.pending) return;
    run.pending = false;
    event(task, core, run.time, kTaskTypeEvent, static_cast<std::uint64_t>(run.type) + 1);
    event(task, core, run.time, kTaskInstanceEvent, static_cast<std::uint64_t>(run.instance));
  }

  void flush_busy(int task, Busy& b) {
    b.pending = false;
    if (b.cores == b.written) return;
    b.written = b.cores;
    event(task, 0, b.time, kCoresBusyEvent, static_cast<std::uint64_t>(b.cores));
  }

  const trace::TraceHeader& header_;
  std::vector<std::vector<int>> cpu_;       // global CPU of each thread
  static constexpr int kMaxRows = 4096;     // threads per task a Paraver trace may have
  std::vector<int> rows_used_;              // tasks traces: rows (cores) used, per task
  std::vector<std::vector<TaskRun>> runs_;  // tasks traces: per task and core
  std::vector<Busy> busy_;                  // tasks traces: per task
  std::vector<std::pair<std::string_view, std::pair<std::uint64_t, std::uint64_t>>> mpi_events_;
  std::unique_ptr<trace::ParaverWriter> writer_;
};

}  // namespace

std::string_view mpi_call_name(const Record& r, const trace::TraceHeader& header) {
  bool rendezvous = r.flags & trace::kRendezvous, fixed = r.flags & trace::kProtocolFixed;
  switch (r.type) {
    case RecordType::Send:
      if (r.immediate()) return fixed ? (rendezvous ? "MPI_Issend" : "MPI_Ibsend") : "MPI_Isend";
      return fixed ? (rendezvous ? "MPI_Ssend" : "MPI_Bsend") : "MPI_Send";
    case RecordType::Recv:
      return r.immediate() ? "MPI_Irecv" : "MPI_Recv";
    case RecordType::Wait:
      return "MPI_Wait";
    case RecordType::GlobalOp:
      return (r.flags & trace::kCollectiveWait) ? "MPI_Wait" : trace::global_op_name(r.op);
    case RecordType::Call:
      return r.event_value < header.call_names.size() ? header.call_names[r.event_value]
                                                      : std::string_view();
    default:
      return {};
  }
}

std::unique_ptr<TimelineSink> make_paraver_sink(const std::string& prv_path,
                                                const trace::TraceHeader& header,
                                                const Machine& machine) {
  return std::make_unique<ParaverSink>(prv_path, header, machine);
}

}  // namespace tareador::replay
