// Paraver writer: .prv records sorted with bounded memory, plus the .pcf and .row files.
//
//   #Paraver (dd/mm/yy at hh:mm):END_ns:NODES(cpus,...):1:TASKS(threads:node,...),COMMS
//   c:1:comm:size:task...
//   1:cpu:appl:task:thread:begin:end:state
//   2:cpu:appl:task:thread:time:type:value[:type:value...]
//   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <queue>
#include <thread>

#include "paraver_sort.h"
#include "tareador/trace.h"
#include "text_out.h"

namespace tareador::trace {

// ---- Standard tables -----------------------------------------------------------------------

const std::vector<ParaverState>& paraver_states() {
  static const std::vector<ParaverState> states = {
      {0, "Idle", 117, 195, 255},
      {1, "Running", 0, 0, 255},
      {2, "Not created", 255, 255, 255},
      {3, "Waiting a message", 255, 0, 0},
      {4, "Blocking Send", 255, 0, 174},
      {5, "Synchronization", 179, 0, 0},
      {6, "Test/Probe", 0, 255, 0},
      {7, "Scheduling and Fork/Join", 200, 0, 0},
      {8, "Wait/WaitAll", 235, 0, 0},
      {9, "Blocked", 0, 162, 0},
      {10, "Immediate Send", 255, 0, 255},
      {11, "Immediate Receive", 100, 100, 177},
      {12, "I/O", 172, 174, 41},
      {13, "Group Communication", 255, 144, 26},
      {14, "Tracing Disabled", 2, 255, 177},
      {15, "Others", 192, 224, 0},
      {16, "Send Receive", 66, 66, 66},
      {17, "Memory transfer", 255, 0, 96},
      {18, "Profiling", 169, 169, 169},
      {19, "On-line analysis", 169, 0, 0},
      {20, "Remote memory access", 0, 109, 255},
      {21, "Atomic memory operation", 200, 61, 68},
      {22, "Memory ordering operation", 200, 66, 0},
      {23, "Distributed locking", 0, 41, 0},
      {24, "Overhead", 139, 121, 177},
      {25, "One Sided OP", 116, 116, 116},
      {26, "Startup Latency", 200, 50, 89},
      {27, "Waiting links", 255, 171, 98},
      {28, "Data copy", 0, 68, 189},
      {29, "Round Trip Time", 52, 43, 0},
  };
  return states;
}

namespace {

constexpr std::uint64_t kPointToPoint = 50000001, kCollective = 50000002, kOther = 50000003;

struct MpiCall {
  const char* name;
  std::uint64_t type, value;
};

// Extrae's numbering (EventEncoding.h).
constexpr MpiCall kMpiCalls[] = {
    {"MPI_Send", kPointToPoint, 1},
    {"MPI_Recv", kPointToPoint, 2},
    {"MPI_Isend", kPointToPoint, 3},
    {"MPI_Irecv", kPointToPoint, 4},
    {"MPI_Wait", kPointToPoint, 5},
    {"MPI_Waitall", kPointToPoint, 6},
    {"MPI_Bcast", kCollective, 7},
    {"MPI_Barrier", kCollective, 8},
    {"MPI_Reduce", kCollective, 9},
    {"MPI_Allreduce", kCollective, 10},
    {"MPI_Alltoall", kCollective, 11},
    {"MPI_Alltoallv", kCollective, 12},
    {"MPI_Gather", kCollective, 13},
    {"MPI_Gatherv", kCollective, 14},
    {"MPI_Scatter", kCollective, 15},
    {"MPI_Scatterv", kCollective, 16},
    {"MPI_Allgather", kCollective, 17},
    {"MPI_Allgatherv", kCollective, 18},
    {"MPI_Comm_rank", kOther, 19},
    {"MPI_Comm_size", kOther, 20},
    {"MPI_Comm_create", kOther, 21},
    {"MPI_Comm_dup", kOther, 22},
    {"MPI_Comm_split", kOther, 23},
    {"MPI_Comm_group", kOther, 24},
    {"MPI_Comm_free", kOther, 25},
    {"MPI_Comm_remote_group", kOther, 26},
    {"MPI_Comm_remote_size", kOther, 27},
    {"MPI_Comm_test_inter", kOther, 28},
    {"MPI_Comm_compare", kOther, 29},
    {"MPI_Scan", kCollective, 30},
    {"MPI_Init", kOther, 31},
    {"MPI_Finalize", kOther, 32},
    {"MPI_Bsend", kPointToPoint, 33},
    {"MPI_Ssend", kPointToPoint, 34},
    {"MPI_Rsend", kPointToPoint, 35},
    {"MPI_Ibsend", kPointToPoint, 36},
    {"MPI_Issend", kPointToPoint, 37},
    {"MPI_Irsend", kPointToPoint, 38},
    {"MPI_Test", kPointToPoint, 39},
    {"MPI_Cancel", kPointToPoint, 40},
    {"MPI_Sendrecv", kPointToPoint, 41},
    {"MPI_Sendrecv_replace", kPointToPoint, 42},
    {"MPI_Waitany", kPointToPoint, 59},
    {"MPI_Waitsome", kPointToPoint, 60},
    {"MPI_Probe", kPointToPoint, 61},
    {"MPI_Iprobe", kPointToPoint, 62},
    {"MPI_Reduce_scatter", kCollective, 80},
    {"MPI_Bsend_init", kPointToPoint, 112},
    {"MPI_Recv_init", kPointToPoint, 116},
    {"MPI_Send_init", kPointToPoint, 117},
    {"MPI_Rsend_init", kPointToPoint, 121},
    {"MPI_Ssend_init", kPointToPoint, 122},
    {"MPI_Start", kPointToPoint, 123},
    {"MPI_Startall", kPointToPoint, 124},
    {"MPI_Reduce_scatter_block", kCollective, 168},
    {"MPI_Alltoallw", kCollective, 170},
    {"MPI_Init_thread", kOther, 194},
};

}  // namespace

std::vector<ParaverEventType> paraver_mpi_event_types() {
  std::vector<ParaverEventType> types = {{kPointToPoint, "MPI Point-to-point", {}},
                                         {kCollective, "MPI Collective Comm", {}},
                                         {kOther, "MPI Other", {}}};
  for (ParaverEventType& type : types) {
    type.values.emplace_back(0, "End");
    for (const MpiCall& call : kMpiCalls)
      if (call.type == type.type) type.values.emplace_back(call.value, call.name);
  }
  return types;
}

std::pair<std::uint64_t, std::uint64_t> paraver_mpi_event(std::string_view call) {
  for (const MpiCall& c : kMpiCalls)
    if (call == c.name) return {c.type, c.value};
  return {0, 0};
}

// ---- The writer ----------------------------------------------------------------------------

namespace {

using paraver::Entry;
using paraver::kComm;
using paraver::kEvent;
using paraver::kMaxRowTasks;
using paraver::kMaxRowThreads;
using paraver::kRunningState;
using paraver::kState;
using paraver::make_key;

// Appends the contents of `from` past its first `offset` bytes to `to`, letting the kernel copy
// the bytes.
void append_file(const std::string& from, std::uint64_t offset, const std::string& to) {
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) throw FormatError(from, 0, std::string("cannot read: ") + std::strerror(errno));
  int out = ::open(to.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (out < 0) {
    ::close(in);
    throw FormatError(to, 0, std::string("cannot append: ") + std::strerror(errno));
  }
  char buffer[1 << 16];
  bool failed = ::lseek(in, static_cast<off_t>(offset), SEEK_SET) < 0;
  while (!failed) {
    ssize_t n = ::copy_file_range(in, nullptr, out, nullptr, 1 << 30, 0);
    if (n > 0) continue;
    if (n == 0) break;
    // Not supported here (other file systems): copy through a buffer instead.
    for (;;) {
      ssize_t got = ::read(in, buffer, sizeof buffer);
      if (got == 0) break;
      if (got < 0 || ::write(out, buffer, static_cast<std::size_t>(got)) != got) {
        failed = true;
        break;
      }
    }
    break;
  }
  failed |= ::close(out) != 0;
  ::close(in);
  if (failed) throw FormatError(to, 0, std::string("write error: ") + std::strerror(errno));
}

// Writes `text` over the first bytes of the file at `path`.
void overwrite_start(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw FormatError(path, 0, std::string("cannot write: ") + std::strerror(errno));
  bool failed = ::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size());
  failed |= ::close(fd) != 0;
  if (failed) throw FormatError(path, 0, std::string("write error: ") + std::strerror(errno));
}

void append_number(std::string& text, std::uint64_t v) {
  char digits[24];
  text.append(digits, format_decimal(digits, v));
}

// The header: its end time has 20 digits, zero-padded as BSC's own ovni writes it (Paraver reads
// a number), so that the header written before the body with end time 0 keeps its place when the
// end is known. The date is fixed so that the same replay gives the same bytes.
std::string header_text(const ParaverLayout& layout, std::uint64_t end_time) {
  constexpr std::size_t kEndDigits = 20;  // 2^64 - 1 has 20
  std::string end;
  append_number(end, end_time);
  std::string text = "#Paraver (01/01/70 at 00:00):";
  text.append(kEndDigits - end.size(), '0');
  text += end;
  text += "_ns:";
  append_number(text, layout.cpus_per_node.size());
  text += '(';
  for (std::size_t n = 0; n < layout.cpus_per_node.size(); ++n) {
    if (n) text += ',';
    append_number(text, static_cast<std::uint64_t>(layout.cpus_per_node[n]));
  }
  text += "):1:";
  append_number(text, layout.task_node.size());
  text += '(';
  for (std::size_t t = 0; t < layout.task_node.size(); ++t) {
    if (t) text += ',';
    append_number(text, static_cast<std::uint64_t>(layout.threads[t]));
    text += ':';
    append_number(text, static_cast<std::uint64_t>(layout.task_node[t] + 1));
  }
  text += "),";
  append_number(text, layout.communicators.size());
  text += '\n';
  auto field = [&text](std::uint64_t v) {
    text += ':';
    append_number(text, v);
  };
  for (const Communicator& c : layout.communicators) {
    text += "c:1";
    field(static_cast<std::uint64_t>(c.id));
    field(c.tasks.size());
    for (int task : c.tasks) field(static_cast<std::uint64_t>(task + 1));
    text += '\n';
  }
  return text;
}

std::string replace_extension(const std::string& path, const char* extension) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".prv") == 0)
    base.resize(base.size() - 4);
  return base + extension;
}

}  // namespace

