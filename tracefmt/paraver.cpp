// Paraver writer: .prv records sorted with bounded memory, plus the .pcf and .row files.
//
//   #Paraver (dd/mm/yy at hh:mm):END_ns:NODES(cpus,...):1:TASKS(threads:node,...),COMMS
//   c:1:comm:size:task...
//   1:cpu:appl:task:thread:begin:end:state
//   2:cpu:appl:task:thread:time:type:value[:type:value...]
//   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <queue>

#include "tracefmt.h"

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
    {"MPI_Send", kPointToPoint, 1},       {"MPI_Recv", kPointToPoint, 2},
    {"MPI_Isend", kPointToPoint, 3},      {"MPI_Irecv", kPointToPoint, 4},
    {"MPI_Wait", kPointToPoint, 5},       {"MPI_Waitall", kPointToPoint, 6},
    {"MPI_Bcast", kCollective, 7},        {"MPI_Barrier", kCollective, 8},
    {"MPI_Reduce", kCollective, 9},       {"MPI_Allreduce", kCollective, 10},
    {"MPI_Alltoall", kCollective, 11},    {"MPI_Alltoallv", kCollective, 12},
    {"MPI_Gather", kCollective, 13},      {"MPI_Gatherv", kCollective, 14},
    {"MPI_Scatter", kCollective, 15},     {"MPI_Scatterv", kCollective, 16},
    {"MPI_Allgather", kCollective, 17},   {"MPI_Allgatherv", kCollective, 18},
    {"MPI_Comm_rank", kOther, 19},        {"MPI_Comm_size", kOther, 20},
    {"MPI_Comm_create", kOther, 21},      {"MPI_Comm_dup", kOther, 22},
    {"MPI_Comm_split", kOther, 23},       {"MPI_Comm_group", kOther, 24},
    {"MPI_Comm_free", kOther, 25},        {"MPI_Comm_remote_group", kOther, 26},
    {"MPI_Comm_remote_size", kOther, 27}, {"MPI_Comm_test_inter", kOther, 28},
    {"MPI_Comm_compare", kOther, 29},     {"MPI_Scan", kCollective, 30},
    {"MPI_Init", kOther, 31},             {"MPI_Finalize", kOther, 32},
    {"MPI_Bsend", kPointToPoint, 33},     {"MPI_Ssend", kPointToPoint, 34},
    {"MPI_Rsend", kPointToPoint, 35},     {"MPI_Ibsend", kPointToPoint, 36},
    {"MPI_Issend", kPointToPoint, 37},    {"MPI_Irsend", kPointToPoint, 38},
    {"MPI_Test", kPointToPoint, 39},      {"MPI_Cancel", kPointToPoint, 40},
    {"MPI_Sendrecv", kPointToPoint, 41},  {"MPI_Sendrecv_replace", kPointToPoint, 42},
    {"MPI_Waitany", kPointToPoint, 59},   {"MPI_Waitsome", kPointToPoint, 60},
    {"MPI_Probe", kPointToPoint, 61},     {"MPI_Iprobe", kPointToPoint, 62},
    {"MPI_Reduce_scatter", kCollective, 80},
    {"MPI_Reduce_scatter_block", kCollective, 168},
    {"MPI_Alltoallw", kCollective, 170},  {"MPI_Init_thread", kOther, 194},
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

// ---- Records and their order ---------------------------------------------------------------

