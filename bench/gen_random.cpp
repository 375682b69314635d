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
#include <random>
#include <string>
#include <vector>

namespace {

struct Pending {
  int source;
  long long bytes;
  int tag;
};

class Generator {
 public:
  Generator(unsigned seed, bool collectives, int max_tasks)
      : rng_(seed), collectives_(collectives), max_tasks_(max_tasks) {}

  std::vector<std::vector<std::string>> run() {
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
        int op = below(16), root = below(tasks);
        long long bytes = size();
        for (int t = 0; t < tasks; ++t)
          add(t, "10:%d:0:%d:1:%d:0:%lld:%lld", t, op, t == root ? 1 : 0, bytes, bytes);
      } else if (kind < 0.9) {
        int t = below(tasks);
        add(t, "20:%d:0:%d:%d", t, below(89999999) + 1, below(50));
      } else {
        int t = below(tasks);
        if (chance(0.3)) add(t, "0:%d:0", t);
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
  long long size() { return pick<long long>({0, 8, 100, 1000, 65536, 1048576}); }

  template <typename... Args>
  void add(int task, const char* format, Args... args) {
    char line[128];
    std::snprintf(line, sizeof line, format, args...);
    records_[static_cast<std::size_t>(task)].emplace_back(line);
  }

  void burst(int task) {
    double seconds = pick<double>({0, 1e-6, 1e-5, 1.5e-5, 1e-4, 3e-3, -1});
    if (seconds < 0) seconds = uniform() * 1e-3;
    add(task, "1:%d:0:%.9f", task, seconds);
  }

  // A message from a random task to another; received blocking, or by an immediate receive
  // waited for later (its wait names the same source, size and tag).
  void message(int tasks, const std::vector<int>& tags) {
    int from = below(tasks), to = below(tasks - 1);
    if (to >= from) ++to;
    long long bytes = size();
    int tag = tags[static_cast<std::size_t>(below(static_cast<int>(tags.size())))];
    int synchronism = pick<int>({0, 0, 1, 2, 2, 3});  // bit 0 rendezvous, bit 1 immediate
    add(from, "2:%d:0:%d:-1:%lld:%d:1:%d", from, to, bytes, tag, synchronism);
    if (chance(0.5)) {
      add(to, "3:%d:0:%d:-1:%lld:%d:1:0", to, from, bytes, tag);
    } else {
      add(to, "3:%d:0:%d:-1:%lld:%d:1:1", to, from, bytes, tag);
      pending_[static_cast<std::size_t>(to)].push_back(Pending{from, bytes, tag});
    }
  }

  // A wait for the oldest immediate receive of `task`, now and then for another one.
  void wait(int task) {
    auto& pending = pending_[static_cast<std::size_t>(task)];
    std::size_t i =
        chance(0.2) ? static_cast<std::size_t>(below(static_cast<int>(pending.size()))) : 0;
    Pending p = pending[i];
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
    add(task, "3:%d:0:%d:-1:%lld:%d:1:2", task, p.source, p.bytes, p.tag);
  }

  std::mt19937 rng_;
  bool collectives_;
  int max_tasks_;
  std::vector<std::vector<std::string>> records_;
  std::vector<std::vector<Pending>> pending_;
};

// The records of each task in one block, with the offsets Dimemas seeks to.
bool write_dim(const char* path, unsigned seed,
               const std::vector<std::vector<std::string>>& tasks) {
  std::string threads, members;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    threads += (t ? ",1" : "1");
    members += ":" + std::to_string(t);
  }
  std::string definition = "d:1:1:" + std::to_string(tasks.size()) + members + "\n";
  // The header has a fixed width, its offset padded, as Dimemas' own writers leave it.
  auto header = [&](std::size_t offset) {
    std::string h = "#DIMEMAS:\"rand" + std::to_string(seed) + "\":1," + std::to_string(offset) +
                    ":" + std::to_string(tasks.size()) + "(" + threads + "),1";
    return h + std::string(h.size() < 60 ? 60 - h.size() : 0, ' ') + "\n";
  };
  std::size_t at = header(0).size() + definition.size();
  std::string body;
  std::vector<std::size_t> offsets;
  for (const auto& records : tasks) {
    offsets.push_back(at + body.size());
    for (const std::string& r : records) body += r + "\n";
  }
  std::string text = header(at + body.size());
  if (text.size() != header(0).size()) return false;  // the offset outgrew the padding
  text += definition + body;
  for (std::size_t t = 0; t < tasks.size(); ++t)
    text += "s:" + std::to_string(t) + ":" + std::to_string(offsets[t]) + "\n";
  std::FILE* f = std::fopen(path, "w");
  if (!f) return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
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
  if (!write_dim(argv[2], seed, Generator(seed, collectives, max_tasks).run())) {
    std::fprintf(stderr, "gen_random: cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