// The producer (the replay) hands records over in batches; a writer thread sorts and formats
// them, so that a replay with Paraver output uses the second core.
struct ParaverWriter::Impl {
  static constexpr std::size_t kBatch = 1 << 15, kMaxJobs = 2;
  struct Job {
    paraver::Batch batch;
    std::uint64_t bound;
  };

  std::string path;
  ParaverLayout layout;
  std::string provisional_header;  // written before the body, end time 0
  paraver::SortedBody sorted;      // the writer thread's, until it is joined
  bool finished = false;           // the trace is whole: else it is removed
  paraver::Batch batch;
  std::uint64_t bound = 0;  // the latest promise
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Job> jobs;
  std::vector<paraver::Batch> spare;  // emptied batches, for reuse
  bool closing = false;
  std::exception_ptr error;
  std::thread writer;

  Impl(const std::string& prv_path, ParaverLayout l)
      : path(prv_path),
        layout(checked(std::move(l))),
        provisional_header(header_text(layout, 0)),
        sorted(prv_path, provisional_header) {
    batch.entries.reserve(kBatch);
    writer = std::thread([this] { run(); });
  }

  ~Impl() { join(); }

  // `layout`, if the records' keys can hold its rows (before the file is created).
  static ParaverLayout checked(ParaverLayout layout) {
    if (layout.task_node.size() > static_cast<std::size_t>(kMaxRowTasks))
      throw std::length_error("Paraver writer: more than 2^20 tasks");
    for (int threads : layout.threads)
      if (threads > kMaxRowThreads)
        throw std::length_error("Paraver writer: more than 2^12 threads");
    return layout;
  }

