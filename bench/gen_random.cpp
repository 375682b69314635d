// gen_random — writes a random Dimemas trace for differential testing against Dimemas 5.5
// (bench/parity.sh): 2 to 16 tasks taking steps in one global order (a message between two
// random tasks, eager or rendezvous, blocking or immediate, received blocking or by an immediate
// receive waited for later; a collective of every task; a user event; an opaque call; bursts of a
// few typical lengths), so that every step depends only on earlier ones.
//
//   gen_random SEED OUT.dim [--no-collectives] [--max-tasks N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "tareador/trace.h"

namespace trace = tareador::trace;

namespace {

constexpr int kComm = 1;

class Generator {
 public:
  Generator(unsigned seed, bool collectives, int max_tasks)
      : rng_(seed), collectives_(collectives), max_tasks_(max_tasks) {}

  // The records of each task.
  std::vector<std::vector<trace::Record>> run() {
    int tasks = 0;
    do tasks = pick<int>({2, 3, 4, 5, 8, 16});
    while (tasks > max_tasks_);
    records_.assign(static_cast<std::size_t>(tasks), {});
    pending_.assign(static_cast<std::size_t>(tasks), {});
    std::vector<int> tags = chance(0.5) ? std::vector<int>{1, 2, 3} : std::vector<int>{0};
    for (int t = 0; t < tasks; ++t) burst(t);  // Dimemas simulates threads that begin with work
    int steps = below(196) + 5;
    for (int step = 0; step < steps; ++step) {
      double kind = uniform();
      if (kind < 0.75) {
        message(tasks, tags);
      } else if (kind < 0.85 && collectives_) {
        collective(tasks);
      } else if (kind < 0.9) {
        trace::Record event;
        event.type = trace::RecordType::Event;
        event.event_type = static_cast<std::uint64_t>(below(89999999) + 1);
        event.event_value = static_cast<std::uint64_t>(below(50));
        add(below(tasks), event);
      } else {
        int t = below(tasks);
        trace::Record call;  // Dimemas' no-op
        call.type = trace::RecordType::Call;
        if (chance(0.3)) add(t, call);
      }
      for (int t = 0; t < tasks; ++t)  // waits for some immediate receives
        while (!pending_[static_cast<std::size_t>(t)].empty() && chance(0.4)) wait(t);
      for (int t = 0; t < tasks; ++t)
        if (chance(0.6)) burst(t);
    }
    for (int t = 0; t < tasks; ++t) {
      while (!pending_[static_cast<std::size_t>(t)].empty()) wait(t);
      burst(t);
    }
    return records_;
  }

 private:
  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }
  bool chance(double p) { return uniform() < p; }
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  template <typename T>
  T pick(std::initializer_list<T> values) {
    return values.begin()[below(static_cast<int>(values.size()))];
  }
  std::int64_t size() { return pick<std::int64_t>({0, 8, 100, 1000, 65536, 1048576}); }

  void add(int task, const trace::Record& r) {
    records_[static_cast<std::size_t>(task)].push_back(r);
  }

  void burst(int task) {
    trace::Record burst;
    burst.type = trace::RecordType::Burst;
    burst.amount = pick<double>({0, 1e-6, 1e-5, 1.5e-5, 1e-4, 3e-3, -1});
    if (burst.amount < 0) burst.amount = uniform() * 1e-3;
    add(task, burst);
  }

  // A message from a random task to another; received blocking, or by an immediate receive
  // waited for later.
  void message(int tasks, const std::vector<int>& tags) {
    int from = below(tasks), to = below(tasks - 1);
    if (to >= from) ++to;
    trace::Record send;
    send.type = trace::RecordType::Send;
    send.peer = to;
    send.bytes = size();
    send.tag = tags[static_cast<std::size_t>(below(static_cast<int>(tags.size())))];
    send.comm = kComm;
    int synchronism = pick<int>({0, 0, 1, 2, 2, 3});  // bit 0 rendezvous, bit 1 immediate
    if (synchronism & 1) send.flags |= trace::kRendezvous;
    if (synchronism & 2) send.flags |= trace::kImmediate;
    add(from, send);
    trace::Record recv = send;
    recv.type = trace::RecordType::Recv;
    recv.peer = from;
    recv.flags = 0;
    if (chance(0.5)) {
      recv.flags = trace::kImmediate;
      recv.request = ++requests_;
      pending_[static_cast<std::size_t>(to)].push_back(recv.request);
    }
    add(to, recv);
  }

  void collective(int tasks) {
    trace::Record op;
    op.type = trace::RecordType::GlobalOp;
    op.op = below(trace::kGlobalOpCount);
    op.comm = kComm;
    op.bytes = op.bytes_recv = size();
    int root = below(tasks);
    for (int t = 0; t < tasks; ++t) {
      op.peer = t == root ? t : -1;
      add(t, op);
    }
  }

  // A wait for the oldest immediate receive of `task`, now and then for another one.
  void wait(int task) {
    auto& pending = pending_[static_cast<std::size_t>(task)];
    auto i = static_cast<std::ptrdiff_t>(
        chance(0.2) ? static_cast<std::size_t>(below(static_cast<int>(pending.size()))) : 0);
    trace::Record wait;
    wait.type = trace::RecordType::Wait;
    wait.request = pending[static_cast<std::size_t>(i)];
    pending.erase(pending.begin() + i);
    add(task, wait);
  }

  std::mt19937 rng_;
  bool collectives_;
  int max_tasks_;
  std::uint64_t requests_ = 0;
  std::vector<std::vector<trace::Record>> records_;
  std::vector<std::vector<std::uint64_t>> pending_;  // immediate receives not waited for yet
};

void write_dim(const char* path, unsigned seed,
               const std::vector<std::vector<trace::Record>>& tasks) {
  trace::TraceHeader header;
  header.name = "rand" + std::to_string(seed);
  header.threads.assign(tasks.size(), 1);
  trace::Communicator world;
  world.id = kComm;
  for (std::size_t t = 0; t < tasks.size(); ++t) world.tasks.push_back(static_cast<int>(t));
  header.communicators.push_back(world);
  auto writer = trace::make_dimemas_writer(path, header);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    writer->begin(static_cast<int>(t), 0);
    for (const trace::Record& r : tasks[t]) writer->write(r);
  }
  writer->finish();
}

}  // namespace

int main(int argc, char** argv) {
  bool collectives = true, ok = argc >= 3;
  int max_tasks = 16;
  for (int i = 3; ok && i < argc; ++i) {
    if (std::strcmp(argv[i], "--no-collectives") == 0) {
      collectives = false;
    } else if (std::strcmp(argv[i], "--max-tasks") == 0 && i + 1 < argc) {
      max_tasks = std::atoi(argv[++i]);
      ok = max_tasks >= 2;
    } else {
      ok = false;
    }
  }
  if (!ok) {
    std::fprintf(stderr, "usage: gen_random SEED OUT.dim [--no-collectives] [--max-tasks N>=2]\n");
    return 1;
  }
  auto seed = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  try {
    write_dim(argv[2], seed, Generator(seed, collectives, max_tasks).run());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gen_random: %s\n", e.what());
    return 1;
  }
  return 0;
}