namespace {

enum Kind : std::uint8_t { kEvent = 0, kRunningState = 1, kState = 2, kComm = 3 };

struct Entry {
  std::uint64_t time;      // state begin, event time, logical send
  std::uint64_t sequence;  // order of arrival, for stable ties
  std::uint64_t a, b, c;   // state: end, value; event: type, value; comm: psend, lrecv, precv
  std::int64_t size, tag;  // comm
  std::int32_t cpu, task, thread;
  std::int32_t recv_cpu, recv_task, recv_thread;  // comm
  Kind kind;
};

bool before(const Entry& x, const Entry& y) {
  if (x.time != y.time) return x.time < y.time;
  if (x.task != y.task) return x.task < y.task;
  if (x.thread != y.thread) return x.thread < y.thread;
  if (x.kind != y.kind) return x.kind < y.kind;
  return x.sequence < y.sequence;
}

constexpr std::size_t kRunEntries = 1 << 18;  // ~24 MB per sorted run in memory
constexpr std::size_t kMergeBuffer = 1 << 11; // entries read at once from each run

// Buffered output with hand-made integer formatting (the writer's hot path).
class TextOut {
 public:
  explicit TextOut(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "wb")) {
    if (!file_) throw FormatError(path, 0, "cannot create file");
    buffer_.reserve(kSize + 256);
  }
  ~TextOut() {
    if (file_) std::fclose(file_);
  }
  void put(std::string_view text) {
    buffer_.append(text);
    flush_if_full();
  }
  void put(char c) { buffer_.push_back(c); }
  void number(std::uint64_t v) {
    char digits[24];
    char* p = digits + sizeof digits;
    do {
      *--p = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    buffer_.append(p, static_cast<std::size_t>(digits + sizeof digits - p));
  }
  void signed_number(std::int64_t v) {
    if (v < 0) {
      buffer_.push_back('-');
      number(static_cast<std::uint64_t>(-(v + 1)) + 1);
    } else {
      number(static_cast<std::uint64_t>(v));
    }
  }
  void field(std::uint64_t v) {
    buffer_.push_back(':');
    number(v);
  }
  void end_line() {
    buffer_.push_back('\n');
    flush_if_full();
  }
  void close() {
    flush();
    bool failed = std::ferror(file_) != 0;
    failed |= std::fclose(file_) != 0;
    file_ = nullptr;
    if (failed) throw FormatError(path_, 0, "write error");
  }

 private:
  static constexpr std::size_t kSize = 1 << 20;
  void flush_if_full() {
    if (buffer_.size() >= kSize) flush();
  }
  void flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
      throw FormatError(path_, 0, "write error");
    buffer_.clear();
  }
  std::string path_;
  std::FILE* file_;
  std::string buffer_;
};

// A sorted run spilled to an anonymous temporary file.
class Run {
 public:
  explicit Run(const std::vector<Entry>& sorted) : file_(std::tmpfile()) {
    if (!file_) throw std::runtime_error("cannot create a temporary file for sorting records");
    if (std::fwrite(sorted.data(), sizeof(Entry), sorted.size(), file_) != sorted.size())
      throw std::runtime_error("cannot write a temporary file for sorting records (disk full?)");
    std::rewind(file_);
  }
  ~Run() { std::fclose(file_); }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // The next entry, or nullptr at the end.
  const Entry* peek() {
    if (pos_ == buffer_.size()) {
      buffer_.resize(kMergeBuffer);
      buffer_.resize(std::fread(buffer_.data(), sizeof(Entry), kMergeBuffer, file_));
      pos_ = 0;
      if (buffer_.empty()) return nullptr;
    }
    return &buffer_[pos_];
  }
  void pop() { ++pos_; }

 private:
  std::FILE* file_;
  std::vector<Entry> buffer_;
  std::size_t pos_ = 0;
};

std::string replace_extension(const std::string& path, const char* extension) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".prv") == 0) base.resize(base.size() - 4);
  return base + extension;
}

}  // namespace

struct ParaverWriter::Impl {
  std::string path;
  ParaverLayout layout;
  std::vector<Entry> pending;
  std::vector<std::unique_ptr<Run>> runs;
  std::uint64_t sequence = 0;

  void add(Entry e) {
    e.sequence = sequence++;
    pending.push_back(e);
    if (pending.size() == kRunEntries) spill();
  }

  void spill() {
    std::sort(pending.begin(), pending.end(), before);
    runs.push_back(std::make_unique<Run>(pending));
    pending.clear();
  }

  void write_prv(std::uint64_t end_time);
  void write_pcf() const;
  void write_row() const;
};

ParaverWriter::ParaverWriter(const std::string& prv_path, ParaverLayout layout)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = prv_path;
  impl_->layout = std::move(layout);
  impl_->pending.reserve(kRunEntries);
}

ParaverWriter::~ParaverWriter() = default;

void ParaverWriter::state(int cpu, int task, int thread, std::uint64_t begin, std::uint64_t end,
                          int value) {
  if (end <= begin) return;  // Paraver drops empty states
  Entry e{};
  e.time = begin;
  e.a = end;
  e.b = static_cast<std::uint64_t>(value);
  e.cpu = cpu;
  e.task = task;
  e.thread = thread;
  e.kind = value == 1 ? kRunningState : kState;
  impl_->add(e);
}

void ParaverWriter::event(int cpu, int task, int thread, std::uint64_t time, std::uint64_t type,
                          std::uint64_t value) {
  Entry e{};
  e.time = time;
  e.a = type;
  e.b = value;
  e.cpu = cpu;
  e.task = task;
  e.thread = thread;
  e.kind = kEvent;
  impl_->add(e);
}