  void add(const Entry& e) {
    batch.entries.push_back(e);
    if (batch.entries.size() == kBatch) submit();
  }

  void promise(std::uint64_t time) {
    bound = time;
    if (batch.entries.size() >= kBatch / 4) submit();  // small batches are not worth a hand-over
  }

  void submit() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return jobs.size() < kMaxJobs || error; });
    if (error) std::rethrow_exception(error);
    jobs.push_back(Job{std::move(batch), bound});
    if (spare.empty()) {
      batch = {};
      batch.entries.reserve(kBatch);
    } else {
      batch = std::move(spare.back());
      spare.pop_back();
    }
    changed.notify_all();
  }

  void run() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return !jobs.empty() || closing; });
        if (jobs.empty()) return;
        job = std::move(jobs.front());
        jobs.pop_front();
        changed.notify_all();
      }
      try {
        sorted.take(std::move(job.batch), job.bound);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        error = std::current_exception();
        changed.notify_all();
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      for (paraver::Batch& emptied : sorted.take_emptied()) {
        emptied.clear();
        spare.push_back(std::move(emptied));
      }
    }
  }

  // Hands over the last batch and waits for the writer thread to be done with everything.
  void join() {
    if (!writer.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex);
      closing = true;
    }
    changed.notify_all();
    writer.join();
  }

  void finish(std::uint64_t end_time) {
    submit();
    join();
    if (error) std::rethrow_exception(error);
    sorted.write_rest();
    write_prv(end_time);
    write_pcf();
    write_row();
    finished = true;
  }

  void write_prv(std::uint64_t end_time);
  void write_pcf() const;
  void write_row() const;
};

