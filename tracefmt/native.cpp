// The native trace set (docs/trace-format.md): reader and writer.
#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <type_traits>
#include <unordered_set>

#include "tareador/trace.h"
#include "tracefmt/fields.h"
#include "tracefmt/line_reader.h"
#include "tracefmt/native_records.h"
#include "tracefmt/toml_input.h"

namespace fs = std::filesystem;

namespace tareador::trace {

namespace {

// Version 2 added quoted names and the const and library object kinds to tasks streams; a
// version 1 set reads the same.
constexpr int kFormatVersion = 5;
constexpr const char* kFormatName = "tareador-trace-set";

// The value of `node` as a T when it is one. An integer is read only from an integer: toml++
// 3.3.0's value<T>() converts a float to an integer with undefined behaviour past the range.
template <typename T>
std::optional<T> value_of(const toml::node& node) {
  if constexpr (std::is_integral_v<T>)
    if (!node.is_integer()) return std::nullopt;
  return node.value<T>();
}

// Reads a required TOML value of type T; errors name the key and its line.
template <typename T>
T required(const toml::table& table, const std::string& path, const char* key) {
  const toml::node* node = table.get(key);
  if (node == nullptr) throw FormatError(path, 0, std::string("missing key '") + key + "'");
  std::optional<T> value = value_of<T>(*node);
  if (!value)
    throw FormatError(path, node->source().begin.line,
                      std::string("key '") + key + "' has the wrong type");
  return *value;
}

std::vector<std::string> string_array(const toml::table& table, const std::string& path,
                                      const char* key) {
  std::vector<std::string> out;
  const toml::node* node = table.get(key);
  if (node == nullptr) return out;
  const toml::array* array = node->as_array();
  if (array == nullptr)
    throw FormatError(path, node->source().begin.line,
                      std::string("key '") + key + "' must be an array of strings");
  for (const toml::node& item : *array) {
    std::optional<std::string> text = item.value<std::string>();
    if (!text)
      throw FormatError(path, item.source().begin.line,
                        std::string("key '") + key + "' must hold only strings");
    out.push_back(*text);
  }
  return out;
}

// The line of `key` in `table` (0 when it is not there).
std::uint64_t line_of(const toml::table& table, const char* key) {
  const toml::node* node = table.get(key);
  return node ? node->source().begin.line : 0;
}

}  // namespace

SetManifest read_set_manifest(const std::string& dir, bool later_versions) {
  std::string path = set_files::manifest(dir);
  std::error_code error;
  if (!fs::exists(path, error))
    throw FormatError(path, 0, "not a trace set: manifest.toml is missing");
  toml::table table = parse_toml_input(path, "a manifest");
  if (required<std::string>(table, path, "format") != kFormatName)
    throw FormatError(path, line_of(table, "format"),
                      std::string("format is not \"") + kFormatName + "\"");
  auto version = required<std::int64_t>(table, path, "version");
  if (version < 1)
    throw FormatError(path, line_of(table, "version"),
                      "trace set version " + std::to_string(version) + " is not a version");
  if (version > kFormatVersion && !later_versions)
    throw FormatError(path, line_of(table, "version"),
                      "trace set version " + std::to_string(version) +
                          " is not supported (this reader knows versions 1 to " +
                          std::to_string(kFormatVersion) + ")");
  SetManifest m;
  m.path = path;
  m.version = static_cast<int>(std::min<std::int64_t>(version, INT32_MAX));
  m.name = later_versions ? table["name"].value_or(std::string())
                          : required<std::string>(table, path, "name");
  auto ranks = required<std::int64_t>(table, path, "ranks");
  if (ranks <= 0 || ranks > kMaxTasks)
    throw FormatError(path, line_of(table, "ranks"), "ranks must be between 1 and 2^24");
  m.ranks = static_cast<int>(ranks);
  if (!later_versions || table.contains("mips")) {
    m.mips = required<double>(table, path, "mips");
    if (!(m.mips > 0)) throw FormatError(path, line_of(table, "mips"), "mips must be positive");
    if (!(m.mips <= kMaxMips))
      throw FormatError(path, line_of(table, "mips"),
                        "mips must be at most 10^9 (instructions per microsecond)");
  }
  m.kinds = string_array(table, path, "kinds");
  for (const std::string& kind : m.kinds)
    if (!later_versions &&
        std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds))
      throw FormatError(path, line_of(table, "kinds"), "unknown trace kind " + excerpt(kind));
  if (const toml::node* run = table.get("run")) {
    std::optional<std::string> text = run->value<std::string>();
    if (!text || text->empty() || text->size() > 100)
      throw FormatError(path, run->source().begin.line,
                        "run must be a short string (the id of the run that wrote the set)");
    m.run = *text;
  }
  return m;
}

