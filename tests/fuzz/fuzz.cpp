// What the fuzz harnesses share: the parts of an input, the scratch directory, the machine and
// the replay with its checks.
#include "fuzz.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "replay/report.h"

namespace tareador::fuzz {

namespace fs = std::filesystem;

std::vector<std::string_view> split_parts(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  constexpr std::string_view kCut = "\n%%\n";
  for (;;) {
    std::size_t cut = text.find(kCut);
    if (cut == std::string_view::npos) {
      parts.push_back(text);
      return parts;
    }
    parts.push_back(text.substr(0, cut + 1));  // the part keeps its last line's end
    text.remove_prefix(cut + kCut.size());
  }
}

Scratch::Scratch() {
  std::string pattern = (fs::temp_directory_path() / "tareador-fuzz-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::perror("mkdtemp");
    std::abort();
  }
  dir_ = pattern;
  // Removed at exit (libFuzzer ends the process with exit() too).
  static std::string removed;
  removed = dir_;
  std::atexit([] {
    std::error_code error;
    fs::remove_all(removed, error);
  });
}

Scratch& Scratch::get() {
  static Scratch scratch;
  return scratch;
}

std::string Scratch::path(const std::string& name) const { return dir_ + "/" + name; }

std::string Scratch::write(const std::string& name, std::string_view text) const {
  std::string p = path(name);
  if (text == "!" || text == "!\n") return p;
  fs::create_directories(fs::path(p).parent_path());
  std::ofstream(p, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
  return p;
}

void Scratch::clear() const {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_, error))
    if (entry.path().filename().string().rfind("keep-", 0) != 0)
      fs::remove_all(entry.path(), error);
}

void rejected(const std::exception& e) {
  static const bool verbose = std::getenv("FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "  rejected: %s\n", e.what());
}

replay::Machine test_machine() {
  replay::Machine m;
  m.name = "fuzz";
  replay::Node node;
  node.cores = 2;
  node.latency = 1e-6;
  node.intra.latency = 1e-7;
  node.intra.bandwidth = 1000;
  node.intra.buses = 1;
  m.nodes.assign(3, node);
  m.nodes[2].cpu_ratio = 2.5;
  m.bandwidth = 100;
  m.buses = 2;
  m.mips = 0;
  m.mapping = replay::Mapping{replay::Mapping::Policy::Fill, 1, {}};
  using replay::CollectiveModel;
  using replay::CollectiveSize;
  for (std::size_t op = 0; op < m.collectives.size(); ++op) {
    auto model = static_cast<CollectiveModel>(op % 4);
    auto size = static_cast<CollectiveSize>(op % 6);
    m.collectives[op] = {{model, size}, {model, static_cast<CollectiveSize>((op + 3) % 6)}};
  }
  return m;
}

namespace {

void check_times(const replay::Result& r) {
  auto time = [](double t) {
    return std::isfinite(t) && t >= 0 && t <= replay::kMaxSimulatedSeconds;
  };
  bool ok = time(r.total_time);
  for (const replay::RankSummary& rank : r.ranks)
    ok = ok && time(rank.end) && std::isfinite(rank.compute) && std::isfinite(rank.waiting) &&
         std::isfinite(rank.communication) && std::isfinite(rank.idle);
  if (!ok) {
    std::fprintf(stderr, "fuzz: a replay finished with a time that is not one (total %g)\n",
                 r.total_time);
    std::abort();
  }
}

}  // namespace

void replay_all(const std::vector<std::unique_ptr<trace::Trace>>& traces,
                const replay::Machine& machine, bool validate) {
  int n = 0;
  for (const auto& t : traces) {
    if (validate) expecting_bad_input([&] { trace::validate(*t, 20); });
    expecting_bad_input([&] {
      // A Paraver timeline for one input in four (it costs a thread and files).
      std::unique_ptr<replay::TimelineSink> sink;
      if (t->size_bytes() % 4 == 1) {
        std::string prv = Scratch::get().path("out" + std::to_string(n++) + ".prv");
        sink = replay::make_paraver_sink(prv, t->header(), machine);
      }
      replay::SimulationOptions options;
      options.sink = sink.get();
      // Task traces: each policy in turn, as the inputs come.
      options.policy = static_cast<replay::TaskPolicy>(t->size_bytes() % 3);
      replay::Result result = replay::simulate(*t, machine, options);
      check_times(result);
      std::ostringstream out;
      replay::print_summary(out, result);
      (void)replay::to_json(result).dump(2, ' ', false,
                                         nlohmann::ordered_json::error_handler_t::strict);
    });
  }
}

}  // namespace tareador::fuzz