ParaverWriter::ParaverWriter(const std::string& prv_path, ParaverLayout layout)
    : impl_(std::make_unique<Impl>(prv_path, std::move(layout))) {}

ParaverWriter::~ParaverWriter() {
  impl_->join();
  if (!impl_->finished) std::remove(impl_->path.c_str());  // no trace rather than part of one
}

void ParaverWriter::state(int cpu, int task, int thread, std::uint64_t begin, std::uint64_t end,
                          int value) {
  if (end <= begin) return;  // Paraver drops empty states
  impl_->add({make_key(begin, task, thread, value == 1 ? kRunningState : kState), end,
              static_cast<std::uint64_t>(value), cpu, 0});
}

void ParaverWriter::event(int cpu, int task, int thread, std::uint64_t time, std::uint64_t type,
                          std::uint64_t value) {
  impl_->add({make_key(time, task, thread, kEvent), type, value, cpu, 0});
}

void ParaverWriter::call(int cpu, int task, int thread, std::uint64_t begin, std::uint64_t end,
                         std::uint64_t type, std::uint64_t value) {
  impl_->add({make_key(begin, task, thread, kEvent), type, value, cpu, 0});
  impl_->add({make_key(end, task, thread, kEvent), type, 0, cpu, 0});
}

void ParaverWriter::communication(const ParaverCommunication& c) {
  std::vector<paraver::CommFields>& comms = impl_->batch.comms;
  auto index = static_cast<std::uint32_t>(comms.size());
  comms.push_back({c.physical_recv, c.size, c.tag, c.recv_cpu, c.recv_task, c.recv_thread});
  impl_->add({make_key(c.logical_send, c.send_task, c.send_thread, kComm), c.physical_send,
              c.logical_recv, c.send_cpu, index});
}

void ParaverWriter::flush_before(std::uint64_t time) { impl_->promise(time); }

void ParaverWriter::shrink_threads(int task, int threads) {
  // The layout is read only by finish() (the writer thread formats records without it).
  int& current = impl_->layout.threads.at(static_cast<std::size_t>(task));
  current = std::max(1, std::min(current, threads));
  if (static_cast<std::size_t>(task) < impl_->layout.thread_names.size())
    impl_->layout.thread_names[static_cast<std::size_t>(task)].resize(
        static_cast<std::size_t>(current));
}

void ParaverWriter::finish(std::uint64_t end_time) { impl_->finish(end_time); }

// The header takes the place of the one written before the body. One of another length (a tasks
// trace that used fewer rows than the layout reserved) goes before a copy of the body.
void ParaverWriter::Impl::write_prv(std::uint64_t end_time) {
  std::string header = header_text(layout, end_time);
  if (header.size() == provisional_header.size()) {
    overwrite_start(path, header);
    return;
  }
  std::string rewritten = path + ".tmp";
  try {
    {
      TextOut out(rewritten);
      out.put(header);
      out.close();
    }
    append_file(path, provisional_header.size(), rewritten);
    if (std::rename(rewritten.c_str(), path.c_str()) != 0)
      throw FormatError(path, 0, std::string("cannot replace: ") + std::strerror(errno));
  } catch (...) {
    std::remove(rewritten.c_str());
    throw;
  }
}

