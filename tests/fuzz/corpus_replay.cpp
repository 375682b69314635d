// corpus_replay — every input of the fuzz corpora (tests/fuzz/corpus/NAME/) through its harness,
// built with the project's compiler: what `make check` runs, so that an input that once crashed,
// hung or blew the memory stays a test without clang.
//
//   corpus_replay                     every corpus (FUZZ_CORPUS, set by the build)
//   corpus_replay NAME FILE...        the given files through harness NAME
//
// FUZZ_VERBOSE=1 prints why each input was rejected. Exits 0 when every input returns; a crash, an uncaught exception or a sanitizer finding ends
// it otherwise (make check runs it under a memory limit and a timeout).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz.h"

namespace fs = std::filesystem;
using tareador::fuzz::Harness;

namespace {

struct Target {
  const char* name;
  Harness harness;
};

const Target kTargets[] = {
    {"dim", tareador::fuzz::fuzz_dim},     {"cfg", tareador::fuzz::fuzz_cfg},
    {"toml", tareador::fuzz::fuzz_toml},   {"native", tareador::fuzz::fuzz_native},
    {"tasks", tareador::fuzz::fuzz_tasks}, {"paraver", tareador::fuzz::fuzz_paraver},
};

bool run(const Target& target, const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "corpus_replay: %s: cannot read\n", file.c_str());
    return false;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "%s %s\n", target.name, file.c_str());  // the last one names a crash
  target.harness(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2) {
    for (const Target& target : kTargets)
      if (std::strcmp(target.name, argv[1]) == 0) {
        bool ok = true;
        for (int i = 2; i < argc; ++i) ok &= run(target, argv[i]);
        return ok ? 0 : 1;
      }
    std::fprintf(stderr, "corpus_replay: unknown harness '%s'\n", argv[1]);
    return 1;
  }
  bool ok = true;
  for (const Target& target : kTargets) {
    fs::path dir = fs::path(FUZZ_CORPUS) / target.name;
    std::vector<std::string> files;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, error))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    if (files.empty()) {
      std::fprintf(stderr, "corpus_replay: no corpus in %s\n", dir.c_str());
      ok = false;
    }
    std::sort(files.begin(), files.end());
    for (const std::string& file : files) ok &= run(target, file);
    std::printf("%s: %zu inputs\n", target.name, files.size());
  }
  return ok ? 0 : 1;
}