namespace {

// Where each communicator of a set was first defined: its index in the header's list and its
// file:line.
using CommOrigins = std::map<int, std::pair<std::size_t, std::string>>;

// Adds the rank's manifest to `header`: communicators (checked against other ranks'), opaque
// call names, and a note when the rank is truncated. Returns whether it is.
bool read_rank_manifest(const std::string& dir, int rank, TraceHeader& header,
                        CommOrigins& comm_origin, std::unordered_set<std::string>& call_names) {
  std::string path = set_files::rank_manifest(dir, rank);
  std::error_code error;
  if (!fs::exists(path, error)) {
    header.notes.push_back("rank " + std::to_string(rank) +
                           " truncated: no rank manifest (the process died before writing it)");
    return true;
  }
  toml::table table = parse_toml_input(path, "a rank manifest");
  if (required<std::int64_t>(table, path, "rank") != rank)
    throw FormatError(path, line_of(table, "rank"), "rank does not match the file name");
  std::string status = required<std::string>(table, path, "status");
  bool truncated = status != "complete";
  if (status == "truncated") {
    std::string reason = table["reason"].value_or(std::string("unknown reason"));
    header.notes.push_back("rank " + std::to_string(rank) + " truncated: " + clipped(reason, 200));
  } else if (status == "running") {  // what the tool leaves until the rank's end
    // Its reason, if any, is the call the rank had long waited in ("inside MPI_Recv").
    std::string inside = table["reason"].value_or(std::string());
    header.notes.push_back("rank " + std::to_string(rank) +
                           " truncated: its process did not finish (killed without warning: "
                           "SIGKILL, out of memory, a time limit; or still running)" +
                           (inside.empty() ? "" : ", " + clipped(inside, 200)));
  } else if (truncated) {
    throw FormatError(path, line_of(table, "status"),
                      "status must be \"complete\", \"truncated\" or \"running\"");
  }
  const toml::node* threads_node = table.get("threads");
  std::optional<std::int64_t> threads = threads_node ? value_of<std::int64_t>(*threads_node) : 1;
  if (threads != 1)
    throw FormatError(path, line_of(table, "threads"),
                      "version 1 trace sets have one thread per rank");
  for (std::string& name : string_array(table, path, "opaque_calls"))
    if (call_names.insert(name).second) header.call_names.push_back(std::move(name));
  for (const std::string& warning : string_array(table, path, "warnings"))
    header.notes.push_back("rank " + std::to_string(rank) + ": " + warning);
  if (header.task_dependencies.size() <= static_cast<std::size_t>(rank))
    header.task_dependencies.resize(static_cast<std::size_t>(rank) + 1);
  if (const toml::node* kinds = table.get("dependencies")) {
    std::optional<std::string> value = kinds->value<std::string>();
    if (!value)
      throw FormatError(path, line_of(table, "dependencies"), "dependencies must be a string");
    header.task_dependencies[static_cast<std::size_t>(rank)] = *value;
  }

  const toml::array* comms = table["communicator"].as_array();
  if (comms == nullptr) return truncated;
  for (const toml::node& node : *comms) {
    const toml::table* comm = node.as_table();
    std::uint64_t line = node.source().begin.line;
    if (comm == nullptr) throw FormatError(path, line, "communicator must be a table");
    Communicator c;
    auto id = required<std::int64_t>(*comm, path, "id");
    // Ids are 32-bit in the streams: a larger one would alias another once truncated.
    if (id < std::numeric_limits<std::int32_t>::min() ||
        id > std::numeric_limits<std::int32_t>::max())
      throw FormatError(path, line_of(*comm, "id"),
                        "communicator id " + std::to_string(id) + " is out of range (32-bit)");
    c.id = static_cast<int>(id);
    const toml::array* tasks = (*comm)["tasks"].as_array();
    if (tasks == nullptr) throw FormatError(path, line, "communicator needs a 'tasks' array");
    for (const toml::node& t : *tasks) {
      auto task = value_of<std::int64_t>(t);
      if (!task || *task < 0 || *task >= header.tasks())
        throw FormatError(
            path, t.source().begin.line,
            "communicator " + std::to_string(c.id) + ": task is not a rank of the set");
      c.tasks.push_back(static_cast<int>(*task));
    }
    if (std::find(c.tasks.begin(), c.tasks.end(), rank) == c.tasks.end())
      throw FormatError(path, line,
                        "communicator " + std::to_string(c.id) + " does not include this rank");
    auto known = comm_origin.find(c.id);
    if (known != comm_origin.end()) {
      if (header.communicators[known->second.first].tasks != c.tasks)
        throw FormatError(path, line,
                          "communicator " + std::to_string(c.id) + " has other members in " +
                              known->second.second);
      continue;
    }
    if (int twice = repeated_member(c.tasks); twice >= 0)
      throw FormatError(path, line,
                        "communicator " + std::to_string(c.id) + " lists rank " +
                            std::to_string(twice) + " more than once");
    comm_origin.emplace(
        c.id, std::make_pair(header.communicators.size(), path + ":" + std::to_string(line)));
    header.communicators.push_back(std::move(c));
  }
  return truncated;
}

// The names of the opaque calls that the streams of a rank without a manifest use.
void add_call_names(const std::shared_ptr<const SharedFile>& file, TraceHeader& header,
                    std::unordered_set<std::string>& call_names) {
  LineReader lines(file, 0, file->size(), 1);
  std::string_view line;
  while (lines.next(line)) {
    if (line.rfind("call ", 0) != 0) continue;
    Fields f(line, ' ', lines);
    f.text("record");
    std::string name(f.text("name"));
    if (call_names.insert(name).second) header.call_names.push_back(std::move(name));
  }
}

// Ranks that left no file (no rank manifest, no stream) read as empty, truncated: a job killed
// early leaves some. But a manifest's `ranks` is a number: before anything is allocated per rank,
// at most kMaxSilentRanks more of them than of ranks that left files.
constexpr std::size_t kMaxSilentRanks = 4096;
void check_ranks_left_files(const std::string& dir, const SetManifest& manifest) {
  std::unordered_set<long> present;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    std::string name = entry.path().filename().string();
    std::size_t dot = name.find('.');
    if (dot == std::string::npos) continue;
    std::string number;
    if (name.rfind("rank-", 0) == 0 && name.size() > 10 &&
        name.compare(name.size() - 5, 5, ".toml") == 0)
      number = name.substr(5, name.size() - 10);
    else if (name.size() > 4 && name.compare(name.size() - 4, 4, ".trc") == 0)
      number = name.substr(dot + 1, name.size() - 4 - dot - 1);
    if (number.empty() || number.size() > 9 ||
        number.find_first_not_of("0123456789") != std::string::npos)
      continue;
    long rank = std::stol(number);
    if (rank < manifest.ranks) present.insert(rank);
  }
  std::size_t silent = static_cast<std::size_t>(manifest.ranks) - present.size();
  if (silent > std::max(kMaxSilentRanks, present.size()))
    throw FormatError(manifest.path, 0,
                      "the set has " + std::to_string(manifest.ranks) + " ranks but " +
                          std::to_string(silent) +
                          " of them left no file (no rank manifest, no "
                          "stream): at most 4096 more than those that did");
}

