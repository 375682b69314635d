// test_util.h — small helpers shared by the unit tests.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tareador/replay.h"
#include "tareador/trace.h"

namespace tareador::testing {

// A fresh directory, removed with everything in it when the test ends.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "tareador-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return (path_ / name).string(); }
  // Writes `content` to `name` in the directory and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    std::string p = path(name);
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

 private:
  std::filesystem::path path_;
};

inline std::string fixture(const std::string& relative) {
  return std::string(TESTS_DIR) + "/fixtures/" + relative;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A machine of `nodes` single-core nodes, one task per node, constant collective model.
inline replay::Machine machine(int nodes, double bandwidth_mbs, double latency, int buses = 0) {
  replay::Machine m;
  m.name = "test";
  replay::Node node;
  node.latency = latency;
  m.nodes.assign(static_cast<std::size_t>(nodes), node);
  m.bandwidth = bandwidth_mbs;
  m.buses = buses;
  return m;
}

// The `.dim` header for `tasks` single-thread tasks and one communicator 1 with all of them.
inline std::string dim_header(int tasks) {
  std::string h = "#DIMEMAS:\"t\":0:" + std::to_string(tasks) + "(";
  for (int i = 0; i < tasks; ++i) h += i ? ",1" : "1";
  h += "),1\nd:1:1:" + std::to_string(tasks);
  for (int i = 0; i < tasks; ++i) h += ":" + std::to_string(i);
  return h + "\n";
}

// Simulates the Dimemas trace `body` (records after dim_header(tasks)) on `m`.
inline replay::Result simulate_dim(const TempDir& dir, int tasks, const std::string& body,
                                   const replay::Machine& m, replay::TimelineSink* sink = nullptr) {
  auto t = trace::open_dimemas(dir.write("t.dim", dim_header(tasks) + body));
  replay::SimulationOptions options;
  options.sink = sink;
  return replay::simulate(*t, m, options);
}

// Seconds to move `bytes` at `mbs` MB/s (MB = 2^20 bytes).
inline double transfer(double bytes, double mbs) { return bytes / (mbs * 1024 * 1024); }

}  // namespace tareador::testing