void ParaverWriter::Impl::write_pcf() const {
  TextOut out(replace_extension(path, ".pcf"));
  out.put(
      "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
      "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
      "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\n"
      "DEFAULT_SEMANTIC\n\nTHREAD_FUNC         State As Is\n\n\nSTATES\n");
  for (const ParaverState& s : layout.states) {
    out.number(static_cast<std::uint64_t>(s.value));
    out.put('\t');
    out.put(s.name);
    out.end_line();
  }
  out.put("\n\nSTATES_COLOR\n");
  for (const ParaverState& s : layout.states) {
    out.number(static_cast<std::uint64_t>(s.value));
    out.put("\t{");
    out.number(static_cast<std::uint64_t>(s.red));
    out.put(',');
    out.number(static_cast<std::uint64_t>(s.green));
    out.put(',');
    out.number(static_cast<std::uint64_t>(s.blue));
    out.put('}');
    out.end_line();
  }
  for (const ParaverEventType& type : layout.event_types) {
    out.put("\n\nEVENT_TYPE\n0    ");
    out.number(type.type);
    out.put("    ");
    out.put(type.name);
    out.end_line();
    if (type.values.empty()) continue;
    out.put("VALUES\n");
    for (const auto& [value, name] : type.values) {
      out.number(value);
      out.put("      ");
      out.put(name);
      out.end_line();
    }
  }
  out.put("\n\nGRADIENT_COLOR\n");
  static const int gradient[15][3] = {{0, 255, 2},   {0, 244, 13},  {0, 232, 25},  {0, 220, 37},
                                      {0, 209, 48},  {0, 197, 60},  {0, 185, 72},  {0, 173, 84},
                                      {0, 162, 95},  {0, 150, 107}, {0, 138, 119}, {0, 127, 130},
                                      {0, 115, 142}, {0, 103, 154}, {0, 91, 166}};
  for (int i = 0; i < 15; ++i) {
    out.number(static_cast<std::uint64_t>(i));
    out.put("    {");
    out.number(static_cast<std::uint64_t>(gradient[i][0]));
    out.put(',');
    out.number(static_cast<std::uint64_t>(gradient[i][1]));
    out.put(',');
    out.number(static_cast<std::uint64_t>(gradient[i][2]));
    out.put('}');
    out.end_line();
  }
  out.put("\n\nGRADIENT_NAMES\n");
  for (int i = 0; i < 15; ++i) {
    out.number(static_cast<std::uint64_t>(i));
    out.put("    Gradient ");
    out.number(static_cast<std::uint64_t>(i));
    out.end_line();
  }
  out.close();
}

void ParaverWriter::Impl::write_row() const {
  TextOut out(replace_extension(path, ".row"));
  auto node_name = [&](std::size_t n) {
    return n < layout.node_names.size() ? layout.node_names[n] : "node " + std::to_string(n + 1);
  };
  std::uint64_t cpus = 0;
  for (int c : layout.cpus_per_node) cpus += static_cast<std::uint64_t>(c);
  out.put("LEVEL CPU SIZE ");
  out.number(cpus);
  out.end_line();
  for (std::size_t n = 0; n < layout.cpus_per_node.size(); ++n)
    for (int c = 0; c < layout.cpus_per_node[n]; ++c) {
      out.put(node_name(n));
      out.put(".cpu ");
      out.number(static_cast<std::uint64_t>(c + 1));
      out.end_line();
    }
  out.put("\nLEVEL NODE SIZE ");
  out.number(layout.cpus_per_node.size());
  out.end_line();
  for (std::size_t n = 0; n < layout.cpus_per_node.size(); ++n) {
    out.put(node_name(n));
    out.end_line();
  }
  out.put("\nLEVEL APPL SIZE 1\n");
  out.put(layout.application);
  out.end_line();
  out.put("\nLEVEL TASK SIZE ");
  out.number(layout.task_node.size());
  out.end_line();
  for (std::size_t t = 0; t < layout.task_node.size(); ++t) {
    out.put("rank ");
    out.number(t);
    out.end_line();
  }
  std::uint64_t threads = 0;
  for (int t : layout.threads) threads += static_cast<std::uint64_t>(t);
  out.put("\nLEVEL THREAD SIZE ");
  out.number(threads);
  out.end_line();
  for (std::size_t t = 0; t < layout.threads.size(); ++t)
    for (int th = 0; th < layout.threads[t]; ++th) {
      if (t < layout.thread_names.size() &&
          static_cast<std::size_t>(th) < layout.thread_names[t].size()) {
        out.put(layout.thread_names[t][static_cast<std::size_t>(th)]);
        out.end_line();
        continue;
      }
      out.put("rank ");
      out.number(t);
      if (layout.threads[t] > 1) {
        out.put('.');
        out.number(static_cast<std::uint64_t>(th));
      }
      out.end_line();
    }
  out.close();
}

}  // namespace tareador::trace