class NativeStream final : public LineRecordStream {
 public:
  NativeStream(const StreamFile& stream, const TraceHeader& header, const CallIndex& calls,
               int rank, bool truncated)
      : LineRecordStream(stream.file, 0, stream.end, 1),
        parser_(header, calls, rank),
        rank_(rank),
        truncated_(truncated) {}

  bool next(Record& out) override {
    if (parser_.pending(out)) return true;
    std::string_view line;
    while (lines_.next(line)) {
      if (line.empty() || line.front() == '#') continue;
      if (parser_.ended()) fail("record after 'end'");
      if (parser_.parse(line, lines_, out)) return true;
    }
    if (!parser_.ended() && !truncated_)
      fail("the stream stops without its 'end' line, but rank-" + std::to_string(rank_) +
           ".toml says the rank completed");
    return false;
  }

 private:
  NativeRecordParser parser_;
  int rank_;
  bool truncated_;  // the rank manifest says the stream stops early
};

class NativeTrace final : public Trace {
 public:
  NativeTrace(TraceHeader header, std::vector<StreamFile> files, std::vector<bool> truncated)
      : header_(std::move(header)),
        calls_(call_index(header_)),
        files_(std::move(files)),
        truncated_(std::move(truncated)) {}

  const TraceHeader& header() const override { return header_; }

