// The simulated timeline in the Trace Event format (Chrome's about:tracing, Perfetto UI): a
// process per rank; per thread (per core in a tasks replay) a track of its states and one of its
// MPI calls (of the task instances it runs, in a tasks replay); messages and task dependencies
// as flow arrows between the states they leave and reach; cores busy as a counter.
//
// Timestamps are microseconds with nanosecond decimals. Events are written as they come: slices
// of one track in time order, the rest in any order (viewers sort them).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "tareador/replay.h"

namespace tareador::replay {

namespace {

// Track ids within a rank's process: 2 * thread for its states, 2 * thread + 1 for its calls or
// task instances.
int state_track(int thread) { return 2 * thread; }
int detail_track(int thread) { return 2 * thread + 1; }

class ChromeSink final : public TimelineSink {
 public:
  ChromeSink(const std::string& path, const trace::TraceHeader& header)
      : path_(path), header_(header), tasks_(header.kind == "tasks") {
    file_.reset(std::fopen(path.c_str(), "w"));
    if (!file_) throw trace::FormatError(path, 0, "cannot write the Chrome trace");
    std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", file_.get());
    if (tasks_) types_ = task_type_table(header).names;
    for (int task = 0; task < header.tasks(); ++task) {
      metadata("process_name", task, -1, name_arg("rank " + std::to_string(task)));
      metadata("process_sort_index", task, -1, sort_arg(task));
      if (!tasks_) name_threads(task, header.threads[static_cast<std::size_t>(task)]);
    }
  }

  void state(int task, int thread, double begin, double end, State state) override {
    if (tasks_) name_threads(task, thread + 1);
    write(fmt::format(
        R"({{"ph":"X","cat":"state","name":"{}","pid":{},"tid":{},"ts":{},"dur":{}}})",
        state_name(state), task, state_track(thread), micro(begin), micro(end - begin)));
  }

  void event(int task, int thread, double time, std::uint64_t type, std::uint64_t value) override {
    write(fmt::format(
        R"({{"ph":"i","s":"t","cat":"event","name":"event {}","pid":{},"tid":{},"ts":{},"args":{{"value":{}}}}})",
        type, task, state_track(thread), micro(time), value));
  }

  void message(const Message& m) override {
    std::uint64_t id = ++flows_;
    std::string args =
        fmt::format(R"("args":{{"bytes":{},"tag":{},"comm":{}}})", m.bytes, m.tag, m.comm);
    write(fmt::format(
        R"({{"ph":"s","cat":"message","name":"message","id":{},"pid":{},"tid":{},"ts":{},{}}})", id,
        m.src_task, state_track(std::max(m.src_thread, 0)), micro(m.physical_send), args));
    write(fmt::format(
        R"({{"ph":"f","bp":"e","cat":"message","name":"message","id":{},"pid":{},"tid":{},"ts":{},{}}})",
        id, m.dst_task, state_track(std::max(m.dst_thread, 0)), micro(m.physical_recv), args));
  }

  void call(int task, int thread, double begin, double end, const trace::Record& record) override {
    std::string_view name = mpi_call_name(record, header_);
    if (name.empty()) return;
    write(fmt::format(R"({{"ph":"X","cat":"mpi","name":"{}","pid":{},"tid":{},"ts":{},"dur":{}}})",
                      escaped(name), task, detail_track(thread), micro(begin), micro(end - begin)));
  }

  void task_start(int task, int core, double time, int instance, int type) override {
    name_threads(task, core + 1);
    running_[{task, core}] = {time, instance, type};
  }

  void task_stop(int task, int core, double time) override {
    auto it = running_.find({task, core});
    if (it == running_.end()) return;
    const Running& r = it->second;
    write(fmt::format(
        R"({{"ph":"X","cat":"task","name":"{}","pid":{},"tid":{},"ts":{},"dur":{},"args":{{"instance":{}}}}})",
        escaped(types_[static_cast<std::size_t>(r.type)]), task, detail_track(core), micro(r.begin),
        micro(time - r.begin), r.instance));
    running_.erase(it);
  }

