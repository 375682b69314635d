// gen_tasks — writes a synthetic one-rank tasks trace set for benchmarks (docs/trace-format.md,
// "The tasks stream"): the main task spawns instances 2..N one after the other; each depends on
// up to three earlier siblings close to it in creation order, computes for 1,000 to 100,000
// instructions and uses one or two of 64 objects; the main task then waits for the last one.
// Sections come in the order the instances ended: 2..N, then the main task's (the largest).
// The same N and SEED give the same bytes (a fixed linear congruential generator).
//
//   gen_tasks INSTANCES OUT_DIR [SEED]
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/stat.h>

namespace {

constexpr int kObjects = 64;
constexpr std::uint64_t kWindow = 64;  // dependencies reach back at most this many instances
constexpr const char* kTypes[] = {"produce", "update", "consume", "reduce"};

// Knuth's MMIX linear congruential generator: the same numbers on every platform.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed * 2 + 1) {}
  std::uint64_t below(std::uint64_t n) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state_ >> 33) % n;
  }

 private:
  std::uint64_t state_;
};

FILE* create(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "gen_tasks: %s: %s\n", path.c_str(), std::strerror(errno));
    std::exit(1);
  }
  return f;
}

void close(FILE* f, const std::string& path) {
  if (std::fclose(f) != 0) {
    std::fprintf(stderr, "gen_tasks: %s: write error\n", path.c_str());
    std::exit(1);
  }
}

// The section of instance `id` (2..): its dependencies first, then its work and its uses.
void write_instance(FILE* out, std::uint64_t id, Random& random) {
  std::fprintf(out, "task %llu %s 1\n", static_cast<unsigned long long>(id),
               kTypes[random.below(4)]);
  std::uint64_t deps = id > 2 ? random.below(4) : 0;
  std::uint64_t last = 0;  // sources in decreasing order, each named once
  for (std::uint64_t d = 0; d < deps; ++d) {
    std::uint64_t back = 1 + random.below(kWindow);
    std::uint64_t from = back + 2 <= id ? id - back : 2;
    if (last != 0 && from >= last) from = last - 1;
    if (from < 2) break;
    last = from;
    std::fprintf(out, "after %llu %s %llu %llu\n", static_cast<unsigned long long>(from),
                 random.below(8) == 0 ? "raw+waw" : "raw",
                 static_cast<unsigned long long>(8 * (1 + random.below(512))),
                 static_cast<unsigned long long>(1 + random.below(kObjects)));
  }
  std::fprintf(out, "cpu %llu\n", static_cast<unsigned long long>(1000 + random.below(99001)));
  std::uint64_t first = 1 + random.below(kObjects);
  std::fprintf(out, "uses %llu %llu %llu\n", static_cast<unsigned long long>(first),
               static_cast<unsigned long long>(8 * random.below(512)),
               static_cast<unsigned long long>(8 * random.below(512)));
  if (random.below(2) == 0)
    std::fprintf(out, "uses %llu 64 0\n", static_cast<unsigned long long>(1 + (first % kObjects)));
  std::fprintf(out, "endtask\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: gen_tasks INSTANCES OUT_DIR [SEED]\n");
    return 1;
  }
  std::uint64_t instances = std::strtoull(argv[1], nullptr, 10);
  std::string dir = argv[2];
  std::uint64_t seed = argc == 4 ? std::strtoull(argv[3], nullptr, 10) : 1;
  if (instances < 2) {
    std::fprintf(stderr, "gen_tasks: need INSTANCES >= 2\n");
    return 1;
  }
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "gen_tasks: %s: %s\n", dir.c_str(), std::strerror(errno));
    return 1;
  }
  FILE* manifest = create(dir + "/manifest.toml");
  std::fprintf(manifest,
               "format = \"tareador-trace-set\"\nversion = 1\nname = \"synthetic-tasks\"\n"
               "ranks = 1\nmips = 1000.0\nkinds = [\"tasks\"]\n");
  close(manifest, dir + "/manifest.toml");
  FILE* rank = create(dir + "/rank-0.toml");
  std::fprintf(rank,
               "rank = 0\nstatus = \"complete\"\nreason = \"\"\nthreads = 1\n"
               "opaque_calls = []\n");
  close(rank, dir + "/rank-0.toml");

  std::string path = dir + "/tasks.0.trc";
  FILE* out = create(path);
  std::fprintf(out, "# tareador stream v1 kind=tasks rank=0\n");
  for (int o = 1; o <= kObjects; ++o) std::fprintf(out, "object %d heap 4096 block%d\n", o, o);
  Random random(seed);
  for (std::uint64_t id = 2; id <= instances; ++id) write_instance(out, id, random);
  std::fprintf(out, "task 1 main 0\ncpu 5000\n");
  for (std::uint64_t id = 2; id <= instances; ++id) {
    std::fprintf(out, "spawn %llu\n", static_cast<unsigned long long>(id));
    if (random.below(16) == 0)
      std::fprintf(out, "cpu %llu\n", static_cast<unsigned long long>(100 + random.below(900)));
  }
  std::fprintf(out, "after %llu raw 8 1\ncpu 5000\nendtask\nend\n",
               static_cast<unsigned long long>(instances));
  close(out, path);
  std::printf("%s: %llu task instances\n", dir.c_str(), static_cast<unsigned long long>(instances));
  return 0;
}
