// The trace model: names of global operations, header queries, dispatch of inputs to readers.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <tuple>

#include <unistd.h>

#include "tareador/trace.h"

namespace tareador::trace {

std::vector<std::unique_ptr<Trace>> open_trace_set(const std::string& dir,
                                                   const std::vector<std::string>& kinds,
                                                   const OpenOptions& options);

FormatError::FormatError(std::string file, std::uint64_t line, const std::string& message)
    : std::runtime_error(file + (line ? ":" + std::to_string(line) : std::string()) + ": " +
                         message),
      file_(std::move(file)),
      line_(line),
      message_(message) {}

namespace {
constexpr std::string_view kGlobalOpNames[kGlobalOpCount] = {
    "MPI_Barrier",        "MPI_Bcast",
    "MPI_Gather",         "MPI_Gatherv",
    "MPI_Scatter",        "MPI_Scatterv",
    "MPI_Allgather",      "MPI_Allgatherv",
    "MPI_Alltoall",       "MPI_Alltoallv",
    "MPI_Reduce",         "MPI_Allreduce",
    "MPI_Reduce_scatter", "MPI_Reduce_scatter_block",
    "MPI_Scan",           "MPI_Alltoallw",
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::string_view global_op_name(int id) {
  return id >= 0 && id < kGlobalOpCount ? kGlobalOpNames[id] : std::string_view();
}

int global_op_from_name(std::string_view name) {
  if (name.size() > 4 && iequals(name.substr(0, 4), "MPI_")) name.remove_prefix(4);
  auto blocking = [](std::string_view op) {
    if (iequals(op, "Exscan")) return static_cast<int>(kScan);
    for (int id = 0; id < kGlobalOpCount; ++id)
      if (iequals(op, kGlobalOpNames[id].substr(4))) return id;
    return -1;
  };
  // A persistent collective (MPI_Allreduce_init) is its blocking one, started by MPI_Start.
  constexpr std::string_view kPersistent = "_init";
  if (name.size() > kPersistent.size() &&
      iequals(name.substr(name.size() - kPersistent.size()), kPersistent))
    return blocking(name.substr(0, name.size() - kPersistent.size()));
  int id = blocking(name);
  // A non-blocking collective (MPI_Iallreduce) is the global operation of its blocking one.
  if (id < 0 && name.size() > 1 && (name[0] == 'I' || name[0] == 'i'))
    id = blocking(name.substr(1));
  return id;
}

namespace {
auto channel_fields(const Channel& c) {
  return std::tie(c.src_task, c.src_thread, c.dst_task, c.dst_thread, c.tag, c.comm);
}
}  // namespace

bool Channel::operator<(const Channel& o) const {
  return channel_fields(*this) < channel_fields(o);
}

Channel channel_of(const Record& record, int task, int thread) {
  bool threads = record.peer_thread >= 0;
  Channel c;
  c.tag = record.tag;
  c.comm = record.comm;
  if (record.type == RecordType::Send) {
    c.src_task = task;
    c.src_thread = threads ? thread : -1;
    c.dst_task = record.peer;
    c.dst_thread = record.peer_thread;
  } else {
    c.src_task = record.peer;
    c.src_thread = record.peer_thread;
    c.dst_task = task;
    c.dst_thread = threads ? thread : -1;
  }
  return c;
}

const Communicator* TraceHeader::communicator(int id) const {
  auto it = std::lower_bound(communicators.begin(), communicators.end(), id,
                             [](const Communicator& c, int v) { return c.id < v; });
  if (it != communicators.end() && it->id == id) return &*it;
  for (const Communicator& c : communicators)  // (not sorted)
    if (c.id == id) return &c;
  return nullptr;
}

void TraceHeader::sort_communicators() {
  std::stable_sort(communicators.begin(), communicators.end(),
                   [](const Communicator& a, const Communicator& b) { return a.id < b.id; });
}

int repeated_member(std::vector<int> tasks) {
  std::sort(tasks.begin(), tasks.end());
  auto twice = std::adjacent_find(tasks.begin(), tasks.end());
  return twice == tasks.end() ? -1 : *twice;
}

void TraceHeader::check_stream(int task, int thread) const {
  if (task < 0 || task >= tasks() || thread < 0 ||
      thread >= threads[static_cast<std::size_t>(task)])
    throw std::out_of_range("no stream for task " + std::to_string(task) + " thread " +
                            std::to_string(thread));
}

std::vector<std::unique_ptr<Trace>> open_traces(const std::string& path,
                                                const std::vector<std::string>& kinds,
                                                const OpenOptions& options) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    if (!is_trace_set(path))
      throw FormatError(path, 0, "directory is not a trace set (no manifest.toml)");
    return open_trace_set(path, kinds, options);
  }
  // A path that cannot be read says so before anything is said of its kind.
  ::close(open_input_file(path).fd);
  if (!kinds.empty() && std::find(kinds.begin(), kinds.end(), "dimemas") == kinds.end())
    throw FormatError(path, 0,
                      "a Dimemas trace has kind 'dimemas'; the kinds asked for select "
                      "traces of a trace set");
  std::vector<std::unique_ptr<Trace>> traces;
  traces.push_back(open_dimemas(path));
  return traces;
}

void copy_trace(const Trace& trace, TraceWriter& writer) {
  const TraceHeader& header = trace.header();
  Record record;
  for (int task = 0; task < header.tasks(); ++task) {
    for (int thread = 0; thread < header.threads[static_cast<std::size_t>(task)]; ++thread) {
      writer.begin(task, thread);
      auto stream = trace.open(task, thread);
      while (stream->next(record)) writer.write(record);
    }
  }
  writer.finish();
}

}  // namespace tareador::trace
