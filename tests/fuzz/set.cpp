// A trace set (tracefmt/native.cpp, tracefmt/tasks.cpp): its manifests and streams, validated
// and replayed. The input's parts (fuzz.h) are, in order: the streams of ranks 0 and 1, their
// rank manifests and the set's manifest; a part left out is a plausible default.
#include "fuzz.h"

namespace tareador::fuzz {

namespace {

constexpr std::string_view kRank =
    "rank = R\nstatus = \"complete\"\nreason = \"\"\nthreads = 1\n"
    "opaque_calls = [\"MPI_Comm_rank\", \"noop\"]\nwarnings = []\n\n"
    "[[communicator]]\nid = 1\ntasks = [0, 1]\n\n[[communicator]]\nid = 7\ntasks = [1, 0]\n";

std::string rank_manifest(int rank) {
  std::string text(kRank);
  text.replace(text.find('R'), 1, std::to_string(rank));
  return text;
}

void fuzz_set(const std::uint8_t* data, std::size_t size, const std::string& kind) {
  Scratch& scratch = Scratch::get();
  scratch.clear();
  std::vector<std::string_view> parts = split_parts(data, size);
  auto part = [&](std::size_t i, std::string_view fallback) {
    return i < parts.size() ? parts[i] : fallback;
  };
  std::string manifest =
      "format = \"tareador-trace-set\"\nversion = 2\nname = \"fuzz\"\n"
      "ranks = 2\nmips = 1000.0\nkinds = [\"" +
      kind + "\"]\nrun = \"1\"\n";
  std::string rank0 = rank_manifest(0), rank1 = rank_manifest(1);
  std::string_view stream =
      kind == "tasks" ? "task 1 main 0\ncpu 1000\nendtask\nend\n" : "cpu 1000\nend\n";
  scratch.write("set/" + kind + ".0.trc", part(0, stream));
  scratch.write("set/" + kind + ".1.trc", part(1, stream));
  scratch.write("set/rank-0.toml", part(2, rank0));
  scratch.write("set/rank-1.toml", part(3, rank1));
  scratch.write("set/manifest.toml", part(4, manifest));
  expecting_bad_input([&] { replay_all(trace::open_traces(scratch.path("set")), test_machine()); });
}

}  // namespace

int fuzz_native(const std::uint8_t* data, std::size_t size) {
  fuzz_set(data, size, "authentic");
  return 0;
}

int fuzz_tasks(const std::uint8_t* data, std::size_t size) {
  fuzz_set(data, size, "tasks");
  return 0;
}

}  // namespace tareador::fuzz