  std::unique_ptr<RecordStream> open(int task, int thread) const override {
    header_.check_stream(task, thread);
    return std::make_unique<NativeStream>(files_[static_cast<std::size_t>(task)], header_, calls_,
                                          task, truncated_[static_cast<std::size_t>(task)]);
  }

  std::uint64_t size_bytes() const override {
    std::uint64_t total = 0;
    for (const StreamFile& f : files_) total += f.end;
    return total;
  }

 private:
  TraceHeader header_;
  CallIndex calls_;
  std::vector<StreamFile> files_;
  std::vector<bool> truncated_;  // per rank
};

// A TOML basic string: quoted, with quotes, backslashes and control characters escaped.
std::string toml_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string toml_strings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + toml_quote(items[i]);
  return out + "]";
}

class File {
 public:
  explicit File(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "w")) {
    if (f_ == nullptr) throw FormatError(path, 0, "cannot create file");
  }
  ~File() {
    if (f_) std::fclose(f_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  std::FILE* get() { return f_; }
  void close() {
    bool failed = std::ferror(f_) != 0;
    failed |= std::fclose(f_) != 0;
    f_ = nullptr;
    if (failed) throw FormatError(path_, 0, "write error");
  }

 private:
  std::string path_;
  std::FILE* f_;
};

class NativeWriter final : public TraceWriter {
 public:
  NativeWriter(const std::string& dir, const TraceHeader& header) : dir_(dir), header_(header) {
    if (std::find(std::begin(kKinds), std::end(kKinds), header.kind) == std::end(kKinds))
      throw std::invalid_argument(
          "a trace set holds the kinds authentic, overlap-real, "
          "overlap-ideal, overlap-speculative, authentic-p2p and tasks, not '" +
          header.kind + "'");
    if (header.kind == "tasks")
      throw std::invalid_argument(
          "a tasks trace cannot be rewritten as a trace set (its task "
          "sections, objects and dependencies are not records)");
    if (!(header.mips > 0)) throw std::invalid_argument("a trace set needs a positive MIPS rate");
    make_output_directory(dir);
    write_manifest();
  }

  void begin(int task, int thread) override {
    if (thread != 0) throw std::invalid_argument("native trace sets have one thread per rank");
    finish_stream();
    task_ = task;
    out_ = std::make_unique<File>(set_files::stream(dir_, header_.kind, task));
    std::fprintf(out_->get(), "# tareador stream v1 kind=%s rank=%d\n", header_.kind.c_str(), task);
  }

  void write(const Record& r) override {
    std::FILE* f = out_->get();
    if (r.type == RecordType::Wait && (r.flags & kJoinedWait)) {
      std::fprintf(f, " %" PRIu64, r.request);  // continues the previous wait line
      return;
    }
    if (wait_open_) std::fputc('\n', f);
    wait_open_ = false;
    switch (r.type) {
      case RecordType::Burst: {
        double instructions = (r.flags & kInstructions) ? r.amount : r.amount * header_.mips * 1e6;
        std::fprintf(f, "cpu %.0f\n", std::round(instructions));
        break;
      }
      case RecordType::Send:
        std::fprintf(f, "%s %d %" PRId64 " %d %" PRId64 " %s", r.immediate() ? "isend" : "send",
                     r.peer, r.tag, r.comm, r.bytes, mode(r.flags));
        if (r.immediate()) std::fprintf(f, " %" PRIu64, r.request);
        if (r.lines > 0) std::fprintf(f, " lines=%" PRId32, r.lines);
        std::fputc('\n', f);
        break;
      case RecordType::Recv:
        std::fprintf(f, "%s %d %" PRId64 " %d %" PRId64, r.immediate() ? "irecv" : "recv", r.peer,
                     r.tag, r.comm, r.bytes);
        if (r.immediate()) std::fprintf(f, " %" PRIu64, r.request);
        std::fputc('\n', f);
        break;
      case RecordType::Wait:
        std::fprintf(f, "wait %" PRIu64, r.request);
        wait_open_ = true;
        break;
      case RecordType::GlobalOp:
        write_collective(f, r);
        break;
      case RecordType::Event:
        std::fprintf(f, "event %" PRIu64 " %" PRIu64 "\n", r.event_type, r.event_value);
        break;
      case RecordType::Call:
        std::fprintf(f, "call %s\n", header_.call_names.at(r.event_value).c_str());
        break;
      case RecordType::Spawn:
      case RecordType::After:
        throw std::invalid_argument("task records (spawn, after) exist only in tasks traces");
    }
  }

  void finish() override {
    finish_stream();
    for (int task = 0; task < header_.tasks(); ++task) write_rank_manifest(task);
  }

 private:
  static const char* mode(std::uint8_t flags) {
    bool rdv = flags & kRendezvous, fixed = flags & kProtocolFixed;
    return rdv ? (fixed ? "sync" : "rdv") : (fixed ? "buf" : "eager");
  }

  // A collective; Dimemas' immediate ones (no request: each kCollectiveWait waits for the
  // oldest) get requests of their own, beyond those of the stream's messages.
  void write_collective(std::FILE* f, const Record& r) {
    if (r.flags & kCollectiveWait) {
      if (fifo_collectives_.empty())
        throw std::invalid_argument("a wait for a collective that was not started");
      std::fprintf(f, "wait %" PRIu64 "\n", fifo_collectives_.front());
      fifo_collectives_.pop_front();
      return;
    }
    std::uint64_t request = r.request;
    if (r.immediate() && request == 0) {
      request = kFifoCollectiveRequests + ++fifo_collective_count_;
      fifo_collectives_.push_back(request);
    }
    std::fprintf(f, "%s %s %d %d %" PRId64 " %" PRId64, r.immediate() ? "icoll" : "coll",
                 std::string(global_op_name(r.op)).c_str(), r.comm, r.peer, r.bytes, r.bytes_recv);
    if (r.immediate()) std::fprintf(f, " %" PRIu64, request);
    std::fputc('\n', f);
  }

  void finish_stream() {
    fifo_collectives_.clear();
    if (!out_) return;
    if (wait_open_) std::fputc('\n', out_->get());
    wait_open_ = false;
    std::fputs("end\n", out_->get());
    out_->close();
    out_.reset();
  }

  void write_manifest() {
    File f(set_files::manifest(dir_));
    std::fprintf(f.get(),
                 "# Tareador trace set: see docs/trace-format.md\n"
                 "format = \"%s\"\nversion = %d\nname = %s\nranks = %d\nmips = %.17g\n"
                 "kinds = %s\n",
                 kFormatName, kFormatVersion, toml_quote(header_.name).c_str(), header_.tasks(),
                 header_.mips, toml_strings({header_.kind}).c_str());
    f.close();
  }

  void write_rank_manifest(int task) {
    File f(set_files::rank_manifest(dir_, task));
    std::fprintf(f.get(),
                 "rank = %d\nstatus = \"complete\"\nreason = \"\"\nthreads = 1\n"
                 "opaque_calls = %s\n",
                 task, toml_strings(header_.call_names).c_str());
    for (const Communicator& c : header_.communicators) {
      if (std::find(c.tasks.begin(), c.tasks.end(), task) == c.tasks.end()) continue;
      std::fprintf(f.get(), "\n[[communicator]]\nid = %d\ntasks = [", c.id);
      for (std::size_t i = 0; i < c.tasks.size(); ++i)
        std::fprintf(f.get(), "%s%d", i ? ", " : "", c.tasks[i]);
      std::fputs("]\n", f.get());
    }
    f.close();
  }

  std::string dir_;
  TraceHeader header_;
  std::unique_ptr<File> out_;
  int task_ = -1;
  bool wait_open_ = false;
  static constexpr std::uint64_t kFifoCollectiveRequests = std::uint64_t{1} << 62;
  std::deque<std::uint64_t> fifo_collectives_;  // started, not yet waited for
  std::uint64_t fifo_collective_count_ = 0;
};

}  // namespace

