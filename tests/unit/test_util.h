// test_util.h — small helpers shared by the unit tests.
#pragma once

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

// A two-rank authentic trace set, DIR/set, with these streams (mips = 1000: `cpu 1000000` lasts
// 1 ms; both ranks in communicator 1); its path.
inline std::string two_rank_set(const TempDir& dir, const std::string& stream0,
                                const std::string& stream1) {
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"w\"\nranks = 2\n"
            "mips = 1000.0\nkinds = [\"authentic\"]\n");
  for (int rank = 0; rank < 2; ++rank) {
    std::string n = std::to_string(rank);
    dir.write("set/rank-" + n + ".toml", "rank = " + n +
                                             "\nstatus = \"complete\"\n[[communicator]]\nid = 1\n"
                                             "tasks = [0, 1]\n");
    dir.write("set/authentic." + n + ".trc", "# tareador stream v1 kind=authentic rank=" + n +
                                                 "\n" + (rank ? stream1 : stream0) + "end\n");
  }
  return dir.path("set");
}

// Seconds to move `bytes` at `mbs` MB/s (MB = 2^20 bytes).
inline double transfer(double bytes, double mbs) { return bytes / (mbs * 1024 * 1024); }

// A minimal XML well-formedness check: one root element, every tag closed in order, attribute
// values quoted, no raw '<' or stray '&' in text. Returns an empty string when fine.
inline std::string xml_problem(const std::string& xml) {
  std::vector<std::string> stack;
  std::size_t i = 0, roots = 0;
  if (xml.compare(0, 5, "<?xml") == 0) i = xml.find("?>") + 2;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      std::size_t semi = xml.find(';', i);
      std::string entity = xml.substr(i, semi == std::string::npos ? 6 : semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;")
        return "bad entity at " + std::to_string(i);
      ++i;
      continue;
    }
    if (xml[i] == '>') return "stray '>' at " + std::to_string(i);
    if (xml[i] != '<') {
      if (stack.empty() && !std::isspace(static_cast<unsigned char>(xml[i])))
        return "text outside the root at " + std::to_string(i);
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    char quote = 0;
    while (end < xml.size() && (quote || xml[end] != '>')) {
      if (quote && xml[end] == quote) quote = 0;
      else if (!quote && (xml[end] == '"' || xml[end] == '\'')) quote = xml[end];
      else if (!quote && xml[end] == '<') return "'<' inside a tag at " + std::to_string(end);
      ++end;
    }
    if (end >= xml.size()) return "unterminated tag";
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return "empty tag";
    if (tag[0] == '/') {
      if (stack.empty() || stack.back() != tag.substr(1))
        return "mismatched </" + tag.substr(1) + ">";
      stack.pop_back();
      continue;
    }
    bool self_closing = tag.back() == '/';
    std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    // Attributes: name="value" pairs.
    std::size_t a = name.size();
    std::string rest = tag.substr(a, tag.size() - a - (self_closing ? 1 : 0));
    std::size_t p = 0;
    while (p < rest.size()) {
      while (p < rest.size() && std::isspace(static_cast<unsigned char>(rest[p]))) ++p;
      if (p >= rest.size()) break;
      std::size_t eq = rest.find('=', p);
      if (eq == std::string::npos || eq + 1 >= rest.size() || rest[eq + 1] != '"')
        return "unquoted attribute in <" + name + ">";
      std::size_t close = rest.find('"', eq + 2);
      if (close == std::string::npos) return "unterminated attribute in <" + name + ">";
      p = close + 1;
    }
    if (stack.empty()) ++roots;
    if (!self_closing) stack.push_back(name);
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  if (roots != 1) return "not one root element";
  return "";
}

}  // namespace tareador::testing