  void cores_busy(int task, double time, int cores) override {
    write(fmt::format(R"({{"ph":"C","name":"cores busy","pid":{},"ts":{},"args":{{"cores":{}}}}})",
                      task, micro(time), cores));
  }

  void dependency(const TaskDependencyArc& arc) override {
    std::uint64_t id = ++flows_;
    std::string args = fmt::format(R"("args":{{"from":{},"to":{},"bytes":{}}})", arc.src_instance,
                                   arc.dst_instance, arc.bytes);
    write(fmt::format(
        R"({{"ph":"s","cat":"dependency","name":"dependency","id":{},"pid":{},"tid":{},"ts":{},{}}})",
        id, arc.task, detail_track(arc.src_core), micro(arc.src_end), args));
    write(fmt::format(
        R"({{"ph":"f","bp":"e","cat":"dependency","name":"dependency","id":{},"pid":{},"tid":{},"ts":{},{}}})",
        id, arc.task, detail_track(arc.dst_core), micro(arc.resumed), args));
  }

  void finish(double end_time) override {
    for (const auto& [key, r] : running_) task_stop(key.first, key.second, end_time);
    std::fputs("\n]}\n", file_.get());
    if (std::fflush(file_.get()) != 0 || std::ferror(file_.get()))
      throw trace::FormatError(path_, 0, "write error");
  }

 private:
  struct Running {
    double begin = 0;
    int instance = 0, type = 0;
  };
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };

  static std::string micro(double seconds) { return fmt::format("{:.3f}", seconds * 1e6); }

  // A JSON string's contents: quotes, backslashes and control characters escaped.
  static std::string escaped(std::string_view text) {
    std::string out;
    for (char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) < 0x20)
        out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      else out += c;
    }
    return out;
  }

  static std::string state_name(State state) {
    for (const trace::ParaverState& s : trace::paraver_states())
      if (s.value == static_cast<int>(state)) return s.name;
    return "state " + std::to_string(static_cast<int>(state));
  }

  void write(const std::string& line) {
    if (!first_) std::fputs(",\n", file_.get());
    first_ = false;
    std::fputs(line.c_str(), file_.get());
  }

  // A metadata event `what` ("process_name", "thread_sort_index", ...) of a process, or of one
  // of its tracks when tid >= 0, with `args` (a JSON object).
  void metadata(const char* what, int task, int tid, const std::string& args) {
    std::string track = tid < 0 ? std::string() : fmt::format(R"("tid":{},)", tid);
    write(fmt::format(R"({{"ph":"M","name":"{}","pid":{},{}"args":{}}})", what, task, track, args));
  }
  static std::string name_arg(const std::string& name) {
    return fmt::format(R"({{"name":"{}"}})", escaped(name));
  }
  static std::string sort_arg(int index) { return fmt::format(R"({{"sort_index":{}}})", index); }

  // Names the tracks of `task`'s first `threads` threads (cores), once each.
  void name_threads(int task, int threads) {
    int& named = named_[task];
    for (; named < threads; ++named) {
      std::string who = (tasks_ ? "core " : "thread ") + std::to_string(named);
      metadata("thread_name", task, state_track(named), name_arg(who));
      metadata("thread_name", task, detail_track(named),
               name_arg(who + (tasks_ ? ": task instances" : ": MPI calls")));
      metadata("thread_sort_index", task, state_track(named), sort_arg(state_track(named)));
      metadata("thread_sort_index", task, detail_track(named), sort_arg(detail_track(named)));
    }
  }

  std::string path_;
  const trace::TraceHeader& header_;
  bool tasks_;
  std::vector<std::string> types_;
  std::unique_ptr<std::FILE, Closer> file_;
  bool first_ = true;
  std::uint64_t flows_ = 0;
  std::map<int, int> named_;                        // rank -> tracks named
  std::map<std::pair<int, int>, Running> running_;  // (rank, core) -> the instance on it
};

}  // namespace

std::unique_ptr<TimelineSink> make_chrome_sink(const std::string& path,
                                               const trace::TraceHeader& header) {
  return std::make_unique<ChromeSink>(path, header);
}

}  // namespace tareador::replay