std::string saved_replay_run(const std::string& json_path) {
  try {
    nlohmann::json summary = nlohmann::json::parse(
        read_input_file(json_path, kMaxSmallFileBytes, "a summary"), nullptr, false);
    if (summary.is_object() && summary.contains("run") && summary["run"].is_string())
      return summary["run"].get<std::string>();
  } catch (const FormatError&) {
  }
  return {};
}

std::vector<std::string> rank_notes(const std::string& dir, int rank) {
  TraceHeader header;
  CommOrigins origins;
  std::unordered_set<std::string> call_names;
  read_rank_manifest(dir, rank, header, origins, call_names);
  return header.notes;
}

bool is_trace_set(const std::string& path) {
  std::error_code error;
  return fs::is_directory(path, error) && fs::exists(set_files::manifest(path), error);
}

std::vector<std::unique_ptr<Trace>> open_trace_set(const std::string& dir,
                                                   const std::vector<std::string>& kinds,
                                                   const OpenOptions& options) {
  SetManifest manifest = read_set_manifest(dir);
  TraceHeader base;
  base.name = manifest.name;
  base.path = dir;
  base.threads.assign(static_cast<std::size_t>(manifest.ranks), 1);
  base.mips = manifest.mips;
  base.run = manifest.run;
  check_ranks_left_files(dir, manifest);
  CommOrigins comm_origin;
  std::unordered_set<std::string> call_names(base.call_names.begin(), base.call_names.end());
  std::vector<bool> truncated;
  for (int rank = 0; rank < manifest.ranks; ++rank) {
    truncated.push_back(read_rank_manifest(dir, rank, base, comm_origin, call_names));
    if (truncated.back()) base.truncated_tasks.push_back(rank);
    std::error_code error;
    if (fs::exists(set_files::rank_manifest(dir, rank), error)) continue;
    for (const std::string& kind : manifest.kinds)  // no manifest lists its calls' names
      if (kind != "tasks" && fs::exists(set_files::stream(dir, kind, rank), error))
        add_call_names(SharedFile::open(set_files::stream(dir, kind, rank)), base, call_names);
  }
  base.sort_communicators();

  std::vector<std::unique_ptr<Trace>> traces;
  for (const std::string& kind : manifest.kinds) {
    if (!kinds.empty() && std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) continue;
    TraceHeader header = base;
    header.kind = kind;
    if (kind == "tasks") {
      std::vector<std::string> paths;
      for (int rank = 0; rank < manifest.ranks; ++rank)
        paths.push_back(set_files::stream(dir, kind, rank));
      traces.push_back(open_tasks_trace(std::move(header), paths, truncated, options.task_uses));
      continue;
    }
    std::vector<StreamFile> files;
    for (int rank = 0; rank < manifest.ranks; ++rank)
      files.push_back(open_rank_stream(set_files::stream(dir, kind, rank), rank,
                                       truncated[static_cast<std::size_t>(rank)], header.notes));
    traces.push_back(std::make_unique<NativeTrace>(std::move(header), std::move(files), truncated));
  }
  for (const std::string& kind : kinds)
    if (std::find(manifest.kinds.begin(), manifest.kinds.end(), kind) == manifest.kinds.end())
      throw FormatError(manifest.path, 0, "the set has no " + excerpt(kind) + " trace");
  return traces;
}

std::unique_ptr<TraceWriter> make_native_writer(const std::string& dir, const TraceHeader& header) {
  return std::make_unique<NativeWriter>(dir, header);
}

}  // namespace tareador::trace