void ParaverWriter::communication(const ParaverCommunication& c) {
  Entry e{};
  e.time = c.logical_send;
  e.a = c.physical_send;
  e.b = c.logical_recv;
  e.c = c.physical_recv;
  e.size = c.size;
  e.tag = c.tag;
  e.cpu = c.send_cpu;
  e.task = c.send_task;
  e.thread = c.send_thread;
  e.recv_cpu = c.recv_cpu;
  e.recv_task = c.recv_task;
  e.recv_thread = c.recv_thread;
  e.kind = kComm;
  impl_->add(e);
}

void ParaverWriter::finish(std::uint64_t end_time) {
  impl_->write_prv(end_time);
  impl_->write_pcf();
  impl_->write_row();
}

void ParaverWriter::Impl::write_prv(std::uint64_t end_time) {
  TextOut out(path);
  // Header. The date is fixed so that the same replay gives the same bytes.
  out.put("#Paraver (01/01/70 at 00:00):");
  out.number(end_time);
  out.put("_ns:");
  out.number(layout.cpus_per_node.size());
  out.put('(');
  for (std::size_t n = 0; n < layout.cpus_per_node.size(); ++n) {
    if (n) out.put(',');
    out.number(static_cast<std::uint64_t>(layout.cpus_per_node[n]));
  }
  out.put("):1:");
  out.number(layout.task_node.size());
  out.put('(');
  for (std::size_t t = 0; t < layout.task_node.size(); ++t) {
    if (t) out.put(',');
    out.number(static_cast<std::uint64_t>(layout.threads[t]));
    out.put(':');
    out.number(static_cast<std::uint64_t>(layout.task_node[t] + 1));
  }
  out.put("),");
  out.number(layout.communicators.size());
  out.end_line();
  for (const Communicator& c : layout.communicators) {
    out.put("c:1");
    out.field(static_cast<std::uint64_t>(c.id));
    out.field(c.tasks.size());
    for (int task : c.tasks) out.field(static_cast<std::uint64_t>(task + 1));
    out.end_line();
  }

  auto resource = [&](const Entry& e, bool receiver) {
    out.field(static_cast<std::uint64_t>((receiver ? e.recv_cpu : e.cpu) + 1));
    out.put(":1");
    out.field(static_cast<std::uint64_t>((receiver ? e.recv_task : e.task) + 1));
    out.field(static_cast<std::uint64_t>((receiver ? e.recv_thread : e.thread) + 1));
  };
  const Entry* open_event = nullptr;  // events at one time and thread share a line
  Entry last_event{};
  auto write = [&](const Entry& e) {
    if (e.kind == kEvent && open_event && e.time == last_event.time &&
        e.task == last_event.task && e.thread == last_event.thread && e.cpu == last_event.cpu) {
      out.field(e.a);
      out.field(e.b);
      return;
    }
    if (open_event) {
      out.end_line();
      open_event = nullptr;
    }
    switch (e.kind) {
      case kEvent:
        out.put('2');
        resource(e, false);
        out.field(e.time);
        out.field(e.a);
        out.field(e.b);
        last_event = e;
        open_event = &last_event;
        return;
      case kRunningState:
      case kState:
        out.put('1');
        resource(e, false);
        out.field(e.time);
        out.field(e.a);
        out.field(e.b);
        break;
      case kComm:
        out.put('3');
        resource(e, false);
        out.field(e.time);
        out.field(e.a);
        resource(e, true);
        out.field(e.b);
        out.field(e.c);
        out.put(':');
        out.signed_number(e.size);
        out.put(':');
        out.signed_number(e.tag);
        break;
    }
    out.end_line();
  };

  if (runs.empty()) {
    std::sort(pending.begin(), pending.end(), before);
    for (const Entry& e : pending) write(e);
  } else {
    if (!pending.empty()) spill();
    auto later = [&](std::size_t x, std::size_t y) { return before(*runs[y]->peek(), *runs[x]->peek()); };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heads(later);
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (runs[i]->peek()) heads.push(i);
    while (!heads.empty()) {
      std::size_t i = heads.top();
      heads.pop();
      write(*runs[i]->peek());
      runs[i]->pop();
      if (runs[i]->peek()) heads.push(i);
    }
  }
  if (open_event) out.end_line();
  pending.clear();
  pending.shrink_to_fit();
  runs.clear();
  out.close();
}

void ParaverWriter::Impl::write_pcf() const {
  TextOut out(replace_extension(path, ".pcf"));
  out.put("DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
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
