// One simulated timeline to several sinks (a Paraver trace and a Chrome trace of one replay).
#include "tareador/replay.h"

namespace tareador::replay {

namespace {

class TeeSink final : public TimelineSink {
 public:
  explicit TeeSink(std::vector<std::unique_ptr<TimelineSink>> sinks) : sinks_(std::move(sinks)) {}

  void state(int task, int thread, double begin, double end, State state) override {
    for (auto& s : sinks_) s->state(task, thread, begin, end, state);
  }
  void event(int task, int thread, double time, std::uint64_t type, std::uint64_t value) override {
    for (auto& s : sinks_) s->event(task, thread, time, type, value);
  }
  void message(const Message& message) override {
    for (auto& s : sinks_) s->message(message);
  }
  void call(int task, int thread, double begin, double end, const trace::Record& record) override {
    for (auto& s : sinks_) s->call(task, thread, begin, end, record);
  }
  void safe_until(double time) override {
    for (auto& s : sinks_) s->safe_until(time);
  }
  void task_start(int task, int core, double time, int instance, int type) override {
    for (auto& s : sinks_) s->task_start(task, core, time, instance, type);
  }
  void task_stop(int task, int core, double time) override {
    for (auto& s : sinks_) s->task_stop(task, core, time);
  }
  void cores_busy(int task, double time, int cores) override {
    for (auto& s : sinks_) s->cores_busy(task, time, cores);
  }
  void dependency(const TaskDependencyArc& arc) override {
    for (auto& s : sinks_) s->dependency(arc);
  }
  void finish(double end_time) override {
    for (auto& s : sinks_) s->finish(end_time);
  }

 private:
  std::vector<std::unique_ptr<TimelineSink>> sinks_;
};

}  // namespace

std::unique_ptr<TimelineSink> make_tee_sink(std::vector<std::unique_ptr<TimelineSink>> sinks) {
  if (sinks.empty()) return nullptr;
  if (sinks.size() == 1) return std::move(sinks.front());
  return std::make_unique<TeeSink>(std::move(sinks));
}

}  // namespace tareador::replay
